"""The one check every file a command writes passes first: it is not the ledger file itself,
nor its write-ahead log (``<file>.wal``), nor, for a file written whole, its checkpoints
file (``<file>.checkpoints``, the record a checkpoint appends to), however the path names it
(``./l.duckdb``, an absolute path, a symbolic link, a hard link). Writing an export, a page
or a chart there would destroy every hand, and appending a checkpoint line would leave the
file cut short (docs/LEDGER.md "A write is all or nothing"; nothing is ever rewritten). A folder a
command makes (``demo-series OUT``, ``key new --keys DIR``) passes it too (a folder made at
the write-ahead log's name leaves the ledger unopenable), and one it replaces whole
(``dask-replay``'s table folders) may not hold any of them either.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from ledger.model.errors import LedgerError


class LedgerFiles:
    """The ledger file at ``ledger`` and its write-ahead log, as every name of them is
    recognised: their real paths (symbolic links followed, also of a file not there yet, as
    a write would make it) and, for those there, their inode (a hard link)."""

    def __init__(self, ledger: str | os.PathLike[str]) -> None:
        path = os.fspath(ledger)
        real = os.path.realpath(path)
        # DuckDB names the log after the path as opened (a link's name, not its target's)
        self.wal = {os.path.realpath(f"{path}.wal"), f"{real}.wal"}
        self.file = {real}
        self.checkpoints = {os.path.realpath(f"{path}.checkpoints"), f"{real}.checkpoints"}
        self._inodes: dict[tuple[int, int], str] = {}
        for name, kind in ((path, "file"), (f"{path}.wal", "wal"), (f"{real}.wal", "wal"),
                           (f"{path}.checkpoints", "checkpoints"),
                           (f"{real}.checkpoints", "checkpoints")):
            try:
                st = os.stat(name)
            except OSError:
                continue
            self._inodes[(st.st_dev, st.st_ino)] = kind

    def which(self, out: str | os.PathLike[str]) -> str | None:
        """``"file"`` when writing ``out`` would write the ledger file, ``"wal"`` its
        write-ahead log, ``"checkpoints"`` its checkpoints file, None otherwise (a missing
        file, ``-`` … ; an OSError resolving it is left to the write, which says it)."""
        name = os.fspath(out)
        real = os.path.realpath(name)
        if real in self.file:
            return "file"
        if real in self.wal:
            return "wal"
        if real in self.checkpoints:
            return "checkpoints"
        try:
            st = os.stat(name)
        except OSError:
            return None
        return self._inodes.get((st.st_dev, st.st_ino))

    def within(self, folder: str | os.PathLike[str]) -> str | None:
        """As :meth:`which` for a folder that would be removed with all it holds: the kind
        of the first of the ledger's files that ``folder`` holds, at any depth (by their real
        paths: a folder reached through a symbolic link too); None when it holds none."""
        real = os.path.realpath(os.fspath(folder))
        inside = real.rstrip(os.sep) + os.sep
        for kind, names in (("file", self.file), ("wal", self.wal),
                            ("checkpoints", self.checkpoints)):
            if any(name.startswith(inside) for name in names):
                return kind
        return None


#: What each of the ledger's files is called in a refusal.
_IS = {"file": "the ledger itself", "wal": "the ledger's write-ahead log",
       "checkpoints": "the ledger's checkpoints file"}
_HOLDS = {"file": "the ledger file", "wal": "the ledger's write-ahead log",
          "checkpoints": "the ledger's checkpoints file"}


def not_the_ledger(out: str | os.PathLike[str] | None, ledger: str | os.PathLike[str],
                   named: str | None = None, *, appended: bool = False) -> None:
    """Refuse, before anything is written, a file to write (``out``; None or ``-``: standard
    output) that is the ledger at ``ledger`` or its write-ahead log, or, unless ``appended``
    (a checkpoint's line, which the checkpoints file is for), its checkpoints file. ``named``:
    how the message names the output, as the user gave it (``-o l.duckdb``; default ``out``).
    Nor is it another ledger's file (:func:`ledger.store.otherledger.not_another_ledger`).

    Raises:
        LedgerError: ``-o l.duckdb is the ledger itself: nothing written`` (or ``-o
            l.duckdb.wal is the ledger's write-ahead log: nothing written``; ``-o b.duckdb
            is another ledger (a DuckDB database): nothing written``).
    """
    from ledger.store.otherledger import not_another_ledger

    not_another_ledger(out, ledger, named, appended=appended)
    if out is None or os.fspath(out) == "-" or os.fspath(ledger) == ":memory:":
        return
    said = named or os.fspath(out)
    kind = LedgerFiles(ledger).which(out)
    if kind is not None and not (kind == "checkpoints" and appended):
        raise LedgerError(f"{said} is {_IS[kind]}: nothing written")


def none_is_the_ledger(outs: Iterable[Path], ledger: str | os.PathLike[str], what: str
                       ) -> None:
    """:func:`not_the_ledger` for every file a command would write (``outs``, a report's
    pages), the first that is the ledger or another ledger's file
    (:func:`ledger.store.otherledger.not_another_ledger`: an existing file is known by what
    it holds) named, with ``what`` (``report site``) before it.

    Raises:
        LedgerError: ``report site: site/index.html is the ledger itself: nothing written``,
            ``report site: site/index.html is another ledger (a DuckDB database): nothing
            written``.
    """
    from ledger.store.otherledger import not_another_ledger

    files = None if os.fspath(ledger) == ":memory:" else LedgerFiles(ledger)
    for out in outs:
        if files is not None and files.which(out) is not None:
            not_the_ledger(out, ledger, f"{what}: {out}")
        not_another_ledger(out, ledger, f"{what}: {out}")


def no_folder_holds_the_ledger(folders: Iterable[str | os.PathLike[str]],
                               ledger: str | os.PathLike[str], what: str) -> None:
    """Refuse, before anything is written or removed, folders a command replaces whole
    (removes with everything in them, then writes anew: ``dask-replay``'s table folders)
    when one of them is (by any name, a hard link too), or holds at any depth, the ledger at
    ``ledger``, its write-ahead log or its checkpoints file (:meth:`LedgerFiles.within`);
    ``what`` (``dask-replay out``) comes first in the message.

    Raises:
        LedgerError: ``dask-replay out: out/hands holds the ledger file (a folder the
            command replaces whole): nothing written``.
    """
    if os.fspath(ledger) == ":memory:":
        return
    files = LedgerFiles(ledger)
    for folder in folders:
        kind = files.which(folder)
        if kind is not None:
            raise LedgerError(f"{what}: {os.fspath(folder)} is {_IS[kind]}: nothing written")
        kind = files.within(folder)
        if kind is not None:
            raise LedgerError(f"{what}: {os.fspath(folder)} holds {_HOLDS[kind]} (a folder the "
                              "command replaces whole): nothing written")


def no_folder_made_is_the_ledger(folder: str | os.PathLike[str], ledger: str | os.PathLike[str],
                                 what: str, named: str | None = None) -> None:
    """Refuse, before anything is made, a folder a command makes (``folder``, with every
    folder above it not there yet, which it makes too) that is the ledger at ``ledger``, its
    write-ahead log or its checkpoints file by any path or link (:meth:`LedgerFiles.which`):
    a folder at the write-ahead log's name leaves the ledger unopenable (DuckDB reads it as
    the log). ``named``: how the message names ``folder`` (default ``folder``); a folder
    above it is named after ``what`` (``demo-series l.duckdb.wal/x``).

    Raises:
        LedgerError: ``l.duckdb.wal is the ledger's write-ahead log: nothing written``, or
            ``demo-series l.duckdb.wal/x: l.duckdb.wal is the ledger's write-ahead log:
            nothing written``.
    """
    if os.fspath(ledger) == ":memory:":
        return
    not_the_ledger(folder, ledger, named)
    files = LedgerFiles(ledger)
    for above in Path(folder).parents:
        if os.path.isdir(above):
            return  # there already: neither made nor the ledger
        kind = files.which(above)
        if kind is not None:
            raise LedgerError(f"{what}: {above} is {_IS[kind]}: nothing written")


def write_whole(path: str | os.PathLike[str], fill: Callable[[BinaryIO], None]) -> None:
    """Write the file ``path`` whole or not at all: ``fill`` writes its bytes into a
    temporary file beside it, renamed over it once complete (README "A write is all or
    nothing"), so a write that fails part-way (a full disk) leaves no half-written file and
    an old one as it was. A ``path`` that exists and is no regular file (``/dev/stdout``, a
    pipe) is written as it is: renaming over it would replace the device, not write to it.

    Raises:
        OSError: the file cannot be written (its folder missing or read-only, a file the
            system refuses): nothing left behind.
    """
    name = os.fspath(path)
    try:
        special = not stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        special = False  # not there yet (or not to be looked at): the folder decides
    if special:
        with open(name, "wb") as f:
            fill(f)
        return
    real = os.path.realpath(name)
    folder = os.path.dirname(real)
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(real)}.",
                                   suffix=".tmp")
    except FileNotFoundError as exc:  # a folder there that makes no file (/proc)
        if not os.path.isdir(folder):
            raise
        raise OSError(exc.errno, f"no file can be made in {folder}", name) from None
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # as an ordinary new file (mkstemp makes it 0600)
        with os.fdopen(fd, "wb") as f:
            fill(f)
        os.replace(tmp, real)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
