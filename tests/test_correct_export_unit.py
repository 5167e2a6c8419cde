"""A ``hand_started`` copied from ``export --format jsonl HAND`` to correct a hand played live
in a session whose chip is money keeps the unit the hand is stored in (README "correct": the
export "prints the stored ``hand_started`` to copy"). The export alone writes the session's chip
as the hand's unit (docs/BOOKS.md "A live hand in a session whose chip is money"), and that copy
with one stack changed went in as a change of unit too: ``history`` said ``unit currency none →
USD; unit minor_per_chip 1 → 25`` and the ``hands`` table gave that hand a unit of its own. A unit
other than the session's chip is still a change of unit, as before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.copies import build_ledger, copy_ledger

PLAIN = {"currency": None, "decimals": 0, "minor_per_chip": 1}
UNIT_LINES = ["hand_id   chip_value_minor   currency   decimals",
              "3         1                             0",
              "4         1                             0"]


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def friday(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session friday of 0.25 USD chips; hand 3 started live with Bob's stack typed 15 for
    150, hand 4 beside it (other players), both stored in plain chips."""
    return build_ledger(tmp_path_factory.mktemp("friday") / "t.duckdb", [
        ["session", "open", "friday", "--chip-value", "0.25", "--currency", "USD"],
        *[["buyin", "friday", p, "150"] for p in ("Ann", "Bob", "Cy", "Dee", "Eve")],
        ["hand", "start", "--session", "friday", "--hand", "3", "--game", "NT", "--stakes",
         "1/2", "--seats", "Ann:150,Bob:15,Cy:150", "--button", "Ann"],
        ["hand", "start", "--session", "friday", "--hand", "4", "--game", "NT", "--stakes",
         "1/2", "--seats", "Dee:150,Eve:150", "--button", "Dee"]])


def exported(db: Path, edit: Callable[[dict[str, Any]], None] = lambda e: None) -> str:
    """The ``event`` of ``export --format jsonl 3``'s first line, as a host copies it, with
    ``edit`` made to it."""
    event = json.loads(run(db, "export", "--format", "jsonl", "3").stdout.splitlines()[0])["event"]
    edit(event)
    return json.dumps(event)


def bob_150(event: dict[str, Any]) -> None:
    event["seats"][0]["stack"] = 150


def correction_lines(db: Path) -> list[str]:
    """The lines of ``history 3`` from its first correction on."""
    lines = run(db, "history", "3").stdout.splitlines()
    at = next(k for k, line in enumerate(lines) if " correction by " in line)
    return [line.split("  ", 1)[1].lstrip() if k == 0 else line.strip()
            for k, line in enumerate(lines[at:])]


def test_the_export_writes_the_sessions_chip_the_ledger_stores_plain_chips(friday: Path
                                                                           ) -> None:
    """What the defect came from, kept: the line stands alone in another ledger."""
    assert json.loads(exported(friday))["unit"] == {
        "currency": "USD", "decimals": 0, "minor_per_chip": 25}
    stored = run(friday, "export", "--format", "jsonl").stdout
    assert [json.loads(line)["event"]["unit"] for line in stored.splitlines()
            if '"type":"hand_started"' in line] == [PLAIN, PLAIN]


def test_a_copied_start_with_one_stack_changed_changes_only_that_stack(friday: Path,
                                                                        tmp_path: Path) -> None:
    db = copy_ledger(friday, tmp_path / "t.duckdb")
    result = run(db, "correct", "3", "--replace", "1", exported(db, bob_150),
                 "--reason", "typo", "--by", "Host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "corrected hand 3 (seq 4); start: seat Bob's stack 15 → 150; change in net: none; "
        "by the rules: unchanged\n", "")
    assert correction_lines(db)[1] == (
        "replace seq 1 hand_started 3: seat Bob's stack 15 → 150 (seq 1 was: hand_started 3)")
    lines = run(db, "sql", "select hand_id, chip_value_minor, currency, decimals from hands "
                "order by hand_id").stdout.splitlines()
    assert [lines[0], *lines[2:4]] == UNIT_LINES  # hand 3 in the unit of hand 4, plain chips
    rows = [json.loads(line) for line in run(db, "export", "--format", "jsonl", "3"
                                             ).stdout.splitlines()]
    assert rows[3]["event"]["changes"][0]["event"]["unit"] == PLAIN


def test_it_stores_what_a_hand_written_start_without_unit_stores(friday: Path,
                                                                   tmp_path: Path) -> None:
    """The correction's row, which the hash chain covers, is the same whether the host copied
    the export's unit or wrote no unit at all."""
    copied = copy_ledger(friday, tmp_path / "a.duckdb")
    written = copy_ledger(friday, tmp_path / "b.duckdb")
    assert run(copied, "correct", "3", "--replace", "1", exported(copied, bob_150),
               "--reason", "typo", "--by", "Host").exit_code == 0

    def no_unit(event: dict[str, Any]) -> None:
        bob_150(event)
        del event["unit"]

    assert run(written, "correct", "3", "--replace", "1", exported(written, no_unit),
               "--reason", "typo", "--by", "Host").exit_code == 0
    line = [run(db, "export", "--format", "jsonl", "3").stdout.splitlines()[3]
            for db in (copied, written)]
    assert line[0] == line[1]
    assert correction_lines(copied)[1:] == correction_lines(written)[1:]


def test_the_copy_unchanged_changes_nothing(friday: Path, tmp_path: Path) -> None:
    db = copy_ledger(friday, tmp_path / "t.duckdb")
    result = run(db, "correct", "3", "--replace", "1", exported(db), "--reason", "r",
                 "--by", "Host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "error: hand 3: changes nothing: the hand's events in force would be the same "
               "with this correction (`handledger history 3` lists its corrections); nothing "
               "written\n")


def test_the_same_copy_twice_is_made_already(friday: Path, tmp_path: Path) -> None:
    db = copy_ledger(friday, tmp_path / "t.duckdb")
    assert run(db, "correct", "3", "--replace", "1", exported(db, bob_150), "--reason", "typo",
               "--by", "Host").exit_code == 0
    result = run(db, "correct", "3", "--replace", "1", exported(db, bob_150), "--reason",
                 "typo", "--by", "Host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "error: hand 3: already corrected so: the correction at seq 4 (by Host) made "
               "replace seq 1 hand_started 3; nothing written (`handledger history 3` lists "
               "it)\n")


def test_whatif_of_the_copy_shows_the_stored_unit(friday: Path) -> None:
    result = run(friday, "whatif", "3", "--json", "--replace", "1", exported(friday, bob_150))
    assert result.exit_code == 0
    [change] = json.loads(result.stdout)["changes"]
    assert (change["event"]["unit"], change["event"]["seats"][0]) == (
        PLAIN, {"player": "Bob", "seat": None, "stack": 150})


def test_declare_options_set_on_the_copy_change_no_unit(friday: Path, tmp_path: Path) -> None:
    """The way ``act``'s refusal gives for declaring in a hand started without
    ``--declare-options``: the export's first line with ``options.declare`` set."""
    db = copy_ledger(friday, tmp_path / "t.duckdb")

    def declare(event: dict[str, Any]) -> None:
        event["options"]["declare"] = {"method": "simultaneous"}

    result = run(db, "correct", "3", "--replace", "1", exported(db, declare), "--reason",
                 "declare", "--by", "Host")
    assert (result.exit_code, result.stderr) == (0, "")
    assert correction_lines(db)[1] == (
        "replace seq 1 hand_started 3: option declare none → {'method': 'simultaneous', "
        "'bet_after_declare': False, 'swing_ties': 'not_allowed', 'failed_swing_share_goes_to': "
        "'next_best_in_that_direction', 'no_eligible_winner': 'cards_speak', "
        "'swing_failure_scope': 'per_pot', 'low_method': 'A-5', 'low_qualifier': 'none', "
        "'odd_chip_between_halves': 'high'} (seq 1 was: hand_started 3)")


def test_another_chip_value_is_still_a_change_of_unit(friday: Path, tmp_path: Path) -> None:
    """A unit that is not the session's chip is no copy of the stored one: it goes in as a
    change of the hand's unit, as before, and ``history`` and the ``hands`` table say so."""
    db = copy_ledger(friday, tmp_path / "t.duckdb")

    def chip_50(event: dict[str, Any]) -> None:
        bob_150(event)
        event["unit"]["minor_per_chip"] = 50

    result = run(db, "correct", "3", "--replace", "1", exported(db, chip_50), "--reason",
                 "typo", "--by", "Host")
    assert (result.exit_code, result.stderr) == (0, "")
    assert correction_lines(db)[1] == (
        "replace seq 1 hand_started 3: seat Bob's stack 15 → 150; unit currency none → USD; "
        "unit minor_per_chip 1 → 50 (seq 1 was: hand_started 3)")
    assert run(db, "sql", "select hand_id, chip_value_minor, currency, decimals from hands "
               "where hand_id = '3'").stdout.splitlines()[2] == (
        "3         50                 USD        2")


def test_a_chip_of_a_cent_is_kept_too(tmp_path: Path) -> None:
    """A session of 0.01 USD chips: the export writes USD with 2 decimals, which would also
    have read the hand's amounts as dollars (``state``: ``Bob 4.98``); the copy keeps the
    stored plain chips."""
    db = build_ledger(tmp_path / "t.duckdb", [
        ["session", "open", "fri", "--chip-value", "0.01", "--currency", "USD"],
        ["buyin", "fri", "Ann", "500"], ["buyin", "fri", "Bob", "500"],
        ["hand", "start", "--session", "fri", "--hand", "c1", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:500,Bob:50", "--button", "Ann"]])
    event = json.loads(run(db, "export", "--format", "jsonl", "c1").stdout.splitlines()[0])["event"]
    assert event["unit"] == {"currency": "USD", "decimals": 2, "minor_per_chip": 1}
    event["seats"][0]["stack"] = 500
    result = run(db, "correct", "c1", "--replace", "1", json.dumps(event), "--reason", "typo",
                 "--by", "Host")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "corrected hand c1 (seq 4); start: seat Bob's stack 50 → 500; change in net: none; "
        "by the rules: unchanged\n", "")
    assert [line.strip() for line in run(db, "history", "c1").stdout.splitlines()][-1] == (
        "replace seq 1 hand_started c1: seat Bob's stack 50 → 500 (seq 1 was: hand_started c1)")
    assert run(db, "state", "c1").stdout.splitlines()[3] == "stacks: Bob 498 bet 2, Ann 499 bet 1"
