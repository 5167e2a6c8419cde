"""A full rebuild saves the derived tables in one transaction: the replay tables (hands, pots,
results, discrepancies), the session tables, the findings and ``derived_state`` (the head and
the digest reads compare) commit together. A command killed between the replay tables and the
rest (``kill -9`` of ``import`` of a folder, or of a saving ``replay``) used to leave new
replay tables under the old digest, which every later read and ``verify`` took for tables
"changed outside handledger"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ledger.audit import tables as audit_tables
from ledger.audit.catchup import moved
from ledger.store.store import Ledger
from replay import projections, ranges
from replay.ingest.pipeline import import_paths
from replay.projections import rebuild
from tests.unbuilt import unbuild


class Killed(BaseException):
    """Stands for the process dying: not an Exception, so no handler turns it into a refusal."""


def _derived(ledger: Ledger) -> dict[str, list[tuple]]:
    """Every derived table and ``derived_state``, rows sorted."""
    con = ledger.connection
    names = [n for (n,) in con.execute("SELECT table_name FROM duckdb_tables()"
                                       " WHERE database_name = current_database() ORDER BY 1")
             .fetchall() if n not in ("events", "meta")]
    return {n: sorted(con.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}


@pytest.fixture
def series(tmp_path: Path) -> Path:
    """Six sessions of 25 generated hands, the derived tables built, then a hand voided
    (appended without saving them: a rebuild now makes other tables)."""
    from ledger.model.events import HandVoided
    from replay.demo.series import generate_series, write_series

    db = tmp_path / "series.duckdb"
    played = generate_series(sessions=6, hands=25, seed=7, plant_errors=True)
    with Ledger(db) as ledger:
        import_paths(ledger, write_series(played, tmp_path / "series"), strict=True,
                     session=None, pn_ledger=None)
        unbuild(ledger.connection)
        rebuild(ledger, jobs=1)
        ledger.append("s06-025", [HandVoided(reason="misdeal", by="Host")], hand_id="s06-025",
                      session="s06")
    return db


@pytest.mark.parametrize("jobs", [1, 2])
def test_killed_before_the_session_tables_leaves_the_tables_as_they_were(
        series: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay tables are made again (emptied first) and then the process dies writing the
    session tables: nothing of the rebuild is kept, the digest still matches the tables, and
    a read finds them behind by the session of the void, not changed outside handledger.
    With two jobs the ranges path (worker processes) is taken."""
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)
    written: list[int] = []

    def dies(ledger: Any, *args: Any, **kwargs: Any) -> None:
        hands = ledger.connection.execute("SELECT count(*) FROM hands").fetchone()[0]
        written.append(hands)  # the replay tables are in (uncommitted) when it dies
        raise Killed

    with Ledger(series) as ledger:
        before = _derived(ledger)
        assert len(before["hands"]) == 150 and not moved(ledger.connection).fresh
        monkeypatch.setattr(projections, "refresh", dies)
        monkeypatch.setattr(audit_tables, "refresh", dies)
        with pytest.raises(Killed):
            rebuild(ledger, jobs=jobs)
        assert written == [150]
    with Ledger(series, read_only=True) as ledger:
        assert _derived(ledger) == before
        plan = moved(ledger.connection)  # behind (one session moved), not mismatched
        assert plan.full is None and len(plan.sessions) == 1
