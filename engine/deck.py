"""The deck running out (RULES.md §4.1): the stub, a card dealt again after a reshuffle, and
seventh street's community card.

Eight players in seven-card stud need 56 cards. When the stub cannot give every player still
in his seventh-street card, the dealer turns one community card that every one of them uses
as his seventh; some software instead shuffles the burned and mucked cards back into the stub
(pokerkit does), so a history may deal a folded or mucked card again. Both are accepted once
the deck has run out, and each is named in a note on the hand; a card still live (in the hand
of a player still in, or on the board) is never dealt twice. A draw's discards are the same:
reshuffled for the replacements only when the stub cannot give them (§4.1's rule: §4.2 says
no more of draws than their betting order), so a discarded card dealt again before the deck
has run out is refused as a folded one is. Once it has, the reshuffle is of the cards thrown
away for the players still to be served, never a player's own discards of this draw: a card
is never dealt back to the player who discarded it in the same draw. RULES.md is silent on
this; the rule followed is PokerStars' "Reshuffling the Deck" (draw games: "the active
player's discards are not used in the reshuffle, so it is impossible for you to receive back
a card that you have discarded on the draw";
https://www.pokerstars.dk/en/poker/games/draw/reshuffle/). His discards of an earlier draw
are in the reshuffled discards like anyone's, as a dealer reshuffling the discard pile at the
table gives them (PokerStars' server, going further, never deals a player a card he
discarded earlier in the hand; not followed here).

The stub is counted with one burn before each street (Robert's Rules burn a card before every
round of dealing; a history need not record its burns): the earliest the deck can run out.
Whether seventh street is each player's own card, the community card, or either is one rule,
:func:`seventh_street`, which the engine checks and the live hint (``next: d db CARD``)
names. Each other function checks and returns a note, or raises
:class:`engine.errors.IllegalAction` through ``state.fail``; none changes the hand.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

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


class SeventhStreet(NamedTuple):
    """Seventh street of seven-card stud as the deck stands before its first card (RULES.md
    §4.1). ``owed``: players still in, each owed his seventh card; ``left``: the stub, one
    burn a street (:func:`stub`); ``spare``: the deck's cards in no live hand and not on the
    board (the stub, the burns, folded and mucked cards: all a reshuffle can give); every
    card dealt counts, ``??`` included.

    ``deal``: ``"own"`` when the stub gives each player his own card; ``"community"`` when not
    even a reshuffle can (eight players in need 56 cards): only one community card, ``d db``;
    ``"either"`` when the stub cannot but a reshuffle of the burned, folded and mucked cards
    can: the dealer turns a community card, a history may reshuffle instead (pokerkit does).
    """

    owed: int
    left: int
    spare: int

    @property
    def deal(self) -> Literal["own", "community", "either"]:
        if self.left >= self.owed:
            return "own"
        return "community" if self.spare < self.owed else "either"


def seventh_street(state: HandData) -> SeventhStreet | None:
    """The deck at the start of seven-card stud's seventh street (RULES.md §4.1): None on any
    other street or game, once the street's first card is dealt, and outside the deal phase.
    The one rule both the engine (which card it takes) and the live hint (which it asks
    for) read."""
    g = state.game
    if (not g.stud or state.phase != "deal" or state.street != len(g.streets) - 1
            or g.streets[-1].hole_up != (False,) or state.cards.street_hole
            or state.cards.boards[0]):
        return None
    live = state.live()
    held = sum(len(state.cards.hole[p]) for p in live)
    return SeventhStreet(len(live), stub(state), deck_size(state) - held)


def own_seventh_card(state: HandData, player: str) -> None:
    """Check ``player``'s own down card on seventh street (RULES.md §4.1): refused when the
    deck cannot give every player still in his own, even reshuffled (:func:`seventh_street`).

    Raises:
        IllegalAction: seventh street can only be one community card.
    """
    seventh = seventh_street(state)
    if seventh is None or seventh.deal != "community":
        return
    raise state.fail(
        f"{player} cannot be dealt a seventh-street card: the {seventh.owed} players still in "
        f"need {seventh.owed} cards, but only {seventh.spare} of the deck's {deck_size(state)} "
        "are in no live hand (every card dealt counts, ?? too), so seventh street is one "
        "community card: d db CARD (RULES.md §4.1)")


def holder(state: HandData, card: str) -> tuple[str | None, str]:
    """Where a known card dealt earlier in the hand is: ``(player, how)``; ``player`` is None
    for a board card, ``how`` is ``"live"`` (on the board or in the hand of a player still
    in), ``"folded"``, ``"mucked"`` or ``"discarded"`` (thrown away in a draw by ``player``)."""
    if any(card in board for board in state.cards.boards):
        return None, "live"
    out = [p for p, hole in state.cards.hole.items() if card in hole]
    for p in out:
        if p not in state.folded and p not in state.mucked:
            return p, "live"
    if out:
        return out[0], "mucked" if out[0] in state.mucked else "folded"
    owner = state.cards.discarded.get(card)
    return owner, "discarded" if owner is not None else "live"


def redealt(state: HandData, card: str, position: int | None, to: str) -> str:
    """Accept ``card``, dealt before in this hand, as reshuffled and dealt again to ``to``
    (a player, or ``the board``) and return the note that says so (RULES.md §4.1; a draw's
    discards likewise).

    ``position``: the card's number off the deck in this hand (1 is the first card dealt), or
    None for a card shown at the showdown that was dealt unknown (then the deck must have run
    out by now).

    Raises:
        IllegalAction: the card is live ("card 3c is dealt twice: it was dealt first to
            Ann", "… first on the board"), or it was folded, mucked
            or discarded but the deck had not run out yet, or ``to`` discarded it in this
            draw (the reshuffle leaves out his own discards: module doc).
    """
    owner, how = holder(state, card)
    if how == "live" or owner is None:
        first = "on the board" if owner is None else f"to {owner}"
        raise state.fail(f"card {card} is dealt twice: it was dealt first {first}")
    fresh = deck_size(state) - burns(state)  # cards the deck gives before it runs out
    dealt = state.cards.dealt if position is None else position - 1
    if dealt < fresh:
        raise state.fail(
            f"card {card} is dealt twice: {owner} {how} it, but the deck has not run out "
            f"({dealt} of {deck_size(state)} cards dealt, {burns(state)} burned)")
    if how == "discarded" and owner == to and card in state.cards.thrown:
        raise state.fail(
            f"card {card} is dealt back to {to}, who discarded it in this draw: the reshuffle "
            "once the deck ran out leaves out the drawing player's own discards (RULES.md "
            "§4.1)")
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
            f"a community card replaces every player's seventh card, but {have} already got one")
    seventh = seventh_street(state)
    assert seventh is not None  # the last street of seven-card stud, nothing dealt on it yet
    live, left = seventh.owed, seventh.left
    if seventh.deal == "own":
        raise state.fail(
            f"a community card only when the deck runs out: {left} cards left for {live} "
            "players (RULES.md §4.1)")
    return (f"seventh street: the stub could not give the {live} players still in a card each "
            f"({left} left): {e.cards[0]}, face up, is the seventh card of every one of them "
            "(RULES.md §4.1)")
