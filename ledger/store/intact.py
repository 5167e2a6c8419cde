"""Whether a ledger file is intact, checked before a command vouches for its rows: ``checkpoint``
and ``session close`` (the head a host pastes as proof), and a ``replay`` or ``run`` that saves
the books derived from them.

The same checks ``verify`` makes of the file, by the same code: every block's checksum
(:func:`ledger.store.blocks.check_blocks`), then the hash chain
(:meth:`ledger.store.store.Ledger.verify`), which hashes every row again: proven intact by
DuckDB queries (:func:`ledger.store.chainsql.proven_intact`), else walked row by row
(:func:`ledger.store.chain.verify_rows`), which names a payload edited in place without its
hash at its position. A chain rewritten with its hashes made again passes both, as it passes
``verify``; only a checkpoint kept elsewhere tells it (README "Anchoring it"). The cost is
hashing every row (for the 3.5 million rows of 100,000 hands 7 s of CPU by the queries, 26 s
by the walk, 0.25 s more for the blocks; bench/PROFILE.md), so the reads, ``audit`` among them,
do not make it (README "Tampering").
"""

from __future__ import annotations

from typing import Any

import duckdb

from ledger.model.errors import ChainBroken, LedgerCorrupt
from ledger.store.blocks import check_blocks


def require_intact(ledger: Any, refused: str) -> None:
    """Check ``ledger`` (a :class:`ledger.store.store.Ledger`) as ``verify`` checks its blocks
    and its chain; ``refused``: what is not done when it fails (``"no checkpoint taken"``),
    said in the error. Reads every row once (twice when the queries do not prove the chain
    intact and the walk names what is wrong), as ``verify`` does.

    Raises:
        LedgerCorrupt: a header or block fails its checksum (naming it, its bytes and the
            tables it holds, as ``verify`` does).
        ChainBroken: the chain breaks, naming the first bad position and what is wrong there
            (``broken at position 525: edited: row 525 (session:s01 seq 2): …``), as
            ``verify`` names it.
        LedgerError: the file cannot be read.
    """
    try:
        try:
            # the chain's check next reads every row and column of events, DuckDB checking
            # each block it reads: not read by the blocks' check as well
            check_blocks(ledger.path, ledger.connection, read_next=("events",))
        except duckdb.Error as e:
            raise ledger.translate(e) from e
        report = ledger.verify()
    except LedgerCorrupt as e:
        raise LedgerCorrupt(f"{e}: {refused}; run `handledger verify`") from e
    if not report.ok:
        raise ChainBroken(f"ledger {ledger.path}: broken at position {report.first_bad}: "
                          f"{report.problem}: {report.message}: {refused}; run "
                          "`handledger verify`")
