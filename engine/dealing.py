"""Cards: dealing hole and board cards, draws, run it twice, shows and mucks.

A known card can be dealt only once while it is live (in a hand or on a board); once the
deck has run out a card discarded in a draw, folded or mucked may be dealt again (the
reshuffle of RULES.md §4.1, :mod:`engine.deck`, named in a note), never before: a draw's
discards too, only when the stub cannot give the replacements (§4.1's rule). A stud
hand's one board card is seventh street's community card (§4.1): every player still in uses
it as his seventh card, and when not even a reshuffle could give each his own, only it is
taken. ``??`` is an unknown card and is never a duplicate, but it is a card off the deck.

Each function checks an event and changes the cards, or raises
:class:`engine.errors.IllegalAction` through ``state.fail``. None changes the phase: a deal or
a discard says when the street's cards (or the draw) are all out, and :mod:`engine.flow` moves
the hand on.
"""

from __future__ import annotations

from typing import Final

from engine.cards import UNKNOWN
from engine.deck import community_card, own_seventh_card, redealt
from engine.declare.order import still_to_declare
from engine.hand import HandData
from ledger.model import events as ev


def next_to_draw(state: HandData) -> str | None:
    """The live player who discards next in the current draw, in acting order (None: all
    have)."""
    live = state.live()
    drawn = state.cards.drawn
    for p in state.order:
        if p in live and p not in drawn:
            return p
    return None


#: ``UNKNOWN`` as a Final name, read on every card dealt: compiled, a Final name is a C static
#: while a module's global (an imported name too) is a dictionary lookup at each read
_UNKNOWN: Final = UNKNOWN
_NO_NOTES: Final[list[str]] = []  # never changed: what a deal of new cards returns


def _check_new_cards(
    state: HandData, cards: list[str], to: str, *, off_deck: bool = True
) -> list[str]:
    """Check cards about to be dealt to ``to`` (a player or ``the board``); return the notes
    of those dealt again after a reshuffle. ``off_deck``: the cards come off the deck now (not
    shown unknown cards being named)."""
    seen = state.cards.seen
    if state.game.deck != "short" and _all_new(seen, cards):  # the common case
        return _NO_NOTES
    fresh: set[str] = set()
    notes: list[str] = []
    for k, c in enumerate(cards):
        if c == _UNKNOWN:
            continue
        if c in fresh:
            raise state.fail(f"card {c} is dealt twice: both in this deal {_place(to)}")
        if state.game.deck == "short" and c[0] in "2345":
            raise state.fail(f"card {c} is not in the short deck (six and up)")
        if c in seen:
            position = state.cards.dealt + k + 1 if off_deck else None
            notes.append(redealt(state, c, position, to))
        fresh.add(c)
    return notes


def _place(to: str) -> str:
    """Where a deal goes, in words: ``to Ann``, ``on the board``."""
    return "on the board" if to == "the board" else f"to {to}"


def _all_new(seen: set[str], cards: list[str]) -> bool:
    """No card of ``cards`` is in ``seen`` and no known one repeats (``??`` may). A loop over
    the few cards of a deal: compiled, it makes no set and calls no method (measured 0.15 us
    less a deal than ``isdisjoint`` and ``set(cards)``)."""
    for k in range(len(cards)):
        c = cards[k]
        if c in seen:
            return False
        if c != _UNKNOWN:
            for j in range(k):
                if cards[j] == c:
                    return False
    return True


def _add_seen(state: HandData, cards: list[str]) -> None:
    seen = state.cards.seen  # never holds ?? (a loop: compiled, set.update() is a generic call)
    for c in cards:
        if c != _UNKNOWN:
            seen.add(c)


def deal(state: HandData, e: ev.CardsDealt) -> bool:
    """Deal hole cards to a player or board cards (RULES.md §4; run it twice §4.5), or a
    player's replacements in a draw. True when this street's cards (in a draw: every
    replacement) are all out."""
    # the event's fields read once (a pydantic field is a generic getattr from compiled code)
    dealt, player = e.cards, e.player
    notes = _check_new_cards(state, dealt, player or "the board")
    if player is None:
        notes = notes + _deal_board(state, e, dealt)
    elif state.phase == "draw":
        _deal_draw(state, e, player)
    else:
        _deal_hole(state, e, player, dealt)
    state.cards.dealt += len(dealt)
    if notes:
        _reshuffled(state, dealt)
        state.notes.extend(notes)
    if state.phase == "draw":
        return draw_done(state)
    return street_dealt(state)


def _reshuffled(state: HandData, cards: list[str]) -> None:
    """``cards``, dealt again after a reshuffle, are no discards any more: each is live
    where it went (called once the deal is checked, so a refused one changes nothing)."""
    discarded, thrown = state.cards.discarded, state.cards.thrown
    for c in cards:
        discarded.pop(c, None)
        thrown.discard(c)


def _deal_hole(state: HandData, e: ev.CardsDealt, p: str, dealt: list[str]) -> None:
    """``p``, ``dealt``: the event's player and cards."""
    cards = state.cards
    if p not in cards.hole:
        raise state.fail(f"{p!r} is not seated")
    if state.phase != "deal":
        if p in cards.street_hole:  # dealt already: the host repeats a deal
            raise state.fail(f"{p} already has cards for this street")
        raise state.fail(f"hole cards dealt during the {state.phase_said} phase")
    if p in state.folded:
        raise state.fail(f"{p} has folded")
    up = state.game.streets[state.street].hole_up
    if not up:
        raise state.fail("no hole cards are dealt on this street")
    if state.game.stud:
        if cards.boards[0]:
            raise state.fail("this street was dealt as one community card (RULES.md §4.1)")
        own_seventh_card(state, p)
    if p in cards.street_hole:
        raise state.fail(f"{p} already has cards for this street")
    if len(dealt) != len(up):
        raise state.fail(f"{p} must be dealt {len(up)} card(s) on this street, not {len(dealt)}")
    face_up = e.face_up
    if face_up and tuple(face_up) != up:
        raise state.fail(f"face-up flags {face_up} do not match the game")
    cards.hole[p].extend(dealt)
    cards.up[p].extend(up)
    cards.street_hole.add(p)
    _add_seen(state, dealt)


def _deal_board(state: HandData, e: ev.CardsDealt, dealt: list[str]) -> list[str]:
    """``dealt``: the event's cards."""
    if state.phase != "deal":
        raise state.fail(f"board cards dealt during the {state.phase_said} phase")
    if state.game.stud:
        note = community_card(state, e)
        state.cards.boards[0].extend(dealt)
        _add_seen(state, dealt)
        return [note]
    run = e.run
    boards = state.cards.boards
    if run > len(boards):
        raise state.fail(f"board for run {run}, but the board runs {len(boards)}x")
    board = boards[run - 1]
    need = state.game.board_by_street[state.street]  # board cards out by this street
    if len(board) + len(dealt) > need:
        raise state.fail(f"too many board cards: {need} by this street")
    board.extend(dealt)
    _add_seen(state, dealt)
    return []


def _deal_draw(state: HandData, e: ev.CardsDealt, p: str) -> None:
    owed = state.cards.owed.get(p)
    dealt = e.cards
    if owed is None:
        raise state.fail(_owed_nothing(state, p))
    if len(dealt) != owed:
        raise state.fail(f"{p} discarded {owed} card(s) but is dealt {len(dealt)}")
    state.cards.hole[p].extend(dealt)
    state.cards.up[p].extend([False] * len(dealt))
    del state.cards.owed[p]
    _add_seen(state, dealt)


def _owed_nothing(state: HandData, p: str) -> str:
    """Why ``p`` is owed no replacement cards in this draw (RULES.md §4.2): he has folded or
    mucked, stood pat, been dealt his replacements already, or not discarded yet; then who
    draws now, or whose replacements are dealt next."""
    cards = state.cards
    if p not in cards.hole:
        return f"{p!r} is not seated"
    drawn = cards.drawn.get(p)
    why = (f"{p} has folded" if p in state.folded
           else f"{p} has mucked" if p in state.mucked
           else f"{p} stood pat" if drawn == 0
           else f"{p} has drawn already" if drawn is not None
           else f"{p} is dealt cards before discarding")
    nxt = next_to_draw(state)
    if nxt is not None:
        return why if nxt == p else f"{why}; {nxt} draws now"
    for q, n in cards.owed.items():  # the first still owed, as `state` says it
        return f"{why}; {q}'s {_replacements(n)} dealt next"
    return why


def _replacements(n: int) -> str:
    return "replacement card is" if n == 1 else f"{n} replacement cards are"


def street_dealt(state: HandData) -> bool:
    """Are all cards of the current street dealt (every live player, every run's board; in
    stud the community card instead of every player's own)?"""
    g, cards = state.game, state.cards
    if g.streets[state.street].hole_up and not (g.stud and cards.boards[0]):
        dealt = cards.street_hole
        if len(dealt) < state.live_count():
            return False
        folded, mucked = state.folded, state.mucked
        for p in state.players:  # every live player dealt (a loop: no list of them made)
            if p not in dealt and p not in folded and p not in mucked:
                return False
    need = g.board_by_street[state.street]  # board cards out by this street
    if need:
        for b in cards.boards:
            if len(b) < need:
                return False
    return True


def discard(state: HandData, e: ev.Discard) -> bool:
    """Discard (or stand pat with no cards) in a draw (RULES.md §4.2). True when the draw is
    over: everyone has discarded and been dealt his replacements.

    Raises:
        IllegalAction: no draw now, not his turn to draw, a card named twice (``Ann discards
            2h twice``) or one he does not hold.
    """
    if state.phase != "draw":
        raise state.fail(f"no draw now ({state.phase_said} phase)")
    player, thrown = e.player, e.cards  # read once: pydantic fields
    nxt = next_to_draw(state)
    if player != nxt:
        raise state.fail(_not_his_draw(state, player, nxt))
    cards = state.cards
    hand = cards.hole[player]
    named: set[str] = set()
    for c in thrown:  # a card is thrown once: a repeat is not a second card he holds
        if c != _UNKNOWN and c in named:
            raise state.fail(f"{player} discards {c} twice")
        named.add(c)
    for c in thrown:
        if c in hand:
            hand.remove(c)
        elif _UNKNOWN in hand:
            hand.remove(_UNKNOWN)
        else:
            raise state.fail(f"{player} discards {c}, which {player} does not hold")
        if c != _UNKNOWN:
            cards.discarded[c] = player  # still seen: dealt again only after a reshuffle
            cards.thrown.add(c)  # and never back to him in this draw (engine.deck.redealt)
    cards.up[player] = [False] * len(hand)
    cards.drawn[player] = len(thrown)
    if thrown:
        cards.owed[player] = len(thrown)
    return draw_done(state)


def _not_his_draw(state: HandData, player: str, nxt: str | None) -> str:
    """Why ``player`` may not discard now (``nxt``: :func:`next_to_draw`): another player
    draws first, or every player has discarded and the replacement cards are dealt next
    (RULES.md §4.2)."""
    if nxt is not None:
        return f"out of turn: {nxt} draws now, not {player}"
    for p, n in state.cards.owed.items():  # the first still owed, as `state` says it
        return f"out of turn: nobody draws now, not {player}: {p}'s {_replacements(n)} dealt next"
    return f"out of turn: nobody draws now, not {player}: the draw is over"


def draw_done(state: HandData) -> bool:
    """Has every live player discarded and been dealt his replacements in this draw?"""
    return next_to_draw(state) is None and not state.cards.owed


def _check_live_hand(state: HandData, p: str, verb: str) -> None:
    if p not in state.cards.hole:
        raise state.fail(f"{p!r} is not seated")
    if p in state.folded or p in state.mucked:
        raise state.fail(f"{p} has no live hand to {verb}")


def reveal(state: HandData, e: ev.Reveal) -> None:
    """A player shows his cards. Known hole cards must match; unknown ones are filled in."""
    p, cards = e.player, e.cards  # read once: pydantic fields
    _check_live_hand(state, p, "show")
    if state.phase == "declare":  # who is still to declare named, as `act` names them
        d = state.started.options.declare
        then = (" and the betting round after the declarations is over"
                if d is not None and d.bet_after_declare else "")
        raise state.fail(f"cards are shown once every player has declared{then} (still to "
                         f"declare: {', '.join(still_to_declare(state))})")
    if not cards:
        state.cards.shown.add(p)
        return
    hand = state.cards.hole[p]
    shown = list(cards)
    community = state.cards.boards[0] if state.game.stud else []
    if community and len(shown) == len(hand) + len(community):
        # a stud show may include the community card, which is his seventh (RULES.md §4.1)
        for c in community:
            if c in shown:
                shown.remove(c)
    if len(shown) != len(hand):
        raise state.fail(f"{p} holds {len(hand)} cards but shows {len(shown)}")
    rest = list(shown)
    for c in hand:
        if c == _UNKNOWN:
            continue
        if c not in rest:
            raise state.fail(f"{p} shows {''.join(shown)} but was dealt {''.join(hand)}: "
                             f"{c} is not among the cards shown")
        rest.remove(c)
    new = [c for c in rest if c != _UNKNOWN]
    notes = _check_new_cards(state, new, p, off_deck=False)
    known = [c for c in hand if c != _UNKNOWN]
    state.cards.hole[p] = known + rest
    state.cards.up[p] = state.cards.up[p][: len(known)] + [False] * len(rest)
    _add_seen(state, new)
    state.cards.shown.add(p)
    if notes:
        _reshuffled(state, new)
        state.notes.extend(notes)


def muck(state: HandData, e: ev.Muck) -> None:
    """A player at showdown throws his hand away and gives up every pot another player still
    contests (RULES.md §1.5); a pot nobody else can win stays his (:func:`engine.pots.claimed`,
    which reads the order of ``state.mucked``)."""
    p = e.player
    _check_live_hand(state, p, "muck")
    if state.phase not in ("showdown",) and state.status == "open":
        raise state.fail(f"{p} mucks before the showdown (fold instead)")
    if state.live_count() <= 1:  # the last player need not show: mucking an uncontested
        state.mucked_alone = p  # hand changes nothing but the words of his pot's award
        return
    state.mucked.append(p)


def run_count(state: HandData, e: ev.RunCount) -> None:
    """Agree to run the rest of the board ``runs`` times (RULES.md §4.5, §7.4): once a hand,
    once betting is over with a player all-in and two or more players still in the pot.

    Raises:
        IllegalAction: no board game; the number of runs agreed already (``d rc 1`` too);
            betting not over (it is over before the board is complete only with a player
            all-in); one player left in the pot (the others folded: the pot is his, nothing
            is run); the board complete.
    """
    if not state.game.board_count:
        raise state.fail("run it twice needs a board game")
    if state.runs:
        raise state.fail("the number of runs is already agreed")
    if len(state.can_bet()) >= 2 or state.phase not in ("deal", "showdown"):
        raise state.fail("the board can be run more than once only when betting is over with "
                         "a player all-in (RULES.md §4.5)")
    if state.live_count() < 2:
        raise state.fail("the board is run more than once only with two or more players in "
                         f"the pot (RULES.md §4.5), and {state.live()[0]} alone is left: the "
                         "pot is his")
    if len(state.cards.boards[0]) >= state.game.board_count:
        raise state.fail("the board is already complete")
    base = state.cards.boards[0]
    state.cards.boards.extend(list(base) for _ in range(e.runs - 1))
    state.runs = e.runs


def check_showdown_ready(state: HandData) -> None:
    """Raise when a complete hand still lacks cards it needs for the showdown."""
    if state.live_count() <= 1:
        return
    need = state.game.board_count
    for i, b in enumerate(state.cards.boards, 1):
        if len(b) < need:
            raise state.fail(f"the board of run {i} has {len(b)} of {need} cards")

