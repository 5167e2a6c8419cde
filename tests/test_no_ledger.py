"""Every command that reads a ledger (and every live command, which appends to an existing
one only) refuses a ``--db`` file that does not exist in the same one line, exit status 2,
and creates no file (README, "Reads never write the ledger")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.model.errors import no_ledger
from tests.test_live_table import one_shot, table

READS = [
    ("replay",), ("replay", "--hand", "h1"), ("replay", "--json"), ("show", "h1"),
    ("view", "h1", "-o", "{tmp}/h1.html"), ("report", "{tmp}/site"), ("verify",),
    ("checkpoint", "-o", "{tmp}/cp"), ("export",), ("export", "--format", "phh"),
    ("export", "--format", "csv", "{tmp}/csv"), ("export", "--format", "parquet", "{tmp}/pq"),
    ("audit",), ("balances",), ("standings",), ("settle",), ("sql", "SELECT 1"),
    ("chart", "{tmp}/chart.png"), ("session", "list"), ("history", "h1"),
    ("history", "--session", "s"), ("state", "h1"), ("whatif", "h1", "--delete", "3"),
]
LIVE = [("act", "h1", "p1 cc"), ("undo", "h1", "--by", "Dee"),
        ("correct", "h1", "--delete", "3", "--reason", "r", "--by", "Dee"),
        ("void", "h1", "--reason", "r", "--by", "Dee")]


@pytest.mark.parametrize("command", READS + LIVE, ids=" ".join)
def test_no_ledger_is_one_line_in_the_same_words(tmp_path: Path,
                                                 command: tuple[str, ...]) -> None:
    db = tmp_path / "none.duckdb"
    args = [a.format(tmp=tmp_path) for a in command]
    assert one_shot(db, *args) == (2, "", f"error: {no_ledger(db)}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no ledger, no output file


def test_the_words_say_what_creates_a_ledger(tmp_path: Path) -> None:
    db = tmp_path / "none.duckdb"
    assert str(no_ledger(db)) == (f"no ledger at {db} (`handledger init` creates one, and so "
                                  "do `handledger import`, `run`, `session open` and `hand "
                                  "start`)")
    done = table(db, "h1", ["state"])
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {no_ledger(db)}\n")
    assert not db.exists()


@pytest.mark.parametrize("command", [("init",), ("session", "open", "fri"),
                                     ("hand", "start", "--game", "NT", "--stakes", "1/2",
                                      "--seats", "Ann:100,Bob:100", "--button", "Ann")],
                         ids=" ".join)
def test_a_ledger_in_a_missing_folder_names_the_folder(tmp_path: Path,
                                                      command: tuple[str, ...]) -> None:
    """A command that creates the ledger said DuckDB's "database error: IO Error: Cannot open
    file ...: No such file or directory", nothing of the folder; a read still says no ledger."""
    db = tmp_path / "nodir" / "l.duckdb"
    assert one_shot(db, *command) == (2, "", (
        f"error: no folder {tmp_path / 'nodir'} to create the ledger {db} in (a ledger is made "
        "only inside a folder that exists)\n"))
    assert one_shot(db, "audit") == (2, "", f"error: {no_ledger(db)}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [("session", "open", "fri"),
                                     ("hand", "start", "--game", "NT", "--stakes", "1/2",
                                      "--seats", "Ann:100,Bob:100", "--button", "Ann")],
                         ids=" ".join)
def test_the_commands_the_words_name_do_create_a_ledger(tmp_path: Path,
                                                        command: tuple[str, ...]) -> None:
    """``buyin`` and ``act`` name ``session open`` and ``hand start`` as what creates the
    ledger they lack: each does, where none was."""
    db = tmp_path / "handledger.duckdb"
    assert one_shot(db, "buyin", "fri", "Ann", "100") == (
        2, "", f"error: no ledger at {db} (`handledger init` creates one, and so do `handledger "
        "import`, `run`, `session open` and `hand start`)\n")
    assert not db.exists()
    assert one_shot(db, *command)[0] == 0
    assert db.exists()
