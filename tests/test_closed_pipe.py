"""A reader that closes the output early (``handledger export | head -1``) is no error: the
command prints nothing on stderr and exits 141, as the shell shows a C tool killed by SIGPIPE
(Python's recipe in the ``signal`` module's documentation: standard output pointed at the null
device before exiting).

The commands whose output meets a pipe or a closed descriptor are real processes; the ledger
is built, and read back, in this process (:func:`tests.console_run.handledger`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console_run import handledger
from tests.copies import copy_ledger

ROOT = Path(__file__).resolve().parents[1]
EXE = str(Path(sys.executable).with_name("handledger"))


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``data/hands`` imported (a test that writes copies it)."""
    db = tmp_path_factory.mktemp("pipe") / "p.duckdb"
    code, _, err = handledger(db, "import", str(ROOT / "data" / "hands"))
    assert code == 0, err
    return db


@pytest.fixture(scope="module")
def hand(ledger: Path) -> str:
    code, out, err = handledger(ledger, "sql", "--csv", "SELECT min(stream) AS hand FROM events")
    assert (code, err) == (0, ""), err
    return out.splitlines()[1]


def _into_closed_pipe(db: Path, *args: str) -> subprocess.CompletedProcess:
    """The command with its standard output a pipe whose reader has already gone (every
    write meets EPIPE: the reader of ``| head -1`` after its line, without the race)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([EXE, "--db", str(db), *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [
    ("export", "--format", "jsonl"),
    ("export", "--format", "phh"),
    ("sql", "SELECT position, stream FROM events ORDER BY position"),
    ("show", "HAND"),
    ("state", "HAND"),  # a live command: its process ends without the interpreter's teardown
    ("replay", "--json"),
    ("balances",),
])
def test_a_closed_pipe_is_exit_141_and_nothing_on_stderr(ledger: Path, hand: str,
                                                         args: tuple[str, ...]) -> None:
    done = _into_closed_pipe(ledger, *(hand if a == "HAND" else a for a in args))
    assert (done.returncode, done.stderr) == (141, "")


def test_the_same_commands_into_an_open_pipe_still_print(ledger: Path) -> None:
    done = subprocess.run([EXE, "--db", str(ledger), "sql", "SELECT 7 AS n", "--csv"],
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "n\n7\n", "")



def test_a_reader_that_goes_mid_write_is_exit_141_when_python_runs_unbuffered(
        ledger: Path) -> None:
    # PYTHONUNBUFFERED: the text layer wrote to the file itself and dropped what a short write
    # left; the reader takes one line of the 200 kB and goes, as ``| head -1`` does
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen([EXE, "--db", str(ledger), "sql", "--max-rows", "10000",
                           "SELECT * FROM events"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        error = proc.stderr.read()
        assert (first[:9], proc.wait(timeout=300), error) == (b"position ", 141, b"")


def test_closed_standard_output_is_one_line_and_nothing_done(ledger: Path, tmp_path: Path) -> None:
    """Started with descriptor 1 closed (``>&-``): one line, exit 2, no traceback, and a write
    command writes nothing (nobody would see what it did)."""
    copy = copy_ledger(ledger, tmp_path / "c.duckdb")
    done = subprocess.run(["sh", "-c", f'"{EXE}" --db "{copy}" session open late >&-'],
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stderr) == (
        2, "error: standard output is closed: nothing was done\n")
    code, sessions, _ = handledger(copy, "session", "list", "--json")
    assert code == 0 and '"late"' not in sessions
