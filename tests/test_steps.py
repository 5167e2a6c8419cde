"""The per-event steps (replay/steps.py) and the hand's view (replay/handview.py): the values
of RULES.md ex01 and the scripted dispute checked by hand, and ``show`` byte for byte
(tests/golden/show/: written by ``show`` at c204e68, before it read the steps; written again
when its event lines named the players and the chips of forced bets and payouts, and when the
pots of a hand whose betting goes on were named as the table names them: dispute-at8,
ex01-at20 and straddle-allin-at10, each checked by hand in the tests below; and when a
payout took its chips out of the pot shown: the rows of a pay and after it, whose stacks and
pot now add up to the chips on the table, checked in tests/test_paid_out.py; and when a
draw's row named the dealer dealing the replacement cards owed before the next player's
discard, as ``state`` does: five-card-draw rows 11 and 12, Bob's 2 cards, checked against
``act``)."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.formats.phh.read import read_phh
from replay.build import events_from_phh
from replay.steps import hand_steps
from tests.conftest import DATA, ROOT, SHARED

GOLDEN = ROOT / "tests" / "golden" / "show"
EX01 = SHARED / "rules" / "ex01.phh"
WRONG_PUSH = DATA / "dispute" / "wrong-push.phh"
RIGHT_SPLIT = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300")
#: golden file stem -> (hand id, the file it comes from)
HANDS = {
    "ex01": "phh-f1802a128b6b", "ex03": "phh-3ae329a8e368", "dispute": "dispute-1",
    "five-card-draw": "phh-90f35dda9542", "five-card-stud": "phh-3c8ac974a263",
    "plo-three-way-voided": "phh-e90348620d79", "straddle-allin": "phh-1a6cdd48669a",
    "ante-side-pots": "phh-877231987944",
}


def _events(path: Path) -> list:
    (hand,) = read_phh(path).hands
    return events_from_phh(hand)


def _pots(step) -> list[tuple[int, tuple[str, ...]]]:  # noqa: ANN001
    return [(p.amount, p.eligible) for p in step.pots]


def test_show_prints_exactly_what_it_printed_before_the_steps(run) -> None:  # noqa: ANN001
    for path in (DATA / "hands", SHARED / "rules" / "ex01.phh", SHARED / "rules" / "ex03.phh",
                 WRONG_PUSH):
        assert run("import", str(path)).exit_code == 0
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "dealer pushed the main pot "
               "to Bob; Ann's aces win it", "--by", "floor").exit_code == 0
    assert run("void", HANDS["plo-three-way-voided"], "--reason", "restarted",
               "--by", "host").exit_code == 0
    files = sorted(GOLDEN.glob("*.txt"))
    assert len(files) == 13
    for file in files:
        stem, _, at = file.stem.partition("-at")
        args = ["--at", at] if at else []
        out = run("show", HANDS[stem], *args)
        assert out.exit_code == 0
        assert out.output == file.read_text(encoding="utf-8"), file.name


def test_ex01_steps_hand_checked() -> None:
    hs = hand_steps(_events(EX01))
    steps = hs.steps
    assert [s.seq for s in steps] == list(range(1, 54)) and not hs.corrected
    assert steps[0].type == "hand_started" and steps[0].pots == ()
    assert hs.starting == (("p1", 50), ("p2", 15), ("p3", 100), ("p4", 100), ("p5", 100),
                           ("p6", 100), ("p7", 50))
    antes = steps[7]  # seq 8: the seventh ante, the only chips in
    assert antes.action == "forced_bet" and antes.words == "p7 posts an ante of 1"
    assert antes.phase == "forced" and antes.pot_total == 7
    assert _pots(antes) == [(7, ("p1", "p2", "p3", "p4", "p5", "p6", "p7"))]
    # seq 29, p2 calls all-in for his last 10: put in p1 1, p2 15, p3 9, p4 13, p5 13, p6 17,
    # p7 1. Layers at the live levels 9, 13, 15, 17: 1+9*5+1 = 47 (p2-p6), 4*4 = 16 (p2, p4,
    # p5, p6), 2*2 = 4 (p2, p6), 2 (p6; a bet, not his dead ante, so it stays a pot).
    allin = steps[28]
    assert allin.action == "p2 cc" and allin.words == "p2 calls all-in: 10 more, 14 this street"
    # p7, p1 folded; p3-p6 can still bet, so only p2's all-in (15) caps a pot (the layers at
    # 9, 13, 15 are one pot for p2-p6): 1 + 15 + 9 + 13 + 13 + 15 + 1 = 67, and p6's 2 above
    # 15 for p3-p6 (not yet called: it goes back if nobody does)
    assert _pots(allin) == [(67, ("p2", "p3", "p4", "p5", "p6")), (2, ("p3", "p4", "p5", "p6"))]
    assert allin.explanation() == ("Main pot: 67 (p2, p3, p4, p5, p6)",
                                   "Side pot 1: 2 (p3, p4, p5, p6)")
    assert allin.pot_total == 69 and allin.current_bet == 16 and allin.street_name == "preflop"
    p2 = allin.seats[1]
    assert (p2.player, p2.stack, p2.bet, p2.put_in, p2.all_in, p2.folded) == (
        "p2", 0, 14, 15, True, False)
    assert allin.seats[0].folded and allin.seats[0].cards == ("7c", "6d")
    # p3 raised to 8, faces 16: to call 8; the last full raise was 4 (12 -> 16), so 20..99
    assert allin.to_act == "p3" and allin.legal is not None
    assert (allin.legal.to_call, allin.legal.min_to, allin.legal.max_to, allin.legal.verb) == (
        8, 20, 99, "raise")
    flop = steps[32]
    assert flop.boards == (("Ah", "Kd", "8c"),) and flop.street_name == "flop"
    assert flop.current_bet == 0 and flop.legal.verb == "bet" and flop.legal.min_to == 1
    end = hs.last
    assert end.type == "hand_ended" and end.status == "complete" and end.legal is None
    assert _pots(end) == [(77, ("p2", "p3", "p4", "p5", "p6")), (8, ("p3", "p4", "p5", "p6"))]
    assert [p.awards for p in end.pots] == [{"p2": 77}, {"p4": 4, "p6": 4}]
    assert [p.name for p in end.pots] == ["Main pot", "Side pot 1"]
    assert end.explanation() == (
        "Main pot 77 (p2, p3, p4, p5, p6): p2 wins 77 with three of a kind, aces, K-8 kickers.",
        "Side pot 1 8 (p3, p4, p5, p6): p4 and p6 tie with pair of kings, A-Q-8 kickers; 4 each.",
    )
    assert end.seats[1].cards == ("As", "Ac") and end.seats[6].cards == ("9s", "9d")
    data = json.loads(json.dumps(hs.to_json()))
    assert "standing" not in data["steps"][28]
    assert data["steps"][28]["pots"][1] == {"index": 1, "name": "Side pot 1", "amount": 2,
                                                "eligible": ["p3", "p4", "p5", "p6"],
                                                "awards": {}, "lines": [], "left": 2}
    assert data["steps"][-1]["pots"][1] == {"index": 1, "name": "Side pot 1", "amount": 8,
                                            "eligible": ["p3", "p4", "p5", "p6"],
                                            "awards": {"p4": 4, "p6": 4},
                                            "lines": list(end.pots[1].lines),
                                            "left": 0}  # no payout recorded: the rules'
    # award is out of the pot and in the stacks (77 to p2, 4 each to p4 and p6), said as such
    assert (end.pot_total, end.paid, end.awarded) == (0, {}, {"p2": 77, "p4": 4, "p6": 4})
    assert [s.stack for s in end.seats] == [49, 77, 83, 87, 83, 87, 49]  # 515, as dealt
    assert data["explanation"] == list(end.explanation())


def test_dispute_side_pot_forms_when_the_all_in_is_covered() -> None:
    steps = hand_steps(_events(WRONG_PUSH)).steps
    blinds = steps[2]  # Ann 1, Bob 2, Cy still to act: one pot, all three in it
    assert _pots(blinds) == [(3, ("Ann", "Bob", "Cy"))]
    shove = steps[7]  # Ann all-in for 100, Bob (2) and Cy (6) to act: still one pot
    assert shove.words == "Ann raises all-in: 99 more, 100 this street"
    # put in Ann 100, Bob 2, Cy 6: Bob and Cy can still match 100, so Ann's 94 above Cy's 6
    # is no pot of her own (the layers would read 6 / 8 for Ann, Cy / 94 for Ann)
    assert _pots(shove) == [(108, ("Ann", "Bob", "Cy"))]
    assert shove.explanation() == ("Main pot: 108 (Ann, Bob, Cy)",)
    flop_bet = steps[11]  # Bob bets 50 beyond Ann's 100: the side pot Ann cannot win
    assert flop_bet.action == "p2 cbr 50" and flop_bet.to_act == "Cy"
    assert _pots(flop_bet) == [(300, ("Ann", "Bob", "Cy")), (50, ("Bob", "Cy"))]
    # the end: the layers of RULES.md §1.2, settled (unchanged by the naming while betting)
    assert _pots(steps[-1]) == [(300, ("Ann", "Bob", "Cy")), (100, ("Bob", "Cy"))]


def test_upto_stops_early_and_unpaid_pots_read_as_pot_n() -> None:
    hs = hand_steps(_events(EX01), upto=20)
    assert len(hs.steps) == 20 and hs.last.action == "p5 cbr 4"
    # put in: p1 1, p2 1, p3 2, p4 3, p5 5, p6 1, p7 1 = 14; nobody folded or all-in, so
    # everyone can still match p5's 5: one pot for all seven (the layers at 1, 2, 3, 5 would
    # read 7 / 3 / 2 / 2, leaving out players still to act); nothing uncalled yet
    assert hs.last.explanation() == ("Main pot: 14 (p1, p2, p3, p4, p5, p6, p7)",)
    assert hs.last.returned == {}


def test_street_names_of_stud_and_draw() -> None:
    stud = hand_steps(_events(DATA / "hands" / "five-card-stud.phh"))
    bring_in = stud.steps[6]  # seq 7: the cards are out, the low card must bring in
    assert bring_in.street_name == "second street"
    assert bring_in.legal.player == "Dee" and bring_in.legal.bring_in == 1
    # fixed limit: the page offers a range of two bets as "5 or 10", nothing between
    assert bring_in.to_json()["legal"]["fixed"] is True
    assert {s.street_name for s in stud.steps} >= {"third street", "fourth street",
                                                    "fifth street"}
    draw = hand_steps(_events(DATA / "hands" / "five-card-draw.phh"))
    names = [s.street_name for s in draw.steps]
    assert names[6] == "before the draw" and names[-1] == "after the draw"
    assert draw.steps[11].words == "Cy stands pat" and draw.steps[10].words == "Bob discards 7s 2d"


def test_the_street_named_is_the_one_whose_cards_are_out() -> None:
    """After the flop's betting closes (step 13, "Cy calls 50"), the page's heading said
    "turn" with only the flop on the board: the engine moves on before the turn is dealt.
    Stud after a street's betting, and a draw while it is drawn, alike."""
    dispute = hand_steps(_events(WRONG_PUSH))
    assert [(s.seq, s.street_name, len(s.boards[0])) for s in dispute.steps[8:17]] == [
        (9, "preflop", 0), (10, "preflop", 0), (11, "flop", 3), (12, "flop", 3),
        (13, "flop", 3), (14, "turn", 4), (15, "turn", 4), (16, "turn", 4), (17, "river", 5)]
    assert dispute.steps[0].street_name == ""  # the blinds: the page says its phase
    stud = hand_steps(_events(DATA / "hands" / "five-card-stud.phh"))
    assert [(s.seq, s.action, s.street_name) for s in stud.steps[9:12]] == [
        (10, "p3 cc", "second street"), (11, "p1 cc", "second street"),
        (12, "d dh p1 9d", "third street")]
    draw = hand_steps(_events(DATA / "hands" / "five-card-draw.phh"))
    assert [(s.seq, s.action, s.street_name) for s in draw.steps[8:15]] == [
        (9, "p2 cc", "before the draw"), (10, "p3 cc", "the draw"),
        (11, "p1 sd 7s2d", "the draw"), (12, "p2 sd", "the draw"),
        (13, "p3 sd 3c", "the draw"), (14, "d dh p1 Jh5s", "the draw"),
        (15, "d dh p3 2h", "after the draw")]


def test_show_at_past_the_hands_last_event_is_refused_in_one_line(run) -> None:  # noqa: ANN001
    """``show --at`` past the last seq of the hand stream printed the whole hand, exit 0: now
    one line and exit 2. The stream's seqs count a correction's own (seq 25 here)."""
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    past = run("show", "dispute-1", "--at", "25")
    assert (past.exit_code, past.output) == (
        2, "error: hand dispute-1: --at 25: the hand's last event is seq 24\n")
    last = run("show", "dispute-1", "--at", "24")
    assert last.exit_code == 0 and " 24 hand_ended " in last.output
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to Ann",
               "--by", "floor").exit_code == 0
    assert run("show", "dispute-1", "--at", "25").exit_code == 0
    past = run("show", "dispute-1", "--at", "26")
    assert (past.exit_code, past.output) == (
        2, "error: hand dispute-1: --at 26: the hand's last event is seq 25\n")


def test_show_names_the_players_and_the_chips_of_forced_bets_and_payouts() -> None:
    """The dispute as ``show`` words its events: seat labels of the PHH file (p1 = Ann, the
    small blind) by name, a forced bet and a recorded payout with player and chips, as
    ``act`` takes a payout (``pay Bob 400``: the table pushed all 400 to Bob)."""
    named = {s.seq: s.named for s in hand_steps(_events(WRONG_PUSH)).steps}
    assert [named[q] for q in (2, 3, 4, 7, 8, 20, 23, 24)] == [
        "Ann posts small blind 1", "Bob posts big blind 2", "d dh Ann AsAh", "Cy cbr 6",
        "Ann cbr 100", "Ann sm AsAh", "pay Bob 400", "hand_ended"]


def test_show_stacks_count_what_the_table_paid() -> None:
    """The stacks after a recorded payout hold what it pushed: the dispute's table pushed all
    400 to Bob (150 behind after the river) — 550 from seq 23; Ann's all-in 100 and Cy's 150
    stay out. Before the payout, the chips in the pot are nobody's."""
    steps = {s.seq: s for s in hand_steps(_events(WRONG_PUSH)).steps}
    stacks = {q: [(x.player, x.stack) for x in steps[q].seats] for q in (22, 23, 24)}
    assert stacks[22] == [("Ann", 0), ("Bob", 150), ("Cy", 150)]
    assert stacks[23] == stacks[24] == [("Ann", 0), ("Bob", 550), ("Cy", 150)]


def test_show_at_names_a_row_a_correction_inserted(run) -> None:  # noqa: ANN001
    """``--at 23`` of the corrected dispute ended with the "23+ pay Ann 300" row a correction
    inserted after it, which no --at could stop before; ``--at 25``, the correction's own
    seq, printed the whole hand with no word of what 25 is."""
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to Ann",
               "--by", "floor").exit_code == 0
    head = ["hand dispute-1: NT, button Cy; seats Ann 100, Bob 300, Cy 300",
            "(corrected: shown as corrected; `history` shows the originals)"]
    row23 = " 23 pay Bob 100                  pot 300 [Ann:0 Bob:250 Cy:150] showdown"
    row23_ = "23+ pay Ann 300                  pot 0 [Ann:300 Bob:250 Cy:150] showdown"
    main = "    Main pot 300 (Ann, Bob, Cy): Ann wins 300 with pair of aces, T-9-7 kickers."
    side = "    Side pot 1 100 (Bob, Cy): Bob wins 100 with pair of kings, T-9-7 kickers."
    at23 = run("show", "dispute-1", "--at", "23")
    lines = at23.output.splitlines()
    assert at23.exit_code == 0 and lines[:3] == [
        *head, "note: --at 23 stops before the 1 row(s) a correction inserted after seq 23: "
        "--at 23+ shows them"]
    assert lines[-3:] == [row23, main, side]  # Ann's 300 not paid yet: her stack 0
    for at in ("23+", "23+1"):
        out = run("show", "dispute-1", "--at", at)
        assert out.exit_code == 0 and out.output.splitlines()[:2] == head
        assert out.output.splitlines()[-4:] == [row23, row23_, main, side]
    at25 = run("show", "dispute-1", "--at", "25")
    lines = at25.output.splitlines()
    assert at25.exit_code == 0 and lines[:3] == [
        *head, "note: seq 25 is a correction (by floor: main pot to Ann), not an event of "
        "play: every --at shows the hand as corrected, so --at 25 stops after the events "
        "before it; `history dispute-1` shows what it changed"]
    assert lines[-5:] == [
        row23, row23_, " 24 hand_ended                   pot 0 [Ann:300 Bob:250 Cy:150] "
        "showdown", main, side]
    for at, why in (("23+2", "only 1 row(s) in force inserted after seq 23 (`show dispute-1` "
                              "labels each 23+)"),
                    ("22+", "no row in force inserted after seq 22 (`show dispute-1` labels "
                            "each 22+)"),
                    ("0", "not a seq of the hand: a number from 1 (its start), or N+ for the "
                          "rows a correction inserted after seq N (N+2: through the second "
                          "of them), as `show` labels them")):
        out = run("show", "dispute-1", "--at", at)
        assert (out.exit_code, out.output) == (2, f"error: hand dispute-1: --at {at}: {why}\n")


def test_show_says_when_the_table_paid_differently_from_the_rules(run) -> None:  # noqa: ANN001
    """One line after the pots once the hand is complete: the dispute's table pushed all 400
    to Bob, the rules give Ann the 300 main pot and Bob the 100 side pot. None after the
    correction, nor at --at 23 (the hand not over)."""
    assert run("import", str(WRONG_PUSH)).exit_code == 0
    line = ("    paid differently from the rules: Ann was paid 0, the rules give 300 (-300); "
            "Bob was paid 400, the rules give 100 (+300)\n")
    whole = run("show", "dispute-1")
    assert whole.exit_code == 0 and whole.output.endswith(
        "Bob wins 100 with pair of kings, T-9-7 kickers.\n" + line)
    assert "paid differently" not in run("show", "dispute-1", "--at", "23").output
    assert run("correct", "dispute-1", *RIGHT_SPLIT, "--reason", "main pot to Ann",
               "--by", "floor").exit_code == 0
    assert "paid differently" not in run("show", "dispute-1").output


def test_paid_otherwise_words_a_rake_as_the_rake() -> None:
    """tests/test_rake.py's hand: p1 takes the 12 pot and his uncalled 20 back (32 by the
    rules); the site paid 31 and the file records a rake of 1: said once, as the rake kept,
    in a note (paid as the rules give: the pots less the rake)."""
    from ledger.formats.phh.read import read_phh_text
    from tests.test_rake import HAND

    def paid(extra: str) -> str | None:
        (hand,) = read_phh_text(HAND + extra).check()
        return hand_steps(events_from_phh(hand)).paid_otherwise

    assert paid("winnings = [32, 0, 0]\n") is None
    assert paid("winnings = [31, 0, 0]\nrake = 1\n") == (
        "note: the table paid 1 less than the pots and returns: "
        "the site kept 1 as rake (as the file records)")
    assert paid("winnings = [30, 2, 0]\n") == (
        "paid differently from the rules: p1 was paid 30, the rules give 32 (-2); "
        "p2 was paid 2, the rules give 0 (+2)")


def test_show_of_a_hand_in_dollars_and_cents_says_its_unit(run) -> None:  # noqa: ANN001
    """FORMATS.md §1: a HandHQ file is in dollars with cents, kept in cents: the stacks and
    pots of ``show`` are cents, its actions as the file writes them (the small blind 5.00 is
    the 500 in the pot). A hand in whole chips has no such line."""
    path = SHARED / "phh" / "handhq" / "ps-1000nl-excerpt.phhs"
    assert run("import", str(path)).exit_code == 0
    lines = run("show", "PokerStars-59937797066").output.splitlines()
    assert lines[1] == ("(stacks and pots in the hand's smallest unit, 100 = 1.00; actions as "
                        "its notation writes them)")
    assert lines[2].split() == ["2", "p1", "posts", "small", "blind", "5.00", "pot", "500",
                                "[p1:51195", "p2:100000", "p3:104700", "p4:305920", "p5:99500]",
                                "forced"]
    assert run("import", str(SHARED / "rules" / "ex01.phh")).exit_code == 0
    whole = run("show", HANDS["ex01"]).output.splitlines()
    assert whole[1].startswith("  2 ") and len(whole) > 20


def test_show_takes_a_returned_uncalled_bet_out_of_the_pot(run, tmp_path: Path) -> None:  # noqa: ANN001
    """A PokerStars hand (its first 24 lines): k1tt9nM1nd raises to 30 over Hero's big blind
    of 10, Hero folds; the table returns his uncalled 20 and pays him the pot of 20 (his
    blind 5 + raise's called 10 + Hero's 10 = 40 put in, less 20 back). Once the betting is
    over (Hero's fold) the 20 is back in his stack and the pot is 20, as ``state`` says
    (RULES.md §1.4), the ``returned`` recorded after changing neither; once the 20 is paid
    too, 0: every chip is in a stack. Everyone else folded: the phase is `no showdown`
    (RULES.md §1.6), as ``state`` names it."""
    lines = (SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt").read_text(
        encoding="utf-8").splitlines(keepends=True)[:24]
    one = tmp_path / "one.txt"
    one.write_text("".join(lines), encoding="utf-8")
    assert run("import", str(one)).exit_code == 0
    out = run("show", "PokerStars-35824118297")
    assert out.exit_code == 0
    stacks = "Hero:990 Gles65:960 Pho3nix.two:660]"
    rows = out.output.splitlines()
    at = next(i for i, row in enumerate(rows) if row.startswith(" 11 "))
    assert rows[at:at + 4] == [
        f" 11 Hero f                       pot 20 [k1tt9nM1nd:990 {stacks} no showdown",
        f" 12 returned k1tt9nM1nd 0.20     pot 20 [k1tt9nM1nd:990 {stacks} no showdown",
        f" 13 pay k1tt9nM1nd 0.20          pot 0 [k1tt9nM1nd:1010 {stacks} no showdown",
        f" 14 hand_ended                   pot 0 [k1tt9nM1nd:1010 {stacks} no showdown",
    ]


def test_show_names_the_dealer_s_replacement_deal_in_a_draw(run) -> None:  # noqa: ANN001
    """Deuce-to-seven triple draw (RULES.md §4.2): once Flo has discarded one card (Eli
    stood pat, Dan folded) the dealer deals Flo's replacement next, as ``state`` says
    (``next: d dh Flo CARDS (1 card drawn)``): the row says so instead of naming nobody; in
    the second draw Eli discards first: his replacement is dealt before Flo's discard, as
    ``state`` says (``next: d dh Eli CARDS (1 card drawn)``), so the row names the dealer's
    deal, not Flo, and the page's ``to_act`` is nobody."""
    assert run("hand", "start", "--hand", "t", "--game", "F2L3D", "--stakes", "1/2",
               "--small-bet", "2", "--big-bet", "4", "--seats", "Dan:50,Eli:50,Flo:50",
               "--button", "Dan").exit_code == 0
    played = run("table", "t", input="d dh Eli ??????????\nd dh Flo ??????????\n"
                 "d dh Dan ??????????\nDan f\nEli cc\nFlo cc\nEli sd\nFlo sd ??\n"
                 "d dh Flo 9h\nEli cc\nFlo cc\nEli sd ??\nd dh Eli 8h\n")
    assert played.exit_code == 0, played.output
    rows = run("show", "t").output.splitlines()
    stacks = "pot 4 [Eli:48 Flo:48 Dan:50]"
    assert rows[9:16] == [
        f" 10 Eli sd                       {stacks} draw → Flo",
        f" 11 Flo sd ??                    {stacks} draw → dealer deals Flo 1 replacement card",
        " 12 d dh Flo 9h                  pot 4 bet 0 [Eli:48 Flo:48 Dan:50] bet → Eli",
        " 13 Eli cc                       pot 4 bet 0 [Eli:48 Flo:48 Dan:50] bet → Flo",
        f" 14 Flo cc                       {stacks} draw → Eli",
        f" 15 Eli sd ??                    {stacks} draw → dealer deals Eli 1 replacement card",
        f" 16 d dh Eli 8h                  {stacks} draw → Flo"]
    assert run("state", "t").output.splitlines()[1] == (
        "phase draw, Flo to act: Flo sd CARDS (discard) or Flo sd (stand pat)")


def test_show_names_the_replacement_owed_before_the_next_discard(run) -> None:  # noqa: ANN001
    """Deuce-to-seven triple draw, Cy discards first (one card): ``act`` and ``state`` name
    the dealer dealing Cy's replacement next though Ann and Bob have still to discard; the
    row of Cy's discard says the same. Each pays 2 before the draw: pot 6, stacks 98."""
    assert run("hand", "start", "--game", "F2L3D", "--stakes", "1/2", "--small-bet", "2",
               "--big-bet", "4", "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Bob",
               "--hand", "d2").exit_code == 0
    for a in ("d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", "Bob cc",
              "Cy cc", "Ann cc"):
        assert run("act", "d2", a).exit_code == 0
    said = run("act", "d2", "Cy sd ??")
    assert said.output == "10 discard; phase draw, next: d dh Cy CARDS (1 card drawn)\n"
    rows = run("show", "d2").output.splitlines()
    assert rows[9] == (" 10 Cy sd ??                     pot 6 [Cy:98 Ann:98 Bob:98] "
                        "draw → dealer deals Cy 1 replacement card")
    assert run("state", "d2").output.splitlines()[1] == (
        "phase draw, next: d dh Cy CARDS (1 card drawn)")
    for a in ("d dh p1 ??", "Ann sd ????"):
        assert run("act", "d2", a).exit_code == 0
    rows = run("show", "d2").output.splitlines()
    assert rows[10:] == [
        " 11 d dh Cy ??                   pot 6 [Cy:98 Ann:98 Bob:98] draw → Ann",
        " 12 Ann sd ????                  pot 6 [Cy:98 Ann:98 Bob:98] "
        "draw → dealer deals Ann 2 replacement cards",
        "    Main pot: 6 (Cy, Ann, Bob)"]


def test_a_discard_names_the_cards_known_and_counts_the_rest(run, db) -> None:  # noqa: ANN001
    """Five-card draw dealt face down (``??``) to Ann, Bob: Ann discards 9s and one card
    unseen, Bob the 2c and 3c he was dealt: the step's words name what is known."""
    assert run("hand", "start", "--hand", "g", "--game", "F5D", "--stakes", "1/2",
               "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100",
               "--button", "Ann").exit_code == 0
    played = run("table", "g", input="d dh Bob 2c3c??????\nd dh Ann ??????????\nAnn cc\n"
                 "Bob cc\nBob sd 2c3c\nAnn sd 9s??\n")
    assert played.exit_code == 0, played.output
    from ledger.store.store import Ledger

    with Ledger(db, read_only=True) as ledger:
        steps = hand_steps([r.event for r in ledger.read("g")]).steps
    assert [s.words for s in steps[-2:]] == ["Bob discards 2c 3c",
                                             "Ann discards 2: 9s and 1 unknown"]
