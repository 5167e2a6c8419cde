"""The standings: the series as a host keeps it in a spreadsheet, a sessions × players grid of
nets with each player's total, read from the derived tables and views (docs/SQL.md).

Chips are integers; money is in integer minor units. The tables must be as of the ledger's head
(the application catches them up first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.audit.money_units import ChipUnit, all_plain, money_places, one_unit
from ledger.audit.player_balances import open_hands, rake_taken
from ledger.audit.player_balances import unbalanced as nets_off_zero
from ledger.audit.seat_labels import seat_label_hands, seat_label_of

#: What to do about mixed currencies in the standings, which has no --session (as
#: :func:`ledger.audit.money_units.one_unit` takes it): when every unit is a named session's,
#: and when hands of no session hold one.
_STANDINGS_MIXED = ("show the standings in chips (without --money), or one session's money "
                    "with `handledger balances --session S --money`",
                    ["show the standings in chips (without --money)",
                     "or one session's money with `handledger balances --session S --money`"])


@dataclass(frozen=True)
class Standings:
    """The series as a host keeps it in a spreadsheet: ``sessions`` in ledger order (dicts with
    ``session``, ``date``), and per player his net in each session he played (``nets``: session
    → chips, or minor units with money), his ``total`` and his PokerNow ``nickname`` (None
    unless known by a PokerNow id); ``unit`` to print with. Hands of no session are the session
    ``None``; in chips, when they count chips of different values (each hand of no session its
    own unit), they are a column per unit, its ``sessions`` entry with ``unit``
    (``{"chip_value_minor", "decimals", "currency"}``) and its net keyed by :meth:`column_key`
    (``(None, chip_value_minor, decimals, currency)``). ``in_progress``: the hands still open
    (:func:`ledger.audit.player_balances.open_hands`), whose chips count as put in, nothing paid
    yet.

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
    #: Per chip unit (with money: one row, ``chip_value_minor`` None) whose players' nets do
    #: not sum to zero: ``net_sum`` (the chips of hands still in progress aside:
    #: :func:`ledger.audit.player_balances.unbalanced`); and, as :func:`replay.books.standings`
    #: sets it, per unit whose sum row holds chips carried to a session's next hand that no
    #: ended hand holds yet, ``carried`` (those chips) and ``closed`` (the closed sessions
    #: among those holding them: owed by nobody).
    unbalanced: list[dict[str, Any]] = field(default_factory=list)
    #: The rake the table took from the pots, per session and chip unit
    #: (:func:`ledger.audit.player_balances.rake_taken`): why a sum may be short of zero.
    rake: list[dict[str, Any]] = field(default_factory=list)
    #: Hands of no session seating players by seat label (``p1 … pN`` of a file that names
    #: no player), left out of ``players``: :mod:`ledger.audit.seat_labels`.
    seat_labels: int = 0
    #: The nets of those seats added up per column, as a player's (``nets``, ``total`` or
    #: ``totals``): not a player's, the chips of seats nobody is named in, which the sums
    #: count (:meth:`column_sums`); None when there are none.
    seat_label_nets: dict[str, Any] | None = None

    def column_sums(self) -> list[int]:
        """Each column's sum (``sessions``' order): every net of it, the players' and the seat
        labels' (:attr:`seat_label_nets`): 0 when every chip of it is accounted for, as the
        players' nets sum in ``balances`` (:func:`ledger.audit.player_balances.unbalanced`)."""
        rows = [*self.players, *([self.seat_label_nets] if self.seat_label_nets else [])]
        return [sum(p["nets"].get(k, 0) for p in rows)
                for k in map(self.column_key, self.sessions)]

    def unit_sums(self) -> list[int]:
        """The sum of :meth:`column_sums` per chip unit (``units``' order) when they are of
        different values, else one sum of them all."""
        sums = self.column_sums()
        if not self.mixed:
            return [sum(sums)]
        return [sum(v for s, v in zip(self.sessions, sums, strict=True)
                    if self.column_unit(s) == i) for i in range(len(self.units))]

    def plain_beside_loose(self) -> list[str]:
        """The sessions whose plain chips (no chip value, no currency: ``(1, 0, None)``) a
        total adds to the plain chips of hands of no session, in ``units``' order: neither
        records what a chip is worth, so the ledger cannot tell whether they are worth the
        same (a tournament's chips beside a home game's; docs/BOOKS.md "Plain chips have no
        money to show"); [] when no total adds such chips (in money: ``units`` is empty)."""
        for u in self.units:
            plain = (u["chip_value_minor"], u["decimals"], u["currency"]) == (1, 0, None)
            if plain and None in u["sessions"]:
                return [s for s in u["sessions"] if s is not None]
        return []

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

    def _column_json(self, column: dict[str, Any]) -> dict[str, Any]:
        """A ``sessions`` entry of :meth:`as_json`: the column with ``"key"``, its key in a
        player's ``nets`` (the session; ``""`` for hands of no session, whose ``session`` is
        null), and for hands of no session in chips of several values, ``"unit_index"``, its
        place in the list under ``""`` (and in ``units``)."""
        out = {**column, "key": column["session"] or ""}
        if "unit" in column:
            out["unit_index"] = self.column_unit(column)
        return out

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
        session: each ``sessions`` entry's ``key``, :meth:`_column_json` — when the hands of
        no session count chips of different values, a list of their nets in the order of
        ``units``, null for a unit he has none in; ``total`` null and
        ``totals`` per unit when the chips are of different values), and ``"in_progress"`` (as
        :func:`ledger.audit.player_balances.open_hands`) when a hand is still open,
        ``"rake"`` (:attr:`rake`) when the table took one and ``"unbalanced"``
        (:attr:`unbalanced`) when a unit's nets do not sum to zero, as ``balances --json``
        gives them (BOOKS.md "Net has one meaning everywhere"), and
        ``"seat_label_hands"`` when hands of no session seat players by seat label
        (:mod:`ledger.audit.seat_labels`), with ``"seat_label_nets"``, their seats' nets
        added up as a player's (``nets``, ``total``, ``totals``)."""
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

        body = {"sessions": [self._column_json(s) for s in self.sessions],
                "players": [{**p, "nets": nets(p["nets"])} for p in self.players],
                "decimals": self.unit[0], "currency": self.unit[1],
                "units": [{**u, "sessions": [s or "" for s in u["sessions"]]}
                          for u in self.units]}
        if self.in_progress:
            body["in_progress"] = self.in_progress
        if self.rake:  # why a sum row is short of zero: as balances --json gives it
            body["rake"] = self.rake
        if self.unbalanced:
            body["unbalanced"] = self.unbalanced
        if self.seat_labels:  # hands of no session seated by seat label: no player listed
            body["seat_label_hands"] = self.seat_labels
        if self.seat_label_nets:  # their seats' nets added up, as a player's: the sums count
            body["seat_label_nets"] = {**self.seat_label_nets,
                                       "nets": nets(self.seat_label_nets["nets"])}
        return body


def standings(con: Any, money: bool) -> Standings:
    """The sessions × players grid of nets with each player's total (the same nets as
    :func:`ledger.audit.player_balances.balances`: what the table paid), most won first. In
    chips, a total per chip unit when the sessions count chips of different values
    (:class:`Standings`): 150 chips of 0.25 USD and -2 chips of 0.01 USD are 37.48 USD, not 148
    chips.

    Raises:
        LedgerError: money over sessions with different currencies or decimals.
    """
    column = "net_minor" if money else "net"
    every = con.execute(
        f"SELECT r.session, r.player, r.{column}, r.currency, r.decimals, n.nickname,"
        f" coalesce(r.chip_value_minor, 1), {seat_label_of('r')}"
        " FROM player_session_results r LEFT JOIN player_nicknames n USING (player)"
        " ORDER BY r.session_ord, r.player").fetchall()
    rows = [r[:7] for r in every]  # a seat label is no player: its nets are the row below
    label = [bool(r[7]) for r in every]
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
    unit = one_unit({r[3] or "" for r in every}, {str(r[4] or 0) for r in every}, money,
                    _STANDINGS_MIXED, lambda: money_places(con, None),
                    plain=lambda: all_plain(con, None))
    units: dict[ChipUnit, list[str | None]] = {}
    if not money:
        for session, _, _, currency, decimals, _, value in rows:
            named = units.setdefault((int(value), int(decimals or 0), currency or None), [])
            if session not in named:
                named.append(session)
    index = {u: i for i, u in enumerate(units)}
    players: dict[str, dict[str, Any]] = {}
    seats: dict[str, Any] = {"nets": {}, "total": 0, "totals": [None] * len(units)}
    for (session, player, net, currency, decimals, nickname, value), seat in zip(
            rows, label, strict=True):
        p = seats if seat else players.setdefault(
            player, {"player": player, "nickname": nickname, "nets": {}, "total": 0,
                     "totals": [None] * len(units)})
        chip = (int(value), int(decimals or 0), currency or None)
        key = (None, *chip) if session is None and loose else session
        p["nets"][key] = p["nets"].get(key, 0) + int(net)
        p["total"] += int(net)
        if units:
            at = index[chip]
            p["totals"][at] = (p["totals"][at] or 0) + int(net)
    for p in [*players.values(), seats]:
        if len(units) > 1:
            p["total"] = None
        else:
            del p["totals"]
    ordered = sorted(players.values(), key=lambda p: (
        [-(t or 0) for t in p["totals"]] if len(units) > 1 else [-p["total"]], p["player"]))
    return Standings(sessions, ordered, unit, open_hands(con, None, money),
                     [{"chip_value_minor": u[0], "decimals": u[1], "currency": u[2],
                       "sessions": named} for u, named in units.items()],
                     unbalanced=nets_off_zero(con, None, money), rake=rake_taken(con, None),
                     seat_labels=(hands := seat_label_hands(con, None)),
                     seat_label_nets=seats if hands else None)
