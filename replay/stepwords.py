"""What happened at each step of a hand, in a sentence (the ``words`` of a
:class:`replay.steps.Step`): ``"Bob raises to 20"``, ``"board: 2c 7h 9s"``. Amounts are
written in the hand's unit (:func:`engine.notation.format_amount`)."""

from __future__ import annotations

from typing import Any

from engine.awards import pot_name
from engine.games import shown_name
from engine.notation import format_amount
from engine.state import HandState

__all__ = ["Before", "started_words"]

_FORCED = {"ante": "an ante", "small_blind": "the small blind", "big_blind": "the big blind",
           "straddle": "a straddle", "bring_in": "the bring-in", "dead_blind": "a dead blind",
           "posted_blind": "a posted blind"}


def started_words(state: HandState) -> str:
    s = state.started
    button = f", button {s.button}" if s.button else ""
    name = shown_name(state.game, s.options.declare)
    return f"hand {s.hand} starts: {name}{button}, {len(s.seats)} players"


class Before:
    """What an event's sentence needs from the state before it (a stack, the street's bet)."""

    def __init__(self, state: HandState, event: Any) -> None:
        self.event = event
        self.player = getattr(event, "player", None)
        self.stack = state.stacks.get(self.player, 0) if self.player else 0
        self.current = state.rnd.current if state.phase == "bet" else 0
        self.decimals = state.started.unit.decimals

    def words(self, state: HandState) -> str:  # noqa: C901, PLR0912 - one case per event type
        e, p, t = self.event, self.player, self.event.type
        paid = self.stack - state.stacks.get(p, 0) if p else 0
        amount = self._amount
        if t == "forced_bet":
            return f"{p} posts {_FORCED.get(e.kind, e.kind)} of {amount(e.amount)}"
        if t == "cards_dealt":
            return _dealt(e, len(state.cards.boards))
        if t == "check":
            return f"{p} checks"
        if t == "call":
            return f"{p} calls {amount(paid)}"
        if t == "fold":
            return f"{p} folds"
        if t == "bet_raise":
            return f"{p} {'raises' if self.current else 'bets'} to {amount(e.to)}"
        if t == "all_in":
            total = state.street_bets[p]
            verb = "calls" if total <= self.current else ("raises" if self.current else "bets")
            return f"{p} {verb} all-in: {amount(paid)} more, {amount(total)} this street"
        if t == "discard":
            return _discarded(p, e.cards)
        if t == "declaration":
            return f"{p} declares {e.direction}"
        if t == "reveal":
            return f"{p} shows {' '.join(e.cards)}" if e.cards else f"{p} shows"
        if t == "muck":
            return f"{p} mucks"
        if t == "run_count":
            return f"the board is run {e.runs} time(s)"
        if t == "recorded_payout":
            what = "returns" if e.returned else "pays"
            pot = f" ({pot_name(e.pot)})" if e.pot is not None else ""
            return f"the table {what} {amount(e.amount)} to {p}{pot}"
        if t == "recorded_rake":
            return f"the table takes {amount(e.amount)} from the pot as rake"
        if t == "carry_over":
            return f"{amount(e.amount)} carried {'in from' if e.direction == 'in' else 'out to'}" \
                   f" {e.other_hand or 'another hand'}"
        if t == "hand_ended":
            return "the hand ends" if e.status == "complete" else "the record stops: incomplete"
        if t == "hand_voided":
            return f"hand voided by {e.by}: {e.reason}"
        return t

    def _amount(self, chips: int) -> str:
        return format_amount(chips, self.decimals)


def _discarded(player: str, cards: list[str]) -> str:
    """A draw's discard in words (RULES.md §4.2): the cards thrown when known (``Ann
    discards 9s Td``), how many when not (``Ann discards 2``), both when some are
    (``Ann discards 3: 9s and 2 unknown``); ``Ann stands pat`` for none."""
    if not cards:
        return f"{player} stands pat"
    known = [c for c in cards if c != "??"]
    if len(known) == len(cards):
        return f"{player} discards {' '.join(known)}"
    if not known:
        return f"{player} discards {len(cards)}"
    return (f"{player} discards {len(cards)}: {' '.join(known)} and "
            f"{len(cards) - len(known)} unknown")


def _dealt(e: Any, runs: int) -> str:
    shown = " ".join(e.cards)
    if e.player is None:
        run = f" (run {e.run})" if runs > 1 else ""
        return f"board{run}: {shown}"
    if all(c == "??" for c in e.cards):
        return f"{e.player} is dealt {len(e.cards)} card(s) face down"
    return f"{e.player} is dealt {shown}"
