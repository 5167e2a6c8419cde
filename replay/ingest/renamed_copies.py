"""An amended copy of a site's hand that the ledger holds under another id.

A PokerNow hand's id names the session its log was imported into (``pn-<session>-…``,
FORMATS.md §2), so two ledgers that imported the same log under two session names hold the
same hand under two ids, with the same source key (the one the log gave it). A JSON-lines
export of it from one ledger, carrying a void or correction made there, is that hand in the
other: by its key alone the store would skip it as already in the ledger and drop the
amendments. :func:`as_stored_hands` gives such a copy the stored hand's id and session
(a hand stays in the session it was stored in), so that it goes the way a copy of the same id
does (:func:`replay.ingest.known_hands.drop_known_hands`): its original events compared with
the stored ones, its amendments appended to the stored hand (counted amended), or refused in
one line, a closed session needing ``--closed``. A copy without amendments is left as it is
(known by its key, as before).
"""

from __future__ import annotations

from typing import Any

from ledger.model.batch import Batch
from replay.ingest.carried_source import SITE_PREFIXES
from replay.ingest.stored_copy import LATER


def as_stored_hands(ledger: Any, batches: list[Batch], *, upto: int) -> list[Batch]:
    """``batches`` with each hand that carries amendments (a ``correction`` or
    ``hand_voided`` row) and a site's source key (``pokernow:``, ``pokerstars:``) that a
    hand of another id stored at or before ``upto`` has as its first row's key renamed to
    that hand: its batch's stream, hand id and session, and its ``hand_started``'s ``hand``
    and ``session``, those of the stored hand. One lookup, none when no batch has such a key.
    """
    mine = {b.source_key: b.hand_id for b in batches if _amended_site_hand(b)}
    if not mine or not upto:
        return batches
    held = {key: (hand, session) for key, hand, session in ledger.query(
        "SELECT source_key, hand_id, session FROM events WHERE seq = 1 AND position <= ?"
        " AND hand_id IS NOT NULL AND source_key IN (SELECT UNNEST(?))",
        [upto, sorted(k for k in mine if k is not None)])}
    found = {key: held[key] for key, hand in mine.items()
             if key in held and held[key][0] != hand}
    if not found:
        return batches
    held_ids = {hand for hand, in ledger.query(
        "SELECT DISTINCT hand_id FROM events WHERE hand_id IN (SELECT UNNEST(?))",
        [sorted(h for h in mine.values() if h is not None)])}
    return [_renamed(b, *found[b.source_key])
            if b.source_key in found and b.hand_id not in held_ids and _amended_site_hand(b)
            else b for b in batches]


def _amended_site_hand(b: Batch) -> bool:
    """Whether ``b`` is a hand's whole stream from its start, keyed by a site's file, with a
    correction or void among its rows."""
    return bool(b.is_hand and b.events and b.events[0].type == "hand_started"
                and (b.source_key or "").startswith(SITE_PREFIXES)
                and any(e.type in LATER for e in b.events))


def _renamed(b: Batch, hand: str, session: str | None) -> Batch:
    """``b`` as the stored hand ``hand`` of ``session``."""
    assert b.events is not None
    started = b.events[0].model_copy(update={"hand": hand, "session": session})
    return b._replace(stream=hand, hand_id=hand, session=session,
                      events=[started, *b.events[1:]])
