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

import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from engine.games import UnknownGame, game
from ledger.model.errors import LedgerError

#: How many bytes of a file an importer sees to identify it.
HEAD_BYTES = 4096


@dataclass(frozen=True)
class HandEvents:
    """One hand read as typed events, ``hand_started`` first, ending with ``hand_ended`` (or a
    void), unless ``in_play``: the file proves the hand was still being played when it was
    written (an export's closing line, :mod:`ledger.formats.jsonl.lines`), and it must not
    have ended. ``lines``: the file line of each event (for errors); ``line``: where the hand
    starts; ``source_key``: the hand's re-import key."""

    hand_id: str
    events: list[Any]
    lines: list[int]
    line: int
    source_key: str
    session: str | None = None
    in_play: bool = False
    #: ``(source key, events)`` of the hand as an earlier version of handledger read it, when
    #: it reads otherwise now (a JSON-lines stud ``hand_started`` without its odd-chip order
    #: was read as ``left_of_button``: :func:`with_game_tie_order`). A ledger that holds
    #: that key holds this hand as read then: the import takes it as that, known.
    earlier: tuple[str, list[Any]] | None = None


@dataclass(frozen=True)
class SessionEntry:
    """One session event (``ledger.model.events.SessionEvent``) of session ``session`` at file
    line ``line``. ``legacy_key``: the key under which an earlier version of handledger stored
    this entry (JSON lines: its whole session stream at once); when the ledger holds it (or
    it with ``:0``), the entry is not appended again. ``seq``: its number in the file's
    session stream, when the file numbers them (JSON lines). ``of_hand``: the hand whose
    rows gave it (a PokerNow name first seen in them), which it is not written without."""

    session: str
    event: Any
    line: int
    source_key: str
    legacy_key: str | None = None
    seq: int | None = None
    of_hand: str | None = None


@dataclass
class FileRead:
    """One file as read: ``items`` in file order, ``errors`` one per unreadable part (naming
    file, line and hand). ``session``: the session the file itself makes (a PokerNow game),
    None when it makes none. ``first_hand_key``: the source key of its first hand, by which a
    game already imported under another session name is recognised; ``game_key``: the part
    of its session entries' source keys that names the game (``<session>:<game_key>:item:``),
    by which it is recognised when its first hand is not stored (an export taken before that
    hand's seats were logged)."""

    file: str
    items: list[Any] = field(default_factory=list)
    errors: list[LedgerError] = field(default_factory=list)
    session: str | None = None
    first_hand_key: str | None = None
    game_key: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Importer(Protocol):
    """One file format's reader, as the import pipeline asks it.

    ``name``: a short word for the format (``"phh"``, ``"jsonl"``, …), used in messages.
    ``describes``: what the format is, for a message naming the formats handledger reads.
    """

    name: str
    describes: str

    def knows(self, head: bytes) -> bool:
        """Whether a file's first :data:`HEAD_BYTES` bytes ``head`` are this format's by
        their content alone, whatever the file is named. Must not raise."""
        ...

    def identify(self, path: Path, head: bytes) -> bool:
        """Whether ``path`` (whose first :data:`HEAD_BYTES` bytes are ``head``) is this
        format: :meth:`knows` its content, or its name says so and no content says
        otherwise. Must not read the file further or raise."""
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


#: Bytes below 0x20 that text holds: tab, line feed, form feed, carriage return.
_TEXT_CONTROLS = frozenset(b"\t\n\x0c\r")


def first_binary_byte(head: bytes) -> tuple[int, int, int] | None:
    """Where ``head`` (a file's first bytes) shows a binary file: ``(offset, line, byte)``
    of its first NUL or control byte that text never holds, or of a byte of its first line
    that is not UTF-8 (a stray byte further on is that line's error, not the file's); None
    when it is text. ``offset`` and ``line`` count from 1.

    >>> first_binary_byte(b'{"a": 1}\\n\\x7fELF\\x02\\x01\\x00')
    (14, 2, 2)
    >>> first_binary_byte(b'{"a": "caf\\xe9"}\\n')
    (11, 1, 233)
    """
    bad = next((i for i, b in enumerate(head) if b < 0x20 and b not in _TEXT_CONTROLS), None)
    end = head.find(b"\n")
    first = head[: end if end >= 0 else len(head)]
    try:
        first.decode("utf-8")
    except UnicodeDecodeError as exc:
        cut = end < 0 and exc.reason == "unexpected end of data"  # the head ends mid-character
        if not cut and (bad is None or exc.start < bad):
            bad = exc.start
    if bad is None:
        return None
    return bad + 1, head.count(b"\n", 0, bad) + 1, head[bad]


def first_line(head: bytes) -> bytes:
    """The first line of ``head``, byte-order mark and surrounding white space removed."""
    return head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip()


def with_session(events: Sequence[Any], session: str | None) -> list[Any]:
    """A hand's events with ``hand_started.session`` set to ``session`` (unchanged if None)."""
    if session is None or events[0].session == session:
        return list(events)
    return [events[0].model_copy(update={"session": session}), *events[1:]]


def with_game_tie_order(started: Any) -> Any:
    """``started`` (a ``hand_started`` event as a reader parsed it) with the odd-chip order
    of its game when the input did not give ``options.split.odd_chip_tie_order``: stud has
    no button, so a stud game (7S, 7S/8, R, 5S, any betting letter) ties by card and suit,
    ``card_by_suit``, and every other game ``left_of_button`` (RULES.md §2.2, §5, §7.5; the
    event model's own default is ``left_of_button`` whatever the game). An order the input
    gives is kept, and so is the event of a game code the engine does not know (the
    engine's check refuses it). For readers of input that may leave the option out (JSON
    lines, a JSON event typed in a correction); a stored event always carries it.
    """
    split = started.options.split
    if "odd_chip_tie_order" in split.model_fields_set:
        return started
    try:
        tie = game(started.game).tie_order
    except UnknownGame:
        return started
    if tie == split.odd_chip_tie_order:
        return started
    options = started.options.model_copy(
        update={"split": split.model_copy(update={"odd_chip_tie_order": tie})})
    return started.model_copy(update={"options": options})


def with_currency_code(started: Any) -> Any:
    """``started`` (a ``hand_started`` event as a reader parsed it) with its unit's currency
    as its ISO 4217 code (:func:`ledger.model.money.currency_code`: ``usd`` is ``USD``, ``$``
    is ``USD``), as a PHH file's ``currency`` is read (:mod:`ledger.formats.phh.hand`), so a
    hand stores and exports the code whichever file it came from; ``started`` itself when
    it has no currency or writes the code already."""
    from ledger.model.money import currency_code

    unit = started.unit
    if unit.currency is None or (code := currency_code(unit.currency)) == unit.currency:
        return started
    return started.model_copy(update={"unit": unit.model_copy(update={"currency": code})})


def hands_in_session(hands: Sequence[Any], session: str | None) -> list[Any]:
    """Text hands (:class:`~ledger.formats.phh.base.PhhHand`) whose ``hand_started`` is in
    ``session`` (unchanged if None)."""
    import dataclasses

    if session is None:
        return list(hands)
    return [dataclasses.replace(h, started=h.started.model_copy(update={"session": session}))
            for h in hands]
