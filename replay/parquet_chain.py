"""The hash chain of a Parquet dataset of events proven before a distributed replay
(:mod:`replay.distributed`) takes its rows as the books.

``export --format parquet`` writes every column of the events table, ``prev_hash`` and
``hash`` among them, and proves the ledger's chain first; a row edited in the Parquet file
afterwards (a payout made larger, a fold made a call) must not be replayed as if it were the
books. So the dataset's chain is proven as ``verify`` proves the ledger's: every row hashes to
its ``hash`` by the store's definition (:func:`ledger.store.chain.row_hash`), links to the row
before it by its ``prev_hash`` (:data:`ledger.store.chain.GENESIS` at position 1), and the
positions run 1, 2, 3, … without gap or repeat. Each Dask partition proves its own rows
(:func:`prove_part`, rows in position order); the links between partitions, each one's first
row to the last row of the one before, are checked after (:func:`first_break`).

What cannot be proven without the ledger: that no rows were cut from the end (the ledger's
recorded head is not exported; keep a checkpoint, ``verify --against``), and rows rewritten
with every later hash made again (the chain has no secret).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ledger.model.errors import ChainBroken, LedgerError
from ledger.store.chain import GENESIS, row_hash

#: The columns the proof reads, in :func:`ledger.store.chain.row_hash`'s order.
CHAIN_COLUMNS = ("position", "stream", "hand_id", "session", "seq", "type", "schema_version",
                 "payload", "recorded_at", "source_key", "prev_hash", "hash")

#: ``(position, stream, seq, prev_hash, hash)`` of a row at a partition's edge.
Edge = tuple[int, Any, Any, Any, Any]
#: ``(first bad position, problem, message)``, as ``verify`` reports a break.
Break = tuple[int, str, str]


@dataclass(frozen=True)
class PartProof:
    """What one partition proved: its first and last row in position order (None when it
    has no rows) and its first break among its own rows (None when they hold together)."""

    first: Edge | None
    last: Edge | None
    broken: Break | None


def part_proofs(path: str) -> Any:
    """A Dask frame of one row per partition of the dataset at ``path``: its proof
    (:func:`prove_part`) as JSON in the column ``proof``, to compute with the replay's first
    pass and give to :func:`require_chain`.

    Raises:
        LedgerError: the dataset lacks a column the proof reads.
    """
    import dask.dataframe as dd
    import pandas as pd

    frame = dd.read_parquet(path)
    missing = [c for c in CHAIN_COLUMNS if c not in frame.columns]
    if missing:
        raise LedgerError(f"{path} has no column {', '.join(missing)}: its hash chain cannot be "
                          "proven (export --format parquet writes it): nothing replayed")
    return frame[list(CHAIN_COLUMNS)].map_partitions(
        _proof_row, meta=pd.DataFrame({"proof": pd.Series([], dtype=str)}))


def _proof_row(frame: Any) -> Any:
    """:func:`prove_part` of ``frame`` as a frame of one row, the proof as JSON."""
    import pandas as pd

    proof = prove_part(frame)
    return pd.DataFrame({"proof": [json.dumps([proof.first, proof.last, proof.broken])]})


def _from_json(text: str) -> PartProof:
    first, last, broken = json.loads(text)
    return PartProof(*(None if part is None else tuple(part)  # type: ignore[arg-type]
                       for part in (first, last, broken)))


def prove_part(frame: Any) -> PartProof:
    """Prove the rows of ``frame`` (a pandas frame of :data:`CHAIN_COLUMNS`, any order) in
    position order: each row's hash, its link to the row before it and the positions one
    after the other (module doc); the partition's first row is linked by :func:`first_break`.
    A row of no position is a break at position 0."""
    import pyarrow as pa

    columns = pa.Table.from_pandas(frame[list(CHAIN_COLUMNS)], preserve_index=False).to_pydict()
    rows = list(zip(*(columns[c] for c in CHAIN_COLUMNS), strict=True))
    if not rows:
        return PartProof(None, None, None)
    unplaced = next((r for r in rows if r[0] is None), None)
    if unplaced is not None:
        return PartProof(None, None, (0, "inserted", f"a row of {unplaced[1]} seq {unplaced[4]} "
                                                     "has no position"))
    rows.sort(key=lambda r: r[0])
    broken = None
    before: Edge | None = None
    for row in rows:
        edge: Edge = (row[0], row[1], row[4], row[10], row[11])
        computed = row_hash(row[10], position=row[0], stream=row[1], hand_id=row[2],
                            session=row[3], seq=row[4], type=row[5], schema_version=row[6],
                            payload=row[7], recorded_at=row[8], source_key=row[9])
        broken = (_link(before, edge, computed) if before is not None else None) or (
            None if computed == row[11] else
            (row[0], "edited", f"{_where(edge)}: its content does not hash to its stored hash"))
        if broken is not None:
            break
        before = edge
    return PartProof(_edge(rows[0]), _edge(rows[-1]), broken)


def first_break(proofs: list[PartProof]) -> Break | None:
    """The first break of the chain of the partitions proven (:func:`prove_part`), their
    edges linked in position order from :data:`GENESIS`: the least position among each
    partition's own break and those of the links between partitions; None when the chain
    holds from position 1 to the last row."""
    held = sorted((p for p in proofs if p.first is not None), key=_start)
    breaks = [p.broken for p in proofs if p.broken is not None]
    before: Edge = (0, None, None, None, GENESIS)
    for proof in held:
        assert proof.first is not None and proof.last is not None
        start = proof.first
        if before[0] == 0 and start[0] < 1:
            breaks.append((start[0], "inserted", f"{_where(start)} stands before position 1"))
        elif before[0] == 0 and start[0] > 1:
            breaks.append((1, "deleted", f"{_span(1, start[0] - 1)} missing before "
                                         f"{_where(start)}"))
        elif before[0] == 0 and start[3] != GENESIS:
            breaks.append((start[0], "inserted", f"{_where(start)} does not link to the start "
                                                 "of the chain"))
        elif before[0] != 0:
            # whether the first row hashes right is the partition's own proof (its break)
            found = _link(before, start, start[4])
            if found is not None:
                breaks.append(found)
        if proof.last[0] > before[0]:
            before = proof.last
    return min(breaks, default=None, key=lambda b: b[0])


def require_chain(path: str, proofs: Any) -> None:
    """Refuse the dataset at ``path`` when the chain its partitions proved breaks
    (:func:`first_break`), naming the first row that fails as ``verify`` names it.
    ``proofs``: :func:`part_proofs` computed (a pandas frame).

    Raises:
        ChainBroken: ``pq/events.parquet: broken at position 4062: edited: row 4062
            (hand:… seq 31): its content does not hash to its stored hash: nothing replayed,
            nothing written (rows changed after the export)``.
    """
    found = first_break([_from_json(text) for text in proofs["proof"]])
    if found is not None:
        position, problem, message = found
        raise ChainBroken(f"{path}: broken at position {position}: {problem}: {message}: "
                          "nothing replayed, nothing written (rows changed after the export)")


def _link(before: Edge, row: Edge, computed: str) -> Break | None:
    """The break between ``row`` and the row before it in position order (``before``; its
    position 0 before position 1), None when ``row`` stands right after it and links to its
    hash. ``computed``: ``row``'s own hash made again (its stored hash for a row proven
    elsewhere)."""
    position, expected = row[0], before[0] + 1
    if position == before[0]:
        pair = sorted([f"{before[1]} seq {before[2]}", f"{row[1]} seq {row[2]}"])
        return (position, "duplicate", f"two rows hold position {position} "
                                       f"({' and '.join(pair)})")
    if position < expected:
        return (position, "reordered", f"{_where(row)} stands after row {before[0]} in the "
                                       "dataset: its rows are not in position order")
    if position > expected:
        return (expected, "deleted", f"{_span(expected, position - 1)} missing before "
                                     f"{_where(row)}")
    if row[3] == before[4]:
        return None
    if computed == row[4]:  # it hashes right: the row before it was made again
        return (before[0], "edited", f"row {before[0]} was rewritten: {_where(row)} links to "
                                     "another hash than its")
    return (position, "inserted", f"{_where(row)} does not link to row {before[0]} and does "
                                  "not hash right")


def _start(proof: PartProof) -> int:
    return proof.first[0] if proof.first is not None else 0


def _edge(row: tuple[Any, ...]) -> Edge:
    return (row[0], row[1], row[4], row[10], row[11])


def _where(row: Edge) -> str:
    return f"row {row[0]} ({row[1]} seq {row[2]})"


def _span(first: int, last: int) -> str:
    return f"row {first} is" if first == last else f"rows {first}..{last} are"
