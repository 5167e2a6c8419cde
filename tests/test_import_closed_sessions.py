"""A hand whose own session field names a session the ledger has closed, or that the file
closed on an earlier line, is refused as ``import --session`` refuses a closed session
(RULES.md §1.1: a closed session takes no more hands): file, line and hand named, nothing
of it written, the file's other hands handled as any refused hand's are (``--strict``: the
file refused whole). The same hand again is still a silent no-op, and a hand of a session
the ledger never opened still goes in."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.formats.jsonl import iter_jsonl
from ledger.store.store import Ledger
from replay.demo.series import generate_series
from tests.fri_night import F1_PHH, NIGHT_JSONL, hand_lines, night
from tests.test_live_table import events, one_shot
from tests.workers import import_by_workers

CLOSED = ("session 'fri' is closed: it takes no more hands or buy-ins (as with --session; "
          "import the hand into an open session with --session, or fix its session field)")


def _balances(db: Path) -> str:
    code, out, _ = one_shot(db, "balances")
    assert code == 0
    return out


def test_a_renamed_hand_of_a_closed_session_is_refused(tmp_path: Path) -> None:
    db = night(tmp_path)
    before, balances = events(db), _balances(db)
    path = tmp_path / "f1b.jsonl"
    path.write_text(hand_lines(NIGHT_JSONL, "f1").replace('"f1"', '"f1b"'))
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")
    assert err == f"error: {path}:1, hand f1b: {CLOSED}\n"
    assert events(db) == before and _balances(db) == balances


def test_a_phh_hand_of_a_closed_session_is_refused(tmp_path: Path) -> None:
    db = night(tmp_path)
    before = events(db)
    path = tmp_path / "f1c.phh"
    path.write_text(F1_PHH.replace("_hand_id = 'f1'", "_hand_id = 'f1c'"))
    code, out, err = one_shot(db, "import", str(path))
    assert (code, err) == (2, f"error: {path}:1, hand f1c: {CLOSED}\n")
    assert "0 already in the ledger; 1 rejected" in out
    assert events(db) == before


def test_the_other_hands_of_the_file_go_in_and_strict_refuses_it_whole(tmp_path: Path) -> None:
    db = night(tmp_path)
    before = events(db)
    f1 = hand_lines(NIGHT_JSONL, "f1")
    free = f1.replace('"f1"', '"g1"').replace('"session":"fri"', '"session":"nobooks"')
    path = tmp_path / "mixed.jsonl"
    path.write_text(f1.replace('"f1"', '"f1b"') + free)
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert (code, err) == (2, f"error: {path}:1, hand f1b: {CLOSED}; --strict: nothing of "
                              "this file was written\n")
    assert events(db) == before
    code, out, err = one_shot(db, "import", str(path))
    assert (code, err) == (2, f"error: {path}:1, hand f1b: {CLOSED}\n")
    # g1 names a session never opened (a site's history carries no books): it goes in
    assert out == ("imported 1 hand(s) (17 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")
    added = [row[1:4] for row in events(db)[len(before):]]
    assert added == [("g1", "g1", "nobooks")] * 17


def test_the_same_export_again_adds_nothing(tmp_path: Path) -> None:
    db = night(tmp_path)
    before = events(db)
    path = tmp_path / "again.jsonl"
    path.write_text(NIGHT_JSONL)
    phh = tmp_path / "f1.phh"
    phh.write_text(F1_PHH)
    for file in (path, phh):
        code, out, err = one_shot(db, "import", str(file))
        assert (code, out, err) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 "
                                       "already in the ledger; 0 rejected\n", "")
    assert events(db) == before


def test_a_hand_after_the_files_own_closing_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "late.jsonl"
    path.write_text(NIGHT_JSONL + hand_lines(NIGHT_JSONL, "f1").replace('"f1"', '"f1b"'))
    db = tmp_path / "new.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected; 1 other hand(s) not written, their file refused\n")
    assert err == (f"error: {path}:26, hand f1b: session 'fri' is closed on line 25 of this "
                   "file: it takes no more hands or buy-ins (as with --session; import the "
                   "hand into an open session with --session, or fix its session field); "
                   "nothing of the file was written: it carries the book of session fri, "
                   "which goes in with all its hands or not at all (correct the file and "
                   "import it again)\n")
    assert not db.exists()  # the file carries fri's book: nothing of it, not even the ledger


def test_workers_leave_a_hand_after_its_sessions_closing_to_one_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    series = generate_series(sessions=2, hands=5, seed=5)
    text = "".join("".join(iter_jsonl(log.rows)) for log in series.sessions)
    first = series.sessions[0].name  # closed in the file before the second session
    lines = [line for line in text.splitlines() if line.startswith(f'{{"hand":"{first}-001",')]
    late = "".join(line.replace(f'"{first}-001"', '"late"') + "\n" for line in lines)
    path = tmp_path / "late.jsonl"
    path.write_text(text + late)
    report, results = import_by_workers(monkeypatch, path, tmp_path / "l.duckdb", 5_000)
    with Ledger(tmp_path / "l.duckdb", read_only=True) as ledger:
        assert ledger.verify().ok
        assert ledger.count() == 0  # the file carries its sessions' books: refused whole
    assert results == [None]  # the workers gave the file back to the one-process import
    assert (report.imported, report.rejected, report.unwritten) == (0, 1, 10)
    second = series.sessions[1].name
    assert report.errors == [f"{path}:{text.count(chr(10)) + 1}, hand late: session "
                             f"'{first}' is closed on line {_closing_line(text, first)} of "
                             "this file: it takes no more hands or buy-ins (as with --session;"
                             " import the hand into an open session with --session, or fix "
                             "its session field); nothing of the file was written: it carries "
                             f"the books of sessions {first}, {second}, which go in with all "
                             "their hands or not at all (correct the file and import it again)"]


def _closing_line(text: str, session: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1)
                if line.startswith(f'{{"session":"{session}",') and "session_closed" in line)
