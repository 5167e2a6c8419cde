"""Import one large JSON-lines file with worker processes (the import's speed on one machine).

The file is cut into parts at lines that start a hand or a session (``"seq":1``). Worker
processes read, check (the engine, every hand) and serialise the parts, in file order; this
process only links the hash chain and inserts the rows, one part after the other, all inside
one transaction.

The outcome is the one-process import's (a test compares rows and reports). The workers take
only plain files: whenever anything is not plain — a bad line or an illegal hand anywhere, a
hand or session already in the ledger, a hand whose options may carry chips into the next
hand (RULES.md §3.8, §7.1), a stream met in two parts that do not join up, a row skipped for a
stored source key — :func:`import_parallel` rolls back everything it wrote and returns None,
and the caller imports the file in one process, which words every error exactly.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ledger.formats.files import read_capped
from ledger.formats.reading import SessionEntry
from ledger.model.errors import LedgerError
from ledger.store.streams import any_stored, head_position

#: ``--jobs`` not given: the workers are used for a file of at least this size (a worker
#: takes about half a second to start; a smaller file takes about a second in one process).
AUTO_MIN_BYTES = 16_000_000
#: About this much of the file per part (a part is prepared whole before it is sent).
PART_BYTES = 6_000_000
#: A line that starts a hand or a session stream: a part may begin there.
_START = re.compile(rb'\n\{"(?:hand|session)":"[^"\\\n]*","seq":1,')


def auto_workers(path: Path, jobs: int | None) -> int:
    """How many worker processes import ``path``: ``jobs`` when given (1: none, this process
    does everything), else the machine's CPUs for a JSON-lines file of
    :data:`AUTO_MIN_BYTES` or more, else none. Returns 0 for none."""
    if path.suffix.lower() != ".jsonl" or not path.is_file():  # not a pipe: it is read twice
        return 0
    if jobs is not None:
        return jobs if jobs > 1 else 0
    try:
        big = path.stat().st_size >= AUTO_MIN_BYTES
    except OSError:
        return 0
    cpus = os.cpu_count() or 1
    return cpus if big and cpus > 1 else 0


def split(data: bytes, parts: int, tail: int = 0) -> list[tuple[int, int, int]]:
    """``(start byte, end byte, first line number)`` of up to ``parts`` parts of ``data``,
    each but the first starting at a line that starts a hand or session stream. The last
    ``tail`` parts are half the size of the others (the workers then finish together, and
    the last part, appended while they wait, is short)."""
    size = len(data)
    weights = [1.0] * max(parts - tail, 0) + [0.5] * min(tail, parts)
    total, cuts, done = sum(weights), [0], 0.0
    for weight in weights[:-1]:
        done += weight
        found = _START.search(data, max(int(size * done / total) - 1, cuts[-1]))
        if found is None:
            break
        if found.start() + 1 > cuts[-1]:
            cuts.append(found.start() + 1)
    cuts.append(size)
    out, line = [], 1
    for start, end in zip(cuts, cuts[1:], strict=False):
        out.append((start, end, line))
        line += data.count(b"\n", start, end)
    return out


@dataclass
class Part:
    """What a worker made of one part: its rows as columns (:mod:`ledger.store.columns`),
    the hand ids, the sessions its rows name, and each session stream's first and last seq
    in the part. ``fallback``: why the part is not plain (the file then goes through the
    one-process import)."""

    columns: Any = None
    hands: list[str] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    fallback: str | None = None


#: A worker's memory across the parts it prepares: the reader's event of each event text,
#: the events met (kept alive: the serialisation memos are keyed by ``id``) and those memos.
#: Emptied when it grows past :data:`_CACHE_LIMIT` entries.
_CACHE: dict[str, Any] = {}
_CACHE_LIMIT = 400_000


def _cache() -> dict[str, Any]:
    if not _CACHE or len(_CACHE["events"]) > _CACHE_LIMIT:
        from ledger.formats.jsonl.importer import Digests

        _CACHE.update(events={}, alive=[], digest=Digests(), memo={})
    return _CACHE


def prepare_part(args: tuple[str, int, int, int, str | None, datetime]) -> Part:
    """Read, check and serialise one part (runs in a worker; module-level so it pickles).

    ``args``: file, start byte, end byte, first line number, the ``--session`` name or None,
    the import's ``recorded_at``. Never raises for bad content: a part with any error comes
    back with ``fallback`` set.
    """
    from ledger.model.gcpause import gc_paused

    with gc_paused():
        try:
            return _prepare(args)
        except (LedgerError, ValueError) as exc:  # e.g. a hand id the store refuses
            return Part(fallback=f"{type(exc).__name__}: {exc}")


def _prepare(args: tuple[str, int, int, int, str | None, datetime]) -> Part:
    from ledger.formats.jsonl.importer import IMPORTER
    from ledger.store.chain import prepare_batch
    from ledger.store.columns import prepare_columns
    from replay.carry import may_carry
    from replay.ingest.pipeline import check_entry_names, check_items

    file, start, end, first_line, session, recorded_at = args
    cache = _cache()
    try:
        read = IMPORTER.read_part(file, start, end, first_line, session=session,
                                  events=cache["events"], digest=cache["digest"])
    except OSError as exc:
        return Part(fallback=f"cannot read: {exc}")
    if read.errors:
        return Part(fallback="a bad line")
    try:
        check_entry_names(read)
    except LedgerError:
        return Part(fallback="a bad name")  # refused in one process, naming the line
    batches, errors = check_items(read)
    if errors:
        return Part(fallback="an illegal hand")
    spans: dict[str, tuple[int, int]] = {}  # session stream -> (first seq, last seq) here
    for item in read.items:
        if isinstance(item, SessionEntry):
            stream, seq = f"session:{item.session}", item.seq or 0
            first, last = spans.get(stream, (seq, seq - 1))
            if seq != last + 1:  # two file streams for one session (x and session:x)
                return Part(fallback=f"session {item.session} rows do not follow each other")
            spans[stream] = (first, seq)
    part = Part(spans=spans)
    next_seq = {stream: first for stream, (first, _) in spans.items()}
    memo, alive = cache["memo"], cache["alive"]
    prepared = []
    for batch in batches:
        alive.extend(batch.events)
        if batch.hand_id is not None:
            if may_carry(batch.events[0]):
                return Part(fallback=f"hand {batch.hand_id} may carry chips to the next hand")
            part.hands.append(batch.hand_id)
        if batch.session is not None:
            part.sessions.add(batch.session)
        one = prepare_batch(*batch, memo=memo)
        seq = next_seq.get(batch.stream, 1)
        one.expected_seq = seq - 1
        next_seq[batch.stream] = seq + len(batch.events)
        prepared.append(one)
    part.columns = prepare_columns(prepared, recorded_at)
    return part


class _Fallback(Exception):
    """The file is not plain: roll back, import it in one process."""


def import_parallel(ledger: Any, path: Path, session: str | None, workers: int) -> Any:
    """Import the JSON-lines file ``path`` with ``workers`` worker processes (see the module
    doc) and return its :class:`replay.ingest.pipeline.ImportReport`, or None, having written
    nothing, when the file must go through the one-process import.

    Raises:
        OSError: the file cannot be read; MalformedInput: it is over the size cap.
        LedgerError: the ledger refused the write (busy, read-only, …): nothing is written.
    """
    from concurrent.futures import BrokenExecutor, ProcessPoolExecutor

    from replay.ingest.pipeline import ImportReport

    data = read_capped(path)
    parts = split(data, max(2 * workers, len(data) // PART_BYTES), tail=2 * workers)
    del data
    if len(parts) < 2:
        return None
    now = datetime.now(UTC).replace(tzinfo=None)
    jobs = [(str(path), start, end, line, session, now) for start, end, line in parts]
    report = ImportReport()
    try:
        pool = ProcessPoolExecutor(workers, mp_context=warm_up(), initializer=_worker_start)
        futures = [pool.submit(prepare_part, job) for job in jobs]
    except (OSError, RuntimeError):  # no workers here (too many open files, a socket path
        return None  # too long, …): the one-process import
    try:
        with ledger.one_thread(), ledger.transaction():
            _append_parts(ledger, _in_order(futures), report)
    except (_Fallback, BrokenExecutor):  # a worker died (killed, out of memory): no matter
        return None
    finally:
        # the parts not started are dropped; those running finish (at most one a worker)
        pool.shutdown(wait=True, cancel_futures=True)
    return report


def _worker_start() -> None:
    """In each worker: no cyclic collector (see ledger.model.gcpause: the parts' objects have no
    cycles), and an end with this process: a worker whose importer was killed would
    otherwise wait for ever to hand over its part."""
    import multiprocessing
    import threading

    gc.disable()
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)


def warm_up() -> Any:
    """Start the process the workers are forked from, if not yet running, and return its
    multiprocessing context. It imports what the workers need once for all of them (about
    half a second: call this early, before opening the ledger). A fresh process, never a fork
    of this one, whose DuckDB connection runs threads. Where there is no forkserver (Windows)
    each worker is spawned afresh instead."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():  # Windows
        return multiprocessing.get_context("spawn")
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(_PRELOAD))
    forkserver.ensure_running()
    return context


#: What the forkserver imports once for every worker.
_PRELOAD = ("replay.ingest.parallel", "replay.ingest.pipeline",
            "ledger.formats.jsonl.importer", "ledger.store.columns", "replay.build",
            "replay.carry")


def _in_order(futures: list[Any]) -> Iterator[Part]:
    """The parts' results in file order, each let go once taken."""
    for k, future in enumerate(futures):
        yield future.result()
        futures[k] = None


def _append_parts(ledger: Any, parts: Any, report: Any) -> None:
    """Append each part's rows in order, checking that the parts join up and that none of
    their hands and sessions is in the ledger already. Raises :class:`_Fallback` when not."""
    hands: set[str] = set()
    sessions: set[str] = set()
    keys: set[str] = set()
    last_seq: dict[str, int] = {}
    stored = head_position(ledger)
    for part in parts:
        if part.fallback is not None:
            raise _Fallback(part.fallback)
        if hands.intersection(part.hands):
            raise _Fallback("a hand in two parts")
        for stream, (first, last) in part.spans.items():
            if first != last_seq.get(stream, 0) + 1:
                raise _Fallback(f"session {stream} does not join up")
            last_seq[stream] = last
        part_keys = [k for k in part.columns.source_key if k is not None]
        if len(set(part_keys)) != len(part_keys) or keys.intersection(part_keys):
            raise _Fallback("a source key twice (the one-process import skips the second)")
        keys.update(part_keys)
        new_sessions = list(part.sessions - sessions)
        # the rows stored before this import (a new ledger: none)
        if stored and any_stored(ledger, part.hands, new_sessions, upto=stored):
            raise _Fallback("a hand or session already in the ledger")
        try:
            ledger.append_columns(part.columns)
        except LedgerError as exc:  # the one-process import words it (or writes it)
            raise _Fallback(str(exc)) from exc
        hands.update(part.hands)
        sessions.update(new_sessions)
        report.imported += len(part.hands)
        report.events += len(part.columns)
