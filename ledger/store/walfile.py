"""DuckDB's write-ahead log beside a ledger file (``<ledger>.wal``) that DuckDB did not
replay, named before a read vouches for the rows without it or a write discards it.

DuckDB appends each commit to the log and copies the log's rows into the file at its next
checkpoint, then empties the log. An open replays the log: a read-only open into memory (the
log stays), a writing open into the file (and empties the log). It replays entries up to the
first it cannot read (the log cut short: a disk full, ``kill -9`` while writing, a copy
without its end) and none of a log whose entries do not read (another file's, bytes written
over it), saying nothing; the next writing open's checkpoint then discards the rest. What it
replayed DuckDB says in ``pragma_database_size`` (``wal_size``, rounded: ``393.0 KiB``):
less than the file's size by more than that rounding is a log not replayed whole. A log cut
inside the rounding (a few bytes of a large log) is not seen so (README "A damaged file").
"""

from __future__ import annotations

import os
import re
from typing import Any

from ledger.model.errors import LedgerCorrupt

_UNITS = {"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
          "PiB": 1 << 50}
_SIZE = re.compile(r"^\s*([0-9.]+)\s*(bytes|[KMGTP]iB)\s*$")


def logged_bytes(path: str) -> int:
    """The size in bytes of the write-ahead log beside ``path`` (0: none, or empty)."""
    try:
        return os.path.getsize(f"{path}.wal")
    except OSError:
        return 0


def check_replayed(path: str, con: Any, database: str | None = None) -> None:
    """Refuse the ledger at ``path`` when its write-ahead log holds bytes DuckDB's open on
    ``con`` did not replay (module doc); nothing when there is no log, or an empty one.
    ``database``: the name ``con`` knows the file by (default: its current database).

    Raises:
        LedgerCorrupt: naming the log, its size and what DuckDB replayed of it.
        duckdb.Error: DuckDB cannot say its log's size (the caller translates it).
    """
    if path == ":memory:":
        return
    size = logged_bytes(path)
    if size == 0:
        return
    name = "current_database()" if database is None else "$1"
    row = con.execute("SELECT wal_size FROM pragma_database_size()"
                      f" WHERE database_name = {name}",
                      [] if database is None else [database]).fetchone()
    said = None if row is None else str(row[0])
    found = _SIZE.match(said or "")
    if found is None:
        return  # DuckDB words its size otherwise: nothing to compare
    unit = _UNITS[found.group(2)]
    replayed = float(found.group(1)) * unit
    if size <= replayed + (0 if unit == 1 else unit // 10):
        return
    raise LedgerCorrupt(unreplayed(path, size, said or "0 bytes"))


def unreplayed(path: str, size: int, replayed: str) -> str:
    """The refusal's text: the log, its size, what DuckDB replayed of it."""
    return (f"ledger {path} is corrupt: its write-ahead log {path}.wal holds {size} bytes, of "
            f"which DuckDB replays {replayed}: cut short, or not this file's log; its rows "
            "are not read, and a write would discard them: keep a copy of both files")


_ITERATIONS = re.compile(r"File checkpoint iteration: (\d+), WAL checkpoint iteration: (\d+)")


def not_replayed(path: str, text: str) -> str | None:
    """The refusal's text for DuckDB's ``text`` of a log it refuses to replay (``Failure
    while replaying WAL file``): another file's log, or one written after a later checkpoint
    of this file than the file holds (an older copy of the file put back beside a newer
    log); None when ``text`` is no such refusal."""
    if "Failure while replaying WAL file" not in text:
        return None
    wal = f"{path}.wal"
    iterations = _ITERATIONS.search(text)
    if "WAL does not match database file" in text:
        why = "is not this file's log (DuckDB: WAL does not match database file)"
    elif iterations is not None:
        why = (f"follows checkpoint {iterations.group(2)} of this file, which holds its "
               f"checkpoint {iterations.group(1)}: an older copy of the file put back beside "
               "a newer log")
    else:
        why = "cannot be replayed (DuckDB: " + text.rsplit('": ', 1)[-1].strip() + ")"
    return f"ledger {path} is corrupt: its write-ahead log {wal} {why}: keep a copy of both files"
