"""One streaming pass over the ledger that rebuilds every derived table and runs the audit.

``replay`` (of every hand), ``audit`` and the commands that read the derived tables
(``balances``, ``standings``, ``settle``, ``sql``, ``export``) all come here when the tables
are not as of the ledger's head. The pass reads the session rows first (few), then the hands a
window of the ledger at a time (:func:`ledger.store.streams.raw_hand_streams`), replays them in
``jobs`` processes (:func:`cli.cmd_hands.replayed`), appends their rows to the replay tables as they
come and folds their facts into :class:`ledger.audit.stream.StreamAudit`, which audits each
session as soon as it is complete and drops its hands: memory stays flat in the number of
hands. Last, the session tables, the findings and the head they were computed from are written
in one transaction (:func:`ledger.audit.tables.refresh`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cli import render

_DUCKDB_MEMORY = "256MB"  # while streaming


@dataclass
class Projection:
    """What one pass found: the series books (hands dropped), the audit's findings in order,
    and counts of the hands replayed, paid differently from the rules and not verifiable."""

    series: Any
    findings: list[Any]
    counts: dict[str, int] = field(default_factory=dict)


def rebuild(ledger: Any, *, jobs: int = 1, output: str | None = None, problems: bool = False,
            echo: Callable[[str], None] | None = None, label: str = "replaying and auditing",
            quiet: bool = False) -> Projection:
    """Replay every hand of ``ledger``, rebuild the derived tables and audit (module doc).

    ``output`` ``"text"``/``"json"``: each hand rendered (``problems``: only those with a
    discrepancy or a note) and handed to ``echo``; ``quiet``: no progress bar.

    Raises:
        LedgerError: a stored payload that does not parse or a hand the rules reject (located
            at the hand), or a database failure; the derived state is then left stale.
    """
    from cli.cmd_hands import replayed
    from ledger.audit.books import resolve_aliases
    from ledger.audit.load import head, iter_session_rows, session_ends, session_rows
    from ledger.audit.stream import StreamAudit
    from ledger.audit.tables import refresh
    from ledger.store.streams import raw_hand_streams
    from replay.tables import write_results_rows

    con = ledger.connection
    top = head(ledger)
    aliases = resolve_aliases(r.event for r in session_rows(ledger, types=("player_alias",)))
    audit = StreamAudit(iter_session_rows(ledger), session_ends(ledger), aliases=aliases)
    total = con.execute(
        "SELECT count(*) FROM events WHERE seq = 1 AND hand_id IS NOT NULL").fetchone()[0]
    counts = {"hands": 0, "bad": 0, "unverifiable": 0}

    def rows() -> Iterator[dict[str, list[tuple]]]:
        with render.progress(label, enabled=not quiet, total=total) as tick:
            for table_rows, text, bad, unverifiable, facts in replayed(
                    raw_hand_streams(ledger), jobs=jobs, output=output, problems=problems,
                    facts=True):
                audit.add(facts)
                counts["hands"] += 1
                counts["bad"] += bad
                counts["unverifiable"] += unverifiable
                if text is not None and echo is not None:
                    echo(text)
                tick()
                yield table_rows

    with streaming(con):
        write_results_rows(con, rows(), hands=None)
    series, findings = audit.finish()
    refresh(ledger, series, findings, top)
    return Projection(series, findings, counts)


def catch_up(ledger: Any, *, jobs: int = 1, quiet: bool = False) -> str:
    """Bring the derived tables up to the ledger's head: nothing when they are, else only the
    sessions that moved are replayed and audited again
    (:mod:`ledger.audit.catchup`), else a full :func:`rebuild`. Returns what was done:
    ``"fresh"``, ``"sessions"`` or ``"full"``.

    Raises:
        LedgerError: what :func:`rebuild` raises; the derived tables are then unchanged.
    """
    from cli.cmd_hands import replayed
    from ledger.audit.catchup import aliases, first_position, moved, replace_sessions
    from ledger.audit.load import session_ends, session_rows
    from ledger.audit.stream import StreamAudit
    from ledger.store.streams import session_hand_streams
    from replay.tables import append_rows

    con = ledger.connection
    plan = moved(con)
    if plan.fresh:
        return "fresh"
    if plan.full is not None:
        rebuild(ledger, jobs=jobs, quiet=quiet)
        return "full"
    names = list(plan.sessions)
    low = first_position(con, plan) - 1  # every row of those sessions is after it
    hands = session_hand_streams(ledger, names, after=low)
    known = dict(con.execute("SELECT hand_id, ord FROM hands WHERE list_contains(?, session)",
                             [names]).fetchall())
    last = con.execute("SELECT coalesce(max(ord), 0) FROM hands").fetchone()[0]
    numbered = []
    for raw in hands:
        if raw[0] not in known:
            last += 1
        numbered.append((known.get(raw[0], last), raw))
    audit = StreamAudit(session_rows(ledger, sessions=names, after=low),
                        session_ends(ledger, names, after=plan.since), aliases=aliases(con))
    table_rows = []
    with render.progress("replaying the sessions that moved", enabled=not quiet,
                         total=len(hands)) as tick:
        for rows, _, _, _, facts in replayed(numbered, jobs=jobs, facts=True, numbered=True):
            audit.add(facts)
            table_rows.append(rows)
            tick()
    series, findings = audit.finish()
    replace_sessions(ledger, names, series, findings, plan.head,
                     lambda c: append_rows(c, table_rows))
    return "sessions"


@contextmanager
def streaming(con: Any) -> Iterator[None]:
    """Cap DuckDB's memory while the ledger is read once, start to end: otherwise it keeps
    every block it read cached and memory grows with the ledger (about 1 kB a hand)."""
    before = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    con.execute(f"SET memory_limit = '{_DUCKDB_MEMORY}'")
    try:
        yield
    finally:
        con.execute(f"SET memory_limit = '{before}'")
