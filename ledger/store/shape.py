"""The ledger's own tables as handledger writes them, checked when a ledger is opened: a file
whose ``meta`` or ``events`` table was edited by hand is refused in one line naming what is
wrong, before a command reads or writes it.

``meta`` holds three keys, ``store_version``, ``head_position`` and ``head_hash``
(:mod:`ledger.store.store`): emptied, every command said "ledger has store version ?". The
``events`` table has the twelve columns of :data:`EVENT_COLUMNS`, in that order and of those
types: a column added, dropped, renamed or retyped by hand let ``verify`` say ok (the chain
hashes the columns it knows) and made an import fail in DuckDB's words ("a row of this
appender holds 13 values"). The columns are read from a query that reads no row
(``LIMIT 0``): listing the catalog (``duckdb_columns()``) costs more than a live action's
reads.
"""

from __future__ import annotations

import re
from typing import Any

from ledger.model.errors import LedgerCorrupt

#: The ``events`` columns, in order, with their DuckDB types (:mod:`ledger.store.store`).
EVENT_COLUMNS = (
    ("position", "BIGINT"), ("stream", "VARCHAR"), ("hand_id", "VARCHAR"),
    ("session", "VARCHAR"), ("seq", "INTEGER"), ("type", "VARCHAR"),
    ("schema_version", "INTEGER"), ("payload", "JSON"), ("recorded_at", "TIMESTAMP"),
    ("source_key", "VARCHAR"), ("prev_hash", "VARCHAR"), ("hash", "VARCHAR"),
)
#: The keys of ``meta``.
META_KEYS = ("store_version", "head_position", "head_hash")
_DIGITS = re.compile(r"[0-9]+")


def check_meta(path: str, meta: dict[str, str]) -> None:
    """Refuse a ``meta`` table (``meta``: its rows, key to value) that lacks a key, or whose
    ``head_position`` is no decimal integer (ASCII digits only: ``abc`` or `` 4062 `` let
    ``verify`` say ok while writes refused).

    Raises:
        LedgerCorrupt: ``ledger x.duckdb is not a handledger ledger as it stands: its meta
            table is empty (…)``, ``… lacks head_hash (…)`` or ``… its meta head_position
            'abc' is not a decimal integer (…)``.
    """
    missing = [key for key in META_KEYS if key not in meta]
    if not missing:
        position = meta["head_position"]
        if not _DIGITS.fullmatch(position or ""):
            raise LedgerCorrupt(
                f"ledger {path} is not a handledger ledger as it stands: its meta "
                f"head_position {position!r} is not a decimal integer (it holds the chain's "
                "head: edited outside handledger)")
        return
    what = ("is empty" if not meta else f"lacks {', '.join(missing)}")
    raise LedgerCorrupt(f"ledger {path} is not a handledger ledger as it stands: its meta "
                        f"table {what} (it holds the store version and the chain's head: "
                        "edited outside handledger)")


def check_events(path: str, con: Any) -> None:
    """Refuse an ``events`` table whose columns are not :data:`EVENT_COLUMNS` (``con``: the
    ledger's DuckDB connection).

    Raises:
        LedgerCorrupt: naming the first difference (``its events table has a column extra
            that handledger does not write``, ``… lacks the column seq``, ``… column seq is
            VARCHAR, not INTEGER``, ``… columns are not in handledger's order``).
        duckdb.Error: the table cannot be read (the caller translates it).
    """
    cursor = con.execute("SELECT * FROM events LIMIT 0")
    found = [(d[0], str(d[1])) for d in cursor.description]
    cursor.fetchall()
    check_columns(path, found)


def check_columns(path: str, found: list[tuple[str, str]]) -> None:
    """Refuse ``events`` columns ``found`` (``(name, DuckDB type)`` in order, as a query's
    description gives them) that are not :data:`EVENT_COLUMNS`, as :func:`check_events`.

    Raises:
        LedgerCorrupt: as :func:`check_events`.
    """
    if found == list(EVENT_COLUMNS):
        return
    names = {name for name, _ in found}
    types = dict(found)
    expected = dict(EVENT_COLUMNS)
    extra = [name for name, _ in found if name not in expected]
    missing = [name for name, _ in EVENT_COLUMNS if name not in names]
    retyped = [name for name, kind in EVENT_COLUMNS if name in types and types[name] != kind]
    if extra:
        what = (f"has the column(s) {', '.join(extra)} that handledger does not write")
    elif missing:
        what = f"lacks the column(s) {', '.join(missing)}"
    elif retyped:
        name = retyped[0]
        what = f"column {name} is {types[name]}, not {expected[name]}"
    else:
        what = "has its columns in another order than handledger's"
    raise LedgerCorrupt(f"ledger {path} is not a handledger ledger as it stands: its events "
                        f"table {what} (edited outside handledger)")
