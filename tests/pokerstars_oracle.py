"""pokerkit's PokerStars parser (``pokerkit.notation.PokerStarsParser``) as an oracle, strictly.

``pokerkit_reading(text, decimals)`` parses one hand's text. pokerkit builds a PHH history from
the lines it recognises, then replays it with its repairing iteration (a check or fold put in
where an action cannot be applied, FORMATS.md §1) and writes the repaired history back. We keep
the actions as its parser read them (before the repair) and replay those strictly
(``tests/pokerkit_oracle.py``'s dealer steps, plus dealing unknown hole cards, which pokerkit's
PokerStars histories leave to the dealer): a hand it can only read by repairing is reported as
such, never counted as read. Amounts are parsed to our chips (``decimals``: the hand's unit).
"""

from __future__ import annotations

import contextlib
import io
import warnings
from dataclasses import dataclass, replace
from decimal import Decimal

from pokerkit import HandHistory
from pokerkit.notation import PokerStarsParser, parse_action

from tests.pokerkit_oracle import Refused, _dealer_step


@dataclass(frozen=True)
class Reading:
    """What pokerkit made of one hand. ``status``: ``not_parsed`` (its parser gave no
    history: a game it lacks, or a line it cannot take), ``refused`` (its own actions need a
    repair to replay: ``reason``), or ``read`` (replayed strictly); ``players`` in its seat
    order and ``stacks`` the final stacks then (chips); ``winnings`` what it read as paid."""

    status: str
    reason: str = ""
    players: tuple[str, ...] = ()
    stacks: tuple[int, ...] = ()
    winnings: tuple[int, ...] = ()
    antes: tuple[int, ...] = ()
    actions: tuple[str, ...] = ()


def _chips(decimals: int):  # noqa: ANN202
    def parse(text: str) -> int:
        return int(Decimal(text.replace(",", "")).scaleb(decimals))

    return parse


def pokerkit_reading(text: str, decimals: int) -> Reading:
    """Parse and strictly replay one PokerStars hand with pokerkit (see the module doc)."""
    parser = PokerStarsParser()
    parse = _chips(decimals)
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            history = next(parser(text, parse_value=parse, error_status=True))
        except (StopIteration, ValueError, KeyError) as exc:
            reason = str(exc).split("\n", 1)[0][:120] or type(exc).__name__
            return Reading("not_parsed", reason)
        raw = parser._parse_actions(text, parse, history.players)
        strict = replace(history, actions=raw)
        try:
            stacks = strict_stacks(strict)
        except Refused as exc:
            return Reading("refused", exc.reason[:160], tuple(history.players),
                           actions=tuple(raw))
    return Reading(
        "read", "", tuple(history.players), tuple(int(s) for s in stacks),
        tuple(history.winnings or ()), tuple(history.antes or ()), tuple(raw),
    )




def strict_stacks(history: HandHistory) -> list:
    """Final stacks of ``history`` replayed without pokerkit's repairs (see the module doc).

    pokerkit asks for the shows of an all-in showdown before the rest of the board, where the
    site writes them after it: a show the state waits for is taken from later in the list.

    Raises:
        Refused: pokerkit will not apply one of the actions.
    """
    state = history.create_state()
    actions = list(history.actions)
    while actions:
        action = actions.pop(0)
        while True:
            try:
                parse_action(state, action, history.parse_value)
                break
            except ValueError as exc:
                if _show_early(state, actions, history):
                    continue
                if not _step(state):
                    raise Refused(action, str(exc)) from None
    while state.status and _step(state):
        pass
    return list(state.stacks)


def _show_early(state, actions: list[str], history: HandHistory) -> bool:  # noqa: ANN001
    if state.showdown_index is None:
        return False
    label = f"p{state.showdown_index + 1} sm"
    for k, later in enumerate(actions):
        if later.startswith(label):
            parse_action(state, actions.pop(k), history.parse_value)
            return True
    return False


def _step(state) -> bool:  # noqa: ANN001
    if _dealer_step(state):
        return True
    if state.can_deal_hole():
        state.deal_hole("??")
        return True
    if state.can_select_runout_count():  # the board is run once unless a history says more
        state.select_runout_count()
        return True
    if state.showdown_index is not None:  # cards never shown: known ones shown, else mucked
        state.show_or_muck_hole_cards(state.can_show_or_muck_hole_cards(True))
        return True
    return False
