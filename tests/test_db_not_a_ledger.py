"""A ``--db`` that is a file but no DuckDB database is refused by every command before DuckDB
opens it (ledger/store/ledgerfile.py): DuckDB opened a ``.csv``, ``.json`` or ``.parquet``
file as a database in memory, so a write said it was done and stored nothing. One line, exit
2, the file byte for byte as it was and nothing beside it; a new ledger named as such a data
file is not made. A DuckDB file under such a name is a ledger as any other."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.test_outputs_not_the_ledger import handledger, md5

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


COMMANDS = [("import", "game.csv"), ("init",), ("session", "open", "fri"),
            ("buyin", "fri", "Ann", "100"), ("verify",), ("audit",), ("balances",),
            ("checkpoint",), ("export",), ("sql", "SELECT 1"), ("report", "site"),
            ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150")]
NOT_OURS = "is not a handledger ledger (not a DuckDB file): nothing done"


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_data_file_as_the_ledger_is_refused_by_every_command(here: Path, args: tuple
                                                               ) -> None:
    shutil.copy(LOG, "game.csv")
    before = md5("game.csv")
    assert handledger("--db", "game.csv", *args) == (2, "", f"error: game.csv {NOT_OURS}\n")
    assert md5("game.csv") == before
    assert os.listdir(here) == ["game.csv"]


def test_a_read_only_data_file_is_refused_as_no_ledger(here: Path) -> None:
    """Not as a read-only ledger (`chmod u+w` would not make it one)."""
    shutil.copy(LOG, "game.csv")
    os.chmod("game.csv", 0o444)
    assert handledger("--db", "game.csv", "import", "game.csv") == (
        2, "", f"error: game.csv {NOT_OURS}\n")
    assert os.listdir(here) == ["game.csv"]


@pytest.mark.parametrize(("name", "text"), [
    ("hands.JSON", '{"a": 1}\n'), ("e.jsonl", '{"a": 1}\n'), ("e.ndjson", '{"a": 1}\n'),
    ("t.tsv", "a\tb\n1\t2\n"), ("g.csv.gz", "not even gzip"), ("empty.csv", "")])
def test_each_data_extension_in_any_case(here: Path, name: str, text: str) -> None:
    Path(name).write_text(text)
    for args in (("import", str(LOG)), ("balances",)):
        assert handledger("--db", name, *args) == (2, "", f"error: {name} {NOT_OURS}\n")
    assert Path(name).read_text() == text
    assert os.listdir(here) == [name]


def test_a_parquet_export_as_the_ledger_is_refused(here: Path) -> None:
    """An export's events file, which DuckDB read as a table: the import said "head does not
    match its last row … run verify"."""
    assert handledger("--db", "l.duckdb", "import", str(LOG))[0] == 0
    assert handledger("--db", "l.duckdb", "export", "--format", "parquet", "pq")[0] == 0
    before = md5("pq/events.parquet")
    line = f"error: pq/events.parquet {NOT_OURS}\n"
    assert handledger("--db", "pq/events.parquet", "import", str(LOG)) == (2, "", line)
    assert handledger("--db", "pq/events.parquet", "verify") == (2, "", line)
    assert md5("pq/events.parquet") == before
    assert "events.parquet.wal" not in os.listdir("pq")


@pytest.mark.parametrize("name", ["new.csv", "NEW.Parquet", "pq/x.jsonl", "g.ndjson",
                                  "t.TSV", "h.json", "c.csv.gz", "p.parquet.zst"])
def test_a_new_ledger_is_never_named_as_a_data_file(here: Path, name: str) -> None:
    os.mkdir("pq")
    suffix = name[name.index(".", name.index("/") + 1 if "/" in name else 0):]
    line = (f"error: {name} cannot be made a ledger: DuckDB reads a file named {suffix} as "
            "data, not as a database: nothing created (name the ledger .duckdb)\n")
    for args in (("init",), ("import", str(LOG)), ("session", "open", "fri")):
        assert handledger("--db", name, *args) == (2, "", line)
    # a read says what it always said of a missing ledger
    assert handledger("--db", name, "audit") == (
        2, "", f"error: no ledger at {name} (`handledger init` creates one, and so do "
               "`handledger import`, `run`, `session open` and `hand start`)\n")
    assert sorted(os.listdir(here)) == ["pq"] and os.listdir("pq") == []


def test_a_ledger_file_under_a_data_name_is_a_ledger(here: Path) -> None:
    """DuckDB opens its own file as a database whatever its name: the header decides."""
    assert handledger("--db", "l.duckdb", "import", str(LOG))[0] == 0
    os.rename("l.duckdb", "books.csv")
    assert handledger("--db", "books.csv", "verify")[0] == 0
    assert handledger("--db", "books.csv", "session", "open", "fri", "--date", "2026-11-27"
                      ) == (0, "session fri opened 2026-11-27: plain chips (no chip value "
                                "or currency)\n", "")
    assert handledger("--db", "books.csv", "buyin", "fri", "Ann", "100")[0] == 0
    code, out, _ = handledger("--db", "books.csv", "session", "list")  # stored in the file
    assert (code, out.splitlines()[-1].split()) == (0, ["fri", "2026-11-27", "0", "hand(s)",
                                                        "1", "buy-in(s)", "open"]), out


def test_another_file_without_duckdbs_header_is_corrupt_or_no_ledger(here: Path) -> None:
    """A file of no data name without DuckDB's mark: a ledger damaged at its start or another
    kind of file; `verify` calls it corrupt (exit 1), every other command refuses it."""
    Path("notes.txt").write_text("Friday: Ann 100, Bob 150\n")
    line = ("ledger notes.txt is corrupt, or not a ledger: not a DuckDB file (no DuckDB "
            "header): nothing done")
    assert handledger("--db", "notes.txt", "verify") == (1, f"corrupt: {line}\n", "")
    for args in (("import", str(LOG)), ("balances",), ("session", "open", "fri")):
        assert handledger("--db", "notes.txt", *args) == (2, "", f"error: {line}\n")
    assert Path("notes.txt").read_text() == "Friday: Ann 100, Bob 150\n"
    assert os.listdir(here) == ["notes.txt"]
