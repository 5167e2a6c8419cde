"""The ledger file read as bytes beside DuckDB's own connection to it, without losing DuckDB's
lock on it.

DuckDB locks the file with POSIX record locks (``fcntl``), and POSIX releases every such lock a
process holds on a file when the process closes *any* descriptor of that file. Reading the
file's blocks with ``open(path)`` then closing it (:mod:`ledger.store.blocks`) therefore let
another process in while this one still wrote: an ``import`` into a ledger with rows, which
proves the chain first (:mod:`ledger.store.proven`), could be read mid-import and written
beside. So the file is opened once per process and ledger file, and closed only once the
connection is closed (:meth:`ledger.store.store.Ledger.close` calls :func:`release`), when
there is no lock left to lose.
"""

from __future__ import annotations

import os
from typing import BinaryIO

#: path -> the file open for reading, kept until :func:`release`.
_OPEN: dict[str, BinaryIO] = {}


def reader(path: str | os.PathLike[str]) -> BinaryIO:
    """The file at ``path`` open for reading (binary, shared by every caller: seek first), the
    one opened before while it is still the same file (its inode), else opened now.

    Raises:
        OSError: the file cannot be opened.
    """
    key = os.fspath(path)
    f = _OPEN.get(key)
    if f is not None:
        try:
            same = os.fstat(f.fileno()).st_ino == os.stat(key).st_ino
        except OSError:
            same = False
        if same:
            return f
        _OPEN.pop(key)  # another file now stands at the path: ours holds no lock of it
        f.close()
    f = open(key, "rb")  # noqa: SIM115 - kept open until release()
    _OPEN[key] = f
    return f


def release(path: str | os.PathLike[str]) -> None:
    """Close the file at ``path`` if :func:`reader` opened it (call once the DuckDB connection
    to it is closed)."""
    f = _OPEN.pop(os.fspath(path), None)
    if f is not None:
        f.close()
