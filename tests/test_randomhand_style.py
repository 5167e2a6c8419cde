"""replay.demo.randomhand with a Style: six-handed no-limit hold'em hands played like people do.

The hands are legal (every event went through the engine), replay in pokerkit to the same
final stacks (tests/pokerkit_oracle.py), and have the shape of the real six-handed hold'em
hands of ../shared/data/phh (bench/PROFILE.md): about 9 player actions a hand, a little over
half the hands see a flop, a sixth go to showdown.
"""

from __future__ import annotations

import random

from engine.settle import settle
from ledger.formats.phh.read import write_phh
from replay.demo.randomhand import NLHE, Style, random_hand
from tests.pokerkit_oracle import final_stacks


def _hands(count: int, style: Style = NLHE) -> list:
    rng = random.Random(3)
    return [random_hand(rng, "NT", players=6, hand_id=f"nl{i}", oracle=True, style=style)
            for i in range(count)]


def test_styled_hands_agree_with_pokerkit() -> None:
    for hand in _hands(200):
        started = hand.events[0]
        forced = [e for e in hand.events if e.type == "forced_bet"]
        result = settle(hand.state)
        ours = [result.final_stacks[p] for p in hand.state.players]
        assert ours == [int(x) for x in final_stacks(write_phh(started, forced, hand.actions))]
        assert sum(ours) == sum(seat.stack for seat in started.seats)


def test_styled_hands_have_the_shape_of_real_ones() -> None:
    hands = _hands(1500)
    acts = [a for h in hands for a in h.actions if not a.startswith("d ") and " sm" not in a]
    flops = sum(any(a.startswith("d db") for a in h.actions) for h in hands) / len(hands)
    shows = sum(any(" sm " in a for a in h.actions) for h in hands) / len(hands)
    assert 8 <= len(acts) / len(hands) <= 11
    assert 0.5 <= flops <= 0.7 and 0.1 <= shows <= 0.25
    assert all(h.events[0].stakes.antes == [0] * 6 for h in hands)
    assert all(80 <= seat.stack <= 500 for h in hands for seat in h.events[0].seats)
    folds = sum(a.endswith(" f") for a in acts) / len(acts)
    assert 0.4 <= folds <= 0.6


def test_a_style_that_never_folds_plays_every_hand_to_the_river() -> None:
    calling = Style(preflop=(0.0, 0.0), postflop=(0.0, 0.0), bet=0.0)
    for hand in _hands(50, calling):
        assert not any(a.endswith(" f") for a in hand.actions)
        assert sum(a.startswith("d db") for a in hand.actions) == 3
