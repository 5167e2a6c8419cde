"""The sessions with a ``player_alias`` row, which every ``state`` and ``show`` needs to print
a PokerNow id as its player's name: read from the derived tables up to their head, and from
the ledger's rows after it only, with the same answer as a look at every row."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger
from ledger.store.streams import alias_sessions, platform_names
from tests.conftest import SHARED

LOGS = SHARED / "pokernow"
EVERY_ROW = ("SELECT DISTINCT session FROM events WHERE type = 'player_alias'"
             " AND session IS NOT NULL")


def test_alias_sessions_from_the_derived_tables_and_the_rows_after(run, db: str,
                                                                   tmp_path: Path) -> None:  # noqa: ANN001
    first = LOGS / "charlestudor_Input_Log_001.csv"
    assert run("import", "--session", "night1", str(first)).exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        state = dict(ledger.query("SELECT key, value FROM derived_state"))
        assert json.loads(state["alias_sessions"]) == ["night1"]
        names = platform_names(ledger)
        assert alias_sessions(ledger) == {"night1"}
    assert names and all(pid != name for pid, name in names.items())

    # A second log, its derived tables not saved (as if a read caught up in memory only): the
    # rows after the tables' head are read for it.
    second = LOGS / "charlestudor_Input_Log_002.csv"
    assert run("import", "--session", "night2", str(second)).exit_code == 0
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'alias_sessions'",
                    [json.dumps(["night1"])])
        head = dict(con.execute("SELECT key, value FROM derived_state").fetchall())["head"]
        first_of_night2 = con.execute("SELECT min(position) FROM events WHERE session ="
                                      " 'night2'").fetchone()[0]
        before = first_of_night2 - 1
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'head'", [str(before)])
        con.execute("UPDATE derived_state SET value = (SELECT hash FROM events WHERE"
                    " position = ?) WHERE key = 'head_hash'", [before])
    assert int(head) > before
    with Ledger(db, read_only=True) as ledger:
        every = {s for (s,) in ledger.query(EVERY_ROW)}
        assert every == {"night1", "night2"} == alias_sessions(ledger)
        both = platform_names(ledger)

    # Derived tables that are not of these rows (their head's hash differs): every row is read.
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("UPDATE derived_state SET value = '[]' WHERE key = 'alias_sessions'")
        con.execute("UPDATE derived_state SET value = 'f00d' WHERE key = 'head_hash'")
    with Ledger(db, read_only=True) as ledger:
        assert alias_sessions(ledger) == {"night1", "night2"}
        assert platform_names(ledger) == both
    assert len(both) > len(names)


class _Queries:
    """A ledger whose queries are written down as they are run (their SQL, in order)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger, self.sql = ledger, []

    def query(self, sql: str, params: list | None = None) -> list:
        self.sql.append(sql)
        return self.ledger.query(sql, params)


def test_a_ledger_without_derived_tables_is_told_by_its_catalog(run, db: str) -> None:  # noqa: ANN001
    """Without ``derived_state`` (never replayed, as a live ledger), ``at_head`` learns it from
    the catalog and never queries the missing table (DuckDB's refusal of it costs 10-15 ms
    of every ``act`` and ``state``); a ``derived_state`` edited by hand is read as none; an
    overlay finds the copy in memory; every answer is the same as a look at every row."""
    from ledger.store.streams import at_head

    assert run("import", "--session", "night1",
               str(LOGS / "charlestudor_Input_Log_001.csv")).exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        head = int(dict(ledger.query("SELECT key, value FROM derived_state"))["head"])
        assert at_head(ledger, "alias_sessions") == (["night1"], head)
    with Ledger.overlay(db) as ledger:
        assert at_head(ledger, "alias_sessions") == (["night1"], head)
    with Ledger(db) as ledger, ledger.transaction() as con:  # a derived_state without a column
        con.execute("ALTER TABLE derived_state DROP COLUMN value")
    with Ledger(db, read_only=True) as ledger:
        assert at_head(ledger, "alias_sessions") == (None, 0)
    with Ledger(db) as ledger, ledger.transaction() as con:
        con.execute("DROP TABLE derived_state")
    with Ledger(db, read_only=True) as ledger:
        seen = _Queries(ledger)
        assert at_head(seen, "alias_sessions") == (None, 0)
        assert not [sql for sql in seen.sql if "FROM derived_state" in sql], seen.sql
        assert alias_sessions(seen) == {"night1"} == {s for (s,) in ledger.query(EVERY_ROW)}
