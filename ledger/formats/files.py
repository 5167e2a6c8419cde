"""What a reader may read: regular files within size caps, their names as UTF-8 text.

A hand-history file is a regular file of at most :data:`MAX_FILE_BYTES`, whose lines are at
most :data:`MAX_LINE_BYTES` long; anything else (a device such as ``/dev/zero`` behind a
symbolic link, a pipe, a file of gigabytes, a line of 50 MB) is refused with one located
error (:class:`ledger.model.errors.MalformedInput`), never read without limit. Text is UTF-8, or
UTF-16 when a byte-order mark says so (:func:`decode_text`: how Windows tools save text;
FORMATS.md does not restrict the hand formats to one encoding). A file name
that is not UTF-8 (Python keeps its bytes as lone surrogates) is written with ``\\xNN``
escapes wherever a message or an event names it (:func:`file_name`).
"""

from __future__ import annotations

import codecs
import os
import stat
from typing import BinaryIO

from ledger.model.errors import MalformedInput

#: The largest file a reader reads (a hand-history file is far smaller: a million events of
#: JSON lines are about 130 MB) and the longest line it reads (an event, a CSV row, a line of
#: a hand: a few kB at most). Anything larger is refused with one line, never read whole.
MAX_FILE_BYTES = 2048 << 20
MAX_LINE_BYTES = 1 << 20
#: The UTF-8 byte-order mark, an encoding marker at the start of a text (``codecs.BOM_UTF8``).
BOM = b"\xef\xbb\xbf"
#: The UTF-16 byte-order marks and the encoding each names, as a message names it.
UTF16_BOMS = ((codecs.BOM_UTF16_LE, "UTF-16LE"), (codecs.BOM_UTF16_BE, "UTF-16BE"))


def utf16_bom(data: bytes) -> str | None:
    """``'UTF-16LE'`` or ``'UTF-16BE'`` when ``data`` starts with that byte-order mark, else
    None. (A UTF-32 mark, ``FF FE 00 00``, reads as UTF-16LE's followed by a NUL, which no
    reader takes as text.)

    >>> utf16_bom("PokerStars".encode("utf-16")[:4]) in ("UTF-16LE", "UTF-16BE")
    True
    >>> utf16_bom(BOM + b"PokerStars") is None
    True
    """
    return next((name for mark, name in UTF16_BOMS if data.startswith(mark)), None)


def utf16_unmarked(data: bytes) -> str | None:
    """``'UTF-16LE'`` or ``'UTF-16BE'`` when ``data`` reads as that without a byte-order mark:
    a NUL byte after (LE) or before (BE) each of most of its first characters, as ASCII
    text saved as UTF-16 has (and no UTF-8 hand history: text holds no NUL); else None.
    Only its first 64 bytes are looked at.

    >>> utf16_unmarked("variant = 'NT'".encode("utf-16-le"))
    'UTF-16LE'
    >>> utf16_unmarked("variant = 'NT'".encode("utf-16-be"))
    'UTF-16BE'
    >>> utf16_unmarked(b"variant = 'NT'") is None
    True
    """
    head = data[:64]
    pairs = len(head) // 2
    if pairs < 4 or utf16_bom(data) is not None:
        return None
    for name, nul, other in (("UTF-16LE", 1, 0), ("UTF-16BE", 0, 1)):
        ascii_like = sum(1 for i in range(pairs)
                         if head[2 * i + nul] == 0 and head[2 * i + other] != 0)
        if ascii_like * 4 >= pairs * 3:
            return name
    return None


def decode_text(data: bytes, *, name: str) -> str:
    """The text of a file's bytes ``data``: UTF-16 after a UTF-16 byte-order mark (the mark
    dropped), else UTF-8 (a UTF-8 byte-order mark dropped). ``name``: the file as errors
    name it.

    Raises:
        MalformedInput: bytes its encoding cannot decode, naming the line (``not UTF-8
            (invalid start byte: byte 3 of the line is 0xe9)``, ``not UTF-16LE (truncated
            data)``).
    """
    bom = utf16_bom(data)
    try:
        return data.decode("utf-8-sig" if bom is None else "utf-16")
    except UnicodeDecodeError as exc:
        if bom is not None:
            before = data[: exc.start].decode("utf-16", "replace")
            raise MalformedInput(f"not {bom} ({exc.reason})", file=name,
                                 line=before.count("\n") + 1) from None
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MalformedInput(f"not UTF-8 ({exc.reason}: byte {column} of the line is "
                             f"0x{data[exc.start]:02x})", file=name, line=line) from None


def text_head(head: bytes) -> bytes:
    """A file's first bytes ``head`` as UTF-8, for the importers to identify it: those of a
    UTF-16 file (its byte-order mark) decoded and written as UTF-8 (a character the head
    cuts in two dropped); any other head as it is.

    >>> text_head("\ufeffPokerStars Hand #1:".encode("utf-16-le"))
    b'PokerStars Hand #1:'
    """
    if utf16_bom(head) is None:
        return head
    decoder = codecs.getincrementaldecoder("utf-16")("replace")
    return decoder.decode(head, final=False).encode("utf-8", "surrogatepass")


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
    """The text of the regular file ``path`` (UTF-8, or UTF-16 after its byte-order mark:
    :func:`decode_text`; the mark dropped), checked
    against the caps (:func:`read_capped`, :data:`MAX_LINE_BYTES`). ``name``: the file as
    errors name it (default :func:`file_name` of ``path``).

    Raises:
        MalformedInput: not a regular file, too large, a line too long, or not text of its
            encoding (naming the line; of UTF-8, the byte).
        OSError: it cannot be read.
    """
    data = read_capped(path)
    name = file_name(path) if name is None else name
    text = decode_text(data, name=name)
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


class StreamLines:
    """The lines of a binary stream read one at a time (``handledger table``'s standard
    input), each at most ``limit`` bytes (default :data:`MAX_LINE_BYTES`) besides its
    newline, never more held in memory: a longer line is read on in pieces of ``limit``
    bytes and dropped, and refused. A UTF-8 byte-order mark at the very start of the stream
    is an encoding marker and is dropped (as the 'utf-8-sig' codec drops it; one at the start
    of a later line is text, left to be refused). ``number``: the line last read (1-based)."""

    def __init__(self, stream: BinaryIO, limit: int | None = None) -> None:
        self.stream = stream
        self.limit = MAX_LINE_BYTES if limit is None else limit
        self.number = 0

    def next(self) -> bytes:
        """The next line with its newline, ``b""`` at the end of the stream.

        Raises:
            MalformedInput: the line is longer than the limit (``line N: a line longer than 1
                MB, …``); the next call reads the line after it.
        """
        limit = self.limit
        line = self.stream.readline(limit + 1)
        if line:
            self.number += 1
            if self.number == 1 and line.startswith(BOM):  # the marker is not the line's
                line = line[len(BOM):]
                if len(line) == limit + 1 - len(BOM) and not line.endswith(b"\n"):
                    line += self.stream.readline(len(BOM))  # the bytes the marker took
        if len(line) <= limit or line.endswith(b"\n"):
            return line
        while True:  # the rest of the long line, a piece at a time
            rest = self.stream.readline(limit)
            if not rest or rest.endswith(b"\n"):
                break
        raise MalformedInput(f"a line longer than {limit >> 20 or limit} "
                             f"{'MB' if limit >> 20 else 'bytes'}, the most handledger reads "
                             "in one line", line=self.number)


def cut_line(path: str | os.PathLike[str]) -> int | None:
    """The number of the file's last line when the file ends in the middle of it (no newline
    after it: a file cut short, a copy or a download stopped early), else None; None too for
    a file that cannot be read or is UTF-16 (its newlines are two bytes). Read only when an
    import refuses a part of the file, to say so beside the refusal of that line."""
    try:
        with open(path, "rb") as f:
            head = f.read(2)
            if head in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
                return None
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return None
            f.seek(-1, os.SEEK_END)
            if f.read(1) in (b"\n", b"\r"):
                return None
            f.seek(0)
            lines = 1
            while chunk := f.read(1 << 20):
                lines += chunk.count(b"\n")
            return lines
    except OSError:
        return None


#: What the readers say of a line they cannot read whole, as a file cut in the middle of a
#: line reads: a line of no known kind (PokerStars text), TOML that ends early (PHH), a row of
#: too few columns or an order cut short (PokerNow: ``order '' is not an integer``, ``order
#: '1658439' does not fit …``), JSON that ends early (JSON lines), a summary line cut inside.
#: A refusal of a whole line for what it says (a currency that is none) is no sign of a cut:
#: a last line may lack its newline.
CUT_SIGNS = ("unknown line", "bad TOML", "too few columns", "order '", "bad JSON",
             "ends inside")


def cut_note(path: str | os.PathLike[str], line: int | None, hand: str | None = None,
             message: str = "") -> str:
    """What a refusal of ``line`` (``message``: what it says) adds when the file ends in the
    middle of that line (:func:`cut_line`) and the refusal reads as a line cut
    (:data:`CUT_SIGNS`): ``"; the file ends in the middle of hand H, line N cut off (no
    newline at its end): a file cut short? import the whole file"`` (``"ends there"`` with no
    ``hand``), or ``""``."""
    if (line is None or not any(sign in message for sign in CUT_SIGNS)
            or cut_line(path) != line):
        return ""
    return cut_words(line, hand)


def cut_words(line: int, hand: str | None = None) -> str:
    """What a refusal adds when the file is known to end in the middle of its last line
    ``line`` (docs/IMPORTING.md, "A file cut short"): ``"; the file ends in the middle of
    hand H, line N cut off (no newline at its end): a file cut short? import the whole
    file"`` (``"ends there"`` with no ``hand``)."""
    inside = f"in the middle of hand {hand}" if hand else "there"
    return (f"; the file ends {inside}, line {line} cut off (no newline at its end): a file "
            "cut short? import the whole file")


#: What :func:`cut_words` says of every cut line: a refusal that says it is not said again.
CUT_SAID = "cut off (no newline at its end)"
