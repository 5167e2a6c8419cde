"""Where a copy of a stored hand parts from the ledger's rows, in words: a
:class:`Difference`, the first event that differs (:func:`event_difference`, a hand read in
PHH's shape compared as PHH can say it, :mod:`replay.ingest.phh_form`), and an event cut short
for a refusal (:func:`short`). What the import's writing (:mod:`replay.ingest.writing`) and
the PHH comparison both use.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from ledger.model.events import event_json


class Difference(NamedTuple):
    """Where a copy of a stored hand parts from it: ``text`` in words (``its event 8 is
    bet_raise {...} here, bet_raise {...} in the ledger``, ``its rake is 11 here, 10 in the
    ledger``) and ``event``, the copy's event that differs, whose row a refusal names
    (:func:`replay.ingest.stored_copy.line_of`); None when the copy has no event there or the
    difference is no one event of it (its start, its rake, its forced bets or payouts as PHH
    says them)."""

    text: str
    event: Any = None


def event_difference(mine: Sequence[Any], stored: Sequence[tuple[int, str]], *,
                     phh: bool = False) -> Difference | None:
    """:func:`replay.ingest.stored_copy.first_difference` of the events after the first, one by
    one; a hand read in PHH's shape is compared with a stored one in another shape (a site's
    order of the forced bets, an uncalled bet returned apart, face-up flags) as PHH can say it
    (:mod:`replay.ingest.phh_form`), and so is one read from PHH (``phh``) with a stored one
    whose payouts the table recorded in another order than PHH's seat order (README: each
    player paid the same chips)."""
    from ledger.model.events import parse_event

    differ = _in_order_difference(mine, stored)
    if differ is None or not mine or not stored:
        return differ
    from replay.ingest.phh_form import (
        flags_as_stored,
        in_phh_shape,
        phh_shape_difference,
        stored_from_phh,
    )

    theirs = [parse_event(payload) for _, payload in stored]
    if stored_from_phh(theirs[0]) and in_phh_shape(theirs):  # the ledger's copy is PHH's:
        shaped = phh_shape_difference(flags_as_stored(theirs, mine), mine, swapped=True)
        if shaped is None:  # compared the other way round: the same hand
            return None
        return differ if shaped.startswith("its event") else Difference(shaped)
    if not in_phh_shape(mine):
        return differ
    if (flagged := flags_as_stored(mine, theirs)) != list(mine):  # PHH writes no face_up
        mine = flagged
        if (differ := _in_order_difference(mine, stored)) is None:
            return None
    if in_phh_shape(theirs):  # a shape PHH says: they differ where they stand, named by row
        return differ if not phh or phh_shape_difference(mine, theirs) else None
    shaped = phh_shape_difference(mine, theirs)
    return None if shaped is None else Difference(shaped)


def _in_order_difference(mine: Sequence[Any], stored: Sequence[tuple[int, str]]
                         ) -> Difference | None:
    """The first event after the first of ``mine`` that is not the stored row at its place
    (seq named as stored); the :class:`Difference`'s event is that of ``mine``, or, when
    ``mine`` stops before the stored rows do, its last event (the row the copy stops at)."""
    from ledger.model.events import parse_event

    for i in range(1, max(len(mine), len(stored))):
        here = mine[i] if i < len(mine) else None
        there = stored[i] if i < len(stored) else None
        if here is not None and there is not None and (
                event_json(here) == there[1] or plain(here) == plain(parse_event(there[1]))):
            continue
        seq = there[0] if there is not None else stored[-1][0] + i - len(stored) + 1
        return Difference(
            f"its event {seq} is {short(here)} here, "
            f"{short(None if there is None else parse_event(there[1]))} in the ledger",
            here if here is not None or not mine else mine[-1])
    return None


def plain(event: Any) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude={"schema_version", "source"})


def short(event: Any, width: int = 60) -> str:
    """``event``'s type and its other fields as JSON (no schema version), cut to ``width``
    characters (``bet_raise {"player":"Ann","to":8}``); ``none``."""
    if event is None:
        return "none"
    fields = plain(event)
    kind = fields.pop("type")
    text = json.dumps(fields, separators=(",", ":"), sort_keys=True)
    return f"{kind} " + (text if len(text) <= width else text[:width - 1] + "…")
