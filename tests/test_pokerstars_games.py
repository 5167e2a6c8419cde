"""PokerStars games no real file here has (fixed-limit hold'em, 2-7 triple draw, stud hi-lo),
each in one hand-written hand in the site's format; chips written out per hand."""

from __future__ import annotations

from ledger.formats.pokerstars import adds_up, read_pokerstars_text
from tests.pokerstars_helpers import replay, site_paid

LIMIT_HOLDEM = """\
PokerStars Game #40000000001:  Hold'em Limit ($0.10/$0.20 USD) - 2010/03/01 20:00:00 ET
Table 'Written I' 6-max Seat #1 is the button
Seat 1: Avi ($5 in chips)
Seat 2: Bea ($5 in chips)
Seat 3: Cal ($5 in chips)
Bea: posts small blind $0.05
Cal: posts big blind $0.10
*** HOLE CARDS ***
Avi: raises $0.10 to $0.20
Bea: raises $0.10 to $0.30
Cal: calls $0.20
Avi: calls $0.10
*** FLOP *** [2c 7d Kh]
Bea: bets $0.10
Cal: folds
Avi: calls $0.10
*** TURN *** [2c 7d Kh] [3s]
Bea: bets $0.20
Avi: raises $0.20 to $0.40
Bea: calls $0.20
*** RIVER *** [2c 7d Kh 3s] [9h]
Bea: checks
Avi: bets $0.20
Bea: folds
Uncalled bet ($0.20) returned to Avi
Avi collected $1.81 from pot
Avi: doesn't show hand
*** SUMMARY ***
Total pot $1.90 | Rake $0.09
Board [2c 7d Kh 3s 9h]
Seat 1: Avi (button) collected ($1.81)
Seat 2: Bea (small blind) folded on the River
Seat 3: Cal (big blind) folded on the Flop
"""

TRIPLE_DRAW = """\
PokerStars Game #40000000002:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2010/03/01 \
20:05:00 ET
Table 'Written II' 6-max Seat #1 is the button
Seat 1: Alice ($5 in chips)
Seat 2: Bob ($5 in chips)
Seat 3: Hero ($5 in chips)
Bob: posts small blind $0.05
Hero: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [7c 5d 3h Kd Qs]
Alice: raises $0.10 to $0.20
Bob: folds
Hero: calls $0.10
*** FIRST DRAW ***
Hero: discards 2 cards [Kd Qs]
Dealt to Hero [7c 5d 3h] [2s 8d]
Alice: discards 1 card
Hero: checks
Alice: bets $0.10
Hero: calls $0.10
*** SECOND DRAW ***
Hero: stands pat
Alice: discards 1 card
Hero: bets $0.20
Alice: calls $0.20
*** THIRD DRAW ***
Hero: stands pat
Alice: stands pat
Hero: checks
Alice: checks
*** SHOW DOWN ***
Hero: shows [7c 5d 3h 2s 8d] (Lo: 8,7,5,3,2)
Alice: shows [7h 6d 4c 3s 2c] (Lo: 7,6,4,3,2)
Alice collected $1 from pot
*** SUMMARY ***
Total pot $1.05 | Rake $0.05
Seat 1: Alice (button) showed [7h 6d 4c 3s 2c] and won ($1) with Lo: 7,6,4,3,2
Seat 2: Bob (small blind) folded before the Draw
Seat 3: Hero (big blind) showed [7c 5d 3h 2s 8d] and lost with Lo: 8,7,5,3,2
"""

STUD_HILO = """\
PokerStars Game #40000000003:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2010/03/01 \
20:10:00 ET
Table 'Written III' 8-max
Seat 1: Hero ($2 in chips)
Seat 2: Ann ($2 in chips)
Seat 3: Bo ($2 in chips)
Hero: posts the ante $0.01
Ann: posts the ante $0.01
Bo: posts the ante $0.01
*** 3rd STREET ***
Dealt to Hero [As 2d 6c]
Dealt to Ann [Kh]
Dealt to Bo [9s]
Hero: brings in for $0.02
Ann: calls $0.02
Bo: folds
*** 4th STREET ***
Dealt to Hero [As 2d 6c] [3h]
Dealt to Ann [Kh] [Kd]
Ann: bets $0.04
Hero: calls $0.04
*** 5th STREET ***
Dealt to Hero [As 2d 6c 3h] [7s]
Dealt to Ann [Kh Kd] [9c]
Ann: bets $0.08
Hero: raises $0.08 to $0.16
Ann: calls $0.08
*** 6th STREET ***
Dealt to Hero [As 2d 6c 3h 7s] [8d]
Dealt to Ann [Kh Kd 9c] [Jh]
Ann: checks
Hero: bets $0.08
Ann: calls $0.08
*** RIVER ***
Dealt to Hero [As 2d 6c 3h 7s 8d] [Qd]
Ann: checks
Hero: checks
*** SHOW DOWN ***
Ann: shows [Qs Qc Kh Kd 9c Jh 9h] (HI: two pair, Kings and Queens)
Hero: shows [As 2d 6c 3h 7s 8d Qd] (HI: high card Ace; LO: 7,6,3,2,A)
Ann collected $0.30 from pot
Hero collected $0.30 from pot
*** SUMMARY ***
Total pot $0.63 | Rake $0.03
Seat 1: Hero showed [As 2d 6c 3h 7s 8d Qd] and won ($0.30) with HI: high card Ace; LO: 7,6,3,2,A
Seat 2: Ann showed [Qs Qc Kh Kd 9c Jh 9h] and won ($0.30) with HI: two pair, Kings and Queens
Seat 3: Bo folded on the 3rd Street (didn't bet)
"""


def _one(text: str):  # noqa: ANN202
    parsed = read_pokerstars_text(text, file="written.txt")
    assert parsed.errors == []
    (hand,) = parsed.hands
    assert adds_up(hand.started.source)
    return hand


def test_fixed_limit_holdem() -> None:
    """Blinds 5/10, bets 10/20. Preflop Avi raises to 20, Bea three-bets to 30, both call:
    90; flop 10 + 10: 110; turn Bea 20, Avi raises to 40, Bea calls: 190; Avi's river bet of 20
    is uncalled. Avi takes 190 (the site paid 181, rake 9) and has 500 − 30 − 10 − 40 + 190 =
    610."""
    hand = _one(LIMIT_HOLDEM)
    assert hand.started.game == "FT"
    assert (hand.started.stakes.small_bet, hand.started.stakes.big_bet) == (10, 20)
    r = replay(hand).result
    assert r.returned == {"Avi": 20}
    assert r.awards["Avi"] == 190
    assert r.final_stacks == {"Bea": 420, "Cal": 470, "Avi": 610}


def test_triple_draw() -> None:
    """2-7 triple draw, bets 10/10/20/20 (small before the second draw). Pot: 20 + 20 + 5;
    after the first draw 10 + 10; after the second 20 + 20: 105. Alice's 7-6-4-3-2 beats
    Hero's 8-7-5-3-2: 105 (the site paid 100, rake 5)."""
    hand = _one(TRIPLE_DRAW)
    assert hand.started.game == "F2L3D"
    texts = [a.text for a in hand.actions]
    assert texts[:3] == ["d dh p1 ??????????", "d dh p2 7c5d3hKdQs", "d dh p3 ??????????"]
    assert texts[texts.index("p2 sd KdQs"):][:4] == ["p2 sd KdQs", "p3 sd ??", "d dh p2 2s8d",
                                                    "d dh p3 ??"]
    r = replay(hand).result
    assert r.awards == {"Bob": 0, "Hero": 0, "Alice": 105}
    assert site_paid(hand)[0] == {"Alice": 100}


def test_a_stud_bring_in_of_the_small_bet_is_refused() -> None:
    """RULES.md §4.1: the bring-in is less than a full bet; a history whose bring-in is the
    small bet ($0.04 at $0.04/$0.08) is refused on that line, never replayed with a raise of
    one chip after it."""
    text = STUD_HILO.replace("Hero: brings in for $0.02\nAnn: calls $0.02",
                             "Hero: brings in for $0.04\nAnn: calls $0.04")
    parsed = read_pokerstars_text(text, file="written.txt")
    assert parsed.hands == [] and [str(e) for e in parsed.errors] == [
        "written.txt:13, hand PokerStars-40000000003, action 'Hero: brings in for $0.04': the "
        "bring-in 0.04 is not below the small bet 0.04: the bring-in is less than a full bet, "
        "which completing it makes (RULES.md §4.1)"]


def test_stud_hi_lo_split_pot() -> None:
    """Stud hi-lo, ante 1, bring-in 2 (Hero's 6c is the lowest up card), bets 4/8. Pot 3 + 2 + 2
    + 4 + 4 + 8 + 16 + 8 + 8 + 8 = 63: Ann's kings and queens take the high half, 32 (the odd
    chip goes high), Hero's 7-6-3-2-A the low half, 31. The site raked 3 and paid 30 each."""
    hand = _one(STUD_HILO)
    assert hand.started.game == "F7S/8"
    r = replay(hand).result
    assert r.awards == {"Hero": 31, "Ann": 32, "Bo": 0}
    assert r.contributions == {"Hero": 31, "Ann": 31, "Bo": 1}
