"""The small reads a ledger open read-only answers as it did the first time
(ledger/store/kept.py): asked once an open, and asked again once the open is made an overlay,
whose tables in memory are written."""

from __future__ import annotations

from typing import Any

from ledger.audit.catchup import moved
from ledger.store.kept import Kept
from ledger.store.store import Ledger
from ledger.store.streams import player_names


class _Asked:
    """A connection that counts the statements run on it (each returns one row, ``(1,)``)."""

    def __init__(self) -> None:
        self.sql: list[str] = []

    def execute(self, sql: str, params: list[Any]) -> Any:
        self.sql.append(sql)
        return self

    def fetchall(self) -> list[tuple[int]]:
        return [(1,)]


def test_a_kept_read_is_run_once_by_its_parameters_and_only_while_started() -> None:
    kept, con = Kept(), _Asked()
    hash_at = "SELECT hash FROM events WHERE position = ?"
    assert kept.rows(con, hash_at, [3]) == [(1,)]  # not started: run
    kept.start()
    for position in (3, 3, 4, 3):
        assert kept.rows(con, hash_at, [position]) == [(1,)]
    assert kept.rows(con, "SELECT count(*) FROM events") == [(1,)]  # not a kept read
    assert kept.rows(con, "SELECT count(*) FROM events") == [(1,)]
    assert con.sql == [hash_at, hash_at, hash_at, "SELECT count(*) FROM events",
                       "SELECT count(*) FROM events"]
    kept.stop()
    assert kept.rows(con, hash_at, [3]) == [(1,)]
    assert len(con.sql) == 6


def test_a_read_of_the_books_asks_the_derived_state_once_and_an_overlay_reads_its_writes(
        run, db: str) -> None:  # noqa: ANN001
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 ("act", "h1", "d dh Bob ????"), ("act", "h1", "d dh Ann ????"),
                 ("act", "h1", "Ann f"), ("act", "h1", "end"), ("replay",)):
        out = run(*args)
        assert out.exit_code == 0, (args, out.output)
    with Ledger(db, read_only=True) as ledger:
        asked: list[str] = []
        con = ledger.connection

        class Spy:
            def execute(self, sql: str, params: Any = None) -> Any:
                asked.append(sql)
                return con.execute(sql, params or [])

        ledger._con = Spy()  # type: ignore[assignment]  # what the reads run
        assert moved(ledger.reads()).fresh
        assert player_names(ledger) == {"Ann", "Bob"}
        assert asked.count("SELECT key, value FROM derived_state") == 1
        assert asked.count("SELECT hash FROM events WHERE position = ?") == 1
        ledger._con = con  # type: ignore[assignment]
        ledger.overlaid()  # its tables in memory may be written: read again
        ledger.connection.execute("UPDATE derived_state SET value = '[\"Zed\"]'"
                                  " WHERE key = 'players'")
        assert player_names(ledger) == {"Zed"}  # as the overlay's derived_state says now
