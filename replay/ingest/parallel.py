"""Import one large JSON-lines file with worker processes (issue 8: import speed).

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
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from ledger.model.errors import LedgerError

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
        from replay.ingest.pipeline import _Digests

        _CACHE.update(events={}, alive=[], digest=_Digests(), memo={})
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
    from ledger.formats.jsonl import read_jsonl_part
    from ledger.store.chain import prepare_batch
    from ledger.store.columns import prepare_columns
    from replay.carry import may_carry
    from replay.ingest.pipeline import in_file_order, jsonl_batches

    file, start, end, first_line, session, recorded_at = args
    cache = _cache()
    try:
        parsed = read_jsonl_part(file, start, end, first_line, events=cache["events"])
    except OSError as exc:
        return Part(fallback=f"cannot read: {exc}")
    if parsed.errors:
        return Part(fallback="a bad line")
    placed, errors, older = jsonl_batches(parsed, file, session, digest=cache["digest"])
    if errors:
        return Part(fallback="an illegal hand")
    part = Part(spans={s.id: (s.rows[0].seq, s.rows[-1].seq) for s in parsed.sessions})
    next_seq = {f"session:{s.removeprefix('session:')}": first
                for s, (first, _) in part.spans.items()}
    memo, alive = cache["memo"], cache["alive"]
    batches = []
    for batch in in_file_order(placed, older):
        stream, events, hand, name, _key = batch
        alive.extend(events)
        if hand is not None:
            if may_carry(events[0]):
                return Part(fallback=f"hand {hand} may carry chips to the next hand")
            part.hands.append(hand)
        if name is not None:
            part.sessions.add(name)
        prepared = prepare_batch(*batch, memo=memo)
        seq = next_seq.get(stream, 1)
        prepared.expected_seq = seq - 1
        next_seq[stream] = seq + len(events)
        batches.append(prepared)
    part.columns = prepare_columns(batches, recorded_at)
    return part


class _Fallback(Exception):
    """The file is not plain: roll back, import it in one process."""


def import_parallel(ledger: Any, path: Path, session: str | None, workers: int) -> Any:
    """Import the JSON-lines file ``path`` with ``workers`` worker processes (see the module
    doc) and return its :class:`replay.ingest.pipeline.ImportReport`, or None, having written
    nothing,
    when the file must go through the one-process import.

    Raises:
        OSError: the file cannot be read.
        LedgerError: the ledger refused the write (busy, read-only, …): nothing is written.
    """
    from concurrent.futures import BrokenExecutor, ProcessPoolExecutor

    from replay.ingest.pipeline import ImportReport

    data = path.read_bytes()
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
        with _one_thread(ledger.connection), ledger.transaction():
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
_PRELOAD = ("replay.ingest.parallel", "replay.ingest.pipeline", "ledger.formats.jsonl",
            "ledger.store.columns", "replay.build", "replay.carry")


def _in_order(futures: list[Any]) -> Iterator[Part]:
    """The parts' results in file order, each let go once taken."""
    for k, future in enumerate(futures):
        yield future.result()
        futures[k] = None


@contextmanager
def _one_thread(con: Any) -> Iterator[None]:
    """DuckDB on one thread for the block (the workers have the other CPUs; its threads
    would only contend with them), writing every full row group out as it fills (not five
    at a time, DuckDB's default: the commit at the end, which no worker can share, is then
    left with one row group's work); the settings are restored after."""
    settings = ("threads", "write_buffer_row_group_count")
    before = [con.execute(f"SELECT current_setting('{name}')").fetchone()[0]
              for name in settings]
    con.execute("SET threads = 1")
    con.execute("SET write_buffer_row_group_count = 1")
    try:
        yield
    finally:
        with suppress(duckdb.Error):  # never in place of the block's own error
            for name, value in zip(settings, before, strict=True):
                con.execute(f"SET {name} = {int(value)}")


def _append_parts(ledger: Any, parts: Any, report: Any) -> None:
    """Append each part's rows in order, checking that the parts join up and that none of
    their hands and sessions is in the ledger already. Raises :class:`_Fallback` when not."""
    hands: set[str] = set()
    sessions: set[str] = set()
    keys: set[str] = set()
    named: dict[str, str] = {}  # session name -> the file's stream id for it
    last_seq: dict[str, int] = {}
    con = ledger.connection
    stored = con.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
    for part in parts:
        if part.fallback is not None:
            raise _Fallback(part.fallback)
        if hands.intersection(part.hands):
            raise _Fallback("a hand in two parts")
        for stream, (first, last) in part.spans.items():
            if first != last_seq.get(stream, 0) + 1:
                raise _Fallback(f"session {stream} does not join up")
            last_seq[stream] = last
            if named.setdefault(stream.removeprefix("session:"), stream) != stream:
                raise _Fallback(f"two session streams for {stream}")  # x and session:x
        part_keys = [k for k in part.columns.source_key if k is not None]
        if len(set(part_keys)) != len(part_keys) or keys.intersection(part_keys):
            raise _Fallback("a source key twice (the one-process import skips the second)")
        keys.update(part_keys)
        new_sessions = list(part.sessions - sessions)
        if stored and con.execute(  # the rows stored before this import (a new ledger: none)
                "SELECT 1 FROM events WHERE position <= $3 AND (hand_id IN (SELECT UNNEST($1))"
                " OR session IN (SELECT UNNEST($2))) LIMIT 1",
                [part.hands, new_sessions, stored]).fetchone() is not None:
            raise _Fallback("a hand or session already in the ledger")
        try:
            ledger.append_columns(part.columns)
        except LedgerError as exc:  # the one-process import words it (or writes it)
            raise _Fallback(str(exc)) from exc
        hands.update(part.hands)
        sessions.update(new_sessions)
        report.imported += len(part.hands)
        report.events += len(part.columns)
