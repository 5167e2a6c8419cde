"""``hand start --seats`` in a session whose players are PokerNow ids: a seat may name its
player as the reads show him (``Aab Ovwsi:8000``, ``Sam (1abc):500`` for one of two ids that
share a name), as ``act`` takes him (:mod:`replay.shown_names`); he is seated by his id, so
that his books (buy-ins, earlier hands) stay his. A seat that names nobody of the session so
is left as typed, and the usual checks of a new name apply to it (README, "PokerNow").
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ledger.model.errors import MalformedInput
from replay.shown_names import named_forms


def seated_by_id(ledger: Any, session: str | None, spec: Any) -> Any:
    """``spec`` (a :class:`replay.live.LiveHand`) with each seat's and the button's player
    written as stored (his PokerNow id) where it names a player of ``session`` as the reads
    show him; ``spec`` itself when ``session`` is None or not a session of platform ids
    (:func:`ledger.store.streams.platform_sessions`), or no seat needs it.

    Raises:
        MalformedInput: a name two players of the session are shown by, naming both ids and
            the label to type for each.
    """
    from ledger.store.streams import platform_names, platform_sessions

    if session is None:
        return spec
    ids = {pid for (pid,) in ledger.query(  # none: no name to map (a session of plain names)
        "SELECT DISTINCT payload->>'player' FROM events WHERE type = 'player_alias' AND "
        "session = $1", [session])}
    if not ids or not platform_sessions(ledger, [session]):
        return spec
    names = {pid: name for pid, name in platform_names(ledger).items() if pid in ids}
    forms = named_forms(sorted(names), names)
    if not forms:
        return spec

    def stored(name: str) -> str:
        pids = forms.get(" ".join(name.split()))
        if not pids or name in pids:
            return name
        if len(pids) > 1:
            from ledger.model.names import shown_labels

            labels = shown_labels(names)
            each = " or ".join(repr(labels.get(p, p)) for p in sorted(pids))
            raise MalformedInput(
                f"--seats: {name!r} is the name of {len(pids)} players of session {session} "
                f"({', '.join(sorted(pids))}): seat {name!r} as {each}, or by the id")
        return next(iter(pids))

    seats = []
    for item in spec.seats.split(","):
        name, sep, stack = item.rpartition(":")  # a name round which whitespace is left
        seats.append(f"{stored(name)}:{stack}" if sep and name == name.strip() and name
                     else item)  # as typed: parse_seats refuses it

    button = stored(spec.button) if spec.button is not None else None
    return dataclasses.replace(spec, seats=",".join(seats), button=button)
