"""A session named in another case than the one the ledger holds (``Friday`` for
``friday``): the refusal names the session meant, never a ``session open`` that would itself
be refused beside it; nothing is written."""

from __future__ import annotations

from pathlib import Path

import duckdb
from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED

_MEANT = ("error: no session 'Friday'; did you mean 'friday'? (session names are kept as "
          "typed: a new session named like it would be refused)\n")


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def head(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]


def test_a_write_to_the_session_in_another_case_names_the_one_meant(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    assert run(db, "session", "open", "friday", "--date", "2026-11-27").exit_code == 0
    assert run(db, "buyin", "friday", "Bob", "50").exit_code == 0
    before = head(db)
    for args in (("buyin", "Friday", "Ann", "10"), ("cashout", "Friday", "Bob", "50"),
                 ("pay", "Friday", "Bob", "Ann", "1"), ("session", "close", "Friday"),
                 ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                  "Ann:100,Bob:100", "--button", "Ann", "--session", "Friday")):
        result = run(db, *args)
        assert (result.exit_code, result.output) == (2, _MEANT), args
    # what it suggested before is refused: the name is taken in another case
    result = run(db, "session", "open", "Friday")
    assert result.exit_code == 2
    assert result.output.startswith("error: session name 'Friday' is new but 'friday' is a "
                                    "session of the ledger: did you mean friday?")
    assert head(db) == before
    # a name like none still says how to open it
    result = run(db, "buyin", "fri", "Ann", "10")
    assert (result.exit_code, result.output) == (
        2, "error: no session 'fri' (open it with `handledger session open fri`); did you "
        "mean 'friday'?\n")


def test_a_read_of_the_session_in_another_case_names_the_one_meant(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    assert run(db, "session", "open", "friday", "--date", "2026-11-27").exit_code == 0
    assert run(db, "buyin", "friday", "Bob", "50").exit_code == 0
    for args in (("balances", "--session", "Friday"), ("settle", "--session", "Friday"),
                 ("audit", "--session", "Friday"),
                 ("chart", str(tmp_path / "c.png"), "--session", "Friday")):
        result = run(db, *args)
        assert (result.exit_code, result.output) == (
            2, "error: no session 'Friday' in the ledger; did you mean 'friday'?\n"), args
    assert not (tmp_path / "c.png").exists()
    result = run(db, "balances", "--session", "zzz")
    assert (result.exit_code, result.output) == (2, "error: no session 'zzz' in the ledger\n")


def test_a_log_imported_into_the_session_in_another_case_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    log = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
    assert run(db, "import", "--session", "friday", str(log)).exit_code == 0
    before = head(db)
    result = run(db, "import", "--session", "Friday", str(log))
    assert result.exit_code == 2
    assert result.output.startswith("error: session name 'Friday' is new but 'friday' is a "
                                    "session of the ledger: did you mean friday?")
    assert head(db) == before  # no second session beside it


def _alike(file: str, counts: str) -> str:
    return (f"error: {file}: session name 'Friday' is new but 'friday' is a session of the "
            "ledger, named alike: did you mean friday? (import the file with --session friday,"
            f" or fix its session field); nothing of it was imported ({counts})\n")


def test_a_file_that_would_open_a_session_named_alike_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    assert run(db, "session", "open", "friday", "--date", "2026-11-27").exit_code == 0
    before = head(db)
    # a PokerNow log takes its session from its file name
    log = tmp_path / "Friday.csv"
    log.write_bytes((SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv").read_bytes())
    result = CliRunner().invoke(cli, ["--db", str(db), "import", str(log)])
    assert result.exit_code == 2
    assert result.stderr == _alike(str(log), "52 hand(s), 39 session row(s)")
    assert head(db) == before
    # JSON lines naming the session in another case: its rows, and a hand of it
    assert run(db, "buyin", "friday", "Ann", "100").exit_code == 0
    assert run(db, "buyin", "friday", "Bob", "100").exit_code == 0
    assert run(db, "hand", "start", "--hand", "f1", "--session", "friday", "--game", "NT",
               "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann").exit_code == 0
    out = tmp_path / "k.jsonl"
    assert run(db, "export", "--format", "jsonl", "-o", str(out)).exit_code == 0
    renamed = tmp_path / "K.jsonl"
    renamed.write_text(out.read_text(encoding="utf-8").replace('"friday"', '"Friday"'),
                       encoding="utf-8")
    other = tmp_path / "o.duckdb"
    assert run(other, "session", "open", "friday").exit_code == 0
    before = head(other)
    result = CliRunner().invoke(cli, ["--db", str(other), "import", str(renamed)])
    assert result.exit_code == 2
    assert result.stderr == _alike(f"{renamed}:1", "1 hand(s), 3 session row(s)")
    assert head(other) == before
    # imported into the session meant, it goes in
    assert run(db, "import", "--session", "friday", str(log)).exit_code == 0
