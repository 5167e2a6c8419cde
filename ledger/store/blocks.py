"""Every block of a ledger file read and its checksum checked: what ``verify`` says of a
damaged file (docs/LEDGER.md "verify").

A query reads only the blocks it needs: the chain walk reads the events' columns, a read of the
books the derived tables, a lookup by position or hash the events' indexes. A damaged block
elsewhere (an index, another table, the catalog) is then met only by the command that needs it.
DuckDB's file is three 4 KiB headers, then blocks of ``block_size`` bytes (262,144), each
starting with the 8-byte checksum of the rest; the checksum is DuckDB's own (``Checksum`` in its
``common/checksum.cpp``): 5381 xor'ed with each little-endian 64-bit word of the block times
0xbf58476d1ce4e5b9, modulo 2^64. :func:`damaged_block` checks every header and block of the
file so; a file laid out otherwise (another block size, an encrypted file, one that does not
check out as this reading of the format expects on its own main header) is left to DuckDB,
whose reads :func:`scan_tables` makes: every row and column of every table. So is a file whose
blocks holding rows DuckDB reads without complaint fail this reading's checksum: the reading is
then not DuckDB's (a storage format this module does not know), and never a false "corrupt".
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ledger.model.errors import LedgerCorrupt
from ledger.store.cutshort import HEADER, HEADERS, ends_inside_block, header_block_size
from ledger.store.duck import duckdb
from ledger.store.rawfile import reader

_MULTIPLIER = 0xBF58476D1CE4E5B9
_SEED = 5381
_CHUNK = 64  #: blocks read at once


def checksum(data: bytes) -> int:
    """DuckDB's checksum of ``data`` (a multiple of 8 bytes long: module doc)."""
    import numpy as np  # at the first check: a command that checks no block never loads it

    words = np.frombuffer(data, dtype="<u8")
    with np.errstate(over="ignore"):
        return int(np.bitwise_xor.reduce(words * np.uint64(_MULTIPLIER),
                                         initial=np.uint64(0))) ^ _SEED


def _sound(data: bytes) -> bool:
    """Whether ``data`` (a header or block) holds the checksum of the rest in its first 8."""
    return int.from_bytes(data[:8], "little") == checksum(data[8:])


@dataclass(frozen=True)
class Damage:
    """A damaged part of the file: ``block`` its number (None: one of the headers, ``header``
    0-2), ``offset`` its first byte in the file."""

    block: int | None
    header: int | None
    offset: int


def damaged_block(path: str | os.PathLike[str], block_size: int) -> Damage | None:
    """The first header or block of the DuckDB file at ``path`` whose checksum fails, or None
    (also when the file is not laid out as the module doc says: DuckDB reads it then).

    Raises:
        OSError: the file cannot be read.
    """
    return _checked(path, block_size)[1]


def _checked(path: str | os.PathLike[str], block_size: int) -> tuple[bool, Damage | None]:
    """Whether the file is laid out as the module doc says (every header and block then
    checked), and :func:`damaged_block`'s answer."""
    size = os.path.getsize(path)
    start = HEADER * HEADERS
    if block_size <= 8 or block_size % 8 or size < start or (size - start) % block_size:
        return False, None
    f = reader(path)  # not open()/close(): closing would drop DuckDB's lock (rawfile)
    f.seek(0)
    headers = f.read(start)
    if headers[8:12] != b"DUCK" or not _sound(headers[:HEADER]):
        return False, None  # not the layout this reading expects: left to DuckDB
    for h in (1, 2):
        if not _sound(headers[h * HEADER:(h + 1) * HEADER]):
            return True, Damage(None, h, h * HEADER)
    block = 0
    while chunk := f.read(block_size * _CHUNK):
        for i in range(0, len(chunk), block_size):
            if not _sound(chunk[i:i + block_size]):
                return True, Damage(block, None, start + block * block_size)
            block += 1
    return True, None


def holders(con: Any, block: int, database: str | None = None) -> list[str]:
    """The tables whose columns have data in ``block`` (none: an index, the catalog or a free
    block); [] when DuckDB cannot say. ``database``: the name ``con`` knows the file by
    (default: its current database)."""
    try:
        tables = _tables(con, database)
        prefix = "" if database is None else f'"{database}".'
        return [name for name in tables if con.execute(
            "SELECT 1 FROM pragma_storage_info(?) WHERE block_id = ? LIMIT 1",
            [prefix + name, block]).fetchall()]
    except duckdb.Error:
        return []


def check_blocks(path: str, con: Any, *, read_next: Collection[str] = ()) -> None:
    """The file at ``path`` not cut short (:func:`cut_short`), every header and block checked
    (:func:`damaged_block`), then every table read whole on ``con`` (its connection,
    read-only). ``read_next``: tables the caller reads whole right after (every row and every
    column: the chain's check reads ``events`` so), which DuckDB then checks block by block as
    it reads them; when every block of the file passed :func:`damaged_block` they are not read
    here too (for ``events`` of 100,000 hands 0.67 s of CPU of the 0.9 s of this check;
    bench/PROFILE.md).

    Raises:
        LedgerCorrupt: cut short, or a damaged block, naming it, where it is in the file and
            the tables it holds, or DuckDB's own words for what it met reading a table.
        duckdb.Error: another failure of DuckDB reading a table (the caller translates it).
    """
    if path == ":memory:":
        return
    block_size = int(con.execute("SELECT block_size FROM pragma_database_size()"
                                 " WHERE database_name = current_database()").fetchone()[0])
    tables = _tables(con, None)
    try:
        short = cut_short(path, con, block_size, tables=tables)
    except OSError as e:
        raise LedgerCorrupt(f"ledger {path} cannot be read: {e}") from e
    if short is not None:
        raise LedgerCorrupt(f"ledger {path} is corrupt: {short}")
    if not _reads_as_duckdb(path, con, block_size):
        scan_tables(con, tables=tables)  # DuckDB's own checks, block by block, are the verdict
        return
    try:
        checked, damage = _checked(path, block_size)
    except OSError as e:
        raise LedgerCorrupt(f"ledger {path} cannot be read: {e}") from e
    if damage is not None:
        _refuse(path, con, block_size, damage)
    scan_tables(con, skip=read_next if checked else (), tables=tables)


def _refuse(path: str, con: Any, block_size: int, damage: Damage,
            database: str | None = None) -> None:
    """Raise the refusal of the ``damage`` :func:`damaged_block` found, naming the header or
    the block, its bytes and what it holds (:func:`holding`); a block holding rows that
    DuckDB reads sound (every table read whole on ``con``) is no damage: the reading would be
    wrong, and nothing is raised.

    Raises:
        LedgerCorrupt: as :func:`check_blocks` says it.
    """
    held: list[str] = []
    if damage.block is None:
        what = f"header {damage.header} (byte {damage.offset}) fails its checksum"
    else:
        held = holders(con, damage.block, database)
        what = _failing(damage.block, damage.offset, block_size,
                        holding(con, damage.block, database))
    corrupt = LedgerCorrupt(f"ledger {path} is corrupt: its {what}")
    if held:
        try:  # rows DuckDB reads sound are not damaged: the reading would be wrong
            scan_tables(con, database)
        except duckdb.Error as e:
            raise corrupt from e
        return
    raise corrupt


def _failing(block: int, offset: int, block_size: int, held: str) -> str:
    """``block N (bytes A-B) fails its checksum (it holds …)``."""
    return (f"block {block} (bytes {offset}-{offset + block_size - 1}) fails its checksum "
            f"({held})")


def holding(con: Any | None, block: int, database: str | None = None) -> str:
    """What ``block`` of the file holds, as a refusal words it: ``it holds rows of …`` (the
    tables whose columns have data there, :func:`holders`), ``it holds the file's catalog``
    (a metadata block: the tables, their columns and where their rows are), ``it holds no
    table's rows: an index or a free block``; with no ``con`` (DuckDB failed opening the
    file, which reads the catalog alone) ``it holds the file's catalog, which DuckDB reads
    at every open``; ``DuckDB cannot say what it holds`` when its queries fail.
    ``database``: the name ``con`` knows the file by (default: its current database)."""
    if con is None:
        return "it holds the file's catalog, which DuckDB reads at every open"
    try:
        tables = _tables(con, database)
        prefix = "" if database is None else f'"{database}".'
        held = [name for name in tables if con.execute(
            "SELECT 1 FROM pragma_storage_info(?) WHERE block_id = ? LIMIT 1",
            [prefix + name, block]).fetchall()]
        if held:
            return f"it holds rows of {', '.join(held)}"
        catalog = con.execute("SELECT 1 FROM pragma_metadata_info(" + (
            "" if database is None else "?") + ") WHERE block_id = ? LIMIT 1",
            ([] if database is None else [database]) + [block]).fetchall()
    except duckdb.Error:
        return "DuckDB cannot say what it holds"
    if catalog:
        return "it holds the file's catalog"
    return "it holds no table's rows: an index or a free block"


_LOCATION = re.compile(r"checksum.* in block at location (\d+)")


def failed_checksum(path: str, con: Any | None, text: str) -> str | None:
    """``its block N (bytes A-B) fails its checksum (it holds …)`` for DuckDB's ``text`` of
    a block failing its checksum (``… in block at location L``) in the file at ``path``,
    the block size read from its header (:func:`ledger.store.cutshort.header_block_size`);
    ``con``: a connection to the file (None: its open failed), asked what the block holds
    (:func:`holding`). None when ``text`` names no location, or the block there in
    ``path`` passes this module's checksum (the block is then another file's): DuckDB's
    text stands.

    Raises:
        OSError: the file cannot be read.
    """
    found = _LOCATION.search(text)
    if found is None:
        return None
    offset = int(found.group(1))
    start = HEADER * HEADERS
    block_size = header_block_size(path)
    if block_size is None or offset < start or (offset - start) % block_size:
        return None
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(block_size)
    if len(data) < block_size or _sound(data):
        return None
    block = (offset - start) // block_size
    return "its " + _failing(block, offset, block_size, holding(con, block))


def cut_short(path: str | os.PathLike[str], con: Any, block_size: int,
              database: str | None = None, *, tables: list[str] | None = None) -> str | None:
    """What is missing when the file at ``path`` was cut short, else None. DuckDB writes
    whole blocks (its headers, then ``block_size`` bytes each), and drops free blocks only
    from the end: a file that ends inside a block (:func:`ends_inside_block`), or one that
    lacks a block DuckDB says a table's rows are in (``pragma_storage_info``, on ``con``;
    ``database`` as :func:`holders`), was cut. The header's block count is no measure: free
    blocks dropped from the end stay counted there. ``tables``: the names of the tables of
    that database, read already (:func:`_tables`)."""
    inside = ends_inside_block(path, block_size)
    if inside is not None:
        return inside
    start = HEADER * HEADERS
    size = os.path.getsize(path)
    if size < start:
        return None
    held = (size - start) // block_size
    prefix = "" if database is None else f'"{database}".'
    names = _tables(con, database) if tables is None else tables
    last = -1
    if names:  # one statement: a query costs more here than a table's storage info
        used = con.execute("SELECT max(b) FROM (" + " UNION ALL ".join(
            ["SELECT max(block_id) AS b FROM pragma_storage_info(?)"] * len(names)) + ")",
            [prefix + name for name in names]).fetchone()[0]
        last = -1 if used is None else int(used)
    if last < held:
        return None
    missing = f"block {held}" if last == held else f"blocks {held}-{last}"
    return (f"cut short: {size} bytes, {held} blocks, where its rows are in blocks up to "
            f"{last}: {missing} missing")


def _tables(con: Any, database: str | None) -> list[str]:
    """The names of the tables of ``con``'s current database, or of ``database``."""
    name = "current_database()" if database is None else "$1"
    return [r[0] for r in con.execute(
        f"SELECT table_name FROM duckdb_tables() WHERE database_name = {name}",
        [] if database is None else [database]).fetchall()]


def _reads_as_duckdb(path: str, con: Any, block_size: int, database: str | None = None
                     ) -> bool:
    """Whether this module's reading of the file agrees with DuckDB on one block DuckDB has
    checked: the first block holding rows of ``events`` (every ledger's table) passes the
    checksum, or DuckDB fails reading it too (the block is damaged, and so reported). True
    when the file holds no such block yet (nothing to compare: the headers' check stands)."""
    try:
        events = "events" if database is None else f'"{database}".events'
        row = con.execute("SELECT min(block_id) FROM pragma_storage_info(?)"
                          " WHERE block_id >= 0", [events]).fetchone()
    except duckdb.Error:
        return True
    if row is None or row[0] is None:
        return True
    start = HEADER * HEADERS + int(row[0]) * block_size
    try:
        f = reader(path)  # kept open: closing would drop DuckDB's lock (rawfile)
        f.seek(start)
        data = f.read(block_size)
    except OSError:
        return True
    return len(data) < block_size or _sound(data)


def scan_tables(con: Any, database: str | None = None, *, skip: Collection[str] = (),
                tables: list[str] | None = None) -> None:
    """Read every row and column of every table of ``con``'s database, or of ``database``,
    but those in ``skip`` (DuckDB checks each block it reads), in one statement (a query
    costs more here than reading a small table). ``tables``: their names, read already.

    Raises:
        duckdb.Error: what DuckDB met (a failed checksum among them).
    """
    prefix = "" if database is None else f'"{database}".'
    names = [name for name in (_tables(con, database) if tables is None else tables)
             if name not in skip]
    if names:
        con.execute(" UNION ALL ".join(
            f'SELECT count(*), sum(hash(t)) FROM {prefix}"{name}" t' for name in names
        )).fetchall()
