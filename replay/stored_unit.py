"""A replacement ``hand_started`` copied from ``export --format jsonl HAND`` kept in the unit
the hand is stored in.

A hand played live in a session whose chip is money (``hand start --session``) stores plain
chips, the session's; its JSON-lines export alone writes the session's chip as its ``unit``
(a 0.25 USD chip: ``{"currency": "USD", "minor_per_chip": 25}``) so that the file stands
alone in another ledger (docs/BOOKS.md "A live hand in a session whose chip is money").
That line copied into ``correct --replace 1`` or ``whatif --replace 1`` (a
stack typed wrong, ``options.declare`` set) says the same unit as the stored one: the
replacement is given the stored unit before it is compared or stored, so ``history``, the
derived tables and the hash chain see no change of unit. A unit other than the session's
chip stays as typed, a change of the hand's unit as before (docs/CORRECTIONS.md "A start
copied from the export, in a session whose chip is money").
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev


def export_chip(ledger: Any, started: Any) -> ev.Unit | None:
    """The :class:`~ledger.model.events.Unit` the JSON-lines export of one hand writes in
    place of the unit of ``started`` (its stored ``hand_started``): its session's chip
    (:func:`replay.ingest.export.session_chip`) when it names no currency and its session
    is opened with a chip of money; None otherwise (the export writes the unit as stored)."""
    if getattr(started, "type", None) != "hand_started" or started.session is None:
        return None
    if started.unit.currency is not None:
        return None
    from replay.ingest.export import session_chip

    return session_chip(ledger, started.session)


def in_stored_unit(held: Any, new: Any, chip: ev.Unit | None) -> Any:
    """``new``, the event a change puts in, with the unit of ``held`` (the hand's
    ``hand_started`` in force before the change) when ``new`` is a ``hand_started`` whose
    unit is exactly ``chip`` (:func:`export_chip` of the hand) and ``held`` names no
    currency: the export's unit of the stored hand, the same chips. ``new`` itself
    otherwise (another unit is a change of the hand's unit, shown and checked as one)."""
    if (chip is None or getattr(new, "type", None) != "hand_started"
            or getattr(held, "type", None) != "hand_started"
            or held.unit.currency is not None or new.unit != chip):
        return new
    return new.model_copy(update={"unit": held.unit})
