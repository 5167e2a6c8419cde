"""Verdicts from verified events only: a derived table edited outside handledger (as one can with
DuckDB directly) never makes the audit clean or the settle-up wrong: the read sees that the
tables no longer match their digest and rebuilds them from the hash-chained events."""

from __future__ import annotations

import json

import duckdb

from tests.conftest import DATA


def test_edited_derived_tables_cannot_make_the_audit_clean_or_settle_wrong(run, db) -> None:  # noqa: ANN001
    assert run("import", str(DATA)).exit_code == 0
    audit = run("audit")
    assert audit.exit_code == 1 and "audit: 2 discrepancies" in audit.output
    settle = run("settle", "--session", "s01", "--json").output
    balances = run("balances", "--session", "s01", "--json").output
    con = duckdb.connect(db)  # the edit of the issue: findings deleted, two nets moved
    con.execute("DELETE FROM audit_discrepancies")
    con.execute("UPDATE session_players SET net = net + 500, cash_out = cash_out + 500"
                " WHERE session = 's01' AND player = 'Alice'")
    con.execute("UPDATE session_players SET net = net - 500, cash_out = cash_out - 500"
                " WHERE session = 's01' AND player = 'Bob'")
    con.close()
    assert run("verify").exit_code == 0  # the events are untouched
    again = run("audit")
    assert again.exit_code == 1 and "audit: 2 discrepancies" in again.output
    assert run("settle", "--session", "s01", "--json").output == settle
    assert run("balances", "--session", "s01", "--json").output == balances
    alice = next(p for p in json.loads(balances)["players"] if p["player"] == "Alice")
    assert alice["net"] == 1100


def test_an_emptied_table_is_rebuilt(run, db) -> None:  # noqa: ANN001
    assert run("import", str(DATA / "series")).exit_code == 0
    before = run("standings", "--json").output
    con = duckdb.connect(db)
    con.execute("DELETE FROM results")
    con.close()
    assert run("standings", "--json").output == before
    rows = json.loads(run("sql", "--json", "SELECT count(*) AS n FROM results").output)
    assert rows[0]["n"] > 0
