"""The rake the books count for a hand, from its replay's findings (chips).

A hand's ``rake`` finding (``replay.rake``) says what the table was paid (``recorded``) beside
what the rules award before the rake (``recomputed``). Where the payouts are right beside the
rake, the difference is the rake. Where some are wrong beside it (a rake the hand records,
and payouts other than the rules' awards of the pots less it: ``replay.rake.recorded_rake``),
each such player's ``payout`` finding says by how much (``recorded`` what he was paid,
``recomputed`` his due once the rake is taken), and the rake is the ``rake`` finding's
difference less theirs: what the rules take as rake, never what a wrong payout adds or
leaves. The SQL of :func:`ledger.audit.player_balances.rake_taken` counts the derived tables so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def counted_rake(findings: Iterable[Any]) -> int:
    """The chips counted as the rake of one hand whose findings (each with ``kind``,
    ``recorded``, ``recomputed``: a ``Discrepancy`` or a ``PayoutFinding``) are ``findings``:
    recomputed − recorded of its ``rake`` findings, plus recorded − recomputed of its
    ``payout`` findings when it has a ``rake`` finding (module doc); 0 when it has none."""
    rake, wrong, raked = 0, 0, False
    for f in findings:
        if f.kind == "rake":
            rake += f.recomputed - f.recorded
            raked = True
        elif f.kind == "payout":
            wrong += f.recorded - f.recomputed
    return rake + wrong if raked else 0


def rake_alone(findings: Iterable[Any]) -> bool:
    """Whether a hand's findings (each with ``kind``: a ``Discrepancy`` or a
    ``PayoutFinding``) are its ``rake`` finding alone: the table paid the rules' result less
    the rake (docs/LIVE.md "A home game's rake": the rules' result of a raked hand is its pots
    less the rake), so the hand was paid as the rules give, the rake kept its only
    difference from the whole pots. False when there is none, or any finding of another
    kind beside it (a payout wrong beside the rake, an uncalled bet left out).

    >>> from types import SimpleNamespace as F
    >>> rake_alone([F(kind="rake")]), rake_alone([F(kind="rake"), F(kind="payout")])
    (True, False)
    >>> rake_alone([])
    False
    """
    kinds = {f.kind for f in findings}
    return kinds == {"rake"}
