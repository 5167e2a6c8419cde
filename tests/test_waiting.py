"""Readers wait for a writer: real processes on one ledger file.

DuckDB lets one process write a file or many read it, and refuses a conflicting open at once.
A command waits instead, a bounded time (``--wait``, 30 s by default), with one line on stderr
once it starts waiting; ``--no-wait`` (or ``$HANDLEDGER_NO_WAIT``) fails at once with one line.
The holder is either a process that keeps the file open (for writing, or only reading, as
``verify`` does) until told to let go, or a real ``handledger import``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.test_books_refusals import run

EXE = str(Path(sys.executable).with_name("handledger"))
HOLD = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "read")
print("held", flush=True)
sys.stdin.readline()
con.close()
"""
#: Every kind of reader of the issue, and a live action.
READERS = [["show", "s01-001"], ["state", "s01-001"], ["history", "s01-001"],
           ["session", "list"], ["export", "s01-001"], ["sql", "SELECT count(*) AS n FROM hands"],
           ["verify"], ["balances"]]


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of the first series session, its derived tables as of its head."""
    db = tmp_path_factory.mktemp("wait") / "w.duckdb"
    for args in (["import", str(DATA / "series" / "s01.jsonl")], ["audit"]):
        assert run(db, *args).exit_code in (0, 1)  # in this process: the waiters are processes
    return db


#: The holder as a busy ledger's message names it: its program (``duckholder``, a Python
#: interpreter started under that name), its command line cut at 60 characters.
HOLDER_SHOWN = "duckholder -c import sys, duckdb con = duckdb.connect(sys..."


class Holder:
    """A process that holds ``db`` open (for writing, or ``read``) until :meth:`release`; a
    plain DuckDB connection, no handledger (:data:`HOLDER_SHOWN`)."""

    def __init__(self, db: Path, mode: str = "write") -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(["duckholder", "-c", HOLD, str(db), mode],
                                     executable=sys.executable, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.words = f"another process (pid {self.proc.pid}: {HOLDER_SHOWN})"
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "held"

    def release(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.wait(timeout=60) == 0

    def __enter__(self) -> Holder:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start(db: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([EXE, "--db", str(db), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def waiting_line(proc: subprocess.Popen) -> str:
    """The first line the process writes on stderr (blocks until it writes it)."""
    assert proc.stderr is not None
    return proc.stderr.readline().rstrip("\n")


def test_readers_wait_for_a_writer_then_go_through(ledger: Path) -> None:
    with Holder(ledger) as holder:
        readers = [start(ledger, *args) for args in READERS]
        for proc in readers:  # each says once what it waits for, and keeps waiting
            assert waiting_line(proc) == (
                f"waiting for the ledger {ledger} ({holder.words} is writing it; "
                "--no-wait to fail at once)")
        assert all(proc.poll() is None for proc in readers)
        holder.release()
        for args, proc in zip(READERS, readers, strict=True):
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, (args, err)
            assert err == "", (args, err)  # nothing more than the one waiting line
            assert out.strip(), args


def test_a_live_act_waits_for_a_writer_then_is_recorded(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    setup = [["hand", "start", "--hand", "h", "--game", "NT", "--stakes", "1/2", "--seats",
              "Ann:200,Bob:150", "--button", "Bob"], ["act", "h", "d dh Ann AsKs"]]
    for args in setup:
        assert run(db, *args).exit_code == 0
    with Holder(db) as holder:
        proc = start(db, "act", "h", "d dh Bob QhQd")
        assert waiting_line(proc).startswith(f"waiting for the ledger {db} ")
        holder.release()
        out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, ""), err
    assert out.startswith("5 cards_dealt; Bob to act")


@pytest.mark.parametrize("how", ["option", "env"])
def test_no_wait_fails_at_once_with_one_line(ledger: Path, how: str) -> None:
    env = {**os.environ, "HANDLEDGER_NO_WAIT": "1"} if how == "env" else None
    flag = ["--no-wait"] if how == "option" else []
    with Holder(ledger) as holder:
        for args in (["state", "s01-001"], ["session", "open", "late"]):
            proc = start(ledger, *flag, *args, env=env)
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 2 and out == ""
            assert err.splitlines() == [
                f"error: ledger {ledger} is busy: {holder.words} is writing it"]
        assert holder.proc.poll() is None  # refused while the holder still held it


def test_a_wait_that_runs_out_is_one_line(ledger: Path) -> None:
    with Holder(ledger) as holder:
        proc = start(ledger, "--wait", "0.5", "show", "s01-001")
        out, err = proc.communicate(timeout=120)
        assert holder.proc.poll() is None
    assert proc.returncode == 2 and out == ""
    assert err.splitlines() == [
        f"waiting for the ledger {ledger} ({holder.words} is writing it; "
        "--no-wait to fail at once)",
        f"error: ledger {ledger} is busy: {holder.words} "
        "is writing it (waited 0.5 s; --wait SECONDS waits longer)"]


def test_while_a_process_only_reads_readers_go_through_and_writers_are_told_so(
        ledger: Path) -> None:
    """The message named a writer when the holder was a read-only ``verify``."""
    with Holder(ledger, "read") as holder:
        shown = subprocess.run([EXE, "--db", str(ledger), "show", "s01-001"],
                               capture_output=True, text=True, timeout=120)
        assert (shown.returncode, shown.stderr) == (0, "")  # readers share the file
        refused = subprocess.run([EXE, "--db", str(ledger), "--no-wait", "session", "open",
                                  "late"], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2
        assert refused.stderr.splitlines() == [
            f"error: ledger {ledger} is busy: {holder.words} is reading it, which keeps "
            "writers out until it ends"]
        writer = start(ledger, "session", "open", "late")
        assert waiting_line(writer) == (
            f"waiting for the ledger {ledger} ({holder.words} is reading it; "
            "--no-wait to fail at once)")
        holder.release()
        out, err = writer.communicate(timeout=120)
    assert (writer.returncode, err) == (0, ""), err
    assert out.startswith("session late opened")


def test_readers_and_a_live_act_during_a_real_import_go_through_when_it_ends(tmp_path: Path
                                                                           ) -> None:
    """``state`` was refused 19 times in a row during an import, and so were ``show`` and a
    live ``act``: each waits for the import now, then reads the ledger it left (all of it)
    or records the action after it."""
    db = tmp_path / "i.duckdb"
    folder = tmp_path / "series"
    folder.mkdir()
    for k, path in enumerate(sorted((DATA / "series").glob("*.jsonl"))):
        text = path.read_text(encoding="utf-8").replace('"s0', f'"c{k}s0')
        (folder / f"c{k:02d}-{path.name}").write_text(text, encoding="utf-8")
    for args in (["hand", "start", "--hand", "live", "--game", "NT", "--stakes", "1/2",
                  "--seats", "Ann:200,Bob:150", "--button", "Bob"],
                 ["act", "live", "d dh Ann AsKs"]):
        assert run(db, *args).exit_code == 0
    importer = start(db, "import", str(folder))
    wal = Path(f"{db}.wal")
    while importer.poll() is None and not (wal.exists() and wal.stat().st_size):
        time.sleep(0.01)  # until the import has begun writing (3 files: seconds more)
    # The import stopped (SIGSTOP) while it holds the file, as a slow machine would keep it
    # there, until every command has said that it waits: however soon the import would have
    # ended, each finds it holding the ledger; then it goes on (SIGCONT) and ends.
    importer.send_signal(signal.SIGSTOP)
    commands = [["sql", "--json", "SELECT count(*) AS n FROM events"], ["show", "c0s01-001"],
                ["state", "c2s03-030"], ["act", "live", "d dh Bob QhQd"]]
    # --wait 300: the import takes seconds, longer on a loaded machine (the default is 30 s)
    command = f"handledger --db {db} import {folder}"  # as shown: cut at 60 characters
    shown = command if len(command) <= 60 else f"{command[:57]}..."
    try:
        waiting = [start(db, "--wait", "300", *args) for args in commands]
        for proc in waiting:
            assert waiting_line(proc) == (
                f"waiting for the ledger {db} (another process (pid {importer.pid}: {shown}) "
                "is writing it; --no-wait to fail at once)")
        assert importer.poll() is None  # they wait while the import goes on
    finally:
        importer.send_signal(signal.SIGCONT)
    done = [proc.communicate(timeout=300) for proc in waiting]
    assert importer.wait(timeout=300) == 0
    assert [(proc.returncode, err) for proc, (_, err) in zip(waiting, done, strict=True)] == [
        (0, "")] * len(commands)
    (counted, _), (shown, _), (state, _), (acted, _) = done
    imported = 4 + sum(  # the live hand's 4 rows, then the series
        len(p.read_text(encoding="utf-8").splitlines()) for p in (DATA / "series").glob("*.jsonl"))
    after = run(db, "sql", "--json",
                "SELECT count(*) AS n, max(position) FILTER (stream = 'live') AS act FROM events")
    assert json.loads(after.output) == [{"n": imported + 1, "act": imported + 1}]
    assert json.loads(counted) in ([{"n": imported}], [{"n": imported + 1}])  # all of the
    # import (and the act too when it went through first)
    assert shown.startswith("hand c0s01-001: NT") and state.startswith("hand c2s03-030: ")
    assert acted.startswith("5 cards_dealt; Bob to act")


def test_a_command_that_waits_twice_says_so_once() -> None:
    """``sql`` opens the ledger, finds its tables behind and opens it again: when a writer
    came in between, it waited twice and said so twice."""
    from ledger.model.errors import LedgerBusy
    from ledger.store import waiting as w

    said: list[str] = []
    w.configure(5, said.append)
    try:
        for _ in range(2):
            tries = iter([LedgerBusy("busy"), LedgerBusy("busy", holder="reader"), None])

            def attempt(tries=tries) -> str:  # noqa: ANN001
                exc = next(tries)
                if exc is not None:
                    raise exc
                return "opened"

            assert w.waiting("l.duckdb", attempt) == "opened"
        assert said == ["waiting for the ledger l.duckdb (another process is writing it; "
                        "--no-wait to fail at once)"]
    finally:
        w.configure()
