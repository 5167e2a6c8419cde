"""Units of the books' amounts: the chip unit of a session (or of a hand of no session), the
(decimals, currency) amounts are printed with, and the refusal of amounts of different units
added up (docs/BOOKS.md, "Chips of different values do not add up").

Chips are integers; money is chips × the session's chip value, in integer minor units.
"""

from __future__ import annotations

from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.money import format_money
from ledger.model.shell import shell_arg

#: ``(decimals, currency)`` to print amounts with: ``(0, None)`` for chips.
Unit = tuple[int, "str | None"]

#: A session's chip unit: ``(minor units a chip is worth, decimals, currency)``; a session
#: with no chip value counts plain chips, ``(1, 0, None)``; a hand of no session its own unit.
ChipUnit = tuple[int, int, "str | None"]


#: What to do about mixed currencies, per read (standings has no --session): when every
#: unit is a named session's, and (a list: what works, then ``--session``'s part, if any unit
#: is one) when hands of no session hold one, which no ``--session`` reads apart.
_ONE_SESSION = ("read one session with --session",
                ["`handledger balances` without --money gives a table per unit",
                 "and `--session S --money` one session's money"])


#: The money units of the hands read: (decimals, currency) → the sessions holding it in order
#: (None: hands of no session).
MoneyPlaces = dict[tuple[int, "str | None"], list["str | None"]]


def one_unit(currencies: set[str], decimals: set[str], money: bool,
          hint: tuple[str, list[str]] = _ONE_SESSION,
          places: Any = None, *, plain: Any = None) -> tuple[int, str | None]:
    """The one (decimals, currency) of the sessions read; chips (0, None) when not ``money``.
    ``hint``: what the refusal tells the user to do (:data:`_ONE_SESSION`); ``places``: a
    function giving the :data:`MoneyPlaces` read, which the refusal names; ``plain``: a
    function saying whether every chip read is a plain chip (no chip value), for a read that
    refuses money of plain chips alone (None: such money is the chips, as ``settle`` bills
    them).

    Raises:
        LedgerError: money over sessions with different currencies or decimals, or, with
            ``plain``, money asked of plain chips alone (no chip value, no currency).
    """
    if not money:
        return 0, None
    if len(currencies) > 1 or len(decimals) > 1:
        raise _mixed_money(places() if places is not None else {}, hint)
    if (plain is not None and currencies <= {""} and decimals <= {"0"}
            and (currencies or decimals) and plain()):
        raise _no_money(places() if places is not None else {})
    return int(decimals.pop() if decimals else 0), (currencies.pop() if currencies else "") or None


def _mixed_money(places: MoneyPlaces, hint: tuple[str, list[str]]) -> LedgerError:
    """The refusal of money of different currencies or decimals: the units and where each is
    (``friday: USD, 2 decimals; (no session): EUR, 2 decimals``; a session of no currency as
    ``session list --json`` gives it, ``thu: no currency, 2 decimals`` beside ``fri: plain
    chips, no currency``) and what can be read instead; with hands of no session, no
    ``--session`` reads them apart (docs/BOOKS.md, "Chips of different values do not add up").
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
                   f"--chip-value V --currency {shell_arg(currency)}`)")
    return LedgerError(f"the {'hands read' if loose else 'sessions'} use different currencies "
                       f"or decimals{f' ({listing})' if listing else ''}: {advice}")


def _no_money(places: MoneyPlaces) -> LedgerError:
    """The refusal of ``--money`` where every chip read is a plain chip (no chip value, no
    currency): there is no money to show, and chips shown under a money heading would read as
    money (docs/BOOKS.md, "Chips of different values do not add up"). Names the sessions (``(no
    session)``: hands of no session) and how to give a session's chip its worth."""
    where = [s for named in places.values() for s in named]
    named = [s for s in where if s is not None]
    listing = ", ".join(s or "(no session)" for s in where)
    what = (f"{'session' if len(where) == 1 else 'sessions'} {listing} count"
            f"{'s' if len(where) == 1 else ''} " if named and len(named) == len(where) else
            "the hands read (of no session among them) count " if where else
            "the hands read count ")
    whose = "its" if len(named) == 1 else "each one's"
    session = named[0] if len(named) == 1 else "S"
    worth = (f", or give {whose} chip a worth (`handledger session set {shell_arg(session)} "
             "--chip-value "
             "V --currency C`)" if named else "")
    return LedgerError(f"{what}plain chips, with no money value (no currency): --money has "
                       f"no money to show; read the chips without --money{worth}")


def _money_unit_text(decimals: int, currency: str | None) -> str:
    """A money unit as the refusal of mixed money names it, what ``session list --json``
    gives as ``currency`` and ``decimals``.

    >>> _money_unit_text(2, "USD"), _money_unit_text(2, None), _money_unit_text(0, None)
    ('USD, 2 decimals', 'no currency, 2 decimals', 'plain chips, no currency')
    """
    if currency:
        return f"{currency}, {decimals} decimals"
    return f"no currency, {decimals} decimals" if decimals else "plain chips, no currency"


def all_plain(con: Any, session: str | None) -> bool:
    """Whether every session's chip read (``session``'s; None: all) is a plain chip: no
    chip value, no currency, no decimals."""
    row = con.execute(
        "SELECT bool_and(coalesce(chip_value_minor, 1) = 1 AND coalesce(decimals, 0) = 0"
        " AND nullif(currency, '') IS NULL) FROM player_session_results"
        " WHERE $1 IS NULL OR session = $1", [session]).fetchone()
    return bool(row and row[0])


def money_places(con: Any, session: str | None) -> MoneyPlaces:
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


def chips_of(unit: ChipUnit) -> str:
    """What a table of ``unit`` counts, as ``balances`` heads it: ``plain chips`` (no chip
    value), ``chips of 0.25 USD``, ``chips of 0.01`` (a chip value and no currency).

    >>> chips_of((1, 0, None)), chips_of((25, 2, "USD")), chips_of((1, 2, None))
    ('plain chips', 'chips of 0.25 USD', 'chips of 0.01')
    """
    return "plain chips" if unit == (1, 0, None) else f"chips of {chip_unit_text(unit)}"


def chip_units_worth(units: list[dict[str, Any]]) -> str:
    """Each unit's sessions and what one of its chips is worth (``units`` as
    :class:`ledger.audit.standings_grid.Standings` lists them): ``friday: 1 chip = 0.25 USD; (no
    session): plain chips``."""
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
