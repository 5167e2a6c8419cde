"""A read that finds the derived tables behind the ledger (a live hand recorded since the last
write saved them) catches them up in memory on the read-only connection it already holds
(:meth:`ledger.store.store.Ledger.overlaid`, replay/books.py), never writing the file: the
books it gives are those a write would have saved.

Ann, Bob and Cy buy in for 1,000 each; hand h1 (NT 1/2, Ann on the button, Bob small blind 1,
Cy big blind 2): Ann raises to 10, Bob and Cy fold. Ann wins the 13 in the pot: Ann +3,
Bob -1, Cy -2. Hand h2 is then started live (Dee and Eve, bought in for 100 each) and left in
play; a live action saves no tables, so the next read finds them behind.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ledger.audit.catchup import moved
from ledger.model.errors import LedgerError
from ledger.store.store import Ledger
from replay.books import fresh_books


def _nets(run) -> dict[str, int]:  # noqa: ANN001
    result = run("balances", "--json")
    assert result.exit_code == 0, result.output
    return {p["player"]: p["net"] for p in json.loads(result.output)["players"]}


def _played(run) -> None:  # noqa: ANN001
    assert run("session", "open", "s1").exit_code == 0
    for player in ("Ann", "Bob", "Cy"):
        assert run("buyin", "s1", player, "1000").exit_code == 0
    assert run("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:1000,Bob:1000,Cy:1000", "--button", "Ann", "--session", "s1").exit_code == 0
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d", "Ann cbr 10", "Bob f",
                   "Cy f", "end"):
        result = run("act", "h1", action)
        assert result.exit_code == 0, (action, result.output)
    for player in ("Dee", "Eve"):
        assert run("buyin", "s1", player, "100").exit_code == 0  # a write: tables saved


def test_a_stale_read_catches_up_on_its_own_connection_and_writes_nothing(
        run, db: str) -> None:  # noqa: ANN001
    _played(run)
    nets = {"Ann": 3, "Bob": -1, "Cy": -2, "Dee": 0, "Eve": 0}
    assert _nets(run) == nets  # as the last write saved them
    assert run("hand", "start", "--hand", "h2", "--game", "NT", "--stakes", "1/2", "--seats",
               "Dee:100,Eve:100", "--button", "Dee", "--session", "s1").exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        assert moved(ledger.connection).sessions == ("s1",)  # behind: h2 is not in them
    before = (os.path.getsize(db), os.stat(db).st_mtime_ns, sorted(os.listdir(Path(db).parent)))
    with fresh_books(db) as ledger:
        assert ledger.read_only
        con = ledger.connection
        # the tables in memory, over the file attached read-only (each overlay's database
        # has a name of its own: many can be open in one process)
        (name, where, read_only), = con.execute(
            "SELECT database_name, path, readonly FROM duckdb_databases()"
            " WHERE database_name = current_database()").fetchall()
        assert name.startswith("overlay") and (where, read_only) == (None, False)
        (where, read_only), = con.execute(
            "SELECT path, readonly FROM duckdb_databases() WHERE database_name = ?",
            [ledger.source]).fetchall()
        assert (where, read_only) == (os.path.realpath(db), True)
        assert moved(con).fresh  # caught up in memory
        assert con.execute("SELECT hand_id, status FROM hands ORDER BY ord").fetchall() == [
            ("h1", "complete"), ("h2", "open")]
        assert dict(con.execute("SELECT player, net FROM session_players WHERE session = 's1'"
                                " AND player IN ('Ann', 'Bob', 'Cy')").fetchall()) == {
            "Ann": 3, "Bob": -1, "Cy": -2}
    after = (os.path.getsize(db), os.stat(db).st_mtime_ns, sorted(os.listdir(Path(db).parent)))
    assert after == before  # nothing written, no file made
    with Ledger(db, read_only=True) as ledger:  # the file's tables are still behind
        assert moved(ledger.connection).sessions == ("s1",)
    # the command reads the same way: h2's blinds counted as put in (heads-up the button,
    # Dee, posts the small blind 1, Eve the big blind 2)
    assert _nets(run) == {**nets, "Dee": -1, "Eve": -2}


def test_only_a_ledger_open_read_only_is_overlaid(db: str) -> None:
    with Ledger(db) as ledger, pytest.raises(LedgerError, match="is not open read-only"):
        ledger.overlaid()
