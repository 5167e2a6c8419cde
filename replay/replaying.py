"""Replaying many hands, in this process or in worker processes, in ledger order.

Hands come as stored payload texts (:data:`ledger.store.streams.RawHand`) numbered by their
place in the ledger; each chunk of hands is parsed, replayed (:func:`replay.fold.replay_events`),
turned into derived-table rows (:mod:`replay.tables`), optionally rendered, and, for the audit,
summed up as :class:`ledger.audit.books.HandFacts`. With ``jobs`` N > 1 the chunks go to N - 1
worker processes and this one, which also reads the ledger and writes the tables; results are
taken in ledger order and at most a few chunks per process are in flight.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from ledger.model.errors import LedgerError
from ledger.store.streams import RawHand, parse_events

_CHUNK = 250  # hands per unit of work
_TABLES = ("hands", "pots", "results", "discrepancies")  # those of replay.tables
_NO_ROWS: dict[str, list[tuple]] = {}  # Replayed.rows when they went to the caller's lists
#: Python's collector while many hands are replayed: a young generation about 300 times the
#: default, so that the engine's short-lived objects are not traversed every 700 allocations
#: and the hands in flight are not promoted and traversed again by full collections. The
#: young generation counts the objects made and still alive: a range of 5,000 hands of a
#: series (:mod:`replay.ranges`: its rows, books and payload texts) stays below it, so that
#: its objects are never traversed while it is replayed (measured: 50,000 collected about
#: twice a range, 5 % of a worker's CPU; this, never).
_THRESHOLD = (200_000, 20, 10)
_WINDOW = 4  # chunks in flight per process

#: How a replayed hand is rendered for printing (a module-level function: it is pickled to
#: worker processes), e.g. the CLI's text table or :func:`replay.hand_replay.replay_json` as text.
Render = Callable[[Any], str]


class Replayed(NamedTuple):
    """What replaying one hand gives: its derived-table rows, its text (None when not
    rendered), whether it was paid differently from the rules, whether its showdown is not
    verifiable, and its :class:`ledger.audit.books.HandFacts` (None unless asked)."""

    rows: dict[str, list[tuple]]
    text: str | None
    bad: bool
    unverifiable: bool
    facts: Any


def replay_chunk(chunk: Sequence[tuple[int, RawHand]], render: Render | None, problems: bool,
                 facts: bool = False, tables: Mapping[str, list[tuple]] | None = None
                 ) -> list[Replayed]:
    """Parse, replay and render one chunk of ``(ord, RawHand)``: ``render`` None renders
    nothing; ``problems``: only the hands :attr:`replay.hand_replay.HandReplay.problem`
    names (paid differently from the rules, or with a note); ``facts``: also what the audit
    needs of each hand; ``tables``: the hands' derived-table rows are appended to these lists
    (``{table: rows}``, every table of :mod:`replay.tables`) instead of :attr:`Replayed.rows`
    (then empty). Runs in a worker process with ``jobs``.

    A hand whose payloads do not parse or whose events the rules refuse does not stop the
    chunk: it comes back as :func:`unreplayable`.
    """
    from ledger.audit.books import hand_facts
    from ledger.model.carry_rules import carried_rule
    from ledger.model.platform import from_platform
    from replay.fold import replay_events
    from replay.site_summary import site_summary
    from replay.tables import add_rows

    out: list[Replayed] = []
    for ord_, (hand, session, body, position) in chunk:
        try:
            events = parse_events(body)
            r = replay_events(events, session=session)
        except LedgerError as exc:  # one bad stream never stops the others: a finding
            done = unreplayable(ord_, (hand, session, body, position), exc, render)
            if tables is not None:
                for table, rows in done.rows.items():
                    tables[table].extend(rows)
                done = done._replace(rows=_NO_ROWS)
            out.append(done)
            continue
        text = None
        if render is not None and (not problems or r.problem):
            text = render(r)
        nets = r.books()  # (paid, net, paid_net), each a new dict: computed once
        if tables is None:
            rows = {table: [] for table in _TABLES}
            add_rows(rows, r, ord_, net=nets[1], paid_net=nets[2])
        else:
            rows = _NO_ROWS
            add_rows(tables, r, ord_, net=nets[1], paid_net=nets[2])
        fact = hand_facts(r, ord=ord_, position=position, unit=events[0].unit, nets=nets,
                          platform=from_platform(events[0]),
                          site_summary=site_summary(events[0]),
                          carry_rule=carried_rule(r.result, events[0])) if facts else None
        out.append(Replayed(rows, text, bool(r.differences), not r.result.verifiable, fact))
    return out


def unreplayable(ord_: int, raw: RawHand, exc: LedgerError, render: Render | None
                 ) -> Replayed:
    """What a hand that cannot be replayed gives: a ``hands`` row with status
    ``unreplayable`` and the reason in its notes, its players (when its ``hand_started``
    parses) with unknown payouts, so the books stop following their chips until a later hand,
    and the reason for the audit's ``unreplayable`` check."""
    from ledger.audit.books import HandFacts
    from ledger.model.events import parse_event
    from ledger.model.platform import from_platform

    hand, session, body, position = raw
    reason = exc.message if isinstance(exc, LedgerError) else str(exc)
    if getattr(exc, "seq", None):
        reason = f"event {exc.seq}: {reason}"  # type: ignore[attr-defined]
    game, starting = "?", {}
    unit: tuple[int, str | None, int] = (1, None, 0)  # plain chips, unless it says
    platform = False
    try:
        started = parse_event(body[0])
        if started.type == "hand_started":
            game, starting = started.game, {s.player: s.stack for s in started.seats}
            session = session or started.session
            unit = started.unit.money()
            platform = from_platform(started)
    except LedgerError:
        pass
    rows: dict[str, list[tuple]] = {"hands": [(hand, session, game, "unreplayable", False,
                                               False, len(starting), 0, 0, reason, ord_,
                                               *unit)],
                                    "pots": [], "results": [], "discrepancies": []}
    text = f"hand {hand}: cannot be replayed: {reason}" if render is not None else None
    facts = HandFacts(hand=hand, session=session, ord=ord_, position=position, game=game,
                      status="unreplayable", starting=starting, contributions={}, paid=None,
                      net={p: 0 for p in starting}, pot_out=None, unit=unit, error=reason,
                      platform=platform)
    return Replayed(rows, text, True, False, facts)


@contextmanager
def no_collections() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (a range replayed whole,
    :mod:`replay.ranges`), on again after if it was, every object then alive frozen out of
    its later traversals (:func:`gc.freeze`: they are still freed by their reference counts,
    as a replay's objects are). A replay makes almost no cycles (measured: 56 objects left
    to the collector by a range of 2,550 hands of a series; frozen, they stay), while the
    collections :func:`fewer_collections` still makes, and those after it of every range's
    survivors, cost about 4 % of a first replay's CPU at a million hands."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Python's cyclic garbage collector tuned for the block, restored after: the objects
    that exist when it starts (modules, the evaluator's tables, the parsed-payload memo) are
    frozen out of its traversals and it runs far less often (:data:`_THRESHOLD`). A replay
    makes few cycles; without this a full collection traverses every live object again
    and again (measured: 17 % of a worker's CPU on the demo series, 3.5 % with it)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _chunks(hands: Iterable[Any], numbered: bool) -> Iterator[list[tuple[int, RawHand]]]:
    chunk: list[tuple[int, RawHand]] = []
    for item in hands if numbered else enumerate(hands, 1):
        chunk.append(item)
        if len(chunk) >= _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def replayed(hands: Iterable[Any], *, jobs: int = 1, render: Render | None = None,
             problems: bool = False, facts: bool = False, numbered: bool = False
             ) -> Iterator[Replayed]:
    """Replay ``hands`` (:data:`RawHand`, numbered 1, 2, … in ledger order; ``numbered``:
    ``(ord, RawHand)`` pairs) in ``jobs`` processes: this one and ``jobs - 1`` workers
    (:func:`replay_chunk`). This process also reads the ledger and writes the tables, so it
    replays only one chunk in ``2 * jobs - 1`` itself, when that chunk's turn comes. In one
    process the collector runs less often meanwhile (:func:`fewer_collections`)."""
    chunks = _chunks(hands, numbered)
    if jobs <= 1:
        with fewer_collections():
            for chunk in chunks:
                yield from replay_chunk(chunk, render, problems, facts)
        return
    from replay.workers import worker_pool

    share = 2 * jobs - 1
    with worker_pool(jobs - 1) as pool:
        pending: deque[Any] = deque()
        for k, chunk in enumerate(chunks):
            if k % share == 0:
                pending.append(chunk)  # replayed here
            else:
                pending.append(pool.submit(replay_chunk, chunk, render, problems, facts))
            while len(pending) >= jobs * _WINDOW:
                yield from _done(pending.popleft(), render, problems, facts)
        while pending:
            yield from _done(pending.popleft(), render, problems, facts)


def _done(item: Any, render: Render | None, problems: bool, facts: bool) -> list[Replayed]:
    from replay.workers import result

    if isinstance(item, list):
        return replay_chunk(item, render, problems, facts)
    return result(item)
