"""The DuckDB side of the audit: derived tables, the SQL views users query, read-only SQL.

Derived tables (rebuilt whole by one streaming pass over the ledger, ``replay.projections``;
never a source of truth):

* the replay tables of :mod:`replay.tables` — ``hands``, ``pots``, ``results``,
  ``discrepancies`` (the replay's payout differences) — written here with DuckDB's appender;
* ``session_book(session, date, opened, closed, chip_value_minor, currency, decimals, ord,
  first_position, rake, house_received_minor, house_paid_minor)`` — ``first_position`` the
  ledger position of the session's first row or hand; ``rake`` the chips the table took from
  its pots (owed to the house), the house's payments in minor units;
* ``session_players(session, player, buy_in, buy_ins, rebuys, top_ups, cash_out, on_table,
  hands, net, biggest_win, biggest_loss, paid_minor, received_minor, rules_net,
  chip_value_minor, currency, decimals)`` — chips unless ``_minor`` (money in minor units), the
  last three the unit of its book; ``session`` NULL for hands of no session, which have a
  ``session_book`` row and their players' rows per chip unit of their hands (each hand of no
  session counts its own unit), in order of its first hand;
* ``player_names(alias, player)`` — the resolved ``player alias`` map;
* ``player_nicknames(player, nickname)`` — the latest PokerNow name of a player known by his
  PokerNow id (:func:`ledger.audit.books.platform_nicknames`);
* ``audit_discrepancies(kind, session, hand_id, player, expected, actual, diff, message, seq)``
  — every audit finding, ``seq`` its place in the audit's order within its session, from 1
  (:func:`finding_rows`: a catch-up of some sessions numbers them as a full rebuild does);
* ``derived_state(key, value)`` — the ledger head they were built from, its chain hash, the
  digest of the tables' contents (:func:`tables_digest`), the sessions with a
  ``player_alias`` row up to that head (``alias_sessions``, a JSON list) and every player
  name of the rows up to it (``players``, a JSON list:
  :func:`ledger.store.streams.player_names`) (:func:`ledger.audit.catchup.moved`).

Views (:data:`VIEWS`, ``CREATE OR REPLACE VIEW``; documented with examples in docs/SQL.md):
``sessions``, ``player_hand_results``, ``player_session_results``, ``standings`` (a row per
player and chip unit: ``chip_value_minor``, ``currency``, ``decimals``). Money
columns end in ``_minor``: chips × ``chip_value_minor``, integers (HUGEINT: a product of two
amounts of up to ``MAX_CHIPS`` each).

Every DuckDB error is translated into :class:`ledger.model.errors.LedgerError` here.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ledger.audit.books import Series
from ledger.audit.checks import Finding
from ledger.model.errors import LedgerError
from ledger.store.duck import duckdb, present_tables

if TYPE_CHECKING:
    from ledger.audit.settlement import Owing

#: Bump when a derived table or view changes shape, or what the books compute into them (6: the
#: table's dead money in the main pot, an open hand in progress, a voided hand's stacks count
#: for nothing; 7: a hand that pays nobody is a chip_conservation finding; 8: ``derived_state``
#: names the sessions with a player alias, :func:`ledger.store.streams.alias_sessions`; 9: the
#: standings view a row per player and chip unit, ``chip_value_minor`` in the results views;
#: 10: ``session_book`` holds the rake and the house's payments; 11: ``derived_state`` holds
#: the ledger's player names, :func:`ledger.store.streams.player_names`; 12: chips recorded as
#: returned beyond a player's uncalled bet are a ``returned`` discrepancy; 13: the payouts
#: recorded in a hand still in progress are no discrepancy until it ends; 14: hands of no
#: session in a book per chip unit, each hand's unit in ``hands``, ``session_players``
#: carries its book's unit; 15: ``player_nicknames`` of a session holding a hand read from a
#: PokerNow log, not only of one such a log opened, :mod:`ledger.model.platform`; 16: a chip
#: of a hand of no opened session worth its ``minor_per_chip`` minor units of its currency at
#: the currency's decimals, :meth:`ledger.model.events.Unit.money`; 17: a file's rake stays
#: counted beside wrong payouts, each pot raked as the site's summary says, and a converted
#: hand's pots divided in its ``smallest_chip``; 18: a voided hand passes the chips carried
#: into it on, a hand carries only what its table left unpaid, and the audit names chips
#: carried beside payouts beyond the pot or by a hand of no session; 19: a currency symbol a
#: hand was stored with counts as its ISO 4217 code, ``$`` as USD; 20: the rules' net of a
#: hand that records a rake is the rules' result once it is taken, and a ``rake`` finding
#: beside wrong payouts records what was paid; 21: a hand of no opened session counts money
#: in its currency's ISO 4217 minor unit whatever its file's decimals, whole dollars as 100
#: cents; 22: ``audit_discrepancies`` ``seq`` counts within each session in a full rebuild
#: too, :func:`finding_rows`; 23: a hand whose file marks an uncalled bet returned left none
#: out, a return short of it is a ``payout`` finding, never ``uncalled``; a ledger statement's
#: missing row said ``has no row for P, whom …``; 24: that missing row names the player as
#: the other rows do, ``name (id)``, and ``player_nicknames`` names a PokerNow player who has
#: books in a session but played no hand, and ``discrepancies`` names no player, NULL, for
#: a finding of the whole table, an infeasible total or a carry, not ``*``); 25: the engine's
#: words kept in ``hands.notes`` (an unreplayable hand's reason, a short raise's note) say
#: bet, raise or complete as poker does, and a draw waiting for its replacement cards names
#: them; 27: ``player_nicknames`` leaves out a name ``player unalias`` ended, as
#: :func:`ledger.audit.books.platform_nicknames` reads it: forces a rebuild; 28: a closed
#: session's chips carried to no hand are said as carried chips owed by nobody; 29: a voided
#: hand of no session is in no book (no ``session_book`` row of no session, no player row,
#: no hand counted in ``sessions``, no row in ``player_hand_results``); 30:
#: ``player_nicknames`` takes no host's row for an id's name (``player alias Player7 Dave``
#: after ``player alias Dave ID``: Player7 is no id known as Dave), as
#: :func:`ledger.store.streams.shown_names` reads the rows; 31: a session opened after some
#: of its hands follows their starting stacks too (``stack_continuity`` findings).
DERIVED_VERSION = "31"

TABLES = """
CREATE TABLE IF NOT EXISTS session_book (session VARCHAR, date VARCHAR, opened BOOLEAN,
    closed BOOLEAN, chip_value_minor BIGINT, currency VARCHAR, decimals INTEGER, ord INTEGER,
    first_position BIGINT, rake BIGINT, house_received_minor BIGINT, house_paid_minor BIGINT);
CREATE TABLE IF NOT EXISTS session_players (session VARCHAR, player VARCHAR, buy_in BIGINT,
    buy_ins INTEGER, rebuys INTEGER, top_ups INTEGER, cash_out BIGINT, on_table BIGINT,
    hands INTEGER, net BIGINT, biggest_win BIGINT, biggest_loss BIGINT, paid_minor BIGINT,
    received_minor BIGINT, rules_net BIGINT, chip_value_minor BIGINT, currency VARCHAR,
    decimals INTEGER);
CREATE TABLE IF NOT EXISTS player_names (alias VARCHAR, player VARCHAR);
CREATE TABLE IF NOT EXISTS player_nicknames (player VARCHAR, nickname VARCHAR);
CREATE TABLE IF NOT EXISTS audit_discrepancies (kind VARCHAR, session VARCHAR, hand_id VARCHAR,
    player VARCHAR, expected BIGINT, actual BIGINT, diff BIGINT, message VARCHAR, seq BIGINT);
CREATE TABLE IF NOT EXISTS derived_state (key VARCHAR PRIMARY KEY, value VARCHAR);
"""

_SAME_SESSION = "{a}.session IS NOT DISTINCT FROM {b}.session"
#: A row of ``{a}`` in the book ``{b}`` (a row of ``session_book``): the same session, and for
#: hands of no session, which have a book per chip unit, the same unit.
_SAME_BOOK = ("{a}.session IS NOT DISTINCT FROM {b}.session AND ({b}.session IS NOT NULL OR"
              " ({a}.chip_value_minor = {b}.chip_value_minor AND {a}.currency IS NOT DISTINCT"
              " FROM {b}.currency AND {a}.decimals = {b}.decimals))")

#: A row of ``hands`` ``{a}`` that the books count: all but a voided hand of no session,
#: which moved no chips and belongs to no session's books (README: net).
_IN_A_BOOK = "({a}.session IS NOT NULL OR {a}.status IS DISTINCT FROM 'voided')"

VIEWS = {
    "sessions": f"""
SELECT b.session, b.date, b.opened, b.closed, b.chip_value_minor, b.currency, b.decimals,
    (SELECT count(*) FROM hands h WHERE {_SAME_BOOK.format(a="h", b="b")}
        AND {_IN_A_BOOK.format(a="h")}) AS hands,
    (SELECT count(*) FROM session_players p WHERE {_SAME_BOOK.format(a="p", b="b")})
        AS players,
    (SELECT coalesce(sum(buy_in), 0) FROM session_players p
        WHERE {_SAME_BOOK.format(a="p", b="b")}) AS buy_in,
    (SELECT coalesce(sum(cash_out), 0) FROM session_players p
        WHERE {_SAME_BOOK.format(a="p", b="b")}) AS cash_out,
    (SELECT count(*) FROM audit_discrepancies d LEFT JOIN hands h USING (hand_id)
        WHERE {_SAME_SESSION.format(a="d", b="b")}
        AND (h.hand_id IS NULL OR {_SAME_BOOK.format(a="h", b="b")})) AS discrepancies,
    (SELECT min(recorded_at) FROM events e WHERE e.stream = 'session:' || b.session)
        AS recorded_at
FROM session_book b ORDER BY b.ord""",
    "player_hand_results": f"""
SELECT r.session, r.hand_id, r.ord, h.game, h.status, coalesce(n.player, r.player) AS player,
    r.player AS seat_name, r.starting, r.contributed, r.returned, r.awarded, r.recorded, r.net,
    r.rules_net, r.final_stack, r.net::HUGEINT * coalesce(b.chip_value_minor, 1) AS net_minor,
    b.currency, b.decimals, coalesce(b.chip_value_minor, 1) AS chip_value_minor
FROM results r JOIN hands h USING (hand_id)
LEFT JOIN player_names n ON n.alias = r.player
LEFT JOIN session_book b ON {_SAME_BOOK.format(a="h", b="b")}
WHERE {_IN_A_BOOK.format(a="h")}""",
    "player_session_results": f"""
SELECT p.session, b.date, p.player, p.hands, p.buy_in, p.rebuys, p.top_ups, p.cash_out,
    p.on_table, p.net, p.rules_net, p.net::HUGEINT * b.chip_value_minor AS net_minor,
    p.rules_net::HUGEINT * b.chip_value_minor AS rules_net_minor,
    p.buy_in::HUGEINT * b.chip_value_minor AS buy_in_minor,
    p.cash_out::HUGEINT * b.chip_value_minor AS cash_out_minor, p.paid_minor, p.received_minor,
    p.biggest_win, p.biggest_loss,
    b.currency, b.decimals, b.ord AS session_ord, b.chip_value_minor
FROM session_players p JOIN session_book b ON {_SAME_BOOK.format(a="p", b="b")}""",
    # a row per player and chip unit: chips of different values are never summed together
    "standings": """
SELECT player, count(session) AS sessions, sum(hands) AS hands, sum(net) AS net,
    sum(net_minor) AS net_minor, sum(rules_net) AS rules_net, sum(buy_in) AS buy_in,
    sum(cash_out) AS cash_out,
    max(net) FILTER (WHERE session IS NOT NULL) AS best_session,
    min(net) FILTER (WHERE session IS NOT NULL) AS worst_session,
    max(biggest_win) AS biggest_win, min(biggest_loss) AS biggest_loss,
    currency, chip_value_minor, decimals
FROM player_session_results GROUP BY player, chip_value_minor, currency, decimals
ORDER BY net DESC, player, chip_value_minor, currency""",
}

_MINE = ("session_book", "session_players", "player_names", "player_nicknames",
         "audit_discrepancies")


#: Every derived table, whose contents :func:`tables_digest` seals.
DERIVED = ("hands", "pots", "results", "discrepancies", "session_book", "session_players",
           "player_names", "player_nicknames", "audit_discrepancies")


def tables_digest(con: Any, present: Collection[str] | None = None) -> str:
    """A digest of every derived table's contents (row count and the sum of each row's hash,
    per table): what the tables held when handledger last wrote them. Reads compare it
    (:func:`ledger.audit.catchup.moved`): a table edited or emptied outside handledger makes
    the next read rebuild it from the events, so no verdict rests on a table ``verify`` does
    not cover. A deliberate editor who also recomputes the digest is caught only by comparing
    what is reported with a replay; the events themselves are sealed by the hash chain.
    ``present``: the tables ``con`` holds, when the caller read them already
    (:func:`present_tables`)."""
    import hashlib

    if present is None:
        present = present_tables(con)
    names = [name for name in DERIVED if name in present]
    if not names:
        return hashlib.sha256(b"").hexdigest()
    rows = con.execute(" UNION ALL ".join(  # one statement: a query costs more than a table
        f'SELECT {i} AS k, count(*), coalesce(sum(hash(t)), 0) FROM "{name}" t'
        for i, name in enumerate(names))).fetchall()
    parts = [f"{names[k]}:{count}:{total}" for k, count, total in sorted(rows)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def head_hash(con: Any, position: int) -> str:
    """The chain hash of the row at ``position`` ("" for an empty ledger): it seals every row
    up to it, so derived tables built at a head whose hash no longer matches were built from
    rows that have since been rewritten (with the chain made again) and are rebuilt."""
    row = con.execute("SELECT hash FROM events WHERE position = ?", [position]).fetchone()
    return row[0] if row else ""


def names_in(con: Any, after: int, upto: int) -> set[str]:
    """Every player name of the events at positions after ``after`` up to ``upto``
    (:data:`ledger.store.streams.PLAYER_NAMES_SQL`), read on ``con``: what ``derived_state``
    keeps as ``players`` for :func:`ledger.store.streams.player_names`."""
    from ledger.store.streams import PLAYER_NAMES_SQL

    rows = con.execute(PLAYER_NAMES_SQL.format(rows="position > ? AND position <= ?"),
                       [after, upto, after, upto]).fetchall()
    return {r[0] for r in rows if r[0] is not None}


def refresh(ledger: Any, series: Series, findings: Iterable[Any], head: int) -> None:
    """Rebuild the session tables, the audit's findings and the views in one transaction and
    record ``head``, the ledger position they were computed from (the replay tables of
    :mod:`replay.tables` are written just before, by the same pass).

    ``findings``: the audit's findings (:class:`ledger.audit.checks.Finding`) in its order
    (:func:`ledger.audit.checks.audit`).

    Raises:
        LedgerError: the ledger is read-only or the database fails (nothing is changed).
    """
    tables = audit_rows(series, findings)
    with ledger.transaction() as con:
        try:
            for name in _MINE:  # an older shape: dropped and made again
                con.execute(f"DROP TABLE IF EXISTS {name}")
            con.execute(TABLES)
            for name in _MINE:
                rows = tables.get(name) or []
                if rows:
                    appender = con.appender(name)
                    appender.append_rows(list(rows))
                    appender.flush()
            for name, body in VIEWS.items():
                con.execute(f"CREATE OR REPLACE VIEW {name} AS {body}")
            aliased = sorted(s for (s,) in con.execute(
                "SELECT DISTINCT session FROM events"
                " WHERE type IN ('player_alias', 'player_unaliased')"
                " AND session IS NOT NULL AND position <= ?", [head]).fetchall())
            players = names_in(con, 0, head)
            con.execute("DELETE FROM derived_state")
            con.execute("INSERT INTO derived_state VALUES ('version', ?), ('head', ?),"
                        " ('head_hash', ?), ('digest', ?), ('alias_sessions', ?),"
                        " ('players', ?)",
                        [DERIVED_VERSION, str(head), head_hash(con, head), tables_digest(con),
                         json.dumps(aliased), json.dumps(sorted(players))])
        except duckdb.Error as e:
            raise LedgerError(f"cannot write the derived tables: {e}") from e


@dataclass(frozen=True)
class AuditReport:
    """The audit as the derived tables hold it: ``findings`` in the audit's order
    (:class:`ledger.audit.checks.Finding`), ``hands`` per session in ledger order (key None:
    hands of no session), ``incomplete`` the hands whose log stops before their end, as
    ``(hand, session)``; ``units`` the chip of each hand whose chips are worth money (its
    session's chip, or a hand of no session its own), ``hand -> (minor units a chip is worth,
    decimals, currency)``, a PokerNow log's cent ``(1, 2, None)``: a finding's amounts are
    chips, and the text of it names what they are worth (README "Chips of different
    values"); ``session_units`` the same of each opened session whose chips are worth money,
    ``session -> (minor units, decimals, currency)``, what the amounts of a finding of the
    session that names no hand count (a cash-out's chips, a settlement's minor units); how
    the findings read, not what the audit found, so two reports of the same findings are
    equal whatever units they carry (a Dask merge reads none)."""

    findings: list[Finding]
    hands: dict[str | None, int]
    incomplete: list[tuple[str, str | None]]
    units: dict[str, tuple[int, int, str | None]] = field(default_factory=dict, compare=False)
    session_units: dict[str, tuple[int, int, str | None]] = field(default_factory=dict,
                                                                  compare=False)
    #: The closed sessions where money is still owed after the payments recorded, in ledger
    #: order, each with what and who pays whom (:func:`ledger.audit.settlement.owing`, as
    #: ``session list`` says ``… owed``): a session with no payment recorded is no finding
    #: unless ``audit --unsettled`` asks.
    owing: tuple[Owing, ...] = field(default=(), compare=False)


def read_audit(con: Any) -> AuditReport:
    """The :class:`AuditReport` of the derived tables (brought up to the ledger's head first:
    ``replay.projections.catch_up``).

    Raises:
        LedgerError: the derived tables cannot be read.
    """
    from ledger.audit import settlement

    try:
        findings = [Finding(*row) for row in con.execute(
            "SELECT d.kind, d.session, d.hand_id, d.player, d.expected, d.actual, d.message"
            " FROM audit_discrepancies d LEFT JOIN (SELECT session, min(ord) AS ord"
            " FROM session_book GROUP BY session) b"
            " ON b.session IS NOT DISTINCT FROM d.session ORDER BY b.ord, d.seq").fetchall()]
        counts = dict(con.execute(  # a voided hand of no session: in no book's count
            f"SELECT session, count(*) FROM hands h WHERE {_IN_A_BOOK.format(a='h')}"
            " GROUP BY session").fetchall())
        hands = {name: counts.get(name, 0) for (name,) in con.execute(
            "SELECT session FROM session_book ORDER BY ord").fetchall()}
        incomplete = con.execute(
            "SELECT hand_id, session FROM hands WHERE status = 'incomplete' ORDER BY ord"
        ).fetchall()
        units = {hand: (int(minor), int(decimals), currency) for hand, minor, decimals, currency
                 in con.execute(
            "SELECT DISTINCT h.hand_id, b.chip_value_minor, b.decimals, b.currency FROM hands h"
            f" JOIN session_book b ON {_SAME_BOOK.format(a='h', b='b')}"
            " JOIN audit_discrepancies d ON d.hand_id = h.hand_id"
            " WHERE b.currency IS NOT NULL OR b.decimals > 0 OR b.chip_value_minor > 1"
        ).fetchall()}
        sessions = {name: (int(minor), int(decimals), currency) for name, minor, decimals,
                    currency in con.execute(
            "SELECT b.session, b.chip_value_minor, b.decimals, b.currency FROM session_book b"
            " WHERE b.session IS NOT NULL AND (b.currency IS NOT NULL OR b.decimals > 0"
            " OR b.chip_value_minor > 1) AND b.session IN (SELECT d.session FROM"
            " audit_discrepancies d WHERE d.hand_id IS NULL)").fetchall()}
        owing = settlement.owing(con)
    except duckdb.Error as e:
        raise LedgerError(f"cannot read the derived tables: {e}") from e
    return AuditReport(findings, hands, [tuple(r) for r in incomplete], units, sessions, owing)


def audit_rows(series: Series, findings: Iterable[Any]) -> dict[str, list[tuple]]:
    """The rows of every table :func:`refresh` writes but the views and ``derived_state``:
    ``session_book``, ``session_players``, ``player_names``, ``player_nicknames`` (from the
    series' books, in their order) and ``audit_discrepancies`` (``findings`` in the audit's
    order, :func:`finding_rows`); columns as in :data:`TABLES`."""
    tables = session_table_rows(series)
    tables["audit_discrepancies"] = finding_rows(findings)
    return tables


def finding_rows(findings: Iterable[Any]) -> list[tuple]:
    """The ``audit_discrepancies`` rows of ``findings`` (:class:`ledger.audit.checks.Finding`,
    in the audit's order), ``seq`` each finding's place in that order within its session,
    from 1 (session None: the hands of no session). The one numbering of the stored findings,
    whether a full rebuild or a catch-up of the sessions that moved writes them
    (:func:`ledger.audit.catchup.replace_sessions`): every check of the audit is per session,
    so a session's findings do not depend on the others', and neither does their ``seq``."""
    seq: dict[str | None, int] = {}
    rows = []
    for d in findings:
        seq[d.session] = seq.get(d.session, 0) + 1
        rows.append((d.kind, d.session, d.hand, d.player, d.expected, d.actual, d.diff,
                     d.message, seq[d.session]))
    return rows


def session_table_rows(series: Series) -> dict[str, list[tuple]]:
    """``{table: rows}`` of the derived tables the series' books make (TABLES' columns, in
    order): the ``session_book`` and ``session_players`` rows of its books in their order,
    a row per book, the hands of no session a book per chip unit
    (:meth:`ledger.audit.books.SessionBook.books_by_unit`: chips of different values never add
    up, docs/BOOKS.md "Chips of different values"), ``ord`` counting the rows; ``player_names``
    (alias, player) and ``player_nicknames`` (player, nickname), sorted."""
    book_rows, player_rows = [], []
    books = (each for book in series.sessions.values() for each in book.books_by_unit())
    for i, book in enumerate(books, 1):
        opened = book.opened
        book_rows.append((book.name, getattr(opened, "date", None), opened is not None,
                          book.closed, book.chip_value_minor, book.currency, book.decimals, i,
                          book.first, book.rake, book.house_received_minor,
                          book.house_paid_minor))
        for p in book.players.values():
            player_rows.append((book.name, p.player, p.buy_in, p.buy_ins, p.rebuys, p.top_ups,
                                p.cash_out, p.on_table, p.hands, p.net, p.biggest_win,
                                p.biggest_loss, p.paid_minor, p.received_minor, p.rules_net,
                                book.chip_value_minor, book.currency, book.decimals))
    names = sorted(series.aliases.items())
    return {"session_book": book_rows, "session_players": player_rows, "player_names": names,
            "player_nicknames": sorted(series.nicknames.items())}
