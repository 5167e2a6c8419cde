"""The derived tables of an import into an empty ledger, made from the import's own check.

An import folds every hand through the engine before it writes it (:mod:`replay.build`). Into
a ledger that held nothing before the file, the derived tables that a write saves afterwards
(:func:`replay.projections.save_tables`: every hand replayed, the replay tables and the audit
made again) are those of the imported hands alone, in the order they were appended. They are
made here from the check's final states instead (settled and compared by
:func:`replay.fold.replay_folded`), their rows appended to the replay tables
(:mod:`replay.tables`) as the hands are appended, their facts folded into the streaming audit
(:class:`ledger.audit.stream.StreamAudit`), and the audit's tables and the head written last
(:func:`ledger.audit.tables.refresh`), all in the import's one transaction: nothing is replayed
twice, and the tables are as of the new head, so the save after the write finds them fresh.
The rows and findings are those of :func:`replay.projections.rebuild` (tests compare them row
for row).

A hand's share (:class:`HandShare`) is made where the hand was checked (this process, or a
worker of :mod:`replay.ingest.parallel`, which numbers its hands and its rows from 1:
:meth:`ImportTables.add_part` moves them to their place in the ledger).
"""

from __future__ import annotations

import operator
import pickle
from collections.abc import Sequence
from typing import Any, NamedTuple

from ledger.audit.books import ALIAS_TYPES, HandFacts, hand_facts, resolve_aliases
from ledger.audit.load import iter_session_rows, session_ends, session_rows
from ledger.audit.stream import StreamAudit
from ledger.audit.tables import present_tables, refresh
from ledger.model.carry_rules import carried_rule
from ledger.model.errors import LedgerError
from ledger.model.events import event_json
from ledger.model.platform import from_platform
from replay.fold import replay_events, replay_folded
from replay.late_corrections import revisions
from replay.replaying import unreplayable
from replay.site_summary import site_summary
from replay.tables import (
    TABLES,
    append_rows,
    create_tables,
    insert_columns,
    rows_for,
    table_columns,
)

#: Hands whose rows (or facts) are held before they go to the tables' appenders (are pickled).
_FLUSH_HANDS = 2_000
_PROTOCOL = pickle.HIGHEST_PROTOCOL
#: Event types after which a stream is not its check's fold (a correction or a void: the
#: replay folds the effective events and notes it corrected).
CHANGES = frozenset({"correction", "hand_voided"})
#: The tables whose presence says that the derived tables were built before.
_DERIVED = ("hands", "pots", "results", "discrepancies", "derived_state")


class HandShare(NamedTuple):
    """One appended hand's share of the derived tables: its rows (:func:`replay.tables.rows_for`)
    and its audit facts (:class:`ledger.audit.books.HandFacts`)."""

    rows: dict[str, list[tuple[Any, ...]]]
    facts: HandFacts


def reusable(events: Sequence[Any]) -> bool:
    """Whether the check's fold of ``events`` is the replay's fold of them (no correction or
    void, which the replay applies and notes)."""
    return CHANGES.isdisjoint(e.type for e in events)


def same_events(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Whether ``a`` and ``b`` are the very same event objects in the same order (a stream
    that no later step of the import changed: units, chips carried)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def hand_share(events: Sequence[Any], state: Any, session: str | None, *, ord_: int,
               position: int, settled: Any = None) -> HandShare:
    """The share of one hand appended at ``position`` (its first row), the ``ord_``-th hand
    of the ledger: as :func:`replay.replaying.replay_chunk` makes it from the stored stream.
    ``state``: the check's final state after exactly ``events`` (None: fold them again);
    ``session``: the session its rows are stored under; ``settled``: ``settle(state)`` when
    the check made it (:func:`replay.ingest.hand_checks.check_items`), else None."""
    try:
        if state is None:
            r = replay_events(events, session=session)
        else:
            r = replay_folded(state, events[0], session=session, result=settled)
    except LedgerError as exc:  # as the replay of the stored stream would find it
        raw = (events[0].hand, session, [event_json(e) for e in events], position)
        done = unreplayable(ord_, raw, exc, None)
        return HandShare(done.rows, done.facts)
    # the nets once for both (each is a fold over the players; the facts keep these dicts)
    nets = (r.paid, dict(r.net), dict(r.paid_net))
    rows = rows_for(r, ord_, net=nets[1], paid_net=nets[2])
    return HandShare(
        rows, hand_facts(r, ord=ord_, position=position, unit=events[0].unit, nets=nets,
                         platform=from_platform(events[0]), site_summary=site_summary(events[0]),
                         carry_rule=carried_rule(r.result, events[0])))


def early_share(events: Sequence[Any], state: Any, settled: Any = None
                ) -> tuple[Sequence[Any], bytes | None]:
    """``events`` and their share (:func:`hand_share` from the check's ``state`` and
    ``settled``, numbered
    ord 0 at position 0) pickled, made as soon as the hand is checked, so that its engine
    state is not kept until the hand is appended (:func:`placed` numbers it then); None for
    a stream whose replay is not its check's fold (:func:`reusable`)."""
    if not reusable(events):
        return events, None
    share = hand_share(events, state, events[0].session, ord_=0, position=0,
                       settled=settled)
    return events, pickle.dumps(share, _PROTOCOL)


def placed(early: bytes, ord_: int, position: int) -> HandShare:
    """The share :func:`early_share` pickled, as the ``ord_``-th hand at ``position``."""
    share = pickle.loads(early)
    return HandShare(renumbered_rows(share.rows, ord_),
                     renumbered_facts(share.facts, ord_, position))


def renumbered_rows(rows: dict[str, list[tuple[Any, ...]]], ords: int
                    ) -> dict[str, list[tuple[Any, ...]]]:
    """A hand's rows with its ord moved up by ``ords`` (a worker numbers the hands of its
    part from 1)."""
    if not ords:
        return rows
    rows = dict(rows)
    for table in ("hands", "results"):  # their column 10 is the ord
        rows[table] = [(*row[:10], row[10] + ords, *row[11:]) for row in rows[table]]
    return rows


def part_columns(rows: Sequence[dict[str, list[tuple[Any, ...]]]]) -> dict[str, dict[str, Any]]:
    """The rows of a part's hands (each hand's :attr:`HandShare.rows`, in order), per derived
    table, as its numpy columns (:func:`replay.tables.table_columns`): made by the worker
    that made the rows, so that the process that writes only moves the ords up and inserts
    them (:meth:`ImportTables.add_part`; numpy, not yet Arrow: pyarrow in each worker took
    some 80 MB more of each, measured). Tables without rows are left out.

    Raises:
        LedgerError: a value the table cannot hold (chips beyond 64 bits).
    """
    out: dict[str, dict[str, Any]] = {}
    for table in TABLES:
        joined = [row for one in rows for row in one.get(table, ())]
        if joined:
            out[table] = table_columns(table, joined)
    return out


def renumbered_facts(facts: HandFacts, ords: int, positions: int) -> HandFacts:
    """A hand's facts with its ord moved up by ``ords`` and its position by ``positions``
    (a worker numbers the hands and the rows of its part from 1)."""
    if not ords and not positions:
        return facts
    return facts.renumbered(ords, positions)


def fresh_for_tables(ledger: Any, head: int) -> bool:
    """Whether an import into ``ledger`` may make the derived tables itself: a ledger file
    with no rows (``head`` 0) and no derived table yet."""
    if head or ledger.read_only or ledger.path == ":memory:":
        return False
    return present_tables(ledger.connection).isdisjoint(_DERIVED)


class ImportTables:
    """The derived tables of one import into an empty ledger (see the module doc), written
    inside the caller's transaction. ``audit_now``: the file brings no session rows (PHH),
    so each hand's facts are audited as it comes; otherwise they are kept, pickled (a sixth
    of their size as objects), and audited at :meth:`finish`, once every session row of the
    file is stored and where each session ends is known."""

    def __init__(self, ledger: Any, *, audit_now: bool) -> None:
        self.ledger = ledger
        self.hands = 0  # ords given
        self._rows: list[dict[str, list[tuple[Any, ...]]]] = []
        self._made = False
        self._audit = StreamAudit([], {}, aliases={}) if audit_now else None
        self._facts: list[HandFacts] = []  # not yet pickled into _kept
        self._kept: list[tuple[bytes, int, int]] = []  # (pickled facts, ords, positions)

    def next_ord(self) -> int:
        """The ord of the next hand appended."""
        self.hands += 1
        return self.hands

    def add(self, share: HandShare) -> None:
        """One appended hand's share, in ledger order, numbered where it stands."""
        self._add_rows(share.rows)
        if self._audit is not None:
            self._audit.add(share.facts)
            return
        self._facts.append(share.facts)
        if len(self._facts) >= _FLUSH_HANDS:
            self._kept.append((pickle.dumps(self._facts, _PROTOCOL), 0, 0))
            self._facts = []

    def add_part(self, columns: dict[str, dict[str, Any]], hands: int, facts: bytes,
                 offset: int) -> None:
        """The shares of the ``hands`` hands of one part a worker prepared
        (:mod:`replay.ingest.parts`: their rows as columns, :func:`part_columns`, and their
        facts pickled, numbered from 1, hands and rows), whose first row is at position
        ``offset + 1``. The rows go in now, after those held (:meth:`add`)."""
        ords = self.hands
        if self._rows:
            self._flush()
        elif not self._made:
            create_tables(self.ledger.connection)
            self._made = True
        for table, values in columns.items():
            if ords and "ord" in values:  # hands and results: the ord, from 1 in the part
                values = {**values, "ord": values["ord"] + ords}
            insert_columns(self.ledger.connection, table, values)
        self.hands += hands
        if self._audit is None:
            self._kept.append((facts, ords, offset))
            return
        for one in pickle.loads(facts):
            self._audit.add(renumbered_facts(one, ords, offset))

    def _add_rows(self, rows: dict[str, list[tuple[Any, ...]]]) -> None:
        self._rows.append(rows)
        if len(self._rows) >= _FLUSH_HANDS:
            self._flush()

    def _flush(self) -> None:
        con = self.ledger.connection
        if not self._made:
            create_tables(con)
            self._made = True
        append_rows(con, self._rows)
        self._rows = []

    def finish(self, head: int) -> None:
        """Write the rows still held, audit, and write the audit's tables and ``head`` (the
        ledger's last position), inside the caller's transaction.

        The ``hands`` table has no key (:data:`replay.tables.SCHEMA`): its one row a hand is
        checked here instead, once every row is in (the hands are the import's streams, each
        new to the ledger, so none repeats unless a share was appended twice).

        Raises:
            LedgerError: the database fails, or a hand has two rows in ``hands`` (the caller's
                transaction then rolls back).
        """
        self._flush()
        if self._made:
            twice = self.ledger.connection.execute(
                "SELECT hand_id FROM hands GROUP BY hand_id HAVING count(*) > 1 LIMIT 1"
            ).fetchone()
            if twice is not None:
                raise LedgerError(f"hand {twice[0]} has two rows in the derived tables: "
                                  "nothing written")
        audit = self._audit
        if audit is None:  # as replay.projections.rebuild builds it, over the rows now stored
            names = resolve_aliases(r.event for r in session_rows(self.ledger,
                                                                  types=ALIAS_TYPES))
            audit = StreamAudit(iter_session_rows(self.ledger), session_ends(self.ledger),
                                aliases=names, revised=revisions(self.ledger))
            self._kept.append((pickle.dumps(self._facts, _PROTOCOL), 0, 0))
            self._facts = []
            for blob, ords, offset in self._kept:
                for facts in pickle.loads(blob):
                    audit.add(renumbered_facts(facts, ords, offset))
            self._kept = []
        series, findings = audit.finish()
        refresh(self.ledger, series, findings, head)
