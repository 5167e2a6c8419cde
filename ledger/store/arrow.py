"""Arrow columns built from buffers, and their insert into a DuckDB table.

``pyarrow.array`` on a Python list first asks whether the list is a pandas object, which
imports pandas (0.4-0.9 s on a cold start) and then converts value by value. The store's bulk
inserts (:meth:`ledger.store.store.Ledger.append_columns`, the bulk path of
:meth:`~ledger.store.store.Ledger.append_many`) build their columns here instead, from bytes
and numpy buffers: text as one UTF-8 buffer and its offsets, integers and timestamps as the
numpy array's own memory. DuckDB copies the rows during the ``INSERT`` and lets them go.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Any

import numpy as np
import pyarrow as pa

#: Above this many bytes of text a column's offsets are 64-bit (Arrow ``large_string``).
_SMALL = 2**31 - 1


def packed_text(
    data: bytes, offsets: Any, valid: Any = None, *, offset: int = 0, length: int | None = None
) -> pa.Array:
    """A text array over ``data`` (UTF-8, not checked here): row ``i`` is
    ``data[offsets[offset + i]:offsets[offset + i + 1]]``; ``offsets`` an int64 numpy array
    of ``length + 1`` (+ ``offset``) byte offsets; ``valid``: a bool numpy array a row (False:
    NULL), None when every row has a value. ``length`` defaults to ``len(offsets) - 1 -
    offset``."""
    n = len(offsets) - 1 - offset if length is None else length
    large = len(data) > _SMALL
    kind, width = (pa.large_string(), np.int64) if large else (pa.string(), np.int32)
    bounds = pa.py_buffer(np.ascontiguousarray(offsets, dtype=width))
    mask = None
    nulls = 0
    if valid is not None:
        valid = np.asarray(valid, dtype=np.bool_)
        nulls = int(len(valid) - np.count_nonzero(valid))
        if nulls:
            mask = pa.py_buffer(np.packbits(valid, bitorder="little"))
    return pa.Array.from_buffers(
        kind, n, [mask, bounds, pa.py_buffer(data)], null_count=nulls, offset=offset
    )


def text_column(values: Sequence[str | None], *, few: bool = False) -> pa.Array:
    """``values`` (Python strings, None for NULL) as an Arrow text array; ``few``: the
    values repeat a lot (e.g. event types), each distinct one is encoded once.

    Raises:
        UnicodeEncodeError: a value holds a lone surrogate (not UTF-8 text).
    """
    nulls = [v is None for v in values]
    if few:
        codes = {v: b"" if v is None else v.encode() for v in set(values)}
        encoded = [codes[v] for v in values]
    else:
        encoded = [b"" if v is None else v.encode() for v in values]
    valid = None
    if any(nulls):
        valid = ~np.array(nulls, dtype=np.bool_)
    return packed_text(b"".join(encoded), _offsets(map(len, encoded), len(encoded)), valid)


def joined_text(values: Sequence[bytes]) -> pa.Array:
    """``values`` (UTF-8 bytes, not checked here, none NULL) as an Arrow text array over
    their one joined buffer."""
    return packed_text(b"".join(values), _offsets(map(len, values), len(values)))


def repeated_text(values: Sequence[str | None], counts: Sequence[int]) -> pa.Array:
    """Each of ``values`` repeated its ``counts`` times, in order, as one text array (each
    value encoded once).

    Raises:
        UnicodeEncodeError: a value holds a lone surrogate.
    """
    encoded = [b"" if v is None else v.encode() for v in values]
    reps = np.asarray(counts, dtype=np.int64)
    lengths = np.repeat(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), reps)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    # a value's run as one bytes object (``e * c``): half the CPU of joining it row by row
    # (the four per-batch columns of an append, measured: 0.054 against 0.114 us a row)
    data = b"".join([e * c for e, c in zip(encoded, counts, strict=True)])
    valid = None
    if any(v is None for v in values):
        valid = np.repeat(np.array([v is not None for v in values], dtype=np.bool_), reps)
    return packed_text(data, offsets, valid)


def fixed_text(data: bytes, width: int, n: int, *, offset: int = 0) -> pa.Array:
    """``n`` text rows of ``width`` bytes each, row ``i`` at ``data[(offset + i) * width:]``
    (e.g. hex digests joined into one buffer)."""
    offsets = np.arange(n + offset + 1, dtype=np.int64) * width
    return packed_text(data, offsets, offset=offset, length=n)


def int_column(values: Any) -> pa.Array:
    """An int64 numpy array (or anything ``numpy.asarray`` makes one of, exactly) as an
    Arrow int64 array, sharing its memory.

    Raises:
        OverflowError: a value beyond 64 bits.
    """
    array = np.ascontiguousarray(np.asarray(values, dtype=np.int64))
    return pa.Array.from_buffers(pa.int64(), len(array), [None, pa.py_buffer(array)])


def timestamp_column(values: Any) -> pa.Array:
    """A ``datetime64[us]`` numpy array as an Arrow ``timestamp[us]`` array (naive)."""
    array = np.ascontiguousarray(np.asarray(values, dtype="datetime64[us]")).view(np.int64)
    return pa.Array.from_buffers(pa.timestamp("us"), len(array), [None, pa.py_buffer(array)])


def bool_column(values: Any) -> pa.Array:
    """A numpy bool array (no NULL) as an Arrow boolean array (its bits packed)."""
    array = np.asarray(values, dtype=np.bool_)
    bits = pa.py_buffer(np.packbits(array, bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), len(array), [None, bits])


def numpy_column(values: Any) -> pa.Array:
    """A numpy column (``int64``, ``bool``, or Python objects) as an Arrow array, as
    ``pyarrow.array`` makes it: ints and bools from the array's memory, a column of texts
    (None: NULL) or of lists of texts from their UTF-8 buffers; anything else (a NULL among
    ints, ...) by ``pyarrow.array``. That imports pandas on its first call (0.2-0.4 s of CPU,
    measured: the import's first insert of the derived tables), which these shapes never do.

    Raises:
        UnicodeEncodeError: a text holds a lone surrogate.
        pyarrow.ArrowException: ``pyarrow.array`` cannot convert the column.
    """
    if values.dtype == np.int64:
        return int_column(values)
    if values.dtype == np.bool_:
        return bool_column(values)
    if values.dtype == object:
        kinds = set(map(type, values))
        if kinds and kinds <= {str, type(None)}:
            return text_column(values)
        if kinds == {list} and all(type(v) is str for one in values for v in one):
            flat = [v for one in values for v in one]
            offsets = _offsets(map(len, values), len(values)).astype(np.int32)
            starts = pa.Array.from_buffers(pa.int32(), len(offsets),
                                           [None, pa.py_buffer(offsets)])
            return pa.ListArray.from_arrays(starts, text_column(flat))
    return pa.array(values)


def insert_arrow(con: Any, table: str, columns: str, arrays: dict[str, pa.Array]) -> None:
    """``INSERT INTO table (columns) SELECT columns`` from ``arrays`` (equal lengths, by
    column name) inside the caller's transaction, handed to DuckDB as an Arrow stream.

    Works whichever way DuckDB was imported: its Arrow scans need the ``duckdb`` package's
    Python layer set up, which importing only its compiled module (as the store does) skips.

    Raises:
        duckdb.Error: a constraint or conversion failure (the caller translates it).
    """
    import duckdb  # the package, not only its compiled module: sets up the Arrow sources

    batch = pa.RecordBatch.from_arrays(list(arrays.values()), names=list(arrays))
    rows = pa.RecordBatchReader.from_batches(batch.schema, [batch])
    del batch
    view = f"_appended_{table}"
    con.register(view, rows)
    try:
        con.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {view}")
    finally:  # after a failed INSERT the transaction is aborted and so is this: the
        with suppress(duckdb.Error):  # failure to report is the INSERT's
            con.unregister(view)


def _offsets(lengths: Any, n: int) -> Any:
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(lengths, dtype=np.int64, count=n), out=offsets[1:])
    return offsets
