"""Random legal hands of any variant, dealt and played through the engine (seeded).

Used by the property tests, the pokerkit cross-check, the benchmarks and the demo series.
Every action is chosen among what the engine says is legal now, so each hand is legal by
construction; stacks are drawn wide so that multiway all-ins and several side pots are common.
Cards are real (a shuffled deck; discards are reshuffled when the stub runs out, as in a
real draw game). The hand ends with every remaining player showing.

By default every decision is a coin toss among the legal actions (rich in all-ins and side
pots, nearly every hand goes to showdown). A :class:`Style` plays no-limit and pot-limit
games like people do instead: deep stacks, most hands folded before the flop, bets sized
by the pot (``NLHE``: six-handed online no-limit hold'em, fitted in ``bench/PROFILE.md``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games import Game, game
from engine.notation import to_action
from engine.state import HandState
from ledger.formats.phh.base import blind_index, forced_bets
from ledger.model import events as ev

RANKS = "23456789TJQKA"
SUITS = "cdhs"


@dataclass(frozen=True)
class Style:
    """How the generated players bet (probabilities of one decision, in [0, 1]).

    ``stacks``: starting stacks drawn uniformly in this range (chips; the blinds are 1/2);
    facing a bet a player folds with ``fold`` and raises with ``raise_``, else calls;
    with no bet to face he bets with ``bet`` (else checks); ``preflop`` / ``postflop``
    hold the pairs ``(fold, raise_)``; ``bet`` is used after the flop (before it only the
    big blind has no bet to face: he raises with ``raise_``). Bets are ``sizes`` times the
    pot (one drawn per bet), an opening raise ``open_to`` times the big blind, a re-raise
    ``reraise`` times the bet faced; ``all_in`` of the bets and raises move in instead.
    """

    stacks: tuple[int, int] = (80, 500)
    preflop: tuple[float, float] = (0.68, 0.12)
    postflop: tuple[float, float] = (0.45, 0.12)
    bet: float = 0.55
    sizes: tuple[float, ...] = (0.33, 0.5, 0.66, 0.75, 1.0)
    open_to: tuple[float, ...] = (2.0, 2.5, 3.0)
    reraise: float = 3.0
    all_in: float = 0.02


#: Six-handed online no-limit hold'em (the HandHQ hands of ../shared/data/phh).
NLHE = Style()


@dataclass(frozen=True)
class RandomHand:
    """One generated hand: its events (hand_started … hand_ended), the PHH action strings of
    its actions (for writing a PHH file), and the final state."""

    events: list[Any]
    actions: list[str]
    state: HandState


def deck(g: Game) -> list[str]:
    """A fresh deck for the game (36 cards for short deck)."""
    ranks = RANKS[4:] if g.deck == "short" else RANKS
    return [r + s for r in ranks for s in SUITS]


def random_hand(
    rng: random.Random,
    code: str,
    *,
    players: int | None = None,
    hand_id: str = "h",
    names: Sequence[str] | None = None,
    stacks: Sequence[int] | None = None,
    declare: ev.DeclareOptions | None = None,
    split: ev.SplitOptions | None = None,
    session: str | None = None,
    oracle: bool = False,
    carried_in: tuple[str, int] | None = None,
    style: Style | None = None,
    ante_mix: bool = False,
    folds: float = 0.2,
) -> RandomHand:
    """Deal and play one random legal hand of variant ``code``.

    ``players`` defaults to 2–6 (at most 4 in triple-draw games, so the deck lasts);
    ``stacks`` default to random values from 3 to 400 chips. ``oracle`` keeps to the actions
    whose rules pokerkit shares (FORMATS.md §1 lists where it differs): the full-bet rule and a
    cap of four bets in fixed limit even heads-up, no completion of a short all-in, no big bet
    on an open pair, no raise that nobody can call, odd chips by seat. ``carried_in``
    (previous hand, chips) starts the hand with chips carried from the session's last hand.
    ``style``: play as :class:`Style` says (no antes, no straddle, its stacks) instead of at
    random; only for the betting of button games. ``ante_mix`` draws the forced bets more
    widely (:func:`mixed_antes`): antes of 1–5 chips, individual or a big-blind ante, and
    stacks too short for the ante or for the ante and blind. ``folds``: the chance that a
    player facing a bet folds in the coin-toss play (low: more players reach the last street,
    and eight in seven-card stud run out of cards).
    """
    g = game(code)
    n = players or rng.randint(2, 4 if g.is_draw and len(g.streets) > 2 else 6)
    names = list(names or [f"p{i}" for i in range(1, n + 1)])
    if style is not None:
        stacks = list(stacks or [rng.randint(*style.stacks) for _ in names])
    stacks = list(stacks or [rng.choice((rng.randint(3, 40), rng.randint(20, 400))) for _ in names])
    antes = [1] * n if g.stud or (style is None and rng.random() < 0.2) else [0] * n
    blinds = [] if g.stud else ([1, 2] + [0] * (n - 2))
    if blinds and n > 3 and style is None and rng.random() < 0.15:
        blinds[2] = 4  # a straddle
    if ante_mix and style is None:
        antes, stacks = mixed_antes(rng, g, blinds, stacks)
    st = ev.Stakes(
        betting=g.betting,
        antes=antes,
        blinds_or_straddles=blinds,
        bring_in=1 if g.stud else 0,
        min_bet=0 if g.betting == "fixed_limit" else 2,
        small_bet=2 if g.betting == "fixed_limit" else 0,
        big_bet=4 if g.betting == "fixed_limit" else 0,
    )
    tie = "left_of_button" if oracle else g.tie_order
    split = split or ev.SplitOptions(odd_chip_tie_order=tie)  # type: ignore[arg-type]
    reopen = "full_bet" if oracle else g.default_reopen_rule
    started = ev.HandStarted(
        hand=hand_id,
        game=code,
        stakes=st,
        seats=[ev.Seat(player=p, stack=s) for p, s in zip(names, stacks, strict=True)],
        button=None if g.stud else names[-1],
        options=ev.RuleOptions(
            reopen_rule=reopen, split=split, declare=declare  # type: ignore[arg-type]
        ),
        session=session,
    )
    table = Table(rng, started, oracle, style)
    table.folds = folds
    if carried_in:
        come = ev.CarryOver(amount=carried_in[1], direction="in", other_hand=carried_in[0])
        table.apply(come, action=False)
    return table.play()


def mixed_antes(
    rng: random.Random, g: Game, blinds: Sequence[int], stacks: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Antes and stacks for the cross-check: ``(antes, stacks)``, PHH's positional lists.

    Stud: an individual ante of 1 or 2 from every player. Button games: a third none, a
    third an individual ante (1, 2, 3 or 5 from every player), a third a big-blind ante (1, 2
    or 4, posted by the big blind alone for the table: ``antes[1]``, which PHH reads as the
    big blind's heads-up too, FORMATS.md §1; RULES.md §4.3). Then each player owing a forced
    bet of two chips or more has, one time in eight, a short stack: 1 chip up to what he owes
    (ante plus blind; all-in on the forced bets, or short of them).
    """
    n = len(stacks)
    if g.stud:
        antes = [rng.choice((1, 2))] * n
    else:
        kind = rng.choice(("none", "individual", "big_blind"))
        antes = [0] * n
        if kind == "individual":
            antes = [rng.choice((1, 2, 3, 5))] * n
        elif kind == "big_blind":
            antes[1] = rng.choice((1, 2, 4))
    stacks = list(stacks)
    for i in range(n):
        j = blind_index(i, n)
        owed = antes[j] + (max(blinds[j], 0) if blinds else 0)
        if owed >= 2 and rng.random() < 0.125:
            stacks[i] = rng.randint(1, owed)
    return antes, stacks


class Table:
    """The dealer of one generated hand: a shuffled deck, the discards, the events so far.

    :meth:`play_out` posts the forced bets and plays to the showdown (hands tabled);
    :meth:`play` also ends the hand. Every event goes through the engine first."""

    def __init__(self, rng: random.Random, started: ev.HandStarted, oracle: bool,
                 style: Style | None = None) -> None:
        self.rng = rng
        self.oracle = oracle
        self.style = style
        self.state = HandState.start(started)
        self.events: list[Any] = [started]
        self.actions: list[str] = []
        self.cards = deck(self.state.game)
        rng.shuffle(self.cards)
        self.discards: list[str] = []
        self.shown: set[str] = set()
        self.folds = 0.2  # the chance of folding to a bet in the coin-toss play
        self.shorts = ShortAllIns() if oracle else None

    def apply(self, e: Any, *, action: bool = True) -> None:
        if action:
            text = to_action(self.state, e)
            if text:
                self.actions.append(text)
        if self.shorts is not None:
            self.shorts.see(self.state, e)
        if e.type == "fold" and self.state.game.stud:  # his cards go to the muck
            self.discards.extend(self.state.cards.hole[e.player])
        self.state.apply(e)
        self.events.append(e)

    def draw(self, k: int, own: frozenset[str] = frozenset()) -> list[str]:
        """``k`` cards off the deck; the discards (in stud the folded hands) are reshuffled
        when the stub runs out (RULES.md §4.1–4.2). ``own``: the cards the player served
        discarded in this draw, which the reshuffle never gives back to him
        (:mod:`engine.deck`): one that comes up is swapped with the next card of the stub
        that is not his (no draw of the generator's random numbers, so a hand dealt none
        of his own is dealt as before)."""
        if len(self.cards) < k:
            self.rng.shuffle(self.discards)
            self.cards += self.discards
            self.discards = []
        if own:
            cards = self.cards
            for i in range(min(k, len(cards))):
                if cards[i] in own:
                    j = next((j for j in range(k, len(cards)) if cards[j] not in own), None)
                    if j is not None:
                        cards[i], cards[j] = cards[j], cards[i]
        taken, self.cards = self.cards[:k], self.cards[k:]
        return taken

    def show(self, *, early: bool) -> None:
        """Table the live hands: at the end, or (as real PHH files do) as soon as no more
        betting is possible, before the rest of the cards are dealt."""
        state = self.state
        live = state.live()
        if len(live) < 2:
            return
        if early and (state.game.is_draw or len(state.can_bet()) > 1 or state.phase == "bet"):
            return
        for q in state.order:
            if q in live and q not in self.shown:
                self.shown.add(q)
                self.apply(ev.Reveal(player=q, cards=list(state.cards.hole[q])))

    def draw_step(self) -> None:
        state = self.state
        p = state.to_act
        if p is None:  # every discard is in: deal the replacements
            thrown, discarded = state.cards.thrown, state.cards.discarded
            for q, k in list(state.cards.owed.items()):
                own = frozenset(c for c in thrown if discarded.get(c) == q)
                self.apply(ev.CardsDealt(player=q, cards=self.draw(k, own)))
            return
        hand = state.cards.hole[p]
        out = self.rng.sample(hand, self.rng.randint(0, min(3, len(hand))))
        self.discards.extend(out)
        self.apply(ev.Discard(player=p, cards=out))

    def deal(self) -> None:
        """Deal the street. In stud, when the stub and the muck together cannot give every
        player still in his seventh card, one community card instead (RULES.md §4.1; as
        pokerkit does)."""
        state = self.state
        last = state.street == len(state.game.streets) - 1
        if (state.game.stud and last and state.phase == "deal" and not state.cards.street_hole
                and len(self.cards) + len(self.discards) < state.live_count()):
            self.apply(ev.CardsDealt(player=None, cards=self.draw(1)))
            return
        _deal(state, self.apply, self.draw)

    def play_out(self) -> None:
        """Post the forced bets, deal, draw, bet and declare until the showdown; table the
        hands still in."""
        state = self.state
        for e in forced_bets(state.started.stakes, state.started.seats):
            self.apply(e, action=False)
        declare = state.started.options.declare is not None
        for _ in range(500):
            if state.phase == "showdown":
                break
            if state.phase == "deal" and not declare:
                self.show(early=True)
            if state.phase in ("forced", "deal"):
                self.deal()
            elif state.phase == "draw":
                self.draw_step()
            elif state.phase == "bet" and self.style is not None and not state.game.stud:
                self.apply(_styled_bet(self.rng, state, self.style, self.oracle, self.shorts))
            elif state.phase == "bet":
                self.apply(_bet(self.rng, state, self.oracle, self.folds, self.shorts))
            elif state.phase == "declare":
                p = state.declare_queue()[0]
                way = self.rng.choice(("high", "low", "swing"))
                self.apply(ev.Declaration(player=p, direction=way))
        self.show(early=False)

    def play(self) -> RandomHand:
        """Play the whole hand and end it (no recorded payouts)."""
        self.play_out()
        self.apply(ev.HandEnded(), action=False)
        return RandomHand(self.events, self.actions, self.state)


def _deal(state: HandState, apply: Any, draw: Any) -> None:
    street = state.game.streets[max(state.street, 0)]
    if state.phase == "forced":
        street = state.game.streets[0]
    if street.hole_up:
        for p in state.order if not state.game.stud else state.players:
            if p not in state.folded and p not in state.cards.street_hole:
                apply(ev.CardsDealt(player=p, cards=draw(len(street.hole_up))))
                if state.phase != "deal":
                    return
    if state.phase in ("deal", "forced") and street.board:
        need = sum(s.board for s in state.game.streets[: state.street + 1])
        for run, board in enumerate(state.cards.boards, 1):
            if len(board) < need:
                apply(ev.CardsDealt(player=None, cards=draw(need - len(board)), run=run))


class ShortAllIns:
    """pokerkit's own count of short all-ins in a betting round (its
    ``consecutive_short_all_in_amounts``), kept beside the engine's for the oracle.

    pokerkit adds up the raises of consecutive short all-ins since the last full raise, starts
    again from zero each time they reach one, and refuses a raise to a player who acted since
    the last single full raise while the sum is short. The engine measures the increase since
    the player's own last action (RULES.md §1.7, TDA 47), so it may allow a raise pokerkit
    refuses: the oracle play does not make it.
    """

    def __init__(self) -> None:
        self.street: int | None = None
        self.size = 0
        self.acted: set[str] = set()
        self.shorts: list[int] = []

    def see(self, state: HandState, e: Any) -> None:
        """Record a betting action before the engine applies it."""
        acts = ("check", "call", "fold", "bet_raise", "all_in", "forced_bet")  # + a bring-in
        if state.phase != "bet" or e.type not in acts:
            return
        if state.street != self.street:  # a new round
            self.street, self.size, self.acted, self.shorts = state.street, 0, set(), []
        to = getattr(e, "to", 0)
        if e.type in ("bet_raise", "all_in") and to > state.rnd.current:
            raised = to - state.rnd.current
            if raised >= self.size:
                self.acted = set()
            self.size = max(self.size, raised)
            if to >= state.street_bets[e.player] + state.stacks[e.player]:
                self.shorts.append(raised)
            else:
                self.shorts = []
            if sum(self.shorts) >= self.size:
                self.shorts = []
        self.acted.add(e.player)

    def refuses(self, state: HandState, player: str) -> bool:
        """Would pokerkit refuse ``player`` a raise now?"""
        if state.street != self.street:  # nobody has acted in this round yet
            return False
        return bool(self.shorts) and sum(self.shorts) < self.size and player in self.acted


def _pokerkit_would_refuse_raise(
    state: HandState, player: str, shorts: ShortAllIns | None = None
) -> bool:
    rnd = state.rnd
    others = [state.street_bets[q] + state.stacks[q] for q in state.can_bet() if q != player]
    if not others or max(others) <= rnd.current:
        return True  # nobody could call more than the current bet
    if shorts is not None and shorts.refuses(state, player):
        return True
    if state.game.betting != "fixed_limit":
        return False
    return rnd.raises >= 4 or rnd.full_level < rnd.current


def _bring_in(rng: random.Random, state: HandState, p: str, min_to: int | None) -> Any:
    """The bring-in player posts it (mostly) or completes (RULES.md §4.1)."""
    stack = state.stacks[p]
    bring_in = state.started.stakes.bring_in
    if rng.random() < 0.7 or min_to is None or stack <= bring_in:
        return ev.ForcedBet(player=p, kind="bring_in", amount=min(bring_in, stack))
    if min_to >= state.street_bets[p] + stack:
        return ev.AllIn(player=p, to=state.street_bets[p] + stack)
    return ev.BetRaise(player=p, to=min_to)


def _bet(rng: random.Random, state: HandState, oracle: bool = False, folds: float = 0.2,
         shorts: ShortAllIns | None = None) -> Any:
    p = state.to_act
    assert p is not None
    lim = state.limits(p)
    if oracle and lim.min_to is not None and _pokerkit_would_refuse_raise(state, p, shorts):
        lim = type(lim)(lim.to_call, None, None, "oracle")
    stack = state.stacks[p]
    if state.game.stud and state.street == 0 and not state.rnd.acted and state.rnd.current == 0:
        return _bring_in(rng, state, p, lim.min_to)
    roll = rng.random()
    if lim.to_call and roll < folds:
        return ev.Fold(player=p)
    if lim.min_to is not None and roll > 0.6:
        allin_to = state.street_bets[p] + stack
        hi = lim.max_to or allin_to
        if state.game.betting == "fixed_limit":
            to = lim.min_to if oracle else rng.choice((lim.min_to, hi))
        elif hi > lim.min_to and rng.random() < 0.5:
            to = rng.randint(lim.min_to, hi)
        else:
            to = lim.min_to
        if rng.random() < 0.15 and state.game.betting == "no_limit":
            to = allin_to
        if to >= allin_to:
            return ev.AllIn(player=p, to=allin_to)
        return ev.BetRaise(player=p, to=to)
    if lim.to_call >= stack:
        return ev.AllIn(player=p, to=state.street_bets[p] + stack)
    if lim.to_call:
        return ev.Call(player=p)
    return ev.Check(player=p)


def _styled_bet(rng: random.Random, state: HandState, style: Style, oracle: bool,
                shorts: ShortAllIns | None = None) -> Any:
    """One betting decision as :class:`Style` says (button games)."""
    p = state.to_act
    assert p is not None
    lim = state.limits(p)
    if oracle and lim.min_to is not None and _pokerkit_would_refuse_raise(state, p, shorts):
        lim = type(lim)(lim.to_call, None, None, "oracle")
    stack = state.stacks[p]
    allin_to = state.street_bets[p] + stack
    fold, raise_ = style.preflop if state.street == 0 else style.postflop
    roll = rng.random()
    if lim.to_call:
        if roll < fold:
            return ev.Fold(player=p)
        aggressive = roll >= 1 - raise_
    else:
        aggressive = roll < (raise_ if state.street == 0 else style.bet)
    if aggressive and lim.min_to is not None:
        current = state.rnd.current
        if rng.random() < style.all_in:
            to = allin_to
        elif state.street == 0 and current <= 2:  # the first raise before the flop
            to = round(rng.choice(style.open_to) * 2)
        elif current:
            to = round(current * style.reraise)
        else:
            to = round(rng.choice(style.sizes) * state.pot_total())
        to = max(lim.min_to, min(to, lim.max_to or allin_to))
        if to >= allin_to:
            return ev.AllIn(player=p, to=allin_to)
        return ev.BetRaise(player=p, to=to)
    if lim.to_call >= stack:
        return ev.AllIn(player=p, to=allin_to)
    if lim.to_call:
        return ev.Call(player=p)
    return ev.Check(player=p)
