"""What the streaming audit reads of the ledger before the hands: the session rows and where
each session ends (:class:`ledger.audit_stream.StreamAudit`).

Hands themselves are streamed and replayed by the caller (``cli``), which owns the replayer;
the ledger package does not import it.
"""

from __future__ import annotations

from typing import Any

from ledger.errors import LedgerError
from ledger.events import parse_event
from ledger.sessions import SessionRow


def session_rows(ledger: Any) -> list[SessionRow]:
    """Every stored session event (rows of no hand) in ledger order, typed.

    Raises:
        MalformedEvent: a stored payload that does not parse (located at its stream).
    """
    rows = ledger.connection.execute(
        "SELECT position, stream, session, payload FROM events WHERE hand_id IS NULL"
        " ORDER BY position").fetchall()
    out = []
    for position, stream, session, payload in rows:
        try:
            event = parse_event(payload)
        except LedgerError as exc:
            raise exc.located(action=f"{stream} position {position}") from None
        out.append(SessionRow(position, session or "", event))
    return out


def session_ends(ledger: Any) -> dict[str | None, int]:
    """``{session: last ledger position}`` over its session rows and its hands' rows (key
    None: hands of no session)."""
    return dict(ledger.connection.execute(
        "SELECT session, max(position) FROM events GROUP BY session").fetchall())


def head(ledger: Any) -> int:
    """The ledger's last position (0 when empty)."""
    return int(ledger.connection.execute(
        "SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
