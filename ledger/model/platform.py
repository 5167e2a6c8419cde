"""Which sessions know their players by a platform id: the one rule every read applies.

A PokerNow log (FORMATS.md §2) seats each player under his PokerNow id and records the names
he played under as ``player_alias`` rows (id → name). The reads show such a player by that
name (``balances``: ``nickname (id)``; ``show``, ``replay``, ``settle``, ``act``) in a session
whose players are platform ids: one a PokerNow log opened (its ``session_opened`` has
``source.format`` ``pokernow``) or one holding a hand read from a PokerNow log (its
``hand_started`` has that source), which is how a log imported with ``--session`` into a
session ``session open`` made is stored. The payload decides, not the row's source key, so a
JSON-lines export of the session reads the same after a re-import.

The callers read the rows their own way (a fold of typed events, SQL, a Dask merge) and ask
:func:`marks_platform_session` of each ``(type, source format)``; SQL prefilters with
:data:`MARKING_TYPES` and :data:`PLATFORM_FORMAT`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The ``source.format`` of rows read from a PokerNow log.
PLATFORM_FORMAT = "pokernow"
#: The row types whose source says where a session's players came from.
MARKING_TYPES = ("session_opened", "hand_started")


def marks_platform_session(event_type: str, source_format: object) -> bool:
    """Whether a stored row of type ``event_type`` whose ``source.format`` is
    ``source_format`` (None when it has none) makes its session one whose players are
    platform ids (module doc)."""
    return event_type in MARKING_TYPES and source_format == PLATFORM_FORMAT


def from_platform(event: Any) -> bool:
    """Whether the typed stored ``event`` (its ``type`` and ``source``) marks its session
    (:func:`marks_platform_session`): a hand's ``hand_started`` read from a PokerNow log."""
    return marks_platform_session(event.type, (getattr(event, "source", None) or {}).get("format"))


def platform_sessions_of(rows: Iterable[tuple[str | None, str, object]]) -> set[str]:
    """The sessions among ``(session, type, source format)`` rows that one of them marks
    (:func:`marks_platform_session`); rows of no session are left out."""
    return {session for session, kind, fmt in rows
            if session is not None and marks_platform_session(kind, fmt)}
