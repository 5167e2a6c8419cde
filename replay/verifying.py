"""``verify``: everything a ledger file can be checked for without trusting it.

* its blocks: every header and block of the file checked, every table read whole
  (:mod:`ledger.store.blocks`);
* its hash chain (:meth:`ledger.store.store.Ledger.verify`): the first row edited, deleted,
  inserted or reordered;
* its signed corrections and voids (:mod:`ledger.audit.signatures`): each against the key
  directory and the hand's rows before it;
* its derived tables: the books re-derived from the events in memory (a full replay and audit,
  :func:`replay.projections.rebuild`) and compared with the tables the reads would use (the
  stored ones, caught up in memory first when the ledger moved since they were saved, as a read
  catches them up: :mod:`replay.books`), row for row. The tables carry a digest of their
  contents, but anyone with the file can recompute it after editing them, and ``audit``,
  ``settle``, ``balances`` and ``sql`` trust tables whose digest matches; only a replay tells
  books that are not the events' (docs/LEDGER.md "Tampering"). So are the views the reads query
  (``standings``, ``player_session_results``…), which no digest covers: each must be the
  one handledger writes.

Nothing is written: the ledger is opened read-only and the replay runs in memory
(:meth:`ledger.store.store.Ledger.overlay`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ledger.audit.catchup import moved
from ledger.audit.signatures import (
    SignedAmendment,
    UnsignedUndo,
    signed_amendments,
    unsigned_undos,
)
from ledger.audit.tables import DERIVED
from ledger.model.errors import LedgerBusy, LedgerCorrupt, LedgerError
from ledger.store.anchor import OwnCheckpoints, own_checkpoints
from ledger.store.blocks import check_blocks
from ledger.store.chain import VerifyReport
from ledger.store.duck import duckdb, present_tables
from ledger.store.keys import KeyStore
from ledger.store.sidecar import Closes
from ledger.store.store import Ledger
from replay.progress import Progress, silent
from replay.projections import catch_up, rebuild

#: The tables compared, in this order: the derived tables, then what they were built from.
COMPARED = (*DERIVED, "derived_state")
_KEPT = "kept_"
_UNCHECKED = ("the derived tables were never built", "the derived tables have another shape")


@dataclass(frozen=True)
class DerivedCheck:
    """The derived tables against a replay of the events: ``checked`` False when there are
    none to compare (``reason`` says why: never built, another shape, the chain broken);
    ``difference`` None when every row is the replay's, else one line naming the first
    table and row that differs; ``sealed`` what the stored tables' own check said, when it
    failed (their digest or the chain hash they were built at does not match), else None;
    ``rows`` the rows compared."""

    checked: bool
    difference: str | None = None
    sealed: str | None = None
    reason: str | None = None
    rows: int = 0

    @property
    def ok(self) -> bool:
        return self.difference is None and self.sealed is None


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_ledger` found: the chain walk, the signed amendments checked, and
    the derived tables against a replay."""

    chain: VerifyReport
    signatures: list[SignedAmendment] = field(default_factory=list)
    derived: DerivedCheck = DerivedCheck(False, reason="not checked")
    #: The closes whose checkpoint the ledger's checkpoints file lacks, and that file
    #: (:func:`ledger.store.sidecar.unanchored_closes`): said, a failure only when the file
    #: holds a checkpoint the ledger does not extend (``why`` ``parted``).
    unanchored: Closes = field(default_factory=lambda: Closes([], None))
    #: The ledger's own checkpoints file checked as ``verify --against`` checks it
    #: (:func:`ledger.store.anchor.own_checkpoints`); None when not asked or there is none.
    #: A failure when the ledger does not extend one of its checkpoints or the file was
    #: altered (a damaged line before a later checkpoint); a file that holds no checkpoint
    #: is said, not failed.
    own: OwnCheckpoints | None = None
    #: The unsigned corrections (an ``undo`` without ``--sign``) that take back one of the
    #: signed amendments (:func:`ledger.audit.signatures.unsigned_undos`): said on the
    #: signatures line, no failure (no signature fails; nobody signed the taking back).
    unsigned: list[UnsignedUndo] = field(default_factory=list)

    @property
    def failing(self) -> list[SignedAmendment]:
        """The signed amendments whose signature fails."""
        return [s for s in self.signatures if s.status == "bad"]

    @property
    def ok(self) -> bool:
        return (self.chain.ok and not self.failing and self.derived.ok
                and self.unanchored.why != "parted" and not (self.own and self.own.fails))


def verify_ledger(ledger: Ledger, keys: KeyStore, *, jobs: int | None = 1,
                  progress: Progress = silent, own: bool = False) -> Verdict:
    """Check ``ledger`` (open read-only) as the module doc says: its blocks first, then the
    chain, the signatures and, when the chain is intact, its derived tables (``jobs`` as
    :func:`replay.projections.rebuild`); with ``own``, the ledger's own checkpoints file as
    well, when there is one (docs/LEDGER.md "Anchoring it": a rollback or a rewrite that recomputed
    the chain passes every other check).

    A stored event the replay cannot read (its payload rewritten, the chain made again) is
    the derived tables' failure, naming it.

    Raises:
        LedgerCorrupt: a damaged block or header (naming it and what it holds).
        LedgerError: the ledger cannot be read, a damaged public key file.
    """
    try:
        check_blocks(ledger.path, ledger.connection)
    except duckdb.Error as e:
        raise ledger.translate(e) from e
    chain = ledger.verify()
    from replay.ingest.export import session_chips

    signatures = signed_amendments(ledger, keys, chip_of=session_chips(ledger))
    unsigned = unsigned_undos(ledger, signatures)
    mine = own_checkpoints(ledger, keys, chain) if own else None
    if not chain.ok:
        return Verdict(chain, signatures, DerivedCheck(False, reason="the chain is broken"),
                       own=mine, unsigned=unsigned)
    try:
        derived = derived_check(ledger.path, jobs=jobs, progress=progress)
    except (LedgerCorrupt, LedgerBusy):
        raise
    except LedgerError as e:  # a stored payload no reader takes: rewritten with the chain
        derived = DerivedCheck(True, f"the events cannot be replayed: {e}")
    from ledger.store.sidecar import unanchored_closes

    return Verdict(chain, signatures, derived, unanchored_closes(ledger), mine, unsigned)


def derived_check(path: str, *, jobs: int | None = 1, progress: Progress = silent
                  ) -> DerivedCheck:
    """The derived tables of the ledger at ``path`` against a replay of its events, in
    memory (module doc).

    Raises:
        LedgerError: as :func:`replay.projections.rebuild`; LedgerCorrupt: a damaged block.
    """
    ledger = Ledger.overlay(path, sound=False)  # its blocks checked by verify_ledger
    try:
        con = ledger.connection
        plan = moved(con)
        if plan.full in _UNCHECKED:
            return DerivedCheck(False, reason=f"{plan.full}: every read replays the ledger")
        sealed = plan.full if plan.mismatch else None
        if sealed is None and not plan.fresh:
            catch_up(ledger, jobs=1)  # what a read would use
        present = present_tables(con)
        kept = [name for name in COMPARED if name in present]
        for name in kept:
            con.execute(f'ALTER TABLE "{name}" RENAME TO "{_KEPT}{name}"')
        rebuild(ledger, jobs=jobs, progress=progress, label="replaying to check the books")
        rows = 0
        for name in COMPARED:
            if name not in kept:
                return DerivedCheck(True, f"derived table {name} is missing", sealed)
            rows += con.execute(f'SELECT count(*) FROM "{_KEPT}{name}"').fetchone()[0]
            difference = first_difference(con, name, _KEPT + name)
            if difference is not None:
                return DerivedCheck(True, difference, sealed, rows=rows)
        return DerivedCheck(True, changed_view(con, ledger.source), sealed, rows=rows)
    except duckdb.Error as e:
        raise ledger.translate(e) from e
    finally:
        ledger.close()


def first_difference(con: Any, replayed: str, stored: str, *, width: int = 400) -> str | None:
    """One line naming the first row (in the order of its values) where table ``stored``
    differs from ``replayed`` (the same columns): a stored row the replay does not give, and
    the replay's row in its place when one matches its first column; None when both hold the
    same rows (as multisets). ``width``: the most characters of a row shown."""
    names = [r[0] for r in con.execute(f'DESCRIBE "{replayed}"').fetchall()]
    extra = con.execute(f'SELECT * FROM "{stored}" EXCEPT ALL SELECT * FROM "{replayed}"'
                        " ORDER BY ALL LIMIT 1").fetchall()
    lacking = con.execute(f'SELECT * FROM "{replayed}" EXCEPT ALL SELECT * FROM "{stored}"'
                          " ORDER BY ALL LIMIT 1").fetchall()
    if not extra and not lacking:
        return None
    shown: Callable[[tuple], str] = lambda row: _row(names, row, width)  # noqa: E731
    if extra and lacking and extra[0][0] == lacking[0][0]:
        same = next(i for i, (a, b) in enumerate(zip(extra[0], lacking[0], strict=True))
                    if a != b)
        where = ", ".join(f"{n} {v!r}" for n, v in zip(names[:min(same, 3)], extra[0],
                                                       strict=False))
        changed = [f"{n} {a!r} stored, {b!r} by the replay"
                   for n, a, b in zip(names, extra[0], lacking[0], strict=True) if a != b]
        return (f"derived table {replayed} differs from the events' replay at the row "
                f"{where}: {'; '.join(changed)}"[:width * 2])
    if extra:
        return (f"derived table {replayed} holds a row the events' replay does not give: "
                f"{shown(extra[0])}")
    return (f"derived table {replayed} lacks a row the events' replay gives: "
            f"{shown(lacking[0])}")


def _row(names: list[str], row: tuple, width: int) -> str:
    text = ", ".join(f"{n} {v!r}" for n, v in zip(names, row, strict=True) if v is not None)
    return text if len(text) <= width else text[:width - 1] + "…"


def changed_view(con: Any, source: str) -> str | None:
    """One line naming the first view of the ledger file (attached as ``source``) whose
    definition is not the one handledger writes (:data:`ledger.audit.tables.VIEWS`, as the
    rebuild in memory made them on ``con``), or that is missing; None when they are the
    same. The digest covers the tables' rows, not the views the reads query."""
    from ledger.audit.tables import VIEWS

    def views(database: str) -> dict[str, str]:
        return dict(con.execute("SELECT view_name, sql FROM duckdb_views() WHERE NOT internal"
                                " AND database_name = ?", [database]).fetchall())

    stored = views(source)
    written = views(con.execute("SELECT current_database()").fetchone()[0])
    for name in VIEWS:
        if name not in stored:
            return f"derived view {name} is missing"
        if stored[name] != written.get(name):
            return (f"derived view {name} is not the one handledger writes: its definition "
                    "was changed")
    return None
