"""Series commands: ``balances``, ``settle``, ``sql``, ``chart`` and ``demo-series``.

They read the derived tables and views (docs/SQL.md), caught up first with the ledger. Chips
are integers; money is chips × the session's chip value, printed with the currency's decimals.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from cli import books_text, render, sql_rows, text
from cli.context import Context
from ledger.model.errors import MalformedInput


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session.")
@click.option("--money", is_flag=True, help="Money (chips × chip value) instead of chips.")
@click.option("--json", "as_json", is_flag=True,
              help='{"players": [{"player", "name", "net", "buy_in", "cash_out", "hands", '
                   '"sessions", "nickname", "rules_net", "paid_minor", "received_minor"}] '
                   '("player" as stored, a PokerNow id; "name" as the other reads name the '
                   'player; "rules_net" what the rules would have paid, where a payout '
                   'differs; "paid_minor", "received_minor" the settlement payments he made '
                   'and got, integer minor units of money), "in_progress": [{"hand", '
                   '"session", "pot", "players"}] (when a hand is: chips in its pot so far; '
                   'with --money also "pot_minor", "players_minor", those in integer minor '
                   'units), "rake": [{"session", '
                   '"chips", "hands", "chip_value_minor", "decimals", "currency"}] '
                   '(when the table took one), "unbalanced": [{"chip_value_minor", '
                   '"decimals", "currency", "net_sum", "carried"}] (when the nets do not '
                   'sum to 0; chip_value_minor null with --money; "carried": chips carried to '
                   'a session\'s next hand not yet ended, only then)}; with --money in '
                   'integer minor units, and "decimals", "currency" say which. Chips of '
                   'different values (no '
                   '--session, no --money): "units" as standings --json, each player\'s '
                   '"net", "buy_in", "cash_out", "rules_net" null and "by_unit" giving them '
                   'with "hands", "sessions" in the order of "units" (null: not played); '
                   'chips of one value that is a fraction of a chip of no currency (0.1: '
                   'hands in fractional plain chips): "units" naming it, the amounts '
                   'unchanged')
@click.pass_obj
def balances(obj: Context, session_name: str | None, money: bool, as_json: bool) -> None:
    """Each player's net, buy-ins, cash-outs, hands and sessions, across the series or in one
    session. Net is what the table paid the player minus what the player put in (the rules'
    result for a hand that recorded no payouts; nothing for a voided hand), the net that settle,
    standings and chart use; where the rules would have paid otherwise, their net is shown
    beside it (`audit` names the hands). A hand still in progress is named in a note: its chips
    in the pot count as put in, no payout counted until it ends. The rake the table took from
    the pots (`act HAND "rake AMOUNT"`, a file's rake) leaves the players' nets, and a line
    names it per session. A player known by a PokerNow id shows as its latest nickname with
    the id, e.g. `Mdeyxwb (HXN7RGKNLI)`. Chips of different values (sessions of other chip
    values or currencies, hands of no session each in its own unit) do not add up: without
    --session, each value gets its own table, and a note says so (--money adds them up in one
    currency)."""
    from replay.books import balances as read

    noted: list[str] = []
    books = read(obj.db, session_name, money=money, note=_noting(noted), opened=obj.read_names,
                 progress=render.no_progress if as_json else render.progress,
                 unbalanced=_off_note(obj, as_json))
    if as_json:
        from cli.names import named_players

        body: dict = {"players": books.players}
        if books.in_progress:
            body["in_progress"] = books.in_progress
        if books.rake:
            body["rake"] = books.rake
        if books.unbalanced:
            body["unbalanced"] = books.unbalanced
        if books.corrected_late:  # net ≠ cash-out − buy-in by a correction after the fact
            body["corrected_late"] = [{k: v for k, v in c.items() if k != "note"}
                                      for c in books.corrected_late]
        if books.seat_labels:  # hands of no session seated by seat label: no player listed
            body["seat_label_hands"] = books.seat_labels
        if books.mixed or books.chip_unit is not None:  # the amounts' unit(s), named
            body["units"] = [{**u, "sessions": [s or "" for s in u["sessions"]]}
                             for u in books.units or [books.chip_unit]]
        if money:
            body["decimals"], body["currency"] = books.unit
        click.echo(json.dumps(named_players(body, obj.names())))
    else:
        click.echo(books_text.balances_text(books, obj.names()))
        _unchecked(noted)


@click.command()
@click.option("--money", is_flag=True, help="Money (chips × chip value) instead of chips.")
@click.option("--json", "as_json", is_flag=True,
              help='{"sessions": [{"session", "date", "key"}], "players": [{"player", '
                   '"name", "nickname", "nets": {key: net}, "total"}] ("name" as balances; '
                   '"key" the session\'s key in "nets": its name, "" for hands of no session, '
                   'whose "session" is null), '
                   '"decimals", "currency", "units": '
                   '[{"chip_value_minor", "decimals", "currency", "sessions"}]} (chips of '
                   'different values: "total" null, "totals" in the order of "units"; hands '
                   'of no session in chips of different values: a "sessions" entry each with '
                   'its "unit" and "unit_index", a net under "" a list in the order of '
                   '"units", "unit_index" its place in it), and '
                   '"in_progress" as balances --json when a hand is still open, "rake" and '
                   '"unbalanced" as balances --json when the table took a rake or a sum row '
                   'is not 0 ("unbalanced" also "closed", the closed sessions holding chips '
                   'carried, with "carried"); with --money '
                   'the nets in integer minor units of "currency" with "decimals" places, and '
                   '"units" [], the money adding up in one unit')
@click.pass_obj
def standings(obj: Context, money: bool, as_json: bool) -> None:
    """The series as a grid: each player's net in each session and the player's total, most won
    first; the same nets as `balances` (what the table paid). Chips of different values
    (sessions of other chip values or currencies) do not add up: each value gets its own
    total, and a note says so (--money adds them up in one currency)."""
    from replay.books import standings as read

    grid = read(obj.db, money=money, note=render.note,
                opened=obj.read_names if as_json else None,
                progress=render.no_progress if as_json else render.progress,
                unbalanced=_off_note(obj, as_json))
    if as_json:
        from cli.names import named_players

        click.echo(json.dumps(named_players(grid.as_json(), obj.names())))
    else:
        click.echo(books_text.standings_text(grid))


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session.")
@click.option("--json", "as_json", is_flag=True,
              help='{"transfers": [{"session", "from", "from_name", "to", "to_name", "amount"}], '
                   '"decimals", "currency", "paid_already", "payments_recorded"} (amounts in '
                   'integer minor units of that currency; "paid_already" what the payments '
                   'recorded settled, net of those paid back, "payments_recorded" what they add '
                   'up to; '
                   '"from" and "to" as stored (a PokerNow id), "from_name" and "to_name" as '
                   'the text names the player; "from" or "to" null with "house": true is the '
                   'house, who keeps the rake; "session" the session whose books it settles, '
                   'null for hands of no session); where the hands read count money of '
                   'different units (hands of no session alone too), {"sessions": '
                   '[{"session", and that object in its unit}], "hands_of_no_session_unsettled"} '
                   '(a count of hands); either with '
                   '"not_settled": [{"session", "hand", "in_progress"}] when a session has a '
                   'hand still in progress (the first such hand, how many)), '
                   '"cannot_settle": [{"session", "error"}] when settling a session alone is '
                   'refused (the error `settle --session` of it gives; left out, exit 0) and '
                   '"corrected_late" as audit --json\'s when a hand was corrected after later '
                   'hands or cash-outs took its chips ("owed": {player: chips} the chips it '
                   'leaves owed, which the transfers settle; "owed_minor" the same in integer '
                   'minor units of its session\'s money; "unheld" and "unheld_minor" the part '
                   'of it in no net, only then) and "bank": [{"session", "player", '
                   '"player_name", "amount"}], what each player pays the bank of those chips '
                   '(minor units; negative: the bank pays him) after the payments recorded with '
                   'it, only while one is to pay; "bank_paid": the same of what those payments '
                   'come to (positive: the player paid the bank), only when one is recorded')
@click.pass_obj
def settle(obj: Context, session_name: str | None, as_json: bool) -> None:
    """The fewest transfers that settle the nets up (money = net chips × chip value), each
    session's among its own players, since `pay SESSION FROM TO AMOUNT` records a payment in
    one session (without --session, each line names its session when the ledger holds more
    than one). Exact minimum for up to 14 players of a session with a nonzero net (zero-sum
    groups, each settled largest debtor to largest creditor); greedy above that. Payments
    already recorded are subtracted: the transfers settle what is still owed, and the count
    line says what was paid already (a payment back between the same players cancels; when
    some were paid back or passed on, what the payments recorded add up to as well). The
    rake the table took is owed to the house (whoever keeps it), one more creditor: `pay
    SESSION PLAYER rake AMOUNT` records a payment to it. Chips a correction after the chips
    moved on left in no player's net are settled with the bank (whoever holds the
    buy-ins), a line each: `pay SESSION PLAYER bank AMOUNT` (or `bank PLAYER`) records a
    payment of one, which the line nets off (the count line says what was paid). Where the
    sessions count money of different currencies or decimals, each session is settled in
    its own, a block each, and hands of no session are said not settled. A session with a
    hand still in progress is not settled yet (its pot is paid when it ends): without
    --session the others are, and a line names it and its hand (exit 0); with --session of
    it, or a hand of no session in progress, refused; refused too when the nets do not sum
    to minus the rake. So is a session whose own settle is refused (a player lost more than
    his buy-ins there, its nets do not sum to minus its rake): without --session the others
    are settled and a line gives its refusal (exit 0)."""
    from replay.books import settle as settle_up

    noted: list[str] = []
    settled = settle_up(obj.db, session_name, note=_noting(noted), opened=obj.read_names,
                        unbalanced=_off_note(obj, as_json),
                        progress=render.no_progress if as_json else render.progress)
    names = obj.names()
    extra = ({"not_settled": [dict(w) for w in settled.waiting]} if settled.waiting
             else {})
    if settled.refused:  # sessions whose own settle is refused: left out, the error each
        extra["cannot_settle"] = [dict(r) for r in settled.refused]
    if settled.late:  # what the text's late-correction notes say, as data
        extra["corrected_late"] = settled.late
    for key, lines in (("bank", settled.bank), ("bank_paid", settled.bank_paid)):
        if lines:  # chips owed in no net: with the bank, and what was paid of them
            extra[key] = [{"session": s, "player": p, "player_name": names.label(p),
                           "amount": n} for s, p, n in lines]
    if as_json and settled.books is None:
        click.echo(json.dumps({"sessions": [
            {"session": name, **_settle_json(names, [(name, *t) for t in transfers], books)}
            for name, transfers, books in settled.blocks],
            "hands_of_no_session_unsettled": settled.loose} | extra))
    elif as_json:
        click.echo(json.dumps(_settle_json(names, settled.transfers, settled.books)
                              | extra))
    elif settled.books is None:
        click.echo(names(books_text.settle_each_text(settled.blocks, settled.loose,
                                                     settled.bank, settled.bank_paid)))
        _waiting(settled.waiting, names(books_text.refused_lines(settled.refused)))
        _unchecked(noted)
    else:
        click.echo(names(books_text.settle_text(settled.transfers, settled.books,
                                                session_name, len(settled.waiting),
                                                settled.bank, settled.bank_paid,
                                                refused=len(settled.refused))))
        _waiting(settled.waiting, names(books_text.refused_lines(settled.refused)))
        _unchecked(noted)


def _waiting(waiting: list[dict[str, Any]], refused: str) -> None:
    """The line of each session ``settle`` left unsettled, a hand of it still in progress,
    then ``refused``, the lines of those whose own settle is refused (none: empty)."""
    for line in books_text.waiting_lines(waiting):
        click.echo(line)
    if refused:
        click.echo(refused)


def _settle_json(names: Any, transfers: list[Any], books: Any) -> dict[str, Any]:
    """``settle --json``'s object of ``transfers`` ``(session, from, to, amount)`` settling
    ``books`` in their one unit (see the command's ``--json``)."""
    decimals, currency = books.unit
    return {"transfers": [
        {"session": s, "from": a, "from_name": names.label(a), "to": b,
         "to_name": names.label(b), "amount": n} | ({"house": True} if None in (a, b) else {})
        for s, a, b, n in transfers], "decimals": decimals, "currency": currency,
        "paid_already": books.paid_already, "payments_recorded": books.paid_in_all}


def _off_note(obj: Context, as_json: bool) -> Callable[[str], None]:
    """Where ``settle``, ``balances`` and ``standings`` say a session's chips do not follow
    its books (:func:`replay.books.books_off_lines`): a note on stderr, players named as the
    reads name them; nothing with ``--json``."""
    if as_json:
        return lambda _line: None
    return lambda line: render.note(obj.names()(line))


def _noting(noted: list[str]) -> Callable[[str], None]:
    """The note a books read is given: said on stderr (:func:`cli.render.note`) and kept in
    ``noted``: a read notes only derived tables that are not of the ledger's events (rows
    changed under them: :func:`replay.books.fresh_books`)."""
    def note(line: str) -> None:
        noted.append(line)
        render.note(line)
    return note


def _unchecked(noted: list[str]) -> None:
    """Where a read's derived tables were not of the ledger's events (``noted``), the line
    that sends the reader to ``verify``, as a clean audit's line does (README "Tampering")."""
    if noted:
        click.echo(f"computed from the ledger's events, not its saved tables "
                   f"{render.UNCHECKED}")


@click.command()
@click.argument("query")
@click.option("--csv", "as_csv", is_flag=True,
              help="CSV with a header row; a list or struct as its JSON text.")
@click.option("--json", "as_json", is_flag=True,
              help="A JSON array of row objects (a JSON column nested; NaN and Infinity, "
                   "which JSON cannot write, as null; columns named apart).")
@click.option("--max-rows", type=click.IntRange(min=1), default=None,
              help="Print at most this many rows (default 10000).")
@click.option("--timeout", type=click.FloatRange(min=0), default=None,
              help="Stop the statement after this many seconds (default 30; 0: no limit).")
@click.pass_obj
def sql(obj: Context, query: str, as_csv: bool, as_json: bool, max_rows: int | None,
        timeout: float | None) -> None:
    """Run one read-only SELECT over the events, derived tables and views (see docs/SQL.md):
    sessions, standings, player_session_results, player_hand_results, hands, pots, results,
    discrepancies, audit_discrepancies. At most --max-rows rows are printed (a line says when
    there were more) and the statement stops after --timeout seconds."""
    from replay.books import sql as run_query

    if as_json and as_csv:
        raise MalformedInput("sql takes --json or --csv, not both")
    done = run_query(obj.db, query, max_rows=max_rows, timeout=timeout)
    columns, rows = done.columns, done.rows
    more = (f"note: stopped at {len(rows)} rows: there are more; --max-rows N prints more"
            if done.more else None)
    if as_json:
        click.echo(sql_rows.json_rows(columns, done.types, rows))
    elif as_csv:
        click.echo(sql_rows.csv_rows(columns, rows), nl=False)
    else:
        click.echo(text.sql_table(columns, rows, more=more))
        return
    if more:
        click.echo(more, err=True)  # beside the data, never inside it


@click.command()
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--money", is_flag=True, help="Plot money instead of chips.")
@click.option("--session", "session_name", default=None, help="Only this session's hands.")
@click.pass_obj
def chart(obj: Context, out: str, money: bool, session_name: str | None) -> None:
    """Write OUT (PNG, or the format its suffix names: .svg, .pdf, .jpg …; another suffix is
    refused): each player's cumulative net across the series (or one session), hand by hand
    (the net of balances: what the table paid), in chips, or with --money in the currency's
    units (`Alice (+279.00 USD)`). Chips of different values do not add up: across sessions
    of different chip values it is refused in one line (chart the money with --money, or one
    session with --session), as --money is across currencies."""
    from cli.chart import chart_format, write_chart
    from ledger.model.errors import LedgerError
    from ledger.store.outputs import not_the_ledger
    from replay.books import chart_data

    not_the_ledger(out, obj.db)
    chart_format(Path(out))
    rows, unit = chart_data(obj.db, money=money, session=session_name,
                            progress=render.progress, note=render.note, opened=obj.read_names)
    title = None if session_name is None else (
        f"Cumulative net per player in session {session_name}")
    try:
        undrawable = write_chart(Path(out), rows, "chips", names=obj.names().labels,
                                 title=title, money=unit if money else None)
    except OSError as exc:  # a write refused without the file's name (EIO in /proc)
        raise LedgerError(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"wrote {out}")
    if undrawable:
        click.echo(f"warning: no installed font has the letters of {', '.join(undrawable)}: "
                   f"{out} draws a box for each (an SVG chart keeps the names as text: "
                   "`handledger chart chart.svg`)", err=True)


@click.command(name="demo-series")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--sessions", default=20, show_default=True, type=click.IntRange(min=1),
              help="Sessions to deal, a JSON-lines file each.")
@click.option("--hands", default=150, show_default=True, type=click.IntRange(min=1),
              help="Hands per session.")
@click.option("--seed", default=1, show_default=True, type=int,
              help="Seed of the deal: the same seed deals the same series, another seed "
                   "another one.")
@click.option("--plant-errors", is_flag=True,
              help="Plant one mis-paid side pot, wrong cash-out, broken stack continuity and "
                   "short settlement payment.")
@click.pass_obj
def demo_series(obj: Context, out: str, sessions: int, hands: int, seed: int,
                plant_errors: bool) -> None:
    """Deal a deterministic series of mixed games through the engine into OUT, one JSON-lines
    file per session (`handledger import OUT` reads it). No file or folder it writes is the
    ledger (--db), its .wal or its .checkpoints."""
    from replay.demo.series import demo_series as play

    series, paths = play(Path(out), sessions=sessions, hands=hands, seed=seed,
                         plant_errors=plant_errors, ledger=obj.db)
    click.echo(f"wrote {len(paths)} session file(s), {series.hands} hands, to {out}")
    for p in series.planted:
        where = f"hand {p.hand}" if p.hand else f"session {p.session}"
        click.echo(f"planted {p.kind}: {where}, {', '.join(p.players)}: {p.detail}")
    if plant_errors and len(series.planted) < 4:
        click.echo("warning: not every error could be planted (too few hands or sessions)",
                   err=True)


COMMANDS = [balances, standings, settle, sql, chart, demo_series]
