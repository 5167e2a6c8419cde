"""The hand-by-hand nets a chart draws, read from the derived tables and views (docs/SQL.md):
every player's net in every hand in ledger order, grouped by chip unit, and refused where a
chart would add up amounts of different units.

Chips are integers; money is in integer minor units. The tables must be as of the ledger's head
(the application catches them up first).
"""

from __future__ import annotations

from typing import Any

from ledger.audit.money_units import ChipUnit, MoneyPlaces, chip_units_worth, one_unit
from ledger.audit.player_balances import no_such_session
from ledger.audit.seat_labels import SEAT_LABEL
from ledger.model.errors import LedgerError


def hand_nets(con: Any, money: bool, session: str | None = None
              ) -> list[tuple[int, str, int]]:
    """``(ord, player, net)`` of every player in every hand (of ``session`` when given), in
    ledger order (chips, or minor units with ``money``), whatever their sessions' units; a
    seat label of a hand of no session is no player (:mod:`ledger.audit.seat_labels`)."""
    return con.execute(
        f"SELECT ord, player, {'net_minor' if money else 'net'} FROM player_hand_results"
        f" WHERE ($1 IS NULL OR session = $1) AND NOT {SEAT_LABEL} ORDER BY ord, player",
        [session]).fetchall()


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
            f" WHERE NOT {SEAT_LABEL} ORDER BY ord, player").fetchall():
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
    """The rows of :func:`chart_nets_unit`."""
    return chart_nets_unit(con, money, session)[0]


def chart_nets_unit(con: Any, money: bool, session: str | None = None
                    ) -> tuple[list[tuple[int, str, int]], tuple[int, str | None]]:
    """:func:`hand_nets` for a chart of running nets and the unit of its money, ``(decimals,
    currency)`` ((0, None) in chips: the nets are chips), refused where they would add up amounts
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
        unit = one_unit({u[2] or "" for u in units}, {str(u[1]) for u in units}, True,
                        _CHART_ONE_SESSION, lambda: places,
                        plain=lambda: all(u[0] == 1 for u in units))
        return hand_nets(con, money, session), unit
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
    return hand_nets(con, money, session), (0, None)


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
