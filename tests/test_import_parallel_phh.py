"""Importing a ``.phhs`` with worker processes gives the one-process import.

``replay.ingest.parallel`` cuts a ``.phhs`` at its top-level table headers; workers read each
part's tables alone, check and serialise its hands (``replay.ingest.parts``) and this process
links the hash chain. These tests compare the ledgers and reports with the one-process import
(a chunk of hands at a time), row for row, and check that every file the workers cannot read
exactly as the whole file reads (a bad table or an illegal hand anywhere, a table name or a
hand id met twice, a hand already stored, a hand of a session, ``--session``) goes through
the one-process import with nothing of the attempt left behind.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import replay.ingest.parallel as par
from engine.games import PHH_CODES
from ledger.formats.phh.read import read_phh, write_phhs
from ledger.store.chain import canonical_json
from ledger.store.store import Ledger
from replay.build import events_from_phh
from replay.demo.randomhand import random_hand
from replay.ingest.export import phh_text
from replay.ingest.pipeline import import_paths
from tests.test_import_chunks import ILLEGAL, _phhs
from tests.test_import_parallel import _import, _Spy


def _both(tmp_path: Path, files: list[Path], **kw: Any) -> tuple[Any, Any, list[tuple]]:
    """The reports of the import with one process and with two workers, and the rows (the
    same both ways)."""
    one, rows_one = _import(tmp_path / "one.duckdb", files, 1, **kw)
    two, rows_two = _import(tmp_path / "two.duckdb", files, 2, **kw)
    assert rows_two == rows_one
    return one, two, rows_one


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> _Spy:
    """Parts of about 4 kB (a dozen hands), and a spy on the parallel import."""
    monkeypatch.setattr(par, "PHHS_PART_BYTES", 4_000)
    return _Spy(monkeypatch)


def test_workers_store_the_rows_of_one_process(tmp_path: Path, small_parts: _Spy) -> None:
    path = _phhs(tmp_path / "real.phhs", 80)
    one, two, rows = _both(tmp_path, [path])
    assert small_parts.results[0] is not None  # the workers did it
    assert len(par.split(path.read_bytes(), 20, starts=par._PHHS_START)) > 10
    assert two == one and one.imported == 80 and one.events == len(rows) > 1500


@pytest.mark.parametrize("strict", [False, True])
def test_an_illegal_hand_in_the_last_part_leaves_nothing_of_the_attempt(
        tmp_path: Path, small_parts: _Spy, strict: bool) -> None:
    """The workers' parts before it were appended: all rolled back, and the one-process
    import writes the file without that hand (or nothing, ``--strict``), naming it."""
    path = _phhs(tmp_path / "late.phhs", 60, bad={60: ILLEGAL})
    one, two, rows = _both(tmp_path, [path], strict=strict)
    assert small_parts.results == [None]
    assert two == one and "hand chunks-60, action 'p2 cbr 10'" in one.errors[0]
    assert (rows == []) is strict


def test_a_bad_table_a_repeated_table_or_hand_falls_back(tmp_path: Path,
                                                         small_parts: _Spy) -> None:
    """Broken TOML; the same table name in two parts; one hand id twice (``-2``)."""
    broken = _phhs(tmp_path / "broken.phhs", 50, bad={45: "variant = \n"})
    table = _phhs(tmp_path / "table.phhs", 50)
    text = table.read_text()
    table.write_text(text.replace("\n[48]\n", "\n[3]\n"))
    twice = _phhs(tmp_path / "twice.phhs", 50)
    twice.write_text(twice.read_text().replace("hand = 47\n", "hand = 2\n"))
    for path in (broken, table, twice):
        (tmp_path / path.stem).mkdir()
        one, two, _ = _both(tmp_path / path.stem, [path])
        assert two == one
    assert small_parts.results == [None, None, None]


def test_stored_hands_and_a_hand_of_a_session_fall_back(tmp_path: Path,
                                                        small_parts: _Spy) -> None:
    """A second import of the file (every hand known); a hand naming its session (our own
    export): the one-process import, as without workers."""
    path = _phhs(tmp_path / "real.phhs", 40)
    with Ledger(tmp_path / "l.duckdb") as ledger:
        first = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                             jobs=2)
        again = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                             jobs=2)
        assert (first.imported, again.imported, again.known) == (40, 0, 40)
    assert small_parts.results[0] is not None and small_parts.results[1] is None
    session = _phhs(tmp_path / "session.phhs", 40)
    session.write_text(session.read_text().replace("hand = 33\n", "hand = 33\n_session = 'x'\n"))
    one, two, _ = _both(tmp_path, [session])
    assert two == one and small_parts.results[-1] is None


def test_auto_workers_for_a_phhs_of_some_size(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    big, small, one = tmp_path / "b.phhs", tmp_path / "s.phhs", tmp_path / "h.phh"
    big.write_bytes(b"#" * par.AUTO_MIN_PHHS_BYTES)
    small.write_bytes(b"#" * 10)
    one.write_bytes(b"#" * par.AUTO_MIN_PHHS_BYTES)
    monkeypatch.setattr(par.os, "cpu_count", lambda: 2)
    assert par.auto_workers(big, None) == 2 and par.auto_workers(small, None) == 0
    assert par.auto_workers(one, None) == 0 and par.auto_workers(one, 2) == 0
    assert par.auto_workers(small, 3) == 3 and par.auto_workers(big, 1) == 0


_DERIVED = ("hands", "pots", "results", "discrepancies")


def _with_tables(db: Path, path: Path, jobs: int) -> tuple[Any, dict[str, list[str]], dict]:
    """The report of importing ``path`` into a new ledger with the derived tables, each
    hand's stored payloads, and the derived tables' rows."""
    with Ledger(db) as ledger:
        report = import_paths(ledger, [path], strict=True, session=None, pn_ledger=None,
                              jobs=jobs, tables=True)
        assert ledger.verify().ok
        con = ledger.connection
        stored: dict[str, list[str]] = {}
        for hand, payload in con.execute(
                "SELECT hand_id, payload FROM events ORDER BY position").fetchall():
            stored.setdefault(hand, []).append(payload)
        tables = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
                  for t in _DERIVED}
    return report, stored, tables


def test_generated_hands_by_workers_are_each_hands_own_events(tmp_path: Path,
                                                              small_parts: _Spy) -> None:
    """240 generated hands of every PHH game (ids from ``_hand_id``, an action a line) in
    one ``.phhs`` cut in parts of about 4 kB: the workers, which read a part without the
    lines of its keys and actions, store for every hand the events its hand of the file
    gives checked alone (``events_from_phh``, the reading of the whole file), in file order,
    and the same derived tables as the one-process import."""
    rng = random.Random(18)
    played = [random_hand(rng, PHH_CODES[i % len(PHH_CODES)], hand_id=f"g{i}")
              for i in range(240)]
    path = tmp_path / "generated.phhs"
    path.write_text(write_phhs(phh_text(h.events) for h in played), encoding="utf-8")
    report, stored, tables = _with_tables(tmp_path / "two.duckdb", path, jobs=2)
    assert small_parts.results[0] is not None  # the workers did it
    assert len(par.split(path.read_bytes(), 20, starts=par._PHHS_START)) > 10
    per_hand = {h.hand: [canonical_json(e) for e in events_from_phh(h)]
                for h in read_phh(path).check()}
    assert list(stored) == [f"g{i}" for i in range(240)] == list(per_hand)
    assert stored == per_hand
    assert (report.imported, report.events) == (240, sum(map(len, per_hand.values())))
    one, _, one_tables = _with_tables(tmp_path / "one.duckdb", path, jobs=1)
    assert one == report and one_tables == tables
    assert len(tables["hands"]) == 240 and len(tables["results"]) > 240 * 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_append_of_the_file_is_under_the_memory_cap(
        tmp_path: Path, small_parts: _Spy, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """The file's one transaction caps DuckDB's memory (ledger/store/spill.py): after each
    append of a part (workers) or a chunk (one process), the limit is 64 MiB and the few
    blocks of the indexes; once the file is committed, DuckDB's default again."""
    import replay.ingest.chunked as chunked

    monkeypatch.setattr(chunked, "CHUNK_HANDS", 10)
    limits: list[str] = []

    def watched(name: str) -> None:
        real = getattr(Ledger, name)

        def append(self: Ledger, *args: Any) -> Any:
            out = real(self, *args)
            limits.append(self.connection.execute(
                "SELECT current_setting('memory_limit')").fetchone()[0])
            return out

        monkeypatch.setattr(Ledger, name, append)

    watched("append_columns")
    watched("append_many")
    path = _phhs(tmp_path / "real.phhs", 40)
    with Ledger(tmp_path / "l.duckdb") as ledger:
        before = ledger.connection.execute("SELECT current_setting('memory_limit')").fetchone()
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                              jobs=jobs)
        after = ledger.connection.execute("SELECT current_setting('memory_limit')").fetchone()
    assert report.imported == 40 and after == before
    # the workers did it (jobs 2), or one process a chunk at a time (jobs 1)
    assert [r is not None for r in small_parts.results] == [True] * (jobs == 2)
    assert len(limits) >= 4  # parts of about a dozen hands, or chunks of 10
    assert all(limit.endswith(" MiB") and 64 <= float(limit.split()[0]) < 72
               for limit in limits), limits
