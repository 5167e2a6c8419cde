"""An imported cash-out is held to what its session's table holds, as ``cashout`` holds one
(README "sessions and the books": no hand makes chips; RULES.md §1.1): a JSON-lines cash-out
row, or a PokerNow quit, that takes more chips than the table holds at its place in the books,
or comes from a player who cashed out since his last buy-in, refuses its file in one line naming the
file, line, session, player and chips, nothing of the file written — into an open session, a
closed one (``import --closed``) or a fresh ledger alike. Each went in (exit 0) before, and only
the audit's session balance flagged it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.conftest import SHARED
from tests.test_cashout_rake import RAKED
from tests.test_import_into_closed import BOOK, _row
from tests.test_live_table import events, one_shot
from tests.workers import import_by_workers

CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
OPENED = _row(1, {"type": "session_opened", "session": "zz", "date": "2026-01-01"})
ANN_IN = _row(2, {"type": "buy_in", "player": "Ann", "chips": 10})
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def _beyond(path: Path, seq: int, chips: int, left: int, bought: int, out: int) -> str:
    return (f"error: {path}:{seq}, session zz: its cash_out at seq {seq} cashes out Ann "
            f"({chips} chips), but the table holds {left} chips not cashed out yet there "
            f"({bought} bought in, {out} cashed out), and no hand makes chips; nothing of the "
            "file was written (a buy-in missing from the file goes before it, a cash-out "
            "counted wrong is corrected in the file)\n")


def test_a_cash_out_beyond_a_closed_sessions_table_is_refused_with_closed(
        tmp_path: Path) -> None:
    """zz closed holding Ann's buy-in of 10: a later export cashing her out for 10000 with
    --closed is refused (the table holds 10), as `cashout zz Ann 10000 --closed` is; her 10
    chips go in."""
    db = tmp_path / "z.duckdb"
    first = tmp_path / "first.jsonl"
    first.write_text(BOOK)
    assert one_shot(db, "import", str(first))[0] == 0
    before = events(db)
    path = tmp_path / "big.jsonl"
    path.write_text(BOOK + _row(4, {"type": "cash_out", "player": "Ann", "chips": 10000}))
    assert one_shot(db, "import", "--closed", str(path)) == (
        2, REFUSED, _beyond(path, 4, 10000, 10, 10, 0))
    assert events(db) == before
    assert one_shot(db, "cashout", "zz", "Ann", "10000", "--closed")[0] == 2
    right = tmp_path / "right.jsonl"
    right.write_text(BOOK + _row(4, {"type": "cash_out", "player": "Ann", "chips": 10}))
    assert one_shot(db, "import", "--closed", str(right))[0] == 0
    assert [r[5] for r in events(db)[len(before):]] == ["cash_out"]


def test_a_cash_out_beyond_an_open_sessions_table_is_refused(tmp_path: Path) -> None:
    """zz open with Ann's 10 chips: a cash-out of 11 is refused (the table holds 10), one of
    10 goes in; a fresh ledger refuses the file of 11 the same way and is not made."""
    db = tmp_path / "o.duckdb"
    first = tmp_path / "first.jsonl"
    first.write_text(OPENED + ANN_IN)
    assert one_shot(db, "import", str(first))[0] == 0
    before = events(db)
    path = tmp_path / "eleven.jsonl"
    path.write_text(OPENED + ANN_IN + _row(3, {"type": "cash_out", "player": "Ann",
                                               "chips": 11}))
    assert one_shot(db, "import", str(path)) == (2, REFUSED, _beyond(path, 3, 11, 10, 10, 0))
    assert events(db) == before
    fresh = tmp_path / "f.duckdb"
    assert one_shot(fresh, "import", str(path)) == (2, REFUSED, _beyond(path, 3, 11, 10, 10, 0))
    assert not fresh.exists()
    ten = tmp_path / "ten.jsonl"
    ten.write_text(OPENED + ANN_IN + _row(3, {"type": "cash_out", "player": "Ann", "chips": 10}))
    assert one_shot(db, "import", str(ten))[0] == 0
    assert one_shot(db, "audit")[0] == 0


def test_a_cash_out_is_held_to_the_table_at_its_place(tmp_path: Path) -> None:
    """Ann buys 10, cashes out 30, then Bob buys 100: at Ann's cash-out the table held 10
    (Bob's chips came after), so the file is refused there, as `cashout` would have been
    then; Ann's second cash-out (20, after her 10, no buy-in since) is refused too."""
    db = tmp_path / "p.duckdb"
    path = tmp_path / "order.jsonl"
    path.write_text(OPENED + ANN_IN + _row(3, {"type": "cash_out", "player": "Ann", "chips": 30})
                    + _row(4, {"type": "buy_in", "player": "Bob", "chips": 100}))
    assert one_shot(db, "import", str(path)) == (2, REFUSED, _beyond(path, 3, 30, 10, 10, 0))
    twice = tmp_path / "twice.jsonl"
    twice.write_text(OPENED + ANN_IN + _row(3, {"type": "buy_in", "player": "Bob", "chips": 100})
                     + _row(4, {"type": "cash_out", "player": "Ann", "chips": 10})
                     + _row(5, {"type": "cash_out", "player": "Ann", "chips": 20}))
    assert one_shot(db, "import", str(twice)) == (
        2, REFUSED, f"error: {twice}:5, session zz: its cash_out at seq 5 cashes out Ann (20 "
        "chips), but none of them are at the table there: Ann cashed out 10 chips at seq 4 and "
        "bought in none since; nothing of the file was written (a buy-in missing from the file "
        "goes before it)\n")
    assert not db.exists()


def _second_quit(tmp_path: Path, chips: int) -> Path:
    """charlestudor's second log (4 buy-ins of 50: the table holds 200) with one more line at
    its end: @ovvkpfngo@@@, who quit with 0 after hand #2, quits again with ``chips``."""
    lines = CT2.read_text().splitlines(keepends=True)
    path = tmp_path / f"q{chips}" / "game.csv"
    path.parent.mkdir()
    path.write_text(lines[0] + '"The player ""@ovvkpfngo@@@ @ CzMp1GAawT"" quits the game with '
                    f'a stack of {chips}.",2022-01-20T10:52:40.000Z,164267596000000\n'
                    + "".join(lines[1:]))
    return path


def test_a_pokernow_quit_with_chips_the_player_does_not_have_is_refused(
        tmp_path: Path) -> None:
    """A second quit of @ovvkpfngo@@@ with 150 chips (he left with 0, bought nothing since)
    refuses the log, naming him, line 2 (the quit's own line: the log is newest first; it
    named line 17, hand #4's start, the hand before the quit) and his chips; with 10000 the
    same; with 0 it goes in and the audit is clean (his 150 went in before, exit 0, and the
    audit found "+150")."""
    for chips in (150, 10000):
        path = _second_quit(tmp_path, chips)
        db = tmp_path / f"g{chips}.duckdb"
        assert one_shot(db, "import", str(path)) == (
            2, REFUSED.replace("\n", "; 4 other hand(s) not written, their file refused\n"),
            f"error: {path}:2, session game: its cash_out at seq 21 cashes out "
            f"@ovvkpfngo@@@ (CzMp1GAawT) ({chips} chips), but none of them are at the table "
            "there: @ovvkpfngo@@@ (CzMp1GAawT) cashed out 0 chips at seq 17 and bought in none "
            "since; nothing of the file was written (a buy-in missing from the file goes before "
            "it)\n")
        assert not db.exists()
    db = tmp_path / "g0.duckdb"
    assert one_shot(db, "import", str(_second_quit(tmp_path, 0)))[0] == 0
    assert one_shot(db, "audit")[0] == 0


def test_workers_leave_a_cash_out_beyond_the_table_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same file of Ann's 11 chips out of 10, with a second session yy after it so that
    worker processes read it in two parts: they give it back to the one-process import
    (nothing written), which refuses it in the same line."""
    path = tmp_path / "eleven.jsonl"
    path.write_text(OPENED + ANN_IN + _row(3, {"type": "cash_out", "player": "Ann", "chips": 11})
                    + OPENED.replace('"zz"', '"yy"'))
    report, results = import_by_workers(monkeypatch, path, tmp_path / "l.duckdb", 100)
    with Ledger(tmp_path / "l.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(0,)]
    assert results == [None]
    assert report.errors == [_beyond(path, 3, 11, 10, 10, 0)[len("error: "):-1]]


def test_the_rake_its_hands_took_is_not_on_the_table(tmp_path: Path) -> None:
    """The raked night of tests/test_cashout_rake.py (Ann buys 100, Dee 116, hand k1 rakes 2
    and pays Ann 198, Dee cashes out 16, then Ann 198) exported, Ann's 198 edited to 199: a
    fresh ledger refuses it (216 bought in, 16 cashed out, 2 taken as rake leave 198), as
    `cashout fri Ann 199` is refused; the export as made goes in."""
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
    lines = export.read_text().splitlines(keepends=True)
    (line,) = [n for n, text in enumerate(lines, 1) if '"chips":198' in text]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines).replace('"chips":198', '"chips":199'))
    fresh = tmp_path / "fresh.duckdb"
    assert one_shot(fresh, "import", str(edited)) == (
        2, REFUSED.replace("\n", "; 1 other hand(s) not written, their file refused\n"),
        f"error: {edited}:{line}, session fri: its cash_out at seq 5 cashes out Ann "
        "(199 chips), but the table holds 198 chips not cashed out yet there (216 bought in, "
        "16 cashed out, 2 taken as rake), and no hand makes chips; nothing of the file was "
        "written (a buy-in missing from the file goes before it, a cash-out counted wrong is "
        "corrected in the file)\n")
    assert not fresh.exists()
    assert one_shot(fresh, "import", str(export))[0] == 0
