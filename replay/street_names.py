"""The name of a step's street, as ``show``'s steps and the page of ``view`` head it: the
street whose cards are out (``preflop``, ``flop``…; stud's ``third street``…; a draw
game's ``before the draw``, ``the draw``, ``after the draw``).
"""

from __future__ import annotations

from engine.games import Game
from engine.state import HandState

_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def shown_street_name(state: HandState) -> str:
    """The heading of a step (:func:`street_name` of :func:`street_out`): during a draw (the
    discards and the replacements), ``the draw`` (``draw 2`` of a game of several), not the
    street after it."""
    if state.phase == "draw" and state.game.is_draw:
        streets = state.game.streets
        total = sum(s.draw for s in streets)
        n = sum(s.draw for s in streets[: state.street + 1])
        return "the draw" if total == 1 else f"draw {n}"
    return street_name(state.game, street_out(state))


def street_out(state: HandState) -> int:
    """The street whose cards are out (0-based): the engine moves to the next street as a
    betting round closes, before any of its cards is dealt; until one is (no hole card of it,
    no board card beyond the last street's), the street is still the one just played (after
    the flop's betting, before the turn card: the flop)."""
    street, cards = state.street, state.cards
    if state.phase != "deal" or street == 0 or cards.street_hole:
        return street
    before = state.game.board_by_street[street - 1]
    return street - 1 if all(len(b) <= before for b in cards.boards) else street


def street_name(game: Game, street: int) -> str:
    """``preflop``/``flop``/``turn``/``river`` (board games), ``third street``… (stud, by the
    cards each player holds), ``before the draw`` / ``after draw 2`` (draw games); ``""``
    before the first deal."""
    if street < 0 or street >= len(game.streets):
        return ""
    if game.stud:
        held = sum(len(s.hole_up) for s in game.streets[: street + 1])
        return f"{_ORDINAL[held - 1]} street"
    if game.is_draw:
        draws = sum(s.draw for s in game.streets[: street + 1])
        total = sum(s.draw for s in game.streets)
        if not draws:
            return "before the draw"
        return "after the draw" if total == 1 else f"after draw {draws}"
    board = game.board_by_street[street]
    return {0: "preflop", 3: "flop", 4: "turn", 5: "river"}.get(board, f"street {street + 1}")
