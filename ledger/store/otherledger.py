"""An output that is another ledger's file: what :func:`ledger.store.outputs.not_the_ledger`
refuses beside the ledger of the command's own ``--db``.

Writing an export, a page or a chart over another ledger destroys its hands as surely as over
the command's own, and appending a checkpoint's line to it leaves it not a whole number of
blocks (docs/LEDGER.md "A write is all or nothing"). Such a file is known by what it holds, never by
its name:

* a **DuckDB database**: DuckDB's mark at byte 8 of the file (as every open checks it,
  :func:`ledger.store.ledgerfile.has_magic`), or a ``<file>.wal`` beside such a database (its
  write-ahead log);
* a **checkpoints file** of a ledger: a file named ``.checkpoints`` whose lines read as
  checkpoints (:func:`ledger.store.checkpoint.parse_line`: a record, a chat line or
  ``POS:HASH``). A checkpoint (``appended``) may be appended to one only when every ledger it
  names is the command's own (:func:`ledger.store.checkpoint.ledger_name`, the name each
  checkpoint carries): a file that names none (``POS:HASH`` lines only) is taken as its own.

A file not there is none of them, unless writing it would make it one: ``<b>.wal`` or
``<b>.checkpoints`` beside a DuckDB database ``b``. A directory, a device (``/dev/null``) or one
that cannot be read is none of them (an error writing it is the write's to say).
"""

from __future__ import annotations

import os
import stat

from ledger.model.errors import LedgerError

#: The bytes of a checkpoints file read to know it: its first lines (a record is under 1 KB).
_READ = 64 * 1024


def not_another_ledger(out: str | os.PathLike[str] | None, ledger: str | os.PathLike[str],
                       named: str | None = None, *, appended: bool = False) -> None:
    """Refuse ``out`` (None or ``-``: standard output) when it is a file of another ledger than
    ``ledger`` (module doc); the ledger's own files are :func:`not_the_ledger`'s to name.
    ``named``: how the message names the output (default ``out``); ``appended``: a
    checkpoint's line is appended to ``out``.

    Raises:
        LedgerError: ``-o b.duckdb is another ledger (a DuckDB database): nothing written``,
            ``-o b.duckdb.wal is another ledger's write-ahead log (b.duckdb): nothing
            written``, ``-o b.duckdb.checkpoints is a ledger's checkpoints file (of b):
            nothing written``, or for ``appended`` ``-o b.duckdb.checkpoints holds the
            checkpoints of another ledger (b), not of a: nothing written``; for a file
            not there ``-o b.duckdb.checkpoints would be the checkpoints file of another
            ledger (b.duckdb): nothing written`` (or ``… the write-ahead log …``).
    """
    from ledger.store.outputs import LedgerFiles

    if out is None or os.fspath(out) in ("-", ""):
        return
    if os.fspath(ledger) != ":memory:" and LedgerFiles(ledger).which(out) is not None:
        return
    name = os.fspath(out)
    said = named or name
    if not _regular(out):
        _not_a_ledgers_name(name, said)
        return
    if _duckdb(name):
        raise LedgerError(f"{said} is another ledger (a DuckDB database): nothing written")
    if name.endswith(".wal") and _regular(name[:-4]) and _duckdb(name[:-4]):
        raise LedgerError(f"{said} is another ledger's write-ahead log ({name[:-4]}): "
                          "nothing written")
    if not name.endswith(".checkpoints"):
        return
    names = _checkpoints_of(name)
    if names is None:
        return
    from ledger.store.checkpoint import ledger_name

    if not appended:
        of = f" (of {', '.join(sorted(names))})" if names else ""
        raise LedgerError(f"{said} is a ledger's checkpoints file{of}: nothing written")
    own = ledger_name(os.fspath(ledger))
    if names - {own}:
        raise LedgerError(f"{said} holds the checkpoints of another ledger "
                          f"({', '.join(sorted(names - {own}))}), not of {own}: nothing written")


def _not_a_ledgers_name(name: str, said: str) -> None:
    """Refuse ``name``, a file not there yet, when a write would make it a ledger's
    write-ahead log or checkpoints file: ``<ledger>.wal`` or ``<ledger>.checkpoints`` beside a
    DuckDB database (DuckDB would replay the one when it next opens that ledger, and `verify`
    and `checkpoint` read the other as its checkpoints)."""
    if os.path.lexists(name):
        return
    for suffix, what in ((".wal", "write-ahead log"), (".checkpoints", "checkpoints file")):
        base = name.removesuffix(suffix)
        if base != name and _regular(base) and _duckdb(base):
            raise LedgerError(f"{said} would be the {what} of another ledger ({base}): "
                              "nothing written")


def _regular(path: str | os.PathLike[str]) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _duckdb(path: str) -> bool:
    """Whether the file at ``path`` carries DuckDB's mark (False when it cannot be read)."""
    from ledger.store.ledgerfile import MAGIC, MAGIC_AT

    try:
        with open(path, "rb") as f:
            return f.read(MAGIC_AT + len(MAGIC))[MAGIC_AT:] == MAGIC
    except OSError:
        return False


def _checkpoints_of(path: str) -> set[str] | None:
    """The ledger names the checkpoints at the start of the file at ``path`` carry (``POS:HASH``
    carries none), None when no line there reads as a checkpoint."""
    from ledger.model.errors import MalformedInput
    from ledger.store.checkpoint import parse_line

    try:
        with open(path, "rb") as f:
            data = f.read(_READ)
    except OSError:
        return None
    lines = data.decode("utf-8", errors="replace").splitlines()
    if len(data) == _READ:
        lines = lines[:-1]  # the last may be cut by the read
    names: set[str] | None = None
    for line in lines:
        try:
            point = parse_line(line)
        except MalformedInput:
            continue
        if point is not None:
            names = (names or set()) | ({point.ledger} if point.ledger else set())
    return names
