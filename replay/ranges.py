"""The first replay of a large ledger in worker processes: what :func:`replay.projections.
rebuild` does in one pass (every hand replayed, the derived tables built, the audit), spread
over ``jobs`` processes, with the same result row for row.

The ledger's rows up to its head are cut into ranges of consecutive positions that no
session crosses (:func:`plan`): every row of a session, its session rows and its hands, lies
in one range (a session's books fold on their own, its stacks following from hand to hand:
table stakes, RULES.md §1.1), and every row of a hand of no session too. This process reads
each range (:func:`replay.partition.read_raw`: the stored payloads, untyped) and hands it to
one of ``jobs - 1`` worker processes, or replays it itself when the next result is not ready
(:func:`replay_range`, the code of a Dask partition: :func:`replay.partition.
replay_numbered`): the range is replayed, audited and rendered, giving its books, findings
and texts and its derived-table rows as columns (:func:`replay.tables.table_columns`). This
process inserts each range's columns in range order, which is ledger order, into the tables
made again in one transaction, keeping each worker a range ahead so that none waits; then the
results are merged as a distributed replay's are (:func:`replay.merge.merge_parts`) and the
session tables and findings written. A hand's ``ord`` is its place in the ledger, as in the
one-process pass.

Only this process opens the ledger: the workers never touch the file, so a ledger open for
writing or read-only with its derived tables in memory (a read) is replayed alike.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from replay.partition import COLUMNS, HAND_TABLES, PartResult, RawPart
from replay.progress import Progress, silent
from replay.replaying import Render

#: Hands a range holds at least (a session is never cut, so a range may hold more): small
#: enough that a few ranges in flight keep memory low and that the last ranges leave no
#: process idle for long, large enough that the queries and the hand-over (about 20 ms a
#: range) weigh little. Each process holds the range it replays whole (its payloads as one
#: text and as a list, its rows and columns): measured on the 100,050-hand series, a first
#: `audit --jobs 2` peaked at 784 MB (this process 591, the worker 181) with 5,000 hands a
#: range and at 659 MB (485, 162) with 2,500, its CPU within the runs' noise.
PART_HANDS = 2_500
#: Hands from which a full replay with ``jobs`` > 1 uses ranges: below, starting the workers
#: (about 1 s of imports each) outweighs what they share.
MIN_HANDS = 20_000
#: DuckDB's memory while the ranges are read, proven and their rows inserted into the ledger
#: file: a range's rows, the proof's queries over them and the row groups being written fit
#: well under it, and the blocks of the ledger read before are dropped sooner (each is read
#: once). At 256 MB this process held about 130 MB more (the 100,050-hand series: 470 MB
#: against 340 MB while the ranges were inserted, the same CPU).
#: Tables in memory (a read's, :meth:`ledger.store.store.Ledger.overlay`) are DuckDB's
#: memory too: they keep the store's default cap.
FILL_MEMORY = "128MB"
#: Hands whose rows a read's tables in memory take in between two of DuckDB's checkpoints
#: (which compress them, :func:`replay.tables.write_tables`): a checkpoint costs about as
#: much again as the insert it follows when made after every range, its cost partly fixed;
#: the one-process pass checkpoints about as often (every 50,000 rows of a table).
CHECKPOINT_HANDS = 10_000
_AHEAD = 1  # ranges queued to a worker beyond the one it replays, so that it never waits


@dataclass(frozen=True)
class Range:
    """Ledger positions ``low < position <= high``, numbered from 0 in ledger order, holding
    ``hands`` hands, the first of which is the ``first_ord``-th of the ledger."""

    number: int
    low: int
    high: int
    first_ord: int
    hands: int


def plan(con: Any, top: int, *, per_part: int | None = None) -> list[Range]:
    """The ranges of the ledger's rows up to position ``top`` (``con``: its DuckDB
    connection), each of at least ``per_part`` hands (default :data:`PART_HANDS`) but the
    last, cut only where no session and no hand has rows on both sides. Rows of no session
    are grouped by hand; rows of no session and no hand (none are written today) are one
    group, kept in one range.

    One query over the ``position``, ``session``, ``hand_id`` and ``seq`` columns.
    """
    units = con.execute(
        "SELECT min(position), max(position),"
        " count(*) FILTER (WHERE seq = 1 AND hand_id IS NOT NULL) FROM events"
        " WHERE position <= $1 GROUP BY CASE WHEN session IS NOT NULL THEN 's' || session"
        " ELSE 'h' || coalesce(hand_id, '') END ORDER BY 1", [top]).fetchall()
    per_part = per_part or PART_HANDS
    ranges: list[Range] = []
    low = reach = hands = 0
    first = 1
    for start, end, count in units:
        if start > reach and hands >= per_part:  # nothing before ``start`` goes on after it
            ranges.append(Range(len(ranges), low, reach, first, hands))
            low, first, hands = reach, first + hands, 0
        reach = max(reach, end)
        hands += count
    if hands or not ranges:
        ranges.append(Range(len(ranges), low, top, first, hands))
    return ranges


def read_range(con: Any, rng: Range) -> RawPart:
    """The rows of ``rng`` as :func:`replay.partition.read_raw` reads them (``con``: the
    ledger's DuckDB connection)."""
    from replay.partition import read_raw

    return read_raw(con, f"(SELECT {', '.join(COLUMNS)} FROM events WHERE position >"
                         f" {int(rng.low)} AND position <= {int(rng.high)})")


def replay_range(raw: RawPart, first_ord: int, aliases: Mapping[str, str],
                 render: Render | None, problems: bool, revised: Any = None) -> PartResult:
    """Replay and audit one range read by :func:`read_range` (its first hand the
    ``first_ord``-th of the ledger), its derived-table rows as columns in
    :attr:`PartResult.tables`; runs in a worker process. ``render``, ``problems``: as
    :func:`replay.replaying.replay_chunk`; ``revised``: the hands corrected after later
    events took their chips (:func:`replay.late_corrections.revisions`).

    Raises:
        LedgerError: a session row that does not parse (located at its stream), a value a
            derived table cannot hold.
    """
    from replay.replaying import no_collections

    with no_collections():  # the range's payloads are let go inside: never collected
        return _replay_range(raw, first_ord, aliases, render, problems, revised)


def _replay_range(raw: RawPart, first_ord: int, aliases: Mapping[str, str],
                  render: Render | None, problems: bool, revised: Any = None) -> PartResult:
    from replay.partition import replay_numbered

    part = raw.typed()
    numbered = [(first_ord + i, hand) for i, hand in enumerate(part.hands)]
    return replay_numbered(part, numbered, aliases, render, problems, revised)


def rebuild_in_ranges(ledger: Any, ranges: Sequence[Range], top: int, *, jobs: int,
                      render: Render | None = None, problems: bool = False,
                      echo: Callable[[str], None] | None = None, progress: Progress = silent,
                      label: str = "replaying and auditing", proof: Any = None) -> Any:
    """Replay ``ranges`` of ``ledger`` in ``jobs`` processes, write the replay
    tables, the session tables and the findings as of position ``top`` (module doc), each
    rendered hand handed to ``echo`` in ledger order. Returns the merged books, findings
    and counts (:class:`replay.merge.Merged`). ``proof``: a
    :class:`ledger.store.intact.ProvenInRanges` given each range as it is read (before a
    worker or this process replays it) and finished before anything is saved; a failure
    on the way is left to its ``settle`` first, so that a broken chain is what is said.

    Raises:
        ChainBroken, LedgerCorrupt: with ``proof``, as its methods; nothing is saved.
        LedgerError: a session row that does not parse, a table that cannot be written; the
            derived tables are then left as they were.
    """
    from ledger.audit.books import ALIAS_TYPES, resolve_aliases
    from ledger.audit.load import session_rows
    from ledger.audit.tables import refresh
    from replay.late_corrections import revisions
    from replay.merge import merge_parts
    from replay.replaying import fewer_collections
    from replay.tables import insert_columns, saving, write_tables

    with ledger.memory_capped():  # scans of the whole ledger: DuckDB would cache what it read
        named = session_rows(ledger, types=("player_alias", "player_unaliased", "session_opened"))
        revised = revisions(ledger)
    aliases = resolve_aliases(r.event for r in named if r.event.type in ALIAS_TYPES)
    total = sum(r.hands for r in ranges)
    con = ledger.connection
    parts: list[PartResult] = []
    since_checkpoint = [0]  # hands inserted since the last checkpoint

    def fill(con: Any, checkpoint: Callable[[], None]) -> None:
        with progress(label, total) as tick, _settled_on_failure(proof), fewer_collections():
            for part in _replayed(con, ranges, jobs, aliases, render, problems, proof,
                                  revised):
                for text in part.texts:
                    if echo is not None:
                        echo(text)
                for table in HAND_TABLES:
                    insert_columns(con, table, part.tables.get(table, {}))
                part.texts, part.tables = [], {}
                since_checkpoint[0] += part.counts["hands"]
                if since_checkpoint[0] >= CHECKPOINT_HANDS:
                    checkpoint()
                    since_checkpoint[0] = 0
                for _ in range(part.counts["hands"]):
                    tick()
                parts.append(part)
            if proof is not None:
                proof.finish()  # before the transaction commits

    with saving(ledger):  # the replay tables and the rest commit together
        with ledger.memory_capped(FILL_MEMORY if not ledger.read_only else "256MB"):
            write_tables(con, fill, in_memory=ledger.read_only,  # read-only: in memory
                         nested=ledger.in_transaction)
        merged = merge_parts(parts, aliases, named)
        with ledger.memory_capped():  # its digest and names scan every derived row and hand
            refresh(ledger, merged.series, merged.findings, top)
    return merged


@contextmanager
def _settled_on_failure(proof: Any) -> Iterator[None]:
    """A failure of the replay (a payload that does not parse) with the proof unfinished: the
    whole proof first (``proof.settle``), which raises instead when the chain breaks."""
    try:
        yield
    except Exception:
        if proof is not None:
            proof.settle()
        raise


def _replayed(con: Any, ranges: Sequence[Range], jobs: int, aliases: Mapping[str, str],
              render: Render | None, problems: bool, proof: Any = None,
              revised: Any = None) -> Iterator[PartResult]:
    """Each range's :class:`PartResult` in range order, replayed by ``jobs - 1`` worker
    processes and this one (:func:`replay_range`). This process reads the ranges and keeps
    each worker :data:`_AHEAD` ranges ahead of the one it replays; whenever the next result
    in order is not ready, it replays the next range itself rather than wait. A range that
    fails raises when its turn comes, so that the first failure in ledger order is the one
    raised, as in one process."""
    from replay.workers import result, worker_pool

    def read(rng: Range) -> RawPart:
        if proof is not None:  # proven before anything is replayed of it
            proof.add(rng.low, rng.high)
        return read_range(con, rng)

    todo = deque(ranges)
    pending: deque[Any] = deque()  # in range order: a worker's Future, or _Here
    workers = min(jobs - 1, len(ranges))
    with worker_pool(workers) as pool:

        def give() -> None:  # each worker: the range it replays and _AHEAD more queued
            while todo and sum(not isinstance(p, _Here) and not p.done()
                               for p in pending) < workers * (1 + _AHEAD):
                rng = todo.popleft()
                pending.append(pool.submit(replay_range, read(rng), rng.first_ord, aliases,
                                           render, problems, revised))

        give()
        while pending:
            head = pending[0]
            if todo and not isinstance(head, _Here) and not head.done():
                rng = todo.popleft()  # replayed here meanwhile
                pending.append(_Here(replay_range, read(rng), rng.first_ord,
                                     aliases, render, problems, revised))
                give()
                continue
            head = pending.popleft()
            done = head.get() if isinstance(head, _Here) else result(head)
            give()
            yield done


class _Here:
    """A range replayed in this process, kept until its turn comes: its result, or what it
    raised (raised then)."""

    def __init__(self, work: Callable[..., PartResult], *args: Any) -> None:
        self._result: PartResult | None = None
        self._error: BaseException | None = None
        try:
            self._result = work(*args)
        except Exception as exc:  # noqa: BLE001 - raised again in ledger order, by get()
            self._error = exc

    def get(self) -> PartResult:
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result
