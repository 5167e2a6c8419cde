"""Deal one random but legal hand through the engine (for the demo-series generator).

:func:`play_hand` starts a :class:`engine.state.HandState`, posts the forced bets, deals from
a shuffled deck, picks random legal actions (check, call, fold, bet, raise, all-in; discards in
draw games; the bring-in in stud) and applies every event to the state, so a generated hand is
legal by construction: the engine itself accepted each event. At the showdown the recorded
payouts are the engine's own awards (one ``recorded_payout`` per pot share and per returned
bet), unless the caller asks to move a side pot to the wrong player.

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
from engine.state import HandState
from ledger import events as ev

DECK = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")


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


class _Deck:
    """A shuffled deck; when it runs short, the discards are shuffled in (draw games)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cards = list(DECK)
        rng.shuffle(self.cards)
        self.muck: list[str] = []

    def take(self, n: int) -> list[str]:
        if len(self.cards) < n:
            self.rng.shuffle(self.muck)
            self.cards.extend(self.muck)
            self.muck = []
        out, self.cards = self.cards[:n], self.cards[n:]
        return out


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand: its events (``hand_started`` … ``hand_ended``), the engine's result
    and the chips each player was actually paid (the recorded payouts)."""

    events: list[Any]
    result: HandResult
    paid: dict[str, int]
    misdealt_pot: tuple[int, str, str] | None = None  # (pot index, from player, to player)


def forced_bets(started: ev.HandStarted) -> list[ev.ForcedBet]:
    """Antes (stud) or the two blinds (seats 1 and 2, left of the button), capped by stacks."""
    out = []
    st = started.stakes
    for seat, ante in zip(started.seats, st.antes, strict=False):
        if ante:
            out.append(ev.ForcedBet(player=seat.player, kind="ante", amount=min(ante, seat.stack)))
    kinds = ("small_blind", "big_blind")
    for seat, blind, kind in zip(started.seats, st.blinds_or_straddles, kinds, strict=False):
        out.append(ev.ForcedBet(player=seat.player, kind=kind, amount=min(blind, seat.stack)))
    return out


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
    state = HandState.start(started)
    events: list[Any] = [started]

    def apply(event: Any) -> None:
        state.apply(event)
        events.append(event)

    for bet in forced_bets(started):
        apply(bet)
    deck = _Deck(rng)
    while state.phase != "showdown":
        apply(_next_event(rng, state, deck))
    live = state.live()
    if len(live) > 1:
        for p in live:
            apply(ev.Reveal(player=p))
    result = settle(state)
    payouts, moved = _payouts(result, misdeal_side_pot)
    for payout in payouts:
        apply(payout)
    apply(ev.HandEnded(status="complete"))
    paid: dict[str, int] = dict.fromkeys(state.players, 0)
    for payout in payouts:
        paid[payout.player] += payout.amount
    return PlayedHand(events, result, paid, moved)


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


# ------------------------------------------------------------------------------------------
# Choosing the next event


def _next_event(rng: random.Random, state: HandState, deck: _Deck) -> Any:
    if state.phase in ("forced", "deal"):
        return _deal(state, deck)
    if state.phase == "draw":
        return _draw(rng, state, deck)
    if state.phase == "bet":
        return _bet(rng, state)
    raise AssertionError(f"unexpected phase {state.phase}")  # pragma: no cover


def _deal(state: HandState, deck: _Deck) -> ev.CardsDealt:
    street = state.game.streets[max(state.street, 0)]
    if street.hole_up:
        dealt = state.cards.street_hole if state.phase == "deal" else set()
        player = next(p for p in state.live() if p not in dealt)
        n = len(street.hole_up)
        return ev.CardsDealt(player=player, cards=deck.take(n), face_up=list(street.hole_up))
    need = sum(s.board for s in state.game.streets[: state.street + 1])
    return ev.CardsDealt(cards=deck.take(need - len(state.cards.boards[0])))


def _draw(rng: random.Random, state: HandState, deck: _Deck) -> Any:
    if state.cards.owed:
        player, n = next(iter(state.cards.owed.items()))
        return ev.CardsDealt(player=player, cards=deck.take(n))
    player = state.cards.next_to_draw(state)
    assert player is not None
    hand = state.cards.hole[player]
    discards = rng.sample(hand, rng.choice((0, 1, 1, 2, 2, 3)))
    deck.muck.extend(discards)
    return ev.Discard(player=player, cards=discards)


def _bet(rng: random.Random, state: HandState) -> Any:
    player = state.to_act
    assert player is not None
    if state.game.stud and state.street == 0 and not state.rnd.acted:
        amount = min(state.started.stakes.bring_in, state.stacks[player])
        return ev.ForcedBet(player=player, kind="bring_in", amount=amount)
    lim = state.limits(player)
    stack, bet = state.stacks[player], state.street_bets[player]
    owed = state.rnd.current - bet
    r = rng.random()
    if lim.min_to is not None and r < (0.18 if owed > 0 else 0.3):
        return _raise(rng, state, player, lim.min_to, lim.max_to or lim.min_to)
    if owed <= 0:
        return ev.Check(player=player)
    if r > (0.6 if state.street == 0 else 0.75):
        return ev.Fold(player=player)
    if owed >= stack:
        return ev.AllIn(player=player, to=bet + stack)
    return ev.Call(player=player)


def _raise(rng: random.Random, state: HandState, player: str, lo: int, hi: int) -> Any:
    allin_to = state.street_bets[player] + state.stacks[player]
    if state.game.betting == "fixed_limit":
        to = rng.choice((lo, hi))
    elif rng.random() < 0.12:
        to = hi
    else:
        to = rng.randint(lo, max(lo, min(hi, lo * 3)))
    if to >= allin_to:
        return ev.AllIn(player=player, to=allin_to)
    return ev.BetRaise(player=player, to=to)


def seat_order(players: Sequence[str], button: str | None) -> list[str]:
    """Seats for ``HandStarted``: from the player left of ``button`` round to the button (PHH
    p1 … pN); table order unchanged when ``button`` is None (stud)."""
    if button is None:
        return list(players)
    i = list(players).index(button)
    return list(players[i + 1 :]) + list(players[: i + 1])
