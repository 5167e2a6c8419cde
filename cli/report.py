"""The pages of the static site of the books (``handledger report OUT_DIR``) drawn in HTML:
:data:`PAGES` is the :class:`replay.site.Pages` that :func:`replay.site.write_site` writes
with (it plans the site: files, links, keys, what is kept; :mod:`replay.report` gathers what
the pages show). A hand's page is the page of ``handledger view``
(:func:`cli.html.render_hand`) with links back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli.books_text import carried_sum_lines, grid_sum_notes, in_progress_lines
from cli.html import asset, embed_json, render_hand, render_page
from replay.site import ASSETS, Written

_HERE = Path(__file__).parent
#: What a hand page is drawn with, beside the engine, the ledger and the application.
_HAND_CODE = ("html.py", "report.py", "templates/page.html", "templates/hand.html",
              "templates/base.css", "templates/hand.css", "templates/hand.js",
              "templates/unreplayable.html", "templates/report.css")
_CSS = [f"../{ASSETS}/base.css", f"../{ASSETS}/report.css"]  # of a page in a folder


def _minor(n: int, unit: tuple[int, str | None]) -> str:
    from ledger.model.money import format_money

    return format_money(n, unit[0], unit[1])


class HtmlPages:
    """The site's pages in HTML (Jinja2 templates in ``cli/templates``, autoescape on):
    a :class:`replay.site.Pages`."""

    assets = ("base.css", "hand.css", "hand.js", "report.css")
    code = tuple(_HERE / n for n in _HAND_CODE)

    def asset(self, name: str) -> str:
        """The text of one of the pages' own files (``cli/templates/<name>``)."""
        return asset(name)

    def index(self, report: Any, hand_files: dict[str, str],
              session_files: dict[str | None, str]) -> str:
        """The text of ``index.html`` (``report``: :class:`replay.report.SeriesReport`)."""
        from markupsafe import Markup

        from cli.chart import chart_svg
        from cli.names import Names, named_players
        from ledger.audit.money_units import chip_unit_text

        grid = report.standings
        heads = [chip_unit_text((u["chip_value_minor"], u["decimals"], u["currency"]))
                 for u in grid.units]
        # a total in chips of one value of several names it, "+650 chips of 0.25 USD": in
        # brackets, as every other cell's, it read as money beside the money total "(+279.00 USD)"
        totals_heads = [h if h == "chips" else f"chips of {h}" for h in heads]
        session_money = {s.name: s.money for s in report.sessions}
        # a column per session, hands of no session one per chip unit when they count several
        keys = [grid.column_key(s) for s in grid.sessions]
        sums = grid.column_sums()  # the seat labels' nets counted too (their own row)
        columns = [(k, f"{chip_unit_text(tuple(s['unit'].values()))}"  # type: ignore[arg-type]
                    if "unit" in s else None,
                    _money(s["unit"]) if "unit" in s else session_money.get(s["session"]))
                   for k, s in zip(keys, grid.sessions, strict=True)]
        money_totals = ({p["player"]: p["total"] for p in report.money.players}
                        if report.money else {})
        # PokerNow players named as the reads name them (`name (id)` when two share a name):
        # the chart's legend, the standings' data as `standings --json` gives it
        names = Names(report.names)
        kinds = report.finding_kinds
        return render_page(
            "index.html", report=report, hand_files=hand_files, session_files=session_files,
            links=[], key=None, stylesheets=[f"{ASSETS}/base.css", f"{ASSETS}/report.css"],
            style="", session_money=session_money, session_sums=sums, columns=columns,
            grid_sum=grid.unit_sums(), money_totals=money_totals,
            unit_heads=heads, total_heads=totals_heads, unit_totals={
                p["player"]: [(t, h) for t, h in zip(p["totals"], totals_heads, strict=True)
                              if t is not None] for p in grid.players if grid.mixed},
            any_money=any(session_money.values()), minor=_minor,
            charts=[(_chart_heading(c) if len(report.charts) > 1 else None,
                     "chips" if c.unit == (1, 0, None) else f"chips of {chip_unit_text(c.unit)}",
                     Markup(chart_svg(c.rows, c.starts, names.labels, gid=f"chart{k or ''}")),
                     len({o for o, _, _ in c.rows}), k or "")
                    for k, c in enumerate(report.charts)],
            hands=len(report.hands), flagged=report.flagged, kinds=kinds, shown=names,
            in_progress_notes=[names(line) for line in in_progress_lines(grid.in_progress)],
            # why the Sum row is not 0, as `standings` says it under its (sum) row
            sum_notes=grid_sum_notes(grid) + carried_sum_lines(grid),
            findings_total=sum(n for _, n in kinds),
            standings_json=Markup(embed_json(named_players(grid.as_json(), names))),
            money_json=Markup(embed_json(named_players(report.money.as_json(), names)))
            if report.money else None)

    def session(self, s: Any, hand_files: dict[str, str],
                session_files: dict[str | None, str], links: list[tuple[str, str]],
                names: dict[str, str]) -> str:
        """The text of one session's page (``s``: :class:`replay.report.SessionEntry`), its
        PokerNow players (``names``: id → name) named in its entries, settle-up and messages
        as ``settle`` and ``audit`` name them (:class:`cli.names.Names`)."""
        from cli.names import Names

        shown = Names(names)
        return render_page(
            "session.html", s=s, hand_files=hand_files, session_files=session_files,
            links=links, key=None, stylesheets=_CSS, style="", minor=_minor,
            label=shown.label, shown=shown,
            in_progress_notes=[shown(line) for line in in_progress_lines(list(s.in_progress))])

    def hand(self, view: Any, links: list[tuple[str, str]], key: str,
             names: dict[str, str]) -> str:
        """The page of ``handledger view`` (:func:`render_hand`), its assets linked, its
        PokerNow players (``names``: id → name) named as the reads name them."""
        from cli.names import Names

        return render_hand(view, links=links, key=key, assets=f"../{ASSETS}/",
                           names=Names(names) if names else None)

    def unreplayable(self, hand: str, reason: str, rows: list[Any],
                     links: list[tuple[str, str]], key: str) -> str:
        """The page of a hand the rules refuse: why, and its rows as stored."""
        return render_page("unreplayable.html", hand=hand, reason=reason, rows=rows,
                           links=links, key=key, style="", stylesheets=_CSS)


PAGES = HtmlPages()


def _money(unit: dict[str, Any]) -> Any:
    """What a chip of ``unit`` (a standings column's ``unit``) is worth, None without a
    currency."""
    from replay.handview import Money

    if unit["currency"] is None:
        return None
    return Money(unit["chip_value_minor"], unit["currency"], unit["decimals"])


def _chart_heading(chart: Any) -> str:
    """``chips of 0.25 USD (s01, s02)``, ``plain chips (no session)``: a chart's unit and
    sessions, as ``balances`` heads a table of one chip unit."""
    from ledger.audit.money_units import chips_of

    named = ", ".join(s or "no session" for s in chart.sessions)
    return f"{chips_of(chart.unit)} ({named})"


def summary(out: Path, done: Written) -> str:
    """One line: what was written, kept and removed."""
    w, k = done.written, done.kept
    return (f"wrote {out}/index.html: {w['hand']} hand page(s) written, {k['hand']} unchanged;"
            f" {w['session']} session page(s) written, {k['session']} unchanged;"
            f" index {'written' if w['index'] else 'unchanged'}; {done.removed} removed")
