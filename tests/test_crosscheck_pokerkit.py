"""Seeded random legal hands of every PHH variant, cross-checked against pokerkit.

Each hand is dealt and played through our engine (replay.demo.randomhand, ``oracle=True`` keeps
to the rules pokerkit shares: FORMATS.md §1), written as PHH by our exporter, and replayed
strictly by pokerkit (tests/pokerkit_oracle.py: no silent repairs). Final stacks must agree,
except where FORMATS.md lists a known difference in who gets an odd chip (pokerkit merges
pots with the same players and gives the whole remainder of a three-way split to the first
winner): such hands must differ only among the players who shared a split pot, by at most
one chip per split pot, and are counted. In hi-lo, pokerkit halves every pot as soon as anyone
at the table has a qualifying low, where RULES.md §2.4 gives a pot in which no eligible player
has one to the best high: those hands are counted too, and checked to contain such a pot.
"""

from __future__ import annotations

import random

import pytest

from engine.evaluate import best_low
from engine.games import PHH_CODES
from engine.settle import settle
from ledger.formats.phh.read import write_phh
from replay.demo.randomhand import random_hand
from tests.pokerkit_oracle import final_stacks

HANDS = 2000


def _cross_check(code: str, hands: int, seed: int) -> dict[str, int]:
    rng = random.Random(f"{code}:{seed}")
    counts = {"same": 0, "odd_chip": 0, "hilo_no_low": 0, "side_pots": 0, "all_in": 0}
    for i in range(hands):
        hand = random_hand(rng, code, hand_id=f"{code}-{i}", oracle=True)
        result = settle(hand.state)
        started = hand.events[0]
        forced = [e for e in hand.events if e.type == "forced_bet" and e.kind != "bring_in"]
        text = write_phh(started, forced, hand.actions)
        theirs = [int(x) for x in final_stacks(text)]
        ours = [result.final_stacks[p] for p in hand.state.players]
        assert sum(ours) == sum(s.stack for s in started.seats)
        counts["side_pots"] += len(result.pots) > 1
        counts["all_in"] += bool(hand.state.all_in)
        if ours == theirs:
            counts["same"] += 1
            continue
        if _pot_without_low(hand.state, result):
            counts["hilo_no_low"] += 1
            continue
        split = [p for p in result.pots if len(p.awards) > 1]
        sharers = {q for p in split for q in p.awards}
        for player, mine, other in zip(hand.state.players, ours, theirs, strict=True):
            if mine != other:
                assert player in sharers and abs(mine - other) <= len(split), (
                    f"{code} hand {i}: {player} ours {mine} pokerkit {other}\n{text}"
                )
        counts["odd_chip"] += 1
    return counts


def _pot_without_low(state, result) -> bool:  # noqa: ANN001
    """A hi-lo pot contested by several players none of whom has a qualifying low, while a
    player in another pot has one (the case FORMATS.md says pokerkit splits wrongly)."""
    if not state.game.hilo:
        return False
    board = state.cards.boards[0]

    def has_low(p: str) -> bool:
        return best_low(state.game, state.cards.hole[p], board, "A-5", "8_or_better") is not None

    anyone = any(has_low(p) for p in state.live())
    return anyone and any(
        len(pot.eligible) > 1 and not any(has_low(p) for p in pot.eligible) for pot in result.pots
    )


@pytest.mark.parametrize("code", PHH_CODES)
def test_random_hands_agree_with_pokerkit(code: str) -> None:
    counts = _cross_check(code, HANDS, seed=1)
    assert counts["same"] + counts["odd_chip"] + counts["hilo_no_low"] == HANDS
    assert counts["odd_chip"] + counts["hilo_no_low"] <= HANDS // 20
    assert counts["side_pots"] >= HANDS // 10  # multiway all-ins really happen
    assert counts["all_in"] >= HANDS // 5


@pytest.mark.slow
@pytest.mark.parametrize("code", PHH_CODES)
def test_random_hands_agree_with_pokerkit_100k(code: str) -> None:
    counts = _cross_check(code, 100_000, seed=2)
    assert counts["same"] + counts["odd_chip"] + counts["hilo_no_low"] == 100_000
