"""Import files into the ledger: parse, check every hand with the engine, append.

Each hand is checked before anything is written; a bad hand is reported (file, line, hand,
action) and skipped, the others are appended — unless ``strict``, which rejects the whole file.
All hands of one file are appended in one transaction. A hand whose source key is already in
the ledger is skipped, so importing the same file twice adds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ledger.errors import LedgerError, MalformedEvent, MalformedInput
from ledger.jsonl import gc_paused
from replay import carry

HAND_SUFFIXES = (".phh", ".phhs", ".jsonl")


@dataclass
class ImportReport:
    """What an import did: hands appended, already known, rejected (with one line each)."""

    files: int = 0
    imported: int = 0
    known: int = 0
    events: int = 0
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        rejected = len(self.errors)
        text = (
            f"imported {self.imported} hand(s) ({self.events} events) from {self.files} "
            f"file(s); {self.known} already in the ledger; {rejected} rejected"
        )
        return text


def discover(directory: Path) -> list[Path]:
    """Hand files under ``directory`` (recursively), sorted by path."""
    return sorted(
        p for p in directory.rglob("*") if p.is_file() and p.suffix in HAND_SUFFIXES
    )


def import_paths(
    ledger: Any,
    paths: Sequence[Path],
    *,
    strict: bool,
    session: str | None,
    pn_ledger: str | None,
) -> ImportReport:
    """Import every file of ``paths`` (directories are searched); see the module doc."""
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

    with progress("importing", total=len(files)) as tick:
        for path in files:
            with gc_paused():  # see ledger.jsonl.gc_paused; the file's objects are freed after
                _import_file(ledger, path, report, strict=strict, session=session)
            tick()
    if pn_ledger is not None:
        from cli.importing_pokernow import import_statement

        import_statement(ledger, Path(pn_ledger), files, session, report)
    return report


def _import_file(ledger: Any, path: Path, report: ImportReport, *, strict: bool,
                 session: str | None) -> None:
    """Import one file, counting into ``report`` (see :func:`import_paths`)."""
    report.files += 1
    try:
        batches, errors = _read(path, session)
    except LedgerError as exc:
        report.errors.append(str(exc.located(file=str(path))))
        return
    except ValidationError as exc:  # a value the event models refuse (a stack beyond MAX_CHIPS)
        report.errors.append(str(invalid_value(exc).located(file=str(path))))
        return
    batches, clashes = _drop_known_hands(ledger, batches)
    errors = [e.located(file=str(path)) for e in errors + clashes]
    report.errors.extend(str(e) for e in errors)
    if strict and errors:
        report.errors.append(f"{path}: --strict: nothing of this file was written")
        return
    report.known += sum(1 for b in batches if b[2] is not None and b[1] is None)
    batches = carry.link([b for b in batches if b[1] is not None], previous_hand(ledger))
    written = ledger.append_many(batches)
    for positions, batch in zip(written, batches, strict=True):
        report.events += len(positions)
        if batch[2] is None:  # a session batch, not a hand
            continue
        if positions:
            report.imported += 1
        elif batch[1]:
            report.known += 1


def invalid_value(exc: ValidationError) -> MalformedEvent:
    """The :class:`MalformedEvent` for a pydantic error raised while a reader built events
    (as :func:`ledger.events.parse_event` words it: the first error's place and message)."""
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


def _drop_known_hands(ledger: Any, batches: list[tuple]) -> tuple[list[tuple], list[LedgerError]]:
    """A hand already in the ledger (same hand id, imported from another file) is skipped when
    it starts the same way or comes from the same source (same source key: a longer export of
    the same game), and refused otherwise: a stream is never appended twice."""
    ids = [b[2] for b in batches if b[2] is not None]
    if not ids:
        return batches, []
    rows = ledger.connection.execute(
        "SELECT hand_id, CAST(payload AS VARCHAR), source_key FROM events"
        " WHERE seq = 1 AND hand_id IN (SELECT UNNEST(?))",
        [ids],
    ).fetchall()
    stored = {hand: (payload, key) for hand, payload, key in rows}
    out, clashes = [], []
    for b in batches:
        hand = b[2]
        if hand is None or hand not in stored:
            out.append(b)
            continue
        from ledger.events import event_json

        same_source = b[4] is not None and b[4] == stored[hand][1]
        if same_source or event_json(b[1][0]) == stored[hand][0]:
            out.append((b[0], None, hand, b[3], b[4]))  # known: counted, not written
        else:
            clashes.append(LedgerError(f"a different hand {hand} is already in the ledger",
                                       hand=hand))
    return out, clashes


def _read(path: Path, session: str | None) -> tuple[list[tuple], list[LedgerError]]:
    suffix = path.suffix.lower()
    if suffix in (".phh", ".phhs"):
        return _read_phh(path, session)
    if suffix == ".jsonl":
        return _read_jsonl(path, session)
    if suffix == ".csv":
        from cli.importing_pokernow import read_pokernow

        return read_pokernow(path, session)
    raise MalformedInput(f"unknown file type {suffix!r} (expected .phh, .phhs, .jsonl, .csv)")


def _with_session(events: list[Any], session: str | None) -> list[Any]:
    if session is None or events[0].session == session:
        return events
    return [events[0].model_copy(update={"session": session}), *events[1:]]


def _read_phh(path: Path, session: str | None) -> tuple[list[tuple], list[LedgerError]]:
    from ledger.phh import read_phh
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


def _read_jsonl(path: Path, session: str | None) -> tuple[list[tuple], list[LedgerError]]:
    """The batches (``Ledger.append_many`` items, in file order) and errors of one JSON-lines
    file: every hand checked by the engine, sessions cut at the hands between their rows
    (:func:`_session_segments`). Source keys are ``jsonl:<sha256 of the stream's events>``.

    Raises:
        OSError: the file cannot be read.
    """
    from ledger.jsonl import read_jsonl
    from replay.build import check_events

    parsed = read_jsonl(path)
    errors: list[LedgerError] = list(parsed.errors)
    placed: list[tuple[int, tuple]] = []  # (first line, batch): appended in file order
    starts = sorted(h.line for h in parsed.hands)
    digest = _Digests()
    for stream in parsed.sessions + parsed.hands:
        events = stream.events
        try:
            if stream.kind == "hand":
                check_events(events, file=str(path), lines=[row.line for row in stream.rows])
                events = _with_session(events, session)
        except LedgerError as exc:
            errors.append(exc)
            continue
        key = digest(events)
        if stream.kind == "hand":
            placed.append((stream.line, (stream.id, events, stream.id,
                                         session or events[0].session, f"jsonl:{key}")))
        else:
            name = stream.id.split(":", 1)[-1]
            placed.extend(_session_segments(stream.rows, starts, name, key))
    placed.sort(key=lambda item: item[0])
    return [batch for _, batch in placed], errors


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
        parts = []
        for event in events:
            text = texts.get(id(event))
            if text is None:
                text = texts[id(event)] = type(event).__pydantic_serializer__.to_json(event)
            parts.append(text)
        return hashlib.sha256(b"\n".join(parts)).hexdigest()


def _session_segments(rows: Sequence[Any], starts: Sequence[int], name: str,
                      digest: str) -> list[tuple[int, tuple]]:
    """A session stream's rows cut at every hand that starts between them, so that a rebuy
    or cash-out lands between the same hands in the ledger as in the file (issue 5: table
    stakes, the books are folded in ledger order). ``starts``: the first lines of the file's
    hands, sorted. One batch (source key ``jsonl:<digest>``) when no hand interrupts the
    stream, else ``jsonl:<digest>:<k>`` for the k-th piece."""
    import bisect

    pieces: list[list[Any]] = []
    last = None
    for row in rows:
        before = bisect.bisect_left(starts, row.line)
        if before != last:
            pieces.append([])
            last = before
        pieces[-1].append(row)
    out = []
    for k, piece in enumerate(pieces):
        key = f"jsonl:{digest}" if len(pieces) == 1 else f"jsonl:{digest}:{k}"
        out.append((piece[0].line, (f"session:{name}", [r.event for r in piece], None, name,
                                    key)))
    return out
