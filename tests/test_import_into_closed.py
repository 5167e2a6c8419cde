"""Nothing of an import goes into a closed session (RULES.md §1.1: a closed session takes no
more hands or buy-ins; docs/IMPORTING.md, "A closed session takes no more hands"): ``--session S``
naming a closed session refuses the import in one line whatever its files, a PokerNow log
that would add a hand or a buy-in to a session the ledger has closed (its own, by the file's
name or its game) is refused whole in one line, and a JSON-lines buy-in after its session's
closing (the ledger's or the file's own) refuses the file. A PokerNow log refused hand by
hand there had its aliases, joins and buy-ins appended after the closing (exit 2, "4
rejected"). A cash-out (a JSON-lines row, a PokerNow quit) or an amendment of the books after
the ledger's closing needs ``import --closed``, as ``cashout`` and ``entry amend`` ask; a
payment, an alias or a seat change goes in."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.conftest import SHARED
from tests.copies import copy_ledger
from tests.test_live_table import events, one_shot
from tests.workers import import_by_workers

CT1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
CLOSED = ("session 'thu' is closed: it takes no more hands or buy-ins (payments still go in; "
          "a cash-out or a correction of its entries with --closed)")


def _closed_thu(db: Path) -> None:
    """Session thu of 0.05 USD chips holding charlestudor's first log (4 hands, 3 buy-ins of
    100), closed."""
    assert one_shot(db, "session", "open", "thu", "--chip-value", "0.05",
                    "--currency", "USD")[0] == 0
    assert one_shot(db, "import", "--session", "thu", str(CT1))[0] == 0
    assert one_shot(db, "session", "close", "thu")[0] == 0


@pytest.fixture(scope="module")
def ct1_closed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger holding charlestudor's first log imported (session charlestudor_Input_Log_001,
    4 hands, 61 events) and that session closed: built once for the module; copy it."""
    db = tmp_path_factory.mktemp("ct1") / "o.duckdb"
    assert one_shot(db, "import", str(CT1))[0] == 0
    assert one_shot(db, "session", "close", "charlestudor_Input_Log_001")[0] == 0
    return db


def test_session_naming_a_closed_session_refuses_a_pokernow_log_in_one_line(
        tmp_path: Path) -> None:
    """charlestudor's second log into the closed thu: one line, exit 2, nothing written (it
    was "imported 0 hand(s) (9 events) … 4 rejected": 3 aliases, 3 joins and 3 buy-ins
    after the closing, thu "6 buy-in(s)"); a PHH hand the same way, and both together."""
    db = tmp_path / "c.duckdb"
    _closed_thu(db)
    before = events(db)
    for files, named in (([CT2], f"{CT2}"), ([SHARED / "rules" / "ex01.phh"],
                                             f"{SHARED / 'rules' / 'ex01.phh'}"),
                         ([CT2, SHARED / "rules" / "ex01.phh"], f"{CT2} (and 1 more file)")):
        assert one_shot(db, "import", "--session", "thu", *map(str, files)) == (
            2, "", f"error: {named}: {CLOSED}\n")  # the files named, as with --closed
    assert events(db) == before
    code, out, _ = one_shot(db, "session", "list")
    assert (code, out.split("  ")[2:4]) == (0, ["4 hand(s)", "3 buy-in(s)"])


def test_a_log_into_a_closed_session_of_its_own_name_is_refused_whole(
        tmp_path: Path, ct1_closed: Path) -> None:
    """charlestudor's first log imported and its session closed; another game's log (the
    second, under the first's file name) would add its 4 hands and 18 session lines (3
    aliases, 3 joins, 3 buy-ins, …) to that session: refused in one line naming the first
    of them, the log's last line (A8's seat request, his alias). The first log
    again adds nothing (exit 0), and so does a longer export of its game; one with a hand
    the ledger does not hold (the first log cut before hand #4, imported and closed, then
    whole) is refused naming that hand's line."""
    db = copy_ledger(ct1_closed, tmp_path / "o.duckdb")  # imported, its session closed
    before = events(db)
    other = tmp_path / "other" / CT1.name
    other.parent.mkdir()
    shutil.copy(CT2, other)
    assert one_shot(db, "import", str(other)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
           "4 other hand(s) not written, their file refused\n",
        f"error: {other}:78: session 'charlestudor_Input_Log_001' is closed: it takes no more "
        "hands or buy-ins, and this log would add 4 hand(s) and 18 session line(s) to it; "
        "nothing of the file was written\n")
    assert one_shot(db, "import", str(CT1)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 0 rejected\n",
        "")
    assert events(db) == before
    lines = CT1.read_text().splitlines(keepends=True)
    short = tmp_path / "short.csv"  # the header, then hand #3 and what came before it
    short.write_text(lines[0] + "".join(lines[11:]))
    cut = tmp_path / "cut.duckdb"
    assert one_shot(cut, "import", str(short))[0] == 0
    assert one_shot(cut, "session", "close", "short")[0] == 0
    before = events(cut)
    whole = tmp_path / "whole.csv"
    shutil.copy(CT1, whole)
    assert one_shot(cut, "import", str(whole)) == (  # its three other hands held: known
        2, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; 1 rejected\n",
        f"error: {whole}:11, hand pn-short-4-164210359269400: session 'short' is closed: it "
        "takes no more hands or buy-ins, and this log would add 1 hand(s) and 0 session "
        "line(s) to it; nothing of the file was written\n")
    assert events(cut) == before


JSONL = ('{"session":"zz","seq":1,"event":{"schema_version":1,"type":"session_opened",'
         '"session":"zz","date":"2026-01-01"}}\n'
         '{"session":"zz","seq":2,"event":{"schema_version":1,"type":"session_closed"}}\n')
BUY_IN = ('{"session":"zz","seq":3,"event":{"chips":10,"player":"Ann","schema_version":1,'
          '"type":"buy_in"}}\n')
LATE = ("error: {}:3, session zz: its buy_in at seq 3 comes after the session was closed: a "
        "closed session takes no more; nothing of the file was written\n")


def test_a_log_refused_by_its_closed_session_counts_each_hand_once(tmp_path: Path) -> None:
    """valakuzhyk's log of 52 hands into the closed session of its first 9 (an export cut
    below hand #10's start: newest first): refused naming hand #10, which the summary counts
    rejected and no more; the 9 held known, the 42 others not written. Before, the line was
    a rejection beside 43 other hands (53 of 52)."""
    lines = VK.read_text().splitlines(keepends=True)
    start10 = next(i for i, t in enumerate(lines) if t.startswith('"-- starting hand #10 '))
    first9 = tmp_path / "first9.csv"
    first9.write_text(lines[0] + "".join(lines[start10 + 1:]))
    db = tmp_path / "vk.duckdb"
    assert one_shot(db, "import", str(first9))[:2] == (
        0, "imported 9 hand(s) (320 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert one_shot(db, "session", "close", "first9")[0] == 0
    before = events(db)
    whole = tmp_path / "whole.csv"
    shutil.copy(VK, whole)
    assert one_shot(db, "import", str(whole)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 9 already in the ledger; 1 rejected; "
           "42 other hand(s) not written, their file refused\n",
        f"error: {whole}:{start10 + 1}, hand pn-first9-10-165843825690400: session 'first9' is "
        "closed: it takes no more hands or buy-ins, and this log would add 43 hand(s) and 12 "
        "session line(s) to it; nothing of the file was written\n")
    assert events(db) == before


def test_a_jsonl_buy_in_after_its_files_own_closing_is_refused(tmp_path: Path) -> None:
    """A file that opens zz, closes it and then buys Ann in: refused, no ledger made (it was
    imported, "closed, settled" with 1 buy-in). A cash-out after the file's own closing goes
    into a fresh ledger (another ledger recorded it with --closed; of chips Ann bought before
    the closing: one of chips nobody bought is refused as beyond the table,
    tests/test_import_cash_out_bound.py); the buy-in after the ledger's closing is refused as
    before."""
    path = tmp_path / "late.jsonl"
    path.write_text(JSONL + BUY_IN)
    db = tmp_path / "j.duckdb"
    assert one_shot(db, "import", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        LATE.format(path))
    assert not db.exists()
    paid = tmp_path / "paid.jsonl"
    paid.write_text(BOOK + CASHED)  # Ann's buy-in before the closing: her cash-out is hers
    assert one_shot(db, "import", str(paid))[0] == 0
    assert [row[5] for row in events(db)] == ["session_opened", "buy_in", "session_closed",
                                              "cash_out"]
    closed = tmp_path / "closed.duckdb"
    first = tmp_path / "first.jsonl"
    first.write_text(JSONL)
    assert one_shot(closed, "import", str(first))[0] == 0
    assert one_shot(closed, "import", str(path))[2] == LATE.format(path)
    assert len(events(closed)) == 2


def test_workers_leave_a_buy_in_after_the_closing_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "late.jsonl"
    path.write_text(JSONL + BUY_IN)
    report, results = import_by_workers(monkeypatch, path, tmp_path / "l.duckdb", 100)
    with Ledger(tmp_path / "l.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(0,)]
    assert results == [None]  # the workers gave the file back to the one-process import
    assert report.errors == [LATE.format(path)[len("error: "):-1]]


def _closed_cut(tmp_path: Path) -> tuple[Path, Path]:
    """A ledger holding charlestudor's first log cut in hand #4, after Qapurjsa9's fold (TA,
    the small blind, still to act), saved as game.csv, its session game closed; and the whole
    log as game.csv, the longer export. Hand #4 is stored incomplete, every chip back: the
    nets are those of hands #1-#3, TA +4, Anvjfbmj2 0, Qapurjsa9 -4 (hand #4's stacks 104,
    100, 96 of 100 each)."""
    lines = CT1.read_text().splitlines(keepends=True)
    short, whole = tmp_path / "short" / "game.csv", tmp_path / "whole" / "game.csv"
    short.parent.mkdir()
    whole.parent.mkdir()
    short.write_text(lines[0] + "".join(lines[5:]))  # without TA's fold and the ending
    shutil.copy(CT1, whole)
    db = tmp_path / "cut.duckdb"
    assert one_shot(db, "import", str(short))[0] == 0
    assert one_shot(db, "session", "close", "game")[0] == 0
    return db, whole


@pytest.fixture(scope="module")
def closed_cut(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """:func:`_closed_cut` built once for the module: copy its ledger (:func:`_copied`)."""
    return _closed_cut(tmp_path_factory.mktemp("closed_cut"))


def _copied(built: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A copy in ``tmp_path`` of a module's ledger, and the longer export beside it (read
    only)."""
    db, whole = built
    return copy_ledger(db, tmp_path / db.name), whole


def _nets(db: Path) -> dict[str, int]:
    code, out, _ = one_shot(db, "balances", "--session", "game", "--json")
    assert code == 0
    return {p["name"]: p["net"] for p in json.loads(out)["players"]}


HAND4 = "pn-game-4-164210359269400"


def test_a_longer_export_completing_a_hand_of_a_closed_session_needs_closed(
        tmp_path: Path, closed_cut: tuple[Path, Path]) -> None:
    """The whole log completes the closed session's cut hand #4 (TA folds, Anvjfbmj2 gets his
    uncalled 1 back and collects the 2 in the pot: TA -1, Anvjfbmj2 +1), a correction that
    moves its settled nets: refused in one line naming the hand at its line (11, its
    starting line), nothing written (it was appended, exit 0, "1 cut-off hand(s)
    completed"). With --closed the host records it: TA 3, Anvjfbmj2 1, Qapurjsa9 -4; the
    closed session still takes no hand (the second log, another game, under that name)."""
    db, whole = _copied(closed_cut, tmp_path)
    before = events(db)
    assert _nets(db) == {"TA": 4, "Anvjfbmj2": 0, "Qapurjsa9": -4}
    assert one_shot(db, "import", str(whole)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
           "1 rejected\n",  # its other hands held: known (it said "not written")
        f"error: {whole}:11, hand {HAND4}: session 'game' is closed (entry 11) and this file "
        "would complete the hand, which the ledger holds cut off where an earlier export "
        "stopped: its books were settled up at the close; nothing of the file was written; "
        "--closed records it anyway\n")
    assert events(db) == before
    assert one_shot(db, "import", "--closed", str(whole)) == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 3 already in the ledger; 0 rejected"
        "; 1 cut-off hand(s) completed from this longer export (a correction each)\n", "")
    assert [r[2:6] for r in events(db)[len(before):]] == [
        (HAND4, "game", 9, "correction")]
    assert _nets(db) == {"TA": 3, "Anvjfbmj2": 1, "Qapurjsa9": -4}
    other = tmp_path / "other" / "game.csv"
    other.parent.mkdir()
    shutil.copy(CT2, other)
    assert one_shot(db, "import", "--closed", str(other))[::2] == (
        2, f"error: {other}:78: session 'game' is closed: it takes no more hands or buy-ins, and "
        "this log would add 4 hand(s) and 18 session line(s) to it; nothing of the file was "
        "written\n")



def test_the_shows_logged_after_a_hand_of_a_closed_session_need_closed(tmp_path: Path) -> None:
    """valakuzhyk's log exported right after hand #42's ending line (hands #1-#42), imported
    and its session closed; the export taken a moment later also has the winner's show logged
    after that line (7♠ 6♠), which a correction would insert into the stored hand: refused in
    one line naming the hand, nothing written (it went in, exit 0, "1 cut-off hand(s)
    completed"); --closed records it."""
    lines = VK.read_text().splitlines(keepends=True)
    assert lines[181].startswith('"""Aab Ovwsi @ gKyQzJRs7T"" shows a 7♠, 6♠."')
    short, whole = tmp_path / "short" / "vk.csv", tmp_path / "whole" / "vk.csv"
    for path, start in ((short, 182), (whole, 181)):
        path.parent.mkdir()
        path.write_text(lines[0] + "".join(lines[start:]))
    db = tmp_path / "vk.duckdb"
    assert one_shot(db, "import", str(short))[0] == 0
    assert one_shot(db, "session", "close", "vk")[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(whole)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 41 already in the ledger; "
           "1 rejected\n",  # its other hands held: known (it said "not written")
        f"error: {whole}:11, hand pn-vk-42-165843972548800: session 'vk' is closed (entry 38) "
        "and this file would add to the hand the shows logged after its end: its books were "
        "settled up at the close; nothing of the file was written; --closed records it "
        "anyway\n")
    assert events(db) == before
    assert one_shot(db, "import", "--closed", str(whole))[0] == 0
    assert [r[2:6] for r in events(db)[len(before):]] == [
        ("pn-vk-42-165843972548800", "vk", 10, "correction")]

def test_the_same_with_session_naming_the_closed_session(tmp_path: Path) -> None:
    """Cut log and whole log imported with --session thu (opened, 0.05 USD chips): without
    --closed the whole log is refused up front as every import into a closed thu is; with it,
    hand #4 is completed in thu's chips, and a PHH hand is still refused."""
    db = tmp_path / "thu.duckdb"
    lines = CT1.read_text().splitlines(keepends=True)
    short = tmp_path / "short.csv"
    short.write_text(lines[0] + "".join(lines[5:]))
    assert one_shot(db, "session", "open", "thu", "--chip-value", "0.05",
                    "--currency", "USD")[0] == 0
    assert one_shot(db, "import", "--session", "thu", str(short))[0] == 0
    assert one_shot(db, "session", "close", "thu")[0] == 0
    before = events(db)
    assert one_shot(db, "import", "--session", "thu", str(CT1)) == (
        2, "", f"error: {CT1}: {CLOSED}\n")
    assert events(db) == before
    code, out, _ = one_shot(db, "import", "--session", "thu", "--closed", str(CT1))
    assert (code, out.endswith("1 cut-off hand(s) completed from this longer export (a "
                               "correction each)\n")) == (0, True)
    assert [r[5] for r in events(db)[len(before):]] == ["correction"]
    phh = SHARED / "rules" / "ex01.phh"  # a new hand: --closed never lets one in
    assert one_shot(db, "import", "--session", "thu", "--closed", str(phh))[::2] == (
        2, f"error: {phh}: {CLOSED}\n")


STATEMENT = ("player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,"
             "net\n"
             "TA,gE4aE_Yhc3,2022-01-13T19:50:00.000Z,,100,,103,3\n"
             "Anvjfbmj2,ydk9sgEWl2,2022-01-13T19:50:00.000Z,,100,,101,1\n"
             "Qapurjsa9,BfS83Cedu3,2022-01-13T19:50:00.000Z,,100,,96,-4\n")


def test_a_ledger_statement_for_a_closed_session_needs_closed(
        tmp_path: Path, closed_cut: tuple[Path, Path]) -> None:
    """charlestudor's first log imported whole (TA 103, Anvjfbmj2 101, Qapurjsa9 96 at the
    table after hand #4) and its session closed: PokerNow's ledger statement for it is
    refused up front in one line, nothing written (it was appended after the closing, exit
    0); so it is beside the cut log's longer export, which alone was refused before while
    the statement went in. With --closed it is appended, the session's last row."""
    log = tmp_path / "log" / "game.csv"
    log.parent.mkdir()
    shutil.copy(CT1, log)
    statement = tmp_path / "ledger_game.csv"
    statement.write_text(STATEMENT)
    db = tmp_path / "s.duckdb"
    assert one_shot(db, "import", str(log))[0] == 0
    assert one_shot(db, "session", "close", "game")[0] == 0
    before = events(db)
    refused = (f"error: --ledger {statement}: session 'game' is closed (entry 11): its books "
               "were settled up at the close, and a ledger statement is compared with them; "
               "nothing was imported; --closed records it anyway\n")
    assert one_shot(db, "import", str(log), "--ledger", str(statement)) == (2, "", refused)
    assert events(db) == before
    cut, whole = _copied(closed_cut, tmp_path)
    cut_before = events(cut)
    assert one_shot(cut, "import", str(whole), "--ledger", str(statement)) == (2, "", refused)
    assert events(cut) == cut_before
    assert one_shot(db, "import", str(log), "--ledger", str(statement), "--closed") == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 4 already in the ledger; 0 rejected\n",
        "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("game", 12, "platform_ledger")]


def test_a_statement_for_a_session_closed_by_now_is_not_stored(
        tmp_path: Path, ct1_closed: Path) -> None:
    """The statement is checked again when it is appended, after the files (one of them may
    have closed its session): one error in the report, nothing appended; with ``closed`` it
    goes in."""
    from replay.ingest.pokernow import import_statement
    from replay.ingest.report import ImportReport

    statement = tmp_path / "ledger_game.csv"
    statement.write_text(STATEMENT)
    db = copy_ledger(ct1_closed, tmp_path / "l.duckdb")  # imported, its session closed
    with Ledger(db) as ledger:
        report = ImportReport()
        import_statement(ledger, statement, [CT1], None, report)
        assert report.errors == [
            f"--ledger {statement}: session 'charlestudor_Input_Log_001' is closed (entry 11): "
            "its books were settled up at the close, and a ledger statement is compared with "
            "them; the statement was not stored; --closed records it anyway"]
        assert ledger.count() == 61
        import_statement(ledger, statement, [CT1], None, report, closed=True)
        assert (ledger.count(), report.events) == (62, 1)


def _row(seq: int, event: dict[str, object]) -> str:
    return json.dumps({"session": "zz", "seq": seq, "event": {"schema_version": 1, **event}},
                      separators=(",", ":")) + "\n"


#: zz opened, Ann bought in for 10, zz closed (entry 3)
BOOK = (_row(1, {"type": "session_opened", "session": "zz", "date": "2026-01-01"})
        + _row(2, {"type": "buy_in", "player": "Ann", "chips": 10})
        + _row(3, {"type": "session_closed"}))
AMEND = _row(4, {"type": "entry_corrected", "seq": 2, "reason": "miscounted", "by": "host",
                 "replacement": {"type": "buy_in", "player": "Ann", "chips": 12}})
RETRACT = _row(4, {"type": "entry_corrected", "seq": 2, "reason": "never", "by": "host"})
SET = _row(4, {"type": "session_changed", "chip_value_minor": 25, "currency": "USD",
               "decimals": 2})
STATED = _row(4, {"type": "platform_ledger", "platform": "pokernow", "file": "ledger_zz.csv",
                  "rows": [{"player": "Ann", "buy_in": 10, "buy_out": 0, "stack": 10,
                            "net": 0}]})
#: Ann pays the house 5 beyond what it is owed (no rake): pay zz Ann rake 5 --more-than-owed
PAID = (_row(4, {"type": "payment", "payer": "Ann", "payee": None, "amount_minor": 5,
                 "more_than_owed": True})
        + _row(5, {"type": "entry_corrected", "seq": 4, "reason": "typo", "by": "host",
                   "replacement": {"type": "payment", "payer": "Ann", "payee": None,
                                   "amount_minor": 4, "more_than_owed": True}}))
SETTLED = ("error: {}:4, session zz: its {} after the session was closed (entry 3): its books "
           "were settled up at the close; nothing of the file was written; --closed records it "
           "anyway\n")


@pytest.fixture(scope="module")
def zz_closed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of BOOK (first.jsonl beside it) imported: zz opened, Ann in for 10, zz
    closed (entry 3); built once for the module: copy it."""
    first = tmp_path_factory.mktemp("zz") / "first.jsonl"
    first.write_text(BOOK)
    db = first.with_name("z.duckdb")
    assert one_shot(db, "import", str(first))[0] == 0
    return db


def test_jsonl_rows_amending_the_books_after_the_ledgers_closing_need_closed(
        tmp_path: Path, zz_closed: Path) -> None:
    """Into a ledger holding zz closed, a later export's amendment or retraction of Ann's
    buy-in, a new value of its chip, or a ledger statement, each refused in one line naming
    the row, nothing written (each went in, exit 0, as `entry amend`, `entry retract`,
    `session set` and `import --ledger` ask --closed); a payment and its amendment go in.
    With --closed the amendment is recorded (Ann's buy-in 12). A fresh ledger takes the
    amended export whole: its own closing came before, the history of a ledger that recorded
    it."""
    db = copy_ledger(zz_closed, tmp_path / "z.duckdb")  # BOOK imported
    before = events(db)
    for name, row, words in (("amend", AMEND, "entry_corrected at seq 4 amends its buy_in at "
                              "seq 2"),
                             ("retract", RETRACT, "entry_corrected at seq 4 amends its buy_in "
                              "at seq 2"),
                             ("set", SET, "session_changed at seq 4 sets the value of its "
                              "chip"),
                             ("stated", STATED, "platform_ledger at seq 4 adds a ledger "
                              "statement, which the audit compares with its books,")):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(BOOK + row)
        assert one_shot(db, "import", str(path)) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
            "1 rejected\n", SETTLED.format(path, words))
        assert events(db) == before
    paid = tmp_path / "paid.jsonl"
    paid.write_text(BOOK + PAID)
    assert one_shot(db, "import", str(paid))[0] == 0
    assert [r[5] for r in events(db)[len(before):]] == ["payment", "entry_corrected"]
    other = copy_ledger(zz_closed, tmp_path / "o.duckdb")  # BOOK imported
    amend = tmp_path / "amend.jsonl"
    assert one_shot(other, "import", "--closed", str(amend))[0] == 0
    code, out, _ = one_shot(other, "balances", "--json")
    assert (code, [(p["name"], p["buy_in"]) for p in json.loads(out)["players"]]) == (
        0, [("Ann", 12)])
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(amend))[0] == 0
    assert [r[5] for r in events(fresh)] == ["session_opened", "buy_in", "session_closed",
                                             "entry_corrected"]


CASHED = _row(4, {"type": "cash_out", "player": "Ann", "chips": 10})


def test_a_jsonl_cash_out_after_the_ledgers_closing_needs_closed(
        tmp_path: Path, zz_closed: Path) -> None:
    """Into a ledger holding zz closed (entry 3), a later export whose row 4 cashes Ann out
    for 10 chips: refused in one line naming the row, nothing written (it went in, exit 0,
    while `cashout zz Ann 10` asked --closed). With --closed it is recorded (Ann's cash-out
    10, net 0). A fresh ledger takes the same file whole: its own closing came first, the
    history of a ledger that recorded the cash-out with --closed; the export again adds
    nothing to the ledger that holds it."""
    db = copy_ledger(zz_closed, tmp_path / "z.duckdb")  # BOOK imported
    before = events(db)
    path = tmp_path / "cashed.jsonl"
    path.write_text(BOOK + CASHED)
    assert one_shot(db, "import", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        SETTLED.format(path, "cash_out at seq 4 cashes out Ann (10 chips)"))
    assert events(db) == before
    assert one_shot(db, "cashout", "zz", "Ann", "10")[::2] == (
        2, "error: session zz is closed (entry 3; its books were settled up at the close): a "
        "cash-out of Ann changes them; nothing written; --closed records it anyway\n")
    assert one_shot(db, "import", "--closed", str(path)) == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("zz", 4, "cash_out")]
    code, out, _ = one_shot(db, "balances", "--json")
    assert (code, [(p["name"], p["buy_in"], p["cash_out"], p["net"])
                   for p in json.loads(out)["players"]]) == (0, [("Ann", 10, 10, 0)])
    after = events(db)
    assert one_shot(db, "import", str(path))[0] == 0
    assert events(db) == after
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(path))[0] == 0
    assert [r[5] for r in events(fresh)] == ["session_opened", "buy_in", "session_closed",
                                             "cash_out"]


def _quit_after_closing(tmp_path: Path) -> tuple[Path, Path]:
    """charlestudor's second log exported before its last line (ksv quits with a stack of
    0, after hand #4), imported and its session game closed (entry 18: 13 session rows
    before hands #1-#4, 4 between them); and the whole log, the longer export, as game.csv."""
    lines = CT2.read_text().splitlines(keepends=True)
    assert lines[1].startswith('"The player ""ksv @ ycx @ YJJJbgIQrB"" quits the game')
    short, whole = tmp_path / "short" / "game.csv", tmp_path / "whole" / "game.csv"
    short.parent.mkdir()
    whole.parent.mkdir()
    short.write_text(lines[0] + "".join(lines[2:]))
    shutil.copy(CT2, whole)
    db = tmp_path / "quit.duckdb"
    assert one_shot(db, "import", str(short))[0] == 0
    assert one_shot(db, "session", "close", "game")[0] == 0
    return db, whole


@pytest.fixture(scope="module")
def quit_after_closing(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """:func:`_quit_after_closing` built once for the module: copy its ledger
    (:func:`_copied`)."""
    return _quit_after_closing(tmp_path_factory.mktemp("quit"))


def test_a_longer_export_with_a_quit_after_the_closing_needs_closed(
        tmp_path: Path, quit_after_closing: tuple[Path, Path]) -> None:
    """The whole log adds ksv's quit (a seat change and a cash-out of his 0 chips) to the
    closed session: refused in one line saying --closed records it, nothing written (it
    was refused as a closed session's new lines are, without a word of --closed), naming
    the quit's own line 2 (it named line 16, hand #4's start, the hand before it) and
    counting the four hands the ledger holds as already in it (it said 0). With --closed
    the quit's rows are appended after the closing; the log again adds nothing."""
    db, whole = _copied(quit_after_closing, tmp_path)
    before = events(db)
    closing = [r[4] for r in before if r[5] == "session_closed"]
    assert closing == [18]
    assert one_shot(db, "import", str(whole)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 1 rejected\n",
        f"error: {whole}:2: session 'game' is closed (entry 18) and this log would cash out "
        "ksv @ ycx (0 chips): its books were settled up at the close; nothing of the file was "
        "written; --closed records it anyway\n")
    assert events(db) == before
    assert one_shot(db, "import", "--closed", str(whole)) == (
        0, "imported 0 hand(s) (2 events) from 1 file(s); 4 already in the ledger; 0 rejected\n",
        "")
    assert [r[3:6] for r in events(db)[len(before):]] == [
        ("game", 19, "seat_change"), ("game", 20, "cash_out")]
    after = events(db)
    assert one_shot(db, "import", str(whole))[0] == 0
    assert events(db) == after


def test_a_longer_export_that_only_seats_or_names_goes_into_a_closed_session(
        tmp_path: Path, quit_after_closing: tuple[Path, Path]) -> None:
    """A longer export whose only new line, after hand #4, has A8 stand up with the 200
    chips he won (a seat change: no chip leaves the table, nothing the books count) goes
    into the closed session without --closed, as a payment or an alias would (it was
    refused whole, as every new line of a closed session's log was)."""
    db, _ = _copied(quit_after_closing, tmp_path)
    before = events(db)
    lines = CT2.read_text().splitlines(keepends=True)
    stood = tmp_path / "stood" / "game.csv"
    stood.parent.mkdir()
    stood.write_text(lines[0] + '"The player ""A8 @ gE4aE_Yhc3"" stand up with the stack of '
                     '200.",2022-01-20T10:52:40.000Z,164267596000000\n' + "".join(lines[2:]))
    assert one_shot(db, "import", str(stood)) == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 4 already in the ledger; 0 rejected\n",
        "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("game", 19, "seat_change")]
