"""A PHH hand without ``_hand_id`` that deals what a stored one dealt is that hand.

A PHH hand that has no ``_hand_id`` (nor ``hand``) gets its id from its content
(:mod:`ledger.formats.phh.hand`): an edited copy (another payout, another bet, a board card
or a key changed) gets another id. Where it stands where the stored one was read from, the
import refuses it (:func:`replay.ingest.writing._drop_edited_places`); a copy under another
name is found by its deal: the same game, the same players in the same seats, and each of
them dealt the same hole cards first, some of them known. That is the stored hand, as a
JSON-lines or PokerStars copy of a stored hand is by its id: the same events are already in
the ledger, and other ones are that hand changed, which is a correction (README: a change
to a stored hand is a correction, never a second hand; FORMATS.md §1). A changed hole card
deals another hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError

#: Event types a hand's first deal comes among (before the first action).
_DEALING = frozenset({"hand_started", "forced_bet", "cards_dealt"})

Deal = tuple[str, tuple[tuple[str, int | None], ...], tuple[tuple[str, tuple[str, ...]], ...]]


def deal_of(events: Sequence[Any]) -> Deal | None:
    """``(game, ((player, seat), ...), ((player, hole cards), ...))`` of a hand's events:
    its seats and the cards dealt to players before the first action; None when no card of
    that deal is known (``??`` only: nothing tells the hand from another of those seats)."""
    started = events[0]
    holes = []
    for e in events[1:]:
        if e.type not in _DEALING:
            break
        if e.type == "cards_dealt" and e.player is not None:
            holes.append((e.player, tuple(e.cards)))
    if not any(c != "??" for _, cards in holes for c in cards):
        return None
    return (started.game, tuple((s.player, s.seat) for s in started.seats), tuple(holes))


def _stored_deal(rows: Sequence[tuple[int, str]]) -> Deal | None:
    from ledger.model.events import parse_event

    events = []
    for _, text in rows:
        event = parse_event(json.loads(text))
        if events and event.type not in _DEALING:
            break
        events.append(event)
    return deal_of(events) if events and events[0].type == "hand_started" else None


def drop_same_deals(ledger: Any, batches: list[Batch], *, upto: int, content_id: Any,
                    compare: Any) -> tuple[list[Batch], list[LedgerError]]:
    """``batches`` with each id-less PHH hand (``content_id`` matches its id) whose id the
    ledger does not hold but whose deal (:func:`deal_of`) a stored id-less PHH hand has
    (at or before ``upto``): counted known (not written) when ``compare(batch, stored rows)``
    finds no difference, else refused naming the stored hand and the difference
    (``compare`` gives its text and file line).

    Returns:
        The batches kept (known ones with no events) and the refusals.
    """
    mine = {b.hand_id: deal_of(b.events) for b in batches
            if b.is_hand and b.events and content_id.fullmatch(b.hand_id or "")}
    mine = {hand: deal for hand, deal in mine.items() if deal is not None}
    if not mine or not upto:
        return batches, []
    held = {h for (h,) in ledger.query(
        "SELECT DISTINCT hand_id FROM events WHERE hand_id IN (SELECT UNNEST(?))", [list(mine)])}
    firsts = sorted({deal[1][0][0] for hand, deal in mine.items() if hand not in held})
    if not firsts:
        return batches, []
    candidates = [h for (h,) in ledger.query(
        "SELECT hand_id FROM events WHERE seq = 1 AND position <= ? AND hand_id LIKE 'phh-%'"
        " AND json_extract_string(payload, '$.seats[0].player') IN (SELECT UNNEST(?))"
        " ORDER BY position", [upto, firsts])]
    if not candidates:
        return batches, []
    rows: dict[str, list[tuple[int, str]]] = {}
    for hand, seq, text in ledger.query(
            "SELECT hand_id, seq, CAST(payload AS VARCHAR) FROM events WHERE position <= ?"
            " AND hand_id IN (SELECT UNNEST(?)) AND type NOT IN ('correction', 'hand_voided')"
            " ORDER BY hand_id, seq", [upto, candidates]):
        rows.setdefault(hand, []).append((seq, text))
    stored: dict[Deal, str] = {}
    for hand in candidates:
        deal = _stored_deal(rows.get(hand, []))
        if deal is not None:
            stored.setdefault(deal, hand)
    out, refused = [], []
    for b in batches:
        old = stored.get(mine.get(b.hand_id)) if b.hand_id not in held else None  # type: ignore[arg-type]
        if old is None or b.events is None:
            out.append(b)
            continue
        differ = compare(b, rows[old])
        if differ is None:
            out.append(b.with_events(None))  # the stored hand: known, not written again
            continue
        text, line = differ
        refused.append(LedgerError(
            f"this hand deals the players in their seats the hole cards hand {old} of the "
            f"ledger dealt them (a PHH hand without _hand_id is known by its content), and "
            f"differs from it: {text}; a change to a stored hand is a correction "
            f"(`handledger correct {old} ...`), not another hand", hand=b.hand_id, line=line))
    return out, refused
