"""Checking a ledger's blocks keeps DuckDB's lock on it: POSIX drops every record lock a
process holds on a file when it closes any descriptor of that file, and the blocks check used
to open and close the file beside the connection, so an import that proves the chain first let
another process open the ledger mid-write (ledger/store/rawfile.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ledger.store.intact import require_intact
from ledger.store.store import Ledger
from tests.test_store import hand


def _other_process_opens(db: Path) -> str:
    code = ("import _duckdb\n"
            "try:\n"
            f"    _duckdb.connect({str(db)!r}, read_only=True); print('opened')\n"
            "except Exception as e:\n"
            "    print('refused' if 'lock' in str(e) else repr(e))\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120).stdout.strip()


def test_proving_a_ledger_open_for_writing_keeps_other_processes_out(tmp_path: Path) -> None:
    db = tmp_path / "l.duckdb"
    with Ledger(db) as ledger:
        ledger.append("h1", hand("h1"))
        assert _other_process_opens(db) == "refused"
        require_intact(ledger, "nothing written")  # reads every block of the file
        assert _other_process_opens(db) == "refused"
    assert _other_process_opens(db) == "opened"
