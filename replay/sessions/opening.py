"""Opening a session, saying what its chip is worth, and closing it (``session open``,
``session set``, ``session close``): a chip value that would revalue hands imported in money is
refused, and so is closing while a hand of the session is in play.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.money import check_currency, format_money
from ledger.model.names import check_name, check_name_length, check_new_name
from ledger.model.shell import shell_arg
from ledger.store.intact import require_intact
from ledger.store.proven import prove_before_writing
from ledger.store.streams import hand_units, money_hand, unended_hands, unnamed_money_hand
from replay.ingest.units import currency_code
from replay.sessions.amounts import chip_value_written
from replay.sessions.state import (
    append_entry,
    check_new_session_name,
    closed_flag_on_open,
    open_state,
    session_state,
)


def open_session(ledger: Any, name: str, *, day: str | None, chip_value: str,
                 currency: str | None, decimals: int | None) -> ev.SessionOpened:
    """Open session ``name``: one chip is ``chip_value`` money in ``currency`` (decimals: the
    currency's ISO 4217 minor units, USD 2, JPY 0, KWD 3; without a currency, those of
    ``chip_value``).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        MalformedInput: as :func:`session_opening`, or a name that prints like another
            session's (:func:`ledger.model.names.check_not_look_alike`); LedgerError: the
            session exists.
    """
    check_name(name, "session")
    prove_before_writing(ledger)
    state = session_state(ledger, name)
    if state.opened or state.last_seq:
        raise LedgerError(f"session {name!r} already exists")
    check_new_session_name(ledger, name)
    opened = session_opening(name, day=day, chip_value=chip_value, currency=currency,
                             decimals=decimals)
    _agrees_with_hands(ledger, name, chip_value, opened)
    append_entry(ledger, name, opened, state)
    return opened


def _agrees_with_hands(ledger: Any, name: str, chip_value: str, opened: ev.SessionOpened
                       ) -> None:
    """Refuse opening session ``name`` at a chip value that is not what its hands, imported
    before it was opened (a file naming the session), say a chip is worth: their amounts are
    that money, and the opening would revalue them (docs/BOOKS.md "a session has one unit", as
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


def session_opening(name: str, *, day: str | None, chip_value: str, currency: str | None,
                    decimals: int | None) -> ev.SessionOpened:
    """The ``session_opened`` event :func:`open_session` appends, checked without a ledger
    (what ``session open`` refuses before it makes a ledger file: a refusal leaves none).

    Raises:
        MalformedInput: a bad name (:func:`ledger.model.names.check_new_name`), date, chip
            value (:func:`chip_value_written`) or currency
            (:func:`ledger.model.money.check_currency`).
    """
    check_name_length(name, "session", where="session open")  # before a line prints it
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
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        NotFound: no such session; MalformedInput: a bad chip value or currency; LedgerError:
            the chip is worth that already ("changes nothing", as ``entry amend``), the
            session is closed (unless ``closed``: a new unit would change what is owed
            after it was settled up, README "sessions and the books"), or payments are recorded
            in it and the currency or its decimals would change (they are money in the old
            currency), or it holds a hand whose amounts came in money: they were converted to
            its chips exactly on import (README: a session has one unit), and a new chip value
            would revalue them; or it holds a hand whose amounts came in money of no named
            currency (a PokerNow log in cents) and the chip value is not what its unit says a
            chip is worth (naming the currency at that value is taken).
    """
    check_currency(currency)
    prove_before_writing(ledger)
    state = open_state(ledger, name, allow_closed=True)
    if closed:
        closed_flag_on_open(state, name, f"session set {name} --closed")
    unit = state.money(state.chip_value_minor)
    try:
        same = _kept_unit(state, chip_value, currency, decimals) == (
            state.chip_value_minor, state.currency, state.decimals)
    except LedgerError:  # a bad value: refused below, after what the session says
        same = False
    if same:
        raise LedgerError(f"changes nothing: session {name} is 1 chip = {unit} already; "
                          "nothing written")
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
    append_entry(ledger, name, event, state)
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


def close_session(ledger: Any, name: str) -> tuple[int, int, bool] | None:
    """Close session ``name`` (no more hands or buy-ins; payments settle it up). Refused
    while a hand of it is in play (:func:`hands_in_play`): its pot is not paid yet, and the
    books closed are the books settled up (docs/COMMANDS.md "sessions and the books").

    The closing is followed by a checkpoint of the head, which vouches for every row: a
    file whose blocks or chain ``verify`` fails is refused first
    (:func:`ledger.store.intact.require_intact`), and so is a checkpoints file the checkpoint
    could not be appended to (:meth:`ledger.store.sidecar.FileState.refusal`: a checkpoint
    the ledger does not extend, a damaged line), nothing written. Returns None; or, for a
    session closed already whose close's checkpoint its checkpoints file lacks
    (:func:`ledger.store.sidecar.unanchored_closes`), ``(seq, position, no_file)`` of that
    close (``no_file``: there is no checkpoints file at all), nothing written: the caller
    takes its checkpoint (docs/LEDGER.md "Anchoring it").

    Raises:
        NotFound: see :func:`open_state`; LedgerError: it is closed already and its close's
            checkpoint is in the checkpoints file (naming the entry that closed it: a second
            closing would change nothing), or that file holds a checkpoint the ledger does
            not extend or a damaged line (naming it: no checkpoint is taken over it), or a
            hand of it is in play (naming the first, how many more, and how to end or void
            it), or its last hand carries chips to a next hand that no hand took (naming the
            hand, the chips and the ways forward: :func:`replay.carry.left_to_none`);
            ChainBroken, LedgerCorrupt: the chain breaks (naming the first bad position), a
            block fails its checksum.
    """
    from ledger.store.checkpoint import default_file
    from ledger.store.sidecar import file_state, unanchored_closes
    from replay.carry import left_to_none, left_to_none_text, left_to_none_ways

    state = open_state(ledger, name, allow_closed=True)
    if state.closed:
        closes = unanchored_closes(ledger, session=name)
        for _, seq, position in closes.missing:
            require_intact(ledger, f"the checkpoint of session {name}'s close not taken (it "
                                   "would vouch for rows that are not those written)")
            assert closes.file is not None  # a close is missing only beside a file's path
            refused = closes.file.refusal(
                f"session {name} is closed already (entry {seq}, position {position}), and "
                "no checkpoint of its close is taken over that")
            if refused is not None:
                raise refused
            return seq, position, not closes.file.exists
        raise LedgerError(f"session {name!r} is closed already (entry {state.closed_seq}): "
                          "nothing to close (`handledger history --session "
                          f"{shell_arg(name)}` lists its entries)")
    if playing := hands_in_play(ledger, name):
        more = len(playing) - 1
        hand = playing[0]
        raise LedgerError(
            f"session {name} has hand {hand} still in play"
            + (f" (and {more} more hand{'s' if more > 1 else ''})" if more else "")
            + f": end it (`handledger act {shell_arg(hand)} end`, once its pots are paid) or void "
              "it "
            f"(`handledger void {shell_arg(hand)} --reason … --by …`), then close; nothing written")
    if (left := left_to_none(ledger, name)) is not None:
        raise LedgerError(f"{left_to_none_text(name, left)}: closed now, they would be owed "
                          f"by nobody and the books could not settle; "
                          f"{left_to_none_ways(left)}, then close; nothing written")
    require_intact(ledger, f"session {name} not closed (its checkpoint would vouch for rows "
                           "that are not those written); nothing written")
    own = default_file(ledger.path)
    if own is not None:
        refused = file_state(ledger, own).refusal(
            f"session {name} not closed (its checkpoint could not be appended); nothing "
            "written")
        if refused is not None:
            raise refused
    append_entry(ledger, name, ev.SessionClosed(), state)
    return None


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
