"""``sql --json`` and ``sql --csv``: a statement's rows as JSON or CSV text.

One form of a list or struct in every CSV: its compact JSON text (``["Bob","Ann"]``,
``{"x":1}``), as ``export --format csv`` writes it (:mod:`replay.ingest.export_columns`).
In JSON a list is an array and a ``JSON`` column is the JSON value itself, nested, never a
JSON string inside the JSON; a number JSON cannot write (NaN, ±Infinity) is ``null``, so
the output is always valid JSON (RFC 8259). Columns must be named apart for JSON (an object
keeps one key of a name): a repeated name is refused.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from typing import Any

from ledger.model.errors import MalformedInput


def _plain(value: Any) -> Any:
    """``value`` with every float JSON cannot write (NaN, ±Infinity) ``None``, lists and
    structs (dicts) gone through."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _json_cell(value: Any, kind: str) -> Any:
    """A cell as a JSON value: a ``JSON`` column's text parsed (nested), the rest plain."""
    if kind == "JSON" and isinstance(value, str):
        return json.loads(value)
    return _plain(value)


def json_rows(columns: Sequence[str], types: Sequence[str], rows: Sequence[Sequence[Any]]
              ) -> str:
    """The rows as one JSON array of objects keyed by column name (dates, decimals and other
    values JSON has no type for as their text).

    Raises:
        MalformedInput: a column name given twice (``sql --json: the column a is named twice,
            and a JSON object keeps one of them: name each apart (SELECT 1 AS a, 2 AS a_2)``).
    """
    seen: set[str] = set()
    for name in columns:
        if name in seen:
            raise MalformedInput(f"sql --json: the column {name} is named twice, and a JSON "
                                 "object keeps one of them: name each apart (SELECT 1 AS "
                                 f"{name}, 2 AS {name}_2)")
        seen.add(name)
    kinds = list(types) or ["" for _ in columns]
    return json.dumps([{c: _json_cell(v, k) for c, k, v in zip(columns, kinds, r, strict=True)}
                       for r in rows], default=str, allow_nan=False)


def _csv_cell(value: Any) -> Any:
    """A cell as CSV writes it: a list or struct as its compact JSON text."""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(_plain(value), separators=(",", ":"), ensure_ascii=False,
                          default=str)
    return value


def csv_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The rows as CSV text with a header row."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([_csv_cell(v) for v in r] for r in rows)
    return buf.getvalue()
