"""The first replay of a large ledger file in worker processes: what :func:`replay.projections.
rebuild` does in one pass (every hand replayed, the derived tables built, the audit), spread
over ``jobs`` processes, with the same result row for row.

The ledger's rows up to its head are cut into ranges of consecutive positions that no
session crosses (:func:`plan`): every row of a session, its session rows and its hands, lies
in one range (a session's books fold on their own, its stacks following from hand to hand:
table stakes, RULES.md §1.1), and every row of a hand of no session too. Each range is read,
replayed, audited and written as Parquet by a worker process (:func:`replay_range`, the code
of a Dask partition: :func:`replay.partition.replay_rows`) that opens the ledger file
read-only; the results are merged as a distributed replay's are
(:func:`replay.merge.merge_parts`) and the tables inserted in range order, which is ledger
order. A hand's ``ord`` is its place in the ledger, as in the one-process pass.

While the workers read the file this process does not hold it (DuckDB lets many processes
read a file, or one write it; :meth:`ledger.store.store.Ledger.released`); it opens it again
to write the tables. The tables record the head they were computed from, so rows another
process appends meanwhile are caught up by the next command.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from replay.partition import HAND_TABLES, PartResult, part_path
from replay.progress import Progress, silent
from replay.replaying import Render

#: Hands a range holds at least (a session is never cut, so a range may hold more): small
#: enough that a worker keeps one range's payloads in memory (a worker of 10,000-hand ranges
#: peaked at 314 MB on the demo series), large enough that opening the file and the queries
#: (about 20 ms a range) weigh nothing.
PART_HANDS = 5_000
#: Hands from which a full replay with ``jobs`` > 1 uses ranges: below, starting the workers
#: (about 1 s of imports each) outweighs what they share.
MIN_HANDS = 20_000
_WORKER_MEMORY = "128MB"  # DuckDB's memory in a worker


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


def replay_range(path: str, rng: Range, *, aliases: Mapping[str, str], out: str,
                 render: Render | None, problems: bool) -> PartResult:
    """Read, replay, audit and write one range of the ledger file at ``path`` (opened
    read-only) into ``out`` as :func:`replay.partition.replay_rows` does; runs in a worker
    process. ``render``, ``problems``: as :func:`replay.replaying.replay_chunk`.

    Raises:
        LedgerBusy: another process is writing the file; LedgerError: a session row that
            does not parse, a table that cannot be written.
    """
    import numpy as np

    from ledger.store.store import Ledger
    from replay.partition import COLUMNS, read_part, replay_rows

    with Ledger(path, read_only=True) as ledger:
        con = ledger.connection
        # one thread (the workers share the cores) and a cap on the blocks DuckDB keeps
        # cached: it reads each block of the range once
        con.execute(f"SET threads = 1; SET memory_limit = '{_WORKER_MEMORY}'")
        con.execute(f"CREATE TEMP VIEW part AS SELECT {', '.join(COLUMNS)} FROM events"
                    f" WHERE position > {int(rng.low)} AND position <= {int(rng.high)}")
        starts = np.asarray([p for (p,) in con.execute(
            "SELECT position FROM part WHERE seq = 1 AND hand_id IS NOT NULL"
            " ORDER BY position").fetchall()], dtype=np.int64)
        rows = read_part(con)
    return replay_rows(rows, rng.number, starts, aliases, out, first_ord=rng.first_ord,
                       render=render, problems=problems)


def rebuild_in_ranges(ledger: Any, ranges: Sequence[Range], top: int, *, jobs: int,
                      render: Render | None = None, problems: bool = False,
                      echo: Callable[[str], None] | None = None, progress: Progress = silent,
                      label: str = "replaying and auditing") -> Any:
    """Replay ``ranges`` of ``ledger`` (a file) in ``jobs`` worker processes, write the
    replay tables, the session tables and the findings as of position ``top`` (module doc),
    each rendered hand handed to ``echo`` in ledger order. Returns the merged books, findings
    and counts (:class:`replay.merge.Merged`).

    Raises:
        LedgerError: a session row that does not parse, the file taken by another writer,
            a table that cannot be written; the derived tables are then left as they were.
    """
    import multiprocessing
    import tempfile

    from ledger.audit.books import resolve_aliases
    from ledger.audit.load import session_rows
    from ledger.audit.tables import refresh
    from replay.merge import merge_parts
    from replay.tables import write_results_files

    named = session_rows(ledger, types=("player_alias", "session_opened"))
    aliases = resolve_aliases(r.event for r in named if r.event.type == "player_alias")
    total = sum(r.hands for r in ranges)
    with tempfile.TemporaryDirectory(prefix="handledger-replay-") as out:
        work = functools.partial(replay_range, ledger.path, aliases=aliases, out=out,
                                 render=render, problems=problems)
        parts: list[PartResult] = []
        with ledger.released(), progress(label, total) as tick, \
                multiprocessing.get_context("spawn").Pool(min(jobs, len(ranges))) as pool:
            for part in pool.imap(work, ranges):
                for text in part.texts:
                    if echo is not None:
                        echo(text)
                part.texts = []
                for _ in range(part.counts["hands"]):
                    tick()
                parts.append(part)
        merged = merge_parts(parts, aliases, named)
        with ledger.memory_capped():
            write_results_files(ledger.connection, list(_files(out, ranges)))
            refresh(ledger, merged.series, merged.findings, top)
    return merged


def _files(out: str, ranges: Sequence[Range]) -> Iterator[dict[str, str]]:
    for rng in ranges:
        yield {table: part_path(out, table, rng.number) for table in HAND_TABLES}
