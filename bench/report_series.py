"""``handledger report`` on the generated 20-session series: ``python bench/report_series.py
[--sessions 20] [--hands 150] [--json]``.

The series (``handledger demo-series --sessions 20 --hands 150 --seed 1``, 3,000 hands) is
written and its first 19 sessions imported into a ledger once, its derived tables built
(``audit``), into the benchmarks' cache (bench/helpers.py); each run works on a copy.
Timed, each ``handledger`` a separate process, wall seconds and CPU seconds (user + system of
the process: steadier than the wall time on a shared machine):

* ``first``: the report into an empty folder (every page drawn);
* ``unchanged``: the same again (every page kept);
* ``import_s20``: ``handledger import`` of the 20th session (not part of the report);
* ``after_import``: the report again: the derived tables caught up (the new session replayed
  and audited), then only the new session's hands, its page, the previous session's page and
  the index drawn.

Every run then walks every link of the site (tests/sitewalk.py) and checks that the index's
standings equal ``handledger standings --json`` before it reports.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import helpers as H  # noqa: E402
from tests.sitewalk import walk  # noqa: E402


def _timed(db: Path, *args: str) -> dict[str, Any]:
    """Wall and CPU seconds of one ``handledger --db DB ARGS`` process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run([H.HANDLEDGER, "--db", str(db), *args], capture_output=True, text=True,
                       check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "output": p.stdout.strip()}


def _ledger(sessions: int, hands: int) -> tuple[Path, Path]:
    """The cached ledger of the first ``sessions - 1`` sessions and the last session's file."""
    folder = H.CACHE / f"report-series-{sessions}x{hands}-seed1"
    files, db = folder / "files", folder / "ledger.duckdb"
    last = files / f"s{sessions:02d}.jsonl"
    if not db.exists():
        folder.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(files, ignore_errors=True)
        H.cli(folder / "unused.duckdb", "demo-series", "--sessions", str(sessions), "--hands",
              str(hands), "--seed", "1", str(files))
        first = sorted(p for p in files.glob("*.jsonl") if p != last)
        tmp = folder / "building.duckdb"
        tmp.unlink(missing_ok=True)
        H.cli(tmp, "import", *map(str, first))
        H.cli(tmp, "audit")  # the derived tables built: the first report times the report
        tmp.rename(db)
    return db, last


def run(sessions: int, hands: int) -> dict[str, Any]:
    cached, last = _ledger(sessions, hands)
    with tempfile.TemporaryDirectory(prefix="report-bench-") as work:
        db, out = Path(work) / "ledger.duckdb", Path(work) / "site"
        shutil.copy(cached, db)
        result: dict[str, Any] = {"sessions": sessions, "hands": sessions * hands}
        result["first"] = _timed(db, "report", str(out))
        result["unchanged"] = _timed(db, "report", str(out))
        result["import_s20"] = _timed(db, "import", str(last))
        result["after_import"] = _timed(db, "report", str(out))
        seen, broken = walk(out / "index.html")
        if broken:
            raise RuntimeError(f"broken links: {broken[:5]}")
        page = (out / "index.html").read_text(encoding="utf-8")
        shown = json.loads(re.search(r'id="standings-data">(.*?)</script>', page, re.S)[1])
        standings = json.loads(H.cli(db, "standings", "--json", stdout=subprocess.PIPE).stdout)
        if shown != standings:
            raise RuntimeError("the index's standings differ from `handledger standings`")
        result["files"] = len(seen)
        result["site_mb"] = round(sum(p.stat().st_size for p in seen) / 2**20, 1)
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = run(args.sessions, args.hands)
    if args.json:
        print(json.dumps(result))
        return
    for key in ("first", "unchanged", "import_s20", "after_import"):
        r = result[key]
        print(f"{key:>13}: {r['wall_s']:7.2f} s wall {r['cpu_s']:7.2f} s CPU  {r['output']}")
    print(f"{result['files']} files, {result['site_mb']} MB, every link resolves; "
          f"load average {result['load_average']}")


if __name__ == "__main__":
    main()
