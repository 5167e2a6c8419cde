"""The worker processes of a replay over ``--jobs``: a process pool that says so when a worker
dies, and a worker that ends with the process that started it.

:func:`worker_pool` is a :class:`concurrent.futures.ProcessPoolExecutor` of freshly spawned
processes (never a fork of the caller, whose DuckDB connection runs threads of its own). A
worker killed (``kill -9``, the system out of memory) breaks the pool: every result not yet
handed back raises, and :func:`result` turns that into one :class:`LedgerError` line, where
a :class:`multiprocessing.pool.Pool` would wait for ever for the lost work.
"""

from __future__ import annotations

import os
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
    """A pool of ``workers`` spawned processes, each ending with this one
    (:func:`end_with_parent`). On leaving, the work not started is dropped and the work
    running finishes (at most one item a worker)."""
    import multiprocessing

    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=end_with_parent)
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
