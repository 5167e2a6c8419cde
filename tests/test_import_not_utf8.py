"""A JSON-lines line that is not UTF-8 names no stream that can be trusted (its bytes may be
any hand's or session's row): the whole file is refused in one line at that line, nothing
of it written, with or without worker processes, whether the file carries a session's book
or hands alone. A ``.phhs`` that is not UTF-8 is refused whole too, both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.conftest import ROOT, SHARED
from tests.test_live_table import one_shot
from tests.workers import import_by_workers

SERIES = ROOT / "data" / "series" / "s01.jsonl"
WHY = ("a line that is not text may be a row of any hand or session of the file; nothing of "
       "the file was written")


def _with_byte(tmp_path: Path, name: str, line: int, old: bytes, new: bytes,
               hands_only: bool = False) -> Path:
    rows = SERIES.read_bytes().splitlines()
    if hands_only:
        rows = [r for r in rows if r.startswith(b'{"hand":')]
    assert old in rows[line - 1]
    rows[line - 1] = rows[line - 1].replace(old, new, 1)
    path = tmp_path / name
    path.write_bytes(b"\n".join(rows) + b"\n")
    return path


@pytest.mark.parametrize(("line", "old", "new", "byte"), [
    (913, b'"reason":null', b'"reason":"d\xeener"', 99),  # the last payment's reason
    (6, b'"Erin"', b'"\xc9rin"', 73),  # Erin's buy-in: the lines after it would go on
])
def test_a_byte_not_utf8_in_a_session_file_refuses_it_whole(
        tmp_path: Path, line: int, old: bytes, new: bytes, byte: int) -> None:
    path = _with_byte(tmp_path, "r.jsonl", line, old, new)
    db = tmp_path / "x.duckdb"
    for jobs in ("1", "2"):
        assert one_shot(db, "import", "--jobs", jobs, str(path)) == (2, (
            "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
            "1 rejected; 30 other hand(s) not written, their file refused\n"), (
            f"error: {path}:{line}: not UTF-8 (invalid continuation byte at byte {byte}): "
            f"{WHY}\n"))
        assert not db.exists()  # nothing written: not even the new ledger file


def test_the_workers_give_a_file_of_hands_with_such_a_line_back_and_it_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands alone, the byte in s01-030's payout to Bob (line 884 of 885): the workers
    append the first parts, meet the line, roll back; the one process refuses the file."""
    path = _with_byte(tmp_path, "h.jsonl", 884, b'"Bob"', b'"B\xf6b"', hands_only=True)
    report, results = import_by_workers(monkeypatch, path, tmp_path / "h.duckdb", 20_000)
    assert results == [None]  # given back
    assert report.errors == [
        f"{path}:884: not UTF-8 (invalid start byte at byte 60): {WHY}"]
    assert (report.imported, report.events) == (0, 0)
    with Ledger(tmp_path / "h.duckdb", read_only=True) as ledger:
        assert ledger.count() == 0


def test_a_phhs_not_utf8_is_refused_whole_both_ways(tmp_path: Path) -> None:
    data = (SHARED / "phh" / "handhq" / "pty-25nl-excerpt.phhs").read_bytes()
    lines = data.split(b"\n")
    assert lines[248] == b"venue = 'PartyPoker'"  # the 18th hand's
    lines[248] = b"venue = 'P\xe4rtyPoker'"
    path = tmp_path / "bad.phhs"
    path.write_bytes(b"\n".join(lines))
    assert data.count(b"\n[") + data.startswith(b"[") == 18  # 18 tables; line 241 is [18]
    db = tmp_path / "p.duckdb"
    for args in (("--jobs", "1"), ("--jobs", "2"), ("--strict",)):
        # the table the byte is in named, its 17 other hands not written with their file
        assert one_shot(db, "import", *args, str(path)) == (2, (
            "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
            "1 rejected; 17 other hand(s) not written, their file refused\n"),
            f"error: {path}:249: [18] not UTF-8 (invalid continuation byte): a file of hand "
            "tables is read as text whole; nothing of the file was written\n")
        assert not db.exists()
    one = tmp_path / "one.phh"  # a file of one hand: no table to name, no other hand
    one.write_bytes(b"variant = 'NT'\nplayers = ['Jos\xe9']\n")
    assert one_shot(db, "import", str(one)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"),
        f"error: {one}:2: not UTF-8 (invalid continuation byte)\n")
