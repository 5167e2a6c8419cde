"""A hand read from PHH compared with the stored hand of its id in the shape PHH can say.

PHH (FORMATS.md §1) writes a hand's forced bets as its header's positional ``antes`` and
``blinds_or_straddles``, so reading it posts them in PHH's order (antes in seat order, then the
blinds); and it writes what the table paid as ``winnings``, one amount a player, so reading it
gives one plain payout a player. A hand stored from a site's text keeps the site's order of
the forced bets (PokerStars posts the antes from seat 1 on) and its payouts as the site wrote
them (an uncalled bet returned apart from the pot, a side pot or a run of its own). Our PHH
export of such a hand therefore reads back in PHH's shape: :func:`phh_shape_difference` takes
it as the same hand when everything else is the same events in the same order, the forced
bets are the same (player, kind, amount) bets (a small blind, big blind or straddle alike: a
live blind, which PHH names by its place only), and each player was paid the same chips in all
(what the books count, RULES.md §1.2-1.5). A changed amount still differs. So is a hand the
table paid in another order than PHH's seat order (``pay Bob 100`` before ``pay Ann 150``).

PHH cannot say that a hand goes on: reading a file that stops mid-hand ends it (``hand_ended``,
``incomplete``, or ``complete`` at a showdown nobody was paid for yet: :mod:`replay.build`).
So a PHH copy of a hand the ledger holds in play is compared without that end
(:func:`copy_of_hand_in_play`): never appended to the live hand.

PHH writes no face-up flags either: a card is up or down as its game deals it, so a hand read
from PHH deals every card with ``face_up`` empty. A site's text may record the flags (PokerNow
deals hole cards down and the board up); the engine takes either (flags it is given must be
the game's: :mod:`engine.dealing`), so :func:`flags_as_stored` gives the PHH copy the stored
hand's flags before the two are compared. Another card, player or run still differs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.ingest.differences import Difference, event_difference, plain, short

_FORCED, _PAYOUT, _DEALT = "forced_bet", "recorded_payout", "cards_dealt"


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


def flags_as_stored(mine: Sequence[Any], stored: Sequence[Any]) -> list[Any]:
    """The hand ``mine`` (read from PHH: :func:`in_phh_shape`) with the ``face_up`` flags of
    the stored events ``stored`` where PHH said none (module doc): its n-th ``cards_dealt``
    with no flags takes those of the n-th stored one when both deal the same cards to the
    same player (or board) and run. The other events are ``mine``'s own (the same objects)."""
    theirs = iter([e for e in stored if e.type == _DEALT])
    out = []
    for e in mine:
        if e.type == _DEALT:
            there = next(theirs, None)
            if (there is not None and not e.face_up and there.face_up
                    and (e.player, e.cards, e.run) == (there.player, there.cards, there.run)):
                e = e.model_copy(update={"face_up": list(there.face_up)})
        out.append(e)
    return out


def phh_shape_difference(mine: Sequence[Any], stored: Sequence[Any], *,
                         swapped: bool = False) -> str | None:
    """Where the hand ``mine`` (read from PHH: :func:`in_phh_shape`) differs from the stored
    events ``stored`` as PHH can say them (module doc; both start with ``hand_started``, which
    the caller compares): None when the same hand, else the first difference in words (the
    other events, then the forced bets, then the chips paid to each player). ``swapped``:
    ``mine`` is the ledger's hand (read from PHH: :func:`stored_from_phh`) and ``stored``
    the copy being imported, so the forced bets and payouts are said the other way round."""
    rest = [(i, e) for i, e in enumerate(mine[1:], 2) if not _kept_apart(e)]
    theirs = [(i, e) for i, e in enumerate(stored[1:], 2) if not _kept_apart(e)]
    for k in range(max(len(rest), len(theirs))):
        here = rest[k][1] if k < len(rest) else None
        there = theirs[k][1] if k < len(theirs) else None
        if here is None or there is None or plain(here) != plain(there):
            seq = theirs[k][0] if there is not None else (rest[k][0] if here else 0)
            return (f"its event {seq} is {short(here)} here, {short(there)} in the ledger")
    posts, posted = _forced(mine), _forced(stored)
    if _live(posts) != _live(posted):
        if swapped:
            posts, posted = posted, posts
        return (f"its forced bets are {_posts(posts)} here, {_posts(posted)} in the ledger")
    paid, was_paid = _paid(mine), _paid(stored)
    if paid != was_paid:
        players = [p for p in {**was_paid, **paid} if paid.get(p, 0) != was_paid.get(p, 0)]
        if swapped:
            paid, was_paid = was_paid, paid
        told = ", ".join(f"{p} {paid.get(p, 0)} here, {was_paid.get(p, 0)} in the ledger"
                         for p in players)
        return f"the table paid otherwise: {told}"
    return None


#: A PHH hand's source key: the sha256 of its text (:mod:`ledger.formats.phh.hand`).
_PHH_KEY = re.compile(r"[0-9a-f]{64}")


def read_from_phh(batch: Batch, carried: bool = False) -> bool:
    """Whether the hand in ``batch`` was read from a PHH file: its source key is the digest
    of the hand's text and its ``hand_started`` records that key (other formats prefix theirs:
    ``jsonl:``, ``pokerstars:``, ``pokernow:``; a JSON-lines copy keeps the stored source).
    ``carried``: ``batch`` is of a JSON-lines file, whose rows may carry a PHH hand's key
    (:mod:`ledger.formats.jsonl.lines`): never read from PHH."""
    key = batch.source_key or ""
    return (not carried and bool(batch.events) and _PHH_KEY.fullmatch(key) is not None
            and (batch.events[0].source or {}).get("source_key") == key)


def stored_from_phh(started: Any) -> bool:
    """Whether the stored ``hand_started`` event ``started`` was read from a PHH file (its
    ``source.source_key`` is the digest of the hand's text, as :func:`read_from_phh` reads
    a batch's): such a hand holds what PHH can say only, so another copy of the hand in a
    site's shape (a JSON-lines export of the hand the PHH file was exported from: its
    uncalled bet returned apart, its forced bets in the site's order) is the same hand when
    :func:`phh_shape_difference` finds none, the two taken the other way round."""
    key = (started.source or {}).get("source_key")
    return isinstance(key, str) and _PHH_KEY.fullmatch(key) is not None


def copy_of_hand_in_play(batch: Batch, stored: Sequence[Any]) -> Batch | LedgerError:
    """The PHH copy in ``batch`` of a hand the ledger holds in play (``stored``: its rows,
    corrections among them) as the import takes it, the end its reading gave it left out
    (module doc), against the stored hand as its corrections make it. The payouts and the
    rake are what the table recorded last (chips a player was paid, RULES.md §1.2-1.5; the
    rake as :func:`replay.ingest.rakes.rake_difference` compares it); the other events are
    compared one by one as :func:`replay.ingest.stored_copy.first_difference` compares a PHH copy,
    numbered from 1. Known (``batch`` with no events) when it is the hand as played so far,
    or its start (an earlier export: fewer events and nothing paid or raked, or the same
    events and nothing paid or raked beyond the ledger's); refused in one line when it goes
    on past it (more events and nothing paid or raked there, or the same events and more
    paid or raked), naming the first event, payout or rake the ledger does not hold: PHH
    cannot say whether the hand goes on or ended, so `act` plays it on and a JSON-lines
    export says it; refused naming the first difference otherwise."""
    from ledger.model.events import event_json
    from replay.fold import effective_events
    from replay.ingest.rakes import rake_difference, rake_terms
    from replay.ingest.stored_copy import first_difference, line_of

    assert batch.events is not None and batch.hand_id is not None
    hand = batch.hand_id
    body = list(batch.events)
    if body[-1].type == "hand_ended":
        body.pop()
    live = effective_events(list(stored))[0]
    mine = [e for e in body if e.type not in _RESULT]
    theirs = [(i, event_json(e)) for i, e in enumerate(live, 1) if e.type not in _RESULT]
    n = min(len(mine), len(theirs))
    differ = event_difference(mine[:n], theirs[:n], phh=True)
    (raked, rule), (was_raked, was_rule) = rake_terms(body), rake_terms(live)
    if differ is None and (rule != was_rule
                           or None not in (raked, was_raked) and raked != was_raked):
        differ = Difference(rake_difference(body, live) or "its rake differs")
    paid, was_paid = _paid(body), _paid(live)
    over = ", ".join(f"{p} {a} here, {was_paid.get(p, 0)} in the ledger"
                     for p, a in paid.items() if a > was_paid.get(p, 0))
    more = ([f"it pays {over}"] if over else []) + (
        [f"its rake is {raked} here, none in the ledger"] if raked and not was_raked else [])
    less = any(a > paid.get(p, 0) for p, a in was_paid.items()) or bool(was_raked and not raked)
    if differ is None and (len(mine) < len(theirs) and not (paid or raked)
                           or len(mine) == len(theirs) and not more):
        return batch.with_events(None)
    if differ is None and (len(mine) > len(theirs) and not (was_paid or was_raked)
                           or len(mine) == len(theirs) and not less):
        went_on = (f"its event {n + 1} is {short(mine[n])} here, none in the ledger"
                   if len(mine) > n else " and ".join(more))
        return LedgerError(
            f"hand {hand} is in play in the ledger and this PHH copy goes on past it: "
            f"{went_on}; PHH cannot say whether a hand goes on, so nothing of it was written "
            f"(play it on with `handledger act {shell_arg(hand)} ...`, or import a JSON-lines "
            "export of "
            f"it, `export --format jsonl`, which can)", hand=hand,
            line=line_of(batch, mine[n] if len(mine) > n else None))
    if differ is None:
        differ = first_difference(body, [(i, event_json(e)) for i, e in enumerate(live, 1)],
                                  phh=True) or Difference("its payouts part from the ledger's")
    return LedgerError(
        f"a different hand {hand} is already in the ledger (in play there): {differ.text}; a "
        f"change to a stored hand is a correction (`handledger correct {shell_arg(hand)} ...`)",
        hand=hand, line=line_of(batch, differ.event))


#: What the table records last in a hand: the payouts and the rake.
_RESULT = (_PAYOUT, "recorded_rake")


def _kept_apart(e: Any) -> bool:
    return _header_bet(e) or e.type == _PAYOUT


def _bet(e: Any) -> tuple[str, str, int]:
    return e.player, e.kind, e.amount


def _forced(events: Sequence[Any]) -> Counter[tuple[str, str, int]]:
    return Counter(_bet(e) for e in events if _header_bet(e))


#: The blinds the rules take alike (each a live blind: :mod:`engine.betting`); PHH names them
#: by their place in ``blinds_or_straddles`` only, so a dead small blind's lone big blind reads
#: back as a small blind of the same chips.
_LIVE_BLIND = {"small_blind": "live_blind", "big_blind": "live_blind", "straddle": "live_blind"}


def _live(bets: Counter[tuple[str, str, int]]) -> Counter[tuple[str, str, int]]:
    out: Counter[tuple[str, str, int]] = Counter()
    for (player, kind, amount), n in bets.items():
        out[(player, _LIVE_BLIND.get(kind, kind), amount)] += n
    return out


def _posts(bets: Counter[tuple[str, str, int]]) -> str:
    return ", ".join(f"{p} {k.replace('_', ' ')} {a}" + (f" ×{n}" if n > 1 else "")
                     for (p, k, a), n in sorted(bets.items())) or "none"


def _paid(events: Sequence[Any]) -> dict[str, int]:
    paid: dict[str, int] = {}
    for e in events:
        if e.type == _PAYOUT and e.amount:
            paid[e.player] = paid.get(e.player, 0) + e.amount
    return paid
