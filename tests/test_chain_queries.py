"""The chain proven intact by queries (ledger/store/chainsql.py) against the Python walk
(ledger/store/chain.py ``verify_rows``, ``Ledger.verify`` without its fast path): on random
ledgers, names with any character, None hand ids and sessions, several streams interleaved,
timestamps of any year, both say intact; after one random edit of one row (payload, seq,
position, prev_hash, hash, a header text, a deleted row, two rows swapped) the queries never
say intact where the walk does not.

Rows are written as a forger with SQL would write them: hashed by ``link_rows`` (the writer's
hashing, equal to ``row_hash``), inserted by plain SQL, the head set in ``meta``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ledger.store.chainsql as chainsql
from ledger.store.chain import GENESIS, link_rows
from ledger.store.store import Ledger

ascii_ = st.characters(min_codepoint=0x20, max_codepoint=0x7E)
# every character but NUL and lone surrogates (no UTF-8 text: refused before storing), so
# quotes, backslashes, control characters, DEL, Latin-1 and beyond the BMP, which the
# header's JSON escapes; half the names plain ASCII, which the queries hash themselves
anything = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
name = st.one_of(st.text(ascii_, min_size=1, max_size=6),
                 st.text(anything, min_size=1, max_size=6))
maybe = st.one_of(st.none(), name)
moment = st.one_of(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1)),
                   st.datetimes())
batch = st.tuples(
    st.integers(0, 3),  # which stream
    st.lists(st.tuples(name, st.integers(-3, 3), st.text(anything, max_size=5)),
             min_size=1, max_size=4),  # (type, schema_version, payload text) per row
    moment,
)
streams = st.lists(st.tuples(name, maybe, maybe, maybe), min_size=1, max_size=4,
                   unique_by=lambda s: s[0])  # (stream, hand_id, session, source_key)
ledgers = st.tuples(streams, st.lists(batch, min_size=1, max_size=8))


@pytest.fixture(scope="module")
def blank() -> Iterator[Ledger]:
    """One in-memory ledger for the module (opening one costs more than an example's
    queries): :func:`build` empties it before each example writes its rows."""
    with Ledger(":memory:") as led:
        yield led


def build(spec: Any, led: Ledger) -> Ledger:
    """The in-memory ledger ``led`` emptied of every row, then holding the rows ``spec``
    describes, linked from GENESIS, head set (the other ``meta`` rows are a new ledger's:
    no example changes them)."""
    kinds, batches = spec
    led.connection.execute("DELETE FROM events")
    assert led.count() == 0
    rows: list[tuple[Any, ...]] = []
    seqs: dict[str, int] = {}
    for which, events, recorded_at in batches:
        stream, hand_id, session, source_key = kinds[which % len(kinds)]
        made = link_rows(
            rows[-1][11] if rows else GENESIS, first_position=len(rows) + 1,
            first_seq=seqs.get(stream, 0) + 1, stream=stream, hand_id=hand_id,
            session=session, source_key=source_key, recorded_at=recorded_at,
            types=[e[0] for e in events], schema_versions=[e[1] for e in events],
            payloads=[json.dumps({"text": e[2]}, ensure_ascii=False) for e in events])
        seqs[stream] = made[-1][4]
        rows += made
    con = led.connection
    # one INSERT of every row (executemany runs a statement a row: most of an example's time)
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(rows))
    con.execute(f"INSERT INTO events VALUES {values}", [v for row in rows for v in row])
    con.execute("UPDATE meta SET value = CASE key WHEN 'head_position' THEN $1 ELSE $2 END"
                " WHERE key IN ('head_position', 'head_hash')", [str(len(rows)), rows[-1][11]])
    return led


def walked(led: Ledger) -> bool:
    """The walk's verdict: ``Ledger.verify`` with the queries' proof left out."""
    with mock.patch.object(chainsql, "proven_intact", return_value=None):
        return led.verify().ok


def proven(led: Ledger) -> tuple[int, str] | None:
    """The queries' verdict, ranges of 3 positions (so that streams and links cross ranges)."""
    with mock.patch.object(chainsql, "_RANGE", 3):
        return chainsql.proven_intact(led.connection, led.head())


@settings(max_examples=60, deadline=None)
@given(ledgers)
def test_queries_prove_what_the_walk_accepts(blank: Ledger, spec: Any) -> None:
    led = build(spec, blank)
    n = led.count()
    (last,), = led.connection.execute("SELECT hash FROM events WHERE position = $1",
                                      [n]).fetchall()
    assert walked(led)
    assert proven(led) == (n, last)
    assert led.verify().head == (n, last)


EDITS = ("payload", "seq", "position", "prev_hash", "hash", "stream", "hand_id", "session",
         "type", "schema_version", "recorded_at", "source_key", "delete", "swap")


@settings(max_examples=150, deadline=None)
@given(ledgers, st.sampled_from(EDITS), st.integers(1), st.integers(1), st.data())
def test_one_edited_row_is_never_proven_when_the_walk_refuses(
    blank: Ledger, spec: Any, edit: str, pick: int, other: int, data: st.DataObject
) -> None:
    led = build(spec, blank)
    con = led.connection
    n = led.count()
    at, to = pick % n + 1, other % n + 1
    if edit == "delete":
        con.execute("DELETE FROM events WHERE position = $1", [at])
    elif edit == "swap":
        con.execute("UPDATE events SET position = CASE position WHEN $1 THEN $2 ELSE $1"
                    " END WHERE position IN ($1, $2)", [at, to])
    elif edit in ("seq", "position", "schema_version"):
        step = data.draw(st.integers(-3, 3).filter(bool))
        con.execute(f"UPDATE events SET {edit} = {edit} + $1 WHERE position = $2",
                    [step, at])
    elif edit == "recorded_at":
        con.execute("UPDATE events SET recorded_at = $1 WHERE position = $2",
                    [data.draw(moment), at])
    elif edit == "payload":
        con.execute("UPDATE events SET payload = $1 WHERE position = $2",
                    [json.dumps({"text": data.draw(name)}, ensure_ascii=False), at])
    else:  # a hash or a text of the header, anything or NULL where the column allows it
        value = data.draw(st.text("0123456789abcdef", min_size=64, max_size=64)
                          if edit in ("prev_hash", "hash") else
                          name if edit == "stream" else maybe)
        con.execute(f"UPDATE events SET {edit} = $1 WHERE position = $2", [value, at])
    if not walked(led):
        assert proven(led) is None


def test_the_queries_hash_plain_rows_themselves_and_the_rest_in_python(blank: Ledger) -> None:
    # years 1000 and 9999 and a whole second: DuckDB's strftime writes them as isoformat
    # does; a name with a quote, a backslash or an accent and the year 999 go to row_hash
    plain = [("h1", "h1", "s 1", None, datetime(1000, 1, 1)),
             ("h2", None, None, "file.txt:1", datetime(9999, 12, 31, 23, 59, 59, 999999)),
             ("session:s 1", None, "s 1", None, datetime(2024, 5, 1, 12, 30))]
    odd = [('say "hi"', None, None, None, datetime(2024, 5, 1)),
           ("h3", "h3", "back\\slash", None, datetime(2024, 5, 1)),
           ("h4", "h4", "café", None, datetime(2024, 5, 1)),
           ("h5", "h5", None, None, datetime(999, 12, 31))]
    spec = ([row[:4] for row in plain + odd],
            [(k, [("fold", 1, "x"), ("check", 2, "é")], row[4])
             for k, row in enumerate(plain + odd)])
    led = build(spec, blank)
    with mock.patch.object(chainsql, "_hash_in_python",
                           wraps=chainsql._hash_in_python) as python:
        assert proven(led) is not None
        # rows 1-6 hashed by the queries; rows 7-14, of the last four streams, by row_hash
        assert sorted(p for call in python.call_args_list for p in call.args[1]) == [
            7, 8, 9, 10, 11, 12, 13, 14]
