"""handledger benchmarks: ``python bench/run.py [--quick] [--json]``.

Prints one JSON object (``--json``) or a readable summary. Every figure is the median of
several runs on this machine, except the one-off runs named in ``runs``. Ledgers and files are
built once and cached (``bench/helpers.py``); the first full run spends most of its time
building the 1,000,000-hand ledger.

What is timed (``--quick`` uses the smaller sizes shown in ``sizes``):

* ``replay_hands_per_s``: the real hands of ``../shared/data/phh`` repeated to 5,002 hands in a
  ledger, read back page by page, parsed, folded through the engine, settled (pots, awards)
  and compared with what was paid: what ``replay`` computes, without writing the derived
  tables. ``replay_command_hands_per_s`` adds the derived tables (the whole ``replay``
  command but its printing). ``pokerkit_hands_per_s``: pokerkit 0.7.7 loading the same files
  (``HandHistory.loads``) and iterating each hand's states to the end, the same number of
  hands. ``ratio_vs_pokerkit`` = ours / pokerkit's, in the same run, runs interleaved (wall
  time); ``ratio_vs_pokerkit_cpu`` the same in CPU time (``time.process_time``), and
  ``cpu_us_per_hand`` each one's CPU µs a hand (``ours``, ``command``, ``pokerkit``).
* ``synthetic_hands_per_s``: as ``replay_hands_per_s`` over a generated demo series
  (``replay.demo.series``, mixed games, sessions with rebuys) of 100,050 hands; ``jobs_speedup``:
  the ``replay`` command's work on it (:func:`replay.projections.rebuild`: the derived tables
  and the audit; with jobs, worker processes over ranges of the ledger) with ``--jobs 2``
  against ``--jobs 1``, wall time.
* ``import_events_per_s``: ``handledger import`` (a separate process, wall time) of one
  JSON-lines file of >= 1,000,000 events (demo-series sessions) into a new ledger: parsing,
  the engine's check of every hand, the hash chain, DuckDB, the derived tables (made from
  the check, ``replay.ingest.derived``). By default a file of 16 MB or more is read and
  checked by one worker process a CPU while this one appends (``replay.ingest.parallel``);
  ``import_one_process_events_per_s`` is ``import --jobs 1`` (one process; also the default
  for the ``--quick`` file, 2 MB); ``import_cpu_us_per_event`` the CPU of every process of
  the run an event, ``import_peak_rss_mb`` the largest process (``bench.phhs.timed_tree``).
  ``append_events_per_s`` is the one-process store's part alone (``Ledger.append_many`` of
  the parsed events).
* ``audit_s``, ``balances_s``: ``handledger audit`` and ``balances`` (separate processes,
  wall time including start-up) on a copy of a ledger of 1,000,050 hands (the series cloned
  ten times) whose derived tables are as of its head, as after any import + ``replay`` or
  ``audit``. ``audit_cold_s``: the first ``audit --jobs 2`` with no derived tables (every hand
  replayed and audited in one streaming pass); ``audit_catchup_s``: ``audit`` right after a
  new session of 150 hands was appended (only that session is replayed). A run that passes
  ``AUDIT_LIMIT_S`` seconds (``AUDIT_COLD_LIMIT_S`` cold) or ``AUDIT_LIMIT_MB`` of memory is
  stopped and reported as null, with the reason in ``notes``.
* ``peak_rss_mb``: peak resident memory of ``handledger replay --json --problems`` on that
  ledger, the whole process tree (workers included); ``scaling``: its wall and CPU time and
  peak memory at 10k, 100k and 1M hands (``per_hand_us`` should stay flat).
* ``phhs_import_hands_per_s``, ``phhs_import_scaling``, ``ratio_vs_pokerkit_nlhe`` and their
  companions: large ``.phhs`` imports and no-limit hold'em replay (``bench/phhs.py``).
* ``live_act_s``, ``live_state_s``, ``live_served_*``, ``live_session_*`` (part ``live``:
  one-shot commands, the same commands handed to a running ``handledger serve``, and the hand
  through one ``handledger table`` session) and ``audit_cold``, ``replay_cold``
  with ``--jobs 1`` and ``2`` (part ``cold``, not in a run without ``--only``: hours at a million
  hands on two shared cores): ``bench/live.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported here so that no timed run pays for importing them.
import pokerkit as _pokerkit  # noqa: E402, F401

from bench import helpers as H  # noqa: E402
from bench import live as LV  # noqa: E402
from bench import phhs as P  # noqa: E402
from ledger.store import streams  # noqa: E402, F401
from replay import (  # noqa: E402, F401
    fold,
    replaying,  # noqa: E402, F401
    tables,
)

AUDIT_LIMIT_S = float(os.environ.get("AUDIT_LIMIT_S", 600))
AUDIT_LIMIT_MB = float(os.environ.get("AUDIT_LIMIT_MB", 12_000))
AUDIT_COLD_LIMIT_S = float(os.environ.get("AUDIT_COLD_LIMIT_S", 1800))

FULL = {
    "phh_hands": 5000, "runs": 5, "series_runs": 3, "series_hands": 100_000, "jobs_runs": 3,
    "import_events": 1_000_000, "import_runs": 3, "big_hands": 1_000_000,
    "scaling": (10_000, 100_000, 1_000_000), "scaling_runs": 3, "audit_runs": 3,
    "phhs_hands": 10_000, "phhs_runs": 3, "phhs_scaling": (1000, 10_000, 100_000),
    "nlhe_hands": 10_000, "live_hands": 100_000,
}
QUICK = {
    "phh_hands": 600, "runs": 3, "series_runs": 3, "series_hands": 2000, "jobs_runs": 1,
    "import_events": 15_000, "import_runs": 3, "big_hands": 4000,
    "scaling": (1000, 2000, 4000), "scaling_runs": 1, "audit_runs": 2,
    "phhs_hands": 2000, "phhs_runs": 2, "phhs_scaling": (1000, 2000), "nlhe_hands": 1000,
    "live_hands": 2000,
}


# ------------------------------------------------------------------------------- ours / theirs


def ours(db: Path) -> int:
    """Replay every hand of ``db`` as ``replay`` computes it (no derived tables written)."""
    from ledger.store.store import Ledger
    from ledger.store.streams import parse_events, raw_hand_streams
    from replay.fold import replay_events
    from replay.replaying import fewer_collections

    count = 0
    with Ledger(db, read_only=True) as ledger, fewer_collections():  # as replay's loops run
        for _, session, body, _ in raw_hand_streams(ledger):
            replay_events(parse_events(body), session=session)
            count += 1
    return count


def ours_command(db: Path, jobs: int = 1) -> int:
    """The ``replay`` command's work (derived tables rebuilt), without printing."""
    from ledger.store.store import Ledger
    from ledger.store.streams import raw_hand_streams
    from replay.replaying import replayed
    from replay.tables import write_results_rows

    with Ledger(db) as ledger:
        rows = (done[0] for done in replayed(raw_hand_streams(ledger), jobs=jobs))
        return write_results_rows(ledger.connection, rows, hands=None)


def rebuild_command(db: Path, jobs: int) -> int:
    """What ``replay --jobs JOBS`` does but printing (:func:`replay.projections.rebuild`:
    every hand replayed, the derived tables made again, the audit), on ``db``; the hands."""
    from ledger.store.store import Ledger
    from replay.projections import rebuild

    with Ledger(db) as ledger:
        return rebuild(ledger, jobs=jobs).counts["hands"]


def pokerkit(texts: list[tuple[Path, str]], copies: int) -> int:
    """pokerkit's replay of the same files, ``copies`` times: load, iterate every state."""
    from pokerkit import HandHistory

    count = 0
    for _ in range(copies):
        for path, text in texts:
            hands = (HandHistory.loads_all(text) if path.suffix == ".phhs"
                     else [HandHistory.loads(text)])
            for hh in hands:
                for _state in hh:
                    pass
                count += 1
    return count


#: The median CPU seconds (``time.process_time``) of each function of the last
#: :func:`interleaved` call: a load on the shared cores moves them far less than wall time.
CPU: dict[str, float] = {}


def interleaved(fns: dict[str, Any], runs: int) -> dict[str, tuple[float, Any]]:
    """Median wall time of each function, the runs of all of them interleaved (a background
    load then weighs on all alike); the last value of each. The median CPU times go to
    :data:`CPU`."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    cpu: dict[str, list[float]] = {k: [] for k in fns}
    values: dict[str, Any] = {}
    for _ in range(runs):
        for name, fn in fns.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            values[name] = fn()
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    CPU.clear()
    CPU.update({k: statistics.median(v) for k, v in cpu.items()})
    return {k: (statistics.median(v), values[k]) for k, v in times.items()}


# ------------------------------------------------------------------------------- pieces


def bench_vs_pokerkit(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    hands = H.phh_hands()
    copies = -(-cfg["phh_hands"] // len(hands))
    total = copies * len(hands)
    db = H.cached_ledger(f"phh-{total}", lambda p: H.append_hands(p, H.repeated(hands, total)))
    texts = [(p, p.read_text(encoding="utf-8")) for p in H.phh_files()]
    res = interleaved({"ours": lambda: ours(db), "command": lambda: ours_command(db),
                       "pokerkit": lambda: pokerkit(texts, copies)}, cfg["runs"])
    for name, (_, n) in res.items():
        assert n == total, (name, n, total)
    out["replay_hands_per_s"] = round(total / res["ours"][0])
    out["replay_command_hands_per_s"] = round(total / res["command"][0])
    out["pokerkit_hands_per_s"] = round(total / res["pokerkit"][0])
    out["ratio_vs_pokerkit"] = round(res["pokerkit"][0] / res["ours"][0], 2)
    out["ratio_vs_pokerkit_command"] = round(res["pokerkit"][0] / res["command"][0], 2)
    out["ratio_vs_pokerkit_cpu"] = round(CPU["pokerkit"] / CPU["ours"], 2)
    out["cpu_us_per_hand"] = {k: round(v / total * 1e6, 1) for k, v in CPU.items()}
    out["sizes"]["phh_hands"] = total


def series_logs(cfg: dict[str, Any]) -> list[Any]:
    import pickle

    path = H.CACHE / f"series-{cfg['series_hands']}-{H.GENERATOR}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    H.CACHE.mkdir(parents=True, exist_ok=True)
    logs = H.series_logs(cfg["series_hands"])
    path.write_bytes(pickle.dumps(logs))
    return logs


def series_db(cfg: dict[str, Any], hands: int) -> Path:
    """A ledger of whole demo-series sessions (150 hands each) holding >= ``hands`` hands."""
    sessions = -(-hands // 150)
    name = f"series-{cfg['series_hands']}-{sessions}s-{H.GENERATOR}"
    return H.cached_ledger(name, lambda p: H.series_ledger(p, series_logs(cfg), hands))


def bench_synthetic(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    logs = series_logs(cfg)
    hands = sum(1 for log in logs for _, seq, e in log.rows if e.type == "hand_started")
    db = series_db(cfg, hands)
    res = interleaved({"ours": lambda: ours(db)}, cfg["series_runs"])
    jobs = _tree_interleaved({"jobs1": lambda: rebuild_command(db, 1),
                              "jobs2": lambda: rebuild_command(db, 2)}, cfg["jobs_runs"])
    out["synthetic_hands_per_s"] = round(hands / res["ours"][0])
    out["synthetic_command_hands_per_s"] = {
        "jobs_1": round(hands / jobs["jobs1"][0]), "jobs_2": round(hands / jobs["jobs2"][0])}
    out["synthetic_command_cpu_s"] = {"jobs_1": round(jobs["jobs1"][1], 1),
                                      "jobs_2": round(jobs["jobs2"][1], 1)}
    out["jobs_speedup"] = round(jobs["jobs1"][0] / jobs["jobs2"][0], 2)
    if hands < 20_000:
        out["notes"].append(f"jobs_speedup on {hands} hands: below replay.ranges.MIN_HANDS "
                            "(20,000) chunks go to one worker process, whose start-up (about "
                            "1 s of imports) outweighs the work shared")
    out["sizes"]["series_hands"] = hands


def _tree_interleaved(fns: dict[str, Any], runs: int) -> dict[str, tuple[float, float]]:
    """Median wall seconds and median CPU seconds of this process and the worker processes
    it waited for, of each function, the runs of all of them interleaved."""
    import resource

    def cpu() -> float:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + kids.ru_utime + kids.ru_stime

    wall: dict[str, list[float]] = {k: [] for k in fns}
    used: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            start, start_cpu = time.perf_counter(), cpu()
            fn()
            wall[name].append(time.perf_counter() - start)
            used[name].append(cpu() - start_cpu)
    return {k: (statistics.median(wall[k]), statistics.median(used[k])) for k in fns}


def bench_import(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    H.CACHE.mkdir(parents=True, exist_ok=True)
    path = H.CACHE / f"import-{cfg['import_events']}-{H.GENERATOR}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        H.series_jsonl(tmp, series_logs(cfg), cfg["import_events"])
        tmp.rename(path)
    events = sum(1 for _ in path.open("rb"))
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "import.duckdb"

        def fresh() -> None:
            for f in (db, Path(f"{db}.wal")):
                f.unlink(missing_ok=True)

        for key, jobs in (("import_events_per_s", ()),
                          ("import_one_process_events_per_s", ("--jobs", "1"))):
            runs = []
            for _ in range(cfg["import_runs"]):
                fresh()
                runs.append(P.timed_tree(db, "import", *jobs, str(path)))
            out[key] = round(events / statistics.median(r["seconds"] for r in runs))
            out.setdefault("import_cpu_us_per_event", {})[key] = round(
                statistics.median(r["cpu_s"] for r in runs) / events * 1e6, 2)
            out.setdefault("import_peak_rss_mb", {})[key] = round(
                max(r["peak_rss_mb"] for r in runs))
        appended, parsed = _append_only(path, Path(tmp) / "append.duckdb", cfg["import_runs"])
        out["append_events_per_s"] = round(appended / parsed)
    out["sizes"]["import_events"] = events


def _append_only(path: Path, db: Path, runs: int) -> tuple[int, float]:
    """The store's share of an import: the file's streams as ``append_many`` batches (parsed
    beforehand, untimed), appended to a new ledger."""
    from ledger.store.store import Ledger
    from replay.ingest.hand_checks import read_batches

    batches, errors = read_batches(path)
    assert not errors, errors[:1]

    def fresh() -> None:
        for f in (db, Path(f"{db}.wal")):
            f.unlink(missing_ok=True)

    def append() -> int:
        with Ledger(db) as ledger:
            return sum(map(len, ledger.append_many(batches)))

    seconds, count = H.median_time(append, runs, setup=fresh)
    return count, seconds


def _guarded(db: Path, *args: str, limit: float | None = None
             ) -> tuple[float | None, float | None, str]:
    """Run ``handledger --db DB ARGS`` with the audit limits (``limit`` seconds instead of
    ``AUDIT_LIMIT_S``): (seconds, peak MB, note)."""
    seconds_limit = AUDIT_LIMIT_S if limit is None else limit
    cmd = [H.HANDLEDGER, "--db", str(db), *args]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    peak = [0.0]
    killed: list[str] = []

    def watch() -> None:
        while proc.poll() is None:
            mb = LV.tree_rss_mb(proc.pid)  # with its worker processes
            peak[0] = max(peak[0], mb)
            elapsed = time.perf_counter() - start
            if mb > AUDIT_LIMIT_MB or elapsed > seconds_limit:
                killed.append(f"stopped after {elapsed:.0f} s at {mb:.0f} MB "
                              f"(limits {seconds_limit:.0f} s, {AUDIT_LIMIT_MB:.0f} MB)")
                os.killpg(proc.pid, signal.SIGKILL)
                return
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    watcher.join()
    seconds = time.perf_counter() - start
    if killed:
        return None, peak[0], killed[0]
    if proc.returncode not in (0, 1):
        return None, peak[0], f"exit {proc.returncode}: {err.decode()[-300:]}"
    return seconds, peak[0], ""


def bench_big(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    """``scaling``: ``replay --json --problems`` (default jobs: one a CPU) at each size, the
    median of ``scaling_runs`` runs (one at a million): wall seconds, CPU seconds and peak RSS
    of the whole process tree (its workers included), the load average before and after;
    ``peak_rss_mb`` that peak at the largest size."""
    big = cfg["big_hands"]
    dbs = {n: series_db(cfg, n) for n in sorted(set(cfg["scaling"]) | {big})}
    scaling: dict[str, Any] = {}
    for n in cfg["scaling"]:
        runs = [LV.run_tree([H.HANDLEDGER, "--db", str(dbs[n]), "replay", "--json",
                             "--problems"])
                for _ in range(cfg["scaling_runs"] if n < 1_000_000 else 1)]
        hands = _hands(dbs[n])
        seconds = statistics.median(r["seconds"] for r in runs)
        scaling[str(n)] = {"hands": hands, "seconds": round(seconds, 2),
                           "per_hand_us": round(seconds / hands * 1e6, 1),
                           "cpu_s": round(statistics.median(r["cpu_s"] for r in runs), 1),
                           "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                           "load_average": [runs[0]["load_average"][0],
                                            runs[-1]["load_average"][-1]]}
    out["scaling"] = scaling
    out["peak_rss_mb"] = scaling[str(big)]["peak_rss_mb"] if str(big) in scaling else None
    out["sizes"]["big_hands"] = _hands(dbs[big])


def bench_audit(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    """``audit`` and ``balances`` on a copy of the big ledger: cold (derived tables dropped:
    every hand replayed), fresh (the derived tables as of the head: read) and after a new
    session of 150 hands was imported (only that session replayed: ``audit_catchup_s``)."""
    import shutil

    import duckdb

    from ledger.store.store import Ledger

    logs = series_logs(cfg)
    source = series_db(cfg, cfg["big_hands"])
    out["sizes"]["big_hands"] = _hands(source)
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "audit.duckdb"
        shutil.copyfile(source, db)
        con = duckdb.connect(str(db))
        con.execute("DROP TABLE IF EXISTS derived_state")
        con.close()
        runs: dict[str, list[tuple[float | None, float | None, str]]] = {}
        runs["audit_cold_s"] = [_guarded(db, "audit", "--jobs", "2", limit=AUDIT_COLD_LIMIT_S)]
        runs["audit_s"] = [_guarded(db, "audit") for _ in range(cfg["audit_runs"])]
        runs["balances_s"] = [_guarded(db, "balances") for _ in range(cfg["audit_runs"])]
        runs["audit_catchup_s"] = []
        for k in range(cfg["audit_runs"]):
            name, rows = H.cloned(logs[k % len(logs)], f"new{k}")
            with Ledger(db) as ledger:  # a new night, appended as import does (untimed)
                ledger.append_many(list(H.session_batches(name, rows)))
            runs["audit_catchup_s"].append(_guarded(db, "audit"))
    for key, results in runs.items():
        good = [r[0] for r in results if r[0] is not None]
        out[key] = round(statistics.median(good), 2) if good else None
        out.setdefault("audit_peak_rss_mb", {})[key] = round(max(r[1] or 0 for r in results))
        notes = [r[2] for r in results if r[2]]
        if notes:
            out["notes"].append(f"{key}: {notes[0]}")


def bench_nlhe(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    P.bench_nlhe(cfg, out, interleaved, ours, ours_command, CPU)


def bench_live(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    db = series_db(cfg, cfg["live_hands"])
    out["sizes"]["live_hands"] = _hands(db)
    LV.bench_live(cfg, out, db)
    LV.bench_served(cfg, out, db)
    LV.bench_session(cfg, out, db)


def bench_cold(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    db = series_db(cfg, cfg["big_hands"])
    out["sizes"]["big_hands"] = hands = _hands(db)
    LV.bench_cold(cfg, out, db, hands)


def _hands(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT count(*) FROM events WHERE seq = 1 AND hand_id IS NOT NULL").fetchone()[0]
    finally:
        con.close()


# ------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="reduced sizes, under a minute")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=["pokerkit", "synthetic", "import", "big", "audit", "phhs",
                                 "nlhe", "live", "cold"],
                        help="run only these parts (the others' keys are null)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    out: dict[str, Any] = {
        "replay_hands_per_s": None, "pokerkit_hands_per_s": None, "ratio_vs_pokerkit": None,
        "synthetic_hands_per_s": None, "jobs_speedup": None, "import_events_per_s": None,
        "audit_s": None, "balances_s": None, "audit_cold_s": None, "audit_catchup_s": None,
        "replay_cold_s": None,
        "peak_rss_mb": None, "scaling": None, "phhs_import_hands_per_s": None,
        "phhs_import_scaling": None, "ratio_vs_pokerkit_nlhe": None,
        "live_act_s": None, "live_state_s": None, "live_served_act_s": None,
        "live_served_state_s": None, "live_session_act_s": None,
        "live_session_state_s": None, "live_session_start_s": None,
        "quick": args.quick, "sizes": {}, "notes": [], "machine": H.machine(),
    }
    started = time.perf_counter()
    parts = {"pokerkit": bench_vs_pokerkit, "synthetic": bench_synthetic,
             "import": bench_import, "big": bench_big, "audit": bench_audit,
             "phhs": P.bench_phhs_import, "nlhe": bench_nlhe, "live": bench_live,
             "cold": bench_cold}
    for name, fn in parts.items():
        if (name in args.only) if args.only is not None else name != "cold":
            t = time.perf_counter()
            fn(cfg, out)
            out.setdefault("part_seconds", {})[name] = round(time.perf_counter() - t, 1)
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["machine"]["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
