"""What a worker process of a parallel import makes of one part of a file
(:mod:`replay.ingest.parallel`): read, checked with the engine, serialised into columns with
each row's hashed text (:mod:`ledger.store.columns`), and, for an import into an empty ledger,
each hand's share of the derived tables (:mod:`replay.ingest.derived`).

A part of a JSON-lines file starts at a line that starts a hand or a session; a part of a
``.phhs`` at a top-level table header. A part is plain when reading it alone gives what reading
the whole file gives there and every hand in it is legal; anything else comes back with
``fallback`` set (never an exception), and the file then goes through the one-process import,
which words every error exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from ledger.formats.reading import SessionEntry
from ledger.model.errors import LedgerError, StoredFinding


class Job(NamedTuple):
    """One part to prepare: the format (``"jsonl"`` or ``"phh"``), the file, its start and
    end byte, the file line of its first line, the ``--session`` name or None, the import's
    ``recorded_at``, and whether to make the hands' shares of the derived tables."""

    kind: str
    file: str
    start: int
    end: int
    first_line: int
    session: str | None
    recorded_at: datetime
    shares: bool = False


@dataclass
class Part:
    """What a worker made of one part: its rows as columns (:mod:`ledger.store.columns`),
    the hand ids, the sessions its rows name, and each session stream's first and last seq
    in the part; ``tables``: a ``.phhs`` part's table names; ``rows`` and ``facts``: the
    hands' shares of the derived tables (their rows as numpy columns by table,
    :func:`replay.ingest.derived.part_columns`, and the list of their facts pickled),
    numbered from the part's first hand and row
    (:meth:`replay.ingest.derived.ImportTables.add_part`). ``fallback``: why the part is not
    plain (the file then goes through the one-process import). ``warnings``: the warning
    lines of its hands stored though their chips do not add up
    (:func:`replay.ingest.write_lines.warning_line`), as the one-process import words them."""

    columns: Any = None
    hands: list[str] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)
    rows: dict[str, Any] = field(default_factory=dict)
    facts: bytes = b""
    fallback: str | None = None
    warnings: list[str] = field(default_factory=list)
    #: the game and players in seat order of its id-less PHH hands
    #: (:func:`replay.ingest.samedeal.seating_of`): a stored hand of one of them may be one
    #: of them, which the one-process import finds (:func:`replay.ingest.samedeal.
    #: drop_same_deals`)
    seatings: set[str] = field(default_factory=set)


#: A worker's memory across the parts it prepares: the reader's event of each event text,
#: the events met (kept alive: the serialisation memos are keyed by ``id``) and those memos.
#: Emptied when it grows past :data:`_CACHE_LIMIT` entries.
_CACHE: dict[str, Any] = {}
_CACHE_LIMIT = 400_000


def _cache() -> dict[str, Any]:
    if not _CACHE or len(_CACHE["events"]) > _CACHE_LIMIT or len(_CACHE["alive"]) > _CACHE_LIMIT:
        from ledger.formats.jsonl.importer import Digests

        _CACHE.update(events={}, alive=[], digest=Digests(), memo={})
    return _CACHE


def prepare_part(job: Job) -> Part:
    """Read, check and serialise one part (runs in a worker; module-level so it pickles).
    Never raises for bad content: a part with any error comes back with ``fallback`` set."""
    from ledger.model.gcpause import gc_paused

    with gc_paused():
        try:
            return _prepare_phh(job) if job.kind == "phh" else _prepare_jsonl(job)
        except (LedgerError, ValueError) as exc:  # e.g. a hand id the store refuses
            return Part(fallback=f"{type(exc).__name__}: {exc}")


def _prepare_jsonl(job: Job) -> Part:
    from ledger.formats.jsonl.importer import IMPORTER
    from replay.carry import may_pass_on
    from replay.ingest.amendment_rules import check_amendments
    from replay.ingest.file_reading import check_entry_names
    from replay.ingest.hand_checks import check_items
    from replay.ingest.signatures import signed_amendments

    cache = _cache()
    try:
        read = IMPORTER.read_part(job.file, job.start, job.end, job.first_line,
                                  session=job.session, events=cache["events"],
                                  digest=cache["digest"], payloads=cache["memo"])
    except OSError as exc:
        return Part(fallback=f"cannot read: {exc}")
    if read.errors:
        return Part(fallback="a bad line")
    if next(signed_amendments(read), None) is not None:
        return Part(fallback="a signed correction or void")  # checked in one process
    try:
        check_amendments(read)
    except LedgerError:
        return Part(fallback="a correction the rules refuse")  # refused in one process
    try:
        check_entry_names(read)
    except LedgerError:
        return Part(fallback="a bad name")  # refused in one process, naming the line
    states: dict[str, Any] = {}
    batches, errors = check_items(read, states=states if job.shares else None)
    if any(not isinstance(e, StoredFinding) for e in errors):
        return Part(fallback="an illegal hand")
    spans: dict[str, tuple[int, int]] = {}  # session stream -> (first seq, last seq) here
    for item in read.items:
        if isinstance(item, SessionEntry):
            stream, seq = f"session:{item.session}", item.seq or 0
            first, last = spans.get(stream, (seq, seq - 1))
            if seq != last + 1:  # two file streams for one session (x and session:x)
                return Part(fallback=f"session {item.session} rows do not follow each other")
            spans[stream] = (first, seq)
    for batch in batches:
        if batch.hand_id is not None and may_pass_on(batch.events):
            return Part(fallback=f"hand {batch.hand_id} may carry chips to the next hand")
    return _serialised(Part(spans=spans, warnings=_warnings(errors, job)), batches, states,
                       job, cache)


def _warnings(found: list[Any], job: Job) -> list[str]:
    """The warning lines of the :class:`StoredFinding` values ``found`` of the part of
    ``job``, each hand of them kept (:func:`replay.ingest.write_lines.warning_line`)."""
    from ledger.formats.files import file_name
    from replay.ingest.write_lines import warning_line

    name = file_name(Path(job.file))
    return [warning_line(e.located(file=name)) for e in found]


def _prepare_phh(job: Job) -> Part:
    from ledger.formats.files import file_name
    from ledger.formats.phh.read import read_plain_part
    from ledger.model.batch import Batch
    from replay.build import phh_fold
    from replay.ingest.faults import hand_faults
    from replay.ingest.known_hands import CONTENT_ID
    from replay.ingest.samedeal import known_by_deal, seating_of
    from replay.ingest.stacks import told_stacks

    try:
        with open(job.file, "rb") as f:
            f.seek(job.start)
            data = f.read(job.end - job.start)
    except OSError as exc:
        return Part(fallback=f"cannot read: {exc}")
    # no lines of keys and actions: they only name errors, and a part with an error goes to
    # the one-process import, which reads the file again and names them
    read = read_plain_part(data, file=file_name(job.file), first_line=job.first_line,
                           lines=False)
    if read is None:
        return Part(fallback="not a plain part")
    hands, tables = read
    batches, states, found = [], {}, []
    for hand in hands:
        if hand.started.session is not None:  # its session's chips, carried chips: one process
            return Part(fallback=f"hand {hand.hand} names a session")
        events, state = phh_fold(hand)  # an illegal hand raises: the one-process import
        fault, settled = hand_faults(events, state, file=None, line=hand.line,
                                     finishing=told_stacks(hand), phh=True)
        if fault is not None:
            if not isinstance(fault, StoredFinding):  # refused: worded by the one process
                return Part(fallback=f"hand {hand.hand}: {fault.message}")
            found.append(fault)  # a rake or payouts that do not add up: a warning
        batches.append(Batch(hand.hand, events, hand.hand, None, hand.source_key, hand.line))
        states[hand.hand] = (events, state, settled)
    seatings = {seating_of(b.events[0]) for b in batches
                if known_by_deal(b.events[0], b.hand_id, CONTENT_ID)}
    # a memo of this part's own: the cache of the JSON-lines parts would keep every event of
    # the worker's parts alive up to its limit (a worker's memory grew with the file)
    return _serialised(Part(tables=tables, warnings=_warnings(found, job), seatings=seatings),
                       batches, states, job, {"memo": {}, "alive": []})


def _serialised(part: Part, batches: list[Any], states: dict[str, Any], job: Job,
                cache: dict[str, Any]) -> Part:
    """``part`` with the rows of ``batches`` as columns and, with ``job.shares``, each
    hand's share of the derived tables (from the check's ``states``)."""
    import pickle

    from ledger.store.chain import prepare_batch
    from ledger.store.columns import prepare_columns
    from replay.ingest import derived  # once a part, not in _share a hand

    next_seq = {stream: first for stream, (first, _) in part.spans.items()}
    memo, alive = cache["memo"], cache["alive"]
    prepared, facts, shares = [], [], []
    rows = 0
    for batch in batches:
        alive.extend(batch.events)
        one = prepare_batch(*batch[:5], memo=memo)
        if batch.hand_id is not None:
            part.hands.append(batch.hand_id)
            if job.shares:
                share = _share(batch, one.types, states, len(part.hands), rows + 1,
                               derived)
                shares.append(share.rows)
                facts.append(share.facts)
        if batch.session is not None:
            part.sessions.add(batch.session)
        seq = next_seq.get(batch.stream, 1)
        one.expected_seq = seq - 1
        next_seq[batch.stream] = seq + len(batch.events)
        rows += len(batch.events)
        prepared.append(one)
    part.columns = prepare_columns(prepared, job.recorded_at)
    if job.shares:
        part.rows = derived.part_columns(shares)
        part.facts = pickle.dumps(facts, pickle.HIGHEST_PROTOCOL)
    return part


def _share(batch: Any, types: list[str], states: dict[str, Any], ord_: int, position: int,
           derived: Any) -> Any:
    """The share of one hand (``types``: its events' types, as serialised; ``derived``: the
    module :mod:`replay.ingest.derived`)."""
    checked = states.get(batch.hand_id)
    state = settled = None
    # the check's state serves when it folded these very events, none of which changes the
    # stream (derived.reusable, asked of the types already made)
    if (checked is not None and derived.same_events(checked[0], batch.events)
            and derived.CHANGES.isdisjoint(types)):
        state, settled = checked[1], checked[2]
    return derived.hand_share(batch.events, state, batch.session, ord_=ord_,
                              position=position, settled=settled)
