"""Every DuckDB connection the ledger opens has DuckDB's progress bar off: the bar is drawn on
standard output, where a command's output (an export redirected to a file) must hold nothing
else (ledger/store/duck.py). Checked in a process of its own: DuckDB's default there is a bar
on (under pytest it may already be off)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

_PROBE = textwrap.dedent("""
    import json, sys
    import duckdb
    from ledger.store.duck import connect
    from ledger.store.store import Ledger

    def bar(con):
        return con.execute("SELECT current_setting('enable_progress_bar')").fetchone()[0]

    path = sys.argv[1]
    seen = {"duckdb": bar(duckdb.connect()), "connect": bar(connect())}
    with Ledger(path) as led:
        seen["write"] = bar(led.connection)
    with Ledger(path, read_only=True) as led:
        seen["read"] = bar(led.connection)
    overlay = Ledger.overlay(path)
    seen["overlay"] = bar(overlay.connection)
    overlay.close()
    seen["memory"] = bar(Ledger.memory().connection)
    print(json.dumps(seen))
""")


def test_every_way_the_store_opens_a_ledger_draws_no_progress_bar(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path / "l.duckdb")],
                         capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    assert json.loads(out) == {"duckdb": True, "connect": False, "write": False,
                               "read": False, "overlay": False, "memory": False}
