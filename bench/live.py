"""Live recording and the first full audit, as a user waits for them (``bench/run.py --only
live cold``).

* ``live_act_s``, ``live_state_s``: ``handledger act`` and ``handledger state`` as real
  processes (start-up included: each action at the table is one), on a copy of the ledger of
  whole demo-series sessions holding 100,050 hands (``--quick``: 2,100), with a four-handed
  no-limit hold'em hand started live in it (untimed): every action of the hand to its end
  (deals, checks and calls on four streets, the showdown, the payout, the end: 28 acts),
  ``state`` after every other one (14); medians of wall time, with the CPU seconds of the
  process (``*_cpu_s``) and the load average beside them.
* ``audit_cold``, ``replay_cold``: the first ``audit`` (a read: the derived tables computed in
  memory) and the first ``replay --json --problems`` (which saves them) of the ledger of
  1,000,050 hands (``--quick``: 4,050) with no derived tables, every hand replayed and
  audited, with ``--jobs 1`` and ``--jobs 2`` (this process and a worker over ranges of the
  ledger, ``replay/ranges.py``), one run each: wall and CPU seconds (the whole process tree),
  peak RSS of the tree (sampled every 0.2 s), the load average before and after.
  ``audit_cold_s`` and ``replay_cold_s`` are the ``--jobs 2`` runs.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench import helpers as H

SEATS = "Ann:200,Bob:150,Cy:300,Dee:250"
#: The hand, after ``hand start`` (Dee on the button: Ann posts the small blind, Bob the big).
ACTS = (
    "d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "d dh Dee 9h9c",
    "Cy cc", "Dee cc", "Ann cc", "Bob cc",
    "d db 2c7h9s", "Ann cc", "Bob cc", "Cy cc", "Dee cc",
    "d db Kd", "Ann cc", "Bob cc", "Cy cc", "Dee cc",
    "d db 3c", "Ann cc", "Bob cc", "Cy cc", "Dee cc",
    "Ann sm AsKs", "Bob sm QhQd", "Cy sm 7c2d", "Dee sm 9h9c",
    "pay Dee 8",
)


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system of the child) of one process, and its stdout.

    Raises:
        RuntimeError: the process failed.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def bench_live(cfg: dict[str, Any], out: dict[str, Any], source: Path) -> None:
    """``live_act_s`` and ``live_state_s`` (module doc) on a copy of ``source``."""
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "live.duckdb"
        shutil.copyfile(source, db)
        base = [H.HANDLEDGER, "--db", str(db)]
        subprocess.run([*base, "hand", "start", "--hand", "live-bench", "--game", "NT",
                        "--stakes", "1/2", "--seats", SEATS, "--button", "Dee"],
                       check=True, capture_output=True)
        acts, states = [], []
        load = [os.getloadavg()[0]]
        for k, action in enumerate(ACTS):
            acts.append(timed([*base, "act", "live-bench", action]))
            if k % 2:
                states.append(timed([*base, "state", "live-bench"]))
        last = timed([*base, "act", "live-bench", "end"])
        assert last[2].startswith(f"{len(ACTS) + 4} hand_ended; hand complete"), last[2]
        load.append(os.getloadavg()[0])
    for key, runs in (("live_act", acts), ("live_state", states)):
        out[f"{key}_s"] = round(statistics.median(r[0] for r in runs), 3)
        out[f"{key}_cpu_s"] = round(statistics.median(r[1] for r in runs), 3)
        out.setdefault("runs", {})[key] = len(runs)
    out["live_load_average"] = [round(x, 1) for x in load]


def tree_rss_mb(pid: int) -> float:
    """The resident memory of a process and all its descendants (MB), from /proc."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return total


def run_tree(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd`` (exit 0 or 1 accepted): wall and CPU seconds of its whole process tree
    (the descendants it waited for included), peak RSS of the tree, load before and after."""
    load = [os.getloadavg()[0]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0.0]

    def watch() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss_mb(proc.pid))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - start
    watcher.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode()[-300:]}")
    load.append(os.getloadavg()[0])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": round(wall, 1), "cpu_s": round(cpu, 1), "peak_rss_mb": round(peak[0]),
            "load_average": [round(x, 1) for x in load]}


def bench_cold(cfg: dict[str, Any], out: dict[str, Any], source: Path, hands: int) -> None:
    """``audit_cold`` and ``replay_cold`` with ``--jobs 1`` and ``--jobs 2`` (``cold_jobs``)
    on copies of ``source`` without derived tables (module doc); ``audit_cold_s`` the
    ``audit --jobs 2`` wall time, ``replay_cold_s`` the ``replay --json --problems --jobs 2``
    one."""
    commands = {"audit_cold": ("audit",), "replay_cold": ("replay", "--json", "--problems")}
    for key, args in commands.items():
        cold: dict[str, Any] = {}
        for jobs in cfg.get("cold_jobs", (2, 1)):
            cold[str(jobs)] = run = _cold(source, [*args, "--jobs", str(jobs)])
            run["per_hand_us"] = round(run["seconds"] / hands * 1e6, 1)
            run["cpu_per_hand_us"] = round(run["cpu_s"] / hands * 1e6, 1)
        out[key] = {"hands": hands, "jobs": cold}
        if "2" in cold:
            out[f"{key}_s"] = cold["2"]["seconds"]
        if "1" in cold and "2" in cold:
            out[f"{key}_jobs_speedup"] = round(cold["1"]["seconds"] / cold["2"]["seconds"], 2)
            out[f"{key}_jobs_cpu_ratio"] = round(cold["2"]["cpu_s"] / cold["1"]["cpu_s"], 2)


def _cold(source: Path, args: list[str]) -> dict[str, Any]:
    """:func:`run_tree` of ``handledger ARGS`` on a copy of ``source`` without derived tables
    and views (dropped, when it has them: as never built)."""
    import duckdb

    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "cold.duckdb"
        shutil.copyfile(source, db)
        con = duckdb.connect(str(db))
        for (view,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal"
                                   ).fetchall():
            con.execute(f'DROP VIEW "{view}"')
        for (table,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall():
            if table not in ("events", "meta"):
                con.execute(f'DROP TABLE "{table}"')
        con.execute("CHECKPOINT")
        con.close()
        return run_tree([H.HANDLEDGER, "--db", str(db), *args])
