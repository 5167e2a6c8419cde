"""The project's own event files: JSON lines, one event per line.

Shape of a line (UTF-8, ASCII in practice, ``\\n``-terminated, no blank lines)::

    {"hand":"<hand id>","seq":1,"event":{"type":"hand_started",...}}
    {"session":"<session id>","seq":1,"event":{"type":"session_opened",...}}

``hand`` rows carry hand events, ``session`` rows session events (see :mod:`ledger.events`).
``seq`` counts 1, 2, … inside each hand or session; a hand's first event is ``hand_started``
(whose ``hand`` equals the row's id), a session's first is ``session_opened`` (same rule).
Streams may interleave in a file. The event object is :func:`ledger.events.event_json`
(sorted keys, no spaces), so writing what was read gives the same bytes back.

:func:`read_jsonl` never stops at a bad line: each error is a :class:`MalformedInput` naming
file, line and (when known) the hand or session; a stream with an error is left out whole
and the others are returned (the ``.hands`` / ``.errors`` shape of :mod:`ledger.phh`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ledger.errors import MalformedInput
from ledger.events import HandEvent, SessionEvent, event_json, parse_event

Kind = Literal["hand", "session"]
SESSION_TYPES = frozenset(m.model_fields["type"].default for m in SessionEvent.__args__)  # type: ignore[attr-defined]
HAND_TYPES = frozenset(m.model_fields["type"].default for m in HandEvent.__args__)  # type: ignore[attr-defined]
_STREAM_RE = re.compile(r'^\{"(hand|session)":("(?:[^"\\]|\\.)*")')
_FIRST = {"hand": "hand_started", "session": "session_opened"}


@dataclass(frozen=True)
class JsonlRow:
    """One line: ``kind`` (``hand``/``session``), the stream id, ``seq``, the typed event and
    the 1-based ``line`` it was read from (None for rows built in memory)."""

    kind: Kind
    stream: str
    seq: int
    event: Any
    line: int | None = None


@dataclass(frozen=True)
class EventStream:
    """The rows of one hand or session in ``seq`` order; ``line`` is where it starts."""

    kind: Kind
    id: str
    line: int
    rows: list[JsonlRow] = field(default_factory=list)

    @property
    def events(self) -> list[Any]:
        return [row.event for row in self.rows]


@dataclass(frozen=True)
class JsonlFile:
    """What :func:`read_jsonl` returns: good hands and sessions in order of their first line,
    and the errors (one per bad line that belongs to no stream, one per bad stream)."""

    file: str
    hands: list[EventStream]
    sessions: list[EventStream]
    errors: list[MalformedInput]

    def rows(self) -> list[JsonlRow]:
        """Every good row in file order (what :func:`write_jsonl` needs to rewrite the file)."""
        rows = [row for stream in self.hands + self.sessions for row in stream.rows]
        return sorted(rows, key=lambda row: row.line or 0)

    def check(self) -> JsonlFile:
        """Return self, or raise the first error.

        Raises:
            MalformedInput: the file had a bad line or stream.
        """
        if self.errors:
            raise self.errors[0]
        return self


# --------------------------------------------------------------------------------------------
# Writing


def kind_of(event: Any) -> Kind:
    """``session`` for session events, ``hand`` for hand events."""
    return "session" if event.type in SESSION_TYPES else "hand"


def jsonl_line(stream: str, seq: int, event: Any) -> str:
    """One line (without its newline) for an event model or an event dict.

    Raises:
        MalformedInput: an empty stream id, a ``seq`` below 1, or an invalid event
            (:class:`~ledger.errors.MalformedEvent`).
    """
    if not isinstance(stream, str) or not stream:
        raise MalformedInput(f"stream id {stream!r} is not a non-empty string")
    if type(seq) is not int or seq < 1:
        raise MalformedInput(f"seq {seq!r} is not a positive integer", hand=stream)
    if isinstance(event, dict):
        event = parse_event(event)
    return (
        "{" + json.dumps(kind_of(event)) + ":" + json.dumps(stream)
        + ',"seq":' + str(seq) + ',"event":' + event_json(event) + "}"
    )


def iter_jsonl(rows: Iterable[JsonlRow | EventStream | tuple[str, int, Any]]) -> Iterator[str]:
    """Lines (with ``\\n``) for rows given as :class:`JsonlRow`, whole :class:`EventStream`\\ s
    or ``(stream id, seq, event)`` tuples, in the order given. Raises as :func:`jsonl_line`."""
    for item in rows:
        if isinstance(item, EventStream):
            for row in item.rows:
                yield jsonl_line(row.stream, row.seq, row.event) + "\n"
        elif isinstance(item, JsonlRow):
            yield jsonl_line(item.stream, item.seq, item.event) + "\n"
        else:
            yield jsonl_line(*item) + "\n"


def write_jsonl(rows: Iterable[JsonlRow | EventStream | tuple[str, int, Any]]) -> str:
    """The whole file text for ``rows`` (see :func:`iter_jsonl`)."""
    return "".join(iter_jsonl(rows))


# --------------------------------------------------------------------------------------------
# Reading


def read_jsonl(path: str | os.PathLike[str]) -> JsonlFile:
    """Read an event file (see the module doc). Never raises for bad content.

    Raises:
        OSError: the file cannot be read.
    """
    file = os.fspath(path)
    return read_jsonl_text(Path(file).read_bytes(), file=file)


def read_jsonl_text(data: bytes | str, *, file: str = "<text>") -> JsonlFile:
    """Read event-file content given as bytes (checked as UTF-8 line by line) or text."""
    raw = data.encode() if isinstance(data, str) else data
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    reader = _Reader(file)
    for number, line in enumerate(lines, 1):
        reader.feed(number, line)
    return reader.result()


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.streams: dict[tuple[Kind, str], EventStream] = {}
        self.bad: set[tuple[Kind, str]] = set()
        self.errors: list[MalformedInput] = []

    def error(self, message: str, line: int, stream: str | None = None) -> MalformedInput:
        return MalformedInput(message, file=self.file, line=line, hand=stream)

    def feed(self, number: int, line: bytes) -> None:
        try:
            kind, stream, seq, data = self._row(number, line)
        except MalformedInput as exc:
            self.errors.append(exc)
            return
        key = (kind, stream)
        if key in self.bad:
            return
        try:
            event = parse_event(data)
            row = JsonlRow(kind, stream, seq, event, number)
            self._check(row)
        except MalformedInput as exc:
            self.bad.add(key)
            self.streams.pop(key, None)
            self.errors.append(exc.located(file=self.file, line=number, hand=stream))
            return
        if key not in self.streams:
            self.streams[key] = EventStream(kind, stream, number)
        self.streams[key].rows.append(row)

    def _row(self, number: int, line: bytes) -> tuple[Kind, str, int, dict[str, Any]]:
        """Decode and shape-check one line (the event itself is validated later)."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self.error(f"not UTF-8 ({exc.reason} at byte {exc.start + 1})", number) from exc
        if not text.strip():
            raise self.error("blank line", number)
        try:
            obj = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
        except ValueError as exc:
            known = _STREAM_RE.match(text)
            if known:  # a truncated line of ours still names its stream: that stream is bad
                try:
                    kind, ident = known.group(1), json.loads(known.group(2))
                except ValueError:  # not even the stream id parses (a control character)
                    raise self.error(f"bad JSON: {exc}", number) from exc
                raise self._stream_error(kind, ident, f"bad JSON: {exc}", number) from exc
            raise self.error(f"bad JSON: {exc}", number) from exc
        if not isinstance(obj, dict):
            raise self.error("a line must be a JSON object", number)
        kinds = [k for k in ("hand", "session") if k in obj]
        stream = obj.get(kinds[0]) if len(kinds) == 1 else None
        ident = stream if isinstance(stream, str) and stream else None
        if len(kinds) != 1 or set(obj) != {kinds[0], "seq", "event"}:
            message = ("a line needs exactly the keys hand (or session), seq, event; "
                       f"got {sorted(obj)}")
            if ident is None:
                raise self.error(message, number)
            raise self._stream_error(kinds[0], ident, message, number)
        if ident is None:
            raise self.error(f"{kinds[0]} id {stream!r} is not a non-empty string", number)
        seq, data = obj["seq"], obj["event"]
        if type(seq) is not int or seq < 1:
            raise self._stream_error(kinds[0], ident, f"seq {seq!r} is not a positive integer",
                                     number)
        if not isinstance(data, dict):
            raise self._stream_error(kinds[0], ident, "event is not a JSON object", number)
        return kinds[0], ident, seq, data  # type: ignore[return-value]

    def _stream_error(self, kind: Kind, stream: str, message: str, line: int) -> MalformedInput:
        """An error on a line whose stream is known: that stream is bad from now on."""
        self.bad.add((kind, stream))
        self.streams.pop((kind, stream), None)
        return self.error(message, line, stream)

    def _check(self, row: JsonlRow) -> None:
        """Event kind, first event, ids and seq order of one row of its stream."""
        etype = row.event.type
        if kind_of(row.event) != row.kind:
            raise MalformedInput(f"a {etype} event does not belong in a {row.kind} row")
        current = self.streams.get((row.kind, row.stream))
        expected = current.rows[-1].seq + 1 if current else 1
        if row.seq != expected:
            what = "starts" if current is None else "continues"
            raise MalformedInput(
                f"{row.kind} {what} with seq {row.seq} (expected {expected})")
        if (row.seq == 1) != (etype == _FIRST[row.kind]):
            raise MalformedInput(
                f"a {row.kind} must start with {_FIRST[row.kind]} and have it only once "
                f"(seq {row.seq} is {etype})")
        own = getattr(row.event, row.kind, None) if row.seq == 1 else row.stream
        if own != row.stream:
            raise MalformedInput(f"{etype} names {row.kind} {own!r}, the row {row.stream!r}")

    def result(self) -> JsonlFile:
        streams = list(self.streams.values())
        self.errors.sort(key=lambda e: e.line or 0)
        return JsonlFile(
            self.file,
            [s for s in streams if s.kind == "hand"],
            [s for s in streams if s.kind == "session"],
            self.errors,
        )


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(f"duplicate keys {sorted({k for k in keys if keys.count(k) > 1})}")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
