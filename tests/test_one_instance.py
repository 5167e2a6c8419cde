"""Every ledger a process opens is attached to one DuckDB instance of the process
(ledger/store/duck.py): what a user sees is as with a DuckDB instance a connection. A file is
released (checkpointed, its lock let go) when its last connection closes, on every failure
path too; a file open in one mode is refused in the other as busy; a command reads its own
ledger's catalog, never another ledger's the process has open; a forked child opens its own
instance.

The ledger: session s1, Ann and Bob buy in for 100 each, hand h1 (NT 1/2, Ann on the button
posts the small blind 1, Bob the big blind 2): Ann folds, Bob wins the 3 in the pot: Ann -1,
Bob +1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.model.errors import LedgerBusy
from ledger.store import duck, shape
from ledger.store.store import Ledger

_WRITE = "import _duckdb, sys; _duckdb.connect(sys.argv[1]).close()"


def _played(run) -> None:  # noqa: ANN001
    assert run("session", "open", "s1").exit_code == 0
    for player in ("Ann", "Bob"):
        assert run("buyin", "s1", player, "100").exit_code == 0
    assert run("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100", "--button", "Ann", "--session", "s1").exit_code == 0
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Ann f", "end"):
        result = run("act", "h1", action)
        assert result.exit_code == 0, (action, result.output)
    assert run("session", "close", "s1").exit_code == 0


def _written_by_another_process(path: str) -> int:
    """The exit code of another process opening ``path`` to write it (1: the lock held)."""
    return subprocess.run([sys.executable, "-c", _WRITE, path], capture_output=True,
                          check=False).returncode


def test_a_file_read_twice_is_shared_and_released_by_its_last_close(run, db: str) -> None:  # noqa: ANN001
    _played(run)
    first = Ledger(db, read_only=True)
    second = Ledger(db, read_only=True)
    assert duck._BY_FILE == {os.path.realpath(db): duck._BY_FILE[os.path.realpath(db)]}
    first.close()
    # h1: hand_started, two forced bets, two cards dealt, Ann's fold, hand_ended
    assert second.connection.execute("SELECT count(*) FROM events WHERE stream = 'h1'"
                                     ).fetchone() == (7,)
    second.close()
    assert duck._BY_FILE == {}
    assert _written_by_another_process(db) == 0
    assert not os.path.exists(f"{db}.wal")


def test_a_write_closed_leaves_no_wal_and_the_file_to_others(run, db: str) -> None:  # noqa: ANN001
    _played(run)
    with Ledger(db) as ledger:
        assert _written_by_another_process(db) == 1
        with ledger.transaction() as con:
            con.execute("CREATE TABLE scratch AS SELECT 1 AS one")
    assert not os.path.exists(f"{db}.wal")
    assert _written_by_another_process(db) == 0


def test_the_other_mode_in_this_process_is_busy(run, db: str) -> None:  # noqa: ANN001
    _played(run)
    with Ledger(db):
        for opening in (lambda: Ledger(db, read_only=True, wait=False),
                        lambda: Ledger.overlay(db, wait=False)):
            with pytest.raises(LedgerBusy) as caught:
                opening()
            assert str(caught.value) == (f"ledger {db} is busy: open in this process in "
                                         "another mode")
    with Ledger(db, read_only=True), pytest.raises(LedgerBusy) as caught:
        Ledger(db, wait=False)
    assert str(caught.value) == f"ledger {db} is busy: open in this process in another mode"
    assert _written_by_another_process(db) == 0


def test_an_open_interrupted_releases_the_file(run, db: str,  # noqa: ANN001
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    _played(run)

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    for read_only in (False, True):
        with monkeypatch.context() as patched:
            patched.setattr(shape, "check_meta", interrupted)
            with pytest.raises(KeyboardInterrupt) as caught:
                Ledger(db, read_only=read_only)
        assert duck._BY_FILE == {}  # detached, though its traceback (kept) holds the ledger
        assert caught.tb is not None
        with Ledger(db, read_only=not read_only) as ledger:  # not busy "in another mode"
            assert ledger.connection.execute("SELECT count(*) FROM events").fetchone() == (11,)
        assert _written_by_another_process(db) == 0


def test_verify_reads_its_own_views_with_another_ledger_open(run, db: str,  # noqa: ANN001
                                                             tmp_path: Path) -> None:
    _played(run)
    other = str(tmp_path / "other.duckdb")
    with Ledger(other) as ledger:
        ledger.connection.execute("CREATE VIEW sessions AS SELECT 1 AS changed")
    with Ledger(other, read_only=True):  # its views beside the ledger verified
        result = run("verify")
    assert result.exit_code == 0, result.output
    # as with no other ledger open (the rows of the tables the replay compares)
    assert result.output.splitlines()[1:] == [
        "derived tables: as the events' replay gives them (15 rows)",
        "checkpoints t.duckdb.checkpoints: 1, the ledger extends every one"]


def test_a_forked_child_opens_an_instance_of_its_own(run, db: str) -> None:  # noqa: ANN001
    _played(run)
    with Ledger(db, read_only=True) as ledger:
        parent = duck._INSTANCE[0][1]
        # the session's four events (opened, two buy-ins, closed) and h1's seven
        assert ledger.connection.execute("SELECT count(*) FROM events").fetchone() == (11,)
    pid = os.fork()
    if pid == 0:  # the child: a write, on its own instance
        code = 1
        try:
            with Ledger(db) as ledger:
                own = duck._INSTANCE[0]
                rows = ledger.connection.execute("SELECT count(*) FROM events").fetchone()
                code = 0 if (own[0], rows) == (os.getpid(), (11,)) and own[1] is not parent \
                    else 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _written_by_another_process(db) == 0


def test_what_a_ledgers_connection_sets_for_the_instance_ends_with_it(tmp_path: Path) -> None:
    """DuckDB's memory limit and checkpoints are the instance's settings: a connection that
    changed them (a test putting checkpoints off, say) changes them for itself only."""
    first, second = str(tmp_path / "a.duckdb"), str(tmp_path / "b.duckdb")
    limit = "SELECT current_setting('memory_limit')"
    with Ledger(first) as ledger:
        before = ledger.connection.execute(limit).fetchone()
        ledger.connection.execute("PRAGMA disable_checkpoint_on_shutdown")
        ledger.connection.execute("SET memory_limit = '30MB'")
        with ledger.transaction() as con:
            con.execute("CREATE TABLE scratch AS SELECT 1 AS one")
    assert os.path.getsize(f"{first}.wal") > 0  # not checkpointed, as that connection asked
    with Ledger(second) as ledger:
        assert ledger.connection.execute(limit).fetchone() == before != ("28.6 MiB",)
        with ledger.transaction() as con:
            con.execute("CREATE TABLE scratch AS SELECT 1 AS one")
    assert not os.path.exists(f"{second}.wal")


def test_a_process_ending_with_its_command_detaches_but_puts_no_setting_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-shot action's process (``duck.ending_with_process``, said by ``act`` and ``state``
    in a process of their own): its ledger is still detached as it closes (checkpointed: no
    ``.wal`` left; its lock let go), but the instance's settings are not put back for a next
    ledger the process will not open: the memory limit its connection set stays. Any other
    process (or a pid of another) puts them back, as the test before shows."""
    monkeypatch.setattr(duck, "_ENDING", [None])
    path = str(tmp_path / "a.duckdb")
    limit = "SELECT current_setting('memory_limit')"
    duck.ending_with_process()
    try:
        with Ledger(path) as ledger:
            ledger.connection.execute("SET memory_limit = '30MB'")
            with ledger.transaction() as con:
                con.execute("CREATE TABLE scratch AS SELECT 1 AS one")
        assert not os.path.exists(f"{path}.wal")
        assert _written_by_another_process(path) == 0
        assert duck._instance().execute(limit).fetchone() == ("28.6 MiB",)
    finally:  # the instance as every other test of this process expects it
        for statement in duck._INSTANCE_SETTINGS:
            duck._instance().execute(statement)
