"""Betting rules: forced bets, the bring-in, actions, who may raise, the minimum and maximum bet.

Implements RULES.md §1.7 (full-bet rule for no-limit and pot-limit; half-bet rule for fixed
limit, several short all-ins counting together), §1.8 (fixed-limit raise caps: bet + 3 raises
in games of three or more rounds, bet + 4 in two-round games, unlimited heads-up unless the
cap was already reached), §4.1 (stud bring-in and completion; open pair on fourth street in
high stud) and §4.2–4.4 (antes, blinds, straddles; a straddle sets the minimum raise; a blind
or straddle posted short all-in leaves the bet to call and the raise sizes the structure's).
All amounts are chips on this street.

:func:`forced_bet` and :func:`act` check an event and change the chips and the betting round,
or raise :class:`engine.errors.IllegalAction` through ``state.fail``; :func:`start_round`
opens a round. None changes the phase: each returns True when the round is closed, and
:mod:`engine.flow` moves the hand on.
"""

from __future__ import annotations

from typing import Final, cast

from engine.cards import UNKNOWN
from engine.hand import HandData
from engine.rounds import Limits, Round, reopened_for
from engine.stud import (
    best_board_candidates,
    best_board_player,
    bring_in_candidates,
    bring_in_player,
    has_open_pair,
)
from ledger.model import events as ev

#: An action in a betting round (RULES.md §1).
Action = ev.Check | ev.Call | ev.BetRaise | ev.Fold | ev.AllIn

_LIVE_BLINDS: Final = ("small_blind", "big_blind", "straddle")  # Final: a C static, compiled


def _threshold(state: HandData, rnd: Round) -> int:
    """The increase since a player acted that reopens the betting for him (RULES.md §1.7)."""
    if state.half_bet:
        return (rnd.increment + 1) // 2
    return rnd.increment


def limits(state: HandData, player: str) -> Limits:
    """Chips to call and the legal raise range for ``player`` (street totals, chips).

    No-limit: at least the last full bet or raise more, at most all-in. Pot-limit: at most the
    pot after calling. Fixed limit: exactly one bet more than the last full bet (RULES.md §1.7:
    completing a short all-in), two sizes on fourth street with an open pair in high stud
    (not in hi-lo nor a declare hand, §4.1).
    """
    to_call, min_to, max_to, reason = _limits(state, player)
    return Limits(to_call, min_to, max_to, reason)


def _limits(state: HandData, player: str) -> tuple[int, int | None, int | None, str]:
    """:func:`limits` as a plain tuple, what a raise reads (a compiled tuple is made in a few
    ns; the named tuple's ``__new__`` is interpreted: about 0.2 us a raise)."""
    rnd = state.rnd
    street_bet = state.street_bets[player]
    stack = state.stacks[player]
    owed = rnd.current - street_bet
    to_call = owed if owed < stack else stack  # chips_to_call()
    fixed = state.fixed
    reason = ""
    if stack <= owed:
        reason = "not enough chips to raise"
    elif not reopened_for(rnd, player, _threshold(state, rnd)):
        reason = "the betting was not reopened: a short all-in is not a full raise"
    elif fixed and _capped(state, rnd):
        reason = "the raise cap for this round is reached"
    elif not _another_can_bet(state, player):
        reason = "every other player is all-in"
    if reason:
        return to_call, None, None, reason
    allin_to = street_bet + stack
    if fixed:
        lo = hi = max(rnd.full_level + rnd.increment, rnd.current + 1)
        if rnd.current == 0 and _open_pair_option(state):
            hi = state.started.stakes.big_bet
    else:
        if _completing(state):  # big-bet stud: up to the minimum bet from the bring-in (§4.1)
            lo = rnd.full_level + rnd.increment
        else:
            lo = rnd.current + rnd.increment if rnd.current else max(rnd.increment, 1)
        if state.game.betting == "pot_limit":
            hi = rnd.current + state.pot_total() + owed
        else:
            hi = allin_to
    return to_call, min(lo, allin_to), min(hi, allin_to), ""


def full_bet(state: HandData) -> int:
    """The full bet of stud's third street (chips, RULES.md §4.1): the small bet in fixed
    limit, the minimum bet in no-limit and pot-limit stud. 0 in a game without a bring-in."""
    stakes = state.started.stakes
    if not state.game.stud or not stakes.bring_in:
        return 0
    return stakes.small_bet if state.fixed else state.bet_size()


def _completing(state: HandData) -> bool:
    """Stud's third street with the bet below a full bet (the bring-in, or none yet): a bet
    now completes it, and it is measured from the last full level, not from the bring-in
    (RULES.md §4.1)."""
    return state.street == 0 and state.rnd.current < full_bet(state)


def _raised_from(state: HandData) -> int:
    """The street total a bet or raise now is measured from (chips): the current bet, or in
    no-limit and pot-limit stud while the bet is the bring-in the last full level below it
    (the bring-in is no full bet: a completion is a whole bet, RULES.md §4.1)."""
    rnd = state.rnd
    if not state.fixed and _completing(state):
        return rnd.full_level
    return rnd.current


def covering_to(state: HandData, player: str) -> int | None:
    """The street total below the minimum raise that ``player`` may still raise to because it
    covers every opponent (each is all-in or covered by it, RULES.md §1.7: accepted with a note
    on the hand), or None when there is none: a fixed-limit game, no raise open to him, or
    a covering total not below the minimum, not below his all-in (an all-in is taken anyway)
    or not a whole number of the smallest chip in play. Chips."""
    if state.fixed:
        return None
    _, min_to, max_to, _ = _limits(state, player)
    if min_to is None or max_to is None:
        return None
    covering = _covers_everyone(state, player)
    allin_to = state.street_bets[player] + state.stacks[player]
    chip = state.started.options.split.smallest_chip
    if covering <= state.rnd.current or covering >= min(min_to, allin_to) or covering % chip:
        return None
    return covering


def _another_can_bet(state: HandData, player: str) -> bool:
    """Can a player other than ``player`` still put chips in (live, not all-in)?"""
    folded, all_in = state.folded, state.all_in
    for p in state.order:
        if p != player and p not in folded and p not in all_in:
            return True
    return False


def chips_to_call(state: HandData, player: str) -> int:
    """The chips ``player`` puts in to call now (all he has when that is less): what
    :func:`limits` says, without working out the raise range (a fold, check or call needs
    only this)."""
    return min(state.rnd.current - state.street_bets[player], state.stacks[player])


def _capped(state: HandData, rnd: Round) -> bool:
    return rnd.raises >= state.cap and (rnd.capped or len(state.can_bet()) >= 3)


def _open_pair_option(state: HandData) -> bool:
    """Fourth street of high stud with an open pair showing (RULES.md §4.1): not in hi-lo,
    and a declare hand is high-low (§3) whatever the game's own ranking."""
    g = state.game
    if not g.stud or g.hilo or g.low_bring_in or g.evaluation != "high" or state.street != 1:
        return False
    if state.started.options.declare is not None:
        return False
    return any(has_open_pair(state.cards.up_cards(p)) for p in state.live())


def start_round(state: HandData, first: str | None) -> bool:
    """Begin the betting round of the current street with ``first`` to act (None: unknown,
    any player may open — up cards unknown). True when nobody has anything to decide: the
    round is closed at once."""
    # a comprehension and a loop, not dict.fromkeys() and max(): compiled, they call no method
    if state.street > 0:  # the first round keeps the blinds as bets
        state.street_bets = bets = {p: 0 for p in state.players}
        current = 0
    else:
        bets = state.street_bets
        current = _first_bet(state, bets)
    stacks = state.stacks
    rnd = Round(current, current, state.bet_size(), {}, [])
    if current and state.fixed:
        rnd.raises = 1  # the big blind is the bet (RULES.md §1.8)
    can_bet = state.can_bet()
    bettors = _asked(state, can_bet, bets, stacks, current)
    seat = state.seat
    if first is not None and first in seat:
        i = seat[first]
        # the bettors (in acting order) from ``first`` round the table
        after = [p for p in bettors if seat[p] >= i]
        rnd.pending = after + bettors[: len(bettors) - len(after)]
    else:
        rnd.pending = list(bettors)
        rnd.opener_unknown = True
    rnd.first_actor = rnd.pending[0] if rnd.pending else None
    state.rnd = rnd
    if _round_needs_no_action(state, can_bet):
        rnd.pending = []
    return not rnd.pending


def _first_bet(state: HandData, bets: dict[str, int]) -> int:
    """The bet to call as the first betting round opens (chips, a street total): the largest
    blind or straddle posted (``bets``: the street bets of the forced bets) and, when a player
    is all-in on the forced bets, never less than the full big blind or straddle (RULES.md
    §4.2: the bet sizes are the structure's even when a blind is posted short all-in; Robert's
    Rules, blind rule 1). A blind posted short, or left unposted by a big blind's ante that
    took the whole stack (§4.3), sets no lower bet to call: the others call the full blind,
    the short poster is all-in for what he posted and the pots layer by contributions (§1.2).
    The full amount is the largest blind or straddle of the stakes' ``blinds_or_straddles``,
    or of a short blind's ``nominal_blind`` (:func:`forced_bet`). Stud: the largest bet."""
    current = 0
    for bet in bets.values():
        if bet > current:
            current = bet
    if state.all_in and not state.game.stud:
        full = state.nominal_blind
        for blind in state.started.stakes.blinds_or_straddles:
            if blind > full:
                full = blind
        if full > current:
            current = full
    return current


def _asked(state: HandData, can_bet: list[str], bets: dict[str, int], stacks: dict[str, int],
           current: int) -> list[str]:
    """Those of ``can_bet`` (in acting order) who are asked to act in a round opening at
    ``current``: all but a player whose bet already covers every opponent (:func:`_covers_all`)."""
    # Two players who can put in more than the current bet (an all-in player cannot): no bet
    # covers the runner-up's reach, so nobody covers everyone (the common case, as below).
    reaching = 0
    for p in can_bet:
        if bets[p] + stacks[p] > current:
            reaching += 1
            if reaching == 2:
                return can_bet
    reach = {q: bets[q] + stacks[q] for q in state.live()}
    highest = sorted(reach.values(), reverse=True)[:2]
    if len(highest) == 2 and current < highest[1]:
        return can_bet  # no bet covers the runner-up's reach: nobody covers everyone
    return [p for p in can_bet if not _covers_all(state, p, reach, highest)]


def _covers_all(state: HandData, player: str, reach: dict[str, int], highest: list[int]) -> bool:
    """His bet already covers everything any opponent still in the hand can put in on this
    street (``reach``: each live player's street bet plus stack; ``highest``: its two largest
    values, largest first): he has nothing to decide, so he is not asked to act (as in
    pokerkit's state, which PHH files follow)."""
    # The most an opponent reaches: the runner-up when he reaches the most (equal on a tie).
    if player in reach and reach[player] == highest[0]:
        others = highest[1:]
    else:
        others = highest[:1]
    return bool(others) and state.street_bets[player] >= others[0]


def _round_needs_no_action(state: HandData, bettors: list[str] | None = None) -> bool:
    """Can the round close at once? ``bettors``: ``state.can_bet()``, when the caller has it."""
    if bettors is None:
        bettors = state.can_bet()
    if len(bettors) >= 2:
        return False
    if not bettors:
        return True
    # one player can still bet: he acts only if he owes chips
    return state.street_bets[bettors[0]] >= state.rnd.current


def _accept_unknown_opener(state: HandData, player: str) -> None:
    """Up cards unknown: the first to act cannot be named, so the first actor is taken —
    on third street only one who may bring it in (:func:`_check_bring_in_seat`), from fourth
    street on only one who may have the best board (:func:`_check_best_board_seat`)."""
    rnd = state.rnd
    if rnd.opener_unknown and not rnd.acted and player in rnd.pending:
        _check_bring_in_seat(state, player)
        _check_best_board_seat(state, player)
        i = state.seat[player]
        ring = state.order[i:] + state.order[:i]
        rnd.pending = [p for p in ring if p in rnd.pending]
        rnd.first_actor = player


def _check_bring_in_seat(state: HandData, player: str) -> None:
    """Third street of stud with an upcard unseen: ``player``, acting first, must be one who
    may have the lowest upcard (razz: the highest), as far as the cards shown tell (RULES.md
    §4.1; :func:`engine.stud.bring_in_candidates`); the first to act of those still able to
    bet from his seat on, as :func:`start_round` takes a known bring-in. Raises
    :class:`engine.errors.IllegalAction` naming who may bring it in."""
    g = state.game
    if not g.stud or state.street != 0 or g.streets[0].opening != "bring_in":
        return
    ups: list[tuple[str, str]] = []
    for p in state.live():
        u = state.cards.up_cards(p)
        ups.append((p, u[-1] if u else UNKNOWN))
    openers = _openers(state, bring_in_candidates(ups, state.cards.seen, razz=g.low_bring_in))
    if not openers or player in openers:
        return
    shown = [(p, c) for p, c in ups if c != UNKNOWN]
    unseen = [p for p, c in ups if c == UNKNOWN]
    low = bring_in_player(shown, razz=g.low_bring_in, hilo=g.hilo)
    card = dict(shown)[low]
    word = "highest" if g.low_bring_in else "lowest"
    owners = [f"{p}'s" for p in unseen]
    if len(owners) > 1:
        unseen_text = f"; {', '.join(owners[:-1])} and {owners[-1]} are unseen"
    else:
        unseen_text = "".join(f"; {o} is unseen" for o in owners)
    raise state.fail(f"out of turn: {_either(state, openers)} must bring it in, not {player} "
                     f"({low}'s {card} is the {word} upcard shown{unseen_text})")


def _openers(state: HandData, candidates: list[str]) -> list[str]:
    """Who acts first if each of ``candidates`` holds the upcards that decide it: the first
    of the bettors still to act from his seat on, as :func:`start_round` takes a known one."""
    seat, pending = state.seat, state.rnd.pending  # the bettors in seat order, none acted
    openers: list[str] = []
    for w in candidates:
        after = [p for p in pending if seat[p] >= seat[w]]
        opener = after[0] if after else pending[0]
        if opener not in openers:
            openers.append(opener)
    return openers


def _either(state: HandData, players: list[str]) -> str:
    """``players`` in seat order: ``Ann``, ``Ann or Cy``, ``Ann, Bob or Cy``."""
    may = sorted(players, key=state.seat.__getitem__)
    return f"{', '.join(may[:-1])} or {may[-1]}" if len(may) > 1 else may[0]


def best_board_openers(state: HandData) -> list[str]:
    """Stud from fourth street on, before anyone acts, while an upcard is unseen: who may act
    first, in seat order — each whose board may be the best (RULES.md §4.1; razz: the lowest;
    :func:`engine.stud.best_board_candidates`), or the first still able to bet after him.
    Empty on any other street or with every upcard shown (then the engine names him)."""
    g = state.game
    if not g.stud or g.streets[state.street].opening != "best_board":
        return []
    boards = [(p, state.cards.up_cards(p)) for p in state.live()]
    if not any(UNKNOWN in up for _, up in boards):
        return []
    candidates = best_board_candidates(boards, state.cards.seen, razz=g.low_bring_in)
    return sorted(_openers(state, candidates), key=state.seat.__getitem__)


def _check_best_board_seat(state: HandData, player: str) -> None:
    """Fourth street of stud on, an upcard unseen: ``player``, acting first, must be one who
    may have the best board (razz: the lowest), as far as the cards shown tell (RULES.md
    §4.1; :func:`engine.stud.best_board_candidates`), or the first still able to bet after
    him, as :func:`engine.flow` takes a known best board. Raises
    :class:`engine.errors.IllegalAction` naming who may act first."""
    g = state.game
    openers = best_board_openers(state)
    if not openers or player in openers:
        return
    boards = [(p, state.cards.up_cards(p)) for p in state.live()]
    unseen = [(p, up) for p, up in boards if UNKNOWN in up]
    shown = [(p, up) for p, up in boards if UNKNOWN not in up]
    why = [f"{p} shows {' '.join(up)}" for p, up in unseen]
    if shown:
        best = best_board_player(shown, razz=g.low_bring_in)
        why.insert(0, f"{best}'s {' '.join(dict(shown)[best])} is the "
                      f"{'lowest' if g.low_bring_in else 'best'} board shown")
    raise state.fail(f"out of turn: {_either(state, openers)} must act first, not {player} "
                     f"({'; '.join(why)})")


def forced_bet(state: HandData, e: ev.ForcedBet) -> bool:
    """Post an ante, blind, straddle, posted or dead blind before the cards (RULES.md §4.2–4.4),
    or the bring-in (:func:`bring_in`). True when it closed the betting round (a bring-in
    only). A blind or straddle posted short all-in keeps its full amount in
    ``state.nominal_blind`` (§4.2): the first round's bet to call (:func:`start_round`) and
    the minimum raise."""
    # the event's fields read once: each read of a pydantic field from compiled code is a
    # generic getattr (measured: 0.3 us of a post's 0.8 us went to reading them again)
    player = e.player
    stacks = state.stacks
    if player not in stacks:
        raise state.fail(f"{player!r} is not seated")
    kind = e.kind
    if kind == "bring_in":
        return bring_in(state, e)
    if state.phase != "forced":
        raise state.fail(f"{kind.replace('_', ' ')} after the cards were dealt")
    amount = e.amount
    if amount > stacks[player]:
        raise state.fail("{player} posts {amount} but has only {stack}", player=player,
                         amount=amount, stack=stacks[player])
    blind = kind in _LIVE_BLINDS
    live = blind or kind == "posted_blind"
    state.put_in(player, amount, live=live)
    if not live:
        state.dead[player] = state.dead.get(player, 0) + amount
    if kind == "ante":
        state.antes[player] = state.antes.get(player, 0) + amount
    state.forced_seen = True
    if kind == "posted_blind":
        state.posted_out_of_position.add(player)
    if blind:
        nominal = amount
        if stacks[player] == 0:  # posted short all-in: bet sizes stay (RULES.md §4.2)
            st = state.started.stakes
            nominal = max([amount, *st.blinds_or_straddles])
            if kind == "big_blind" and not state.fixed:
                # a site's history lists the blinds as posted: its stakes' big blind is min_bet
                nominal = max(nominal, st.min_bet)
        state.nominal_blind = max(state.nominal_blind, nominal)
    return False


def bring_in(state: HandData, e: ev.ForcedBet) -> bool:
    """The bring-in (RULES.md §4.1): first action of third street by the designated player.
    A player short of it posts all he has, all-in for less (§1.1), and the bring-in stays the
    structure's: the others call the full bring-in or complete (as a blind posted short
    all-in, §4.2: "bet sizes are set by the structure"), and what they put in beyond his
    all-in is a side pot (§1.2). True when it closed the betting round."""
    rnd = state.rnd
    _accept_unknown_opener(state, e.player)
    if state.phase != "bet" or state.street != 0 or not state.game.stud or rnd.acted:
        raise state.fail("a bring-in is posted only as the first action of a stud hand")
    if rnd.pending and rnd.pending[0] != e.player:
        raise state.fail(f"out of turn: {rnd.pending[0]} must bring it in, not {e.player}")
    nominal = state.started.stakes.bring_in
    amount = min(nominal, state.stacks[e.player])
    if e.amount != amount:
        raise state.fail("bring-in is {amount}, not {given}", amount=amount, given=e.amount)
    state.put_in(e.player, amount)
    rnd.current = nominal if amount else 0  # a short all-in leaves the bring-in to call
    rnd.acted[e.player] = amount
    return _after_raise(state, e.player)


def _declare_first(state: HandData) -> str:
    """Why a bet before the declarations is refused in a hand that declares before the last
    betting round (``bet_after_declare``, RULES.md §3.4, FORMATS.md ``_declare``): the words
    after ``no betting now (declare phase)``; ``""`` otherwise."""
    d = state.started.options.declare
    if state.phase != "declare" or d is None or not d.bet_after_declare or state.declare_done:
        return ""
    return (": with bet_after_declare the players declare right after the last card, "
            "and the last betting round follows the declarations")


def act(state: HandData, e: Action) -> bool:
    """Check, call, bet/raise, fold or all-in by ``e.player`` (RULES.md §1). True when it
    closed the betting round."""
    rnd = state.rnd
    player = e.player
    if player not in state.stacks:
        raise state.fail(f"{player!r} is not seated")
    if player in state.folded:
        raise state.fail(f"{player} has folded")
    if state.phase != "bet":
        raise state.fail(f"no betting now ({state.phase_said} phase){_declare_first(state)}")
    if player in state.all_in:
        raise state.fail(f"{player} is all-in")
    if rnd.opener_unknown:
        _accept_unknown_opener(state, player)
    if rnd.pending and rnd.pending[0] != player:
        raise state.fail(f"out of turn: {rnd.pending[0]} is to act, not {player}")
    if not rnd.pending:
        raise state.fail("the betting round is closed")
    kind = e.type
    street_bet, stack = state.street_bets[player], state.stacks[player]
    if kind in ("fold", "check", "call"):
        if state.game.stud and _bring_in_due(state):
            raise state.fail(f"{player} must bring it in or complete, not {kind}")
        owed = _owed_for(state, player, kind, rnd.current - street_bet)  # chips_to_call()
        return _passive(state, player, kind, owed if owed < stack else stack)
    allin_to = street_bet + stack
    new = allin_to if kind == "all_in" else cast(ev.BetRaise, e).to
    told = cast(ev.AllIn, e).to if kind == "all_in" else None
    if told is not None and told != allin_to:
        raise state.fail("all-in is to {to}, not {given}", to=allin_to, given=told)
    if new <= rnd.current:
        if kind == "all_in":  # a call for less (or exactly) with everything
            state.put_in(player, stack)
            rnd.acted[player] = rnd.current
            return _after_passive(state, player)
        raise state.fail("{verb} to {to} is not above the current bet {current}",
                         verb=bet_word(state), to=new, current=rnd.current)
    return _raise(state, player, new, allin_to, _limits(state, player))


def may_check(state: HandData, player: str) -> bool:
    """Whether ``player`` may check now: he owes nothing, or what he owes is owed to nobody
    (every other player still in is all-in for no more than his street bet: the full big
    blind a big blind posted short all-in leaves as the bet, RULES.md §4.2; a call of it
    comes back to him, §1.4)."""
    owed = state.rnd.current - state.street_bets[player]
    return owed <= 0 or (bool(state.all_in) and _nobody_can_match(state, player))


def _owed_for(state: HandData, player: str, kind: str, owed: int) -> int:
    """``owed`` (the current bet less ``player``'s street bet), or 0 for a check when nobody
    can match any of it (:func:`_nobody_can_match`)."""
    if kind == "check" and owed > 0 and may_check(state, player):
        return 0
    return owed


def _nobody_can_match(state: HandData, player: str) -> bool:
    """Every other player still in is all-in for no more than ``player``'s street bet: the
    full big blind that a big blind posted short all-in leaves as the bet (RULES.md §4.2) is
    then owed to nobody, so he may check (a history recorded so) as well as call it, the
    chips nobody matched coming back to him (§1.4), as a site's log shows them."""
    folded, all_in, bets = state.folded, state.all_in, state.street_bets
    mine = bets[player]
    for p in state.order:
        if p != player and p not in folded and (p not in all_in or bets[p] > mine):
            return False
    return True


def _bring_in_due(state: HandData) -> bool:
    """Third street of stud before the bring-in: the first player must post it or complete
    (RULES.md §4.1)."""
    return (
        state.game.stud
        and state.street == 0
        and state.started.stakes.bring_in > 0
        and not state.rnd.acted
        and state.rnd.current == 0
    )


def _passive(state: HandData, player: str, kind: str, to_call: int) -> bool:
    rnd = state.rnd
    if kind == "fold":
        state.folded.add(player)
    elif kind == "check" and to_call:
        raise state.fail("{player} cannot check: {to_call} to call", player=player,
                         to_call=to_call)
    elif kind == "call":
        if not to_call:
            raise state.fail(f"{player} cannot call: nothing to call (check)")
        state.put_in(player, to_call)
    rnd.acted[player] = rnd.current
    return _after_passive(state, player)


def _raise(state: HandData, player: str, new: int, allin_to: int,
           lim: tuple[int, int | None, int | None, str]) -> bool:
    """``allin_to``: the player's street bet plus his stack; ``lim``: :func:`_limits`."""
    rnd = state.rnd
    is_all_in = new == allin_to
    if new > allin_to:
        raise state.fail("{player} cannot {verb} to {to}: only {stack} behind, so at most to "
                         "{most} (all in)", player=player, verb=bet_word(state), to=new,
                         stack=state.stacks[player], most=allin_to)
    _, min_to, max_to, reason = lim
    if min_to is None or max_to is None:  # the two are None together (limits)
        raise state.fail(f"{player} cannot {bet_word(state)}: {reason}")
    if new > max_to:
        raise state.fail("{verb} to {to} is above the maximum {most}", verb=bet_word(state),
                         to=new, most=max_to)
    if new < min_to and not is_all_in:
        if new < _covers_everyone(state, player):
            raise state.fail("{verb} to {to} is below the minimum {least}",
                             verb=bet_word(state), to=new, least=min_to)
        state.notes.append(  # accepted, never silently (RULES.md §1.7)
            f"{player}'s {bet_word(state)} to {new} is below the minimum {min_to} but covers "
            "every opponent (each is all-in or covered by it): accepted: no chip changes "
            "hands otherwise (RULES.md §1.7)")
    if state.fixed and not is_all_in and new != min_to and new != max_to:
        noun = {"complete": "completion"}.get(bet_word(state), bet_word(state))
        sizes = "{least} or {most}" if min_to != max_to else "{least}"  # an open pair: two
        raise state.fail("fixed limit: the {noun} is to " + sizes + ", not {to}", noun=noun,
                         least=min_to, most=max_to, to=new)
    chip = state.started.options.split.smallest_chip  # 1 unless converted (RULES.md §2.1)
    if new % chip and not is_all_in:
        raise state.fail("{verb} to {to} is not a whole number of the smallest chip in play, "
                         "{chip}", verb=bet_word(state), to=new, chip=chip)
    before = _raised_from(state)
    completing = _completing(state)
    state.put_in(player, new - state.street_bets[player])
    if _is_full(state, new, before):
        _full_bet_made(state, rnd, new, before, completing)
    rnd.current = new
    rnd.acted[player] = new
    rnd.last_aggressor = player
    return _after_raise(state, player)


def _full_bet_made(state: HandData, rnd: Round, new: int, before: int, completing: bool,
                   ) -> None:
    """A full bet or raise to ``new`` (from ``before``; ``completing``: of the bring-in, RULES.md
    §4.1) sets the next raise's size and level and counts toward the cap (§1.7, §1.8)."""
    if completing:
        _reopen_for_the_bring_in(rnd)
    if state.fixed:
        if rnd.current == 0 and new > rnd.increment:  # open pair: big bet chosen
            rnd.increment = new
    else:
        rnd.increment = max(rnd.increment, new - before)
    rnd.full_level = new
    rnd.raises += 1
    if rnd.raises >= state.cap and len(state.can_bet()) >= 3:
        rnd.capped = True


def _reopen_for_the_bring_in(rnd: Round) -> None:
    """A full completion of the bring-in is the round's first full bet (RULES.md §4.1): each
    who acted before it (the bring-in, a call of it) faced no bet, and may raise it whatever
    the bring-in's size (RR-STUD 3: completing still leaves the full raises)."""
    acted, level = rnd.acted, rnd.full_level
    for p in acted:
        if acted[p] > level:
            acted[p] = level


def bet_word(state: HandData) -> str:
    """What putting in more than the current bet is called now, in the refusals of it and as
    ``state`` offers it (RULES.md §4.1): ``"complete"`` on stud's third street while the
    bet is below the full bet (:func:`full_bet`: the small bet, the minimum bet in no-limit
    and pot-limit stud; raising the bring-in to a full bet, or opening for one in its
    place) and no bet of the round has counted as a full one, ``"raise"`` facing a bet (a
    blind is one; an all-in short of the full bet that counts as full, under the half-bet
    rule of §1.7, is raised, not completed), ``"bet"`` when nobody has bet this round."""
    rnd = state.rnd
    current = rnd.current
    if state.street == 0 and current < full_bet(state) and not rnd.full_level:
        return "complete"
    return "raise" if current else "bet"


def _covers_everyone(state: HandData, player: str) -> int:
    """The street total that puts every other player who can still bet all-in: a bet that
    large is complete even below the minimum (nobody could call more; online rooms cap it)."""
    others = [state.street_bets[q] + state.stacks[q] for q in state.can_bet() if q != player]
    return max(others, default=0) or 10**18


def _is_full(state: HandData, new: int, before: int) -> bool:
    rnd = state.rnd
    if state.fixed:
        if state.half_bet:
            return new - before >= (rnd.increment + 1) // 2 or new - rnd.full_level >= rnd.increment
        return new - rnd.full_level >= rnd.increment
    if state.half_bet:  # a big-bet game under the half-bet rule, as a limit game's (§1.7, §5)
        return new - before >= (rnd.increment + 1) // 2
    return new - before >= rnd.increment


def _after_passive(state: HandData, player: str) -> bool:
    """After ``player`` checked, called or folded (or called all-in): he is no longer asked
    to act. True when nobody is: the round is closed."""
    rnd = state.rnd
    pending = rnd.pending
    if pending and pending[0] == player:
        pending.pop(0)
    if state.live_count() <= 1:
        rnd.pending = []
        return True
    return not pending


def _after_raise(state: HandData, player: str) -> bool:
    """After ``player`` bet, raised or brought it in: everyone else who can still bet must
    act again, from his left. True when nobody can: the round is closed."""
    rnd = state.rnd
    folded, all_in, order = state.folded, state.all_in, state.order
    i = state.seat[player]
    pending: list[str] = []  # from his left round the table (indexed: no slices made)
    for j in range(i + 1, len(order)):
        p = order[j]
        if p not in folded and p not in all_in:
            pending.append(p)
    for j in range(i):
        p = order[j]
        if p not in folded and p not in all_in:
            pending.append(p)
    rnd.pending = pending
    if state.live_count() <= 1:
        rnd.pending = []
        return True
    if len(pending) >= 2 or (pending and player not in all_in):
        return False  # two can still bet: the round goes on (_round_needs_no_action)
    # who can still bet: everyone asked to act, and the player unless he is all-in now
    bettors = pending if player in all_in else [*pending, player]
    if _round_needs_no_action(state, bettors):
        rnd.pending = []
        return True
    return not pending
