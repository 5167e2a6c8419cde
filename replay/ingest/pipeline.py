"""Import files into the ledger: parse, check every hand with the engine, append.

Each hand is checked before anything is written; a bad hand is reported (file, line, hand,
action) and skipped, the others are appended — unless ``strict``, which rejects the whole file.
All hands of one file are appended in one transaction. A hand whose source key is already in
the ledger is skipped, so importing the same file twice adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.model.errors import LedgerError, MalformedEvent, MalformedInput
from ledger.model.gcpause import gc_paused
from replay import carry
from replay.ingest import completing

HAND_SUFFIXES = (".phh", ".phhs", ".jsonl")


@dataclass
class ImportReport:
    """What an import did: hands appended, already known, rejected (with one line each)."""

    files: int = 0
    imported: int = 0
    known: int = 0
    events: int = 0
    completed: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, part: ImportReport) -> None:
        """Add the counts and errors of ``part`` (one file's report) to this report."""
        self.files += part.files
        self.imported += part.imported
        self.known += part.known
        self.events += part.events
        self.completed += part.completed
        self.errors.extend(part.errors)

    def summary(self) -> str:
        rejected = len(self.errors)
        text = (
            f"imported {self.imported} hand(s) ({self.events} events) from {self.files} "
            f"file(s); {self.known} already in the ledger; {rejected} rejected"
        )
        if self.completed:
            text += (f"; {self.completed} cut-off hand(s) completed from this longer export "
                     "(a correction each)")
        return text


def discover(directory: Path) -> list[Path]:
    """Hand files under ``directory`` (recursively), sorted by path: PHH, JSON lines, and the
    CSV files that are PokerNow logs (header ``entry,at,order``; a PokerNow ledger statement
    or another CSV is left alone: a statement goes with its log, ``import LOG --ledger``)."""
    return sorted(
        p for p in directory.rglob("*") if p.is_file()
        and (p.suffix in HAND_SUFFIXES or (p.suffix == ".csv" and _is_pokernow_log(p)))
    )


def _is_pokernow_log(path: Path) -> bool:
    """Whether the file's first line is PokerNow's log header (a byte-order mark allowed)."""
    try:
        with path.open("rb") as f:
            first = f.readline(256)
    except OSError:
        return False
    return first.removeprefix(b"\xef\xbb\xbf").strip().lower() == b"entry,at,order"


def import_paths(
    ledger: Any,
    paths: Sequence[Path],
    *,
    strict: bool,
    session: str | None,
    pn_ledger: str | None,
    jobs: int | None = 1,
) -> ImportReport:
    """Import every file of ``paths`` (directories are searched); see the module doc.

    ``jobs``: worker processes for a JSON-lines file (:mod:`replay.ingest.parallel`; 1 or 0:
    none; None: the machine's CPUs for a large file, none for a small one). The outcome is
    the same as with none.
    """
    report = ImportReport()
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(discover(p))
        elif p.exists():
            files.append(p)
        else:
            report.errors.append(f"{p}: no such file")
    from cli.render import progress
    from replay.ingest.parallel import auto_workers

    with progress("importing", total=len(files)) as tick:
        for path in files:
            with gc_paused():  # see ledger.model.gcpause; the file's objects are freed after
                _import_file(ledger, path, report, strict=strict, session=session,
                             workers=auto_workers(path, jobs))
            tick()
    if pn_ledger is not None:
        from replay.ingest.pokernow import import_statement

        import_statement(ledger, Path(pn_ledger), files, session, report)
    return report


def _import_file(ledger: Any, path: Path, report: ImportReport, *, strict: bool,
                 session: str | None, workers: int = 0) -> None:
    """Import one file, counting into ``report`` (see :func:`import_paths`).

    With ``workers``, a JSON-lines file is first tried with worker processes
    (:func:`replay.ingest.parallel.import_parallel`); a file that is not plain for them (an
    error anywhere, a hand already stored, …) is then imported here, in one process.
    """
    report.files += 1
    if workers:
        from replay.ingest.parallel import import_parallel

        try:
            part = import_parallel(ledger, path, session, workers)
        except OSError as exc:
            report.errors.append(f"{path}: cannot read: {exc.strerror or exc}")
            return
        except LedgerError as exc:
            report.errors.append(str(exc.located(file=str(path))))
            return
        if part is not None:
            report.add(part)
            return
    try:
        game = None
        if session is None and path.suffix.lower() == ".csv":
            session, game = _known_game(ledger, path)
        batches, errors = _read(path, session, known=ledger.known_sources, game=game)
        report.add(_write_file(ledger, path, batches, errors, strict=strict))
    except LedgerError as exc:  # the file's one transaction wrote nothing
        report.errors.append(str(exc.located(file=str(path))))
    except ValidationError as exc:  # a value the event models refuse (a stack beyond MAX_CHIPS)
        report.errors.append(str(invalid_value(exc).located(file=str(path))))
    except OSError as exc:
        report.errors.append(f"{path}: cannot read: {exc.strerror or exc}")


def _write_file(ledger: Any, path: Path, batches: list[tuple], errors: list[LedgerError], *,
                strict: bool) -> ImportReport:
    """Append one file's batches (hands already in the ledger skipped or refused) and return
    what that did, as a report of this file alone (``files`` 0)."""
    part = ImportReport()
    batches, clashes = _drop_known_hands(ledger, batches, path.name)
    errors = [e.located(file=str(path)) for e in errors + clashes]
    part.errors.extend(str(e) for e in errors)
    if strict and errors:
        part.errors.append(f"{path}: --strict: nothing of this file was written")
        return part
    part.known += sum(1 for b in batches if b[2] is not None and b[1] is None)
    completions = [b for b in batches if b[1] and b[1][0].type == "correction"]
    batches = carry.link([b for b in batches if b[1] and b[1][0].type != "correction"],
                         previous_hand(ledger))
    written = ledger.append_many([*batches, *completions])
    for positions in written[len(batches):]:  # completions of cut-off hands
        part.events += len(positions)
        part.completed += bool(positions)
        part.known += not positions
    for positions, batch in zip(written, batches, strict=False):
        part.events += len(positions)
        if batch[2] is None:  # a session batch, not a hand
            continue
        if positions:
            part.imported += 1
        elif batch[1]:
            part.known += 1
    return part


def invalid_value(exc: ValidationError) -> MalformedEvent:
    """The :class:`MalformedEvent` for a pydantic error raised while a reader built events
    (as :func:`ledger.model.events.parse_event` words it: the first error's place and message)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return MalformedEvent(f"invalid event ({where}: {first.get('msg')})")


def previous_hand(ledger: Any):  # noqa: ANN202
    """``previous(session)`` for :func:`replay.carry.link`: the session's last stored hand."""

    def previous(session: str) -> tuple[str, list[Any]] | None:
        hands = ledger.streams(kind="hand", session=session)
        if not hands:
            return None
        return hands[-1], [row.event for row in ledger.read(hands[-1])]

    return previous


def _known_game(ledger: Any, path: Path) -> tuple[str | None, Any]:
    """``(session, None)`` when a PokerNow log's game is already in the ledger under
    ``session`` (another export of it, under any file name, was imported before: its first
    hand's source key, PokerNow's hand id or start, is there; the log is then read again under
    that name), else ``(None, the log as read)``: a new game, or one already under the name
    of this file."""
    from ledger.formats.pokernow.log import PnHand, read_pokernow_log

    game = read_pokernow_log(path)
    first = next((i.source_key for i in game.items if isinstance(i, PnHand)), None)
    row = None if first is None else ledger.connection.execute(
        "SELECT session FROM events WHERE source_key = ? AND hand_id IS NOT NULL LIMIT 1",
        [first]).fetchone()
    if row and row[0] != game.session:
        return row[0], None
    return None, game


def _drop_known_hands(ledger: Any, batches: list[tuple], source: str = ""
                      ) -> tuple[list[tuple], list[LedgerError]]:
    """A hand already in the ledger (same hand id, imported from another file) is skipped when
    it starts the same way or comes from the same source (same source key: a longer export of
    the same game), and refused otherwise: a stream is never appended twice. A stored hand
    that was cut off is completed by a longer copy with a correction
    (:mod:`replay.ingest.completing`)."""
    ids = [b[2] for b in batches if b[2] is not None]
    if not ids:
        return batches, []
    rows = ledger.connection.execute(
        "SELECT hand_id, CAST(payload AS VARCHAR), source_key FROM events"
        " WHERE seq = 1 AND hand_id IN (SELECT UNNEST(?))",
        [ids],
    ).fetchall()
    stored = {hand: (payload, key) for hand, payload, key in rows}
    cut = completing.cut_hands(ledger, list(stored))
    out, clashes = [], []
    for b in batches:
        hand = b[2]
        if hand is None or hand not in stored:
            out.append(b)
            continue
        from ledger.model.events import event_json

        same_source = b[4] is not None and b[4] == stored[hand][1]
        if same_source or event_json(b[1][0]) == stored[hand][0]:
            done = completing.completion(ledger, b, source) if hand in cut else None
            out.append(done or (b[0], None, hand, b[3], b[4]))  # known: counted, not written
        else:
            clashes.append(LedgerError(f"a different hand {hand} is already in the ledger",
                                       hand=hand))
    return out, clashes


def _read(path: Path, session: str | None, *,
          known: Callable[[list[str]], set[str]] | None = None, game: Any = None
          ) -> tuple[list[tuple], list[LedgerError]]:
    suffix = path.suffix.lower()
    if suffix in (".phh", ".phhs"):
        return _read_phh(path, session)
    if suffix == ".jsonl":
        return _read_jsonl(path, session, known=known)
    if suffix == ".csv":
        from replay.ingest.pokernow import read_pokernow

        return read_pokernow(path, session, game)
    raise MalformedInput(f"unknown file type {suffix!r} (expected .phh, .phhs, .jsonl, .csv)")


def _with_session(events: list[Any], session: str | None) -> list[Any]:
    if session is None or events[0].session == session:
        return events
    return [events[0].model_copy(update={"session": session}), *events[1:]]


def _read_phh(path: Path, session: str | None) -> tuple[list[tuple], list[LedgerError]]:
    from ledger.formats.phh.read import read_phh
    from replay.build import events_from_phh

    parsed = read_phh(path)
    errors: list[LedgerError] = list(parsed.errors)
    batches = []
    for hand in parsed.hands:
        try:
            events = _with_session(events_from_phh(hand), session)
        except LedgerError as exc:
            errors.append(exc)
            continue
        except ValidationError as exc:  # an action amount beyond MAX_CHIPS
            errors.append(invalid_value(exc).located(hand=hand.hand))
            continue
        hand_id = events[0].hand
        batches.append((hand_id, events, hand_id, session, hand.source_key))
    return batches, errors


def _read_jsonl(path: Path, session: str | None, *,
                known: Callable[[list[str]], set[str]] | None = None
                ) -> tuple[list[tuple], list[LedgerError]]:
    """The batches (``Ledger.append_many`` items, in file order) and errors of one JSON-lines
    file: every hand checked by the engine, each session row placed among the hands
    (:func:`_session_rows`). A hand's source key is ``jsonl:<sha256 of its events>``.
    ``known(keys)``: those source keys the ledger holds; a session
    stream that an earlier version imported whole (key ``jsonl:<digest of the stream>``, or
    ``…:0`` for its first piece) is then not appended again.

    Raises:
        OSError: the file cannot be read.
    """
    from ledger.formats.jsonl import read_jsonl

    placed, errors, older = jsonl_batches(read_jsonl(path), str(path), session)
    if older and known is not None:  # imported whole by an earlier version: not again
        seen = known([*older, *(f"{k}:0" for k in older)])
        older = {k: rows for k, rows in older.items() if k not in seen and f"{k}:0" not in seen}
    return in_file_order(placed, older), errors


def in_file_order(placed: Placed, older: dict[str, Placed]) -> list[tuple]:
    """The batches of the hands (``placed``) and of the session rows (``older``'s values) of
    :func:`jsonl_batches`, in the order of their lines in the file."""
    rows = [*placed, *(row for session in older.values() for row in session)]
    rows.sort(key=lambda item: item[0])
    return [batch for _, batch in rows]


Placed = list[tuple[int, tuple]]  # (first line, append_many batch)


def jsonl_batches(parsed: Any, file: str, session: str | None, *,
                  digest: _Digests | None = None
                  ) -> tuple[Placed, list[LedgerError], dict[str, Placed]]:
    """The hands of a read JSON-lines file (or part, :func:`ledger.formats.jsonl.read_jsonl_part`)
    as ``(first line, batch)`` pairs, the errors (the reader's, then the engine's refusals in file
    order), and the session rows by the key an earlier version gave the whole session stream
    (``jsonl:<digest of the stream's events>``; see :func:`_read_jsonl`). ``digest``: a
    :class:`_Digests` to share with other parts."""
    from replay.build import check_events

    errors: list[LedgerError] = list(parsed.errors)
    placed: list[tuple[int, tuple]] = []  # (first line, batch): appended in file order
    older: dict[str, list[tuple[int, tuple]]] = {}  # a session's earlier key -> its rows
    digest = digest or _Digests()
    for stream in parsed.sessions + parsed.hands:
        events = stream.events
        try:
            if stream.kind == "hand":
                check_events(events, file=file, lines=[row.line for row in stream.rows])
                events = _with_session(events, session)
        except LedgerError as exc:
            errors.append(exc)
            continue
        if stream.kind == "hand":
            placed.append((stream.line, (stream.id, events, stream.id,
                                         session or events[0].session,
                                         f"jsonl:{digest(events)}")))
        else:
            name = stream.id.removeprefix("session:")  # a name may hold ":" (club:fri)
            older[f"jsonl:{digest(events)}"] = _session_rows(stream.rows, name, digest)
    return placed, errors, older


class _Digests:
    """``sha256("\\n".join(e.model_dump_json() for e in events))`` (hex) of a stream, the
    stream's source key; each event's JSON is made once per distinct event object (the reader
    gives equal event texts one shared frozen event). Only for the events of one read: the
    memo is keyed by ``id``, valid while those events live."""

    def __init__(self) -> None:
        self.texts: dict[int, bytes] = {}

    def __call__(self, events: Sequence[Any]) -> str:
        import hashlib

        texts = self.texts
        ids = list(map(id, events))
        missing = set(ids).difference(texts)
        if missing:
            for key, event in zip(ids, events, strict=True):
                if key in missing and key not in texts:
                    texts[key] = type(event).__pydantic_serializer__.to_json(event)
        return hashlib.sha256(b"\n".join(map(texts.__getitem__, ids))).hexdigest()


def _session_rows(rows: Sequence[Any], name: str, digest: _Digests
                  ) -> list[tuple[int, tuple]]:
    """One batch per session row, placed at its line among the file's hands, so that a rebuy or
    cash-out lands between the same hands in the ledger as in the file (issue 5: table stakes,
    the books are folded in ledger order). Source key ``jsonl:<session>:<seq>:<digest of the
    row's event>``: the rows a shorter copy of the file (cut, or exported earlier) already
    wrote are known when the whole file comes, and none is appended twice."""
    return [(row.line, (f"session:{name}", [row.event], None, name,
                        f"jsonl:{name}:{row.seq}:{digest([row.event])}")) for row in rows]
