"""Ledgers built once for a test module by the commands a host types, stdin included (a
``handledger table`` step), and copied for each test (:func:`tests.copies.copy_ledger`): a
test changes only its own copy, and the commands that built the ledger run once, not once a
test."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from tests.console_run import handledger
from tests.copies import copy_ledger

#: One command: the words a host types after ``handledger --db DB``, and its stdin (or None).
Step = tuple[Sequence[str], str | None]


def command(db: Path, args: Sequence[str], stdin: str | None = None) -> tuple[int, str, str]:
    """``(status, stdout, stderr)`` of ``handledger --db DB ARGS`` run as the console script
    runs it (:func:`tests.console_run.handledger`)."""
    return handledger(db, *args, input=stdin)


def build(db: Path, steps: Iterable[Step], *, quiet: bool = False) -> Path:
    """Run each ``(args, stdin)`` of ``steps`` on the ledger ``db`` in order, each asserted to
    exit 0 (and, ``quiet``, to write nothing on stderr: no warning); returns ``db``."""
    for args, stdin in steps:
        code, out, err = command(db, args, stdin)
        assert (code, err if quiet else "") == (0, ""), (args, out, err)
    return db


def extend(source: Path, db: Path, steps: Iterable[Step], *, quiet: bool = False) -> Path:
    """A copy of the ledger ``source`` at ``db`` with ``steps`` run on it (:func:`build`);
    returns ``db``."""
    return build(copy_ledger(source, db), steps, quiet=quiet)


def table(hand: str, lines: Iterable[str]) -> Step:
    """The step ``handledger table HAND`` reading ``lines`` from stdin, one a line."""
    return ("table", hand), "".join(f"{x}\n" for x in lines)


def snapshot(db: Path) -> tuple[bytes, bytes | None]:
    """The bytes of the ledger file ``db`` and of its write-ahead log (None: none). Equal
    before and after a command, the command wrote nothing: not a row, not a byte (a
    stricter check than comparing the stored rows, and no connection to open)."""
    wal = Path(f"{db}.wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else None
