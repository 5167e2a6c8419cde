"""A busy ledger names the process that holds it as the system names it (ledger/store/
holders.py): the message said "another handledger process (pid N)" when the holder was a
plain Python session with a DuckDB connection."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.model.errors import LedgerBusy
from ledger.store.holders import command_line, holder_words
from ledger.store.store import Ledger

#: A DuckDB connection held by a process whose program is named ``duckholder`` (argv[0]; the
#: interpreter is Python), open until a line comes on its standard input.
HOLD = "import duckdb,sys;c=duckdb.connect(sys.argv[1]);print(1,flush=True);input()"
#: Its command line as a message quotes it: blanks run together, cut at 60 characters.
HOLD_SHOWN = "duckholder -c import duckdb,sys;c=duckdb.connect(sys.argv..."


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen]]:
    path = tmp_path / "held.duckdb"
    Ledger(path).close()
    # a Python started under another name finds its packages by this process's path
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen(["duckholder", "-c", HOLD, str(path)], executable=sys.executable,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "1"
        yield path, proc
    finally:
        proc.kill()
        proc.wait()


def test_a_plain_duckdb_connection_is_named_by_its_command(
        holder: tuple[Path, subprocess.Popen]) -> None:
    path, proc = holder
    for read_only in (False, True):
        with pytest.raises(LedgerBusy) as caught:
            Ledger(path, read_only=read_only)
        assert str(caught.value) == (
            f"ledger {path} is busy: another process (pid {proc.pid}: {HOLD_SHOWN}) is "
            "writing it")
        assert caught.value.who == f"another process (pid {proc.pid}: {HOLD_SHOWN})"


def test_a_python_script_is_named_by_the_script_as_typed(tmp_path: Path) -> None:
    """The ``handledger`` console script runs as ``python …/bin/handledger ARGS``: it is
    shown as ``handledger ARGS``; a short command line whole, blanks run together."""
    script = tmp_path / "handledger"
    script.write_text("print(1, flush=True)\ninput()\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), "--db", "l.duckdb", "import",
                             "big   night.jsonl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "1"  # started
        assert command_line(proc.pid) == "handledger --db l.duckdb import big night.jsonl"
    finally:
        proc.kill()
        proc.wait()


def test_without_the_system_s_word_duckdb_s_is_used() -> None:
    """A pid the system no longer has (the holder ended meanwhile): the executable's name
    from DuckDB's own text; no pid at all: only "another process"."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert command_line(gone.pid) is None
    text = (f'IO Error: Could not set lock on file "/tmp/l.duckdb": Conflicting lock is held in '
            f"/usr/local/bin/python3.12 (PID {gone.pid}). See also https://duckdb.org/docs")
    assert holder_words(text) == f"another process (pid {gone.pid}: python3.12)"
    assert holder_words("IO Error: Could not set lock on file") == "another process"


def test_the_wait_line_names_the_holder(holder: tuple[Path, subprocess.Popen]) -> None:
    """The line a waiting command prints once, and its refusal when the wait runs out."""
    from click.testing import CliRunner

    from cli.main import run

    path, proc = holder
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = run(["--db", str(path), "--wait", "0.2", "show", "h1"])
    assert code == 2 and out.getvalue() == b""
    assert err.getvalue().decode().splitlines() == [
        f"waiting for the ledger {path} (another process (pid {proc.pid}: {HOLD_SHOWN}) is "
        "writing it; --no-wait to fail at once)",
        f"error: ledger {path} is busy: another process (pid {proc.pid}: {HOLD_SHOWN}) is "
        "writing it (waited 0.2 s; --wait SECONDS waits longer)"]
