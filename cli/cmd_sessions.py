"""Session commands: ``session open|close|list``, ``buyin``, ``cashout``, ``pay``,
``player alias`` and ``audit`` (issue 5).

Session events go to the stream ``session:<name>`` in the order they are given; where a buy-in
or cash-out falls between hands is its place in the ledger (table stakes). Amounts: chips are
integers; money (``--chip-value``, ``pay``) is written as a decimal in the session's currency
and kept as integer minor units. ``audit`` and the commands that read the derived tables call
:func:`ensure_fresh`, which replays and audits only the sessions that moved since the tables
were built (:mod:`replay.projections`).
"""

from __future__ import annotations

import json
import sys
from datetime import date as Date
from decimal import Decimal, InvalidOperation
from typing import Any

import click

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound

#: Currencies without minor units (ISO 4217 exponent 0); any other currency has 2 decimals.
ZERO_DECIMAL = frozenset({"JPY", "KRW", "ISK", "CLP", "VND", "XOF", "XAF", "UGX", "PYG"})


def ensure_fresh(obj: Any, *, quiet: bool = False, jobs: int = 1) -> None:
    """Bring the derived tables and views up to the ledger's head: only the sessions that
    moved since they were built are replayed (:func:`replay.projections.catch_up`), or every hand
    when they were never built.

    Raises:
        LedgerError: no ledger at ``obj.db``, or a hand the rules reject.
    """
    from replay.projections import catch_up

    _require(obj)
    catch_up(obj.ledger(), jobs=jobs, quiet=quiet)


def audit_report(obj: Any, *, quiet: bool = False, jobs: int = 1) -> Any:
    """The audit as of the ledger's head (:class:`ledger.audit.tables.AuditReport`), read from
    the derived tables, rebuilt first when the ledger moved since.

    Raises:
        LedgerError: what :func:`ensure_fresh` raises.
    """
    from ledger.audit.tables import read_audit

    ensure_fresh(obj, quiet=quiet, jobs=jobs)
    return read_audit(obj.ledger().connection)


def _require(obj: Any) -> None:
    """Raise :class:`NotFound` when there is no ledger file (rather than create an empty one)."""
    from pathlib import Path

    if obj.db != ":memory:" and not Path(obj.db).exists():
        raise NotFound(f"no ledger at {obj.db} (run `handledger init` or import)")


# ------------------------------------------------------------------------------- helpers


def parse_money(text: str, decimals: int, *, what: str = "amount") -> int:
    """``"12.50"`` with 2 decimals → 1250 minor units.

    Raises:
        MalformedInput: not a number, not positive, or more decimal places than ``decimals``.
    """
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise MalformedInput(f"{what} {text!r} is not a number") from None
    minor = value.scaleb(decimals) if value.is_finite() else value
    if not value.is_finite() or minor != minor.to_integral_value() or minor <= 0:
        raise MalformedInput(f"{what} {text!r} is not a positive amount with at most "
                             f"{decimals} decimal place(s)")
    return int(minor)


def _state(ledger: Any, name: str) -> dict[str, Any]:
    """What the session stream says so far: opened, closed, decimals, players bought in."""
    rows = ledger.connection.execute(
        "SELECT type, payload->>'player', payload->>'decimals', payload->>'currency'"
        " FROM events WHERE stream = ? ORDER BY seq", [f"session:{name}"]).fetchall()
    state: dict[str, Any] = {"opened": False, "closed": False, "decimals": 0,
                             "currency": None, "bought": set()}
    for kind, player, decimals, currency in rows:
        if kind == "session_opened" and not state["opened"]:
            state.update(opened=True, decimals=int(decimals), currency=currency)
        elif kind == "session_closed":
            state["closed"] = True
        elif kind == "buy_in":
            state["bought"].add(player)
    return state


def _open_session(ledger: Any, name: str, *, allow_closed: bool = False) -> dict[str, Any]:
    state = _state(ledger, name)
    if not state["opened"]:
        raise NotFound(f"no session {name!r} (open it with `handledger session open {name}`)")
    if state["closed"] and not allow_closed:
        raise LedgerError(f"session {name!r} is closed")
    return state


def _append(ledger: Any, name: str, event: Any) -> None:
    ledger.append(f"session:{name}", [event])


# ------------------------------------------------------------------------------- commands


@click.group()
def session() -> None:
    """Open, close and list sessions."""


@session.command(name="open")
@click.argument("name")
@click.option("--date", "day", default=None, help="ISO date (default: today).")
@click.option("--chip-value", default="1", show_default=True,
              help="Money per chip, e.g. 0.25 (kept as integer minor units).")
@click.option("--currency", default=None, help="Currency code, e.g. USD.")
@click.option("--decimals", type=click.IntRange(0, 6), default=None,
              help="Minor-unit decimals (default: 2 for a currency, 0 for JPY and the like; "
                   "without a currency, those of --chip-value).")
@click.pass_obj
def session_open(obj: Any, name: str, day: str | None, chip_value: str, currency: str | None,
                 decimals: int | None) -> None:
    """Open session NAME: 1 chip = --chip-value money in --currency."""
    try:
        day = (Date.fromisoformat(day) if day else Date.today()).isoformat()
    except ValueError:
        raise MalformedInput(f"--date {day!r} is not an ISO date (YYYY-MM-DD)") from None
    if decimals is None:
        if currency:
            decimals = 0 if currency.upper() in ZERO_DECIMAL else 2
        else:
            exponent = Decimal(chip_value).as_tuple().exponent if _is_number(chip_value) else 0
            decimals = max(0, -int(exponent))
    minor = parse_money(chip_value, decimals, what="--chip-value")
    ledger = obj.ledger()
    if _state(ledger, name)["opened"]:
        raise LedgerError(f"session {name!r} already exists")
    _append(ledger, name, ev.SessionOpened(session=name, date=day, chip_value_minor=minor,
                                           currency=currency, decimals=decimals))
    value = render_money(minor, decimals, currency)
    click.echo(f"session {name} opened {day}: 1 chip = {value}")


def _is_number(text: str) -> bool:
    try:
        return Decimal(text).is_finite()
    except InvalidOperation:
        return False


def render_money(minor: int, decimals: int, currency: str | None) -> str:
    from ledger.audit.books import format_money

    return format_money(minor, decimals, currency)


@session.command(name="close")
@click.argument("name")
@click.pass_obj
def session_close(obj: Any, name: str) -> None:
    """Close session NAME (no more buy-ins; payments settle it up)."""
    ledger = obj.ledger()
    _open_session(ledger, name)
    _append(ledger, name, ev.SessionClosed())
    click.echo(f"session {name} closed")


@session.command(name="list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def session_list(obj: Any, as_json: bool) -> None:
    """Sessions in ledger order with their date, chip value, hands and state."""
    con = obj.ledger(read_only=True).connection
    rows = con.execute(
        "SELECT session, any_value(payload->>'date') FILTER (WHERE type = 'session_opened'),"
        " bool_or(type = 'session_closed'), count(*) FILTER (WHERE type = 'buy_in'),"
        " min(position) FROM events WHERE hand_id IS NULL GROUP BY session ORDER BY 5").fetchall()
    hands = dict(con.execute("SELECT session, count(*) FROM events WHERE seq = 1 AND hand_id"
                             " IS NOT NULL GROUP BY session").fetchall())
    out = [{"session": s, "date": d, "closed": bool(c), "buy_ins": b, "hands": hands.get(s, 0)}
           for s, d, c, b, _ in rows]
    if as_json:
        click.echo(json.dumps({"sessions": out}))
        return
    for s in out:
        state = "closed" if s["closed"] else "open"
        click.echo(f"{s['session']}  {s['date'] or '-'}  {s['hands']} hand(s)  "
                   f"{s['buy_ins']} buy-in(s)  {state}")


@click.command()
@click.argument("session_name", metavar="SESSION")
@click.argument("player")
@click.argument("chips", type=click.IntRange(min=1))
@click.option("--kind", type=click.Choice(["buy_in", "rebuy", "top_up"]), default=None,
              help="Default: buy_in for his first, rebuy after.")
@click.pass_obj
def buyin(obj: Any, session_name: str, player: str, chips: int, kind: str | None) -> None:
    """PLAYER buys CHIPS in SESSION (between hands: table stakes)."""
    ledger = obj.ledger()
    state = _open_session(ledger, session_name)
    kind = kind or ("rebuy" if player in state["bought"] else "buy_in")
    _append(ledger, session_name, ev.BuyIn(player=player, chips=chips, kind=kind))
    click.echo(f"{session_name}: {player} {kind.replace('_', '-')} {chips} chips")


@click.command()
@click.argument("session_name", metavar="SESSION")
@click.argument("player")
@click.argument("chips", type=click.IntRange(min=0))
@click.pass_obj
def cashout(obj: Any, session_name: str, player: str, chips: int) -> None:
    """PLAYER leaves SESSION with CHIPS counted (also allowed after the session closed)."""
    ledger = obj.ledger()
    _open_session(ledger, session_name, allow_closed=True)
    _append(ledger, session_name, ev.CashOut(player=player, chips=chips))
    click.echo(f"{session_name}: {player} cashed out {chips} chips")


@click.command()
@click.argument("session_name", metavar="SESSION")
@click.argument("payer", metavar="FROM")
@click.argument("payee", metavar="TO")
@click.argument("amount")
@click.pass_obj
def pay(obj: Any, session_name: str, payer: str, payee: str, amount: str) -> None:
    """FROM pays TO AMOUNT of money (e.g. 12.50) to settle SESSION up."""
    if payer == payee:
        raise MalformedInput("a payment needs two different players")
    ledger = obj.ledger()
    state = _open_session(ledger, session_name, allow_closed=True)
    minor = parse_money(amount, state["decimals"])
    _append(ledger, session_name, ev.Payment(payer=payer, payee=payee, amount_minor=minor))
    value = render_money(minor, state["decimals"], state["currency"])
    click.echo(f"{session_name}: {payer} paid {payee} {value}")


@click.group()
def player() -> None:
    """Players across the series."""


@player.command(name="alias")
@click.argument("name")
@click.argument("other")
@click.option("--session", "session_name", default=None,
              help="Record it in this session's stream (default: the latest session).")
@click.pass_obj
def player_alias(obj: Any, name: str, other: str, session_name: str | None) -> None:
    """OTHER (another name or a platform id) is the player NAME everywhere: balances,
    standings, the audit. The latest alias wins."""
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    ledger = obj.ledger()
    if session_name is None:
        row = ledger.connection.execute(
            "SELECT session FROM events WHERE type = 'session_opened'"
            " ORDER BY position DESC LIMIT 1").fetchone()
        if row is None:
            raise NotFound("no session to record the alias in: open one first")
        session_name = row[0]
    _open_session(ledger, session_name, allow_closed=True)
    _append(ledger, session_name, ev.PlayerAlias(player=name, alias=other))
    click.echo(f"{other} is {name}")


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session's findings.")
@click.option("--json", "as_json", is_flag=True,
              help='{"discrepancies": [{"kind", "session", "hand", "player", "expected", '
                   '"actual", "message"}], "incomplete_hands": [...] (when any)}')
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Processes replaying hands when the ledger moved since the last audit.")
@click.pass_obj
def audit(obj: Any, session_name: str | None, as_json: bool, jobs: int) -> None:
    """Check the books: payouts, chip conservation, stack continuity, session balances,
    settlements and platform ledgers (import --ledger). Exit 0 when every chip adds up, 1 when
    anything does not. Incomplete hands (a log cut mid-hand) are named, counted at net 0.
    Hands are replayed only when the ledger moved since the last audit or full replay."""
    report = audit_report(obj, quiet=as_json, jobs=jobs)
    if session_name is not None and session_name not in report.hands:
        raise NotFound(f"no session {session_name!r} in the ledger")
    found = [d for d in report.findings if session_name is None or d.session == session_name]
    if as_json:
        body: dict[str, Any] = {"discrepancies": [d.as_json() for d in found]}
        if cut := incomplete_hands(report, session_name):
            body["incomplete_hands"] = cut
        click.echo(json.dumps(body))
    else:
        click.echo(audit_text(report, found, session_name))
    if found:
        sys.exit(1)


def audit_text(report: Any, found: list[Any], session_name: str | None = None) -> str:
    """One line per finding, a line naming the incomplete hands, and a summary line
    (``report``: :class:`ledger.audit.tables.AuditReport`)."""
    lines = [f"{d.kind}: {d.message}" + _where(d) for d in found]
    cut = incomplete_hands(report, session_name)
    if cut:
        lines.append(f"{len(cut)} incomplete hand(s), the log stopping before their end, "
                     f"counted with every chip returned: {', '.join(cut)}")
    books = [k for k in report.hands if k is not None and session_name in (None, k)]
    hands = sum(n for k, n in report.hands.items() if session_name in (None, k))
    scope = f"{hands} hand(s) in {len(books)} session(s)"
    if not found:
        lines.append(f"audit clean: {scope}; every chip adds up")
    else:
        counts: dict[str, int] = {}
        for d in found:
            counts[d.kind] = counts.get(d.kind, 0) + 1
        kinds = ", ".join(f"{k} {n}" for k, n in counts.items())
        lines.append(f"audit: {len(found)} discrepanc{'y' if len(found) == 1 else 'ies'} in "
                     f"{scope} ({kinds})")
    return "\n".join(lines)


def incomplete_hands(report: Any, session_name: str | None = None) -> list[str]:
    """Hands whose log stops before their end (a PokerNow export cut mid-hand). The engine
    settles them like a void, every contribution back (replay notes it), so the books and the
    audit count them at net 0: never a discrepancy, but named so the nets are read with care."""
    return [hand for hand, session in report.incomplete if session_name in (None, session)]


def _where(d: Any) -> str:
    parts = [f"{k} {v}" for k, v in (("session", d.session), ("hand", d.hand),
                                      ("player", d.player)) if v is not None]
    return f" [{', '.join(parts)}; expected {d.expected}, actual {d.actual}]"


COMMANDS = [session, buyin, cashout, pay, player, audit]
