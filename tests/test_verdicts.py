"""Verdicts from verified events only: a derived table edited outside handledger (as one can with
DuckDB directly) never makes the audit clean or the settle-up wrong: the read sees that the
tables no longer match their digest, says so, and computes them from the hash-chained events in
memory, leaving the file as it is (a read never writes); `replay` saves them again; `verify`
names the first row that differs. (An editor who recomputes the digest too fools the reads,
not `verify`: tests/test_verify_books.py.)"""

from __future__ import annotations

import json

import duckdb

from tests.conftest import DATA


def test_edited_derived_tables_cannot_make_the_audit_clean_or_settle_wrong(run, db) -> None:  # noqa: ANN001
    assert run("import", str(DATA)).exit_code == 0
    audit = run("audit")
    assert audit.exit_code == 1 and "audit: 2 discrepancies" in audit.output
    settle = run("settle", "--session", "s01", "--json").stdout
    balances = run("balances", "--session", "s01", "--json").stdout
    con = duckdb.connect(db)  # the edit of the issue: findings deleted, two nets moved
    con.execute("DELETE FROM audit_discrepancies")
    con.execute("UPDATE session_players SET net = net + 500, cash_out = cash_out + 500"
                " WHERE session = 's01' AND player = 'Alice'")
    con.execute("UPDATE session_players SET net = net - 500, cash_out = cash_out - 500"
                " WHERE session = 's01' AND player = 'Bob'")
    con.close()
    verified = run("verify")  # the events are untouched; the tables fail their digest
    assert verified.exit_code == 1
    assert verified.stdout.splitlines()[0].startswith("ok: ")
    assert verified.stdout.splitlines()[1:] == [
        "derived tables FAIL their own check: the derived tables were changed outside "
        "handledger",
        "derived tables FAIL: derived table session_players differs from the events' replay "
        "at the row session 's01', player 'Alice', buy_in 60: cash_out 1660 stored, 1160 by "
        "the replay; net 1600 stored, 1100 by the replay"]
    with open(db, "rb") as f:
        edited = f.read()
    again = run("audit")
    assert again.exit_code == 1 and "audit: 2 discrepancies" in again.stdout
    assert again.stderr == ("note: the derived tables were changed outside handledger: the "
                            "derived tables are computed in memory for this read (`handledger "
                            "replay` saves them)\n")
    assert run("settle", "--session", "s01", "--json").stdout == settle
    assert run("balances", "--session", "s01", "--json").stdout == balances
    alice = next(p for p in json.loads(balances)["players"] if p["player"] == "Alice")
    assert alice["net"] == 1100
    with open(db, "rb") as f:
        assert f.read() == edited  # the reads left the file as they found it
    assert run("replay").exit_code == 1  # rebuilt and saved: the two payout discrepancies
    assert run("audit").stderr == ""


def test_an_emptied_table_is_rebuilt(run, db) -> None:  # noqa: ANN001
    assert run("import", str(DATA / "series")).exit_code == 0
    before = run("standings", "--json").output
    con = duckdb.connect(db)
    con.execute("DELETE FROM results")
    con.close()
    after = run("standings", "--json")
    assert after.stdout == before and "changed outside handledger" in after.stderr
    rows = json.loads(run("sql", "--json", "SELECT count(*) AS n FROM results").stdout)
    assert rows[0]["n"] > 0


POINTER = ("computed from the ledger's events, not its saved tables (the hash chain not "
           "checked: `handledger verify`)")


def test_settle_and_balances_over_tables_not_of_the_events_point_to_verify(run, db) -> None:  # noqa: ANN001
    assert run("import", str(DATA / "series" / "s01.jsonl")).exit_code == 0
    for read in (("settle", "--session", "s01"), ("balances", "--session", "s01")):
        assert POINTER not in run(*read).stdout
    with duckdb.connect(db) as con:  # a row deleted under the saved tables: the last one
        con.execute("DELETE FROM events WHERE position = (SELECT max(position) FROM events)")
    for read in (("settle", "--session", "s01"), ("balances", "--session", "s01")):
        done = run(*read)
        assert done.exit_code == 0, read
        assert done.stderr == ("note: the derived tables are not of this ledger: the derived "
                               "tables are computed in memory for this read (`handledger "
                               "replay` saves them)\n"), read
        assert done.stdout.splitlines()[-1] == POINTER, read
    assert POINTER not in run("settle", "--session", "s01", "--json").stdout
