"""The deck running out (RULES.md §4.1): the stub, a card dealt again after a reshuffle, and
seventh street's community card.

Eight players in seven-card stud need 56 cards. When the stub cannot give every player still
in his seventh-street card, the dealer turns one community card that every one of them uses
as his seventh; some software instead shuffles the burned and mucked cards back into the stub
(pokerkit does), so a history may deal a folded or mucked card again. Both are accepted once
the deck has run out, and each is named in a note on the hand; a card still live (in the hand
of a player still in, or on the board) is never dealt twice.

The stub is counted with one burn before each street (Robert's Rules burn a card before every
round of dealing; a history need not record its burns): the earliest the deck can run out.
Each function checks and returns a note, or raises :class:`engine.errors.IllegalAction`
through ``state.fail``; none changes the hand.
"""

from __future__ import annotations

from engine.hand import HandData
from ledger.model import events as ev


def deck_size(state: HandData) -> int:
    """Cards in the game's deck: 52, or 36 for short deck (sixes and up)."""
    return 36 if state.game.deck == "short" else 52


def burns(state: HandData) -> int:
    """Cards burned by now: one before each street dealt so far, this one included."""
    return max(state.street, 0) + 1


def stub(state: HandData) -> int:
    """Cards left to deal from the deck (0 once it has run out): the deck less every card
    dealt and one burn a street."""
    return max(deck_size(state) - state.cards.dealt - burns(state), 0)


def holder(state: HandData, card: str) -> tuple[str | None, bool]:
    """Where a known card dealt earlier in the hand is: ``(player, live)``; ``player`` is
    None for a board card (always live) and ``live`` is False for the hand of a player who
    folded or mucked it."""
    if any(card in board for board in state.cards.boards):
        return None, True
    out = [p for p, hole in state.cards.hole.items() if card in hole]
    for p in out:
        if p not in state.folded and p not in state.mucked:
            return p, True
    return (out[0] if out else None), False


def redealt(state: HandData, card: str, position: int | None, to: str) -> str:
    """Accept ``card``, dealt before in this hand, as reshuffled and dealt again to ``to``
    (a player, or ``the board``) and return the note that says so (RULES.md §4.1).

    ``position``: the card's number off the deck in this hand (1 is the first card dealt), or
    None for a card shown at the showdown that was dealt unknown (then the deck must have run
    out by now).

    Raises:
        IllegalAction: the card is live ("card 3c is dealt twice"), or it was folded or mucked
            but the deck had not run out yet.
    """
    owner, live = holder(state, card)
    if live or owner is None:
        raise state.fail(f"card {card} is dealt twice")
    how = "mucked" if owner in state.mucked else "folded"
    fresh = deck_size(state) - burns(state)  # cards the deck gives before it runs out
    dealt = state.cards.dealt if position is None else position - 1
    if dealt < fresh:
        raise state.fail(
            f"card {card} is dealt twice: {owner} {how} it, but the deck has not run out "
            f"({dealt} of {deck_size(state)} cards dealt, {burns(state)} burned)")
    return (f"the deck ran out: {owner}'s {card}, {how}, was reshuffled and dealt again to "
            f"{to} (RULES.md §4.1)")


def community_card(state: HandData, e: ev.CardsDealt) -> str:
    """Check a board card in a stud hand: seventh street's one community card, dealt instead
    of every player's down card when the stub cannot give each player still in his own
    (RULES.md §4.1). Returns the note that names it.

    Raises:
        IllegalAction: not the last street of seven-card stud, more than one card, a player
            already has his seventh card, or the stub still holds a card for every player.
    """
    g = state.game
    street = g.streets[state.street]
    if state.street != len(g.streets) - 1 or street.hole_up != (False,):
        raise state.fail(
            f"no board cards in {g.name}: only a community seventh card, when the deck runs "
            "out (RULES.md §4.1)")
    if len(e.cards) != 1 or e.run != 1:
        raise state.fail(f"the community card is one card, not {len(e.cards)}")
    if state.cards.boards[0]:
        raise state.fail("the community card is already dealt")
    if state.cards.street_hole:
        have = ", ".join(sorted(state.cards.street_hole))
        raise state.fail(
            f"a community card replaces every player's seventh card, but {have} got his own")
    live, left = state.live_count(), stub(state)
    if left >= live:
        raise state.fail(
            f"a community card only when the deck runs out: {left} cards left for {live} "
            "players (RULES.md §4.1)")
    return (f"seventh street: the stub could not give the {live} players still in a card each "
            f"({left} left): {e.cards[0]}, face up, is the seventh card of every one of them "
            "(RULES.md §4.1)")
