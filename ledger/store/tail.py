"""The check of the chain's tail that every append makes before it writes (README "Tampering").

An append links its rows to the last stored row, so before it writes it checks that row: its
content hashes to its stored hash (:func:`ledger.store.chain.row_hash`), it links to the row
before it (its ``prev_hash`` is that row's hash, :data:`ledger.store.chain.GENESIS` for
position 1), and it is the recorded head (``meta``: :meth:`ledger.store.store.Ledger._append_head`
checks that part). A failure is named as ``verify`` and a saving ``replay`` name it, by the same
:func:`ledger.store.chain.diagnose`. Two rows read, one hashed: well under a millisecond,
whatever the ledger's size. It is all the live table's writes check (``hand start``, ``act``,
``table``, ``buyin``, ``cashout`` while the session plays). An edit further back, or a chain
rewritten with its hashes made again, passes it: ``verify``, ``checkpoint``, ``session close``
and a saving ``replay`` or ``run`` check the whole chain (:mod:`ledger.store.intact`), and so
do the deliberate writes (``correct``, ``void``, ``pay``, ``import`` into a ledger with rows…:
:mod:`ledger.store.proven`) before anything else.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.model.errors import ChainBroken
from ledger.store.chain import Row, diagnose, row_hash


def check_last_row(path: str, prev: Row | None, last: Row, head: tuple[int, str],
                   position_of_hash: Callable[[str], int | None]) -> None:
    """Check ``last``, the stored row at the recorded ``head`` of the ledger file ``path``,
    against ``prev``, the stored row before it (None: ``last`` is at position 1, or no row
    stands before it). Rows in the ``events`` column order (:data:`ledger.store.chain.Row`);
    ``position_of_hash``: the lowest position whose stored hash is given, as
    :func:`ledger.store.chain.diagnose` takes it.

    Raises:
        ChainBroken: ``last`` does not hash to its stored hash or does not link to ``prev``
            (``ledger t.duckdb: broken at position 24: edited: row 24 (n1 seq 3): its content
            does not hash to its stored hash: nothing written; run `handledger verify```).
    """
    computed = row_hash(last[10], position=last[0], stream=last[1], hand_id=last[2],
                        session=last[3], seq=last[4], type=last[5], schema_version=last[6],
                        payload=last[7], recorded_at=last[8], source_key=last[9])
    bad = diagnose(prev, last, computed, head, position_of_hash)
    if bad is None:
        return
    problem, position, message = bad
    raise ChainBroken(f"ledger {path}: broken at position {position}: {problem}: {message}: "
                      "nothing written; run `handledger verify`")
