"""Settle a hand: refunds, pots, awards, final stacks — all derived from the state.

Uncalled bets go back first (RULES.md §1.4), pots are layered from contributions with folded
chips as dead money (§1.2–1.3), each pot is awarded on its own (§1.6) by cards speak (§2) or by
declaration (§3). A voided hand returns every contribution. A hand whose log stops before the
end (``incomplete``) is settled the same way and flagged: its true result is unknown. Chips
carried into either from the session's last hand were won by nobody in it, so they stay in the
middle for the next hand actually played (``carried``, RULES.md §7.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine._compiled import by_fields
from engine.awards import PotAward, award_pots, with_mucks
from engine.pots import Pot, claimed, claims, layers, standing_pots, uncalled
from engine.state import HandState


@dataclass(frozen=True)
class HandResult:
    """The recomputed result of one hand. All amounts are chips (int).

    ``contributions``: everything each player put in (antes and blinds included, before
    refunds); ``returned``: uncalled chips given back; ``pots``: main pot first, each with its
    eligible players and awards; ``awards``: each player's total from all pots;
    ``final_stacks`` = starting − contributions + returned + awards; ``net`` = final − starting;
    ``carried``: chips left for the session's next hand (a voided or incomplete hand's: the
    chips carried into it, which pass on, RULES.md §7.1); ``carried_in``: dead money that
    came in.
    ``verifiable`` is False when a showdown needed unknown cards (then ``awards`` is empty for
    those pots and the recorded payouts must be checked for feasibility instead). ``notes``:
    what the rules accepted that a reader should know (a raise below the minimum that covers
    every opponent, RULES.md §1.7; a stud deck reshuffled, §4.1). ``smallest_chip``: the
    smallest chip in play the pots were divided in, in chips (§2.1: 1 unless the hand was
    converted to a smaller chip than its own).
    """

    hand: str
    status: str
    players: tuple[str, ...]
    starting: dict[str, int]
    contributions: dict[str, int]
    returned: dict[str, int]
    pots: tuple[PotAward, ...]
    awards: dict[str, int]
    final_stacks: dict[str, int]
    net: dict[str, int]
    carried: int = 0
    carried_in: int = 0
    carried_out: int = 0
    verifiable: bool = True
    showdown: bool = False
    declarations: dict[str, str] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    game: str = ""
    notes: tuple[str, ...] = ()
    smallest_chip: int = 1

    # Written out, as engine.awards.PotAward's: compiled, object.__setattr__ here is a
    # direct store (the frozen dataclass's generated __init__ stays interpreted: 1.9 us a
    # hand). The same fields and defaults as the generated one.
    def __init__(self, hand: str, status: str, players: tuple[str, ...],
                 starting: dict[str, int], contributions: dict[str, int],
                 returned: dict[str, int], pots: tuple[PotAward, ...], awards: dict[str, int],
                 final_stacks: dict[str, int], net: dict[str, int], carried: int = 0,
                 carried_in: int = 0, carried_out: int = 0, verifiable: bool = True,
                 showdown: bool = False, declarations: dict[str, str] | None = None,
                 lines: tuple[str, ...] = (), game: str = "",
                 notes: tuple[str, ...] = (), smallest_chip: int = 1) -> None:
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "starting", starting)
        object.__setattr__(self, "contributions", contributions)
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "pots", pots)
        object.__setattr__(self, "awards", awards)
        object.__setattr__(self, "final_stacks", final_stacks)
        object.__setattr__(self, "net", net)
        object.__setattr__(self, "carried", carried)
        object.__setattr__(self, "carried_in", carried_in)
        object.__setattr__(self, "carried_out", carried_out)
        object.__setattr__(self, "verifiable", verifiable)
        object.__setattr__(self, "showdown", showdown)
        object.__setattr__(self, "declarations", {} if declarations is None else declarations)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "smallest_chip", smallest_chip)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def betting_over(state: HandState) -> bool:
    """Whether no more chips can go in: at the showdown, or while cards are dealt, drawn or
    declared with at most one player able to bet (the others all-in or folded). Then a bet
    nobody called is uncalled and goes back (RULES.md §1.4), even before the board is out.
    So it is before the cards, once the forced bets leave at most one player able to bet
    and he has posted his (a button all-in for a small blind of 1 below a big blind of 2:
    the 1 above him is returned, as it is once the cards are dealt, never a pot of the big
    blind's alone)."""
    if state.phase == "showdown":
        return True
    can_bet = state.can_bet()
    if state.phase == "forced":
        contributed = state.contributed
        return len(can_bet) < 2 and all(contributed[p] for p in can_bet) and any(
            p in state.all_in for p in state.players)
    return state.phase in ("deal", "draw", "declare") and len(can_bet) < 2


def settle(state: HandState) -> HandResult:
    """Compute the :class:`HandResult` of ``state`` (normally after ``hand_ended``).

    A hand still open is settled as far as it has gone: pots are formed from what was put in,
    but nobody is paid. While its betting goes on, nothing is uncalled yet and the pots are
    named as the table names them (:func:`engine.pots.standing_pots`: a player not all-in is
    eligible for every pot); once it is over (:func:`betting_over`: the showdown, or every
    player but one all-in while the rest is dealt) they are the layers of RULES.md §1.2 and
    the uncalled chips are returned (§1.4).
    """
    stacks = state.stacks
    contributions = dict(state.contributed)
    # chips leave a stack only into the pot while the hand is played (HandData.put_in)
    starting = {p: stacks[p] + c for p, c in contributions.items()}
    live = state.live()
    if state.status == "voided":  # nothing played: what came in passes on (RULES.md §7.1)
        return _finish(state, starting, contributions, dict(contributions), (),
                       state.carried_in)
    # Only bets can be uncalled: antes and dead blinds stay in the pot (RULES.md §1.4, §4.3).
    dead = state.dead
    bets = {p: c - dead.get(p, 0) for p, c in contributions.items()} if dead else contributions
    betting_on = state.status == "open" and not betting_over(state)
    # While the betting goes on nothing is uncalled yet: the bet may still be called.
    returned = {} if betting_on else uncalled(bets)
    after = {p: c - returned.get(p, 0) for p, c in contributions.items()} if returned else (
        contributions)
    table = table_dead_money(state)
    levels = {p: c - table.get(p, 0) for p, c in after.items()} if table else after
    pots = _with_table_money(_showdown_pots(state, levels), sum(table.values()), live)
    if state.carried_in:
        if pots:
            pots[0] = Pot(pots[0].amount + state.carried_in, pots[0].eligible)
        else:
            pots = [Pot(state.carried_in, tuple(live))]
    if betting_on:  # as the table names them: only an all-in caps a pot (RULES.md §1.2)
        free = [p for p in live if p not in state.all_in]
        pots = standing_pots(pots, live, free)
    before_showdown = state.status == "open" and state.phase != "showdown"
    if state.status == "incomplete" or before_showdown:  # the pots as they stand, nobody paid
        unpaid = tuple(PotAward(i, p.amount, p.eligible, {}) for i, p in enumerate(pots))
        # an incomplete hand gives every chip back
        incomplete = state.status == "incomplete"
        back = dict(contributions) if incomplete else returned
        # nobody won the chips carried into a hand cut short: they pass on (RULES.md §7.1)
        return _finish(state, starting, contributions, back, unpaid,
                       state.carried_in if incomplete else 0)
    awarded = award(state, pots, gave_up(state, returned, len(pots)))
    carried = sum(p.carried for p in awarded)
    return _finish(state, starting, contributions, returned, tuple(awarded), carried)


def _showdown_pots(state: HandState, levels: dict[str, int]) -> list[Pot]:
    """The layers of ``levels`` (each player's chips in the pots, uncalled chips and the
    table's dead money out) among the live players; with mucked hands, those of every player
    who did not fold, each given to the players who still claim it (RULES.md §1.5:
    :func:`engine.pots.claimed`)."""
    live = state.live()
    if state.mucked and live:  # a muck gives up only the pots another player contests (§1.5)
        contenders = [p for p in state.players if p not in state.folded]
        return claimed(layers(levels, contenders), state.mucked)
    return layers(levels, live) if live else []  # the state's own chips and players


def gave_up(state: HandState, returned: dict[str, int], count: int
            ) -> list[tuple[str, ...]]:
    """For each of the ``count`` pots :func:`settle` awards (``returned``: the uncalled chips
    it gives back, :attr:`HandResult.returned`), the players who could have won it and
    mucked (RULES.md §1.5, :func:`engine.pots.claims`), in the order they mucked; all ``()``
    without a muck. A main pot of the table's dead money alone, put before the layers
    (:func:`_with_table_money`), gave up nobody."""
    live = state.live()
    if not (state.mucked and live):
        return [()] * count
    table = table_dead_money(state)
    levels = {p: c - returned.get(p, 0) - table.get(p, 0) for p, c in state.contributed.items()}
    contenders = [p for p in state.players if p not in state.folded]
    gave = [g for _, g in claims(layers(levels, contenders), state.mucked)]
    return [()] * (count - len(gave)) + gave if count >= len(gave) else [()] * count


def award(state: HandState, pots: list[Pot],
          gave: list[tuple[str, ...]] | None = None) -> list[PotAward]:
    """The rules' awards of ``pots`` (in their order, chips) among the live players of
    ``state``: by declaration when the hand is a declare hand that more than one player
    contests (RULES.md §3), else by cards speak (§2, :func:`engine.awards.award_pots`). What
    :func:`settle` awards a showdown's pots by, and the replay the pots less a rake
    (``replay.rake``). ``gave``: for each pot, the players who gave it up by mucking
    (:func:`gave_up`), named in the award of a pot one player alone is then eligible for
    (:func:`engine.awards.with_mucks`)."""
    awarded = _award(state, pots, gave)
    if gave is None or not any(gave) or len(gave) != len(awarded):
        return awarded
    # who mucked, the last of them too when nobody else was left in the hand (his muck
    # changed nothing but is said as the side pot's last to muck is: "(the last to muck)")
    alone = state.mucked_alone
    mucked = [*state.mucked, alone] if alone is not None else state.mucked
    return [with_mucks(pot, g, mucked) for pot, g in zip(awarded, gave, strict=True)]


def _award(state: HandState, pots: list[Pot],
           gave: list[tuple[str, ...]] | None = None) -> list[PotAward]:
    live = state.live()
    hands = {p: state.cards.hole[p] for p in live}
    boards = state.cards.boards
    split = state.started.options.split
    if state.started.options.declare is not None and len(live) > 1:
        # the declaration's modules load only for a hand settled by declaration
        from engine.declare.award import award_declare_pots

        return award_declare_pots(
            state.game,
            pots,
            hands,
            boards,
            state.order,
            state.started.options.declare,
            state.declarations,
            split.odd_chip_tie_order,
            split.smallest_chip,
            gave if gave is not None and len(gave) == len(pots) else None,
            [p for p in state.declarations if p in state.folded],
        )
    return award_pots(state.game, pots, hands, boards, state.order, split)


def table_dead_money(state: HandState) -> dict[str, int]:
    """Each player's dead money that is the table's, not his own stake (RULES.md §4.3): his
    dead blinds, and his ante when he alone posted one (a big-blind or button ante). It goes
    into the main pot, the poster can win it, and it does not count toward his level; an ante
    that every dealt player posts is each one's own and counts (a short one makes its own
    main-pot layer)."""
    if not state.dead:  # no dead money (antes are dead money too)
        return {}
    table = {p: d - state.antes.get(p, 0) for p, d in state.dead.items()}
    if len(state.antes) == 1 and len(state.players) > 1:
        ((poster, ante),) = state.antes.items()
        table[poster] = table.get(poster, 0) + ante
    return {p: d for p, d in table.items() if d}


def _with_table_money(pots: list[Pot], chips: int, live: list[str]) -> list[Pot]:
    """Put the table's dead money into the main pot, which every live player can win, the
    poster included (RULES.md §4.3). When a live player put in no chip of his own (a big blind
    all-in on his big-blind ante), the lowest layer leaves him out: then the dead money alone
    is the main pot, and the layers above are side pots."""
    if not chips:
        return pots
    if pots and set(pots[0].eligible) == set(live):
        return [Pot(pots[0].amount + chips, pots[0].eligible), *pots[1:]]
    return [Pot(chips, tuple(live)), *pots]


def _finish(
    state: HandState,
    starting: dict[str, int],
    contributions: dict[str, int],
    returned: dict[str, int],
    pots: tuple[PotAward, ...],
    carried: int,
) -> HandResult:
    players = state.players
    awards = {p: 0 for p in players}  # inline when compiled, unlike dict.fromkeys (hand.py)
    for pot in pots:
        for p, chips in pot.awards.items():
            awards[p] += chips
    back = returned.get
    net: dict[str, int] = {}
    final_stacks: dict[str, int] = {}
    for p in players:
        net[p] = n = back(p, 0) + awards[p] - contributions[p]
        final_stacks[p] = starting[p] + n
    lines = [line for pot in pots for line in pot.lines]
    return HandResult(
        hand=state.hand,
        status=state.status,
        players=tuple(players),
        starting=starting,
        contributions=contributions,
        returned={p: c for p, c in returned.items() if c},
        pots=pots,
        awards=awards,
        final_stacks=final_stacks,
        net=net,
        carried=carried,
        carried_in=state.carried_in,
        carried_out=state.carried_out,
        verifiable=all(p.verifiable for p in pots),
        showdown=state.live_count() > 1,
        declarations=dict(state.declarations),
        lines=tuple(lines),
        game=state.started.game,
        notes=tuple(state.notes),
        smallest_chip=state.started.options.split.smallest_chip,
    )
