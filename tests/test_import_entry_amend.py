"""A JSON-lines file's correction of a book entry (an ``entry_corrected`` row) is held to the
rules ``entry amend`` and ``entry retract`` hold a host to, by the same code
(replay/sessions.py ``check_correction``; replay/ingest/entry_amends.py), at its place in the
books: a cash-out raised beyond the chips the table holds, a buy-in lowered or retracted below
the cash-outs, an entry that is none (the session's opening, a seq the books do not have yet),
one retracted already, an amendment that changes nothing, and a replacement that is not the
entry with another amount (another player, type or kind; no event at all) each refuse the
file in one line naming file, line, session and the row, nothing written, into the ledger
holding the entries or a fresh one, with or without worker processes. Each went in (exit 0)
before: a replacement of another type made Ann's cash-out a second buy-in, one that was no
event left a ledger whose books no read could compute."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.test_cashout_rake import RAKED
from tests.test_import_into_closed import _row
from tests.test_live_table import events, one_shot
from tests.workers import import_by_workers

#: zz: Ann buys 100 (seq 2), Bob 100 (seq 3), Ann cashes out 120 (seq 4), Bob 80 (seq 5)
NIGHT = (_row(1, {"type": "session_opened", "session": "zz", "date": "2026-01-01"})
         + _row(2, {"type": "buy_in", "player": "Ann", "chips": 100})
         + _row(3, {"type": "buy_in", "player": "Bob", "chips": 100})
         + _row(4, {"type": "cash_out", "player": "Ann", "chips": 120})
         + _row(5, {"type": "cash_out", "player": "Bob", "chips": 80}))
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def _fix(seq: int, target: int, replacement: dict[str, object] | None = None) -> str:
    event: dict[str, object] = {"type": "entry_corrected", "seq": target, "reason": "recount",
                                "by": "host"}
    if replacement is not None:
        event["replacement"] = replacement
    return _row(seq, event)


def _ann_out(chips: int) -> dict[str, object]:
    return {"type": "cash_out", "player": "Ann", "chips": chips}


def _held(doing: str) -> str:
    return (f"; a file's correction of a book entry is held to `entry {doing}`'s rules: "
            "nothing of the file was written\n")


def _night(tmp_path: Path) -> Path:
    db = tmp_path / "z.duckdb"
    first = tmp_path / "first.jsonl"
    first.write_text(NIGHT)
    assert one_shot(db, "import", str(first))[0] == 0
    return db


def test_a_cash_out_amended_beyond_the_table_is_refused_as_entry_amend_refuses_it(
        tmp_path: Path) -> None:
    """Ann's cash-out (seq 4) amended to 130 on line 6: the table holds 120 besides it (200
    bought in, Bob's 80 out), refused in `entry amend`'s own words, into the ledger holding
    the night and into a fresh one (not made); amended to 110 it goes in (Ann's cash-out
    110)."""
    db = _night(tmp_path)
    before = events(db)
    bound = ("(cash-out of Ann): 130 chips: the table holds 120 chips not cashed out yet "
             "besides this cash-out (200 bought in, 80 cashed out by the other entries), and no "
             "hand makes chips; a buy-in missing from the books is recorded first, another "
             "cash-out counted wrong is amended (`handledger entry amend zz SEQ CHIPS --reason "
             "… --by …`; `handledger history --session zz` lists the entries)")
    path = tmp_path / "raised.jsonl"
    path.write_text(NIGHT + _fix(6, 4, _ann_out(130)))
    said = (f"error: {path}:6, session zz: its entry_corrected at seq 6 amends entry 4 {bound}"
            + _held("amend"))
    assert one_shot(db, "import", str(path)) == (2, REFUSED, said)
    assert events(db) == before
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(path)) == (2, REFUSED, said)
    assert not fresh.exists()
    assert one_shot(db, "entry", "amend", "zz", "4", "130", "--reason", "r", "--by", "h") == (
        2, "", f"error: entry amend zz 4 {bound}\n")
    right = tmp_path / "right.jsonl"
    right.write_text(NIGHT + _fix(6, 4, _ann_out(110)))
    assert one_shot(db, "import", str(right))[0] == 0
    code, out, _ = one_shot(db, "balances", "--json")
    assert (code, [(p["name"], p["cash_out"]) for p in json.loads(out)["players"]]) == (
        0, [("Ann", 110), ("Bob", 80)])


def test_a_buy_in_lowered_or_retracted_below_the_cash_outs_is_refused(tmp_path: Path) -> None:
    """Ann's buy-in (seq 2) amended to 10 leaves 110 bought in against 200 cashed out, and
    retracted 100: both refused as the commands refuse them."""
    db = _night(tmp_path)
    before = events(db)
    covered = ("the buy-ins would come to {} chips, less than the 200 cashed out, and no hand "
               "makes chips; {} (a cash-out counted wrong is amended first: `handledger entry "
               "amend zz SEQ CHIPS --reason … --by …`; `handledger history --session zz` lists "
               "the entries)")
    of_file = "nothing of the file was written"
    for name, row, doing, words in (
            ("lowered", _fix(6, 2, {"type": "buy_in", "player": "Ann", "chips": 10}), "amend",
             "amends entry 2 (buy-in of Ann): 10 chips: " + covered.format(110, of_file)),
            ("retracted", _fix(6, 2), "retract",
             "retracts entry 2 (buy-in of Ann, 100 chips): " + covered.format(100, of_file))):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(NIGHT + row)
        assert one_shot(db, "import", str(path)) == (
            2, REFUSED, f"error: {path}:6, session zz: its entry_corrected at seq 6 {words}; a "
            f"file's correction of a book entry is held to `entry {doing}`'s rules\n")
    assert events(db) == before
    assert one_shot(db, "entry", "retract", "zz", "2", "--reason", "r", "--by", "h") == (
        2, "", "error: entry retract zz 2 (buy-in of Ann, 100 chips): "
        + covered.format(100, "nothing written") + "\n")


REPLACED = "an amendment changes the amount alone, as `entry amend` does (a wrong player or " \
           "kind is retracted and the right entry recorded)"


@pytest.mark.parametrize(("rows", "line", "words"), [
    (_fix(6, 4, {"type": "cash_out", "player": "Cy", "chips": 100}), 6,
     f"amends entry 4: its replacement's player is 'Cy', the entry's 'Ann': {REPLACED}"),
    (_fix(6, 4, {"type": "buy_in", "player": "Ann", "chips": 100}), 6,
     f"amends entry 4: its replacement's type is 'buy_in', the entry's 'cash_out': {REPLACED}"),
    (_fix(6, 3, {"type": "buy_in", "player": "Bob", "chips": 100, "kind": "rebuy"}), 6,
     f"amends entry 3: its replacement's kind is 'rebuy', the entry's 'buy_in': {REPLACED}"),
    (_fix(6, 1, {"type": "buy_in", "player": "Ann", "chips": 100}), 6,
     "amends entry 1: session zz has no buy-in, cash-out or payment at seq 1 (its entries: "
     "2 buy-in of Ann, 3 buy-in of Bob, 4 cash-out of Ann, 5 cash-out of Bob)"),
    (_fix(6, 7, _ann_out(100)) + _row(7, {"type": "cash_out", "player": "Cy", "chips": 0}), 6,
     "amends entry 7: session zz has no buy-in, cash-out or payment at seq 7 (its entries: "
     "2 buy-in of Ann, 3 buy-in of Bob, 4 cash-out of Ann, 5 cash-out of Bob)"),
    (_fix(6, 4, _ann_out(110)) + _fix(7, 4, _ann_out(110)), 7,
     "amends entry 4: changes nothing: entry 4 (cash-out of Ann) of session zz is 110 chips "
     "already"),
    (_fix(6, 4, _ann_out(-5)), 6,
     "amends entry 4: its replacement is no entry: invalid event (cash_out.chips: Input should "
     "be greater than or equal to 0)"),
], ids=["player", "type", "kind", "opening", "later-seq", "changes-nothing", "no-event"])
def test_an_amendment_that_is_no_amendment_of_the_entry_is_refused(
        tmp_path: Path, rows: str, line: int, words: str) -> None:
    """Each went in before: Cy cashed out Ann's 100, Ann's cash-out became a buy-in (200
    bought), the opening became a buy-in, a seq amended before it was recorded, the same
    amount twice, a replacement no read could parse."""
    db = _night(tmp_path)
    before = events(db)
    path = tmp_path / "fix.jsonl"
    path.write_text(NIGHT + rows)
    assert one_shot(db, "import", str(path)) == (
        2, REFUSED, f"error: {path}:{line}, session zz: its entry_corrected at seq {line} "
        f"{words}" + _held("amend"))
    assert events(db) == before


def test_the_rake_before_the_amendment_is_off_the_table(tmp_path: Path) -> None:
    """The raked night of tests/test_cashout_rake.py (Ann buys 100, Dee 116, hand k1 rakes 2
    and pays Ann 198, Dee cashes out 16, then Ann 198 at seq 5) exported with one more row,
    Ann's cash-out amended to 199: refused into that ledger as `entry amend fri 5 199` is (216
    bought in, Dee's 16 out, 2 taken as rake leave 198); to 197 it goes in."""
    db = tmp_path / "night.duckdb"
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Dee", "116"),
                 ("hand", "start", "--session", "fri", "--hand", "k1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Dee:116", "--button", "Dee"),
                 *(("act", "k1", a) for a in RAKED), ("cashout", "fri", "Dee", "16"),
                 ("cashout", "fri", "Ann", "198")):
        assert one_shot(db, *args)[0] == 0, args
    export = tmp_path / "night.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(export))[0] == 0
    text = export.read_text()
    line = len(text.splitlines()) + 1
    fix = json.dumps({"session": "fri", "seq": 6, "event": {
        "type": "entry_corrected", "seq": 5, "reason": "recount", "by": "host",
        "replacement": {"type": "cash_out", "player": "Ann", "chips": 199}}}) + "\n"
    path = tmp_path / "more.jsonl"
    path.write_text(text + fix)
    bound = ("(cash-out of Ann): 199 chips: the table holds 198 chips not cashed out yet "
             "besides this cash-out (216 bought in, 16 cashed out by the other entries, 2 taken "
             "as rake), and no hand makes chips; a buy-in missing from the books is recorded "
             "first, another cash-out counted wrong is amended (`handledger entry amend fri SEQ "
             "CHIPS --reason … --by …`; `handledger history --session fri` lists the entries)")
    before = events(db)
    assert one_shot(db, "import", str(path)) == (  # its hand k1: this ledger's own
        2, REFUSED.replace("0 already", "1 already"),
        f"error: {path}:{line}, session fri: its entry_corrected at seq 6 amends "
        f"entry 5 {bound}" + _held("amend"))
    assert events(db) == before
    assert one_shot(db, "entry", "amend", "fri", "5", "199", "--reason", "r", "--by", "h") == (
        2, "", f"error: entry amend fri 5 {bound}\n")
    path.write_text(text + fix.replace('"chips": 199', '"chips": 197'))
    assert one_shot(db, "import", str(path))[0] == 0
    assert [r[5] for r in events(db)[len(before):]] == ["entry_corrected"]


def test_workers_leave_a_refused_amendment_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The night with Ann's cash-out made Cy's, and a second session yy after it, read by
    worker processes in parts: they give it back (nothing written; no cash-out is beyond the
    table, so only the amendment's check does), and the one-process import refuses it."""
    path = tmp_path / "cy.jsonl"
    path.write_text(NIGHT + _fix(6, 4, {"type": "cash_out", "player": "Cy", "chips": 100})
                    + _row(1, {"type": "session_opened", "session": "zz", "date": "2026-01-01"})
                    .replace('"zz"', '"yy"'))
    report, results = import_by_workers(monkeypatch, path, tmp_path / "l.duckdb", 200)
    with Ledger(tmp_path / "l.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(0,)]
    assert results == [None]
    assert report.errors == [
        f"{path}:6, session zz: its entry_corrected at seq 6 amends entry 4: its replacement's "
        f"player is 'Cy', the entry's 'Ann': {REPLACED}" + _held("amend")[:-1]]


def _played(tmp_path: Path) -> tuple[Path, str]:
    """Session zz: Ann buys 100 (entry 2), Bob 100 (entry 3); hand x1 seats both with 100,
    Ann raises to 10 and Bob folds his big blind: Ann 102, Bob 98; Bob cashes out 98 (entry
    4), Ann 102 (entry 5). The ledger and its JSON-lines export (13 lines)."""
    db = tmp_path / "played.duckdb"
    for args in (("session", "open", "zz"), ("buyin", "zz", "Ann", "100"),
                 ("buyin", "zz", "Bob", "100"),
                 ("hand", "start", "--session", "zz", "--hand", "x1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 *(("act", "x1", a) for a in ("d dh Ann ????", "d dh Bob ????", "Ann cbr 10",
                                               "Bob f", "end")),
                 ("cashout", "zz", "Bob", "98"), ("cashout", "zz", "Ann", "102")):
        assert one_shot(db, *args)[0] == 0, args
    export = tmp_path / "played.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(export))[0] == 0
    text = export.read_text()
    assert len(text.splitlines()) == 13
    return db, text


#: entry amend's warnings of Ann's buy-in raised to 150 (x1 seats her with 100) and Bob's
#: cash-out lowered to 90 (x1 left him 98)
ANN_150 = ("entry 2 (buy-in of Ann, 150 chips): hand x1 seats Ann with 100 chips, but Ann's "
           "buy-ins there come to 150: expected 150 (-50); the books no longer follow the "
           "hands' stacks, and the audit's stack_continuity will name it; a wrong amount is "
           "amended again (`handledger entry amend zz 2 100 --reason … --by …`)")
BOB_90 = ("entry 4 (cash-out of Bob, 90 chips): the hands leave Bob 98 (-8), Bob's stack after "
          "hand x1 and the buy-ins since: a count that is wrong is amended again (`handledger "
          "entry amend zz 4 98 --reason … --by …`); the audit's session balance will name it")


def test_an_amendment_off_the_hands_stacks_goes_in_with_entry_amends_warning(
        tmp_path: Path) -> None:
    """The played night exported with two more rows, Ann's buy-in raised to 150 (line 14)
    and Bob's cash-out lowered to 90 (line 15): valid corrections, so the file goes in (exit
    0), each row with the warning `entry amend` gives of the same change, naming the file,
    the line and the session; the audit then names the same start and balance."""
    db, text = _played(tmp_path)
    path = tmp_path / "amended.jsonl"
    path.write_text(text + _fix(6, 2, {"type": "buy_in", "player": "Ann", "chips": 150})
                    + _fix(7, 4, {"type": "cash_out", "player": "Bob", "chips": 90}))
    fresh = tmp_path / "fresh.duckdb"
    assert one_shot(fresh, "import", str(path)) == (
        0, "imported 1 hand(s) (15 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
        "2 book entries amended off the hands' stacks (a warning each)\n",
        f"warning: {path}:14, session zz: {ANN_150}\n"
        f"warning: {path}:15, session zz: {BOB_90}\n")
    assert one_shot(db, "entry", "amend", "zz", "2", "150", "--reason", "recount", "--by",
                    "host") == (0, "zz: entry 2 (buy-in of Ann) amended: 100 → 150 chips\n",
                             f"warning: {ANN_150}\n")
    assert one_shot(db, "entry", "amend", "zz", "4", "90", "--reason", "recount", "--by",
                    "host") == (0, "zz: entry 4 (cash-out of Bob) amended: 98 → 90 chips\n",
                             f"warning: {BOB_90}\n")
    audit = json.loads(one_shot(fresh, "audit", "--session", "zz", "--json")[1])
    assert [(d["hand"], d["player"], d["expected"], d["actual"])
            for d in audit["discrepancies"]] == [("x1", "Ann", 150, 100), (None, "Bob", 98, 90)]


def test_an_amendment_amended_again_to_the_hands_stack_goes_in_unwarned(
        tmp_path: Path) -> None:
    """Ann's buy-in amended to 150 (line 14), then to 100 again (line 15), what x1 seats her
    with; Bob's cash-out to 90, then to 98 again, what x1 left him: the books hold 100 and
    98, no warning (neither first row rules anything); the audit is clean."""
    _, text = _played(tmp_path)
    path = tmp_path / "back.jsonl"
    path.write_text(text + _fix(6, 2, {"type": "buy_in", "player": "Ann", "chips": 150})
                    + _fix(7, 2, {"type": "buy_in", "player": "Ann", "chips": 100})
                    + _fix(8, 4, {"type": "cash_out", "player": "Bob", "chips": 90})
                    + _fix(9, 4, {"type": "cash_out", "player": "Bob", "chips": 98}))
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(path)) == (
        0, "imported 1 hand(s) (17 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n", "")
    assert one_shot(db, "audit", "--session", "zz")[0] == 0


def test_workers_leave_an_amendment_warned_of_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file of Bob's cash-out lowered to 90, read by worker processes in parts: they
    give it back, and the one-process import writes it with its warning."""
    _, text = _played(tmp_path)
    path = tmp_path / "amended.jsonl"
    path.write_text(text + _fix(6, 4, {"type": "cash_out", "player": "Bob", "chips": 90}))
    report, results = import_by_workers(monkeypatch, path, tmp_path / "l.duckdb", 200)
    assert results == [None]
    assert (report.errors, report.warnings) == ([], [f"{path}:14, session zz: {BOB_90}"])
