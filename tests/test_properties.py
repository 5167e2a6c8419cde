"""Properties of random legal hands of every variant (hardening).

Each example deals one seeded hand through the engine (:func:`replay.demo.randomhand.random_hand`,
legal by construction: every action is one the engine offers) in one of the 45 codes
(``N``/``P``/``F`` with every game), sometimes as a high-low declare game, sometimes with odd
chips carried to the next hand, and checks:

* chips are conserved: final stacks plus chips carried out equal the starting stacks;
* awards are never above contributions: each pot pays out exactly its amount to eligible
  players, and no player wins more than he matched from each opponent (the side-pot bound);
  a refund goes only to the biggest bettor and never exceeds what he put in;
* replay is deterministic: replaying the stored events twice, or from a fresh parse, gives
  the same result as the engine had while dealing;
* JSON lines and PHH round trip: the events written and read back are the same events (and
  the same bytes when written again), and replay to the same result.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.games import all_codes, game
from engine.settle import HandResult, settle
from ledger.formats.jsonl import read_jsonl_text, write_jsonl
from ledger.formats.phh.read import read_phh_text
from ledger.model import events as ev
from ledger.model.errors import MalformedInput
from replay.build import events_from_phh
from replay.demo.randomhand import RandomHand, random_hand
from replay.fold import replay_events
from replay.hand_replay import replay_json
from replay.ingest.export import phh_text

CODES = all_codes()
EXAMPLES = 25  # per code and property: 45 codes


@st.composite
def hands(draw: st.DrawFn, code: str) -> RandomHand:
    seed = draw(st.integers(0, 2**32 - 1))
    players = draw(st.one_of(st.none(), st.integers(2, 4)))
    declare = None
    if game(code).hole_count >= 5:  # a 4-card game cannot be declared (refused at hand start)
        declare = draw(st.sampled_from([None, None, ev.DeclareOptions(),
                                        ev.DeclareOptions(method="in_turn", swing_ties="allowed")]))
    split = draw(st.sampled_from([None, None, ev.SplitOptions(
        odd_chip_tie_order="carry_to_next_hand")]))
    return random_hand(random.Random(seed), code, players=players, hand_id=f"{code}-{seed}",
                       declare=declare, split=split)


def _check_conservation(result: HandResult) -> None:
    starting = sum(result.starting.values())
    assert sum(result.final_stacks.values()) + result.carried == starting + result.carried_in
    put_in = sum(result.contributions.values()) - sum(result.returned.values())
    assert sum(result.awards.values()) + result.carried == put_in + result.carried_in
    assert all(chips >= 0 for chips in result.final_stacks.values())


def _check_awards_bounded(result: HandResult, folded: set[str]) -> None:
    contributed = result.contributions
    assert len(result.returned) <= 1
    for player, chips in result.returned.items():
        assert 0 < chips <= contributed[player]
        assert contributed[player] == max(contributed.values())
    after = {p: c - result.returned.get(p, 0) for p, c in contributed.items()}
    for pot in result.pots:
        assert pot.amount > 0
        assert set(pot.awards) <= set(pot.eligible)
        assert not set(pot.eligible) & folded
        if pot.verifiable:
            assert sum(pot.awards.values()) + pot.carried == pot.amount
    for p, won in result.awards.items():
        assert won >= 0
        if won:
            matched = sum(min(c, after[p]) for c in after.values())
            assert won <= matched + result.carried_in, (p, won, matched)


@pytest.mark.parametrize("code", CODES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_chips_conserved_and_awards_bounded(code: str, data: st.DataObject) -> None:
    hand = data.draw(hands(code))
    result = settle(hand.state)
    _check_conservation(result)
    _check_awards_bounded(result, hand.state.folded | set(hand.state.mucked))


@pytest.mark.parametrize("code", CODES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_replay_is_deterministic(code: str, data: st.DataObject) -> None:
    hand = data.draw(hands(code))
    first, second = replay_events(hand.events), replay_events(list(hand.events))
    assert first == second
    assert first.result == settle(hand.state)
    reparsed = [ev.parse_event(ev.event_json(e)) for e in hand.events]
    assert replay_json(replay_events(reparsed)) == replay_json(first)


@pytest.mark.parametrize("code", CODES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_jsonl_and_phh_round_trips(code: str, data: st.DataObject) -> None:
    hand = data.draw(hands(code))
    hand_id = hand.events[0].hand
    expected = replay_json(replay_events(hand.events))

    text = write_jsonl((hand_id, seq, e) for seq, e in enumerate(hand.events, 1))
    read = read_jsonl_text(text, file="x.jsonl").check()
    assert [s.id for s in read.hands] == [hand_id]
    assert read.hands[0].events == hand.events
    assert write_jsonl(read.rows()) == text
    assert replay_json(replay_events(read.hands[0].events)) == expected

    if expected["carried"]:  # chips left to a next hand no carry_over records yet (README)
        with pytest.raises(MalformedInput, match="PHH holds no pot carried between hands"):
            phh_text(hand.events)
        return
    phh = phh_text(hand.events)
    parsed = read_phh_text(phh, file="x.phh", multi=False).check()
    back = events_from_phh(parsed[0])
    assert _plain(back) == _plain(hand.events)
    assert phh_text(back) == phh
    again = replay_json(replay_events(back))
    assert {k: again[k] for k in ("pots", "net", "final_stacks", "returned", "carried")} == {
        k: expected[k] for k in ("pots", "net", "final_stacks", "returned", "carried")}


def _plain(events: list) -> list[dict]:
    """Events as JSON without what only names them (the hand id, where it was read from)."""
    out = []
    for e in events:
        data = json.loads(ev.event_json(e))
        if data["type"] == "hand_started":
            data.pop("hand")
            data.pop("source")
        out.append(data)
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), code=st.sampled_from(CODES), at=st.integers(1, 60))
def test_a_voided_hand_gives_every_chip_back(seed: int, code: str, at: int) -> None:
    hand = random_hand(random.Random(seed), code, hand_id="v")
    cut = hand.events[: max(1, min(at, len(hand.events) - 1))]
    result = replay_events([*cut, ev.HandVoided(reason="misdeal", by="host")]).result
    assert result.final_stacks == result.starting
    assert not any(result.awards.values())


def test_a_badugi_declare_hand_is_refused_at_hand_start() -> None:
    """Badugi hands have four cards: no five-card high or low to declare for."""
    with pytest.raises(IllegalAction, match="cannot be a declare game"):
        random_hand(random.Random(3), "FB", hand_id="b", declare=ev.DeclareOptions())
