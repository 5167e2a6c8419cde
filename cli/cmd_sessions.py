"""Session commands: ``session open|close|set|list|void``, ``buyin``, ``cashout``, ``pay``,
``player alias``, ``player unalias`` and ``audit``; each parses its arguments, calls
:mod:`replay.sessions`, :mod:`replay.voiding` or :mod:`replay.books` and prints what
happened."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cli import render, text
from cli.cmd_checkpoint import keys_option
from cli.context import JOBS, Context
from cli.names import books_named
from ledger.model.money import format_money
from ledger.model.shell import shell_arg


@click.group()
def session() -> None:
    """Open, close, list and void sessions."""


@session.command(name="open")
@click.argument("name")
@click.option("--date", "day", default=None, help="ISO date (default: today).")
@click.option("--chip-value", default="1", show_default=True,
              help="Money per chip, e.g. 0.25 (kept as integer minor units).")
@click.option("--currency", default=None, help="Currency code, e.g. USD.")
@click.option("--decimals", type=click.IntRange(0, 6), default=None,
              help="Minor-unit decimals (default: the currency's ISO 4217 minor units, "
                   "USD 2, JPY 0, KWD 3; "
                   "without a currency, those of --chip-value).")
@click.pass_obj
def session_open(obj: Context, name: str, day: str | None, chip_value: str,
                 currency: str | None, decimals: int | None) -> None:
    """Open session NAME: 1 chip = --chip-value money in --currency."""
    from replay.sessions import opening as books

    unit = {"day": day, "chip_value": chip_value, "currency": currency, "decimals": decimals}
    ledger = obj.ledger(checks=lambda: books.session_opening(name, **unit))
    opened = books.open_session(ledger, name, **unit)
    click.echo(f"session {name} opened {opened.date}: {_chip_worth(opened)}")


@session.command(name="close")
@click.argument("name")
@click.pass_obj
def session_close(obj: Context, name: str) -> None:
    """Close session NAME (no more buy-ins; payments settle it up). It closes even when its
    audit has findings; a note on stderr then counts them. Refused (exit 2, nothing written)
    while a hand of it is in play, and while its last hand carries chips to the session's
    next hand (RULES.md §2.2, §3.8, §7.1) that no hand took: deal that hand, or correct or void the
    hand that carries them. Then prints the checkpoint of the
    head, which vouches for every row: a file whose blocks or hash chain fail the check
    `verify` makes is refused first (exit 2, nothing written). Of a session closed already
    whose close stopped before writing its checkpoint (LEDGER.checkpoints has none of its
    row, or there is no such file), it takes that checkpoint and says so, unless that file
    holds a checkpoint the ledger does not extend or a damaged line (refused, naming it);
    otherwise a closed session is refused."""
    from ledger.store import checkpoint  # the head, anchored outside the ledger
    from replay.sessions import opening as books

    missing = books.close_session(obj.ledger(existing=True), name)
    if missing is not None:  # closed before, its checkpoint never written: take it now
        seq, position, no_file = missing
        point = checkpoint.take(obj.ledger(), checked=True, upto=position)
        file = checkpoint.default_file(obj.ledger().path).name
        why = (f"there was no checkpoints file {file} (the ledger copied without it, or its "
               "close stopped before writing it)" if no_file else
               f"{file} held no checkpoint of its close (the close stopped before writing it)")
        click.echo(f"session {name} was closed already (entry {seq}, position {position}), "
                   f"but {why}: taken now, of the head as the close left it")
        click.echo(point.line())
        return
    click.echo(f"session {name} closed")
    click.echo(checkpoint.take(obj.ledger(), checked=True).line())  # checked by the close
    _note_findings(obj, name)


def _note_findings(obj: Context, name: str) -> None:
    """One note on stderr when the audit of the session ``name`` has findings: read from the
    derived tables saved on the ledger the close holds (:func:`replay.books.saved_audit`),
    else, when they could not be saved, through :func:`replay.books.audit` (which never
    writes the ledger's events) once the ledger is closed."""
    from ledger.model.errors import LedgerError, NotFound
    from replay.books import audit as run_audit
    from replay.books import saved_audit

    try:
        if obj.save_tables():
            found = saved_audit(obj.ledger(), name)
        else:
            obj.close()
            _, found = run_audit(obj.db, name, note=render.note)
    except NotFound:  # a session with no hand: the audit has nothing of it
        return
    except LedgerError as exc:
        render.note(f"note: session {name} is closed, but its audit could not run: {exc}")
        return
    if found:
        count = f"{len(found)} audit finding{'s' if len(found) != 1 else ''}"
        render.note(f"note: session {name} closed with {count} (`handledger audit --session "
                    f"{shell_arg(name)}` lists them)")


@session.command(name="set")
@click.argument("name")
@click.option("--chip-value", required=True, help="Money per chip, e.g. 0.25.")
@click.option("--currency", default=None, help="Currency code, e.g. USD.")
@click.option("--decimals", type=click.IntRange(0, 6), default=None,
              help="Minor-unit decimals (default as for `session open`).")
@click.option("--closed", is_flag=True,
              help="Record it though session NAME is closed (its books were settled up in "
                   "the unit they had).")
@click.pass_obj
def session_set(obj: Context, name: str, chip_value: str, currency: str | None,
                decimals: int | None, closed: bool) -> None:
    """Say what one chip of session NAME is worth (a session an import opened, or one opened
    with the wrong value): the latest setting holds for the whole session, and `--money`
    reads it. Refused once the session holds a hand whose amounts came in money (they were
    converted to its chips exactly), once payments are recorded in it for another currency
    (they are money in the old one), and for a closed session unless --closed."""
    from replay.sessions import opening as books

    changed = books.set_session(obj.ledger(existing=True), name, chip_value=chip_value,
                                currency=currency, decimals=decimals, closed=closed)
    click.echo(f"session {name}: {_chip_worth(changed)}")


def _chip_worth(unit: Any) -> str:
    """What one chip of a session is worth (``unit``: its ``session_opened`` or
    ``session_changed``): ``1 chip = 0.25 USD``; a session of plain chips (no currency, a
    chip worth one of itself) ``plain chips (no chip value or currency)``, not ``1 chip =
    1``."""
    if unit.currency is None and unit.chip_value_minor == 10 ** unit.decimals:
        return "plain chips (no chip value or currency)"
    return f"1 chip = {format_money(unit.chip_value_minor, unit.decimals, unit.currency)}"


@session.command(name="void")
@click.argument("name")
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who takes it back.")
@click.option("--sign", default=None, metavar="NAME",
              help="Sign each hand's void with the key NAME (as `void` signs).")
@click.option("--closed", is_flag=True,
              help="Record it though session NAME is closed (its books were settled up at "
                   "the close).")
@keys_option
@click.pass_obj
def session_void(obj: Context, name: str, reason: str, by: str, sign: str | None,
                 closed: bool, keys_dir: str) -> None:
    """Take session NAME back (imported or recorded into the wrong ledger or session):
    void every hand of it and retract every buy-in, cash-out and payment of its books, in one
    write, all or nothing, each checked as `void` and `entry retract` check it, a hand still
    in play voided too (the output names it). Hands voided and entries retracted already are
    passed over. Refused, exit 2, for a closed session unless --closed.

    The voided hands stay in NAME: importing their file again, into NAME or another session,
    brings none back (import it into a new ledger, `--db NEW.duckdb import --session S FILE`,
    to have it in session S); a hand recorded live goes into the right session with `hand
    again HAND --session S` once its players' buy-ins are recorded there."""
    from ledger.store.keys import KeyStore
    from replay.voiding import void_session

    done = void_session(obj.ledger(existing=True), name, reason=reason, by=by,
                        keys=KeyStore(keys_dir), sign=sign, closed=closed)
    obj.save_tables()
    kinds = ", ".join(_counted(done.retracted.get(t, 0), t.replace("_", "-"))
                      for t in ("buy_in", "cash_out", "payment"))
    before = [f"{_counted(n, what)} {done_} before" for n, what, done_ in
              ((done.hands_before, "hand", "voided"),
               (done.entries_before, "book entry", "retracted")) if n]
    playing = (f" (still in play: {', '.join(done.in_play)})" if done.in_play else "")
    click.echo(f"session {name} voided: {_counted(len(done.hands), 'hand')} voided{playing}, "
               f"{_counted(sum(done.retracted.values()), 'book entry')} retracted ({kinds}); "
               f"every net in {name} is 0 now"
               + (f" (passed over: {' and '.join(before)})" if before else ""))


def _counted(n: int, noun: str) -> str:
    """``1 hand``, ``2 hands``, ``3 book entries``."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


@session.command(name="list")
@click.option("--json", "as_json", is_flag=True,
              help='{"sessions": [{"session", "date", "opened", "closed", "settled", '
                   '"hands", "hands_voided", "buy_ins", "buy_ins_retracted", "owed_minor", '
                   '"decimals", "currency"}]} in ledger order ("owed_minor": what is still '
                   'owed after the payments recorded, integer minor units of "currency" with '
                   '"decimals" places; "carried_to_none": {"hand", "chips"} when its last '
                   'hand carries chips to a hand never dealt; "bank": [{"player", "amount"}] '
                   'when settle still has lines with the bank, what each player pays it in '
                   'integer minor units, negative what it pays him: then not settled).')
@click.pass_obj
def session_list(obj: Context, as_json: bool) -> None:
    """Sessions in ledger order with their date, hands (the voided among them apart),
    buy-ins (the retracted among them apart) and state: open, or closed
    and settled, or closed with money still owed after the payments recorded, or never
    opened (a session only its imported hands name; ``--json``: ``opened`` false). A closed
    session whose last hand carries chips to a next hand it never dealt (RULES.md §2.2, §3.8,
    §7.1) is not settled, and says so (``--json``: ``carried_to_none``, ``{"hand",
    "chips"}``), nor one where settle still has a line with the bank (``--json``: ``bank``,
    ``[{"player", "amount"}]``; docs/CORRECTIONS.md "A correction after the chips moved
    on")."""
    from replay.books import session_list as read

    out = read(obj.db, note=render.note,
               progress=render.no_progress if as_json else render.progress)
    if as_json:
        click.echo(json.dumps({"sessions": out}))
        return
    for s in out:
        if not s["opened"]:
            state = "never opened (named by its hands)"
        elif not s["closed"]:
            state = "open"
        else:
            state = "closed, settled" if s["settled"] else (
                f"closed, {format_money(s['owed_minor'], s['decimals'], s['currency'])} owed"
                if s["owed_minor"] else "closed, not settled")
            if bank := s.get("bank"):  # chips in no net, still with the bank
                state += f" (with the bank: {_bank_said(bank, s)})"
            if lost := s.get("carried_to_none"):  # nobody owes it: the nets sum short of 0
                state = (f"closed, not settled: hand {lost['hand']} carries {lost['chips']} "
                         "chips to the session's next hand, which it will never deal (owed "
                         f"by nobody: `handledger settle --session {shell_arg(s['session'])}` "
                         "names "
                         "the ways)")
            if s.get("books_off"):
                kinds = ", ".join(f"{kind} {n}" for kind, n in s["findings"].items())
                state += (f", but its audit has {s['books_off']} finding(s) ({kinds}: "
                          f"`handledger audit --session {shell_arg(s['session'])}`)")
            state += _missing_checkpoint(s, obj.db)
        voided = f" ({s['hands_voided']} voided)" if s["hands_voided"] else ""
        retracted = f" ({s['buy_ins_retracted']} retracted)" if s["buy_ins_retracted"] else ""
        click.echo(f"{s['session']}  {s['date'] or '-'}  {s['hands']} hand(s){voided}  "
                   f"{s['buy_ins'] + s['buy_ins_retracted']} buy-in(s){retracted}  {state}")


def _bank_said(bank: list[dict[str, Any]], s: dict[str, Any]) -> str:
    """``session list``'s words for the lines ``settle`` still has with the bank in session
    ``s``: ``Ann pays the bank 5.00 USD``, ``the bank pays Erin 1.00 USD``, joined."""
    def money(n: int) -> str:
        return format_money(n, s["decimals"], s["currency"])

    return ", ".join(f"{b['player']} pays the bank {money(b['amount'])}" if b["amount"] > 0
                     else f"the bank pays {b['player']} {money(-b['amount'])}" for b in bank)


def _missing_checkpoint(s: dict, db: str) -> str:
    """What ``session list`` says of a closed session whose close's checkpoint the
    checkpoints file lacks (``close_checkpoint_missing``, why: ``close_checkpoint_why``)."""
    if not s.get("close_checkpoint_missing"):
        return ""
    against = f"`handledger verify --against {shell_arg(db)}.checkpoints`"
    return {
        "parted": ", its close's checkpoint not found: its checkpoints file holds one this "
                  f"ledger does not extend ({against})",
        "damaged": f", its close's checkpoint missing: its checkpoints file has a damaged line "
                   f"({against})",
        "no file": ", its close's checkpoint missing: there is no checkpoints file (copied "
                   f"without it?) (`handledger session close {shell_arg(s['session'])}` takes one)",
    }.get(s.get("close_checkpoint_why", ""), (
        f", its close's checkpoint missing (`handledger session close {shell_arg(s['session'])}` "
        "takes "
        "it)"))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("session_name", metavar="SESSION")
@click.argument("player")
@click.argument("chips")
@click.option("--kind", type=click.Choice(["buy_in", "rebuy", "top_up"]), default=None,
              help="Default: buy_in for the player's first, rebuy after.")
@click.option("--before", metavar="HAND", default=None,
              help="Made before HAND of SESSION and recorded only now (a rebuy forgotten at "
                   "the table): the books count it just before HAND starts.")
@click.option("--closed", is_flag=True,
              help="With --before: record it though SESSION is closed (its books were "
                   "settled up at the close); refused on an open session.")
@click.pass_obj
def buyin(obj: Context, session_name: str, player: str, chips: str, kind: str | None,
          before: str | None, closed: bool) -> None:
    """PLAYER buys CHIPS (whole chips, in digits) in SESSION (between hands: table stakes);
    with --before HAND, one made before that hand of SESSION, recorded later."""
    from replay.sessions import entries as books

    with books_named(obj.names) as note:
        event, seq = books.buy_in(obj.ledger(existing=True), session_name, player, chips,
                                  kind, note=note, before=before, closed=closed)
    where = "" if before is None else f" before hand {before}"
    click.echo(f"{session_name}: {obj.names()(player)} {event.kind.replace('_', '-')} "
               f"{event.chips} chips{where} (entry {seq})")


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("session_name", metavar="SESSION")
@click.argument("player")
@click.argument("chips")
@click.option("--closed", is_flag=True,
              help="Record it though SESSION is closed (its books were settled up at the "
                   "close).")
@click.pass_obj
def cashout(obj: Context, session_name: str, player: str, chips: str, closed: bool) -> None:
    """PLAYER leaves SESSION with CHIPS counted (whole chips, in digits; after the session
    closed only with --closed)."""
    from replay.sessions import entries as books

    with books_named(obj.names) as note:
        event, seq = books.cash_out(obj.ledger(existing=True), session_name, player, chips,
                                    closed=closed, note=note)
    click.echo(f"{session_name}: {obj.names()(player)} cashed out {event.chips} chips "
               f"(entry {seq})")


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("session_name", metavar="SESSION")
@click.argument("payer", metavar="FROM")
@click.argument("payee", metavar="TO")
@click.argument("amount")
@click.option("--again", is_flag=True,
              help="Record it though the same payment is recorded already (a second one).")
@click.option("--more-than-owed", "beyond", is_flag=True,
              help="Record it though FROM owes less after the payments recorded (as settle "
                   "reckons it): a payment FROM did not owe, or one handed back.")
@click.pass_obj
def pay(obj: Context, session_name: str, payer: str, payee: str, amount: str,
        again: bool, beyond: bool) -> None:
    """FROM pays TO AMOUNT of money, as 12.50, to settle SESSION up. Refused beyond what
    FROM still owes as settle reckons it, unless --more-than-owed. FROM or TO `rake` is the
    house, whoever keeps the rake the table took (settle's "the house"); FROM or TO `bank`
    is the bank, whoever holds the buy-ins, paid the chips a correction after the chips
    moved on left in no player's net (settle's "pays the bank" lines: refused beyond what
    that line still asks, unless --more-than-owed)."""
    from replay.sessions import payments as books

    with books_named(obj.names) as note:
        event, state, seq = books.pay(obj.ledger(existing=True), session_name, payer, payee,
                                      amount, again=again, beyond=beyond,
                                      warn=lambda line: note(f"warning: {line}"))
        paid = (f"{session_name}: {books.party(event.payer, event.bank)} paid "
                f"{books.party(event.payee, event.bank)} {state.money(event.amount_minor)} "
                f"(entry {seq})")
    click.echo(obj.names()(paid))


@click.group()
def entry() -> None:
    """Retract or amend a buy-in, cash-out or payment, or retract a ledger statement (the
    original stays in the ledger; `history --session S` lists the entries with their
    numbers)."""


@entry.command(name="retract")
@click.argument("session_name", metavar="SESSION")
@click.argument("seq", type=click.IntRange(min=1))
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who retracts it.")
@click.option("--closed", is_flag=True,
              help="Retract a buy-in or cash-out though SESSION is closed (its books were "
                   "settled up at the close).")
@click.pass_obj
def entry_retract(obj: Context, session_name: str, seq: int, reason: str, by: str,
                  closed: bool) -> None:
    """Retract entry SEQ of SESSION: the books read as if it had not been recorded (a ledger
    statement: the audit compares none until the right one is imported)."""
    from replay.sessions import amending as books

    with books_named(obj.names) as note:
        *_, said = books.correct_entry(obj.ledger(existing=True), session_name, seq, None,
                                       reason=reason, by=by, closed=closed, note=note)
    click.echo(said)


@entry.command(name="amend", context_settings={"ignore_unknown_options": True})
@click.argument("session_name", metavar="SESSION")
@click.argument("seq", type=click.IntRange(min=1))
@click.argument("value")
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who amends it.")
@click.option("--closed", is_flag=True,
              help="Amend a buy-in or cash-out though SESSION is closed (its books were "
                   "settled up at the close).")
@click.option("--more-than-owed", "beyond", is_flag=True,
              help="Amend a payment to more than its payer owes (as pay --more-than-owed).")
@click.pass_obj
def entry_amend(obj: Context, session_name: str, seq: int, value: str, reason: str,
                by: str, closed: bool, beyond: bool) -> None:
    """Amend entry SEQ of SESSION to VALUE: chips for a buy-in or cash-out, money for a
    payment; it keeps its place among the hands."""
    from replay.sessions import amending as books

    with books_named(obj.names) as note:
        *_, said = books.correct_entry(obj.ledger(existing=True), session_name, seq, value,
                                       reason=reason, by=by, closed=closed, beyond=beyond,
                                       note=note)
    click.echo(obj.names()(said))


@click.group()
def player() -> None:
    """Players across the series."""


@player.command(name="alias")
@click.argument("name")
@click.argument("other")
@click.option("--session", "session_name", default=None,
              help="Record it in this session's stream (default: the latest session).")
@click.option("--new", "new", is_flag=True,
              help="NAME is a new player's name, not a typo of a player's the ledger holds "
                   "(a new NAME spelled close to one is refused without it).")
@click.pass_obj
def player_alias(obj: Context, name: str, other: str, session_name: str | None,
                 new: bool) -> None:
    """OTHER (another name or a platform id) is the player NAME everywhere: balances,
    standings, the audit. A PokerNow player's name (or his label "Name (id)") stands for his
    id; a name two PokerNow players share is refused. A NAME the ledger does not hold is
    refused when spelled close to one it holds (a typo?), unless --new. The latest alias
    wins."""
    from replay.sessions import aliases as books

    _, known, other_known, alias = books.add_alias(obj.ledger(existing=True), name, other,
                                                   session_name, new=new)
    # a PokerNow name stands for his id: the line names the id the alias was recorded for
    shown = other if alias == other or other.endswith(f" ({alias})") else f"{other} ({alias})"
    click.echo(f"{shown} is {name}")
    if not known:
        click.echo(f"warning: {name} is no player in the ledger yet: {other} is named {name} "
                   "everywhere now (balances, standings, the audit)", err=True)
    if not other_known:
        click.echo(f"warning: {other} is no name in the ledger yet: a hand, book entry or "
                   f"import naming {other} counts as {name}'s from now on (a typo is ended "
                   f"with `handledger player unalias {shell_arg(other)} --reason … --by "
                   "…`)", err=True)


@player.command(name="unalias")
@click.argument("alias")
@click.option("--reason", required=True, help="Why (kept in the ledger).")
@click.option("--by", "by", required=True, help="Who ends the alias.")
@click.option("--session", "session_name", default=None,
              help="Record it in this session's stream (default: the latest session).")
@click.pass_obj
def player_unalias(obj: Context, alias: str, reason: str, by: str,
                   session_name: str | None) -> None:
    """ALIAS is no longer another player's name, from here on: balances, standings, the
    audit read it as a player of its own again (the alias stays in the history). ALIAS is
    read as `player alias` reads OTHER: a PokerNow player's label "Name (id)", or his name
    while a host's alias names his id, stands for his id."""
    from replay.sessions import aliases as books

    _, player, ended = books.end_alias(obj.ledger(existing=True), alias, session_name,
                                       reason=reason, by=by)
    # a PokerNow name stands for his id: the line names the id whose alias ended, as alias
    shown = alias if ended == alias or alias.endswith(f" ({ended})") else f"{alias} ({ended})"
    click.echo(f"{shown} is no longer {player}")


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session's findings.")
@click.option("--json", "as_json", is_flag=True,
              help='{"discrepancies": [{"kind", "session", "hand", "player", "name", '
                   '"expected", "actual", "message"}], "incomplete_hands": [...] (when any); '
                   '"corrected_late": [{"session", "hand", "seq", "by", "reason", "after", '
                   '"owed", "voided", "later"}] (when any: a correction appended after later '
                   'hands or cash-outs took the hand\'s chips, and the chips it leaves owed in '
                   'settle; "later": [{"seq", "by", "reason"}] the corrections and voids of '
                   'the hand since, whose chips "owed" counts too, only then); '
                   '"player" as stored (a PokerNow id), "name" and "message" as the text '
                   'names the player; each finding\'s "unit" says what "expected" and '
                   '"actual" count: "chips" (with "chip_value_minor", "decimals", '
                   '"currency": a chip\'s worth; plain chips 1, 0, null), "minor" (money '
                   'in minor units of "currency" with "decimals" places: settlement, '
                   'unsettled) or null (in_progress, signature: no amount); '
                   '"still_owed": [{"session", "owed_minor", "decimals", "currency", '
                   '"transfers": [{"from", "from_name", "to", "to_name", "amount_minor"}]}] '
                   '(when any: a closed session where money is still owed after the payments '
                   'recorded, in integer minor units of "currency" with "decimals" places, '
                   'and who pays whom as settle says it, "house": true for the house; '
                   '"transfers" null when its balances do not sum to zero)')
@click.option("--jobs", default=None, type=JOBS,
              help="Processes replaying hands when the ledger moved since the last audit "
                   "(default: one a CPU when every hand of a large ledger file is replayed, "
                   "else 1).")
@click.option("--unsettled", is_flag=True,
              help="Also name closed sessions where money is owed and nobody recorded a "
                   "payment (many groups settle up outside the ledger).")
@keys_option
@click.pass_obj
def audit(obj: Context, session_name: str | None, as_json: bool, jobs: int | None,
          unsettled: bool, keys_dir: str) -> None:
    """Check the books: payouts, chip conservation, stack continuity, session balances,
    settlements and platform ledgers (import --ledger). Exit 0 when every chip adds up, 1 when
    anything does not. Incomplete hands (a log cut mid-hand) are named, counted at net 0.
    Hands are replayed only when the ledger moved since the last audit or full replay. Every
    signed correction and void is checked against the key directory (as `history`): one
    `signature` finding for each whose signature fails."""
    from ledger.store.keys import KeyStore
    from replay.books import audit as run_audit

    late: list | None = [] if as_json else None  # said in the JSON, not in notes
    report, found = run_audit(obj.db, session_name, jobs=jobs, note=render.note,
                              progress=render.no_progress if as_json else render.progress,
                              on_request=unsettled, keys=KeyStore(keys_dir),
                              opened=obj.read_names, corrected=late)
    names = obj.names()
    if as_json:
        from cli.names import with_name

        body: dict = {"discrepancies": [
            with_name(d.as_json(), names, text=("message",)) | text.finding_unit(report, d)
            for d in found]}
        if cut := text.incomplete_hands(report, session_name):
            body["incomplete_hands"] = cut
        if owing := text.still_owing(report, session_name):  # the text's "still owes money"
            body["still_owed"] = [text.owing_json(o, names.label) for o in owing]
        if late:  # corrections after the chips moved on: what they leave owed
            body["corrected_late"] = [c.as_json() for c in late]
        click.echo(json.dumps(body))
    else:
        click.echo(names(text.audit_text(report, found, session_name)))
    if found:
        sys.exit(1)


COMMANDS = [session, buyin, cashout, pay, entry, player, audit]
