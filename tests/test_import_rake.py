"""A hand read from a file whose rake is not what its payouts leave out (replay/ingest/rakes.py):
stored with a ``warning:`` line naming the hand, the rake and how far the payouts are from
the pot less the rake (the audit then reports the payout beside the rake, which stays
counted, unless the payouts leave no room for it); a rake above the pot is refused. Worked
by hand: Ann (251) and Bob (300) all in for 251 each before the flop, a 502 pot with nothing
uncalled; Ann's aces win it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fri_night import NIGHT_JSONL, hand_lines
from tests.test_live_table import events, one_shot
from tests.test_rake import HAND

ALL_IN = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [251, 300]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 251', 'p1 cc', 'd db 2c3d4h', 'd db 9s',
           'd db Td']
players = ['Ann', 'Bob']
_hand_id = 'r1'
"""


def _import(tmp_path: Path, text: str, name: str = "r1.phh") -> tuple[Path, int, str, str]:
    path = tmp_path / name
    path.write_text(text)
    db = tmp_path / "t.duckdb"
    return (db, *one_shot(db, "import", str(path)))



def _rake_found(db: Path) -> tuple[int, str, str]:
    """The replay's findings of every hand as ``audit --json`` gives its own (``expected`` the
    rules' award, ``actual`` what was paid), the audit clean beside them: a hand paid its
    pots less the rake it records was paid as the rules give, no audit finding, and its
    replay's ``rake`` finding is what the books count as rake (README "A home game's rake")."""
    assert one_shot(db, "audit", "--json")[:2] == (0, '{"discrepancies": []}\n')
    code, out, err = one_shot(db, "replay", "--json")
    found = [{"kind": d["kind"], "hand": h["hand"], "player": d["player"],
              "expected": d["recomputed"], "actual": d["recorded"]}
             for h in map(json.loads, out.splitlines()) for d in h["discrepancies"]]
    return code, json.dumps({"discrepancies": found}), err

def test_a_rake_the_payouts_do_not_leave_out_is_a_warning(tmp_path: Path) -> None:
    """Ann paid 492 of the 502 pot with a rake of 8: 10 short, not 8. Stored, exit 0, one
    warning naming the 2 short of the 494 the rake leaves; the file's 8 stays counted (the
    hand's one ``rake`` finding, 502 less the 492 paid, less the 2 the payout finding says
    she was paid short) and the audit's payout finding is the 2 (the rules give Ann the pot
    less the rake, 494); both findings say what was paid, 492."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [492, 0]\nrake = 8\n")
    assert (code, out) == (0, "imported 1 hand(s) (12 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {tmp_path / 'r1.phh'}:1: hand r1: the hand records a rake of 8, "
                   "but the table paid 492 of the pot of 502: 2 less than the 494 due once the "
                   "rake is taken (stored; the audit reports it)\n")
    code, out, _ = one_shot(db, "audit", "--json")
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("payout", "Ann", 494, 492),
                                                           ("rake", "Ann", 502, 492)]


def test_the_rake_the_payouts_leave_out_says_nothing(tmp_path: Path) -> None:
    """492 paid with a rake of 10: the rake, no warning (as before)."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [492, 0]\nrake = 10\n")
    assert (code, err) == (0, "") and "; 0 rejected\n" in out
    code, out, _ = _rake_found(db)
    assert [d["kind"] for d in json.loads(out)["discrepancies"]] == ["rake"]


def test_a_rake_above_the_pot_is_refused(tmp_path: Path) -> None:
    """A rake of 600 from a 502 pot cannot be: one line naming both at the rake line (11),
    nothing written (the ledger file the import made is removed)."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [0, 0]\nrake = 600\n")
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {tmp_path / 'r1.phh'}:11, hand r1: its rake of 600 is more than "
                   "the pot of 502: the table takes its rake from the pot\n")
    assert not db.exists()


def test_the_uncalled_bet_left_out_with_the_rake(tmp_path: Path) -> None:
    """tests/test_rake.py's hand: a 12 pot, p1's 20 uncalled. Paid 11 (the uncalled bet left
    out) or 31 with a rake of 1: the rake; paid 30 with a rake of 1 is 1 less than the 31
    the pot and the uncalled bet (32) leave once the rake is taken."""
    for n, paid in enumerate((11, 31)):
        _, code, out, err = _import(tmp_path, HAND + f"winnings = [{paid}, 0, 0]\nrake = 1\n"
                                    f"_hand_id = 'u{n}'\n", f"u{n}.phh")
        assert (code, err) == (0, ""), err
    _, code, _, err = _import(tmp_path, HAND + "winnings = [30, 0, 0]\nrake = 1\n"
                              "_hand_id = 'u2'\n", "u2.phh")
    assert (code, err) == (0, f"warning: {tmp_path / 'u2.phh'}:1: hand u2: the hand records "
                              "a rake of 1, but of the 31 due once it is taken (the pot 12 "
                              "and the uncalled bet 20, less the rake), the table paid 30: 1 "
                              "short (stored; the audit reports it)\n")


def test_a_recorded_rake_in_json_lines_is_checked_too(tmp_path: Path) -> None:
    """Hand f1 of the night (a 300 pot, Ann's) with a ``recorded_rake`` of 8 and Ann paid
    290: short of the 300 pot by 10, not 8."""
    lines = hand_lines(NIGHT_JSONL, "f1").replace('"session":"fri"', '"session":null')
    lines = lines.replace('{"hand":"f1","seq":17,', '{"hand":"f1","seq":18,').replace(
        '{"hand":"f1","seq":16,"event":{"amount":300,',
        '{"hand":"f1","seq":16,"event":{"amount":8,"schema_version":1,"type":"recorded_rake"'
        '}}\n{"hand":"f1","seq":17,"event":{"amount":290,')
    db, code, out, err = _import(tmp_path, lines, "f1.jsonl")
    assert (code, out) == (0, "imported 1 hand(s) (18 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {tmp_path / 'f1.jsonl'}:1: hand f1: the hand records a rake of "
                   "8, but the table paid 290 of the pot of 300: 2 less than the 292 due "
                   "once the rake is taken (stored; the audit reports it)\n")
    assert len(events(db)) == 18


def test_worker_processes_give_the_same_warning(tmp_path: Path) -> None:
    """A ``.phhs`` of two hands through ``--jobs 2``: the part holding the hand short by
    other than its rake goes to the one-process import, which words the warning; the raked
    hand that adds up says nothing."""
    body = ALL_IN.replace("_hand_id = 'r1'\n", "")
    path = tmp_path / "two.phhs"
    path.write_text(f"[1]\n{body}winnings = [492, 0]\nrake = 8\nhand = 1\n\n"
                    f"[2]\n{body}winnings = [492, 0]\nrake = 10\nhand = 2\n")
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", "--jobs", "2", str(path))
    assert (code, out) == (0, "imported 2 hand(s) (24 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {path}:1: hand two-1: the hand records a rake of 8, but the "
                   "table paid 492 of the pot of 502: 2 less than the 494 due once the rake "
                   "is taken (stored; the audit reports it)\n")


def test_a_files_rake_in_money_is_counted_in_the_sessions_chips(tmp_path: Path) -> None:
    """The all-in hand in dollars (stacks $25 and $30, a $50 pot, Ann paid $49, rake $1.00)
    into a session of 0.25 USD chips: every amount is the session's chips (replay/ingest/
    units.py), the rake too: 4 chips of the 200-chip pot, Ann paid 196, one ``rake``
    finding; read in the file's dollars it was 1 chip, and the hand a payout short by 4."""
    dollars = (ALL_IN.replace("[1, 2]", "[0.25, 0.50]").replace("min_bet = 2", "min_bet = 0.50")
               .replace("[251, 300]", "[25.00, 30.00]").replace("cbr 251", "cbr 25.00")
               + "winnings = [49.00, 0]\nrake = 1.00\ncurrency = 'USD'\n")
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "s", "Ann", "100"), ("buyin", "s", "Bob", "120")):
        assert one_shot(db, *args)[0] == 0
    path = tmp_path / "usd.phh"
    path.write_text(dollars)
    assert one_shot(db, "import", "--session", "s", str(path)) == (
        0, "imported 1 hand(s) (12 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
    code, out, _ = _rake_found(db)
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "Ann", 200, 196)]
    code, out, _ = one_shot(db, "sql", "SELECT payload->>'$.source.rake' AS rake FROM events"
                            " WHERE type = 'hand_started'", "--json")
    assert json.loads(out) == [{"rake": "4"}]


REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def test_a_rake_without_payouts_is_refused_unless_it_took_the_pot(tmp_path: Path) -> None:
    """No ``winnings`` (or all 0: none, FORMATS.md §1): who was paid the pot less the rake
    cannot be read, and the rules' awards would pay the whole pot, leaving the rake counted
    nowhere; refused as a live ``end`` with a rake and no payout is, nothing written. 503 is
    still more than the 502 pot."""
    for n, (extra, rake) in enumerate((("", 8), ("winnings = [0, 0]\n", 8),
                                       ("winnings = [0, 0]\n", 501))):
        db, code, out, err = _import(tmp_path, ALL_IN.replace("'r1'", f"'n{n}'") + extra
                                     + f"rake = {rake}\n", f"n{n}.phh")
        assert (code, out) == (2, REJECTED)
        assert err == (f"error: {tmp_path / f'n{n}.phh'}:1, hand n{n}: its rake of {rake} "
                       f"leaves {502 - rake} of the pot of 502, but it records no payouts "
                       "(PHH's winnings or finishing_stacks) saying who was paid them: a raked "
                       "hand records what each player collected (a rake of the whole pot, "
                       "nothing)\n")
        assert not db.exists()
    _, code, _, err = _import(tmp_path, ALL_IN.replace("'r1'", "'r2'") + "rake = 503\n",
                              "r2.phh")
    assert (code, err) == (2, f"error: {tmp_path / 'r2.phh'}:10, hand r2: its rake of 503 is "
                              "more than the pot of 502: the table takes its rake from the "
                              "pot\n")
    # finishing stacks of 492 and 49 say Ann was paid 492 (she put in her 251, Bob kept 49)
    db, code, _, err = _import(tmp_path, ALL_IN.replace("'r1'", "'r3'") + "rake = 10\n"
                               "finishing_stacks = [492, 49]\n", "r3.phh")
    assert (code, err) == (0, "")
    code, out, _ = _rake_found(db)
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "Ann", 502, 492)]


def test_a_rake_of_the_whole_pot_without_payouts_is_counted(tmp_path: Path) -> None:
    """``rake = 502`` and no ``winnings``: the table took the 502 pot and paid nobody, as a
    live hand raked of its whole pot (tests/test_live_rake.py). Worked by hand: Ann and Bob
    each put in 251 and are paid nothing, nets -251 each; one ``rake`` finding (Ann, whom
    the rules pay 502, paid 0); the session's rake line 502 chips; settle has each pay the
    house the 251 he lost."""
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "251"),
                 ("buyin", "s", "Bob", "300")):
        assert one_shot(db, *args)[0] == 0
    path = tmp_path / "w.phh"
    path.write_text(ALL_IN + "rake = 502\n")
    assert one_shot(db, "import", "--session", "s", str(path)) == (
        0, "imported 1 hand(s) (11 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
    assert one_shot(db, "cashout", "s", "Bob", "49")[0] == 0
    code, out, _ = _rake_found(db)
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "Ann", 502, 0)]
    code, out, _ = one_shot(db, "balances", "--json")
    body = json.loads(out)
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": -251, "Bob": -251}
    assert body["rake"] == [{"session": "s", "chips": 502, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]
    code, out, _ = one_shot(db, "balances")
    assert "rake: 502 chips taken from the pots in session s (1 hand)\n" in out
    code, out, _ = one_shot(db, "settle", "--session", "s")
    assert out.splitlines()[:3] == ["Ann pays the house 251 chips", "Bob pays the house 251 chips",
                                    "2 transfer(s) settle 2 player(s) and the house"]


def test_a_rake_that_is_no_whole_number_of_the_hands_chips_is_refused(tmp_path: Path) -> None:
    """The hand's chip is set by its stacks, bets and payouts (FORMATS.md §1: integers here,
    a chip of 1; dollars with cents, 0.01): ``rake = 0.5`` beside them, or ``0.125`` in the
    dollar hand, is refused naming the file, the ``rake`` line (11), the hand and the field,
    nothing written; so are a negative rake and one that is no number. ``rake = 10.0`` is
    10 chips: the rake the payouts leave out."""
    good = ALL_IN.replace("'r1'", "'g1'") + "winnings = [492, 0]\n"
    db = tmp_path / "t.duckdb"
    (tmp_path / "g1.phh").write_text(good)
    assert one_shot(db, "import", str(tmp_path / "g1.phh"))[0] == 0
    before = events(db)
    dollars = (ALL_IN.replace("[1, 2]", "[0.25, 0.50]").replace("min_bet = 2", "min_bet = 0.50")
               .replace("[251, 300]", "[25.00, 30.00]").replace("cbr 251", "cbr 25.00")
               + "winnings = [49.00, 0]\n")
    for text, message in (
            (ALL_IN + "winnings = [492, 0]\nrake = 0.5\n",
             "rake 0.5 is not a whole number of the hand's chips (a chip is 1, the smallest "
             "unit its stacks, bets and payouts write): the table takes its rake from the pot "
             "in those chips"),
            (dollars + "rake = 0.125\n",
             "rake 0.125 is not a whole number of the hand's chips (a chip is 0.01, the "
             "smallest unit its stacks, bets and payouts write): the table takes its rake "
             "from the pot in those chips"),
            (ALL_IN + "winnings = [492, 0]\nrake = -10\n", "rake: amount -10 is negative"),
            (ALL_IN + "winnings = [492, 0]\nrake = 'ten'\n", "rake: 'ten' is not a number")):
        path = tmp_path / "r1.phh"
        path.write_text(text)
        assert one_shot(db, "import", str(path)) == (2, REJECTED,
                                                     f"error: {path}:11, hand r1: {message}\n")
        assert events(db) == before
    path.write_text(ALL_IN + "winnings = [492, 0]\nrake = 10.0\n")
    assert one_shot(db, "import", str(path))[:2] == (0, "imported 1 hand(s) (12 events) from "
                                                        "1 file(s); 0 already in the ledger; "
                                                        "0 rejected\n")
    code, out, _ = one_shot(db, "audit", "--json")
    assert [(d["kind"], d["hand"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("payout", "g1", 502, 492)]
    # r1 was paid its pot less its rake of 10.0 (10 chips): no finding, the rake counted
    assert json.loads(one_shot(db, "balances", "--json")[1])["rake"][0]["chips"] == 10


def test_a_json_lines_rake_that_is_no_whole_number_of_chips_is_refused(tmp_path: Path) -> None:
    """A JSON-lines hand whose start keeps a file's ``rake`` that is no whole number of its
    chips (``"0.5"`` of chips of 1) is refused naming it, not counted nowhere."""
    db = tmp_path / "t.duckdb"
    (tmp_path / "r1.phh").write_text(ALL_IN + "winnings = [492, 0]\nrake = 10\n")
    assert one_shot(db, "import", str(tmp_path / "r1.phh"))[0] == 0
    code, lines, _ = one_shot(db, "export", "--format", "jsonl")
    assert '"rake":10,' in lines
    path = tmp_path / "r1.jsonl"
    path.write_text(lines.replace('"rake":10,', '"rake":"0.5",'))
    other = tmp_path / "o.duckdb"
    assert one_shot(other, "import", str(path)) == (
        2, REJECTED, f"error: {path}:1, hand r1: its rake \"0.5\" is not a whole number of its "
                     "chips of 1 at or above 0: the table takes its rake from the pot in those "
                     "chips\n")
    assert not other.exists()


def test_worker_processes_refuse_a_rake_without_payouts_alike(tmp_path: Path) -> None:
    """``--jobs 2`` over a ``.phhs`` of a raked hand that records its payouts and one that
    records none: the first imported, the second refused in the same words."""
    body = ALL_IN.replace("_hand_id = 'r1'\n", "")
    path = tmp_path / "two.phhs"
    path.write_text(f"[1]\n{body}winnings = [492, 0]\nrake = 10\nhand = 1\n\n"
                    f"[2]\n{body}rake = 10\nhand = 2\n")
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", "--jobs", "2", str(path))
    assert (code, out) == (2, "imported 1 hand(s) (12 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {path}:14, hand two-2: its rake of 10 leaves 492 of the pot of "
                   "502, but it records no payouts (PHH's winnings or finishing_stacks) saying "
                   "who was paid them: a raked hand records what each player collected (a rake "
                   "of the whole pot, nothing)\n")


def test_a_rake_rule_that_cannot_be_read_whole_is_refused(tmp_path: Path) -> None:
    """Our ``_rake`` rule (replay/rake.py) was left unread, or its cap dropped, when it was
    not what it reads: each such rule is refused at its line (11), nothing written; a rule
    it reads imports."""
    db = tmp_path / "t.duckdb"
    path = tmp_path / "r1.phh"
    for rule, message in (
            ("{percent = 10, cap = 0.5}",
             "_rake cap 0.5 is not a whole number of the hand's chips (a chip is 1, the "
             "smallest unit its stacks, bets and payouts write): the table takes its rake from "
             "the pot in those chips"),
            ("{percent = 10, cap = -1}", "_rake cap: amount -1 is negative"),
            ("{percent = 101}", "_rake percent 101 is not from 0 to 100"),
            ("{percent = 'ten'}", "_rake percent: 'ten' is not a number"),
            ("{pct = 5}", "_rake: unknown key 'pct' (it takes percent, cap, no_flop_no_drop)"),
            ("{percent = 5, no_flop_no_drop = 1}", "_rake no_flop_no_drop 1 is not true or "
                                                  "false"),
            ("5", "_rake must be a table of percent, cap, no_flop_no_drop")):
        path.write_text(ALL_IN + f"winnings = [492, 0]\n_rake = {rule}\n")
        assert one_shot(db, "import", str(path)) == (2, REJECTED,
                                                     f"error: {path}:11, hand r1: {message}\n")
        assert not db.exists()
    path.write_text(ALL_IN + "winnings = [492, 0]\n_rake = {percent = 2, cap = 10}\n")
    assert one_shot(db, "import", str(path))[0] == 0
    code, out, _ = _rake_found(db)
    assert [(d["kind"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", 502, 492)]


#: Cy folds, Ann (small blind) raises to 6, Bob folds his big blind: the pot is Bob's 2 and
#: 2 of Ann's 6 (4 chips); her other 4 are uncalled, returned to her, never raked (RULES.md
#: §1.2-1.4).
UNCALLED = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 50, 200]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', 'p2 f']
players = ['Ann', 'Bob', 'Cy']
_hand_id = 'i1'
rake = 4
"""


def test_a_rake_of_the_pot_beside_an_uncalled_bet_needs_its_return(tmp_path: Path) -> None:
    """A rake of the whole 4 pot and no ``winnings``: Ann's uncalled 4 is paid back to
    nobody, so the hand is refused as a live ``end`` is (nothing written; it was stored,
    the 4 counted as rake too, 8 in all). With ``winnings = [4, 0, 0]`` (the bet returned)
    it imports: one ``rake`` finding, and the rake counted is the file's 4: Ann nets -2
    (put in 6, paid 4), Bob -2."""
    db, code, out, err = _import(tmp_path, UNCALLED, "i1.phh")
    assert (code, out) == (2, REJECTED)
    assert err == (f"error: {tmp_path / 'i1.phh'}:1, hand i1: its rake of 4 takes the whole "
                   "pot of 4, but it records no payouts: Ann's uncalled bet of 4 is returned, "
                   "never raked (RULES.md §1.2-1.4), and the file pays it back to nobody; a "
                   "raked hand records what each player collected (PHH's winnings or "
                   "finishing_stacks), the uncalled bet with it\n")
    assert not db.exists()
    db, code, out, err = _import(tmp_path, UNCALLED + "winnings = [4, 0, 0]\n", "i1.phh")
    assert (code, err) == (0, "")
    code, out, _ = _rake_found(db)
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "Ann", 8, 4)]
    body = json.loads(one_shot(db, "balances", "--json")[1])
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": -2, "Bob": -2, "Cy": 0}
    assert body["rake"] == [{"session": None, "chips": 4, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]


def test_a_rake_the_whole_payout_leaves_no_room_for_is_reported(tmp_path: Path) -> None:
    """``rake = 5`` and Ann paid the whole 502 pot: the warning says the audit reports it,
    and it does: one ``payout`` finding of the whole table naming the rake and what was
    paid (expected the 502 less the rake, 497; actual 502), in ``replay`` too; no rake is
    counted."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [502, 0]\nrake = 5\n")
    assert (code, err) == (0, f"warning: {tmp_path / 'r1.phh'}:1: hand r1: the hand records a "
                              "rake of 5, but the table paid 502 of the pot of 502: 5 more than "
                              "the 497 due once the rake is taken (stored; the audit reports "
                              "it)\n")
    said = ("hand r1: it records a rake of 5, but the table paid 502 of the pots and returns "
            "of 502: the rake is not what the payouts leave out, so it is counted nowhere (as "
            "rake or as any player's)")
    code, out, _ = one_shot(db, "audit", "--json")
    assert code == 1
    assert [(d["kind"], d["player"], d["expected"], d["actual"], d["message"])
            for d in json.loads(out)["discrepancies"]] == [("payout", None, 497, 502, said)]
    code, out, _ = one_shot(db, "replay")
    assert said.split(": ")[1] in " ".join(out.split())
    assert "rake" not in json.loads(one_shot(db, "balances", "--json")[1])


def test_the_rake_outside_sessions_is_counted_per_chip_unit(tmp_path: Path) -> None:
    """Two hands of no session: the all-in hand in tenths (stacks 25.1 and 30, a 50.2 pot,
    Ann paid 49.7, ``rake = 0.5``: 5 chips of 0.1) and in whole chips (502 pot, 492 paid,
    ``rake = 10``). The rake is a line per chip unit, never 15 chips of nothing."""
    tenths = (ALL_IN.replace("[1, 2]", "[0.1, 0.2]").replace("min_bet = 2", "min_bet = 0.2")
              .replace("[251, 300]", "[25.1, 30]").replace("cbr 251", "cbr 25.1")
              .replace("'r1'", "'t1'") + "winnings = [49.7, 0]\nrake = 0.5\n")
    db = tmp_path / "t.duckdb"
    for name, text in (("t1.phh", tenths), ("r1.phh", ALL_IN + "winnings = [492, 0]\n"
                                                              "rake = 10\n")):
        (tmp_path / name).write_text(text)
        assert one_shot(db, "import", str(tmp_path / name)) == (
            0, "imported 1 hand(s) (12 events) from 1 file(s); 0 already in the ledger; 0 "
               "rejected\n", "")
    out = one_shot(db, "balances")[1].splitlines()
    assert [line for line in out if line.startswith("rake:")] == [
        "rake: 5 chips of 0.1 taken from the pots outside sessions (1 hand)",
        "rake: 10 chips taken from the pots outside sessions (1 hand)"]
    assert json.loads(one_shot(db, "balances", "--json")[1])["rake"] == [
        {"session": None, "chips": 5, "hands": 1, "chip_value_minor": 1, "decimals": 1,
         "currency": None},
        {"session": None, "chips": 10, "hands": 1, "chip_value_minor": 1, "decimals": 0,
         "currency": None}]


def test_the_rake_counted_is_the_files_beside_an_uncalled_bet_left_out(tmp_path: Path) -> None:
    """tests/test_rake.py's hand paid 11 with ``rake = 1``: the site left p1's uncalled 20
    out beside its rake. balances counts the file's 1 chip of rake, never the 21 the
    payouts leave out; the audit names the 20 as ``uncalled``."""
    db, code, out, err = _import(tmp_path, HAND + "winnings = [11, 0, 0]\nrake = 1\n"
                                 "_hand_id = 'u0'\n", "u0.phh")
    assert (code, err) == (0, "")
    code, out, _ = one_shot(db, "audit", "--json")
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "p1", 32, 31),
                                                           ("uncalled", "p1", 31, 11)]
    assert "rake: 1 chip taken from the pots outside sessions (1 hand)\n" in one_shot(
        db, "balances")[1]


def test_a_rake_refused_is_named_at_its_line_in_the_files_money(tmp_path: Path) -> None:
    """The all-in hand in dollars (a $50.20 pot), its ``rake`` at line 12: ``nan`` is no
    number (never "a stack written as inf"); $60.00 is more than the pot, said in dollars at
    the rake line; $0.10 is no whole number of a 0.25 USD session's chips, said of the rake
    at its line. Nothing written each time."""
    dollars = (ALL_IN.replace("[1, 2]", "[0.25, 0.50]").replace("min_bet = 2", "min_bet = 0.50")
               .replace("[251, 300]", "[25.10, 30.00]").replace("cbr 251", "cbr 25.10")
               + "currency = 'USD'\n")
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "s", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "s", "Ann", "100"), ("buyin", "s", "Bob", "120")):
        assert one_shot(db, *args)[0] == 0
    before = events(db)
    path = tmp_path / "usd.phh"
    for tail, message in (
            ("winnings = [50.20, 0]\nrake = nan\n", "rake: nan is not a finite number"),
            ("winnings = [0, 0]\nrake = 60.00\n", "its rake of 60.00 is more than the pot of "
                                                  "50.20: the table takes its rake from the pot"),
            ("winnings = [50.10, 0]\nrake = 0.10\n",
             "its rake of 0.10 (10 minor units) is not a whole number of the session s's chips "
             "of 25: the table takes its rake in those chips; nothing of the hand is imported "
             "(never rounded)")):
        path.write_text(dollars + tail)
        assert one_shot(db, "import", "--session", "s", str(path)) == (
            2, REJECTED, f"error: {path}:12, hand r1: {message}\n")
        assert events(db) == before
