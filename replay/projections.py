"""The derived tables as projections of the ledger: one streaming pass rebuilds them all and
audits; a catch-up replays only the sessions that moved.

``replay`` (of every hand), ``audit`` and the commands that read the derived tables
(``balances``, ``standings``, ``settle``, ``sql``, ``export``) come here when the tables are not
as of the ledger's head. :func:`rebuild` reads the session rows first (few), then the hands a
window of the ledger at a time (:func:`ledger.store.streams.raw_hand_streams`), replays them in
``jobs`` processes (:func:`replay.replaying.replayed`), appends their rows to the replay tables
as they come and folds their facts into :class:`ledger.audit.stream.StreamAudit`, which audits
each session as soon as it is complete and drops its hands: memory stays flat in the number of
hands. Last, the session tables, the findings and the head they were computed from are written
in one transaction (:func:`ledger.audit.tables.refresh`). :func:`catch_up` does the same for
the sessions with rows after the tables' head only (:mod:`ledger.audit.catchup`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.audit.catchup import aliases, first_position, moved, replace_sessions
from ledger.audit.load import head, iter_session_rows, session_ends, session_rows
from ledger.audit.stream import StreamAudit
from ledger.audit.tables import AuditReport, read_audit, refresh
from ledger.store.intact import ProvenInRanges, require_intact
from ledger.store.rolledback import check_not_rolled_back
from ledger.store.streams import (
    hand_count,
    raw_hand_streams,
    session_hand_streams,
)
from replay.late_corrections import revisions
from replay.progress import Progress, silent
from replay.replaying import Render, replayed
from replay.session_chips import in_session_unit, session_units
from replay.tables import append_rows, hand_ords, last_ord, saving, write_results_rows

Echo = Callable[[str], None]


@dataclass
class Projection:
    """What one pass found: the series books (hands dropped), the audit's findings in order,
    and counts of the hands replayed, paid differently from the rules and not verifiable."""

    series: Any
    findings: list[Any]
    counts: dict[str, int] = field(default_factory=dict)


def rebuild(ledger: Any, *, jobs: int | None = 1, render: Render | None = None,
            problems: bool = False, echo: Echo | None = None, progress: Progress = silent,
            label: str = "replaying and auditing", intact: bool = False) -> Projection:
    """Replay every hand of ``ledger``, rebuild the derived tables and audit (module doc).

    ``intact``: first check the file as ``verify`` checks its blocks and hash chain
    (:func:`ledger.store.intact.require_intact`): books saved from rows that are not those
    written (a payload edited in place) would be read as facts; ``replay`` asks it when it
    saves the tables. Over ranges the check is made a range at a time as the ranges are read,
    beside the workers' replay (:class:`ledger.store.intact.ProvenInRanges`), and finished
    before anything is saved; the hands of the ranges proven may then be rendered before a
    later range is refused.

    ``render``: each hand rendered (``problems``: only those with a discrepancy or a note),
    a hand of a session in its session's unit (:func:`replay.session_chips.in_session_unit`),
    and handed to ``echo``. ``jobs``: processes (None: one a CPU); a ledger of
    :data:`replay.ranges.MIN_HANDS` hands or more is then cut into ranges that no session
    crosses, replayed by ``jobs`` worker processes (:mod:`replay.ranges`), with the same
    tables, findings and rendered hands as one process gives.

    A ledger file open for writing is first checked against its own checkpoints file, as
    every write is (:func:`not_rolled_back`): the tables are saved into the file.

    Raises:
        LedgerError: the ledger is open for writing and does not extend the last checkpoint
            of its checkpoints file (a copy put back), naming the file and line; nothing is
            replayed or saved.
        ChainBroken, LedgerCorrupt: with ``intact``, the chain breaks (naming the first bad
            position) or a block fails its checksum; nothing is replayed or saved.
        LedgerError: a stored payload that does not parse or a hand the rules reject (located
            at the hand), or a database failure; the derived state is then left stale.
    """
    from ledger.audit.books import ALIAS_TYPES, resolve_aliases

    refused = "the books are not saved from it"
    jobs = jobs or os.cpu_count() or 1
    # scans of the whole ledger (the sessions' units, the ranges, every block's checksum):
    # uncapped, DuckDB would keep what they read cached (900 MB at a million hands)
    with ledger.memory_capped():
        if render is not None:  # each hand of a session in its session's unit
            render = in_session_unit(render, session_units(ledger))
        top = head(ledger)
        not_rolled_back(ledger, top, refused)
        ranges = _ranges(ledger, jobs, top)
        # each range proven as it is read, beside the workers' replay, all before saving
        proof = ProvenInRanges(ledger, refused) if intact and ranges is not None else None
    if ranges is not None:
        from replay.ranges import rebuild_in_ranges

        merged = rebuild_in_ranges(ledger, ranges, top, jobs=jobs, render=render,
                                   problems=problems, echo=echo, progress=progress,
                                   label=label, proof=proof)
        return Projection(merged.series, merged.findings, merged.counts)
    if intact:
        require_intact(ledger, refused)
    con = ledger.connection
    with ledger.memory_capped():  # scans of the whole ledger, as above
        names = resolve_aliases(r.event for r in session_rows(ledger, types=ALIAS_TYPES))
        audit = StreamAudit(iter_session_rows(ledger), session_ends(ledger), aliases=names,
                            revised=revisions(ledger))
    counts = {"hands": 0, "bad": 0, "unverifiable": 0}

    def rows() -> Iterator[dict[str, list[tuple]]]:
        with progress(label, hand_count(ledger)) as tick:
            for done in replayed(raw_hand_streams(ledger), jobs=jobs, render=render,
                                 problems=problems, facts=True):
                audit.add(done.facts)
                _count(counts, done)
                if done.text is not None and echo is not None:
                    echo(done.text)
                tick()
                yield done.rows

    with saving(ledger):
        with ledger.memory_capped():
            write_results_rows(con, rows(), hands=None, in_memory=ledger.read_only,
                               nested=ledger.in_transaction)
        series, findings = audit.finish()
        with ledger.memory_capped():  # its digest and names scan every derived row and hand
            refresh(ledger, series, findings, top)
    return Projection(series, findings, counts)


def not_rolled_back(ledger: Any, top: int, refused: str = "the books are not saved from it"
                    ) -> None:
    """Refuse to save derived tables into a ledger file (``ledger`` open for writing; its last
    row at position ``top``) that does not extend the last checkpoint of its own checkpoints
    file, as every write refuses it, in ``checkpoint``'s words (docs/LEDGER.md "Anchoring it";
    :func:`ledger.store.rolledback.check_not_rolled_back`): ``refused`` says what is not
    done. A ledger read-only, or with its tables in memory, writes nothing and is not checked.

    Raises:
        LedgerError: ``f.duckdb.checkpoints:2: this ledger does not extend the checkpoint of
            position 82 (the ledger ends at position 56, before 82): the books are not saved
            from it; run `handledger verify --against f.duckdb.checkpoints```.
    """
    if not ledger.read_only:
        check_not_rolled_back(ledger.path, top, ledger.hash_at, refused)


def _ranges(ledger: Any, jobs: int, top: int) -> list[Any] | None:
    """The ranges a full replay of ``ledger`` runs in over ``jobs`` workers, or None for
    the one-process pass (one job, too few hands, one range)."""
    from replay.ranges import MIN_HANDS, plan

    if jobs < 2 or hand_count(ledger) < MIN_HANDS:
        return None
    ranges = plan(ledger.connection, top)
    return ranges if len(ranges) > 1 else None


def _count(counts: dict[str, int], done: Any) -> None:
    counts["hands"] += 1
    counts["bad"] += done.bad
    counts["unverifiable"] += done.unverifiable


def catch_up(ledger: Any, *, jobs: int | None | Callable[[], int | None] = 1,
             progress: Progress = silent) -> str:
    """Bring the derived tables up to the ledger's head: nothing when they are, else only the
    sessions that moved are replayed and audited again (:mod:`ledger.audit.catchup`), else a
    full :func:`rebuild` (``jobs`` as there, or a function giving them, called only for a
    full rebuild; the sessions that moved take one process when it is None or a function).
    Returns what was done:
    ``"fresh"``, ``"sessions"`` or ``"full"``.

    Raises:
        LedgerError: what :func:`rebuild` raises (a ledger file open for writing that does
            not extend its checkpoints file's last checkpoint: :func:`not_rolled_back`); the
            derived tables are then unchanged.
    """
    con = ledger.connection
    plan = moved(con)
    if plan.fresh:
        return "fresh"
    not_rolled_back(ledger, plan.head)  # the head as moved read it, on this connection
    if plan.full is not None:
        rebuild(ledger, jobs=jobs() if callable(jobs) else jobs, progress=progress)
        return "full"
    names = list(plan.sessions)
    low = first_position(con, plan) - 1  # every row of those sessions is after it
    hands = session_hand_streams(ledger, names, after=low)
    known = hand_ords(con, names)
    last = last_ord(con)
    numbered = []
    for raw in hands:
        if raw[0] not in known:
            last += 1
        numbered.append((known.get(raw[0], last), raw))
    audit = StreamAudit(session_rows(ledger, sessions=names, after=low),
                        session_ends(ledger, names, after=plan.since), aliases=aliases(con),
                        revised=revisions(ledger, names))
    table_rows = []
    with progress("replaying the sessions that moved", len(hands)) as tick:
        for done in replayed(numbered, jobs=(1 if callable(jobs) else jobs) or 1, facts=True,
                             numbered=True):
            audit.add(done.facts)
            table_rows.append(done.rows)
            tick()
    series, findings = audit.finish()
    replace_sessions(ledger, names, series, findings, plan.head,
                     lambda c: append_rows(c, table_rows), present=plan.tables)
    return "sessions"


def replay_some(ledger: Any, hands: Sequence[str], *, jobs: int | None = 1,
                render: Render | None = None, problems: bool = False,
                echo: Echo | None = None) -> dict[str, int]:
    """Replay the named hands (nothing is written) and return the counts (hands, bad,
    unverifiable); each rendered hand goes to ``echo``.

    Raises:
        NotFound: a named hand is not in the ledger; LedgerError: as :func:`rebuild`.
    """
    counts = {"hands": 0, "bad": 0, "unverifiable": 0}
    if render is not None:  # each hand of a session in its session's unit
        render = in_session_unit(render, session_units(ledger))
    for done in replayed(raw_hand_streams(ledger, hands), jobs=jobs or 1, render=render,
                         problems=problems):
        _count(counts, done)
        if done.text is not None and echo is not None:
            echo(done.text)
    return counts


def save_tables(ledger: Any, *, progress: Progress = silent) -> str:
    """After a command appended events, bring the derived tables in ``ledger`` (open for
    writing) up to its head and save them, so that reads find them fresh and never write
    (:mod:`replay.books`). A whole rebuild of a large ledger runs over every CPU
    (:data:`replay.ranges.MIN_HANDS`); catching up the sessions that moved runs here. Returns
    what :func:`catch_up` returns.

    Raises:
        LedgerError: what :func:`catch_up` raises; the events stay as written and the tables
            as they were (a read then computes them in memory).
    """
    from replay.ranges import MIN_HANDS

    def jobs() -> int | None:  # counted only for a whole rebuild (a scan of every row)
        big = ledger.path != ":memory:" and hand_count(ledger) >= MIN_HANDS  # workers pay
        return None if big else 1

    return catch_up(ledger, jobs=jobs, progress=progress)


def writable_or_overlay(path: str, note: Callable[[str], None]) -> Any:
    """The ledger at ``path`` opened for writing its derived tables, or, when the file cannot
    be written here or other processes are reading it, read-only with the derived tables in
    memory (:meth:`ledger.store.store.Ledger.overlay`), said in a ``note``. While another
    process writes it, neither can open: that waits as the process's policy says
    (:mod:`ledger.store.waiting`).

    Raises:
        NotFound: no ledger at ``path``; LedgerBusy: another process is writing it (still,
            after the wait).
    """
    from pathlib import Path

    from ledger.model.errors import LedgerBusy, LedgerReadOnly
    from ledger.store.store import Ledger
    from ledger.store.waiting import waiting

    if path != ":memory:" and not Path(path).exists():
        from ledger.store.making import wait_until_made

        wait_until_made(path)  # one another process is making (ledger.store.making)

    def attempt() -> tuple[Any, str | None]:
        try:
            return Ledger(path, wait=False), None
        except (LedgerBusy, LedgerReadOnly) as exc:
            reason = ("it is open in another process" if isinstance(exc, LedgerBusy)
                      else "the file cannot be written here")
            return Ledger.overlay(path, wait=False), reason  # busy too while a writer has it

    ledger, reason = waiting(path, attempt)
    if reason is not None:
        note(f"note: the derived tables cannot be saved ({reason}): they are computed in "
             "memory this time")
    return ledger


def audit_report(ledger: Any, *, jobs: int | None = 1, progress: Progress = silent
                 ) -> AuditReport:
    """The audit as of the ledger's head, read from the derived tables, caught up first.

    Raises:
        LedgerError: what :func:`catch_up` raises.
    """
    catch_up(ledger, jobs=jobs, progress=progress)
    return read_audit(ledger.connection)
