"""A hand read from a file whose rake is not what its payouts leave out (replay/ingest/rakes.py):
stored with a ``warning:`` line naming the hand, the rake and the shortfall (the audit then
reports the payout, and the rake is counted nowhere); a rake above the pot is refused. Worked
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


def test_a_rake_the_payouts_do_not_leave_out_is_a_warning(tmp_path: Path) -> None:
    """Ann paid 492 of the 502 pot with a rake of 8: 10 short, not 8. Stored, exit 0, one
    warning; the audit's payout finding is the whole 10, the file's 8 counted nowhere."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [492, 0]\nrake = 8\n")
    assert (code, out) == (0, "imported 1 hand(s) (12 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {tmp_path / 'r1.phh'}:1: hand r1: the hand records a rake of 8, "
                   "but the table paid 492 of the pot of 502: short by 10, not short by the "
                   "rake (stored; the audit reports it)\n")
    code, out, _ = one_shot(db, "audit", "--json")
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("payout", "Ann", 502, 492)]


def test_the_rake_the_payouts_leave_out_says_nothing(tmp_path: Path) -> None:
    """492 paid with a rake of 10: the rake, no warning (as before)."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [492, 0]\nrake = 10\n")
    assert (code, err) == (0, "") and "; 0 rejected\n" in out
    code, out, _ = one_shot(db, "audit", "--json")
    assert [d["kind"] for d in json.loads(out)["discrepancies"]] == ["rake"]


def test_a_rake_above_the_pot_is_refused(tmp_path: Path) -> None:
    """A rake of 600 from a 502 pot cannot be: one line naming both, nothing written (the
    ledger file the import made is removed)."""
    db, code, out, err = _import(tmp_path, ALL_IN + "winnings = [0, 0]\nrake = 600\n")
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {tmp_path / 'r1.phh'}:1, hand r1: its rake of 600 is more than "
                   "the pot of 502: the table takes its rake from the pot\n")
    assert not db.exists()


def test_the_uncalled_bet_left_out_with_the_rake(tmp_path: Path) -> None:
    """tests/test_rake.py's hand: a 12 pot, p1's 20 uncalled. Paid 11 (the uncalled bet left
    out) or 31 with a rake of 1: the rake; paid 30 with a rake of 1 is short by 2 of the pot
    and the uncalled bet (32)."""
    for n, paid in enumerate((11, 31)):
        _, code, out, err = _import(tmp_path, HAND + f"winnings = [{paid}, 0, 0]\nrake = 1\n"
                                    f"_hand_id = 'u{n}'\n", f"u{n}.phh")
        assert (code, err) == (0, ""), err
    _, code, _, err = _import(tmp_path, HAND + "winnings = [30, 0, 0]\nrake = 1\n"
                              "_hand_id = 'u2'\n", "u2.phh")
    assert (code, err) == (0, f"warning: {tmp_path / 'u2.phh'}:1: hand u2: the hand records "
                              "a rake of 1, but the table paid 30 of the pot of 12 and the "
                              "uncalled bet of 20: short by 2, not short by the rake (stored; "
                              "the audit reports it)\n")


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
                   "8, but the table paid 290 of the pot of 300: short by 10, not short by "
                   "the rake (stored; the audit reports it)\n")
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
                   "table paid 492 of the pot of 502: short by 10, not short by the rake "
                   "(stored; the audit reports it)\n")


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
    code, out, _ = one_shot(db, "audit", "--json")
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in json.loads(out)["discrepancies"]] == [("rake", "Ann", 200, 196)]
    code, out, _ = one_shot(db, "sql", "SELECT payload->>'$.source.rake' AS rake FROM events"
                            " WHERE type = 'hand_started'", "--json")
    assert json.loads(out) == [{"rake": "4"}]


def test_a_rake_without_payouts_is_checked_only_against_the_pot(tmp_path: Path) -> None:
    """No ``winnings``: the rules' awards count and no payout is audited, so a rake of 8 says
    nothing; 503 is still more than the 502 pot."""
    _, code, _, err = _import(tmp_path, ALL_IN + "rake = 8\n")
    assert (code, err) == (0, "")
    _, code, _, err = _import(tmp_path, ALL_IN.replace("'r1'", "'r2'") + "rake = 503\n",
                              "r2.phh")
    assert (code, err) == (2, f"error: {tmp_path / 'r2.phh'}:1, hand r2: its rake of 503 is "
                              "more than the pot of 502: the table takes its rake from the "
                              "pot\n")
