"""A hand read from PHH compared with the stored hand of its id in the shape PHH can say.

PHH (FORMATS.md §1) writes a hand's forced bets as its header's positional ``antes`` and
``blinds_or_straddles``, so reading it posts them in PHH's order (antes in seat order, then the
blinds); and it writes what the table paid as ``winnings``, one amount a player, so reading it
gives one plain payout a player. A hand stored from a site's text keeps the site's order of
the forced bets (PokerStars posts the antes from seat 1 on) and its payouts as the site wrote
them (an uncalled bet returned apart from the pot, a side pot or a run of its own). Our PHH
export of such a hand therefore reads back in PHH's shape: :func:`phh_shape_difference` takes
it as the same hand when everything else is the same events in the same order, the forced
bets are the same (player, kind, amount) bets, and each player was paid the same chips in all
(what the books count, RULES.md §1.2-1.5). A changed amount still differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

_FORCED, _PAYOUT = "forced_bet", "recorded_payout"


def _header_bet(e: Any) -> bool:
    """Whether ``e`` is a forced bet a PHH header says (the bring-in is the action ``pb``)."""
    return e.type == _FORCED and e.kind != "bring_in"


def in_phh_shape(events: Sequence[Any]) -> bool:
    """Whether the hand stream ``events`` (its ``hand_started`` first) is in the shape a PHH
    hand reads as: its forced bets (bring-in aside) first, in the order its header implies
    (:func:`ledger.formats.phh.base.forced_bets`), and at most one payout a player, none
    marked returned or naming a pot or run."""
    from ledger.formats.phh.base import forced_bets

    started = events[0]
    forced = [e for e in events[1:] if _header_bet(e)]
    head = list(events[1:len(forced) + 1])
    implied = forced_bets(started.stakes, started.seats)
    if [_bet(e) for e in head] != [_bet(e) for e in forced] or (
            [_bet(e) for e in forced] != [_bet(e) for e in implied]):
        return False
    payouts = [e for e in events if e.type == _PAYOUT]
    if len({p.player for p in payouts}) != len(payouts):
        return False
    return not any(p.returned or p.pot is not None or p.run is not None for p in payouts)


def phh_shape_difference(mine: Sequence[Any], stored: Sequence[Any]) -> str | None:
    """Where the hand ``mine`` (read from PHH: :func:`in_phh_shape`) differs from the stored
    events ``stored`` as PHH can say them (module doc; both start with ``hand_started``, which
    the caller compares): None when the same hand, else the first difference in words (the
    other events, then the forced bets, then the chips paid to each player)."""
    from replay.ingest.writing import _short

    rest = [(i, e) for i, e in enumerate(mine[1:], 2) if not _kept_apart(e)]
    theirs = [(i, e) for i, e in enumerate(stored[1:], 2) if not _kept_apart(e)]
    for k in range(max(len(rest), len(theirs))):
        here = rest[k][1] if k < len(rest) else None
        there = theirs[k][1] if k < len(theirs) else None
        if here is None or there is None or _plain(here) != _plain(there):
            seq = theirs[k][0] if there is not None else (rest[k][0] if here else 0)
            return (f"its event {seq} is {_short(here)} here, {_short(there)} in the ledger")
    posts, posted = _forced(mine), _forced(stored)
    if posts != posted:
        return (f"its forced bets are {_posts(posts)} here, {_posts(posted)} in the ledger")
    paid, was_paid = _paid(mine), _paid(stored)
    if paid != was_paid:
        players = [p for p in {**was_paid, **paid} if paid.get(p, 0) != was_paid.get(p, 0)]
        told = ", ".join(f"{p} {paid.get(p, 0)} here, {was_paid.get(p, 0)} in the ledger"
                         for p in players)
        return f"the table paid otherwise: {told}"
    return None


def _kept_apart(e: Any) -> bool:
    return _header_bet(e) or e.type == _PAYOUT


def _bet(e: Any) -> tuple[str, str, int]:
    return e.player, e.kind, e.amount


def _plain(e: Any) -> dict[str, Any]:
    return e.model_dump(mode="json", exclude={"schema_version", "source"})


def _forced(events: Sequence[Any]) -> Counter[tuple[str, str, int]]:
    return Counter(_bet(e) for e in events if _header_bet(e))


def _posts(bets: Counter[tuple[str, str, int]]) -> str:
    return ", ".join(f"{p} {k.replace('_', ' ')} {a}" + (f" ×{n}" if n > 1 else "")
                     for (p, k, a), n in sorted(bets.items())) or "none"


def _paid(events: Sequence[Any]) -> dict[str, int]:
    paid: dict[str, int] = {}
    for e in events:
        if e.type == _PAYOUT and e.amount:
            paid[e.player] = paid.get(e.player, 0) + e.amount
    return paid
