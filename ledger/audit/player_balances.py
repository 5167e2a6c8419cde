"""Each player's balance over the series or one session, read from the derived tables and views
(docs/SQL.md): his net, buy-ins, cash-outs, hands and sessions, the hands still in progress, the
rake the table took and where the nets do not sum to zero.

Chips are integers; money is chips × the session's chip value, in integer minor units, with the
(decimals, currency) to print it with (:mod:`ledger.audit.money_units`). The tables must be as
of the ledger's head (the application catches them up first).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ledger.audit.money_units import ChipUnit, all_plain, money_places, one_unit
from ledger.audit.seat_labels import SEAT_LABEL, seat_label_hands
from ledger.model.errors import NotFound
from ledger.model.names import likely_meant

_BALANCE_SQL = """
SELECT player, sum({net}) AS net, sum({buy_in}) AS buy_in, sum({cash_out}) AS cash_out,
    sum(hands) AS hands, count(session) AS sessions,
    string_agg(DISTINCT coalesce(currency, ''), ',') AS currency,
    string_agg(DISTINCT CAST(decimals AS VARCHAR), ',') AS decimals,
    any_value(nickname) AS nickname, sum({rules}) AS rules_net,
    sum(paid_minor) AS paid_minor, sum(received_minor) AS received_minor,
    bool_and(chip_value_minor = 1 AND coalesce(decimals, 0) = 0
             AND coalesce(currency, '') = '') AS plain
FROM player_session_results LEFT JOIN player_nicknames USING (player)
WHERE ($1 IS NULL OR session = $1) AND NOT {labels}
GROUP BY player ORDER BY net DESC, player"""


@dataclass(frozen=True)
class Balances:
    """Per player (dicts with ``player``, ``net`` — what the table paid him minus what he put
    in, the one meaning of net — ``buy_in``, ``cash_out``, ``hands``, ``sessions``,
    ``nickname``: his PokerNow nickname, None unless known by a PokerNow id, ``rules_net``:
    what the rules would have paid, and ``paid_minor`` / ``received_minor``: the settlement
    payments he made and got, money), in chips or minor units, and the unit to print them
    with. ``in_progress``: the hands read that are still open (recorded live, not yet ended:
    dicts with ``hand``, ``session``, ``pot`` and ``players``, each player's chips in its pot
    so far), whose chips count as put in and not yet paid, so that the nets are not final
    (:func:`open_hands`).

    In chips over the whole series, when the sessions count chips of different values (as
    :class:`ledger.audit.standings_grid.Standings`), ``units`` lists them (dicts with
    ``chip_value_minor``, ``decimals``, ``currency`` and their ``sessions``, in order of first
    session) and, chips of different values not adding up, a player's ``net``, ``buy_in``,
    ``cash_out`` and ``rules_net`` are None and ``by_unit`` gives them per unit (a list in the
    order of ``units`` of dicts with those four and ``hands``, ``sessions``; None for a unit of
    no session he played); players are ordered by those nets, the first unit's first (a missing
    one as 0). Otherwise ``units`` is empty and nothing else changes; ``chip_unit`` is then
    the one unit (a dict as in ``units``) when it is a fraction of a chip of no currency (a
    chip of 0.1: hands in fractional plain chips, kept in tenths: :func:`fractional_unit`),
    so that the reads can name what the amounts count, else None. ``rake``: the rake the
    table took from the pots, per session (:func:`rake_taken`), which left the players' nets:
    they sum to minus it. ``house``: set by :func:`ledger.audit.settlement.settlement` only,
    what the house (whoever keeps the rake) is owed and was paid, money: ``{"rake_minor",
    "paid_minor", "received_minor"}``; ``unopened``: set by
    :func:`ledger.audit.settlement.settlement` only, the sessions of ``rake`` never opened
    (their hands read from files that name them), where no payment can be recorded until one
    is. ``plain``: every session read counts plain chips (no chip value set), its money
    being chips: printed as chips."""

    players: list[dict[str, Any]]
    unit: tuple[int, str | None]
    in_progress: list[dict[str, Any]] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)
    rake: list[dict[str, Any]] = field(default_factory=list)
    #: Per chip unit whose players' nets do not sum to zero, the chips of hands still in
    #: progress aside (:func:`unbalanced`).
    unbalanced: list[dict[str, Any]] = field(default_factory=list)
    house: dict[str, int] | None = None
    unopened: list[str] = field(default_factory=list)
    plain: bool = False
    #: Hands of no session seating players by seat label (``p1 … pN`` of a file that names
    #: no player), left out of ``players``: :mod:`ledger.audit.seat_labels`.
    seat_labels: int = 0
    #: Set by :func:`ledger.audit.settlement.settlement_by_session` only: the books it
    #: settles apart, each session and the hands of no session (when there are any).
    books_apart: int = 0
    #: Set by :func:`replay.books.balances` only: each correction or void appended after later
    #: events of its session took the hand's chips as it stood (dicts of
    #: :meth:`replay.late_corrections.LateCorrection.as_json`, with ``note`` its words): the
    #: nets go by the hand as corrected, the cash-outs by the chips as played, so net ≠
    #: cash-out − buy-in by ``owed`` for those players.
    corrected_late: list[dict[str, Any]] = field(default_factory=list)
    #: The one chip unit of the books when it is a fraction of a chip of no currency.
    chip_unit: dict[str, Any] | None = None

    @property
    def mixed(self) -> bool:
        """Whether the sessions read count chips of different values (no one sum in chips)."""
        return len(self.units) > 1

    @property
    def paid_already(self) -> int:
        """Money the payments recorded settled, minor units: each payment once, and a payment
        back between the same players cancelling (the sum over players, and the house, of
        what each paid beyond what he received)."""
        house = self.house or {"paid_minor": 0, "received_minor": 0}
        return sum(max(0, p["paid_minor"] - p["received_minor"])
                   for p in [*self.players, house])

    @property
    def paid_in_all(self) -> int:
        """Money of every payment recorded, minor units: each payment once (by its payer, a
        player or the house), a payment back counted too; :attr:`paid_already` when none
        went back the other way."""
        house = self.house or {"paid_minor": 0}
        return sum(p["paid_minor"] for p in [*self.players, house])


def balances(con: Any, session: str | None, money: bool, *, chips_ok: bool = True
             ) -> Balances:
    """Each player's balance across the series (or in ``session``). ``chips_ok``: ``money``
    of plain chips alone gives the chips (``settle``); False: refused, as ``balances --money``
    refuses it (:func:`ledger.audit.money_units.one_unit`).

    Raises:
        NotFound: ``session`` is not in the ledger; LedgerError: mixed currencies with
            ``money``, or plain chips alone with ``money`` and not ``chips_ok``.
    """
    if session is not None and not con.execute(
            "SELECT 1 FROM session_book WHERE session = ?", [session]).fetchone():
        raise no_such_session(session, [n for (n,) in con.execute(
            "SELECT DISTINCT session FROM session_book WHERE session IS NOT NULL").fetchall()])
    suffix = "_minor" if money else ""
    query = _BALANCE_SQL.format(net=f"net{suffix}", buy_in=f"buy_in{suffix}",
                                cash_out=f"cash_out{suffix}", rules=f"rules_net{suffix}",
                                labels=SEAT_LABEL)
    rows = con.execute(query, [session]).fetchall()
    currencies = {c for r in rows for c in (r[6] or "").split(",")}
    decimals = {d for r in rows for d in (r[7] or "0").split(",")}
    if money and not rows:  # no player (no hand counts in it): the sessions' own money
        units = con.execute("SELECT DISTINCT coalesce(currency, ''), CAST(coalesce(decimals, 0)"
                            " AS VARCHAR) FROM session_book WHERE ($1 IS NULL OR session = $1)"
                            " AND session IS NOT NULL", [session]).fetchall()
        if len(units) == 1:
            currencies, decimals = {units[0][0]}, {units[0][1]}
    unit = one_unit(currencies, decimals, money,
                    places=lambda: money_places(con, session),
                    plain=None if chips_ok else lambda: all_plain(con, session))
    keys = ("player", "net", "buy_in", "cash_out", "hands", "sessions")
    players = [{**{k: (int(v) if k != "player" else v) for k, v in zip(keys, r, strict=False)},
                "nickname": r[8], "rules_net": int(r[9]), "paid_minor": int(r[10]),
                "received_minor": int(r[11])} for r in rows]
    units: list[dict[str, Any]] = []
    chip_unit = None
    if session is None and not money:
        units, by_unit = _balances_by_unit(con)
        if len(units) > 1:
            for p in players:
                p.update({k: None for k in _UNIT_SUMS[:4]}, by_unit=by_unit[p["player"]])
            players.sort(key=lambda p: ([-(u["net"] if u else 0) for u in p["by_unit"]],
                                        p["player"]))
        else:
            units, chip_unit = [], fractional_unit(units)
    return Balances(players, unit, open_hands(con, session, money), units, rake_taken(con, session),
                    unbalanced(con, session, money),
                    plain=bool(rows) and all(r[12] for r in rows),
                    seat_labels=seat_label_hands(con, session), chip_unit=chip_unit)


def fractional_unit(units: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one chip unit of ``units`` (dicts with ``chip_value_minor``, ``decimals``,
    ``currency``, ``sessions``) when there is one and it is a fraction of a chip of no
    currency (hands in fractional plain chips, ``starting_stacks = [200.5, …]``, kept in
    tenths: a chip of 0.1), which nothing else in the books names; else None (plain chips;
    a chip of a currency, a session's own, as ``session list`` names it)."""
    if len(units) != 1:
        return None
    u = units[0]
    plain = (u["chip_value_minor"], u["decimals"]) == (1, 0)
    return u if u["currency"] is None and not plain else None


def rake_taken(con: Any, session: str | None) -> list[dict[str, Any]]:
    """The rake the table took from the pots of ``session`` (None: of every session), per
    session and chip unit in ledger order: ``{"session", "chips", "hands", "chip_value_minor",
    "decimals", "currency"}`` (session None for hands of no session; the unit is the
    session's, or for a hand of no session its own: chips of different values never add
    up, docs/BOOKS.md "net has one meaning"). It is what the replay names a ``rake``
    (replay/rake.py): the payouts short of the pots by a rake recorded at the table (``act
    HAND "rake AMOUNT"``) or in the hand's file (PHH's ``rake``, FORMATS.md §1; a site's
    summary; an uncalled bet the site left out beside it is no rake), counted as
    :func:`ledger.audit.rake_count.counted_rake` counts it (payouts wrong beside the rake
    are no part of it)."""
    keys = ("session", "chips", "hands", "chip_value_minor", "decimals", "currency")
    rows = con.execute(
        "WITH r AS (SELECT d.session, d.hand_id, sum(CASE d.kind WHEN 'rake' THEN"
        " d.recomputed - d.recorded ELSE d.recorded - d.recomputed END) AS chips,"
        " min(h.ord) AS ord FROM discrepancies d JOIN hands h USING (hand_id)"
        " WHERE d.kind IN ('rake', 'payout') AND ($1 IS NULL OR d.session = $1) GROUP BY ALL"
        " HAVING bool_or(d.kind = 'rake')),"
        " u AS (SELECT r.*, h.chip_value_minor AS v, h.decimals AS places, h.currency AS cur"
        " FROM r LEFT JOIN hands h ON h.hand_id = r.hand_id AND r.session IS NULL)"
        " SELECT u.session, sum(u.chips), count(DISTINCT u.hand_id),"
        " coalesce(b.chip_value_minor, u.v, 1), coalesce(b.decimals, u.places, 0),"
        " nullif(coalesce(b.currency, u.cur), '')"
        " FROM u LEFT JOIN session_book b ON u.session IS NOT NULL AND b.session = u.session"
        " GROUP BY ALL ORDER BY min(u.ord)", [session]).fetchall()
    return [dict(zip(keys, (s, int(c), int(h), int(v), int(d), cur), strict=True))
            for s, c, h, v, d, cur in rows]


def unbalanced(con: Any, session: str | None, money: bool) -> list[dict[str, Any]]:
    """Where the players' nets (of ``session``, None: every session) do not sum to zero: the
    chips the table kept or paid to nobody (a site's rake, an imported hand paid short: the
    audit's rake and chip conservation) or paid beyond the pot, the chips of hands still in
    progress aside (put in, not yet paid: docs/BOOKS.md "net has one meaning"). In chips, per chip
    unit (``{"chip_value_minor", "decimals", "currency", "net_sum"}``, in chips of that unit;
    units whose nets sum to zero left out); with ``money``, one ``{"chip_value_minor": None,
    "decimals", "currency", "net_sum"}`` in minor units (one currency: :func:`balances`
    refuses others), or none."""
    rows = con.execute(
        "SELECT coalesce(chip_value_minor, 1), coalesce(decimals, 0), nullif(currency, ''),"
        " sum(net) FROM player_session_results WHERE $1 IS NULL OR session = $1"
        " GROUP BY ALL ORDER BY min(session_ord)", [session]).fetchall()
    pots = dict(((int(v), int(d), c), int(n)) for v, d, c, n in con.execute(
        "SELECT chip_value_minor, coalesce(decimals, 0), nullif(currency, ''),"
        " sum(contributed) FROM player_hand_results WHERE status = 'open'"
        " AND ($1 IS NULL OR session = $1) GROUP BY ALL", [session]).fetchall())
    sums = [((int(v), int(d), c), int(n) + pots.get((int(v), int(d), c), 0))
            for v, d, c, n in rows]
    if money:
        total = sum(n * unit[0] for unit, n in sums)
        decimals, currency = one_unit({u[2] or "" for u, _ in sums},
                                      {str(u[1]) for u, _ in sums}, True)
        return [{"chip_value_minor": None, "decimals": decimals, "currency": currency,
                 "net_sum": total}] if total else []
    return [{"chip_value_minor": v, "decimals": d, "currency": c, "net_sum": n}
            for (v, d, c), n in sums if n]


#: The chip amounts (and counts) :func:`balances` gives per chip unit when they do not add up.
_UNIT_SUMS = ("net", "buy_in", "cash_out", "rules_net", "hands", "sessions")


def _balances_by_unit(con: Any) -> tuple[list[dict[str, Any]],
                                         dict[str, list[dict[str, int] | None]]]:
    """The chip units of the sessions with results (as
    :class:`ledger.audit.standings_grid.Standings` ``units``, with ``sessions`` None for hands
    of no session, each in the units of its hands) and each player's chip sums per unit
    (:data:`_UNIT_SUMS`, None for a unit he did not play), in that order."""
    rows = con.execute(
        "SELECT session, player, net, buy_in, cash_out, rules_net, hands,"
        " coalesce(chip_value_minor, 1), coalesce(decimals, 0), nullif(currency, '')"
        f" FROM player_session_results WHERE NOT {SEAT_LABEL} ORDER BY session_ord, player"
    ).fetchall()
    named: dict[ChipUnit, list[str | None]] = {}
    for session, *_, value, decimals, currency in rows:
        sessions = named.setdefault((int(value), int(decimals), currency), [])
        if session not in sessions:
            sessions.append(session)
    index = {u: i for i, u in enumerate(named)}
    sums: dict[str, list[dict[str, int] | None]] = {}
    for session, player, *amounts, value, decimals, currency in rows:
        per = sums.setdefault(player, [None] * len(named))
        at = index[(int(value), int(decimals), currency)]
        got = per[at] or dict.fromkeys(_UNIT_SUMS, 0)
        for key, amount in zip(_UNIT_SUMS, [*amounts, session is not None], strict=True):
            got[key] += int(amount)
        per[at] = got
    return ([{"chip_value_minor": u[0], "decimals": u[1], "currency": u[2], "sessions": s}
             for u, s in named.items()], sums)


def open_hands(con: Any, session: str | None, money: bool = False) -> list[dict[str, Any]]:
    """The hands still in progress (status ``open``: recorded live, not yet ended or voided)
    of ``session`` (None: of the whole ledger), in ledger order: ``{"hand", "session", "pot",
    "players": {player: chips in its pot so far}}``, chips. Their chips count as put in,
    nothing paid yet (RULES.md §1: the pots are settled when the hand ends). ``money``: each
    also with ``"pot_minor"`` and ``"players_minor"``, the same in integer minor units of
    money (chips × its session's chip value, a hand of no session's own), as the nets of
    ``balances --money`` beside them."""
    out: dict[str, dict[str, Any]] = {}
    for hand, where, player, chips, value in con.execute(
            "SELECT h.hand_id, h.session, r.player, r.contributed,"
            " coalesce(b.chip_value_minor, h.chip_value_minor, 1) FROM hands h"
            " JOIN results r USING (hand_id) LEFT JOIN session_book b ON b.session = h.session"
            " WHERE h.status = 'open' AND ($1 IS NULL OR h.session = $1)"
            " ORDER BY h.ord, r.player", [session]).fetchall():
        entry = out.setdefault(hand, {"hand": hand, "session": where, "pot": 0, "players": {}}
                               | ({"pot_minor": 0, "players_minor": {}} if money else {}))
        entry["players"][player] = int(chips)
        entry["pot"] += int(chips)
        if money:
            entry["players_minor"][player] = int(chips) * int(value)
            entry["pot_minor"] += int(chips) * int(value)
    return list(out.values())


def no_such_session(session: str, names: Iterable[str]) -> NotFound:
    """The refusal of a read of one ``session`` the books do not hold, naming the session of
    ``names`` (the books' sessions) it likely meant (:func:`ledger.model.names.likely_meant`:
    ``'friday'`` for ``'Friday'``, which names compare case-sensitively)."""
    close = likely_meant(session, sorted(names))
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    return NotFound(f"no session {session!r} in the ledger{hint}")
