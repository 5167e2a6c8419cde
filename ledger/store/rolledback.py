"""The check every append makes of the ledger's own checkpoints file before it writes: the
ledger still extends the file's last checkpoint (docs/LEDGER.md "Anchoring it").

A ledger file rolled back behind its checkpoints file (an older copy put back beside the
file kept) would take every later write on a fork that the group's checkpoints can never
match again, and lose the rows the copy lacks without a word. ``checkpoint`` and ``session
close`` already refuse to append to such a file (:meth:`ledger.store.sidecar.FileState.refusal`);
every write refuses in the same words, before anything is written. Cheaply: only the file's
last checkpoint is read (from its end) and looked up at its position, one query; a ledger
whose chain is intact and extends its last checkpoint extends every earlier one. A ledger
with no checkpoints file, or an in-memory one, is not checked; nor is a file whose lines
hold no checkpoint (``checkpoint`` and ``verify`` name it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.shell import shell_arg

if TYPE_CHECKING:
    from ledger.store.checkpoint import Checkpoint

_CHUNK = 64 * 1024


def default_file(ledger_path: str) -> Path | None:
    """``<ledger file>.checkpoints``, the ledger's own checkpoints file; None for an in-memory
    ledger. Here, not in :mod:`ledger.store.checkpoint` (which gives it too), so that every
    append looks for the file without loading that module."""
    return None if ledger_path == ":memory:" else Path(f"{ledger_path}.checkpoints")


def check_not_rolled_back(ledger_path: str, end: int, hash_at: Callable[[int], str | None],
                          refused: str = "nothing written") -> None:
    """Refuse a write to the ledger file ``ledger_path`` whose last stored row is at position
    ``end`` when its checkpoints file's last checkpoint is one the ledger does not extend.
    ``hash_at``: the stored hash of the row at a position (None: no row there); ``refused``:
    what is not done, said in the error.

    Raises:
        LedgerError: ``error: f.duckdb.checkpoints:2: this ledger does not extend the
            checkpoint of position 4 (row 4 hashes cf85…, not 03e5…): nothing written; run
            `handledger verify --against f.duckdb.checkpoints``` (the file and line named).
    """
    path = default_file(ledger_path)
    if path is None:
        return
    found = _last_checkpoint(path)
    if found is None:
        return
    offset, point = found
    stored = hash_at(point.position)
    if stored is not None and stored.startswith(point.hash):
        return
    why = (f"the ledger ends at position {end}, before {point.position}" if stored is None
           else f"row {point.position} hashes {stored[:16]}…, not {point.hash[:16]}…")
    raise LedgerError(f"this ledger does not extend the checkpoint of position "
                      f"{point.position} ({why}): {refused}; run `handledger verify "
                      "--against "
                      f"{shell_arg(path)}`", file=str(path), line=_line_number(path, offset))


def _last_checkpoint(path: Path) -> tuple[int, Checkpoint] | None:
    """``(byte offset of its line, checkpoint)`` of the last line of ``path`` holding a whole
    checkpoint, read from the file's end; damaged lines and the lines around are passed over;
    None when there is none or the file cannot be read (its readers name that)."""
    try:
        if not path.is_file():  # the usual case: the checkpoint module is not loaded
            return None
        from ledger.store.checkpoint import parse_line

        with path.open("rb") as file:
            size = file.seek(0, 2)
            tail, start = b"", size
            while start > 0:
                step = min(_CHUNK, start)
                start -= step
                file.seek(start)
                tail = file.read(step) + tail
                lines = tail.split(b"\n")
                complete = lines if start == 0 else lines[1:]  # the first may be cut
                at = start + (0 if start == 0 else len(lines[0]) + 1)
                offsets = []
                for raw in complete:
                    offsets.append(at)
                    at += len(raw) + 1
                for raw, where in zip(reversed(complete), reversed(offsets), strict=True):
                    try:
                        point = parse_line(raw.decode("utf-8-sig"))
                    except (UnicodeDecodeError, MalformedInput):
                        continue
                    if point is not None:
                        return where, point
                tail = lines[0] if start > 0 else b""
    except OSError:
        return None
    return None


def _line_number(path: Path, offset: int) -> int | None:
    """The line number (from 1) of the line starting at byte ``offset`` of ``path``: read only
    for the refusal."""
    try:
        with path.open("rb") as file:
            return file.read(offset).count(b"\n") + 1
    except OSError:
        return None
