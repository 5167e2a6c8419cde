"""A read whose query outgrows DuckDB's memory limit spills into a folder of its own in the
system's temporary directory, never into the working directory (an in-memory database's
``.tmp``) nor beside the ledger (``<ledger>.tmp``), and the folder is gone when the process
ends (ledger/store/duck.py); a write keeps ``<ledger>.tmp``."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from ledger.store.store import Ledger

# a sort of 2 million rows of 32 hex characters under 30 MB on one thread: DuckDB spills
# (a third of the work of 6 million rows under 100 MB on every core, which spilled as well)
_SPILLS = ("SET threads = 1; SET memory_limit = '30MB'; CREATE TEMP TABLE big AS SELECT"
           " range AS i, md5(range::VARCHAR) AS m FROM range(2000000) ORDER BY m")


def _ledger(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    db = folder / "l.duckdb"
    with Ledger(db):  # made, with its tables
        pass
    return db


def _folder(con: object) -> str:
    return con.execute("SELECT current_setting('temp_directory')").fetchone()[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", ["read_only", "overlay"])
def test_a_read_spills_outside_the_users_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 how: str) -> None:
    db = _ledger(tmp_path / "books")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    before = sorted(os.listdir(db.parent)), sorted(os.listdir(work))
    ledger = Ledger(db, read_only=True) if how == "read_only" else Ledger.overlay(db)
    try:
        con = ledger.connection
        folder = _folder(con)
        assert Path(folder).parent == Path(tempfile.gettempdir())
        assert Path(folder).name.startswith(f"handledger-{os.getpid()}-")
        con.execute(_SPILLS)
        assert os.path.isdir(folder)  # it did spill, there
        assert con.execute("SELECT count(*) FROM big").fetchone() == (2_000_000,)
    finally:
        ledger.close()
    assert (sorted(os.listdir(db.parent)), sorted(os.listdir(work))) == before


def test_the_spill_folder_is_gone_when_the_process_ends(tmp_path: Path) -> None:
    script = ("from ledger.store import duck\n"
              "con = duck.connect(':memory:')\n"
              f"con.execute({_SPILLS!r})\n"
              "print(con.execute(\"SELECT current_setting('temp_directory')\").fetchone()[0])\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    folder = done.stdout.strip()
    assert Path(folder).parent == Path(tempfile.gettempdir())
    assert not os.path.exists(folder)
    assert os.listdir(tmp_path) == []


def test_a_write_keeps_its_spill_beside_the_ledger(tmp_path: Path) -> None:
    """The write that may spill (a capped one: a large import) spills beside the ledger;
    after it, the process's folder again."""
    db = _ledger(tmp_path)
    with Ledger(db) as ledger:
        with ledger.transaction(capped=True):
            assert _folder(ledger.connection) == f"{db}.tmp"
        after = _folder(ledger.connection)
        assert Path(after).parent == Path(tempfile.gettempdir())
        assert Path(after).name.startswith(f"handledger-{os.getpid()}-")
