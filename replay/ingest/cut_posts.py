"""A PokerNow hand's copy cut before its blinds were all posted (FORMATS.md §2).

PokerNow logs a hand's start, its seats and each post (``posts a small blind of 10``, ``a big
blind``, ``a straddle``, ``an ante``) as lines of their own, and a hand's ``hand_started``
counts the blinds and antes its posts show (:func:`ledger.formats.pokernow.seating.stakes`).
An export stopped between them stores the hand cut off with the posts it has: its stakes
lack the others, which is no disagreement with a longer export of the log, whose copy the
cut one is once those posts are set aside (:func:`posts_lacked`). Used by
:mod:`replay.ingest.completing`.
"""

from __future__ import annotations

from typing import Any

from ledger.model.events import event_json


def from_pokernow(events: list[Any]) -> bool:
    """Whether ``events`` are a hand read from a PokerNow log (FORMATS.md §2), whose exports
    of one game are cut where the download was taken."""
    return (events[0].source or {}).get("format") == "pokernow"


def facts(started: Any) -> str:
    """A ``hand_started`` without its provenance (file, line: another export differs there)."""
    return event_json(started.model_copy(update={"source": {}}))


#: The fields of a PokerNow hand's stakes its posts give (FORMATS.md §2: ``posts a small blind
#: of 10``, ``a big blind``, ``a straddle``, ``an ante``; the minimum bet, the big blind posted
#: in full, else the table's level): what a copy cut before its posts does not know.
_POSTED = ("antes", "blinds_or_straddles", "min_bet")
#: The forced bets a PokerNow hand's ``blinds_or_straddles`` count (the others are its antes,
#: or dead or out of position: :func:`ledger.formats.pokernow.seating.stakes`).
_BLINDS = ("small_blind", "big_blind", "straddle")


def posts_lacked(cut: list[Any], events: list[Any]) -> tuple[int, list[Any]] | None:
    """Where ``cut`` (a PokerNow hand's stored copy without its ending) stops posting and the
    posts the longer copy ``events`` has there that it lacks: ``(seq of its last post, or 1,
    [those posts])``, when it was cut before its blinds were all posted (PokerNow logs a
    hand's start, seats and each post as lines of their own, FORMATS.md §2): its posts are the
    first ones of ``events``, which has more, and its ``hand_started`` is the one of
    ``events`` but for the stakes its posts give (:data:`_POSTED`), which count those it has
    (per seat in seat order: its blinds; its antes, or none). None otherwise: a copy with
    every post, or one that disagrees (another post, seat, stack or button)."""
    if not cut or not events or not (from_pokernow(cut) and from_pokernow(events)):
        return None
    k = _posts(cut)
    m = _posts(events)
    if not k < m or any(event_json(a) != event_json(b)
                        for a, b in zip(cut[1:1 + k], events[1:1 + k], strict=True)):
        return None
    mine, theirs = cut[0], events[0]
    told = mine.stakes.model_copy(update={f: getattr(theirs.stakes, f) for f in _POSTED})
    if facts(mine.model_copy(update={"stakes": told})) != facts(theirs):
        return None
    seats = [s.player for s in mine.seats]
    blinds, antes = dict.fromkeys(seats, 0), dict.fromkeys(seats, 0)
    for post in cut[1:1 + k]:
        if post.player in blinds and post.kind in _BLINDS:
            blinds[post.player] += post.amount
        elif post.player in antes and post.kind == "ante":
            antes[post.player] += post.amount
    if (mine.stakes.blinds_or_straddles != [blinds[p] for p in seats]
            or mine.stakes.antes != ([antes[p] for p in seats] if any(antes.values()) else [])):
        return None
    return 1 + k, list(events[1 + k:1 + m])


def set_aside(events: list[Any], lacked: tuple[int, list[Any]]) -> list[Any]:
    """``events`` (the longer copy) without the posts the cut copy lacks (``lacked``, as
    :func:`posts_lacked` gives them): the events the cut copy's are, one for one."""
    at, posts = lacked
    return [*events[:at], *events[at + len(posts):]]


def _posts(events: list[Any]) -> int:
    """How many ``forced_bet`` events follow a hand's ``hand_started`` (its posts)."""
    n = 0
    while 1 + n < len(events) and events[1 + n].type == "forced_bet":
        n += 1
    return n
