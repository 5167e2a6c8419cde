"""The PHH parts of ``bench/run.py``: large ``.phhs`` imports, and no-limit hold'em replay
against pokerkit.

* ``phhs_import_hands_per_s``: ``handledger import`` (a separate process, wall time) of one
  ``.phhs`` of the real hands of ``../shared/data/phh`` cycled with new hand ids
  (:func:`bench.helpers.write_real_phhs`, 23.5 events a hand, rich in stud and draw) into a
  new ledger: reading, the engine's check of every hand, the hash chain, DuckDB, the derived
  tables (made from the check, ``replay.ingest.derived``); worker processes read and check
  a file this large (``replay.ingest.parallel``); median of ``phhs_runs``.
  ``phhs_import_one_process_hands_per_s``: the same with ``--jobs 1``;
  ``phhs_import_cpu_us_per_hand``: the CPU of every process of the run a hand (both ways).
  ``phhs_import_scaling``: the same at each size of ``phhs_scaling`` (one run each), with
  ``per_hand_us`` (flat when the import is linear), the CPU a hand, the peak RSS of the
  largest process and the largest sum of its processes' RSS (:func:`timed_tree`).
  ``phhs_import_nlhe_hands_per_s``: the same for the no-limit hold'em file below.
* ``ratio_vs_pokerkit_nlhe``: ``nlhe_hands`` six-handed no-limit hold'em hands from the
  generator (:data:`replay.demo.randomhand.NLHE`, ``oracle=True``: only actions pokerkit
  accepts), written as one ``.phhs`` and imported into a ledger; pokerkit's
  ``HandHistory.loads_all`` of that file iterating every hand's states, against ours
  (:func:`bench.run.ours`: what ``replay`` computes, read from the ledger), interleaved, in
  the same run (``ratio_vs_pokerkit_nlhe_cpu``: in CPU time, with ``nlhe_cpu_us_per_hand``).
  ``ratio_vs_pokerkit_nlhe_command`` uses the ``replay`` command's work
  (derived tables written) instead; ``nlhe_replay_cli_s`` is ``handledger replay --json``
  on that ledger (a separate process, wall time, start-up included). ``nlhe_shape`` compares
  the generated hands with the real six-handed hold'em hands of ``../shared/data/phh``.
"""

from __future__ import annotations

import collections
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench import helpers as H


def _fresh(db: Path) -> None:
    for f in (db, Path(f"{db}.wal")):
        f.unlink(missing_ok=True)


def _tree(root: int) -> list[int]:
    """``root`` and every process below it (Linux ``/proc``: a worker of the import is a
    child of its forkserver, itself a child of ``handledger``)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, []))
    return out


def _usage(pid: int) -> tuple[float, float, float] | None:
    """(peak RSS MB, RSS MB, CPU seconds) of a process now, None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            status = dict(line.split(":", 1) for line in f if ":" in line)
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, ValueError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    kb = lambda key: int(status.get(key, "0 kB").split()[0]) / 1024  # noqa: E731
    return kb("VmHWM"), kb("VmRSS"), (int(fields[11]) + int(fields[12])) / tick


def timed_tree(db: Path | str, *args: str) -> dict[str, float]:
    """One ``handledger --db DB ARGS…`` run (a new process, as a user runs it), with its
    worker processes: wall seconds, CPU seconds of every process of the run (sampled every
    20 ms from ``/proc``: a process's last 20 ms may be missed), the peak RSS of its largest
    process and the largest sum of the RSS of its processes at one time (MB).

    Raises:
        RuntimeError: the command failed.
    """
    import threading

    start = time.perf_counter()
    proc = subprocess.Popen([H.HANDLEDGER, "--db", str(db), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    seen: dict[int, tuple[float, float, float]] = {}
    tree_rss = [0.0]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            total = 0.0
            for pid in _tree(proc.pid):
                now = _usage(pid)
                if now is not None:  # a process that ended (a zombie) says 0: keep the most
                    before = seen.get(pid, (0.0, 0.0, 0.0))
                    seen[pid] = (max(before[0], now[0]), now[1], max(before[2], now[2]))
                    total += now[1]
            tree_rss[0] = max(tree_rss[0], total)
            done.wait(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    watcher.join()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"handledger {' '.join(args)} failed: {err.decode()[-500:]}")
    return {"seconds": seconds, "cpu_s": sum(u[2] for u in seen.values()),
            "peak_rss_mb": max((u[0] for u in seen.values()), default=0.0),
            "tree_rss_mb": tree_rss[0]}


def real_phhs(hands: int) -> Path:
    """The cached ``.phhs`` of ``hands`` real hands (:func:`bench.helpers.write_real_phhs`)."""
    H.CACHE.mkdir(parents=True, exist_ok=True)
    path = H.CACHE / f"real-{hands}.phhs"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        H.write_real_phhs(tmp, hands)
        tmp.rename(path)
    return path


def _style_tag() -> str:
    import hashlib

    from replay.demo.randomhand import NLHE

    return hashlib.sha256(repr(NLHE).encode()).hexdigest()[:8]


def nlhe_phhs(hands: int, seed: int = 1) -> Path:
    """The cached ``.phhs`` of ``hands`` generated six-handed no-limit hold'em hands, with
    ``<file>.shape.json``: their :func:`shape`."""
    from ledger.formats.phh.read import write_phhs
    from replay.demo.randomhand import NLHE, random_hand
    from replay.ingest.export import phh_text

    H.CACHE.mkdir(parents=True, exist_ok=True)
    path = H.CACHE / f"nlhe-{hands}-{seed}-{_style_tag()}.phhs"
    if not path.exists():
        rng = random.Random(seed)
        played = [random_hand(rng, "NT", players=6, hand_id=f"nl{i}", oracle=True, style=NLHE)
                  for i in range(hands)]
        Path(f"{path}.shape.json").write_text(json.dumps(shape([h.actions for h in played])))
        tmp = path.with_suffix(".tmp")
        tmp.write_text(write_phhs(phh_text(h.events) for h in played), encoding="utf-8")
        tmp.rename(path)
    return path


def shape(hands: Iterable[Sequence[str]]) -> dict[str, Any]:
    """Player actions a hand (not counting the dealer's or showing cards), the share of
    hands that see a flop, turn, river and showdown, and the mix of fold / check-call /
    bet-raise, from each hand's PHH action strings."""
    count = actions = 0
    reach: collections.Counter[str] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    for texts in hands:
        count += 1
        played = [t for t in texts if not t.startswith("d ") and t.split()[1] not in ("sm", "sd")]
        actions += len(played)
        kinds.update(t.split()[1] for t in played)
        boards = sum(t.startswith("d db") for t in texts)
        for k, street in enumerate(("flop", "turn", "river"), 1):
            reach[street] += boards >= k
        reach["showdown"] += any(t.split()[1] == "sm" for t in texts if not t.startswith("d "))
    return {"hands": count, "actions_per_hand": round(actions / count, 2),
            **{k: round(reach[k] / count, 3) for k in ("flop", "turn", "river", "showdown")},
            "mix": {k: round(kinds[k] / actions, 3) for k in ("f", "cc", "cbr")}}


def real_nlhe_shape() -> dict[str, Any]:
    """:func:`shape` of the real six-handed no-limit hold'em hands of ``../shared/data/phh``."""
    from ledger.formats.phh.read import read_phh

    hands = [h for p in H.phh_files() for h in read_phh(p).hands
             if h.started.game == "NT" and len(h.started.seats) == 6]
    return shape([a.text for a in h.actions] for h in hands)


# ------------------------------------------------------------------------------- parts


def bench_phhs_import(cfg: dict[str, Any], out: dict[str, Any]) -> None:
    H.CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=H.CACHE) as tmp:
        db = Path(tmp) / "phhs.duckdb"
        scaling: dict[str, Any] = {}
        for n in cfg["phhs_scaling"]:
            _fresh(db)
            run = timed_tree(db, "import", str(real_phhs(n)))
            scaling[str(n)] = {"hands": n, "seconds": round(run["seconds"], 2),
                               "per_hand_us": round(run["seconds"] / n * 1e6, 1),
                               "cpu_us_per_hand": round(run["cpu_s"] / n * 1e6, 1),
                               "peak_rss_mb": round(run["peak_rss_mb"]),
                               "tree_rss_mb": round(run["tree_rss_mb"])}
        n = cfg["phhs_hands"]
        medians: dict[str, dict[str, float]] = {}
        for name, path, jobs in (("real", real_phhs(n), ()), ("one", real_phhs(n), ("--jobs", "1")),
                                 ("nlhe", nlhe_phhs(cfg["nlhe_hands"]), ())):
            runs = []
            for _ in range(cfg["phhs_runs"]):
                _fresh(db)
                runs.append(timed_tree(db, "import", *jobs, str(path)))
            medians[name] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    out["phhs_import_hands_per_s"] = round(n / medians["real"]["seconds"])
    out["phhs_import_one_process_hands_per_s"] = round(n / medians["one"]["seconds"])
    out["phhs_import_cpu_us_per_hand"] = {k: round(medians[k]["cpu_s"] / n * 1e6, 1)
                                          for k in ("real", "one")}
    out["phhs_import_nlhe_hands_per_s"] = round(cfg["nlhe_hands"] / medians["nlhe"]["seconds"])
    out["phhs_import_scaling"] = scaling
    out["sizes"]["phhs_hands"] = n


def bench_nlhe(cfg: dict[str, Any], out: dict[str, Any], interleaved: Any, ours: Any,
               ours_command: Any, cpu: dict[str, float]) -> None:
    """``ratio_vs_pokerkit_nlhe`` and its companions, with ``bench.run``'s own ``interleaved``
    runs and replay functions (``ours``, ``ours_command``) and the CPU medians ``interleaved``
    leaves in ``cpu``."""
    n = cfg["nlhe_hands"]
    path = nlhe_phhs(n)
    db = H.cached_ledger(path.stem, lambda p: H.cli(p, "import", str(path)))
    text = path.read_text(encoding="utf-8")
    res = interleaved({"ours": lambda: ours(db), "command": lambda: ours_command(db),
                       "pokerkit": lambda: _pokerkit_all(text)}, cfg["runs"])
    for name, (_, count) in res.items():
        assert count == n, (name, count, n)
    out["ratio_vs_pokerkit_nlhe_cpu"] = round(cpu["pokerkit"] / cpu["ours"], 2)
    out["nlhe_cpu_us_per_hand"] = {k: round(v / n * 1e6, 1) for k, v in cpu.items()}
    cli = [H.timed_cli(db, "replay", "--json")[0] for _ in range(cfg["runs"])]
    out["nlhe_hands_per_s"] = round(n / res["ours"][0])
    out["pokerkit_nlhe_hands_per_s"] = round(n / res["pokerkit"][0])
    out["ratio_vs_pokerkit_nlhe"] = round(res["pokerkit"][0] / res["ours"][0], 2)
    out["ratio_vs_pokerkit_nlhe_command"] = round(res["pokerkit"][0] / res["command"][0], 2)
    out["nlhe_replay_cli_s"] = round(statistics.median(cli), 2)
    out["nlhe_shape"] = {"generated": json.loads(Path(f"{path}.shape.json").read_text()),
                         "real_six_handed": real_nlhe_shape()}
    out["sizes"]["nlhe_hands"] = n


def _pokerkit_all(text: str) -> int:
    from pokerkit import HandHistory

    count = 0
    for hh in HandHistory.loads_all(text):
        for _state in hh:
            pass
        count += 1
    return count
