"""What a board deal recorded live must be: the whole street at once (RULES.md §4: the flop is
three cards, the turn and the river one each; §4.5: each run of the board street by street).

The engine takes a street's board cards in pieces, as a history read from a file may give
them (FORMATS.md §1: ``d db`` deals board cards, their count unsaid), so its rules for
imports stay as they are. At the table a piece of a flop is a line cut short or a card
forgotten, and a host who then types the whole flop again would be told that its first card
"is dealt twice": :func:`whole_street` refuses the piece instead, naming how many cards the
street is, and a board a stored hand holds in part (a hand imported in play, or recorded
before this rule) is named when a deal repeats its cards.
"""

from __future__ import annotations

from engine.cards import UNKNOWN
from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model import events as ev

#: The board streets of a flop game by street index (engine/games.py: ``_flop_game``).
_STREETS = {1: "the flop", 2: "the turn", 3: "the river"}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def whole_street(state: HandState, event: ev.CardsDealt) -> None:
    """Refuse a live ``d db CARDS`` (``event``: a board deal, not yet applied to ``state``)
    that deals fewer cards than its street still needs on the run it goes to, or that deals
    again cards the street's board already holds. A deal the engine refuses on its own (out
    of its phase, too many cards, a stud game's community card) is left to it.

    Raises:
        IllegalAction: ``"the flop is 3 cards, not 2: deal it in one line, d db Qs7d and
            the third card (?? for an unseen one: d db Qs7d??)"``; ``"the board already
            holds Qs7d: the flop needs 1 card more (d db 3c)"``.
    """
    if state.phase != "deal" or state.game.stud or event.player is not None:
        return
    boards = state.cards.boards
    if not 1 <= event.run <= len(boards):
        return
    board, dealt = boards[event.run - 1], list(event.cards)
    need = state.game.board_by_street[state.street]
    short = need - len(board)
    if short <= 0:
        return
    of_run = f" of run {event.run}" if len(boards) > 1 else ""
    street = _STREETS.get(state.street, "this street's board") + of_run
    held = "".join(board)
    again = [c for c in dealt if c in board and c != UNKNOWN]
    if board and again:
        rest = [c for c in dealt if c not in again]
        hint = f"d db {''.join(rest)}" if len(rest) == short else "d db CARDS"
        raise IllegalAction(f"the board already holds {held}: {street} needs "
                            f"{_cards(short)} more ({hint})")
    if len(dealt) >= short:
        return
    typed = "".join(dealt)
    if board:
        raise IllegalAction(f"the board holds {held}: {street} needs {_cards(short)} more, "
                            f"not {len(dealt)}: deal them in one line (?? for an unseen "
                            f"card: d db {typed}{'??' * (short - len(dealt))})")
    unseen = "an unseen one" if short - len(dealt) == 1 else "each unseen one"
    raise IllegalAction(f"{street} is {_cards(need)}, not {len(dealt)}: deal it in one line, "
                        f"d db {typed} and the {_missing(len(dealt), need)} (?? for {unseen}: "
                        f"d db {typed}{'??' * (need - len(dealt))})")


def _missing(given: int, need: int) -> str:
    """``"third card"`` after two of three, ``"other 2 cards"`` after one."""
    if need - given == 1:
        return f"{('first', 'second', 'third', 'fourth', 'fifth')[given]} card"
    return f"other {need - given} cards"
