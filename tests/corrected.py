"""The corrections a mixed ledger of the bundled data gets in the tests that compare two ways
of replaying it (worker ranges, Dask partitions) with one process: rows appended after other
hands that join a hand's or a session's first row to them."""

from __future__ import annotations

from typing import Any

from ledger.store.store import Ledger


def correct_the_books(run: Any, db: str) -> None:
    """Through the commands ``run`` runs on the ledger ``db`` (``data/`` imported): the
    dispute's main pot paid to Ann by a correction, the first hand of no session voided, a
    buy-in of s02 amended, one of s03 raised and a payment there retracted, and Alicia made
    Alice in every session."""
    assert run("correct", "dispute-1", "--replace", "23", "pay Bob 100", "--insert-after",
               "23", "pay Ann 300", "--reason", "main pot to Ann", "--by", "floor"
               ).exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        (loose,) = ledger.connection.execute(
            "SELECT min(hand_id) FROM events WHERE session IS NULL AND hand_id <> 'dispute-1'"
        ).fetchone()
    assert run("void", loose, "--reason", "misdeal", "--by", "floor").exit_code == 0
    # s02 and s03 are closed: their buy-ins change with --closed
    assert run("entry", "amend", "s02", "2", "160", "--reason", "miscounted", "--by", "host",
               "--closed").exit_code == 0
    # Carol's first buy-in of s03 counted 200 more, and Alice's payment to Heidi retracted
    # (no buy-in of s03 can be: each is played with by a hand after it, RULES.md §1.1)
    assert run("entry", "amend", "s03", "2", "350", "--reason", "miscounted", "--by", "host",
               "--closed").exit_code == 0
    assert run("entry", "retract", "s03", "21", "--reason", "never", "--by", "host",
               "--closed").exit_code == 0
    # Alice is Alicia in every session, not only in s01 where it is recorded
    assert run("player", "alias", "Alicia", "Alice", "--session", "s01").exit_code == 0
