"""Derived DuckDB tables of replay results: ``hands``, ``pots``, ``results``, ``discrepancies``.

They are derived, never the source of truth: :func:`write_results` drops what it rebuilds and
writes it again from the replayed hands. Chips are integers.

* ``hands(hand_id, session, game, status, verifiable, corrected, players, pot_total, carried,
  notes, ord)`` — one row per hand; ``ord`` is the order of the hand in the ledger.
* ``pots(hand_id, pot_index, amount, eligible, awards, carried, explanation)`` — main pot is 0;
  ``awards`` is JSON ``{player: chips}``.
* ``results(hand_id, session, player, starting, contributed, returned, awarded, recorded, net,
  final_stack, ord)`` — ``recorded`` is NULL when the source recorded no payouts.
* ``discrepancies(hand_id, session, player, kind, recorded, recomputed, diff, message)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from replay.fold import HandReplay

SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (hand_id VARCHAR PRIMARY KEY, session VARCHAR, game VARCHAR,
    status VARCHAR, verifiable BOOLEAN, corrected BOOLEAN, players INTEGER, pot_total BIGINT,
    carried BIGINT, notes VARCHAR, ord BIGINT);
CREATE TABLE IF NOT EXISTS pots (hand_id VARCHAR, pot_index INTEGER, amount BIGINT,
    eligible VARCHAR[], awards JSON, carried BIGINT, explanation VARCHAR);
CREATE TABLE IF NOT EXISTS results (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    starting BIGINT, contributed BIGINT, returned BIGINT, awarded BIGINT, recorded BIGINT,
    net BIGINT, final_stack BIGINT, ord BIGINT);
CREATE TABLE IF NOT EXISTS discrepancies (hand_id VARCHAR, session VARCHAR, player VARCHAR,
    kind VARCHAR, recorded BIGINT, recomputed BIGINT, diff BIGINT, message VARCHAR);
"""

_TABLES = ("hands", "pots", "results", "discrepancies")


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
    net = replay.net
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
            )
        )
    for d in replay.discrepancies:
        out["discrepancies"].append(
            (hand, session, d.player, d.kind, d.recorded, d.recomputed, d.diff, d.sentence())
        )
    return out


def write_results(con: Any, replays: Iterable[tuple[int, HandReplay]], *, full: bool) -> int:
    """Write replayed hands into the derived tables; ``full`` rebuilds them from scratch,
    otherwise only the given hands' rows are replaced. Returns the number of hands written."""
    create_tables(con)
    batch: dict[str, list[tuple[Any, ...]]] = {t: [] for t in _TABLES}
    hands: list[str] = []
    for ord_, replay in replays:
        hands.append(replay.hand)
        for table, rows in rows_for(replay, ord_).items():
            batch[table].extend(rows)
    con.execute("BEGIN TRANSACTION")
    try:
        for table in _TABLES:
            if full:
                con.execute(f"DELETE FROM {table}")
            elif hands:
                con.execute(f"DELETE FROM {table} WHERE hand_id IN (SELECT UNNEST(?))", [hands])
            if batch[table]:
                marks = ", ".join("?" * len(batch[table][0]))
                con.executemany(f"INSERT INTO {table} VALUES ({marks})", batch[table])
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return len(hands)
