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
