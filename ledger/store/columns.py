"""Rows prepared as columns away from the store, then linked into the hash chain.

A worker process turns validated batches (:func:`ledger.store.chain.prepare_batch`) into
:class:`PreparedColumns`: every column of the ``events`` table but position and the hashes.
The process that writes then only fills in positions and links the hashes
(:func:`link_columns`), which must run in order, one row after the other: each row's hashed
text (see :mod:`ledger.store.chain`: ``prev_hash + "\\n[" + position + "," + rest``) is made
from the columns as it is hashed (:meth:`PreparedColumns.hashed` gives the ``rest`` of each;
sent from the worker it would be three quarters of a part's bytes). The hashes are those of
:func:`ledger.store.chain.row_hash` (a test checks it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ledger.store.chain import PreparedBatch, timestamp_text


@dataclass
class PreparedColumns:
    """Rows to append, in order. Per batch (rows of one stream in a row): ``stream``,
    ``hand_id``, ``session``, ``source_key``, ``first_seq`` and ``count`` (rows, at least
    one). Per row: ``type``, ``schema_version``, ``payload`` (the canonical JSON, UTF-8:
    encoded once, here). ``starts``: each stream's first seq here (1 for a new stream). All
    rows carry ``recorded_at`` (naive UTC)."""

    recorded_at: datetime
    stream: list[str] = field(default_factory=list)
    hand_id: list[str | None] = field(default_factory=list)
    session: list[str | None] = field(default_factory=list)
    source_key: list[str | None] = field(default_factory=list)
    first_seq: list[int] = field(default_factory=list)
    count: list[int] = field(default_factory=list)
    type: list[str] = field(default_factory=list)
    schema_version: list[int] = field(default_factory=list)
    payload: list[bytes] = field(default_factory=list)
    starts: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.payload)

    def frames(self) -> Iterator[tuple[bytes, bytes, int, int]]:
        """Per batch, what its rows' hashed texts share: the UTF-8 text before the seq
        (``stream``, ``hand_id``, ``session`` as JSON, then ``,``) and after the payload's
        place (``recorded_at``, ``source_key``, ``]`` and a newline), its first seq and its
        row count. ASCII: ``json.dumps`` escapes the rest, the same bytes as the text
        encoded whole."""
        dumps = _text_json
        stamp = dumps(timestamp_text(self.recorded_at))
        for stream, hand_id, session, source_key, first, count in zip(
                self.stream, self.hand_id, self.session, self.source_key, self.first_seq,
                self.count, strict=True):
            stream_j = dumps(stream)
            hand_j = stream_j if hand_id == stream else dumps(hand_id)
            yield (f"{stream_j},{hand_j},{dumps(session)},".encode(),
                   f"{stamp},{dumps(source_key)}]\n".encode(), first, count)

    def hashed(self) -> Iterator[bytes]:
        """Each row's UTF-8 hashed text after ``"<position>,"``, in order."""
        kinds = {kind: json.dumps(kind).encode() for kind in set(self.type)}
        row = 0
        for head, tail, first, count in self.frames():
            for seq in range(first, first + count):
                yield b"%s%d,%s,%d,%s%s" % (head, seq, kinds[self.type[row]],
                                            self.schema_version[row], tail, self.payload[row])
                row += 1


def _text_json(value: str | None) -> str:
    """``json.dumps(value)`` of a text or None, without its two Python calls (the function
    it runs for a text). Four a batch: ``json.dumps`` here took 0.55 s of the importer's
    15.4 s of CPU importing 1M events, profiled."""
    return "null" if value is None else _ascii_string(value)


_ascii_string = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]


def prepare_columns(batches: Sequence[PreparedBatch], recorded_at: datetime) -> PreparedColumns:
    """The rows of ``batches`` as columns. Each batch's ``expected_seq`` is its stream's last
    seq before it (0 for a new stream); its rows take the seqs after that.

    Raises:
        ValueError: a batch without ``expected_seq``, or one whose seqs do not follow the
            previous batch of its stream here.
    """
    cols = PreparedColumns(recorded_at)
    last: dict[str, int] = {}
    texts: dict[str, bytes] = {}  # payload -> its UTF-8 (equal events share one payload)
    for b in batches:
        if b.expected_seq is None:
            raise ValueError(f"batch of stream {b.stream!r} has no expected_seq")
        if b.stream in last:
            if last[b.stream] != b.expected_seq:
                raise ValueError(f"stream {b.stream!r} does not continue at seq {last[b.stream]}")
        else:
            cols.starts[b.stream] = b.expected_seq + 1
        n = len(b.payloads)
        if not n:
            continue
        first = b.expected_seq + 1
        last[b.stream] = b.expected_seq + n
        payloads = []
        for payload in b.payloads:
            data = texts.get(payload)
            if data is None:
                data = texts[payload] = payload.encode()
            payloads.append(data)
        cols.stream.append(b.stream)
        cols.hand_id.append(b.hand_id)
        cols.session.append(b.session)
        cols.source_key.append(b.source_key)
        cols.first_seq.append(first)
        cols.count.append(n)
        cols.type.extend(b.types)
        cols.schema_version.extend(b.versions)
        cols.payload.extend(payloads)
    return cols


def link_hashes(prev_hash: str, first_position: int, rest: Iterable[bytes]) -> list[str]:
    """The hash of each row of ``rest`` (hashed texts after ``"<position>,"``:
    :meth:`PreparedColumns.hashed`), the first at ``first_position`` linked to ``prev_hash``,
    each next one to the one before."""
    return [h.decode() for h in link_hex(prev_hash.encode(), first_position, rest)]


def link_hex(prev_hash: bytes, first_position: int, rest: Iterable[bytes]) -> list[bytes]:
    """:func:`link_hashes` with the hashes as ASCII bytes (64 hex digits each), ready to be
    joined into one buffer."""
    sha256 = hashlib.sha256
    out: list[bytes] = []
    append = out.append
    prev = prev_hash
    for position, text in enumerate(rest, first_position):
        prev = sha256(b"%s\n[%d,%s" % (prev, position, text)).hexdigest().encode()
        append(prev)
    return out


def link_columns(prev_hash: bytes, first_position: int, cols: PreparedColumns) -> list[bytes]:
    """:func:`link_hex` of the rows of ``cols``, each hashed text made as it is hashed (one
    formatting a row, not one for :meth:`PreparedColumns.hashed` and another here)."""
    sha256 = hashlib.sha256
    out: list[bytes] = []
    append = out.append
    prev, position, row = prev_hash, first_position, 0
    kinds = {kind: json.dumps(kind).encode() for kind in set(cols.type)}
    types, versions, payloads = cols.type, cols.schema_version, cols.payload
    for head, tail, first, count in cols.frames():
        for seq in range(first, first + count):
            prev = sha256(b"%s\n[%d,%s%d,%s,%d,%s%s" % (
                prev, position, head, seq, kinds[types[row]], versions[row], tail,
                payloads[row])).hexdigest().encode()
            append(prev)
            position += 1
            row += 1
    return out
