"""Ctrl-C is "Aborted" and exit 130, never a traceback, however a library passes it on.

SIGINT reaches Python while DuckDB runs a statement (DuckDB then raises ``RuntimeError: Query
interrupted``, outside the store's transaction handler when it is a read) or while pydantic
serialises an event (pydantic wraps the KeyboardInterrupt in a ``PydanticSerializationError``):
both were tracebacks and exit 1, found by sending SIGINT at random moments of an import.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel, field_serializer

from cli.context import interrupted
from ledger.store.store import Ledger

ROOT = Path(__file__).resolve().parents[1]
#: The command as a terminal runs it: a test started in the background (or by a runner's
#: worker) may inherit SIGINT ignored, which Python keeps; the child restores the handler.
CHILD = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
         "from cli.entry import main; main()")


class _Event(BaseModel):
    chips: int

    @field_serializer("chips")
    def _stop(self, value: int) -> int:
        raise KeyboardInterrupt


def _wrapped_by_pydantic() -> Exception:
    try:
        _Event(chips=1).model_dump_json()
    except Exception as exc:  # noqa: BLE001 - the error pydantic makes of the interrupt
        return exc
    raise AssertionError("pydantic serialised it")


def _raised_while(handling: BaseException) -> Exception:
    try:
        try:
            raise handling
        except BaseException:  # noqa: BLE001
            raise ValueError("cleaning up") from None
    except ValueError as exc:
        return exc


def test_interrupted_knows_ctrl_c_in_each_form_and_nothing_else() -> None:
    assert interrupted(KeyboardInterrupt())
    assert interrupted(RuntimeError("Query interrupted"))
    assert interrupted(_wrapped_by_pydantic())
    assert interrupted(_raised_while(KeyboardInterrupt()))
    try:
        raise ValueError("x") from KeyboardInterrupt()
    except ValueError as exc:
        assert interrupted(exc)
    assert not interrupted(RuntimeError("a database error"))
    assert not interrupted(ValueError("Error serializing to JSON: a bad value"))
    assert not interrupted(_raised_while(ValueError("inner")))


@pytest.mark.parametrize("form", ["duckdb", "pydantic"])
def test_a_command_interrupted_inside_a_library_is_aborted(tmp_path: Path, form: str,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from cli.main import run

    db = tmp_path / "i.duckdb"
    Ledger(db).close()
    error = RuntimeError("Query interrupted") if form == "duckdb" else _wrapped_by_pydantic()

    def stop(self: Ledger) -> set[str]:
        raise error

    monkeypatch.setattr(Ledger, "_tables", stop)
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = run(["--db", str(db), "verify"])
    assert (code, err.getvalue().decode().strip(), out.getvalue()) == (130, "Aborted", b"")


def test_sigint_at_random_moments_of_an_import_is_aborted(tmp_path: Path) -> None:
    """Eight SIGINTs at seeded moments of a real import (its ledger opening, files read,
    hands written): each exit 130 with "Aborted" and nothing more, or the import done (the
    signal came after it ended, or DuckDB took it for a statement that ended anyway); the
    chain verifies every time."""
    from replay.demo.series import generate_series, write_series

    folder = tmp_path / "series"
    write_series(generate_series(sessions=10, hands=100, seed=5), folder)
    rng = random.Random(3)
    codes = []
    for t in range(8):
        db = tmp_path / f"c{t}.duckdb"
        proc = subprocess.Popen([sys.executable, "-c", CHILD,
                                 "--db", str(db), "import", "--jobs", "1", str(folder)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 1.0))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        codes.append(proc.returncode)
        if proc.returncode == 130:
            assert err.strip() == "Aborted", err  # after click's new line
        else:
            assert (proc.returncode, err) == (0, ""), err
            assert "imported 1000 hand(s)" in out
        with Ledger(db, read_only=True) as ledger:
            assert ledger.verify().ok
    assert codes.count(130) >= 4, codes  # most land while it runs


def test_a_new_ledger_cut_short_leaves_no_file_without_its_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while an import created its ledger left a DuckDB file without tables, which
    ``verify`` then called corrupt: the tables are made in a file beside it, linked in
    whole."""
    import os

    db = tmp_path / "new.duckdb"

    def cut(*args: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(os, "link", cut)
        with pytest.raises(KeyboardInterrupt):
            Ledger(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no ledger, nothing left over
    with Ledger(db) as ledger:
        assert ledger.verify().ok
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.duckdb"]
    with Ledger(db, read_only=True) as ledger:
        assert ledger.verify().ok


def test_ctrl_c_while_the_command_loads_is_aborted_not_a_traceback(tmp_path: Path) -> None:
    """SIGINT that lands while the console script imports the command's modules (click,
    pydantic, DuckDB) is "Aborted" and 130 like a Ctrl-C later: here the interrupt is raised
    by an import hook when ``click`` is first imported, as the signal would raise it there."""
    child = ("import sys\n"
             "class Stop:\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'click':\n"
             "            raise KeyboardInterrupt\n"
             "sys.meta_path.insert(0, Stop())\n"
             "sys.argv = ['handledger', '--db', sys.argv[1], 'verify']\n"
             "from cli.entry import main\n"
             "main()\n")
    done = subprocess.run([sys.executable, "-c", child, str(tmp_path / "l.duckdb")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert (done.returncode, done.stderr, done.stdout) == (130, "Aborted\n", "")
    assert not (tmp_path / "l.duckdb").exists()
