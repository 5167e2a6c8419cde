"""One stored row's hash (the text :mod:`ledger.store.chain` defines), alone: what a read of
one hand needs to check its own rows (:mod:`ledger.store.shown_rows`) without loading the
chain's validation and its pydantic adapters, which cost a live ``state`` about 20 ms.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

#: ``prev_hash`` of the row at position 1.
GENESIS = "0" * 64
_SEPARATORS = (",", ":")


def timestamp_text(moment: datetime) -> str:
    """The canonical text of a naive UTC timestamp, always with microseconds.

    >>> timestamp_text(datetime(2024, 5, 1, 12, 30))
    '2024-05-01T12:30:00.000000'
    """
    return moment.isoformat(timespec="microseconds")


def row_hash(
    prev_hash: str,
    *,
    position: int,
    stream: str,
    hand_id: str | None,
    session: str | None,
    seq: int,
    type: str,
    schema_version: int,
    payload: str,
    recorded_at: datetime | None,
    source_key: str | None,
) -> str:
    """SHA-256 hex of one row linked to ``prev_hash`` (see the module docstring for the text).

    >>> len(row_hash(GENESIS, position=1, stream="h1", hand_id="h1", session=None, seq=1,
    ...     type="fold", schema_version=1, payload="{}", recorded_at=datetime(2024, 1, 1),
    ...     source_key=None))
    64
    """
    header = json.dumps(
        [
            position,
            stream,
            hand_id,
            session,
            seq,
            type,
            schema_version,
            None if recorded_at is None else timestamp_text(recorded_at),
            source_key,
        ],
        separators=_SEPARATORS,
    )
    return hashlib.sha256(f"{prev_hash}\n{header}\n{payload}".encode()).hexdigest()
