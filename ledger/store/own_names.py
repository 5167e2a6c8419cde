"""The names a PokerNow log gave its players' ids, told apart from the aliases a host made
(docs/LIVE.md "player unalias", "PokerNow"; FORMATS.md §2).

A PokerNow import seats each player under his platform id and records the name he played
under as a ``player_alias`` row, id → name. ``cashout`` and ``pay`` store the name as typed,
so an entry of his may be written under that name: it is his own name, not an alias a host
made, and neither ``entry amend`` / ``entry retract`` nor ``player unalias`` may treat it as
a mistake of the host's.
"""

from __future__ import annotations

from typing import Any

from ledger.model.names import aliases_in_force
from ledger.model.platform import PLATFORM_FORMAT

#: Whether ``$1`` sits in a hand read from a PokerNow log: a platform id, as such hands seat.
_SEATED_SQL = (
    "SELECT 1 FROM events WHERE type = 'hand_started'"
    " AND payload->'source'->>'format' = $2"
    " AND list_contains(CAST(json_extract_string(payload, '$.seats[*].player') AS VARCHAR[]),"
    " $1) LIMIT 1")


def _in_force(ledger: Any, name: str) -> list[str]:
    """The players of the ``player_alias`` statements of ``name`` still in force
    (:func:`ledger.model.names.aliases_in_force`), in ledger order."""
    pairs = [(p, a) for p, a in ledger.query(
        "SELECT payload->>'player', payload->>'alias' FROM events"
        " WHERE type IN ('player_alias', 'player_unaliased') AND payload->>'alias' = $1"
        " ORDER BY position", [name])]
    return [p for (p, _), on in zip(pairs, aliases_in_force(pairs), strict=True) if on]


def is_platform_id(ledger: Any, player: str) -> bool:
    """Whether ``player`` is a platform id: a hand read from a PokerNow log seats him.

    Raises:
        LedgerError: the ledger cannot be read.
    """
    return bool(ledger.query(_SEATED_SQL, [player, PLATFORM_FORMAT]))


def platform_own_name(ledger: Any, name: str) -> str | None:
    """The platform id whose own name ``name`` is now: the latest ``player_alias`` statement
    of ``name`` still in force says it is the name of a player a hand read from a PokerNow
    log seats (id → name, as the import records it). None when ``name`` is no alias now, or
    the statement in force is a host's (``player alias Ann Anna``; ``player alias Ann TA``:
    TA is then Ann's alias, whatever PokerNow logged before).

    Raises:
        LedgerError: the ledger cannot be read.
    """
    kept = _in_force(ledger, name)
    if not kept or kept[-1] == name or not is_platform_id(ledger, kept[-1]):
        return None
    return kept[-1]


def platform_ids_named(ledger: Any, name: str) -> list[str]:
    """Every platform id ``name`` is a PokerNow name of (a statement id → ``name`` in force,
    the id seated in a hand read from a PokerNow log), sorted: two or more when PokerNow
    players of the ledger share the name (``Anvjfbmj2``: ydk9sgEWl2 and BfS83Cedu3).

    Raises:
        LedgerError: the ledger cannot be read.
    """
    return sorted({p for p in _in_force(ledger, name) if p != name and is_platform_id(ledger, p)})
