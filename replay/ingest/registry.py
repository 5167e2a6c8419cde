"""The importers handledger knows, asked in this order: the first that identifies a file reads
it. A new format is one subpackage of ``ledger.formats`` with an ``IMPORTER`` and one line here.
"""

from __future__ import annotations

from pathlib import Path

from ledger.formats.files import text_head, utf16_bom
from ledger.formats.jsonl.importer import IMPORTER as JSONL
from ledger.formats.phh.importer import IMPORTER as PHH
from ledger.formats.pokernow.importer import IMPORTER as POKERNOW
from ledger.formats.pokerstars.importer import IMPORTER as POKERSTARS
from ledger.formats.reading import Importer, first_binary_byte, read_head

IMPORTERS: tuple[Importer, ...] = (
    JSONL,
    PHH,
    POKERNOW,
    POKERSTARS,
)


def find_importer(path: Path, head: bytes | None = None) -> Importer | None:
    """The importer of ``path`` (its first bytes: ``head``, read here when None), found by
    content whatever the file is named: the first that knows its first bytes
    (``Importer.knows``: a PokerNow log named ``.phh``, a PokerStars history named
    ``.jsonl``), else the first whose name it has (``Importer.identify``: ``.phh``,
    ``.jsonl``); None when no importer knows it. A UTF-16 file (its byte-order mark) is
    identified by its text, as its UTF-8 copy would be (:func:`ledger.formats.files.text_head`)."""
    if head is None:
        head = read_head(path)
    head = text_head(head)
    return next((imp for imp in IMPORTERS if imp.knows(head)), None) or next(
        (imp for imp in IMPORTERS if imp.identify(path, head)), None)


def formats() -> str:
    """The formats handledger reads, for a message: ``PHH (.phh, .phhs), …``."""
    return ", ".join(imp.describes for imp in IMPORTERS)


def not_text(path: Path) -> str | None:
    """Why the file at ``path`` is not JSON-lines text (FORMATS.md: UTF-8 lines): a binary
    file named ``.jsonl`` is one error, not one a line, and so is a UTF-16 one (a byte-order
    mark: ``UTF-16LE text …: save it as UTF-8``), which the reader, cutting the file at
    its bytes' line breaks, cannot read; None when its first bytes are UTF-8 text
    (:func:`ledger.formats.reading.first_binary_byte`)."""
    head = read_head(path)
    bom = utf16_bom(head)
    if bom is not None:
        return f"{bom} text (its byte-order mark says so): JSON lines are UTF-8: save it as UTF-8"
    where = first_binary_byte(head)
    if where is None:
        return None
    offset, line, byte = where
    what = "a control byte text does not hold" if byte < 0x20 else "not UTF-8"
    return (f"not JSON-lines text (a binary file?): byte {offset}, on line {line}, is "
            f"0x{byte:02x}, {what}")
