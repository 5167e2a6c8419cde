"""A site's rake stays counted beside payouts that are wrong (docs/LIVE.md, "A home game's rake"):
one ``rake`` finding, and a ``payout`` finding per player paid other than the rules' awards of
the pots less the rake, each pot raked as the site's summary says (replay/rake.py:
``site_pot_rakes``, ``less_rake``, ``recorded_rake``); an uncalled bet the file pays back is
never "left out", and the import's warning names how far the payouts are from the pot less
the rake (replay/ingest/rakes.py, replay/ingest/paid.py). A hand edited so leaves its summary
disagreeing with its lines: a ``site_summary`` finding beside them (what the lines give, what
the summary says).

Worked by hand, PokerStars #22865231671 (PLO, 0.01/0.02, chips are cents): Player5 puts in 8
and folds, Player6 1 and Player3 2 (blinds, folded), Hero 59, Player0 90 and Player2 105 all
in, Player4 calls 105. Main pot 4 x 59 + 11 = 247 (Hero, Player0, Player2, Player4), side pot
1 3 x 31 = 93 (Player0, Player2, Player4), side pot 2 2 x 15 = 30 (Player2, Player4): 370. The
summary's pots are each less its rake, $2.35, $0.88 and $0.29 of a $0.18 rake: 12, 5 and 1.
Player0's straight wins the main pot and side pot 1, 235 + 88 = 323; Player2's jacks beat
Player4's nines for side pot 2, 29. Main pot first the rake would leave Player0 247 - 18 + 93 =
322 and Player2 30, and blame Player0 for the site's own payouts.

#42875758685 (NLHE, 0.05/0.10): Player1 folds his big blind of 10; Hero is all in for 240,
Player2 puts in 250 and gets his uncalled 10 back (``Uncalled bet ($0.10) returned``): a pot
of 10 + 240 + 240 = 490, raked 20; Player2's flush wins it, 470 collected, 480 with his 10.
"""

from __future__ import annotations

import json
from pathlib import Path

from replay.build import events_from_phh
from replay.fold import fold
from replay.rake import less_rake, site_pot_rakes
from tests.pokerstars_helpers import file_hand, path, replay
from tests.test_live_table import one_shot

PLO = "Stars-cash-PLO-FR-USD-0.01-0.02-201006.sidepots.txt"
ALLIN = "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
SIDEPOTS = "PokerStars-22865231671"
RETURNED = "PokerStars-42875758685"


def _findings(db: Path, hand: str) -> list[tuple[str, str | None, int, int]]:
    code, out, _ = one_shot(db, "audit", "--json")
    assert code == 1
    return [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]
            if d["hand"] == hand and d["kind"] != "stack_continuity"]  # a cut of a session


def test_the_rake_taken_from_each_pot_as_the_summary_says() -> None:
    hand = file_hand(PLO, "22865231671")
    r = replay(hand)
    assert [p.amount for p in r.result.pots] == [247, 93, 30]
    assert site_pot_rakes(hand.started, r.result.pots, 18) == [12, 5, 1]
    assert site_pot_rakes(hand.started, r.result.pots, 17) is None  # not the summary's rake
    assert site_pot_rakes(hand.started, r.result.pots[:2], 18) is None  # another count of pots
    state = fold(events_from_phh(hand))
    paid = {"Player0": 323, "Player2": 29}
    assert {p: c for p, c in less_rake(state, r.result, 18, [12, 5, 1]).items() if c} == paid
    main_first = less_rake(state, r.result, 18)
    assert main_first is not None
    assert (main_first["Player0"], main_first["Player2"]) == (322, 30)


def test_a_corrected_payout_keeps_the_sites_rake(tmp_path: Path) -> None:
    """Side pot 2's 29 corrected from Player2 to Player4: the payouts still come to the pots
    less the 18 the site kept, so the rake stays counted (31 in the session: 1 + 18 + 12) and
    the findings name the two players the correction moved, never Player0; settle goes
    through, the house owed 0.31 USD."""
    db = tmp_path / "s.duckdb"
    assert one_shot(db, "session", "open", "stars", "--chip-value", "0.01",
                    "--currency", "USD")[0] == 0
    assert one_shot(db, "import", "--session", "stars", str(path(PLO)))[0] == 0
    code, out, _ = one_shot(db, "whatif", SIDEPOTS, "--replace", "36", "pay Player4 0.29")
    assert code == 0
    assert [line for line in out.splitlines() if "paid differently" in line] == [
        f"  would be paid differently: hand {SIDEPOTS}: the site kept 18 as rake (as the file "
        "records); the rules' awards of the pots less it: Player2 29, Player0 323 (the payouts "
        "differ from them)",
        f"  would be paid differently: hand {SIDEPOTS}: Player2 was paid 0, the rules give 29 "
        "(-29)",
        f"  would be paid differently: hand {SIDEPOTS}: Player4 was paid 29, the rules give 0 "
        "(+29)"]
    code, out, err = one_shot(db, "correct", SIDEPOTS, "--replace", "36", "pay Player4 0.29",
                              "--reason", "side pot 2 pushed to the wrong seat", "--by", "floor")
    assert code == 0, err
    assert _findings(db, SIDEPOTS) == [("payout", "Player2", 29, 0),
                                       ("payout", "Player4", 0, 29), ("rake", None, 370, 352)]
    body = json.loads(one_shot(db, "balances", "--session", "stars", "--json")[1])
    assert [(k["chips"], k["hands"]) for k in body["rake"]] == [(31, 3)]
    code, out, err = one_shot(db, "settle", "--session", "stars")
    assert (code, err.count("error:")) == (0, 0)
    assert "the house: whoever keeps the rake the table took, 0.31 USD (31 chips in session " \
           "stars)" in out


def test_whatif_of_a_hand_paid_its_pots_less_the_rake_says_so_in_replays_note(
        tmp_path: Path) -> None:
    """#64146221551 (five-card draw, 0.10/0.20): Player3 20 (small blind 5, completes to 20),
    Player4 15 (big blind 10, all in calling 5 more), Hero 20: a pot of 55, raked 2; Player3's
    kings win it, paid 10 + 43 = 53, the pot less the rake, as the rules give. The same payout
    written again changes nothing: the hand is paid as the rules give after it too, the rake
    said in ``replay``'s note (ledger/audit/rake_count.py ``rake_alone``), never "still paid
    differently"."""
    db = tmp_path / "w.duckdb"
    hand = "PokerStars-64146221551"
    file = path("Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt")
    assert one_shot(db, "import", str(file))[0] == 0
    note = (f"note: hand {hand}: the table paid 2 less than the pots and returns: the site kept "
            "2 as rake (as the file records)")
    code, out, _ = one_shot(db, "replay", "--hand", hand)
    assert code == 0 and f"  {note}" in out.splitlines()
    code, out, err = one_shot(db, "whatif", hand, "--replace", "25", "pay Player3 0.10")
    assert code == 0, err
    assert out.splitlines()[-6:] == [
        "  Player3          +33     +33      +0          +33         +33         +0",
        "  Player4          -15     -15      +0          -15         -15         +0",
        "  Player5           +0      +0      +0           +0          +0         +0",
        "  Player1           +0      +0      +0           +0          +0         +0",
        "  Hero             -20     -20      +0          -20         -20         +0",
        f"  {note}"]


def _edited(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = path(ALLIN).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    out = tmp_path / name
    out.write_text(text)
    return out


def _collected(amount: str) -> tuple[tuple[str, str], tuple[str, str]]:
    return (("collected $4.70", f"collected ${amount}"), ("won ($4.70)", f"won (${amount})"))


def test_paid_short_by_the_uncalled_bet_it_returned(tmp_path: Path) -> None:
    """Player2 collected $4.60 and got his uncalled $0.10 back: 470 paid of the 480 the pot
    and the bet leave once the rake is taken, 10 short. The bet was paid back, so nothing was
    left out: a warning at import, the rake counted and a payout finding of the 10."""
    short = _edited(tmp_path, "short.txt", *_collected("4.60"))
    db = tmp_path / "ps.duckdb"
    code, out, err = one_shot(db, "import", str(short))
    assert code == 0 and out.endswith("; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {short}:1: hand {RETURNED}: the hand records a rake of 0.20, but "
                   "of the 4.80 due once it is taken (the pot 4.90 and the uncalled bet 0.10, "
                   "less the rake), the table paid 4.70: 0.10 short (stored; the audit reports "
                   "it)\n")
    assert _findings(db, RETURNED) == [("payout", "Player2", 480, 470),
                                       ("rake", "Player2", 500, 470),
                                       ("site_summary", None, 480, 490)]  # 460 + 20 of 490


def test_json_lines_paid_short_by_the_uncalled_bet(tmp_path: Path) -> None:
    """The hand exported as JSON lines with its 470 payout edited to 460: the same warning
    and findings (the file's payout of 10 is marked ``returned``)."""
    db = tmp_path / "ps.duckdb"
    assert one_shot(db, "import", str(path(ALLIN)))[0] == 0
    exported = tmp_path / "h.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(exported))[0] == 0
    text = exported.read_text()
    assert text.count('"amount":470,') == 1
    edited = tmp_path / "h460.jsonl"
    edited.write_text(text.replace('"amount":470,', '"amount":460,'))
    other = tmp_path / "j.duckdb"
    code, _, err = one_shot(other, "import", str(edited))
    assert code == 0
    assert err == (f"warning: {edited}:1: hand {RETURNED}: the hand records a rake of 0.20, "
                   "but of the 4.80 due once it is taken (the pot 4.90 and the uncalled bet "
                   "0.10, less the rake), the table paid 4.70: 0.10 short (stored; the audit "
                   "reports it)\n")
    assert _findings(other, RETURNED) == [("payout", "Player2", 480, 470),
                                          ("rake", "Player2", 500, 470)]


def test_paid_over_beside_the_rake(tmp_path: Path) -> None:
    """Collected $4.80: 490 with the bet, 10 over the 480 due once the rake is taken; and
    his uncalled $0.10 returned as $0.30: 500 paid, 20 over (the 20 beyond his bet a finding
    of its own). Both findings say what was paid, 490; the rules give 480 once the site's 20
    is taken (470 of the 490 pot and his 10 back), +230 on the 250 he put in (final 620 of
    his 390), and ``replay`` says so on both lines; the books still count the rake as 20
    (500 - 490 of the rake finding, less the 10 paid over), his net +240 as paid."""
    over = _edited(tmp_path, "over.txt", *_collected("4.80"))
    db = tmp_path / "over.duckdb"
    code, _, err = one_shot(db, "import", str(over))
    assert code == 0
    assert err == (f"warning: {over}:1: hand {RETURNED}: the hand records a rake of 0.20, but "
                   "of the 4.80 due once it is taken (the pot 4.90 and the uncalled bet 0.10, "
                   "less the rake), the table paid 4.90: 0.10 over (stored; the audit reports "
                   "it)\n")
    assert _findings(db, RETURNED) == [("payout", "Player2", 480, 490),
                                       ("rake", "Player2", 500, 490),
                                       ("site_summary", None, 500, 490)]  # 480 + 20 of 490
    code, out, _ = one_shot(db, "replay", "--hand", RETURNED)
    assert code == 1
    assert "  net and final as the table paid; by the rules: Player2 +230 (final 620)\n" in out
    assert "  DISCREPANCY: hand PokerStars-42875758685: Player2 was paid 490, the rules give " \
           "480 (+10)\n" in out
    body = json.loads(one_shot(db, "balances", "--json")[1])
    assert [(p["player"], p["net"], p["rules_net"]) for p in body["players"]] == [
        ("Player2", 240, 230), ("Player1", -10, -10), ("Hero", -240, -240)]
    assert [k["chips"] for k in body["rake"]] == [20]
    back = _edited(tmp_path, "back.txt", ("Uncalled bet ($0.10)", "Uncalled bet ($0.30)"))
    code, _, err = one_shot(tmp_path / "back.duckdb", "import", str(back))
    assert code == 0
    assert err == (f"warning: {back}:1: hand {RETURNED}: the hand records a rake of 0.20, but "
                   "of the 4.80 due once it is taken (the pot 4.90 and the uncalled bet 0.10, "
                   "less the rake), the table paid 5.00: 0.20 over (stored; the audit reports "
                   "it)\n")


def test_no_rake_and_paid_short_by_the_uncalled_bet_it_returned(tmp_path: Path) -> None:
    """The summary's rake edited to $0 and Player2's $4.70 to $4.80: 490 paid (the bet
    returned) of the 500 the pot and the bet come to, 10 short with no rake: warned of, a
    payout finding, never the uncalled bet left out."""
    short = _edited(tmp_path, "norake.txt", ("Rake $0.20", "Rake $0"), *_collected("4.80"))
    db = tmp_path / "nr.duckdb"
    code, _, err = one_shot(db, "import", str(short))
    assert code == 0
    assert err == (f"warning: {short}:1: hand {RETURNED}: of the 5.00 due (the pot 4.90 "
                   "and the uncalled bet 0.10), the table paid 4.90: 0.10 short, and the hand "
                   "records no rake (stored; the audit reports it)\n")
    assert _findings(db, RETURNED) == [("payout", "Player2", 500, 490),
                                       ("site_summary", None, 480, 490)]  # 480 + 0 of 490


NLHE = "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
FIRST = "PokerStars-35824118297"


def test_a_return_short_of_the_uncalled_bet_is_a_short_payout(tmp_path: Path) -> None:
    """The NL file's first hand (no rake): k1tt9nM1nd's small blind 5 raised to 30, the big
    blind's 10 folded, so 20 of it is uncalled; his ``Uncalled bet ($0.20) returned`` edited
    to $0.10, with the $0.20 pot collected: 30 paid of the 20 pot and the 20 bet. The file
    says what it paid back, so the 10 missing is a short payout (warned of at import, a
    ``payout`` finding naming the return), never the bet the site left out (``uncalled``)."""
    hand = "".join(path(NLHE).read_text().splitlines(keepends=True)[:26])
    old = "Uncalled bet ($0.20) returned to k1tt9nM1nd"
    assert hand.count(old) == 1
    edited = tmp_path / "s2.txt"
    edited.write_text(hand.replace(old, "Uncalled bet ($0.10) returned to k1tt9nM1nd"))
    db = tmp_path / "s.duckdb"
    code, out, err = one_shot(db, "import", str(edited))
    assert code == 0 and out.endswith("; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {edited}:1: hand {FIRST}: of the 0.40 due (the pot 0.20 and "
                   "the uncalled bet 0.20), the table paid 0.30: 0.10 short, and the hand "
                   "records no rake; the file returns 0.10 of k1tt9nM1nd's uncalled bet of "
                   "0.20 (stored; the audit reports it)\n")
    code, out, _ = one_shot(db, "audit", "--json")
    assert code == 1
    assert [(d["kind"], d["player"], d["expected"], d["actual"], d["message"])
            for d in json.loads(out)["discrepancies"]] == [
        ("payout", "k1tt9nM1nd", 40, 30, f"hand {FIRST}: k1tt9nM1nd was paid 30, the rules "
         "give 40 (-10): the file returns 10 of k1tt9nM1nd's uncalled bet of 20"),
        ("site_summary", None, 30, 20, f"hand {FIRST}: the site's summary disagrees with its "
         "own lines: the actions put 30 in the pot, the summary says 20 (-10)")]
    code, out, _ = one_shot(db, "replay", "--hand", FIRST)
    assert code == 1 and "the site leaves out" not in out


def test_a_return_short_of_the_uncalled_bet_beside_the_rake(tmp_path: Path) -> None:
    """#42875758685 with Player2's uncalled $0.10 returned as $0.05: 475 paid of the 480 due
    once the site's 20 is taken, 5 short: the rake counted, a payout finding of the 5, no
    ``uncalled`` finding."""
    short = _edited(tmp_path, "half.txt", ("Uncalled bet ($0.10)", "Uncalled bet ($0.05)"))
    db = tmp_path / "half.duckdb"
    code, _, err = one_shot(db, "import", str(short))
    assert code == 0
    assert err == (f"warning: {short}:1: hand {RETURNED}: the hand records a rake of 0.20, but "
                   "of the 4.80 due once it is taken (the pot 4.90 and the uncalled bet 0.10, "
                   "less the rake), the table paid 4.75: 0.05 short; the file returns 0.05 of "
                   "Player2's uncalled bet of 0.10 (stored; the audit reports it)\n")
    assert _findings(db, RETURNED) == [("payout", "Player2", 480, 475),
                                       ("rake", "Player2", 500, 475),
                                       ("site_summary", None, 495, 490)]  # 495 put in
