"""engine.pots: uncalled bets back, then main and side pots layered from contributions.

The worked examples are read in place from ../shared/data/rules; their contributions are
entered here by hand (worked out from each file's actions) and checked against the file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.pots import Pot, layer_pots, return_uncalled, standing_pots

RULES = Path(__file__).parents[1] / ".." / "shared" / "data" / "rules"

# Contributions worked out by hand from each file's actions (antes and blinds included).
HAND_CONTRIBUTIONS = {
    # ante 1 each; p3 bets 1, p4 2, p5 4, p6 calls, p7 and p1 fold their antes, p2 checked and
    # now calls all-in for his last 14, p3 8, p4 12, p6 16 and everybody calls 16.
    "ex01": {"p1": 1, "p2": 15, "p3": 17, "p4": 17, "p5": 17, "p6": 17, "p7": 1},
    # blinds 1/2; all call 2, p1 folds his small blind, p2 all-in 7, called; flop p4 10,
    # p3 all-in 19 (in for 26), called; turn p5 bets 30, p4 calls all-in 15 (in for 41):
    # p5 is in for 26 + 30 = 56.
    "ex02": {"p1": 1, "p2": 7, "p3": 26, "p4": 41, "p5": 56},
    # blinds 5/10; C raises to 30, D calls, A calls all-in 30, B calls; flop B 50, C calls,
    # D folds; turn B 100, C folds: B 30 + 50 + 100 = 180, C 80.
    "ex03": {"p1": 30, "p2": 180, "p3": 80, "p4": 30},
    # antes 1, blinds 1/2 (fixed 2/4); p1 in for 3 then folds; p2..p5 2 + 4 + 4 + 4 more.
    "ex04": {"p1": 3, "p2": 15, "p3": 15, "p4": 15, "p5": 15},
    # antes 1, bring-in 1 completed to 5 (6 each); 4th street raised to 10 (16); 5th street
    # 10, P1 calls all-in for his last 5 (21); 6th and 7th 10 each between P2 and P3 (46).
    "ex05": {"p1": 21, "p2": 46, "p3": 46},
}


def example(name: str) -> dict[str, Any]:
    with open(RULES / f"{name}.phh", "rb") as f:
        return tomllib.load(f)


def live_players(hand: dict[str, Any]) -> list[str]:
    """Seat-order labels of the players with no fold action."""
    labels = [f"p{i + 1}" for i in range(len(hand["starting_stacks"]))]
    folded = {a.split()[0] for a in hand["actions"] if a.split()[1:2] == ["f"]}
    return [p for p in labels if p not in folded]


@pytest.mark.parametrize("name", sorted(HAND_CONTRIBUTIONS))
def test_worked_examples(name: str) -> None:
    hand = example(name)
    expected = hand["_expected"]
    contributions = HAND_CONTRIBUTIONS[name]
    assert contributions == expected["contributions"]
    after, returned = return_uncalled(contributions)
    assert returned == expected["returned"]
    pots = layer_pots(after, live_players(hand))
    assert pots == [Pot(p["amount"], tuple(p["eligible"])) for p in expected["pots"]]


def test_ex01_dead_antes_are_in_the_main_pot() -> None:
    pots = layer_pots(HAND_CONTRIBUTIONS["ex01"], ["p2", "p3", "p4", "p5", "p6"])
    assert pots == [Pot(77, ("p2", "p3", "p4", "p5", "p6")), Pot(8, ("p3", "p4", "p5", "p6"))]
    # without p1's and p7's antes the main pot would be 75
    assert pots[0].amount == 5 * 15 + 1 + 1


def test_ex02_three_levels_and_fifteen_back() -> None:
    after, returned = return_uncalled(HAND_CONTRIBUTIONS["ex02"])
    assert returned == {"p5": 15}
    assert after == {"p1": 1, "p2": 7, "p3": 26, "p4": 41, "p5": 41}
    assert [p.amount for p in layer_pots(after, ["p2", "p3", "p4", "p5"])] == [29, 57, 30]


def test_ex03_folding_after_matching_forfeits_the_main_pot() -> None:
    after, returned = return_uncalled(HAND_CONTRIBUTIONS["ex03"])
    assert returned == {"p2": 100}
    assert layer_pots(after, ["p1", "p2"]) == [Pot(120, ("p1", "p2")), Pot(100, ("p2",))]


def test_no_refund_when_the_top_is_matched() -> None:
    after, returned = return_uncalled({"a": 20, "b": 20, "c": 5})
    assert returned == {}
    assert after == {"a": 20, "b": 20, "c": 5}


def test_everyone_folds_to_a_bet() -> None:
    after, returned = return_uncalled({"sb": 1, "bb": 2, "btn": 10})
    assert returned == {"btn": 8}
    assert layer_pots(after, ["btn"]) == [Pot(5, ("btn",))]


def test_dead_money_above_the_top_live_level_goes_to_the_top_pot() -> None:
    # a folded player (b) put in more than any live player and the same as another folder
    # (c), so nothing is returned; the 10 above the live level of 20 stays in the top pot.
    contributions = {"a": 20, "b": 25, "c": 25, "d": 10}
    after, returned = return_uncalled(contributions)
    assert returned == {}
    pots = layer_pots(after, ["a", "d"])
    assert pots == [Pot(40, ("a", "d")), Pot(40, ("a",))]
    assert sum(p.amount for p in pots) == sum(contributions.values())


def test_only_dead_money() -> None:
    assert layer_pots({"a": 0, "b": 0, "c": 3}, ["a", "b"]) == [Pot(3, ("a", "b"))]
    assert layer_pots({"a": 0, "b": 0}, ["a", "b"]) == []


def test_eligible_players_are_in_seat_order_of_live() -> None:
    pots = layer_pots({"s1": 50, "s2": 10, "s3": 50, "s4": 30}, ["s1", "s2", "s3", "s4"])
    assert [p.eligible for p in pots] == [
        ("s1", "s2", "s3", "s4"), ("s1", "s3", "s4"), ("s1", "s3")]
    assert [p.amount for p in pots] == [40, 60, 40]


@pytest.mark.parametrize(
    ("contributions", "live", "match"),
    [
        ({"a": -1, "b": 5}, ["b"], "ints >= 0"),
        ({"a": 1.5, "b": 5}, ["b"], "ints >= 0"),
        ({"a": 5, "b": 5}, ["a", "a"], "repeat"),
        ({"a": 5, "b": 5}, [], "every player folded"),
    ],
)
def test_bad_input_raises(contributions: dict, live: list[str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        layer_pots(contributions, live)


def test_return_uncalled_rejects_negative_chips() -> None:
    with pytest.raises(ValueError, match="ints >= 0"):
        return_uncalled({"a": -3})


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, int], list[str]]:
    players = [f"p{i + 1}" for i in range(draw(st.integers(2, 9)))]
    contributions = {p: draw(st.integers(0, 200)) for p in players}
    live = [p for p in players if draw(st.booleans())] or [players[-1]]
    return contributions, live


@given(tables())
def test_layering_conserves_chips(table: tuple[dict[str, int], list[str]]) -> None:
    contributions, live = table
    after, returned = return_uncalled(contributions)
    assert set(after) == set(contributions)
    assert all(0 <= after[p] <= contributions[p] for p in contributions)
    assert len(returned) <= 1
    pots = layer_pots(after, live)
    total = sum(contributions.values())
    assert sum(p.amount for p in pots) + sum(returned.values()) == total


@given(tables())
def test_pots_are_positive_and_eligible_are_nested_live_players(
    table: tuple[dict[str, int], list[str]],
) -> None:
    contributions, live = table
    after, _ = return_uncalled(contributions)
    pots = layer_pots(after, live)
    for pot in pots:
        assert pot.amount > 0
        assert pot.eligible and set(pot.eligible) <= set(live)
        assert list(pot.eligible) == [p for p in live if p in pot.eligible]  # seat order
    for outer, inner in zip(pots, pots[1:], strict=False):
        assert set(inner.eligible) < set(outer.eligible)
    # an all-in player wins from each opponent at most what he put in himself (§1.2); the
    # players at the top live level can win everything, dead money above it included
    top = max(after[p] for p in live)
    for player in live:
        can_win = sum(p.amount for p in pots if player in p.eligible)
        if after[player] == top:
            assert can_win == sum(after.values())
        else:
            assert can_win == sum(min(c, after[player]) for c in after.values())


def test_standing_a_free_player_is_in_every_pot() -> None:
    # README's t1 after the hole cards: Bob 1 (small blind), Cy 2 (big blind), Ann to act
    # with nothing in. Layers: 2 for Bob, Cy and Cy's 1 alone; all three can still bet.
    layers = layer_pots({"Bob": 1, "Cy": 2, "Ann": 0}, ["Bob", "Cy", "Ann"])
    assert layers == [Pot(2, ("Bob", "Cy")), Pot(1, ("Cy",))]
    assert standing_pots(layers, ["Bob", "Cy", "Ann"], {"Bob", "Cy", "Ann"}) == [
        Pot(3, ("Bob", "Cy", "Ann"))]


def test_standing_an_all_in_caps_only_himself() -> None:
    # a all-in for 50, b all-in for 100, c in for 6 and still to act (he can match 100):
    # 6 * 3 + 44 * 2 = 106 all three can win; b's 50 above a's 50 for b and c
    live = ["a", "b", "c"]
    layers = layer_pots({"a": 50, "b": 100, "c": 6}, live)
    assert [(p.amount, p.eligible) for p in layers] == [
        (18, ("a", "b", "c")), (88, ("a", "b")), (50, ("b",))]
    assert standing_pots(layers, live, {"c"}) == [Pot(106, ("a", "b", "c")),
                                                  Pot(50, ("b", "c"))]
    # once c folds the betting is over and the layers stand as they are (never merged, §1.6)
    assert standing_pots([], [], set()) == []


@given(tables())
def test_standing_keeps_every_chip_and_caps_only_all_ins(
    table: tuple[dict[str, int], list[str]],
) -> None:
    contributions, live = table
    free = set(live[::2])  # every other live player can still bet; the rest are all-in
    layers = layer_pots(contributions, live)
    pots = standing_pots(layers, live, free)
    assert sum(p.amount for p in pots) == sum(contributions.values())
    for pot in pots:
        assert free <= set(pot.eligible) and pot.amount > 0
        assert list(pot.eligible) == [p for p in live if p in pot.eligible]
    assert all(a.eligible != b.eligible for a, b in zip(pots, pots[1:], strict=False))
    for player in set(live) - free:  # an all-in player can win what he could in the layers
        assert sum(p.amount for p in pots if player in p.eligible) == sum(
            p.amount for p in layers if player in p.eligible)
