"""The streaming audit against the number of sessions: ``python bench/audit_sessions.py
[SESSIONS ...] [--runs N] [--batch] [--ledger] [--json]`` (default 10000 100000).

A ledger of many tiny sessions is built in memory (no DuckDB, no replay: only the books and
the checks are timed), each session open, two buy-ins of 100 chips, one hand (A wins 10 from
B), two cash-outs and a close; the next session opens before the previous one's hand, so new
books keep appearing between hands. Every seventh session has an error planted (a cash-out one
chip short, a starting stack ten chips high, a payment short), so there are findings to rank.

Timed: :class:`ledger.audit.stream.StreamAudit` (the fold with ``ends``, each session audited
as it closes, then :meth:`~ledger.audit.stream.StreamAudit.finish`), the median of ``--runs``
(default 1), wall and CPU seconds (``stream_cpu_s``: this process's, steadier than the wall
time on a shared machine); ``--batch`` also times :func:`ledger.audit.checks.audit` over
:func:`ledger.audit.books.build_series`. Every run checks that the streaming findings equal
the batch audit's (same findings, same order) before it reports. The figure should grow
linearly: ``per_session_us`` flat.

``--ledger`` also times the whole ``handledger audit`` (a separate process, wall time) on a
ledger of that many sessions, each opened, a buy-in for every seat and one real hand of
``../shared/data/phh`` (in turn) that starts from them, with no derived tables (every hand
replayed and every session audited, as the first ``audit`` after an import):
``audit_cold_s``, and its CPU seconds ``audit_cold_cpu_s``. The ledgers are built once into
the benchmarks' cache (``bench/helpers.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import helpers as H  # noqa: E402
from ledger.audit.books import HandFacts, SessionRow, build_series  # noqa: E402
from ledger.audit.checks import audit  # noqa: E402
from ledger.audit.stream import StreamAudit  # noqa: E402
from ledger.model import events as ev  # noqa: E402


def tiny_sessions(n: int) -> tuple[list[SessionRow], list[HandFacts], dict[str | None, int]]:
    """``n`` sessions as (rows, hands, ends) in ledger order (positions from 1)."""
    rows: list[SessionRow] = []
    hands: list[HandFacts] = []
    position = 0

    def row(name: str, event: Any) -> None:
        nonlocal position
        position += 1
        rows.append(SessionRow(position, name, event))

    def opening(k: int) -> None:
        name = f"s{k}"
        row(name, ev.SessionOpened(session=name, chip_value_minor=25, currency="USD",
                                   decimals=2))
        row(name, ev.BuyIn(player="A", chips=100))
        row(name, ev.BuyIn(player="B", chips=100))

    if n:
        opening(0)
    for k in range(n):
        name, bad = f"s{k}", k % 7 == 3
        if k + 1 < n:
            opening(k + 1)
        position += 1
        start_a = 110 if bad and k % 3 == 0 else 100
        hands.append(HandFacts(
            hand=f"h{k}", session=name, ord=k + 1, position=position, game="NT",
            status="complete", starting={"A": start_a, "B": 100},
            contributions={"A": 10, "B": 10}, paid={"A": 20, "B": 0},
            net={"A": 10, "B": -10}, pot_out=20))
        row(name, ev.CashOut(player="A", chips=start_a + 10))
        row(name, ev.CashOut(player="B", chips=90 - (bad and k % 3 == 1)))
        row(name, ev.SessionClosed())
        row(name, ev.Payment(payer="B", payee="A", amount_minor=250 - 25 * bad))
    ends: dict[str | None, int] = {}
    for r in rows:
        ends[r.session] = r.position
    return rows, hands, ends


def streamed(rows: list[SessionRow], hands: list[HandFacts],
             ends: dict[str | None, int]) -> list[Any]:
    stream = StreamAudit(rows, ends)
    for h in hands:
        stream.add(h)
    return stream.finish()[1]


def batched(rows: list[SessionRow], hands: list[HandFacts]) -> list[Any]:
    return audit(build_series(rows, hands))


def tiny_ledger(n: int) -> Path:
    """The cached ledger of ``n`` one-hand sessions (see the module doc)."""
    from ledger.store.store import Ledger

    def build(path: Path) -> None:
        pool = H.phh_hands()
        with Ledger(path) as ledger:
            batch: list[tuple] = []
            for k in range(n):
                name = f"t{k}"
                events = H.renamed(pool[k % len(pool)], f"{name}-h", session=name)
                opening = [ev.SessionOpened(session=name),
                           *[ev.BuyIn(player=s.player, chips=s.stack) for s in events[0].seats]]
                batch += [(f"session:{name}", opening, None, name, None),
                          (f"{name}-h", events, f"{name}-h", name, None)]
                if len(batch) >= 4000:
                    ledger.append_many(batch)
                    batch = []
            if batch:
                ledger.append_many(batch)

    return H.cached_ledger(f"tiny-sessions-{n}", build)


def audit_cold(n: int, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds (its own, user + system) of ``handledger audit`` on
    :func:`tiny_ledger`, its derived tables dropped before each run."""
    import resource
    import subprocess

    import duckdb

    db = tiny_ledger(n)
    walls, cpus = [], []
    for _ in range(runs):
        con = duckdb.connect(str(db))
        con.execute("DROP TABLE IF EXISTS derived_state")
        con.close()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([H.HANDLEDGER, "--db", str(db), "audit"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):  # 1: findings (the real hands' rake)
            raise RuntimeError(f"handledger audit failed ({done.returncode}): {done.stderr}")
    return statistics.median(walls), statistics.median(cpus)


def measure(n: int, runs: int, batch: bool, ledger: bool = False) -> dict[str, Any]:
    rows, hands, ends = tiny_sessions(n)
    want = batched(rows, hands)
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        got = streamed(rows, hands, ends)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert got == want, "the streaming audit differs from the batch audit"
    seconds = statistics.median(times)
    out: dict[str, Any] = {"sessions": n, "findings": len(want), "stream_s": round(seconds, 3),
                           "stream_cpu_s": round(statistics.median(cpu), 3),
                           "per_session_us": round(seconds / max(n, 1) * 1e6, 1)}
    if batch:
        start, start_cpu = time.perf_counter(), time.process_time()
        batched(rows, hands)
        out["batch_s"] = round(time.perf_counter() - start, 3)
        out["batch_cpu_s"] = round(time.process_time() - start_cpu, 3)
    if ledger:
        wall, cpu = audit_cold(n, runs)
        out["audit_cold_s"], out["audit_cold_cpu_s"] = round(wall, 2), round(cpu, 2)
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sessions", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=1, help="median of this many runs")
    parser.add_argument("--batch", action="store_true", help="also time the batch audit")
    parser.add_argument("--ledger", action="store_true",
                        help="also time `handledger audit` on a ledger of that many sessions")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    args = parser.parse_args(argv)
    results = []
    for n in args.sessions:
        result = measure(n, args.runs, args.batch, args.ledger)
        results.append(result)
        print(json.dumps(result) if args.json else
              "  ".join(f"{k} {v}" for k, v in result.items()), flush=True)
    return results


if __name__ == "__main__":
    main()
