"""What a hand read from a file paid in all, against its pot, when it records no rake.

The table pays out the pot, every chip of it, and gives back the uncalled bet (RULES.md
§1.2-1.5); a live ``end`` refuses payouts short of that and ``act``/``correct`` refuse a
payout above it (docs/LIVE.md, "A night at the table"). A file is stored as the table paid it, so
a hand whose payouts come to more than its pot and uncalled bet, or to less with no rake to
explain it, is kept with a ``warning:`` line (README, "Bad input"): the audit then reports
its ``payout`` findings. A hand that records a rake is checked against it instead
(:func:`replay.ingest.rakes.rake_finding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.pots import uncalled
from ledger.model.errors import StoredFinding
from replay.carry import may_carry
from replay.rake import filed_rake, short_return_words, unreturned, whole_pot


def paid_finding(events: Sequence[Any], state: Any, *, file: str | None = None,
                 line: int | None = None) -> StoredFinding | None:
    """The warning of a complete hand read from a file (``events``, ``state``: the engine's
    state after them) that records payouts and no rake, whose payouts do not come to its pot
    (:func:`replay.rake.whole_pot`: every chip put in and carried in, less the uncalled bet
    and what is carried out) and uncalled bet; None when they do, when they come to the pot
    alone and no payout marks the bet returned (a site that leaves the uncalled bet out of
    what it says was collected: the audit names that ``uncalled``; one that pays it back,
    :func:`replay.rake.unreturned`, left nothing out), when the hand records no payouts
    (the rules' result), a rake (a ``recorded_rake`` event or its file's
    ``rake``/``site_rake``) or is not complete. A
    hand with a rake rule (``_rake``, FORMATS.md §1) or whose options may carry chips to the
    next hand (RULES.md §2.2, §3.8, §7.1: :func:`replay.carry.may_carry`) is warned of only when
    paid over: what the rule takes or the rules carry is left to the audit.

    Returns:
        :class:`StoredFinding` naming the hand (``file``, ``line``), what was paid, the pot
        (and the uncalled bet) and by how many chips it is over or short, the amounts as
        the file writes them (``the table paid 410 of the pot of 400: over by 10, chips the
        pot did not hold``; ``… short by 10, and the hand records no rake``; with an
        uncalled bet, what was due first: ``of the 35.00 due (the pot 25.00 and the
        uncalled bet 10.00), the table paid 33.75: 1.25 short, and the hand records no
        rake``), and each
        uncalled bet the file returns short of (``…; the file returns 0.10 of P's uncalled
        bet of 0.20``, :func:`replay.rake.short_return_words`).
    """
    started = events[0]
    source = started.source or {}
    if (state.status != "complete" or not state.payouts or state.rake is not None
            or filed_rake(started) is not None or "rake" in source
            or source.get("site_rake") is not None):
        return None
    return unraked_finding(events, state, file=file, line=line)


def unraked_finding(events: Sequence[Any], state: Any, *, file: str | None = None,
                    line: int | None = None) -> StoredFinding | None:
    """:func:`paid_finding` of a complete hand with payouts, whatever rake it records: a
    hand whose rake is 0 (``Rake 0`` in a site's summary, PHH's ``rake = 0``) is checked so
    by :func:`replay.ingest.rakes.rake_finding`."""
    started = events[0]
    source = started.source or {}
    back = sum(uncalled(state.contributed).values())
    pot = whole_pot(state)
    paid = sum(p.amount for p in state.payouts)
    short = pot + back - paid
    if short == 0 or (back and short == unreturned(state)):
        return None
    if short > 0 and ("_rake" in source or may_carry(started)):  # a rule may explain it
        return None
    from ledger.formats.phh.base import format_amount

    def a(chips: int) -> str:  # as the file writes amounts: 0.20 in a hand kept in cents
        return format_amount(chips, started.unit.decimals)

    # a pot carried to the next hand is not paid as well (RULES.md §7.1)
    carried = (f"{a(state.carried_out)} more carried to the session's next hand"
               if state.carried_out else "")
    if back:  # what is due first, then what was paid: never "paid 33.75 of the pot of 25.00"
        said = (f"of the {a(pot + back)} due (the pot {a(pot)} and the uncalled bet "
                f"{a(back)}{'; ' + carried if carried else ''}), the table paid {a(paid)}: "
                + (f"{a(-short)} over, chips the pot did not hold" if short < 0 else
                   f"{a(short)} short, and the hand records no rake"))
    else:
        said = (f"the table paid {a(paid)} of the pot of {a(pot)}"
                + (f" ({carried})" if carried else "") + ": "
                + (f"over by {a(-short)}, chips the pot did not hold" if short < 0 else
                   f"short by {a(short)}, and the hand records no rake"))
    said += short_return_words(state, started.unit.decimals)
    return StoredFinding(said, file=file, line=line, hand=started.hand)
