"""``handledger --threads N`` (``$HANDLEDGER_THREADS``): DuckDB's threads in the process,
kept when a ledger's last connection closes and the instance's other settings are put back;
a command without it is back on DuckDB's own count; a count that is not a whole number from 1
to 1,024 is refused in one line, exit 2, naming where it came from."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.store import duck, threads
from tests.console_run import handledger


def _threads() -> int:
    """DuckDB's threads on this process's instance, read through a connection of its own."""
    con = duck.connect()
    try:
        return int(con.execute("SELECT current_setting('threads')").fetchall()[0][0])
    finally:
        con.close()


@pytest.fixture
def one_thread_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The suite's one thread (tests/conftest.py) put back after the test."""
    monkeypatch.delenv("HANDLEDGER_THREADS")
    yield
    threads.use_threads(1)


def test_the_option_sets_the_threads_and_a_command_without_it_gives_duckdb_s_own(
        tmp_path: Path, one_thread_after: None) -> None:
    db = tmp_path / "t.duckdb"
    code, out, _ = handledger(db, "--threads", "3", "session", "open", "s1")
    assert (code, out.split(" 20")[0]) == (0, "session s1 opened")
    # the ledger was detached as the command ended: the instance's settings were put back,
    # its threads kept
    assert _threads() == 3
    assert handledger(db, "state", "nope") == (
        2, "", f"error: hand nope: ledger {db} holds no such hand\n")
    assert _threads() == os.cpu_count()


def test_the_variable_sets_them_as_the_option_does(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDLEDGER_THREADS", "2")
    try:
        db = tmp_path / "t.duckdb"
        assert handledger(db, "init") == (0, f"ledger {db}: 0 events\n", "")
        assert _threads() == 2
    finally:
        threads.use_threads(1)


@pytest.mark.parametrize(("given", "line"), [
    (["--threads", "0"], "error: Invalid value for '--threads': 0 is not in the range "
                         "1<=x<=1024. (`handledger -h` shows the usage)\n"),
    # a slip of the finger: DuckDB would take minutes to start that many threads
    (["--threads", "100000"], "error: Invalid value for '--threads': 100000 is not in the "
                              "range 1<=x<=1024. (`handledger -h` shows the usage)\n"),
    (["--threads", "two"], "error: Invalid value for '--threads': 'two' is not a valid "
                           "integer range. (`handledger -h` shows the usage)\n"),
])
def test_a_count_that_is_no_thread_is_refused(tmp_path: Path, given: list[str],
                                              line: str) -> None:
    db = tmp_path / "t.duckdb"
    assert handledger(db, *given, "session", "list") == (2, "", line)
    assert not db.exists()


def test_a_bad_variable_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDLEDGER_THREADS", "-1")
    db = tmp_path / "t.duckdb"
    assert handledger(db, "session", "list") == (
        2, "", "error: Invalid value for $HANDLEDGER_THREADS: -1 is not in the range 1<=x<=1024.\n")
    assert not db.exists()


def test_use_threads_refuses_none_at_all_and_too_many() -> None:
    with pytest.raises(ValueError, match="DuckDB's threads are 1 to 1024, not 0"):
        threads.use_threads(0)
    with pytest.raises(ValueError, match="DuckDB's threads are 1 to 1024, not 1025"):
        threads.use_threads(1025)
    assert _threads() == 1  # the suite's, untouched
