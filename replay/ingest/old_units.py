"""Hands of a JSON-lines export that an earlier version of handledger wrote in the unit it
stored them in, read as their session's chips.

Before a hand converted into a session of a chip of one minor unit stored that chip's unit (a
cent: USD with 2 decimals), it stored ``minor_per_chip`` 1 with no decimals, which alone reads
as whole dollars (:func:`replay.ingest.units.earlier_conversion`), and its export wrote that
unit. No ledger holds a hand of whole dollars in a session of cents (an import converts it;
``session open`` and ``session set`` refuse such a chip value: README "Chips of different
values"), so in a file that opens the hand's session itself with such a chip (a whole export
of a ledger, its session rows beside its hands) that unit is the earlier conversion's: the hand's
amounts are the session's chips already, and converted as dollars they would be a hundred
times what the table played. Such a hand is taken as the ledger would hold it, unconverted
(its books count its chips as the session's: :func:`replay.ingest.units.as_chip_says`), into
a fresh ledger or one that holds the session; compared with a stored copy in the session's
chip it is that copy (:func:`replay.ingest.stored_copy.same_start`).
"""

from __future__ import annotations

from typing import Any

from ledger.formats.reading import FileRead, SessionEntry
from ledger.model.batch import Batch
from ledger.model.shell import shell_arg

#: ``read.extra`` key: the chip each session the file opens itself has there
#: (:func:`note_openings`), kept when the ledger's own rows are left out of the read.
OPENINGS = "session_chips"


def note_openings(read: FileRead) -> None:
    """Record in ``read.extra`` the chip of each session whose opening (or change of chip)
    the file holds, the last row of each (before the rows the ledger holds are left out of
    the read: a file of a session the ledger holds opens it too)."""
    from replay.ingest.units import SessionUnit

    chips = {i.session: SessionUnit(i.event.chip_value_minor, i.event.currency,
                                    i.event.decimals)
             for i in read.items if isinstance(i, SessionEntry)
             and i.event.type in ("session_opened", "session_changed")}
    read.extra.setdefault(OPENINGS, chips)


def earlier_in_own_session(read: FileRead, batches: list[Batch]) -> set[str]:
    """The hands of ``batches`` whose unit is an earlier conversion's
    (:func:`replay.ingest.units.earlier_conversion`) into the chip their session has in the
    file ``read`` that opens it (:func:`note_openings`): their amounts are that session's
    chips already (module doc), so they are not converted again."""
    from replay.ingest.units import earlier_conversion, session_unit

    chips = read.extra.get(OPENINGS) or {}
    out = set()
    for b in batches:
        if not (b.is_hand and b.events and b.hand_id is not None and b.session in chips):
            continue
        if earlier_conversion(b.events[0].unit, session_unit(chips[b.session])):
            out.add(b.hand_id)
    return out


def as_own_chip(started: Any, chip: Any) -> Any:
    """``started`` (a file's ``hand_started``) in its session's ``chip`` (a
    :class:`ledger.model.events.Unit`) when its unit is an earlier conversion's into it, as
    the ledger's books read such a stored hand (:func:`replay.ingest.units.as_chip_says`);
    else ``started`` itself."""
    from replay.ingest.units import as_chip_says

    return as_chip_says(started, chip)


def live_alike(started: Any, held: Any) -> bool:
    """Whether the file's ``started`` and the stored ``held`` (``hand_started`` events) are one
    hand played live (``hand start``: no ``source``) in one session, one of them in plain
    chips and the other in that session's chip of money: an export written before exports
    gave such a hand its session's chip as its unit wrote its plain chips, the session's
    (docs/BOOKS.md "Chips of different values"), so either copy is the other."""
    from ledger.model.events import recorded_live

    if not recorded_live(started.source) or not recorded_live(held.source) or (
            started.session is None):
        return False
    if started.session != held.session:
        return False
    plain = [u for u in (started.unit, held.unit) if u.currency is None]
    return len(plain) == 1 and started.model_copy(update={"unit": held.unit}) == held.model_copy(
        update={"schema_version": started.schema_version})


def live_hint(started: Any, stored: str) -> str | None:
    """What to do, in the refusal of the file's ``started`` whose hand the ledger stores
    (``stored``: its ``hand_started`` JSON) in plain chips while the file says its session's
    chip (:func:`live_alike`), the session not opened here: open it with that chip, and the
    ledger counts the stored hand as the file does, the file then already in it; else None."""
    from ledger.model.events import parse_event
    from ledger.model.money import format_money

    held = parse_event(stored)
    if held.unit.currency is not None or not live_alike(started, held):
        return None
    minor, currency, decimals = started.unit.money()
    return (f"the ledger holds it in plain chips, as an export written before exports gave a "
            f"hand played live its session's chip wrote it, and this file says a chip of "
            f"session {started.session} is {format_money(minor, decimals, currency)}: "
            f"`handledger session open {shell_arg(started.session)} --chip-value "
            f"{shell_arg(format_money(minor, decimals, None))} --currency {shell_arg(currency)}` "
            "says so here, and "
            "the file is then already in the ledger")


def whole_units(unit: Any) -> bool:
    """Whether a hand's ``unit`` counts whole units of a currency with minor units
    (``minor_per_chip`` 1, no decimals: whole dollars), which :func:`whole_unit_notes` names
    in a session neither the file nor the ledger opens."""
    from replay.ingest.units import iso_decimals

    return (unit.currency is not None and unit.minor_per_chip == 1 and not unit.decimals
            and bool(iso_decimals(unit.currency)))


def whole_unit_notes(ledger: Any, read: FileRead) -> list[str]:
    """The note lines of the hands read as events (JSON lines) of ``read`` that the ledger does not
    hold yet and that count whole units of a currency with minor units (``minor_per_chip`` 1,
    no decimals: whole dollars) in a session neither the file nor the ledger opens: as an
    export written before wrote a hand an earlier conversion counted in a session of cents
    (module doc), whose chips are then a hundred times their money here, with nothing in the
    file to tell (a hand in whole dollars reads so too). Each is stored as its unit says; the
    note names it and what to import instead, its ledger's whole export."""
    from ledger.formats.reading import HandEvents
    from replay.sessions import session_state

    opened = read.extra.get(OPENINGS) or {}
    found: dict[str, tuple[int, Any]] = {}
    for item in read.items:
        if not isinstance(item, HandEvents) or not item.events:
            continue
        started = item.events[0]
        unit = getattr(started, "unit", None)
        if (unit is None or started.session is None or started.session in opened
                or not whole_units(unit)):
            continue
        found[item.hand_id] = (item.line, started)
    if not found:
        return []
    held = {h for (h,) in ledger.query("SELECT DISTINCT hand_id FROM events WHERE"
                                       " list_contains($1, hand_id)", [list(found)])}
    notes = []
    for hand, (line, started) in found.items():
        if hand in held or session_state(ledger, started.session).opened:
            continue
        notes.append(
            f"{read.file}:{line}, hand {hand}: counts whole {started.unit.currency} in session "
            f"{started.session}, which is not opened here, as its unit says; a hand an "
            "earlier version converted into a session of cents has such a unit in an export "
            "written before exports gave it that session's chip, or in one whose signature "
            "binds it as stored, and if this is one its chips are cents: import its ledger's "
            "whole export instead (the session's rows say what a chip is worth)")
    return notes
