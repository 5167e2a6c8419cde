"""Helpers for tests that tamper with real ledger files through DuckDB directly, as a forger
with the file and the public row hash would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from bench.tamper import relinked
from ledger.store.chain import GENESIS
from ledger.store.store import COLUMNS

NAMES = [c.strip() for c in COLUMNS.split(",")]


def stored(db: str | Path) -> list[tuple[Any, ...]]:
    """Every row of the file in position order (the ``events`` column order)."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(f"SELECT {COLUMNS} FROM events ORDER BY position").fetchall()


def head(db: str | Path) -> tuple[int, str]:
    """The last stored row's (position, hash)."""
    row = stored(db)[-1]
    return row[0], row[11]


def rewrite(db: str | Path, rows: list[tuple[Any, ...]], *, start: int, relink: bool = True,
            link_to: str | None = None, set_head: bool = True) -> None:
    """Replace every row from position ``start`` on with ``rows`` (column order; their
    ``prev_hash`` and ``hash`` are recomputed with the public row hash when ``relink``, the
    first linked to ``link_to``, default the row before ``start``) and record the last one as
    the head (``set_head``)."""
    with duckdb.connect(str(db)) as con:
        prev = con.execute("SELECT hash FROM events WHERE position = ?", [start - 1]).fetchone()
        prev_hash = link_to or (prev[0] if prev else GENESIS)
        out = relinked(rows, prev_hash) if relink else rows
        con.execute("DELETE FROM events WHERE position >= ?", [start])
        appender = con.appender("events")  # executemany takes seconds for a few thousand
        appender.append_rows(out)
        appender.flush()
        if set_head:
            position, digest = (out[-1][0], out[-1][11]) if out else (start - 1, prev_hash)
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_position'", [str(position)])
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", [digest])


def edit_payload(db: str | Path, position: int, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the payload at ``position`` and relink every later row and
    the recorded head consistently: the chain still verifies."""
    rows = [r for r in stored(db) if r[0] >= position]
    first = list(rows[0])
    assert old in first[7]
    first[7] = first[7].replace(old, new, 1)
    rewrite(db, [tuple(first), *rows[1:]], start=position)
