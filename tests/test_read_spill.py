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


def _spilled_write(ledger: Ledger, hand_id: str) -> None:
    """A capped write (a large import's) of the hand ``hand_id`` during which DuckDB spilled
    beside the ledger, as an import of some 10,000 hands does."""
    from tests.test_store import hand

    with ledger.transaction(capped=True):
        ledger.append(hand_id, hand(hand_id))
        ledger.connection.execute(_SPILLS)
        ledger.connection.execute("DROP TABLE big")


def test_a_write_after_one_that_spilled_beside_the_ledger_is_written(tmp_path: Path) -> None:
    """DuckDB will not move its temporary folder once it spilled there, nor set it again, and
    its refusal inside a transaction aborts it: the next capped write (the second file of
    one import) refused every query ("Current transaction is aborted"). The folder is moved
    outside the transaction, and not at all when it is already there."""
    from tests.test_store import hand

    db = _ledger(tmp_path)
    with Ledger(db) as ledger:
        _spilled_write(ledger, "h1")
        assert os.path.isdir(f"{db}.tmp")  # it did spill, there
        assert _folder(ledger.connection) == f"{db}.tmp"  # not moved back: DuckDB refuses
        with ledger.transaction(capped=True):
            ledger.append("h2", hand("h2"))
        assert ledger.count() == 20
        assert ledger.connection.execute(
            "SELECT count(DISTINCT stream) FROM events").fetchone() == (2,)


def test_a_write_that_spilled_and_lifted_its_cap_before_the_commit_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the indexes are large the cap is lifted before the commit (ledger/store/spill.py);
    that moved the spill folder back inside the transaction, DuckDB refused (it had spilled),
    and the commit of the aborted transaction wrote nothing without a word."""
    from ledger.store import spill

    monkeypatch.setattr(spill, "SMALL_INDEXES", -1)  # every commit lifts the cap first
    db = _ledger(tmp_path)
    with Ledger(db) as ledger:
        _spilled_write(ledger, "h1")
        assert ledger.count() == 10
    with Ledger(db) as ledger:  # on the file
        assert ledger.count() == 10


def test_a_commit_after_an_error_swallowed_in_its_transaction_is_refused(
        tmp_path: Path) -> None:
    """Any DuckDB error aborts the transaction it happens in, and DuckDB's commit then ends
    it as a rollback: a write whose transaction was aborted by an error caught on the way is
    refused by name, never said to be written."""
    import duckdb

    from ledger.model.errors import LedgerError
    from tests.test_store import hand

    db = _ledger(tmp_path)
    with Ledger(db) as ledger:
        with pytest.raises(LedgerError) as caught, ledger.transaction(capped=True):
            ledger.append("h1", hand("h1"))
            with pytest.raises(duckdb.CatalogException):
                ledger.connection.execute("SELECT * FROM no_such_table")
        assert str(caught.value) == (f"ledger {db}: the write was aborted by a database error"
                                     " met on the way; nothing written")
        assert ledger.count() == 0
        with ledger.transaction():  # the ledger goes on
            ledger.append("h1", hand("h1"))
        assert ledger.count() == 10


def test_a_database_error_passed_over_by_a_check_is_raised_inside_a_write(
        tmp_path: Path) -> None:
    """A check that cannot say passes over its LedgerError (a payment's bound, a hand that
    does not replay); one that is a DuckDB error's, met inside a transaction, is raised
    again (DuckDB aborted the transaction at it), and the write rolls back with it."""
    import duckdb

    from ledger.model.errors import LedgerError, MalformedInput
    from tests.test_store import hand

    db = _ledger(tmp_path)
    with Ledger(db) as ledger:
        try:
            ledger.query("SELECT * FROM no_such_table")
        except LedgerError as exc:
            failed = exc
        assert isinstance(failed.__cause__, duckdb.CatalogException)
        ledger.aborted_by(failed)  # outside a transaction: passed over
        with pytest.raises(LedgerError) as caught, ledger.transaction():
            ledger.append("h1", hand("h1"))
            ledger.aborted_by(MalformedInput("not a database error"))  # passed over
            try:
                ledger.query("SELECT * FROM no_such_table")
            except LedgerError as exc:
                ledger.aborted_by(exc)
        assert caught.value.__cause__.__class__ is duckdb.CatalogException
        assert ledger.count() == 0
