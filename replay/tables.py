"""Derived DuckDB tables of replay results: ``hands``, ``pots``, ``results``, ``discrepancies``.

They are derived, never the source of truth: :func:`write_results` drops what it rebuilds and
writes it again from the replayed hands. Chips are integers.

* ``hands(hand_id, session, game, status, verifiable, corrected, players, pot_total, carried,
  notes, ord, chip_value_minor, currency, decimals)`` — one row per hand; ``ord`` is the order
  of the hand in the ledger; the last three its own chip unit as its ``hand_started`` records
  it (``HandReplay.unit``: what a chip of a hand of no session is worth; a session's hands
  count the session's unit, ``session_book``), plain chips (1, NULL, 0) when it does not
  parse. No key: DuckDB would hold its index in memory through an import's one
  transaction; the rows come one a hand stream of the ledger, and the import that appends
  them checks that none repeats (:meth:`replay.ingest.derived.ImportTables.finish`). A table
  made with the key before keeps it until the tables are made again.
* ``pots(hand_id, pot_index, amount, eligible, awards, carried, explanation)`` — main pot is 0;
  ``awards`` is JSON ``{player: chips}``.
* ``results(hand_id, session, player, starting, contributed, returned, awarded, recorded, net,
  final_stack, ord, rules_net)`` — ``recorded`` is NULL when the source recorded no payouts;
  ``net`` is the books' net (what the table paid minus what he put in:
  ``replay.hand_replay.HandReplay.paid_net``), ``final_stack`` the stack it left him, ``rules_net``
  the rules' result.
* ``discrepancies(hand_id, session, player, kind, recorded, recomputed, diff, message)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from ledger.model.errors import LedgerError
from ledger.store.duck import duckdb
from replay.fold import HandReplay

SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (hand_id VARCHAR, session VARCHAR, game VARCHAR,
    status VARCHAR, verifiable BOOLEAN, corrected BOOLEAN, players INTEGER, pot_total BIGINT,
    carried BIGINT, notes VARCHAR, ord BIGINT, chip_value_minor BIGINT, currency VARCHAR,
    decimals INTEGER);
CREATE TABLE IF NOT EXISTS pots (hand_id VARCHAR, pot_index INTEGER, amount BIGINT,
    eligible VARCHAR[], awards JSON, carried BIGINT, explanation VARCHAR);
CREATE TABLE IF NOT EXISTS results (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    starting BIGINT, contributed BIGINT, returned BIGINT, awarded BIGINT, recorded BIGINT,
    net BIGINT, final_stack BIGINT, ord BIGINT, rules_net BIGINT);
CREATE TABLE IF NOT EXISTS discrepancies (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    kind VARCHAR, recorded BIGINT, recomputed BIGINT, diff BIGINT, message VARCHAR);
"""

#: The derived tables, in the order their rows are appended.
TABLES = ("hands", "pots", "results", "discrepancies")
_TABLES = TABLES
_text = json.encoder.encode_basestring_ascii  # a JSON string, as json.dumps writes it
_CHUNK = 50_000  # rows per table handed to a DuckDB appender at once


def create_tables(con: Any) -> None:
    """Create the derived tables if missing (``con``: a DuckDB connection)."""
    con.execute(SCHEMA)


def rows_for(
    replay: HandReplay,
    ord_: int,
    *,
    net: Mapping[str, int] | None = None,
    paid_net: Mapping[str, int] | None = None,
) -> dict[str, list[tuple[Any, ...]]]:
    """The rows one replayed hand contributes to each derived table (``net``, ``paid_net``:
    as in :func:`add_rows`)."""
    out: dict[str, list[tuple[Any, ...]]] = {t: [] for t in _TABLES}
    add_rows(out, replay, ord_, net=net, paid_net=paid_net)
    return out


def add_rows(out: Mapping[str, list[tuple[Any, ...]]], replay: HandReplay, ord_: int, *,
             net: Mapping[str, int] | None = None, paid_net: Mapping[str, int] | None = None
             ) -> None:
    """Append the rows one replayed hand contributes to each derived table to ``out``
    (``{table: rows}``, every table of :data:`SCHEMA`), as :func:`rows_for` gives them.
    ``net``, ``paid_net``: the hand's :attr:`HandReplay.net` and :attr:`HandReplay.paid_net`
    when the caller has them already (they are computed otherwise)."""
    r = replay.result
    hand, session = replay.hand, replay.session
    pots = r.pots
    out["hands"].append((hand, session, replay.game, r.status, r.verifiable, replay.corrected,
                         len(r.players), sum([p.amount for p in pots]), r.carried,
                         "; ".join(replay.notes), ord_, *replay.unit))
    if pots:
        out["pots"].extend([
            (hand, pot.index, pot.amount, list(pot.eligible),
             _awards_json(pot.awards), pot.carried, " ".join(pot.lines))
            for pot in pots])
    rules = replay.net if net is None else net
    books = replay.paid_net if paid_net is None else paid_net
    recorded = replay.recorded
    starting, contributions, returned, awards = r.starting, r.contributions, r.returned, r.awards
    out["results"].extend([
        (hand, session, p, starting[p], contributions[p], returned.get(p, 0), awards[p],
         None if recorded is None else recorded.get(p, 0), books[p], starting[p] + books[p],
         ord_, rules[p])
        for p in r.players])
    if replay.discrepancies:
        out["discrepancies"].extend(
            (hand, session, d.named, d.kind, d.recorded, d.recomputed, d.diff, d.sentence())
            for d in replay.discrepancies)


def _awards_json(awards: Mapping[str, int]) -> str:
    """``json.dumps(awards, sort_keys=True)`` of a pot's ``{player: chips}`` (chips are
    ints), written out: the encoder made for each pot took twice the time."""
    return "{" + ", ".join([f"{_text(p)}: {c}" for p, c in sorted(awards.items())]) + "}"


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
                       hands: list[str] | None, in_memory: bool = False,
                       nested: bool = False) -> int:
    """Write hands' rows (:func:`rows_for`) into the derived tables in one transaction: all
    tables made again when ``hands`` is None (dropped first: a ledger whose tables an older
    version built gets them in today's shape), else only those hands' rows replaced. ``rows`` is
    consumed as it comes (a stream of a million hands never sits in memory) and goes in by
    chunks (:func:`append_rows`). ``in_memory``, ``nested``: as :func:`write_tables`.
    Returns the number of hands written.

    Raises:
        Whatever iterating ``rows`` raises; nothing is written then (rolled back).
    """
    if hands is None:
        count = [0]

        def fill(con: Any, checkpoint: Callable[[], None]) -> None:
            count[0] = append_rows(con, rows, flushed=checkpoint)

        write_tables(con, fill, in_memory=in_memory, nested=nested)
        return count[0]
    if not nested:
        con.execute("BEGIN TRANSACTION")
    try:
        create_tables(con)
        for table in _TABLES:
            if hands:
                con.execute(f"DELETE FROM {table} WHERE hand_id IN (SELECT UNNEST(?))", [hands])
        written = append_rows(con, rows)
        if not nested:
            con.execute("COMMIT")
    except BaseException:
        if not nested:
            con.execute("ROLLBACK")
        raise
    return written


def saving(ledger: Any) -> AbstractContextManager[Any]:
    """The transaction a full rebuild of ``ledger``'s derived tables is saved in: the replay
    tables, the session tables, the findings and ``derived_state`` (their head and digest)
    commit together, so a process killed between them leaves the tables as they were, never
    new replay tables under the old digest (which every later read would take for tables
    changed outside handledger). None for a read's tables in memory (nothing is kept) or
    inside the caller's transaction (it commits them with its own)."""
    if ledger.read_only or ledger.in_transaction:
        return nullcontext()
    return ledger.transaction()

def write_tables(con: Any, fill: Callable[[Any, Callable[[], None]], None], *,
                 in_memory: bool = False, nested: bool = False) -> None:
    """Make every derived table again (dropped first: a ledger whose tables an older version
    built gets them in today's shape) and let ``fill(con, checkpoint)`` insert their rows, in
    one transaction. ``in_memory``: the tables are a read's, in memory, which nothing keeps
    (:meth:`ledger.store.store.Ledger.overlay`): then there is no transaction, and each
    ``checkpoint()`` that ``fill`` calls between batches of rows has DuckDB checkpoint what is
    in, which compresses it in memory (a million hands' tables take about a fifth of their
    uncompressed size); otherwise ``checkpoint()`` does nothing. ``nested``: inside the
    caller's transaction (:attr:`ledger.store.store.Ledger.in_transaction`: an import's
    check), which commits or rolls back these rows with its own.

    Raises:
        Whatever ``fill`` raises; nothing is written then (rolled back; tables in memory are
            left as far as they got).
    """
    if in_memory:
        for table in _TABLES:
            con.execute(f"DROP TABLE IF EXISTS {table}")
        create_tables(con)
        fill(con, lambda: con.execute("CHECKPOINT"))
        con.execute("CHECKPOINT")
        return
    if not nested:
        con.execute("BEGIN TRANSACTION")
    try:
        for table in _TABLES:  # made again, in today's shape (tables of an older one included)
            con.execute(f"DROP TABLE IF EXISTS {table}")
        create_tables(con)
        fill(con, _nothing)
        if not nested:
            con.execute("COMMIT")
    except BaseException:
        if not nested:
            con.execute("ROLLBACK")
        raise


def _nothing() -> None:
    """A checkpoint inside one transaction: none."""


def append_rows(con: Any, hands: Iterable[dict[str, list[tuple[Any, ...]]]], *,
                flushed: Callable[[], None] | None = None) -> int:
    """Append each hand's rows (:func:`rows_for`) to the derived tables, in chunks of
    ``_CHUNK`` rows per table, inside the caller's transaction; ``flushed()`` after each
    chunk but the last. Returns the hands appended.

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits), naming the hand.
    """
    pending: dict[str, list[tuple[Any, ...]]] = {t: [] for t in _TABLES}
    count = 0
    for rows in hands:
        count += 1
        for table, new in rows.items():
            buffer = pending[table]
            buffer.extend(new)
            if len(buffer) >= _CHUNK:
                insert_rows(con, table, buffer)
                buffer.clear()
                if flushed is not None:
                    flushed()
    for table, buffer in pending.items():
        insert_rows(con, table, buffer)
    return count


def insert_rows(con: Any, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert ``rows`` of the derived table ``table`` (as :func:`rows_for` gives them) inside
    the caller's transaction: a few through DuckDB's appender, many as columns
    (:func:`table_columns`, :func:`insert_columns`).

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits), naming the hand.
    """
    if len(rows) >= _COLUMNS_FROM:
        insert_columns(con, table, table_columns(table, rows))
    elif rows:
        _append(con.appender(table), table, list(rows))


def table_columns(table: str, rows: Sequence[tuple[Any, ...]]) -> dict[str, Any]:
    """``rows`` of the derived table ``table`` as numpy columns ``{column: array}`` in the
    table's order (integers ``int64`` unless a value is NULL, booleans ``bool``, the rest
    Python objects): what :func:`insert_columns` inserts, cheap to send to another process.

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits), naming the hand.
    """
    import numpy as np

    columns: dict[str, Any] = {}
    if not rows:
        return columns
    for (name, kind), values in zip(_SHAPE[table], zip(*rows, strict=True), strict=True):
        if kind in _INTEGERS:
            try:
                columns[name] = np.array(values, dtype=np.int64)
                continue
            except OverflowError:
                pass
            except TypeError:  # a NULL among them: Python objects, range checked here
                pass
            for row, value in zip(rows, values, strict=True):
                if value is not None and not -(2**63) <= value < 2**63:
                    raise LedgerError(
                        f"{value} chips do not fit the derived table {table} (64-bit integers)",
                        hand=row[0])
            columns[name] = np.fromiter(values, dtype=object, count=len(values))
        elif kind == "BOOLEAN" and None not in values:
            columns[name] = np.array(values, dtype=np.bool_)
        else:  # one object a row (a list stays one value, never a second dimension)
            columns[name] = np.fromiter(values, dtype=object, count=len(values))
    return columns


def arrow_columns(table: str, rows: Sequence[tuple[Any, ...]]) -> dict[str, Any]:
    """``rows`` of the derived table ``table`` as Arrow arrays ``{column: array}`` in the
    table's order: :func:`table_columns` made Arrow where the rows are replayed (a worker
    process), so that the process writing the file only copies them in
    (:func:`insert_columns`); Arrow arrays pickle as their buffers, numpy arrays of texts
    string by string.

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits), naming the hand;
            a value with no Arrow form (a text that is not UTF-8, a mixed column).
    """
    import pyarrow as pa

    from ledger.store.arrow import numpy_column

    try:
        return {name: numpy_column(values)
                for name, values in table_columns(table, rows).items()}
    except (pa.ArrowException, UnicodeEncodeError) as exc:
        raise LedgerError(f"cannot write the derived table {table}: {exc}") from exc


def insert_columns(con: Any, table: str, columns: Mapping[str, Any]) -> None:
    """Insert the columns of :func:`table_columns` (numpy) or :func:`arrow_columns` into
    ``table`` inside the caller's transaction (one statement: DuckDB copies them from an
    Arrow stream).

    Raises:
        LedgerError: the database refuses them, or a value has no Arrow form (a text that is
            not UTF-8, a mixed column).
    """
    if not columns:
        return
    import pyarrow as pa

    from ledger.store.arrow import insert_arrow, numpy_column

    # an Arrow stream, which DuckDB copies and lets go: numpy arrays of Python objects
    # registered as a view are kept alive until the transaction ends, and a first replay of
    # a large ledger, one transaction, then held every range's columns to its end
    try:
        arrays = {name: values if isinstance(values, pa.Array) else numpy_column(values)
                  for name, values in columns.items()}
        insert_arrow(con, table, ", ".join(arrays), arrays)
    except (duckdb.Error, pa.ArrowException, UnicodeEncodeError) as exc:
        raise LedgerError(f"cannot write the derived table {table}: {exc}") from exc


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


def _shape(schema: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """``{table: ((column, type), …)}`` of the ``CREATE TABLE`` statements of ``schema``."""
    out = {}
    for statement in schema.split(";"):
        if "(" not in statement:
            continue
        head, body = statement.split("(", 1)
        columns = body.rsplit(")", 1)[0].split(",")
        out[head.split()[-1]] = tuple((c.split()[0], c.split()[1]) for c in columns)
    return out


_SHAPE = _shape(SCHEMA)
_INTEGERS = ("BIGINT", "INTEGER")
#: Rows of a table from which they go in as columns (below, the appender, without numpy).
_COLUMNS_FROM = 2_000


def hand_ords(con: Any, sessions: list[str]) -> dict[str, int]:
    """``{hand: ord}`` of the stored hands of ``sessions`` in the ``hands`` table."""
    return dict(con.execute("SELECT hand_id, ord FROM hands WHERE list_contains(?, session)",
                            [sessions]).fetchall())


def last_ord(con: Any) -> int:
    """The highest ``ord`` in the ``hands`` table (0 when empty)."""
    return int(con.execute("SELECT coalesce(max(ord), 0) FROM hands").fetchone()[0])
