"""Arrow columns built from buffers (ledger/store/arrow.py): what DuckDB stores from them is
exactly the values given, NULLs included, and the insert works whichever way DuckDB was
imported."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime

import duckdb
import numpy as np

from ledger.store.arrow import (
    fixed_text,
    insert_arrow,
    int_column,
    repeated_text,
    text_column,
    timestamp_column,
)

_TABLE = "CREATE TABLE t (i BIGINT, s VARCHAR, r VARCHAR, h VARCHAR, ts TIMESTAMP)"


def _stored(arrays: dict) -> list[tuple]:
    con = duckdb.connect()
    con.execute(_TABLE)
    con.execute("BEGIN")
    insert_arrow(con, "t", ", ".join(arrays), arrays)
    con.execute("COMMIT")
    return con.execute(f"SELECT {', '.join(arrays)} FROM t ORDER BY rowid").fetchall()


def test_round_trip_values_nulls_and_large_ints() -> None:
    ints = [0, -1, 2**63 - 1, -(2**63), 1_000_000_007]
    texts = ["plain", None, "é ♠ 🂡", "", 'quote " and \\ backslash']
    rows = _stored({"i": int_column(np.array(ints, dtype=np.int64)), "s": text_column(texts)})
    assert rows == list(zip(ints, texts, strict=True))


def test_few_distinct_texts_and_repeats() -> None:
    types = ["fold", "call", "fold", None, "call"]
    rows = _stored(
        {"s": text_column(types, few=True), "r": repeated_text(["h1", None, "h♦3"], [2, 1, 2])}
    )
    assert rows == [("fold", "h1"), ("call", "h1"), ("fold", None), (None, "h♦3"), ("call", "h♦3")]


def test_fixed_width_rows_share_one_buffer() -> None:
    data = b"a" * 4 + b"b" * 4 + b"c" * 4
    rows = _stored({"s": fixed_text(data, 4, 2), "h": fixed_text(data, 4, 2, offset=1)})
    assert rows == [("aaaa", "bbbb"), ("bbbb", "cccc")]


def test_timestamps_exact_to_the_microsecond() -> None:
    moment = datetime(2026, 12, 4, 13, 5, 7, 123456)
    rows = _stored({"ts": timestamp_column(np.full(2, np.datetime64(moment, "us")))})
    assert rows == [(moment,), (moment,)]


def test_insert_with_only_the_compiled_module_imported() -> None:
    """A process that imported DuckDB's compiled module alone (as the store does) still
    inserts Arrow columns."""
    code = (
        "import _duckdb, sys\n"
        "assert 'duckdb' not in sys.modules\n"
        "import numpy as np\n"
        "from ledger.store.arrow import insert_arrow, int_column, text_column\n"
        "con = _duckdb.connect()\n"
        "con.execute('CREATE TABLE t (i BIGINT, s VARCHAR)')\n"
        "insert_arrow(con, 't', 'i, s', {'i': int_column(np.array([2**62])),"
        " 's': text_column(['x'])})\n"
        "print(con.execute('SELECT i, s FROM t').fetchall())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[(4611686018427387904, 'x')]"
