"""The tails an append continues (Ledger._tails, ledger/store/appended.py): streams appended
earlier in the open transaction, by any append path, are continued from the tail that append
wrote; streams stored before it from the table; a repeated or skipped seq is refused as
before, inside a transaction as outside."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

import ledger.store.store as store
from ledger.model.errors import DuplicateEvent, LedgerError, MalformedEvent
from ledger.model.events import HandEnded, SessionOpened
from ledger.store.chain import prepare_batch
from ledger.store.columns import prepare_columns
from ledger.store.store import Ledger
from tests.test_store import hand


@pytest.fixture
def led() -> Iterator[Ledger]:
    with Ledger.memory() as ledger:
        ledger.append("h1", hand("h1", "s"))  # positions 1-10, seqs 1-10
        yield ledger


def _columns(stream: str, events: list, expected: int, session: str | None = "s") -> object:
    batch = prepare_batch(stream, events, stream, session, None)
    batch.expected_seq = expected
    return prepare_columns([batch], datetime(2026, 1, 1))


def _seqs(led: Ledger) -> list[tuple[str, int, int, str | None]]:
    return [tuple(row) for row in led.query(  # type: ignore[misc]
        "SELECT stream, seq, position, session FROM events ORDER BY position")]


def test_every_append_path_continues_the_streams_of_the_same_transaction(led: Ledger) -> None:
    with led.transaction():
        led.append("h2", hand("h2", "s")[:3])  # 11-13
        led.append_columns(_columns("h2", hand("h2")[3:6], 3))  # 14-16, seqs 4-6
        led.append_many([("h2", hand("h2")[6:], "h2", None, None)])  # 17-20, seqs 7-10
        led.append_columns(_columns("h1", [HandEnded()], 10))  # 21: h1, stored before
        led.append("h1", [HandEnded()], expected_seq=11)  # 22: h1 seq 12
        assert led._tails(["h1", "h2", "h3"]) == {"h1": (12, "s"), "h2": (10, "s")}
    rows = _seqs(led)
    assert [r[1] for r in rows if r[0] == "h2"] == list(range(1, 11))
    assert [r[2] for r in rows if r[0] == "h2"] == list(range(11, 21))
    assert rows[-2:] == [("h1", 11, 21, "s"), ("h1", 12, 22, "s")]
    assert led.verify().ok


@pytest.mark.parametrize("expected", [1, 3])  # a seq repeated, a seq skipped
def test_a_wrong_seq_is_refused_inside_a_transaction_as_outside(led: Ledger,
                                                                expected: int) -> None:
    with pytest.raises(DuplicateEvent, match=f"stream 'h2' is at seq 2, not {expected}$"), \
            led.transaction():
        led.append("h2", hand("h2", "s")[:2])
        led.append_columns(_columns("h2", [HandEnded()], expected))
    with pytest.raises(DuplicateEvent, match=f"'h2' is at seq 2, not the expected {expected}"), \
            led.transaction():
        led.append("h2", hand("h2", "s")[:2])
        led.append("h2", [HandEnded()], expected_seq=expected)
    with pytest.raises(DuplicateEvent, match="stream 'h1' is at seq 10, not 9$"), \
            led.transaction():
        led.append("h2", hand("h2", "s")[:2])
        led.append_columns(_columns("h1", [HandEnded()], 9))  # stored before it
    assert len(_seqs(led)) == 10  # every one rolled back


def test_a_stream_of_the_transaction_keeps_its_session(led: Ledger) -> None:
    with pytest.raises(MalformedEvent, match="stream 'h2' belongs to session 's'"), \
            led.transaction():
        led.append_columns(_columns("h2", hand("h2", "s")[:2], 0))
        led.append_columns(_columns("h2", [HandEnded()], 2, session="t"))


def test_the_next_transaction_reads_the_committed_tails(led: Ledger) -> None:
    led.append_many([("session:s", [SessionOpened(session="s")], None, "s", None)])
    with led.transaction():
        assert led._tails(["session:s", "h1"]) == {"session:s": (1, "s"), "h1": (10, "s")}
        led.append("h2", hand("h2", "s"))
    assert led._tails(["h2"]) == {"h2": (10, "s")}  # outside any transaction: the table


def test_an_append_failing_after_its_insert_leaves_the_tails_to_the_table(
        led: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    insert = store._insert

    def insert_then_fail(con: object, rows: list) -> None:
        insert(con, rows)  # type: ignore[arg-type]
        raise LedgerError("failed after the insert")

    with pytest.raises(DuplicateEvent), led.transaction():
        led.append("h2", hand("h2", "s")[:2])  # 11-12
        monkeypatch.setattr(store, "_insert", insert_then_fail)
        with pytest.raises(LedgerError, match="after the insert"):
            led.append("h3", hand("h3", "s")[:3])  # its rows stay in the transaction
        monkeypatch.setattr(store, "_insert", insert)
        # h3's rows are found in the table, not taken as a new stream
        assert led._tails(["h2", "h3"]) == {"h2": (2, "s"), "h3": (3, "s")}
        led.append_columns(_columns("h3", [HandEnded()], 0))
    assert len(_seqs(led)) == 10
