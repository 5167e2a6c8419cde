"""The streaming audit against the number of sessions: ``python bench/audit_sessions.py
[SESSIONS ...] [--runs N] [--batch] [--json]`` (default 10000 100000).

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


def measure(n: int, runs: int, batch: bool) -> dict[str, Any]:
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
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sessions", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=1, help="median of this many runs")
    parser.add_argument("--batch", action="store_true", help="also time the batch audit")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    args = parser.parse_args(argv)
    results = []
    for n in args.sessions:
        result = measure(n, args.runs, args.batch)
        results.append(result)
        print(json.dumps(result) if args.json else
              "  ".join(f"{k} {v}" for k, v in result.items()), flush=True)
    return results


if __name__ == "__main__":
    main()
