"""PokerStars text files (../shared/data/text): every hand read, replayed and paid as the site
paid it, plus hand-checked hands (chips written out below).

Counts per file (hands in the file / read / replayed through the engine / the engine's awards
equal what the site paid plus its rake):

=================================================================  =====  ====  ========  =====
file                                                               hands  read  replayed  = paid
=================================================================  =====  ====  ========  =====
Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt              1     1         1      1
Stars-cash-7-Stud-USD-0.04-0.08-200911.txt                            11    11        11     11
Stars-cash-Badugi-USD-0.25-0.50-201009.txt                             4     4         4      4
Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt               1     1         1      1
Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt                         78    78        78     78
Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt       1     1         1      1
Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt                    3     3         3      3
Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt                         15    15        15     15
Stars-cash-Razz-USD-0.04-0.08-200911.txt                               9     9         9      9
Stars-tour-NLHE-USD-STT-20-201006.DONturbo.txt                        61    61        61     61
=================================================================  =====  ====  ========  =====

No hand differs: :data:`EXPLAINED` (hand → why its awards are not the site's payouts plus rake)
is empty. "Equal" is checked per player: the uncalled bets the engine returns are the site's
``Uncalled bet … returned`` lines; every pot is awarded to the players the site paid; a hand
with no rake is paid exactly the engine's awards; a raked hand's awards exceed the payouts by
the rake in all, and only for players the site paid (when winners split a raked pot the site
does not say whose share the rake came from).
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games import game
from ledger.formats.pokerstars import adds_up, read_pokerstars, summary_differences
from ledger.model import events as ev
from tests.pokerstars_helpers import FILES, file_hand, one_hand, path, replay, site_paid

COUNTS = {
    "Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt": 1,
    "Stars-cash-7-Stud-USD-0.04-0.08-200911.txt": 11,
    "Stars-cash-Badugi-USD-0.25-0.50-201009.txt": 4,
    "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt": 1,
    "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt": 78,
    "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt": 1,
    "Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt": 3,
    "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt": 15,
    "Stars-cash-Razz-USD-0.04-0.08-200911.txt": 9,
    "Stars-tour-NLHE-USD-STT-20-201006.DONturbo.txt": 61,
}
#: Hand → the reason its recomputed awards are not the site's payouts plus its rake.
EXPLAINED: dict[str, str] = {}
ALLIN = "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
PLO = "Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
PLO8 = "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt"
RIT = "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"
RAZZ = "Stars-cash-Razz-USD-0.04-0.08-200911.txt"
STT = "Stars-tour-NLHE-USD-STT-20-201006.DONturbo.txt"


def paid_as_site(hand) -> str | None:  # noqa: ANN001
    """None when the engine's awards are what the site paid plus its rake (module doc), else
    what differs."""
    result = replay(hand).result
    source = hand.started.source
    collected, returned = site_paid(hand)
    if dict(returned) != result.returned:
        return f"returned {dict(returned)}, the engine returns {result.returned}"
    total = source["site_total_pot"]
    if sum(p.amount for p in result.pots) != total:
        return f"pots {[p.amount for p in result.pots]}, the site's total {total}"
    over = {p: result.awards[p] - collected[p] for p in result.players
            if result.awards[p] or collected[p]}
    if any(v < 0 or (v and not collected[p]) for p, v in over.items()):
        return f"awards {result.awards}, the site paid {dict(collected)}"
    if sum(over.values()) != source["site_rake"]:
        return f"awards exceed the payouts by {sum(over.values())}, rake {source['site_rake']}"
    return None


def test_the_files_are_the_ones_counted() -> None:
    assert FILES == sorted(COUNTS)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_hand_reads_replays_and_is_paid_as_the_site_paid(name: str) -> None:
    parsed = read_pokerstars(path(name))
    assert parsed.errors == []
    assert len(parsed.hands) == COUNTS[name]
    differences = {}
    for hand in parsed.hands:
        assert replay(hand).result.status == "complete"
        why = paid_as_site(hand)
        if why is not None:
            differences[hand.hand] = why
        assert summary_differences(hand.started.source) == [], hand.hand
    assert differences == {h: w for h, w in EXPLAINED.items() if h in differences}
    assert set(differences) == {h for h in EXPLAINED if any(x.hand == h for x in parsed.hands)}


def test_the_replays_differences_are_the_rake() -> None:
    """``replay`` compares the site's payouts with the engine's awards and so reports every
    raked hand: 49 of the 184 hands, each named once (its one ``rake`` finding: 2 of them
    pay two players short, a split pot, and are the whole table's, ``*``), its difference
    minus its rake, and no other hand."""
    hands = tables = 0
    for name in FILES:
        for hand in read_pokerstars(path(name)).hands:
            rake = hand.started.source["site_rake"]
            found = replay(hand).discrepancies
            assert sum(d.diff for d in found) == -rake, hand.hand
            assert all(d.diff < 0 and d.kind == "rake" for d in found)
            assert len(found) <= 1, hand.hand
            hands += bool(found)
            tables += sum(d.player == "*" for d in found)
    assert (hands, tables) == (49, 2)


# ------------------------------------------------------------------------------------------
# Hand-checked


def test_all_in_with_the_uncalled_amount_returned() -> None:
    """#42875758685 ($0.05/$0.10): Player2 (small blind, $3.90) bets $0.90 on the turn into
    Hero's $0.80 all-in; $0.10 is uncalled. Player2 put in 5 + 35 + 80 (flop, to 120) + 90 =
    250 and gets 10 back; Hero 40 + 120 + 80 = 240 (all he had); Player1's big blind 10 is
    dead. Pot 240 + 240 + 10 = 490; Player2's 9d makes a queen-high flush over Hero's 8d: he
    takes 490, the site paid 470 and kept 20 rake."""
    hand = file_hand(ALLIN, "42875758685")
    r = replay(hand).result
    assert [s.player for s in hand.started.seats] == ["Player2", "Player1", "Hero"]
    assert [s.seat for s in hand.started.seats] == [8, 3, 4]
    assert r.contributions == {"Player2": 250, "Player1": 10, "Hero": 240}
    assert r.returned == {"Player2": 10}
    assert [(p.amount, p.awards) for p in r.pots] == [(490, {"Player2": 490})]
    assert r.final_stacks == {"Player2": 390 - 250 + 10 + 490, "Player1": 545, "Hero": 0}
    assert hand.payouts == [
        ev.RecordedPayout(player="Player2", amount=10, returned=True),
        ev.RecordedPayout(player="Player2", amount=470, pot=0),
    ]
    source = hand.started.source
    assert (source["site_total_pot"], source["site_rake"]) == (490, 20)


def test_three_way_side_pot() -> None:
    """#22865231671 (PLO $0.01/$0.02): all-in for 59 (Hero), 90 (Player0), 105 (Player2);
    Player4 calls 105; 8 + 1 + 2 dead from the folders. Main pot 4 × 59 + 11 = 247 (Player0's
    ace-high straight), side pot 1 3 × 31 = 93 (Player0), side pot 2 2 × 15 = 30 (Player2's
    jacks over Player4's nines). The site paid 235 / 88 / 29 after 12 + 5 + 1 rake."""
    hand = file_hand(PLO, "22865231671")
    assert hand.started.button == "Player4"  # seat 6: p1 is seat 7, the button last
    r = replay(hand).result
    assert [(p.amount, p.eligible, p.awards) for p in r.pots] == [
        (247, ("Player2", "Hero", "Player0", "Player4"), {"Player0": 247}),
        (93, ("Player2", "Player0", "Player4"), {"Player0": 93}),
        (30, ("Player2", "Player4"), {"Player2": 30}),
    ]
    paid = [(p.player, p.amount, p.pot) for p in hand.payouts]
    assert paid == [("Player2", 29, 2), ("Player0", 88, 1), ("Player0", 235, 0)]
    assert hand.started.source["site_main_pot"] == 235
    assert hand.started.source["site_side_pots"] == [88, 29]


def test_run_it_twice() -> None:
    """#90721705235 (€1/€2): Hero and Player1 all-in on the turn for €109.16 each, run twice
    (rivers 2d and 5h). Pot 2 × 10916 + 600 (Player5's big blind and call) + 100 (Player4's
    small blind) = 22532. Player1 mucked, so Hero takes both runs; the site paid 11159 + 11158
    (the odd cent to run 1) and kept 215. Edited so that Player1 shows Ah Kh and the second
    river is Th: run 1 (Js 9h Jh Qs 2d) goes to Hero's three jacks, run 2 (… Th) to Player1's
    ace-high flush: 11266 each."""
    hand = file_hand(RIT, "90721705235")
    assert "d rc 2" in [a.text for a in hand.actions]
    events = [e for e in _events(hand) if e.type in ("run_count", "cards_dealt")]
    assert ev.RunCount(runs=2) in events
    assert [e.run for e in events if e.type == "cards_dealt" and e.player is None] == [1, 1, 1, 2]
    assert [(p.amount, p.run) for p in hand.payouts] == [(11159, 1), (11158, 2)]
    r = replay(hand).result
    assert [(p.amount, p.awards) for p in r.pots] == [(22532, {"Hero": 22532})]
    assert hand.started.unit == ev.Unit(currency="EUR", decimals=2)
    assert hand.started.source["encoding"] == "cp1252"  # the € is byte 0x80
    edited = one_hand(RIT, "90721705235",
                      ("Player1: mucks hand", "Player1: shows [Ah Kh] (a flush, Ace high)"),
                      ("[Js 9h Jh Qs] [5h]", "[Js 9h Jh Qs] [Th]"),
                      ("Player1 mucked [9s Ah]", "Player1 showed [Ah Kh] and won"))
    (pot,) = replay(edited).result.pots
    assert pot.amount == 22532
    assert pot.awards == {"Hero": 11266, "Player1": 11266}


def _events(hand):  # noqa: ANN001, ANN202
    from replay.build import events_from_phh

    return events_from_phh(hand)


def test_quartered_omaha_hi_lo_pot() -> None:
    """#35875034981 (PLO8): pot 1 + 16 + 16 + 6 = 39. supermeXXX's three deuces take the high
    half, 20 (the odd chip goes high); both have 6-5-4-2-A for low and share the low half 19:
    the odd chip to UnderMeSensi, first left of the button (seat 5) of the two. supermeXXX
    29, UnderMeSensi 10: what the site paid (no rake)."""
    hand = file_hand(PLO8, "35875034981")
    assert hand.started.game == "PO/8"
    r = replay(hand).result
    assert r.awards["supermeXXX"] == 20 + 9
    assert r.awards["UnderMeSensi"] == 10
    assert [(p.player, p.amount) for p in hand.payouts] == [
        ("supermeXXX", 20), ("UnderMeSensi", 10), ("supermeXXX", 9)]


def test_stud_bring_in_and_completion() -> None:
    """Razz #35874780027 ($0.04/$0.08, ante 1): HIWAII2's Qs is the highest up card (Qs beats
    SilkZone's Qc by suit) and brings in for 2; Hero completes to 4. Pot: antes 6 + 2 + 4 × 4
    (third street) + 3 × 12 + 2 × 8 + 2 × 8 + 2 × 32 (seventh, capped at four bets) = 156 to
    kobreli's 6-4 low; the site paid 149 and kept 7. kobreli put in 1 + 4 + 12 + 8 + 8 + 32 =
    65 of his 101: he ends on 192."""
    hand = file_hand(RAZZ, "35874780027")
    assert hand.started.game == "FR" and hand.started.button is None
    events = _events(hand)
    bring_in = next(e for e in events if e.type == "forced_bet" and e.kind == "bring_in")
    assert (bring_in.player, bring_in.amount) == ("HIWAII2", 2)
    complete = events[events.index(bring_in) + 1]
    assert complete == ev.BetRaise(player="Hero", to=4)
    r = replay(hand).result
    assert r.awards["kobreli"] == 156
    assert r.contributions["kobreli"] == 65
    assert r.final_stacks["kobreli"] == 192
    assert hand.started.stakes.bring_in == 2
    assert hand.started.stakes.antes == [1] * 6


def test_tournament_hand_with_antes() -> None:
    """STT #12086528146, level VI (100/200, ante 20): eight antes 160, blinds 100 + 200;
    Player1 all-in for 1068 (1088 less his ante), Player3 all-in for 2780, 1712 of it
    uncalled. Pot 160 + 300 + 2 × 1068 = 2596 to Player1's king-high flush; Player3 ends on
    2800 − 20 − 2780 + 1712 = 1712. Chips, not money: no currency, no decimals."""
    hand = file_hand(STT, "12086528146")
    assert hand.started.unit == ev.Unit()
    assert [f.kind for f in hand.forced] == ["ante"] * 8 + ["small_blind", "big_blind"]
    r = replay(hand).result
    assert r.returned == {"Player3": 1712}
    assert [(p.amount, p.awards) for p in r.pots] == [(2596, {"Player1": 2596})]
    assert r.final_stacks["Player1"] == 2596
    assert r.final_stacks["Player3"] == 1712
    source = hand.started.source
    assert (source["tournament"], source["level"], source["buy_in"]) == (
        "999999999", 6, "$20.00+$0.80 USD")
    assert source["time_utc"] == "2010-06-05T17:49:41+00:00"  # 13:49:41 ET, summer time


def test_a_summary_that_disagrees_is_a_fact_not_an_error() -> None:
    """#42875758685 with its total pot edited from $4.90 to $4.99, and another copy with
    Player2's collected $4.70 edited to $4.80: both read and replay; the hand carries what
    does not add up. Paid 480 and his uncalled 10 back, Player2 is 10 over the 480 the rules
    give him of the 490 pot less the summary's rake of 20: the rake stays counted (its one
    finding, 490 paid of 500, less the 10 over of his payout finding, 490 of 480)."""
    total = one_hand(ALLIN, "42875758685", ("Total pot $4.90", "Total pot $4.99"))
    assert replay(total).result.awards["Player2"] == 490
    assert not adds_up(total.started.source)
    assert summary_differences(total.started.source) == [
        "the actions put 490 in the pot, the summary says 499 (+9)",
        "collected 470 + rake 20 = 490, the total pot is 499 (+9)",
    ]
    paid = one_hand(ALLIN, "42875758685", ("Player2 collected $4.70", "Player2 collected $4.80"))
    assert summary_differences(paid.started.source) == [
        "collected 480 + rake 20 = 500, the total pot is 490 (-10)",
        "Player2: the summary says 470, the lines collected 480",
    ]
    r = replay(paid)
    assert [(d.kind, d.player, d.recorded, d.recomputed) for d in r.discrepancies] == [
        ("rake", "Player2", 490, 500), ("payout", "Player2", 490, 480)]


def test_every_game_of_the_files_has_its_code() -> None:
    codes = {h.started.game for name in FILES for h in read_pokerstars(path(name)).hands}
    assert codes == {"NT", "PO", "PO/8", "F7S", "FR", "F5D", "FB"}
    for code in codes:
        game(code)


def test_re_reading_gives_the_same_hands() -> None:
    first = read_pokerstars(path(RAZZ)).hands
    again = read_pokerstars(path(RAZZ)).hands
    assert [h.started for h in first] == [h.started for h in again]
    keys = Counter(h.source_key for h in first)
    assert len(keys) == len(first) and all(k.startswith("pokerstars:") for k in keys)
