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
(known by its key, as before). A signed amendment cannot go under another id: its signature
binds the hand's id and rows (:mod:`ledger.store.signing`), so it would no longer verify
there; such a copy is refused in one line, nothing of the hand written.
"""

from __future__ import annotations

from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.ingest.carried_source import SITE_PREFIXES
from replay.ingest.keyed import hands_keyed
from replay.ingest.stored_copy import LATER


def as_stored_hands(ledger: Any, batches: list[Batch], *, upto: int
                    ) -> tuple[list[Batch], list[LedgerError], dict[str, str]]:
    """``batches`` with each hand that carries amendments (a ``correction`` or
    ``hand_voided`` row) and a site's source key (``pokernow:``, ``pokerstars:``) that a
    hand of another id stored at or before ``upto`` has as its first row's key renamed to
    that hand: its batch's stream, hand id and session, and its ``hand_started``'s ``hand``
    and ``session``, those of the stored hand. One lookup, none when no batch has such a key.

    Returns:
        The batches (renamed ones among them) and the refusals of the copies whose
        amendments are signed (not among the batches: nothing of such a hand is written),
        each naming the file's hand, the line of its first signed amendment and the stored
        hand; and ``{stored hand's id: the file's id}`` of the copies renamed.
    """
    mine = {b.source_key: b.hand_id for b in batches if _amended_site_hand(b)}
    if not mine or not upto:
        return batches, [], {}
    held = hands_keyed(ledger, mine, upto)
    found = {key: held[key] for key, hand in mine.items()
             if key in held and held[key][0] != hand}
    if not found:
        return batches, [], {}
    held_ids = {hand for hand, in ledger.query(
        "SELECT DISTINCT hand_id FROM events WHERE hand_id IN (SELECT UNNEST(?))",
        [sorted(h for h in mine.values() if h is not None)])}
    out, refused, renamed = [], [], {}
    for b in batches:
        if b.source_key not in found or b.hand_id in held_ids or not _amended_site_hand(b):
            out.append(b)
        elif (signed := _signed_at(b)) is not None:
            refused.append(_refusal(b, found[b.source_key][0], signed))
        else:
            out.append(_renamed(b, *found[b.source_key]))
            renamed[found[b.source_key][0]] = b.hand_id
    return out, refused, renamed


def of_the_file(error: LedgerError, renamed: dict[str, str]) -> LedgerError:
    """``error`` about a stored hand a copy of ``renamed`` (:func:`as_stored_hands`) was
    given the id of, said of the file's hand (whose id the import counts), the stored hand
    named first (``this is hand pn-w1-4-… of the ledger under another id; …``); else
    ``error`` as it is."""
    stored = error.hand
    if stored in renamed:
        error.hand = renamed[stored]
        error.message = (f"this is hand {stored} of the ledger under another id; "
                         f"{error.message}")
    return error


def _signed_at(b: Batch) -> int | None:
    """The file line of the first signed correction or void of ``b`` (its hand's line when
    the rows' lines are not known); None when none is signed."""
    assert b.events is not None
    for i, e in enumerate(b.events):
        if e.type in LATER and getattr(e, "signature", None) is not None:
            return b.lines[i] if b.lines is not None and i < len(b.lines) else b.line
    return None


def _refusal(b: Batch, stored: str, line: int | None) -> LedgerError:
    return LedgerError(
        f"this hand is hand {stored} of the ledger under another id (the same source key: "
        "its site's file imported under another session name), and its amendments are "
        f"signed: a signature binds the hand's id and rows, so appended to {stored} it "
        "would not verify; nothing of this hand was written (amend it here: `handledger "
        f"void {shell_arg(stored)} ... --sign NAME`, or `correct`)",
        hand=b.hand_id, line=line)


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
