"""The recorded head (``meta``'s ``head_position`` and ``head_hash``) edited while the rows are
intact: what ``verify`` says of it.

The walk (:func:`ledger.store.chain.verify_rows`) checks the rows against the recorded head, so
a head moved by hand made it blame a row nobody touched (``edited: row 9000 (…): its hash is
not the recorded head hash`` for a head set back to 9000) or rows that are all there
(``deleted: rows 4063..9000 are missing`` for one set past the last row). When the head names
the last stored row by its hash at another position (its position edited), and the rows
alone prove an intact chain up to that last row (the queries of
:func:`ledger.store.chainsql.proven_intact`, given that row as the head), the fault is the
head's: said as an append says it (:meth:`ledger.store.store.Ledger._append_head`), ``the
ledger's head (meta) 100:f44e76b906bc43f1... does not match its last row
4062:f44e76b906bc43f1...``. A head at the last row's position with another hash is left to
the walk: the row rewritten with its hash made again, or the head's hash edited, which the
rows cannot tell apart (:func:`ledger.store.chain.diagnose` names both); so is a head whose
hash no row has at its end (rows deleted there, a row put in after it).
"""

from __future__ import annotations

from typing import Any

from ledger.store import chainsql
from ledger.store.chain import VerifyReport


def head_apart(con: Any, head: tuple[int, str] | None, *,
               in_transaction: bool = False) -> VerifyReport | None:
    """The report of a recorded ``head`` (``(position, hash)`` from ``meta``) that names the
    last stored row of an intact chain by its hash at another position (module doc): problem
    ``head``, ``first_bad`` the last row's position, ``rows`` every row; else None (the walk
    decides). ``con``: the ledger's DuckDB connection, inside the caller's memory cap;
    ``in_transaction``: as :func:`ledger.store.chainsql.proven_intact`'s.

    Raises:
        duckdb.Error: the file cannot be read (the caller translates it).
    """
    if head is None:
        return None
    found = con.execute("SELECT position, hash FROM events WHERE position ="  # as last_row
                        " (SELECT max(position) FROM events)").fetchall()
    if not found:
        return None
    last = (int(found[0][0]), str(found[0][1]))
    if last[1] != head[1] or last[0] == head[0]:
        return None
    if chainsql.proven_intact(con, last, in_transaction=in_transaction) is None:
        return None
    return VerifyReport(False, last[0], last[0], "head",
                        f"the ledger's head (meta) {point(*head)} does not match its last row "
                        f"{point(*last)}: rows 1..{last[0]} chain intact")


def point(position: int, digest: str) -> str:
    """``position:hash`` as a message shows it, a 64-digit hash cut to its first 16."""
    return f"{position}:{digest[:16]}..." if len(digest) > 16 else f"{position}:{digest}"
