"""The ledger's hash chain: how one stored row is hashed and linked to the row before it.

Each row's ``hash`` is the SHA-256 (lower-case hex) of the UTF-8 text::

    prev_hash + "\\n" + header + "\\n" + payload

where ``prev_hash`` is the previous row's hash (:data:`GENESIS` for position 1), ``payload`` is
the canonical event JSON (:func:`ledger.model.events.event_json`) and ``header`` is the compact JSON
array (``json.dumps(..., separators=(",", ":"))``, ASCII-escaped)::

    [position, stream, hand_id, session, seq, type, schema_version, recorded_at, source_key]

``recorded_at`` is the naive UTC timestamp as ``YYYY-MM-DDTHH:MM:SS.ffffff`` and missing values
are ``null``. The header never holds a raw newline, so the text splits back unambiguously.

:func:`row_hash` is the reference definition (used by :func:`verify_rows`); :func:`link_rows`
builds the rows of one appended batch with the same hashes, faster (a test checks that both
agree). :func:`diagnose` names the first broken link: edited, deleted, inserted or reordered.
:func:`prepare_batch` and :func:`check_tail` validate what is appended. Nothing here touches
the database: :mod:`ledger.store.store` does the I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import TypeAdapter

from ledger.model.canonical import payload_json
from ledger.model.errors import DuplicateEvent, MalformedEvent
from ledger.model.events import HandEvent, SessionEvent
from ledger.store.rowhash import GENESIS, row_hash, timestamp_text

Event = HandEvent | SessionEvent
#: A session's stream is ``session:<name>``; any other stream is a hand id.
SESSION_PREFIX = "session:"
_HAND_TYPES = frozenset(HandEvent.__args__)  # type: ignore[attr-defined]
_SESSION_TYPES = frozenset(SessionEvent.__args__)  # type: ignore[attr-defined]
#: A stored row in the ``events`` column order: (position, stream, hand_id, session, seq, type,
#: schema_version, payload, recorded_at, source_key, prev_hash, hash).
Row = tuple[Any, ...]

_SEPARATORS = (",", ":")
# ``model_dump(mode="json")`` of a whole list of events in one call into pydantic-core.
_dump = TypeAdapter(list[Any]).dump_python


def canonical_json(event: Event) -> str:
    """The same text as :func:`ledger.model.events.event_json` (a test checks it) at half the
    cost."""
    return payload_json(_dump([event], mode="json")[0])


@dataclass
class PreparedBatch:
    """One batch of events of one stream, validated and serialised, ready to be linked."""

    stream: str
    hand_id: str | None
    session: str | None
    source_key: str | None
    types: list[str]
    versions: list[int]
    payloads: list[str]
    expected_seq: int | None = None


def prepare_batch(
    stream: str,
    events: Sequence[Event],
    hand_id: str | None,
    session: str | None,
    source_key: str | None,
    *,
    memo: dict[int, tuple[str, int, str]] | None = None,
) -> PreparedBatch:
    """Validate a batch for ``stream`` and serialise its events (:func:`canonical_json`).

    A hand stream's ``hand_id`` is the stream; a session stream ``session:<name>`` has no
    hand_id and session ``<name>``. A missing session is taken from a ``HandStarted`` event.
    ``memo`` (``id(event)`` -> (type, schema_version, canonical JSON)), shared by the batches
    of one append while their events live, serialises an event object given many times
    (the JSON-lines reader shares one frozen event between equal lines) only once.

    Raises:
        MalformedEvent: not an event of the stream's kind, or stream / hand_id / session that
            contradict each other.
    """
    if stream.startswith(SESSION_PREFIX):
        name = stream[len(SESSION_PREFIX) :]
        allowed, kind = _SESSION_TYPES, "session"
        if not name or hand_id is not None or session not in (None, name):
            raise MalformedEvent(
                f"session stream {stream!r} needs a name, no hand_id and session {name!r}"
            )
        session = name
    else:
        allowed, kind = _HAND_TYPES, "hand"
        if not stream or hand_id not in (None, stream):
            raise MalformedEvent(f"hand stream {stream!r} needs hand_id None or the same")
        hand_id = stream
    events = list(events)
    if not allowed.issuperset(map(type, events)):
        bad = next(e for e in events if type(e) not in allowed)
        raise MalformedEvent(f"{type(bad).__name__} is not a {kind} event", hand=hand_id)
    if memo is None:
        memo = {}
    ids = list(map(id, events))
    try:  # most batches of a large import: every event serialised before (no set of ids)
        made = list(map(memo.__getitem__, ids))
    except KeyError:
        todo = {key: e for key, e in zip(ids, events, strict=True) if key not in memo}
        for key, data in zip(todo, _dump(list(todo.values()), mode="json"), strict=True):
            memo[key] = (data["type"], data["schema_version"], payload_json(data))
        made = list(map(memo.__getitem__, ids))
    types: list[str] = []
    versions: list[int] = []
    payloads: list[str] = []
    if made:
        types, versions, payloads = map(list, zip(*made, strict=True))
    if session is None and "hand_started" in types:
        for k, kind_ in enumerate(types):
            if kind_ == "hand_started" and session is None:
                session = events[k].session  # type: ignore[union-attr]
    _utf8_only(stream, session, source_key, payloads, hand_id)
    return PreparedBatch(stream, hand_id, session, source_key, types, versions, payloads)


def _utf8_only(stream: str, session: str | None, source_key: str | None,
               payloads: list[str], hand: str | None) -> None:
    """Refuse text that is not UTF-8: a lone surrogate, what Python makes of a byte of a
    command-line argument or a file name that is not UTF-8. DuckDB cannot store it; the
    canonical JSON writes it ``\\udXXX``, so a payload is looked into only when it has one.

    Raises:
        MalformedEvent: naming the text.
    """
    for text in (stream, session, source_key):
        if text is not None and not text.isascii():
            _encodes(text, hand)
    for payload in payloads:
        if "\\ud" in payload:
            stack: list[Any] = [json.loads(payload)]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    stack.extend(item)
                    stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
                elif isinstance(item, str):
                    _encodes(item, hand)


def _encodes(text: str, hand: str | None) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedEvent(f"the text '{_shown(text)}' is not UTF-8 (a byte that is not "
                             "UTF-8, or a lone surrogate): a ledger holds UTF-8 text only",
                             hand=None if hand is None else _shown(hand)) from None


def _shown(text: str) -> str:
    """``text`` with what is not UTF-8 escaped: a byte Python kept as a surrogate (of an
    argument or a file name) as ``\\xNN``, another lone surrogate as ``\\udXXX``."""
    lone = [c for c in text if "\ud800" <= c <= "\udfff"]
    if all("\udc80" <= c <= "\udcff" for c in lone):
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def check_tail(batch: PreparedBatch, tail: tuple[int, str | None]) -> int:
    """Check ``batch`` against its stream's stored (last seq, session), 0 and None for a new
    stream; fill in the batch's missing session from it. Returns the last seq.

    Raises:
        DuplicateEvent: ``batch.expected_seq`` is set and is not the last seq.
        MalformedEvent: the batch names another session than the stored stream.
    """
    last, stored_session = tail
    if batch.expected_seq is not None and batch.expected_seq != last:
        raise DuplicateEvent(
            f"stream {batch.stream!r} is at seq {last}, not the expected {batch.expected_seq}",
            hand=batch.hand_id,
        )
    if batch.session is None:
        batch.session = stored_session
    elif last and batch.session != stored_session:
        raise MalformedEvent(
            f"stream {batch.stream!r} belongs to session {stored_session!r}, not {batch.session!r}",
            hand=batch.hand_id,
        )
    return last


def link_rows(
    prev_hash: str,
    *,
    first_position: int,
    first_seq: int,
    stream: str,
    hand_id: str | None,
    session: str | None,
    source_key: str | None,
    recorded_at: datetime,
    types: Sequence[str],
    schema_versions: Sequence[int],
    payloads: Sequence[str],
) -> list[Row]:
    """Rows (in the ``events`` column order, :data:`Row`) for consecutive events of one stream:
    positions ``first_position, +1, …``, seqs ``first_seq, +1, …``, the first linked to
    ``prev_hash``. The hashes equal :func:`row_hash` row by row; per-batch parts of the header
    are JSON-encoded once, which makes this several times faster."""
    dumps = json.dumps
    head_j = f"{dumps(stream)},{dumps(hand_id)},{dumps(session)},"
    tail_j = f"{dumps(timestamp_text(recorded_at))},{dumps(source_key)}]\n"
    type_j: dict[str, str] = {}
    sha256 = hashlib.sha256
    rows: list[Row] = []
    position, seq = first_position, first_seq
    for kind, version, payload in zip(types, schema_versions, payloads, strict=True):
        kind_j = type_j.get(kind)
        if kind_j is None:
            kind_j = type_j[kind] = dumps(kind)
        text = f"{prev_hash}\n[{position},{head_j}{seq},{kind_j},{version},{tail_j}{payload}"
        digest = sha256(text.encode()).hexdigest()
        rows.append(
            (position, stream, hand_id, session, seq, kind, version, payload, recorded_at,
             source_key, prev_hash, digest)
        )  # fmt: skip
        prev_hash = digest
        position += 1
        seq += 1
    return rows


#: ``head``: the rows intact, the recorded head in ``meta`` not their last row
#: (:mod:`ledger.store.headcheck`).
Problem = Literal["edited", "deleted", "inserted", "reordered", "duplicate", "misnumbered",
                  "head"]


@dataclass(frozen=True)
class VerifyReport:
    """The outcome of ``Ledger.verify``. ``rows``: rows that verified before the first problem
    (all rows when ``ok``); ``first_bad``: the position of the first problem; ``problem``: its
    kind (see :func:`diagnose`); ``message``: one line for people; ``head``: the (position,
    hash) of the last row verified, ``(0, GENESIS)`` for an empty ledger, None when not ok."""

    ok: bool
    rows: int
    first_bad: int | None
    problem: Problem | None
    message: str
    head: tuple[int, str] | None = None


def diagnose(
    prev: Row | None,
    row: Row,
    computed: str,
    head: tuple[int, str] | None,
    position_of_hash: Callable[[str], int | None],
) -> tuple[Problem, int, str] | None:
    """Check ``row`` against the row before it in position order (``prev``, None for the first)
    and return ``(problem, first bad position, message)``, or None when it links up.

    ``computed`` is :func:`row_hash` of ``row``'s stored content; ``head`` the recorded chain
    head ``(position, hash)`` (None if unknown); ``position_of_hash`` finds the (lowest)
    position whose stored hash is given, 0 for :data:`GENESIS`, None if no row has it. With
    ``e`` the expected position (previous position + 1), in this order:

    * ``row.position`` is the previous row's: **duplicate** there (two rows at one position:
      a ledger without the primary key, store version 2, does not refuse it).
    * ``row.position < e`` (only a first row at position ≤ 0): **inserted** there.
    * ``e`` beyond the recorded head: **inserted** at the row (an extra row after the head).
    * the row's ``prev_hash`` names a row after the previous one: **reordered** at ``e``
      (the first place where a row stands that belongs later).
    * a gap (``row.position > e``): **deleted** at ``e`` (whether ``prev_hash`` names the
      deleted row or was relinked to the row before the gap).
    * ``prev_hash`` names no stored row: if the row itself hashes right, the previous row was
      rewritten with a recomputed hash: **edited** at the previous position; otherwise the row is
      a forgery that links to nothing: **inserted** at the row.
    * ``prev_hash`` names an earlier row than the previous one (a fork): if the row itself was
      written where it stands (it hashes right at its position) or is a copy of an earlier row
      (its hash is stored at a lower position), the row is **inserted** at its position;
      otherwise it is a row shifted down, and the rows between that earlier row and it are not
      in its chain: **inserted** at that row + 1.
    * the content does not hash to the stored hash: **inserted** at the row when its hash is
      stored at a lower position (a copy, relinked), else **edited** at the row; **edited** too
      when it is the head but its hash is not the recorded head hash (rewritten with a new hash).

    A forger who rewrites rows AND their hashes AND the recorded head cannot be detected: the
    chain has no secret. Keep ``Ledger.verify``'s head elsewhere to anchor it.
    """
    position, prev_position = row[0], (prev[0] if prev else 0)
    expected = prev_position + 1
    where = f"row {position} ({row[1]} seq {row[4]})"
    if prev is not None and position == prev_position:
        pair = sorted([f"{prev[1]} seq {prev[4]}", f"{row[1]} seq {row[4]}"])
        return "duplicate", position, f"two rows hold position {position} ({' and '.join(pair)})"
    if position < expected:
        return "inserted", position, f"{where} stands before position 1"
    if head is not None and expected > head[0]:
        return "inserted", position, f"{where} is beyond the recorded head {head[0]}"
    linked = row[10] == (prev[11] if prev else GENESIS)
    target = None if linked else position_of_hash(row[10])
    if target is not None and target > prev_position:
        return (
            "reordered",
            expected,
            f"{where} links to row {target}, which stands after it: rows were moved",
        )
    if position > expected:
        return "deleted", expected, f"{_span(expected, position - 1)} missing before {where}"
    if not linked and target is None:
        if computed == row[11] and prev is not None:
            return (
                "edited",
                prev_position,
                f"row {prev_position} was rewritten: {where} links to a hash no row has",
            )
        return "inserted", position, f"{where} links to no stored row and does not hash right"
    if target is not None:
        copied = position_of_hash(row[11])
        if computed == row[11] or (copied is not None and copied < position):
            how = (f"hashes right here: it was written at {position}" if computed == row[11]
                   else f"is a copy of row {copied}")
            return "inserted", position, f"{where} links back to row {target} and {how}"
        return (
            "inserted",
            target + 1,
            f"{where} links to row {target}: {_span(target + 1, prev_position)} inserted",
        )
    if computed != row[11]:
        copied = position_of_hash(row[11])
        if copied is not None and copied < position:
            return "inserted", position, f"{where} is a copy of row {copied}, relinked"
        return "edited", position, f"{where}: its content does not hash to its stored hash"
    if head is not None and position == head[0] and row[11] != head[1]:
        return "edited", position, (f"{where}: its hash is not the recorded head hash (the row "
                                    "rewritten with its hash made again, or the head's hash "
                                    "in meta edited)")
    return None


def verify_rows(
    rows: Iterable[Row],
    head: tuple[int, str] | None,
    position_of_hash: Callable[[str], int | None],
    position_of_seq: Callable[[str, int], int | None],
) -> VerifyReport:
    """Walk stored rows in position order and report the first problem (:func:`diagnose`); a
    chain that ends before the recorded ``head`` position lost its last rows (**deleted**).

    Each stream's seqs must run 1, 2, 3, … in position order, as the writer numbers them
    (:func:`check_tail`): a row whose seq an earlier row of its stream holds is a
    **duplicate** (``position_of_seq(stream, seq)`` finds that row: the lowest position),
    one that skips seqs **misnumbered**. A ledger of store version 1 refuses a repeated
    ``(stream, seq)`` by its unique key; one of version 2 has no key, so this is where such a
    row is found. The first such row is reported only when the chain holds throughout: a
    broken link is the file edited, and is named first wherever it is. Memory: one entry a
    stream (its last seq)."""
    checked = 0
    prev: Row | None = None
    last_seq: dict[str, int] = {}
    numbering: VerifyReport | None = None
    for row in rows:
        computed = row_hash(
            row[10],
            position=row[0],
            stream=row[1],
            hand_id=row[2],
            session=row[3],
            seq=row[4],
            type=row[5],
            schema_version=row[6],
            payload=row[7],
            recorded_at=row[8],
            source_key=row[9],
        )
        bad = diagnose(prev, row, computed, head, position_of_hash)
        if bad is not None:
            return VerifyReport(False, checked, bad[1], bad[0], bad[2])
        if numbering is None:
            misnumbered = _numbering(row, last_seq.get(row[1], 0), position_of_seq)
            if misnumbered is not None:
                kind, position, message = misnumbered
                numbering = VerifyReport(False, checked, position, kind, message)
        last_seq[row[1]] = row[4]
        checked += 1
        prev = row
    last = prev[0] if prev else 0
    if head is not None and last < head[0]:
        message = f"{_span(last + 1, head[0])} missing: the chain ends before its head {head[0]}"
        return VerifyReport(False, checked, last + 1, "deleted", message)
    if numbering is not None:
        return numbering
    verified = (prev[0], prev[11]) if prev else (0, GENESIS)
    return VerifyReport(True, checked, None, None, f"{checked} rows verify", verified)


def _numbering(row: Row, last: int, position_of_seq: Callable[[str, int], int | None]
               ) -> tuple[Problem, int, str] | None:
    """None when ``row``'s seq follows ``last``, its stream's seq before it (0: none), else
    the problem (:func:`verify_rows`)."""
    position, stream, seq = row[0], row[1], row[4]
    if seq == last + 1:
        return None
    where = f"row {position} ({stream} seq {seq})"
    if 1 <= seq <= last:
        return ("duplicate", position, f"{where} repeats the stream and seq of row "
                                       f"{position_of_seq(stream, seq)}")
    return ("misnumbered", position, f"{where} follows seq {last} of its stream: seq "
                                     f"{last + 1} expected")


def _span(first: int, last: int) -> str:
    return f"row {first} is" if first == last else f"rows {first}..{last} are"
