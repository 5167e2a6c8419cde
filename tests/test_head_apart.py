"""``verify`` of a ledger whose recorded head position (``meta``) was edited by hand while its
rows are intact (ledger/store/headcheck.py): it says the head does not match the last row, as
an append's refusal does, instead of blaming an untouched row ("edited: row 9: its hash is not
the recorded head hash") or rows that are all there ("deleted: rows 21..50 are missing").
Rows deleted at the end, the head left as it was, are still named by the walk.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.store.chain import GENESIS
from ledger.store.store import Ledger
from tests.test_append_head import _hash_at, _set_meta
from tests.test_store import hand

ROWS = 20  # h1 at positions 1-10, h2 at 11-20


@pytest.fixture
def two_hands(tmp_path: Path) -> Iterator[Ledger]:
    with Ledger(tmp_path / "l.duckdb") as led:
        led.append("h1", hand("h1"))
        led.append("h2", hand("h2"))
        yield led


@pytest.mark.parametrize("position", [9, 50, 0])
def test_a_head_moved_is_the_head_s_fault(two_hands: Ledger, position: int) -> None:
    last = _hash_at(two_hands, ROWS)[:16]
    _set_meta(two_hands, "head_position", str(position))
    report = two_hands.verify()
    assert (report.ok, report.problem, report.first_bad, report.rows, report.message) == (
        False, "head", ROWS, ROWS, f"the ledger's head (meta) {position}:{last}... does not "
                                   f"match its last row 20:{last}...: rows 1..20 chain intact")


def test_a_head_hash_edited_names_both_what_it_can_be(two_hands: Ledger) -> None:
    """The rows cannot tell a head hash edited from the last row rewritten with its hash made
    again (tests/test_store.py): the walk names the row, and says it may be either."""
    _set_meta(two_hands, "head_hash", GENESIS)
    report = two_hands.verify()
    assert (report.problem, report.first_bad, report.message) == (
        "edited", 20, "row 20 (h2 seq 10): its hash is not the recorded head hash (the row "
                      "rewritten with its hash made again, or the head's hash in meta edited)")


def test_rows_deleted_at_the_end_are_still_named(two_hands: Ledger) -> None:
    two_hands.connection.execute("DELETE FROM events WHERE position > 18")
    report = two_hands.verify()
    assert (report.ok, report.problem, report.first_bad, report.message) == (
        False, "deleted", 19, "rows 19..20 are missing: the chain ends before its head 20")


def test_a_head_moved_over_an_edited_row_is_left_to_the_walk(two_hands: Ledger) -> None:
    """The rows do not chain intact (row 5 edited in place): the walk names the row."""
    _set_meta(two_hands, "head_position", "9")
    two_hands.connection.execute("UPDATE events SET payload = '{}'"
                                 " WHERE position = 5")
    report = two_hands.verify()
    assert (report.ok, report.problem, report.first_bad) == (False, "edited", 5)


def test_verify_says_it_in_one_line(run, db: str) -> None:
    with Ledger(db) as led:
        led.append("h1", hand("h1"))
        last = _hash_at(led, 10)[:16]
        _set_meta(led, "head_position", "4")
    result = run("verify")
    assert (result.exit_code, result.output) == (1, (
        f"broken: the ledger's head (meta) 4:{last}... does not match its last row "
        f"10:{last}...: rows 1..10 chain intact\n"
        "derived tables not checked: the chain is broken\n"))


def test_export_refuses_it_in_the_same_words(run, db: str) -> None:
    with Ledger(db) as led:
        led.append("h1", hand("h1"))
        last = _hash_at(led, 10)[:16]
        _set_meta(led, "head_position", "4")
    result = run("export", "-o", str(Path(db).parent / "h.jsonl"))
    assert (result.exit_code, result.output) == (2, (
        f"error: ledger {db}: broken: the ledger's head (meta) 4:{last}... does not match its "
        f"last row 10:{last}...: rows 1..10 chain intact: nothing exported; run `handledger "
        "verify`, or export with --broken-ok for a copy as it is\n"))
    assert not (Path(db).parent / "h.jsonl").exists()
