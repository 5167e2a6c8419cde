"""An id-less PHH hand whose hole cards are all unknown (``????``), met as a copy of a stored one.

Such a hand has no deal to be known by (:func:`replay.ingest.samedeal.deal_of`: nothing tells
it from another hand of those seats), so a copy of it under another file name with an extra key
(``_comment``, ``event``) got another id and was stored a second time, its chips counted twice.
It is known instead by all it holds: the same game, players and seats, the same PHH ``hand``
number (or none on both), the same start (stakes, stacks, unit: :func:`replay.ingest.
stored_copy.same_start`), the same events after it one by one (:func:`replay.ingest.differences.
event_difference`), and no key saying when or where it was played (:data:`OCCASION`) that both
name otherwise. Two hands a file numbers apart stay two hands, whatever they deal; one whose
events differ anywhere is another hand, stored apart, as before (docs/IMPORTING.md, "A change
to a stored hand").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: PHH keys that say when or where a hand was played: two hands that name one of them otherwise
#: are two hands, however alike (a fold-around at the same stacks on two nights).
OCCASION = ("event", "venue", "address", "table", "day", "month", "year", "time", "time_zone",
            "time_zone_abbreviation", "city", "region", "postal_code", "country", "url")

Unseen = tuple[str, tuple[tuple[str, int | None], ...], int | str | None]


def unseen_of(started: Any) -> Unseen:
    """``(game, ((player, seat), ...), its PHH hand number or None)`` of the hand ``started``
    begins (its ``hand_started``), which a hand of no known hole card is looked up by."""
    number = (started.source or {}).get("hand")
    return (started.game, tuple((s.player, s.seat) for s in started.seats),
            number if isinstance(number, int | str) else None)


def same_occasion(mine: Any, stored: Any) -> bool:
    """Whether no key of :data:`OCCASION` is named by both ``hand_started`` events with two
    values (one naming it and the other not: a key added to a copy, the same hand)."""
    here, there = mine.source or {}, stored.source or {}
    return all(here[k] == there[k] for k in OCCASION if k in here and k in there)


def looks_the_same(events: Sequence[Any], stored: Any, rows: Sequence[tuple[int, str]]) -> bool:
    """Whether the hand ``events`` (its id set to the stored one's) holds what the stored hand
    does: its ``hand_started`` ``stored``, its original rows ``rows`` ``[(seq, JSON)]``, in
    order, the first the start: the same occasion, start and events after it."""
    from ledger.model.events import event_json
    from replay.ingest.differences import event_difference
    from replay.ingest.stored_copy import same_start

    return (bool(events) and bool(rows) and same_occasion(events[0], stored)
            and same_start(events[0], event_json(stored))
            and event_difference(events, rows) is None)


def candidates(files: Mapping[str, Sequence[Any]], unseen: Mapping[str, Unseen],
               blind: Mapping[Unseen, Sequence[str]], starts: Mapping[str, Any]
               ) -> dict[str, list[str]]:
    """``{file hand: [stored hands it may be, in ledger order]}``: for each hand of ``files``
    (``{id: events}``) of no known card (``unseen``: its :func:`unseen_of`), the stored hands
    of no known card ``blind`` holds under the same key whose ``hand_started`` (``starts``)
    is of the same occasion (:func:`same_occasion`); hands with none left out."""
    out = {}
    for hand, key in unseen.items():
        if hand in files:
            olds = [h for h in blind.get(key, ()) if same_occasion(files[hand][0], starts[h])]
            if olds:
                out[hand] = olds
    return out


def held_alike(files: Mapping[str, Sequence[Any]], maybe: Mapping[str, Sequence[str]],
               starts: Mapping[str, Any], rows: Mapping[str, Sequence[tuple[int, str]]]
               ) -> dict[str, str]:
    """``{file hand: the first stored hand of maybe[hand] it holds all of}``
    (:func:`looks_the_same`, the file's start given the stored hand's id); ``rows``: the
    stored hands' original rows."""
    out = {}
    for hand, olds in maybe.items():
        events = files[hand]
        old = next((h for h in olds if looks_the_same(
            [events[0].model_copy(update={"hand": h}), *events[1:]], starts[h],
            rows.get(h, []))), None)
        if old is not None:
            out[hand] = old
    return out
