"""Import one large file with worker processes (the import's speed on one machine).

A JSON-lines file is cut into parts at lines that start a hand or a session (``"seq":1``), a
``.phhs`` at its top-level table headers (``[123]``). Worker processes read, check (the
engine, every hand) and serialise the parts, in file order (:mod:`replay.ingest.parts`); this
process only links the hash chain and inserts the rows, one part after the other, all inside
one transaction. Into an empty ledger the workers also make each hand's share of the derived
tables, which this process appends in the same transaction (:mod:`replay.ingest.derived`).
A few parts at a time are in flight, so that memory does not grow with the file.

The outcome is the one-process import's (a test compares rows and reports). A hand stored
though its chips do not add up (a rake or payouts that do not come to its pot) is a warning
line of its part, worded as the one-process import words it. The workers take only plain
files: whenever anything is not plain — a bad line, table or illegal hand
anywhere, a hand, session or source key already in the ledger, a hand whose options may carry
chips into the next hand (RULES.md §2.2, §3.8, §7.1), a stream met in two parts that do not join up,
a table or hand id met in two parts, a row skipped for a repeated source key, a hand of a
session the file closed before it, a file that ends with hands in play, a file imported
with ``--session``, a cash-out beyond its table (:mod:`replay.ingest.table_bound`), a
signed correction or void (its signature is checked before anything is written:
:mod:`replay.ingest.signatures`), a hand that one process counts in its session's chips
otherwise, converted, refused or noted (:mod:`replay.ingest.worker_units`) —
:func:`import_parallel` rolls back everything it wrote and returns None, and the caller
imports the file in one process, which words every error exactly.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import re
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ledger.formats.files import read_capped
from ledger.formats.jsonl.lines import CLOSING_START
from ledger.model.errors import LedgerError
from ledger.store.streams import any_stored, head_position
from replay.ingest.parts import Job, Part, prepare_part
from replay.ingest.samedeal import seated_alike

#: ``--jobs`` not given: the workers are used for a JSON-lines file of at least this size (a
#: worker takes about half a second to start; a smaller file takes about a second in one
#: process), and for a ``.phhs`` of at least :data:`AUTO_MIN_PHHS_BYTES` (about 1,000 hands,
#: a second or two of work in one process).
AUTO_MIN_BYTES = 16_000_000
AUTO_MIN_PHHS_BYTES = 500_000
#: About this much of the file per part (a part is prepared whole before it is sent), for
#: JSON lines and for ``.phhs`` (about 1,000 hands: a part's rows and shares take memory).
PART_BYTES = 6_000_000
PHHS_PART_BYTES = 500_000
#: Parts prepared or waiting to be appended at a time beyond one a worker (memory stays flat
#: in the size of the file; each worker has its next part ready when it finishes one).
_AHEAD = 1
#: A line that starts a hand or a session stream: a part may begin there.
_START = re.compile(rb'\n\{"(?:hand|session)":"[^"\\\n]*","seq":1,')
#: A ``.phhs`` line that is a top-level table header ``[123]``: a part may begin there.
_PHHS_START = re.compile(rb"\n\[[0-9]+\][ \t]*\r?\n")


def kind_of(path: Path) -> str | None:
    """The format the workers read of ``path`` (``"jsonl"``, ``"phh"`` for a ``.phhs``),
    found by content as the import finds it (:func:`replay.ingest.registry.find_importer`:
    a PokerStars history named ``.jsonl`` is none of theirs), None when they read none."""
    from replay.ingest.registry import find_importer

    kind = {".jsonl": "jsonl", ".phhs": "phh"}.get(path.suffix.lower())
    if kind is None:
        return None
    importer = find_importer(path)
    return kind if importer is not None and importer.name == kind else None


def auto_workers(path: Path, jobs: int | None) -> int:
    """How many worker processes import ``path``: ``jobs`` when given (1: none, this process
    does everything), else the machine's CPUs for a JSON-lines file of
    :data:`AUTO_MIN_BYTES` or more or a ``.phhs`` of :data:`AUTO_MIN_PHHS_BYTES` or more, else
    none. Returns 0 for none."""
    kind = kind_of(path)
    if kind is None or not path.is_file():  # not a pipe: it is read twice
        return 0
    if jobs is not None:
        return jobs if jobs > 1 else 0
    try:
        big = path.stat().st_size >= (AUTO_MIN_BYTES if kind == "jsonl" else
                                      AUTO_MIN_PHHS_BYTES)
    except OSError:
        return 0
    cpus = os.cpu_count() or 1
    return cpus if big and cpus > 1 else 0


def split(data: bytes, parts: int, tail: int = 0, *, starts: re.Pattern[bytes] = _START
          ) -> list[tuple[int, int, int]]:
    """``(start byte, end byte, first line number)`` of up to ``parts`` parts of ``data``,
    each but the first starting at a line that ``starts`` matches (a ``\n`` then the line:
    by default one that starts a hand or session stream). The last ``tail`` parts are half
    the size of the others (the workers then finish together, and the last part, appended
    while they wait, is short)."""
    size = len(data)
    weights = [1.0] * max(parts - tail, 0) + [0.5] * min(tail, parts)
    total, cuts, done = sum(weights), [0], 0.0
    for weight in weights[:-1]:
        done += weight
        found = starts.search(data, max(int(size * done / total) - 1, cuts[-1]))
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


class _Fallback(Exception):
    """The file is not plain: roll back, import it in one process."""


def import_parallel(ledger: Any, path: Path, session: str | None, workers: int,
                    tables: Any = None) -> Any:
    """Import the JSON-lines or ``.phhs`` file ``path`` with ``workers`` worker processes (see
    the module doc) and return its :class:`replay.ingest.report.ImportReport`, or None,
    having written nothing, when the file must go through the one-process import.
    ``tables``: the :class:`replay.ingest.derived.ImportTables` to write with the rows.

    Raises:
        OSError: the file cannot be read; MalformedInput: it is over the size cap.
        LedgerError: the ledger refused the write (busy, read-only, …): nothing is written.
    """
    from concurrent.futures import BrokenExecutor

    from replay.ingest.report import ImportReport
    from replay.workers import QuietPool

    kind = kind_of(path)
    # --session: one process, which refuses a session the ledger has not opened (the file's
    # own opening does not do) and takes the rows of one it has (the workers' never do)
    if kind is None or session is not None:
        return None
    data = read_capped(path)
    if kind == "jsonl" and data.rstrip().rpartition(b"\n")[2].startswith(CLOSING_START):
        return None  # hands in play (an export's closing line): one process reads it whole
    size = PART_BYTES if kind == "jsonl" else PHHS_PART_BYTES
    parts = split(data, max(2 * workers, len(data) // size), tail=2 * workers,
                  starts=_START if kind == "jsonl" else _PHHS_START)
    del data
    if len(parts) < 2:
        return None
    now = datetime.now(UTC).replace(tzinfo=None)
    jobs = [Job(kind, str(path), start, end, line, session, now, tables is not None)
            for start, end, line in parts]
    report = ImportReport()
    try:
        pool = QuietPool(workers, mp_context=warm_up(), initializer=_worker_start)
    except (OSError, RuntimeError):  # no workers here (too many open files, a socket path
        return None  # too long, …): the one-process import
    try:  # the pool shut down however this ends: Ctrl-C too, while the first parts go out
        try:
            results = _in_order(pool, jobs, workers + _AHEAD)
            next(results)  # the first parts submitted
        except (OSError, RuntimeError):  # no workers here after all: as above
            return None
        _write_parts(ledger, results, report, tables)
    except (_Fallback, BrokenExecutor):  # a worker died (killed, out of memory): no matter
        return None
    finally:
        # the parts not started are dropped; those running finish (at most one a worker)
        pool.shutdown(wait=True, cancel_futures=True)
    return report


def _write_parts(ledger: Any, results: Iterator[Part | None], report: Any, tables: Any) -> None:
    """Write the workers' parts in one transaction, or raise :class:`_Fallback` (nothing
    written) for a file the one-process import must take."""
    from replay.ingest.book_rules import first_refused_entry
    from replay.ingest.entry_amends import amendment_warnings, first_refused_amendment
    from replay.ingest.names_apart import any_look_alike
    from replay.ingest.table_bound import first_beyond_table
    from replay.ingest.worker_units import first_counted_otherwise

    with ledger.transaction(capped=True):
        stored = head_position(ledger)
        with ledger.one_thread():  # while the workers run
            _append_parts(ledger, results, report, tables)
        if first_beyond_table(ledger, stored) is not None:  # refused in one process
            raise _Fallback("a cash-out beyond its table")
        if first_refused_amendment(ledger, stored) is not None:  # likewise
            raise _Fallback("a correction of a book entry the commands refuse")
        if amendment_warnings(ledger, stored):  # warned of by its line: likewise
            raise _Fallback("a correction of a book entry `entry amend` warns of")
        if (first_counted_otherwise(ledger, stored) is not None  # its session's chips,
                or any_look_alike(ledger, stored)):  # a player printing like another
            raise _Fallback("a hand the one-process import converts, refuses or notes")
        # every part is in, the workers are done: the audit at the end and the commit
        # have DuckDB's threads (they alone are left, with the CPUs all free)
        if tables is not None and tables.hands:
            tables.finish(head_position(ledger))
        if first_refused_entry(ledger, stored) is not None:  # likewise
            raise _Fallback("a book entry its command refuses")


def _worker_start() -> None:
    """In each worker: no cyclic collector (see ledger.model.gcpause: the parts' objects have no
    cycles), SIGINT ignored (Ctrl-C aborts the importer alone) and an end with this process:
    a worker whose importer was killed would otherwise wait for ever to hand over its part
    (:func:`replay.workers.worker_start`)."""
    from replay.workers import worker_start

    gc.disable()
    worker_start()


def warm_up() -> Any:
    """Start the process the workers are forked from, if not yet running, and return its
    multiprocessing context. It imports what the workers need once for all of them (about
    half a second: call this early, before opening the ledger). A fresh process, never a fork
    of this one, whose DuckDB connection runs threads. Where there is no forkserver (Windows)
    each worker is spawned afresh instead. The process is started with SIGINT blocked, and
    so is every worker forked from it (:func:`replay.workers.sigint_blocked`): Ctrl-C
    during its imports or a worker's start is the importer's alone."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():  # Windows
        return multiprocessing.get_context("spawn")
    from multiprocessing import forkserver

    from replay.workers import sigint_blocked

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(_PRELOAD))
    with _this_path(), sigint_blocked():
        forkserver.ensure_running()
    return context


@contextlib.contextmanager
def _this_path() -> Iterator[None]:
    """The environment a forkserver started inside it imports what this process imports: the
    forkserver is a new ``python -c`` process, whose ``sys.path`` starts with the current
    folder, and Python 3.11 passes it this process's ``sys.path`` without applying it; a
    folder holding packages named like handledger's (a ``ledger/`` of the user's own) would
    then be imported in their place. ``PYTHONPATH`` gives it this ``sys.path`` and
    ``PYTHONSAFEPATH`` leaves the folder out; both are as they were afterwards."""
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "PYTHONSAFEPATH")}
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


#: What the forkserver imports once for every worker.
_PRELOAD = ("replay.ingest.parallel", "replay.ingest.parts", "replay.ingest.pipeline",
            "ledger.formats.jsonl.importer", "ledger.formats.phh.read", "ledger.store.columns",
            "replay.build", "replay.carry", "replay.ingest.preload")


def _in_order(pool: Any, jobs: list[Job], ahead: int) -> Iterator[Part | None]:
    """Submit the jobs, at most ``ahead`` parts in flight or done and not yet taken, and
    yield None once the first are submitted, then the parts' results in file order."""
    from collections import deque

    pending: deque[Any] = deque()
    todo = iter(jobs)
    for job in itertools.islice(todo, ahead):
        pending.append(pool.submit(prepare_part, job))
    yield None
    while pending:
        part = pending.popleft().result()
        for job in itertools.islice(todo, 1):
            pending.append(pool.submit(prepare_part, job))
        yield part


def _after_close(columns: Any, closed: set[str]) -> bool:
    """Whether a hand of ``columns``, or a session row a closed session takes no more of (a
    buy-in, an opening or closing again), names a session of ``closed`` or one these rows
    closed before it (adding the sessions they close to ``closed``)."""
    from replay.ingest.file_reading import NOT_AFTER_CLOSE

    row = 0
    for hand, session, count in zip(columns.hand_id, columns.session, columns.count,
                                    strict=True):
        if session is not None:
            if hand is not None:
                if session in closed:
                    return True
            else:
                types = list(columns.type[row:row + count])
                if session in closed:
                    types = ["session_closed", *types]
                if "session_closed" in types:
                    after = types[types.index("session_closed") + 1:]
                    if any(t in NOT_AFTER_CLOSE for t in after):
                        return True
                    closed.add(session)
        row += count
    return False


def _named_alike(ledger: Any, sessions: list[str]) -> bool:
    """Whether a session of ``sessions`` the ledger does not hold is named like one it does
    (:func:`replay.ingest.session_units.refuse_closed` refuses it)."""
    if not sessions:
        return False
    from replay.ingest.session_units import LooksLike

    looks_like = LooksLike(ledger)
    return any(looks_like(s) for s in sessions)


class _Met:
    """The 64-bit hashes (Python's ``hash``) of the texts met so far, as one sorted int64
    array: 8 bytes a text, where a set of them took about 75 (a set's slots and an int object
    a hash: 23 MB for the hands, source keys and table names of 100,000 hands, now 2.4 MB).
    Two texts of one hash (a chance of 2**-64 a pair) read as a repeat: that only sends the
    file to the one-process import, whose outcome is the same."""

    def __init__(self) -> None:
        import numpy as np

        self._np = np
        self._sorted = np.empty(0, dtype=np.int64)

    def add_new(self, texts: Sequence[str]) -> bool:
        """Add ``texts`` and return True when none of them was met before and none repeats
        among them; else return False, adding nothing."""
        np = self._np
        found = np.fromiter(map(hash, texts), dtype=np.int64, count=len(texts))
        found.sort()
        if found.size > 1 and bool((found[1:] == found[:-1]).any()):
            return False
        met = self._sorted
        if met.size and found.size:
            at = np.minimum(np.searchsorted(met, found), met.size - 1)
            if bool((met[at] == found).any()):
                return False
        # two sorted runs: the stable sort (a merge of runs) takes them in linear time
        self._sorted = np.sort(np.concatenate((met, found)), kind="stable")
        return True


def _append_parts(ledger: Any, parts: Iterator[Part], report: Any, tables: Any) -> None:
    """Append each part's rows in order (and with ``tables`` each hand's share of the
    derived tables, which the caller then finishes), checking that the parts join up and
    that none of their hands, sessions and source keys is in the ledger already. Raises
    :class:`_Fallback` when not."""
    # the hands, source keys and table names met: their hashes, 8 bytes each (_Met)
    hands, keys, names = _Met(), _Met(), _Met()  # names: a .phhs's table names
    sessions: set[str] = set()
    last_seq: dict[str, int] = {}
    closed: set[str] = set()  # sessions the file closed so far
    stored = head_position(ledger)
    for part in parts:
        if part.fallback is not None:
            raise _Fallback(part.fallback)
        if not hands.add_new(list(dict.fromkeys(part.hands))):  # a hand's batches: one
            raise _Fallback("a hand in two parts")
        if not names.add_new(part.tables):
            raise _Fallback("a table in two parts")
        for stream, (first, last) in part.spans.items():
            if first != last_seq.get(stream, 0) + 1:
                raise _Fallback(f"session {stream} does not join up")
            last_seq[stream] = last
        part_keys = [k for k in part.columns.source_key if k is not None]
        if not keys.add_new(part_keys):
            raise _Fallback("a source key twice (the one-process import skips the second)")
        new_sessions = list(part.sessions - sessions)
        if _after_close(part.columns, closed) or _named_alike(ledger, new_sessions):
            raise _Fallback("a hand or buy-in after its session's closing, or a session named "
                            "like one of the ledger's (refused in one process)")
        # the rows stored before this import (a new ledger: none)
        if stored and (any_stored(ledger, part.hands, new_sessions, upto=stored)
                       or ledger.known_sources(part_keys)):
            raise _Fallback("a hand, session or source key already in the ledger")
        if stored and part.seatings and seated_alike(ledger, part.seatings, stored):
            raise _Fallback("an id-less PHH hand of players the ledger holds such a hand of "
                            "(known by its deal: one process)")
        try:
            positions = ledger.append_columns(part.columns)
        except LedgerError as exc:  # the one-process import words it (or writes it)
            raise _Fallback(str(exc)) from exc
        if tables is not None:
            tables.add_part(part.rows, len(part.hands), part.facts, positions.start - 1)
        sessions.update(new_sessions)
        report.warnings.extend(part.warnings)
        report.imported += len(part.hands)
        report.events += len(part.columns)
