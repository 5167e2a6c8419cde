"""What a ledger path must be before DuckDB opens it: a DuckDB database file, or a new file
DuckDB will make one of.

DuckDB opens a file whose name ends in an extension of data it reads as a table (``.csv``,
``.tsv``, ``.json``, ``.jsonl``, ``.ndjson``, ``.parquet``, compressed too: ``.csv.gz``) and
that is not a database as a temporary database in memory, the file a view of it: every write
said it was done and stored nothing, and a read found no ledger's tables. So every open checks
the file's header first (DuckDB writes ``DUCK`` at byte 8 of every database file), and a new
ledger is never made under such a name.
"""

from __future__ import annotations

import os

from ledger.model.errors import LedgerCorrupt, LedgerError
from ledger.store import rawfile

#: DuckDB's mark in a database file's first header, and where it stands.
MAGIC, MAGIC_AT = b"DUCK", 8
#: The extensions of files DuckDB opens as a table of data, not as a database.
DATA_SUFFIXES = (".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".parquet")
#: Compressions DuckDB reads such a file through (``game.csv.gz``).
COMPRESSED = (".gz", ".zst")


def data_suffix(path: str) -> str | None:
    """The data extension ``path``'s name ends in, as written (``.CSV``, ``.csv.gz``), or None.

    >>> data_suffix("game.CSV"), data_suffix("pq/events.parquet.gz"), data_suffix("l.duckdb")
    ('.CSV', '.parquet.gz', None)
    """
    name = os.path.basename(path)
    stem, last = os.path.splitext(name)
    if last.lower() in COMPRESSED:
        inner = os.path.splitext(stem)[1]
        return inner + last if inner.lower() in DATA_SUFFIXES else None
    return last if last.lower() in DATA_SUFFIXES else None


def has_magic(path: str) -> bool | None:
    """Whether the file at ``path`` carries DuckDB's mark (:data:`MAGIC` at :data:`MAGIC_AT`);
    None when it cannot be read (not there, no permission: the open that follows says so).
    Read through :func:`ledger.store.rawfile.reader`, kept open: closing a descriptor of the
    file would drop the lock a connection of this process holds on it."""
    try:
        f = rawfile.reader(path)
        f.seek(0)
        head = f.read(MAGIC_AT + len(MAGIC))
    except OSError:
        return None
    return head[MAGIC_AT:] == MAGIC


def check_ledger_file(path: str, *, creating: bool) -> None:
    """Refuse, before DuckDB opens it, a ledger ``path`` that is a file but not a DuckDB
    database, and (``creating``: an open that would make a missing file) a new one named as a
    data file (:func:`data_suffix`). Whatever else is wrong (a directory, a missing file on a
    read, a file that cannot be read) is left to the checks and the open that follow.

    Raises:
        LedgerError: ``game.csv is not a handledger ledger (not a DuckDB file): nothing
            done`` (a file named as data), or ``… cannot be made a ledger: …: nothing
            created``.
        LedgerCorrupt: any other file without DuckDB's mark, a ledger damaged at its start
            or another kind of file (``verify`` says so, exit 1).
    """
    if path == ":memory:":
        return
    suffix = data_suffix(path)
    if not os.path.exists(path):
        if suffix and creating:
            raise LedgerError(
                f"{path} cannot be made a ledger: DuckDB reads a file named {suffix} as data, "
                "not as a database: nothing created (name the ledger .duckdb)")
        return
    if not os.path.isfile(path) or has_magic(path) is not False:
        return
    rawfile.release(path)  # no connection holds a lock on a file that is no database
    if suffix:
        raise LedgerError(f"{path} is not a handledger ledger (not a DuckDB file): "
                          "nothing done")
    raise LedgerCorrupt(f"ledger {path} is corrupt, or not a ledger: not a DuckDB file (no "
                        "DuckDB header): nothing done")
