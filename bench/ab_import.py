"""Before against after of ``handledger import FILE``, side by side (bench/PROFILE.md).

``python bench/ab_import.py FILE RUNS SIDE=TREE[,SIDE=TREE…] [IMPORT OPTIONS…]``: for each of
RUNS rounds, each side in turn imports FILE into a new ledger as a user runs it (a new
process), its code taken from TREE through ``PYTHONPATH`` (e.g. ``base=/tmp/base`` for a
worktree of main, ``new=.``), timed by :func:`bench.phhs.timed_tree`: wall seconds, the CPU
of every process of the run, the peak RSS of its largest process and of all its processes
together (MB), with the load average. One JSON line a run.

Each side runs in its own tree's folder: the import's worker processes start from a
forkserver run as ``python -c``, whose ``sys.path`` begins with the current folder, so from
another tree's folder the workers would run that tree's code, not TREE's.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.phhs import timed_tree  # noqa: E402


def main(argv: list[str]) -> None:
    path, runs, sides, options = Path(argv[0]).resolve(), int(argv[1]), argv[2], argv[3:]
    trees = dict(side.split("=", 1) for side in sides.split(","))
    for _ in range(runs):
        for side, tree in trees.items():
            db = Path(f"/tmp/ab-import-{side}.duckdb")
            for f in (db, Path(f"{db}.wal")):
                f.unlink(missing_ok=True)
            os.environ["PYTHONPATH"] = str(Path(tree).resolve())
            os.chdir(tree)  # the workers' code too (module doc)
            run = timed_tree(db, "import", *options, str(path))
            print(json.dumps({"side": side, "file": path.name, "options": options,
                              **{k: round(v, 2) for k, v in run.items()},
                              "load": round(os.getloadavg()[0], 1)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
