"""The check a read of one hand makes of the rows it shows (``state``, ``show``): each hashes
to its stored hash, and each that follows another of them in position order links to it.

Tens of rows hashed, no query: well under a millisecond, whatever the ledger's size, so the
live table's ``state`` keeps its pace (a walk of the whole chain costs 7 s for 100,000 hands,
:mod:`ledger.store.intact`). A row of the hand edited in place (its hash left as it was) is
named as ``verify`` names it (:func:`ledger.store.chain.diagnose`), and the hand is not shown:
its payouts would read as the books while the derived tables still count the rows as they
were written. An edit of another hand's row, or rows rewritten with their hashes made again
and linked anew, is ``verify``'s to find (docs/LEDGER.md "A read never writes").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.model.errors import ChainBroken
from ledger.store.rowhash import row_hash


def check_shown(path: str, rows: Sequence[Any], refused: str) -> None:
    """Check ``rows`` (:class:`ledger.store.store.StoredEvent`, one hand's stream in position
    order) of the ledger file ``path`` before a read shows them; ``refused`` says what is not
    done (``hand h1 not shown (its rows were changed outside handledger)``).

    Raises:
        ChainBroken: a row does not hash to its stored hash, or does not link to the row of
            the hand just before it (``ledger t.duckdb: broken at position 689: edited: row
            689 (h1 seq 26): its content does not hash to its stored hash: hand h1 not shown
            (…); run `handledger verify```).
    """
    before: tuple[Any, ...] | None = None
    for r in rows:
        row = (r.position, r.stream, r.hand_id, r.session, r.seq, r.type, r.schema_version,
               r.payload, r.recorded_at, r.source_key, r.prev_hash, r.hash)
        computed = row_hash(r.prev_hash, position=r.position, stream=r.stream,
                            hand_id=r.hand_id, session=r.session, seq=r.seq, type=r.type,
                            schema_version=r.schema_version, payload=r.payload,
                            recorded_at=r.recorded_at, source_key=r.source_key)
        prev = before if before is not None and before[0] == r.position - 1 else None
        if computed == r.hash and (prev is None or r.prev_hash == prev[11]):
            before = row  # sound (a link to a row of another stream is verify's to check)
            continue
        if prev is None:  # stands as if linked: only its own hash is judged
            prev = (r.position - 1, *row[1:11], r.prev_hash)
        from ledger.store.chain import diagnose  # a row found wrong: named as verify names it

        bad = diagnose(prev, row, computed, None, lambda _h: None)
        if bad is not None:
            problem, position, message = bad
            raise ChainBroken(f"ledger {path}: broken at position {position}: {problem}: "
                              f"{message}: {refused}; run `handledger verify`")
        before = row


def not_shown(hand: str) -> str:
    """What a read of ``hand`` (``state``, ``show``) whose rows were changed outside
    handledger does not do: the ``refused`` of :func:`check_shown`."""
    return f"hand {hand} not shown (it would show rows changed outside handledger as the books)"
