"""What a report of the books lists, read from the derived tables and views (docs/SQL.md):
every session with its chip value and counts, and every hand with what the replay made of it.

The tables must be as of the ledger's head (the application catches them up first). Chips
are integers; a chip value is in integer minor units of the session's currency. Every DuckDB
error is translated into ``LedgerError``.
"""

from __future__ import annotations

from typing import Any

from ledger.audit.seat_labels import seat_label_of
from ledger.model.errors import LedgerError
from ledger.store.duck import duckdb

_SESSIONS = ("session", "date", "opened", "closed", "chip_value_minor", "currency", "decimals",
             "hands", "players", "buy_in", "cash_out", "discrepancies")
_HANDS = ("hand", "session", "ord", "game", "status", "verifiable", "corrected", "players",
          "pot_total", "notes")


def _rows(con: Any, sql: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    try:
        return [dict(zip(keys, row, strict=True)) for row in con.execute(sql).fetchall()]
    except duckdb.Error as e:
        raise LedgerError(f"cannot read the derived tables: {e}") from e


def session_list(con: Any) -> list[dict[str, Any]]:
    """Every session in ledger order (``session`` None: the hands of no session), as dicts
    with ``session``, ``date``, ``opened``, ``closed``, ``chip_value_minor`` (1 when none was
    given), ``currency`` (None: chips only), ``decimals``, ``hands``, ``players``, ``buy_in``
    and ``cash_out`` (chips) and ``discrepancies`` (the audit's findings in it).

    Raises:
        LedgerError: the derived tables cannot be read.
    """
    return _rows(con, f"SELECT {', '.join(_SESSIONS)} FROM sessions", _SESSIONS)


def hand_list(con: Any) -> list[dict[str, Any]]:
    """Every hand in ledger order as dicts with ``hand``, ``session``, ``ord`` (its place in
    the ledger, from 1), ``game``, ``status`` (complete, voided, incomplete …),
    ``verifiable``, ``corrected`` (a correction or a void applies), ``players``,
    ``pot_total`` (chips) and ``notes`` (the replay's, joined by ``"; "``).

    Raises:
        LedgerError: the derived tables cannot be read.
    """
    return _rows(con, "SELECT hand_id, session, ord, game, status, verifiable, corrected,"
                      " players, pot_total, notes FROM hands ORDER BY ord", _HANDS)


_PLAYERS = ("session", "player", "nickname", "hands", "buy_in", "cash_out", "on_table", "net",
            "paid_minor", "received_minor", "chip_value_minor", "currency", "decimals")


def player_sessions(con: Any) -> list[dict[str, Any]]:
    """Every player of every session (sessions in ledger order, most won first), as dicts
    with ``session`` (None: hands of no session), ``player`` (his series name), ``nickname``
    (his PokerNow name, None unless known by a PokerNow id), ``hands``, ``buy_in``,
    ``cash_out``, ``on_table`` and ``net`` (chips: what the table paid), ``paid_minor`` and
    ``received_minor`` (payments, minor units), and the chip unit of those chips,
    ``chip_value_minor``, ``currency``, ``decimals`` (the session's; hands of no session a row
    per player and unit of their hands).

    Raises:
        LedgerError: the derived tables cannot be read.
    """
    return _rows(con, "SELECT r.session, r.player, n.nickname, r.hands, r.buy_in, r.cash_out,"
                      " r.on_table, r.net, r.paid_minor, r.received_minor,"
                      " r.chip_value_minor, r.currency, r.decimals"
                      " FROM player_session_results r LEFT JOIN player_nicknames n"
                      f" USING (player) WHERE NOT {seat_label_of('r')}"
                      " ORDER BY r.session_ord, r.net DESC, r.player", _PLAYERS)
