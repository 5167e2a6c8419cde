"""What a correction of a hand's ``hand_started`` changed, field by field, in words
(``seat Ann's stack 100 → 110``, ``button Ann → Bob``, ``session none → friday``): the lines
``history`` and ``view`` give a replaced start, whose few words (``hand_started g2``) are the
same before and after (docs/CORRECTIONS.md "Corrections", FORMATS.md §1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.notation import format_amount
from ledger.model import events as ev

#: The stakes fields in the words ``hand start`` gives them, in the order they are told.
_STAKES = (("betting", "betting"), ("blinds_or_straddles", "blinds"), ("antes", "antes"),
           ("bring_in", "bring-in"), ("min_bet", "min bet"), ("small_bet", "small bet"),
           ("big_bet", "big bet"))
#: The stakes fields that count chips (written in the hand's unit, as ``brief`` writes them).
_STAKES_CHIPS = frozenset({"blinds_or_straddles", "antes", "bring_in", "min_bet", "small_bet",
                           "big_bet"})


def started_changes(was: ev.HandStarted, now: ev.HandStarted, decimals: int = 0) -> list[str]:
    """Every difference between the start ``was`` and its replacement ``now``, one phrase
    each, in this order: hand id, game, each seat (``seat Ann's stack 100 → 110``, ``seat Ann's
    seat number 1 → 3``, ``seat Cy added with 300``, ``seat Cy removed (had 300)``), the seat
    order, the button, the stakes (``stakes blinds 1/2 → 2/4``), the rule options
    (``option split.low_method A-5 → 2-7``, RULES.md §5), the unit, the session and the
    source. Chips are written as the hand's actions write them (``decimals``: a hand kept in
    cents writes 500 chips ``5.00``, FORMATS.md §1); None reads ``none``. Empty when the two
    are the same."""
    out: list[str] = []

    def chips(value: int) -> str:
        return format_amount(value, decimals) if decimals else str(value)

    if was.hand != now.hand:
        out.append(f"hand {was.hand} → {now.hand}")
    if was.game != now.game:
        out.append(f"game {was.game} → {now.game}")
    old = {s.player: s for s in was.seats}
    new = {s.player: s for s in now.seats}
    for player, seat in old.items():
        if player not in new:
            out.append(f"seat {player} removed (had {chips(seat.stack)})")
            continue
        if seat.stack != new[player].stack:
            out.append(f"seat {player}'s stack {chips(seat.stack)} → "
                       f"{chips(new[player].stack)}")
        if seat.seat != new[player].seat:
            out.append(f"seat {player}'s seat number {_text(seat.seat)} → "
                       f"{_text(new[player].seat)}")
    out.extend(f"seat {player} added with {chips(seat.stack)}"
               for player, seat in new.items() if player not in old)
    kept_old = [p for p in old if p in new]
    kept_new = [p for p in new if p in old]
    if kept_old != kept_new:
        out.append(f"seat order {', '.join(kept_old)} → {', '.join(kept_new)}")
    if was.button != now.button:
        out.append(f"button {_text(was.button)} → {_text(now.button)}")
    for field, words in _STAKES:
        a, b = getattr(was.stakes, field), getattr(now.stakes, field)
        if a != b:
            shown = chips if field in _STAKES_CHIPS else str
            a_text = "/".join(map(shown, a)) or "none" if isinstance(a, list) else shown(a)
            b_text = "/".join(map(shown, b)) or "none" if isinstance(b, list) else shown(b)
            out.append(f"stakes {words} {a_text} → {b_text}")
    out.extend(f"option {key} {_text(a)} → {_text(b)}" for key, a, b in _differing(
        was.options.model_dump(mode="json"), now.options.model_dump(mode="json")))
    out.extend(f"unit {key} {_text(a)} → {_text(b)}" for key, a, b in _differing(
        was.unit.model_dump(mode="json"), now.unit.model_dump(mode="json")))
    if was.session != now.session:
        out.append(f"session {_text(was.session)} → {_text(now.session)}")
    out.extend(f"source {key} {_text(a)} → {_text(b)}" for key, a, b in _differing(
        was.source, now.source))
    return out


def _differing(a: Any, b: Any, prefix: str = "") -> list[tuple[str, Any, Any]]:
    """``(dotted key, a's value, b's value)`` of each leaf where the JSON objects differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for key in [*a, *(k for k in b if k not in a)]
                for d in _differing(a.get(key), b.get(key), f"{prefix}{key}.")]
    return [] if a == b else [(prefix.rstrip("."), a, b)]


def _text(value: Any) -> str:
    """A value in a change phrase: None as ``none``, a list joined by ``/``."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return "/".join(map(str, value)) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def replaced_start(change: ev.Change, was: Any, decimals: int = 0) -> list[str] | None:
    """:func:`started_changes` of a correction's ``change`` when it replaces ``was``, the
    ``hand_started`` in force at its seq (:func:`replay.amendments.in_force_before`), by
    another; None for any other change.

    Raises:
        MalformedEvent: the change's event is no event (a stored one always is).
    """
    if change.op != "replace" or change.event is None or was is None or (
            was.type != "hand_started" or change.event.get("type") != "hand_started"):
        return None
    return started_changes(was, ev.parse_event(change.event), decimals)


def start_moved(events: Sequence[Any], amendment: Any) -> tuple[str, ...]:
    """What ``amendment`` (a correction or an undo appended to the hand stream ``events``)
    changes in the hand's ``hand_started`` in force, as :func:`started_changes` words it
    (``seat Bob's stack 15 → 150``): ``correct`` and ``undo`` say it, so that a start copied
    from an earlier form of the hand shows what it puts back. Empty when the start in force
    stays the same, or when the stream did not replay before (a correction repairing it)."""
    from replay.amendments import effective_events

    try:
        was = effective_events(events)[0]
    except IllegalAction:
        return ()
    now = effective_events([*events, amendment])[0]
    if not was or not now or was[0].type != "hand_started" or now[0].type != "hand_started":
        return ()
    return tuple(started_changes(was[0], now[0], was[0].unit.decimals))
