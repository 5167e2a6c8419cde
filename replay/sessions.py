"""The session commands: opening and closing sessions, buy-ins, cash-outs, payments, aliases.

Session events go to the stream ``session:<name>`` in the order they are given; where a buy-in
or cash-out falls between hands is its place in the ledger (table stakes, RULES.md §1.1).
Chips are integers; money (a chip value, a payment) is written as a decimal in the session's
currency and kept as integer minor units (:mod:`ledger.model.money`). Every write checks its
preconditions first and appends one event, or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.money import currency_decimals, parse_money
from ledger.store.streams import latest_session, session_summaries


@dataclass
class SessionState:
    """What a session's stream says so far: opened, closed, the money's decimals and
    currency, the players who bought in."""

    opened: bool = False
    closed: bool = False
    decimals: int = 0
    currency: str | None = None
    bought: set[str] = field(default_factory=set)


def session_state(ledger: Any, name: str) -> SessionState:
    """The :class:`SessionState` of session ``name`` (not opened when it has no stream)."""
    state = SessionState()
    try:
        rows = ledger.read(f"session:{name}")
    except NotFound:
        return state
    for row in rows:
        e = row.event
        if e.type == "session_opened" and not state.opened:
            state.opened, state.decimals, state.currency = True, e.decimals, e.currency
        elif e.type == "session_closed":
            state.closed = True
        elif e.type == "buy_in":
            state.bought.add(e.player)
    return state


def open_state(ledger: Any, name: str, *, allow_closed: bool = False) -> SessionState:
    """The state of an opened session.

    Raises:
        NotFound: no such session; LedgerError: it is closed (unless ``allow_closed``).
    """
    state = session_state(ledger, name)
    if not state.opened:
        raise NotFound(f"no session {name!r} (open it with `handledger session open {name}`)")
    if state.closed and not allow_closed:
        raise LedgerError(f"session {name!r} is closed")
    return state


def _append(ledger: Any, name: str, event: Any) -> None:
    ledger.append(f"session:{name}", [event])


def open_session(ledger: Any, name: str, *, day: str | None, chip_value: str,
                 currency: str | None, decimals: int | None) -> ev.SessionOpened:
    """Open session ``name``: one chip is ``chip_value`` money in ``currency`` (decimals: 2 for
    a currency, 0 for JPY and the like; without a currency, those of ``chip_value``).

    Raises:
        MalformedInput: a bad date or chip value; LedgerError: the session exists.
    """
    try:
        day = (Date.fromisoformat(day) if day else Date.today()).isoformat()
    except ValueError:
        raise MalformedInput(f"--date {day!r} is not an ISO date (YYYY-MM-DD)") from None
    if decimals is None:
        decimals = currency_decimals(currency, chip_value)
    minor = parse_money(chip_value, decimals, what="--chip-value")
    if session_state(ledger, name).opened:
        raise LedgerError(f"session {name!r} already exists")
    opened = ev.SessionOpened(session=name, date=day, chip_value_minor=minor,
                              currency=currency, decimals=decimals)
    _append(ledger, name, opened)
    return opened


def close_session(ledger: Any, name: str) -> None:
    """Close session ``name`` (no more buy-ins; payments settle it up).

    Raises:
        NotFound, LedgerError: see :func:`open_state`.
    """
    open_state(ledger, name)
    _append(ledger, name, ev.SessionClosed())


def buy_in(ledger: Any, session: str, player: str, chips: int, kind: str | None) -> ev.BuyIn:
    """``player`` buys ``chips`` in ``session`` (kind: ``buy_in`` for his first, ``rebuy``
    after, unless given).

    Raises:
        NotFound, LedgerError: see :func:`open_state`.
    """
    state = open_state(ledger, session)
    event = ev.BuyIn(player=player, chips=chips,
                     kind=kind or ("rebuy" if player in state.bought else "buy_in"))
    _append(ledger, session, event)
    return event


def cash_out(ledger: Any, session: str, player: str, chips: int) -> ev.CashOut:
    """``player`` leaves ``session`` with ``chips`` counted (also after it closed).

    Raises:
        NotFound: no such session.
    """
    open_state(ledger, session, allow_closed=True)
    event = ev.CashOut(player=player, chips=chips)
    _append(ledger, session, event)
    return event


def pay(ledger: Any, session: str, payer: str, payee: str, amount: str
        ) -> tuple[ev.Payment, SessionState]:
    """``payer`` pays ``payee`` ``amount`` of money (e.g. ``"12.50"``) to settle ``session``.

    Raises:
        MalformedInput: the same player twice, or a bad amount; NotFound: no such session.
    """
    if payer == payee:
        raise MalformedInput("a payment needs two different players")
    state = open_state(ledger, session, allow_closed=True)
    event = ev.Payment(payer=payer, payee=payee,
                       amount_minor=parse_money(amount, state.decimals))
    _append(ledger, session, event)
    return event, state


def add_alias(ledger: Any, name: str, other: str, session: str | None) -> str:
    """Record that ``other`` (another name or a platform id) is the player ``name``, in
    ``session``'s stream (default: the latest session). Returns the session.

    Raises:
        MalformedInput: ``other`` is ``name``; NotFound: no session.
    """
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the alias in: open one first")
    open_state(ledger, session, allow_closed=True)
    _append(ledger, session, ev.PlayerAlias(player=name, alias=other))
    return session


def list_sessions(ledger: Any) -> list[dict[str, Any]]:
    """Sessions in ledger order with their date, hands, buy-ins and whether closed."""
    return session_summaries(ledger)
