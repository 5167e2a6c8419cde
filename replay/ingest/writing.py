"""Appending one file's checked hands: hands the ledger holds skipped or refused, ``--strict``,
chips carried between hands, cut-off hands completed, and what the import counts and says.
Which hands the ledger holds already is :mod:`replay.ingest.known_hands`, what a write says
:mod:`replay.ingest.write_lines`.

A file is written in one transaction, whole or not at all. Its hands may come in chunks (a
large ``.phhs`` is read, checked and appended a few thousand hands at a time, so that memory
does not grow with the file): every chunk is appended inside that one transaction, which
rolls back when a later chunk fails, and under ``--strict`` when any hand of the file is bad.
The ledger, the report and the errors are those of appending the whole file at once: hands
are looked up among the rows stored before the file only, and a chunk never ends where the
next hand of a session could still carry chips into it (RULES.md §2.2, §3.8, §7.1).

With :class:`replay.ingest.derived.ImportTables`, each appended hand's share of the derived
tables is made from the engine state its check left and written in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ledger.formats.files import file_name
from ledger.model.batch import Batch
from ledger.model.errors import FileNotText, LedgerError, RepeatedHand, StoredFinding
from replay import carry
from replay.ingest import completing
from replay.ingest.carried_source import drop_carried_keys, drop_site_copies
from replay.ingest.file_order import in_file_order, positions_of
from replay.ingest.known_hands import (
    CONTENT_ID,
    deal_difference,
    drop_edited_places,
    drop_known_hands,
    known_in_play,
    stored_elsewhere,
    stored_outside,
    voided_among,
)
from replay.ingest.renamed_copies import as_stored_hands, of_the_file
from replay.ingest.samedeal import drop_same_deals
from replay.ingest.unbought import FirstSeats, unbought_seats
from replay.ingest.write_lines import (
    book_line,
    game_line,
    of_stored,
    refusals,
    strict_line,
    warning_line,
)

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
    holds in closed sessions (:func:`replay.ingest.closed.refuse_amending`). A file that
    carries a session's book (session rows, not a game's log) is written whole or not at all:
    a hand or line of it refused, or a hand it puts in that session that the ledger holds in
    another (:func:`replay.ingest.known_hands.stored_elsewhere`), refuses it in one line
    (:func:`replay.ingest.write_lines.book_line`); ``in_order``:
    a JSON-lines file, whose rows are stored at their lines (:mod:`replay.ingest.file_order`:
    a hand's rows after another batch's row cut there)."""

    def __init__(self, ledger: Any, path: Path, *, strict: bool, stored: int,
                 tables: Any = None, game: bool = False, closed: bool = False,
                 in_order: bool = False) -> None:
        from replay.ingest.report import ImportReport

        self.ledger, self.path, self.strict, self.stored = ledger, path, strict, stored
        self.game, self.closed, self.in_order = game, closed, in_order
        self.tables = tables
        self.part = ImportReport()
        self.errors: list[LedgerError] = []  # the check's errors, in file order
        self.unit_errors: list[LedgerError] = []
        self.clashes: list[LedgerError] = []
        self.kept: set[str | None] = set()  # hands of the file not refused
        self.already: set[str | None] = set()  # kept hands the ledger held before the file
        self.known: set[str] = set()  # every hand of the file counted as known (``part.known``)
        self.own: set[str | None] = set()  # source keys of the hands this file wrote
        self.in_play: set[str | None] = set()  # known hands the ledger holds in play
        self.dealt: dict[str, str] = {}  # id-less PHH copy known by its deal -> stored hand
        self.good = 0  # hands that would be written (or complete a cut one)
        self.completions: list[Batch] = []
        self._previous = carry.previous_in(ledger)
        self._stored = carry.stored_in(ledger)
        # the sessions whose book rows the file carries (not a game's log): such a file is
        # written whole or not at all (:meth:`finish`)
        self.book_sessions: dict[str, None] = {}
        self.lines: dict[int, int | None] = {}  # a session row's position: its file line
        self.seats = FirstSeats()  # the players each new hand of a session seats first

    @property
    def refusing(self) -> bool:
        """Whether the file is refused whole already (nothing more is appended): under
        ``--strict``, or carrying a session's book (:meth:`finish`), a hand or line of it was
        refused (a :class:`StoredFinding` refuses nothing); a game's log, a stored hand it
        disagrees with."""
        return ((self.strict or bool(self.book_sessions))
                and bool(refusals(self.errors) or self.unit_errors or self.clashes)
                or self.game and bool(self.clashes))

    def add(self, batches: list[Batch], errors: Sequence[LedgerError],
            states: States | None = None, unit_errors: Sequence[LedgerError] = ()) -> None:
        """Append one chunk's batches (in file order) with the chunk's errors: the check's,
        and the units' (:func:`replay.ingest.session_units.in_session_units`), which the report
        lists after every check error of the file. ``states``: each hand's share of the
        derived tables, made when it was checked (:data:`States`).

        Raises:
            LedgerError: the ledger refused the write, or the chunk would go on with a hand
                of a closed session (:func:`replay.ingest.closed.refuse_amending`); the
                caller's transaction rolls back.
        """
        part = self.part
        if not self.game:
            self.book_sessions.update(dict.fromkeys(
                b.session for b in batches if not b.is_hand and b.session is not None))
        batches, signed, renamed = as_stored_hands(self.ledger, batches, upto=self.stored)
        try:
            batches, clashes, outside = drop_known_hands(
                self.ledger, batches, file_name(self.path.name), upto=self.stored,
                closed=self.closed, carried=self.in_order)
        except LedgerError as exc:  # a closed session: said of the file's hand
            raise of_the_file(exc, renamed) from None
        clashes.extend(signed)
        if self.book_sessions:  # its book without hands the ledger holds elsewhere: refused
            clashes.extend(stored_elsewhere(self.ledger, batches, list(self.book_sessions),
                                            upto=self.stored))
        batches, edited = drop_edited_places(self.ledger, batches, upto=self.stored,
                                             carried=self.in_order)
        clashes.extend(edited)
        batches, edited, dealt = drop_same_deals(self.ledger, batches, upto=self.stored,
                                                 content_id=CONTENT_ID,
                                                 compare=partial(deal_difference, self.ledger,
                                                                 carried=self.in_order))
        clashes.extend(edited)
        self.dealt.update(dealt)
        batches, edited, carried, elsewhere = drop_carried_keys(
            self.ledger, batches, upto=self.stored,
            compare=partial(deal_difference, self.ledger, carried=self.in_order))
        clashes.extend(edited)
        outside += elsewhere
        batches, edited, copies, elsewhere = drop_site_copies(
            self.ledger, batches, upto=self.stored,
            compare=partial(deal_difference, self.ledger, carried=self.in_order))
        clashes.extend(edited)
        outside += elsewhere
        carried |= copies
        self.errors.extend(errors)
        self.unit_errors.extend(unit_errors)
        self.clashes.extend(clashes)
        self.kept.update(b.hand_id for b in batches if b.is_hand)
        self.in_play.update(known_in_play(self.ledger, batches, errors, dealt | carried))
        self.good += sum(1 for b in batches if b.is_hand and b.events)
        # hands the ledger holds already: known, even in a file refused whole
        part.known += sum(1 for b in batches if b.is_hand and b.events is None)
        self.known.update(b.hand_id for b in batches
                          if b.is_hand and b.events is None and b.hand_id is not None)
        self.known.update(carried.values())  # a copy known by its key: the stored hand
        if self.refusing:
            return
        # a copy known by its deal is other content (its finishing_stacks, say): its findings
        # were not given when the stored hand was, so they are warnings still
        self.already.update(b.hand_id for b in batches
                            if b.is_hand and b.events is None and b.hand_id not in dealt)
        part.outside += outside
        self.completions.extend(b for b in batches if completing.completes(b))
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
        self._count(written, batches, states)

    def _count(self, written: Sequence[list[int]], batches: Sequence[Batch],
               states: States | None) -> None:
        """Count what :meth:`add` appended (``written``: each batch's positions) into the
        part's report, and make each new hand's share of the derived tables."""
        part = self.part
        skipped = []  # hands a stored row's source key had already (another file's name)
        for positions, batch in zip(written, batches, strict=True):
            part.events += len(positions)
            if not batch.is_hand or carry.carry_record(batch):  # not a hand of the file
                continue
            if positions and completing.amends(batch):
                part.amended += 1
            elif positions:
                part.imported += 1
                self.own.add(batch.source_key)
                if not self.game:  # a log's seats nobody bought: its own warning
                    self.seats.add(batch)
                if self.tables is not None:
                    self._share(batch, positions[0], states)
            elif batch.events and batch.source_key in self.own:
                part.repeated += 1  # an identical copy of a hand this file wrote
            elif batch.events:
                part.known += 1
                skipped.append(batch)
                self.already.add(batch.hand_id)
                if batch.hand_id is not None:
                    self.known.add(batch.hand_id)
        part.outside += stored_outside(self.ledger, skipped)

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

    def _within_table(self, name: str) -> None:
        """Refuse the file when a correction of a book entry it wrote is one ``entry amend``
        or ``entry retract`` refuses (:mod:`replay.ingest.entry_amends`), or a cash-out it
        wrote takes more chips than its session's table holds there
        (:mod:`replay.ingest.table_bound`, as ``cashout`` refuses it); a correction that goes
        in amending a buy-in or cash-out off the hands' stacks gets ``entry amend``'s warning,
        naming the file, its line and the session
        (:func:`replay.ingest.entry_amends.amendment_warnings`).

        Raises:
            LedgerError: naming the file (``name``), the row's line, the session and what
                the row does; the caller's transaction rolls back: nothing is written.
        """
        from replay.ingest.entry_amends import amendment_warnings, first_refused_amendment
        from replay.ingest.table_bound import first_beyond_table, miscounted, shown

        refused = first_refused_amendment(self.ledger, self.stored)
        if refused is not None:
            raise LedgerError(refused.message, file=name,
                              line=self.lines.get(refused.position), session=refused.session)
        for w in amendment_warnings(self.ledger, self.stored):  # as `entry amend` warns
            self.part.warnings.append(str(LedgerError(
                w.message, file=name, line=self.lines.get(w.position), session=w.session)))
            self.part.entry_warnings += 1
        beyond = first_beyond_table(self.ledger, self.stored)
        if beyond is not None:  # the row counted wrong named first, at its line
            wrong = miscounted(self.ledger, beyond, self.stored)
            line = self.lines.get(beyond.position)
            raise LedgerError(beyond.message(shown(self.ledger, beyond), wrong, line),
                              file=name, line=self.lines.get(beyond.at(wrong)),
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
        said_cut(self.path, errors)
        # hands refused together in one line (their unit, …): that line says it for them;
        # a copy of a hand the ledger holds in play: the payouts so far, checked when it ends
        together = {h for e in errors for h in getattr(e, "hands", ())} | self.in_play
        # a hand refused for another reason: that refusal says it; its payout finding, no
        # refusal itself, would read as one more error of the hand (not a later copy's
        # refusal: the copy is refused, the hand the file gave first is stored)
        together |= {e.hand for e in refusals(errors)
                     if e.hand is not None and not isinstance(e, RepeatedHand)}
        errors = [e for e in errors if not (isinstance(e, StoredFinding) and e.hand in together)]
        found: list[StoredFinding] = []
        if not (self.strict and refusals(errors)):  # findings of hands stored: warnings
            found = [e for e in errors if isinstance(e, StoredFinding) and e.hand in self.kept]
            errors = [e for e in errors if not any(e is f for f in found)]
        part.rejected = _rejected(errors, self.kept)
        # a file refused whole as it was read (not text): its other hands, none read
        unread = sum(e.others for e in errors if isinstance(e, FileNotText))
        # a file refused whole: its hands that would be written are rejected with it, and
        # those the ledger holds already stay counted known (the summary adds up to the
        # hands read)
        if self.game and self.clashes and not self.strict:
            part.imported = part.events = part.completed = part.amended = part.repeated = 0
            part.errors.append(game_line(errors, self.clashes[0].located(file=name)))
            part.unwritten = self.good  # good hands, not written with their file
            part.counted = 1
            raise _Discard(part)
        if self.strict and errors:  # what earlier chunks appended is rolled back: not counted
            part.imported = part.events = part.completed = part.amended = part.repeated = 0
            part.errors.append(strict_line(errors))
            part.unwritten = self.good + unread  # good hands, not written with their file
            part.counted = 1
            raise _Discard(part)
        if self.book_sessions and refusals(errors):  # a session's book: whole or nothing
            part.imported = part.events = part.completed = part.amended = 0
            part.errors.append(book_line(errors, list(self.book_sessions)))
            part.unwritten = self.good  # good hands, not written with their file
            part.counted = 1
            raise _Discard(part)
        part.errors.extend(str(e) for e in errors)
        part.counted = len(errors)
        part.unwritten += unread
        for positions, batch in zip(self.ledger.append_many(self.completions),
                                    self.completions, strict=True):
            part.events += len(positions)
            part.completed += bool(positions)
            part.known += not positions
            if not positions:
                self.already.add(batch.hand_id)
                if batch.hand_id is not None:
                    self.known.add(batch.hand_id)
        part.warnings = [warning_line(of_stored(e, self.dealt[e.hand])
                                      if e.hand in self.dealt else e)
                         for e in _once_a_hand(found) if e.hand not in self.already]
        part.warnings.extend(warning_line(e) for e in unbought_seats(
            self.ledger, self.seats, file=name, stored=self.stored))
        self._within_table(name)
        part.voided = voided_among(self.ledger, self.known)
        if self.tables is not None and self.tables.hands:
            from ledger.store.streams import head_position

            self.tables.finish(head_position(self.ledger))
        if not self.game:  # a log's book is the site's: its own checks (FORMATS.md §2)
            self._as_commands(name, short=bool(refusals(errors)))
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


Chunk = tuple[list[Batch], list[LedgerError], States | None, list[LedgerError]]


def write_chunks(ledger: Any, path: Path, chunks: Iterable[Chunk], *, strict: bool,
                 read_errors: Callable[[], Sequence[LedgerError]] = tuple,
                 tables: Any = None, game: bool = False, closed: bool = False,
                 in_order: bool = False, stored: int | None = None) -> Any:
    """Append a file's chunks ``(batches, check errors, states, unit errors)`` (see
    :meth:`FileWriter.add`) in one transaction (module doc) and return the file's report
    (``files`` 0). ``read_errors()``: the reader's errors, asked once every chunk was read;
    ``tables``: an :class:`replay.ingest.derived.ImportTables`; ``game``, ``closed``,
    ``in_order``: see :class:`FileWriter`; ``stored``: the ledger's last position before the
    file (0 when empty) when the caller read it already, nothing written since.

    Raises:
        LedgerError: the ledger refused the write, or reading a chunk raised it: nothing of
            the file is written.
    """
    from ledger.store.streams import head_position

    if stored is None:
        stored = head_position(ledger)
    writer = FileWriter(ledger, path, strict=strict, stored=stored,
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
               game: bool = False, closed: bool = False, in_order: bool = False,
               stored: int | None = None) -> Any:
    """Append one file's batches (hands already in the ledger skipped or refused) and return
    what that did, as a report of this file alone (``files`` 0); ``game``, ``closed``,
    ``in_order``: see :class:`FileWriter`; ``stored``: see :func:`write_chunks`."""
    return write_chunks(ledger, path, [(batches, errors, states, [])], strict=strict,
                        tables=tables, game=game, closed=closed, in_order=in_order,
                        stored=stored)


def said_cut(path: Path, errors: list[LedgerError]) -> None:
    """Add to each refusal of the file's last line, when the file ends in the middle of it,
    that the file ends there, in the middle of its hand when the refusal names one
    (:func:`ledger.formats.files.cut_note`): a file cut short reads as a line the format does
    not know, and the refusal of that line alone would not say why."""
    refused = [e for e in errors if e.line is not None and not isinstance(e, StoredFinding)]
    if refused:
        from ledger.formats.files import CUT_SAID, cut_line, cut_note

        last = cut_line(path)
        for e in refused:
            note = (cut_note(path, last, e.hand, e.message)
                    if e.line == last and CUT_SAID not in e.message else "")
            if note:  # the reader's own guess gives way to what is known
                e.message = e.message.removesuffix(" (is the file cut?)") + note


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


def _once_a_hand(found: Sequence[StoredFinding]) -> list[StoredFinding]:
    """``found`` with each finding of a hand said once: a hand pasted twice in its file is
    stored once (the copy counted repeated in the file), and its warning is given once, as
    the hand is stored, at the first table that gives it (docs/IMPORTING.md, "A hand stored
    as the site paid it")."""
    said: set[tuple[str | None, str]] = set()
    out = []
    for e in found:
        if (e.hand, e.message) not in said:
            said.add((e.hand, e.message))
            out.append(e)
    return out
