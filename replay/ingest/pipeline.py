"""Import files into the ledger: find the importer, read, check every hand with the engine, append.

Each file goes to the first importer of :mod:`replay.ingest.registry` that identifies it (by
content, not by an ``if`` on suffixes). Each hand is checked with the engine before anything is
written; a bad hand is reported (file, line, hand, action) and skipped, the others are appended
— unless ``strict``, which rejects the whole file, as does a file that carries a session's book
(JSON-lines session rows: :class:`replay.ingest.writing.FileWriter`). A reader's
:class:`ledger.model.errors.StoredFinding` (a PokerNow hand stored as the site played and paid
it, FORMATS.md §2), and a hand whose payouts are short of its pot by other than the rake it
records (:func:`replay.ingest.rakes.rake_finding`), refuse nothing: each is a warning of the
report once its hand is stored.
All hands of one file are appended in one transaction. A hand or session entry whose source
key the ledger holds is skipped, so importing the same file twice adds nothing; the same hand
id from another file is skipped when it is the same hand and refused otherwise; a stored hand
that a log cut off is completed by a longer copy with a correction
(:mod:`replay.ingest.completing`).
The parts: :mod:`replay.ingest.report` (what an import did), :mod:`replay.ingest.session_option`
(``import --session``), :mod:`replay.ingest.file_reading` (a file read, its session rows
checked), :mod:`replay.ingest.hand_checks` (its hands checked with the engine),
:mod:`replay.ingest.session_units` (each hand in its session's chips, closed sessions) and
:mod:`replay.ingest.writing` (the append).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.formats.files import check_file, file_name
from ledger.formats.phh.base import PhhHand
from ledger.formats.reading import FileRead, HandEvents, Importer
from ledger.model.batch import Batch
from ledger.model.errors import (
    LedgerCorrupt,
    LedgerError,
    MalformedInput,
    StoredFinding,
)
from ledger.model.gcpause import gc_paused
from ledger.model.names import check_name
from ledger.store import landing
from ledger.store.proven import prove_before_writing
from replay.ingest.amendment_rules import check_amendments
from replay.ingest.file_reading import game_held, read_file
from replay.ingest.hand_checks import check_items, invalid_value
from replay.ingest.pnshared import said_first
from replay.ingest.registry import find_importer, formats, not_text
from replay.ingest.report import ImportReport
from replay.ingest.session_option import check_session_first, check_session_option
from replay.ingest.session_units import in_session_units
from replay.ingest.signatures import Signatures
from replay.ingest.writing import States, write_file
from replay.progress import Progress, silent


def discover(directory: Path) -> list[Path]:
    """The files under ``directory`` (recursively, sorted by path) that an importer
    identifies (:func:`replay.ingest.survey.survey`, without its notes)."""
    from replay.ingest.survey import survey

    return survey(directory)[0]


def expand(paths: Sequence[Path], statement: Path | None = None, *, empty_ok: bool = False
           ) -> tuple[list[Path], list[str], list[str], int]:
    """``paths`` with each directory replaced by the files an importer identifies under it;
    an error line for each path that does not exist; a note line for each file of those
    directories left unread (the Parquet files of one: one line between them); and how many
    files those are (:func:`replay.ingest.survey.survey`; ``statement``: the ``--ledger``
    statement, left without one; ``empty_ok``: directories with nothing to import are not
    refused, their caller names what is missing).

    Raises:
        MalformedInput: a directory of Parquet files and no file an importer identifies (a
            Parquet export: :func:`replay.ingest.survey.parquet_folder`); ``paths`` are
            directories (those that exist) and no file under them is one an importer
            identifies: nothing to import (:func:`replay.ingest.survey.nothing_to_import`),
            unless ``empty_ok``.
    """
    from replay.ingest.survey import nothing_to_import, survey

    files: list[Path] = []
    missing: list[str] = []
    skipped: list[str] = []
    kinds: list[str] = []
    count = 0
    for p in paths:
        if p.is_dir():
            found, notes, left = survey(p, statement, kinds)
            files.extend(found)
            skipped.extend(notes)
            count += left
        elif p.exists():
            files.append(p)
        else:
            missing.append(f"{p}: no such file")
    if not (files or missing or empty_ok) and (folders := [p for p in paths if p.is_dir()]):
        raise MalformedInput(nothing_to_import(folders, kinds))
    return files, missing, skipped, count


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
            ``session`` is not open and no file could open it (:func:`check_session_first`),
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
            from replay.ingest.pokernow import refuse_other_statement, refuse_strangers

            refuse_strangers(ledger, Path(pn_ledger), into, first)
            refuse_other_statement(ledger, Path(pn_ledger), into, log,
                                   first.extra["decimals"])
    report = report if report is not None else ImportReport(session=session)
    files, report.errors, report.notes, report.skipped = expand(
        paths, None if pn_ledger is None else Path(pn_ledger))
    report.skip_notes = len(report.notes)
    files = _once(files, report.notes)
    if session is not None:
        check_session_first(ledger, session, files, closed=closed)
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


def unreadable_only(paths: Sequence[Path], session: str | None) -> ImportReport | None:
    """The report :func:`import_paths` gives for ``paths`` when no file of them can be
    imported, known from each file's first bytes (missing, not a regular file, too large,
    unreadable, no format handledger reads, a binary ``.jsonl``: :func:`_importer_of`) and
    so without a ledger; None as soon as one file is of a format handledger reads."""
    report = ImportReport(session=session)
    files, report.errors, report.notes, report.skipped = expand(paths)
    report.skip_notes = len(report.notes)
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
    read_log`), not read again. A file refused whole counts the hands the ledger holds
    already as known (:func:`_held_hands`) and its other hands as not written, whether
    refused as it was read (:func:`read_file`) or once its hands were checked.
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
    given: FileRead | None = None
    try:
        # the last position before the file, read once: for the tables and the write (the
        # checks between them write nothing)
        stored = _head_position(ledger) if tables else None
        made = _tables(ledger, importer, stored) if tables else None
        if hasattr(importer, "iter_read"):
            from replay.ingest.chunked import import_chunked

            report.add(import_chunked(ledger, path, importer, strict=strict, session=session,
                                      tables=made, stored=stored))
            return
        given = read if read is not None else importer.read(path, session=session)
        read = None  # until read_file takes it: a refusal of it counts its hands held
        held = game_held(ledger, path, importer, given, session)
        given = held[0]  # read into the session holding its game: the hand ids refusals name
        read = read_file(ledger, path, importer, session=session, closed=closed, read=given,
                         held=held)
        from replay.ingest.pokernow import held_after_refused

        report.known += held_after_refused(ledger, read)  # a log's hands after a refused one
        if signatures is not None:  # before anything of the file is written
            report.notes.extend(signatures.check(read))
        from replay.ingest.old_units import whole_unit_notes

        report.notes.extend(whole_unit_notes(ledger, read))  # an old export's whole dollars?
        check_amendments(read)  # a correction held to `correct`'s rules, signed or not
        if session is not None:
            check_session_option(ledger, read, session)
        from replay.ingest.derived import early_share

        states: States | None = {} if made is not None else None  # the hands' shares
        batches, errors = check_items(read, known=ledger.known_sources, states=states,
                                      keep=early_share)
        batches, errors = _refused_in_ledger(ledger, read, batches, errors,
                                             game=importer.name == "pokernow")
        part = write_file(ledger, path, batches, errors, strict=strict, states=states,
                          tables=made, game=importer.name == "pokernow", closed=closed,
                          in_order=importer.name == "jsonl", stored=stored)
        said_first(part, read.extra.get("shared"))  # another PokerNow game in its session
        cut = read.extra.get("cut", [])  # a log that begins inside a hand: one warning
        part.warnings.extend(cut)
        part.cut = len(cut)
        report.add(part)
    except LedgerCorrupt:  # the ledger itself, not this file: the import stops, in one line
        raise
    except LedgerError as exc:  # the file's one transaction wrote nothing
        report.errors.append(str(exc.located(file=name)))
        _refused_hands(report, read or given, exc, ledger)
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


def _refused_hands(report: ImportReport, read: FileRead | None, error: LedgerError,
                   ledger: Any) -> None:
    """Count into ``report`` the hands of a file refused whole in one error line (``read``:
    the file as read; None: refused before it was read): the line is one rejection (the hand
    it names, or the row, the statement or the file), each other hand the ledger holds
    already is known (:func:`_held_hands`), and each other hand the file gave (refused
    as it was read, by :func:`read_file`, or once its hands were checked) is not written
    with it (``unwritten``), so that the summary adds up to the hands read
    (docs/IMPORTING.md, "The import's summary line"). The refused hand is counted once: the
    one the line names, by its id or (a refusal naming the ledger's copy of it) by the line
    it starts on."""
    if read is None:
        return
    items = [i for i in read.items if isinstance(i, (HandEvents, PhhHand))]
    refused = {error.hand} | {i.hand_id if isinstance(i, HandEvents) else i.hand for i in items
                              if error.line is not None and i.line == error.line}
    held = _held_hands(ledger, read) - refused
    report.known += len(held)
    hands = {i.hand_id if isinstance(i, HandEvents) else i.hand for i in items}
    hands.update(e.hand for e in read.errors
                 if e.hand is not None and not isinstance(e, StoredFinding))
    report.unwritten += len(hands - held - refused)


def _held_hands(ledger: Any, read: FileRead) -> set[str]:
    """The hands of ``read`` (a file refused whole) that the ledger holds already (by source
    key, or an earlier version's, or as a PHH hand carrying its site key as
    ``_source_key``, or under the same id with the same original events: a PHH export of
    it imported first, :func:`_held_by_id`): known, as a file refused once its hands are
    checked counts them, so that the summary says they are in the ledger."""
    from replay.ingest.carried_source import SITE_PREFIXES, hands_carrying

    hands = [i for i in read.items if isinstance(i, HandEvents)]
    held = ledger.known_sources([k for i in hands for k in (
        i.source_key, getattr(i, "legacy_key", None)) if k])
    held = set(held) | set(hands_carrying(ledger, sorted({  # a PHH export's copy of it
        i.source_key for i in hands if i.source_key not in held
        and i.source_key.startswith(SITE_PREFIXES)})))
    keyed = {i.hand_id for i in hands
             if i.source_key in held or getattr(i, "legacy_key", None) in held}
    return keyed | _held_by_id(ledger, [i for i in hands if i.hand_id not in keyed])


def _held_by_id(ledger: Any, hands: list[HandEvents]) -> set[str]:
    """Those of ``hands`` whose id the ledger holds with the same start and the same original
    events (:func:`replay.ingest.stored_copy.first_difference`, corrections and voids left
    out): the hand another format of the same export brought first (docs/IMPORTING.md, "The
    import's summary line"). One query; none when ``hands`` is empty."""
    from replay.ingest.stored_copy import first_difference, original_rows, same_start

    rows = original_rows(ledger, [i.hand_id for i in hands])
    return {i.hand_id for i in hands if i.hand_id in rows and i.events
            and same_start(i.events[0], rows[i.hand_id][0][1])
            and first_difference(i.events, rows[i.hand_id]) is None}


def _refused_in_ledger(ledger: Any, read: FileRead, batches: list[Batch],
                       errors: list[LedgerError], *, game: bool
                       ) -> tuple[list[Batch], list[LedgerError]]:
    """The checked ``batches`` of a whole file without the hands its ledger refuses (a player
    printing like one of the ledger's: :class:`replay.ingest.names_apart.NamesApart`; in its
    session's chips, a closed session: :func:`in_session_units`), and, ``game`` (a PokerNow
    log), without the hands and session lines after a refused hand in its game's log
    (:func:`replay.ingest.pokernow.refuse_followers`); ``errors`` with the refusals."""
    from replay.ingest.names_apart import NamesApart

    batches, apart = NamesApart(ledger, read.file).keep(batches)
    errors = [*errors, *apart]
    batches, errors = in_session_units(ledger, read, batches, errors, once=True)
    if game:
        from replay.ingest.pokernow import refuse_followers

        batches, errors = refuse_followers(ledger, read, batches, errors)
    return batches, errors


def _tables(ledger: Any, importer: Importer, stored: int | None = None) -> Any:
    """The :class:`replay.ingest.derived.ImportTables` of a file imported into ``ledger``
    when it has no rows yet, else None; ``stored``: the ledger's last position when read
    already."""
    from replay.ingest.derived import ImportTables, fresh_for_tables

    if not fresh_for_tables(ledger, _head_position(ledger) if stored is None else stored):
        return None
    # a file that brings no session rows (PHH) is audited hand by hand as it is appended
    return ImportTables(ledger, audit_now=importer.name == "phh")


def _head_position(ledger: Any) -> int:
    from ledger.store.streams import head_position

    return head_position(ledger)


def _importer_of(path: Path, report: ImportReport) -> Importer | None:
    """The importer of the file at ``path``; None, with the one error in ``report``, when it
    is not a regular file within the caps (never a device, a pipe or 5 GB), cannot be read,
    is no format handledger reads, is a Parquet file or a DuckDB database (known by their
    first bytes, whatever their names), or is a binary file named ``.jsonl``."""
    name = file_name(path)
    try:
        check_file(path)
    except MalformedInput as exc:
        report.errors.append(str(exc))
        return None
    except OSError as exc:
        report.errors.append(f"{name}: cannot read: {exc.strerror or exc}")
        return None
    from ledger.formats.reading import read_head
    from replay.ingest.survey import events_csv_said, ledger_said, parquet_said, statement_said

    # a Parquet file or a ledger is known by its first bytes, whatever its name (`x.jsonl` too)
    head = read_head(path)
    if (said := parquet_said(head) or ledger_said(head, name)) is not None:
        report.errors.append(f"{name}: {said}")
        return None
    importer = find_importer(path)
    if importer is None:
        said = statement_said(head) or events_csv_said(head) or \
            f"not a hand history handledger reads ({formats()})"
        report.errors.append(f"{name}: {said}")
    elif importer.name == "jsonl" and (binary := not_text(path)) is not None:
        report.errors.append(f"{name}: {binary}")
        return None
    return importer
