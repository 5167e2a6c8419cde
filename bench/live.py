"""Live recording and the first full audit, as a user waits for them (``bench/run.py --only
live cold``).

* ``live_act_s``, ``live_state_s``: ``handledger act`` and ``handledger state`` as real
  processes (start-up included: each action at the table is one), on a copy of the ledger of
  whole demo-series sessions holding 100,050 hands (``--quick``: 2,100), with a four-handed
  no-limit hold'em hand started live in it (untimed): every action of the hand to its end
  (deals, checks and calls on four streets, the showdown, the payout, the end: 28 acts),
  ``state`` after every other one (14); medians of wall time, with the CPU seconds of the
  process (``*_cpu_s``) and the load average beside them. The project's modules are
  byte-compiled first (:func:`bytecode`), as an installed package's are.
* ``live_session_act_s``, ``live_session_state_s``, ``live_session_start_s``: the same hand
  fed line by line to one ``handledger table`` process (:func:`bench_session`): the wait per
  action at the table once the session runs, and its start-up.
* ``live_served_act_s``, ``live_served_state_s``: the same commands, each a new process,
  handed to a ``handledger serve`` started for the run (:func:`bench_served`).
* ``python -m bench.live --against OTHER_TREE``: the same actions recorded side by side by this
  tree's ``handledger`` and another worktree's (its ``.venv``), each on its own copy of the
  ledger, the two commands alternated action by action (the first of each pair taking turns):
  medians of wall and CPU seconds of each, their ratios, and the load.
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


#: The project's packages, byte-compiled before a timed run (:func:`bytecode`).
PACKAGES = ("cli", "engine", "ledger", "replay")


def bytecode(exe: str, root: Path, *, compiled: bool = True) -> None:
    """Byte-compile the project's modules under ``root`` with the Python beside the console
    script ``exe``, as pip does when it installs a package (``compiled`` False: remove that
    bytecode instead, for a run that compiles every module it loads). An editable install
    writes its bytecode on the first run, unless ``PYTHONDONTWRITEBYTECODE`` is set (as here):
    then every process compiled the ~40 modules a live action loads, about 0.1 s of CPU.

    Raises:
        subprocess.CalledProcessError: compileall failed.
    """
    dirs = [root / p for p in PACKAGES]
    if not compiled:
        for folder in dirs:
            for cache in folder.rglob("__pycache__"):
                shutil.rmtree(cache)
        return
    python = str(Path(exe).with_name("python"))
    subprocess.run([python, "-m", "compileall", "-q", *map(str, dirs)], check=True,
                   stdout=subprocess.DEVNULL)


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system of the child) of one process, and its stdout.

    Raises:
        RuntimeError: the process failed.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def start_hand(db: Path) -> list[str]:
    """Start the bench's live hand (``live-bench``, four-handed no-limit hold'em) in ``db``
    (untimed); the command line of this tree's ``handledger`` on ``db``."""
    base = [H.HANDLEDGER, "--db", str(db)]
    subprocess.run([*base, "hand", "start", "--hand", "live-bench", "--game", "NT", "--stakes",
                    "1/2", "--seats", SEATS, "--button", "Dee"], check=True, capture_output=True)
    return base


def bench_live(cfg: dict[str, Any], out: dict[str, Any], source: Path) -> None:
    """``live_act_s`` and ``live_state_s`` (module doc) on a copy of ``source``, every command
    in its own process (``$HANDLEDGER_NO_SERVE``: a server that may run is not used)."""
    bytecode(H.HANDLEDGER, H.ROOT)
    _one_hand(out, source, "live", {**os.environ, "HANDLEDGER_NO_SERVE": "1"})


def bench_served(cfg: dict[str, Any], out: dict[str, Any], source: Path) -> None:
    """``live_served_act_s``, ``live_served_state_s``: the hand of :func:`bench_live`, every
    command a new ``handledger`` process that hands itself to a running ``handledger serve``
    (``cli/server.py``) started for the run; ``*_cpu_s`` is the CPU of the client process
    alone (the server's forks are not its children)."""
    bytecode(H.HANDLEDGER, H.ROOT)
    folder = Path(tempfile.mkdtemp(prefix="hl-bench-"))
    env = {**os.environ, "HANDLEDGER_SERVE_DIR": str(folder / "sv")}
    env.pop("HANDLEDGER_NO_SERVE", None)
    server = subprocess.Popen([H.HANDLEDGER, "serve"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        for _ in range(2):  # "loaded N modules", then "serving ..."
            if not server.stdout.readline():
                raise RuntimeError(f"serve failed: {server.stderr.read()[-300:]}")
        _one_hand(out, source, "live_served", env)
    finally:
        server.terminate()
        server.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _one_hand(out: dict[str, Any], source: Path, key: str, env: dict[str, str]) -> None:
    """The bench's hand recorded by one command a process on a copy of ``source``: the
    medians of ``{key}_act_s``, ``{key}_state_s`` and their ``*_cpu_s`` into ``out``."""
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "live.duckdb"
        shutil.copyfile(source, db)
        base = start_hand(db)
        acts, states = [], []
        load = [os.getloadavg()[0]]
        for k, action in enumerate(ACTS):
            acts.append(timed([*base, "act", "live-bench", action], env))
            if k % 2:
                states.append(timed([*base, "state", "live-bench"], env))
        last = timed([*base, "act", "live-bench", "end"], env)
        assert last[2].startswith(f"{len(ACTS) + 4} hand_ended; hand complete"), last[2]
        load.append(os.getloadavg()[0])
    for name, runs in ((f"{key}_act", acts), (f"{key}_state", states)):
        out[f"{name}_s"] = round(statistics.median(r[0] for r in runs), 3)
        out[f"{name}_cpu_s"] = round(statistics.median(r[1] for r in runs), 3)
        out.setdefault("runs", {})[name] = len(runs)
    out[f"{key}_load_average"] = [round(x, 1) for x in load]


def bench_session(cfg: dict[str, Any], out: dict[str, Any], source: Path) -> None:
    """``live_session_act_s``, ``live_session_state_s``, ``live_session_start_s``: the hand
    of :func:`bench_live` (its 28 acts, ``state`` after every other one, the end) fed line by
    line to ONE ``handledger table`` process on a copy of ``source``, each line timed from
    its write to its whole output (``state``: to its ``stacks:`` line); medians of wall time.
    The start-up is the wall time from the process's spawn to the output of a first
    ``state`` written at once (imports, the hand's first read, that line), not counted among
    the states; ``live_session_cpu_s`` the CPU seconds of the whole session."""
    bytecode(H.HANDLEDGER, H.ROOT)
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "session.duckdb"
        shutil.copyfile(source, db)
        base = start_hand(db)
        load = [os.getloadavg()[0]]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.Popen([*base, "table", "live-bench"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                bufsize=1)
        assert proc.stdin is not None and proc.stdout is not None

        def line(text: str) -> tuple[float, str]:
            t = time.perf_counter()
            proc.stdin.write(text + "\n")
            proc.stdin.flush()
            got = [proc.stdout.readline()]
            while text == "state" and got[-1] and not got[-1].startswith("seats as pN: "):
                got.append(proc.stdout.readline())
            if not got[-1]:
                raise RuntimeError(f"table ended at {text!r}: {proc.stderr.read()[-300:]}")
            return time.perf_counter() - t, "".join(got)

        try:
            line("state")
            started = time.perf_counter() - start
            acts, states = [], []
            for k, action in enumerate(ACTS):
                acts.append(line(action))
                if k % 2:
                    states.append(line("state"))
            last = line("end")
            assert last[1].startswith(f"{len(ACTS) + 4} hand_ended; hand complete"), last[1]
            proc.stdin.close()
            if proc.wait(timeout=60) != 0:
                raise RuntimeError(f"table failed: {proc.stderr.read()[-300:]}")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        load.append(os.getloadavg()[0])
    out["live_session_start_s"] = round(started, 3)
    out["live_session_act_s"] = round(statistics.median(r[0] for r in acts), 4)
    out["live_session_state_s"] = round(statistics.median(r[0] for r in states), 4)
    out["live_session_act_max_s"] = round(max(r[0] for r in acts), 4)
    out["live_session_cpu_s"] = round((after.ru_utime - before.ru_utime)
                                      + (after.ru_stime - before.ru_stime), 3)
    out.setdefault("runs", {}).update(live_session_act=len(acts),
                                      live_session_state=len(states))
    out["live_session_load_average"] = [round(x, 1) for x in load]


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

    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "cold.duckdb"
        shutil.copyfile(source, db)
        H.drop_derived(db)
        return run_tree([H.HANDLEDGER, "--db", str(db), *args])


def side_by_side(source: Path, trees: dict[str, Path], *, compiled: bool = True,
                 hand: str = "live-bench") -> dict[str, Any]:
    """The live hand of :func:`bench_live` recorded by the ``handledger`` of each tree in
    ``trees`` (label: worktree with its ``.venv``), each on its own copy of ``source``, the
    trees' commands alternated action by action (module doc), the hand named ``hand`` (an
    id inside the range of the ledger's hand ids keeps DuckDB from skipping row groups by
    their min and max). Returns per label the medians
    of wall and CPU seconds of ``act`` and ``state``, then the ratios of the first label's
    to each other's, and the load average before and after.

    Raises:
        RuntimeError: a command failed, or the trees printed different things.
    """
    exes = {label: str(root / ".venv" / "bin" / "handledger") for label, root in trees.items()}
    for label, root in trees.items():
        bytecode(exes[label], root, compiled=compiled)
    env = None if compiled else {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    runs: dict[str, dict[str, list[tuple[float, float, str]]]] = {
        label: {"act": [], "state": []} for label in trees}
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        dbs = {label: Path(tmp) / f"{k}.duckdb" for k, label in enumerate(trees)}
        for label, db in dbs.items():
            shutil.copyfile(source, db)
            subprocess.run([exes[label], "--db", str(db), "hand", "start", "--hand",
                            hand, "--game", "NT", "--stakes", "1/2", "--seats", SEATS,
                            "--button", "Dee"], check=True, capture_output=True, env=env)
        labels = list(trees)
        for k, action in enumerate((*ACTS, "end")):
            turn = labels[k % len(labels):] + labels[: k % len(labels)]
            for label in turn:
                base = [exes[label], "--db", str(dbs[label])]
                runs[label]["act"].append(timed([*base, "act", hand, action], env))
                if k % 2:
                    runs[label]["state"].append(timed([*base, "state", hand], env))
            for kind in ("act", "state"):
                printed = {runs[label][kind][-1][2] for label in labels if runs[label][kind]}
                if len(printed) > 1:
                    raise RuntimeError(f"the trees printed different things: {printed}")
    load.append(os.getloadavg()[0])
    out: dict[str, Any] = {"hands": None, "hand": hand, "bytecode": compiled, "runs": {}}
    for label in trees:
        for kind, done in runs[label].items():
            out.setdefault(label, {})[f"{kind}_s"] = round(
                statistics.median(r[0] for r in done), 3)
            out[label][f"{kind}_cpu_s"] = round(statistics.median(r[1] for r in done), 3)
            out["runs"][kind] = len(done)
    first, *others = trees
    for other in others:
        out[f"{first}_vs_{other}"] = {
            key: round(out[first][key] / out[other][key], 2) for key in out[first]}
    out["load_average"] = [round(x, 1) for x in load]
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m bench.live --against TREE [--quick] [--no-bytecode] [--hand ID]``:
    :func:`side_by_side`
    of this tree (``new``) and ``TREE`` (``old``) on the bench's live ledger (built and
    cached as ``bench/run.py --only live`` builds it), printed as JSON."""
    import argparse
    import json

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--against", type=Path, required=True, help="the other worktree")
    parser.add_argument("--quick", action="store_true", help="the 2,100-hand ledger")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="remove the project's bytecode and keep processes from writing it")
    parser.add_argument("--hand", default="live-bench", help="the live hand's id")
    args = parser.parse_args(argv)
    from bench import run as R

    cfg = R.QUICK if args.quick else R.FULL
    source = R.series_db(cfg, cfg["live_hands"])
    out = side_by_side(source, {"new": H.ROOT, "old": args.against.resolve()},
                       compiled=not args.no_bytecode, hand=args.hand)
    out["hands"] = R._hands(source)
    out["machine"] = H.machine()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
