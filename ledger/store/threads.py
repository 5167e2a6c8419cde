"""How many threads this process asks of DuckDB (``handledger --threads N``), kept in a module
of its own so that the command line can set and check it without loading DuckDB;
:func:`ledger.store.duck.connect` makes the process's DuckDB instance follow it."""

from __future__ import annotations

#: Far more than any machine this runs on has CPUs, far fewer than a slip of the finger
#: (DuckDB takes minutes to start 100,000 threads).
MAX_THREADS = 1024

_WANTED: list[int] = []  # empty: DuckDB's own count, one a CPU


def use_threads(threads: int | None) -> None:
    """DuckDB's threads in this process: ``threads`` (1 to :data:`MAX_THREADS`) for every
    connection opened from now on; None: as many as the machine has CPUs (DuckDB's
    default). Worker processes the commands start keep their own settings.

    Raises:
        ValueError: ``threads`` is less than 1 or more than :data:`MAX_THREADS`.
    """
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"DuckDB's threads are 1 to {MAX_THREADS}, not {threads}")
    _WANTED[:] = [] if threads is None else [threads]


def wanted() -> int | None:
    """The threads :func:`use_threads` asked for; None: DuckDB's default."""
    return _WANTED[0] if _WANTED else None
