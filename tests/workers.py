"""An import of one file by two worker processes, watched: whether the workers took it or
gave it back to the one-process import (``replay.ingest.parallel.import_parallel`` returns
None for a file it gives back)."""

from __future__ import annotations

from pathlib import Path

import pytest

import replay.ingest.parallel as par
from ledger.store.store import Ledger
from replay.ingest.pipeline import import_paths
from replay.ingest.report import ImportReport


def import_by_workers(monkeypatch: pytest.MonkeyPatch, path: Path, db: Path,
                      part_bytes: int) -> tuple[ImportReport, list[object]]:
    """``import_paths`` of ``path`` into the ledger ``db`` with ``jobs=2`` and parts of
    ``part_bytes`` (so that even a small file is read in parts); the report and what each
    call of ``import_parallel`` returned (``[None]``: the workers gave the file back)."""
    monkeypatch.setattr(par, "PART_BYTES", part_bytes)
    results: list[object] = []
    real = par.import_parallel
    monkeypatch.setattr(par, "import_parallel",
                        lambda *a, **k: results.append(real(*a, **k)) or results[-1])
    with Ledger(db) as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                              jobs=2)
    return report, results
