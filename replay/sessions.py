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
from ledger.model.money import (
    check_currency,
    currency_decimals,
    format_money,
    parse_money,
    plain_money,
    shown_amount,
    within_bound,
)
from ledger.model.names import (
    check_name,
    check_new_name,
    check_not_look_alike,
    check_not_the_house,
    check_seat_name,
    folded,
    likely_meant,
    look_alikes,
    spelled,
)
from ledger.store.streams import (
    alias_pairs,
    hand_units,
    hands_seating,
    latest_session,
    money_hand,
    open_hands_of,
    player_names,
    seated_in,
    session_summaries,
    shared_hand,
    shared_session,
    unended_hands,
    unnamed_money_hand,
)
from replay.ingest.units import currency_code

#: Book entries a correction may retract or amend.
ENTRY_TYPES = ("buy_in", "cash_out", "payment")

#: How ``pay`` names the house, whoever keeps the rake the table took (a payment's payer or
#: payee None): a word no player first named at the table or in the books can have
#: (:data:`ledger.model.names.NOTATION_WORDS`; README "settle").
HOUSE_WORD = "rake"


@dataclass
class SessionState:
    """What a session's stream says so far, corrections applied: opened, closed, the money's
    decimals and currency, who sits with chips (bought in since his last cash-out), who cashed
    out, the chips each bought in all (``chips_in``), the chips cashed out by all together
    (``chips_out``), the payments, every book entry by its seq
    as recorded (``entries``) and as amended last (``amended``), and the seqs of those
    retracted; ``closed_seq`` the seq of the closing."""

    opened: bool = False
    closed: bool = False
    closed_seq: int = 0
    chip_value_minor: int = 1
    decimals: int = 0
    currency: str | None = None
    seated: set[str] = field(default_factory=set)
    bought: set[str] = field(default_factory=set)
    chips_in: dict[str, int] = field(default_factory=dict)
    cashed: dict[str, int] = field(default_factory=dict)
    chips_out: int = 0
    payments: list[tuple[str | None, str | None, int]] = field(default_factory=list)
    entries: dict[int, Any] = field(default_factory=dict)
    amended: dict[int, Any] = field(default_factory=dict)
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
            e = state.amended[row.seq] = ev.parse_event(fixes[row.seq])
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
        state.closed, state.closed_seq = True, state.closed_seq or seq
    elif e.type == "buy_in":
        state.seated.add(e.player)
        state.bought.add(e.player)
        state.chips_in[e.player] = state.chips_in.get(e.player, 0) + e.chips
    elif e.type == "cash_out":
        state.seated.discard(e.player)
        state.cashed[e.player] = e.chips
        state.chips_out += e.chips
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
        raise no_session(name, [s["session"] for s in session_summaries(ledger)
                                if s["session"] and s["opened"]])
    if state.closed and not allow_closed:
        raise LedgerError(f"session {name!r} is closed: it takes no more hands or buy-ins "
                          "(payments still go in; a cash-out or a correction of its entries "
                          "with --closed)")
    return state


def no_session(name: str, names: list[str]) -> NotFound:
    """The refusal of a command that needs session ``name``, which is none of the sessions
    ``names`` (the closest named): ``no session 'fri' (open it with `handledger session open
    fri`); did you mean 'friday'?``. When one of ``names`` differs from ``name`` only in case
    or in how its letters are encoded (:func:`ledger.model.names.look_alikes`), ``session
    open`` would refuse ``name`` beside it, so the refusal names that session alone: ``no
    session 'Friday'; did you mean 'friday'? (…)``."""
    same = look_alikes(name, names)
    if same:
        return NotFound(f"no session {spelled(name)}; did you mean "
                        f"{' or '.join(map(spelled, same))}? (session names are kept as "
                        "typed: a new session named like it would be refused)")
    close = difflib.get_close_matches(name, names, n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return NotFound(f"no session {name!r} (open it with `handledger session open {name}`)"
                    f"{hint}")


def _append(ledger: Any, name: str, event: Any, state: SessionState) -> int:
    """Append ``event`` to the session's stream, expecting it where ``state`` saw it (a
    concurrent write is refused); returns the event's seq."""
    ledger.append(f"session:{name}", [event], expected_seq=state.last_seq)
    return state.last_seq + 1


def open_session(ledger: Any, name: str, *, day: str | None, chip_value: str,
                 currency: str | None, decimals: int | None) -> ev.SessionOpened:
    """Open session ``name``: one chip is ``chip_value`` money in ``currency`` (decimals: the
    currency's ISO 4217 minor units, USD 2, JPY 0, KWD 3; without a currency, those of
    ``chip_value``).

    Raises:
        MalformedInput: as :func:`session_opening`, or a name that prints like another
            session's (:func:`ledger.model.names.check_not_look_alike`); LedgerError: the
            session exists.
    """
    check_name(name, "session")
    state = session_state(ledger, name)
    if state.opened or state.last_seq:
        raise LedgerError(f"session {name!r} already exists")
    check_new_session_name(ledger, name)
    opened = session_opening(name, day=day, chip_value=chip_value, currency=currency,
                             decimals=decimals)
    _agrees_with_hands(ledger, name, chip_value, opened)
    _append(ledger, name, opened, state)
    return opened


def _agrees_with_hands(ledger: Any, name: str, chip_value: str, opened: ev.SessionOpened
                       ) -> None:
    """Refuse opening session ``name`` at a chip value that is not what its hands, imported
    before it was opened (a file naming the session), say a chip is worth: their amounts are
    that money, and the opening would revalue them (README "a session has one unit", as
    ``session set`` holds a session with a hand in money to its chip value). A hand in money
    (its ``unit`` names a currency: :meth:`ledger.model.events.Unit.money`) takes only its
    currency at its chip's worth; one in money of no named currency
    (:func:`_same_worth_as_hands`) only its worth; plain chips take any chip value.

    Raises:
        LedgerError: one line naming the session, the hand, its chip's worth, what the
            opening would make it, and the options that keep it.
    """
    for hand, stored in hand_units(ledger, name):
        unit = ev.Unit.model_validate(stored)
        if unit.currency is None:
            continue
        per_chip, currency, places = unit.money()
        code = currency_code(currency)
        if opened.currency is not None and currency_code(opened.currency) == code and (
                opened.chip_value_minor * 10 ** places == per_chip * 10 ** opened.decimals):
            continue
        worth = format_money(per_chip, places, None)
        given = format_money(opened.chip_value_minor, opened.decimals, opened.currency)
        made = (f"each of its chips worth {given}" if opened.currency
                else "its chips plain chips of no currency")
        raise LedgerError(
            f"session {name} holds hand {hand}, whose amounts came in {currency} at 1 chip = "
            f"{worth} {code}: --chip-value {chip_value} "
            + (f"--currency {opened.currency} " if opened.currency else "")
            + f"would make {made}; nothing written (open it with --chip-value {worth} "
            f"--currency {code}, or import the hands into a new session at the value wanted)")
    _same_worth_as_hands(ledger, name, chip_value, opened.chip_value_minor, opened.currency,
                         opened.decimals)


def check_new_session_name(ledger: Any, name: str) -> None:
    """Refuse ``name`` for a new session (opened, or a file about to open it) when it prints
    like, or differs only in case from, a session the ledger holds.

    Raises:
        MalformedInput: the look-alike, both names spelled out.
    """
    check_not_look_alike(name, session_names(ledger), "session", "a session of the ledger")


def session_names(ledger: Any) -> list[str]:
    """Every session name the ledger holds: opened, or named by an imported hand or entry."""
    return [r[0] for r in ledger.query(
        "SELECT DISTINCT session FROM events WHERE session IS NOT NULL")]


def session_opening(name: str, *, day: str | None, chip_value: str, currency: str | None,
                    decimals: int | None) -> ev.SessionOpened:
    """The ``session_opened`` event :func:`open_session` appends, checked without a ledger
    (what ``session open`` refuses before it makes a ledger file: a refusal leaves none).

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_new_name`), date, chip
            value (:func:`chip_value_written`) or currency
            (:func:`ledger.model.money.check_currency`).
    """
    check_new_name(name, "session")
    check_currency(currency)
    try:
        day = (Date.fromisoformat(day) if day else Date.today()).isoformat()
    except ValueError:
        raise MalformedInput(f"--date {day!r} is not an ISO date (YYYY-MM-DD)") from None
    minor, decimals = chip_value_written(chip_value, currency, decimals)
    return ev.SessionOpened(session=name, date=day, chip_value_minor=minor,
                            currency=currency, decimals=decimals)


def set_session(ledger: Any, name: str, *, chip_value: str, currency: str | None,
                decimals: int | None, closed: bool = False) -> ev.SessionChanged:
    """Say what one chip of session ``name`` is worth (for a session an import opened, or one
    opened with the wrong value): the latest setting holds for the whole session. ``closed``:
    go in though the session is closed (its books were settled up in the unit they had).

    Raises:
        NotFound: no such session; MalformedInput: a bad chip value or currency; LedgerError:
            the session is closed (unless ``closed``: a new unit would change what is owed
            after it was settled up, README "sessions and the books"), or payments are recorded
            in it and the currency or its decimals would change (they are money in the old
            currency), or it holds a hand whose amounts came in money: they were converted to
            its chips exactly on import (README: a session has one unit), and a new chip value
            would revalue them; or it holds a hand whose amounts came in money of no named
            currency (a PokerNow log in cents) and the chip value is not what its unit says a
            chip is worth (naming the currency at that value is taken).
    """
    check_currency(currency)
    state = open_state(ledger, name, allow_closed=True)
    unit = state.money(state.chip_value_minor)
    if state.closed and not closed:
        raise LedgerError(
            f"session {name} is closed (entry {state.closed_seq}) and its books were settled "
            f"up at 1 chip = {unit}: a new chip value or currency would change what is owed; "
            "nothing written; --closed records it anyway")
    if (held := money_hand(ledger, name)) is not None:
        hand, came_in = held
        raise LedgerError(
            f"session {name} holds hand {hand}, whose amounts came in {came_in} and were "
            f"converted exactly to its chips of {unit}: its "
            "chip value is fixed (import the hands into a new session at the value wanted)")
    minor, currency, decimals = _kept_unit(state, chip_value, currency, decimals)
    _same_worth_as_hands(ledger, name, chip_value, minor, currency, decimals)
    if state.payments and (currency, decimals) != (state.currency, state.decimals):
        count = len(state.payments)
        old = state.currency or f"money of {state.decimals} decimal places"
        given = (f"{decimals} decimal places" if currency == state.currency
                 else f"--currency {currency}" if currency else "no --currency")
        keep = f"--currency {state.currency}" if state.currency else "the same decimals"
        raise LedgerError(
            f"session {name} has {count} payment{'s' if count != 1 else ''} recorded in "
            f"{old}: they are money in that currency, and {given} would relabel them; "
            f"nothing written (to change the chip value only, give {keep})")
    event = ev.SessionChanged(chip_value_minor=minor, currency=currency, decimals=decimals)
    most = max([*state.chips_in.values(), *state.cashed.values(), 0])
    worth = most * event.chip_value_minor
    if worth > ev.MAX_CHIPS:
        raise MalformedInput(f"--chip-value {chip_value}: {most} chips of {name} would be "
                             f"worth {format_money(worth, decimals, currency)}, beyond the "
                             "largest amount a ledger holds")
    _append(ledger, name, event, state)
    return event


def _same_worth_as_hands(ledger: Any, name: str, chip_value: str, minor: int,
                         currency: str | None, decimals: int) -> None:
    """Refuse a chip of ``minor`` units of ``decimals`` places that is not worth what a hand
    of session ``name`` whose amounts came in money of no named currency says a chip is
    (:func:`ledger.store.streams.unnamed_money_hand`: 1 chip = 0.01 in a PokerNow log in
    cents): its amounts are that money, and another value would revalue them.

    Raises:
        LedgerError: naming the session, the hand, both values and the value to give.
    """
    held = unnamed_money_hand(ledger, name)
    if held is None:
        return
    hand, per_chip, places = held
    if minor * 10 ** places == per_chip * 10 ** decimals:
        return
    worth = format_money(per_chip, places, None)
    raise LedgerError(
        f"session {name} holds hand {hand}, whose amounts came in money of {places} decimal "
        f"places, no currency named, 1 chip = {worth}: --chip-value {chip_value} would make "
        "each of its chips worth "
        f"{format_money(minor, decimals, currency)}; nothing written (its chip value is "
        f"fixed: --chip-value {worth} --currency CODE names its currency; import the hands "
        "into a new session at the value wanted)")


def _kept_unit(state: Any, chip_value: str, currency: str | None, decimals: int | None
               ) -> tuple[int, str | None, int]:
    """``(minor units a chip is worth, currency, decimals)`` of ``session set``: the session's
    currency unless ``--currency`` is given, and its decimals unless ``--decimals`` is given
    or another currency is (then as for ``session open``); the chip value's own places when it
    has more than the session's decimals (``0.125`` in a session of cents)."""
    if currency is None:
        currency = state.currency
    if decimals is None and currency == state.currency:
        try:
            return (*chip_value_written(chip_value, currency, state.decimals)[:1], currency,
                    state.decimals)
        except MalformedInput:
            pass  # more places than the session's: those written (as for `session open`)
    minor, decimals = chip_value_written(chip_value, currency, decimals)
    return minor, currency, decimals


def chip_value_written(text: str, currency: str | None, decimals: int | None
                       ) -> tuple[int, int]:
    """``(minor units a chip is worth, decimals)`` of ``--chip-value`` as typed: money as a
    payment is written (:func:`ledger.model.money.plain_money`: ASCII digits, one optional
    decimal point), above 0, with at most ``decimals`` places (None: the currency's ISO 4217
    minor units, :func:`ledger.model.money.currency_decimals`; without a currency, those
    written) and within the ledger's bound.

    >>> chip_value_written("0.25", "USD", None), chip_value_written("0.050", None, None)
    ((25, 2), (50, 3))

    Raises:
        MalformedInput: one line naming ``--chip-value`` and the value.
    """
    if not plain_money(text):
        raise MalformedInput(f"--chip-value {shown_amount(text)!r} is not an amount of money "
                             "(a chip's value is written in ASCII digits with at most one "
                             "decimal point, e.g. 0.25)")
    if decimals is None:
        decimals = currency_decimals(currency, text)
    return parse_money(text, decimals, what="--chip-value"), decimals


def close_session(ledger: Any, name: str) -> None:
    """Close session ``name`` (no more hands or buy-ins; payments settle it up). Refused
    while a hand of it is in play (:func:`hands_in_play`): its pot is not paid yet, and the
    books closed are the books settled up (README "sessions and the books").

    Raises:
        NotFound: see :func:`open_state`; LedgerError: it is closed already (naming the
            entry that closed it: a second closing would change nothing), or a hand of it
            is in play (naming the first, how many more, and how to end or void it).
    """
    state = open_state(ledger, name, allow_closed=True)
    if state.closed:
        raise LedgerError(f"session {name!r} is closed already (entry {state.closed_seq}): "
                          "nothing to close (`handledger history --session "
                          f"{name}` lists its entries)")
    if playing := hands_in_play(ledger, name):
        more = len(playing) - 1
        hand = playing[0]
        raise LedgerError(
            f"session {name} has hand {hand} still in play"
            + (f" (and {more} more hand{'s' if more > 1 else ''})" if more else "")
            + f": end it (`handledger act {hand} end`, once its pots are paid) or void it "
            f"(`handledger void {hand} --reason … --by …`), then close; nothing written")
    _append(ledger, name, ev.SessionClosed(), state)


def hands_in_play(ledger: Any, session: str) -> list[str]:
    """The hands of ``session``, in ledger order, still in play: recorded live and neither
    ended nor voided (corrections applied; a stream the rules refuse is not one: it is an
    audit finding, repaired by ``correct`` or ``void``)."""
    from engine.errors import IllegalAction
    from replay.fold import fold_stream

    playing = []
    for hand in unended_hands(ledger, session):
        try:
            state = fold_stream([r.event for r in ledger.read(hand)])[0]
        except IllegalAction:
            continue
        if state.status == "open":
            playing.append(hand)
    return playing


def buy_in(ledger: Any, session: str, player: str, chips: str, kind: str | None
           ) -> tuple[ev.BuyIn, int]:
    """``player`` buys ``chips`` (as typed: whole chips, :func:`chips_written`) in
    ``session`` (kind: ``buy_in`` for his first, ``rebuy`` after, unless given). Returns the
    event and its seq.

    Raises:
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`; for a
            player not yet in the session's books, one the action notation reads as
            something else, :func:`ledger.model.names.check_seat_name`, or the name of one
            in its books in another case), an amount that is
            not a whole number of chips above 0;
        NotFound, LedgerError: see :func:`open_state`; LedgerError: he is seated in a hand of
            the session that is still open (:func:`_between_hands`), or a rebuy or top-up is
            given for a player with no buy-in there yet.
    """
    check_name(player)
    state = open_state(ledger, session)
    books = in_books(ledger, session, state)
    if player not in books:  # his name first given here
        same = look_alikes(player, books)
        where = f"{session}'s books"
        if not same:  # a player of the series, back in a new session under another case
            bought = ledger.query(  # buy-ins in force: a retraction is final
                "SELECT DISTINCT b.payload->>'player' FROM events b WHERE b.type = 'buy_in'"
                " AND NOT EXISTS (SELECT 1 FROM events c WHERE c.type = 'entry_corrected'"
                " AND c.stream = b.stream AND CAST(c.payload->>'seq' AS BIGINT) = b.seq"
                " AND c.payload->>'replacement' IS NULL)")
            names = {n for (n,) in bought}
            same = [] if player in names else [
                n for n in look_alikes(player, names) if n not in _alias_group(ledger, player)]
            where = "the ledger's books"
        if same:
            case = all(n.casefold() == player.casefold() for n in same)
            show = str if case else spelled
            raise MalformedInput(
                f"buyin {session} {player}: {show(player)} is not in {where} and "
                f"{' and '.join(map(show, same))} is: did you mean {same[0]}? (names are kept "
                "as typed; two players whose names differ only in case"
                f"{'' if case else ' or in how their letters are encoded'} would print alike)")
        check_seat_name(player)
    chips = chips_written(chips, f"buyin {session} {player}", state, least=1)
    _between_hands(ledger, session, player, "buy-in", "chips are added only between a "
                   "showdown and the next deal")
    if kind in ("rebuy", "top_up") and player not in state.bought:
        raise LedgerError(f"buyin {session} {player} --kind {kind}: {player} has no buy-in in "
                          f"{session} yet, and a {kind.replace('_', '-')} follows one (leave "
                          "out --kind)")
    total = state.chips_in.get(player, 0) + chips
    if player in state.bought:
        _bounded(state, f"{player}'s buy-ins in {session} together", total)
    event = ev.BuyIn(player=player, chips=chips,
                     kind=kind or ("rebuy" if player in state.bought else "buy_in"))
    return event, _append(ledger, session, event, state)


def chips_written(text: str, where: str, state: SessionState, *, least: int = 0) -> int:
    """The whole number of chips ``text`` says, as a book entry takes it: ASCII digits only
    (no sign, point, exponent, currency, space or other script's digits), at least ``least``
    and within the ledger's bound (:func:`_bounded`). ``where`` is the command as typed up to
    the amount (``"buyin fri Ann"``), which every refusal names.

    >>> chips_written("200", "buyin s Ann", SessionState())
    200

    Raises:
        MalformedInput: one line naming ``where`` and the amount, saying amounts are whole
            chips and, for money of the session's unit, how many chips it is worth (chips
            are integers, README "money at the edges").
    """
    if not (text.isascii() and text.isdigit()):
        raise MalformedInput(f"{where}: {shown_amount(text)!r} is not a number of chips "
                             f"(amounts are whole chips, in ASCII digits{_worth(text, state)})")
    if len(text) > 2 * len(str(ev.MAX_CHIPS)):  # told before any arithmetic on it
        raise MalformedInput(f"{where}: {shown_amount(text)} is beyond the largest amount a "
                             f"ledger holds ({ev.MAX_CHIPS} chips)")
    chips = int(text)
    if chips < least:
        raise MalformedInput(f"{where}: {chips} chips is no buy-in (at least {least} chip)")
    _bounded(state, where, chips)
    return chips


def _worth(text: str, state: SessionState) -> str:
    """``; 1 chip of the session is 0.25 USD, so 50.00 USD is 200 chips`` for money text
    ``"50.00"`` (its second half only when the chips come out whole), or nothing when a chip
    is worth one unit of no currency."""
    if state.chip_value_minor == 1 and not state.decimals and not state.currency:
        return ""
    said = f"; 1 chip is {state.money(state.chip_value_minor)}"
    if plain_money(text) and len(text) <= 2 * len(str(ev.MAX_CHIPS)):
        whole, _, cents = text.partition(".")
        if len(cents) <= state.decimals:
            minor = int(whole + cents.ljust(state.decimals, "0"))
            if minor and minor % state.chip_value_minor == 0:
                said += (f", so {state.money(minor)} is {minor // state.chip_value_minor} "
                         "chips")
    return said


def money_written(text: str, where: str, state: SessionState) -> int:
    """The minor units of money ``text`` says, as a payment takes it: ASCII digits, then a
    point and at most the session's decimals (no sign, exponent, currency or space), above 0
    and within the ledger's bound (:func:`ledger.model.money.parse_money`).

    Raises:
        MalformedInput: one line naming ``where`` (the command as typed up to the amount)
            and the amount, saying how the session's money is written.
    """
    if not plain_money(text) or len(text.partition(".")[2]) > state.decimals:
        places = (f"at most {state.decimals} decimal place{'s' if state.decimals > 1 else ''}"
                  if state.decimals else "no decimal places")
        example = format_money(1250 * 10 ** state.decimals // 100 or 12, state.decimals, None)
        raise MalformedInput(
            f"{where}: {shown_amount(text)!r} is not an amount of money (a payment is money"
            f"{f' in {state.currency}' if state.currency else ''}, written in ASCII digits "
            f"with {places}, e.g. {example}; 1 chip is {state.money(state.chip_value_minor)})")
    if not text.strip("0."):
        raise MalformedInput(f"{where}: {text} is no payment (an amount above 0)")
    return parse_money(text, state.decimals)


def _between_hands(ledger: Any, session: str, player: str, entry: str, rule: str) -> None:
    """Refuse a book ``entry`` (buy-in, cash-out) of ``player`` while he is seated in a hand
    of ``session`` that is still open: table stakes (RULES.md §1.1), as ``rule`` words it.

    Raises:
        LedgerError: naming the player, the hand and how to end it.
    """
    from replay.amendments import split_stream

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


def cash_out(ledger: Any, session: str, player: str, chips: str, *, closed: bool = False
             ) -> tuple[ev.CashOut, int]:
    """``player`` leaves ``session`` with ``chips`` counted (as typed: whole chips, 0 or
    more, :func:`chips_written`). Returns the event and its seq. ``closed``: go in though the
    session is closed, as an ``entry amend`` of its cash-outs does (its books were settled
    up at the close: README "sessions and the books").

    Raises:
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`), an amount
            that is not a whole number of chips;
        NotFound: no such session; LedgerError: the session is closed (unless ``closed``),
            he has no chips at the table (no buy-in, or cashed out already since his last
            buy-in), is seated in a hand of the session that is still open
            (:func:`_between_hands`), or the chips are more than the table holds
            (:func:`_within_table`).
    """
    check_name(player)
    state = open_state(ledger, session, allow_closed=True)
    chips = chips_written(chips, f"cashout {session} {player}", state)
    if state.closed and not closed:
        raise LedgerError(
            f"session {session} is closed (entry {state.closed_seq}; its books were settled up "
            f"at the close): a cash-out of {player} changes them; nothing written; --closed "
            "records it anyway")
    if player not in state.seated:
        if player in state.cashed:
            raise LedgerError(
                f"{player} already cashed out {state.cashed[player]} chips in {session} (no "
                f"buy-in since); a wrong count is amended: `handledger entry amend {session} "
                "SEQ CHIPS --reason … --by …` (`handledger history --session "
                f"{session}` lists the entries)")
        raise LedgerError(_no_buy_in(session, player, chips, state))
    _between_hands(ledger, session, player, "cash-out", "chips are not taken off the table "
                   "during play")
    _within_table(ledger, session, state, chips, f"cashout {session} {player} {chips}")
    event = ev.CashOut(player=player, chips=chips)
    return event, _append(ledger, session, event, state)


def _within_table(ledger: Any, session: str, state: SessionState, chips: int, where: str,
                  *, replacing: int | None = None) -> None:
    """Refuse a cash-out of ``chips`` beyond the chips still on the table: the session's
    buy-ins less its cash-outs so far (but ``replacing``, the chips of the cash-out an
    amendment replaces, counted back onto the table) and less the rake its hands' pots paid
    the table (:func:`replay.rake_taken.rake_taken`). Hands move chips between players and
    the rake takes some away; none makes chips (table stakes, RULES.md §1.1). Not checked
    while the buy-ins do not account for every chip (a hand seating a player who has none:
    his chips came from outside these books). ``where`` is the command as typed, with the amount
    (``"cashout fri Ann 199"``, ``"entry amend fri 4 (cash-out of Ann): 199 chips"``), which
    the refusal names.

    Raises:
        LedgerError: one line naming ``where``, the chips left on the table, the buy-ins,
            cash-outs and rake, and what to record instead.
    """
    bought, out, rake = _table_sums(ledger, session, state, out_back=replacing or 0,
                                    raked=chips > 0)  # a cash-out of nothing takes no rake
    left = bought - out - rake
    if chips <= left:
        return
    if chips_from_outside(ledger, session, state.bought):
        return
    raked = f", {rake} taken as rake" if rake else ""
    if replacing is None:
        said, others, fix = "", "", "a cash-out counted wrong"
    else:
        said, others, fix = (" besides this cash-out", " by the other entries",
                             "another cash-out counted wrong")
    raise LedgerError(
        f"{where}: the table holds {left} chips not cashed out yet{said} ({bought} bought in, "
        f"{out} cashed out{others}{raked}), and no hand makes chips; a buy-in missing from the "
        f"books is recorded first, {fix} is amended (`handledger entry amend {session} SEQ "
        f"CHIPS --reason … --by …`; `handledger history --session {session}` lists the "
        "entries)")


def _cash_outs_covered(ledger: Any, session: str, state: SessionState, fewer: int, where: str
                       ) -> None:
    """Refuse a buy-in retracted or lowered by ``fewer`` chips that would leave the session's
    cash-outs and the rake its hands' pots paid the table (:func:`replay.rake_taken.
    rake_taken`) above its buy-ins: the table would have paid out chips that never came in
    (no hand makes chips, table stakes, RULES.md §1.1; the bound of :func:`_within_table`,
    seen from the buy-ins). Not checked while a hand seats a player who has no buy-in (his
    chips came from outside these books, as for ``cashout``). ``where`` is the command as
    typed, with the amount (``"entry retract fri 2 (buy-in of Ann, 100 chips)"``).

    Raises:
        LedgerError: one line naming ``where``, the buy-ins it would leave, the cash-outs and
            the rake, and what to record instead.
    """
    bought, out, rake = _table_sums(ledger, session, state, in_back=fewer)
    if out + rake <= bought or chips_from_outside(ledger, session, state.bought):
        return
    raked = f" and {rake} taken as rake ({out + rake} in all)" if rake else ""
    raise LedgerError(
        f"{where}: the buy-ins would come to {bought} chips, less than the {out} cashed out"
        f"{raked}, and no hand makes chips; nothing written (a cash-out counted wrong is "
        f"amended first: `handledger entry amend {session} SEQ CHIPS --reason … --by …`; "
        f"`handledger history --session {session}` lists the entries)")


def _table_sums(ledger: Any, session: str, state: SessionState, *, in_back: int = 0,
                out_back: int = 0, raked: bool = True) -> tuple[int, int, int]:
    """``(bought, cashed out, raked)``: the chips of ``session``'s buy-ins (less ``in_back``,
    a buy-in retracted or lowered), of its cash-outs (less ``out_back``, the cash-out an
    amendment replaces) and of the rake its hands' pots paid the table
    (:func:`replay.rake_taken.rake_taken`), whose sum the table never pays out beyond the
    buy-ins (RULES.md §1.1); the rake is not read (0) unless ``raked``."""
    from replay.rake_taken import rake_taken

    return (sum(state.chips_in.values()) - in_back, state.chips_out - out_back,
            rake_taken(ledger, session) if raked else 0)


def chips_from_outside(ledger: Any, session: str, bought: set[str]) -> bool:
    """Whether a hand of ``session`` seats a player who has no buy-in there (``bought``:
    the players who have), under his name or an alias: his chips came from outside these
    books, so the buy-ins bound nothing."""
    return any(not _alias_group(ledger, p) & bought for p in seated_in(ledger, session) - bought)


def _no_buy_in(session: str, player: str, chips: int, state: SessionState) -> str:
    """The refusal of a cash-out of ``player``, who has no buy-in in ``session``: the name he
    was likely meant to be (a player of its books by another case or a typo) with the
    cash-out to type, else who has chips at the table and how an unrecorded buy-in goes in."""
    names = sorted(state.chips_in)
    close = likely_meant(player, names, n=3)
    said = f"{player} has no buy-in in {session}"
    if len(close) == 1 and close[0] in state.seated:
        return (f"{said}: did you mean {close[0]}? (`handledger cashout {session} {close[0]} "
                f"{chips}`)")
    if len(close) == 1:
        return (f"{said}: did you mean {close[0]}? (he cashed out "
                f"{state.cashed.get(close[0], 0)} chips already)")
    if close:
        return f"{said}: did you mean {' or '.join(close)}?"
    at_table = ", ".join(sorted(state.seated)) or "nobody"
    return (f"{said}: nothing to cash out (chips at the table: {at_table}; a buy-in not yet "
            f"recorded goes first: `handledger buyin {session} {player} CHIPS`)")


def pay(ledger: Any, session: str, payer: str, payee: str, amount: str, *,
        again: bool = False, beyond: bool = False) -> tuple[ev.Payment, SessionState, int]:
    """``payer`` pays ``payee`` ``amount`` of money (e.g. ``"12.50"``) to settle ``session``.
    ``beyond``: go in though it is more than the payer still owes (a payment he did not owe,
    one handed back: ``settle`` then has it paid back). :data:`HOUSE_WORD` (``rake``) on
    one side is the house, whoever keeps the rake (the event's payer or payee None; README
    "settle"): paid at most what it is still owed, and paying back at most what it was paid
    beyond the rake (:func:`_within_house`), unless ``beyond``.

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`), the same player
            twice, a bad amount (:func:`money_written`), or more than the payer's own
            buy-ins in the session with what he paid there already (:func:`_within_buy_ins`);
            NotFound: no such session;
        LedgerError: a player not in the session's books (:func:`in_books`), ``rake`` where
            the session's books hold a player of that name (an imported hand's), more than
            the payer still owes as ``settle`` reckons it (:func:`_within_owed`,
            :func:`_within_house`; unless ``beyond``), or the same payment is recorded
            already (unless ``again``).
    """
    check_name(payer)
    check_name(payee)
    if payer == payee:
        raise MalformedInput("a payment needs two different players")
    state = open_state(ledger, session, allow_closed=True)
    where = f"pay {session} {payer} {payee}"
    amount_minor = money_written(amount, where, state)  # the input first, then the books
    known = in_books(ledger, session, state)
    named = sorted(n for n in known if folded(n) == HOUSE_WORD)  # 'Rake' too
    if HOUSE_WORD in (payer, payee) and named:
        raise LedgerError(f"{where}: session {session} has a player named {named[0]} (from "
                          f"an imported hand), so '{HOUSE_WORD}' cannot name the house here; "
                          "nothing written")
    for who in (payer, payee):
        if who not in known and who != HOUSE_WORD:
            listed = ", ".join(sorted(known)) or "nobody yet"
            close = likely_meant(who, sorted(known))
            meant = f"did you mean {' or '.join(close)}? " if close else ""
            raise LedgerError(f"{who} is not in the books of session {session} (no buy-in, "
                              f"cash-out or hand there; its players: {listed}): {meant}a "
                              "payment settles a session between its players (and "
                              f"'{HOUSE_WORD}' names the house, who keeps the rake)")
    by = None if payer == HOUSE_WORD else payer
    to = None if payee == HOUSE_WORD else payee
    if by is not None:
        _within_buy_ins(ledger, session, state, by, amount_minor, where, amount)
        if not beyond and not _within_owed(ledger, session, state, by, amount_minor, where):
            _within_buy_ins(ledger, session, state, by, amount_minor, where, amount,
                            before=_paid_by(ledger, state, by))
    if not beyond and None in (by, to):
        _within_house(ledger, session, state, amount_minor, where, paying=by is None)
    event = ev.Payment(payer=by, payee=to, amount_minor=amount_minor)
    if not again and (by, to, event.amount_minor) in state.payments:
        raise LedgerError(f"{party(by)} paying {party(to)} {state.money(event.amount_minor)} "
                          f"is recorded in {session} already; a second payment of the same "
                          "amount takes --again")
    return event, state, _append(ledger, session, event, state)


def party(name: str | None) -> str:
    """A payment's side as a line names it: the player, or ``the house`` for None."""
    return "the house" if name is None else name


def _within_house(ledger: Any, session: str, state: SessionState, minor: int, where: str, *,
                  paying: bool, replacing: int = 0) -> None:
    """Refuse a payment of ``minor`` units to the house (``paying`` False) beyond what it is
    still owed in ``session`` — the rake its ended hands took, in money, less what it was
    paid, plus what it paid back (:func:`ledger.audit.reports.house_books`) — or from it
    (``paying``) beyond what it was paid above that; ``replacing``: the amount of the payment
    an amendment replaces. The derived tables are caught up first.

    Raises:
        LedgerError: one line naming ``where``, the amount, the rake and the house's payments.
    """
    from ledger.audit.reports import house_books
    from replay.projections import catch_up

    catch_up(ledger)
    house = house_books(ledger.connection, session)
    owed = house["rake_minor"] - house["received_minor"] + house["paid_minor"]
    owed += -replacing if paying else replacing
    can = max(0, -owed if paying else owed)
    if minor <= can:
        return
    rake = (f"the rake its hands took is {state.money(house['rake_minor'])}, the house was "
            f"paid {state.money(house['received_minor'])} and paid back "
            f"{state.money(house['paid_minor'])}")
    what = (f"is more than the house was paid beyond the rake in {session} "
            f"({state.money(can)}: {rake})" if paying else
            f"is more than the house is still owed in {session} ({state.money(can)}: {rake})")
    raise LedgerError(f"{where}: {state.money(minor)} {what}; nothing written (`handledger "
                      f"settle --session {session}` says who pays whom); --more-than-owed "
                      "records it anyway")


def _within_buy_ins(ledger: Any, session: str, state: SessionState, payer: str, minor: int,
                    where: str, text: str, *, before: int = 0) -> None:
    """Refuse a payment of ``minor`` units by ``payer`` that, with ``before`` (what he paid in
    ``session`` already, :func:`_paid_by`; 0: the payment alone), is larger than he can owe
    there: his own buy-ins there in money (the chip value × every chip he bought so far,
    under any alias) plus what he was paid there (an overpayment handed back). A player loses
    at most the chips he put on the table (table stakes, RULES.md §1.1), and ``settle`` has a
    loser pay at most what he lost (:mod:`ledger.audit.settle`), so a payment larger alone is
    chips written where money is meant (1 chip = 0.25 USD: ``150`` for 150 chips is 150.00
    USD). Not checked while the buy-ins do not account for every chip: a session without
    buy-ins, or a hand seating a player who has none (an alias of one counts as him).

    Raises:
        MalformedInput: one line naming ``where`` (the command as typed up to the amount:
            the session and the payer), the amount, what he paid already, the payer's
            buy-ins in chips and money and, for a whole number, what it is as chips.
    """
    bought = {p for p, chips in state.chips_in.items() if chips}
    if not bought:
        return
    group = _alias_group(ledger, payer)
    chips = sum(state.chips_in.get(p, 0) for p in group)
    received = sum(paid for _, payee, paid in state.payments if payee in group)
    if minor + before <= chips * state.chip_value_minor + received:
        return
    if chips_from_outside(ledger, session, bought):
        return
    paid_him = f", and {state.money(received)} paid to him" if received else ""
    with_before = f", with the {state.money(before)} he paid already," if before else ""
    said = (f"{where}: {state.money(minor)}{with_before} is more than {payer}'s buy-ins in "
            f"{session} ")
    if before or state.chip_value_minor == 10 ** state.decimals:  # chips are money, or the
        worth = ("" if state.chip_value_minor == 10 ** state.decimals  # payments together
                 else f", {state.money(chips * state.chip_value_minor)}")
        raise MalformedInput(f"{said}({chips} chips{worth}{paid_him}): nobody pays more than "
                             "he put on the table; a buy-in missing from the books is recorded "
                             "first" + ("; --more-than-owed records it anyway" if before
                                        else ""))
    as_chips = ""
    if text.isdigit() and int(text) <= chips:
        as_chips = f"; {int(text)} chips are {state.money(int(text) * state.chip_value_minor)}"
    raise MalformedInput(
        f"{said}({chips} chips, {state.money(chips * state.chip_value_minor)}{paid_him}): a "
        f"payment is money, not chips (1 chip is {state.money(state.chip_value_minor)}"
        f"{as_chips}); a buy-in missing from the books is recorded first")


def _paid_by(ledger: Any, state: SessionState, payer: str, replacing: int = 0) -> int:
    """What ``payer`` (under any alias) paid in the session ``state`` describes, minor units,
    less ``replacing`` (the amount of a payment an amendment replaces)."""
    group = _alias_group(ledger, payer)
    return sum(paid for by, _, paid in state.payments if by in group) - replacing


def _within_owed(ledger: Any, session: str, state: SessionState, payer: str, minor: int,
                 where: str, *, replacing: int = 0) -> bool:
    """Refuse a payment of ``minor`` units by ``payer`` beyond what he still owes in
    ``session`` as ``settle`` reckons it (:func:`ledger.audit.reports.settlement`, README
    "sessions and the books"): his net in money, less what he paid there, plus what he was
    paid there (under any alias; less ``replacing``, the amount of the payment an amendment
    replaces), when below zero. The derived tables are caught up in ``ledger`` (open for
    writing) first. Returns whether it was checked: not while settle cannot say (a hand of
    the session still in play, nets that do not sum to zero, a hand the rules refuse) or
    the session holds no hand (its books are buy-ins and cash-outs only), when
    :func:`_within_buy_ins` bounds the payments together instead.

    Raises:
        LedgerError: one line naming ``where``, the amount, what the payer still owes, his
            net and his payments made and received.
    """
    from ledger.audit.reports import settlement
    from replay.projections import catch_up

    try:
        catch_up(ledger)
        books = settlement(ledger.connection, session)[1]
    except LedgerError:
        return False
    if not any(p["hands"] for p in books.players):  # no hand: no net to settle, 0 each
        return False
    group = _alias_group(ledger, payer)
    mine = [p for p in books.players if p["player"] in group]
    net = sum(int(p["net"]) for p in mine)
    paid = sum(int(p["paid_minor"]) for p in mine) - replacing
    received = sum(int(p["received_minor"]) for p in mine)
    owes = max(0, -(net + paid - received))
    if minor <= owes:
        return True
    result = (f"lost {state.money(-net)}" if net < 0 else f"won {state.money(net)}" if net
              else "broke even")
    raise LedgerError(
        f"{where}: {state.money(minor)} is more than {payer} still owes in {session} "
        f"({state.money(owes)}: he {result}, paid {state.money(paid)}, received "
        f"{state.money(received)}); nothing written (`handledger settle --session {session}` "
        "says who pays whom); --more-than-owed records it anyway")


def in_books(ledger: Any, session: str, state: SessionState) -> set[str]:
    """The names in ``session``'s books: who bought in, cashed out, paid or was paid there or
    sat in one of its hands, and every alias of them (``player alias``)."""
    known = {*state.chips_in, *state.cashed, *seated_in(ledger, session)}
    known.update(p for pair in state.payments for p in pair[:2] if p is not None)
    pairs = alias_pairs(ledger)
    for _ in range(2):  # an alias of an alias
        known.update(n for p, a in pairs if p in known or a in known for n in (p, a))
    return known


def correct_entry(ledger: Any, session: str, seq: int, value: str | None, *, reason: str,
                  by: str, closed: bool = False, beyond: bool = False) -> tuple[Any, Any]:
    """Retract (``value`` None) or amend (``value``: chips for a buy-in or cash-out, money for
    a payment) the book entry at ``seq`` of ``session``'s stream. Returns the entry as it
    stood and the replacement (None: retracted). ``closed``: a buy-in or cash-out of a closed
    session goes in (its books were settled up at the close; a payment, the settling up
    itself, needs no flag, as ``pay``). ``beyond``: an amended payment goes in though it is
    more than the payer owes (as ``pay --more-than-owed``).

    Raises:
        NotFound: no such session or entry; MalformedInput: a bad value
            (:func:`chips_written`, :func:`money_written`); LedgerError: the
            entry is retracted already (neither retracted again nor amended back), an
            amendment to the value it has already ("changes nothing"), a buy-in or cash-out
            of a closed session without ``closed``, a cash-out amended to more chips than
            the table holds besides it (:func:`_within_table`, as ``cashout``), a buy-in
            retracted or amended to fewer chips that would leave the cash-outs and the rake
            above the buy-ins (:func:`_cash_outs_covered`), the retraction of all a player
            bought while a hand seats him (:func:`_seats_still_bought`), or a payment beyond
            what is owed without ``beyond``.
    """
    state = open_state(ledger, session, allow_closed=True)
    entry = state.entries.get(seq)
    if entry is None:
        listed = ", ".join(f"{s} {e.type}" for s, e in sorted(state.entries.items()))
        raise NotFound(f"session {session} has no buy-in, cash-out or payment at seq {seq}"
                       + (f" (its entries: {listed})" if listed else ""))
    if state.closed and not closed and entry.type != "payment":
        doing = "retracting" if value is None else "amending"
        raise LedgerError(
            f"session {session} is closed (its books were settled up at the close): "
            f"{doing} its entry {seq} ({entry.type.replace('_', '-')} of {entry.player}) "
            "changes them; nothing written; --closed records it anyway")
    if seq in state.retracted:
        raise LedgerError(
            f"entry {seq} ({entry.type}) of session {session} is retracted already: "
            + ("nothing to retract" if value is None else "an amendment would bring it back; "
               "record the entry again instead (`handledger history --session "
               f"{session}` lists the entries)"))
    replacement = None
    if value is None and entry.type == "buy_in":
        was = state.amended.get(seq, entry).chips
        where = f"entry retract {session} {seq} (buy-in of {entry.player}, {was} chips)"
        _cash_outs_covered(ledger, session, state, was, where)
        _seats_still_bought(ledger, session, state, seq, was, where)
    if value is not None:
        where = f"entry amend {session} {seq} ({entry.type.replace('_', '-')})"
        if entry.type == "payment":
            minor = money_written(value, where, state)
            now_minor = state.amended.get(seq, entry).amount_minor
            if entry.payer is not None:
                _within_buy_ins(ledger, session, state, entry.payer, minor, where, value)
                if not beyond and not _within_owed(ledger, session, state, entry.payer, minor,
                                                   where, replacing=now_minor):
                    _within_buy_ins(ledger, session, state, entry.payer, minor, where, value,
                                    before=_paid_by(ledger, state, entry.payer, now_minor))
            if not beyond and None in (entry.payer, entry.payee):
                _within_house(ledger, session, state, minor, where,
                              paying=entry.payer is None, replacing=now_minor)
            replacement = entry.model_copy(update={"amount_minor": minor})
        else:
            replacement = _amended_chips(ledger, session, state, seq, value,
                                         f"{where[:-1]} of {entry.player})")
        now = state.amended.get(seq, entry)
        if replacement == now:
            said = (state.money(now.amount_minor) if now.type == "payment"
                    else f"{now.chips} chips")
            raise LedgerError(f"changes nothing: entry {seq} ({entry.type.replace('_', '-')}) "
                              f"of session {session} is {said} already; nothing written")
    fix = ev.EntryCorrected(seq=seq, reason=reason, by=by, replacement=None if replacement
                            is None else replacement.model_dump(mode="json"))
    _append(ledger, session, fix, state)
    return entry, replacement


def _seats_still_bought(ledger: Any, session: str, state: SessionState, seq: int,
                        chips: int, where: str) -> None:
    """Refuse the retraction of the buy-in at ``seq`` of ``session`` (``chips``) when it is
    all its player bought there under his names while a hand there seats him and is not
    voided: it would start with chips nobody bought, which ``hand start`` refuses and the
    audit's stack continuity names (README "A night at the table"). ``where``: ``"entry
    retract fri 3 (buy-in of Dee, 100 chips)"``.

    Raises:
        LedgerError: naming the hands that seat him.
    """
    from replay.fold import fold_stream

    player = state.entries[seq].player
    names = {player} | _alias_group(ledger, player)
    if sum(state.chips_in.get(n, 0) for n in names) > chips:
        return  # another buy-in of his is left
    seating = []
    for hand, voided, _ in hands_seating(ledger, session, names):
        if voided:
            try:
                if fold_stream([r.event for r in ledger.read(hand)])[0].status == "voided":
                    continue
            except LedgerError:
                pass  # a hand that does not replay still seats him
        seating.append(hand)
    if not seating:
        return
    listed = ", ".join(seating[:5]) + (f" and {len(seating) - 5} more" if len(seating) > 5
                                       else "")
    many = len(seating) > 1
    raise LedgerError(
        f"{where}: it is all {player} bought in session {session}, and hand"
        f"{'s' if many else ''} {listed} seat{'' if many else 's'} him: "
        f"{'they' if many else 'it'} would start him with chips nobody bought; nothing "
        "written (a wrong amount is "
        f"amended: `handledger entry amend {session} {seq} CHIPS --reason … --by …`; a hand "
        "seated by mistake is voided first)")


def _amended_chips(ledger: Any, session: str, state: SessionState, seq: int, value: str,
                   where: str) -> Any:
    """The buy-in or cash-out at ``seq`` amended to ``value`` chips (as typed), for
    :func:`correct_entry`: a cash-out raised stays within what the table holds
    (:func:`_within_table`), a buy-in lowered leaves the cash-outs and the rake covered
    (:func:`_cash_outs_covered`). ``where``: ``"entry amend fri 4 (buy-in of Ann)"``.

    Raises:
        MalformedInput: a bad amount (:func:`chips_written`); LedgerError: either bound.
    """
    entry = state.entries[seq]
    chips = chips_written(value, where, state, least=int(entry.type == "buy_in"))
    was = state.amended.get(seq, entry).chips
    if entry.type == "cash_out" and chips > was:  # more chips off the table
        _within_table(ledger, session, state, chips, f"{where}: {chips} chips", replacing=was)
    if entry.type == "buy_in" and chips < was:  # fewer chips came in
        _cash_outs_covered(ledger, session, state, was - chips, f"{where}: {chips} chips")
    return ev.parse_event({**entry.model_dump(mode="json"), "chips": chips})


def add_alias(ledger: Any, name: str, other: str, session: str | None
              ) -> tuple[str, bool]:
    """Record that ``other`` (another name or a platform id) is the player ``name``, in
    ``session``'s stream (default: the latest session). Returns the session and whether
    ``name`` is a player name the ledger held already (False: ``other`` is renamed to a new
    name, which the caller says).

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`; a new ``name``,
            :func:`ledger.model.names.check_new_name`), or ``other`` is ``name``; NotFound:
            no session; LedgerError: ``name`` is no player name of the ledger and close to
            one that is (a typo: :func:`ledger.model.names.likely_meant`, ``other`` and his
            aliases aside), the two sat in one hand together or both have
            book entries in one session (two players: an alias would merge their nets,
            RULES.md §1.1).
    """
    check_name(name)
    check_name(other)
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    mine = _alias_group(ledger, name)
    theirs = _alias_group(ledger, other) - mine
    known = name in (names := player_names(ledger))
    if not known:  # a new name: one a command line can give back, printing like no other
        check_not_look_alike(name, names - theirs - {other}, "player",
                             "a player of the ledger")
        check_new_name(name)
        check_not_the_house(name)
    if not known and (close := likely_meant(name, sorted(names - theirs - {other}))):
        raise LedgerError(f"{name} is no player in the ledger: did you mean "
                          f"{' or '.join(close)}? (`handledger player alias {close[0]} "
                          f"{other}`); nothing recorded")
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
    return session, known


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
