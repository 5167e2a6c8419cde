"""What ``entry retract`` and ``entry amend`` say when the mistake may be an alias, not an
entry (docs/LIVE.md "player unalias"): an entry written under a name ``player alias`` made another
player's counts as his, and ``player unalias`` ends that alias instead of touching the entry.
Each hint is given only while the alias is in force (:func:`replay.sessions.state.series_names`).
"""

from __future__ import annotations

import shlex
from typing import Any

from ledger.model.errors import AsTyped
from ledger.store.own_names import is_platform_id, platform_own_name
from replay.sessions.state import series_names

_UNALIAS = "`handledger player unalias {} --reason … --by …`"


def alias_row(ledger: Any, session: str, seq: int) -> str | None:
    """When ``seq`` of ``session``'s stream is a ``player_alias`` row still in force (no
    book entry, which ``entry retract`` looked for), what to type instead: ``entry 4 is an
    alias (Anna is Ann): `handledger player unalias Anna --reason … --by …` ends it``; else
    None."""
    rows = ledger.query(
        "SELECT payload->>'player', payload->>'alias' FROM events WHERE stream = $1"
        " AND seq = $2 AND type = 'player_alias'", [f"session:{session}", seq])
    if not rows:
        return None
    _, alias = rows[0]
    player = series_names(ledger).get(alias)
    if player is None:
        return None
    return (f"entry {seq} is an alias ({alias} is {player}): "
            f"{_UNALIAS.format(shlex.quote(alias))} ends it")


def aliased_entry(ledger: Any, seq: int, entry: Any, *, retracted: bool) -> str | None:
    """A ``note:`` line for a book ``entry`` (at ``seq``) just retracted or amended whose
    name as written (its player, or a payment's payer or payee) is an alias of another
    player now: it counted as his, and if the alias was the mistake the entry is recorded
    again (a retraction is final) or amended back, and the alias ended; None otherwise, and
    None for a name PokerNow logged for the player's id (``cashout TA 13`` of the player
    PokerNow seats as gE4aE_Yhc3, :func:`ledger.store.own_names.platform_own_name`): his
    own name, no alias a host made, which ``player unalias`` refuses to end. A line about an
    entry naming a platform id is :class:`ledger.model.errors.AsTyped`: it names the id."""
    names = series_names(ledger)
    written = [getattr(entry, k, None) for k in ("player", "payer", "payee")]
    name = next((n for n in written if n is not None and names.get(n, n) != n
                 and platform_own_name(ledger, n) is None), None)
    if name is None:
        return None
    undo = "record the entry again" if retracted else "amend it back"
    said = (f"note: entry {seq} names {name}, an alias of {names[name]} (`player alias`): it "
            f"counted as {names[name]}'s; if the alias was the mistake, not the entry, {undo} "
            f"and end the alias ({_UNALIAS.format(shlex.quote(name))})")
    # an imported entry names his id, which ``player alias NAME ID`` made NAME's: the line
    # names the id, the alias to end, not the name the reads show it by
    return AsTyped(said) if is_platform_id(ledger, name) else said
