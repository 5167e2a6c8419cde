"""Payments that settle a session up (``pay``), between its players or with the house, whoever
keeps the rake (:data:`HOUSE_WORD`): money, never more than the payer can owe (his buy-ins), nor,
unless ``--more-than-owed``, more than he still owes as ``settle`` reckons it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.names import check_name, folded, likely_meant
from ledger.model.shell import shell_arg
from ledger.store.proven import prove_before_writing
from replay.bank import BANK_WORD, beyond_bank
from replay.sessions.amounts import money_written
from replay.sessions.entries import chips_from_outside
from replay.sessions.state import (
    SessionState,
    alias_group,
    append_entry,
    in_books,
    open_state,
    party,  # a payment's side as a line names it (``pay`` prints it)
    series_names,
)

#: How ``pay`` names the house, whoever keeps the rake the table took (a payment's payer or
#: payee None): a word no player first named at the table or in the books can have
#: (:data:`ledger.model.names.NOTATION_WORDS`; docs/LIVE.md "settle").
HOUSE_WORD = "rake"

#: The words ``pay`` takes for a side that is no player: the house, and the bank
#: (:data:`replay.bank.BANK_WORD`, whoever holds the buy-ins).
PARTIES = (HOUSE_WORD, BANK_WORD)


def pay(ledger: Any, session: str, payer: str, payee: str, amount: str, *,
        again: bool = False, beyond: bool = False,
        warn: Callable[[str], None] | None = None) -> tuple[ev.Payment, SessionState, int]:
    """``payer`` pays ``payee`` ``amount`` of money (e.g. ``"12.50"``) to settle ``session``.
    ``beyond``: go in though it is more than the payer still owes (a payment he did not owe,
    one handed back: ``settle`` then has it paid back). :data:`HOUSE_WORD` (``rake``) on
    one side is the house, whoever keeps the rake (the event's payer or payee None; README
    "settle"): paid at most what it is still owed, and paying back at most what it was paid
    beyond the rake (:func:`within_house`), unless ``beyond``. ``bank`` on one side is the
    bank, whoever holds the buy-ins (the event's side None, ``bank`` set;
    docs/CORRECTIONS.md "A correction after the chips moved on"): paid at most what
    ``settle``'s bank line has the player pay it, paying him at most what it has it pay him
    (:func:`replay.bank.beyond_bank`), unless ``beyond``. A player paid more than
    ``settle`` has him owed is recorded all the same (``entry retract`` takes it back), with
    one line to ``warn`` once written (:func:`payee_owed_less`), unless the payer paid more
    than he owes (``beyond``: meant).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`), the same player
            twice, ``rake`` and ``bank`` together, a bad amount (:func:`money_written`), or
            more than the payer's own buy-ins in the session with what he paid there already
            (:func:`within_buy_ins`; not with the bank); NotFound: no such session;
        LedgerError: a player not in the session's books (:func:`in_books`), ``rake`` or
            ``bank`` where the session's books hold a player of that name, more than
            the payer still owes as ``settle`` reckons it (:func:`within_owed`,
            :func:`within_house`, :func:`replay.bank.beyond_bank`; unless ``beyond``), or
            the same payment is recorded
            already (unless ``again``).
    """
    check_name(payer)
    check_name(payee)
    if payer == payee:
        raise MalformedInput("a payment needs two different players")
    prove_before_writing(ledger)
    state = open_state(ledger, session, allow_closed=True)
    where = f"pay {session} {payer} {payee}"
    amount_minor = money_written(amount, where, state)  # the input first, then the books
    players = series_names(ledger)  # an alias is his player's name here, as in the audit
    known = in_books(ledger, session, state, names=players)
    _parties_named(where, session, known, payer, payee)
    if any(who not in known and who not in PARTIES for who in (payer, payee)):
        names = _platform_names(ledger)
        payer, payee = (labelled(who, session, known, names) for who in (payer, payee))
        if payer == payee:
            raise MalformedInput("a payment needs two different players")
        for who in (payer, payee):
            if who not in known and who not in PARTIES:
                raise not_in_books(who, session, known, names)
    if not {payer, payee} & set(PARTIES):
        _two_players(payer, payee, session, _platform_names(ledger))
        _one_player(payer, payee, session, players)
    bank = BANK_WORD in (payer, payee)
    by = None if payer in PARTIES else payer
    to = None if payee in PARTIES else payee
    if by is not None and not bank:  # the bank's line is chips beyond the books, not bought
        within_buy_ins(ledger, session, state, by, amount_minor, where, amount)
    owed = (beyond_bank(ledger, session, state, by, to, amount_minor, where) if bank else
            beyond_owed(ledger, session, state, by, to, amount_minor, where))
    if owed is not None and not beyond:
        raise owed
    event = ev.Payment(payer=by, payee=to, amount_minor=amount_minor,
                       more_than_owed=owed is not None, bank=bank)
    same = tuple(None if n is None else players.get(n, n) for n in (by, to))
    if not again and any(tuple(None if n is None else players.get(n, n) for n in (b, t)) == same
                         and m == event.amount_minor
                         for b, t, m in (state.bank_payments if bank else state.payments)):
        raise LedgerError(f"{party(by, bank)} paying {party(to, bank)} "
                          f"{state.money(event.amount_minor)} is recorded in {session} "
                          "already; a second payment of the same amount takes --again")
    # --more-than-owed: meant; a payment by the bank is bounded by its line, not the transfers
    short = (payee_owed_less(ledger, session, state, to, amount_minor)
             if warn is not None and owed is None and not bank else None)
    seq = append_entry(ledger, session, event, state)
    if short is not None and warn is not None:
        warn(f"{short}: `handledger entry retract {shell_arg(session)} {shell_arg(seq)} --reason "
             "… --by …` takes it "
             "back")
    return event, state, seq


def _parties_named(where: str, session: str, known: set[str], payer: str, payee: str
                   ) -> None:
    """Refuse a payment whose two sides are the house and the bank (:data:`PARTIES`), or
    that names either by its word in a session whose books (``known``) hold a player of that
    name (``Rake`` too: an imported hand's; ``Bank``).

    Raises:
        MalformedInput, LedgerError: one line naming ``where``; nothing written.
    """
    if set(PARTIES) <= {payer, payee}:
        raise MalformedInput(f"{where}: a payment names a player on one side at least (the "
                             "house and the bank settle nothing between them); nothing written")
    for word, whom in ((HOUSE_WORD, "the house"), (BANK_WORD, "the bank")):
        named = sorted(n for n in known if folded(n) == word)  # 'Rake' too
        if word in (payer, payee) and named:
            imported = " (from an imported hand)" if word == HOUSE_WORD else ""
            raise LedgerError(f"{where}: session {session} has a player named {named[0]}"
                              f"{imported}, so '{word}' cannot name {whom} here; nothing "
                              "written")


def payee_owed_less(ledger: Any, session: str, state: SessionState, payee: str | None,
                    minor: int) -> str | None:
    """What is said of a payment of ``minor`` units to ``payee`` (a player; None, the house,
    is bounded by :func:`within_house` instead) beyond what ``settle`` has him owed in
    ``session`` before it (the transfers to him or any alias of his,
    :func:`ledger.audit.settlement.settlement`): ``settle has Cy owed nothing in fri (Ann
    pays Bob 25.00 USD)``, with settle's transfers for the session; None when he is owed it
    all, or settle cannot say (a hand in play, nets that do not sum to zero)."""
    from ledger.audit.settlement import settlement
    from replay.projections import catch_up

    if payee is None:
        return None
    try:
        catch_up(ledger)
        transfers, books = settlement(ledger.connection, session)
    except LedgerError as exc:
        ledger.aborted_by(exc)  # a database error inside a write: never passed over
        return None
    group = alias_group(ledger, payee)
    owed = sum(n for _, to, n in transfers if to in group)
    if minor <= owed:
        return None
    said = "; ".join(f"{party(a)} pays {party(b)} {state.money(n)}" for a, b, n in transfers)
    what = "nothing" if not owed else f"{state.money(owed)}, less than {state.money(minor)}"
    return (f"settle has {payee} owed {what} in {session} "
            f"({said or 'nobody owes anything'})")


def _platform_names(ledger: Any) -> dict[str, str]:
    from ledger.store.streams import platform_names

    return platform_names(ledger)


def _two_players(payer: str, payee: str, session: str, names: Mapping[str, str]) -> None:
    """Refuse a payment whose two sides are one player of a platform's log under his id and
    his name (``names``: id → name, :func:`ledger.store.streams.platform_names`).

    Raises:
        MalformedInput: naming the player as the reads label him; nothing written.
    """
    for pid, name in ((payer, payee), (payee, payer)):
        if names.get(pid) == name:
            raise MalformedInput(
                f"pay {session}: {pid} and {name} are one player, {name} ({pid}): a payment "
                "needs two different players (another player of that name: name that player by "
                "the id); nothing written").keeping_names()


def _one_player(payer: str, payee: str, session: str, players: Mapping[str, str]) -> None:
    """Refuse a payment whose two sides are one player under two of his names (``players``:
    the series' alias map, :func:`replay.sessions.state.series_names`; ``player alias``).

    Raises:
        MalformedInput: naming both names and the player; nothing written.
    """
    me = players.get(payer, payer)
    if me == players.get(payee, payee):
        others = [n for n in (payer, payee) if n != me]
        said = "is an alias" if len(others) == 1 else "are aliases"
        raise MalformedInput(
            f"pay {session}: {payer} and {payee} are one player, {me} ({' and '.join(others)} "
            f"{said} of {me}: `handledger player alias`): a payment needs two different "
            "players; nothing written").keeping_names()


#: A player as the reads label one known by a platform id: ``Name (id)`` (``balances``).
PLATFORM_LABEL = re.compile(r"(?P<name>.+) \((?P<id>[^\s()]+)\)")


def labelled(who: str, session: str, known: set[str], names: Mapping[str, str]) -> str:
    """``who`` as the books store him: a player of ``session``'s books (``known``) named as
    the reads label one known by a platform id, ``Name (id)`` (``names``: id → name,
    :func:`ledger.store.streams.platform_names`), is his id, as the id alone names him;
    any other ``who`` as it is (refused after if not in the books).

    Raises:
        LedgerError: ``Name (id)`` whose name and id are not the same player of the books,
            naming who each is; nothing written.
    """
    label = PLATFORM_LABEL.fullmatch(who)
    if who in known or label is None:
        return who
    name, pid = label["name"], label["id"]
    if pid in known and names.get(pid) == name:
        return pid
    if pid not in known and name not in known:
        return who
    listed = {pid: name for pid, name in names.items() if pid in known}
    said = [f"{pid} is " + (f"{listed[pid]} ({pid})" if pid in listed else
                            "in its books" if pid in known else "not in its books")]
    ids = [p for p, n in listed.items() if n == name]
    said.append(f"{name} is " + (" and ".join(f"{name} ({p})" for p in ids) if ids else
                                 "in its books" if name in known else "not in its books"))
    raise LedgerError(f"{who}: the name and the id are not the same player of session "
                      f"{session}: {'; '.join(said)}; name the player by the id or by the name; "
                      "nothing written").keeping_names()


def not_in_books(who: str, session: str, known: set[str],
                 names: Mapping[str, str] | None = None) -> LedgerError:
    """The refusal of a payment naming ``who``, who is none of the names ``known`` in
    ``session``'s books (:func:`replay.sessions.state.in_books`). ``names``: ``{platform
    id: name}`` (:func:`ledger.store.streams.platform_names`): a player known by an id is
    listed once, ``Name (id)``, not his id and his name apart."""
    players = players_listed(known, names or {})
    listed = ", ".join(players) or "nobody yet"
    close = likely_meant(who, sorted(known))
    meant = f"did you mean {' or '.join(close)}? " if close else ""
    if labelled := [p for p in players if p.startswith(f"{who} (")]:
        # an id played under the name, which names another player now (``player alias``)
        meant = (f"{who} names another player now (`player alias`); the id that played as "
                 f"{who} is {' or '.join(labelled)}: ")
    return LedgerError(f"{who} is not in the books of session {session} (no buy-in, "
                       f"cash-out or hand there; its players: {listed}): {meant}a "
                       "payment settles a session between its players (and "
                       f"'{HOUSE_WORD}' names the house, who keeps the rake; "
                       f"'{BANK_WORD}' the bank, who holds the buy-ins)").keeping_names()


def beyond_owed(ledger: Any, session: str, state: SessionState, by: str | None,
                to: str | None, minor: int, where: str, *, replacing: int = 0
                ) -> LedgerError | None:
    """Why a payment of ``minor`` units from ``by`` to ``to`` (None: the house) in
    ``session`` is more than is owed, the refusal ``pay`` gives without ``--more-than-owed``
    (and a payment so recorded is marked ``more_than_owed``), or None when it is not:
    beyond what the payer still owes as ``settle`` reckons it (:func:`within_owed`), or,
    while settle cannot say, beyond his buy-ins with what he paid already
    (:func:`within_buy_ins`), or beyond what the house is owed or was paid
    (:func:`within_house`). ``replacing``: the amount of the payment an amendment replaces."""
    try:
        if by is not None and not within_owed(ledger, session, state, by, minor, where,
                                              replacing=replacing):
            within_buy_ins(ledger, session, state, by, minor, where, "",
                           before=paid_by(ledger, state, by, replacing))
        if None in (by, to):
            within_house(ledger, session, state, minor, where, paying=by is None,
                         replacing=replacing)
    except LedgerError as exc:
        return exc
    return None


def within_house(ledger: Any, session: str, state: SessionState, minor: int, where: str, *,
                 paying: bool, replacing: int = 0,
                 payments: Sequence[tuple[str | None, str | None, int]] | None = None,
                 rake_shift: int = 0) -> None:
    """Refuse a payment of ``minor`` units to the house (``paying`` False) beyond what it is
    still owed in ``session`` — the rake its ended hands took, in money, less what it was
    paid, plus what it paid back (:func:`ledger.audit.settlement.house_books`) — or from it
    (``paying``) beyond what it was paid above that; ``replacing``: the amount of the payment
    an amendment replaces; ``payments``: the payments to count, ``(payer, payee, minor)``
    (a file's row: those before it), instead of the derived tables'; ``rake_shift``: minor
    units to add to the rake the derived tables count (a file's row: the rake as it stood at
    its place, hands corrected after it). The derived tables are caught up first.

    Raises:
        LedgerError: one line naming ``where``, the amount, the rake and the house's payments.
    """
    from ledger.audit.settlement import house_books
    from replay.projections import catch_up

    catch_up(ledger)
    house = house_books(ledger.connection, session)
    house["rake_minor"] += rake_shift
    if payments is not None:
        house["received_minor"] = sum(m for _, to, m in payments if to is None)
        house["paid_minor"] = sum(m for by, _, m in payments if by is None)
    owed = house["rake_minor"] - house["received_minor"] + house["paid_minor"]
    owed += -replacing if paying else replacing
    can = max(0, -owed if paying else owed)
    if minor <= can:
        return
    rake = (f"the rake its hands took is {state.money(house['rake_minor'])}, the house was "
            f"paid {state.money(house['received_minor'])} and paid back "
            f"{state.money(house['paid_minor'])}")
    what = (f"is more than the house was paid beyond the rake in {session} "
            f"({state.money(can)}: {rake})" if paying else
            f"is more than the house is still owed in {session} ({state.money(can)}: {rake})")
    raise LedgerError(f"{where}: {state.money(minor)} {what}; nothing written (`handledger "
                      f"settle --session {shell_arg(session)}` says who pays whom); "
                      "--more-than-owed "
                      "records it anyway")


def within_buy_ins(ledger: Any, session: str, state: SessionState, payer: str, minor: int,
                    where: str, text: str, *, before: int = 0) -> None:
    """Refuse a payment of ``minor`` units by ``payer`` that, with ``before`` (what he paid in
    ``session`` already, :func:`paid_by`; 0: the payment alone), is larger than he can owe
    there: his own buy-ins there in money (the chip value × every chip he bought so far,
    under any alias) plus what he was paid there (an overpayment handed back). A player loses
    at most the chips he put on the table (table stakes, RULES.md §1.1), and ``settle`` has a
    loser pay at most what he lost (:mod:`ledger.audit.settle`), so a payment larger alone is
    refused, and said to be chips written where money is meant only when ``text`` (the
    amount as typed; "" for a file's row or a sum of payments) is a whole number of at most
    his chips (1 chip = 0.25 USD: ``150`` for 150 chips is 150.00 USD); ``75.00`` is money
    as typed, refused as more than he put on the table. Not checked while the buy-ins do
    not account for every chip: a session without buy-ins, or a hand seating a player who
    has none (an alias of one counts as him).

    Raises:
        MalformedInput: one line naming ``where`` (the command as typed up to the amount:
            the session and the payer), the amount, what he paid already, the payer's
            buy-ins in chips and money and, for a whole number of at most his chips, what
            it is as chips; then what to record first.
    """
    bought = {p for p, chips in state.chips_in.items() if chips}
    if not bought:
        return
    group = alias_group(ledger, payer)
    chips = sum(state.chips_in.get(p, 0) for p in group)
    received = sum(paid for _, payee, paid in state.payments if payee in group)
    if minor + before <= chips * state.chip_value_minor + received:
        return
    if chips_from_outside(ledger, session, bought):
        return
    paid_him = f", and {state.money(received)} paid to {payer}" if received else ""
    with_before = f", with the {state.money(before)} {payer} paid already," if before else ""
    said = (f"{where}: {state.money(minor)}{with_before} is more than {payer}'s buy-ins in "
            f"{session} ")
    if before or state.chip_value_minor == 10 ** state.decimals:  # chips are money, or the
        worth = ("" if state.chip_value_minor == 10 ** state.decimals  # payments together
                 else f", {state.money(chips * state.chip_value_minor)}")
        raise MalformedInput(f"{said}({chips} chips{worth}{paid_him}): nobody pays more than "
                             "the chips put on the table; a buy-in missing from the books is "
                             "recorded first" + ("; --more-than-owed records it anyway" if before
                                        else ""))
    worth = f"{chips} chips, {state.money(chips * state.chip_value_minor)}{paid_him}"
    if not (text.isdigit() and int(text) <= chips):  # money as typed (75.00), or no chips
        raise MalformedInput(f"{said}({worth}): nobody pays more than the chips put on the "
                             "table; a buy-in missing from the books is recorded first")
    raise MalformedInput(
        f"{said}({worth}): a payment is money, not chips (1 chip is "
        f"{state.money(state.chip_value_minor)}; {int(text)} chips are "
        f"{state.money(int(text) * state.chip_value_minor)}); a buy-in missing from the books "
        "is recorded first")


def paid_by(ledger: Any, state: SessionState, payer: str, replacing: int = 0) -> int:
    """What ``payer`` (under any alias) paid in the session ``state`` describes, minor units,
    less ``replacing`` (the amount of a payment an amendment replaces)."""
    group = alias_group(ledger, payer)
    return sum(paid for by, _, paid in state.payments if by in group) - replacing


def within_owed(ledger: Any, session: str, state: SessionState, payer: str, minor: int,
                where: str, *, replacing: int = 0, books: Sequence[dict[str, Any]] | None = None,
                payments: Sequence[tuple[str | None, str | None, int]] | None = None) -> bool:
    """Refuse a payment of ``minor`` units by ``payer`` beyond what he still owes in
    ``session`` as ``settle`` reckons it (:func:`ledger.audit.settlement.settlement`, README
    "sessions and the books"): his net in money, less what he paid there, plus what he was
    paid there (under any alias; less ``replacing``, the amount of the payment an amendment
    replaces), when below zero. The derived tables are caught up in ``ledger`` (open for
    writing) first. Returns whether it was checked: not while settle cannot say (a hand of
    the session still in play, nets that do not sum to zero, a hand the rules refuse), when
    :func:`within_buy_ins` bounds the payments together instead. A session with no hand
    yet (buy-ins and cash-outs only) is one settle can say of: its nets are 0 (settle goes
    by the hands), so nobody owes anything but what he was paid (not yet so for a file's
    row, ``books`` given: no hand there, its buy-ins bound it). ``books``: the players'
    rows of :func:`ledger.audit.settlement.settlement`'s balances, read already (then settle is
    taken to say, and nothing is caught up); ``payments``: the payments to count,
    ``(payer, payee, minor)`` (a file's row: those before it), instead of the books'.

    Raises:
        LedgerError: one line naming ``where``, the amount, what the payer still owes, his
            net and his payments made and received.
    """
    from ledger.audit.settlement import settlement
    from replay.projections import catch_up

    if books is None:
        try:
            catch_up(ledger)
            books = settlement(ledger.connection, session)[1].players
        except LedgerError as exc:
            ledger.aborted_by(exc)  # a database error inside a write: never passed over
            return False
    elif not any(p["hands"] for p in books):  # a file's row with no hand of its session
        return False  # stored: left to its buy-ins (replay/ingest/book_rules.py)
    group = alias_group(ledger, payer)
    mine = [p for p in books if p["player"] in group]
    net = sum(int(p["net"]) for p in mine)
    if payments is None:
        paid = sum(int(p["paid_minor"]) for p in mine) - replacing
        received = sum(int(p["received_minor"]) for p in mine)
    else:
        paid = sum(m for by, _, m in payments if by in group) - replacing
        received = sum(m for _, to, m in payments if to in group)
    owes = max(0, -(net + paid - received))
    if minor <= owes:
        return True
    result = (f"lost {state.money(-net)}" if net < 0 else f"won {state.money(net)}" if net
              else "broke even")
    raise LedgerError(
        f"{where}: {state.money(minor)} is more than {payer} still owes in {session} "
        f"({state.money(owes)}: {payer} {result}, paid {state.money(paid)}, received "
        f"{state.money(received)}); nothing written (`handledger settle --session "
        f"{shell_arg(session)}` "
        "says who pays whom); --more-than-owed records it anyway")


def players_listed(known: set[str], names: Mapping[str, str]) -> list[str]:
    """The names ``known`` in a session's books, sorted, each player once: one known by a
    platform id (``names``: id → name, both in ``known``) as ``"Name (id)"``."""
    ids = {pid: name for pid, name in names.items() if pid in known and name != pid}
    aliases = set(ids.values())
    return sorted(f"{ids[n]} ({n})" if n in ids else n for n in known
                  if n in ids or n not in aliases)
