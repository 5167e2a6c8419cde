"""Import files into the ledger: find the importer, read, check every hand with the engine, append.

Each file goes to the first importer of :mod:`replay.ingest.registry` that identifies it (by
content, not by an ``if`` on suffixes). Each hand is checked with the engine before anything is
written; a bad hand is reported (file, line, hand, action) and skipped, the others are appended
— unless ``strict``, which rejects the whole file. A reader's
:class:`ledger.model.errors.StoredFinding` (a PokerNow hand stored as the site played and paid
it, FORMATS.md §2), and a hand whose payouts are short of its pot by other than the rake it
records (:func:`replay.ingest.rakes.rake_finding`), refuse nothing: each is a warning of the
report once its hand is stored.
All hands of one file are appended in one transaction. A hand or session entry whose source
key the ledger holds is skipped, so importing the same file twice adds nothing; the same hand
id from another file is skipped when it is the same hand and refused otherwise; a stored hand
that a log cut off is completed by a longer copy with a correction
(:mod:`replay.ingest.completing`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.formats.files import check_file, file_name
from ledger.formats.phh.base import PhhHand
from ledger.formats.reading import FileRead, HandEvents, Importer, SessionEntry
from ledger.model.batch import Batch
from ledger.model.errors import (
    LedgerCorrupt,
    LedgerError,
    MalformedEvent,
    MalformedInput,
    NotFound,
    StoredFinding,
)
from ledger.model.events import event_json
from ledger.model.gcpause import gc_paused
from ledger.model.names import check_name
from ledger.store import landing
from ledger.store.proven import prove_before_writing
from ledger.store.streams import (
    session_of_entries,
    session_of_source,
    stored_rows,
)
from replay.build import check_events, phh_fold
from replay.ingest.amendment_rules import check_amendments
from replay.ingest.faults import hand_faults
from replay.ingest.registry import find_importer, formats, not_text
from replay.ingest.signatures import Signatures
from replay.ingest.stacks import told_stacks
from replay.ingest.writing import States, write_file
from replay.progress import Progress, silent


@dataclass
class ImportReport:
    """What an import did: files read, hands appended, hands already known, events written,
    cut-off hands completed, the errors, the warnings and the notes (one line each). An error
    is a refusal: what it names (a hand, a line, a file) was not written. A warning is a
    :class:`ledger.model.errors.StoredFinding` of a hand that was stored (or was already), as
    ``<file>:<line>: hand <id>: <finding> (stored; the audit reports it)`` (FORMATS.md §2).
    ``rejected`` counts the hands not written, each once however many lines it has (a hand
    stored with a warning is not one); ``counted``: the error lines of those files' hands and
    lines. Every other error line (a file or statement refused whole) is one rejection.
    ``unwritten``: the other hands of the files refused whole (``--strict`` and a bad hand,
    a session row or a statement that refuses its file): not written with their file, so
    that imported, known, rejected and unwritten hands add up to the hands read.
    ``amended``: the stored hands, over, that got the amendments another ledger made to them
    (:func:`replay.ingest.completing.continuation`), not counted as imported.
    ``outside``: the hands already in the ledger that stay outside ``session``, the session
    the import puts its hands in (stored under none or another: a hand's session is never
    rewritten). ``skipped``: the files of the directories imported that no importer reads,
    each named in a note (:mod:`replay.ingest.survey`), not counted in ``files``.
    ``written``: each file whose write committed, in order, as ``(file, hands, events)``:
    what an import cut short had written (:meth:`written_lines`). ``cut``: the hands a
    PokerNow log begins inside, not written, each one warning naming its lines
    (:func:`ledger.formats.pokernow.importer.cut_warning`), among ``warnings`` (last)."""

    files: int = 0
    imported: int = 0
    known: int = 0
    events: int = 0
    completed: int = 0
    amended: int = 0
    errors: list[str] = field(default_factory=list)
    rejected: int = 0
    counted: int = 0
    notes: list[str] = field(default_factory=list)
    outside: int = 0
    warnings: list[str] = field(default_factory=list)
    session: str | None = None
    skipped: int = 0
    written: list[tuple[str, int, int]] = field(default_factory=list)
    cut: int = 0
    unwritten: int = 0

    def add(self, part: ImportReport) -> None:
        """Add the counts and errors of ``part`` (one file's report) to this report."""
        self.files += part.files
        self.imported += part.imported
        self.known += part.known
        self.events += part.events
        self.completed += part.completed
        self.amended += part.amended
        self.errors.extend(part.errors)
        self.rejected += part.rejected
        self.counted += part.counted
        self.notes.extend(part.notes)
        self.outside += part.outside
        self.warnings.extend(part.warnings)
        self.cut += part.cut
        self.unwritten += part.unwritten

    def summary(self) -> str:
        rejected = self.rejected + len(self.errors) - self.counted
        stay = ""
        if self.outside:
            who = ("they stay" if self.outside == self.known else
                   f"{self.outside} of them stay{'s' if self.outside == 1 else ''}")
            stay = (f" ({who} outside session {self.session})" if self.session is not None
                    else f" ({who} in the session they were stored in, not this file's)")
        text = (
            f"imported {self.imported} hand(s) ({self.events} events) from {self.files} "
            f"file(s); {self.known} already in the ledger{stay}; {rejected} rejected"
        )
        if self.unwritten:
            text += f"; {self.unwritten} other hand(s) not written, their file refused"
        if self.completed:
            text += (f"; {self.completed} cut-off hand(s) completed from this longer export "
                     "(a correction each)")
        if self.amended:
            text += (f"; {self.amended} stored hand(s) amended from this later export (its "
                     "corrections and voids appended as made: `history` names them)")
        if len(self.warnings) > self.cut:
            text += f"; {len(self.warnings) - self.cut} warning(s) about hands stored"
        if self.cut:
            text += (f"; {self.cut} hand(s) cut at the log's start not written (a warning "
                     "names the lines)")
        if self.skipped:
            text += f"; {self.skipped} other file(s) skipped (each in a note)"
        return text


    def written_lines(self) -> list[str]:
        """What an import interrupted (Ctrl-C) had written, as ``note:`` lines for the
        user before "Aborted": the files whose write committed, each whole, and the hands and
        events of each; no other file has anything written (the one being read is rolled
        back, README: an import stops before its next file). ``[]`` when nothing was."""
        if not self.written:
            return []
        hands = sum(h for _, h, _ in self.written)
        events = sum(e for _, _, e in self.written)
        return [f"note: interrupted: {len(self.written)} file(s) had been written, each "
                f"whole, {hands} hand(s) ({events} events); nothing of any other (importing "
                "again adds only what is missing)",
                *(f"note: written: {name}: {h} hand(s) ({e} events)"
                  for name, h, e in self.written)]


def discover(directory: Path) -> list[Path]:
    """The files under ``directory`` (recursively, sorted by path) that an importer
    identifies (:func:`replay.ingest.survey.survey`, without its notes)."""
    from replay.ingest.survey import survey

    return survey(directory)[0]


def expand(paths: Sequence[Path], statement: Path | None = None
           ) -> tuple[list[Path], list[str], list[str]]:
    """``paths`` with each directory replaced by the files an importer identifies under it;
    an error line for each path that does not exist; and a note line for each file of those
    directories left unread (:func:`replay.ingest.survey.survey`; ``statement``: the
    ``--ledger`` statement, left without one)."""
    from replay.ingest.survey import survey

    files: list[Path] = []
    missing: list[str] = []
    skipped: list[str] = []
    for p in paths:
        if p.is_dir():
            found, notes = survey(p, statement)
            files.extend(found)
            skipped.extend(notes)
        elif p.exists():
            files.append(p)
        else:
            missing.append(f"{p}: no such file")
    return files, missing, skipped


def import_paths(
    ledger: Any,
    paths: Sequence[Path],
    *,
    strict: bool,
    session: str | None,
    pn_ledger: str | None,
    jobs: int | None = 1,
    progress: Progress = silent,
    tables: bool = False,
    signatures: Signatures | None = None,
    closed: bool = False,
    report: ImportReport | None = None,
) -> ImportReport:
    """Import every file of ``paths`` (directories are searched); see the module doc.

    ``jobs``: worker processes for a large JSON-lines file (:mod:`replay.ingest.parallel`; 1
    or 0: none; None: the machine's CPUs for a large file, none for a small one). The outcome
    is the same as with none. ``pn_ledger``: a PokerNow ledger statement for the one PokerNow
    log among the files (:func:`replay.ingest.pokernow.import_statement`). ``tables``: one
    file imported into a ledger file with no rows writes the derived tables too, made from
    the import's own check (:mod:`replay.ingest.derived`; the tables a save after the import
    would make, so that it finds them fresh; after several files the save makes them).
    ``signatures``: how the signed corrections and voids of a file are checked before any of
    it is written (:mod:`replay.ingest.signatures`; None: not checked). ``closed``: a file
    may go on with hands the ledger holds in a closed session, cash out its players or amend
    its entries, and ``pn_ledger`` go to a closed session (:mod:`replay.ingest.closed`); a
    closed session still takes no hands or buy-ins. ``report``: the report to count into
    (returned; None: a new one): a caller that keeps it knows which files were written when
    the import is cut short (:attr:`ImportReport.written`).

    Raises:
        ChainBroken, LedgerCorrupt: a ledger that holds rows fails the proof made before
            it is read (:func:`ledger.store.proven.prove_before_writing`); nothing imported.
        MalformedInput: a bad ``session`` name (:func:`ledger.model.names.check_name`); a
            ``pn_ledger`` without exactly one PokerNow log among ``paths``
            (:func:`replay.ingest.pokernow.check_statement`), or with ``session`` naming
            another session than the one holding its log's game
            (:func:`replay.ingest.pokernow.statement_session`); NotFound, LedgerError:
            ``session`` is not open and no file could open it (:func:`_check_session_first`),
            or (without ``closed``) ``pn_ledger`` goes to a closed session
            (:func:`replay.ingest.closed.refuse_statement`), or to one that holds another
            statement (:func:`replay.ingest.pokernow.refuse_other_statement`). Nothing is
            imported then.
    """
    from replay.ingest.parallel import auto_workers

    if session is not None:
        check_name(session, "session")
    prove_before_writing(ledger)  # a ledger that holds rows: proven before it is read
    log, first = None, None  # the statement's log, read once for the whole import
    if pn_ledger is not None:
        from replay.ingest.pokernow import check_statement, read_log, statement_session

        log = check_statement(Path(pn_ledger), paths)
        first = read_log(log, session)
        into = statement_session(ledger, Path(pn_ledger), log, session, first)  # its session
        if not closed:
            from replay.ingest.closed import refuse_statement

            refuse_statement(ledger, Path(pn_ledger), into)
        if first is not None:  # else the log's import says what is wrong with it
            from replay.ingest.pokernow import refuse_other_statement

            refuse_other_statement(ledger, Path(pn_ledger), into, log,
                                   first.extra["decimals"])
    report = report if report is not None else ImportReport(session=session)
    files, report.errors, report.notes = expand(
        paths, None if pn_ledger is None else Path(pn_ledger))
    report.skipped = len(report.notes)
    files = _once(files, report.notes)
    if session is not None:
        _check_session_first(ledger, session, files, closed=closed)
    with progress("importing", len(files)) as tick:
        for path in files:
            landing.resume()  # Ctrl-C held since the last file's write stops before this one
            hands, events = report.imported, report.events
            with gc_paused():  # see ledger.model.gcpause; the file's objects are freed after
                import_file(ledger, path, report, strict=strict, session=session,
                            workers=auto_workers(path, jobs), tables=tables and len(files) == 1,
                            signatures=signatures, closed=closed,
                            read=first if path == log else None)
            if report.events > events:  # the file's one transaction committed
                report.written.append((file_name(path), report.imported - hands,
                                       report.events - events))
            tick()
    if pn_ledger is not None:
        from replay.ingest.pokernow import import_statement

        import_statement(ledger, Path(pn_ledger), files, session, report, closed=closed,
                         into=into, decimals=first.extra["decimals"] if first else None)
    return report


#: The formats whose files carry a session's book and may open the session they import into.
_BOOK_FORMATS = ("jsonl", "pokernow")


def _check_session_first(ledger: Any, session: str, files: Sequence[Path], *,
                         closed: bool = False) -> None:
    """Refuse ``import --session`` once, before any file is read, when the session is
    closed (RULES.md §1.1: no file reopens it, so every file would be refused: nothing is
    written, README "A closed session takes no more hands"; ``closed``: a file may still go
    on with a hand it holds, :mod:`replay.ingest.closed`), or not opened (no such
    session, a typo: :func:`replay.sessions.open_state` names the closest) and no file
    among ``files`` is of a format that could open it (JSON lines, a PokerNow log). When
    one could, a new session name that differs only in case from (or prints like) one the
    ledger holds is refused.

    Raises:
        NotFound, LedgerError: as :func:`replay.sessions.open_state`; MalformedInput: a
            look-alike of a session of the ledger.
    """
    from replay.sessions import check_new_session_name, open_state

    try:
        open_state(ledger, session, allow_closed=closed)
    except NotFound:
        for path in files:
            try:
                check_file(path)  # a regular file within the caps: never a pipe's wait
                importer = find_importer(path)
            except (MalformedInput, OSError):  # the file's own error comes with its import
                continue
            if importer is not None and importer.name in _BOOK_FORMATS:
                check_new_session_name(ledger, session)
                return
        raise


def unreadable_only(paths: Sequence[Path], session: str | None) -> ImportReport | None:
    """The report :func:`import_paths` gives for ``paths`` when no file of them can be
    imported, known from each file's first bytes (missing, not a regular file, too large,
    unreadable, no format handledger reads, a binary ``.jsonl``: :func:`_importer_of`) and
    so without a ledger; None as soon as one file is of a format handledger reads."""
    report = ImportReport(session=session)
    files, report.errors, report.notes = expand(paths)
    report.skipped = len(report.notes)
    files = _once(files, report.notes)
    for path in files:
        report.files += 1
        if _importer_of(path, report) is not None:
            return None
    return report


def import_into(open_ledger: Callable[[], Any], paths: Sequence[Path], *, strict: bool,
                session: str | None, pn_ledger: str | None, jobs: int | None = None,
                progress: Progress = silent, signatures: Signatures | None = None,
                closed: bool = False, report: ImportReport | None = None) -> ImportReport:
    """:func:`import_paths` into the ledger ``open_ledger()`` opens, as the ``import``
    command does (the derived tables of a first file made with it: ``tables``); when worker
    processes will read a large file, their process is started first, while the ledger
    opens (see :func:`replay.ingest.parallel.warm_up`).

    What is refused without reading the files whole is refused before the ledger is opened
    (so a ledger file that is not there yet is not made): a bad ``session`` name, and an
    import none of whose files a format reads (:func:`unreadable_only`: its report is
    returned, the ledger never opened, ``report`` left as it was).

    Raises:
        MalformedInput: no path of ``paths`` exists, ``session`` is not a name a session
            may have, or ``pn_ledger`` goes with no one PokerNow log of them (the ledger is
            then not opened, so not created either); as :func:`import_paths`.
    """
    from contextlib import suppress

    from replay.ingest.parallel import auto_workers, warm_up

    if paths and not any(p.exists() for p in paths):  # nothing to import: the ledger untouched
        raise MalformedInput(f"{paths[0]}: no such file")
    if session is not None:
        check_name(session, "session")
    if pn_ledger is not None:  # checked before the ledger opens: nothing written
        from replay.ingest.pokernow import check_statement

        check_statement(Path(pn_ledger), paths)
    elif (refused := unreadable_only(paths, session)) is not None:
        return refused
    if any(auto_workers(p, jobs) for p in paths):
        with suppress(OSError, RuntimeError):  # no workers: the one-process import then
            warm_up()
    return import_paths(open_ledger(), paths, strict=strict, session=session,
                        pn_ledger=pn_ledger, jobs=jobs, progress=progress, tables=True,
                        signatures=signatures, closed=closed, report=report)


def import_file(ledger: Any, path: Path, report: ImportReport, *, strict: bool,
                session: str | None, workers: int = 0, tables: bool = False,
                signatures: Signatures | None = None, closed: bool = False,
                read: FileRead | None = None) -> None:
    """Import one file, counting into ``report`` (see :func:`import_paths`).

    With ``workers``, a JSON-lines file or a ``.phhs`` is first tried with worker processes
    (:func:`replay.ingest.parallel.import_parallel`); a file that is not plain for them (an
    error anywhere, a hand already stored, …) is then imported here, in one process. A PHH
    file is read, checked and appended a chunk of hands at a time
    (:mod:`replay.ingest.chunked`), in one transaction. ``tables``: into a ledger file with
    no rows, the derived tables are made from the import's check and written with the file
    (:mod:`replay.ingest.derived`). ``signatures``: every signed correction and void of the
    file is checked first (:mod:`replay.ingest.signatures`): one that fails refuses the file
    whole; the workers hand a file that has any to this process. ``closed``: see
    :func:`import_paths`. ``read``: the file as its importer read it already with
    ``session`` (a PokerNow log given with ``--ledger``: :func:`replay.ingest.pokernow.
    read_log`), not read again.
    """
    report.files += 1
    name = file_name(path)
    importer = _importer_of(path, report)
    if importer is None:
        return
    if workers and importer.name in ("jsonl", "phh"):
        from replay.ingest.parallel import import_parallel

        try:
            made = _tables(ledger, importer) if tables else None
            part = import_parallel(ledger, path, session, workers, made)
        except OSError as exc:
            report.errors.append(f"{name}: cannot read: {exc.strerror or exc}")
            return
        except LedgerError as exc:
            report.errors.append(str(exc.located(file=name)))
            return
        if part is not None:
            report.add(part)
            return
    try:
        made = _tables(ledger, importer) if tables else None
        if hasattr(importer, "iter_read"):
            from replay.ingest.chunked import import_chunked

            report.add(import_chunked(ledger, path, importer, strict=strict, session=session,
                                      tables=made))
            return
        read = read_file(ledger, path, importer, session=session, closed=closed, read=read)
        from replay.ingest.pokernow import held_after_refused

        report.known += held_after_refused(ledger, read)  # a log's hands after a refused one
        if signatures is not None:  # before anything of the file is written
            report.notes.extend(signatures.check(read))
        from replay.ingest.old_units import whole_unit_notes

        report.notes.extend(whole_unit_notes(ledger, read))  # an old export's whole dollars?
        check_amendments(read)  # a correction held to `correct`'s rules, signed or not
        if session is not None:
            _check_session_option(ledger, read, session)
        from replay.ingest.derived import early_share

        states: States | None = {} if made is not None else None  # the hands' shares
        batches, errors = check_items(read, known=ledger.known_sources, states=states,
                                      keep=early_share)
        batches, errors = _refused_in_ledger(ledger, read, batches, errors,
                                             game=importer.name == "pokernow")
        part = write_file(ledger, path, batches, errors, strict=strict, states=states,
                          tables=made, game=importer.name == "pokernow", closed=closed,
                          in_order=importer.name == "jsonl")
        cut = read.extra.get("cut", [])  # a log that begins inside a hand: one warning
        part.warnings.extend(cut)
        part.cut = len(cut)
        report.add(part)
    except LedgerCorrupt:  # the ledger itself, not this file: the import stops, in one line
        raise
    except LedgerError as exc:  # the file's one transaction wrote nothing
        report.errors.append(str(exc.located(file=name)))
        _refused_hands(report, read, exc)
    except ValidationError as exc:  # a value the event models refuse (a stack beyond MAX_CHIPS)
        report.errors.append(str(invalid_value(exc).located(file=name)))
    except OSError as exc:
        report.errors.append(f"{name}: cannot read: {exc.strerror or exc}")


def _once(files: list[Path], notes: list[str]) -> list[Path]:
    """``files`` with each file named again (the same file by another path too) left out
    after its first time, a note saying so: read twice, a file's hands would be known the
    second time and its errors said twice."""
    import os

    seen: set[Any] = set()
    out = []
    for path in files:
        try:
            key: Any = (os.stat(path).st_dev, os.stat(path).st_ino)
        except OSError:  # refused where it is read, in one line
            key = path
        if key in seen:
            notes.append(f"{file_name(path)}: named again: read once")
            continue
        seen.add(key)
        out.append(path)
    return out


def _refused_hands(report: ImportReport, read: FileRead | None, error: LedgerError) -> None:
    """Count into ``report`` the hands of a file refused whole in one error line once read
    (``read``; None: refused before it was read): the line is one rejection (the hand it
    names, or the row, the statement or the file), and each other hand the file gave is not
    written with it (``unwritten``), so that the summary adds up to the hands read."""
    if read is None:
        return
    hands = {i.hand_id if isinstance(i, HandEvents) else i.hand for i in read.items
             if isinstance(i, (HandEvents, PhhHand))}
    hands.update(e.hand for e in read.errors
                 if e.hand is not None and not isinstance(e, StoredFinding))
    report.unwritten += len(hands - {error.hand})


def opens(read: FileRead, session: str) -> bool:
    """Whether the file ``read`` opens ``session`` itself (a JSON-lines ``session_opened``
    row of it): ``import --session`` then only confirms the session the file makes, which
    the ledger need not have opened (README "JSON lines")."""
    return any(isinstance(i, SessionEntry) and i.session == session
               and i.event.type == "session_opened" for i in read.items)


def _check_session_option(ledger: Any, read: FileRead, session: str) -> None:
    """``import --session session`` of ``read``: a session the ledger has opened and not
    closed, unless the file opens it itself; never one other than the file opens."""
    if read.session is None and not opens(read, session):
        from replay.sessions import open_state

        open_state(ledger, session)  # an opened session that is not closed
    refuse_other_openings(read, session)


def refuse_other_openings(read: FileRead, session: str) -> None:
    """Refuse ``import --session session`` of a file that opens another session (a JSON-lines
    ``session_opened`` row): the option only confirms the session the file opens (README
    "JSON lines"), and would put the file's hands in ``session``, its book in its own.

    Raises:
        LedgerError: naming both sessions and the opening's line; nothing is written.
    """
    for item in read.items:
        if (isinstance(item, SessionEntry) and item.session != session
                and item.event.type == "session_opened"):
            raise LedgerError(
                f"the file opens session {item.session}, not {session}: --session only "
                f"confirms the session the file opens (its hands would go to {session}, its "
                f"book to {item.session}); import it without --session, or with --session "
                f"{item.session}: nothing imported", line=item.line)


def _refused_in_ledger(ledger: Any, read: FileRead, batches: list[Batch],
                       errors: list[LedgerError], *, game: bool
                       ) -> tuple[list[Batch], list[LedgerError]]:
    """The checked ``batches`` of a whole file without the hands its ledger refuses (in its
    session's chips, a closed session: :func:`in_session_units`), and, ``game`` (a PokerNow
    log), without the hands and session lines after a refused hand in its game's log
    (:func:`replay.ingest.pokernow.refuse_followers`); ``errors`` with the refusals."""
    batches, errors = in_session_units(ledger, read, batches, errors, once=True)
    if game:
        from replay.ingest.pokernow import refuse_followers

        batches, errors = refuse_followers(ledger, read, batches, errors)
    return batches, errors


def _tables(ledger: Any, importer: Importer) -> Any:
    """The :class:`replay.ingest.derived.ImportTables` of a file imported into ``ledger``
    when it has no rows yet, else None."""
    from ledger.store.streams import head_position
    from replay.ingest.derived import ImportTables, fresh_for_tables

    if not fresh_for_tables(ledger, head_position(ledger)):
        return None
    # a file that brings no session rows (PHH) is audited hand by hand as it is appended
    return ImportTables(ledger, audit_now=importer.name == "phh")


def _importer_of(path: Path, report: ImportReport) -> Importer | None:
    """The importer of the file at ``path``; None, with the one error in ``report``, when it
    is not a regular file within the caps (never a device, a pipe or 5 GB), cannot be read,
    is no format handledger reads, or is a binary file named ``.jsonl``."""
    name = file_name(path)
    try:
        check_file(path)
    except MalformedInput as exc:
        report.errors.append(str(exc))
        return None
    except OSError as exc:
        report.errors.append(f"{name}: cannot read: {exc.strerror or exc}")
        return None
    importer = find_importer(path)
    if importer is None:
        report.errors.append(f"{name}: not a hand history handledger reads ({formats()})")
    elif importer.name == "jsonl" and (binary := not_text(path)) is not None:
        report.errors.append(f"{name}: {binary}")
        return None
    return importer


def read_file(ledger: Any, path: Path, importer: Importer, *, session: str | None,
              closed: bool = False, read: FileRead | None = None) -> FileRead:
    """``importer``'s read of ``path``. A file that makes its own session (a PokerNow game,
    FORMATS.md §2) that the ledger already holds under another session name, by its first
    hand or a session entry of it (:func:`game_session`: another export of the game, under
    any file name, maybe taken before the first hand was dealt) is read again into that
    session; given
    ``session`` (``import --session``), it is refused instead: its session book (opening,
    joins, buy-ins, cash-outs) would be written a second time, into ``session``. A PokerNow
    log into a session the ledger has opened brings no opening of its own and is counted in
    that session's chips (:func:`replay.ingest.pnunits.into_sessions`). ``closed``: session
    rows may change the books of a session the ledger has closed, a cash-out or an amendment
    (:func:`_without_stored_entries`, :func:`replay.ingest.pokernow.refuse_closed_game`).
    ``read``: ``importer.read(path, session=session)`` made already (not made again).

    Raises:
        OSError: the file cannot be read; MalformedInput: the game is in the ledger under
            another session than ``session`` (naming the file and that session), a session
            entry names a session or player a command would refuse, or (JSON lines,
            PokerNow) a line of a session's book cannot be read or does not follow the table
            (a join with chips the player does not have), or the game is in the ledger
            counted in another unit (:func:`check_game_unit`), or a PokerNow log cannot be
            counted in the chips of the opened session it goes into
            (:func:`replay.ingest.pnunits.counting`, or a line of its book): the whole file
            is refused, before anything of it is written; LedgerError: a PokerNow hand the
            ledger holds reads with another name or id for a seated player
            (:func:`replay.ingest.pnnames.check_same_names`), or the game's first hand is
            stored but its session lines are keyed as another game's
            (:func:`replay.ingest.pnnames.check_same_game`).
    """
    read = read if read is not None else importer.read(path, session=session)
    if read.session is not None:
        stored = game_session(ledger, read)
        if stored is not None and stored != read.session:
            if session is not None:
                raise MalformedInput(
                    f"this PokerNow game is in the ledger already, in session {stored}: it is "
                    f"not imported into session {session} too (its buy-ins would count "
                    "twice); nothing of the file was written", file=read.file)
            read = importer.read(path, session=stored)
        if stored is not None:
            check_game_unit(ledger, read, stored)
        elif importer.name == "pokernow":  # some of its hands stored by a cut export
            from replay.ingest.pnsplit import refuse_split_game

            refuse_split_game(ledger, read)
    if importer.name == "jsonl":
        check_closing_line(read)  # a file cut short or pasted together: refused whole
    if importer.name in ("jsonl", "pokernow"):  # files that carry a session's book
        check_entry_lines(read)  # first: its refusal names the line
    if importer.name == "pokernow":
        from replay.ingest.pnnames import check_same_game, check_same_names

        check_same_names(ledger, read)  # a stored hand under other names: the file refused
        if read.session is not None:
            check_same_game(ledger, read, read.session)  # its oldest row edited: refused
    check_entry_names(read)
    if importer.name == "pokernow":  # into a session the ledger holds: counted in its chips
        from replay.ingest.pnunits import into_sessions
        from replay.ingest.pokernow import refuse_closed_game

        read = into_sessions(ledger, read)
        refuse_closed_game(ledger, read, closed=closed)  # no hand into a closed session
        from replay.ingest.pnsplit import unbought_stacks

        unbought_stacks(ledger, read)  # a cut export's first stacks: warnings
    if importer.name == "jsonl":  # an old export's hands in their session's chips
        from replay.ingest.old_units import note_openings

        note_openings(read)
    return _without_stored_entries(ledger, read, closed=closed)


def game_session(ledger: Any, read: FileRead) -> str | None:
    """The session the ledger holds the game of ``read`` (a file that makes its own session)
    in: that of its first hand, or, that hand not stored (an export taken before its seats
    were logged), of a session entry of the game (``read.game_key`` in its source key:
    :mod:`ledger.formats.pokernow.importer`); None: the game is not in the ledger."""
    stored = None
    if read.first_hand_key is not None:
        stored = session_of_source(ledger, read.first_hand_key)
    if stored is None and read.game_key is not None:
        stored = session_of_entries(ledger, "pokernow:", f":{read.game_key}:item:")
    return stored


def check_game_unit(ledger: Any, read: FileRead, session: str) -> None:
    """Refuse another export of a game the ledger holds in ``session`` when it counts in
    another unit than the stored one (FORMATS.md §2: a log is read in cents once any amount
    has a decimal point, so an export taken before the first such amount counts whole chips):
    its hands and buy-ins would be the stored ones counted again, a hundred times larger or
    smaller. The stored unit is that of the game's first hand, else that of the session's
    opening by the game.

    Raises:
        MalformedInput: naming the file, the session and both units; nothing is written.
    """
    from replay.ingest.pnunits import stored_log_decimals

    mine = next((i.event.decimals for i in read.items if isinstance(i, SessionEntry)
                 and i.session == read.session and i.event.type == "session_opened"), None)
    theirs = stored_log_decimals(ledger, read.first_hand_key, f"pokernow:{session}:opened")
    if mine is None or theirs is None or mine == theirs:
        return

    def unit(decimals: int) -> str:
        return "whole chips" if decimals == 0 else "cents (an amount has a decimal point)"

    raise MalformedInput(
        f"this log counts {unit(mine)}, but the ledger holds an export of the same game, in "
        f"session {session}, that counts {unit(theirs)}: its amounts would not be the stored "
        "ones; nothing of the file was written", file=read.file)


def check_closing_line(read: FileRead) -> None:
    """Refuse the whole JSON-lines file when its closing line does not have its shape, does
    not count the lines before it or names a hand in play at another last seq than the file
    has (:attr:`ledger.formats.jsonl.lines.JsonlFile.refused`): lines are missing, added or
    edited, so none of its rows is taken (README: a file cut short is refused).

    Raises:
        MalformedInput: the closing line's error, naming file and line, saying that nothing
            of the file was written.
    """
    refused = read.extra.get("refused")
    if refused is not None:
        refused.message += "; nothing of the file was written"
        raise refused


def check_entry_lines(read: FileRead) -> None:
    """Refuse the whole file when a line of a session's book (an entry of no hand: a buy-in,
    a cash-out, the session's opening…) cannot be read: importing the session's hands
    without it would leave a session whose chips nobody bought, which the audit cannot
    follow (RULES.md §1.1). Hands stay refused one by one.

    Raises:
        LedgerError: the first such line's error, naming file, line and session, saying that
            nothing of the file was written.
    """
    for exc in read.errors:
        if exc.session is not None and exc.hand is None:
            exc.message += ("; a line of the session's book is refused, so nothing of the "
                            "file was written (correct the line and import the file again)")
            raise exc


#: The name fields of the session events a file may hold.
_NAME_FIELDS = ("player", "payer", "payee", "alias")


def check_entry_names(read: FileRead) -> None:
    """Refuse the whole file when a session entry names a session or player a command would
    refuse (:func:`ledger.model.names.check_name`), naming file, line and session."""
    for item in read.items:
        if not isinstance(item, SessionEntry):
            continue
        try:
            check_name(item.session, "session")
            for f in _NAME_FIELDS:
                if isinstance(value := getattr(item.event, f, None), str):
                    check_name(value)
        except LedgerError as exc:
            raise exc.located(file=read.file, line=item.line, session=item.session) from None


def _without_stored_entries(ledger: Any, read: FileRead, *, closed: bool = False) -> FileRead:
    """``read`` without the session entries the ledger holds already at the same place (the
    same event at the same seq of the session's stream): a file that is our own export, of
    entries a command wrote with no source key, adds nothing.

    Raises:
        LedgerError: a session stream of the file that does not extend the ledger's stream of
            that name (another event at a seq the ledger holds), or a row after the session's
            ``session_closed`` (the ledger's or the file's own) that a closed session takes
            no more of, or, unless ``closed``, one after the ledger's closing that changes
            its books, a cash-out or an amendment
            (:func:`replay.ingest.closed.refuse_settled_change`), naming file,
            line and session; nothing of the file is written.
    """
    numbered = [i for i in read.items if isinstance(i, SessionEntry) and i.seq is not None]
    if not numbered:
        return read
    stored = stored_rows(ledger, sorted({f"session:{i.session}" for i in numbered}))
    _check_extends(read.file, numbered, stored, closed=closed)
    if not stored:
        return read
    keep = [i for i in read.items if not (
        isinstance(i, SessionEntry) and i.seq is not None
        and stored.get((f"session:{i.session}", i.seq)) == event_json(i.event))]
    return dataclasses.replace(read, items=keep)


#: Session events a closed session takes no more of (RULES.md §1.1: no hands or buy-ins).
NOT_AFTER_CLOSE = ("session_opened", "session_closed", "buy_in")


def _check_extends(file: str, numbered: list[SessionEntry],
                   stored: dict[tuple[str, int], str], *, closed: bool = False) -> None:
    """Refuse (see :func:`_without_stored_entries`) a numbered session entry that differs from
    the ledger's row at its seq, or that a closed stream (closed in the ledger or on an
    earlier line of the file) does not take, or, unless ``closed``, that changes the books
    after the ledger's closing (a cash-out, an amendment; after the file's own closing alone
    it goes in: another ledger recorded it so)."""
    import json

    from replay.ingest.closed import refuse_settled_change

    types = {key: json.loads(payload).get("type") for key, payload in stored.items()}
    shut: dict[str, int] = {}  # each stream's closing in the ledger: its seq
    for (stream, seq), kind in sorted(types.items()):
        if kind == "session_closed":
            shut.setdefault(stream, seq)
    types.update({(f"session:{i.session}", i.seq): i.event.type for i in numbered})
    ended = dict.fromkeys(shut, True)  # closed, in the ledger or on an earlier line
    for item in numbered:
        stream = f"session:{item.session}"
        held = stored.get((stream, item.seq))  # type: ignore[arg-type]
        if held is not None:
            if held != event_json(item.event):
                raise LedgerError(
                    f"its {item.event.type} at seq {item.seq} is not the ledger's entry "
                    f"{item.seq}: "
                    f"this is another session named {item.session}; nothing of the file was "
                    "written (import it into another ledger, or rename the session in the file)",
                    file=file, line=item.line, session=item.session)
            continue
        if stream in shut and not closed:
            target = getattr(item.event, "seq", None)
            refuse_settled_change(item, types.get((stream, target)), shut[stream], file=file)
        if ended.get(stream) and item.event.type in NOT_AFTER_CLOSE:
            raise LedgerError(
                f"its {item.event.type} at seq {item.seq} comes after the session was closed: "
                f"a closed session takes no more; nothing of the file was written",
                file=file, line=item.line, session=item.session)
        if item.event.type == "session_closed":
            ended[stream] = True


def check_items(read: FileRead, *, known: Callable[[list[str]], set[str]] | None = None,
                states: dict[str, Any] | None = None,
                keep: Callable[[list[Any], Any, Any], Any] | None = None
                ) -> tuple[list[Batch], list[LedgerError]]:
    """The batches of a read file, in file order, every hand checked with the engine, and the
    errors: the reader's, then the engine's refusals in file order (and a hand whose id or a
    seated player's name a command would refuse: ledger/model/names.py; a rake above the pot
    or one the books could not count, and one the payouts do not leave out as a
    :class:`StoredFinding` of a hand kept:
    :func:`replay.ingest.rakes.rake_finding`). ``known(keys)``: those
    source keys the ledger holds; a session entry whose session stream an earlier version
    stored whole (its ``legacy_key``, or that with ``:0``) is then left out, and a hand the
    ledger holds as an earlier version read it (its ``earlier`` key) is that reading, so it
    is found known. ``states``: gets
    each good hand's events, the engine state their check left and its settlement when the
    check made one (``engine.settle.settle(state)``, of a hand that records chips returned;
    else None), by hand id (or what ``keep(events, state, settled)`` makes of them)."""
    errors: list[LedgerError] = list(read.errors)
    warned = {e.hand for e in read.errors if isinstance(e, StoredFinding)}
    skip = _legacy_skips(read.items, known)
    held = _earlier_held(read.items, known)
    batches: list[Batch] = []
    for item in read.items:
        if isinstance(item, SessionEntry):
            if item.legacy_key not in skip:
                batches.append(Batch(f"session:{item.session}", [item.event], None,
                                     item.session, item.source_key, item.line))
            continue
        try:
            if isinstance(item, HandEvents):
                if item.earlier is not None and item.earlier[0] in held:
                    item = dataclasses.replace(item, source_key=item.earlier[0],
                                               events=item.earlier[1])
                events = item.events
                state = check_events(events, file=read.file, lines=item.lines,
                                     in_play=item.in_play)
            elif isinstance(item, PhhHand):
                events, state = phh_fold(item)
            else:
                raise MalformedInput(f"an importer gave {type(item).__name__}, not a hand")
        except LedgerError as exc:
            errors.append(exc)
            continue
        except ValidationError as exc:  # an action amount beyond MAX_CHIPS
            errors.append(invalid_value(exc).located(hand=getattr(item, "hand", None)))
            continue
        hand = events[0].hand
        found, settled = hand_faults(events, state, file=read.file,
                                     line=getattr(item, "line", None),
                                     rake_line=getattr(item, "rake_line", None),
                                     check_paid=hand not in warned,
                                     finishing=told_stacks(item))
        if found is not None:
            errors.append(found)
            if not isinstance(found, StoredFinding):  # a warning keeps the hand
                continue
        batches.append(Batch(hand, events, hand, events[0].session, item.source_key,
                             item.line, item.lines if isinstance(item, HandEvents) else None))
        if states is not None:
            states[hand] = ((events, state, settled) if keep is None
                            else keep(events, state, settled))
    return batches, errors


def _earlier_held(items: Sequence[Any], known: Callable[[list[str]], set[str]] | None
                  ) -> set[str]:
    """The keys of the hands' ``earlier`` readings (:class:`HandEvents`) the ledger holds:
    those hands are taken as the ledger holds them, as read then (a stored hand keeps
    reading as it was written), so the import finds them known."""
    keys = [i.earlier[0] for i in items if isinstance(i, HandEvents) and i.earlier]
    return known(keys) if keys and known is not None else set()


def _legacy_skips(items: Sequence[Any], known: Callable[[list[str]], set[str]] | None
                  ) -> set[str]:
    legacy = {i.legacy_key for i in items if isinstance(i, SessionEntry) and i.legacy_key}
    if not legacy or known is None:
        return set()
    seen = known([*legacy, *(f"{k}:0" for k in legacy)])
    return {k for k in legacy if k in seen or f"{k}:0" in seen}


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
    from replay.ingest.units import ChipNotDivided, NotWholeChips, SessionUnit, to_session
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

    out, wrong = [], []
    tried = 0
    from replay.ingest.old_units import earlier_in_own_session

    as_stored = _stored_so(ledger, batches, unit) | earlier_in_own_session(read, batches)
    for b in batches:
        if b.is_hand and b.events and b.session is not None:
            tried += 1
            try:
                converted = (list(b.events) if b.hand_id in as_stored
                             else to_session(b.events, unit(b.session), b.session))
            except LedgerError as exc:
                if isinstance(exc, NotWholeChips) and exc.rake:  # at the file's rake line
                    exc.located(line=next((i.rake_line for i in read.items if isinstance(
                        i, PhhHand) and i.hand == b.hand_id), None))
                wrong.append(exc.located(line=b.line))  # else at the hand's first line
                continue
            check_signed_unconverted(read, b, converted, unit(b.session))
            b = b.with_events(converted)
        out.append(b)
    if len(wrong) > 1 and len(wrong) == tried and len({e.message for e in wrong}) == 1 and (
            once or all(isinstance(e, ChipNotDivided) for e in wrong)):
        wrong = [SameForHands(wrong)]  # one cause for the whole file: said once
    elif len(wrong) > 1 and len(wrong) == tried and all(
            isinstance(e, NotWholeChips) for e in wrong):  # the file's unit is not the session's
        first = wrong[0]
        wrong = [SameForHands(wrong, (
            f"its amounts are in a smaller unit than the session's chip of {first.chip} minor "
            f"units (hand {first.hand}: an amount of {first.minor}): import it into a session "
            "whose chip divides them, or without --session; never rounded"))]
    return out, [*errors, *wrong]


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


def read_batches(path: Path, *, session: str | None = None
                 ) -> tuple[list[Batch], list[LedgerError]]:
    """The checked batches and errors of one file, without a ledger (no lookups).

    Raises:
        MalformedInput: no importer identifies the file; OSError: it cannot be read.
    """
    importer = find_importer(path)
    if importer is None:
        raise MalformedInput(f"not a hand history handledger reads ({formats()})",
                             file=str(path))
    return check_items(importer.read(path, session=session))


def invalid_value(exc: ValidationError) -> MalformedEvent:
    """The :class:`MalformedEvent` for a pydantic error raised while a reader built events
    (as :func:`ledger.model.events.parse_event` words it: the first error's place and
    message)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return MalformedEvent(f"invalid event ({where}: {first.get('msg')})")
