"""Reading hands back from the ledger for the commands.

:func:`hand_streams` streams: it reads the events table page by page in position order and
hands out each hand as soon as its rows are complete, so memory stays flat in the number of
hands. A hand stream is one block of consecutive positions unless rows were appended to it
later (a correction, a void, a hand dealt live between other appends); those few "scattered"
hands are found with one query first and read whole when their first row comes by.
:func:`raw_hand_streams` gives the stored JSON payloads without parsing them (for worker
processes); :func:`parse_events` parses one hand's payloads in one call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ledger.errors import NotFound
from ledger.events import AnyEvent, parse_event

_PAGE = 20_000  # rows per query
_EVENTS = TypeAdapter(list[AnyEvent])

#: ``(hand id, session, [payload JSON, …])`` in ledger order.
RawHand = tuple[str, str | None, list[str]]


def parse_events(payloads: Sequence[str]) -> list[Any]:
    """The typed events of stored payloads (canonical JSON), parsed in one call.

    Raises:
        MalformedEvent: a payload that is not a valid event (as :func:`parse_event` says).
    """
    try:
        return _EVENTS.validate_json("[" + ",".join(payloads) + "]")
    except ValidationError:
        return [parse_event(p) for p in payloads]  # raises the first one's MalformedEvent


def hand_streams(ledger: Any, only: Sequence[str] = ()) -> Iterator[tuple[str, str | None, list]]:
    """``(hand id, session, events)`` of every hand in ledger order (the order of each hand's
    first row), or only those named; streamed (see the module doc).

    Raises:
        NotFound: a named hand is not in the ledger.
        MalformedEvent: a stored payload that does not parse.
    """
    if only:
        for hand in only:
            events, session = load_hand(ledger, hand)
            yield hand, session, events
        return
    for hand, session, payloads in raw_hand_streams(ledger):
        yield hand, session, parse_events(payloads)


def raw_hand_streams(ledger: Any) -> Iterator[RawHand]:
    """Every hand of the ledger as ``(hand id, session, payloads)`` in ledger order,
    streamed page by page (see the module doc)."""
    con = ledger.connection
    scattered = {
        hand
        for (hand,) in con.execute(
            "SELECT stream FROM events WHERE hand_id IS NOT NULL GROUP BY stream"
            " HAVING max(position) - min(position) + 1 <> count(*)"
        ).fetchall()
    }
    done: set[str] = set()
    current: str | None = None
    session: str | None = None
    payloads: list[str] = []
    after = 0
    while True:
        rows = con.execute(
            "SELECT position, hand_id, session, payload FROM events"
            f" WHERE position > $1 ORDER BY position LIMIT {_PAGE}",
            [after],
        ).fetchall()
        for _, hand, row_session, payload in rows:
            if hand is None:
                continue
            if hand == current:
                payloads.append(payload)
                continue
            if current is not None:
                yield current, session, payloads
                current, payloads = None, []
            if hand in scattered:
                if hand not in done:  # its first row: read it whole
                    done.add(hand)
                    yield hand, row_session, [r.payload for r in ledger.read(hand)]
                continue
            current, session, payloads = hand, row_session, [payload]
        if len(rows) < _PAGE:
            break
        after = rows[-1][0]
    if current is not None:
        yield current, session, payloads


def load_hand(ledger: Any, hand: str) -> tuple[list, str | None]:
    """The stored events of one hand and its session.

    Raises:
        NotFound: no such hand.
    """
    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise NotFound(f"no hand {hand!r} in the ledger", hand=hand)
    return [r.event for r in rows], rows[0].session
