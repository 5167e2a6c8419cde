"""pokerkit as an independent oracle, replayed strictly.

pokerkit's ``HandHistory`` iteration silently inserts checks, calls and folds when an action
cannot be applied (FORMATS.md §1, "Where pokerkit … differs"). This replays a PHH text with
pokerkit's own action parser and only the dealer's automatic steps (antes, blinds, burning,
collecting, pushing and pulling chips); a player's action that pokerkit refuses raises
:class:`Refused` with pokerkit's reason instead of being repaired.
"""

from __future__ import annotations

from pokerkit import HandHistory
from pokerkit.notation import parse_action


class Refused(Exception):
    """pokerkit refuses an action of the history: ``action`` and pokerkit's ``reason``."""

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"{action!r}: {reason}")
        self.action = action
        self.reason = reason


def _dealer_step(state) -> bool:  # noqa: ANN001
    for can, do in (
        (state.can_post_ante, state.post_ante),
        (state.can_collect_bets, state.collect_bets),
        (state.can_post_blind_or_straddle, state.post_blind_or_straddle),
        (state.can_kill_hand, state.kill_hand),
        (state.can_push_chips, state.push_chips),
        (state.can_pull_chips, state.pull_chips),
    ):
        if can():
            do()
            return True
    if state.can_burn_card():
        state.burn_card("??")
        return True
    return False


def final_stacks(text: str) -> list:
    """Final stacks pokerkit reaches on the PHH ``text`` (Decimal or int, seat order).

    Raises:
        Refused: pokerkit will not apply an action (no repair).
    """
    hh = HandHistory.loads(text)
    state = hh.create_state()
    for action in hh.actions:
        while True:
            try:
                parse_action(state, action, hh.parse_value)
                break
            except ValueError as exc:
                if not _dealer_step(state):
                    raise Refused(action, str(exc)) from None
    guard = 0
    while state.status and guard < 1000:
        guard += 1
        if not _dealer_step(state):
            if state.can_show_or_muck_hole_cards():
                state.show_or_muck_hole_cards(True)
                continue
            break
    return list(state.stacks)
