"""The columns ``export --format parquet|csv`` writes of a table: chips and money stay
integers, and a list or struct is one JSON text in CSV, as ``sql --csv`` writes it.

DuckDB's sums of chips and money are ``HUGEINT`` (docs/SQL.md, "Units"), which Parquet has no
type for (DuckDB would write a ``DOUBLE``, and a large amount would lose its last digits):
each is written as a 64-bit integer (``BIGINT``: Parquet's ``INT64``), in CSV too, so the two
agree. An amount beyond a 64-bit integer (±9 223 372 036 854 775 807, more chips than any
table holds) is refused, nothing written, rather than written inexactly. In CSV a list
(``pots.eligible``) or a struct is its JSON text (``["Bob","Ann"]``); Parquet keeps it a list.
"""

from __future__ import annotations

from typing import Any

from ledger.model.errors import LedgerError

_INT64 = (-(1 << 63), (1 << 63) - 1)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _nested(kind: str) -> bool:
    """Whether a DuckDB type (its text) is a list, array, struct or map."""
    return kind.endswith("]") or kind.startswith(("STRUCT", "MAP", "UNION"))


def select_list(con: Any, table: str, fmt: str) -> str:
    """The ``SELECT`` list that writes ``table`` as ``fmt`` (``parquet`` or ``csv``): every
    column by its name, a ``HUGEINT`` cast to ``BIGINT``, in CSV a nested one ``to_json``.

    Raises:
        LedgerError: a ``HUGEINT`` column holds a value beyond a 64-bit integer
            (``export: standings.net holds 9223372036854775808, beyond a 64-bit integer:
            nothing written``).
    """
    columns = con.execute(f"SELECT * FROM {_quoted(table)} LIMIT 0").description or []
    out = []
    for name, kind, *_ in columns:
        kind, col = str(kind), _quoted(name)
        if kind == "HUGEINT":
            low, high = _INT64
            beyond = con.execute(f"SELECT {col} FROM {_quoted(table)} WHERE {col} < {low} OR "
                                 f"{col} > {high} LIMIT 1").fetchone()
            if beyond is not None:
                raise LedgerError(f"export: {table}.{name} holds {beyond[0]}, beyond a 64-bit "
                                  "integer: nothing written")
            out.append(f"CAST({col} AS BIGINT) AS {col}")
        elif fmt == "csv" and _nested(kind):
            out.append(f"CAST(to_json({col}) AS VARCHAR) AS {col}")
        else:
            out.append(col)
    return ", ".join(out) or "*"
