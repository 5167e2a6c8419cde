"""A ledger's derived tables taken away, as an import of files without payments leaves them
(never built): what the tests of a first full replay, a catch-up and a read over ranges need,
since an import of files with payments brings the tables up to date itself (it holds each
payment to what its payer still owes, as ``settle`` reckons it: README, the books)."""

from __future__ import annotations

from typing import Any


def unbuild(con: Any) -> None:
    """Drop every view and every table but ``events`` and ``meta`` on the DuckDB connection
    ``con`` (a ledger's)."""
    for (view,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal"
                               " AND database_name = current_database()").fetchall():
        con.execute(f'DROP VIEW "{view}"')
    for (table,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE table_name NOT IN"
                                " ('events', 'meta') AND database_name = current_database()"
                                ).fetchall():
        con.execute(f'DROP TABLE "{table}"')
