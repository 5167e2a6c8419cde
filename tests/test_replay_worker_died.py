"""A replay over ``--jobs`` whose worker process dies (killed, or the machine out of memory)
says so in one line and saves nothing (replay/workers.py), where a pool that lost the work
would wait for ever: over ranges (a first replay of a large ledger) and over chunks."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ledger.model.errors import LedgerError
from ledger.store.store import Ledger
from replay import ranges, replaying
from replay.projections import rebuild
from replay.workers import WORKER_DIED
from tests import worker_dies
from tests.test_replay_ranges import _series


def _tables(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [n for (n,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1"
                                          ).fetchall()]


def _rebuilt(db: Path) -> BaseException | None:
    """What ``rebuild(jobs=2)`` raised, run in a thread: a pool that waits for ever for the
    dead worker's work fails the test instead of hanging the suite."""
    raised: list[BaseException | None] = [None]

    def run() -> None:
        try:
            with Ledger(db) as ledger:
                rebuild(ledger, jobs=2, intact=True)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            raised[0] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(300)
    assert not thread.is_alive(), "the replay waited for the dead worker's work"
    return raised[0]


def _assert_refused(db: Path, before: list[str], raised: Any) -> None:
    assert isinstance(raised, LedgerError)
    assert str(raised) == WORKER_DIED
    assert WORKER_DIED == ("a worker process of the replay ended before handing back its hands"
                           " (killed, or the machine out of memory?): nothing is saved; run it"
                           " again, or with --jobs 1")
    assert _tables(db) == before  # nothing saved: no derived table made
    assert "hands" not in before


def test_a_worker_killed_over_ranges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _series(tmp_path)
    before = _tables(db)
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)  # three ranges of 50 hands
    monkeypatch.setattr(ranges, "replay_range", worker_dies.replay_range)
    _assert_refused(db, before, _rebuilt(db))


def test_a_worker_killed_over_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _series(tmp_path)  # 150 hands: below MIN_HANDS, the chunks of one pass
    before = _tables(db)
    monkeypatch.setattr(replaying, "_CHUNK", 20)  # the second chunk goes to the worker
    monkeypatch.setattr(replaying, "replay_chunk", worker_dies.replay_chunk)
    _assert_refused(db, before, _rebuilt(db))


def test_the_same_replay_with_its_workers_alive(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    db = _series(tmp_path)
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)
    assert _rebuilt(db) is None
    assert "hands" in _tables(db)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (150,)
