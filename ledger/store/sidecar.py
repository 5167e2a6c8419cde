"""A checkpoints file as the writes that append to it read it: which of its checkpoints the
ledger extends, the first it does not, and a damaged line (docs/LEDGER.md "Anchoring it").

``checkpoint`` and ``session close`` append a record only to a file whose checkpoints the
ledger extends: a new record after one the ledger parts from would anchor the parted ledger
beside the record that betrays it, and a record appended after a damaged last line (a write
cut short: no final newline) would be glued to it and lost. ``verify``, ``session list`` and
``session close`` read the ledger's own file to tell a close whose checkpoint was never
written from one whose checkpoint the ledger no longer extends (rewritten) and from a ledger
copied without its file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from ledger.store.checkpoint import Damaged, last_row, parse_lines


@dataclass(frozen=True)
class FileState:
    """A checkpoints file against a ledger. ``exists``: there is something by that name;
    ``read``: it is a regular file and was read (a device such as ``/dev/null`` is not);
    ``extended``: positions of its whole-hash records the ledger extends; ``parted``: ``(line,
    position, why)`` of the first checkpoint (in file order) the ledger does not extend;
    ``damaged``: the first damaged line; ``unterminated``: its last line ends without a
    newline (an append would be glued to it); ``checkpoints``: how many of its lines hold one
    (none beside a damaged line: another file under that name, never a write cut short)."""

    path: Path
    exists: bool
    read: bool = False
    extended: frozenset[int] = field(default_factory=frozenset)
    parted: tuple[int, int, str] | None = None
    damaged: Damaged | None = None
    unterminated: int | None = None
    checkpoints: int = 0

    def refusal(self, what: str) -> LedgerError | None:
        """The error an append to this file is refused with (``what``: what is not done,
        as ``no checkpoint appended``), None when it may be appended to."""
        against = f"`handledger verify --against {shell_arg(self.path)}`"
        if self.parted is not None:
            line, position, why = self.parted
            return LedgerError(f"this ledger does not extend the checkpoint of position "
                               f"{position} ({why}): {what}; run {against}",
                               file=str(self.path), line=line)
        if self.damaged is not None and not self.checkpoints:
            return LedgerError(f"holds no checkpoint, so it is no checkpoints file (its line "
                               f"{self.damaged.line}: {self.damaged.why}): {what}; move it "
                               "away, then try again", file=str(self.path))
        if self.damaged is not None:
            todo = (f"keep a copy of the file, remove that line ({against} checks the others), "
                    "then try again") if self.damaged.last else f"run {against}"
            return LedgerError(f"{self.damaged.said()}: {what}; {todo}", file=str(self.path),
                               line=self.damaged.line)
        if self.unterminated is not None:
            return LedgerError(f"the file's last line ends without a newline (a write cut "
                               f"short?): {what}; end it with a newline, then try again",
                               file=str(self.path), line=self.unterminated)
        return None


def file_state(ledger: Any, path: Path) -> FileState:
    """``path`` (a checkpoints file) read against ``ledger`` (:class:`FileState`); one that is
    missing or no regular file is not read.

    Raises:
        LedgerError: the file cannot be read, or the ledger cannot be.
    """
    if not path.is_file():
        return FileState(path, path.exists())
    try:
        data = path.read_bytes()
    except OSError as e:
        raise LedgerError(f"cannot read the checkpoints file {path}: {e.strerror or e}") from e
    data = data.removeprefix(b"\xef\xbb\xbf")
    lines = data.split(b"\n")
    unterminated = len(lines) if lines[-1] else None
    if not lines[-1]:
        lines.pop()
    points, damaged = parse_lines(lines)
    rows = dict(ledger.query(
        "SELECT position, hash FROM events WHERE position IN (SELECT unnest($1::BIGINT[]))",
        [sorted({p.position for _, p in points})])) if points else {}
    end = last_row(ledger)[0] if points else 0
    extended, parted = set(), None
    for number, point in points:
        stored = rows.get(point.position)
        if stored is not None and stored.startswith(point.hash):
            if len(point.hash) == 64:
                extended.add(point.position)
        elif parted is None:
            parted = (number, point.position, (
                f"the ledger ends at position {end}, before {point.position}" if stored is None
                else f"row {point.position} hashes {stored[:16]}…, not {point.hash[:16]}…"))
    first = None
    if damaged:
        line, why = damaged[0]
        first = Damaged(line, why, not any(n > line for n, _ in points))
    return FileState(path, True, True, frozenset(extended), parted, first, unterminated,
                     len(points))


@dataclass(frozen=True)
class Closes:
    """The ``session close`` rows typed into a ledger whose checkpoint its own checkpoints
    file lacks (``missing``: ``(session, seq, position)``), and that file (``file``, None for
    an in-memory ledger). ``why`` words why they are missing: ``parted`` (the file holds a
    checkpoint the ledger does not extend: a rewrite, never a checkpoint to take again),
    ``damaged`` (a damaged line, perhaps the close's own record cut short), ``no file`` (a
    ledger copied without its file, or a first close stopped before writing it) or
    ``stopped`` (a close stopped between its commit and its record)."""

    missing: list[tuple[str, int, int]]
    file: FileState | None

    @property
    def why(self) -> str | None:
        if not self.missing or self.file is None:
            return None
        if self.file.parted is not None:
            return "parted"
        if self.file.damaged is not None:
            return "damaged"
        return "stopped" if self.file.exists else "no file"


def unanchored_closes(ledger: Any, ledger_path: str | None = None,
                      session: str | None = None) -> Closes:
    """Every ``session close`` typed into ``ledger`` (a ``session_closed`` row of no imported
    file: its ``source_key`` is null) whose checkpoint the ledger's checkpoints file lacks (no
    record of its position with its row's hash): the close commits its row, then appends the
    checkpoint of that head, so a close stopped between the two (killed) left none (README
    "Anchoring it"); ``session close`` again takes it (:func:`ledger.store.checkpoint.take`
    with ``upto``) unless the file holds a checkpoint the ledger does not extend or a damaged
    line (:class:`Closes`). An imported close took none, and an in-memory ledger has no file:
    neither is named. ``ledger_path``: the file whose checkpoints are meant (default the
    ledger's own path); ``session``: that session's close only.

    Raises:
        LedgerError: the ledger or its checkpoints file cannot be read.
    """
    from ledger.store.checkpoint import default_file

    path = default_file(ledger_path or ledger.path)
    if path is None:
        return Closes([], None)
    rows = ledger.query(
        "SELECT session, seq, position FROM events WHERE type = 'session_closed' AND "
        "source_key IS NULL AND ($1 IS NULL OR stream = 'session:' || $1) ORDER BY position",
        [session])
    if not rows:
        return Closes([], None)
    state = file_state(ledger, path)
    return Closes([(name, seq, position) for name, seq, position in rows
                   if position not in state.extended], state)
