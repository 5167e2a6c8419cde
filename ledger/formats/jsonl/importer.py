"""The JSON-lines importer: the project's own event files, hands and sessions as events.

Source keys (unchanged since the first version, so files imported before stay known): a hand is
``jsonl:<sha256 of its events' JSON, one per line>`` (after ``--session`` is applied); a session
row is ``jsonl:<session>:<seq>:<digest of the row's event>``, so the rows a shorter copy of the
file (cut, or exported earlier) already wrote are known when the whole file comes. An earlier
version keyed a session's whole stream ``jsonl:<digest of the stream>``: each row carries that
as its ``legacy_key``. A row that carries the source key the ledger it was exported from
stores with it (a hand's first row, a session row: the key an import of a PokerNow log, a PHH
or PokerStars file gave it, :mod:`ledger.formats.jsonl.lines`) is keyed by that instead, so
the ledger the file restores knows that file again (the same log imported again, under any
name, or a longer export of its game, adds what it would add to the ledger exported). The
events digested are those stored: a stud ``hand_started`` that
leaves its odd-chip order out is stored (and digested) with ``card_by_suit``, the game's
order (RULES.md §5), where versions before took the event model's ``left_of_button``: the
hand's ``earlier`` reading, which a ledger holding its key keeps (a re-import adds nothing).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ledger.formats.files import utf16_bom
from ledger.formats.jsonl.lines import JsonlFile, read_jsonl, read_jsonl_part
from ledger.formats.reading import (
    FileRead,
    HandEvents,
    SessionEntry,
    first_binary_byte,
    first_line,
    with_currency_code,
    with_game_tie_order,
    with_session,
)
from ledger.model.errors import MalformedInput


class Digests:
    """``sha256("\\n".join(e.model_dump_json() for e in events))`` (hex) of a stream, the
    stream's source key; each event's JSON is made once per distinct event object (the reader
    gives equal event texts one shared frozen event). Only for the events of one read: the
    memo is keyed by ``id``, valid while those events live."""

    def __init__(self) -> None:
        self.texts: dict[int, bytes] = {}

    def __call__(self, events: Sequence[Any]) -> str:
        texts = self.texts
        ids = list(map(id, events))
        try:  # every event's JSON made before (most streams of a large file)
            return hashlib.sha256(b"\n".join(map(texts.__getitem__, ids))).hexdigest()
        except KeyError:
            for key, event in zip(ids, events, strict=True):
                if key not in texts:
                    texts[key] = type(event).__pydantic_serializer__.to_json(event)
        return hashlib.sha256(b"\n".join(map(texts.__getitem__, ids))).hexdigest()


def items_of(parsed: JsonlFile, session: str | None, digest: Digests | None = None) -> FileRead:
    """The :class:`FileRead` of a read JSON-lines file or part, items in file order: each hand
    (in ``session`` when given) at its first line, each session row at its own line. A
    ``hand_started`` that does not give ``options.split.odd_chip_tie_order`` (a line written
    by hand) takes its game's (stud: ``card_by_suit``, RULES.md §5:
    :func:`~ledger.formats.reading.with_game_tie_order`), and one whose currency is not its
    ISO 4217 code (``usd``) takes the code (:func:`~ledger.formats.reading.with_currency_code`,
    as a PHH file's currency is read), before the hand's source key is
    made: the key is the digest of the events stored (the hand as read before, its
    ``earlier``, keeps its own key), unless the hand's first row carries one, or a session
    row does (:attr:`JsonlFile.source_keys`, module doc): that key, as the ledger exported
    stores it."""
    digest = digest or Digests()
    carried = parsed.source_keys
    items: list[tuple[int, Any]] = []
    for stream in parsed.hands:
        events = with_session(stream.events, session)
        started = with_currency_code(with_game_tie_order(events[0]))
        earlier = None
        if started is not events[0]:
            earlier = (f"jsonl:{digest(events)}", events)
            events = [started, *events[1:]]
        key = carried.get(("hand", stream.id, 1)) or f"jsonl:{digest(events)}"
        items.append((stream.line, HandEvents(
            stream.id, events, [row.line for row in stream.rows], stream.line,
            key, session or events[0].session, stream.id in parsed.in_play, earlier)))
    for stream in parsed.sessions:
        name = stream.id.removeprefix("session:")  # a name may hold ":" (club:fri)
        legacy = f"jsonl:{digest(stream.events)}"
        items.extend((row.line, SessionEntry(
            name, row.event, row.line, carried.get(("session", stream.id, row.seq))
            or f"jsonl:{name}:{row.seq}:{digest([row.event])}", legacy, row.seq))
            for row in stream.rows)
    items.sort(key=lambda item: item[0])
    read = FileRead(parsed.file, [item for _, item in items], list(parsed.errors))
    if parsed.refused is not None:  # a closing line that refuses the whole file
        read.extra["refused"] = parsed.refused
    return read


class JsonlImporter:
    """Event files: a ``.jsonl`` suffix, or a first line that is a hand or session row."""

    name = "jsonl"
    describes = "JSON lines (.jsonl)"

    def knows(self, head: bytes) -> bool:
        line = first_line(head)
        return line.startswith(b'{"hand":') or line.startswith(b'{"session":')

    def identify(self, path: Path, head: bytes) -> bool:
        """Known by its content (:meth:`knows`), or named ``.jsonl`` unless its first line is
        text that is no JSON object (another text file given that name: not JSON lines, one
        error, not one a line); a binary file named so is read as one (its one error says
        so)."""
        if self.knows(head):
            return True
        if path.suffix.lower() != ".jsonl":
            return False
        line = first_line(head.lstrip())
        return not line or line.startswith(b"{") or first_binary_byte(head) is not None \
            or utf16_bom(head) is not None

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """The file's hands and session rows (:func:`items_of`); a file with neither, nor a
        line that could not be read (an empty file), is the error ``no hand in the file``, as
        an empty PHH file is."""
        parsed = read_jsonl(path)
        if not (parsed.hands or parsed.sessions or parsed.errors):
            parsed.errors.append(MalformedInput("no hand in the file", file=parsed.file,
                                                line=1))
        return items_of(parsed, session)

    def read_part(self, path: str | os.PathLike[str], start: int, end: int, first: int, *,
                  session: str | None, events: dict[bytes, Any] | None = None,
                  digest: Digests | None = None,
                  payloads: dict[int, tuple[str, int, str]] | None = None) -> FileRead:
        """Bytes ``start`` to ``end`` of the file (see
        :func:`ledger.formats.jsonl.lines.read_jsonl_part`, which takes ``events`` and
        ``payloads``), for a worker process.

        Raises:
            OSError: the file cannot be read.
        """
        parsed = read_jsonl_part(path, start, end, first, events=events,
                                 payloads=payloads)
        return items_of(parsed, session, digest)


IMPORTER = JsonlImporter()
