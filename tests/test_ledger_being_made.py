"""A read during a new ledger's making (ledger/store/making.py): a new ledger's tables are
written into ``<path>.<pid>-<hex>.new`` and linked into place once whole, so for a moment there
is no file at the path while a process (an ``import`` of a new ledger) is making it there. A
read that finds one being made waits for it as for a writer, or, with ``--no-wait``, says in
one line which process makes it; a ``.new`` file of a process that is gone is no ledger being
made. The maker here is a process of its own that holds its ``.new`` file until told to
finish (the ledger linked into place, its ``.new`` gone), as an import stopped there would;
like a command it then waits for a reader that opened the new ledger before it did."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ledger.model.errors import no_ledger
from tests.test_waiting import start, waiting_line

MAKE = """
import os, sys
from ledger.store.store import Ledger
from ledger.store.waiting import configure
configure(60)  # as handledger's commands wait (30 s): a reader may open the ledger first
db = sys.argv[1]
partial = f"{db}.{os.getpid()}-0123abcd.new"
open(partial, "w").close()
print("making", flush=True)
sys.stdin.readline()
Ledger(db).close()
os.unlink(partial)
"""
#: The maker as a message names it: its program, its command line cut at 60 characters.
MAKER_SHOWN = "ledgermaker -c import os, sys from ledger.store.store imp..."


class Maker:
    """A process making the ledger ``db``: its ``.new`` file is there until :meth:`finish`
    makes the ledger (a new, empty one) and removes it."""

    def __init__(self, db: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(["ledgermaker", "-c", MAKE, str(db)],
                                     executable=sys.executable, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.words = f"another process (pid {self.proc.pid}: {MAKER_SHOWN})"
        self.partial = Path(f"{db}.{self.proc.pid}-0123abcd.new")
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "making"

    def finish(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.wait(timeout=60) == 0

    def __enter__(self) -> Maker:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def test_a_read_waits_for_a_ledger_being_made_then_reads_it(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    with Maker(db) as maker:
        readers = [start(db, "--wait", "300", *args) for args in
                   (["balances"], ["sql", "--json", "SELECT count(*) AS n FROM events"])]
        for proc in readers:
            assert waiting_line(proc) == (
                f"waiting for the ledger {db} ({maker.words} is writing it; "
                "--no-wait to fail at once)")
        assert not db.exists() and maker.partial.exists()  # made by the maker, not a reader
        maker.finish()
        done = [proc.communicate(timeout=120) for proc in readers]
    assert [(proc.returncode, err) for proc, (_, err) in zip(readers, done, strict=True)] == [
        (0, "")] * 2
    assert done[1][0].split() == ['[{"n":', "0}]"]  # the new ledger: no event yet
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.duckdb"]


def test_no_wait_says_in_one_line_which_process_makes_it(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    with Maker(db) as maker:
        proc = start(db, "--no-wait", "balances")
        out, err = proc.communicate(timeout=120)
        assert (proc.returncode, out) == (2, "")
        assert err.splitlines() == [
            f"error: ledger {db} is being made: {maker.words} is writing it"]
        assert sorted(p.name for p in tmp_path.iterdir()) == [maker.partial.name]


def test_the_new_file_of_a_process_that_is_gone_is_no_ledger(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    left = tmp_path / f"new.duckdb.{gone.stdout.strip()}-0123abcd.new"  # a kill -9's leftover
    left.touch()
    proc = start(db, "balances")
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (2, "", f"error: {no_ledger(db)}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [left.name]
