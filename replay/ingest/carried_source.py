"""A PHH hand that carries the source key of a hand the ledger holds under another id.

A ledger's PHH export of a hand read from a site's file writes the key that file gave the
hand as ``_source_key`` (FORMATS.md §1: a key of ours starts with ``_``;
:func:`replay.ingest.export.phh_text`). A PokerNow hand's id names the session it was
imported into (``pn-<session>-…``), so another ledger that imported the same log under
another session name holds the hand under another id: by that key it is the hand the
ledger holds. As a JSON-lines copy carrying the key is (the store skips a key it holds), it
is already in the ledger (counted known, not written; it stays in the session it is stored
in), when its events are the stored ones; otherwise refused in one line naming the stored
hand and the first difference (a change to a stored hand is a correction). A PHH file
without ``_source_key`` (an earlier version's export) is read as before.

The other way round, a site's file imported after a PHH export of its hands: a hand of the
file whose source key a stored hand carries as ``_source_key`` is that hand, known or
refused alike (:func:`drop_site_copies`); a PokerNow log goes into the session holding it
(:func:`carried_session`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.formats.phh.base import SOURCE_KEY
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.ingest.keyed import hands_keyed

#: ``compare(batch, stored rows [(seq, JSON)])``: the text and file line of the first
#: difference, None when the events are the stored ones
#: (:func:`replay.ingest.known_hands.deal_difference`).
Compare = Callable[[Batch, list[tuple[int, str]]], tuple[str, int | None] | None]

#: The source keys a site's file gives its hands (:func:`replay.ingest.export.site_keys`).
SITE_PREFIXES = ("pokernow:", "pokerstars:")


def carried_key(batch: Batch) -> str | None:
    """The ``_source_key`` the PHH hand of ``batch`` carries (None: none, or no hand to
    write)."""
    if not batch.is_hand or not batch.events or batch.events[0].type != "hand_started":
        return None
    key = (batch.events[0].source or {}).get(SOURCE_KEY)
    return key if isinstance(key, str) else None


def drop_carried_keys(ledger: Any, batches: list[Batch], *, upto: int, compare: Compare
                      ) -> tuple[list[Batch], list[LedgerError], dict[str, str], int]:
    """``batches`` with each hand whose ``_source_key`` a hand of another id stored at or
    before ``upto`` has (its first row's key) known (no events) when ``compare`` finds no
    difference, else refused. Two lookups when a chunk carries such keys: the hands of
    those keys, and their original rows (none left to read when no key is held).

    Returns:
        The batches kept, the refusals (naming the file's hand, its line and the stored
        hand), ``{id of a known copy: the stored hand's id}``, and how many of the known
        copies stay in another session (or none) than the one the file puts them in.
    """
    mine = {b.hand_id: key for b in batches if (key := carried_key(b)) is not None}
    if not mine or not upto:
        return batches, [], {}, 0
    held = hands_keyed(ledger, mine.values(), upto)
    return _drop_found(ledger, batches, mine, held, upto, compare, (
        f"this hand carries the {SOURCE_KEY} that hand {{old}} of the ledger was imported "
        "under (the key its site's file gave it)"))


def site_key(batch: Batch) -> str | None:
    """The source key a site's file (a PokerNow log, a PokerStars text) gave the hand of
    ``batch`` (None: another file's, or no hand to write)."""
    key = batch.source_key
    if not batch.is_hand or not batch.events or batch.events[0].type != "hand_started":
        return None
    return key if key is not None and key.startswith(SITE_PREFIXES) else None


def hands_carrying(ledger: Any, keys: list[str], upto: int | None = None
                   ) -> dict[str, tuple[str, str | None]]:
    """``{key: (hand id, session)}`` of the stored hands (at or before ``upto``; None: all)
    that carry one of the site keys ``keys`` as ``_source_key`` (a PHH export's hand). One
    query, over the starts of hands read from PHH alone (their own key a digest, no ``:``),
    whatever the number of keys."""
    if not keys:
        return {}
    bound = " AND position <= ?" if upto is not None else ""
    rows = ledger.query(
        "SELECT carried, hand_id, session FROM (SELECT json_extract_string(payload,"
        f" '$.source.{SOURCE_KEY}') AS carried, hand_id, session, position FROM events"
        " WHERE seq = 1 AND type = 'hand_started' AND hand_id IS NOT NULL"
        f" AND NOT contains(source_key, ':'){bound}) WHERE carried IN (SELECT UNNEST(?))"
        " ORDER BY position", ([upto] if upto is not None else []) + [sorted(set(keys))])
    out: dict[str, tuple[str, str | None]] = {}
    for key, hand, session in rows:
        out.setdefault(key, (hand, session))
    return out


def carried_session(ledger: Any, key: str | None) -> str | None:
    """The session of the stored hand that carries the site key ``key`` as ``_source_key``
    (None: none, or it is in no session): where a PokerNow game whose first hand has that
    key is held when its hands came by PHH (:func:`replay.ingest.file_reading.game_session`).
    """
    held = hands_carrying(ledger, [key]) if key is not None else {}
    return held[key][1] if key in held else None


def drop_site_copies(ledger: Any, batches: list[Batch], *, upto: int, compare: Compare
                     ) -> tuple[list[Batch], list[LedgerError], dict[str, str], int]:
    """As :func:`drop_carried_keys`, the other way round: each hand of a site's file
    (``batches``) whose source key a hand of another id stored at or before ``upto`` carries
    as ``_source_key`` (another ledger's PHH export of it, imported first) is known when
    ``compare`` finds no difference, else refused naming the stored hand. One lookup of
    those keys (:func:`hands_carrying`), and one of the stored rows when a key is held.

    Returns:
        As :func:`drop_carried_keys`.
    """
    mine = {b.hand_id: key for b in batches if (key := site_key(b)) is not None}
    if not mine or not upto:
        return batches, [], {}, 0
    held = hands_carrying(ledger, list(mine.values()), upto)
    return _drop_found(ledger, batches, mine, held, upto, compare, (
        f"this hand's source key is the {SOURCE_KEY} that hand {{old}} of the ledger carries "
        "(a PHH export of it)"))


def _drop_found(ledger: Any, batches: list[Batch], mine: dict[str | None, str],
                held: dict[str, tuple[str, str | None]], upto: int, compare: Compare,
                why: str) -> tuple[list[Batch], list[LedgerError], dict[str, str], int]:
    """The batches, refusals, known copies and how many stay outside the file's session, of
    ``batches`` whose key (``mine``: the file's hand id -> key) names a stored hand of
    another id (``held``: key -> (hand, session)); ``why`` the refusal's first words
    (``{old}``: the stored hand)."""
    found = {copy: held[key] for copy, key in mine.items()
             if key in held and held[key][0] != copy}
    if not found:  # none held, or held under the copy's own id (known by its id)
        return batches, [], {}, 0
    rows: dict[str, list[tuple[int, str]]] = {}
    for hand, seq, text in ledger.query(
            "SELECT hand_id, seq, CAST(payload AS VARCHAR) FROM events WHERE position <= ?"
            " AND hand_id IN (SELECT UNNEST(?)) AND type NOT IN ('correction', 'hand_voided')"
            " ORDER BY hand_id, seq", [upto, sorted({h for h, _ in found.values()})]):
        rows.setdefault(hand, []).append((seq, text))
    out, refused, known, outside = [], [], {}, 0
    for b in batches:
        if b.hand_id not in found or b.events is None:
            out.append(b)
            continue
        old, session = found[b.hand_id]
        differ = compare(b, rows[old])
        if differ is None:
            out.append(b.with_events(None))  # the stored hand: known, not written again
            known[b.hand_id] = old
            outside += session != b.session
            continue
        text, line = differ
        refused.append(LedgerError(
            f"{why.format(old=old)}, and differs from it: {text}; a change to a stored hand is "
            f"a correction (`handledger correct {shell_arg(old)} ...`), not another hand",
            hand=b.hand_id, line=line))
    return out, refused, known, outside
