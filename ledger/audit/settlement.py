"""Settling up, read from the derived tables and views (docs/SQL.md): the fewest transfers that
settle what is still owed (the algorithm is :mod:`ledger.audit.settle`), the house's books (the
rake it is owed), what each session still owes, and the session books the checks run on
request read.

Money is in integer minor units. The tables must be as of the ledger's head (the application
catches them up first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.audit.player_balances import Balances, balances
from ledger.audit.settle import HOUSE, HouseTransfer, fewest_transfers
from ledger.model.errors import LedgerError
from ledger.model.money import format_money
from ledger.model.shell import shell_arg

#: A transfer of the settlement of every session: ``(session, from, to, amount)``, the session
#: None for hands of no session, from or to None for the house (:data:`HouseTransfer`).
SessionTransfer = tuple["str | None", "str | None", "str | None", int]


def house_books(con: Any, session: str | None) -> dict[str, int]:
    """What the house (whoever keeps the rake) is owed and was paid in ``session`` (None:
    every session), money in minor units: ``{"rake_minor", "paid_minor", "received_minor"}`` —
    the rake the table took from the pots (chips × the session's chip value: the books'
    ``rake``, as :func:`ledger.audit.player_balances.rake_taken`) and the payments from and to
    it (a payment's payer or payee None)."""
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
    :func:`house_books`: the players' nets sum to minus the rake, docs/LIVE.md "settle") as one
    more party, owed the rake less what it was paid, plus what it paid back. A transfer's
    payer or payee None is the house (its transfers after the players' of each payer); the
    balances they settle, with ``house`` and ``unopened`` set.

    Raises:
        LedgerError: a hand read is still in progress
            (:func:`ledger.audit.player_balances.open_hands`: its pot is not paid yet, the nets
            are not final), the nets do not sum to zero once the rake is the house's (the audit
            says why; the rake and what is left are named), a player lost more chips in a
            session than he bought there (:func:`lost_beyond_buy_ins`: a transfer ``pay``
            refuses), or as
            :func:`ledger.audit.player_balances.balances`.
    """
    books, nets, owed_house = _owed(con, session)
    return _transfers(nets, owed_house), books


def settlement_by_session(con: Any, leave_out: frozenset[str] = frozenset()
                          ) -> tuple[list[SessionTransfer], Balances]:
    """The transfers that settle up what is still owed in every session, in minor units:
    each session's players and its house settled among themselves (:func:`settlement` of
    that session), since a payment settles a session between its players (``pay SESSION FROM
    TO AMOUNT``, docs/LIVE.md "settle"), so no transfer pairs players of different sessions or nets
    one session's debt against another's winnings. ``(session, from, to, amount)`` by session
    in ledger order, then hands of no session (session None: no ``pay`` records those); the
    balances of the whole ledger, with ``house``, ``unopened`` and ``books_apart`` set.
    ``leave_out``: sessions not settled here (:func:`waiting_sessions`: a hand of each still
    in progress), their players' nets, payments and rake left out of the transfers and the
    balances.

    Raises:
        LedgerError: as :func:`settlement` of the whole ledger, or of a session whose nets do
            not sum to minus its rake (the message names the session).
    """
    books, nets, owed_house = _owed(con, None, leave_out)
    out: list[SessionTransfer] = []
    (apart,) = con.execute("SELECT count(DISTINCT session) + (count(*) FILTER"
                           " (session IS NULL) > 0)::INTEGER FROM session_book").fetchone()
    books = replace(books, books_apart=int(apart))
    for name, group, house in _session_groups(con, nets, owed_house, leave_out):
        if sum(group.values()) + house:
            if name is not None:
                try:
                    settlement(con, name)
                except LedgerError as exc:
                    raise LedgerError(str(exc).replace(
                        "cannot settle:", f"cannot settle session {name}:", 1)) from None
            where = f"session {name}" if name is not None else "hands of no session"
            raise LedgerError(f"cannot settle: the balances of {where} do not sum to minus "
                              "its rake (see `handledger audit`)")
        out.extend((name, a, b, n) for a, b, n in _transfers(group, house))
    return out, books


#: One session's settlement in its own unit: ``(session, transfers, balances)``
#: (:func:`settlement_each`).
SessionBlock = tuple[str, list[HouseTransfer], Balances]


def units_differ(con: Any) -> bool:
    """Whether the hands read count money of more than one unit (currency or decimals,
    :func:`ledger.audit.money_units.money_places`): the whole ledger's nets do not add up in
    one money, so :func:`settlement_by_session` cannot settle it, and
    :func:`settlement_each` settles each session in its own and counts the hands of no
    session, settled in none (hands of no session alone, of several units: no session, and
    every hand counted unsettled; README "settle")."""
    from ledger.audit.money_units import money_places

    return len(money_places(con, None)) > 1


def settlement_each(con: Any, leave_out: frozenset[str] = frozenset()
                    ) -> tuple[list[SessionBlock], int]:
    """Every session settled in its own unit (:func:`settlement` of each, in ledger order:
    docs/LIVE.md "settle": a payment settles a session between its players, in its money), and the
    number of hands of no session, which are settled in none (no ``pay`` records them, and
    their money need not be a session's), a voided one none of them (it moved no chips).
    ``leave_out``: sessions not settled here (:func:`waiting_sessions`).

    Raises:
        LedgerError: as :func:`settlement` of a session, the message naming the session.
    """
    blocks: list[SessionBlock] = []
    for (name,) in con.execute("SELECT session FROM session_book WHERE session IS NOT NULL"
                               " ORDER BY ord").fetchall():
        if name in leave_out:
            continue
        try:
            transfers, books = settlement(con, name)
        except LedgerError as exc:
            raise LedgerError(str(exc).replace(
                "cannot settle:", f"cannot settle session {name}:", 1)) from None
        blocks.append((name, transfers, books))
    (loose,) = con.execute("SELECT count(*) FROM hands WHERE session IS NULL"
                           " AND status IS DISTINCT FROM 'voided'").fetchone()
    return blocks, int(loose)


def waiting_sessions(con: Any) -> list[dict[str, Any]]:
    """The sessions not settleable yet, in ledger order: those with a hand still in progress
    (:func:`ledger.audit.player_balances.open_hands`: its pot is paid when it ends, the nets
    are not final), ``{"session", "hand": the first such hand, "in_progress": how many}``.
    Hands of no session are none of them (:func:`settlement` refuses those)."""
    from ledger.audit.player_balances import open_hands

    out: dict[str, dict[str, Any]] = {}
    for h in open_hands(con, None):
        if h["session"] is not None:
            out.setdefault(h["session"], {"session": h["session"], "hand": h["hand"],
                                          "in_progress": 0})["in_progress"] += 1
    return list(out.values())


def _session_groups(con: Any, nets: dict[str, int], owed_house: int,
                    leave_out: frozenset[str] = frozenset()
                    ) -> list[tuple[str | None, dict[str, int], int]]:
    """``nets`` (what each player still owes or is owed, all sessions but ``leave_out``) and
    ``owed_house`` split by session: ``(session, {player: minor}, owed to the house)`` per
    session in ledger order, then what is left, the hands of no session (None), when
    anything is."""
    names = [n for (n,) in con.execute(
        "SELECT session FROM session_book WHERE session IS NOT NULL ORDER BY ord").fetchall()
        if n not in leave_out]
    house = {name: int(owed) for name, owed in con.execute(
        "SELECT session, rake::HUGEINT * coalesce(chip_value_minor, 1)"
        " - coalesce(house_received_minor, 0) + coalesce(house_paid_minor, 0)"
        " FROM session_book WHERE session IS NOT NULL").fetchall()}
    rows = session_nets(con, names)
    left = dict(nets)
    left_house = owed_house
    groups: list[tuple[str | None, dict[str, int], int]] = []
    for name in names:
        group = {}
        for p in rows.get(name, []):
            owes = p["net"] + p["paid_minor"] - p["received_minor"]
            if owes:
                group[p["player"]] = owes
                left[p["player"]] = left.get(p["player"], 0) - owes
        left_house -= house.get(name, 0)
        if group or house.get(name, 0):
            groups.append((name, group, house.get(name, 0)))
    rest = {p: n for p, n in left.items() if n}
    if rest or left_house:
        groups.append((None, rest, left_house))
    return groups


def _owed(con: Any, session: str | None, leave_out: frozenset[str] = frozenset()
          ) -> tuple[Balances, dict[str, int], int]:
    """The balances :func:`settlement` settles (``house`` and ``unopened`` set), what each
    player still owes or is owed (minor units: his net less the payments he received, plus
    those he made) and what the house is still owed, the sessions ``leave_out`` left out
    (:func:`_without`); refused as :func:`settlement` is."""
    books = balances(con, session, money=True)
    playing = [h for h in books.in_progress if h["session"] not in leave_out]
    if playing:
        first = playing[0]
        more = len(playing) - 1
        where = f"session {first['session']}" if first["session"] else "no session"
        raise LedgerError(
            f"cannot settle: hand {first['hand']} is still in progress (not ended) in {where}"
            + (f" (and {more} more hand{'s' if more > 1 else ''})" if more else "")
            + f": its pot is paid when it ends (`handledger act {shell_arg(first['hand'])} end`) "
              "or is "
            "voided; then run `handledger settle` again")
    nets = {p["player"]: p["net"] + p["paid_minor"] - p["received_minor"]
            for p in books.players}
    house = house_books(con, session)
    if leave_out:
        books, nets, house = _without(con, leave_out, books, nets, house)
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
    beyond = [b for b in lost_beyond_buy_ins(con, session) if b[0] not in leave_out]
    if beyond:
        name, player, lost, bought, value, decimals, currency = beyond[0]
        more = len(beyond) - 1
        plain = currency is None and value == 10 ** decimals  # a chip is the unit: no money

        def worth(chips: int, sep: str) -> str:
            return "" if plain else f"{sep}{format_money(chips * value, decimals, currency)}"

        shut = con.execute("SELECT coalesce(bool_or(closed), false) FROM session_book WHERE"
                           " session = $1", [name]).fetchone()[0]
        raise LedgerError(
            f"cannot settle: {player} lost {lost} chips"
            + (f" ({worth(lost, '')})" if not plain else "") + f" in session {name}, more "
            f"than {player}'s buy-ins there ({bought} chips{worth(bought, ', ')})"
            + (f" (and {more} more player{'s' if more > 1 else ''})" if more else "")
            + f": a hand seats {player} with chips never bought, and nobody pays more than the "
            f"chips put on the table (RULES.md §1.1; `pay` refuses it): `handledger audit "
            f"--session {shell_arg(name)}` names the hand (a buy-in not recorded: `handledger "
            "buyin "
            f"{shell_arg(name)} {shell_arg(player)} CHIPS --before "
            f"HAND{' --closed' if shut else ''}`, or `entry "
            "amend` of the buy-in; a stack "
            "typed wrong: `handledger correct`); then run `handledger settle` again")
    never = {name for (name,) in con.execute(  # hands of no session: no session to open
        "SELECT session FROM session_book WHERE NOT opened AND session IS NOT NULL"
    ).fetchall()}
    books = replace(books, house=house, unopened=[r["session"] for r in books.rake
                                                  if r["session"] in never])
    return books, nets, owed_house


def _without(con: Any, leave_out: frozenset[str], books: Balances, nets: dict[str, int],
             house: dict[str, int]) -> tuple[Balances, dict[str, int], dict[str, int]]:
    """``books``, ``nets`` and ``house`` (of every session, as :func:`_owed` reads them) less
    what the sessions ``leave_out`` hold: each player's net, hands and payments there, their
    rake and the house's payments; a player of none but those is left out."""
    players = {p["player"]: dict(p) for p in books.players}
    nets = dict(nets)
    there: set[str] = set()
    for group in session_nets(con, sorted(leave_out)).values():
        for p in group:
            there.add(p["player"])
            nets[p["player"]] = nets.get(p["player"], 0) - (
                p["net"] + p["paid_minor"] - p["received_minor"])
            row = players.get(p["player"])
            if row is not None:
                for key in ("net", "hands", "paid_minor", "received_minor"):
                    row[key] -= p[key]
    gone = {n for n in there if n in players and not any(
        players[n][k] for k in ("hands", "net", "paid_minor", "received_minor"))}
    for name in leave_out:
        apart = house_books(con, name)
        house = {k: house[k] - apart[k] for k in house}
    return (replace(books, players=[p for n, p in players.items() if n not in gone],
                    rake=[r for r in books.rake if r["session"] not in leave_out],
                    in_progress=[h for h in books.in_progress
                                 if h["session"] not in leave_out]),
            {n: v for n, v in nets.items() if n not in gone}, house)


def _transfers(nets: dict[str, int], owed_house: int) -> list[HouseTransfer]:
    """The fewest transfers settling ``nets`` and the house owed ``owed_house`` (None is the
    house: its transfers after the players' of each payer)."""
    if not owed_house:
        return list(fewest_transfers(nets))
    if HOUSE in nets:  # a player named "" is refused everywhere a name is written
        raise LedgerError("cannot settle: a player without a name is in the books")
    found = fewest_transfers({**nets, HOUSE: owed_house})
    return sorted(((None if a == HOUSE else a, None if b == HOUSE else b, n) for a, b, n in found),
                  key=lambda t: (t[0] is None, t[0] or "", t[1] is None, t[1] or ""))




def lost_beyond_buy_ins(con: Any, session: str | None
                        ) -> list[tuple[str, str, int, int, int, int, str | None]]:
    """The players who lost more chips in a session (``session``; None: every session) than
    they bought there — books that seat a player with chips he never bought, which no payment
    can settle (a player loses at most what he put on the table, RULES.md §1.1;
    :func:`replay.sessions.payments.within_buy_ins` bounds his payments by his buy-ins):
    ``[(session, player, chips lost, chips bought, chip value in minor units, decimals,
    currency)]`` by session order and player. A session of no buy-in, or one with a hand
    seating a player who has none, is left out: its chips come from outside its books
    (:func:`replay.sessions.entries.chips_from_outside`)."""
    rows = con.execute(
        "SELECT p.session, p.player, -p.net, p.buy_in, coalesce(b.chip_value_minor, 1),"
        " coalesce(b.decimals, 0), b.currency FROM session_players p JOIN session_book b"
        " ON b.session = p.session WHERE p.session IS NOT NULL AND b.opened"
        " AND ($1 IS NULL OR p.session = $1) AND -p.net > coalesce(p.buy_in, 0)"
        " AND NOT EXISTS (SELECT 1 FROM session_players q WHERE q.session = p.session"
        " AND q.hands > 0 AND coalesce(q.buy_in, 0) = 0)"
        " ORDER BY b.ord, p.player", [session]).fetchall()
    return [(s, p, int(lost), int(bought or 0), int(v), int(d), c)
            for s, p, lost, bought, v, d, c in rows]


def session_nets(con: Any, sessions: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The players' rows of :func:`ledger.audit.player_balances.balances` in money (``session``,
    ``money=True``) of each of ``sessions``, read in one query: ``{session: [{"player", "net",
    "hands", "paid_minor", "received_minor"}]}`` (minor units), as :func:`settlement` reckons
    what each still owes; a session with no player is left out."""
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


def session_books(con: Any) -> list[Any]:
    """Each session's book as the derived tables keep it — open or closed, chip value and
    currency, each player's net, buy-ins and hands played (chips) and settlement payments
    (minor units: a loss beyond the buy-ins is named as the audit names it) — for the checks run on
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
    for name, player, net, paid, received, bought, hands in con.execute(
            "SELECT session, player, net, paid_minor, received_minor, coalesce(buy_in, 0),"
            " coalesce(hands, 0) FROM session_players WHERE session IS NOT NULL").fetchall():
        book = books.get(name)
        if book is None:
            continue
        book.players[player] = PlayerBook(player, 0, net=net, paid_minor=paid,
                                          received_minor=received, buy_in=bought, hands=hands)
        if paid:
            book.payments.append((player, "", paid))
    return list(books.values())


@dataclass(frozen=True)
class Owing:
    """A closed session where money is still owed after the payments recorded: ``owed_minor``
    what its debtors must still pay (:func:`owed`), in minor units of ``currency`` with
    ``decimals`` places (its chip's unit; plain chips: ``currency`` None, 0 places, a chip a
    minor unit); ``balances`` what each of its players still owes (negative) or is owed
    (minor units: his net less the payments he received, plus those he made) and
    ``to_house`` what the house (whoever keeps the rake) is still owed, as ``settle`` reckons
    them (:func:`transfers` settles them)."""

    session: str
    owed_minor: int
    decimals: int
    currency: str | None
    balances: tuple[tuple[str, int], ...]
    to_house: int

    def transfers(self) -> list[HouseTransfer] | None:
        """Who pays whom, ``(from, to, minor units)``, None the house, as ``settle
        --session`` gives them (:func:`ledger.audit.settle.fewest_transfers`: computed when
        asked, its exact search costing up to some 50 ms for 14 players); None when the
        balances do not sum to zero once the rake is the house's (the audit's findings say
        why: nobody can settle that)."""
        group = dict(self.balances)
        if sum(group.values()) + self.to_house or HOUSE in group:
            return None
        return _transfers(group, self.to_house)


def owing(con: Any) -> tuple[Owing, ...]:
    """The closed sessions where money is still owed after the payments recorded, in ledger
    order (:class:`Owing`; what ``session list`` says ``… owed`` of, what a clean audit adds
    ``still owes money`` of). Reads ``session_book`` and ``player_session_results`` alone, so
    it runs on the tables a Dask replay writes too (:mod:`replay.distributed`)."""
    due = owed(con)
    closed = [(name, int(decimals or 0), currency or None) for name, decimals, currency
              in con.execute("SELECT session, decimals, currency FROM session_book"
                             " WHERE session IS NOT NULL AND closed ORDER BY ord").fetchall()
              if due.get(name, 0) > 0]
    if not closed:
        return ()
    nets = session_nets(con, [name for name, *_ in closed])
    house = dict(con.execute(
        "SELECT session, rake::HUGEINT * coalesce(chip_value_minor, 1)"
        " - coalesce(house_received_minor, 0) + coalesce(house_paid_minor, 0)"
        " FROM session_book WHERE session IS NOT NULL").fetchall())
    return tuple(
        Owing(name, due[name], decimals, currency,
              tuple((p["player"], p["net"] + p["paid_minor"] - p["received_minor"])
                    for p in nets.get(name, [])), int(house.get(name) or 0))
        for name, decimals, currency in closed)


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
