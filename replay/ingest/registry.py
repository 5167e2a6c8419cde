"""The importers handledger knows, asked in this order: the first that identifies a file reads
it. A new format is one subpackage of ``ledger.formats`` with an ``IMPORTER`` and one line here.
"""

from __future__ import annotations

from pathlib import Path

from ledger.formats.jsonl.importer import IMPORTER as JSONL
from ledger.formats.phh.importer import IMPORTER as PHH
from ledger.formats.pokernow.importer import IMPORTER as POKERNOW
from ledger.formats.pokerstars.importer import IMPORTER as POKERSTARS
from ledger.formats.reading import Importer, read_head

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
