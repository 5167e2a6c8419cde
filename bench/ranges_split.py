"""Where the CPU of a first full replay over ranges goes (``replay/ranges.py``), by process.

``python -m bench.ranges_split DB [--jobs N] [--audit]``, run from the project's root: the
first ``replay --json --problems --jobs N`` (``--audit``: ``audit --jobs N``) on a copy of the
ledger DB without derived tables (as ``bench/live.py``'s ``_cold`` makes it), in this
process, with every :func:`replay.ranges.replay_range` timed where it runs (this process or
a worker). Printed as JSON: wall and CPU seconds of this process and of the workers it
waited for; of each, the CPU inside ``replay_range`` (the replay, audit and table rows of the
hands, the same work one process does a hand) and the rest (start-up, reading the ranges,
pickling, inserting the columns, the merge and the session tables); the ranges each replayed;
the load average before and after. A worker's share of the rest is its start-up and pickling.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.helpers import drop_derived
from replay import ranges as _ranges

_LOG = "HANDLEDGER_RANGES_SPLIT_LOG"  # the file each process appends its ranges' timings to
_replay_range = _ranges.replay_range


def timed_range(raw: Any, first_ord: int, *args: Any) -> Any:
    """:func:`replay.ranges.replay_range`, its CPU seconds appended to the log file as
    ``pid cpu_s hands`` (a worker imports this module by name: spawn, not fork)."""
    start = time.process_time()
    try:
        return _replay_range(raw, first_ord, *args)
    finally:
        with open(os.environ[_LOG], "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {time.process_time() - start:.3f} {len(raw.hands)}\n")


def split(source: Path, args: list[str]) -> dict[str, Any]:
    """Run ``handledger ARGS`` here on a cold copy of ``source`` (module doc)."""
    from cli.entry import main

    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cold.duckdb"
        shutil.copyfile(source, db)
        drop_derived(db)
        log = Path(tmp) / "ranges.log"
        log.touch()
        os.environ[_LOG] = str(log)
        _ranges.replay_range = timed_range
        start = time.perf_counter()
        sys.argv = ["handledger", "--db", str(db), *args]
        try:
            main()
        except SystemExit as exc:
            if exc.code not in (0, 1, None):
                raise
        wall = time.perf_counter() - start
        lines = [line.split() for line in log.read_text().splitlines()]
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    here = [(float(c), int(h)) for pid, c, h in lines if int(pid) == os.getpid()]
    there = [(float(c), int(h)) for pid, c, h in lines if int(pid) != os.getpid()]
    out: dict[str, Any] = {"args": args, "wall_s": round(wall, 1)}
    for name, usage, done in (("parent", me, here), ("workers", kids, there)):
        cpu = usage.ru_utime + usage.ru_stime
        inside = sum(c for c, _ in done)
        out[name] = {
            "cpu_s": round(cpu, 1),
            "replay_range_cpu_s": round(inside, 1),
            "rest_cpu_s": round(cpu - inside, 1),
            "ranges": len(done),
            "hands": sum(h for _, h in done),
        }
    hands = out["parent"]["hands"] + out["workers"]["hands"]
    total = out["parent"]["cpu_s"] + out["workers"]["cpu_s"]
    out["cpu_us_per_hand"] = round(total / max(hands, 1) * 1e6)
    out["load_average"] = [round(load[0], 1), round(os.getloadavg()[0], 1)]
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("db", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--audit", action="store_true")
    a = parser.parse_args(argv)
    args = ["audit"] if a.audit else ["replay", "--json", "--problems"]
    with open(os.devnull, "w") as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            out = split(a.db, [*args, "--jobs", str(a.jobs)])
        finally:
            sys.stdout = stdout
    print(json.dumps(out))


if __name__ == "__main__":
    main()
