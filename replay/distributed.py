"""Replay and audit a Parquet dataset of events on a Dask cluster (``pip install
'handledger[dask]'``): what :func:`replay.projections.rebuild` computes from a ledger, row
for row, for ledgers that outgrow one machine.

The events are those ``handledger export --format parquet DIR`` writes (``DIR/events.parquet``;
any Parquet dataset of the events table's columns: a file, a directory, a glob, or a URL of an
object store whose fsspec file system is installed). One pass over the cluster:

1. the sorted ledger positions of every hand's first row (each hand's ``ord`` is its place
   among them, as the local replay numbers hands) and the session rows that name players
   (``player_alias``, ``player_unaliased``, ``session_opened``: the series' alias map and
   platform nicknames) are read first, small columns and few rows; in the same pass each
   partition of the dataset proves its rows' hash chain and the links between partitions are
   checked after (:mod:`replay.parquet_chain`): rows changed after the export are refused,
   nothing written;
2. the rows are shuffled by session (``DataFrame.shuffle``): every row of a session, its
   session rows and its hands, lands in one partition (table stakes, RULES.md §1.1: its books
   fold on their own); the hands of no session are spread hand by hand;
3. each partition is replayed, audited and written by :func:`replay.partition.replay_part`
   (the local replay's per-chunk code), one Parquet file per replay table;
4. the books and findings come back and are merged (:func:`replay.merge.merge_parts`); the
   session tables and the findings are written here, and what the closed sessions still owe
   is read from them, as the local audit reads it (its clean line says so alike).

The output directory holds one folder per derived table, ``OUT/<table>/part-NNNNN.parquet``
(DuckDB reads it as ``read_parquet('OUT/hands/*.parquet')``): the four replay tables of
:mod:`replay.tables` in one file per partition (rows in ledger order within each file) and the
session tables and ``audit_discrepancies`` of :mod:`ledger.audit.tables` in one file each.
The SQL views and ``derived_state`` belong to a ledger and are not written.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.audit.books import ALIAS_TYPES, resolve_aliases
from ledger.audit.load import corrections_of, typed_rows
from ledger.model.errors import LedgerError, NotFound
from replay.merge import Merged, merge_parts
from replay.parquet_chain import part_proofs, require_chain
from replay.partition import (
    COLUMNS,
    HAND_TABLES,
    copy_table,
    part_path,
    register_file_system,
    replay_part,
)
from replay.progress import Progress, silent

if TYPE_CHECKING:
    from ledger.audit.settlement import Owing

AUDIT_TABLES = ("session_book", "session_players", "player_names", "player_nicknames",
                "audit_discrepancies")
_NAMED = ("player_alias", "player_unaliased", "session_opened")
_PER_THREAD = 4  # partitions per worker thread by default: small ones even out the load
_SMALL_SHUFFLE = 1024  # input × output partitions up to which the task shuffle is used


@dataclass
class Distributed:
    """What a distributed replay did: the merged books and audit
    (:class:`replay.merge.Merged`), the partitions and worker threads it ran on, and the
    table folders written under the output directory."""

    merged: Merged
    partitions: int
    threads: int
    tables: list[str]


def events_path(source: str) -> str:
    """The Parquet dataset of events ``source`` names: the export directory's
    ``events.parquet`` when ``source`` is a local directory holding one, else ``source``.

    Raises:
        NotFound: a local path that does not exist.
    """
    if "://" in source:
        return source
    path = Path(source)
    if path.is_dir() and (path / "events.parquet").exists():
        return str(path / "events.parquet")
    if not path.exists() and not any(c in source for c in "*?["):
        raise NotFound(f"no Parquet events at {source} (handledger export --format parquet "
                       "DIR writes DIR/events.parquet)")
    return source


def replay_parquet(source: str, out: str, *, scheduler: str | None = None, workers: int = 2,
                   partitions: int | None = None, progress: Progress = silent,
                   ledger: str | None = None) -> Distributed:
    """Replay and audit the events at ``source`` on Dask and write the derived tables under
    ``out`` (module doc). ``scheduler``: the address of a running scheduler
    (``tcp://host:8786``), else a local cluster of ``workers`` processes of one thread;
    ``partitions``: how many (default: four per worker thread, at least the dataset's own).
    Before anything is replayed, ``out`` is checked writable (:func:`writable`) and the
    dataset's hash chain proven (:mod:`replay.parquet_chain`): a broken one is refused.
    The folders of the tables written are replaced; on a failure none is left. A hand that
    does not replay is an ``unreplayable`` finding, as in the local replay. ``ledger``: the
    ledger file of the command (``--db``), which the output never is nor holds
    (:func:`check_out`), checked before anything else is done.

    Raises:
        NotFound: no dataset at ``source``; LedgerError: Dask not installed, ``out`` is, or
            one of its table folders is or holds, the ledger (nothing written), a dataset that
            is not the events table, a scheduler that cannot be reached, a session row that
            does not parse or a hand without its first row (located), workers that die, an
            output that cannot be written, ``out`` not a folder to write in, no ``prev_hash``
            or ``hash`` column; ChainBroken: the dataset's chain breaks (nothing written).
    """
    try:
        import dask
        import distributed  # noqa: F401
    except ImportError:
        raise LedgerError("replaying on Dask needs the optional dependencies: "
                          "pip install 'handledger[dask]'") from None
    tables = [*HAND_TABLES, *AUDIT_TABLES]
    if ledger is not None:
        check_out(out, tables, ledger)
    path = events_path(source)
    writable(out)
    with _client(scheduler, workers) as client:
        events = _read(path)
        firsts, named, fixes, proofs = dask.compute(_firsts(events), _named(events),
                                                    _fixes(events), part_proofs(path))
        require_chain(path, proofs)
        starts = _sorted(firsts)
        named_rows = list(typed_rows(named.itertuples(index=False, name=None),
                                     corrections_of(fixes.itertuples(index=False, name=None))))
        aliases = resolve_aliases(r.event for r in named_rows if r.event.type in ALIAS_TYPES)
        threads = sum(client.nthreads().values())
        n = partitions or max(events.npartitions, _PER_THREAD * threads)
        shuffled = events.map_partitions(_with_unit).shuffle(
            on="unit", npartitions=n, shuffle_method=_method(events.npartitions, n))
        first = client.scatter(starts, broadcast=True)
        abort = f"handledger-abort-{uuid.uuid4().hex}"
        tasks = [dask.delayed(_part, pure=False)(part, k, first, aliases, out, abort)
                 for k, part in enumerate(shuffled.to_delayed())]
        made = _clear(out, tables)
        futures = client.compute(tasks)
        try:
            parts = _gather(client, futures, progress)
            merged = merge_parts(parts, aliases, named_rows)
            merged.report = replace(merged.report, owing=_write_audit(merged, out))
        except BaseException:
            _stop(futures, abort)
            _clear(out, tables, remove=made)
            raise
    return Distributed(merged, n, threads, tables)


def check_out(out: str, tables: list[str], ledger: str) -> None:
    """Refuse an output directory ``out`` (a local path or ``file://`` URL; another file
    system's URL cannot be the ledger) that is, or a folder above it that would be made is,
    the ledger file at ``ledger``, its write-ahead log or its checkpoints file, or whose
    folder of one of ``tables``, which the replay removes whole and writes anew, is or holds
    one of them, by any path or link (:mod:`ledger.store.outputs`).

    Raises:
        LedgerError: ``out is the ledger's write-ahead log: nothing written``, ``dask-replay
            out: out/hands holds the ledger file (a folder the command replaces whole):
            nothing written``.
    """
    from ledger.store.outputs import no_folder_holds_the_ledger, no_folder_made_is_the_ledger

    local = out.removeprefix("file://")
    if "://" in local:
        return
    no_folder_made_is_the_ledger(local, ledger, f"dask-replay {out}", out)
    no_folder_holds_the_ledger([f"{local.rstrip('/')}/{t}" for t in tables], ledger,
                               f"dask-replay {out}")


@contextmanager
def _client(scheduler: str | None, workers: int) -> Iterator[Any]:
    """A Dask client of the scheduler at ``scheduler``, or of a local cluster."""
    from distributed import Client, LocalCluster

    if scheduler is None:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0", worker_dashboard_address=None,
                          silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise LedgerError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        yield client


def _read(path: str) -> Any:
    """The dataset's columns a replay reads, as a Dask frame.

    Raises:
        NotFound: nothing at ``path``; LedgerError: it cannot be read as Parquet, or it lacks
            one of the columns.
    """
    import dask.dataframe as dd

    wanted = list(COLUMNS)
    try:
        events = dd.read_parquet(path)
    except FileNotFoundError as exc:
        raise NotFound(f"no Parquet events at {path}: {_last_line(exc)}") from None
    except (OSError, ValueError, KeyError, TypeError, RuntimeError) as exc:
        raise LedgerError(f"cannot read {path} as Parquet: {_last_line(exc)}") from None
    missing = [c for c in wanted if c not in events.columns]
    if missing:
        raise LedgerError(f"{path} is not the events table (export --format parquet writes "
                          f"it): no column {', '.join(missing)}")
    return events[wanted]


def _last_line(exc: BaseException) -> str:
    """The last line of an error's text (Dask prefixes the original message with its own)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1].removeprefix("Original Message:").strip() if lines else type(exc).__name__


def _firsts(events: Any) -> Any:
    """The positions of every hand's first row (a Dask series)."""
    return events.position[(events.seq == 1) & events.hand_id.notnull()]


def _sorted(firsts: Any) -> Any:
    """``firsts`` sorted, as numpy ``int64``."""
    import numpy as np

    return np.sort(np.asarray(firsts, dtype=np.int64))


def _named(events: Any) -> Any:
    """The ``player_alias`` and ``session_opened`` rows ``(position, stream, session,
    payload, seq)`` in ledger order (a Dask frame)."""
    rows = events[events.hand_id.isnull() & events.type.isin(list(_NAMED))]
    return rows[["position", "stream", "session", "payload", "seq"]].sort_values("position")


def _fixes(events: Any) -> Any:
    """The ``entry_corrected`` rows ``(stream, payload)`` in ledger order (a Dask frame): an
    alias or an opening they retract or amend is read as corrected."""
    rows = events[events.hand_id.isnull() & (events.type == "entry_corrected")]
    return rows[["position", "stream", "payload"]].sort_values("position")[["stream", "payload"]]


def _method(inputs: int, outputs: int) -> str | None:
    """The shuffle's method: Dask's in-memory task shuffle for a few partitions (measured
    here: about a tenth less CPU than the peer-to-peer one on 30,000 hands, 1 input and 8
    output partitions), else Dask's choice (peer-to-peer, which scales to many)."""
    return "tasks" if inputs * outputs <= _SMALL_SHUFFLE else None


def _with_unit(frame: Any) -> Any:
    """``frame`` with the column ``unit`` its rows are shuffled on: ``s<session>`` for a
    session's rows and hands, ``h<hand>`` for a hand of no session."""
    loose = frame.hand_id.notna() & frame.session.isna()
    unit = ("s" + frame.session.fillna("")).where(~loose, "h" + frame.hand_id)
    return frame.assign(unit=unit)


def _part(frame: Any, number: int, starts: Any, aliases: dict[str, str], out: str,
          abort: str) -> Any:
    """One partition's task (:func:`replay.partition.replay_part`), skipped once the run
    has failed elsewhere (the Dask event ``abort`` is set)."""
    from distributed import Event

    if Event(abort).is_set():
        return None
    return replay_part(frame, number, starts, aliases, out)


def _gather(client: Any, futures: list[Any], progress: Progress) -> list[Any]:
    """The partitions' results in order, ticking as each is done; the first failure raised
    (a LedgerError located at its hand, as the worker raised it)."""
    from distributed import KilledWorker, as_completed

    with progress("replaying on the cluster (partitions)", len(futures)) as tick:
        for future in as_completed(futures):
            if future.status == "error":
                try:
                    future.result()
                except KilledWorker as exc:
                    raise LedgerError(
                        "the Dask workers died running a partition (out of memory? one "
                        f"session is one partition): {_last_line(exc)}") from None
            tick()
    return client.gather(futures)


def _stop(futures: list[Any], abort: str) -> None:
    """After a failure: the partitions not started skip their work, those running finish,
    so that nothing is written after the output is cleared."""
    from distributed import Event, wait

    Event(abort).set()
    wait(futures)


def _write_audit(merged: Merged, out: str) -> tuple[Owing, ...]:
    """The session tables and the findings, one Parquet file each (DuckDB's writer, the
    tables' own schema); returns the closed sessions still owing money, read from those
    tables as the local audit reads them (:func:`ledger.audit.settlement.owing`, over the
    view ``player_session_results`` made on them), so that the clean line says it alike."""
    from ledger.audit.settlement import owing
    from ledger.audit.tables import TABLES, VIEWS, audit_rows
    from ledger.store.duck import connect

    rows = audit_rows(merged.series, merged.findings)
    con = connect()
    try:
        register_file_system(con, out)
        con.execute(TABLES)
        for table in AUDIT_TABLES:
            if rows[table]:
                appender = con.appender(table)
                appender.append_rows(list(rows[table]))
                appender.flush()
            copy_table(con, table, part_path(out, table, 0))
        con.execute("CREATE VIEW player_session_results AS "
                    f"{VIEWS['player_session_results']}")
        return owing(con)
    finally:
        con.close()


def _clear(out: str, tables: list[str], *, remove: bool = False) -> bool:
    """Remove the folders of ``tables`` under ``out`` (a rerun replaces them), and ``out``
    itself when ``remove`` and it is empty. Returns whether ``out`` did not exist."""
    import fsspec

    fs, root = fsspec.core.url_to_fs(out)
    missing = not fs.exists(root)
    for table in tables:
        folder = f"{root.rstrip('/')}/{table}"
        if fs.exists(folder):
            fs.rm(folder, recursive=True)
    if remove and fs.isdir(root) and not fs.ls(root):
        fs.rm(root, recursive=True)
    return missing


def writable(out: str) -> None:
    """Refuse, before anything is replayed, a local output directory ``out`` (a path or a
    ``file://`` URL; another file system's URL is its own to refuse) that cannot be written:
    a file there, or above it where a folder would be made, or a folder this user cannot
    write in (the folder itself, or the one the missing folders would be made in).

    Raises:
        LedgerError: ``dask-replay afile: afile is a file, not a folder: nothing replayed,
            nothing written``.
    """
    local = out.removeprefix("file://")
    if "://" in local:
        return
    nothing = "nothing replayed, nothing written"
    folder = Path(local)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise LedgerError(f"dask-replay {out}: {folder} is a file, not a folder: {nothing}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise LedgerError(f"dask-replay {out}: cannot write in the folder {folder} (permission "
                          f"denied): {nothing}")
