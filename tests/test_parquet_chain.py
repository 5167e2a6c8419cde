"""The hash chain of a Parquet dataset's partitions (replay/parquet_chain.py), without Dask:
each partition proves its own rows in position order, the edges between partitions are linked
after, and the first row that fails is named as ``verify`` names it."""

from __future__ import annotations

from datetime import datetime

import pandas as pd

from ledger.store.chain import GENESIS, row_hash
from replay.parquet_chain import CHAIN_COLUMNS, PartProof, first_break, prove_part


def _chain(n: int) -> list[dict]:
    """``n`` rows of hand ``h1`` (positions and seqs 1..n), linked from GENESIS."""
    rows, prev = [], GENESIS
    for k in range(1, n + 1):
        row = {"position": k, "stream": "h1", "hand_id": "h1", "session": None, "seq": k,
               "type": "check", "schema_version": 1, "payload": f'{{"seat":{k}}}',
               "recorded_at": datetime(2026, 12, 5, 23, 0), "source_key": None}
        row["prev_hash"], row["hash"] = prev, row_hash(prev, **row)
        prev = row["hash"]
        rows.append(row)
    return rows


def _proofs(*parts: list[dict]) -> list[PartProof]:
    return [prove_part(pd.DataFrame(part, columns=list(CHAIN_COLUMNS))) for part in parts]


def test_partitions_prove_the_chain_in_any_order() -> None:
    rows = _chain(9)
    assert first_break(_proofs(rows[6:], rows[:3], rows[3:6][::-1], [])) is None


def test_a_break_at_a_partitions_edge_or_inside_it_is_named() -> None:
    rows = _chain(9)
    assert first_break(_proofs(rows[:3], rows[4:6], rows[6:])) == (
        4, "deleted", "row 4 is missing before row 5 (h1 seq 5)")
    assert first_break(_proofs(rows[3:6], rows[6:])) == (
        1, "deleted", "rows 1..3 are missing before row 4 (h1 seq 4)")
    assert first_break(_proofs(rows[:4], rows[3:])) == (
        4, "duplicate", "two rows hold position 4 (h1 seq 4 and h1 seq 4)")
    edited = [dict(r) for r in rows]
    edited[6]["payload"] = '{"seat":70}'
    assert first_break(_proofs(edited[:3], edited[3:6], edited[6:])) == (
        7, "edited", "row 7 (h1 seq 7): its content does not hash to its stored hash")
    # the row rewritten with its hash made again: the next row, at the next partition's edge,
    # links to the hash it had
    edited[5]["payload"] = '{"seat":60}'
    edited[5]["hash"] = row_hash(edited[5]["prev_hash"], **{
        k: edited[5][k] for k in CHAIN_COLUMNS[:10]})
    assert first_break(_proofs(edited[:3], edited[3:6], rows[6:])) == (
        6, "edited", "row 6 was rewritten: row 7 (h1 seq 7) links to another hash than its")
