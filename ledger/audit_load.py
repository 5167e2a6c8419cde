"""Read the ledger into the series books (:mod:`ledger.sessions`) in one ordered pass.

:func:`load_series` walks every stored row in position order, groups the hand streams, keeps
the session rows, replays each hand with the function it is given (normally
:func:`replay.fold.replay_events`; injected so that the ledger package does not import the
replayer) and folds everything with :func:`ledger.sessions.build_series`. Hands are numbered
``ord`` 1, 2, … in ledger order (the order of their first row), as in the derived tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ledger.errors import LedgerError
from ledger.sessions import Series, SessionRow, build_series, hand_facts

#: ``replay(events, session=...) -> HandReplay``
Replayer = Callable[..., Any]


@dataclass(frozen=True)
class Loaded:
    """The series books and the replayed hands ``(ord, HandReplay)`` in ledger order."""

    series: Series
    replays: list[tuple[int, Any]]
    head: int


def load_series(ledger: Any, replay: Replayer, *, tick: Callable[[], None] | None = None
                ) -> Loaded:
    """Replay every hand of ``ledger`` and fold the sessions (see the module doc). ``tick`` is
    called once per hand replayed (a progress bar).

    Raises:
        LedgerError: a stored event that does not parse, or a hand the rules reject (located
            at the hand).
    """
    streams: dict[str, tuple[int, str | None, list[Any]]] = {}
    rows: list[SessionRow] = []
    head = 0
    for row in ledger.stored():
        head = row.position
        if row.hand_id is None:
            rows.append(SessionRow(row.position, row.session or "", row.event))
            continue
        entry = streams.get(row.hand_id)
        if entry is None:
            entry = streams[row.hand_id] = (row.position, row.session, [])
        entry[2].append(row.event)
    replays, facts = [], []
    for ord_, (hand, (position, session, events)) in enumerate(streams.items(), 1):
        try:
            replayed = replay(events, session=session)
        except LedgerError as exc:
            raise exc.located(hand=hand) from None
        replays.append((ord_, replayed))
        facts.append(hand_facts(replayed, ord=ord_, position=position, unit=events[0].unit))
        if tick is not None:
            tick()
    return Loaded(build_series(rows, facts), replays, head)
