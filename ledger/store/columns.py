"""Rows prepared as columns away from the store, then linked into the hash chain.

A worker process turns validated batches (:func:`ledger.store.chain.prepare_batch`) into
:class:`PreparedColumns`: every column of the ``events`` table but position and the hashes,
and for each row the hashed text after its position (see :mod:`ledger.store.chain`: the text is
``prev_hash + "\\n[" + position + "," + rest``). The process that writes then only fills in
positions and links the hashes (:func:`link_hashes`), which must run in order, one row after
the other. The hashes are those of :func:`ledger.store.chain.row_hash` (a test checks it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ledger.store.chain import PreparedBatch, timestamp_text


@dataclass
class PreparedColumns:
    """Rows to append, in order. Per batch (rows of one stream in a row): ``stream``,
    ``hand_id``, ``session``, ``source_key``, ``first_seq`` and ``count`` (rows). Per row:
    ``type``, ``schema_version``, ``payload`` (the canonical JSON, UTF-8: encoded once, here)
    and ``rest``, the UTF-8 hashed text after ``"<position>,"``. ``starts``: each stream's
    first seq here (1 for a new stream). All rows carry ``recorded_at`` (naive UTC)."""

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
    rest: list[bytes] = field(default_factory=list)
    starts: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.payload)


def prepare_columns(batches: Sequence[PreparedBatch], recorded_at: datetime) -> PreparedColumns:
    """The rows of ``batches`` as columns. Each batch's ``expected_seq`` is its stream's last
    seq before it (0 for a new stream); its rows take the seqs after that.

    Raises:
        ValueError: a batch without ``expected_seq``, or one whose seqs do not follow the
            previous batch of its stream here.
    """
    dumps = json.dumps
    cols = PreparedColumns(recorded_at)
    stamp = dumps(timestamp_text(recorded_at))
    last: dict[str, int] = {}
    kinds: dict[str, bytes] = {}  # type -> its JSON text
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
        # ASCII (json.dumps escapes the rest): the same bytes as the text encoded whole
        head = f"{dumps(b.stream)},{dumps(b.hand_id)},{dumps(b.session)},".encode()
        tail = f"{stamp},{dumps(b.source_key)}]\n".encode()
        for kind in set(b.types).difference(kinds):
            kinds[kind] = dumps(kind).encode()
        payloads = []
        for payload in b.payloads:
            data = texts.get(payload)
            if data is None:
                data = texts[payload] = payload.encode()
            payloads.append(data)
        cols.rest.extend(
            b"%s%d,%s,%d,%s%s" % (head, seq, kinds[kind], version, tail, payload)
            for seq, kind, version, payload in zip(range(first, first + n), b.types,
                                                   b.versions, payloads, strict=True)
        )
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


def link_hashes(prev_hash: str, first_position: int, rest: Sequence[bytes]) -> list[str]:
    """The hash of each row of ``rest`` (see :class:`PreparedColumns`), the first at
    ``first_position`` linked to ``prev_hash``, each next one to the one before."""
    return [h.decode() for h in link_hex(prev_hash.encode(), first_position, rest)]


def link_hex(prev_hash: bytes, first_position: int, rest: Sequence[bytes]) -> list[bytes]:
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
