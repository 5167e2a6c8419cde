"""Moving a hand from phase to phase: streets, draws, betting rounds, declaring, showdown.

The one module that changes a hand's ``phase`` and ``status``. :data:`STEPS` gives, for each
hand event type, what :meth:`engine.state.HandState.apply` runs: a rule of
:mod:`engine.betting`, :mod:`engine.dealing` or :mod:`engine.declare.order` checks the event,
changes its part of the hand and says what happened (the betting round closed, the street's
cards are all out, everyone declared); then the phase step of this module moves the hand on.
The rule modules never import this one.

RULES.md §4.1–4.2 decide who acts first: on the first round of a blind game the player after
the biggest blind or straddle (RULES.md §4.4), later the first live player left of the button;
in stud the bring-in by up-card on third street and the best board afterwards (razz: the
lowest). §3.4: with ``bet_after_declare`` the players declare before the last betting round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.betting import act, forced_bet, start_round
from engine.cards import UNKNOWN
from engine.dealing import (
    check_showdown_ready,
    deal,
    discard,
    muck,
    reveal,
    run_count,
    street_dealt,
)
from engine.declare.order import concede, declare
from engine.hand import HandData
from engine.stud import best_board_player, bring_in_player
from ledger.model import events as ev


def _begin_street(state: HandData, index: int) -> None:
    """Start street ``index``: deal its cards, or its draw, or go straight to betting."""
    state.street = index
    state.cards.begin_street()
    street = state.game.streets[index]
    if street.hole_up or street.board:
        state.phase = "deal"
        if street.board and not street.hole_up and street_dealt(state):
            _cards_out(state)
    elif street.draw:
        state.phase = "draw"
    else:  # pragma: no cover - every street deals or draws
        _begin_betting(state)


def _cards_out(state: HandData) -> None:
    """The street's cards, or in a draw every replacement, are all out: the draw or the
    betting comes next."""
    if state.phase == "deal" and state.game.streets[state.street].draw:
        state.phase = "draw"
        return
    _begin_betting(state)


def _declare_first(state: HandData) -> bool:
    if state.street != len(state.game.streets) - 1:  # first: the hand's options are
        return False  # pydantic fields, each read a generic getattr (every street starts here)
    d = state.started.options.declare
    return (
        d is not None
        and d.bet_after_declare
        and not state.declare_done
        and state.live_count() >= 2
    )


def _begin_betting(state: HandData) -> None:
    if _declare_first(state):
        state.phase = "declare"
        return
    closed = start_round(state, _first_to_act(state))
    state.phase = "bet"
    if closed:
        _round_closed(state)


def _first_to_act(state: HandData) -> str | None:
    g = state.game
    street = g.streets[state.street]
    if street.opening == "bring_in":
        ups = [(p, state.cards.up_cards(p)) for p in state.live()]
        if any(not u or u[-1] == UNKNOWN for _, u in ups):
            return None
        return bring_in_player([(p, u[-1]) for p, u in ups], razz=g.low_bring_in, hilo=g.hilo)
    if street.opening == "best_board":
        ups = [(p, state.cards.up_cards(p)) for p in state.live()]
        if any(UNKNOWN in u for _, u in ups):
            return None
        first = best_board_player(ups, razz=g.low_bring_in)
        return _next_bettor(state, first)
    if state.street == 0 and state.forced_seen:
        poster = _biggest_blind(state)
        if poster is not None:
            i = state.seat[poster]
            return state.order[(i + 1) % len(state.order)]
    return state.order[0]


def _biggest_blind(state: HandData) -> str | None:
    """The player (latest in position) whose live blind or straddle is the biggest."""
    best: str | None = None
    top = 0
    for p in state.order:
        bet = state.street_bets[p]
        if bet and bet >= top and p not in state.posted_out_of_position:
            best, top = p, bet
    return best


def _next_bettor(state: HandData, first: str) -> str | None:
    i = state.seat[first]
    ring = state.order[i:] + state.order[:i]
    for p in ring:
        if p not in state.folded and p not in state.all_in:
            return p
    return None


def _round_closed(state: HandData) -> None:
    """The betting round is over: fold-out, next street, declaring or showdown."""
    state.last_round = (state.rnd.last_aggressor, state.rnd.first_actor)
    if state.live_count() <= 1:
        state.phase = "showdown"
        return
    last = state.street == len(state.game.streets) - 1
    if not last:
        _begin_street(state, state.street + 1)
        return
    d = state.started.options.declare
    if d is not None and not state.declare_done:
        state.phase = "declare"
        return
    state.phase = "showdown"


# ------------------------------------------------------------------------------------------
# The events: which rule applies each one, and the phase step that follows it.


def _deal(state: HandData, e: ev.CardsDealt) -> bool:
    if state.phase == "forced":  # the first card dealt ends the forced bets
        _begin_street(state, 0)
    return deal(state, e)


def _declared(state: HandData) -> None:
    """Every live player has declared: the last betting round follows (bet after declare,
    RULES.md §3.4), else the showdown."""
    state.declare_done = True
    d = state.started.options.declare
    if d is not None and d.bet_after_declare and state.street == len(state.game.streets) - 1:
        _begin_betting(state)
    else:
        state.phase = "showdown"


def _fold(state: HandData, e: ev.Fold) -> bool:
    """A fold in a betting round, or in the declare phase a player giving up his hand
    instead of declaring (RULES.md §3, :func:`engine.declare.order.concede`)."""
    if state.phase == "declare":
        return concede(state, e)
    return act(state, e)


def _folded(state: HandData) -> None:
    """After a fold that finished its part: the betting round closed, or in the declare phase
    one player left (he takes the pots he is eligible for: the showdown, as any fold-win) or
    everyone left declared (:func:`_declared`)."""
    if state.phase != "declare":
        _round_closed(state)
    elif state.live_count() <= 1:
        state.phase = "showdown"
    else:
        _declared(state)


def _run_count(state: HandData, e: ev.RunCount) -> None:
    run_count(state, e)
    if state.phase == "showdown":  # the other runs' boards are dealt next
        state.phase = "deal"


def _carry(state: HandData, e: ev.CarryOver) -> None:
    if e.direction == "in":
        if state.phase != "forced":
            raise state.fail("carried-in chips must come before the cards are dealt")
        state.carried_in += e.amount
    elif state.status == "open" and state.phase != "showdown":
        raise state.fail("chips are carried out only after the betting is over")
    else:
        state.carried_out += e.amount


def _payout(state: HandData, e: ev.RecordedPayout) -> None:
    if e.player not in state.stacks:
        raise state.fail(f"payout to {e.player!r}, who is not seated")
    state.payouts.append(e)


def _rake(state: HandData, e: ev.RecordedRake) -> None:
    """One rake a hand (the whole of what the table took from its pot), and none in a hand
    whose file records one already (PHH's ``rake``, a site's summary: FORMATS.md §1)."""
    if state.rake is not None:
        raise state.fail("the hand already records a rake of {rake}: a hand records one "
                         "rake, the whole of what the table took", rake=state.rake)
    source = state.started.source
    if source.get("rake") is not None or source.get("site_rake") is not None:
        raise state.fail("the hand's file already records its rake")
    state.rake = e.amount


def _ended(state: HandData, e: ev.HandEnded) -> None:
    if e.status == "incomplete":
        state.status = "incomplete"
        return
    if state.phase not in ("showdown",):
        raise state.fail(f"the hand cannot end during the {state.phase_said} phase")
    check_showdown_ready(state)
    state.status = "complete"


def _voided(state: HandData, e: ev.HandVoided) -> None:
    state.status = "voided"


#: A rule checks one event and applies it (or raises IllegalAction, naming the reason) and
#: returns True when the event finished its part: the betting round, the street's cards or
#: the draw, the declarations.
Rule = Callable[[HandData, Any], bool | None]
#: What happens next when a rule returns True.
Step = Callable[[HandData], None]

#: Event type -> (its rule, the phase step run when the rule returns True; None: the event
#: never moves the hand on). :meth:`engine.state.HandState.apply` runs the two.
STEPS: dict[str, tuple[Rule, Step | None]] = {
    "forced_bet": (forced_bet, _round_closed),  # a bring-in can close the round
    "cards_dealt": (_deal, _cards_out),
    "discard": (discard, _cards_out),
    "check": (act, _round_closed),
    "call": (act, _round_closed),
    "bet_raise": (act, _round_closed),
    "fold": (_fold, _folded),
    "all_in": (act, _round_closed),
    "declaration": (declare, _declared),
    "reveal": (reveal, None),
    "muck": (muck, None),
    "run_count": (_run_count, None),
    "recorded_payout": (_payout, None),
    "recorded_rake": (_rake, None),
    "carry_over": (_carry, None),
    "hand_ended": (_ended, None),
    "hand_voided": (_voided, None),
}
