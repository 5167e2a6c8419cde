"""engine.awards: cards-speak awards, ties and odd chips, hi-lo halves, run it twice.

The worked examples ex01–ex05 are read in place from ../shared/data/rules (their hand-checked
contributions are also re-derived by hand in test_pots.py); the other hands are built here and
their expected chips worked out by hand in the comments.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.awards import TIE_ORDERS, PotAward, award_pots, split_evenly
from engine.games import game
from engine.pots import Pot, layer_pots, return_uncalled
from ledger.model.events import SplitOptions, split_cards

RULES = Path(__file__).parents[1] / ".." / "shared" / "data" / "rules"
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def example(name: str) -> dict[str, Any]:
    with open(RULES / f"{name}.phh", "rb") as f:
        return tomllib.load(f)


def settle_example(hand: dict[str, Any], **split: str) -> list[PotAward]:
    """Refund, layer and award an example hand from its own actions and contributions."""
    labels = [f"p{i + 1}" for i in range(len(hand["starting_stacks"]))]
    hole: dict[str, list[str]] = {}
    board: list[str] = []
    folded = set()
    for action in hand["actions"]:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            hole.setdefault(words[2], []).extend(split_cards(words[3]))
        elif words[:2] == ["d", "db"]:
            board.extend(split_cards(words[2]))
        elif words[1:2] == ["f"]:
            folded.add(words[0])
    live = [p for p in labels if p not in folded]
    after, _ = return_uncalled(hand["_expected"]["contributions"])
    pots = layer_pots(after, live)
    options = SplitOptions(**{**hand["_split"], **split})
    # PHH p1 sits left of the button in button games, and is the first seat in stud.
    return award_pots(game(hand["variant"]), pots, {p: hole[p] for p in live}, [board],
                      labels, options)


def totals(awarded: list[PotAward]) -> dict[str, int]:
    out: dict[str, int] = {}
    for pot in awarded:
        for player, chips in pot.awards.items():
            out[player] = out.get(player, 0) + chips
    return out


@pytest.mark.parametrize("name", ["ex01", "ex02", "ex03", "ex04", "ex05"])
def test_worked_examples(name: str) -> None:
    hand = example(name)
    expected = hand["_expected"]
    awarded = settle_example(hand)
    assert [p.awards for p in awarded] == expected["pot_awards"]
    assert [(p.amount, list(p.eligible)) for p in awarded] == [
        (p["amount"], p["eligible"]) for p in expected["pots"]]
    assert totals(awarded) == {p: c for p, c in expected["awards"].items() if c}
    assert sum(p.carried for p in awarded) == expected["carried"]
    assert all(p.verifiable for p in awarded)


def test_ex01_lines() -> None:
    main, side = settle_example(example("ex01"))
    assert main.lines == ("Main pot 77 (p2, p3, p4, p5, p6): p2 wins 77 with three of a kind, "
                          "aces, K-8 kickers.",)
    assert side.lines == ("Side pot 1 8 (p3, p4, p5, p6): p4 and p6 tie with pair of kings, "
                          "A-Q-8 kickers; 4 each.",)


def test_ex02_odd_chip_first_left_of_the_button() -> None:
    _, side1, _ = settle_example(example("ex02"))
    assert side1.awards == {"p3": 29, "p4": 28}
    assert "odd chip to p3 (first left of the button)" in side1.lines[0]


def test_ex03_single_eligible_side_pot_is_not_shown_down() -> None:
    _, side = settle_example(example("ex03"))
    assert side.awards == {"p2": 100}
    assert side.lines == ("Side pot 1 100 (p2): p2 takes 100; nobody else is eligible.",)


def test_ex04_quartering_odd_chip_both_options() -> None:
    (high,) = settle_example(example("ex04"), odd_chip_between_halves="high")
    assert high.awards == {"p2": 32, "p3": 16, "p4": 15}
    assert "odd chip to the high half" in high.lines[0]
    (low,) = settle_example(example("ex04"), odd_chip_between_halves="low_if_low_quartered")
    assert low.awards == {"p2": 31, "p3": 16, "p4": 16}
    assert "odd chip to the low half" in low.lines[0]


def test_ex05_side_pot_without_a_low_is_scooped() -> None:
    main, side = settle_example(example("ex05"))
    assert main.awards == {"p1": 31, "p2": 32}
    assert side.awards == {"p2": 50}
    assert "No qualifying low" in side.lines[0]


# --------------------------------------------------------------------------------------------
# Hands built here

NT, T8, O8, STUD, RAZZ = (game(c) for c in ("NT", "FT/8", "FO/8", "F7S", "FR"))
ROYAL = "As Ks Qs Js Ts".split()


def award(g, pots, hands, boards, order, tie=None, **split):  # noqa: ANN001, ANN201
    hands = {p: h.split() for p, h in hands.items()}
    boards = [b.split() if isinstance(b, str) else b for b in boards]
    return award_pots(g, pots, hands, boards, order, SplitOptions(**split), tie)


def test_split_evenly() -> None:
    assert split_evenly(11, ["p3", "p1", "p2"]) == {"p3": 4, "p1": 4, "p2": 3}
    assert split_evenly(0, ["a", "b"]) == {"a": 0, "b": 0}
    for bad_amount, winners in ((5, []), (5, ["a", "a"]), (-1, ["a"])):
        with pytest.raises(ValueError):
            split_evenly(bad_amount, winners)


def test_three_way_tie_odd_chips_from_the_button() -> None:
    # Everyone plays the royal flush on the board; button p2, so p3, p4, p1 in that order.
    hands = {"p1": "2c 3c", "p2": "4d 5d", "p3": "6h 7h"}
    (pot,) = award(NT, [Pot(11, ("p1", "p2", "p3"))], hands, [ROYAL], ["p3", "p4", "p1", "p2"])
    assert pot.awards == {"p1": 4, "p2": 3, "p3": 4}
    assert ("odd chip to p3 (first left of the button); odd chip to p1 "
            "(next left of the button)") in pot.lines[0]


# Both make a nine-high straight; p1's highest card is 9d, p2's is 9s.
STUD_TIE = {"p1": "5c 6d 7h 8s 9d 2d 3h", "p2": "5d 6h 7s 8c 9s 2c 3c"}


def test_stud_tie_broken_by_suit() -> None:
    (pot,) = award(STUD, [Pot(25, ("p1", "p2"))], STUD_TIE, [()], ["p1", "p2"],
                   tie="card_by_suit")
    assert pot.awards == {"p1": 12, "p2": 13}
    assert "odd chip to p2 (highest card by suit, 9s)" in pot.lines[0]
    (by_seat,) = award(STUD, [Pot(25, ("p1", "p2"))], STUD_TIE, [()], ["p1", "p2"],
                       tie="left_of_button")
    assert by_seat.awards == {"p1": 13, "p2": 12}


def test_tie_order_defaults_to_the_split_option() -> None:
    (pot,) = award(STUD, [Pot(25, ("p1", "p2"))], STUD_TIE, [()], ["p1", "p2"],
                   odd_chip_tie_order="card_by_suit")
    assert pot.awards == {"p1": 12, "p2": 13}


def test_razz_tie_goes_to_the_lowest_card_by_suit() -> None:
    # Both 6-4-3-2-A; p1 holds the ace of clubs, the lowest card (aces low, clubs lowest).
    hands = {"p1": "Ac 2d 3h 4s 6c Kd Qh", "p2": "Ah 2c 3d 4c 6d Ks Qs"}
    (pot,) = award(RAZZ, [Pot(7, ("p1", "p2"))], hands, [()], ["p2", "p1"], tie="card_by_suit")
    assert pot.awards == {"p1": 4, "p2": 3}
    assert "lowest card by suit, Ac" in pot.lines[0]


def test_low_only_games_give_the_whole_pot_to_the_best_low() -> None:
    hands = {"p1": "Kc Kd 2c 3d 4h 5s 8c", "p2": "Ac 2d 3h 4s 7c Kh Qh"}
    (pot,) = award(RAZZ, [Pot(40, ("p1", "p2"))], hands, [()], ["p1", "p2"])
    assert pot.awards == {"p2": 40}  # 7-4-3-2-A beats 8-5-4-3-2
    deuce = game("N2L1D")
    hands = {"p1": "7c 5d 4h 3s 2c", "p2": "Ac 2d 3h 4s 5c"}
    (pot,) = award(deuce, [Pot(40, ("p1", "p2"))], hands, [()], ["p1", "p2"])
    assert pot.awards == {"p1": 40}
    badugi = game("FB")
    hands = {"p1": "Kc Qd Jh Ts", "p2": "Ac 2d 3h 4h"}
    (pot,) = award(badugi, [Pot(40, ("p1", "p2"))], hands, [()], ["p1", "p2"])
    assert pot.awards == {"p1": 40}  # any four-card badugi beats a three-card hand


def test_carry_to_next_hand_leaves_the_odd_chip() -> None:
    hands = {"p1": "2c 3c", "p2": "4d 5d"}
    (pot,) = award(NT, [Pot(9, ("p1", "p2"))], hands, [ROYAL], ["p1", "p2"],
                   tie="carry_to_next_hand")
    assert pot.awards == {"p1": 4, "p2": 4}
    assert pot.carried == 1
    assert "1 odd chip carried to the next hand" in pot.lines[0]


# Board 3c 4d 5h Kd Ks: p3 has the high (kings full of fives); p1 the wheel; p2 7-5-4-3-2.
LOW_HANDS = {"p1": "As 2c", "p2": "7c 2d", "p3": "Kh 5s"}
LOW_BOARD = "3c 4d 5h Kd Ks"


@pytest.mark.parametrize(
    ("method", "low_winner"),
    [
        ("A-5", "p1"),  # the wheel is the best A-5 low
        ("2-7", "p2"),  # the ace is high in 2-7, so p1 has no 8-or-better low
        ("A-6", "p2"),  # the wheel is a straight in A-6, worse than 7-5-4-3-2
        ("standard_ranks", "p2"),  # a straight with the ace high: no low
    ],
)
def test_each_low_method_in_a_hi_lo_pot(method: str, low_winner: str) -> None:
    (pot,) = award(T8, [Pot(20, ("p1", "p2", "p3"))], LOW_HANDS, [LOW_BOARD],
                   ["p1", "p2", "p3"], low_method=method)
    assert pot.awards == {"p3": 10, low_winner: 10}


def test_no_qualifier_lets_every_hand_compete_for_low() -> None:
    # Board Ks Kd 9c 9h Qs: nobody has an 8-or-better low, so p1's kings full scoops; without
    # a qualifier p2's K-Q-J-9-7 (no pair) beats p1's K-Q-9-9-2 as an A-5 low: half each.
    hands = {"p1": "Kh 2c", "p2": "Jc 7d"}
    board = "Ks Kd 9c 9h Qs"
    (scoop,) = award(T8, [Pot(10, ("p1", "p2"))], hands, [board], ["p1", "p2"])
    assert scoop.awards == {"p1": 10}
    (halves,) = award(T8, [Pot(10, ("p1", "p2"))], hands, [board], ["p1", "p2"],
                      low_qualifier="none")
    assert halves.awards == {"p1": 5, "p2": 5}


def test_quartering_exception_needs_a_lone_high() -> None:
    # Board Ks Kd 7c 4h 2s: p1 and p2 tie high (kings, Q-7), p3 has the only low. The high
    # half 11 is shared (6/5), the low 10 is p3's; the WP-SPLIT option changes nothing here.
    hands = {"p1": "Kh Qc", "p2": "Kc Qd", "p3": "Ac 3c"}
    for option in ("high", "low_if_low_quartered"):
        (pot,) = award(T8, [Pot(21, ("p1", "p2", "p3"))], hands, ["Ks Kd 7c 4h 2s"],
                       ["p1", "p2", "p3"], odd_chip_between_halves=option)
        assert pot.awards == {"p1": 6, "p2": 5, "p3": 10}


def test_same_players_winning_both_ways_split_the_whole_pot() -> None:
    # p1 and p2 both have the wheel: best high (five-high straight) and best low. Halving 6
    # would give 4/2 (an odd chip in each half to p1); the whole pot splits 3/3 (§2.2).
    hands = {"p1": "Ah 9c", "p2": "Ad 9d", "p3": "Kd Qd"}
    board = "2c 3d 4h 5s Kc"
    (even,) = award(T8, [Pot(6, ("p1", "p2", "p3"))], hands, [board], ["p1", "p2", "p3"])
    assert even.awards == {"p1": 3, "p2": 3}
    (odd,) = award(T8, [Pot(7, ("p1", "p2", "p3"))], hands, [board], ["p1", "p2", "p3"])
    assert odd.awards == {"p1": 4, "p2": 3}


def test_side_pot_with_no_qualifying_low_goes_to_the_high() -> None:
    # Board 2c 4d 7h Kd Ks: p1 (all-in) has 7-4-3-2-A; p2 kings and queens, p3 kings and jacks.
    hands = {"p1": "Ac 3c", "p2": "Qs Qh", "p3": "Js Jd"}
    main, side = award(T8, [Pot(30, ("p1", "p2", "p3")), Pot(20, ("p2", "p3"))], hands,
                       ["2c 4d 7h Kd Ks"], ["p1", "p2", "p3"])
    assert main.awards == {"p1": 15, "p2": 15}
    assert side.awards == {"p2": 20}


def test_run_it_twice_odd_chip_to_run_one() -> None:
    hands = {"p1": "As Ad", "p2": "Kc Kh"}
    boards = ["2c 7d 9h Js 3c", "2c 7d 9h Kd 4s"]  # aces hold on run 1, kings hit on run 2
    (pot,) = award(NT, [Pot(77, ("p1", "p2"))], hands, boards, ["p1", "p2"])
    assert pot.awards == {"p1": 39, "p2": 38}
    assert pot.lines[0] == ("Main pot 77 (p1, p2): run twice, 39 on run 1, 38 on run 2 "
                            "(odd chip to run 1 first).")
    assert pot.lines[1].startswith("Run 1 (2c 7d 9h Js 3c), 39: p1 wins 39")
    # three runs of 11: 4, 4, 3; p1 wins runs 1 and 3
    boards3 = [boards[0], boards[1], "2c 7d 9h Js 5s"]
    (pot3,) = award(NT, [Pot(11, ("p1", "p2"))], hands, boards3, ["p1", "p2"])
    assert pot3.awards == {"p1": 7, "p2": 4}


def test_run_it_twice_hi_lo_each_run_split_high_low() -> None:
    # ex04's hands. Run 1 (ex04's board), 32: high 16 p2, low 16 p3 8 / p4 8. Run 2 (9h
    # river), 31: p3 makes trip nines for the high 16, low 15 p3 8 / p4 7.
    hands = {"p2": "Kc Kd Qs Js", "p3": "As 2d 9c 9d", "p4": "Ah 2c Qd Jd", "p5": "Ad Qh Qc Jh"}
    (pot,) = award(O8, [Pot(63, ("p2", "p3", "p4", "p5"))], hands,
                   ["3c 4d 7h 8s Kh", "3c 4d 7h 8s 9h"], ["p1", "p2", "p3", "p4", "p5"])
    assert pot.awards == {"p2": 16, "p3": 32, "p4": 15}


def test_unknown_cards() -> None:
    hands = {"p1": "?? ??", "p2": "Kc Kh"}
    main, side = award(NT, [Pot(40, ("p1", "p2")), Pot(10, ("p2",))], hands, [ROYAL],
                       ["p1", "p2"])
    assert not main.verifiable and main.awards == {} and "p1" in main.lines[0]
    assert side.verifiable and side.awards == {"p2": 10}
    (board,) = award(NT, [Pot(40, ("p1", "p2"))], {"p1": "Ac Ad", "p2": "Kc Kh"},
                     ["2c 3c 4c 5c ??"], ["p1", "p2"])
    assert not board.verifiable


def test_bad_arguments_raise() -> None:
    hands = {"p1": "2c 3c", "p2": "4d 5d"}
    pots = [Pot(9, ("p1", "p2"))]
    with pytest.raises(ValueError, match="tie_order"):
        award(NT, pots, hands, [ROYAL], ["p1", "p2"], tie="random")
    with pytest.raises(ValueError, match="one board per run"):
        award(NT, pots, hands, [], ["p1", "p2"])
    with pytest.raises(ValueError, match="no hand"):
        award(NT, pots, {"p1": "2c 3c"}, [ROYAL], ["p1", "p2"])
    with pytest.raises(ValueError, match="order from the button"):
        award(NT, pots, hands, [ROYAL], ["p1"])


# --------------------------------------------------------------------------------------------
# Properties over random deals


@st.composite
def deals(draw: st.DrawFn) -> tuple[Any, ...]:
    code = draw(st.sampled_from(["NT", "FT/8", "FO/8", "F7S/8", "FR"]))
    g = game(code)
    n = draw(st.integers(2, 6))
    players = [f"p{i + 1}" for i in range(n)]
    runs = 1 if g.stud else draw(st.integers(1, 3))
    deck = draw(st.permutations(DECK))
    k = g.hole_count
    hands = {p: deck[i * k:(i + 1) * k] for i, p in enumerate(players)}
    rest = deck[n * k:]
    boards = [()] * runs if g.stud else [rest[5 * r:5 * r + 5] for r in range(runs)]
    contributions = {p: draw(st.integers(0, 60)) for p in players}
    live = [p for p in players if draw(st.booleans())] or [players[0]]
    split = SplitOptions(
        odd_chip_between_halves=draw(st.sampled_from(["high", "low_if_low_quartered"])),
        low_method=draw(st.sampled_from(["A-5", "2-7", "A-6", "standard_ranks"])),
        low_qualifier=draw(st.sampled_from(["8_or_better", "none"])),
    )
    tie = draw(st.sampled_from(TIE_ORDERS))
    return g, players, hands, boards, contributions, live, split, tie


@settings(max_examples=200, deadline=None)
@given(deals())
def test_awards_pay_only_eligible_and_sum_to_amount_minus_carried(deal: tuple[Any, ...]) -> None:
    g, players, hands, boards, contributions, live, split, tie = deal
    after, returned = return_uncalled(contributions)
    pots = layer_pots(after, live)
    awarded = award_pots(g, pots, {p: hands[p] for p in live}, boards, players, split, tie)
    assert [(a.amount, a.eligible) for a in awarded] == [(p.amount, p.eligible) for p in pots]
    for pot in awarded:
        assert pot.verifiable
        assert set(pot.awards) <= set(pot.eligible)
        assert all(isinstance(c, int) and c > 0 for c in pot.awards.values())
        assert sum(pot.awards.values()) == pot.amount - pot.carried
        assert 0 <= pot.carried < len(pot.eligible) * len(boards) * 2
        if tie != "carry_to_next_hand":
            assert pot.carried == 0
        assert pot.lines and pot.lines[0].startswith(("Main pot", "Side pot"))
    paid = sum(sum(p.awards.values()) + p.carried for p in awarded)
    assert paid + sum(returned.values()) == sum(contributions.values())


@settings(max_examples=200, deadline=None)
@given(
    amount=st.integers(0, 500),
    n=st.integers(2, 7),
    runs=st.integers(1, 3),
    tie=st.sampled_from(TIE_ORDERS),
)
def test_ties_share_within_one_chip(amount: int, n: int, runs: int, tie: str) -> None:
    # Every player plays the royal flush on the board, on every run: one n-way tie per run.
    deck = [c for c in DECK if c not in ROYAL]
    players = [f"p{i + 1}" for i in range(n)]
    hands = {p: deck[2 * i:2 * i + 2] for i, p in enumerate(players)}
    (pot,) = award_pots(NT, [Pot(amount, tuple(players))], hands, [ROYAL] * runs,
                        players[::-1], SplitOptions(), tie)
    assert sum(pot.awards.values()) + pot.carried == amount
    got = [pot.awards.get(p, 0) for p in players]
    assert max(got) - min(got) <= runs  # at most one odd chip per run
    if tie == "carry_to_next_hand":
        base, odd = divmod(amount, runs)
        shares = [base + (r < odd) for r in range(runs)]
        assert pot.carried == sum(s % n for s in shares)
    else:
        assert pot.carried == 0
        if runs == 1 and tie == "left_of_button":
            # odd chips go to the first players in order from the button (reversed seats here)
            assert got[::-1] == sorted(got, reverse=True)
