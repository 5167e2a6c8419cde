"""Ctrl-C is "Aborted" and exit 130, never a traceback, however a library passes it on.

SIGINT reaches Python while DuckDB runs a statement (DuckDB then raises ``RuntimeError: Query
interrupted``, outside the store's transaction handler when it is a read) or while pydantic
serialises an event (pydantic wraps the KeyboardInterrupt in a ``PydanticSerializationError``):
both were tracebacks and exit 1, found by sending SIGINT at random moments of an import.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel, field_serializer
from pydantic_core import SchemaError

from cli.context import interrupted
from ledger.model.errors import NotFound
from ledger.store.store import Ledger
from tests.copies import copy_ledger
from tests.live_words import DEALT_ANN

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
    # Ctrl-C while a module's first import builds a model's schema: the text pydantic-core
    # gave a command interrupted at a random moment (a traceback and exit 1 before)
    assert interrupted(SchemaError("Error building `default` serializer:\n  SchemaError: Error "
                                   "building `literal` serializer:\n  KeyboardInterrupt: "))
    assert not interrupted(SchemaError("Invalid Schema:\nmodel.schema: Field required"))
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

    def stop(self: Ledger) -> object:
        raise error

    monkeypatch.setattr(Ledger, "_opened", stop)  # the open's first query
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = run(["--db", str(db), "verify"])
    assert (code, err.getvalue().decode().strip(), out.getvalue()) == (130, "Aborted", b"")


def test_sigint_at_random_moments_of_an_import_is_aborted(tmp_path: Path) -> None:
    """Six SIGINTs at seeded moments of a real import (its ledger opening, files read,
    hands written): each exit 130 with "Aborted", after a note naming the files it had
    written when it had (whose events are then the ledger's; when none, the ledger it made
    is gone), or the import done (the signal came after it ended, or DuckDB took it for a
    statement that ended anyway); the chain verifies every time."""
    from replay.demo.series import generate_series, write_series

    folder = tmp_path / "series"
    write_series(generate_series(sessions=10, hands=100, seed=5), folder)
    rng = random.Random(3)
    codes = []
    for t in range(6):
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
            *notes, aborted = [line for line in err.splitlines() if line]  # click's new line
            assert aborted == "Aborted", err
            written = [int(line.rsplit("(", 1)[1].split()[0]) for line in notes[1:]]
            assert all(line.startswith("note: written: ") for line in notes[1:]), err
            if not notes:  # nothing written: the ledger the import made is gone
                assert not db.exists(), err
                continue
            assert notes[0].startswith(f"note: interrupted: {len(written)} file(s) had been "
                                       "written, each whole"), err
        else:
            assert (proc.returncode, err) == (0, ""), err
            assert "imported 1000 hand(s)" in out
            written = [38_177]  # every event of the 10 sessions: a line of their files each
        with Ledger(db, read_only=True) as ledger:
            assert ledger.verify().ok
            assert ledger.count() == sum(written)
    assert codes.count(130) >= 3, codes  # most land while it runs


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


WRONG_PUSH = ROOT / "data" / "dispute" / "wrong-push.phh"
RIGHT_SPLIT = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300",
               "--reason", "main pot to the wrong player", "--by", "floor")
NOT_SAVED = "note: the derived tables were not saved (interrupted): reads compute them in memory"


def _dispute_ledger(db: Path, *more: Path) -> None:
    from cli.main import run

    runner = CliRunner()
    for source in (WRONG_PUSH, *more):
        with runner.isolation() as (_, err, _):
            assert run(["--db", str(db), "import", str(source)]) == 0, err.getvalue()


@pytest.fixture(scope="module")
def dispute_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of the wrong push alone, built once for the module: a test copies it
    (:func:`tests.copies.copy_ledger`) before it writes."""
    db = tmp_path_factory.mktemp("dispute") / "d.duckdb"
    _dispute_ledger(db)
    return db


def _corrections(db: Path) -> int:
    with Ledger(db, read_only=True) as ledger:
        assert ledger.verify().ok
        return sum(e.type == "correction" for e in ledger.read("dispute-1"))


def test_ctrl_c_after_the_correction_is_written_is_not_aborted(tmp_path: Path) -> None:
    """The correction's line is printed once its events are committed; Ctrl-C then (while the
    derived tables of the 600 hands of the ledger are saved, or as the process ends) was
    "Aborted", exit 130, or death by SIGINT, though the correction was in the ledger: now the
    command ends as it would have, at most noting that the tables were not saved."""
    from replay.demo.series import generate_series, write_series

    folder = tmp_path / "series"
    write_series(generate_series(sessions=2, hands=300, seed=5), folder)
    db = tmp_path / "l.duckdb"
    _dispute_ledger(db, folder)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, "--db", str(db), "correct",
                             "dispute-1", *RIGHT_SPLIT], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed after the commit, before the tables are saved
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert line == ("corrected hand dispute-1 (seq 25); change in net: Ann +300, Bob -300; by the "
                    "rules: "
                    "unchanged\n")
    assert (proc.returncode, out, err.strip() in ("", NOT_SAVED)) == (0, "", True), err
    assert _corrections(db) == 1


def test_sigint_at_random_moments_of_a_correction_says_what_happened(
        tmp_path: Path, dispute_ledger: Path) -> None:
    """Six SIGINTs at seeded moments of a real ``correct``: "Aborted", exit 130 and the
    ledger as it was, or the command's line, exit 0 and the correction written; never
    "Aborted" with the correction written, never death by SIGINT."""
    db0 = copy_ledger(dispute_ledger, tmp_path / "start.duckdb")
    args = [sys.executable, "-c", CHILD, "--db", "", "correct", "dispute-1", *RIGHT_SPLIT]
    start = time.monotonic()
    clean = subprocess.run([*args[:4], str(db0), *args[5:]], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    seconds = time.monotonic() - start
    assert (clean.returncode, clean.stderr) == (0, "")
    rng = random.Random(4)
    for t in range(6):
        db = copy_ledger(dispute_ledger, tmp_path / f"c{t}.duckdb")
        proc = subprocess.Popen([*args[:4], str(db), *args[5:]], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.3, 1.1) * seconds)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        written = _corrections(db)
        if written:
            assert (proc.returncode, out) == (0, clean.stdout), (t, err)
            assert err.strip() in ("", NOT_SAVED), err
        else:
            assert (proc.returncode, err.strip(), out) == (130, "Aborted", ""), (t, err)


def test_ctrl_c_at_the_table_prompt_after_a_written_line_is_aborted_at_once(
        tmp_path: Path) -> None:
    """``table`` after a line was written: Ctrl-C while it waits for the next line is
    "Aborted" and 130 at once (an interrupt held since that line's commit was never raised
    by a read of standard input, so the session waited on); the written line stays."""
    from cli.main import run

    db = tmp_path / "t.duckdb"
    with CliRunner().isolation() as (_, err, _):
        assert run(["--db", str(db), "hand", "start", "--hand", "h1", "--game", "NT",
                    "--stakes", "1/2", "--seats", "Ann:200,Bob:150,Cy:300",
                    "--button", "Cy"]) == 0, err.getvalue()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, "--db", str(db), "table", "h1"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write("d dh Ann AsKs\n")
    proc.stdin.flush()
    line = proc.stdout.readline()  # the line's write landed before its output
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=60)  # standard input still open: only the interrupt ends it
    finally:
        proc.kill()  # (done already, unless the interrupt was lost)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdin.close()
    assert (code, err.strip(), out) == (130, "Aborted", ""), err
    assert line == DEALT_ANN
    with Ledger(db, read_only=True) as ledger:
        assert [(e.seq, e.type) for e in ledger.read("h1")][-1] == (4, "cards_dealt")


#: A write whose commit meets SIGINT (sent to the process by the commit itself, as Ctrl-C
#: would land mid-commit: Python runs the handler before DuckDB commits), then a second write.
COMMIT_CUT = """
import os, signal, sys
import duckdb
from cli.main import hold_interrupts
from ledger.model import events as ev
from ledger.store.store import Ledger

signal.signal(signal.SIGINT, signal.default_int_handler)
hold_interrupts()
ledger = Ledger(sys.argv[1])

class Cut:
    def __init__(self, con):
        self.con = con
    def __getattr__(self, name):
        return getattr(self.con, name)
    def commit(self):
        os.kill(os.getpid(), signal.SIGINT)
        return self.con.commit()

con = ledger._con
ledger._con = Cut(con)
event = ev.SessionOpened(session="s1")
print("first", ledger.append("session:s1", [event], expected_seq=0), flush=True)
ledger._con = con
try:
    ledger.append("session:s2", [ev.SessionOpened(session="s2")], expected_seq=0)
except KeyboardInterrupt:
    print("second stopped", flush=True)

class Fails(Cut):
    def commit(self):
        os.kill(os.getpid(), signal.SIGINT)
        raise duckdb.IOException("the disk is full")

ledger._con = Fails(con)
try:
    ledger.append("session:s3", [ev.SessionOpened(session="s3")], expected_seq=0)
except KeyboardInterrupt as exc:
    print("third aborted:", exc.__cause__, flush=True)
ledger._con = con
ledger.close()
"""


def test_sigint_during_the_commit_is_held_and_stops_the_next_write(tmp_path: Path) -> None:
    """SIGINT that lands while the commit runs (the write marked as landing before the commit
    starts, so no moment between the commit and the mark raises it): the write stands and
    returns its position; the next write is stopped before it begins, writing nothing. A
    commit that fails with an interrupt held is the interrupt (nothing was written)."""
    db = tmp_path / "c.duckdb"
    done = subprocess.run([sys.executable, "-c", COMMIT_CUT, str(db)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "first [1]\nsecond stopped\nthird aborted: the disk is full\n", "")
    with Ledger(db, read_only=True) as ledger:
        assert ledger.verify().ok
        assert [e.type for e in ledger.read("session:s1")] == ["session_opened"]
        for stream in ("session:s2", "session:s3"):
            with pytest.raises(NotFound):
                ledger.read(stream)


def test_an_interrupt_python_could_not_raise_is_held_until_the_write(
        tmp_path: Path, dispute_ledger: Path) -> None:
    """A Ctrl-C that came inside compiled code (pydantic-core compiling a pattern, a
    finaliser) reaches ``sys.unraisablehook``, not the command: the console script's hook
    holds it, and the correction's transaction raises it before anything is written
    ("Aborted", 130), instead of "Exception ignored … KeyboardInterrupt" and a write."""
    from types import SimpleNamespace

    from cli import entry
    from cli.main import run
    from ledger.store import landing

    db = copy_ledger(dispute_ledger, tmp_path / "d.duckdb")
    landing.configure(True)
    try:
        entry._lost_interrupt(SimpleNamespace(exc_value=KeyboardInterrupt()))
        with CliRunner().isolation() as (out, err, _):
            code = run(["--db", str(db), "correct", "dispute-1", *RIGHT_SPLIT])
        assert (code, err.getvalue().strip(), out.getvalue()) == (130, b"Aborted", b"")
    finally:
        landing.configure()
    assert _corrections(db) == 0
    with CliRunner().isolation() as (_, err, _):  # nothing is held any more
        assert run(["--db", str(db), "correct", "dispute-1", *RIGHT_SPLIT]) == 0, err.getvalue()
    assert _corrections(db) == 1


def _sigint_ignored(pid: int) -> bool:
    """Whether process ``pid`` ignores SIGINT (its ``SigIgn`` mask in /proc): a replay's
    worker does once it has started (:func:`replay.workers.worker_start`)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # gone meanwhile
        return False
    ignored = next(line.split()[1] for line in status.splitlines()
                   if line.startswith("SigIgn:"))
    return bool(int(ignored, 16) & (1 << (signal.SIGINT - 1)))


def _workers(pid: int) -> list[int]:
    """The worker processes process ``pid`` has spawned (not multiprocessing's resource
    tracker, which ignores SIGINT from its start)."""
    try:
        children = [int(c) for task in Path(f"/proc/{pid}/task").iterdir()
                    for c in (task / "children").read_text().split()]
        return [c for c in children
                if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
    except OSError:  # a thread or a child gone meanwhile: look again
        return []


def test_ctrl_c_of_a_replay_with_workers_is_aborted_alone(tmp_path: Path) -> None:
    """Ctrl-C in a terminal sends SIGINT to the command's whole process group, its worker
    processes too: each worker printed "Process SpawnProcess-1:" and a traceback of the
    interrupt under the replay's "Aborted". The signal is sent once a worker has started
    (it then ignores SIGINT, which /proc shows): "Aborted", exit 130, nothing else, and
    the ledger as it was."""
    from cli.main import run
    from replay.demo.series import generate_series, write_series

    folder = tmp_path / "series"
    write_series(generate_series(sessions=10, hands=300, seed=5), folder)
    db = tmp_path / "r.duckdb"
    with CliRunner().isolation() as (_, err, _):
        assert run(["--db", str(db), "import", "--jobs", "1", str(folder)]) == 0, err.getvalue()
    with Ledger(db, read_only=True) as ledger:
        head = ledger.head()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, "--db", str(db), "replay",
                             "--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        while proc.poll() is None and not any(_sigint_ignored(c) for c in _workers(proc.pid)):
            time.sleep(0.01)  # until a worker has started
        os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: the whole group
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert (proc.returncode, err.strip()) == (130, "Aborted"), err
    with Ledger(db, read_only=True) as ledger:
        assert ledger.verify().ok
        assert ledger.head() == head
