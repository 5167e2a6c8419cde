"""What every read and write checks of a ledger file before it reads or writes, as cheaply as
a live ``state`` or ``act`` at the table must be: that the file does not end inside a block.
It imports neither numpy nor the ``duckdb`` package (a live command loads DuckDB's compiled
module alone: :mod:`ledger.store.duck`);
the checksums of every block are :mod:`ledger.store.blocks`', which ``verify`` and the writes
that vouch for the rows run.
"""

from __future__ import annotations

import os
import re
import struct
from typing import Any

from ledger.model.errors import LedgerCorrupt

HEADER = 4096  #: bytes of each of the DuckDB file's three headers
HEADERS = 3


def check_sound(path: str, con: Any, database: str | None = None, *,
                block_size: int | None = None) -> None:
    """What every read and write checks of the ledger file at ``path`` first (the store's
    open, :class:`ledger.store.store.Ledger`): that the file does not end inside a
    block (:func:`ends_inside_block`), which a file cut short or written past its end, at a byte
    DuckDB never ends on, does. It costs one ``stat`` and one query, whatever the size of the
    file (one ``stat`` alone given ``block_size``): a read of a large ledger (``state`` at the
    table, ``audit`` of fresh books) must not pay for reading the file. A block failing its
    checksum is met by the read that reads it (DuckDB checks each block it reads) and by
    ``verify``, ``checkpoint``, ``session close``, ``export`` and a saving ``replay`` or
    ``run``, which check every block first
    (:func:`ledger.store.blocks.check_blocks`).
    ``database``: the name ``con`` knows the file by (default: its current database).
    ``block_size``: the file's, when the caller has read it (then no query is made). Every
    write checks the same (:class:`ledger.store.store.Ledger`): DuckDB's checkpoint after a
    write would cut bytes written past the end away, a repair nobody asked for.

    Raises:
        LedgerCorrupt: the file ends inside a block.
        duckdb.Error: DuckDB cannot say the block size (the caller translates it).
    """
    if path == ":memory:":
        return
    if block_size is None:
        block_size = _block_size(con, database)
    try:
        short = ends_inside_block(path, block_size)
    except OSError as e:
        raise LedgerCorrupt(f"ledger {path} cannot be read: {e}") from e
    if short is not None:
        raise LedgerCorrupt(f"ledger {path} is corrupt: {short}")


def _block_size(con: Any, database: str | None) -> int:
    """The block size of the file ``con`` knows as ``database`` (default: its current one)."""
    name = "current_database()" if database is None else "$1"
    return int(con.execute("SELECT block_size FROM pragma_database_size()"
                           f" WHERE database_name = {name}",
                           [] if database is None else [database]).fetchone()[0])


def ends_inside_block(path: str | os.PathLike[str], block_size: int) -> str | None:
    """``not a whole number of blocks: …`` when the file at ``path`` ends inside a block,
    else None: DuckDB writes its three headers, then whole blocks of ``block_size`` bytes, so
    such a file was cut short or written past its end (bytes appended by another program):
    its size alone cannot say which. Not so with a write-ahead log beside it (``<path>.wal``,
    not empty): a checkpoint that was writing the log's rows into the file was cut short (a
    full disk, ``kill -9``), the file's header still names the blocks before it, and DuckDB's
    next open replays the log (its next checkpoint writes the file whole again): left to
    DuckDB, as the blocks the tables' rows are in are to ``verify``."""
    size = os.path.getsize(path)
    start = HEADER * HEADERS
    if size < start:
        return None  # not the layout this reading expects: left to DuckDB
    held, part = divmod(size - start, block_size)
    if part and _logged(path):
        return None  # a checkpoint cut short (a full disk, a kill): DuckDB replays its log
    if part:
        return (f"not a whole number of blocks: {size} bytes, {held} blocks and {part} bytes "
                f"(blocks of {block_size} bytes after {start} bytes of headers): cut short or "
                "written past its end")
    return None


def _logged(path: str | os.PathLike[str]) -> bool:
    """Whether DuckDB's write-ahead log of the file at ``path`` is there and holds bytes."""
    try:
        return os.path.getsize(f"{os.fspath(path)}.wal") > 0
    except OSError:
        return False


_MULTIPLIER = 0xBF58476D1CE4E5B9
_SEED = 5381
_MASK = (1 << 64) - 1


def _sound(data: bytes) -> bool:
    """Whether the header ``data`` holds in its first 8 bytes DuckDB's checksum of the rest
    (:func:`ledger.store.blocks.checksum`, here without numpy: 511 words)."""
    total = 0
    for (word,) in struct.iter_unpack("<Q", data[8:]):
        total ^= (word * _MULTIPLIER) & _MASK
    return int.from_bytes(data[:8], "little") == total ^ _SEED


def header_block_size(path: str | os.PathLike[str]) -> int | None:
    """The block size DuckDB's file at ``path`` records in its newer sound database header
    (headers 1 and 2: checksum, iteration, meta block, free list, block count, then the block
    size, each 8 bytes little-endian), read without DuckDB: a file DuckDB cannot open (cut
    short) still says it. None when no such header checks out or it records no usable size.

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        headers = f.read(HEADER * HEADERS)
    if len(headers) < HEADER * HEADERS or headers[8:12] != b"DUCK":
        return None
    best: tuple[int, int] | None = None
    for h in (1, 2):
        data = headers[h * HEADER:(h + 1) * HEADER]
        if not _sound(data):
            continue
        iteration = int.from_bytes(data[8:16], "little")
        size = int.from_bytes(data[40:48], "little")
        if best is None or iteration > best[0]:
            best = (iteration, size)
    if best is None or best[1] <= 8 or best[1] % 8:
        return None
    return best[1]


DEFAULT_BLOCK_SIZE = 262144  #: DuckDB's block size, when the file's headers do not say one

_READ = re.compile(r"attempted to read (\d+) bytes from location (\d+)")


def cut_before_open(path: str | os.PathLike[str], text: str = "") -> str | None:
    """What a file DuckDB cannot read whole (``text``, its ``IO Error: Could not read enough
    bytes … attempted to read N bytes from location L``) lacks, naming the cut: its size,
    where it ends (inside which header, after which block) and what is missing (FORMATS.md
    has no section on DuckDB's layout: the module doc of :mod:`ledger.store.blocks` says
    it). A file that ends inside a block: :func:`ends_inside_block`'s ``not a whole number of
    blocks: …`` with the block size its header records (:func:`header_block_size`);
    otherwise ``cut short: …``. None when the file is as long as DuckDB's read needs (not
    cut: DuckDB's text stands).

    Raises:
        OSError: the file cannot be read.
    """
    size = os.path.getsize(path)
    start = HEADER * HEADERS
    if size < start:
        return _inside_headers(size)
    block_size = header_block_size(path)
    if block_size is not None:
        inside = ends_inside_block(path, block_size)
        if inside is not None:
            return inside
    read = _READ.search(text)
    wanted = int(read.group(1)) if read else 0
    at = int(read.group(2)) if read else size
    if block_size is None:
        block_size = wanted if at >= start and wanted > 8 and wanted % 8 == 0 \
            else DEFAULT_BLOCK_SIZE
    if at + wanted <= size and read:
        return None
    held = (size - start) // block_size
    whole = "no block" if held == 0 else (
        "block 0" if held == 1 else f"blocks 0-{held - 1}")
    block = max((at - start) // block_size, held)
    missing = (f"block {held} and every block after it" if block == held else
               f"blocks {held}-{block} and every block after them")
    return (f"cut short: {size} bytes, its {HEADERS} headers of {HEADER} bytes and {whole} "
            f"of {block_size} bytes, where DuckDB reads block {block} (bytes "
            f"{start + block * block_size}-{start + (block + 1) * block_size - 1}): "
            f"{missing} missing")


def _inside_headers(size: int) -> str:
    """``cut short: …`` of a file of ``size`` bytes, fewer than its three headers'."""
    header, part = divmod(size, HEADER)
    where = (f"inside header {header} (bytes {header * HEADER}-{(header + 1) * HEADER - 1})"
             if part else f"after header {header - 1}" if header else "with no byte")
    after = header + 1 if part else header
    rest = ([f"the rest of header {header}"] if part else []) + (
        [] if after >= HEADERS else [f"header {after}"] if after == HEADERS - 1
        else [f"headers {after}-{HEADERS - 1}"])
    return (f"cut short: {size} bytes, where DuckDB's file starts with {HEADERS} headers of "
            f"{HEADER} bytes: it ends {where}; {', '.join(rest)} and every block missing")
