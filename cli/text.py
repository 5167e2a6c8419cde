"""Text for people: the audit, balances, settle-up, SQL results, a live hand's state, what-if
and history. Pure functions from what the layers below return to strings."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from ledger.model.money import format_money

#: What a clean audit did not check: the books are the derived tables, caught up from the
#: rows that moved, and no read walks the hash chain (a second of CPU per hundred thousand
#: rows, README "Tampering"): a row edited in place is ``verify``'s to find.
CLEAN_SCOPE = " in the books as stored (the hash chain not checked: `handledger verify`)"


def audit_text(report: Any, found: list[Any], session: str | None = None) -> str:
    """One line per finding, a line naming the incomplete hands, and a summary line, which
    for a clean audit says what it did not check (:data:`CLEAN_SCOPE`) (``report``:
    :class:`ledger.audit.tables.AuditReport`)."""
    lines = [f"{d.kind}: {d.message}" + _where(d) for d in found]
    cut = incomplete_hands(report, session)
    if cut:
        lines.append(f"{len(cut)} incomplete hand(s), the log stopping before their end, "
                     f"counted with every chip returned: {', '.join(cut)}")
    books = [k for k in report.hands if k is not None and session in (None, k)]
    hands = sum(n for k, n in report.hands.items() if session in (None, k))
    scope = f"{hands} hand(s) in {len(books)} session(s)"
    if not found:
        lines.append(f"audit clean: {scope}; every chip adds up{CLEAN_SCOPE}")
    else:
        counts: dict[str, int] = {}
        for d in found:
            counts[d.kind] = counts.get(d.kind, 0) + 1
        kinds = ", ".join(f"{k} {n}" for k, n in counts.items())
        lines.append(f"audit: {len(found)} discrepanc{'y' if len(found) == 1 else 'ies'} in "
                     f"{scope} ({kinds})")
    return "\n".join(lines)


def incomplete_hands(report: Any, session: str | None = None) -> list[str]:
    """Hands whose log stops before their end (settled like a void, net 0: never a
    discrepancy, but named so the nets are read with care)."""
    return [hand for hand, s in report.incomplete if session in (None, s)]


def _where(d: Any) -> str:
    parts = [f"{k} {v}" for k, v in (("session", d.session), ("hand", d.hand),
                                      ("player", d.player)) if v is not None]
    if d.kind in ("in_progress", "signature"):  # no amount to compare (until it ends)
        return f" [{', '.join(parts)}]"
    return f" [{', '.join(parts)}; expected {d.expected}, actual {d.actual}]"


def balances_text(books: Any, names: Callable[[str], str] = str) -> str:
    """A table: player (``nickname (id)`` when he has a PokerNow nickname), net, buy-in,
    cash-out, hands, sessions (``books``: :class:`ledger.audit.player_balances.Balances`). When the
    sessions count chips of different values, a table per chip unit under a line naming it
    and its sessions (``chips of 0.25 USD (s01, s02):``), and a note saying why. ``names``
    renames the platform ids in the note of a hand in progress (:class:`cli.names.Names`:
    the table names each player ``nickname (id)`` already)."""
    from ledger.audit.money_units import chip_unit_text

    if not books.mixed:
        return "\n".join([*_balances_table(books.players, books.unit),
                          *rake_lines(books.rake), *unbalanced_lines(books.unbalanced),
                          *map(names, in_progress_lines(books.in_progress))])
    lines = []
    for i, u in enumerate(books.units):
        unit = (u["chip_value_minor"], u["decimals"], u["currency"])
        rows = sorted(({**p, **p["by_unit"][i]} for p in books.players if p["by_unit"][i]),
                      key=lambda p: (-p["net"], p["player"]))
        named = ", ".join(s or "no session" for s in u["sessions"])
        lines.append(("plain chips" if unit == (1, 0, None) else
                      f"chips of {chip_unit_text(unit)}") + f" ({named}):")
        lines.extend(_balances_table(rows, (0, None)))
    lines.extend(rake_lines(books.rake))
    lines.extend(unbalanced_lines(books.unbalanced))
    lines.append(chip_units_note(books.units, "table", "balances"))
    lines.extend(map(names, in_progress_lines(books.in_progress)))
    return "\n".join(lines)


def rake_lines(rake: list[dict[str, Any]]) -> list[str]:
    """A line per session and chip unit whose hands were raked
    (:func:`ledger.audit.player_balances.rake_taken`): the chips the table took, which left the
    players' nets; chips of another value than a plain chip outside sessions are named
    (``5 chips of 0.1``), never added to others."""
    from ledger.audit.money_units import chip_unit_text

    def of(r: dict[str, Any]) -> str:
        unit = (r["chip_value_minor"], r["decimals"], r["currency"])
        return "" if r["session"] is not None or unit == (1, 0, None) else (
            f" of {chip_unit_text(unit)}")

    return [f"rake: {r['chips']} chip{'s' if r['chips'] != 1 else ''}{of(r)} taken from the pots "
            + (f"in session {r['session']}" if r["session"] is not None else "outside sessions")
            + f" ({r['hands']} hand{'s' if r['hands'] != 1 else ''})" for r in rake]


def unbalanced_lines(sums: list[dict[str, Any]]) -> list[str]:
    """A note per chip unit whose players' nets do not sum to zero
    (:func:`ledger.audit.player_balances.unbalanced`): by how much, in which unit, and why it
    can be."""
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
                       "session's next hand (RULES.md §3.8, §7.1), counted once the hand that "
                       "takes them ends; `handledger state HAND` names them")
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
    chips in the pot count as put in, nothing paid yet, so the nets are not final."""
    out = []
    for h in hands:
        where = f" of session {h['session']}" if h["session"] else ""
        chips = ", ".join(f"{p} {c}" for p, c in h["players"].items() if c)
        out.append(f"note: hand {h['hand']}{where} is in progress (not ended): the "
                   f"{h['pot']} chips in its pot so far ({chips}) count as put in, nothing "
                   f"paid yet; the nets are final once it ends (`handledger act {h['hand']} "
                   "end`) or is voided")
    return out


def settle_text(transfers: list[tuple[str | None, str | None, int]], books: Any,
                session: str | None = None) -> str:
    """``Bob pays Ann 37.50 USD`` per transfer still to make (``Cy pays the house 2.50 USD``:
    None is the house, who keeps the rake) and a count line, which also says what was paid
    already; with a transfer of the house, a line saying what it is owed and how a payment
    to it is recorded (in a session: the rake of hands of no session has none to name, and
    the line says so), and, when it pays back what it was paid beyond the rake, the ``pay``
    that records each payment back (``handledger pay g rake Bob 2.00``; README "settle").
    ``session``: the session settled (``settle --session``), None for the whole ledger."""
    decimals, currency = books.unit

    def who(name: str | None) -> str:
        return "the house" if name is None else name

    lines = [f"{who(a)} pays {who(b)} {format_money(n, decimals, currency)}"
             for a, b, n in transfers]
    paid = books.paid_already
    before = f" ({format_money(paid, decimals, currency)} paid already)" if paid else ""
    house = any(None in (a, b) for a, b, _ in transfers)
    if transfers:
        lines.append(f"{len(transfers)} transfer(s) settle {len(books.players)} "
                     f"player(s){' and the house' if house else ''}{before}")
    else:
        lines.append(f"settled: nobody owes anybody{before}")
    if house:
        raked = [r for r in books.rake if r["chips"]]
        where = ", ".join(f"{r['chips']} chip{'s' * (r['chips'] != 1)} in "
                          + (f"session {r['session']}" if r["session"]
                             else "hands of no session") for r in raked)
        one = session or (raked[0]["session"] if len(raked) == 1 and raked[0]["session"]
                          else "SESSION")
        pay = f"`handledger pay {one} PLAYER rake AMOUNT` records a payment to it"
        if raked and all(r["session"] is None for r in raked):
            pay = ("`handledger pay SESSION PLAYER rake AMOUNT` records a payment to it in a "
                   "session; hands of no session have none to name")
        back = [f"`handledger pay {one} rake {b} {format_money(n, decimals, None)}`"
                for a, b, n in transfers if a is None and b is not None]
        if back and any(b is None for _, b, _ in transfers):  # paid and pays back
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
            f"{format_money(books.house['rake_minor'], decimals, currency)}"
            + (f" ({where})" if where else "") + f"; {pay}")
    return "\n".join(lines)


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


def sql_table(columns: list[str], rows: list[tuple], *, more: str | None = None) -> str:
    """A plain text table (rich) of a query's result, with the row count (``more``: the line
    saying the rows were cut at the cap, in its place)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, width=100_000, color_system=None, highlight=False,
                      markup=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*("" if v is None else str(v) for v in r))
    console.print(table)
    text = "\n".join(line.rstrip() for line in buf.getvalue().strip("\n").splitlines())
    return text + "\n" + (more or f"({len(rows)} row{'s' if len(rows) != 1 else ''})")


def state_text(now: Any) -> str:
    """A live hand now (:class:`replay.live.state.Now`): phase, whose turn and what is legal, the
    current bet, the pots with their eligible players, returned chips, the rake taken, the
    payouts recorded so far, who declared what (a declare hand, RULES.md §3), stacks;
    of a hand that is over, its pots explained as ``show`` ends, what the table paid, any
    payout that differs from the rules, and the stacks after the hand."""
    from replay.typed import as_typed, smallest_unit_note

    state, result = now.state, now.result
    lines = [f"hand {state.hand}: {state.game.code}, phase {state.phase}, status {state.status}",
             now.legal]
    if now.ended is not None:  # over: the pots as `show` explains them, the stacks after
        done = now.ended
        if (unit := smallest_unit_note(state.started.unit.decimals)) is not None:
            lines.append(unit)  # as `show` says it: the pots explained in chips
        lines.extend(done.explanation)
        if done.paid:
            lines.append("paid: " + ", ".join(f"{p} {c}" for p, c in done.paid.items()))
        elif state.status == "complete" and state.rake:  # the rake took the whole pot
            lines.append(f"paid: nobody (the rake of {state.rake} took the pot)")
        elif state.status == "complete":
            lines.append("paid: none recorded (the stacks after the hand are the rules' result)")
        lines.extend(f"paid differently from the rules: {d}" for d in done.differences)
        lines.append("stacks after the hand: " + ", ".join(
            f"{p} {done.stacks[p]}" + (" (folded)" if p in state.folded else "")
            for p in state.players))
        return "\n".join(lines)

    def a(chips: int) -> str:  # in play: as the hand's actions take amounts (4.00 in cents)
        return as_typed(state, chips)

    if state.phase == "bet":
        lines.append(f"current bet {a(state.rnd.current)}")
    for pot in result.pots:
        lines.append(f"pot {pot.index}: {a(pot.amount)} ({', '.join(pot.eligible)})")
    if result.returned:
        lines.append("returned: " + ", ".join(f"{p} {a(c)}" for p, c in result.returned.items()))
    if result.carried:  # the rules leave them for the next deal: nobody is paid them
        lines.append(f"carried: {a(result.carried)} to the session's next hand, paid to nobody "
                     "(RULES.md §3.8, §7.1)")
    if state.rake:  # `rake AMOUNT`: out of the pot, to nobody at the table
        lines.append(f"rake: {a(state.rake)} taken from the pot")
    lines.extend(_paid_so_far(state, a))
    if state.declarations:  # a declare hand's showdown: who declared what so far
        lines.append("declared: " + ", ".join(f"{p} {d}"
                                               for p, d in state.declarations.items()))
    lines.append("stacks: " + ", ".join(
        f"{p} {a(state.stacks[p])}" + (" (folded)" if p in state.folded else "")
        + (f" bet {a(state.street_bets[p])}" if state.street_bets[p] else "")
        for p in state.players))
    return "\n".join(lines)


def _paid_so_far(state: Any, a: Callable[[int], str]) -> list[str]:
    """``paid so far: Ann 3 (3 of the pot's 4)``: the payouts a hand in play recorded (``pay``,
    ``returned``), each player's total and all of them against the pot ``end`` holds them to;
    no line before the first."""
    paid: dict[str, int] = {}
    for payout in state.payouts:
        paid[payout.player] = paid.get(payout.player, 0) + payout.amount
    if not paid:
        return []
    return ["paid so far: " + ", ".join(f"{p} {a(c)}" for p, c in paid.items())
            + f" ({a(sum(paid.values()))} of the pot's {a(state.pot_total())})"]


def whatif_text(hand: str, w: Any, labels: dict[str, str] | None = None,
                rename: Callable[[str], str] = str) -> str:
    """Each player's result by the rules and his net (what the table paid him minus what he
    put in, the net of ``balances``) before and after a what-if, what is still paid
    differently, the later hands that no longer follow, and the session results' change; in a
    hand kept in a unit with decimals, its chips as the books count them, with the line that
    says so (as ``show``). ``labels``: a platform player's name as the reads show it
    (:attr:`cli.names.Names.labels`), the player column as wide as the longest; ``rename``
    names the players of the other lines so (:class:`cli.names.Names`), never the table's
    column again."""
    from replay.typed import smallest_unit_note

    data = w.as_json()
    shown = {p: (labels or {}).get(p, p) for p in w.before.result.players}
    wide = max([12, *(len(label) + 2 for label in shown.values())])
    unit = smallest_unit_note(w.after.decimals, "nets and payouts")  # the books' chips
    lines = [f"what if, hand {hand} (nothing written):", *([f"  {unit}"] if unit else []),
             f"  {'':<{wide}}{'by the rules':>24}{'net (what the table paid)':>36}",
             f"  {'player':<{wide}}{'before':>8}{'after':>8}{'diff':>8}"
             f"{'before':>13}{'after':>12}{'diff':>11}"]

    def rule(chips: int | None) -> str:  # None: a showdown that cannot be checked
        return "?" if chips is None else f"{chips:+d}"

    for p in w.before.result.players:
        lines.append(f"  {shown[p]:<{wide}}{rule(data['before'][p]):>8}"
                     f"{rule(data['after'][p]):>8}{rule(data['diff'][p]):>8}"
                     f"{data['paid_before'][p]:>+13d}"
                     f"{data['paid_after'][p]:>+12d}{data['paid_diff'][p]:>+11d}")
    rest = _unknown_lines(w)
    rest += [f"  still paid differently: {d.sentence()}" for d in w.after.discrepancies]
    rest += [f"  downstream: hand {d.hand} starts {d.player} with {d.starting}, the "
             f"corrected final stack is {d.expected} (was {d.was})" for d in w.downstream]
    if w.session:
        moved = {p: v for p, v in data["session"]["diff"].items() if v}
        text = ", ".join(f"{p} {v:+d}" for p, v in moved.items()) or "no change"
        rest.append(f"  session {w.session} results: {text}")
    return "\n".join([*lines, *map(rename, rest)])


def _unknown_lines(w: Any) -> list[str]:
    """What a what-if ``w`` can say of the rules' result of a showdown that cannot be
    checked (:mod:`replay.unknown_rules`): whose result is not known, the legal splits of
    the pots, and whether the payouts before and after are one of them (``replay``'s words
    follow in the "still paid differently" lines)."""
    from replay.unknown_rules import same_rules

    was, now = w.unknown
    if was is None and now is None:
        return []
    both = was is not None and now is not None and same_rules(w.before, w.after)
    lines = []
    for when, unknown in ((("", now),) if both else (("before", was), ("after", now))):
        if unknown is None:
            continue
        lines.append(f"  by the rules{' ' + when if when else ''}: not known for "
                     f"{', '.join(unknown.players)} (showdown not verifiable: hole cards "
                     f"unknown){', the same before and after' if both else ''}; a legal "
                     "split of the pots pays")
        lines += [f"    {words}" for words in unknown.pot_words()]
    for when, unknown, payouts in (("before", was, "the payouts"),
                                   ("after", now, "the corrected payouts")):
        if unknown is not None:
            lines.append(f"  {when}: {unknown.verdict(payouts, why=when == 'before')}")
    return lines


def corrected_text(hand: str, done: Any) -> str:
    """What a correction moved: each player's net (the README's one net, what ``balances``
    adds up: what the table paid minus what he put in) and what the rules give him ("by the
    rules", as ``balances`` labels it), and later hands to check; an undo names what it took
    back. In a hand kept in a unit with decimals the numbers are its chips, as the books
    count them, with the line saying so."""
    from replay.typed import smallest_unit_note

    moved = done.moved
    was, now, same = done.unknown
    parts = ["the hand replays again (its stream did not before)"] if moved is None else [
        f"{label}: {', '.join(f'{p} {n:+d}' for p, n in moved[key].items()) or 'unchanged'}"
        for label, key in (("net", "paid"), ("by the rules", "net"))]
    if moved is not None and (was is not None or now is not None):  # unknown cards
        gone = [p for p in done.after.result.players
                if any(u is not None and p in u.players for u in (was, now))]
        known = ", ".join(f"{p} {n:+d}" for p, n in moved["net"].items())
        parts[1] = ("by the rules: not known (showdown not verifiable: hole cards unknown), "
                    "unchanged" if same else
                    f"by the rules: {known + ', ' if known else ''}not known for "
                    f"{', '.join(gone)} (showdown not verifiable: hole cards unknown)")
    if now is not None:
        parts.append(now.verdict("the payouts now" if done.took_back
                                 else "the corrected payouts"))
    did = (f"undid {done.took_back} in hand {hand}" if done.took_back
           else f"corrected hand {hand}")
    lines = [f"{did} (seq {done.seq}); " + "; ".join(parts)]
    if now is not None:  # the legal ways to pay what the rules cannot award
        lines += [f"  a legal split pays the {words}" for words in now.pot_words()]
    if (unit := smallest_unit_note(done.after.decimals, "nets")) is not None:  # books' chips
        lines.append(f"  {unit}")
    lines += [f"  warning: hand {d.hand} starts {d.player} with {d.starting}, the corrected "
              f"final stack is {d.expected} (was {d.was})" for d in done.downstream]
    return "\n".join(lines)


def history_text(data: dict[str, Any]) -> str:
    """A hand's original events, then every correction and void with its changes."""
    from replay.hand_history import change_brief

    lines = [f"hand {data['hand']}: {len(data['events'])} original event(s)"]
    first = data["events"][0]["event"] if data["events"] else {}
    decimals = (first.get("unit") or {}).get("decimals", 0)  # a hand kept in cents: 2
    for item in data["events"]:
        detail = {k: v for k, v in item["event"].items()
                  if k not in ("source", "options", "unit", "stakes", "seats")}
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} {json.dumps(detail, separators=(',', ':'))}")
    if not data["amendments"]:
        lines.append("no corrections or voids")
    for item in data["amendments"]:
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} by {item['by']}: {item['reason']}")
        if "signature" in item:
            mark = {"good": "ok", "bad": "FAILS", "unknown": "unknown key"}
            lines.append(f"        signature {mark[item['signature']['status']]}: "
                         f"{item['signature']['note']}; {item['signature']['covers']}")
        if item.get("unsigned"):
            signed = ", ".join(f"the {'void' if t['type'] == 'hand_voided' else 'correction'} "
                               f"at seq {t['seq']} (signed by {t['signer']})"
                               for t in item["unsigned"])
            lines.append(f"        unsigned: takes back {signed} with no signature of its own")
        changed = {c["seq"] for c in item.get("changes", []) if c["op"] != "insert_after"}
        for c in item.get("changes", []):
            event = f" {change_brief(c['event'], decimals)}" if c["event"] else ""
            label = "after" if c["op"] == "insert_after" else "was"
            by = c.get("was_set_by")
            was = f" (seq {c['seq']} {label}: {c['was']}" if c["was"] else ""
            if c["was"] and c["op"] == "insert_after" and c["seq"] in changed:
                # the row it follows is the one this correction puts there, not the one shown
                was = (f" (after seq {c['seq']} as this correction changes it; before it: "
                       f"{c['was']}")
            if by is not None:  # in force by an earlier correction (was None: it deleted it)
                was = (f"{was}, set by correction {by})" if c["was"]
                       else f" (seq {c['seq']} was deleted by correction {by})")
            elif was:
                was += ")"
            lines.append(f"        {c['op']} seq {c['seq']}{event}{was}")
    return "\n".join(lines)


def standings_text(grid: Any) -> str:
    """The standings grid: a row per player (most won first), a column per session, the
    total; a last row of session totals (zero when the books balance). When the sessions count
    chips of different values, a total column per chip unit (``total 0.25 USD``) and a note
    saying why (``grid``: :class:`ledger.audit.standings_grid.Standings`)."""
    from ledger.audit.money_units import chip_unit_text

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
    width = max([10, *map(len, names)])
    cols = [max(10, len(h)) for h in heads]
    tcols = [max(12, len(t)) for t in totals]

    def row(first: str, cells: list[str], sums: list[str]) -> str:
        return (f"{first:<{width}} " + " ".join(f"{c:>{w}}" for c, w in zip(cells, cols,
                                                                           strict=True))
                + "".join(f" {t:>{w}}" for t, w in zip(sums, tcols, strict=True)))

    lines = [row("player", heads, totals) + (f"   ({currency})" if currency else "")]
    for name, p in zip(names, grid.players, strict=True):
        cells = [fmt(p["nets"].get(k)) for k in keys]
        lines.append(row(name, cells, [fmt(t) for t in p.get("totals") or [p["total"]]]))
    sums = [sum(p["nets"].get(k, 0) for p in grid.players) for k in keys]
    by_unit = [sum(v for s, v in zip(grid.sessions, sums, strict=True)
                   if grid.column_unit(s) == i) for i in range(len(grid.units))]
    lines.append(row("(sum)", [fmt(v) for v in sums],
                     [fmt(v) for v in by_unit] if grid.mixed else [fmt(sum(sums))]))
    if grid.mixed:
        lines.append(chip_units_note(grid.units, "total", "standings"))
    lines.extend(in_progress_lines(grid.in_progress))
    return "\n".join(lines)


def session_history_text(data: dict[str, Any]) -> str:
    """A session's events, numbered, each book entry with the corrections made to it (a
    payment's payer or payee null, the house, kept: ``"payee":null``)."""
    lines = [f"session {data['session']}: {len(data['events'])} event(s)"]
    for item in data["events"]:
        detail = {k: v for k, v in item["event"].items() if k != "source" and (
            v is not None or k in ("payer", "payee"))}
        lines.append(f"  {item['seq']:3d} @{item['position']:<6d} {item['recorded_at']} "
                     f"{item['type']} {json.dumps(detail, separators=(',', ':'))}")
        for c in item["corrections"]:
            what = "retracted" if c["replacement"] is None else "amended to " + json.dumps(
                {k: v for k, v in c["replacement"].items()
                 if k not in ("type", "schema_version")}, separators=(",", ":"))
            lines.append(f"        {what} by {c['by']} (entry {c['seq']}): {c['reason']}")
    return "\n".join(lines)


def signatures_lines(signed: Sequence[Any], checkpoints: Any) -> list[str]:
    """``run``'s lines on the signatures: one on the signed corrections and voids
    (:func:`ledger.audit.signatures.summary_line`, then a ``signature FAILS:`` line per
    failing one, as ``verify`` names it) and one on the ledger's checkpoints file
    (:meth:`ledger.store.anchor.OwnCheckpoints.line`); none when there is neither."""
    from ledger.audit.signatures import summary_line

    lines = []
    if (line := summary_line(signed)) is not None:
        lines.append(f"signatures: {line}")
    lines += [f"signature FAILS: {s.line()}" for s in signed if s.status == "bad"]
    if checkpoints is not None:
        lines.append(checkpoints.line())
    return lines


def verify_text(verdict: Any) -> str:
    """``verify``'s lines (``verdict``: :class:`replay.verifying.Verdict`): the chain (its head,
    or where it breaks), a line per signed amendment whose signature fails or whose key is not
    here, a line for the signatures that verify, and the derived tables against the replay."""
    chain = verdict.chain
    if chain.ok:
        position, digest = chain.head
        lines = [f"ok: {chain.rows} events, hash chain intact, head {position}:{digest}"]
    elif chain.problem == "head":  # the rows intact: no position is to blame
        lines = [f"broken: {chain.message}"]
    else:
        lines = [f"broken at position {chain.first_bad}: {chain.problem}: {chain.message}"]
    from ledger.audit.signatures import signed_count

    for s in verdict.signatures:
        if s.status == "bad":
            lines.append(f"signature FAILS: {s.line()}")
        elif s.status == "unknown":
            lines.append(f"signature not checked: {s.line()}")
    good = signed_count(verdict.signatures)["good"]  # a void and its correction: one
    if good:
        lines.append(f"signatures: {good} signed correction(s) and void(s) verify")
    derived = verdict.derived
    if derived.sealed is not None:
        sealed = derived.sealed.removesuffix(" (run `verify`)")
        lines.append(f"derived tables FAIL their own check: {sealed}")
    if derived.difference is not None:
        lines.append(f"derived tables FAIL: {derived.difference}")
    elif derived.checked:
        lines.append(f"derived tables: as the events' replay gives them ({derived.rows} rows)")
    elif derived.reason is not None:
        lines.append(f"derived tables not checked: {derived.reason}")
    return "\n".join(lines)
