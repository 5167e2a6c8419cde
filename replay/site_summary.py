"""Where a site text's own summary disagrees with the hand's lines, as the audit's
``site_summary`` check reads it (:attr:`ledger.audit.books.HandFacts.site_summary`), from the
``hand_started`` event's ``source`` the PokerStars reader filled (FORMATS.md)."""

from __future__ import annotations

from typing import Any


def site_summary(started: Any) -> tuple[tuple[str | None, int, int, str], ...]:
    """Where a site text's own summary disagrees with the hand's lines, read from the
    ``hand_started`` event's ``source`` (:func:`ledger.formats.pokerstars.summary.
    summary_findings`): ``(player or None, lines, summary, words)`` each; empty for every
    other hand."""
    source = started.source
    if not source or "site_total_pot" not in source:
        return ()
    from ledger.formats.pokerstars.summary import summary_findings

    return tuple((d.player, d.lines, d.summary, d.said) for d in summary_findings(source))
