"""What every hand-history reader gives the import: the :class:`Importer` protocol and its items.

An importer (in the spirit of beangulp's ``Importer``) knows one file format. It says whether a
file is its format (:meth:`Importer.identify`, from the file's first bytes and its path) and
reads the file (:meth:`Importer.read`) into a :class:`FileRead`: the file's items in file
order, each with the source key that makes a re-import add nothing, and one error per part of
the file that could not be read. Items are of three kinds:

* a :class:`~ledger.formats.phh.base.PhhHand`: a hand whose actions are text in PHH notation
  (FORMATS.md §1), for the engine to interpret one by one (PHH files, site text histories);
* a :class:`HandEvents`: a hand read as ready-made events (JSON lines, PokerNow logs);
* a :class:`SessionEntry`: one session event at its place among the hands (table stakes,
  RULES.md §1.1: where a buy-in falls between hands is its place in the ledger).

The import pipeline (``replay.ingest``) checks every hand with the engine, drops what the
ledger already holds and appends the rest; readers never touch the store.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ledger.model.errors import LedgerError, MalformedInput

#: How many bytes of a file an importer sees to identify it.
HEAD_BYTES = 4096
#: The largest file a reader reads (a hand-history file is far smaller: a million events of
#: JSON lines are about 130 MB) and the longest line it reads (an event, a CSV row, a line of
#: a hand: a few kB at most). Anything larger is refused with one line, never read whole.
MAX_FILE_BYTES = 2048 << 20
MAX_LINE_BYTES = 1 << 20


@dataclass(frozen=True)
class HandEvents:
    """One hand read as typed events, ``hand_started`` first, ending with ``hand_ended`` (or a
    void). ``lines``: the file line of each event (for errors); ``line``: where the hand
    starts; ``source_key``: the hand's re-import key."""

    hand_id: str
    events: list[Any]
    lines: list[int]
    line: int
    source_key: str
    session: str | None = None


@dataclass(frozen=True)
class SessionEntry:
    """One session event (``ledger.model.events.SessionEvent``) of session ``session`` at file
    line ``line``. ``legacy_key``: the key under which an earlier version of handledger stored
    this entry's whole session stream at once; when the ledger holds it (or it with ``:0``),
    the entry is not appended again. ``seq``: its number in the file's session stream, when
    the file numbers them (JSON lines)."""

    session: str
    event: Any
    line: int
    source_key: str
    legacy_key: str | None = None
    seq: int | None = None


@dataclass
class FileRead:
    """One file as read: ``items`` in file order, ``errors`` one per unreadable part (naming
    file, line and hand). ``session``: the session the file itself makes (a PokerNow game),
    None when it makes none. ``first_hand_key``: the source key of its first hand, by which a
    game already imported under another session name is recognised."""

    file: str
    items: list[Any] = field(default_factory=list)
    errors: list[LedgerError] = field(default_factory=list)
    session: str | None = None
    first_hand_key: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Importer(Protocol):
    """One file format's reader, as the import pipeline asks it.

    ``name``: a short word for the format (``"phh"``, ``"jsonl"``, …), used in messages.
    ``describes``: what the format is, for a message naming the formats handledger reads.
    """

    name: str
    describes: str

    def identify(self, path: Path, head: bytes) -> bool:
        """Whether ``path`` (whose first :data:`HEAD_BYTES` bytes are ``head``) is this
        format. Must not read the file further or raise."""
        ...

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """Read the file; ``session``: the session its hands go to (``--session``), None for
        the file's own. Bad content goes to ``FileRead.errors``, never raised.

        Raises:
            OSError: the file cannot be read.
        """
        ...


def read_head(path: Path) -> bytes:
    """The first :data:`HEAD_BYTES` bytes of ``path`` (b"" when it cannot be read, or is not
    a regular file: a pipe would block and a device never end)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return b""
        with path.open("rb") as f:
            return f.read(HEAD_BYTES)
    except OSError:
        return b""


def file_name(path: str | os.PathLike[str]) -> str:
    """``path`` as text that is always UTF-8, for messages and for what an event records: a
    byte of a file name that is not UTF-8 (which Python keeps as a lone surrogate) is written
    ``\\xNN``."""
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", "backslashreplace")
    return text


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a pipe"),
          (stat.S_ISSOCK, "a socket"))


def check_file(path: str | os.PathLike[str]) -> int:
    """The size in bytes of ``path``, a regular file (a symbolic link is followed) of at
    most :data:`MAX_FILE_BYTES`.

    Raises:
        MalformedInput: not a regular file (a device, a pipe, …), or larger than the cap
            (``FILE: larger than 2048 MB, the most handledger reads``).
        OSError: it cannot be looked at.
    """
    info = os.stat(path)
    name = file_name(path)
    if not stat.S_ISREG(info.st_mode):
        kind = next((k for test, k in _KINDS if test(info.st_mode)), "not a file")
        raise MalformedInput(f"not a regular file ({kind}): handledger reads files",
                             file=name)
    if info.st_size > MAX_FILE_BYTES:
        raise MalformedInput(f"larger than {MAX_FILE_BYTES >> 20} MB, the most handledger "
                             "reads", file=name)
    return info.st_size


def read_capped(path: str | os.PathLike[str]) -> bytes:
    """The whole content of the regular file ``path`` (:func:`check_file`), never more than
    :data:`MAX_FILE_BYTES` bytes even when it grows while read.

    Raises:
        MalformedInput: see :func:`check_file`; OSError: it cannot be read.
    """
    check_file(path)
    with open(path, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise MalformedInput(f"larger than {MAX_FILE_BYTES >> 20} MB, the most handledger "
                             "reads", file=file_name(path))
    return data


def read_text(path: str | os.PathLike[str], *, name: str | None = None) -> str:
    """The UTF-8 text of the regular file ``path`` (a byte-order mark dropped), checked
    against the caps (:func:`read_capped`, :data:`MAX_LINE_BYTES`). ``name``: the file as
    errors name it (default :func:`file_name` of ``path``).

    Raises:
        MalformedInput: not a regular file, too large, a line too long, or not UTF-8 (naming
            the line and the byte).
        OSError: it cannot be read.
    """
    data = read_capped(path)
    name = file_name(path) if name is None else name
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MalformedInput(f"not UTF-8 ({exc.reason}: byte {column} of the line is "
                             f"0x{data[exc.start]:02x})", file=name, line=line) from None
    too_long = long_line(text)
    if too_long is not None:
        raise line_error(name, too_long)
    return text


def long_line(data: bytes | str, limit: int | None = None) -> int | None:
    """The number (1-based) of the first line of ``data`` longer than ``limit`` bytes
    (default :data:`MAX_LINE_BYTES`; of text, characters), None when there is none."""
    limit = MAX_LINE_BYTES if limit is None else limit
    if len(data) <= limit:
        return None
    newline = b"\n" if isinstance(data, bytes) else "\n"
    start = number = 0
    while True:
        number += 1
        end = data.find(newline, start)  # type: ignore[arg-type]
        if (len(data) if end < 0 else end) - start > limit:
            return number
        if end < 0:
            return None
        start = end + 1


def line_error(file: str | os.PathLike[str], line: int) -> MalformedInput:
    """The error for a line longer than :data:`MAX_LINE_BYTES` (see :func:`long_line`)."""
    return MalformedInput(f"a line longer than {MAX_LINE_BYTES >> 20} MB, the most handledger "
                          "reads in one line", file=file_name(file), line=line)


def csv_error(file: str, line: int, exc: Exception) -> MalformedInput:
    """A CSV reader's error (``csv.Error``: a field over its size limit, a NUL byte, …) as
    one located error."""
    return MalformedInput(f"not readable as CSV ({exc})", file=file, line=line)


def first_line(head: bytes) -> bytes:
    """The first line of ``head``, byte-order mark and surrounding white space removed."""
    return head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip()


def with_session(events: Sequence[Any], session: str | None) -> list[Any]:
    """A hand's events with ``hand_started.session`` set to ``session`` (unchanged if None)."""
    if session is None or events[0].session == session:
        return list(events)
    return [events[0].model_copy(update={"session": session}), *events[1:]]


def hands_in_session(hands: Sequence[Any], session: str | None) -> list[Any]:
    """Text hands (:class:`~ledger.formats.phh.base.PhhHand`) whose ``hand_started`` is in
    ``session`` (unchanged if None)."""
    import dataclasses

    if session is None:
        return list(hands)
    return [dataclasses.replace(h, started=h.started.model_copy(update={"session": session}))
            for h in hands]
