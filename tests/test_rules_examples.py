"""The worked examples of RULES.md §6 replay through the whole engine to their `_expected`.

Each file in ../shared/data/rules is read by the PHH reader, built into events action by action
by the engine, settled, and compared with its `_expected` table: pots (amount, eligible),
each pot's split, awards, returned (uncalled) chips, carried chips and contributions.
"""

from __future__ import annotations

import pytest

from ledger.formats.phh.read import read_phh
from replay.build import events_from_phh
from replay.fold import replay_events
from tests.conftest import SHARED

CARDS_SPEAK = ["ex01", "ex02", "ex03", "ex04", "ex05"]
DECLARE = ["ex06", "ex09", "ex11"]


def _check(name: str) -> None:
    (hand,) = read_phh(SHARED / "rules" / f"{name}.phh").check()
    expected = hand.expected
    assert expected is not None
    result = replay_events(events_from_phh(hand)).result
    assert [(p.amount, p.eligible) for p in result.pots] == [
        (p.amount, p.eligible) for p in expected.pots
    ]
    assert [p.awards for p in result.pots] == [dict(a) for a in expected.pot_awards]
    assert {p: c for p, c in result.awards.items()} == dict(expected.awards)
    assert result.returned == dict(expected.returned)
    assert result.carried == expected.carried
    assert result.contributions == dict(expected.contributions)
    total = sum(result.contributions.values())
    assert total == sum(p.amount for p in result.pots) + sum(result.returned.values())


@pytest.mark.parametrize("name", CARDS_SPEAK)
def test_cards_speak_examples(name: str) -> None:
    _check(name)


def test_ex04_alternative_odd_chip_to_the_quartered_low() -> None:
    """RULES.md §2.3: with low_if_low_quartered the high hand gets 31, each low 16."""
    (hand,) = read_phh(SHARED / "rules" / "ex04.phh").check()
    split = hand.started.options.split.model_copy(
        update={"odd_chip_between_halves": "low_if_low_quartered"}
    )
    options = hand.started.options.model_copy(update={"split": split})
    started = hand.started.model_copy(update={"options": options})
    events = events_from_phh(hand)
    result = replay_events([started, *events[1:]]).result
    assert [p.awards for p in result.pots] == [{"P2": 31, "P3": 16, "P4": 16}]


@pytest.mark.parametrize("name", DECLARE)
def test_declare_examples(name: str) -> None:
    _check(name)
