"""What the books report, read from the derived tables and views (docs/SQL.md): each player's
balance over the series or one session, the hand-by-hand nets a chart draws, the settlement.

Chips are integers; money is chips × the session's chip value, in integer minor units, with the
(decimals, currency) to print it with. The tables must be as of the ledger's head (the
application catches them up first). Every DuckDB error is translated into ``LedgerError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.audit.settle import HOUSE, HouseTransfer, fewest_transfers
from ledger.model.errors import LedgerError, NotFound
from ledger.model.money import format_money
from ledger.model.names import likely_meant

_BALANCE_SQL = """
SELECT player, sum({net}) AS net, sum({buy_in}) AS buy_in, sum({cash_out}) AS cash_out,
    sum(hands) AS hands, count(session) AS sessions,
    string_agg(DISTINCT coalesce(currency, ''), ',') AS currency,
    string_agg(DISTINCT CAST(decimals AS VARCHAR), ',') AS decimals,
    any_value(nickname) AS nickname, sum({rules}) AS rules_net,
    sum(paid_minor) AS paid_minor, sum(received_minor) AS received_minor
FROM player_session_results LEFT JOIN player_nicknames USING (player)
WHERE $1 IS NULL OR session = $1
GROUP BY player ORDER BY net DESC, player"""

#: ``(decimals, currency)`` to print amounts with: ``(0, None)`` for chips.
Unit = tuple[int, "str | None"]

#: A session's chip unit: ``(minor units a chip is worth, decimals, currency)``; a session
#: with no chip value counts plain chips, ``(1, 0, None)``; a hand of no session its own unit.
ChipUnit = tuple[int, int, "str | None"]


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
    :class:`Standings`), ``units`` lists them (dicts with ``chip_value_minor``, ``decimals``,
    ``currency`` and their ``sessions``, in order of first session) and, chips of different
    values not adding up, a player's ``net``, ``buy_in``, ``cash_out`` and ``rules_net`` are
    None and ``by_unit`` gives them per unit (a list in the order of ``units`` of dicts with
    those four and ``hands``, ``sessions``; None for a unit of no session he played); players
    are ordered by those nets, the first unit's first (a missing one as 0). Otherwise
    ``units`` is empty and nothing else changes. ``rake``: the rake the table took from the
    pots, per session (:func:`rake_taken`), which left the players' nets: they sum to minus
    it. ``house``: set by :func:`settlement` only, what the house (whoever keeps the rake) is
    owed and was paid, money: ``{"rake_minor", "paid_minor", "received_minor"}``;
    ``unopened``: set by :func:`settlement` only, the sessions of ``rake`` never opened (their
    hands read from files that name them), where no payment can be recorded until one is."""

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


#: What to do about mixed currencies, per read (standings has no --session): when every
#: unit is a named session's, and (a list: what works, then ``--session``'s part, if any unit
#: is one) when hands of no session hold one, which no ``--session`` reads apart.
_ONE_SESSION = ("read one session with --session",
                ["`handledger balances` without --money gives a table per unit",
                 "and `--session S --money` one session's money"])
_STANDINGS_MIXED = ("show the standings in chips (without --money), or one session's money "
                    "with `handledger balances --session S --money`",
                    ["show the standings in chips (without --money)",
                     "or one session's money with `handledger balances --session S --money`"])
#: The money units of the hands read: (decimals, currency) → the sessions holding it in order
#: (None: hands of no session).
MoneyPlaces = dict[tuple[int, "str | None"], list["str | None"]]


def _unit(currencies: set[str], decimals: set[str], money: bool,
          hint: tuple[str, list[str]] = _ONE_SESSION,
          places: Any = None) -> tuple[int, str | None]:
    """The one (decimals, currency) of the sessions read; chips (0, None) when not ``money``.
    ``hint``: what the refusal tells the user to do (:data:`_ONE_SESSION`); ``places``: a
    function giving the :data:`MoneyPlaces` read, which the refusal names.

    Raises:
        LedgerError: money over sessions with different currencies or decimals.
    """
    if not money:
        return 0, None
    if len(currencies) > 1 or len(decimals) > 1:
        raise _mixed_money(places() if places is not None else {}, hint)
    return int(decimals.pop() if decimals else 0), (currencies.pop() if currencies else "") or None


def _mixed_money(places: MoneyPlaces, hint: tuple[str, list[str]]) -> LedgerError:
    """The refusal of money of different currencies or decimals: the units and where each is
    (``friday: USD, 2 decimals; (no session): EUR, 2 decimals``; a session of no currency as
    ``session list --json`` gives it, ``thu: no currency, 2 decimals`` beside ``fri: plain
    chips, no currency``) and what can be read instead; with hands of no session, no
    ``--session`` reads them apart (README, "Chips of different values do not add up").
    When only sessions of no currency differ from the one currency named (or none is), it
    also says how to give their chips a worth in it (``session set``)."""
    listing = "; ".join(
        f"{', '.join(s or '(no session)' for s in where)}: {_money_unit_text(decimals, currency)}"
        for (decimals, currency), where in places.items())
    loose = any(None in where for where in places.values())
    named = any(s is not None for where in places.values() for s in where)
    advice = hint[0] if not loose else (
        "hands of no session have no session to name with --session; "
        + " ".join(hint[1][:2] if named else hint[1][:1]))
    currencies = {c for _, c in places if c}
    if not loose and len(currencies) <= 1 and any(c is None for _, c in places):
        currency = next(iter(currencies), "C")
        advice += (", or give each session of no currency its chip's worth in "
                   f"{currency if currencies else 'one currency'} (`handledger session set S "
                   f"--chip-value V --currency {currency}`)")
    return LedgerError(f"the {'hands read' if loose else 'sessions'} use different currencies "
                       f"or decimals{f' ({listing})' if listing else ''}: {advice}")


def _money_unit_text(decimals: int, currency: str | None) -> str:
    """A money unit as the refusal of mixed money names it, what ``session list --json``
    gives as ``currency`` and ``decimals``.

    >>> _money_unit_text(2, "USD"), _money_unit_text(2, None), _money_unit_text(0, None)
    ('USD, 2 decimals', 'no currency, 2 decimals', 'plain chips, no currency')
    """
    if currency:
        return f"{currency}, {decimals} decimals"
    return f"no currency, {decimals} decimals" if decimals else "plain chips, no currency"


def _money_places(con: Any, session: str | None) -> MoneyPlaces:
    """The :data:`MoneyPlaces` of the sessions' results (of ``session``; None: all)."""
    places: MoneyPlaces = {}
    for name, decimals, currency in con.execute(
            "SELECT session, coalesce(decimals, 0), nullif(currency, '')"
            " FROM player_session_results WHERE $1 IS NULL OR session = $1"
            " GROUP BY ALL ORDER BY min(session_ord)", [session]).fetchall():
        where = places.setdefault((int(decimals), currency), [])
        if name not in where:
            where.append(name)
    return places


def balances(con: Any, session: str | None, money: bool) -> Balances:
    """Each player's balance across the series (or in ``session``).

    Raises:
        NotFound: ``session`` is not in the ledger; LedgerError: mixed currencies with
            ``money``.
    """
    if session is not None and not con.execute(
            "SELECT 1 FROM session_book WHERE session = ?", [session]).fetchone():
        raise no_such_session(session, [n for (n,) in con.execute(
            "SELECT DISTINCT session FROM session_book WHERE session IS NOT NULL").fetchall()])
    suffix = "_minor" if money else ""
    query = _BALANCE_SQL.format(net=f"net{suffix}", buy_in=f"buy_in{suffix}",
                                cash_out=f"cash_out{suffix}", rules=f"rules_net{suffix}")
    rows = con.execute(query, [session]).fetchall()
    unit = _unit({c for r in rows for c in (r[6] or "").split(",")},
                 {d for r in rows for d in (r[7] or "0").split(",")}, money,
                 places=lambda: _money_places(con, session))
    keys = ("player", "net", "buy_in", "cash_out", "hands", "sessions")
    players = [{**{k: (int(v) if k != "player" else v) for k, v in zip(keys, r, strict=False)},
                "nickname": r[8], "rules_net": int(r[9]), "paid_minor": int(r[10]),
                "received_minor": int(r[11])} for r in rows]
    units: list[dict[str, Any]] = []
    if session is None and not money:
        units, by_unit = _balances_by_unit(con)
        if len(units) > 1:
            for p in players:
                p.update({k: None for k in _UNIT_SUMS[:4]}, by_unit=by_unit[p["player"]])
            players.sort(key=lambda p: ([-(u["net"] if u else 0) for u in p["by_unit"]],
                                        p["player"]))
        else:
            units = []
    return Balances(players, unit, open_hands(con, session), units, rake_taken(con, session),
                    unbalanced(con, session, money))


def rake_taken(con: Any, session: str | None) -> list[dict[str, Any]]:
    """The rake the table took from the pots of ``session`` (None: of every session), per
    session and chip unit in ledger order: ``{"session", "chips", "hands", "chip_value_minor",
    "decimals", "currency"}`` (session None for hands of no session; the unit is the
    session's, or for a hand of no session its own: chips of different values never add
    up, README "net has one meaning"). It is what the replay names a ``rake``
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
    progress aside (put in, not yet paid: README "net has one meaning"). In chips, per chip
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
        decimals, currency = _unit({u[2] or "" for u, _ in sums}, {str(u[1]) for u, _ in sums},
                                   True)
        return [{"chip_value_minor": None, "decimals": decimals, "currency": currency,
                 "net_sum": total}] if total else []
    return [{"chip_value_minor": v, "decimals": d, "currency": c, "net_sum": n}
            for (v, d, c), n in sums if n]


#: The chip amounts (and counts) :func:`balances` gives per chip unit when they do not add up.
_UNIT_SUMS = ("net", "buy_in", "cash_out", "rules_net", "hands", "sessions")


def _balances_by_unit(con: Any) -> tuple[list[dict[str, Any]],
                                         dict[str, list[dict[str, int] | None]]]:
    """The chip units of the sessions with results (as :class:`Standings` ``units``, with
    ``sessions`` None for hands of no session, each in the units of its hands) and each
    player's chip sums per unit (:data:`_UNIT_SUMS`, None for a unit he did not play), in that
    order."""
    rows = con.execute(
        "SELECT session, player, net, buy_in, cash_out, rules_net, hands,"
        " coalesce(chip_value_minor, 1), coalesce(decimals, 0), nullif(currency, '')"
        " FROM player_session_results ORDER BY session_ord, player").fetchall()
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


def open_hands(con: Any, session: str | None) -> list[dict[str, Any]]:
    """The hands still in progress (status ``open``: recorded live, not yet ended or voided)
    of ``session`` (None: of the whole ledger), in ledger order: ``{"hand", "session", "pot",
    "players": {player: chips in its pot so far}}``. Their chips count as put in, nothing
    paid yet (RULES.md §1: the pots are settled when the hand ends)."""
    out: dict[str, dict[str, Any]] = {}
    for hand, where, player, chips in con.execute(
            "SELECT h.hand_id, h.session, r.player, r.contributed FROM hands h "
            "JOIN results r USING (hand_id) WHERE h.status = 'open' "
            "AND ($1 IS NULL OR h.session = $1) ORDER BY h.ord, r.player", [session]
            ).fetchall():
        entry = out.setdefault(hand, {"hand": hand, "session": where, "pot": 0, "players": {}})
        entry["players"][player] = int(chips)
        entry["pot"] += int(chips)
    return list(out.values())


def house_books(con: Any, session: str | None) -> dict[str, int]:
    """What the house (whoever keeps the rake) is owed and was paid in ``session`` (None:
    every session), money in minor units: ``{"rake_minor", "paid_minor", "received_minor"}``
    — the rake the table took from the pots (chips × the session's chip value: the books'
    ``rake``, as :func:`rake_taken`) and the payments from and to it (a payment's payer or
    payee None)."""
    rake, paid, received = con.execute(
        "SELECT coalesce(sum(rake::HUGEINT * coalesce(chip_value_minor, 1)), 0),"
        " coalesce(sum(house_paid_minor), 0), coalesce(sum(house_received_minor), 0)"
        " FROM session_book WHERE $1 IS NULL OR session IS NOT DISTINCT FROM $1",
        [session]).fetchone()
    return {"rake_minor": int(rake), "paid_minor": int(paid), "received_minor": int(received)}


def settlement(con: Any, session: str | None) -> tuple[list[HouseTransfer], Balances]:
    """The fewest transfers that settle up what is still owed, in minor units
    (:func:`ledger.audit.settle.fewest_transfers`): each player's net in money less the
    payments he has received, plus those he has made; and the house (whoever keeps the rake,
    :func:`house_books`: the players' nets sum to minus the rake, README "settle") as one
    more party, owed the rake less what it was paid, plus what it paid back. A transfer's
    payer or payee None is the house (its transfers after the players' of each payer); the
    balances they settle, with ``house`` and ``unopened`` set.

    Raises:
        LedgerError: a hand read is still in progress (:func:`open_hands`: its pot is not
            paid yet, the nets are not final), the nets do not sum to zero once the rake is
            the house's (the audit says why; the rake and what is left are named), or as
            :func:`balances`.
    """
    books = balances(con, session, money=True)
    if books.in_progress:
        first = books.in_progress[0]
        more = len(books.in_progress) - 1
        where = f"session {first['session']}" if first["session"] else "no session"
        raise LedgerError(
            f"cannot settle: hand {first['hand']} is still in progress (not ended) in {where}"
            + (f" (and {more} more hand{'s' if more > 1 else ''})" if more else "")
            + f": its pot is paid when it ends (`handledger act {first['hand']} end`) or is "
            "voided; settle then")
    nets = {p["player"]: p["net"] + p["paid_minor"] - p["received_minor"]
            for p in books.players}
    house = house_books(con, session)
    owed_house = house["rake_minor"] - house["received_minor"] + house["paid_minor"]
    left = sum(nets.values()) + owed_house  # the nets' sum less minus the rake
    if left:
        decimals, currency = books.unit
        net_sum = sum(p["net"] for p in books.players)
        raked = house["rake_minor"]
        why = (f": the rake the table took ({format_money(raked, decimals, currency)}) is owed "
               f"to the house, which leaves {_signed_money(left, decimals, currency)} that no "
               "rake explains" if raked else "")
        raise LedgerError(f"cannot settle: the balances sum to "
                          f"{_signed_money(net_sum, decimals, currency)}, not zero{why} (see "
                          "`handledger audit`)")
    never = {name for (name,) in con.execute(  # hands of no session: no session to open
        "SELECT session FROM session_book WHERE NOT opened AND session IS NOT NULL"
    ).fetchall()}
    books = replace(books, house=house, unopened=[r["session"] for r in books.rake
                                                  if r["session"] in never])
    if not owed_house:
        return fewest_transfers(nets), books
    if HOUSE in nets:  # a player named "" is refused everywhere a name is written
        raise LedgerError("cannot settle: a player without a name is in the books")
    found = fewest_transfers({**nets, HOUSE: owed_house})
    return sorted(((None if a == HOUSE else a, None if b == HOUSE else b, n) for a, b, n in found),
                  key=lambda t: (t[0] is None, t[0] or "", t[1] is None, t[1] or "")), books


def session_nets(con: Any, sessions: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The players' rows of :func:`balances` in money (``session``, ``money=True``) of each
    of ``sessions``, read in one query: ``{session: [{"player", "net", "hands",
    "paid_minor", "received_minor"}]}`` (minor units), as :func:`settlement` reckons what
    each still owes; a session with no player is left out."""
    out: dict[str, list[dict[str, Any]]] = {}
    for session, player, net, hands, paid, received in con.execute(
            "SELECT session, player, sum(net_minor), sum(hands), sum(paid_minor),"
            " sum(received_minor) FROM player_session_results WHERE list_contains($1, session)"
            " GROUP BY session, player ORDER BY session, player", [list(sessions)]).fetchall():
        out.setdefault(session, []).append(
            {"player": player, "net": int(net), "hands": int(hands), "paid_minor": int(paid),
             "received_minor": int(received)})
    return out


def _signed_money(minor: int, decimals: int, currency: str | None) -> str:
    return ("+" if minor > 0 else "") + format_money(minor, decimals, currency)


def hand_nets(con: Any, money: bool, session: str | None = None
              ) -> list[tuple[int, str, int]]:
    """``(ord, player, net)`` of every player in every hand (of ``session`` when given), in
    ledger order (chips, or minor units with ``money``), whatever their sessions' units."""
    return con.execute(
        f"SELECT ord, player, {'net_minor' if money else 'net'} FROM player_hand_results"
        " WHERE $1 IS NULL OR session = $1 ORDER BY ord, player", [session]).fetchall()


def hand_nets_by_unit(con: Any) -> list[tuple[ChipUnit, list[str | None],
                                                list[tuple[int, str, int]]]]:
    """:func:`hand_nets` in chips grouped by the chip unit of each hand's session, a hand of
    no session by its own (chips of different values do not add up: README "Chips of
    different values"), as ``(unit, its sessions, rows)``: units in order of their first
    hand, sessions (None: hands of no session) in ledger order, rows ``(ord, player, net)``
    in ledger order."""
    out: dict[ChipUnit, tuple[list[str | None], list[tuple[int, str, int]]]] = {}
    for o, player, net, session, *unit in con.execute(
            f"SELECT ord, player, net, session, {_HAND_UNIT} FROM player_hand_results"
            " ORDER BY ord, player").fetchall():
        sessions, rows = out.setdefault(tuple(unit), ([], []))  # type: ignore[arg-type]
        if session not in sessions:
            sessions.append(session)
        rows.append((o, player, net))
    return [(unit, sessions, rows) for unit, (sessions, rows) in out.items()]


_CHART_ONE_SESSION = ("chart one session with --session S",
                      ["`handledger balances` without --money gives a table per unit",
                       "and `chart --session S --money` one session's money"])

#: The chip unit of a row of ``player_hand_results`` as a :data:`ChipUnit`: its session's, a
#: hand of no session its own (the view joins each to its book).
_HAND_UNIT = ("coalesce(chip_value_minor, 1), coalesce(decimals, 0), nullif(currency, '')")


def chart_nets(con: Any, money: bool, session: str | None = None
               ) -> list[tuple[int, str, int]]:
    """:func:`hand_nets` for a chart of running nets, refused where they would add up amounts
    of different units: chips of sessions of different chip values (money adds them up
    within one currency), money of different currencies or decimals (README, "Chips of
    different values do not add up").

    Raises:
        NotFound: ``session`` is not in the ledger; LedgerError: the hands read count chips
            of different values (without ``money``), or money of different currencies or
            decimals (with it).
    """
    if session is not None and not con.execute(
            "SELECT 1 FROM session_book WHERE session = ?", [session]).fetchone():
        raise no_such_session(session, [n for (n,) in con.execute(
            "SELECT DISTINCT session FROM session_book WHERE session IS NOT NULL").fetchall()])
    units: dict[ChipUnit, list[str | None]] = {}
    for name, *unit in con.execute(
            f"SELECT session, {_HAND_UNIT} FROM player_hand_results"
            " WHERE $1 IS NULL OR session = $1 GROUP BY ALL ORDER BY min(ord)",
            [session]).fetchall():
        units.setdefault((int(unit[0]), int(unit[1]), unit[2]), []).append(name)
    if money:
        places: MoneyPlaces = {}
        for u, named in units.items():
            where = places.setdefault((u[1], u[2]), [])
            where.extend(n for n in named if n not in where)
        _unit({u[2] or "" for u in units}, {str(u[1]) for u in units}, True, _CHART_ONE_SESSION,
              lambda: places)
    elif len(units) > 1:
        listed = [{"chip_value_minor": u[0], "decimals": u[1], "currency": u[2],
                   "sessions": named} for u, named in units.items()]
        one = len({(u[1], u[2]) for u in units}) == 1
        loose = any(None in named for named in units.values())
        raise LedgerError(
            f"the {'hands read' if loose else 'sessions'} count chips of different values "
            f"({chip_units_worth(listed)}), which do not add up into one running net: "
            + _chart_advice(one, loose, any(n is not None for named in units.values()
                                            for n in named)))
    return hand_nets(con, money, session)


def _chart_advice(one: bool, loose: bool, named: bool) -> str:
    """What the refusal of a chart over chips of different values tells the user to chart or
    read instead: ``one``: the units are of one currency and decimals (``--money`` adds them
    up); ``loose``: hands of no session are among them (no ``--session`` names them);
    ``named``: sessions are among them (README, "Chips of different values do not add
    up")."""
    if one:
        return "chart the money with --money" + (
            ", or one session with --session S" if named else
            " (hands of no session have no session to name with --session)")
    mixed = ("their money is of different currencies or decimals, so --money does not add up "
             "either")
    if not loose:
        return f"chart one session with --session S ({mixed})"
    tables = "`handledger balances` gives a table per unit"
    if named:
        return (f"chart one session with --session S (hands of no session have no session to "
                f"name with it, and {mixed}); {tables}")
    return (f"hands of no session have no session to name with --session, and {mixed}; "
            f"{tables} and `handledger standings` a column per unit")


def chip_units_worth(units: list[dict[str, Any]]) -> str:
    """Each unit's sessions and what one of its chips is worth (``units`` as
    :class:`Standings` lists them): ``friday: 1 chip = 0.25 USD; (no session): plain
    chips``."""
    return "; ".join(
        f"{', '.join(s or '(no session)' for s in u['sessions'])}: "
        + ("plain chips" if unit == (1, 0, None) else f"1 chip = {chip_unit_text(unit)}")
        for u in units for unit in [(u["chip_value_minor"], u["decimals"], u["currency"])])


def chip_unit_text(unit: ChipUnit) -> str:
    """What one chip of ``unit`` is worth, as a column of the standings is headed.

    >>> chip_unit_text((25, 2, "USD")), chip_unit_text((1, 0, None))
    ('0.25 USD', 'chips')
    """
    value, decimals, currency = unit
    return "chips" if unit == (1, 0, None) else format_money(value, decimals, currency)


@dataclass(frozen=True)
class Standings:
    """The series as a host keeps it in a spreadsheet: ``sessions`` in ledger order (dicts
    with ``session``, ``date``), and per player his net in each session he played (``nets``:
    session → chips, or minor units with money), his ``total`` and his PokerNow ``nickname``
    (None unless known by a PokerNow id); ``unit`` to print with. Hands of no session are the
    session ``None``; in chips, when they count chips of different values (each hand of no
    session its own unit), they are a column per unit, its ``sessions`` entry with ``unit``
    (``{"chip_value_minor", "decimals", "currency"}``) and its net keyed by
    :meth:`column_key` (``(None, chip_value_minor, decimals, currency)``).
    ``in_progress``: the hands still open (:func:`open_hands`), whose chips count as put in,
    nothing paid yet.

    In chips, ``units`` lists the chip units of the sessions (dicts with ``chip_value_minor``,
    ``decimals``, ``currency`` and their ``sessions``, in order of first session; README "a
    session has one unit"). Chips of different values do not add up: when there is more than
    one, a player's ``total`` is None and ``totals`` gives his total per unit (a list in the
    order of ``units``; None for a unit of no session he played), and players are ordered by
    those totals, the first unit's first (a missing one as 0). In money (sessions of one
    currency, :func:`standings`) ``units`` is empty: money adds up."""

    sessions: list[dict[str, Any]]
    players: list[dict[str, Any]]
    unit: tuple[int, str | None]
    in_progress: list[dict[str, Any]] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)
    #: Per chip unit whose players' nets do not sum to zero, the chips of hands still in
    #: progress aside (:func:`unbalanced`).
    unbalanced: list[dict[str, Any]] = field(default_factory=list)

    @property
    def mixed(self) -> bool:
        """Whether the sessions count chips of different values (no one total in chips)."""
        return len(self.units) > 1

    @staticmethod
    def column_key(column: dict[str, Any]) -> str | tuple[Any, ...] | None:
        """The key of a column (an entry of ``sessions``) in a player's ``nets``: the session,
        None for hands of no session, ``(None, chip_value_minor, decimals, currency)`` for
        those of one chip unit when they count several."""
        u = column.get("unit")
        if u is None:
            return column["session"]
        return None, u["chip_value_minor"], u["decimals"], u["currency"]

    def column_unit(self, column: dict[str, Any]) -> int | None:
        """The place in ``units`` of the chip unit a column counts (None: no unit, in money
        or a session nobody played)."""
        u = column.get("unit")
        for i, each in enumerate(self.units):
            if (column["session"] in each["sessions"] if u is None
                    else all(each[k] == v for k, v in u.items())):
                return i
        return None

    def as_json(self) -> dict[str, Any]:
        """``{"sessions": [...], "players": [{"player", "nickname", "nets", "total"}],
        "decimals", "currency", "units"}`` (``nets`` keyed by session name, ``""`` for no
        session — when the hands of no session count chips of different values, a list of
        their nets in the order of ``units``, null for a unit he has none in; ``total`` null
        and ``totals`` per unit when the chips are of different values), and
        ``"in_progress"`` (as :func:`open_hands`) when a hand is still open."""
        loose = [self.column_key(s) for s in self.sessions if "unit" in s]

        def nets(of: dict[Any, int]) -> dict[str, Any]:
            out: dict[str, Any] = {k or "": v for k, v in of.items() if not isinstance(k, tuple)}
            if loose:
                at = {k: self.column_unit(s) for k, s in zip(
                    loose, [s for s in self.sessions if "unit" in s], strict=True)}
                per: list[int | None] = [None] * len(self.units)
                for k in loose:
                    if k in of:
                        per[at[k]] = of[k]  # type: ignore[index]
                out[""] = per
            return out

        body = {"sessions": self.sessions,
                "players": [{**p, "nets": nets(p["nets"])} for p in self.players],
                "decimals": self.unit[0], "currency": self.unit[1],
                "units": [{**u, "sessions": [s or "" for s in u["sessions"]]}
                          for u in self.units]}
        if self.in_progress:
            body["in_progress"] = self.in_progress
        return body


def standings(con: Any, money: bool) -> Standings:
    """The sessions × players grid of nets with each player's total (the same nets as
    :func:`balances`: what the table paid), most won first. In chips, a total per chip unit
    when the sessions count chips of different values (:class:`Standings`): 150 chips of
    0.25 USD and -2 chips of 0.01 USD are 37.48 USD, not 148 chips.

    Raises:
        LedgerError: money over sessions with different currencies or decimals.
    """
    column = "net_minor" if money else "net"
    rows = con.execute(
        f"SELECT r.session, r.player, r.{column}, r.currency, r.decimals, n.nickname,"
        " coalesce(r.chip_value_minor, 1)"
        " FROM player_session_results r LEFT JOIN player_nicknames n USING (player)"
        " ORDER BY r.session_ord, r.player").fetchall()
    book = con.execute("SELECT session, date, coalesce(chip_value_minor, 1),"
                       " coalesce(decimals, 0), nullif(currency, '')"
                       " FROM session_book ORDER BY ord").fetchall()
    # hands of no session have a book per chip unit: in chips a column each when several
    loose = not money and sum(s is None for s, *_ in book) > 1
    sessions = [{"session": s, "date": d, "unit": {"chip_value_minor": v, "decimals": dec,
                                                   "currency": c}} if s is None and loose
                else {"session": s, "date": d} for s, d, v, dec, c in book]
    if not loose and sum(s["session"] is None for s in sessions) > 1:  # one column in money
        first = next(i for i, s in enumerate(sessions) if s["session"] is None)
        sessions = [s for i, s in enumerate(sessions) if s["session"] is not None or i == first]
    unit = _unit({r[3] or "" for r in rows}, {str(r[4] or 0) for r in rows}, money,
                 _STANDINGS_MIXED, lambda: _money_places(con, None))
    units: dict[ChipUnit, list[str | None]] = {}
    if not money:
        for session, _, _, currency, decimals, _, value in rows:
            named = units.setdefault((int(value), int(decimals or 0), currency or None), [])
            if session not in named:
                named.append(session)
    index = {u: i for i, u in enumerate(units)}
    players: dict[str, dict[str, Any]] = {}
    for session, player, net, currency, decimals, nickname, value in rows:
        p = players.setdefault(player, {"player": player, "nickname": nickname, "nets": {},
                                        "total": 0, "totals": [None] * len(units)})
        chip = (int(value), int(decimals or 0), currency or None)
        key = (None, *chip) if session is None and loose else session
        p["nets"][key] = p["nets"].get(key, 0) + int(net)
        p["total"] += int(net)
        if units:
            at = index[chip]
            p["totals"][at] = (p["totals"][at] or 0) + int(net)
    for p in players.values():
        if len(units) > 1:
            p["total"] = None
        else:
            del p["totals"]
    ordered = sorted(players.values(), key=lambda p: (
        [-(t or 0) for t in p["totals"]] if len(units) > 1 else [-p["total"]], p["player"]))
    return Standings(sessions, ordered, unit, open_hands(con, None),
                     [{"chip_value_minor": u[0], "decimals": u[1], "currency": u[2],
                       "sessions": named} for u, named in units.items()])


def session_books(con: Any) -> list[Any]:
    """Each session's book as the derived tables keep it — open or closed, chip value and
    currency, each player's net and settlement payments (minor units) — for the checks run on
    request (``audit --unsettled``), which read nothing else. A session with any payment has
    ``payments`` non-empty (their totals only)."""
    from ledger.audit.books import PlayerBook, SessionBook

    books: dict[str | None, SessionBook] = {}
    for name, closed, value, currency, decimals, first, rake, received, paid in con.execute(
            "SELECT session, closed, chip_value_minor, currency, decimals, first_position,"
            " rake, house_received_minor, house_paid_minor"
            " FROM session_book WHERE opened ORDER BY ord").fetchall():
        books[name] = SessionBook(name, first or 0, closed=bool(closed),
                                  chip_value_minor=value, currency=currency, decimals=decimals,
                                  rake=rake or 0, house_received_minor=received or 0,
                                  house_paid_minor=paid or 0)
        if received or paid:
            books[name].payments.append((None, None, (received or 0) + (paid or 0)))
    for name, player, net, paid, received in con.execute(
            "SELECT session, player, net, paid_minor, received_minor FROM session_players"
            " WHERE session IS NOT NULL").fetchall():
        book = books.get(name)
        if book is None:
            continue
        book.players[player] = PlayerBook(player, 0, net=net, paid_minor=paid,
                                          received_minor=received)
        if paid:
            book.payments.append((player, "", paid))
    return list(books.values())


def owed(con: Any) -> dict[str | None, int]:
    """Per session, the money (minor units) still owed after the payments recorded: the sum
    of what its debtors must still pay, the house among them when it was paid more than the
    rake (0: settled). The rake is owed by the players who lost it: their nets hold it."""
    due = {name: int(minor) for name, minor in con.execute(
        "SELECT session, coalesce(sum(greatest(-(net_minor + paid_minor - received_minor),"
        " 0)), 0) FROM player_session_results GROUP BY session").fetchall()}
    for name, back in con.execute(
            "SELECT session, house_received_minor - house_paid_minor"
            " - rake::HUGEINT * coalesce(chip_value_minor, 1) FROM session_book").fetchall():
        if back and back > 0:
            due[name] = due.get(name, 0) + int(back)
    return due


def no_such_session(session: str, names: Iterable[str]) -> NotFound:
    """The refusal of a read of one ``session`` the books do not hold, naming the session of
    ``names`` (the books' sessions) it likely meant (:func:`ledger.model.names.likely_meant`:
    ``'friday'`` for ``'Friday'``, which names compare case-sensitively)."""
    close = likely_meant(session, sorted(names))
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
    return NotFound(f"no session {session!r} in the ledger{hint}")
