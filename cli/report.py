"""A static site of the books (``handledger report OUT_DIR``): the pages rendered and written.

Layout of ``OUT_DIR``: ``index.html`` (the standings grid, the series chart, the sessions, the
disputed and corrected hands, the audit), ``sessions/<session>.html``, ``hands/<hand>.html``
(the page of ``handledger view``, :func:`cli.html.render_hand`, with links back) and
``assets/`` (the stylesheets and the hand page's script, shared by every page). Plain files,
no server, no network: it works opened from a file. What the pages show is gathered by
:mod:`replay.report`.

Re-running it rewrites only what changed. Each hand page carries a key in its head: a digest
of what it shows (the hand's rows in the ledger, sealed by the chain hash of its last row, its
session's chip value, its links) and of the code that draws it (the engine, the application
and the templates); a page whose key is unchanged is kept without being read from the ledger
or drawn again. The index and the session pages are drawn every time (they are few) and
written only when their text changed. Pages of hands and sessions that are no longer in the
ledger are removed. Every file is written whole or not at all (:func:`replay.pagefiles.write_page`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli.html import asset, embed_json, render_hand, render_page
from replay.pagefiles import (
    existing_key,
    file_names,
    remove_stale,
    write_if_changed,
    write_page,
)

HANDS, SESSIONS, ASSETS = "hands", "sessions", "assets"
ASSET_FILES = ("base.css", "hand.css", "hand.js", "report.css")
NO_SESSION = "~no-session"  # never a name page_name gives a session: "~" is not kept


@dataclass(frozen=True)
class Written:
    """What a run did: pages ``written`` and ``kept`` (unchanged), per kind (``hand``,
    ``session``, ``index``, ``asset``), and the files ``removed``."""

    written: dict[str, int]
    kept: dict[str, int]
    removed: int


#: What a hand page is drawn with, beside the engine, the ledger and the application.
_HAND_CODE = ("html.py", "report.py", "templates/page.html", "templates/hand.html",
              "templates/base.css", "templates/hand.css", "templates/hand.js",
              "templates/unreplayable.html", "templates/report.css")


def code_digest() -> str:
    """A digest of the code that draws a hand page: every Python file of the engine, the
    ledger and the application, the page's renderer and its templates (a change to any of
    them redraws every hand page)."""
    import cli
    import engine
    import ledger.model
    import replay

    h = hashlib.sha256()
    roots = [Path(engine.__file__).parent, Path(ledger.model.__file__).parents[1],
             Path(replay.__file__).parent]
    here = Path(cli.__file__).parent
    files = [p for r in roots for p in sorted(r.rglob("*.py"))]
    files += [here / n for n in _HAND_CODE]
    for p in files:
        h.update(str(p.relative_to(p.parents[1])).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def hand_links(report: Any, hand_files: dict[str, str], session_files: dict[str | None, str]
               ) -> dict[str, list[tuple[str, str]]]:
    """The links above each hand page: the index, its session, the hands before and after
    it in the session."""
    out = {}
    for s in report.sessions:
        label = f"Session {s.name}" if s.name is not None else "Hands of no session"
        hands = s.hands
        for i, h in enumerate(hands):
            links = [("../index.html", "Index"),
                     (f"../{SESSIONS}/{session_files[s.name]}", label),
                     ("../index.html#disputes", "Disputed and corrected hands")]
            if i > 0:
                before = hands[i - 1].hand
                links.append((hand_files[before], f"← Previous hand {before}"))
            if i + 1 < len(hands):
                after = hands[i + 1].hand
                links.append((hand_files[after], f"Next hand {after} →"))
            out[h.hand] = links
    return out


def index_page(report: Any, hand_files: dict[str, str],
               session_files: dict[str | None, str]) -> str:
    """The text of ``index.html`` (``report``: :class:`replay.report.SeriesReport`)."""
    from markupsafe import Markup

    from cli.chart import chart_svg
    from ledger.model.money import format_money

    grid = report.standings
    session_money = {s.name: s.money for s in report.sessions}
    sums = {s["session"]: sum(p["nets"].get(s["session"], 0) for p in grid.players)
            for s in grid.sessions}
    money_totals = ({p["player"]: p["total"] for p in report.money.players}
                    if report.money else {})
    kinds = report.finding_kinds
    return render_page(
        "index.html", report=report, hand_files=hand_files, session_files=session_files,
        links=[], key=None, stylesheets=[f"{ASSETS}/base.css", f"{ASSETS}/report.css"],
        style="", session_money=session_money, session_sums=sums, grid_sum=sum(sums.values()),
        money_totals=money_totals, any_money=any(session_money.values()),
        minor=lambda n, unit: format_money(n, unit[0], unit[1]),
        chart=Markup(chart_svg(report.chart, report.starts,
                               {p["player"]: p["nickname"] for p in grid.players
                                if p["nickname"]})) if report.chart else None,
        hands=len(report.hands),
        flagged=report.flagged, kinds=kinds, findings_total=sum(n for _, n in kinds),
        standings_json=Markup(embed_json(grid.as_json())),
        money_json=Markup(embed_json(report.money.as_json())) if report.money else None)


def session_page(report: Any, s: Any, hand_files: dict[str, str],
                 session_files: dict[str | None, str]) -> str:
    """The text of one session's page (``s``: :class:`replay.report.SessionEntry`)."""
    from ledger.model.money import format_money

    names = [x.name for x in report.sessions]
    i = names.index(s.name)
    links = [("../index.html", "Index"), ("../index.html#standings", "Standings")]
    if i > 0:
        links.append((session_files[names[i - 1]], f"← Previous session {_title(names[i - 1])}"))
    if i + 1 < len(names):
        links.append((session_files[names[i + 1]], f"Next session {_title(names[i + 1])} →"))
    return render_page(
        "session.html", s=s, hand_files=hand_files, session_files=session_files, links=links,
        key=None, stylesheets=[f"../{ASSETS}/base.css", f"../{ASSETS}/report.css"], style="",
        minor=lambda n, unit: format_money(n, unit[0], unit[1]))


def _title(session: str | None) -> str:
    return session if session is not None else "(hands of no session)"


def hand_page(books: Any, hand: str, rows: list[Any], links: list[tuple[str, str]],
              key: str) -> str:
    """The text of one hand's page: the page of ``handledger view`` (:func:`render_hand`),
    or, for a hand whose stored events the rules refuse (the audit's ``unreplayable``), a page
    saying why, with its rows as stored."""
    from ledger.model.errors import LedgerError
    from replay.handview import hand_view

    session = rows[0].session
    try:
        session = session or rows[0].event.session
        view = hand_view(rows, opened=books.opened.get(session) if session else None)
    except LedgerError as exc:
        seq = getattr(exc, "seq", None)
        reason = f"event {seq}: {exc.message}" if seq else exc.message
        return render_page("unreplayable.html", hand=hand, reason=reason, rows=rows,
                           links=links, key=key, style="",
                           stylesheets=[f"../{ASSETS}/base.css", f"../{ASSETS}/report.css"])
    return render_hand(view, links=links, key=key, assets=f"../{ASSETS}/")


def write_report(books: Any, out: Path, *, tick: Callable[[str, int | None], Any] | None = None
                 ) -> Written:
    """Write the report of ``books`` (:class:`replay.report.ReportBooks`) into ``out``
    (created when missing), rewriting only what changed (see the module doc). ``tick``: a
    :data:`replay.progress.Progress` for the hand pages drawn.

    Raises:
        OSError: a file cannot be written or removed.
        LedgerError: the ledger or its derived tables cannot be read (a hand the rules refuse
            gets a page saying why: :func:`hand_page`).
    """
    from replay.progress import silent

    progress = tick or silent
    report = books.collect()
    for sub in (HANDS, SESSIONS, ASSETS):
        (out / sub).mkdir(parents=True, exist_ok=True)
    written = {"hand": 0, "session": 0, "index": 0, "asset": 0}
    kept = dict.fromkeys(written, 0)
    for name in ASSET_FILES:
        done = write_if_changed(out / ASSETS / name, asset(name))
        (written if done else kept)["asset"] += 1
    hand_files = file_names(h.hand for h in report.hands)
    session_files = {**file_names(s.name for s in report.sessions if s.name is not None),
                     None: NO_SESSION + ".html"}
    links = hand_links(report, hand_files, session_files)
    code = code_digest()
    todo: list[tuple[str, str]] = []
    for h in report.hands:
        key = hashlib.sha256("\n".join(
            [code, h.key, ASSETS, *(f"{a}\t{b}" for a, b in links[h.hand])]).encode()
        ).hexdigest()
        if existing_key(out / HANDS / hand_files[h.hand]) == key:
            kept["hand"] += 1
        else:
            todo.append((h.hand, key))
    keys = dict(todo)
    with progress("hand pages", len(todo)) as step:
        for hand, rows in books.hand_rows([h for h, _ in todo]):
            write_page(out / HANDS / hand_files[hand],
                       hand_page(books, hand, rows, links[hand], keys[hand]))
            written["hand"] += 1
            step()
    for s in report.sessions:
        done = write_if_changed(out / SESSIONS / session_files[s.name],
                                 session_page(report, s, hand_files, session_files))
        (written if done else kept)["session"] += 1
    done = write_if_changed(out / "index.html", index_page(report, hand_files, session_files))
    (written if done else kept)["index"] += 1
    removed = remove_stale(out / HANDS, set(hand_files.values()))
    removed += remove_stale(out / SESSIONS, {session_files[s.name] for s in report.sessions})
    return Written(written, kept, removed)


def summary(out: Path, done: Written) -> str:
    """One line: what was written, kept and removed."""
    w, k = done.written, done.kept
    return (f"wrote {out}/index.html: {w['hand']} hand page(s) written, {k['hand']} unchanged;"
            f" {w['session']} session page(s) written, {k['session']} unchanged;"
            f" index {'written' if w['index'] else 'unchanged'}; {done.removed} removed")
