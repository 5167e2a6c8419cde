"""Each hand of a file counted in its session's chips (:mod:`replay.ingest.units`), a hand that
does not convert exactly refused, and the new hands of a closed session refused
(RULES.md §1.1), with the session names that look like one of the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.formats.phh.base import PhhHand
from ledger.formats.reading import FileRead, SessionEntry
from ledger.model.batch import Batch
from ledger.model.errors import (
    LedgerError,
)
from ledger.model.events import event_json


def in_session_units(ledger: Any, read: FileRead, batches: list[Batch],
                     errors: list[LedgerError], units: dict[str, Any] | None = None,
                     closed: dict[str, bool] | None = None, *, once: bool = False
                     ) -> tuple[list[Batch], list[LedgerError]]:
    """Each hand of a session counted in that session's chips (:mod:`replay.ingest.units`);
    a hand that does not convert exactly is an error and left out, and so is a new hand of a
    closed session (:func:`refuse_closed`). ``units``, ``closed``: the sessions' units and
    whether the ledger has them closed, found so far (kept across the chunks of one file).
    ``once``: ``batches`` are the whole file's, and when every hand of it is refused for the
    same reason (a currency, tournament chips), that is one :class:`SameForHands` error."""
    from replay.ingest.units import ChipNotDivided, NotWholeChips, SessionUnit
    from replay.sessions import session_state

    batches, errors = refuse_closed(ledger, read, batches, errors, closed)

    opened = {i.session: i.event for i in read.items if isinstance(i, SessionEntry)
              and i.event.type in ("session_opened", "session_changed")}
    if units is None:
        units = {}

    def unit(name: str) -> SessionUnit | None:
        if name not in units:
            e = opened.get(name)
            if e is not None:
                units[name] = SessionUnit(e.chip_value_minor, e.currency, e.decimals)
            else:
                s = session_state(ledger, name)
                units[name] = SessionUnit(s.chip_value_minor, s.currency, s.decimals) \
                    if s.opened else None
        return units[name]

    from replay.ingest.old_units import earlier_in_own_session

    as_stored = _stored_so(ledger, batches, unit) | earlier_in_own_session(read, batches)
    tried: dict[int, list[Any] | LedgerError] = {}  # batch index: converted, or the refusal
    for index, b in enumerate(batches):
        if b.is_hand and b.events and b.session is not None:
            tried[index] = _converted(read, b, as_stored, unit)
    held = held_as_read(ledger, [batches[i] for i, got in tried.items()
                                 if isinstance(got, LedgerError)])
    out, wrong = [], []
    for index, b in enumerate(batches):
        got = tried.get(index)
        if isinstance(got, LedgerError):
            if b.hand_id in held:  # in the ledger already: known, nothing of it converted
                out.append(b.with_events(None))
            else:
                wrong.append(got)
            continue
        if got is not None:
            check_signed_unconverted(read, b, got, unit(b.session))
            b = b.with_events(got)
        out.append(b)
    tried_count = len(tried) - len(held)
    if len(wrong) > 1 and len(wrong) == tried_count and len({e.message for e in wrong}) == 1 and (
            once or all(isinstance(e, ChipNotDivided) for e in wrong)):
        wrong = [SameForHands(wrong)]  # one cause for the whole file: said once
    elif len(wrong) > 1 and len(wrong) == tried_count and all(
            isinstance(e, NotWholeChips) for e in wrong):  # the file's unit is not the session's
        first = wrong[0]
        wrong = [SameForHands(wrong, (
            f"its amounts are in a smaller unit than the session's chip of {first.chip} minor "
            f"units (hand {first.hand}: an amount of {first.minor}): import it into a session "
            "whose chip divides them, or without --session; never rounded"))]
    return out, [*errors, *wrong]


def _converted(read: FileRead, b: Batch, as_stored: set[str],
               unit: Callable[[str], Any]) -> list[Any] | LedgerError:
    """The events of the hand of ``b`` in its session's chips (``unit(session)``; those of
    ``as_stored`` as they are), or the refusal of a hand that does not convert exactly, at
    the file's rake line (a rake of no whole chips) or else the hand's first line."""
    from replay.ingest.units import NotWholeChips, to_session

    assert b.events is not None and b.session is not None
    try:
        return (list(b.events) if b.hand_id in as_stored
                else to_session(b.events, unit(b.session), b.session))
    except LedgerError as exc:
        if isinstance(exc, NotWholeChips) and exc.rake:  # at the file's rake line
            exc.located(line=next((i.rake_line for i in read.items if isinstance(
                i, PhhHand) and i.hand == b.hand_id), None))
        return exc.located(line=b.line)  # else at the hand's first line


def held_as_read(ledger: Any, batches: list[Batch]) -> set[str]:
    """The hands of ``batches`` (read from the file, unconverted) that the ledger holds
    already, known as the write step knows a copy of a stored hand
    (:func:`replay.ingest.known_hands.drop_known_hands`: the same source, or the same
    original events, a copy in another session's chips compared in the stored ones). Such a
    hand is known whatever the chip of the session the import names: nothing of it is
    written (docs/IMPORTING.md, "The import's summary line"). No query when ``batches`` is
    empty."""
    from ledger.store.streams import head_position
    from replay.ingest.known_hands import drop_known_hands

    if not batches:
        return set()
    # closed: a longer copy of a closed session's hand is not refused here, only not known
    kept, _, _ = drop_known_hands(ledger, batches, upto=head_position(ledger), closed=True)
    return {b.hand_id for b in kept if b.is_hand and b.events is None
            and b.hand_id is not None}


def _stored_so(ledger: Any, batches: list[Batch], unit: Callable[[str], Any]) -> set[str]:
    """The hands of ``batches`` in the unit an earlier conversion into their session
    (``unit(session)``: a chip of a cent) stored such a hand in, whole dollars
    (:func:`replay.ingest.units.earlier_conversion`), that start as the ledger holds them in
    that session, unit and amounts: the file is the ledger's own export of them, written
    before exports gave such a hand its session's chip, or one a signature binds as stored.
    Their amounts are the session's chips already; converted as dollars they would be a
    hundred times the stored ones. They are compared with the stored hands as they are, or
    as the session's chip says them where the ledger stores the hand in that chip (a file in
    whole dollars starts otherwise, and is converted). One query for them all."""
    from replay.ingest.stored_copy import same_start
    from replay.ingest.units import earlier_conversion, session_unit

    maybe, chips = {}, {}
    for b in batches:
        if b.is_hand and b.events and b.session is not None and b.hand_id is not None:
            chip = unit(b.session)
            if chip is not None and earlier_conversion(b.events[0].unit, session_unit(chip)):
                maybe[b.hand_id], chips[b.hand_id] = b, session_unit(chip)
    if not maybe:
        return set()
    rows = ledger.query("SELECT hand_id, session, CAST(payload AS VARCHAR) FROM events"
                        " WHERE seq = 1 AND hand_id IN (SELECT UNNEST(?))", [list(maybe)])
    return {hand for hand, session, payload in rows  # stored so, or in the session's chip
            if session == maybe[hand].session and maybe[hand].events is not None
            and same_start(maybe[hand].events[0], payload, chips[hand])}


def check_signed_unconverted(read: FileRead, b: Batch, converted: list[Any],
                             unit: Any) -> None:
    """Refuse the file of ``read`` when the hand of ``b`` has a signed amendment (a
    correction or void, :mod:`ledger.store.signing`) that its conversion into its session's
    chips (``converted``, ``unit``: :func:`replay.ingest.units.to_session`) changes, or
    whose signature binds the hand's rows before it (every signature made now) when the
    conversion changes those: the signature covers the event and the hand as signed, so the
    converted ones would no longer verify (``history``: FAILS, altered), and the ledger never
    rewrites a signed event. A signature of the older form, which binds the event only, lets
    a void (no amounts) be converted with its hand.

    Raises:
        LedgerError: naming the file, the amendment's line, the hand, both chip values and
            the session to import it into (README, "JSON lines"); nothing of the file is
            written.
    """
    from ledger.model.money import format_money
    from ledger.store.signing import SIGNABLE, binds_hand, hand_digest
    from replay.ingest.units import chip_minor, iso_decimals

    assert b.events is not None
    for index, (was, now) in enumerate(zip(b.events, converted, strict=True)):
        if not (isinstance(was, SIGNABLE) and was.signature is not None):
            continue
        if event_json(was) != event_json(now):
            covers = "the amounts as signed"
        elif binds_hand(was) and (
                hand_digest(b.events[:index]) != hand_digest(converted[:index])):
            covers = f"the hand's {index} row(s) before it as signed, amounts and unit"
        else:
            continue
        worth = chip_minor(b.events[0].unit) or 1  # minor units of ISO 4217's decimals
        chip = format_money(worth, iso_decimals(unit.currency), unit.currency)
        theirs = format_money(unit.chip_value_minor, unit.decimals, unit.currency)
        raise LedgerError(
            f"its {was.type.replace('_', ' ')} at seq {index + 1} (by {was.by}) is signed, and "
            f"a signed amendment cannot be converted to another chip value: the file counts "
            f"chips of {chip}, session {b.session} chips of {theirs}, and the signature covers "
            f"{covers}; import the file into a session whose chip is {chip}; "
            "nothing of the file was written", file=read.file,
            line=b.lines[index] if b.lines is not None else b.line, hand=b.hand_id)


class SameForHands(LedgerError):
    """One error for several hands of a file refused for the same reason (``hands``: those
    hands, each counted a rejected hand of the report); ``said``: that reason in words of
    the whole file (default: the first hand's)."""

    def __init__(self, errors: list[LedgerError], said: str | None = None) -> None:
        first = errors[0]
        super().__init__(f"{said or first.message} (all {len(errors)} hands of the file, from "
                         f"{first.hand} to {errors[-1].hand}: nothing of them was imported)",
                         file=first.file)
        self.hands = [e.hand for e in errors]


def refuse_closed(ledger: Any, read: FileRead, batches: list[Batch],
                  errors: list[LedgerError], closed: dict[str, bool] | None = None
                  ) -> tuple[list[Batch], list[LedgerError]]:
    """``batches`` without the hands that name, in their own session field, a session the
    ledger has closed or that the file closed on an earlier line (RULES.md §1.1: a closed
    session takes no more hands), with an error for each naming file, line, hand and
    session, as ``import --session`` refuses a closed session. A hand the ledger holds
    already (its id or its source key) is left to the check of stored hands (the same hand
    again adds nothing). A session the ledger has never opened is no one's books: its
    hands go in. ``closed``: each session's closed state in the ledger, found so far.

    A session the ledger does not hold under a name that differs only in case from (or
    prints like) one it does is refused too, its hands and its session rows alike: names so
    alike are one session's, never a second one beside it (as ``session open`` refuses).

    Returns the batches kept and ``errors`` with the refusals added (file order)."""
    from replay.sessions import session_state

    if closed is None:
        closed = {}
    closed_at, where = _places(read)
    batches, errors = LooksLike(ledger).without(read, batches, errors)
    refused: dict[str, str] = {}  # hand -> why
    for b in batches:
        if not (b.is_hand and b.events and b.session is not None):
            continue
        s = b.session
        if s not in closed:
            closed[s] = session_state(ledger, s).closed
        index, line = where.get(b.hand_id or "", (-1, 0))
        if closed[s]:
            refused[b.hand_id or ""] = f"session {s!r} is closed"
        elif s in closed_at and closed_at[s] < index:
            refused[b.hand_id or ""] = (f"session {s!r} is closed on line "
                                        f"{read.items[closed_at[s]].line} of this file")
    if not refused:
        return batches, errors
    stored = _stored_hands(ledger, [b for b in batches if b.hand_id in refused])
    out, errors = [], list(errors)
    for b in batches:
        hand = b.hand_id
        if hand in refused and hand not in stored:
            errors.append(LedgerError(
                f"{refused[hand]}: it takes no more hands or buy-ins (as with --session; "
                "import the hand into an open session with --session, or fix its session "
                "field)", file=read.file,
                line=where.get(hand, (0, None))[1], hand=hand))
            continue
        out.append(b)
    return out, errors


class LooksLike:
    """The session of the ledger each session a file names looks like (differs only in
    case, or prints alike), when the ledger does not hold that name itself; "" for none."""

    def __init__(self, ledger: Any) -> None:
        self._ledger = ledger
        self._held: list[str] | None = None
        self._alike: dict[str, str] = {}

    def __call__(self, session: str) -> str:
        if session not in self._alike:
            from ledger.model.names import look_alikes
            from replay.sessions import session_names

            if self._held is None:
                self._held = session_names(self._ledger)
            same = [] if session in self._held else look_alikes(session, self._held)
            self._alike[session] = same[0] if same else ""
        return self._alike[session]

    def without(self, read: FileRead, batches: list[Batch], errors: list[LedgerError]
                ) -> tuple[list[Batch], list[LedgerError]]:
        """``batches`` without the hands and session rows of a look-alike session, and
        ``errors`` with one refusal for each such session, at its first line."""
        kept: list[Batch] = []
        dropped: dict[str, list[int]] = {}  # session -> [first line, hands, session rows]
        for b in batches:
            other = self(b.session) if b.session is not None else ""
            if not other:
                kept.append(b)
                continue
            tally = dropped.setdefault(b.session or "", [b.line or 0, 0, 0])
            tally[1 if b.is_hand else 2] += 1
        for session, (line, hands, rows) in dropped.items():
            errors = [*errors, LedgerError(
                f"{_alike(session, self(session))}; nothing of it was imported ({hands} "
                f"hand(s), {rows} session row(s))", file=read.file, line=line or None)]
        return kept, errors


def _alike(session: str, other: str) -> str:
    """Why a session ``session`` of a file, like the ledger's ``other``, is refused."""
    return (f"session name {session!r} is new but {other!r} is a session of the ledger, "
            f"named alike: did you mean {other}? (import the file with --session {other}, "
            "or fix its session field)")


def _places(read: FileRead) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """``({session: the item index of its first session_closed in the file}, {hand: (its
    item index, its line)})`` of ``read``."""
    closed_at: dict[str, int] = {}
    where: dict[str, tuple[int, int]] = {}
    for i, item in enumerate(read.items):
        if isinstance(item, SessionEntry):
            if item.event.type == "session_closed":
                closed_at.setdefault(item.session, i)
            continue
        hand = getattr(item, "hand_id", None) or getattr(item, "hand", None)
        if isinstance(hand, str):
            where.setdefault(hand, (i, item.line))
    return closed_at, where


def _stored_hands(ledger: Any, batches: list[Batch]) -> set[str | None]:
    """The hand ids of ``batches`` the ledger holds under that id or the batch's source key."""
    hands = [b.hand_id for b in batches]
    rows = ledger.query("SELECT DISTINCT hand_id FROM events WHERE seq = 1 AND hand_id IN"
                        " (SELECT UNNEST(?))", [hands])
    found: set[str | None] = {h for (h,) in rows}
    keys = ledger.known_sources([b.source_key for b in batches if b.source_key is not None])
    return found | {b.hand_id for b in batches if b.source_key in keys}
