"""A hand started live without ``--session`` while a session is open whose books seat every
player of it (each bought in there and not cashed out since): the hand counts in no session's
books (docs/LIVE.md "Sessions"), so ``hand start`` warns and says how to have it in that session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg


def sessions_seating(ledger: Any, players: Sequence[str]) -> list[str]:
    """The open sessions (in the order they were opened) in whose books every one of
    ``players`` sits with chips: bought in and not cashed out since (a player's alias counts
    as the player, as in the audit). Empty when no session is open."""
    from ledger.store.streams import unclosed_sessions
    from replay.sessions import open_state
    from replay.sessions.state import series_names

    candidates = unclosed_sessions(ledger)
    if not candidates:
        return []
    names = series_names(ledger)
    out = []
    for session in candidates:
        try:
            state = open_state(ledger, session, players=names)
        except LedgerError:  # closed after all (a close amended), or never opened
            continue
        if all(names.get(p, p) in state.seated for p in players):
            out.append(session)
    return out


def sessionless_warning(hand: str, sessions: Sequence[str]) -> str:
    """The ``warning:`` line of hand ``hand`` started without a session while ``sessions``
    (at least one) seat all its players (:func:`sessions_seating`)."""
    named = " and ".join(f"session {s}" for s in sessions)
    one = sessions[0] if len(sessions) == 1 else "S"
    return (f"warning: hand {hand} is in no session, while {named} "
            f"{'is' if len(sessions) == 1 else 'are'} open with every player of it bought in: "
            f"a hand of no session counts in no session's books; to record it in {one}, void "
            f"it (`handledger void {shell_arg(hand)} --reason \"no session\" --by NAME`) and "
            "record it "
            f"again there (`handledger hand again {shell_arg(hand)} --session {shell_arg(one)}`)")


def sessionless_warnings(ledger: Any, hand: str, players: Sequence[str]) -> list[str]:
    """The ``warning:`` line of hand ``hand`` started without a session, seating ``players``,
    when open sessions seat them all (:func:`sessions_seating`, :func:`sessionless_warning`);
    none otherwise."""
    sessions = sessions_seating(ledger, players)
    return [sessionless_warning(hand, sessions)] if sessions else []
