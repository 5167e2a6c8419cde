"""Series commands: ``balances``, ``settle``, ``sql``, ``chart`` and ``demo-series`` (issue 5).

They read the derived tables and views (:mod:`ledger.audit.tables`), rebuilt first when the ledger
moved since they were built. Chips are integers; money is chips × the session's chip value, in
integer minor units, printed with the currency's decimals.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click

from cli.cmd_sessions import ensure_fresh
from ledger.audit.books import format_money
from ledger.model.errors import LedgerError, NotFound

_BALANCE_SQL = """
SELECT player, sum({net}) AS net, sum({buy_in}) AS buy_in, sum({cash_out}) AS cash_out,
    sum(hands) AS hands, count(session) AS sessions,
    string_agg(DISTINCT coalesce(currency, ''), ',') AS currency,
    string_agg(DISTINCT CAST(decimals AS VARCHAR), ',') AS decimals,
    any_value(nickname) AS nickname
FROM player_session_results LEFT JOIN player_nicknames USING (player)
WHERE $1 IS NULL OR session = $1
GROUP BY player ORDER BY net DESC, player"""


def _unit(rows: list[tuple], money: bool) -> tuple[int, str | None]:
    """The one (decimals, currency) of the rows; chips (0, None) when not ``money``.

    Raises:
        LedgerError: money over sessions with different currencies or decimals.
    """
    if not money:
        return 0, None
    currencies = {c for r in rows for c in (r[6] or "").split(",")}
    decimals = {d for r in rows for d in (r[7] or "0").split(",")}
    if len(currencies) > 1 or len(decimals) > 1:
        raise LedgerError("the sessions use different currencies or decimals: use --session")
    return int(decimals.pop() if decimals else 0), (currencies.pop() if currencies else "") or None


def balance_rows(obj: Any, session: str | None, money: bool) -> tuple[list[dict[str, Any]],
                                                                    tuple[int, str | None]]:
    """Per player: net, buy_in, cash_out (chips, or minor units with ``money``), hands,
    sessions and his PokerNow nickname (None unless known by a PokerNow id); and the
    (decimals, currency) to print money with.

    Raises:
        NotFound: ``session`` is not in the ledger.
    """
    con = obj.ledger().connection
    if session is not None and not con.execute(
            "SELECT 1 FROM session_book WHERE session = ?", [session]).fetchone():
        raise NotFound(f"no session {session!r} in the ledger")
    suffix = "_minor" if money else ""
    query = _BALANCE_SQL.format(net=f"net{suffix}", buy_in=f"buy_in{suffix}",
                                cash_out=f"cash_out{suffix}")
    rows = con.execute(query, [session]).fetchall()
    unit = _unit(rows, money)
    keys = ("player", "net", "buy_in", "cash_out", "hands", "sessions")
    return [{**{k: (int(v) if k != "player" else v) for k, v in zip(keys, r, strict=False)},
             "nickname": r[8]} for r in rows], unit


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session.")
@click.option("--money", is_flag=True, help="Money (chips × chip value) instead of chips.")
@click.option("--json", "as_json", is_flag=True,
              help='{"players": [{"player", "net", "buy_in", "cash_out", "hands", '
                   '"sessions", "nickname"}]} (money in integer minor units)')
@click.pass_obj
def balances(obj: Any, session_name: str | None, money: bool, as_json: bool) -> None:
    """Each player's net, buy-ins, cash-outs, hands and sessions, across the series or in one
    session. Nets are the hands' results by the rules. A player known by a PokerNow id shows
    as its latest nickname with the id, e.g. `Mdeyxwb (HXN7RGKNLI)`."""
    ensure_fresh(obj, quiet=as_json)
    players, unit = balance_rows(obj, session_name, money)
    if as_json:
        click.echo(json.dumps({"players": players}))
        return
    click.echo(balances_text(players, unit))


def balances_text(players: list[dict[str, Any]], unit: tuple[int, str | None]) -> str:
    """A table: player (``nickname (id)`` when he has a PokerNow nickname), net, buy-in,
    cash-out, hands, sessions."""
    decimals, currency = unit

    def fmt(v: int) -> str:
        return format_money(v, decimals, None)

    names = [f"{p['nickname']} ({p['player']})" if p.get("nickname") else p["player"]
             for p in players]
    width = max([14, *map(len, names)])
    head = (f"{'player':<{width}} {'net':>12} {'buy-in':>12} {'cash-out':>12} {'hands':>6} "
            "sessions")
    lines = [head + (f"   ({currency})" if currency else "")]
    for name, p in zip(names, players, strict=True):
        lines.append(f"{name:<{width}} {fmt(p['net']):>12} {fmt(p['buy_in']):>12} "
                     f"{fmt(p['cash_out']):>12} {p['hands']:>6} {p['sessions']:>8}")
    return "\n".join(lines)


@click.command()
@click.option("--session", "session_name", default=None, help="Only this session.")
@click.option("--json", "as_json", is_flag=True,
              help='{"transfers": [{"from", "to", "amount"}]} (integer minor units)')
@click.pass_obj
def settle(obj: Any, session_name: str | None, as_json: bool) -> None:
    """The fewest transfers that settle the nets up (money = net chips × chip value). Exact
    minimum for up to 14 players with a nonzero net (zero-sum groups, each settled largest
    debtor to largest creditor); greedy above that. Payments already recorded are not
    subtracted: `audit` checks those."""
    from ledger.audit.settle import fewest_transfers

    ensure_fresh(obj, quiet=as_json)
    players, (decimals, currency) = balance_rows(obj, session_name, money=True)
    nets = {p["player"]: p["net"] for p in players}
    total = sum(nets.values())
    if total:
        raise LedgerError(f"cannot settle: the balances sum to "
                          f"{'+' if total > 0 else ''}{format_money(total, decimals, currency)}, "
                          "not zero (see `handledger audit`)")
    transfers = fewest_transfers(nets)
    if as_json:
        click.echo(json.dumps({"transfers": [{"from": a, "to": b, "amount": n}
                                             for a, b, n in transfers]}))
        return
    for a, b, n in transfers:
        click.echo(f"{a} pays {b} {format_money(n, decimals, currency)}")
    click.echo(f"{len(transfers)} transfer(s) settle {len(nets)} player(s)")


@click.command()
@click.argument("query")
@click.option("--csv", "as_csv", is_flag=True, help="CSV with a header row.")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of row objects.")
@click.pass_obj
def sql(obj: Any, query: str, as_csv: bool, as_json: bool) -> None:
    """Run one read-only SELECT over the events, derived tables and views (see docs/SQL.md):
    sessions, standings, player_session_results, player_hand_results, hands, pots, results,
    discrepancies, audit_discrepancies."""
    from ledger.audit.tables import query as run_query

    ensure_fresh(obj, quiet=True)
    obj.close()  # the query opens the file again, read-only
    columns, rows = run_query(obj.db, query)
    if as_json:
        click.echo(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], default=str))
    elif as_csv:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        click.echo(buf.getvalue(), nl=False)
    else:
        click.echo(sql_table(columns, rows))


def sql_table(columns: list[str], rows: list[tuple]) -> str:
    """A plain text table (rich) of the result, with the row count."""
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
    return text + f"\n({len(rows)} row{'s' if len(rows) != 1 else ''})"


@click.command()
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--money", is_flag=True, help="Plot money instead of chips.")
@click.pass_obj
def chart(obj: Any, out: str, money: bool) -> None:
    """Write OUT.png: each player's cumulative net across the series, hand by hand."""
    ensure_fresh(obj)
    rows = obj.ledger().connection.execute(
        f"SELECT ord, player, {'net_minor' if money else 'net'} FROM player_hand_results"
        " ORDER BY ord, player").fetchall()
    if not rows:
        raise NotFound("no hands in the ledger to chart")
    write_chart(Path(out), rows, "money (minor units)" if money else "chips")
    click.echo(f"wrote {out}")


def write_chart(path: Path, rows: list[tuple[int, str, int]], unit: str) -> None:
    """Plot cumulative nets from ``(ord, player, net)`` rows (ledger order) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = sorted({o for o, _, _ in rows})
    index = {o: i for i, o in enumerate(hands, 1)}
    series: dict[str, tuple[list[int], list[int]]] = {}
    totals: dict[str, int] = {}
    for o, player, net in rows:
        totals[player] = totals.get(player, 0) + net
        xs, ys = series.setdefault(player, ([0], [0]))
        xs.append(index[o])
        ys.append(totals[player])
    for xs, ys in series.values():  # flat to the end of the series after his last hand
        xs.append(len(hands))
        ys.append(ys[-1])
    fig, ax = plt.subplots(figsize=(10, 5.5))
    for player in sorted(series, key=lambda p: -totals[p]):
        xs, ys = series[player]
        ax.step(xs, ys, where="post", label=f"{player} ({totals[player]:+d})")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("hand (ledger order)")
    ax.set_ylabel(f"cumulative net, {unit}")
    ax.set_title("Cumulative net per player across the series")
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


@click.command(name="demo-series")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--sessions", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--hands", default=150, show_default=True, type=click.IntRange(min=1),
              help="Hands per session.")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--plant-errors", is_flag=True,
              help="Plant one mis-paid side pot, wrong cash-out, broken stack continuity and "
                   "short settlement payment.")
def demo_series(out: str, sessions: int, hands: int, seed: int, plant_errors: bool) -> None:
    """Deal a deterministic series of mixed games through the engine into OUT, one JSON-lines
    file per session (`handledger import OUT` reads it)."""
    from replay.demo.series import generate_series, write_series

    series = generate_series(sessions=sessions, hands=hands, seed=seed,
                             plant_errors=plant_errors)
    paths = write_series(series, Path(out))
    click.echo(f"wrote {len(paths)} session file(s), {series.hands} hands, to {out}")
    for p in series.planted:
        where = f"hand {p.hand}" if p.hand else f"session {p.session}"
        click.echo(f"planted {p.kind}: {where}, {', '.join(p.players)}: {p.detail}")
    if plant_errors and len(series.planted) < 4:
        click.echo("warning: not every error could be planted (too few hands or sessions)",
                   err=True)


COMMANDS = [balances, settle, sql, chart, demo_series]
