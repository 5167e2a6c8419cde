"""The audit of a whole ledger in one streaming pass: memory flat in the number of hands.

:class:`StreamAudit` takes the session rows up front and the hands' facts
(:class:`ledger.audit.books.HandFacts`) one at a time in ledger order, and runs the checks of
:data:`ledger.audit.checks.REGISTRY` by their scope: each hand gets the hand checks as it
comes; each session gets the session checks once :class:`ledger.audit.books.SeriesFold` says
its last row or hand has passed, and then its hands are dropped; the series checks run at the
end. The findings, their order and the books are those of :func:`ledger.audit.checks.audit`
over :func:`ledger.audit.books.build_series` (a test compares them). The cost is linear in
hands and sessions: a session's place in the order is given once, when its book appears.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from typing import NamedTuple

from ledger.audit.books import (
    CashOutCheck,
    HandFacts,
    Revisions,
    Series,
    SeriesFold,
    SessionBook,
    SessionRow,
    StartCheck,
)
from ledger.audit.checks import SESSION_WIDE, STORED, Check, Finding, Scope


class StreamAudit:
    """Fold and audit a ledger hand by hand (see the module doc).

    ``rows``: every session row (:class:`ledger.audit.books.SessionRow`, any order); ``ends``:
    each session's last ledger position (rows and hands), so that a session is audited and
    its hands dropped as soon as it is complete (sessions without an end wait for
    :meth:`finish`); ``aliases``: the series' alias map when ``rows`` are only some sessions'
    (a catch-up); ``checks``: the registry entries to run; ``revised``: the hands corrected
    after later events took their chips (:class:`ledger.audit.books.SeriesFold`'s). Chips
    throughout, money in minor units for ``settlement``.
    """

    def __init__(self, rows: Iterable[SessionRow], ends: Mapping[str | None, int], *,
                 aliases: Mapping[str, str] | None = None,
                 checks: Sequence[Check] = STORED, revised: Revisions | None = None) -> None:
        self._fold = SeriesFold(rows, ends=ends, on_close=self._close, aliases=aliases,
                                revised=revised)
        self._checks = {scope: [c for c in checks if c.scope is scope] for scope in Scope}
        self._hand_checks = [(c.run, c.rank) for c in self._checks[Scope.HAND]]
        self._found: list[tuple[int, int, int, Finding]] = []
        self._order: dict[str | None, int] = {}  # a session's place: its book's, in the fold
        #: per session closed with a start or cash-out that followed a hand as it stood
        #: before a correction appended since (:attr:`ledger.audit.books.StartCheck.as_stood`,
        #: only with ``revised``): its hands and those checks, kept when its book drops them
        #: (what the notes of the chips owed are made from:
        #: :func:`replay.late_corrections.late_of_books`)
        self.stood: dict[str | None, StoodBook] = {}

    def add(self, facts: HandFacts) -> None:
        """Fold one hand (ledger order) and run the hand checks on it."""
        h = self._fold.add(facts, keep=False)
        if h.session not in self._fold.books:  # a voided hand of no session: in no book
            return
        rank = self._rank(h.session)
        for run, check_rank in self._hand_checks:
            found = run(h)
            if found:  # most hands: none
                self._found.extend((rank, h.ord, check_rank, d) for d in found)
        if h.session is None:  # no session check reads the hands of no session
            self._fold.books[None].hands.clear()

    def finish(self) -> tuple[Series, list[Finding]]:
        """The series (books without their hands) and every finding, in the order of
        :func:`ledger.audit.checks.audit`."""
        series, keyed = self.finish_keyed()
        return series, [d for *_, d in keyed]

    def finish_keyed(self) -> tuple[Series, list[tuple[int, int, int, Finding]]]:
        """As :meth:`finish`, each finding with its sort key ``(session's place among this
        fold's books, hand's ord or SESSION_WIDE, check rank)``: audits folded apart (groups
        of sessions, ``replay.distributed``) merge by these keys once each session's place in
        the whole ledger is known."""
        series = self._fold.finish()
        for check in self._checks[Scope.SERIES]:
            self._found.extend(
                (self._rank(d.session) if d.session in series.sessions else len(series.sessions),
                 SESSION_WIDE, check.rank, d) for d in check.run(series))
        self._found.sort(key=lambda item: item[:3])
        return series, list(self._found)

    def _rank(self, session: str | None) -> int:
        """The session's place among the books in order of first appearance."""
        rank = self._order.get(session)
        if rank is None:  # books are only ever appended: number the new ones, at the end
            books = self._fold.books
            new = list(islice(reversed(books), len(books) - len(self._order)))
            for name in reversed(new):
                self._order[name] = len(self._order)
            rank = self._order[session]
        return rank

    def _close(self, book: SessionBook) -> None:
        rank = self._rank(book.name)
        ords = {h.hand: h.ord for h in book.hands}
        for check in self._checks[Scope.SESSION]:
            self._found.extend((rank, ords.get(d.hand or "", SESSION_WIDE), check.rank, d)
                               for d in check.run(book))
        if self._fold.revised:  # rare: a hand corrected after later events took its chips
            starts = [s for s in book.starts if s.as_stood]
            cash_outs = [c for c in book.cash_outs if c.as_stood]
            if starts or cash_outs:
                self.stood[book.name] = StoodBook(book.hands, starts, cash_outs)
        book.hands, book.starts, book.cash_outs = [], [], []


class StoodBook(NamedTuple):
    """What a closed session's book keeps of a hand corrected after later events took its
    chips (:attr:`StreamAudit.stood`): its ``hands`` (:class:`ledger.audit.books.HandFacts`,
    ledger order) and the ``starts`` and ``cash_outs`` that followed a hand as it stood."""

    hands: list[HandFacts]
    starts: list[StartCheck]
    cash_outs: list[CashOutCheck]
