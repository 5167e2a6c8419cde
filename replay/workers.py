"""The worker processes of a replay over ``--jobs``: a process pool that says so when a worker
dies, and a worker that ends with the process that started it and leaves Ctrl-C to it.

:func:`worker_pool` is a :class:`concurrent.futures.ProcessPoolExecutor` of freshly spawned
processes (never a fork of the caller, whose DuckDB connection runs threads of its own). A
worker killed (``kill -9``, the system out of memory) breaks the pool: every result not yet
handed back raises, and :func:`result` turns that into one :class:`LedgerError` line, where
a :class:`multiprocessing.pool.Pool` would wait for ever for the lost work.

Ctrl-C in a terminal sends SIGINT to every process of the command, the workers too: a worker
ignores it (:func:`worker_start`), from the moment it starts (it is started with SIGINT
blocked: :class:`QuietPool`), and the process that started it aborts alone ("Aborted"),
where each worker had printed its own traceback of the interrupt.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from ledger.model.errors import LedgerError

#: What a replay says when one of its worker processes died before handing its work back.
WORKER_DIED = ("a worker process of the replay ended before handing back its hands (killed, or"
               " the machine out of memory?): nothing is saved; run it again, or with --jobs 1")


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` spawned processes, each ending with this one and ignoring
    SIGINT (:func:`worker_start`). On leaving, the work not started is dropped and the work
    running finishes (at most one item a worker)."""
    import multiprocessing

    pool = QuietPool(workers, mp_context=multiprocessing.get_context("spawn"),
                     initializer=worker_start)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def result(future: Future[Any]) -> Any:
    """``future``'s result, or what its work raised.

    Raises:
        LedgerError: the worker process died first (:data:`WORKER_DIED`).
    """
    try:
        return future.result()
    except BrokenExecutor as e:
        raise LedgerError(WORKER_DIED) from e


def worker_start() -> None:
    """In a worker process: ignore SIGINT, which the terminal sends to the whole command on
    Ctrl-C (the process that started the worker aborts; the worker, its work dropped or
    finished, ends with it), then end with that process (:func:`end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a SIGINT pending meanwhile is dropped
    if hasattr(signal, "pthread_sigmask"):  # started blocked (sigint_blocked); not on Windows
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    end_with_parent()


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT held off meanwhile, then raised: blocked in this thread, so that a process
    started meanwhile (fork, exec) starts with it blocked and Ctrl-C cannot interrupt its
    start before it ignores SIGINT (:func:`worker_start`), as multiprocessing starts its
    resource tracker; and, in the main thread, Python's handler replaced by one that notes
    it (another thread of this process, DuckDB's or the pool's, may take the signal while
    this one blocks it), the previous handler run with it when the block ends
    (KeyboardInterrupt then): never lost, never raised midway. Nothing on Windows (no
    signal masks). The resource tracker is started first, if not yet running: its start
    unblocks SIGINT as it ends."""
    import threading

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    held: list[Any] = []
    main = (threading.current_thread() is threading.main_thread()  # only it sets handlers
            and signal.getsignal(signal.SIGINT) is not None)  # (None: not set from Python)
    previous = signal.signal(signal.SIGINT, lambda *got: held.append(got)) if main else None
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # one pending is noted now
        if main:
            signal.signal(signal.SIGINT, previous)
            if held and callable(previous):
                previous(*held[0])  # default_int_handler: KeyboardInterrupt


class QuietPool(ProcessPoolExecutor):
    """A :class:`ProcessPoolExecutor` whose :meth:`submit` runs with SIGINT blocked
    (:func:`sigint_blocked`): a worker it starts starts with SIGINT blocked, and Ctrl-C
    lands after the submit, not between a worker's start and the pool's record of it (a
    worker the pool does not know of is not waited for on shutdown: it printed a traceback
    as this process's end took its queue away). Give it :func:`worker_start` (or an
    initializer calling it) to ignore SIGINT in the worker from then on."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        with sigint_blocked():
            return super().submit(fn, *args, **kwargs)


def end_with_parent() -> None:
    """In a worker process: end it (exit status 1) as soon as the process that started it
    ends, killed or not; else a worker whose parent was killed waits for ever to hand back
    its work."""
    import multiprocessing
    import threading

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)
