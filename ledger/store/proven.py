"""The proof a deliberate write makes of the whole ledger file before it reads anything of it
or writes (docs/LEDGER.md "Tampering"; only its arguments may be checked before).

A deliberate write is one a host types to change the books outside the live table:
``correct``, ``void``, ``undo`` (signed or not), ``entry amend`` and ``entry retract``,
``session void``, ``pay``, ``session open`` and ``session set``, ``player alias``, ``cashout
--closed``, and ``import`` or ``run`` into a ledger that holds rows. Each would otherwise
build on rows it never looked at: a void of a hand whose payout was edited by SQL, a payment
bounded by forged buy-ins. Before it reads anything of the ledger it proves the file as
``verify`` does, by the same code (:func:`ledger.store.intact.require_intact`: every block's
checksum, then every row hashed again), and a failure refuses it, nothing written. First,
before the derived tables are caught up (written) for its checks, it refuses a ledger rolled
back behind its own checkpoints file, as every append does
(:func:`ledger.store.rolledback.check_not_rolled_back`). The writes of the live table
(``hand start``, ``act`` and ``table`` even with ``--closed``, ``buyin``, ``cashout`` while
the session plays) check only the chain's tail (:mod:`ledger.store.tail`): walking 3.5
million rows would hold up every action.

One command proves once: a write made of others (``undo`` correcting the hand, ``run``
importing its folder) finds the ledger proven at the head it has, and proves it again only
when the head moved since (rows appended in between).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ledger.store.intact import require_intact
from ledger.store.rolledback import check_not_rolled_back

#: Each open :class:`ledger.store.store.Ledger` proven intact in this process, and the head
#: (position, hash) it had then.
_proven: WeakKeyDictionary[Any, tuple[int, str]] = WeakKeyDictionary()

#: What a refused deliberate write says is not done.
NOTHING_WRITTEN = "nothing written"


def prove_before_writing(ledger: Any, refused: str = NOTHING_WRITTEN) -> None:
    """Prove ``ledger`` (a :class:`ledger.store.store.Ledger` opened for the write) intact
    before a deliberate write (module doc): a ledger with no rows (its head at position 0)
    has nothing to prove; one proven by this process at the head it still has is not proven
    again. ``refused``: what is not done when the proof fails, said in the error
    (``"nothing written"``). Costs what ``verify``'s chain check costs: every row hashed (7 s
    of CPU for the 3.5 million rows of 100,000 hands, bench/PROFILE.md).

    Raises:
        LedgerError: the checkpoints file's last checkpoint is one the ledger does not
            extend (a copy put back), naming the file and line.
        ChainBroken: the chain breaks (``ledger t.duckdb: broken at position 365: edited:
            row 365 (dispute-1 seq 23): its content does not hash to its stored hash: nothing
            written; run `handledger verify```).
        LedgerCorrupt: a header or block fails its checksum, named as ``verify`` names it.
        LedgerError: the file cannot be read.
    """
    head = ledger.head()
    check_not_rolled_back(ledger.path, head[0] if head is not None else 0, ledger.hash_at,
                          refused)
    if head is not None and head[0] == 0:
        return
    if head is not None and _proven.get(ledger) == head:
        return
    require_intact(ledger, refused, head)  # the head just read, not read again
    if head is not None:
        _proven[ledger] = head
