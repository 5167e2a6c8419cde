"""What a chip of each session is worth, as the session's events leave it, so that a hand of
a session reports its session's unit wherever it is read (``replay --json`` as the results
views and an export do: docs/COMMANDS.md "replay --json"), not the unit its ``hand_started``
recorded (plain chips for a hand recorded live)."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from ledger.store.chain import SESSION_PREFIX
from replay.hand_replay import HandReplay
from replay.replaying import Render

#: ``(minor units a chip is worth, currency or None, decimals)``, as :attr:`HandReplay.unit`.
ChipUnit = tuple[int, "str | None", int]


def session_units(ledger: Any) -> dict[str, ChipUnit]:
    """``{session: ChipUnit}`` of every session opened in ``ledger`` (an open ledger), its
    ``session_opened`` as its ``session_changed`` events leave it
    (:func:`replay.handview.session_money`; a session of plain chips: ``(1, None, 0)``). A
    session never opened (hands read from files that name it) is not in it: its hands keep
    their own unit. Reads only those two kinds of rows, in one query."""
    from ledger.model.events import parse_stored
    from replay.handview import session_money

    rows: dict[str, list[Any]] = {}
    for stream, type_, payload in ledger.connection.execute(
            "SELECT stream, type, payload FROM events"
            " WHERE type IN ('session_opened', 'session_changed') ORDER BY position").fetchall():
        rows.setdefault(stream, []).append(parse_stored(type_, payload))
    out: dict[str, ChipUnit] = {}
    for stream, events in rows.items():
        opened = session_money(events)
        if opened is not None:
            out[stream.removeprefix(SESSION_PREFIX)] = (
                opened.chip_value_minor, opened.currency, opened.decimals)
    return out


def in_session_unit(render: Render, units: dict[str, ChipUnit]) -> Render:
    """``render`` of each hand with its session's unit (``units``: :func:`session_units`)
    in place of the one its start recorded, a hand of no session or of a session never
    opened as it is."""
    if not units:
        return render
    return functools.partial(_rendered, render, units)


def _rendered(render: Render, units: dict[str, ChipUnit], r: HandReplay) -> str:
    unit = units.get(r.session) if r.session is not None else None
    return render(r if unit is None or unit == r.unit else replace(r, unit=unit))
