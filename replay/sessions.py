"""The session commands: opening and closing sessions, buy-ins, cash-outs, payments, aliases,
and correcting a book entry.

Session events go to the stream ``session:<name>`` in the order they are given; where a buy-in
or cash-out falls between hands is its place in the ledger (table stakes, RULES.md §1.1).
Chips are integers; money (a chip value, a payment) is written as a decimal in the session's
currency and kept as integer minor units (:mod:`ledger.model.money`). Every write checks its
preconditions first and appends one event, or nothing; a refusal says how to do it right. A
wrong entry is never rewritten: it is retracted or amended by an ``entry_corrected`` event.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.money import currency_decimals, format_money, parse_money, within_bound
from ledger.model.names import check_name
from ledger.store.streams import (
    alias_pairs,
    latest_session,
    money_hand,
    open_hands_of,
    seated_in,
    session_summaries,
    shared_hand,
    shared_session,
)

#: Book entries a correction may retract or amend.
ENTRY_TYPES = ("buy_in", "cash_out", "payment")


@dataclass
class SessionState:
    """What a session's stream says so far, corrections applied: opened, closed, the money's
    decimals and currency, who sits with chips (bought in since his last cash-out), who cashed
    out, the chips each bought in all (``chips_in``), the payments, every book entry by its seq
    and the seqs of those retracted."""

    opened: bool = False
    closed: bool = False
    chip_value_minor: int = 1
    decimals: int = 0
    currency: str | None = None
    seated: set[str] = field(default_factory=set)
    bought: set[str] = field(default_factory=set)
    chips_in: dict[str, int] = field(default_factory=dict)
    cashed: dict[str, int] = field(default_factory=dict)
    payments: list[tuple[str, str, int]] = field(default_factory=list)
    entries: dict[int, Any] = field(default_factory=dict)
    retracted: set[int] = field(default_factory=set)
    last_seq: int = 0

    def money(self, minor: int) -> str:
        """``minor`` units as text in the session's currency."""
        return format_money(minor, self.decimals, self.currency)


def session_state(ledger: Any, name: str) -> SessionState:
    """The :class:`SessionState` of session ``name`` (not opened when it has no stream)."""
    state = SessionState()
    try:
        rows = ledger.read(f"session:{name}")
    except NotFound:
        return state
    fixes = {r.event.seq: r.event.replacement for r in rows if r.type == "entry_corrected"}
    for row in rows:
        e = row.event
        state.last_seq = row.seq
        if row.seq in fixes:
            state.entries[row.seq] = e
            if fixes[row.seq] is None:
                state.retracted.add(row.seq)
                continue
            e = ev.parse_event(fixes[row.seq])
        _fold(state, row.seq, e)
    return state


def _fold(state: SessionState, seq: int, e: Any) -> None:
    if e.type in ENTRY_TYPES:
        state.entries.setdefault(seq, e)
    if e.type == "session_opened" and not state.opened:
        state.opened, state.decimals, state.currency = True, e.decimals, e.currency
        state.chip_value_minor = e.chip_value_minor
    elif e.type == "session_changed":
        state.chip_value_minor, state.currency = e.chip_value_minor, e.currency
        state.decimals = e.decimals
    elif e.type == "session_closed":
        state.closed = True
    elif e.type == "buy_in":
        state.seated.add(e.player)
        state.bought.add(e.player)
        state.chips_in[e.player] = state.chips_in.get(e.player, 0) + e.chips
    elif e.type == "cash_out":
        state.seated.discard(e.player)
        state.cashed[e.player] = e.chips
    elif e.type == "payment":
        state.payments.append((e.payer, e.payee, e.amount_minor))


def open_state(ledger: Any, name: str, *, allow_closed: bool = False) -> SessionState:
    """The state of an opened session.

    Raises:
        NotFound: no such session (naming the closest names); LedgerError: it is closed
            (unless ``allow_closed``).
    """
    state = session_state(ledger, name)
    if not state.opened:
        names = [s["session"] for s in session_summaries(ledger) if s["session"]]
        close = difflib.get_close_matches(name, names, n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise NotFound(f"no session {name!r} (open it with `handledger session open "
                       f"{name}`){hint}")
    if state.closed and not allow_closed:
        raise LedgerError(f"session {name!r} is closed: it takes no more hands or buy-ins "
                          "(cash-outs, payments and corrections of its entries still go in)")
    return state


def _append(ledger: Any, name: str, event: Any, state: SessionState) -> int:
    """Append ``event`` to the session's stream, expecting it where ``state`` saw it (a
    concurrent write is refused); returns the event's seq."""
    ledger.append(f"session:{name}", [event], expected_seq=state.last_seq)
    return state.last_seq + 1


def open_session(ledger: Any, name: str, *, day: str | None, chip_value: str,
                 currency: str | None, decimals: int | None) -> ev.SessionOpened:
    """Open session ``name``: one chip is ``chip_value`` money in ``currency`` (decimals: 2 for
    a currency, 0 for JPY and the like; without a currency, those of ``chip_value``).

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`), date or chip
            value; LedgerError: the session exists.
    """
    check_name(name, "session")
    try:
        day = (Date.fromisoformat(day) if day else Date.today()).isoformat()
    except ValueError:
        raise MalformedInput(f"--date {day!r} is not an ISO date (YYYY-MM-DD)") from None
    if decimals is None:
        decimals = currency_decimals(currency, chip_value)
    minor = parse_money(chip_value, decimals, what="--chip-value")
    state = session_state(ledger, name)
    if state.opened or state.last_seq:
        raise LedgerError(f"session {name!r} already exists")
    opened = ev.SessionOpened(session=name, date=day, chip_value_minor=minor,
                              currency=currency, decimals=decimals)
    _append(ledger, name, opened, state)
    return opened


def set_session(ledger: Any, name: str, *, chip_value: str, currency: str | None,
                decimals: int | None) -> ev.SessionChanged:
    """Say what one chip of session ``name`` is worth (for a session an import opened, or one
    opened with the wrong value): the latest setting holds for the whole session.

    Raises:
        NotFound: no such session; MalformedInput: a bad chip value; LedgerError: the session
            holds a hand whose amounts came in money: they were converted to its chips exactly
            on import (README: a session has one unit), and a new chip value would revalue them.
    """
    state = open_state(ledger, name, allow_closed=True)
    if (held := money_hand(ledger, name)) is not None:
        hand, currency = held
        raise LedgerError(
            f"session {name} holds hand {hand}, whose amounts came in {currency} and were "
            f"converted exactly to its chips of {state.money(state.chip_value_minor)}: its "
            "chip value is fixed (import the hands into a new session at the value wanted)")
    if decimals is None:
        decimals = currency_decimals(currency, chip_value)
    event = ev.SessionChanged(chip_value_minor=parse_money(chip_value, decimals,
                                                           what="--chip-value"),
                              currency=currency, decimals=decimals)
    most = max([*state.chips_in.values(), *state.cashed.values(), 0])
    worth = most * event.chip_value_minor
    if worth > ev.MAX_CHIPS:
        raise MalformedInput(f"--chip-value {chip_value}: {most} chips of {name} would be "
                             f"worth {format_money(worth, decimals, currency)}, beyond the "
                             "largest amount a ledger holds")
    _append(ledger, name, event, state)
    return event


def close_session(ledger: Any, name: str) -> None:
    """Close session ``name`` (no more hands or buy-ins; payments settle it up).

    Raises:
        NotFound, LedgerError: see :func:`open_state`.
    """
    state = open_state(ledger, name)
    _append(ledger, name, ev.SessionClosed(), state)


def buy_in(ledger: Any, session: str, player: str, chips: int, kind: str | None
           ) -> tuple[ev.BuyIn, int]:
    """``player`` buys ``chips`` in ``session`` (kind: ``buy_in`` for his first, ``rebuy``
    after, unless given). Returns the event and its seq.

    Raises:
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`);
        NotFound, LedgerError: see :func:`open_state`; LedgerError: he is seated in a hand of
            the session that is still open (:func:`_between_hands`).
    """
    check_name(player)
    state = open_state(ledger, session)
    _bounded(state, "CHIPS", chips)
    _between_hands(ledger, session, player, "buy-in", "chips are added only between a "
                   "showdown and the next deal")
    total = state.chips_in.get(player, 0) + chips
    if player in state.bought:
        _bounded(state, f"{player}'s buy-ins in {session} together", total)
    event = ev.BuyIn(player=player, chips=chips,
                     kind=kind or ("rebuy" if player in state.bought else "buy_in"))
    return event, _append(ledger, session, event, state)


def _between_hands(ledger: Any, session: str, player: str, entry: str, rule: str) -> None:
    """Refuse a book ``entry`` (buy-in, cash-out) of ``player`` while he is seated in a hand
    of ``session`` that is still open: table stakes (RULES.md §1.1), as ``rule`` words it.

    Raises:
        LedgerError: naming the player, the hand and how to end it.
    """
    from replay.fold import split_stream

    hands = [hand for hand, voided in open_hands_of(ledger, session, player)
             if not voided or not split_stream([r.event for r in ledger.read(hand)])[2]]
    if hands:
        raise LedgerError(f"{player} is seated in hand {hands[0]} of session {session}, which "
                          f"is still open: no {entry} now ({rule}, RULES.md §1.1); record it "
                          f"once the hand ends (`handledger act {hands[0]} end`) or is voided")


def _bounded(state: SessionState, what: str, chips: int) -> None:
    """Refuse ``chips`` (of a book entry of the session ``state`` describes) beyond the
    largest amount a ledger holds, in chips or in money (chips × the chip's value).

    Raises:
        MalformedInput: naming ``what`` and the bound.
    """
    within_bound(chips, what)
    if chips * state.chip_value_minor > ev.MAX_CHIPS:
        raise MalformedInput(
            f"{what}: {chips} chips are worth {state.money(chips * state.chip_value_minor)}, "
            "beyond the largest amount a ledger holds "
            f"({state.money(ev.MAX_CHIPS)})")


def cash_out(ledger: Any, session: str, player: str, chips: int) -> tuple[ev.CashOut, int]:
    """``player`` leaves ``session`` with ``chips`` counted (also after it closed). Returns the
    event and its seq.

    Raises:
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`);
        NotFound: no such session; LedgerError: he has no chips at the table (no buy-in, or
            cashed out already since his last buy-in), or is seated in a hand of the session
            that is still open (:func:`_between_hands`).
    """
    check_name(player)
    state = open_state(ledger, session, allow_closed=True)
    _bounded(state, "CHIPS", chips)
    if player not in state.seated:
        if player in state.cashed:
            raise LedgerError(
                f"{player} already cashed out {state.cashed[player]} chips in {session} (no "
                f"buy-in since); a wrong count is amended: `handledger entry amend {session} "
                "SEQ CHIPS --reason … --by …` (`handledger history --session "
                f"{session}` lists the entries)")
        raise LedgerError(f"{player} has no buy-in in {session}: nothing to cash out (record "
                          f"his buy-in first: `handledger buyin {session} {player} CHIPS`)")
    _between_hands(ledger, session, player, "cash-out", "chips are not taken off the table "
                   "during play")
    event = ev.CashOut(player=player, chips=chips)
    return event, _append(ledger, session, event, state)


def pay(ledger: Any, session: str, payer: str, payee: str, amount: str, *,
        again: bool = False) -> tuple[ev.Payment, SessionState, int]:
    """``payer`` pays ``payee`` ``amount`` of money (e.g. ``"12.50"``) to settle ``session``.

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`), the same player
            twice, or a bad amount; NotFound: no such session;
        LedgerError: a player not in the session's books (:func:`in_books`), or the same
            payment is recorded already (unless ``again``).
    """
    check_name(payer)
    check_name(payee)
    if payer == payee:
        raise MalformedInput("a payment needs two different players")
    state = open_state(ledger, session, allow_closed=True)
    amount_minor = parse_money(amount, state.decimals)  # the input first, then the books
    known = in_books(ledger, session, state)
    for who in (payer, payee):
        if who not in known:
            listed = ", ".join(sorted(known)) or "nobody yet"
            raise LedgerError(f"{who} is not in the books of session {session} (no buy-in, "
                              f"cash-out or hand there; its players: {listed}): a payment "
                              "settles a session between its players")
    event = ev.Payment(payer=payer, payee=payee, amount_minor=amount_minor)
    if not again and (payer, payee, event.amount_minor) in state.payments:
        raise LedgerError(f"{payer} paying {payee} {state.money(event.amount_minor)} is "
                          f"recorded in {session} already; a second payment of the same "
                          "amount takes --again")
    return event, state, _append(ledger, session, event, state)


def in_books(ledger: Any, session: str, state: SessionState) -> set[str]:
    """The names in ``session``'s books: who bought in, cashed out, paid or was paid there or
    sat in one of its hands, and every alias of them (``player alias``)."""
    known = {*state.chips_in, *state.cashed, *seated_in(ledger, session)}
    known.update(p for pair in state.payments for p in pair[:2])
    pairs = alias_pairs(ledger)
    for _ in range(2):  # an alias of an alias
        known.update(n for p, a in pairs if p in known or a in known for n in (p, a))
    return known


def correct_entry(ledger: Any, session: str, seq: int, value: str | None, *, reason: str,
                  by: str) -> tuple[Any, Any]:
    """Retract (``value`` None) or amend (``value``: chips for a buy-in or cash-out, money for
    a payment) the book entry at ``seq`` of ``session``'s stream. Returns the entry as it
    stood and the replacement (None: retracted).

    Raises:
        NotFound: no such session or entry; MalformedInput: a bad value; LedgerError: the
            entry is retracted already (neither retracted again nor amended back).
    """
    state = open_state(ledger, session, allow_closed=True)
    entry = state.entries.get(seq)
    if entry is None:
        listed = ", ".join(f"{s} {e.type}" for s, e in sorted(state.entries.items()))
        raise NotFound(f"session {session} has no buy-in, cash-out or payment at seq {seq}"
                       + (f" (its entries: {listed})" if listed else ""))
    if seq in state.retracted:
        raise LedgerError(
            f"entry {seq} ({entry.type}) of session {session} is retracted already: "
            + ("nothing to retract" if value is None else "an amendment would bring it back; "
               "record the entry again instead (`handledger history --session "
               f"{session}` lists the entries)"))
    replacement = None
    if value is not None:
        if entry.type == "payment":
            replacement = entry.model_copy(update={
                "amount_minor": parse_money(value, state.decimals)})
        else:
            if not value.strip().isdigit():
                raise MalformedInput(f"{value!r} is not a whole number of chips")
            _bounded(state, "VALUE", int(value.strip()))
            replacement = ev.parse_event({**entry.model_dump(mode="json"),
                                          "chips": int(value.strip())})
    fix = ev.EntryCorrected(seq=seq, reason=reason, by=by, replacement=None if replacement
                            is None else replacement.model_dump(mode="json"))
    _append(ledger, session, fix, state)
    return entry, replacement


def add_alias(ledger: Any, name: str, other: str, session: str | None) -> str:
    """Record that ``other`` (another name or a platform id) is the player ``name``, in
    ``session``'s stream (default: the latest session). Returns the session.

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`), or ``other`` is
            ``name``; NotFound: no session; LedgerError: the two sat
            in one hand together or both have book entries in one session (two players: an
            alias would merge their nets, RULES.md §1.1).
    """
    check_name(name)
    check_name(other)
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    mine = _alias_group(ledger, name)
    theirs = _alias_group(ledger, other) - mine
    if (hand := shared_hand(ledger, sorted(mine), sorted(theirs))) is not None:
        raise LedgerError(f"{name} and {other} sat in hand {hand} together: they are two "
                          "players, not one (no alias recorded)")
    if (both := shared_session(ledger, sorted(mine), sorted(theirs))) is not None:
        raise LedgerError(f"{name} and {other} both have book entries in session {both}: "
                          "they are two players, not one (no alias recorded)")
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the alias in: open one first")
    state = open_state(ledger, session, allow_closed=True)
    _append(ledger, session, ev.PlayerAlias(player=name, alias=other), state)
    return session


def _alias_group(ledger: Any, name: str) -> set[str]:
    """``name`` and every name an alias recorded already joins to it (either way, any depth)."""
    pairs = alias_pairs(ledger)
    group, grown = {name}, True
    while grown:
        more = {n for p, a in pairs if p in group or a in group for n in (p, a)} - group
        group |= more
        grown = bool(more)
    return group


def history(ledger: Any, name: str) -> dict[str, Any]:
    """Session ``name``'s stream: every event with its seq, position, time and, for a book
    entry, the corrections that retracted or amended it (reason, author), as
    ``{"session", "events": [...]}``; the corrections themselves are listed too.

    Raises:
        NotFound: no such session.
    """
    open_state(ledger, name, allow_closed=True)
    rows = ledger.read(f"session:{name}")
    fixes: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if r.type == "entry_corrected":
            e = r.event
            fixes.setdefault(e.seq, []).append({"seq": r.seq, "by": e.by, "reason": e.reason,
                                                "replacement": e.replacement})
    return {"session": name, "events": [
        {"seq": r.seq, "position": r.position, "recorded_at": r.recorded_at.isoformat(),
         "type": r.type,
         "event": r.event.model_dump(mode="json", exclude={"type", "schema_version"}),
         "corrections": fixes.get(r.seq, [])} for r in rows]}
