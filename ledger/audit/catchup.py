"""Catching the derived tables up with the ledger without replaying all of it.

An audit of years of games should not replay a million hands because one night was imported.
:func:`moved` says what changed since the derived tables were built (their head in
``derived_state``): the sessions with rows after it. Every book and every check of the audit
is per session (RULES.md §1.1, table stakes: chips move only within a session), so those
sessions alone are replayed, folded and audited again, and :func:`replace_sessions` swaps
their rows in every derived table in one transaction. A full rebuild is needed instead when
the tables were never built or have another shape, when a ``player_alias`` was added (names
change across the series), or when a hand of no session moved (that book spans the ledger),
or when the row at the tables' head no longer has the chain hash it had (rows rewritten and
chained again; ``verify`` says where a row was edited without that).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.audit.books import Series, platform_nicknames
from ledger.audit.load import session_rows
from ledger.audit.tables import (
    DERIVED_VERSION,
    finding_rows,
    head_hash,
    names_in,
    present_tables,
    session_table_rows,
    tables_digest,
)
from ledger.model.errors import LedgerError
from ledger.store.duck import duckdb

_REPLAY_TABLES = ("pots", "discrepancies", "results", "hands")  # pots first: keyed by hand


@dataclass(frozen=True)
class Moved:
    """What changed since the derived tables were built: ``head`` the ledger's last position,
    ``since`` the one they were built from; ``full`` why everything must be rebuilt (None:
    only ``sessions``, in order of their first row after ``since``; empty when nothing
    moved)."""

    head: int
    full: str | None
    sessions: tuple[str, ...] = ()
    since: int = 0
    #: The names of the database's tables when it was asked (the derived tables among them).
    tables: frozenset[str] = frozenset()

    @property
    def mismatch(self) -> bool:
        """The tables are not those of this ledger's rows (another shape, another ledger,
        rows rewritten, the tables changed outside handledger): worth a note, unlike tables
        that are only behind (never built, a hand of no session or an alias added)."""
        return self.full is not None and self.full not in _BEHIND

    @property
    def fresh(self) -> bool:
        """Nothing moved: the derived tables are as of ``head``."""
        return self.full is None and not self.sessions


_NEVER = "the derived tables were never built"
_NO_SESSION = "a hand of no session moved"
_ALIAS = "a player alias was added"
_BEHIND = frozenset({_NEVER, _NO_SESSION, _ALIAS})


def moved(con: Any) -> Moved:
    """What moved since the derived tables were built (see the module doc).

    Raises:
        LedgerError: the database cannot be read.
    """
    try:
        head = int(con.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
        names = present_tables(con)
        if "derived_state" not in names:
            return Moved(head, _NEVER)
        state = dict(con.execute("SELECT key, value FROM derived_state").fetchall())
        if state.get("version") != DERIVED_VERSION:
            return Moved(head, "the derived tables have another shape")
        since = int(state.get("head") or -1)
        if since < 0 or since > head:
            return Moved(head, "the derived tables are not of this ledger")
        if state.get("head_hash") != head_hash(con, since):
            return Moved(head, "the ledger's rows up to the tables' head are not those they "
                               "were built from (run `verify`)")
        if state.get("digest") != tables_digest(con, names):
            return Moved(head, "the derived tables were changed outside handledger")
        if since == head:
            return Moved(head, None)
        rows = con.execute(
            "SELECT session, bool_or(type IN ('player_alias', 'player_unaliased')),"
            " min(position) FROM events"
            " WHERE position > ? GROUP BY session ORDER BY 3", [since]).fetchall()
    except duckdb.Error as e:
        raise LedgerError(f"cannot read the derived tables: {e}") from e
    if any(session is None for session, _, _ in rows):
        return Moved(head, _NO_SESSION)
    if any(alias for _, alias, _ in rows):
        return Moved(head, _ALIAS)
    return Moved(head, None, tuple(session for session, _, _ in rows), since, frozenset(names))


def first_position(con: Any, moved: Moved) -> int:
    """The first ledger position a catch-up of ``moved`` must read: the first row of the
    earliest session that moved (from ``session_book``), or the first new row."""
    firsts = [p for (p,) in con.execute(
        "SELECT first_position FROM session_book WHERE list_contains(?, session)",
        [list(moved.sessions)]).fetchall() if p is not None]
    return min([*firsts, moved.since + 1])


def aliases(con: Any) -> dict[str, str]:
    """The series' resolved alias map as the derived tables hold it (``player_names``)."""
    return dict(con.execute("SELECT alias, player FROM player_names").fetchall())


def replace_sessions(ledger: Any, sessions: Sequence[str], series: Series,
                     findings: Iterable[Any], head: int,
                     append_hands: Callable[[Any], None],
                     present: Collection[str] | None = None) -> None:
    """Replace every derived row of ``sessions`` in one transaction: the replay tables (via
    ``append_hands(con)``, which appends the replayed hands' rows), the books of ``series``
    (those sessions only, replayed and folded again), their audit ``findings`` (in the
    audit's order), the nicknames, and the head, with the player names of the rows up to it
    (``derived_state``'s ``players``: those it had, and those of the rows after its old head).
    ``present``: the names of the database's tables, read already (:attr:`Moved.tables`).

    Raises:
        LedgerError: the ledger is read-only or the database fails (nothing is changed).
    """
    names = list(sessions)
    tables = session_table_rows(series)
    with ledger.transaction() as con:
        try:
            ords = dict(con.execute(
                "SELECT session, ord FROM session_book WHERE list_contains(?, session)",
                [names]).fetchall())
            last = con.execute("SELECT coalesce(max(ord), 0) FROM session_book").fetchone()[0]
            for table in _REPLAY_TABLES:
                if table == "pots":
                    con.execute("DELETE FROM pots WHERE hand_id IN (SELECT hand_id FROM hands"
                                " WHERE list_contains(?, session))", [names])
                else:
                    con.execute(f"DELETE FROM {table} WHERE list_contains(?, session)", [names])
            for table in ("session_book", "session_players", "audit_discrepancies"):
                con.execute(f"DELETE FROM {table} WHERE list_contains(?, session)", [names])
            append_hands(con)
            books = []
            for row in tables["session_book"]:
                if row[0] not in ords:
                    last += 1
                    ords[row[0]] = last
                books.append((*row[:7], ords[row[0]], *row[8:]))
            _append(con, "session_book", books)
            _append(con, "session_players", tables["session_players"])
            _append(con, "audit_discrepancies", finding_rows(findings))
            if series.aliases:  # no alias, no nickname
                _nicknames(ledger, con, series.aliases)
            state = dict(con.execute("SELECT key, value FROM derived_state WHERE key IN"
                                     " ('head', 'players')").fetchall())
            values = {"head": str(head), "head_hash": head_hash(con, head),
                      "digest": tables_digest(con, present or None)}
            if "players" in state:
                players = set(json.loads(state["players"]))
                players |= names_in(con, int(state["head"]), head)
                values["players"] = json.dumps(sorted(players))
            keys = list(values)  # one statement: a query costs more than these rows
            whens = " ".join("WHEN ? THEN ?" for _ in keys)
            con.execute(f"UPDATE derived_state SET value = CASE key {whens} END"
                        " WHERE list_contains(?, key)",
                        [*(v for k in keys for v in (k, values[k])), keys])
        except duckdb.Error as e:
            raise LedgerError(f"cannot write the derived tables: {e}") from e


def _append(con: Any, table: str, rows: list[tuple]) -> None:
    if rows:
        appender = con.appender(table)
        appender.append_rows(rows)
        appender.flush()


def _nicknames(ledger: Any, con: Any, aliases: dict[str, str]) -> None:
    """Work the nicknames out again: a new hand may seat a name that was a nickname, or be
    the first of its session read from a PokerNow log (:mod:`ledger.model.platform`)."""
    seated: dict[str | None, set[str]] = {}
    for session, player in con.execute("SELECT DISTINCT session, player FROM results").fetchall():
        seated.setdefault(session, set()).add(player)
    booked: dict[str | None, set[str]] = {}
    for session, player in con.execute("SELECT session, player FROM session_players").fetchall():
        booked.setdefault(session, set()).add(player)
    from ledger.store.streams import platform_sessions

    rows = session_rows(ledger, types=("player_alias", "player_unaliased"))
    platform = platform_sessions(ledger, {r.session for r in rows})
    con.execute("DELETE FROM player_nicknames")
    _append(con, "player_nicknames",
            sorted(platform_nicknames(rows, seated, aliases, platform, booked).items()))
