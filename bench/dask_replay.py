"""The distributed replay on Dask against the local replay, on the same generated series:
``python bench/dask_replay.py [--sessions 20] [--hands 150] [--seed 1] [--workers 1 2]
[--runs 3] [--json]``.

The series (:func:`replay.demo.series.generate_series`) is imported into a ledger, replayed
once and exported as Parquet (``export --format parquet``), all built once into the
benchmarks' cache (``bench/helpers.py``). Timed, the median of ``--runs`` each:

* ``local_jobs1_s`` / ``local_jobs2_s``: the local replay of every hand
  (:func:`replay.projections.rebuild`, which also audits and writes the derived tables into
  the ledger), in this process and with ``--jobs 2``; ``*_cpu_s`` this process's CPU seconds
  plus its finished children's.
* ``dask_wN_s``: :func:`replay.distributed.replay_parquet` against an already running
  ``LocalCluster`` of N worker processes of one thread (as on a real cluster, whose start is
  not part of a run, nor is one untimed run first: the workers' imports), reading the export
  and writing the derived tables as Parquet;
  ``dask_wN_cpu_s`` the CPU seconds of the workers (``getrusage`` in each, before and after)
  plus this process's; ``dask_wN_start_s`` the cluster's start, once.

Every run checks that the counts and the findings equal the local replay's. Hands per second
are ``hands / wall``.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import helpers as H  # noqa: E402


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _worker_cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def build(sessions: int, hands: int, seed: int) -> tuple[Path, Path]:
    """The cached ledger of the series and its Parquet export directory."""
    from ledger.store.store import Ledger
    from replay.demo.series import generate_series, write_series
    from replay.ingest.export import export_tables
    from replay.ingest.pipeline import import_paths
    from replay.projections import rebuild

    name = f"dask-series-{sessions}x{hands}-seed{seed}"
    db, export = H.CACHE / f"{name}.duckdb", H.CACHE / f"{name}-parquet"
    if db.exists() and (export / "events.parquet").exists():
        return db, export
    H.CACHE.mkdir(parents=True, exist_ok=True)
    db.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp, Ledger(str(db)) as ledger:
        files = write_series(generate_series(sessions=sessions, hands=hands, seed=seed),
                             Path(tmp))
        import_paths(ledger, files, strict=True, session=None, pn_ledger=None)
        rebuild(ledger)
        export_tables(ledger, export, "parquet")
    return db, export


def local(db: Path, jobs: int, runs: int) -> tuple[float, float, Any]:
    from ledger.store.store import Ledger
    from replay.projections import rebuild

    walls, cpus, projection = [], [], None
    with Ledger(str(db)) as ledger:
        for _ in range(runs):
            cpu, start = _cpu(), time.perf_counter()
            projection = rebuild(ledger, jobs=jobs)
            walls.append(time.perf_counter() - start)
            cpus.append(_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus), projection


def distributed(export: Path, workers: int, runs: int, want: Any) -> dict[str, float]:
    from distributed import Client, LocalCluster

    from replay.distributed import replay_parquet

    start = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, worker_dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
        started = time.perf_counter() - start
        walls, cpus = [], []
        with tempfile.TemporaryDirectory() as out:
            # one untimed run: the workers import the modules and warm their caches, as
            # the long-lived workers of a real cluster have
            replay_parquet(str(export), out, scheduler=cluster.scheduler_address)
            for _ in range(runs):
                before = sum(client.run(_worker_cpu).values()) + _cpu()
                t = time.perf_counter()
                done = replay_parquet(str(export), out, scheduler=cluster.scheduler_address)
                walls.append(time.perf_counter() - t)
                cpus.append(sum(client.run(_worker_cpu).values()) + _cpu() - before)
                assert done.merged.counts == want.counts
                assert done.merged.findings == want.findings
    return {f"dask_w{workers}_s": statistics.median(walls),
            f"dask_w{workers}_cpu_s": statistics.median(cpus),
            f"dask_w{workers}_start_s": started, "partitions": done.partitions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    db, export = build(args.sessions, args.hands, args.seed)
    out: dict[str, Any] = {"sessions": args.sessions, "hands_per_session": args.hands}
    for jobs in (1, 2):
        wall, cpu, projection = local(db, jobs, args.runs)
        out[f"local_jobs{jobs}_s"], out[f"local_jobs{jobs}_cpu_s"] = wall, cpu
    out["hands"] = projection.counts["hands"]
    for workers in args.workers:
        out.update(distributed(export, workers, args.runs, projection))
    for key in [k for k in out if k.endswith("_s") and not k.endswith(("cpu_s", "start_s"))]:
        out[key.removesuffix("_s") + "_hands_per_s"] = round(out["hands"] / out[key])
    with open("/proc/loadavg") as f:
        out["loadavg"] = f.read().split()[:3]
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            print(f"{key:28} {value}")


if __name__ == "__main__":
    main()
