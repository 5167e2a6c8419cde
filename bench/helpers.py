"""Corpora and ledgers for the benchmarks (``bench/run.py``).

Everything is built from sources that already exist: the real hands of ``../shared/data/phh``
(parsed and checked by the import path), seeded random legal hands (:mod:`replay.demo.randomhand`)
and, when it is available, the demo series (:mod:`replay.demo.series`). Big ledgers are built once
and kept in a cache directory (``$HANDLEDGER_BENCH_CACHE``, default ``bench/.cache``) under a
name that says what is in them, so a second run times the work, not the set-up.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PHH_DIR = ROOT.parent / "shared" / "data" / "phh"
CACHE = Path(os.environ.get("HANDLEDGER_BENCH_CACHE", ROOT / "bench" / ".cache"))
HANDLEDGER = str(Path(sys.executable).with_name("handledger"))


def _generator_tag() -> str:
    """Eight hex digits of the SHA-256 of the hand generator's sources (``replay/demo``): in
    the name of every cached corpus made from generated hands, so that a generator that now
    deals otherwise (a rule it must follow, e.g. a draw's reshuffle) builds its corpus anew
    instead of timing hands the rules now refuse."""
    import hashlib

    digest = hashlib.sha256()
    for source in sorted((ROOT / "replay" / "demo").glob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:8]


#: :func:`_generator_tag` of this tree.
GENERATOR = _generator_tag()


# ------------------------------------------------------------------------------- measuring


def drop_derived(db: Path | str) -> None:
    """Drop every view and every table but ``events`` and ``meta`` of the ledger ``db``, as a
    ledger imported before any replay has it (what a first full ``replay``/``audit`` meets)."""
    import duckdb

    con = duckdb.connect(str(db))
    for (view,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal"
                               ).fetchall():
        con.execute(f'DROP VIEW "{view}"')
    for (table,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall():
        if table not in ("events", "meta"):
            con.execute(f'DROP TABLE "{table}"')
    con.execute("CHECKPOINT")
    con.close()


def median_time(fn: Callable[[], Any], runs: int, *, setup: Callable[[], Any] | None = None
                ) -> tuple[float, Any]:
    """Median wall time of ``runs`` calls of ``fn`` (``setup`` before each, untimed) and the
    last call's value."""
    times, value = [], None
    for _ in range(runs):
        if setup is not None:
            setup()
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def median_wall_cpu(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process (seconds) of ``runs`` calls of
    ``fn``."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def cli(db: Path | str, *args: str, stdout: Any = subprocess.DEVNULL, check: bool = True
        ) -> subprocess.CompletedProcess:
    """Run ``handledger --db DB ARGS…`` as a separate process."""
    return subprocess.run([HANDLEDGER, "--db", str(db), *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, check=check)


def timed_cli(db: Path | str, *args: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB, the child's ``ru_maxrss``) of one ``handledger`` run."""
    import resource

    code = (
        "import resource, subprocess, sys, time, json\n"
        "t = time.perf_counter()\n"
        "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
        "dt = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([p.returncode, dt, rss, p.stderr.decode()[-500:]]))\n"
    )
    del resource
    out = subprocess.run([sys.executable, "-c", code, HANDLEDGER, "--db", str(db), *args],
                         capture_output=True, text=True, check=True).stdout
    rc, seconds, rss, err = json.loads(out)
    if rc not in (0, 1):  # replay exits 1 when a payout differs
        raise RuntimeError(f"handledger {' '.join(args)} failed ({rc}): {err}")
    return seconds, rss


# ------------------------------------------------------------------------------- corpora


def phh_files() -> list[Path]:
    """The real hand files (``.phh`` and ``.phhs``), sorted."""
    return sorted(p for p in PHH_DIR.rglob("*") if p.suffix in (".phh", ".phhs"))


def phh_hands() -> list[list[Any]]:
    """Every real hand as the events the import path makes of it (checked by the engine)."""
    from ledger.formats.phh.read import read_phh
    from replay.build import events_from_phh

    hands = []
    for path in phh_files():
        parsed = read_phh(path)
        if parsed.errors:
            raise RuntimeError(f"{path}: {parsed.errors[0]}")
        hands.extend(events_from_phh(hand) for hand in parsed.hands)
    return hands


def real_hand_texts() -> list[str]:
    """The TOML body of every real hand (``../shared/data/phh``), header line and the keys
    ``hand`` and ``venue`` left out (one-line keys only, as these files are written)."""
    from ledger.formats.phh.scan import split_sections

    bodies = []
    for path in phh_files():
        text = path.read_text(encoding="utf-8")
        parts = ([s.text.split("\n", 1)[1] for s in split_sections(text)[1]]
                 if path.suffix == ".phhs" else [text])
        for body in parts:
            kept = [line for line in body.splitlines()
                    if line.strip() and not line.startswith("#")
                    and line.split("=")[0].strip() not in ("hand", "venue")]
            bodies.append("\n".join(kept) + "\n")
    return bodies


def write_real_phhs(path: Path, hands: int, tag: str = "bench") -> int:
    """A ``.phhs`` of ``hands`` real hands (:func:`real_hand_texts` cycled), table ``[i]``
    with ``venue = '<tag>'`` and ``hand = i``: hand ids ``<tag>-1 … <tag>-N``, every source
    key distinct. Returns the hands written."""
    bodies = real_hand_texts()
    with path.open("w", encoding="utf-8") as out:
        out.write(f"# {hands} real hands of ../shared/data/phh, cycled, with new hand ids\n")
        for i in range(1, hands + 1):
            out.write(f"\n[{i}]\n{bodies[(i - 1) % len(bodies)]}venue = '{tag}'\nhand = {i}\n")
    return hands


def renamed(events: Sequence[Any], hand: str, session: str | None = None) -> list[Any]:
    """A copy of one hand's events under another hand id (and session)."""
    update: dict[str, Any] = {"hand": hand}
    if session is not None:
        update["session"] = session
    return [events[0].model_copy(update=update), *events[1:]]


def repeated(hands: Sequence[list[Any]], total: int) -> Iterator[list[Any]]:
    """``hands`` cycled to ``total`` hands, copy ``k`` of hand ``h`` named ``h~k``."""
    for i in range(total):
        k, j = divmod(i, len(hands))
        yield renamed(hands[j], f"{hands[j][0].hand}~{k}")


def random_hands(total: int, seed: int = 1, codes: Sequence[str] | None = None,
                 session: str | None = None, prefix: str = "r") -> Iterator[list[Any]]:
    """``total`` seeded random legal hands (:func:`replay.demo.randomhand.random_hand`), the PHH
    variant codes in turn."""
    from engine.games import PHH_CODES
    from replay.demo.randomhand import random_hand

    codes = tuple(codes or PHH_CODES)
    rng = random.Random(seed)
    for i in range(total):
        yield random_hand(rng, codes[i % len(codes)], hand_id=f"{prefix}{i}",
                          session=session).events


def cycled(pool: Sequence[list[Any]], total: int, prefix: str) -> Iterator[list[Any]]:
    """``pool`` cycled to ``total`` hands renamed ``<prefix><i>`` (to build big ledgers fast:
    the engine work of replaying them is the same as for fresh hands)."""
    for i in range(total):
        yield renamed(pool[i % len(pool)], f"{prefix}{i}")


def series_logs(hands: int, seed: int = 1) -> list[Any]:
    """The session logs of a demo series (:func:`replay.demo.series.generate_series`, 150 hands a
    session) of at least ``hands`` hands: ``(stream, seq, event)`` rows in the order played."""
    from replay.demo.series import generate_series

    sessions = max(1, -(-hands // 150))
    return generate_series(sessions=sessions, hands=min(hands, 150), seed=seed).sessions


def cloned(log: Any, tag: str) -> tuple[str, list[tuple[str, int, Any]]]:
    """A session log under new names: session ``<name><tag>``, hands ``<hand><tag>`` (only
    ``session_opened.session``, ``hand_started.hand`` and ``.session`` name them)."""
    name = f"{log.name}{tag}"
    rows = []
    for stream, seq, event in log.rows:
        if stream == log.name:
            if event.type == "session_opened":
                event = event.model_copy(update={"session": name})
            rows.append((name, seq, event))
        else:
            if event.type == "hand_started":
                event = event.model_copy(update={"hand": f"{event.hand}{tag}", "session": name})
            rows.append((f"{stream}{tag}", seq, event))
    return name, rows


def session_batches(name: str, rows: Sequence[tuple[str, int, Any]]) -> Iterator[tuple]:
    """``append_many`` batches of one session's rows, in order: each hand whole, the session
    events between hands as one batch (as ``handledger import`` appends them)."""
    stream: str | None = None
    events: list[Any] = []
    for row_stream, _, event in rows:
        if row_stream != stream and events:
            yield _batch(name, stream, events)  # type: ignore[arg-type]
            events = []
        stream = row_stream
        events.append(event)
    if events:
        yield _batch(name, stream, events)  # type: ignore[arg-type]


def _batch(session: str, stream: str, events: list[Any]) -> tuple:
    if stream == session:
        return f"session:{session}", events, None, session, None
    return stream, events, stream, session, None


def series_ledger(db: Path | str, logs: Sequence[Any], hands: int, chunk: int = 2000) -> int:
    """Append whole sessions of ``logs`` (cycled, the k-th pass renamed with ``c<k>``) until
    the ledger holds at least ``hands`` hands; returns the hands appended."""
    from ledger.store.store import Ledger

    done = 0
    with Ledger(db) as ledger:
        batch: list[tuple] = []
        k = 0
        while done < hands:
            for log in logs:
                name, rows = cloned(log, f"c{k}") if k else (log.name, log.rows)
                for b in session_batches(name, rows):
                    batch.append(b)
                    done += b[2] is not None
                if len(batch) >= chunk:
                    ledger.append_many(batch)
                    batch = []
                if done >= hands:
                    break
            k += 1
        if batch:
            ledger.append_many(batch)
    return done


def series_jsonl(path: Path, logs: Sequence[Any], events: int) -> int:
    """Whole sessions of ``logs`` (cycled and renamed as in :func:`series_ledger`) written as
    one JSON-lines file (:mod:`ledger.formats.jsonl`) of at least ``events`` events; returns how
    many."""
    from ledger.formats.jsonl import iter_jsonl

    written, k = 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < events:
            for log in logs:
                _, rows = cloned(log, f"c{k}") if k else (log.name, log.rows)
                out.writelines(iter_jsonl(rows))
                written += len(rows)
                if written >= events:
                    break
            k += 1
    return written


# ------------------------------------------------------------------------------- ledgers


def append_hands(db: Path | str, hands: Iterable[list[Any]], chunk: int = 2000) -> int:
    """Append hands (one stream each, no source key) in transactions of ``chunk`` hands;
    returns the events written."""
    from ledger.store.store import Ledger

    written = 0
    with Ledger(db) as ledger:
        batch: list[tuple] = []
        for events in hands:
            hand = events[0].hand
            batch.append((hand, events, hand, events[0].session, None))
            if len(batch) >= chunk:
                written += sum(map(len, ledger.append_many(batch)))
                batch = []
        if batch:
            written += sum(map(len, ledger.append_many(batch)))
    return written


def cached_ledger(name: str, build: Callable[[Path], Any]) -> Path:
    """The ledger ``CACHE/<name>.duckdb``, built by ``build(path)`` when it is missing."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}.duckdb"
    if not path.exists():
        tmp = path.with_suffix(".building.duckdb")
        for stale in (tmp, Path(f"{tmp}.wal")):
            stale.unlink(missing_ok=True)
        build(tmp)
        tmp.rename(path)
    return path


def write_events_jsonl(path: Path, hands: Iterable[list[Any]], events: int) -> int:
    """A JSON-lines file (:mod:`ledger.formats.jsonl`) of whole hands with at least ``events``
    events; returns how many it holds."""
    from ledger.formats.jsonl import jsonl_line

    written = 0
    with path.open("w", encoding="utf-8") as out:
        for hand in hands:
            out.writelines(jsonl_line(hand[0].hand, seq, e) + "\n"
                           for seq, e in enumerate(hand, 1))
            written += len(hand)
            if written >= events:
                break
    return written


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import platform

    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    import duckdb
    import pokerkit

    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem,
            "python": platform.python_version(), "duckdb": duckdb.__version__,
            "pokerkit": getattr(pokerkit, "__version__", "0.7.x")}
