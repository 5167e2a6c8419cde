"""``sql`` has a row cap and a time limit (``--max-rows``, default 10,000; ``--timeout``, default
30 s): ``SELECT * FROM range(5000000)`` printed every row and took 1.5 GB; it prints the first
10,000 and says it stopped, in the memory of what it prints.

``sql`` runs in this process as the console script runs it (:func:`tests.console_run.
handledger`), except where the process is the point: its peak memory, its time limit (a
regression would run for ever: a real process is stopped by its own) and a second process
holding the ledger."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.console_run import handledger
from tests.copies import copy_ledger
from tests.test_books_refusals import run

EXE = str(Path(sys.executable).with_name("handledger"))
#: Runs a command and prints its peak resident memory (kB) on the last line of stderr.
PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(done.returncode)
"""
STOPPED = "note: stopped at {n} rows: there are more; --max-rows N prints more"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One session of the series, imported (its derived tables saved) and audited; a test
    that writes copies it."""
    db = tmp_path_factory.mktemp("sql") / "q.duckdb"
    assert run(db, "import", str(DATA / "series" / "s01.jsonl")).exit_code == 0
    assert run(db, "audit").exit_code == 0
    return db


def sql(db: Path, *args: str) -> subprocess.CompletedProcess:
    """``handledger --db DB sql ARGS`` run in this process as the console script runs it."""
    code, out, err = handledger(db, "sql", *args)
    return subprocess.CompletedProcess(["sql", *args], code, out, err)


def sql_process(db: Path, *args: str) -> subprocess.CompletedProcess:
    """``handledger --db DB sql ARGS`` as a real process."""
    return subprocess.run([EXE, "--db", str(db), "sql", *args], capture_output=True, text=True,
                          timeout=300)


def test_five_million_rows_print_the_first_10000_in_little_memory(db: Path) -> None:
    done = subprocess.run([sys.executable, "-c", PEAK, EXE, "--db", str(db), "sql",
                           "SELECT * FROM range(5000000)"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0
    *warnings, peak_kb = done.stderr.splitlines()
    assert warnings == []
    lines = done.stdout.splitlines()
    assert lines[-1] == STOPPED.format(n=10000)
    assert [line.strip() for line in lines[2:-1]] == [str(i) for i in range(10000)]
    assert int(peak_kb) < 400_000, f"peak {int(peak_kb) // 1024} MB"


def test_max_rows_caps_json_and_csv_and_says_so_on_stderr(db: Path) -> None:
    done = sql(db, "--json", "--max-rows", "3", "SELECT * FROM range(10) t(i)")
    assert done.returncode == 0
    assert json.loads(done.stdout) == [{"i": 0}, {"i": 1}, {"i": 2}]
    assert done.stderr.splitlines() == [STOPPED.format(n=3)]
    done = sql(db, "--csv", "--max-rows", "10", "SELECT * FROM range(10) t(i)")
    assert done.stdout.splitlines() == ["i", *map(str, range(10))] and done.stderr == ""


def test_a_result_within_the_cap_is_printed_whole(db: Path) -> None:
    done = sql(db, "SELECT count(*) AS n FROM hands")
    assert done.returncode == 0 and done.stdout.splitlines()[-2:] == ["30", "(1 row)"]


def test_the_time_limit_interrupts_duckdb_with_one_line(db: Path) -> None:
    done = sql_process(db, "--timeout", "0.5", "SELECT count(*) FROM range(10000000000000)")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "error: sql: stopped after 0.5 s, its time limit (--timeout SECONDS allows more)"]


def test_no_time_limit_and_a_bad_statement(db: Path) -> None:
    assert sql(db, "--timeout", "0", "SELECT 7 AS x").stdout.splitlines()[-2:] == ["7", "(1 row)"]
    done = sql(db, "SELECT (")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        'error: sql: Parser Error: syntax error at or near "(" LINE 1: SELECT ( ^']


def test_a_statement_that_is_not_a_read_is_named_as_typed(db: Path) -> None:
    """DuckDB calls INSTALL a LOAD statement; the line names the word the user typed."""
    for text, word in (("install httpfs", "INSTALL"), ("  attach 'x.db'", "ATTACH"),
                       ("insert into hands values (1)", "INSERT"), ("PRAGMA version", "PRAGMA")):
        done = sql(db, text)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"error: sql is read-only: {word} is not allowed (use SELECT)\n"


def test_sql_opens_the_ledger_read_only_even_when_its_tables_are_behind(db: Path,
                                                                         tmp_path: Path
                                                                         ) -> None:
    """``sql`` never opens the ledger for writing: derived tables behind the ledger (a live
    hand started after the import saved them) are computed in memory, so the file is left
    byte for byte as it was and a process that holds the ledger open for reading does not
    keep ``sql`` waiting; `replay` saves them."""
    import hashlib

    from tests.test_waiting import Holder

    db = copy_ledger(db, tmp_path / "behind.duckdb")  # s01 imported: its tables saved
    assert run(db, "hand", "start", "--hand", "live", "--game", "NT", "--stakes", "1/2",
               "--seats", "Ann:200,Bob:150", "--button", "Bob").exit_code == 0
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    query = "SELECT count(*) AS n, sum(net) AS net FROM player_session_results"
    behind = sql(db, "--json", query)
    assert (behind.returncode, behind.stderr) == (0, "")
    # five players of s01 and the live hand's two, whose blinds (1 + 2) lie in its open pot
    assert json.loads(behind.stdout) == [{"n": 7, "net": -3}]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not Path(f"{db}.wal").exists()
    with Holder(db, "read"):
        beside = subprocess.run([EXE, "--db", str(db), "--no-wait", "sql", "--json", query],
                                capture_output=True, text=True, timeout=300)
    assert (beside.returncode, beside.stderr, beside.stdout) == (0, "", behind.stdout)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    audit = run(db, "audit")
    assert audit.exit_code == 1 and "(in_progress 1)" in audit.stdout  # the live hand
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # a read: never saves them
    assert run(db, "replay").exit_code == 0
    assert hashlib.sha256(db.read_bytes()).hexdigest() != before  # the rebuild saves them
    assert sql(db, "--json", query).stdout == behind.stdout


def test_json_writes_null_for_what_json_cannot_hold(db: Path) -> None:
    """NaN and ±Infinity (``Infinity`` is no JSON) are ``null``, inside a list too."""
    done = sql(db, "SELECT 0.0/0 AS x, 1.0/0 AS y, -1.0/0 AS z, [1.0/0, 2.5] AS l", "--json")
    assert (done.returncode, done.stdout, done.stderr) == (
        0, '[{"x": null, "y": null, "z": null, "l": [null, 2.5]}]\n', "")


def test_json_refuses_a_column_named_twice_and_json_with_csv(db: Path) -> None:
    done = sql(db, "SELECT 1 AS a, 2 AS a", "--json")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: sql --json: the column a is named twice, and a JSON object keeps one "
               "of them: name each apart (SELECT 1 AS a, 2 AS a_2)\n")
    done = sql(db, "SELECT 1 AS a", "--json", "--csv")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "error: sql takes --json or --csv, not both\n")
    assert sql(db, "SELECT 1 AS a, 2 AS a", "--csv").stdout == "a,a\n1,2\n"


def test_lists_structs_and_json_columns_have_one_form(db: Path) -> None:
    """In CSV a list or struct is its compact JSON text, as ``export --format csv`` writes
    it; in JSON a JSON column is nested, never a string of JSON inside the JSON."""
    query = ("SELECT ['Ann', 'Zoë'] AS l, {'x': 1, 'y': ['a']} AS s, "
             "'{\"Ann\": 4}'::JSON AS j, 'x' AS t")
    done = sql(db, query, "--csv")
    assert (done.returncode, done.stdout, done.stderr) == (
        0, 'l,s,j,t\n"[""Ann"",""Zoë""]","{""x"":1,""y"":[""a""]}","{""Ann"": 4}",x\n', "")
    done = sql(db, query, "--json")
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (
        0, [{"l": ["Ann", "Zoë"], "s": {"x": 1, "y": ["a"]}, "j": {"Ann": 4}, "t": "x"}], "")
    done = sql(db, "SELECT payload FROM events WHERE type = 'session_opened' LIMIT 1", "--json")
    assert isinstance(json.loads(done.stdout)[0]["payload"], dict)
