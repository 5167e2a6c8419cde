"""The audit of a whole ledger in one streaming pass: memory flat in the number of hands.

Issue 8 (a million hands). :class:`StreamAudit` takes the session rows up front and the hands'
facts (:class:`ledger.audit.books.HandFacts`) one at a time in ledger order. Each hand gets its
own checks (``payout``, the per-hand part of ``chip_conservation``) as it comes; each session
gets the rest (carried chips, ``stack_continuity``, ``session_balance``, ``settlement``,
``ledger_mismatch``) once :class:`ledger.audit.books.SeriesFold` says its last row or hand has
passed, and then its hands are dropped. The findings, their order and the books are those of
:func:`ledger.audit.checks.audit` over :func:`ledger.audit.books.build_series` (a test compares
them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ledger.audit.books import HandFacts, Series, SeriesFold, SessionBook, SessionRow
from ledger.audit.checks import (
    Finding,
    carried_chips,
    hand_conservation,
    hand_payout,
    ledger_mismatch,
    session_balance,
    settlement,
    stack_continuity,
)

_SESSION_WIDE = 1 << 62  # sorts a finding without a hand after the session's hands

#: The per-session checks with their rank in :data:`ledger.audit.checks.CHECKS` (the sort order).
_BOOK_CHECKS: tuple[tuple[int, Callable[[Series], list[Finding]]], ...] = (
    (2, stack_continuity), (3, session_balance), (4, settlement), (5, ledger_mismatch))


class StreamAudit:
    """Fold and audit a ledger hand by hand (see the module doc).

    ``rows``: every session row (:class:`ledger.audit.books.SessionRow`, any order); ``ends``:
    each session's last ledger position (rows and hands), so that a session is audited and
    its hands dropped as soon as it is complete (sessions without an end wait for
    :meth:`finish`); ``aliases``: the series' alias map when ``rows`` are only some sessions'
    (a catch-up). Chips throughout, money in minor units for ``settlement``.
    """

    def __init__(self, rows: Iterable[SessionRow], ends: Mapping[str | None, int], *,
                 aliases: Mapping[str, str] | None = None) -> None:
        self._fold = SeriesFold(rows, ends=ends, on_close=self._close, aliases=aliases)
        self._found: list[tuple[int, int, int, Finding]] = []
        self._order: dict[str | None, int] = {}

    def add(self, facts: HandFacts) -> None:
        """Fold one hand (ledger order) and run its own checks."""
        h = self._fold.add(facts, keep=False)
        rank = self._rank(h.session)
        for check, found in enumerate((hand_payout(h), hand_conservation(h))):
            self._found.extend((rank, h.ord, check, d) for d in found)
        if h.session is None:  # no book-wide check reads the hands of no session
            self._fold.books[None].hands.clear()

    def finish(self) -> tuple[Series, list[Finding]]:
        """The series (books without their hands) and every finding, in the order of
        :func:`ledger.audit.checks.audit`."""
        series = self._fold.finish()
        self._found.sort(key=lambda item: item[:3])
        return series, [d for *_, d in self._found]

    def _rank(self, session: str | None) -> int:
        if session not in self._order:  # books only ever get added: renumber them all
            self._order = {name: i for i, name in enumerate(self._fold.books)}
        return self._order[session]

    def _close(self, book: SessionBook) -> None:
        rank = self._rank(book.name)
        ords = {h.hand: h.ord for h in book.hands}
        one = Series({book.name: book}, book.hands, self._fold.aliases)
        found = [(1, d) for d in carried_chips(book)]
        found += [(check, d) for check, run in _BOOK_CHECKS for d in run(one)]
        self._found.extend((rank, ords.get(d.hand or "", _SESSION_WIDE), check, d)
                           for check, d in found)
        book.hands, book.starts, book.cash_outs = [], [], []
