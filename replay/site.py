"""A static site of the books (``handledger report OUT_DIR``) planned and written: its files,
the links between its pages, which pages need drawing, what is kept and what removed. What the
pages show is gathered by :mod:`replay.report`; the drawing is the caller's, a :class:`Pages`
(the CLI's HTML renderer), so nothing here knows HTML.

Layout of ``OUT_DIR``: ``index.html`` (the standings grid, the series chart, the sessions, the
disputed and corrected hands, the audit), ``sessions/<session>.html``, ``hands/<hand>.html``
(the page of ``handledger view``, with links back) and ``assets/`` (the stylesheets and the
hand page's script, shared by every page). Plain files, no server, no network: it works
opened from a file.

Re-running it rewrites only what changed. Each hand page carries a key in its head: a digest
of what it shows (the hand's rows in the ledger, sealed by the chain hash of its last row, its
session's chip value, what the check of its signatures said, its links, the names of the
ledger's PokerNow players) and of the code
that draws it (the engine, the ledger, the application and the renderer's files,
:attr:`Pages.code`); a page whose key is unchanged is kept without being read from the ledger
or drawn again. The index and the session pages are
drawn every time (they are few) and written only when their text changed. Pages of hands and
sessions that are no longer in the ledger are removed. Every file is written whole or not at
all (:func:`replay.pagefiles.write_page`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ledger.model.errors import LedgerError
from ledger.store.outputs import LedgerFiles, no_folder_made_is_the_ledger, none_is_the_ledger
from ledger.store.store import StoredEvent
from replay.handview import HandView, hand_view
from replay.pagefiles import existing_key, file_names, remove_stale, write_if_changed, write_page
from replay.progress import Progress, silent
from replay.report import ReportBooks, SeriesReport, SessionEntry

HANDS, SESSIONS, ASSETS = "hands", "sessions", "assets"
NO_SESSION = "~no-session"  # never a name page_name gives a session: "~" is not kept

#: ``(href, text)`` of the links above a page.
Links = list[tuple[str, str]]


class Pages(Protocol):
    """What draws the site's pages; each method returns a page's text. A page marks itself
    and carries its ``key`` in its head as :mod:`replay.pagefiles` reads them back."""

    #: the names of the files in ``assets/``
    assets: Sequence[str]
    #: the files that draw a hand page, beside the engine, the ledger and the application
    code: Sequence[Path]

    def asset(self, name: str) -> str:
        """The text of ``assets/<name>``."""

    def index(self, report: SeriesReport, hand_files: dict[str, str],
              session_files: dict[str | None, str]) -> str:
        """``index.html``; ``hand_files`` and ``session_files``: each page's file name."""

    def session(self, s: SessionEntry, hand_files: dict[str, str],
                session_files: dict[str | None, str], links: Links,
                names: Mapping[str, str]) -> str:
        """The page of session ``s``, its players known by a PokerNow id (``names``: id →
        name) named as the reads name them."""

    def hand(self, view: HandView, links: Links, key: str, names: Mapping[str, str]) -> str:
        """The page of a hand (the page of ``handledger view``), its players known by a
        PokerNow id (``names``: id → name) named as the reads name them."""

    def unreplayable(self, hand: str, reason: str, rows: list[StoredEvent], links: Links,
                     key: str) -> str:
        """The page of a hand whose stored events the rules refuse, saying why."""


@dataclass(frozen=True)
class Written:
    """What a run did: pages ``written`` and ``kept`` (unchanged), per kind (``hand``,
    ``session``, ``index``, ``asset``), and the files ``removed``."""

    written: dict[str, int]
    kept: dict[str, int]
    removed: int


def code_digest(code: Iterable[Path]) -> str:
    """A digest of the code that draws a hand page: every Python file of the engine, the
    ledger and the application, then the renderer's ``code`` files (a change to any of them
    redraws every hand page)."""
    import engine
    import ledger.model
    import replay

    h = hashlib.sha256()
    roots = [Path(engine.__file__).parent, Path(ledger.model.__file__).parents[1],
             Path(replay.__file__).parent]
    files = [p for r in roots for p in sorted(r.rglob("*.py"))]
    files += list(code)
    for p in files:
        h.update(str(p.relative_to(p.parents[1])).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def hand_links(report: SeriesReport, hand_files: dict[str, str],
               session_files: dict[str | None, str]) -> dict[str, Links]:
    """The links above each hand page: the index, its session, the hands before and after
    it in the session (a hand in no session's page, a voided hand of no session: the index
    and its disputed and corrected hands)."""
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
    for h in report.hands:  # a voided hand of no session: in no session's page
        out.setdefault(h.hand, [("../index.html", "Index"),
                                ("../index.html#disputes", "Disputed and corrected hands")])
    return out


def session_links(report: SeriesReport, s: SessionEntry,
                  session_files: dict[str | None, str]) -> Links:
    """The links above a session's page: the index, the standings, the sessions before and
    after it."""
    names = [x.name for x in report.sessions]
    i = names.index(s.name)
    links = [("../index.html", "Index"), ("../index.html#standings", "Standings")]
    if i > 0:
        links.append((session_files[names[i - 1]], f"← Previous session {_title(names[i - 1])}"))
    if i + 1 < len(names):
        links.append((session_files[names[i + 1]], f"Next session {_title(names[i + 1])} →"))
    return links


def _title(session: str | None) -> str:
    return session if session is not None else "(hands of no session)"


def hand_page(books: ReportBooks, pages: Pages, hand: str, rows: list[StoredEvent],
              links: Links, key: str) -> str:
    """The text of one hand's page: its :func:`replay.handview.hand_view` drawn by
    ``pages.hand``, or, for a hand whose stored events the rules refuse (the audit's
    ``unreplayable``), ``pages.unreplayable`` saying why, with its rows as stored."""
    session = rows[0].session
    try:
        session = session or rows[0].event.session
        view = hand_view(rows, opened=books.opened.get(session) if session else None,
                         signatures=books.signed.get(hand, []) if books.keys is not None
                         else None, late=books.late.get(hand, ()))
    except LedgerError as exc:
        seq = getattr(exc, "seq", None)
        reason = f"event {seq}: {exc.message}" if seq else exc.message
        return pages.unreplayable(hand, reason, rows, links, key)
    return pages.hand(view, links, key, books.names)


def write_site(books: ReportBooks, out: Path, pages: Pages, *, tick: Progress = silent
               ) -> Written:
    """Write the site of ``books`` drawn by ``pages`` into ``out`` (created when missing),
    rewriting only what changed (see the module doc). ``tick``: progress of the hand pages
    drawn.

    The ledger file and its write-ahead log are never written or removed, wherever they lie
    in ``out``: a page that would be one of them, or ``out`` (or a folder above it that
    would be made) at one's name, refuses the report before anything is written
    (:func:`ledger.store.outputs.none_is_the_ledger`,
    :func:`ledger.store.outputs.no_folder_made_is_the_ledger`).

    Raises:
        OSError: a file cannot be written or removed.
        LedgerError: a page to write is the ledger file (``report site: site/index.html is
            the ledger itself: nothing written``), ``out`` is its write-ahead log
            (``l.duckdb.wal is the ledger's write-ahead log: nothing written``); the ledger or
            its derived tables cannot be read (a hand the rules refuse gets a page saying why:
            :func:`hand_page`).
    """
    report = books.collect()
    hand_files = file_names(h.hand for h in report.hands)
    session_files = file_names(s.name for s in report.sessions if s.name is not None)
    if any(s.name is None for s in report.sessions):  # none when a voided hand is all it had
        session_files[None] = NO_SESSION + ".html"
    ledger = LedgerFiles(books.ledger.path)
    no_folder_made_is_the_ledger(out, books.ledger.path, f"report {out}")
    none_is_the_ledger([out / "index.html", *(out / ASSETS / name for name in pages.assets),
                        *(out / HANDS / f for f in hand_files.values()),
                        *(out / SESSIONS / f for f in session_files.values())],
                       books.ledger.path, f"report {out}")
    for sub in (HANDS, SESSIONS, ASSETS):
        (out / sub).mkdir(parents=True, exist_ok=True)
    written = {"hand": 0, "session": 0, "index": 0, "asset": 0}
    kept = dict.fromkeys(written, 0)
    for name in pages.assets:
        done = write_if_changed(out / ASSETS / name, pages.asset(name))
        (written if done else kept)["asset"] += 1
    links = hand_links(report, hand_files, session_files)
    code = code_digest(pages.code)
    # the names a page shows its PokerNow players by: a new name (`player alias`) redraws them
    shown = hashlib.sha256(repr(sorted(books.names.items())).encode()).hexdigest()
    todo: list[tuple[str, str]] = []
    for h in report.hands:
        key = hashlib.sha256("\n".join(
            [code, h.key, ASSETS, shown, *(f"{a}\t{b}" for a, b in links[h.hand])]).encode()
        ).hexdigest()
        if existing_key(out / HANDS / hand_files[h.hand]) == key:
            kept["hand"] += 1
        else:
            todo.append((h.hand, key))
    keys = dict(todo)
    with tick("hand pages", len(todo)) as step:
        for hand, rows in books.hand_rows([h for h, _ in todo]):
            write_page(out / HANDS / hand_files[hand],
                       hand_page(books, pages, hand, rows, links[hand], keys[hand]))
            written["hand"] += 1
            step()
    for s in report.sessions:
        done = write_if_changed(out / SESSIONS / session_files[s.name], pages.session(
            s, hand_files, session_files, session_links(report, s, session_files),
            books.names))
        (written if done else kept)["session"] += 1
    done = write_if_changed(out / "index.html", pages.index(report, hand_files, session_files))
    (written if done else kept)["index"] += 1
    removed = remove_stale(out / HANDS, set(hand_files.values()), spare=ledger.which)
    removed += remove_stale(out / SESSIONS, {session_files[s.name] for s in report.sessions},
                            spare=ledger.which)
    return Written(written, kept, removed)
