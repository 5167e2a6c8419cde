"""A read never writes: every command that only reads leaves the ledger file byte for byte as
it was, whether the derived tables are fresh (saved by the last write), behind (a live hand
recorded since: caught up in memory) or edited outside handledger (computed in memory, with a
note). The commands that append events save the tables, so a read after them finds them
fresh."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest

from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.once import steps_once

SEATS = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Bob")


def reads(tmp_path: Path) -> list[tuple[str, ...]]:
    """Every read command, with arguments that make it do its whole work."""
    return [
        ("verify",), ("audit",), ("audit", "--json"), ("balances",), ("standings",),
        ("settle", "--session", "s01"), ("session", "list"), ("sql", "SELECT count(*) FROM hands"),
        ("replay", "--hand", "live"), ("show", "live"), ("state", "live"), ("history", "live"),
        ("whatif", "live", "--replace", "6", "Bob f"), ("export", "-o", str(tmp_path / "e.jsonl")),
        ("chart", str(tmp_path / "c.png"), "--session", "s01"),  # the live hand: plain chips
        ("report", str(tmp_path / "site")),
        ("view", "live", "-o", str(tmp_path / "v.html")),
    ]


def unchanged(run, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    before, stamp = Path(db).read_bytes(), os.stat(db).st_mtime_ns
    for command in reads(tmp_path):
        out = run(*command)
        assert out.exit_code in (0, 1), (command, out.output)
        assert "Traceback" not in out.output, command
    assert Path(db).read_bytes() == before
    assert os.stat(db).st_mtime_ns == stamp


IMPORTED = (("import", str(DATA / "series" / "s01.jsonl")),)
LIVE = (("hand", "start", "--hand", "live", *SEATS),
        *(("act", "live", action) for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Bob cc")))


def _imported(factory: pytest.TempPathFactory, db: str, *more: tuple[str, ...]) -> None:
    """The ledger ``db`` made a copy of the series' first session imported (each write
    asserted to exit 0), and then ``more`` (:data:`LIVE`), built once a test session."""
    steps_once(factory, "s01", *IMPORTED)
    copy_ledger(steps_once(factory, "s01 live", *more, base="s01") if more else
                steps_once(factory, "s01"), Path(db))


def test_a_write_saves_the_tables_and_a_read_finds_them_fresh(  # noqa: ANN001
        run, db: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    from ledger.audit.catchup import moved

    _imported(tmp_path_factory, db)  # the import of s01.jsonl
    with duckdb.connect(db, read_only=True) as con:
        assert moved(con).fresh
    assert run("session", "open", "late").exit_code == 0
    assert run("buyin", "late", "Ann", "100").exit_code == 0
    with duckdb.connect(db, read_only=True) as con:
        assert moved(con).fresh  # each write saved them
    assert run("hand", "start", "--hand", "live", *SEATS).exit_code == 0
    with duckdb.connect(db, read_only=True) as con:  # a live action does not (the hot path)
        assert moved(con).full == "a hand of no session moved"


@pytest.mark.parametrize("state", ["fresh", "behind", "edited"])
def test_no_read_changes_the_file(run, db: str, tmp_path: Path,  # noqa: ANN001
                                  tmp_path_factory: pytest.TempPathFactory, state: str) -> None:
    _imported(tmp_path_factory, db, *LIVE)  # s01 imported, the live hand three actions in
    if state == "fresh":
        assert run("replay").exit_code in (0, 1)  # the rebuild saves them
    elif state == "edited":
        assert run("replay").exit_code in (0, 1)
        with duckdb.connect(db) as con:
            con.execute("UPDATE session_players SET net = net + 5 WHERE session = 's01'")
    from ledger.audit.catchup import moved

    with duckdb.connect(db, read_only=True) as con:
        assert moved(con).fresh is (state == "fresh")
    unchanged(run, db, tmp_path)
    if state == "edited":
        assert "changed outside handledger" in run("balances").stderr
