"""An imported hand's rake compared with that of the stored hand of its id.

A hand holds its rake in one of two forms (FORMATS.md §1, :mod:`replay.rake`): a field of
its file, kept in ``hand_started.source`` (PHH's ``rake``, a site text's ``site_rake``, our
``_rake`` rule), or a ``recorded_rake`` event (``act HAND "rake N"`` at the table). Our PHH
export writes the event as the field, so the same hand comes back in the other form:
:func:`rake_difference` takes them as the same rake when they are the same chips, and names
a rake that differs either way (the import then refuses the hand as any other difference).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from replay.rake import filed_rake

#: What the rake of a hand is held as in its rows: the table's event.
_EVENT = "recorded_rake"
_ROW = f'"type":"{_EVENT}"'


def rake_row(payload: str) -> bool:
    """Whether the stored JSON ``payload`` of a hand's event (one after its start: canonical
    JSON, :func:`ledger.model.events.event_json`) is a ``recorded_rake`` event. A string
    value holding those characters is written with its quotes escaped, so never matches."""
    return _ROW in payload


def rake_difference(mine: Sequence[Any], theirs: Sequence[Any]) -> str | None:
    """How the rake of the stream ``mine`` (read from a file) differs from that of
    ``theirs`` (the ledger's), as a difference the import names (``its rake is 11 here, 10
    in the ledger``; ``its rake rule is {...} here, none in the ledger``); None when the
    same. A ``recorded_rake`` event and a file's rake of the same chips are the same rake
    (FORMATS.md §1), and so are a rake of 0 and none; a file's rake that is no whole number
    of chips is compared as written.
    Each stream begins with its ``hand_started``; of its other events only the
    ``recorded_rake`` ones are read."""
    here, there = _terms(mine), _terms(theirs)
    for key, words in (("rake", "rake"), ("rule", "rake rule")):
        if here[key] != there[key]:
            return (f"its {words} is {_text(here[key])} here, {_text(there[key])} in the "
                    "ledger")
    return None


def _terms(events: Sequence[Any]) -> dict[str, Any]:
    """``{"rake": chips (or the file's text when not whole chips) or None, "rule": the
    ``_rake`` rule as JSON or None}``: what :mod:`replay.rake` reads of the hand."""
    started = events[0]
    source = started.model_dump(mode="json", include={"source"})["source"] or {}
    recorded = [e.amount for e in events if e.type == _EVENT]
    if recorded:
        rake: Any = sum(recorded)
    elif source.get("site_rake") is not None or "rake" in source:
        rake = filed_rake(started)
        if rake is None:
            rake = source.get("site_rake", source.get("rake"))
    else:
        rake = None
    return {"rake": rake or None, "rule": source.get("_rake")}  # a rake of 0 is none


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
