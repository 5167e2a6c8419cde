"""Whether a ledger file is intact, checked before a command vouches for its rows: ``checkpoint``
and ``session close`` (the head a host pastes as proof), and a ``replay`` or ``run`` that saves
the books derived from them.

The same checks ``verify`` makes of the file, by the same code: every block's checksum
(:func:`ledger.store.blocks.check_blocks`), then the hash chain
(:meth:`ledger.store.store.Ledger.verify`), which hashes every row again: proven intact by
DuckDB queries (:func:`ledger.store.chainsql.proven_intact`), else walked row by row
(:func:`ledger.store.chain.verify_rows`), which names a payload edited in place without its
hash at its position. A chain rewritten with its hashes made again passes both, as it passes
``verify``; only a checkpoint kept elsewhere tells it (docs/LEDGER.md "Anchoring it"). The cost is
hashing every row (for the 3.5 million rows of 100,000 hands 7 s of CPU by the queries, 26 s
by the walk, 0.25 s more for the blocks; bench/PROFILE.md), so the reads, ``audit`` among them,
do not make it (docs/LEDGER.md "Tampering"). :class:`ProvenInRanges` makes the same proof a range of
positions at a time, for the first replay over ranges (:mod:`replay.ranges`), which reads the
ledger so: each range is proven as it is read, while the worker processes replay the ranges
before it, and on any doubt :func:`require_intact` decides.
"""

from __future__ import annotations

from types import EllipsisType
from typing import Any

from ledger.model.errors import ChainBroken, LedgerCorrupt
from ledger.store.blocks import check_blocks
from ledger.store.chainsql import ChainProof
from ledger.store.duck import duckdb


def require_intact(ledger: Any, refused: str,
                   head: tuple[int, str] | None | EllipsisType = ...) -> None:
    """Check ``ledger`` (a :class:`ledger.store.store.Ledger`) as ``verify`` checks its blocks
    and its chain; ``refused``: what is not done when it fails (``"no checkpoint taken"``),
    said in the error. Reads every row once (twice when the queries do not prove the chain
    intact and the walk names what is wrong), as ``verify`` does. ``head``: the recorded
    head as the caller read it just before (:meth:`ledger.store.store.Ledger.verify`).

    Raises:
        LedgerCorrupt: a header or block fails its checksum (naming it, its bytes and the
            tables it holds, as ``verify`` does).
        ChainBroken: the chain breaks, naming the first bad position and what is wrong there
            (``broken at position 525: edited: row 525 (session:s01 seq 2): …``), as
            ``verify`` names it.
        LedgerError: the file cannot be read.
    """
    try:
        _blocks(ledger)
        report = ledger.verify(head)
    except LedgerCorrupt as e:
        raise LedgerCorrupt(f"{e}: {refused}; run `handledger verify`") from e
    if not report.ok:
        raise ChainBroken(f"ledger {ledger.path}: broken at position {report.first_bad}: "
                          f"{report.problem}: {report.message}: {refused}; run "
                          "`handledger verify`")


def _blocks(ledger: Any) -> None:
    try:
        # the chain's check next reads every row and column of events, DuckDB checking each
        # block it reads: not read by the blocks' check as well
        check_blocks(ledger.path, ledger.connection, read_next=("events",))
    except duckdb.Error as e:
        raise ledger.translate(e) from e


class ProvenInRanges:
    """:func:`require_intact` made a range of positions at a time (module doc), for a caller
    that reads ``ledger`` (a :class:`ledger.store.store.Ledger`) so, in order from position 1,
    and saves nothing before :meth:`finish` returned. Made, it has checked every block's
    checksum; :meth:`add` proves each range by the queries of ``verify``
    (:class:`ledger.store.chainsql.ChainProof`, the same queries over the same positions);
    whatever they do not prove (a mismatch, a range out of order, a query failing or out of
    memory), :meth:`settle` leaves to :func:`require_intact` over the whole file, which
    refuses with ``verify``'s words or proves it (then nothing more is checked). ``refused``:
    as :func:`require_intact`'s.

    Raises (each method):
        ChainBroken, LedgerCorrupt, LedgerError: as :func:`require_intact`.
    """

    def __init__(self, ledger: Any, refused: str) -> None:
        self._ledger = ledger
        self._refused = refused
        self._settled = False
        try:
            _blocks(ledger)
        except LedgerCorrupt as e:
            raise LedgerCorrupt(f"{e}: {refused}; run `handledger verify`") from e
        self._proof = ChainProof(
            lambda sql, params=(): ledger.connection.execute(sql, list(params)).fetchall(),
            ledger.head())

    def add(self, low: int, high: int) -> None:
        """Prove positions ``low < position <= high``, the range right after those proven."""
        if self._settled:
            return
        try:
            proven = self._proof.add(low + 1, high)
        except duckdb.Error as e:  # out of memory, or a block DuckDB cannot read: the whole
            self._not_in_transaction(e)  # decides
            proven = False
        if not proven:
            self.settle()

    def finish(self) -> None:
        """Every position up to the recorded head proven, and the head's hash; else settled."""
        if self._settled:
            return
        try:
            proven = self._proof.finish() is not None
        except duckdb.Error as e:
            self._not_in_transaction(e)
            proven = False
        if not proven:
            self.settle()

    def _not_in_transaction(self, e: duckdb.Error) -> None:
        """Raise ``e`` translated when a transaction is open: DuckDB aborted it at the error,
        so no query can follow in it (:meth:`ledger.store.store.Ledger.transaction`)."""
        if self._ledger.in_transaction:
            raise self._ledger.translate(e) from e

    def settle(self) -> None:
        """Leave the proof to :func:`require_intact` over the whole file, once: a range not
        proven, or a failure met on the way (a payload that does not parse, which a tampered
        row would make: the broken chain is then what is said)."""
        if self._settled:
            return
        self._settled = True
        require_intact(self._ledger, self._refused)
