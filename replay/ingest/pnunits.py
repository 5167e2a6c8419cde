"""A PokerNow log imported into a session the ledger holds already: the session keeps its one
``session_opened``, and the log's amounts are counted in the session's chips (README: a session
has one unit; FORMATS.md §2).

PokerNow writes whole amounts, or amounts with two decimals once the host turned cents on
(:mod:`ledger.formats.pokernow.log`, Units); it names no currency. Into a session the ledger
has opened:

* by a PokerNow log (the ``session_opened`` a log wrote: its chips are that log's, a whole
  amount or a cent, whatever ``session set`` says they are worth since): a log written in the
  same unit counts its chips as they are; one written in the other is refused whole;
* otherwise (``session open``, a JSON-lines file): a log of whole amounts counts the session's
  chips as they are (a home game's chips, as any hand that names no currency); a cents log is
  money, cents of the session's money, converted to its chips exactly: a hand with an amount
  that is no whole number of them is refused (one line for the file when every hand is), a
  line of the session's book the same way refuses the file (its hands would be chips nobody
  bought). A session whose chip is a cent (one hundredth of its unit) takes the cents as they
  are; one of plain chips otherwise (no currency) refuses the log whole, as a hand in money is
  refused there (say what its chip is worth first).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.shell import shell_arg


@dataclass(frozen=True)
class Counting:
    """How a log's amounts become chips of a session: ``amount × worth / chip``, exactly;
    ``unit`` the hands' unit then (None: the hands keep the log's, nothing is converted)."""

    worth: int = 1
    chip: int = 1
    unit: ev.Unit | None = None

    def __call__(self, amount: int) -> int | None:
        """``amount`` in the session's chips; None when it is not a whole number of them."""
        minor = amount * self.worth
        return None if minor % self.chip else minor // self.chip


AS_IS = Counting()


def _words(decimals: int) -> str:
    return "whole chips" if decimals == 0 else "cents (an amount has a decimal point)"


def opening(ledger: Any, session: str) -> Any | None:
    """The ``session_opened`` event that opened ``session`` in the ledger; None: not opened."""
    try:
        rows = ledger.read(f"session:{session}", upto=1)
    except NotFound:
        return None
    return rows[0].event if rows and rows[0].type == "session_opened" else None


def counting(ledger: Any, session: str, decimals: int, file: str) -> Counting | None:
    """How a PokerNow log written with ``decimals`` places (0 or 2) counts in ``session``
    (see the module doc); None when the ledger has not opened ``session``.

    Raises:
        MalformedInput: the log cannot be counted in the session's chips (naming the file,
            the session and both units); nothing of the file is written.
    """
    from replay.sessions import session_state

    first = opening(ledger, session)
    if first is None:
        return None
    if first.source.get("format") == "pokernow":
        if first.decimals == decimals:
            return AS_IS
        raise MalformedInput(
            f"this log counts {_words(decimals)}, but session {session} counts "
            f"{_words(first.decimals)} (a PokerNow log opened it): its amounts would be read "
            "in another unit; nothing of the file was written (another game's log? give it a "
            "session of its own: --session NAME)",
            file=file)
    if decimals == 0:
        return AS_IS
    state = session_state(ledger, session)
    if state.decimals == 2 and state.chip_value_minor == 1:  # the session's chip is a cent
        return AS_IS
    if state.currency is None:
        from replay.ingest.units import SessionUnit, session_chips

        unit = SessionUnit(state.chip_value_minor or 1, None, state.decimals or 0)
        raise MalformedInput(
            f"this log counts cents (an amount has a decimal point), but session {session} "
            f"counts {session_chips(unit)}: say what its chip is worth first (`handledger "
            f"session set {shell_arg(session)} --chip-value … --currency …`), or import the "
            "log without --session; nothing of the file was written", file=file)
    if state.decimals < 2:
        raise MalformedInput(
            f"this log counts cents (an amount has a decimal point), but session {session} "
            f"counts {state.currency} with {state.decimals} decimal(s), which has no cents: "
            "nothing of the file was written", file=file)
    return Counting(10 ** (state.decimals - 2), state.chip_value_minor,
                    _money_unit(state.currency, state.chip_value_minor))


def _money_unit(currency: str, chip: int) -> ev.Unit:
    """The unit of a hand counted in chips worth ``chip`` minor units of ``currency``, as
    :func:`replay.ingest.units.to_session` gives one and then takes as it is (a chip of one
    minor unit is written with the currency's decimals, as a site's money is)."""
    from replay.ingest.units import chip_unit

    return chip_unit(chip, currency)


def into_sessions(ledger: Any, read: FileRead) -> FileRead:
    """``read`` (a PokerNow log) with, for each of its sessions the ledger has opened, the
    log's ``session_opened`` left out and its hands and session lines counted in the
    session's chips (:func:`counting`). A hand with an amount that does not convert is left
    out with an error naming file, line and hand (one error for all of them when every hand
    of the file is: :class:`replay.ingest.session_units.SameForHands`).

    Raises:
        MalformedInput: as :func:`counting`; a line of the session's book (a buy-in, a
            cash-out, a stack, a payment) that does not convert, naming file, line and
            session: nothing of the file is written.
    """
    from replay.ingest.units import NotWholeChips, rescaled

    decimals = {i.session: i.event.decimals for i in read.items
                if isinstance(i, SessionEntry) and i.event.type == "session_opened"}
    plans = {s: c for s, d in decimals.items()
             if (c := counting(ledger, s, d, read.file)) is not None}
    if not plans:
        return read
    items: list[Any] = []
    wrong: list[LedgerError] = []
    tried = 0
    for item in read.items:
        plan = plans.get(getattr(item, "session", None) or "")
        if plan is None:
            items.append(item)
        elif isinstance(item, SessionEntry):
            if item.event.type != "session_opened":  # the session has its opening
                items.append(_entry(item, plan, read.file))
        elif isinstance(item, HandEvents) and plan.unit is not None:
            tried += 1
            try:
                events = rescaled(item.events, plan.worth, plan.chip, plan.unit, item.session
                                  or "")
            except NotWholeChips as exc:
                wrong.append(exc.located(file=read.file, line=item.line))
                continue
            items.append(dataclasses.replace(item, events=events))
        else:
            items.append(item)
    if wrong and len(wrong) == tried:  # no hand counts in the session's chips: none of it
        from replay.ingest.session_units import SameForHands

        first = wrong[0]
        assert isinstance(first, NotWholeChips)
        wrong = [SameForHands(wrong, (
            f"its amounts are cents that are not all whole chips of the session's chip of "
            f"{first.chip} minor units (hand {first.hand}: an amount of {first.minor} minor "
            "units): import it into a session whose chip divides them, or without --session; "
            "never rounded"))]
        items = [i for i in items if getattr(i, "session", None) not in plans]
    return dataclasses.replace(read, items=items, errors=[*read.errors, *wrong])


#: The fields of the session events a PokerNow log writes that hold chips or money.
_AMOUNTS = {"buy_in": "chips", "cash_out": "chips", "seat_change": "stack",
            "payment": "amount_minor"}


def _entry(item: SessionEntry, plan: Counting, file: str) -> SessionEntry:
    field = _AMOUNTS.get(item.event.type)
    if field is None or plan.unit is None:
        return item
    amount = getattr(item.event, field)
    if amount is None:  # a seat change that names no stack
        return item
    if field == "amount_minor":  # money: cents in the session's minor units
        return dataclasses.replace(item, event=item.event.model_copy(
            update={field: amount * plan.worth}))
    chips = plan(amount)
    if chips is None:
        raise MalformedInput(
            f"its {item.event.type.replace('_', '-')} of {amount} cents ({amount * plan.worth} "
            f"minor units) is not a whole number of the session {item.session}'s chips of "
            f"{plan.chip}: a line of the session's book is refused, so nothing of the file "
            "was written (never rounded)", file=file, line=item.line, session=item.session)
    return dataclasses.replace(item, event=item.event.model_copy(update={field: chips}))


def stored_log_decimals(ledger: Any, hand_key: str | None, opened_key: str) -> int | None:
    """The places the log of a game the ledger holds was written with: its first hand's
    (``hand_key``) unit's decimals, 2 when that hand names a currency (only a cents log's
    hands are converted to a session's money: :func:`counting`), else those of the
    ``session_opened`` whose source key is ``opened_key``; None: neither is stored."""
    from ledger.store.streams import stored_decimals

    if hand_key is not None:
        rows = ledger.query(
            "SELECT json_extract_string(payload, '$.unit.currency') FROM events WHERE "
            "source_key = ? AND hand_id IS NOT NULL AND seq = 1 LIMIT 1", [hand_key])
        if rows and rows[0][0] is not None:
            return 2
    return stored_decimals(ledger, hand_key, opened_key)
