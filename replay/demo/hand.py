"""Deal one random but legal hand through the engine (for the demo-series generator).

:func:`play_hand` plays ``hand_started`` out with :class:`replay.demo.randomhand.Table` (the
project's one random-hand dealer: every event is accepted by the engine first, so a generated
hand is legal by construction). At the showdown the recorded payouts are the engine's own
awards (one ``recorded_payout`` per pot share and per returned bet), unless the caller asks to
move a side pot to the wrong player.

Stakes (chips): blinds 1/2 (no-limit and pot-limit: minimum bet 2); fixed limit 2/4; stud
ante 1, bring-in 1. Randomness comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games import game as game_def
from engine.settle import HandResult, settle
from ledger.model import events as ev
from replay.demo.randomhand import Table


def stakes_for(code: str, players: int) -> ev.Stakes:
    """The stakes of a generated hand of variant ``code`` with ``players`` seats (chips)."""
    g = game_def(code)
    if g.stud:
        return ev.Stakes(betting=g.betting, antes=[1] * players, bring_in=1, small_bet=2,
                         big_bet=4)
    blinds = [1, 2] + [0] * (players - 2)
    if g.betting == "fixed_limit":
        return ev.Stakes(betting=g.betting, blinds_or_straddles=blinds, small_bet=2, big_bet=4)
    return ev.Stakes(betting=g.betting, blinds_or_straddles=blinds, min_bet=2)


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand: its events (``hand_started`` … ``hand_ended``), the engine's result
    and the chips each player was actually paid (the recorded payouts)."""

    events: list[Any]
    result: HandResult
    paid: dict[str, int]
    misdealt_pot: tuple[int, str, str] | None = None  # (pot index, from player, to player)


def play_hand(
    rng: random.Random, started: ev.HandStarted, *, misdeal_side_pot: bool = False
) -> PlayedHand:
    """Play ``started`` to the end with random legal actions (see the module doc).

    ``misdeal_side_pot``: when the hand has an awarded side pot and someone who did not win
    it, record that side pot's share as paid to him instead (``misdealt_pot`` says so).

    Raises:
        engine.errors.IllegalAction: never for a well-formed ``started`` (the generator only
            emits what the engine accepts); it would mean an engine regression.
    """
    table = Table(rng, started, oracle=False)
    table.play_out()
    state, apply = table.state, table.apply
    result = settle(state)
    payouts, moved = _payouts(result, misdeal_side_pot)
    for payout in payouts:
        apply(payout)
    apply(ev.HandEnded(status="complete"))
    paid: dict[str, int] = dict.fromkeys(state.players, 0)
    for payout in payouts:
        paid[payout.player] += payout.amount
    return PlayedHand(table.events, result, paid, moved)


def _payouts(
    result: HandResult, misdeal: bool
) -> tuple[list[ev.RecordedPayout], tuple[int, str, str] | None]:
    """The engine's awards as recorded payouts, one side-pot share moved when ``misdeal``."""
    moved = _pick_misdeal(result) if misdeal else None
    out = []
    for pot in result.pots:
        for player, chips in pot.awards.items():
            if chips:
                if moved and moved[0] == pot.index and moved[1] == player:
                    player = moved[2]
                out.append(ev.RecordedPayout(player=player, amount=chips, pot=pot.index))
    for player, chips in result.returned.items():
        out.append(ev.RecordedPayout(player=player, amount=chips, returned=True))
    return out, moved


def _pick_misdeal(result: HandResult) -> tuple[int, str, str] | None:
    """A side pot share to move: prefer a main-pot winner who was not eligible for it."""
    if len(result.pots) < 2:
        return None
    main_winners = [p for p, c in result.pots[0].awards.items() if c]
    for pot in result.pots[1:]:
        winners = [p for p, c in pot.awards.items() if c]
        if not winners:
            continue
        others = [p for p in main_winners if p not in pot.eligible]
        others += [p for p in result.players if p not in winners and p not in others]
        if others:
            return pot.index, winners[0], others[0]
    return None


def seat_order(players: Sequence[str], button: str | None) -> list[str]:
    """Seats for ``HandStarted``: from the player left of ``button`` round to the button (PHH
    p1 … pN); table order unchanged when ``button`` is None (stud)."""
    if button is None:
        return list(players)
    i = list(players).index(button)
    return list(players[i + 1 :]) + list(players[: i + 1])
