"""Text of the books, for people: balances (a table per chip unit, the rake, the nets that do
not sum to zero, the hands in progress), standings and settle-up. Pure functions from what
the layers below return to strings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ledger.audit.seat_labels import seat_label_note
from ledger.model.money import format_money
from ledger.model.shell import shell_arg


def balances_text(books: Any, names: Callable[[str], str] = str) -> str:
    """A table: player (``nickname (id)`` when he has a PokerNow nickname), net, buy-in,
    cash-out, hands, sessions (``books``: :class:`ledger.audit.player_balances.Balances`). When the
    sessions count chips of different values, a table per chip unit under a line naming it
    and its sessions (``chips of 0.25 USD (s01, s02):``), and a note saying why. ``names``
    renames the platform ids in the note of a hand in progress (:class:`cli.names.Names`:
    the table names each player ``nickname (id)`` already). Chips of one value that is a
    fraction of a chip of no currency are named as well, on a line above the table
    (:func:`one_unit_line`)."""
    from ledger.audit.money_units import chips_of

    if not books.mixed:
        return "\n".join([*one_unit_line(books.chip_unit),
                          *_balances_table(books.players, books.unit),
                          *sum_notes(books.rake, books.unbalanced, books.unit[1]),
                          *(c["note"] for c in books.corrected_late),
                          *seat_label_note(books.seat_labels),
                          *map(names, in_progress_lines(books.in_progress))])
    lines = []
    for i, u in enumerate(books.units):
        unit = (u["chip_value_minor"], u["decimals"], u["currency"])
        rows = sorted(({**p, **p["by_unit"][i]} for p in books.players if p["by_unit"][i]),
                      key=lambda p: (-p["net"], p["player"]))
        named = ", ".join(s or "no session" for s in u["sessions"])
        lines.append(f"{chips_of(unit)} ({named}):")
        lines.extend(_balances_table(rows, (0, None)))
    lines.extend(sum_notes(books.rake, books.unbalanced))
    lines.extend(c["note"] for c in books.corrected_late)
    lines.append(chip_units_note(books.units, "table", "balances"))
    lines.extend(seat_label_note(books.seat_labels))
    lines.extend(map(names, in_progress_lines(books.in_progress)))
    return "\n".join(lines)


def one_unit_line(unit: dict[str, Any] | None) -> list[str]:
    """The line above a table of the books counting chips of ``unit`` alone (a dict with
    ``chip_value_minor``, ``decimals``, ``currency``, ``sessions``: see
    :func:`ledger.audit.player_balances.fractional_unit`), naming it as a table of several units is
    headed: ``chips of 0.1 (no session):`` for hands of no session in fractional plain chips,
    kept in tenths (10 = 1.0); [] for None."""
    from ledger.audit.money_units import chips_of

    if unit is None:
        return []
    named = ", ".join(s or "no session" for s in unit["sessions"])
    return [f"{chips_of((unit['chip_value_minor'], unit['decimals'], unit['currency']))}"
            f" ({named}):"]


def sum_notes(rake: list[dict[str, Any]], sums: list[dict[str, Any]],
              currency: str | None = None) -> list[str]:
    """Why the players' nets do not sum to zero, as ``balances``, ``standings`` and the
    report say it: a line per session and chip unit whose hands were raked
    (:func:`rake_lines`, ``currency`` as it takes it), then a note per unit whose nets do
    not sum to zero (``sums``: :func:`unbalanced_lines`), saying when it is that rake.
    docs/BOOKS.md "net has one meaning"."""
    return [*rake_lines(rake, currency), *unbalanced_lines(sums, rake)]


def rake_lines(rake: list[dict[str, Any]], currency: str | None = None) -> list[str]:
    """A line per session and chip unit whose hands were raked
    (:func:`ledger.audit.player_balances.rake_taken`): the chips the table took, which left the
    players' nets; chips of another value than a plain chip outside sessions are named
    (``5 chips of 0.1``), never added to others. ``currency``: the money the table beside it
    counts in (``balances --money``; None: chips): a rake of chips worth it is given in that
    money first (``rake: 5.50 USD (550 chips) taken from …``), as the nets it left are."""
    from ledger.audit.money_units import chip_unit_text

    def of(r: dict[str, Any]) -> str:
        unit = (r["chip_value_minor"], r["decimals"], r["currency"])
        return "" if r["session"] is not None or unit == (1, 0, None) else (
            f" of {chip_unit_text(unit)}")

    def taken(r: dict[str, Any]) -> str:
        chips = f"{r['chips']} chip{'s' if r['chips'] != 1 else ''}{of(r)}"
        if currency is None or r["currency"] != currency:
            return chips
        worth = format_money(r["chips"] * r["chip_value_minor"], r["decimals"], currency)
        return f"{worth} ({chips})"

    return [f"rake: {taken(r)} taken from the pots "
            + (f"in session {r['session']}" if r["session"] is not None else "outside sessions")
            + f" ({r['hands']} hand{'s' if r['hands'] != 1 else ''})" for r in rake]


def _raked(rake: Sequence[dict[str, Any]], u: dict[str, Any]) -> int:
    """The rake of ``rake`` (:func:`ledger.audit.player_balances.rake_taken`'s rows) in the
    unit of ``u`` (an :func:`ledger.audit.player_balances.unbalanced` row): chips of its chip
    unit, or minor units of its money (``chip_value_minor`` None)."""
    if u["chip_value_minor"] is None:
        return sum(r["chips"] * r["chip_value_minor"] for r in rake
                   if (r["decimals"], r["currency"]) == (u["decimals"], u["currency"]))
    unit = (u["chip_value_minor"], u["decimals"], u["currency"])
    return sum(r["chips"] for r in rake
               if (r["chip_value_minor"], r["decimals"], r["currency"]) == unit)


def unbalanced_lines(sums: list[dict[str, Any]], rake: Sequence[dict[str, Any]] = ()
                     ) -> list[str]:
    """A note per chip unit whose players' nets do not sum to zero
    (:func:`ledger.audit.player_balances.unbalanced`): by how much, in which unit, and why it
    can be; when the rake the table took (``rake``, the rows of the rake lines above it:
    :func:`ledger.audit.player_balances.rake_taken`) is the whole of it, that it is the rake,
    with no pointer to the audit (a hand paid its pots less the rake is no audit finding:
    docs/LIVE.md "A home game's rake")."""
    from ledger.audit.money_units import chip_unit_text

    out = []
    for u in sums:
        if u["chip_value_minor"] is None:  # money
            said = format_money(u["net_sum"], u["decimals"], u["currency"])
        else:
            unit = (u["chip_value_minor"], u["decimals"], u["currency"])
            said = f"{u['net_sum']:+d} chips" + ("" if unit == (1, 0, None) else
                                                  f" of {chip_unit_text(unit)}")
        carried = u.get("carried", 0)
        if carried and carried == -u["net_sum"]:
            out.append(f"note: the players' nets sum to {said}, not 0: chips carried to the "
                       f"session's next hand ({_rule(u)}), counted once the hand "
                       "that takes them ends; `handledger state HAND` names them")
            continue
        if not carried and u["net_sum"] < 0 and -u["net_sum"] == _raked(rake, u):
            out.append(f"note: the players' nets sum to {said}, not 0: the rake the table took "
                       "(above)")
            continue
        aside = ""
        if carried:
            many = (format_money(carried, u["decimals"], u["currency"])
                    if u["chip_value_minor"] is None else f"{carried} chips")
            aside = f"{many} of them carried to the session's next hand, the rest "
        out.append(f"note: the players' nets sum to {said}, not 0: {aside}chips the table kept "
                   "or paid to nobody (a rake, a hand paid short) or paid beyond the pot; "
                   "`handledger audit` names the hands")
    return out


def _balances_table(players: list[dict[str, Any]], unit: tuple[int, str | None]) -> list[str]:
    """The lines of one balances table: a header and a row per player, in ``unit``."""
    decimals, currency = unit

    def fmt(v: int) -> str:
        return format_money(v, decimals, None)

    names = [f"{p['nickname']} ({p['player']})" if p.get("nickname") else p["player"]
             for p in players]
    width = max([14, *map(len, names)])
    rules = any(p["rules_net"] != p["net"] for p in players)  # shown only where they differ
    head = (f"{'player':<{width}} {'net':>12} {'buy-in':>12} {'cash-out':>12} {'hands':>6} "
            "sessions" + ("    by the rules" if rules else ""))
    lines = [head + (f"   ({currency})" if currency else "")]
    for name, p in zip(names, players, strict=True):
        differs = rules and p["rules_net"] != p["net"]
        lines.append(f"{name:<{width}} {fmt(p['net']):>12} {fmt(p['buy_in']):>12} "
                     f"{fmt(p['cash_out']):>12} {p['hands']:>6} {p['sessions']:>8}"
                     + (f" {fmt(p['rules_net']):>16}" if differs else ""))
    return lines


def chip_units_note(units: list[dict[str, Any]], each: str, command: str) -> str:
    """The note under a read whose sessions count chips of different values (``units`` as
    :class:`ledger.audit.standings_grid.Standings` gives them): each session's chip value, that they
    do not add up so each value has its own ``each`` (total, table), and whether
    ``handledger COMMAND --money`` adds them up (one currency and decimals) or not."""
    from ledger.audit.money_units import chip_units_worth

    worth = chip_units_worth(units)
    plain = any(u["currency"] is None and u["decimals"] == 0 and u["chip_value_minor"] == 1
                for u in units)
    named = any(n is not None for u in units for n in u["sessions"] or [None])
    one = (" (`handledger balances --session S --money` reads one session's)" if named else
           "")  # hands of no session: no --session reads them apart
    money = (f"`handledger {command} --money` adds them up in money"
             if len({(u["decimals"], u["currency"]) for u in units}) == 1 else
             f"and plain chips have no money value, so money does not add up either{one}"
             if plain else
             "and their money is of different currencies or decimals, so it does not "
             f"add up either{one}")
    return (f"note: the {'sessions' if named else 'hands read'} count chips of different "
            f"values ({worth}): they do not add "
            f"up, so each value has its own {each}; {money}")


def in_progress_lines(hands: list[dict[str, Any]]) -> list[str]:
    """A note per hand still in progress (:func:`ledger.audit.player_balances.open_hands`): its
    chips in the pot count as put in, no payout counted until it ends, so the nets are not final."""
    out = []
    for h in hands:
        where = f" of session {h['session']}" if h["session"] else ""
        chips = ", ".join(f"{p} {c}" for p, c in h["players"].items() if c)
        out.append(f"note: hand {h['hand']}{where} is in progress (not ended): the "
                   f"{h['pot']} chips in its pot so far ({chips}) count as put in, no "
                   "payout counted until it ends; the nets are final once it ends "
                   f"(`handledger act {shell_arg(h['hand'])} end`) or is voided")
    return out


def settle_text(transfers: list[tuple[str | None, str | None, str | None, int]], books: Any,
                session: str | None = None, waiting: int = 0,
                bank: Sequence[tuple[str, str, int]] = (),
                bank_paid: Sequence[tuple[str, str, int]] = (), *, refused: int = 0) -> str:
    """``Bob pays Ann 37.50 USD`` per transfer ``(session, from, to, amount)`` still to make
    (``Cy pays the house 2.50 USD``: None is the house, who keeps the rake; ``Bob pays Ann 3
    chips`` when every session settled counts plain chips, ``books.plain``), ``… in session
    fri`` when the whole ledger is settled and it holds the books of more than one session
    (``books.books_apart``: each settled among its own players; ``… in hands of no session``,
    which no ``pay`` records), and a count line, which also says what was paid already (when
    some were paid back or passed on, what the payments recorded add up to as well:
    ``payments recorded 75.00 USD, net 25.00 USD paid already: the rest paid back or passed
    on``); with a transfer of the house, a line saying what it is owed and how a payment
    to it is recorded (in a session: the rake of hands of no session has none to name, and
    the line says so), and, when it pays back what it was paid beyond the rake, the ``pay``
    that records each payment back (``handledger pay g rake Bob 2.00``; docs/LIVE.md "settle").
    ``session``: the session settled (``settle --session``), None for the whole ledger.
    ``waiting``: how many sessions were left unsettled, a hand of each still in progress
    (their lines follow, :func:`waiting_lines`): with no transfer, the count line says the
    others are settled (``settled but for the session below: nobody owes anybody``), or, when no
    player is left to settle, that nothing is settled yet, never ``settled`` alone.
    ``refused``: how many sessions were left unsettled, settling each alone refused (their
    lines follow those, :func:`refused_lines`), counted as ``waiting`` is.
    ``bank``: ``(session, player, amount)`` per player owing the bank (negative: owed by it)
    chips a correction after the chips moved on left in no net (:func:`bank_lines`), a line
    each after the transfers; the count line then never says that nobody owes anybody.
    ``bank_paid``: ``(session, player, amount)`` what the payments recorded with the bank
    come to (positive: the player paid it), said after the count line's words
    (:func:`bank_paid_words`: ``; 5.00 USD paid to the bank``)."""
    decimals, currency = books.unit

    def who(name: str | None) -> str:
        return "the house" if name is None else name

    def money(n: int) -> str:  # sessions of no chip value count plain chips: ``3 chips``
        return (f"{n} chip{'s' * (n != 1)}" if books.plain else
                format_money(n, decimals, currency))

    def where(name: str | None) -> str:
        if session is not None or books.books_apart < 2:
            return ""
        return f" in session {name}" if name is not None else " in hands of no session"

    lines = [f"{who(a)} pays {who(b)} {money(n)}{where(s)}" for s, a, b, n in transfers]
    lines.extend(bank_lines(bank, money, where))
    paid, in_all = books.paid_already, books.paid_in_all
    before = f" ({money(paid)} paid already)" if paid else ""
    if in_all != paid:  # some paid back or passed on: their total is not what settled
        before = (f" (payments recorded {money(in_all)}, net {money(paid)} paid already: "
                  "the rest paid back or passed on)")
    house = any(None in (a, b) for _, a, b, _ in transfers)
    lines.append(_count_line(len(transfers), len(books.players), house, waiting, len(bank),
                             refused) + before + bank_paid_words(bank_paid, money))
    if house:
        raked = [r for r in books.rake if r["chips"]]
        where = ", ".join(f"{r['chips']} chip{'s' * (r['chips'] != 1)} in "
                          + (f"session {r['session']}" if r["session"]
                             else "hands of no session") for r in raked)
        one = session or (raked[0]["session"] if len(raked) == 1 and raked[0]["session"]
                          else "SESSION")
        pay = f"`handledger pay {shell_arg(one)} PLAYER rake AMOUNT` records a payment to it"
        if raked and all(r["session"] is None for r in raked):
            pay = ("`handledger pay SESSION PLAYER rake AMOUNT` records a payment to it in a "
                   "session; hands of no session have none to name")
        back = [f"`handledger pay {shell_arg(s or one)} rake {shell_arg(b)} "
                f"{shell_arg(format_money(n, decimals, None))}`"
                for s, a, b, n in transfers if a is None and b is not None]
        if back and any(b is None for _, _, b, _ in transfers):  # paid and pays back
            pay += f"; {', '.join(back)} records its payment back"
        elif back:  # the house was paid beyond the rake: it pays the rest back
            pay = f"{', '.join(back)} records its payment back"
        units = {r["session"]: r for r in raked}
        never = [s for s in books.unopened if s in units]
        if len(never) == 1:  # `pay` records a payment in an opened session only
            pay += (f" once the session is opened (`{opening(units[never[0]])}`: it "
                    "was never opened, its hands read from a file)")
        elif never:
            each = ", ".join(f"`{opening(units[s])}`" for s in never)
            pay += (f" once its session is opened ({each}: {', '.join(never)} were never "
                    "opened, their hands read from files)")
        if any(r["session"] is None for r in raked) and any(r["session"] for r in raked):
            pay += " (hands of no session have none to name)"
        lines.append(
            f"the house: whoever keeps the rake the table took, "
            f"{money(books.house['rake_minor'])}"
            + (f" ({where})" if where else "") + f"; {pay}")
    return "\n".join(lines)


def waiting_lines(waiting: list[dict[str, Any]]) -> list[str]:
    """A line per session ``settle`` left unsettled (``{"session", "hand", "in_progress"}``:
    :func:`ledger.audit.settlement.waiting_sessions`), naming its first hand still in
    progress: ``session s: not settled yet: hand h1 is still in progress (not ended): …``."""
    out = []
    for w in waiting:
        more = w["in_progress"] - 1
        out.append(f"session {w['session']}: not settled yet: hand {w['hand']} is still in "
                   "progress (not ended)"
                   + (f" (and {more} more hand{'s' if more > 1 else ''})" if more else "")
                   + f": its pot is paid when it ends (`handledger act {shell_arg(w['hand'])} "
                     "end`) or "
                   "is voided; then run `handledger settle` again")
    return out


def refused_lines(refused: list[dict[str, str]]) -> str:
    """A line per session ``settle`` left unsettled because settling it alone is refused
    (``{"session", "error"}``: :func:`replay.books.settle`'s ``refused``), the error ``settle
    --session`` gives of it: ``session s: not settled: Ann lost 200 chips …``; one string,
    empty for none."""
    return "\n".join(f"session {r['session']}: not settled: "
                     + r["error"].removeprefix("cannot settle: ") for r in refused)


def bank_lines(bank: Sequence[tuple[str, str, int]], money: Callable[[int], str],
               where: Callable[[str | None], str]) -> list[str]:
    """A line per ``(session, player, amount)`` of ``bank`` (minor units, ``money`` says
    them; ``where`` the session's words): what a player pays the bank, or the bank pays him
    (negative), of the chips a correction after the chips moved on left in no player's net
    (docs/CORRECTIONS.md "A correction after the chips moved on"): ``Ann pays the bank 5.00
    USD: chips Ann had at the table beyond the books, in no player's net``."""
    return [f"{p} pays the bank {money(n)}{where(s)}: chips {p} had at the table beyond the "
            "books, in no player's net" if n > 0 else
            f"the bank pays {p} {money(-n)}{where(s)}: chips the books give {p} beyond those "
            f"{p} had at the table, in no player's net" for s, p, n in bank]


def bank_paid_words(paid: Sequence[tuple[str, str, int]], money: Callable[[int], str]
                    ) -> str:
    """What ``settle``'s count line adds of the payments recorded with the bank, ``paid``
    ``(session, player, amount)`` per player (minor units; positive: he paid the bank):
    ``; 5.00 USD paid to the bank``, ``; 1.00 USD paid by the bank``, both when both; ""
    when none."""
    to = sum(n for _, _, n in paid if n > 0)
    by = -sum(n for _, _, n in paid if n < 0)
    said = [f"; {money(to)} paid to the bank"] * bool(to)
    return "".join([*said, *[f"; {money(by)} paid by the bank"] * bool(by)])


def _count_line(transfers: int, players: int, house: bool, waiting: int, bank: int = 0,
                refused: int = 0) -> str:
    """``settle``'s count line (:func:`settle_text`) but for what was paid already: the
    transfers and whom they settle, or that nobody owes anybody, but for the ``waiting``
    sessions when some were left unsettled, or that nothing is settled yet when they held
    every player; ``bank``: how many lines with the bank stand above (then somebody owes:
    ``no transfer between the players; 1 with the bank``); ``refused``: how many sessions
    were left unsettled, settling each alone refused."""
    waiting += refused
    with_bank = f"; {bank} with the bank" if bank else ""
    if transfers:
        return (f"{transfers} transfer(s) settle {players} player(s)"
                f"{' and the house' if house else ''}{with_bank}")
    if bank:
        return f"no transfer between the players{with_bank}"
    if waiting and not players:
        return ("nothing settled yet: every session read has a hand still in progress"
                if not refused else "nothing settled yet: no session read can be settled now")
    if waiting:
        return f"settled but for the session{'s' * (waiting > 1)} below: nobody owes anybody"
    return "settled: nobody owes anybody"


def settle_each_text(blocks: list[tuple[str, list[Any], Any]], loose: int,
                     bank: Sequence[tuple[str, str, int]] = (),
                     bank_paid: Sequence[tuple[str, str, int]] = ()) -> str:
    """``settle`` of a ledger whose sessions count money of different units: a block per
    session, under ``session s01:``, each in its own unit as ``settle --session`` gives it
    (:func:`settle_text`), then a line on the ``loose`` hands of no session, which no ``pay``
    records and no session's money counts: not settled here (docs/LIVE.md "settle");
    ``bank`` and ``bank_paid`` as :func:`settle_text`'s, each in its session's block."""
    out = []
    for name, transfers, books in blocks:
        out += [f"session {name}:",
                settle_text([(name, a, b, n) for a, b, n in transfers], books, name,
                            bank=[b for b in bank if b[0] == name],
                            bank_paid=[b for b in bank_paid if b[0] == name])]
    if loose:
        out.append(f"hands of no session ({loose} hand(s)): not settled: no `pay` records "
                   "them, and no session's books hold them (`handledger balances` without "
                   "--money gives their table)")
    return "\n".join(out)


def opening(unit: dict[str, Any]) -> str:
    """The ``session open`` of a session never opened whose hands count chips of ``unit``
    (``{"session", "chip_value_minor", "decimals", "currency"}``, as ``rake_taken`` gives it):
    at their chip's worth, so that the opening keeps what their amounts are worth and is not
    refused (README "sessions and the books": ``session open`` of a session holding hands in
    money takes only their chip's worth). ``handledger session open fri --chip-value 0.01
    --currency USD``; plain chips: ``handledger session open fri``."""
    from ledger.model.money import minor_units

    command = f"handledger session open {unit['session']}"
    value, decimals, currency = unit["chip_value_minor"], unit["decimals"], unit["currency"]
    if currency is None and (value, decimals) == (1, 0):
        return command
    command += f" --chip-value {format_money(value, decimals, None)}"
    if currency is not None:
        command += f" --currency {currency}"
        if minor_units(currency) != decimals:
            command += f" --decimals {decimals}"
    return command


def standings_text(grid: Any) -> str:
    """The standings grid: a row per player (most won first), a column per session, the
    total; a last row of session totals (zero when the books balance), the seats of files that
    name no player counted in it, on a row of their own above it (``(seat labels)``: not a
    player, :mod:`ledger.audit.seat_labels`). When the sessions count
    chips of different values, a total column per chip unit (``total 0.25 USD``) and a note
    saying why (``grid``: :class:`ledger.audit.standings_grid.Standings`), and one when a total
    adds plain chips of hands of no session to a session's (:func:`plain_total_note`); the rake
    the table took and why a sum is not zero, as ``balances`` says it (:func:`grid_sum_notes`);
    a note for chips carried to a session's next hand that no ended hand holds yet, which the
    sum row lacks, giving the sum row's own figure and what makes it up
    (:func:`carried_sum_lines`). Chips of one value that is a fraction of a chip of no
    currency are named on a line above the grid (:func:`one_unit_line`)."""
    from ledger.audit.money_units import chip_unit_text
    from ledger.audit.player_balances import fractional_unit

    decimals, currency = grid.unit

    def fmt(v: int | None) -> str:
        return "" if v is None else format_money(v, decimals, None)

    heads = [s["session"] or "(no session)" if "unit" not in s else
             f"(no session, {chip_unit_text(tuple(s['unit'].values()))})"  # type: ignore[arg-type]
             for s in grid.sessions]
    keys = [grid.column_key(s) for s in grid.sessions]
    names = [f"{p['nickname']} ({p['player']})" if p.get("nickname") else p["player"]
             for p in grid.players]
    units = [(u["chip_value_minor"], u["decimals"], u["currency"]) for u in grid.units]
    totals = ([f"total {chip_unit_text(u)}" for u in units] if grid.mixed else ["total"])
    width = max([10, *map(len, names), *([13] if grid.seat_label_nets else [])])
    cols = [max(10, len(h)) for h in heads]
    tcols = [max(12, len(t)) for t in totals]

    def row(first: str, cells: list[str], sums: list[str]) -> str:
        return (f"{first:<{width}} " + " ".join(f"{c:>{w}}" for c, w in zip(cells, cols,
                                                                           strict=True))
                + "".join(f" {t:>{w}}" for t, w in zip(sums, tcols, strict=True)))

    lines = [*([] if grid.mixed else one_unit_line(fractional_unit(grid.units))),
             row("player", heads, totals) + (f"   ({currency})" if currency else "")]
    for name, p in zip(names, grid.players, strict=True):
        cells = [fmt(p["nets"].get(k)) for k in keys]
        lines.append(row(name, cells, [fmt(t) for t in p.get("totals") or [p["total"]]]))
    seats = grid.seat_label_nets
    if seats:  # not a player: the seats of files that name no player, added up
        lines.append(row("(seat labels)", [fmt(seats["nets"].get(k)) for k in keys],
                         [fmt(t) for t in seats.get("totals") or [seats["total"]]]))
    lines.append(row("(sum)", [fmt(v) for v in grid.column_sums()],
                     [fmt(v) for v in grid.unit_sums()]))
    lines.extend(grid_sum_notes(grid))
    if grid.mixed:
        lines.append(chip_units_note(grid.units, "total", "standings"))
    lines.extend(plain_total_note(grid.plain_beside_loose(),
                                  "total chips" if grid.mixed else "total"))
    lines.extend(seat_label_note(grid.seat_labels, summed="row"))
    lines.extend(in_progress_lines(grid.in_progress))
    lines.extend(carried_sum_lines(grid))
    return "\n".join(lines)


def plain_total_note(sessions: list[str], column: str) -> list[str]:
    """The note under the standings when ``column`` (its total of plain chips) adds the plain
    chips of hands of no session to those of ``sessions`` (named in order;
    :meth:`ledger.audit.standings_grid.Standings.plain_beside_loose`): neither records what a
    chip is worth, so the ledger cannot tell whether they are worth the same; [] when there
    are none."""
    if not sessions:
        return []
    return [f"note: `{column}` adds the plain chips of hands of no session to those of "
            f"session{'s' if len(sessions) > 1 else ''} {', '.join(sessions)}, though none "
            "of them records what a chip is worth: the ledger cannot tell whether they are "
            "worth the same (a tournament's chips are no cash game's), so read their columns "
            "apart, or give each session's chip its worth (`handledger session set S "
            "--chip-value V --currency C`)"]


def grid_sum_notes(grid: Any) -> list[str]:
    """The rake the table took and why a sum of the standings (``grid``:
    :class:`ledger.audit.standings_grid.Standings`) is not zero, as ``balances`` says it
    (:func:`sum_notes`), but for the units holding chips carried to a session's next hand,
    which :func:`carried_sum_lines` explains."""
    return sum_notes(grid.rake, [u for u in grid.unbalanced if not u.get("carried")],
                     grid.unit[1])


def carried_sum_lines(grid: Any) -> list[str]:
    """The note per chip unit whose ``(sum)`` row of the standings (``grid``:
    :class:`ledger.audit.standings_grid.Standings`, its ``unbalanced`` rows with ``carried``
    as :func:`replay.books.standings` sets them) holds chips carried to a session's next hand
    that no ended hand holds yet (RULES.md §2.2, §3.8, §7.1): the figure of the row itself, and what
    it is made of: the chips carried, the chips in the pots of hands in progress (counted as
    put in, the note above), and the rest (the table kept them or paid them to nobody, or paid
    beyond the pot). Chips carried by a closed session's last hand wait for no hand: they are
    owed by nobody, and ``settle`` names the ways. In the row's unit: chips, or minor units
    of its money."""
    sums = grid.unit_sums()
    out = []
    for u in grid.unbalanced:
        carried = u.get("carried", 0)
        if not carried:
            continue
        unit = (u["chip_value_minor"], u["decimals"], u["currency"])
        at = next((i for i, each in enumerate(grid.units) if (
            each["chip_value_minor"], each["decimals"], each["currency"]) == unit), 0)
        shown = sums[at if grid.mixed else 0]
        pots, rest = u["net_sum"] - shown, u["net_sum"] + carried
        why = _carried_why(u.get("closed") or [])
        head = (f"note: the players' nets sum to {_amount(u, shown, True)}, not 0: " if shown
                else f"note: the players' nets sum to {_amount(u, 0)}, but the books do not "
                "balance: ")
        if not pots and not rest:
            out.append(f"{head}chips carried to the session's next hand ({_rule(u)}), {why}")
            continue
        parts = [f"{_amount(u, carried)} of them carried to the session's next hand "
                 f"({_rule(u)}), {why}"]
        if pots:
            parts.append(f"{_amount(u, pots)} in the pots of hands in progress (above), "
                         "counted once they end")
        if rest:
            parts.append(f"the rest, {_amount(u, rest, True)}: chips the table kept or paid "
                         "to nobody (a rake, a hand paid short) or paid beyond the pot; "
                         "`handledger audit` names the hands")
        out.append(head + "; ".join(parts))
    return out


def _amount(u: dict[str, Any], n: int, sign: bool = False) -> str:
    """``n`` in the unit of ``u`` (an :func:`ledger.audit.player_balances.unbalanced` row):
    money (``chip_value_minor`` None: ``-0.25 USD``) or chips (``-4 chips``, ``1 chip of
    0.25 USD``); ``sign``: with its sign."""
    from ledger.audit.money_units import chip_unit_text

    if u["chip_value_minor"] is None:
        return format_money(n, u["decimals"], u["currency"])
    unit = (u["chip_value_minor"], u["decimals"], u["currency"])
    return ((f"{n:+d}" if sign else f"{n}") + (" chips" if sign or n != 1 else " chip")
            + ("" if unit == (1, 0, None) else f" of {chip_unit_text(unit)}"))


def _rule(u: dict[str, Any]) -> str:
    """The RULES.md sections of the rule that carried a unit's chips (``carried_rule``, by
    the carrying hands' options: :func:`replay.books.standings`), either rule's when not
    known."""
    from ledger.model.carry_rules import EITHER

    return u.get("carried_rule") or EITHER


def _carried_why(closed: list[str]) -> str:
    """When chips carried to a session's next hand count: once the hand that takes them ends,
    or never, when the sessions ``closed`` hold them (owed by nobody: ``settle`` names the
    ways)."""
    if len(closed) == 1:
        return (f"owed by nobody: session {closed[0]} is closed and deals no hand that takes "
                f"them (`handledger settle --session {shell_arg(closed[0])}` names the ways)")
    if closed:
        return (f"owed by nobody: sessions {', '.join(closed)} are closed and deal no hand "
                "that takes them (`handledger settle` names the ways)")
    return "counted once the hand that takes them ends; `handledger state HAND` names them"
