"""Who is to act in a betting round, as far as the cards shown tell: stud with an upcard
unknown (``??``) may leave two or more players who may open (RULES.md §4.1), and then the
words that say who may, rather than the one the engine would take. ``state``, ``act``'s
answer, ``show`` and the page read the same :func:`who_acts`.
"""

from __future__ import annotations

from engine.state import HandState

__all__ = ["who_acts"]


def who_acts(state: HandState) -> tuple[str | None, str]:
    """``(player, words)`` of a hand in a betting round: ``player`` the one to act
    (``state.to_act``; in stud before the round's first action with an upcard unknown, the
    one who must when the cards shown name him, else the one the engine takes, acting first
    from his seat); ``words`` ``""`` when he is known, else what is known:
    ``"bring-in: the lowest upcard (unknown: Dee's)"`` (third street, RULES.md §4.1: the
    lowest upcard by suit, aces high; razz the highest, aces low) or ``"first to act: Dee
    or Eve (the best board; unknown: Dee's)"`` (fourth street on; razz the lowest board).
    Outside a betting round: ``(state.to_act, "")``."""
    who = state.to_act
    if state.phase != "bet" or who is None or not state.rnd.opener_unknown:
        return who, ""
    third_street = state.game.stud and state.street == 0 and state.started.stakes.bring_in
    if third_street and state.rnd.current == 0:
        return _bring_in_seat(state, who)
    if not state.rnd.acted:
        return _best_board_seat(state, who)
    return who, ""


def _bring_in_seat(state: HandState, first: str) -> tuple[str, str]:
    """``(player, words)`` for third street of stud before the bring-in while an upcard is
    unknown (``??``), when the engine cannot tell who brings it in and takes whoever acts
    first (RULES.md §4.1: the lowest upcard by suit, aces high; razz the highest, aces low).
    ``player``: the one who must, when a known upcard is sure to be it (no card that would
    bring it in instead is unseen: ``Cy`` with the 2c in high stud), with ``words`` ""; else
    ``first`` and the words that say only what is known: ``"bring-in: the lowest upcard
    (unknown: Ann's)"``."""
    from engine.cards import UNKNOWN
    from engine.stud import bring_in_candidates

    razz = state.game.low_bring_in
    ups = [(p, (state.cards.up_cards(p) or [UNKNOWN])[-1]) for p in state.live()]
    may = bring_in_candidates(ups, state.cards.seen, razz=razz)  # as the engine checks it
    if len(may) == 1 and dict(ups)[may[0]] != UNKNOWN:
        return may[0], ""
    owners = ", ".join(f"{p}'s" for p, card in ups if card == UNKNOWN)
    return first, f"bring-in: the {'highest' if razz else 'lowest'} upcard (unknown: {owners})"


def _best_board_seat(state: HandState, first: str) -> tuple[str, str]:
    """``(player, words)`` for stud from fourth street on before anyone acts while an upcard
    is unknown (``??``), when the engine cannot tell whose board is best and takes the first
    to act from a seat that may be (RULES.md §4.1; razz the lowest board): the one who must,
    when only one may (:func:`engine.betting.best_board_openers`), with ``words`` ""; else
    ``first`` and the words that say who may: ``"first to act: Ann or Bob (the best board;
    unknown: Ann's)"``."""
    from engine.betting import best_board_openers
    from engine.cards import UNKNOWN

    may = best_board_openers(state)
    if not may:
        return first, ""
    if len(may) == 1:
        return may[0], ""
    names = f"{', '.join(may[:-1])} or {may[-1]}"
    owners = ", ".join(f"{p}'s" for p in state.live() if UNKNOWN in state.cards.up_cards(p))
    board = "the lowest board" if state.game.low_bring_in else "the best board"
    return first, f"first to act: {names} ({board}; unknown: {owners})"
