"""Moving a hand from phase to phase: streets, draws, betting rounds, declaring, showdown.

RULES.md §4.1–4.2 decide who acts first: on the first round of a blind game the player after
the biggest blind or straddle (RULES.md §4.4), later the first live player left of the button;
in stud the bring-in by up-card on third street and the best board afterwards (razz: the
lowest). §3.4: with ``bet_after_declare`` the players declare before the last betting round.
"""

from __future__ import annotations

from engine import betting, dealing
from engine.stud import best_board_player, bring_in_player


def begin_street(state, index: int) -> None:  # noqa: ANN001 - HandState
    """Start street ``index``: deal its cards, or its draw, or go straight to betting."""
    state.street = index
    state.cards.street_hole = set()
    state.cards.drawn = {}
    state.cards.owed = {}
    street = state.game.streets[index]
    if street.hole_up or street.board:
        state.phase = "deal"
        if street.board and not street.hole_up and dealing.street_dealt(state):
            after_deal(state)
    elif street.draw:
        state.phase = "draw"
    else:  # pragma: no cover - every street deals or draws
        _begin_betting(state)


def after_deal(state) -> None:  # noqa: ANN001
    """Called after every deal or discard: move on when the street's cards are all out."""
    if state.phase == "deal" and dealing.street_dealt(state):
        if state.game.streets[state.street].draw:
            state.phase = "draw"
            return
        _begin_betting(state)
    elif state.phase == "draw" and dealing.draw_done(state):
        _begin_betting(state)


def _declare_first(state) -> bool:  # noqa: ANN001
    d = state.started.options.declare
    return (
        d is not None
        and d.bet_after_declare
        and state.street == len(state.game.streets) - 1
        and not state.declare_done
        and state.live_count() >= 2
    )


def _begin_betting(state) -> None:  # noqa: ANN001
    if _declare_first(state):
        state.phase = "declare"
        return
    betting.start_round(state, _first_to_act(state))
    if not state.rnd.pending:
        round_closed(state)


def _first_to_act(state) -> str | None:  # noqa: ANN001
    g = state.game
    street = g.streets[state.street]
    if street.opening == "bring_in":
        ups = [(p, state.cards.up_cards(p)) for p in state.live()]
        if any(not u or u[-1] == dealing.UNKNOWN for _, u in ups):
            return None
        return bring_in_player([(p, u[-1]) for p, u in ups], razz=g.low_bring_in, hilo=g.hilo)
    if street.opening == "best_board":
        ups = [(p, state.cards.up_cards(p)) for p in state.live()]
        if any(dealing.UNKNOWN in u for _, u in ups):
            return None
        first = best_board_player(ups, razz=g.low_bring_in)
        return _next_bettor(state, first)
    if state.street == 0 and state.forced_seen:
        poster = _biggest_blind(state)
        if poster is not None:
            i = state.order.index(poster)
            return state.order[(i + 1) % len(state.order)]
    return state.order[0]


def _biggest_blind(state) -> str | None:  # noqa: ANN001
    """The player (latest in position) whose live blind or straddle is the biggest."""
    best: str | None = None
    top = 0
    for p in state.order:
        bet = state.street_bets[p]
        if bet and bet >= top and p not in state.posted_out_of_position:
            best, top = p, bet
    return best


def _next_bettor(state, first: str) -> str | None:  # noqa: ANN001
    i = state.order.index(first)
    ring = state.order[i:] + state.order[:i]
    for p in ring:
        if p not in state.folded and p not in state.all_in:
            return p
    return None


def round_closed(state) -> None:  # noqa: ANN001
    """The betting round is over: fold-out, next street, declaring or showdown."""
    state.last_round = (state.rnd.last_aggressor, state.rnd.first_actor)
    if state.live_count() <= 1:
        state.phase = "showdown"
        return
    last = state.street == len(state.game.streets) - 1
    if not last:
        begin_street(state, state.street + 1)
        return
    d = state.started.options.declare
    if d is not None and not state.declare_done:
        state.phase = "declare"
        return
    state.phase = "showdown"
