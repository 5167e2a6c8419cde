"""A correction does not move a hand between sessions (README "correct"): a ``--replace 1``
whose ``hand_started`` names another session is refused in one line, by ``correct`` and
``whatif`` alike, naming the hand and the way the host has (a new ledger importing the file
with ``--session``: importing it again here adds nothing, the hand being in the ledger).
Before, it went in with exit 0 and the views disagreed: ``session list`` counted no hand in
the new session while ``balances`` and ``settle`` billed its players there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED
from tests.copies import build_ledger, copy_ledger

RAZZ = SHARED / "text" / "Stars-cash-Razz-USD-0.04-0.08-200911.txt"
HAND = "PokerStars-35874566077"


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def razz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Razz file imported with no session (9 hands), and session home-w9 opened."""
    return build_ledger(tmp_path_factory.mktemp("razz") / "t.duckdb", [
        ["import", str(RAZZ)],
        ["session", "open", "home-w9", "--chip-value", "0.01", "--currency", "USD"]])


def _started(db: Path, session: str | None) -> str:
    first = json.loads(run(db, "export", HAND).stdout.splitlines()[0])["event"]
    first["session"] = session
    return json.dumps(first)


def refusal(now: str) -> str:
    return (f"error: hand {HAND}: replace 1: the hand_started names session {now}, the hand "
            "is of no session: a correction does not move a hand between sessions (their books "
            "would no longer agree), and importing it again with --session adds nothing (it is "
            f"in the ledger already); to have it in {now}, import its file into a new ledger "
            f"(`handledger --db NEW import --session {now} FILE`)\n")


def test_correct_refuses_to_move_a_hand_into_a_session(razz: Path, tmp_path: Path) -> None:
    db = copy_ledger(razz, tmp_path / "t.duckdb")
    before = run(db, "history", HAND).stdout
    result = run(db, "correct", HAND, "--replace", "1", _started(db, "home-w9"),
                 "--reason", "belongs to home-w9", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", refusal("home-w9"))
    assert run(db, "history", HAND).stdout == before
    assert "0 hand(s)" in run(db, "session", "list").stdout
    assert run(db, "balances", "--session", "home-w9").stdout.splitlines()[1:] == []


def test_whatif_refuses_it_in_the_same_words(razz: Path) -> None:
    result = run(razz, "whatif", HAND, "--replace", "1", _started(razz, "home-w9"))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", refusal("home-w9"))


def test_replacing_the_start_by_itself_changes_nothing(razz: Path, tmp_path: Path) -> None:
    db = copy_ledger(razz, tmp_path / "t.duckdb")
    result = run(db, "correct", HAND, "--replace", "1", _started(db, None),
                 "--reason", "r", "--by", "host")
    assert (result.exit_code, result.stderr) == (
        2, f"error: hand {HAND}: changes nothing: the hand's events in force would be the same "
           f"with this correction (`handledger history {HAND}` lists its corrections); nothing "
           "written\n")


def test_a_live_hand_is_pointed_at_void_and_record_it_again(tmp_path: Path) -> None:
    """A hand recorded live holds no file to import: the refusal names voiding it and
    recording it again with ``hand start --session``, which appends only."""
    db = build_ledger(tmp_path / "t.duckdb", [
        ["session", "open", "fri"], ["buyin", "fri", "Ann", "100"],
        ["buyin", "fri", "Bob", "150"],
        ["hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
         "Ann:100,Bob:150", "--button", "Ann"]])
    first = json.loads(run(db, "export", "--format", "jsonl", "h1").stdout.splitlines()[0])
    first["event"]["session"] = "fri"
    result = run(db, "correct", "h1", "--replace", "1", json.dumps(first["event"]),
                 "--reason", "belongs to fri", "--by", "host")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        "error: hand h1: replace 1: the hand_started names session fri, the hand is of no "
        "session: a correction does not move a hand between sessions (their books would no "
        "longer agree), and importing it again with --session adds nothing (it is in the "
        "ledger already); to have it in fri, void it (`handledger void h1 --reason … --by …`) "
        "and record it again there (`handledger hand again h1 --session fri`)\n"))


def test_hand_again_refuses_a_hand_read_from_a_file(razz: Path, tmp_path: Path) -> None:
    """A hand read from a file is its file's: ``hand again`` refuses it, voided or not,
    pointing at the import into a new ledger, nothing written."""
    db = copy_ledger(razz, tmp_path / "t.duckdb")
    assert run(db, "void", HAND, "--reason", "belongs to home-w9", "--by", "host"
               ).exit_code == 0
    before = run(db, "history", HAND).stdout
    result = run(db, "hand", "again", HAND, "--session", "home-w9")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", (
        f"error: hand {HAND} was read from a file in money: its file is the hand; to have it "
        "in a session, import the file into a new ledger (`handledger --db NEW import "
        "--session home-w9 FILE`)\n"))
    assert run(db, "history", HAND).stdout == before
    assert "0 hand(s)" in run(db, "session", "list").stdout
