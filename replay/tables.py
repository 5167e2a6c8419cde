"""Derived DuckDB tables of replay results: ``hands``, ``pots``, ``results``, ``discrepancies``.

They are derived, never the source of truth: :func:`write_results` drops what it rebuilds and
writes it again from the replayed hands. Chips are integers.

* ``hands(hand_id, session, game, status, verifiable, corrected, players, pot_total, carried,
  notes, ord)`` — one row per hand; ``ord`` is the order of the hand in the ledger.
* ``pots(hand_id, pot_index, amount, eligible, awards, carried, explanation)`` — main pot is 0;
  ``awards`` is JSON ``{player: chips}``.
* ``results(hand_id, session, player, starting, contributed, returned, awarded, recorded, net,
  final_stack, ord, rules_net)`` — ``recorded`` is NULL when the source recorded no payouts;
  ``net`` is the books' net (what the table paid minus what he put in:
  ``replay.fold.HandReplay.paid_net``), ``final_stack`` the stack it left him, ``rules_net``
  the rules' result.
* ``discrepancies(hand_id, session, player, kind, recorded, recomputed, diff, message)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import duckdb

from ledger.model.errors import LedgerError
from replay.fold import HandReplay

SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (hand_id VARCHAR PRIMARY KEY, session VARCHAR, game VARCHAR,
    status VARCHAR, verifiable BOOLEAN, corrected BOOLEAN, players INTEGER, pot_total BIGINT,
    carried BIGINT, notes VARCHAR, ord BIGINT);
CREATE TABLE IF NOT EXISTS pots (hand_id VARCHAR, pot_index INTEGER, amount BIGINT,
    eligible VARCHAR[], awards JSON, carried BIGINT, explanation VARCHAR);
CREATE TABLE IF NOT EXISTS results (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    starting BIGINT, contributed BIGINT, returned BIGINT, awarded BIGINT, recorded BIGINT,
    net BIGINT, final_stack BIGINT, ord BIGINT, rules_net BIGINT);
CREATE TABLE IF NOT EXISTS discrepancies (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    kind VARCHAR, recorded BIGINT, recomputed BIGINT, diff BIGINT, message VARCHAR);
"""

_TABLES = ("hands", "pots", "results", "discrepancies")
_CHUNK = 50_000  # rows per table handed to a DuckDB appender at once


def create_tables(con: Any) -> None:
    """Create the derived tables if missing (``con``: a DuckDB connection)."""
    con.execute(SCHEMA)


def rows_for(replay: HandReplay, ord_: int) -> dict[str, list[tuple[Any, ...]]]:
    """The rows one replayed hand contributes to each derived table."""
    r = replay.result
    hand, session = replay.hand, replay.session
    out: dict[str, list[tuple[Any, ...]]] = {t: [] for t in _TABLES}
    out["hands"].append(
        (
            hand,
            session,
            replay.game,
            r.status,
            r.verifiable,
            replay.corrected,
            len(r.players),
            sum(p.amount for p in r.pots),
            r.carried,
            "; ".join(replay.notes),
            ord_,
        )
    )
    for pot in r.pots:
        out["pots"].append(
            (
                hand,
                pot.index,
                pot.amount,
                list(pot.eligible),
                json.dumps(pot.awards, sort_keys=True),
                pot.carried,
                " ".join(pot.lines),
            )
        )
    net, rules = replay.paid_net, replay.net
    for p in r.players:
        recorded = None if replay.recorded is None else replay.recorded.get(p, 0)
        out["results"].append(
            (
                hand,
                session,
                p,
                r.starting[p],
                r.contributions[p],
                r.returned.get(p, 0),
                r.awards[p],
                recorded,
                net[p],
                r.starting[p] + net[p],
                ord_,
                rules[p],
            )
        )
    for d in replay.discrepancies:
        out["discrepancies"].append(
            (hand, session, d.player, d.kind, d.recorded, d.recomputed, d.diff, d.sentence())
        )
    return out


def write_results(con: Any, replays: Iterable[tuple[int, HandReplay]], *, full: bool) -> int:
    """Write replayed hands into the derived tables; ``full`` rebuilds them from scratch,
    otherwise only the given hands' rows are replaced. Returns the number of hands written.
    See :func:`write_results_rows`."""
    if not full:
        replays = list(replays)
    hands = None if full else [replay.hand for _, replay in replays]  # type: ignore[union-attr]
    return write_results_rows(
        con, (rows_for(replay, ord_) for ord_, replay in replays), hands=hands
    )


def write_results_rows(con: Any, rows: Iterable[dict[str, list[tuple[Any, ...]]]], *,
                       hands: list[str] | None) -> int:
    """Write hands' rows (:func:`rows_for`) into the derived tables in one transaction: all
    tables made again when ``hands`` is None (dropped first: a ledger whose tables an older
    version built gets them in today's shape), else only those hands' rows replaced. ``rows`` is
    consumed as it comes (a stream of a million hands never sits in memory) and goes through
    DuckDB appenders in chunks. Returns the number of hands written.

    Raises:
        Whatever iterating ``rows`` raises; nothing is written then (rolled back).
    """
    con.execute("BEGIN TRANSACTION")
    try:
        for table in _TABLES:
            if hands is None:  # made again, in today's shape (tables of an older one included)
                con.execute(f"DROP TABLE IF EXISTS {table}")
        create_tables(con)
        for table in _TABLES:
            if hands:
                con.execute(f"DELETE FROM {table} WHERE hand_id IN (SELECT UNNEST(?))", [hands])
        count = append_rows(con, rows)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return count


def write_results_files(con: Any, parts: Sequence[Mapping[str, str]]) -> None:
    """Make every derived table again (as :func:`write_results_rows` with ``hands`` None)
    and fill it from Parquet files, one ``{table: path}`` per partition in the order given:
    the rows in ledger order when the partitions are. One transaction.

    Raises:
        LedgerError: a file that cannot be read into its table (nothing is written then).
    """
    con.execute("BEGIN TRANSACTION")
    try:
        for table in _TABLES:
            con.execute(f"DROP TABLE IF EXISTS {table}")
        create_tables(con)
        for files in parts:
            for table in _TABLES:
                con.execute(f"INSERT INTO {table} SELECT * FROM read_parquet(?)",
                            [files[table]])
        con.execute("COMMIT")
    except duckdb.Error as exc:
        con.execute("ROLLBACK")
        raise LedgerError(f"cannot write the derived tables: {exc}") from exc
    except BaseException:
        con.execute("ROLLBACK")
        raise


def append_rows(con: Any, hands: Iterable[dict[str, list[tuple[Any, ...]]]]) -> int:
    """Append each hand's rows (:func:`rows_for`) to the derived tables, in chunks of
    ``_CHUNK`` rows per table, inside the caller's transaction. Returns the hands appended.

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits), naming the hand.
    """
    appenders = {t: con.appender(t) for t in _TABLES}
    pending: dict[str, list[tuple[Any, ...]]] = {t: [] for t in _TABLES}
    count = 0
    for rows in hands:
        count += 1
        for table, new in rows.items():
            buffer = pending[table]
            buffer.extend(new)
            if len(buffer) >= _CHUNK:
                _append(appenders[table], table, buffer)
                buffer.clear()
    for table, buffer in pending.items():
        _append(appenders[table], table, buffer)
    return count


def _append(appender: Any, table: str, rows: list[tuple[Any, ...]]) -> None:
    try:
        if rows:
            appender.append_rows(rows)
        appender.flush()
    except duckdb.Error as exc:
        for row in rows:
            for value in row:
                if isinstance(value, int) and not -(2**63) <= value < 2**63:
                    raise LedgerError(
                        f"{value} chips do not fit the derived table {table} (64-bit integers)",
                        hand=row[0],
                    ) from exc
        raise LedgerError(f"cannot write the derived table {table}: {exc}") from exc


def hand_ords(con: Any, sessions: list[str]) -> dict[str, int]:
    """``{hand: ord}`` of the stored hands of ``sessions`` in the ``hands`` table."""
    return dict(con.execute("SELECT hand_id, ord FROM hands WHERE list_contains(?, session)",
                            [sessions]).fetchall())


def last_ord(con: Any) -> int:
    """The highest ``ord`` in the ``hands`` table (0 when empty)."""
    return int(con.execute("SELECT coalesce(max(ord), 0) FROM hands").fetchone()[0])
