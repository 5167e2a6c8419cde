"""A ledger whose own tables were edited by hand (ledger/store/shape.py) is refused in one line
naming what is wrong, by every command, reads and writes alike: ``meta`` emptied or a key
deleted (every command said "ledger has store version ?"), a column added to ``events``
(``verify`` said ok, and an import failed in DuckDB's words: "a row of this appender holds 13
values").
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.conftest import DATA

NOT_OURS = "is not a handledger ledger as it stands: its"


@pytest.fixture
def ledger(run, db: str) -> str:
    assert run("import", str(DATA / "dispute" / "wrong-push.phh")).exit_code == 0
    return db


def _edit(db: str, sql: str) -> None:
    with duckdb.connect(db) as con:
        con.execute(sql)


def _refused_everywhere(run, db: str, line: str) -> None:  # noqa: ANN001
    before = Path(db).read_bytes()
    result = run("verify")
    assert (result.exit_code, result.output) == (1, f"corrupt: {line}\n")
    for args in (("balances",), ("replay", "--hand", "dispute-1"), ("checkpoint",),
                 ("import", str(DATA / "hands" / "five-card-draw.phh")),
                 ("session", "open", "sat")):
        result = run(*args)
        assert (result.exit_code, result.output) == (2, f"error: {line}\n"), args
    assert Path(db).read_bytes() == before


@pytest.mark.parametrize(("sql", "what"), [
    ("DELETE FROM meta", "meta table is empty"),
    ("DELETE FROM meta WHERE key = 'head_hash'", "meta table lacks head_hash"),
    ("DELETE FROM meta WHERE key <> 'head_hash'", "meta table lacks store_version, "
                                                  "head_position"),
])
def test_a_meta_table_edited_by_hand_is_named(run, ledger: str, sql: str, what: str) -> None:
    _edit(ledger, sql)
    _refused_everywhere(run, ledger, (
        f"ledger {ledger} {NOT_OURS} {what} (it holds the store version and the chain's head: "
        "edited outside handledger)"))


@pytest.mark.parametrize("value", ["abc", " 4062 ", "", "-1", "4.0"])
def test_a_head_position_that_is_no_decimal_integer_is_named(run, ledger: str, value: str
                                                             ) -> None:
    """``verify`` said ok and reads went on while writes refused."""
    _edit(ledger, f"UPDATE meta SET value = '{value}' WHERE key = 'head_position'")
    _refused_everywhere(run, ledger, (
        f"ledger {ledger} {NOT_OURS} meta head_position {value!r} is not a decimal integer "
        "(it holds the chain's head: edited outside handledger)"))


@pytest.mark.parametrize(("sql", "what"), [
    ("ALTER TABLE events ADD COLUMN extra INTEGER",
     "events table has the column(s) extra that handledger does not write"),
    ("ALTER TABLE events DROP COLUMN source_key", "events table lacks the column(s) source_key"),
    ("ALTER TABLE events ALTER seq TYPE VARCHAR", "events table column seq is VARCHAR, not "
                                                  "INTEGER"),
])
def test_an_events_table_reshaped_by_hand_is_named(run, ledger: str, sql: str, what: str
                                                   ) -> None:
    _edit(ledger, sql)
    _refused_everywhere(run, ledger, f"ledger {ledger} {NOT_OURS} {what} (edited outside "
                                     "handledger)")
