"""A Parquet file is known by its first bytes (``PAR1``), whatever its name: one renamed
``.jsonl`` is refused as the same file without a suffix is, naming the JSON-lines export
that imports (docs/FORMATS-IMPORT.md "Formats", exports), nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.console_run import handledger
from tests.test_import_parquet_export import HAND, SAID


def test_a_parquet_file_named_jsonl_is_named_a_parquet_file(tmp_path: Path) -> None:
    db, fresh, out = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "pq"
    assert handledger(db, "import", str(HAND))[0] == 0
    assert handledger(db, "export", "--format", "parquet", str(out))[0] == 0
    for name in ("ev.jsonl", "noext", "ev.phh"):
        copy = tmp_path / name
        shutil.copyfile(out / "events.parquet", copy)
        assert handledger(fresh, "import", str(copy)) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
               "rejected\n", f"error: {copy}: {SAID}\n"), name
        assert not fresh.exists()
