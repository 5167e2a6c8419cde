"""A PokerStars hand-history file as text: recognise it, decode it, cut it into hands.

Decoding: UTF-16 when the file starts with a UTF-16 byte-order mark (as Windows tools save
text); else UTF-8 (a leading byte-order mark is dropped); a file that is not valid UTF-8 is read
as Windows-1252, the code page the PokerStars client wrote on Windows (``€`` is byte ``0x80``
there, which Latin-1 lacks). :func:`decode` says which it used; every hand records it in
``source["encoding"]``.

Hands: a hand starts at a line ``PokerStars … #<number>:`` (``Game #``, ``Hand #``, ``Zoom Hand
#``, ``Home Game Hand #``) and runs to the next such line; blank lines between hands are
dropped. Line numbers are 1-based lines of the file. The file's last hand notes when its last
line is the file's last and no line break ends it (``HandText.open_end``): the site ends every
line with one, so that line may be cut short (the reader decides from its shape:
:func:`ledger.formats.pokerstars.summary.check_last_seat_line`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledger.formats.files import decode_text, text_head, utf16_bom

BOM = b"\xef\xbb\xbf"
#: The first line of a hand: the site's hand number and the rest of the header.
HAND_START = re.compile(
    r"^PokerStars (?:Zoom |Home Game |Rush |Fast Poker )*(?:Hand|Game) #(?P<number>\d+): *"
)
_HEAD_BYTES = re.compile(
    rb"^\s*PokerStars (?:Zoom |Home Game |Rush |Fast Poker )*(?:Hand|Game) #\d+:"
)


def identify(head: bytes) -> bool:
    """Whether ``head`` (the first bytes of a file, any length ≥ 40) starts a PokerStars
    hand history: optional byte-order mark (UTF-8, or UTF-16: the head read as its text) and
    blank lines, then ``PokerStars … #N:``.

    >>> identify(b"\\xef\\xbb\\xbfPokerStars Game #62678213223: Tournament #1, ...")
    True
    >>> identify(b"variant = 'NT'")
    False
    """
    return bool(_HEAD_BYTES.match(text_head(head).removeprefix(BOM)))


def decode(data: bytes, *, name: str = "<text>") -> tuple[str, str]:
    """``(text, encoding)``: UTF-16 after its byte-order mark (``'utf-16-le'`` or
    ``'utf-16-be'``), UTF-8 without its byte-order mark (``'utf-8'``), else Windows-1252
    (``'cp1252'``; its five unassigned bytes are kept as U+FFFD). ``name``: the file as an
    error names it.

    Raises:
        MalformedInput: a UTF-16 file its encoding cannot decode (a lone surrogate, an odd
            byte at the end), naming the line.
    """
    bom = utf16_bom(data)
    if bom is not None:
        return decode_text(data, name=name), bom.lower().replace("16", "16-")
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


@dataclass(frozen=True, slots=True)
class HandText:
    """One hand's lines: ``line`` is the file line of ``lines[0]`` (the header); ``lines``
    keep their order, trailing whitespace removed, blank lines as ``''``. ``open_end``: the
    last of ``lines`` is the file's last line and no line break follows it (the file ends
    inside it, or was saved without a final line break)."""

    line: int
    number: str
    lines: tuple[str, ...]
    open_end: bool = False

    def body(self) -> str:
        """The hand's text without blank lines (what the source key digests)."""
        return "\n".join(text for text in self.lines if text)


def split_hands(text: str) -> tuple[list[HandText], list[int]]:
    """Cut ``text`` into hands; also return the file lines of non-blank text before the
    first hand (a file that is not a hand history has only those)."""
    hands: list[HandText] = []
    stray: list[int] = []
    start, number, lines = 0, "", []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        m = HAND_START.match(line)
        if m:
            if lines:
                hands.append(HandText(start, number, _trim(lines)))
            start, number, lines = n, m["number"], [line]
        elif lines:
            lines.append(line)
        elif line.strip():
            stray.append(n)
    if lines:
        kept = _trim(lines)
        hands.append(HandText(start, number, kept, open_end=len(kept) == len(lines)
                              and _unterminated(text)))
    return hands, stray


def _unterminated(text: str) -> bool:
    """Whether no line break ends ``text`` (as :meth:`str.splitlines` breaks lines)."""
    last = text.splitlines(keepends=True)[-1:]
    return bool(last) and last[0].splitlines() == [last[0]]


def _trim(lines: list[str]) -> tuple[str, ...]:
    while lines and not lines[-1]:
        lines.pop()
    return tuple(lines)
