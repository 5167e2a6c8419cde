"""The importers handledger knows, asked in this order: the first that identifies a file reads
it. A new format is one subpackage of ``ledger.formats`` with an ``IMPORTER`` and one line here.
"""

from __future__ import annotations

from pathlib import Path

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
    """The first importer that identifies ``path`` (its first bytes: ``head``, read here when
    None), or None when no importer knows it."""
    if head is None:
        head = read_head(path)
    return next((imp for imp in IMPORTERS if imp.identify(path, head)), None)


def formats() -> str:
    """The formats handledger reads, for a message: ``PHH (.phh, .phhs), …``."""
    return ", ".join(imp.describes for imp in IMPORTERS)


def not_text(path: Path) -> str | None:
    """Why the file at ``path`` is not JSON-lines text (FORMATS.md: UTF-8 lines): a binary
    file named ``.jsonl`` is one error, not one a line; None when its first bytes are text
    (:func:`ledger.formats.reading.first_binary_byte`)."""
    where = first_binary_byte(read_head(path))
    if where is None:
        return None
    offset, line, byte = where
    what = "a control byte text does not hold" if byte < 0x20 else "not UTF-8"
    return (f"not JSON-lines text (a binary file?): byte {offset}, on line {line}, is "
            f"0x{byte:02x}, {what}")
