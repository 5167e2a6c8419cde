"""The uncalled bets a PHH file's ``winnings`` leave out, given back as the table gave them.

PHH's ``winnings`` are what each player collected (FORMATS.md §1; the PHH specification: the
collected pots, after the rake). An uncalled bet is no pot: it goes back to its player
(RULES.md §1.4), whatever the file says he collected. Files differ on whether they count it
in: HandHQ's PokerStars hands give the pots alone (the site's ``collected``: its text returns
the bet on a line of its own), its PartyPoker hands and our own export (``_hand_id``) count it
in. Stored as the pots alone, such a hand would book its raiser the bet short (a net of +5.00
where the table left him +15.00) and its nets would not sum to zero.

So a hand read from a PHH file (not our export, not a site's text, which says the return
itself) whose winnings come to no more than its pots less the rake it records (its pots, when
it records none: a rake comes out of the pots, never the uncalled bet) holds the pots alone:
each uncalled bet is recorded returned to its player, a ``RecordedPayout`` with ``returned``,
as a site's text records ``Uncalled bet ($10.00) returned to p3``. Winnings that come to more
hold the bet already and are stored as they are. (A site that counts the bet in and took a
rake at least as large would read as one that leaves it out; no file here does.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.pots import uncalled
from ledger.model.events import RecordedPayout


def left_out_returns(hand: Any, state: Any, payouts: Sequence[RecordedPayout]
                     ) -> list[RecordedPayout]:
    """The ``returned`` payouts of the uncalled bets the ``winnings`` of the PHH ``hand`` (a
    :class:`ledger.formats.phh.base.PhhHand`; ``payouts``: those its winnings give) leave
    out (module doc), in chips; ``state``: the engine's state after its actions, before the
    payouts. Empty when the hand returns no uncalled bet, records no winnings, is our export
    (``hand.exported``) or a site's text (``hand.text``), may carry its pot to the next hand
    (RULES.md §2.2, §3.8, §7.1), stops before its end, or its winnings hold the bet."""
    if not payouts or hand.exported or hand.text is not None:
        return []
    if state.status == "open" and state.phase != "showdown":  # a file cut short
        return []
    back = uncalled(state.contributed)
    if not any(back.values()):
        return []
    from replay.carry import may_carry
    from replay.rake import filed_rake, whole_pot

    started = hand.started
    if may_carry(started):
        return []
    rake = filed_rake(started) or 0
    if sum(p.amount for p in payouts) > whole_pot(state) - rake:
        return []
    return [RecordedPayout(player=p, amount=chips, returned=True)
            for p, chips in back.items() if chips]
