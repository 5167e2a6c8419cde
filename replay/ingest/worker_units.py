"""The hands a parallel import stored as read that the one-process import counts otherwise.

Worker processes (:mod:`replay.ingest.parallel`) read each part of a file alone, so a hand
never meets the chip of its session, which the file may open in another part. The
one-process import counts each hand of a session in that session's chips
(:func:`replay.ingest.session_units.in_session_units`): a hand in 0.25 USD chips in a session of
0.05 USD chips has every amount made five times as many chips, a hand in another currency
(or a tournament's, or in money in a session of plain chips) is refused; and it notes a hand
in whole units of a currency in a session neither the file nor the ledger opens
(:func:`replay.ingest.old_units.whole_unit_notes`). :func:`first_counted_otherwise` finds
such a hand among the rows the workers appended, and the file then goes through the
one-process import (docs/BOOKS.md "Chips of different values").
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev


def first_counted_otherwise(ledger: Any, since: int) -> str | None:
    """The first hand (by position) stored after ledger position ``since`` (a parallel
    import's rows, inside its transaction, the ledger holding none of their sessions before
    them) that names a session and that the one-process import would convert into that
    session's chips, refuse in it, or note as whole units of a session nobody opens; None
    when every such hand is stored as the one-process import stores it. The session's chip
    is the last ``session_opened`` or ``session_changed`` of the rows, as
    :func:`replay.ingest.session_units.in_session_units` takes the file's. Two queries, grouped
    by session and unit (a hand of plain chips, not a tournament's, never counts otherwise).
    """
    from replay.ingest.old_units import whole_units
    from replay.ingest.units import SessionUnit, kept_as_is

    hands = ledger.query(
        "SELECT session, CAST(payload->'unit' AS VARCHAR),"
        " payload->'source'->>'tournament' IS NOT NULL, arg_min(hand_id, position),"
        " min(position) FROM events WHERE position > $1 AND type = 'hand_started'"
        " AND session IS NOT NULL AND (payload->'unit'->>'currency' IS NOT NULL"
        " OR payload->'source'->>'tournament' IS NOT NULL) GROUP BY ALL", [since])
    if not hands:
        return None
    chips: dict[str, SessionUnit] = {}
    for session, payload in ledger.query(
            "SELECT session, CAST(payload AS VARCHAR) FROM events WHERE position > $1 AND"
            " type IN ('session_opened', 'session_changed') ORDER BY position", [since]):
        e = ev.parse_event(payload)
        chips[session] = SessionUnit(e.chip_value_minor, e.currency, e.decimals)
    found = []
    for session, unit_json, tournament, hand, position in hands:
        unit = ev.Unit.model_validate_json(unit_json)
        chip = chips.get(session)
        if (not kept_as_is(unit, chip, tournament=tournament)
                or (chip is None and whole_units(unit))):
            found.append((position, hand))
    return min(found)[1] if found else None
