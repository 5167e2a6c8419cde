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
    numpy_column,
    repeated_text,
    text_column,
    timestamp_column,
)

_TABLE = ("CREATE TABLE t (i BIGINT, s VARCHAR, r VARCHAR, h VARCHAR, ts TIMESTAMP, b BOOLEAN,"
          " l VARCHAR[], j JSON)")


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


def _objects(values: list) -> np.ndarray:
    return np.fromiter(values, dtype=object, count=len(values))


def test_numpy_columns_as_the_derived_tables_give_them() -> None:
    """The derived tables' numpy columns (replay.tables.table_columns) stored exactly: ints,
    bools (nine: more than a byte of bits), texts with a NULL, lists of texts, JSON text."""
    bools = [True, False, True, True, False, False, True, True, False]
    rows = _stored({
        "i": numpy_column(np.array([5, -7, 2**63 - 1, 0, 1, 2, 3, 4, 9], dtype=np.int64)),
        "b": numpy_column(np.array(bools, dtype=np.bool_)),
        "s": numpy_column(_objects(["Alice", None, "é♠", "", "x", "y", "z", "w", "v"])),
        "l": numpy_column(_objects([["Alice", "Bob"], [], ["Eve"], ["é"], [], [], [], [],
                                    ["a", "b", "c"]])),
        "j": numpy_column(_objects(['{"to":"Alice","chips":30}'] + ["[]"] * 8)),
    })
    assert rows[:4] == [(5, True, "Alice", ["Alice", "Bob"], '{"to":"Alice","chips":30}'),
                        (-7, False, None, [], "[]"), (2**63 - 1, True, "é♠", ["Eve"], "[]"),
                        (0, True, "", ["é"], "[]")]
    assert [r[1] for r in rows] == bools
    assert rows[8] == (9, False, "v", ["a", "b", "c"], "[]")


def test_numpy_column_other_shapes_and_no_pandas() -> None:
    """An int column with a NULL (Python objects) goes through ``pyarrow.array``; the
    shapes of the derived tables do not, so they never import pandas (a few tenths of a
    second of CPU)."""
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from ledger.store.arrow import numpy_column\n"
        "a = numpy_column(np.array([1, 2], dtype=np.int64))\n"
        "b = numpy_column(np.array([True], dtype=np.bool_))\n"
        "c = numpy_column(np.fromiter(['x', None], dtype=object, count=2))\n"
        "d = numpy_column(np.fromiter([['x'], []], dtype=object, count=2))\n"
        "print('pandas' in sys.modules)\n"
        "e = numpy_column(np.fromiter([3, None], dtype=object, count=2))\n"
        "print(e.to_pylist(), e.type)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["False", "[3, None] int64"]
