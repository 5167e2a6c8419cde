"""A PHH hand without ``_hand_id`` that deals what a stored one dealt is that hand.

A PHH hand that has no ``_hand_id`` (nor ``hand``) gets its id from its content
(:mod:`ledger.formats.phh.hand`): an edited copy (another payout, another bet, a board card
or a key changed) gets another id. One numbered by PHH's ``hand`` key (its id the file's
name or venue and that number) gets another id under another file name: it too is known by
its deal (:func:`known_by_deal`). Where it stands where the stored one was read from, the
import refuses it (:func:`replay.ingest.known_hands.drop_edited_places`); a copy under another
name is found by its deal: the same game, the same players in the same seats, and each of
them dealt the same hole cards in his first deal, some of them known (a hand of no known
card by all it holds instead: :mod:`replay.ingest.unseen_deal`). That is the stored
hand, as a JSON-lines or PokerStars copy of a stored hand is by its id: the same events
(its ``hand_started`` whole: stakes, stacks, unit) are already in the ledger, its file's
findings (``finishing_stacks`` its winnings do not leave) warnings about the stored hand, and
other ones are that hand changed, which is a correction
(README: a change to a stored hand is a correction, never a second hand; FORMATS.md §1). A
changed hole card deals another hand.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.ingest.stored_copy import original_rows
from replay.ingest.unseen_deal import Unseen, candidates, held_alike, unseen_of

Deal = tuple[str, tuple[tuple[str, int | None], ...], tuple[tuple[str, ...] | None, ...],
             int | str | None]


def deal_of(started: Any, dealt: Sequence[tuple[str, Sequence[str]]]) -> Deal | None:
    """``(game, ((player, seat), ...), (his first hole cards, ...), its PHH hand number)`` of
    a hand: its ``hand_started`` and the cards dealt to players ``(player, cards)`` in stream
    order; None when no card of those first deals is known (``??`` only: nothing tells the
    hand from another of those seats). The number (PHH's ``hand`` key, None without one) is
    part of it: two hands a file numbers apart are two hands, whatever they deal (a test's
    deck dealt again); a copy keeps its number under another file name."""
    first: dict[str, tuple[str, ...]] = {}
    for player, cards in dealt:
        first.setdefault(player, tuple(cards))
    holes = tuple(first.get(s.player) for s in started.seats)
    if not any(c != "??" for cards in holes if cards for c in cards):
        return None
    number = (started.source or {}).get("hand")
    return (started.game, tuple((s.player, s.seat) for s in started.seats), holes,
            number if isinstance(number, int | str) else None)


def known_by_deal(started: Any, hand_id: str | None, content_id: Any) -> bool:
    """Whether the hand of ``hand_started`` event ``started`` and id ``hand_id`` is a PHH hand
    known by its deal: its id made from its content (``content_id`` matches it), or from
    PHH's ``hand`` key (``<venue or file stem>-<hand>``, :mod:`ledger.formats.phh.hand`:
    another file name gives a copy another id), not from ``_hand_id``."""
    if content_id.fullmatch(hand_id or ""):
        return True
    if getattr(started, "type", None) != "hand_started":  # a correction completing a hand
        return False
    source = started.source or {}
    number, file = source.get("hand"), source.get("file")
    if number is None or not isinstance(file, str) or not hand_id:
        return False
    venue = source.get("venue")
    label = venue if isinstance(venue, str) and venue.strip() else PurePath(file).stem
    made = f"{'_'.join(label.split())}-{number}"
    return hand_id == made or hand_id.startswith(made + "-")


def _deal_of_events(events: Sequence[Any]) -> Deal | None:
    return deal_of(events[0], [(e.player, e.cards) for e in events[1:]
                               if e.type == "cards_dealt" and e.player is not None])


def seating_of(started: Any) -> str:
    """The game and the players in seat order of the hand ``started`` begins, as the index of
    stored id-less hands keys them (:func:`_seatings`)."""
    return "\x1e".join([started.game, "\x1f".join(s.player for s in started.seats)])


def seated_alike(ledger: Any, seatings: set[str], upto: int) -> bool:
    """Whether a stored id-less PHH hand (at or before ``upto``) has one of ``seatings``
    (:func:`seating_of`): a hand of them may be known by its deal or all it holds."""
    index = _seatings(ledger, upto)
    return any(key in index for key in seatings)


def _seating(deal: Deal) -> str:
    """The game and the players in seat order of ``deal``, as :func:`_seatings` keys them."""
    return "\x1e".join([deal[0], "\x1f".join(p for p, _ in deal[1])])


#: ledger -> (the position its index is of, the index): kept between the files of an import
#: (each compared with the rows before it), and brought on by the rows since.
_INDEXES: weakref.WeakKeyDictionary[Any, tuple[int, dict[str, list[str]]]] = (
    weakref.WeakKeyDictionary())


def _seatings(ledger: Any, upto: int) -> dict[str, list[str]]:
    """``{game and players in seat order: [stored id-less PHH hands]}`` of the rows at or
    before ``upto``: one pass over the ``hand_started`` rows of such hands, then, for the
    next file of the import, over those appended since (measured: 82 PHH files into an empty
    ledger took 1.2 s more with a whole lookup a file)."""
    since, index = _INDEXES.get(ledger, (0, {}))
    if since > upto:  # another ledger state (not one the import moved on): made again
        since, index = 0, {}
    if since < upto:
        index = {key: list(hands) for key, hands in index.items()}
        for hand, key in ledger.query(
                "SELECT hand_id, json_extract_string(payload, '$.game') || chr(30) ||"
                " array_to_string(CAST(json_extract_string(payload, '$.seats[*].player')"
                " AS VARCHAR[]), chr(31)) FROM events WHERE seq = 1 AND position > ?"
                " AND position <= ? AND (hand_id LIKE 'phh-%'"
                " OR json_extract(payload, '$.source.hand') IS NOT NULL) ORDER BY position",
                [since, upto]):
            index.setdefault(key, []).append(hand)
    try:
        _INDEXES[ledger] = (upto, index)
    except TypeError:  # a ledger object that takes no weak reference: not kept
        pass
    return index


def drop_same_deals(ledger: Any, batches: list[Batch], *, upto: int, content_id: Any,
                    compare: Any) -> tuple[list[Batch], list[LedgerError], dict[str, str]]:
    """``batches`` with each id-less PHH hand (:func:`known_by_deal`) whose id the
    ledger does not hold but whose deal (:func:`deal_of`) a stored id-less PHH hand has
    (at or before ``upto``): counted known (not written) when ``compare(batch, stored rows)``
    finds no difference, else refused naming the stored hand and the difference
    (``compare`` gives its text and file line). A hand of no known hole card has no deal: it
    is the first stored such hand it holds all of (:mod:`replay.ingest.unseen_deal`: the same
    PHH ``hand`` number, start and events, no ``day`` or ``table`` named otherwise), else
    another hand. Four lookups a chunk of such hands at most: the ids held, the stored hands
    of the same game and players in seat order, the cards dealt in those and the rows of the
    stored hands found (an import of hands the ledger has no such hand for: two).

    Returns:
        The batches kept (known ones with no events), the refusals, and ``{id of a known
        copy: the stored hand's id}`` (the ledger holds no stream of the copy's id).
    """
    from ledger.model.events import parse_event

    mine = {b.hand_id: _deal_of_events(b.events) for b in batches
            if b.is_hand and b.events and b.events[0].type == "hand_started"  # no completion
            and known_by_deal(b.events[0], b.hand_id, content_id)}
    unseen = {hand: unseen_of(b.events[0]) for b in batches  # no card known: all it holds
              if (hand := b.hand_id) in mine and mine[hand] is None}
    mine = {hand: deal for hand, deal in mine.items() if deal is not None}
    if not (mine or unseen) or not upto:
        return batches, [], {}
    index = _seatings(ledger, upto)
    near = sorted({h for deal in (*mine.values(), *unseen.values())
                   for h in index.get(_seating(deal), ())})
    if not near:  # no stored id-less hand of those players: most imports, most files
        return batches, [], {}
    held = {h for (h,) in ledger.query(
        "SELECT DISTINCT hand_id FROM events WHERE hand_id IN (SELECT UNNEST(?))",
        [[*mine, *unseen]])}
    mine = {hand: deal for hand, deal in mine.items() if hand not in held}
    unseen = {hand: deal for hand, deal in unseen.items() if hand not in held}
    starts = {hand: parse_event(json.loads(text)) for hand, text in ledger.query(
        "SELECT hand_id, CAST(payload AS VARCHAR) FROM events WHERE seq = 1"
        " AND hand_id IN (SELECT UNNEST(?)) ORDER BY position", [near])}
    wanted = {deal[:2] for deal in (*mine.values(), *unseen.values())}
    starts = {h: e for h, e in starts.items() if known_by_deal(e, h, content_id)
              and (e.game, tuple((s.player, s.seat) for s in e.seats)) in wanted}
    if not starts:
        return batches, [], {}
    dealt: dict[str, list[tuple[str, list[str]]]] = {}
    for hand, player, cards in ledger.query(
            "SELECT hand_id, json_extract_string(payload, '$.player'),"
            " CAST(json_extract(payload, '$.cards') AS VARCHAR) FROM events WHERE position <= ?"
            " AND type = 'cards_dealt' AND hand_id IN (SELECT UNNEST(?))"
            " AND json_extract_string(payload, '$.player') IS NOT NULL ORDER BY hand_id, seq",
            [upto, list(starts)]):
        dealt.setdefault(hand, []).append((player, json.loads(cards)))
    stored: dict[Deal, str] = {}
    blind: dict[Unseen, list[str]] = {}  # stored hands of no known card, in ledger order
    for hand, started in starts.items():  # in ledger order: the first stored such hand
        deal = deal_of(started, dealt.get(hand, []))
        if deal is not None:
            stored.setdefault(deal, hand)
        else:
            blind.setdefault(unseen_of(started), []).append(hand)
    found = {hand: stored[deal] for hand, deal in mine.items() if deal in stored}
    files = {b.hand_id: b.events for b in batches if b.hand_id in unseen and b.events}
    maybe = candidates(files, unseen, blind, starts)  # type: ignore[arg-type]
    if not (found or maybe):
        return batches, [], {}
    rows = original_rows(ledger, [*found.values(), *(h for olds in maybe.values()
                                                      for h in olds)], upto)
    found |= held_alike(files, maybe, starts, rows)  # type: ignore[arg-type]
    if not found:
        return batches, [], {}
    out, refused, known = [], [], {}
    for b in batches:
        old = found.get(b.hand_id)  # type: ignore[arg-type]
        if old is None or b.events is None:
            out.append(b)
            continue
        differ = compare(b, rows[old])
        if differ is None:
            out.append(b.with_events(None))  # the stored hand: known, not written again
            known[b.hand_id] = old
            continue
        text, line = differ
        how = (f"holds what hand {old} of the ledger holds, no hole card known (the same "
               "players in their seats, stacks and actions: a PHH hand without _hand_id is "
               "known by its content)" if b.hand_id in unseen else
               f"deals the players in their seats the hole cards hand {old} of the ledger "
               "dealt them (a PHH hand without _hand_id is known by its content)")
        refused.append(LedgerError(
            f"this hand {how}, and "
            f"differs from it: {text}; a change to a stored hand is a correction "
            f"(`handledger correct {shell_arg(old)} ...`), not another "
            "hand", hand=b.hand_id, line=line))
    return out, refused, known
