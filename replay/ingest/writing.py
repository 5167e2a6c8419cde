"""Appending one file's checked hands: hands the ledger holds skipped or refused, ``--strict``,
chips carried between hands, cut-off hands completed, and what the import counts.

A file is written in one transaction, whole or not at all. Its hands may come in chunks (a
large ``.phhs`` is read, checked and appended a few thousand hands at a time, so that memory
does not grow with the file): every chunk is appended inside that one transaction, which
rolls back when a later chunk fails, and under ``--strict`` when any hand of the file is bad.
The ledger, the report and the errors are those of appending the whole file at once: hands
are looked up among the rows stored before the file only, and a chunk never ends where the
next hand of a session could still carry chips into it (RULES.md §3.8, §7.1).

With :class:`replay.ingest.derived.ImportTables`, each appended hand's share of the derived
tables is made from the engine state its check left and written in the same transaction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ledger.formats.files import file_name
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, RepeatedHand, StoredFinding
from ledger.model.events import event_json
from ledger.model.money import currency_code
from replay import carry
from replay.ingest import completing, phh_form
from replay.ingest.closed import refuse_amending
from replay.ingest.differences import Difference, event_difference, plain, short
from replay.ingest.file_order import in_file_order, positions_of
from replay.ingest.samedeal import drop_same_deals

#: ``{hand id: (the events its check folded, their share of the derived tables pickled, or
#: None: replayed again)}`` (:func:`replay.ingest.derived.early_share`)
States = dict[str, tuple[Sequence[Any], bytes | None]]


class _Discard(Exception):
    """Roll back the file's transaction (``--strict`` and a bad hand): nothing is written."""


class FileWriter:
    """One file's batches appended chunk after chunk inside the caller's transaction
    (:meth:`add`), then its report (:meth:`finish`). ``stored``: the ledger's head before the
    file (hands already in the ledger are those at or before it); ``tables``: the derived
    tables made as the hands are appended (None: not here); ``game``: the file is one
    export of a game whose hands follow each other (a PokerNow log, FORMATS.md §2), so a
    stored hand it disagrees with refuses it whole, as ``--strict`` would (its later hands
    would not follow the stored ones); ``closed``: the file may go on with hands the ledger
    holds in closed sessions (:func:`replay.ingest.closed.refuse_amending`); ``in_order``:
    a JSON-lines file, whose rows are stored at their lines (:mod:`replay.ingest.file_order`:
    a hand's rows after another batch's row cut there)."""

    def __init__(self, ledger: Any, path: Path, *, strict: bool, stored: int,
                 tables: Any = None, game: bool = False, closed: bool = False,
                 in_order: bool = False) -> None:
        from replay.ingest.pipeline import ImportReport

        self.ledger, self.path, self.strict, self.stored = ledger, path, strict, stored
        self.game, self.closed, self.in_order = game, closed, in_order
        self.tables = tables
        self.part = ImportReport()
        self.errors: list[LedgerError] = []  # the check's errors, in file order
        self.unit_errors: list[LedgerError] = []
        self.clashes: list[LedgerError] = []
        self.kept: set[str | None] = set()  # hands of the file not refused
        self.already: set[str | None] = set()  # kept hands the ledger held before the file
        self.in_play: set[str | None] = set()  # known hands the ledger holds in play
        self.dealt: dict[str, str] = {}  # id-less PHH copy known by its deal -> stored hand
        self.good = 0  # hands that would be written (or complete a cut one)
        self.completions: list[Batch] = []
        self._previous = carry.previous_in(ledger)
        self._stored = carry.stored_in(ledger)
        # the file's session lines read before any hand of it was kept: written with its
        # first hand kept, or at the end, unless every hand of the file was refused
        self.books: list[Batch] | None = [] if not game else None
        self.lines: dict[int, int | None] = {}  # a session row's position: its file line

    @property
    def refusing(self) -> bool:
        """Whether ``--strict`` refuses the file already (nothing more is appended): a hand or
        line of it was refused (a :class:`StoredFinding` refuses nothing)."""
        return (self.strict and bool(_refusals(self.errors) or self.unit_errors or self.clashes)
                or self.game and bool(self.clashes))

    def add(self, batches: list[Batch], errors: Sequence[LedgerError],
            states: States | None = None, unit_errors: Sequence[LedgerError] = ()) -> None:
        """Append one chunk's batches (in file order) with the chunk's errors: the check's,
        and the units' (:func:`replay.ingest.pipeline.in_session_units`), which the report
        lists after every check error of the file. ``states``: each hand's share of the
        derived tables, made when it was checked (:data:`States`).

        Raises:
            LedgerError: the ledger refused the write, or the chunk would go on with a hand
                of a closed session (:func:`replay.ingest.closed.refuse_amending`); the
                caller's transaction rolls back.
        """
        part = self.part
        batches, clashes, outside = _drop_known_hands(
            self.ledger, batches, file_name(self.path.name), upto=self.stored,
            closed=self.closed)
        batches, edited = _drop_edited_places(self.ledger, batches, upto=self.stored)
        clashes.extend(edited)
        batches, edited, dealt = drop_same_deals(self.ledger, batches, upto=self.stored,
                                                 content_id=_CONTENT_ID,
                                                 compare=partial(_deal_difference, self.ledger))
        clashes.extend(edited)
        self.dealt.update(dealt)
        self.errors.extend(errors)
        self.unit_errors.extend(unit_errors)
        self.clashes.extend(clashes)
        self.kept.update(b.hand_id for b in batches if b.is_hand)
        self.in_play.update(_known_in_play(self.ledger, batches, errors, dealt))
        self.good += sum(1 for b in batches if b.is_hand and b.events)
        # hands the ledger holds already: known, even in a file refused whole
        part.known += sum(1 for b in batches if b.is_hand and b.events is None)
        if self.refusing:
            return
        # a copy known by its deal is other content (its finishing_stacks, say): its findings
        # were not given when the stored hand was, so they are warnings still
        self.already.update(b.hand_id for b in batches
                            if b.is_hand and b.events is None and b.hand_id not in dealt)
        part.outside += outside
        self.completions.extend(b for b in batches if completing.completes(b))
        batches = self._books_held(batches)
        self._amendments_kept(batches)
        try:
            batches = carry.link(
                [b for b in batches if b.events and not completing.completes(b)],
                self._previous, self._stored)
        except LedgerError as exc:
            raise exc.located(file=file_name(self.path.name)) from None
        if self.in_order:  # a hand amended after later rows: each row at its line
            pieces, owner = in_file_order(batches)
            written = positions_of(self.ledger.append_many(pieces), owner, len(batches))
        else:
            written = self.ledger.append_many(batches)
        self._lines_of(written, batches)
        skipped = []  # hands a stored row's source key had already (another file's name)
        for positions, batch in zip(written, batches, strict=True):
            part.events += len(positions)
            if not batch.is_hand:
                continue
            if positions and completing.amends(batch):
                part.amended += 1
            elif positions:
                part.imported += 1
                if self.tables is not None:
                    self._share(batch, positions[0], states)
            elif batch.events:
                part.known += 1
                skipped.append(batch)
                self.already.add(batch.hand_id)
        part.outside += _outside(self.ledger, skipped)

    def _amendments_kept(self, batches: Sequence[Batch]) -> None:
        """Refuse the file when rows it appends to a stored hand (``batches`` of a chunk, in
        file order) void or correct it as ``void`` and ``correct`` refuse here once a later
        hand of its session started (:func:`replay.later_hands.continuation_kept`), that
        hand stored or one the file starts before these rows.

        Raises:
            LedgerError: naming the file, the line of the first void or correction of the
                rows, the hand and the later hand; the caller's transaction rolls back.
        """
        from replay.later_hands import continuation_kept

        newest: dict[str, str] = {}  # session -> the latest hand the file starts so far
        for b in batches:
            if not b.is_hand or not b.events or completing.completes(b):
                continue
            assert b.hand_id is not None
            if b.events[0].type == "hand_started":
                if b.session is not None:
                    newest[b.session] = b.hand_id
                continue
            try:
                continuation_kept(self.ledger, b.hand_id, b.session, b.events,
                                  newer=newest.get(b.session) if b.session else None)
            except LedgerError as exc:
                line = next((n for e, n in zip(b.events, b.lines or (), strict=False)
                             if e.type in ("hand_voided", "correction")), b.line)
                raise exc.located(file=file_name(self.path.name), line=line) from None

    def _lines_of(self, written: Sequence[Sequence[int]], batches: Sequence[Batch]) -> None:
        """Remember the file line of each session row written (``written``: the positions
        of each of ``batches``), which a refusal of a cash-out names."""
        for positions, batch in zip(written, batches, strict=True):
            if batch.is_hand or not positions:
                continue
            lines = batch.lines or [batch.line] * len(positions)
            self.lines.update(zip(positions, lines, strict=False))

    def _books_held(self, batches: list[Batch]) -> list[Batch]:
        """``batches`` (a chunk's, in file order) with the session lines before the file's
        first hand kept (written or known) held back, and those held before put back in
        front of it: a file whose every hand is refused writes none of its book either
        (:meth:`finish`), as its hands without it would be chips nobody bought and its book
        without them chips nobody played (README "Bad input"). A game's log (``game``) has
        its own rule for the lines after a refused hand (:mod:`replay.ingest.pokernow`)."""
        if self.books is None:
            return batches
        if not any(b.is_hand for b in batches):
            self.books.extend(batches)
            return []
        out, self.books = [*self.books, *batches], None
        return out

    def _within_table(self, name: str) -> None:
        """Refuse the file when a correction of a book entry it wrote is one ``entry amend``
        or ``entry retract`` refuses (:mod:`replay.ingest.entry_amends`), or a cash-out it
        wrote takes more chips than its session's table holds there
        (:mod:`replay.ingest.table_bound`, as ``cashout`` refuses it).

        Raises:
            LedgerError: naming the file (``name``), the row's line, the session and what
                the row does; the caller's transaction rolls back: nothing is written.
        """
        from replay.ingest.entry_amends import first_refused_amendment
        from replay.ingest.table_bound import first_beyond_table, miscounted, shown

        refused = first_refused_amendment(self.ledger, self.stored)
        if refused is not None:
            raise LedgerError(refused.message, file=name,
                              line=self.lines.get(refused.position), session=refused.session)
        beyond = first_beyond_table(self.ledger, self.stored)
        if beyond is not None:  # the row counted wrong named first, at its line
            wrong = miscounted(self.ledger, beyond, self.stored)
            line = self.lines.get(beyond.position)
            raise LedgerError(beyond.message(shown(self.ledger, beyond), wrong, line),
                              file=name, line=self.lines.get(wrong.position) if wrong else line,
                              session=beyond.session)

    def _share(self, batch: Batch, position: int, states: States | None) -> None:
        from replay.ingest.derived import hand_share, placed, same_events

        events = batch.events
        assert events is not None and batch.hand_id is not None
        ord_ = self.tables.next_ord()
        checked = (states or {}).get(batch.hand_id)
        if (checked is not None and checked[1] is not None and same_events(checked[0], events)
                and batch.session == events[0].session):
            self.tables.add(placed(checked[1], ord_, position))
        else:  # a stream the import changed (units, chips carried): its replay from scratch
            self.tables.add(hand_share(events, None, batch.session, ord_=ord_,
                                       position=position))

    def finish(self, read_errors: Sequence[LedgerError] = ()) -> Any:
        """Append the completions of cut-off hands, write the derived tables, and return the
        file's report (``files`` 0); ``read_errors``: the reader's errors (first in the
        report). A :class:`StoredFinding` of a hand this file stores (or completes, or
        amends) is a warning (:func:`warning_line`), not an error; of a hand the ledger held
        already, nothing (its warning was given when it was stored, and the audit reports
        it); of a hand refused, an error, unless the hand is one of several refused in one
        line for the same reason (``SameForHands``); none of a copy of a hand the ledger holds
        in play.
        Under ``--strict`` with a bad hand, raises :class:`_Discard` holding it.

        Raises:
            LedgerError: the ledger refused the write.
        """
        part = self.part
        name = file_name(self.path)
        errors = [e.located(file=name) for e in
                  [*read_errors, *self.errors, *self.unit_errors, *self.clashes]]
        # hands refused together in one line (their unit, …): that line says it for them;
        # a copy of a hand the ledger holds in play: the payouts so far, checked when it ends
        together = {h for e in errors for h in getattr(e, "hands", ())} | self.in_play
        # a hand refused for another reason: that refusal says it; its payout finding, no
        # refusal itself, would read as one more error of the hand
        together |= {e.hand for e in _refusals(errors) if e.hand is not None}
        errors = [e for e in errors if not (isinstance(e, StoredFinding) and e.hand in together)]
        found: list[StoredFinding] = []
        if not (self.strict and _refusals(errors)):  # findings of hands stored: warnings
            found = [e for e in errors if isinstance(e, StoredFinding) and e.hand in self.kept]
            errors = [e for e in errors if not any(e is f for f in found)]
        part.rejected = _rejected(errors, self.kept)
        # a file refused whole: its hands that would be written are rejected with it, and
        # those the ledger holds already stay counted known (the summary adds up to the
        # hands read)
        if self.game and self.clashes and not self.strict:
            part.imported = part.events = part.completed = part.amended = 0
            part.errors.append(game_line(errors, self.clashes[0].located(file=name)))
            part.unwritten = self.good  # good hands, not written with their file
            part.counted = 1
            raise _Discard(part)
        if self.strict and errors:  # what earlier chunks appended is rolled back: not counted
            part.imported = part.events = part.completed = part.amended = 0
            part.errors.append(strict_line(errors))
            part.unwritten = self.good  # good hands, not written with their file
            part.counted = 1
            raise _Discard(part)
        if self.books:  # session lines of a file no hand of which was kept
            if part.rejected and not self.kept:
                errors.append(_books_refused_line(self.books, name))
            else:
                written = self.ledger.append_many(self.books)
                self._lines_of(written, self.books)
                part.events += sum(map(len, written))
        self.books = None
        part.errors.extend(str(e) for e in errors)
        part.counted = len(errors)
        for positions, batch in zip(self.ledger.append_many(self.completions),
                                    self.completions, strict=True):
            part.events += len(positions)
            part.completed += bool(positions)
            part.known += not positions
            if not positions:
                self.already.add(batch.hand_id)
        part.warnings = [warning_line(_of_stored(e, self.dealt[e.hand])
                                      if e.hand in self.dealt else e)
                         for e in found if e.hand not in self.already]
        self._within_table(name)
        if self.tables is not None and self.tables.hands:
            from ledger.store.streams import head_position

            self.tables.finish(head_position(self.ledger))
        if not self.game:  # a log's book is the site's: its own checks (FORMATS.md §2)
            self._as_commands(name, short=bool(_refusals(errors)))
        return part

    def _as_commands(self, name: str, *, short: bool) -> None:
        """Refuse the file when a buy-in, cash-out or payment it wrote is one its command
        refuses at its place (:mod:`replay.ingest.book_rules`; ``short``: hands of the file
        were refused, and the books lack them).

        Raises:
            LedgerError: naming the file (``name``), the row's line, the session and why;
                the caller's transaction rolls back: nothing is written.
        """
        from replay.ingest.book_rules import first_refused_entry

        refused = first_refused_entry(self.ledger, self.stored, short=short)
        if refused is not None:
            raise LedgerError(refused.message, file=name,
                              line=self.lines.get(refused.position), session=refused.session)


def _books_refused_line(books: Sequence[Batch], name: str) -> LedgerError:
    """The error of the session lines ``books`` held back (:meth:`FileWriter._books_held`)
    of the file ``name`` whose every hand was refused: not written either."""
    sessions = list(dict.fromkeys(b.session for b in books if b.session is not None))
    line = next((b.line for b in books if b.line is not None), None)
    return LedgerError(
        f"every hand of the file was refused, so its {len(books)} session line(s) (session "
        f"{', '.join(sessions) or 'none'}) were not written either: a book without its hands "
        "would be chips nobody played (fix the hands and import the file again)",
        file=name, line=line, session=sessions[0] if sessions else None)


def _refusals(errors: Sequence[LedgerError]) -> list[LedgerError]:
    """``errors`` but the :class:`StoredFinding` values (facts of hands stored as logged)."""
    return [e for e in errors if not isinstance(e, StoredFinding)]


def warning_line(finding: StoredFinding) -> str:
    """The one line of a finding about a stored hand (the CLI puts ``warning:`` before it):
    ``<file>:<line>: hand <id>: <finding> (stored; the audit reports it)``, the file as its
    path was given (FORMATS.md §2); ``(stored as its winnings pay it)`` for finishing stacks
    the audit does not see (:class:`ledger.model.errors.StacksNotLeft`)."""
    where = f"{finding.file}:{finding.line}" if finding.line is not None else f"{finding.file}"
    return f"{where}: hand {finding.hand}: {finding.message} ({finding.stored})"


def _of_stored(finding: StoredFinding, hand: str) -> StoredFinding:
    """``finding`` of an id-less PHH copy known by its deal, naming the stored ``hand`` it is
    (the ledger holds no hand of the copy's id: :mod:`replay.ingest.samedeal`)."""
    finding.hand = hand
    return finding


def game_line(errors: Sequence[LedgerError], clash: LedgerError) -> str:
    """The one error line of a game's export refused whole (:class:`FileWriter`, ``game``):
    the first stored hand it disagrees with (file, line, hand), how many more errors the file
    has, and that nothing of it was written."""
    more = f" (and {len(errors) - 1} more error(s) in the file)" if len(errors) > 1 else ""
    return (f"{clash}{more}; nothing of this file was written (the hands after it would not "
            "follow the ledger's)")


def strict_line(errors: Sequence[LedgerError]) -> str:
    """The one error line of a file ``--strict`` refuses: its first refusal (file, line, hand,
    action; a :class:`StoredFinding` only when it has none), how many more errors it has, and
    that nothing of it was written."""
    more = f" (and {len(errors) - 1} more error(s) in the file)" if len(errors) > 1 else ""
    return f"{(_refusals(errors) or errors)[0]}{more}; --strict: nothing of this file was written"


Chunk = tuple[list[Batch], list[LedgerError], States | None, list[LedgerError]]


def write_chunks(ledger: Any, path: Path, chunks: Iterable[Chunk], *, strict: bool,
                 read_errors: Callable[[], Sequence[LedgerError]] = tuple,
                 tables: Any = None, game: bool = False, closed: bool = False,
                 in_order: bool = False) -> Any:
    """Append a file's chunks ``(batches, check errors, states, unit errors)`` (see
    :meth:`FileWriter.add`) in one transaction (module doc) and return the file's report
    (``files`` 0). ``read_errors()``: the reader's errors, asked once every chunk was read;
    ``tables``: an :class:`replay.ingest.derived.ImportTables`; ``game``, ``closed``,
    ``in_order``: see :class:`FileWriter`.

    Raises:
        LedgerError: the ledger refused the write, or reading a chunk raised it: nothing of
            the file is written.
    """
    from ledger.store.streams import head_position

    writer = FileWriter(ledger, path, strict=strict, stored=head_position(ledger),
                        tables=tables, game=game, closed=closed, in_order=in_order)
    try:
        with ledger.transaction(capped=True):  # memory flat however large the file
            for batches, errors, states, unit_errors in chunks:
                writer.add(batches, errors, states, unit_errors)
            return writer.finish(read_errors())
    except _Discard as exc:
        return exc.args[0]


def write_file(ledger: Any, path: Path, batches: list[Batch], errors: list[LedgerError], *,
               strict: bool, states: States | None = None, tables: Any = None,
               game: bool = False, closed: bool = False, in_order: bool = False) -> Any:
    """Append one file's batches (hands already in the ledger skipped or refused) and return
    what that did, as a report of this file alone (``files`` 0); ``game``, ``closed``,
    ``in_order``: see :class:`FileWriter`."""
    return write_chunks(ledger, path, [(batches, errors, states, [])], strict=strict,
                        tables=tables, game=game, closed=closed, in_order=in_order)


def _rejected(errors: list[LedgerError], kept: set[str | None]) -> int:
    """Hands not written because of an error: each hand the errors name that is not among
    the ``kept`` hands, once (an error for several hands, ``hands``: each of them); an error
    that names neither a hand nor a session (a hand table that cannot be read, a stray line)
    counts one, and so does each :class:`RepeatedHand` (another copy of a hand of the file,
    refused whatever became of the first)."""
    named = {e.hand for e in errors if e.hand is not None and not isinstance(e, RepeatedHand)}
    named.update(h for e in errors for h in getattr(e, "hands", ()))  # SameForHands
    return len(named - kept) + sum(1 for e in errors if isinstance(e, RepeatedHand) or (
        e.hand is None and e.session is None and not hasattr(e, "hands")))


def _same_start_in_session(ledger: Any, started: Any, stored: tuple[str, str | None,
                                                                   str | None]) -> bool:
    """:func:`_same_start`, or the same once a stored hand that names no currency is given
    its session's chip (:func:`replay.ingest.export.session_chip`): a hand played live in a
    session of 0.25 USD chips is stored in plain chips and exported in that money with
    ``_chip``, and that export is the hand the ledger holds; so is a hand converted into a
    session of 0.01 USD chips before its unit said a cent (its file imported again, or
    its export, which says a cent)."""
    if _same_start(started, stored[0]):
        return True
    if started.unit.currency is None:  # an old export of a hand played live in its session
        from ledger.model.events import parse_event
        from replay.ingest.old_units import live_alike

        return live_alike(started, parse_event(stored[0]))
    if stored[2] is None:
        return False
    from replay.ingest.export import session_chip

    chip = session_chip(ledger, stored[2])
    return chip is not None and _same_start(started, stored[0], chip)


def _same_start(started: Any, stored: str, chip: Any = None) -> bool:
    """Whether ``started`` begins the same hand as the stored ``hand_started`` JSON: equal but
    for where each was read from (``source``: file, line, site facts), the session each
    names (a hand already in the ledger stays where it is: README) and for what a format
    leaves implicit (no antes written as none, the game's default reopening rule, the chip's
    money value, which a PHH file without ``_chip`` does not carry) or orders its own way:
    the blinds and straddles in any order (the forced bets, compared as events, say who posts
    what; the rules read the largest, RULES.md §4.4) and no button as the last seat, where PHH
    puts it (the engine then starts from the first seat either way). ``chip``: the unit of a
    stored hand that names no currency, or whose unit an earlier conversion into the session
    wrote as whole dollars for its chip of a cent (:func:`replay.ingest.units.
    earlier_conversion`), its session's chip (:func:`_same_start_in_session`)."""
    if event_json(started) == stored:
        return True
    from ledger.model.events import parse_event
    from replay.ingest.units import earlier_conversion

    held = parse_event(stored)
    if chip is not None and (held.unit.currency is None
                             or earlier_conversion(held.unit, chip)):
        held = held.model_copy(update={"unit": chip})
    if chip is not None and earlier_conversion(started.unit, chip):  # an old export's
        from replay.ingest.old_units import as_own_chip

        started = as_own_chip(started, chip)
    return _identity(started) == _identity(held)


def _in_stored_chips(events: Sequence[Any], stored: str) -> list[Any] | None:
    """The hand ``events`` counted in the chips of the stored ``hand_started`` JSON when the
    two count money of one currency in chips of other values (a JSON-lines export of a
    session of 0.05 USD chips, of a hand the ledger holds in chips of 0.25 USD or cents):
    converted exactly as an import into a session converts a hand
    (:func:`replay.ingest.units.to_session`), its ``unit`` the stored one; None when they
    count the same chip, no money or other currencies, or an amount does not convert."""
    from ledger.model.events import parse_event
    from replay.ingest.units import SessionUnit, to_session

    held, unit = parse_event(stored).unit, events[0].unit
    if (held.currency is None or unit.currency is None or held.money() == unit.money()
            or currency_code(held.currency) != currency_code(unit.currency)):
        return None
    minor, _, decimals = held.money()
    try:
        out = to_session(events, SessionUnit(minor, held.currency, decimals), "")
    except LedgerError:
        return None
    return [out[0].model_copy(update={"unit": held}), *out[1:]]


def start_difference(started: Any, stored: str) -> Difference:
    """How ``started`` differs from the stored ``hand_started`` JSON where :func:`_same_start`
    finds them different: the path to its first field that differs (as :func:`_identity`
    compares them), both values cut short (``its event 1, hand_started, has stakes.min_bet
    20 here, 10 in the ledger``; an item of lists as long by its index, ``seats[0].stack``),
    the event at the copy's first line."""
    from ledger.model.events import parse_event

    mine, theirs = _identity(started), _identity(parse_event(stored))
    path: list[str] = []
    while True:  # down to the field: a key of a mapping, an item of lists as long
        if isinstance(mine, dict) and isinstance(theirs, dict):
            key = next((k for k in [*mine, *theirs] if mine.get(k) != theirs.get(k)), None)
            if key is None:
                break
            path.append(key)
            mine, theirs = mine.get(key), theirs.get(key)
        elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
            at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=True))
                       if a != b), None)
            if at is None:
                break
            path.append(f"[{at}]")
            mine, theirs = mine[at], theirs[at]
        else:
            break

    def cut(value: Any, width: int = 60) -> str:
        text = json.dumps(value, separators=(",", ":"), sort_keys=True)
        return text if len(text) <= width else text[:width - 1] + "…"

    if not path:
        return Difference("its event 1, hand_started, differs", started)
    field = ".".join(path).replace(".[", "[")
    return Difference(f"its event 1, hand_started, has {field} {cut(mine)} here, "
                      f"{cut(theirs)} in the ledger", started)


def _identity(started: Any) -> dict[str, Any]:
    from engine.games import game

    data = started.model_dump(mode="json", exclude={"source", "schema_version", "session"})
    stakes = data["stakes"]
    stakes["antes"] = [a for a in stakes["antes"] if a] and stakes["antes"]
    if data["options"]["reopen_rule"] is None:
        data["options"]["reopen_rule"] = game(started.game).default_reopen_rule
    data["unit"].pop("minor_per_chip")
    if data["unit"]["currency"] is not None:  # '$' stored before the reader said USD
        data["unit"]["currency"] = currency_code(data["unit"]["currency"])
    stakes["blinds_or_straddles"] = sorted(stakes["blinds_or_straddles"])
    if data["button"] is None and not game(started.game).stud and data["seats"]:
        data["button"] = data["seats"][-1]["player"]
    return data


def _first_rows(ledger: Any, hands: list[str], upto: int
                ) -> dict[str, tuple[str, str | None, str | None]]:
    """``{hand: (its first event's stored JSON, its source key, its session)}`` for those of
    ``hands`` whose first row is at or before ``upto`` (none when ``upto`` is 0: a new
    ledger)."""
    if not hands or not upto:
        return {}
    rows = ledger.query(
        "SELECT hand_id, CAST(payload AS VARCHAR), source_key, session FROM events"
        " WHERE seq = 1 AND position <= ? AND hand_id IN (SELECT UNNEST(?))", [upto, hands])
    return {hand: (payload, key, session) for hand, payload, key, session in rows}


def _outside(ledger: Any, skipped: list[Batch]) -> int:
    """How many of the hand batches ``skipped`` (their source key already stored) are stored
    under no session or another than the one the import puts them in."""
    into = {b.source_key: b.session for b in skipped
            if b.session is not None and b.source_key is not None}
    if not into:
        return 0
    rows = ledger.query("SELECT DISTINCT source_key, session FROM events WHERE seq = 1"
                        " AND hand_id IS NOT NULL AND source_key IN (SELECT UNNEST(?))",
                        [list(into)])
    return sum(1 for key, session in rows if session != into[key])


def _known_in_play(ledger: Any, batches: Sequence[Batch], errors: Sequence[LedgerError],
                   dealt: dict[str, str]) -> set[str | None]:
    """The hands of ``batches`` found known (no events left to write) that ``errors`` hold a
    :class:`StoredFinding` of and the ledger holds in play (a PHH copy taken while the hand
    was played: :func:`replay.ingest.phh_form.copy_of_hand_in_play`): no warning, since
    what it paid so far is no finding until the hand ends (README, Net). ``dealt``: ``{id of
    a copy known by its deal: the stored hand's id}`` (:mod:`replay.ingest.samedeal`), the
    stream read for such a copy."""
    warned = {e.hand for e in errors if isinstance(e, StoredFinding)}
    if not warned:
        return set()
    return {b.hand_id for b in batches if b.is_hand and b.events is None
            and b.hand_id in warned
            and completing.in_play([r.event for r in ledger.read(
                dealt.get(b.hand_id, b.hand_id))])}  # type: ignore[arg-type]


def _drop_known_hands(ledger: Any, batches: list[Batch], source: str = "", *, upto: int,
                      closed: bool = False) -> tuple[list[Batch], list[LedgerError], int]:
    """A hand already in the ledger (same hand id, imported from another file: stored at or
    before ``upto``) is skipped when it comes from the same source (same source key: a longer
    export of the same game) or has the same original events (:func:`first_difference`), and
    refused otherwise, naming the first event that differs: a stream is never appended twice,
    and a change to a stored hand is a correction. A stored hand that was cut off is
    completed by a longer copy with a correction (a longer copy that disagrees with it is
    refused, naming the first event that differs), a cut copy of a stored hand that goes
    further is known (an earlier export), one stored in play goes on with the events a
    longer copy adds, and one that is over gets the amendments (corrections, voids, undos)
    another ledger made to it that a longer copy holds (:mod:`replay.ingest.completing`;
    amendments that part from the stored ones are refused). Any of that in a hand of a
    closed session refuses the file unless ``closed`` (:func:`replay.ingest.closed.
    refuse_amending`). Also
    returns how many of the hands skipped stay outside the session the import puts them in
    (stored under none, or another: a hand's session is never rewritten).

    Raises:
        LedgerError: see :func:`replay.ingest.closed.refuse_amending`.
    """
    stored = _first_rows(ledger, [b.hand_id for b in batches if b.is_hand], upto)
    if not stored:
        return batches, [], 0
    cut = completing.cut_hands(ledger, list(stored))
    whole = _original_rows(ledger, [
        b.hand_id for b in batches if b.hand_id in stored and b.hand_id not in cut
        and not _trusted(b, stored[b.hand_id])], upto)
    out, clashes = [], []
    outside = 0
    for b in batches:
        hand = b.hand_id
        if hand is None or hand not in stored:
            out.append(b)
            continue
        assert b.events is not None
        got = _another_export(ledger, b, source, hand in cut)
        if got is None:
            got = _compared(ledger, b, stored[hand], whole, source)
        if isinstance(got, LedgerError):
            clashes.append(got)
            continue
        if got.events and not closed:  # rows appended to a stored hand
            refuse_amending(ledger, got, stored[hand][2])
        out.append(got)
        if got.events is None or completing.completes(got):  # known, or completed
            outside += b.session is not None and stored[hand][2] != b.session
    return out, clashes, outside


def _another_export(ledger: Any, b: Batch, source: str, cut: bool
                    ) -> Batch | LedgerError | None:
    """What the copy in ``b`` of a stored hand is when it comes from a longer export of the
    log than the stored copy ``cut`` off (:mod:`replay.ingest.completing`): the correction
    that completes it, or the refusal of a copy that disagrees with it; None: neither
    (compared as any copy)."""
    if not cut:
        return None
    done = completing.completion(ledger, b, source)
    if done is not None:
        return done
    if (why := completing.disagreement(ledger, b)) is not None:
        return LedgerError(
            "the ledger holds this hand cut off where an earlier export stopped, and this "
            f"copy, which goes on, disagrees with it: {why}", hand=b.hand_id, line=b.line)
    return None


def _compared(ledger: Any, b: Batch, stored: tuple[str, str | None, str | None],
              whole: dict[str, list[tuple[int, str]]], source: str) -> Batch | LedgerError:
    """The copy in ``b`` of a stored hand (its first row, key and session ``stored``; its
    original rows in ``whole`` unless cut or trusted) as :func:`_drop_known_hands` takes it:
    known (``b`` with no events; also an earlier export's cut copy met after a longer one),
    the shows an earlier export did not have, the events a stored hand in play goes on
    with (its streams compared as stored, an undo or a void among the rows), or a refusal
    naming the first event that differs (with either copy in play, by its seq in the
    stream as stored: :func:`_stream_difference`)."""
    assert b.events is not None and b.hand_id is not None
    hand = b.hand_id
    phh = phh_form.read_from_phh(b)
    mine = b.events
    if not _trusted(b, stored) and not _same_start_in_session(ledger, mine[0], stored):
        mine = _in_stored_chips(mine, stored[0]) or mine  # a copy in another session's chips
    differ = None if _trusted(b, stored) else (
        _STARTS_OTHERWISE if not _same_start_in_session(ledger, mine[0], stored)
        else first_difference(mine, whole[hand], phh=phh) if hand in whole else None)
    if mine is not b.events and differ is not None and differ.event is not None:
        at = next((i for i, e in enumerate(mine) if e is differ.event or e == differ.event),
                  None)  # the file's event at its place, whose line the refusal names
        differ = differ._replace(event=None if at is None else b.events[at])
    # the file's corrections make the stored hand (its PHH export imported): known
    made, differ = _as_the_file_corrects(ledger, b.events, hand, differ, phh=phh)
    if made or (differ is not None and differ is not _STARTS_OTHERWISE
                and _as_corrected(ledger, b.events, hand, phh=phh)):
        differ = None  # the hand as its corrections made it (a PHH export applies them)
    if differ is None:
        if not made and any(e.type in _LATER for e in b.events):  # original events the same
            more = completing.continuation(ledger, b)  # amendments the ledger has not
            if more is not None and more.events:
                return more
            if more is None and (row := completing.unstored_row(ledger, b)) is not None:
                return _unstored_amendment(ledger, b, row)
        return b.with_events(None)  # known: counted, not written
    if differ is _STARTS_OTHERWISE:
        differ = start_difference(b.events[0], stored[0])
    else:
        if phh and completing.in_play(rows := [r.event for r in ledger.read(hand)]):
            return phh_form.copy_of_hand_in_play(b, rows)  # its end is PHH's, not the table's
        if completing.earlier_cut(ledger, b):  # an earlier export, after a longer one
            return b.with_events(None)
        more = (completing.late_shows(ledger, b, source)  # cut before its late shows
                or completing.continuation(ledger, b))  # a stored hand in play
        if more is not None:
            return more
        differ = _stream_difference(ledger, b) or differ
    from replay.ingest.old_units import live_hint

    return LedgerError(
        f"a different hand {hand} is already in the ledger: {differ.text}; "
        + (live_hint(b.events[0], stored[0])  # an old export's copy: what to do
           or f"a change to a stored hand is a correction (`handledger correct {hand} ...`)"),
        hand=hand, line=line_of(b, differ.event))


def _unstored_amendment(ledger: Any, b: Batch, row: tuple[int, Any, Any]) -> LedgerError:
    """The refusal of a copy of a stored hand whose original events are the stored ones but
    whose amendments (corrections, voids) the ledger cannot append: they part from the
    stored stream's, or the hand is stored in another session than the file puts it in
    (``row``: :func:`replay.ingest.completing.unstored_row`)."""
    seq, here, there = row
    stored = ledger.read(b.hand_id)[0].session
    where = "" if stored == b.session else (
        f" (the ledger holds it in session {stored or 'none'}, this file in "
        f"{b.session or 'none'})")
    return LedgerError(
        f"the ledger's copy of this hand does not hold the file's amendments and they cannot "
        f"be appended{where}: its event {seq} is {short(here)} here, {short(there)} in the "
        f"ledger; nothing of this hand was written (amend it here: `handledger correct "
        f"{b.hand_id} ...`, `void`, `undo`)", hand=b.hand_id, line=line_of(b, here))


def _stream_difference(ledger: Any, b: Batch) -> Difference | None:
    """Where the copy in ``b`` of a stored hand parts from the stored stream when either of
    them is in play (:func:`replay.ingest.completing.in_play`: an export taken while the
    hand was played, which :func:`replay.ingest.completing.continuation` could not take):
    the first event after the start that differs, the streams compared as stored, row for
    row, corrections and voids among them, and named by its seq in the stream (``its event
    8 is cards_dealt {...} here, cards_dealt {...} in the ledger``); None when neither is in
    play or they agree as far as both go. What one of them has not reached yet (a rake, a
    payout) is no difference."""
    assert b.events is not None and b.hand_id is not None
    stored = [r.event for r in ledger.read(b.hand_id)]
    if not (completing.in_play(b.events) or completing.in_play(stored)):
        return None
    for seq, (here, there) in enumerate(zip(b.events[1:], stored[1:], strict=False), 2):
        if event_json(here) != event_json(there) and plain(here) != plain(there):
            return Difference(
                f"its event {seq} is {short(here)} here, {short(there)} in the ledger", here)
    return None


def _trusted(batch: Batch, stored: tuple[str, str | None, str | None]) -> bool:
    """Whether ``batch`` is the stored hand (its first row, key, session ``stored``) without
    reading its rows: the same source key, and the same digest of the hand's lines where the
    format records one in ``source.text_digest`` (a PokerNow hand's key is its hand id, so an
    edited hand keeps it; a longer export of the game has the same lines, FORMATS.md §2)."""
    assert batch.events is not None
    if batch.source_key is None or batch.source_key != stored[1]:
        return False
    mine = (batch.events[0].source or {}).get("text_digest")
    theirs = (json.loads(stored[0]).get("source") or {}).get("text_digest")
    return mine is None or theirs is None or mine == theirs


_CONTENT_ID = re.compile(r"phh-[0-9a-f]{12}")


def _drop_edited_places(ledger: Any, batches: list[Batch], *, upto: int
                        ) -> tuple[list[Batch], list[LedgerError]]:
    """``batches`` without the PHH hands that have no ``_hand_id`` (their id is made from
    their content, :mod:`ledger.formats.phh.hand`) and that stand where a stored hand of
    another id stood: the same file, as the path was given, and section (the hand's place
    in it). Such a hand is that stored hand edited, refused naming the first event that
    differs (a change to a stored hand is a correction), not appended as another hand."""
    places = {}
    for b in batches:
        if b.is_hand and b.events and _CONTENT_ID.fullmatch(b.hand_id or ""):
            source = b.events[0].source or {}
            if isinstance(source.get("file"), str):
                places[(source["file"], source.get("section"))] = b.hand_id
    if not places or not upto:
        return batches, []
    rows = ledger.query(
        "SELECT hand_id, json_extract_string(payload, '$.source.file'),"
        " json_extract(payload, '$.source.section') FROM events WHERE seq = 1"
        " AND position <= ? AND hand_id LIKE 'phh-%'"
        " AND json_extract_string(payload, '$.source.file') IN (SELECT UNNEST(?))",
        [upto, sorted({f for f, _ in places})])
    mine = set(places.values())
    was = {}
    for hand, file, section in rows:
        section = None if section is None else json.loads(str(section))
        if (file, section) in places and hand not in mine:
            was[places[(file, section)]] = hand
    if not was:
        return batches, []
    stored = _original_rows(ledger, sorted(set(was.values())), upto)
    out, refused = [], []
    for b in batches:
        if b.hand_id not in was or b.events is None:
            out.append(b)
            continue
        old = was[b.hand_id]
        differ = (first_difference(b.events, stored.get(old, []), phh=phh_form.read_from_phh(b))
                  or _STARTS_OTHERWISE)
        refused.append(LedgerError(
            f"this hand stands where hand {old} of the ledger was read from (the same file "
            f"and place), and differs from it: {differ.text}; a change to a stored hand is a "
            f"correction (`handledger correct {old} ...`); other hands need a file of "
            f"another name", hand=b.hand_id, line=line_of(b, differ.event)))
    return out, refused


def _deal_difference(ledger: Any, b: Batch, stored: Sequence[tuple[int, str]]
                     ) -> tuple[str, int | None] | None:
    """How the id-less PHH hand ``b`` differs from the stored rows ``[(seq, JSON)]`` of a hand
    it deals as (:mod:`replay.ingest.samedeal`), compared as a copy with the stored hand's id
    is (:func:`_compared`): its ``hand_started`` whole (stakes, stacks, unit:
    :func:`_same_start_in_session`, then :func:`start_difference`), then its other events
    (:func:`first_difference`). Returns the text and file line of the first difference, None
    when its events are those."""
    from ledger.model.events import parse_event

    assert b.events is not None and stored
    theirs = parse_event(stored[0][1])
    held = (stored[0][1], None, theirs.session)
    named = [b.events[0].model_copy(update={"hand": theirs.hand}), *b.events[1:]]  # its id
    mine = named
    if not _same_start_in_session(ledger, mine[0], held):
        mine = _in_stored_chips(mine, held[0]) or mine  # a copy in another session's chips
        if not _same_start_in_session(ledger, mine[0], held):
            differ = start_difference(named[0], held[0])
            return differ.text, line_of(b, b.events[0])
    differ = first_difference(mine, stored, phh=phh_form.read_from_phh(b))
    if differ is None:
        return None
    if differ.event is not None:  # the file's event at its place
        at = next((i for i, e in enumerate(mine) if e is differ.event), None)
        differ = differ._replace(event=None if at is None else b.events[at])
    return differ.text, line_of(b, differ.event)


#: Rows a hand's stream may get after its original events (the original events are compared).
_LATER = ("correction", "hand_voided")


def _original_rows(ledger: Any, hands: list[str | None], upto: int
                   ) -> dict[str, list[tuple[int, str]]]:
    """``{hand: [(seq, stored JSON)]}``: the rows of ``hands`` at or before ``upto`` but their
    corrections and voids, in seq order."""
    if not hands:
        return {}
    rows = ledger.query(
        "SELECT hand_id, seq, CAST(payload AS VARCHAR) FROM events WHERE position <= ?"
        " AND hand_id IN (SELECT UNNEST(?)) AND type NOT IN (SELECT UNNEST(?))"
        " ORDER BY hand_id, seq", [upto, hands, list(_LATER)])
    out: dict[str, list[tuple[int, str]]] = {}
    for hand, seq, payload in rows:
        out.setdefault(hand, []).append((seq, payload))
    return out


_STARTS_OTHERWISE = Difference("it starts otherwise")


def line_of(batch: Batch, event: Any) -> int | None:
    """The file line of ``event``, one of ``batch``'s events (the same object), where the
    file gives each event its line (``batch.lines``: JSON lines); else, or for no ``event``,
    the line where the hand starts."""
    if event is not None and batch.lines is not None and batch.events is not None:
        for index, mine in enumerate(batch.events):
            if mine is event:
                return batch.lines[index]
    return batch.line


def first_difference(events: Sequence[Any], stored: Sequence[tuple[int, str]], *,
                     phh: bool = False) -> Difference | None:
    """Where the events of a hand differ from its stored rows ``[(seq, JSON)]`` (the first
    compared as :func:`_same_start` does; corrections and voids left out on both sides):
    None when nowhere, else the first event that differs, its seq and both texts cut short
    (``its event 8 is bet_raise {...} here, bet_raise {...} in the ledger``), or the rake
    (a :class:`Difference`: what a refusal says and the event of ``events`` it is about).
    The rake is a field of the first event's ``source`` (a file's ``rake``, ``site_rake`` or
    ``_rake`` rule: what :mod:`replay.rake` reads, so what the books count), compared first,
    unless both hold it as a ``recorded_rake`` event, compared where it stands; a rake the
    one holds as that event and the other as its file's field (FORMATS.md §1: our PHH export
    writes it so) is the same when it is the same chips
    (:func:`replay.ingest.rakes.rake_difference`: ``its rake is 11 here, 10 in the
    ledger``). ``phh``: ``events`` were read from PHH (:func:`replay.ingest.phh_form.
    read_from_phh`), which pays each player one amount in seat order: what each player was
    paid is compared, not the order of the payouts (:func:`event_difference`)."""
    from ledger.model.events import parse_event
    from replay.ingest.rakes import rake_difference, rake_row

    mine = [e for e in events if e.type not in _LATER]
    if not stored or not mine:
        return event_difference(mine, stored, phh=phh)
    raked = [row for row in stored[1:] if rake_row(row[1])]
    events_both = bool(raked) and any(e.type == "recorded_rake" for e in mine)
    if events_both or raked or "rake" in stored[0][1] or _may_rake(mine[0]):
        raking = rake_difference(mine, [parse_event(row[1]) for row in (stored[0], *raked)])
        differ = None if raking is None else Difference(raking)
        if differ is not None and not events_both:
            return differ
        if not events_both:  # the same rake in another form (or none): the rest compared
            mine = [e for e in mine if e.type != "recorded_rake"]
            stored = [row for row in stored if not rake_row(row[1])]
        return event_difference(mine, stored, phh=phh) or differ
    return event_difference(mine, stored, phh=phh)


def _may_rake(started: Any) -> bool:
    """Whether the hand ``started`` begins may record a rake in its file's fields (a key of
    its ``source`` names one: ``rake``, ``site_rake``, ``_rake``)."""
    return any("rake" in key for key in started.source or {})


def _as_corrected(ledger: Any, events: Sequence[Any], hand: str, *, phh: bool = False) -> bool:
    """Whether ``events`` are the stored hand ``hand`` with its corrections applied (the
    hand has corrections, and they make it ``events``, voids aside; ``phh``: as
    :func:`first_difference`)."""
    from replay.fold import effective_events

    rows = [r.event for r in ledger.read(hand)]
    if not any(e.type == "correction" for e in rows):
        return False
    corrected = [e for e in effective_events(rows)[0] if e.type not in _LATER]
    return first_difference(events, [(i, event_json(e)) for i, e in
                                     enumerate(corrected, 1)], phh=phh) is None


def _as_the_file_corrects(ledger: Any, events: Sequence[Any], hand: str,
                          differ: Difference | None, *, phh: bool = False
                          ) -> tuple[bool, Difference | None]:
    """For ``events``, a copy of the stored hand ``hand`` whose original events differ from
    the stored ones (``differ``): ``(True, differ)`` when the copy's corrections make it,
    with them applied, the hand the ledger holds (its own corrections, if any, applied; both
    voided or neither): the JSON-lines export of a corrected hand (its original events and
    the corrections) where its PHH export (the hand as corrected, no history) was imported,
    the same hand, already in the ledger (README, "Formats"); ``(False, how the corrected
    hands differ)`` when they do not, so that a refusal names the hand as it results;
    ``(False, differ)`` for a copy without corrections, or when ``differ`` is None or its
    start differs. ``phh``: as :func:`first_difference`."""
    from replay.fold import effective_events

    if differ is None or differ is _STARTS_OTHERWISE or not any(
            e.type == "correction" for e in events):
        return False, differ
    try:
        mine = effective_events(events)[0]
    except LedgerError:  # a correction naming a seq the copy does not have: refused later
        return False, differ
    theirs = effective_events([r.event for r in ledger.read(hand)])[0]
    stored = [e for e in theirs if e.type not in _LATER]
    found = first_difference(mine, [(i, event_json(e)) for i, e in enumerate(stored, 1)],
                             phh=phh)
    if found is not None:
        return False, found._replace(text=f"as its corrections make it, {found.text}")
    voided = [any(e.type == "hand_voided" for e in side) for side in (mine, theirs)]
    if voided[0] != voided[1]:
        return False, Difference("its corrections make it the stored hand, but "
                                 f"{'this copy' if voided[0] else 'the ledger'} voids it")
    return True, differ
