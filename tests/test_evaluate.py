"""engine.evaluate: rankings, low methods and qualifiers, Omaha's exactly-two rule, labels.

pokerkit is used here only as an oracle; the engine reaches it through engine.evaluate alone.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    BadugiHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

from engine.evaluate import Rank, best_for_game, best_high, best_low, card_suit_key
from engine.games import game

NT, O8, STUD8, RAZZ, BADUGI, DEUCE, SHORT = (
    game(c) for c in ("NT", "FO/8", "F7S/8", "FR", "FB", "N2L1D", "NS")
)
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
SHORT_DECK = [c for c in DECK if c[0] not in "2345"]


def cards(text: str) -> list[str]:
    return text.split()


def low(hole: str, board: str = "", method: str = "A-5", qualifier: str = "none",
        g=NT) -> Rank | None:  # noqa: ANN001
    return best_low(g, cards(hole), cards(board), method, qualifier)


def test_ex01_showdown_order_and_labels() -> None:
    board = cards("Ah Kd 8c 5s 2h")
    p2, p3, p4, p5, p6 = (
        best_high(NT, cards(h), board) for h in ("As Ac", "5h 4d", "Kh Qc", "Kc Jd", "Ks Qd")
    )
    assert p2 > p4 == p6 > p5 > p3
    assert p2.label == "three of a kind, aces, K-8 kickers"
    assert p4.label == "pair of kings, A-Q-8 kickers"
    assert p5.label == "pair of kings, A-J-8 kickers"
    assert p3.label == "pair of fives, A-K-8 kickers"


@pytest.mark.parametrize(
    ("five", "label"),
    [
        ("As Ks Qs Js Ts", "royal flush"),
        ("5h 4h 3h 2h Ah", "straight flush, five high"),
        ("9c 9d 9h 9s 2c", "four of a kind, nines, 2 kicker"),
        ("Kc Kd Kh 5s 5c", "full house, kings full of fives"),
        ("Kh Qh 9h 6h 3h", "flush, K-Q-9-6-3"),
        ("5c 4d 3h 2s Ac", "straight, five high"),
        ("Kc Kd 5h 5s 8c", "two pair, kings and fives, 8 kicker"),
        ("Ac Kd 9h 7s 4c", "high card, A-K-9-7-4"),
    ],
)
def test_high_labels(five: str, label: str) -> None:
    assert best_high(NT, cards(five), []).label == label


def test_wheel_is_the_lowest_straight() -> None:
    wheel = best_high(NT, cards("5c 4d"), cards("3h 2s Ac Kd Kh"))
    six_high = best_high(NT, cards("6c 4d"), cards("3h 2s 5c Kd Kh"))
    trips = best_high(NT, cards("Kc 4d"), cards("3h 2s 9c Kd Kh"))
    assert six_high > wheel > trips


def test_omaha_uses_exactly_two_hole_cards_for_high() -> None:
    # Hold'em reading would be a royal flush (Ah + four board hearts); Omaha needs two hole cards
    # and three board cards, and no two of these hole cards fit anything: ace-high.
    hole, board = cards("Ah 2c 3d 4s"), cards("Kh Qh Jh Th 9c")
    assert best_high(O8, hole, board).label == "high card, A-K-Q-J-4"
    assert best_high(NT, hole, board).label == "royal flush"


def test_omaha_uses_exactly_two_hole_cards_for_low() -> None:
    # ex04's P5: one low hole card (Ad) with four low board cards makes no Omaha low (§2.6).
    hole, board = cards("Ad Qh Qc Jh"), cards("3c 4d 7h 8s Kh")
    assert best_low(O8, hole, board, "A-5", "8_or_better") is None
    assert low("Ad Qh Qc Jh", "3c 4d 7h 8s Kh", qualifier="8_or_better").label == "8-7-4-3-A low"
    # Two low hole cards but only two low board cards: still no low.
    assert best_low(O8, cards("As 2d 3c 4h"), cards("5s 6d Kc Qh Jd"), "A-5", "8_or_better") is None
    # ex04's P3 and P4 tie for low with different hole cards.
    p3 = best_low(O8, cards("As 2d 9c 9d"), board, "A-5", "8_or_better")
    p4 = best_low(O8, cards("Ah 2c Qd Jd"), board, "A-5", "8_or_better")
    assert p3 == p4 and p3 is not None and p3.label == "7-4-3-2-A low"


def test_a5_ignores_straights_and_flushes_and_counts_pairs() -> None:
    wheel = low("5s 4s 3s 2s As")
    six = low("6c 4d 3h 2s Ac")
    paired = low("Ac Ad 2c 3d 4h")
    king = low("Kc Qd Jh 9s 8c")
    assert wheel > six > king > paired
    assert wheel.label == "5-4-3-2-A low"
    assert paired.label == "4-3-2-A-A low (one pair)"


def test_deuce_to_seven_aces_high_straights_and_flushes_count() -> None:
    best = low("7c 5d 4h 3s 2c", method="2-7")
    wheel = low("Ac 2d 3h 4s 5c", method="2-7")  # ace high, not a straight
    suited = low("7h 5h 4h 3h 2h", method="2-7")  # a flush
    straight = low("6c 5d 4h 3s 2c", method="2-7")
    pair = low("2c 2d 3h 4s 5c", method="2-7")
    assert best > wheel > pair > straight > suited
    assert best.label == "7-5-4-3-2 low"
    assert wheel.label == "A-5-4-3-2 low"
    assert suited.label == "7-5-4-3-2 low (flush)"


def test_ace_to_six_aces_low_straights_and_flushes_count() -> None:
    best = low("6c 4d 3h 2s Ac", method="A-6")
    wheel = low("5c 4d 3h 2s Ac", method="A-6")  # a straight
    suited = low("7h 5h 4h 3h 2h", method="A-6")
    king = low("Kc Qd Jh Ts Ac", method="A-6")  # aces low: king-high, not a straight
    assert best > king > wheel > suited
    assert best.label == "6-4-3-2-A low"
    assert king.label == "K-Q-J-T-A low"


def test_standard_ranks_wheel_is_a_straight() -> None:
    best = low("7c 5d 4h 3s 2c", method="standard_ranks")
    wheel = low("Ac 2d 3h 4s 5c", method="standard_ranks")
    pair = low("2c 2d 3h 4s 6c", method="standard_ranks")
    assert best > pair > wheel  # a straight is worse than a pair for low
    # deuce-to-seven reads the same wheel as ace-high, better than any pair
    assert low("Ac 2d 3h 4s 5c", method="2-7") > low("2c 2d 3h 4s 6c", method="2-7")


@pytest.mark.parametrize(
    ("method", "hole", "expected"),
    [
        ("A-5", "Ac 2d 3h 4s 6c", "6-4-3-2-A low"),
        ("A-6", "Ac 2d 3h 4s 6c", "6-4-3-2-A low"),
        ("2-7", "Ac 2d 3h 4s 6c", None),  # the ace is high in 2-7: above 8
        ("standard_ranks", "Ac 2d 3h 4s 6c", None),
        ("2-7", "8c 2d 3h 4s 6c", "8-6-4-3-2 low"),
        ("A-5", "9c 2d 3h 4s 6c", None),
        ("A-5", "2c 2d 3h 4s 6c", None),  # paired
    ],
)
def test_eight_or_better_qualifier_per_method(method: str, hole: str, expected: str | None) -> None:
    rank = low(hole, method=method, qualifier="8_or_better")
    assert (rank and rank.label) == expected
    assert low(hole, method=method, qualifier="none") is not None


def test_stud_hi_lo_best_five_of_seven_ex05() -> None:
    p1, p2, p3 = (cards(h) for h in (
        "Ac 2d 7c 5s 4h 9d Jh", "Kh Qh 8c 9h 6h 8s 3h", "Qs Qd 2c Jd Ts 9s Qc"))
    highs = [best_high(STUD8, h, []) for h in (p1, p2, p3)]
    assert highs[1] > highs[2] > highs[0]
    assert highs[1].label == "flush, K-Q-9-6-3"
    assert best_low(STUD8, p1, [], "A-5", "8_or_better").label == "7-5-4-2-A low"
    assert best_low(STUD8, p2, [], "A-5", "8_or_better") is None
    assert best_low(STUD8, p3, [], "A-5", "8_or_better") is None


def test_best_for_game_uses_the_games_own_ranking() -> None:
    razz = best_for_game(RAZZ, cards("Ac 2d 3h 4s 5c Kd Kh"), [])
    assert razz.label == "5-4-3-2-A low"
    assert best_for_game(RAZZ, cards("Kc Kd 2c"), cards("2d 3h 4s 5c")).label == "K-5-4-3-2 low"
    assert best_for_game(DEUCE, cards("7c 5d 4h 3s 2c"), []).label == "7-5-4-3-2 low"
    assert best_for_game(O8, cards("Kc Kd Qs Js"), cards("3c 4d 7h 8s Kh")).label.startswith(
        "three of a kind, kings")
    four = best_for_game(BADUGI, cards("Kc Qd Jh Ts"), [])
    three = best_for_game(BADUGI, cards("Ac 2d 3h 4h"), [])
    assert four > three
    assert four.label == "badugi, K-Q-J-T"
    assert three.label == "3-card hand, 3-2-A"


def test_short_deck_flush_beats_full_house_and_a6789_is_a_straight() -> None:
    flush = best_high(SHORT, cards("Kh 6h"), cards("9h 8h 7h Kc Kd"))
    boat = best_high(SHORT, cards("Kh Ks"), cards("9h 9d 7h Kc 6d"))
    assert flush > boat
    assert best_high(SHORT, cards("Ac 6d"), cards("7c 8s 9h Kd Qc")).label == "straight, nine high"
    with pytest.raises(ValueError, match="below six"):
        best_high(SHORT, cards("Ac 2d"), cards("7c 8s 9h Kd Qc"))


@pytest.mark.parametrize(
    ("hole", "board", "match"),
    [
        ("As ??", "Kd Qd Jd", "unknown card"),
        ("As Xx", "Kd Qd Jd", "not a card"),
        ("As Kd", "Kd Qd Jd", "twice"),
        ("As Kd", "Qd Jd", "five cards"),
    ],
)
def test_bad_cards_raise(hole: str, board: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        best_high(NT, cards(hole), cards(board))
    with pytest.raises(ValueError, match=match):
        best_low(NT, cards(hole), cards(board), "A-5", "none")


def test_bad_options_and_short_omaha_raise() -> None:
    with pytest.raises(ValueError, match="unknown low method"):
        best_low(NT, cards("As Kd"), cards("Qd Jd 2c"), "A-7", "none")
    with pytest.raises(ValueError, match="unknown low method"):
        best_low(NT, cards("As Kd"), cards("Qd Jd 2c"), "A-5", "9_or_better")
    with pytest.raises(ValueError, match="2 hole and 3 board"):
        best_high(O8, cards("As Kd Qc Jh"), cards("2c 3c"))


def test_card_suit_key_orders_spades_hearts_diamonds_clubs() -> None:
    keys = [card_suit_key(c) for c in ("Kc", "Kd", "Kh", "Ks", "Ac")]
    assert keys == sorted(keys)
    assert card_suit_key("As") == (14, 3)
    assert card_suit_key("Ac", ace_low=True) < card_suit_key("2c", ace_low=True)
    assert card_suit_key("Ah", ace_low=True) > card_suit_key("Ac", ace_low=True)
    with pytest.raises(ValueError):
        card_suit_key("??")


# --------------------------------------------------------------------------------------------
# pokerkit as an oracle: the adapter must order hands exactly as pokerkit does.


def _same_order(ours: tuple[Rank, Rank], theirs: tuple[object, object]) -> None:
    a, b = ours
    x, y = theirs
    assert (a > b, a == b) == (x > y, x == y)  # type: ignore[operator]


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK))
def test_high_orders_as_pokerkit(deck: list[str]) -> None:
    board, a, b = deck[:5], deck[5:7], deck[7:9]
    ours = best_high(NT, a, board), best_high(NT, b, board)
    theirs = (StandardHighHand.from_game("".join(a), "".join(board)),
              StandardHighHand.from_game("".join(b), "".join(board)))
    _same_order(ours, theirs)


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK))
def test_omaha_high_and_low_order_as_pokerkit(deck: list[str]) -> None:
    board, a, b = deck[:5], deck[5:9], deck[9:13]
    _same_order(
        (best_high(O8, a, board), best_high(O8, b, board)),
        (OmahaHoldemHand.from_game("".join(a), "".join(board)),
         OmahaHoldemHand.from_game("".join(b), "".join(board))),
    )
    ours = [best_low(O8, h, board, "A-5", "8_or_better") for h in (a, b)]
    theirs = [OmahaEightOrBetterLowHand.from_game_or_none("".join(h), "".join(board))
              for h in (a, b)]
    assert [r is None for r in ours] == [h is None for h in theirs]
    if None not in ours:
        _same_order((ours[0], ours[1]), (theirs[0], theirs[1]))


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK))
def test_lowball_rankings_order_as_pokerkit(deck: list[str]) -> None:
    a, b = deck[:7], deck[7:14]
    _same_order((best_for_game(RAZZ, a, []), best_for_game(RAZZ, b, [])),
                (RegularLowHand.from_game("".join(a)), RegularLowHand.from_game("".join(b))))
    a5, b5 = a[:5], b[:5]
    _same_order((best_for_game(DEUCE, a5, []), best_for_game(DEUCE, b5, [])),
                (StandardLowHand.from_game("".join(a5)), StandardLowHand.from_game("".join(b5))))
    a4, b4 = a[:4], b[:4]
    _same_order((best_for_game(BADUGI, a4, []), best_for_game(BADUGI, b4, [])),
                (BadugiHand.from_game("".join(a4)), BadugiHand.from_game("".join(b4))))


@settings(max_examples=100, deadline=None)
@given(st.permutations(SHORT_DECK))
def test_short_deck_orders_as_pokerkit(deck: list[str]) -> None:
    board, a, b = deck[:5], deck[5:7], deck[7:9]
    _same_order(
        (best_high(SHORT, a, board), best_high(SHORT, b, board)),
        (ShortDeckHoldemHand.from_game("".join(a), "".join(board)),
         ShortDeckHoldemHand.from_game("".join(b), "".join(board))),
    )
