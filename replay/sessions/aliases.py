"""``player alias``: recording that another name or a platform id is a player, refused when
the two are plainly two players (they sat in one hand together, or both have entries in one
session's books: an alias would merge their nets, RULES.md §1.1); ``player unalias``: ending
one, an appended event (the alias stays in the history).
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.names import (
    aliases_in_force,
    check_name,
    check_new_name,
    check_not_look_alike,
    check_not_the_house,
    likely_meant,
)
from ledger.store.proven import prove_before_writing
from ledger.store.streams import (
    alias_pairs,
    latest_session,
    player_names,
    shared_hand,
    shared_session,
)
from replay.sessions.state import alias_group, append_entry, open_state, series_names


def add_alias(ledger: Any, name: str, other: str, session: str | None
              ) -> tuple[str, bool, bool]:
    """Record that ``other`` (another name or a platform id) is the player ``name``, in
    ``session``'s stream (default: the latest session). Returns the session, whether
    ``name`` is a player name the ledger held already (False: ``other`` is renamed to a new
    name) and whether ``other`` is (False: a name no hand, entry or alias gave yet, perhaps a
    typo), each of which the caller says.

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`; a new ``name``,
            :func:`ledger.model.names.check_new_name`), or ``other`` is ``name``; NotFound:
            no session; LedgerError: ``name`` is no player name of the ledger and close to
            one that is (a typo: :func:`ledger.model.names.likely_meant`, ``other`` and his
            aliases aside), the two sat in one hand together or both have
            book entries in one session (two players: an alias would merge their nets,
            RULES.md §1.1).
    """
    check_name(name)
    check_name(other)
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    prove_before_writing(ledger)
    mine = alias_group(ledger, name)
    theirs = alias_group(ledger, other) - mine
    known = name in (names := player_names(ledger))
    if not known:  # a new name: one a command line can give back, printing like no other
        check_not_look_alike(name, names - theirs - {other}, "player",
                             "a player of the ledger")
        check_new_name(name)
        check_not_the_house(name)
    if not known and (close := likely_meant(name, sorted(names - theirs - {other}))):
        raise LedgerError(f"{name} is no player in the ledger: did you mean "
                          f"{' or '.join(close)}? (`handledger player alias {close[0]} "
                          f"{other}`); nothing recorded")
    if (hand := shared_hand(ledger, sorted(mine), sorted(theirs))) is not None:
        raise LedgerError(f"{name} and {other} sat in hand {hand} together: they are two "
                          "players, not one (no alias recorded)")
    if (both := shared_session(ledger, sorted(mine), sorted(theirs))) is not None:
        raise LedgerError(
            f"{name} and {other} both have book entries in session {both}: they are two "
            f"players, not one (no alias recorded); if they are one, retract {other}'s "
            f"entries there and record them again as {name}'s (`handledger entry retract "
            f"{both} SEQ --reason … --by …`; `handledger history --session {both}` lists them)")
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the alias in: open one first")
    state = open_state(ledger, session, allow_closed=True)
    append_entry(ledger, session, ev.PlayerAlias(player=name, alias=other), state)
    return session, known, other in names


def end_alias(ledger: Any, alias: str, session: str | None, *, reason: str, by: str
              ) -> tuple[str, str]:
    """End the alias ``alias`` (a name ``player alias`` or a PokerNow import made another
    player's) from here on: a ``player_unaliased`` in ``session``'s stream (default: the
    latest session), the ``player_alias`` rows staying in the ledger. Every reader of the
    alias map (:func:`replay.sessions.state.series_names`,
    :func:`ledger.audit.books.resolve_aliases`) then takes ``alias`` as a player of his own
    name again, or the player a statement of it before the one ended made him (README
    "player unalias"). Returns the session and the player the ended statement named
    (``player alias NAME ALIAS``'s NAME; a PokerNow import's id).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger fails the proof made before writing; nothing
            written. MalformedInput: a bad name (:func:`ledger.model.names.check_name`);
            LedgerError: ``alias`` is no alias now (a player's own name, one never aliased or
            one unaliased already); NotFound: no session.
    """
    check_name(alias)
    prove_before_writing(ledger)
    names = series_names(ledger)
    player = names.get(alias)
    if player is None:
        aliases = sorted(a for a, p in names.items() if p == alias)
        said = (f" (its aliases: {', '.join(aliases)}; `handledger player unalias "
                f"{aliases[0]} --reason … --by …` ends one)" if aliases else "")
        raise LedgerError(f"{alias} is no alias of another player{said}; nothing recorded")
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the end of the alias in: open one first")
    state = open_state(ledger, session, allow_closed=True)
    pairs = alias_pairs(ledger)
    said = [p for (p, a), on in zip(pairs, aliases_in_force(pairs), strict=True)
            if on and a == alias]
    append_entry(ledger, session, ev.PlayerUnaliased(alias=alias, reason=reason, by=by), state)
    return session, said[-1] if said else player
