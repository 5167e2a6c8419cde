"""Eight players in seven-card stud run out of cards (RULES.md §4.1).

Two eight-handed hands dealt from one shuffled deck (seed 5) and played through pokerkit
first, every player calling: 8 × 6 = 48 cards are out after sixth street, four are left.
``RESHUFFLE``: p8 folds on sixth street, and seventh street deals the four left, then three of
p8's folded cards again (pokerkit's reshuffle of the muck). ``COMMUNITY``: nobody folds, and
the dealer turns one community card, 7h, every player's seventh. pokerkit plays both to the
same final stacks as the ledger.

Seventh street is one rule (engine.deck.seventh_street) for the engine and the live hint:
eight still in, nobody folded, is only a community card (their own cards, even ``??``, are
refused); seven with two folded get the five cards left after a burn a street; seven with one
folded are offered the community card, or a reshuffle.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import IllegalHand
from ledger.store.store import Ledger
from replay import live
from replay.build import events_from_phh
from replay.fold import replay_events
from replay.live.state import legal_now
from replay.nextstep import next_step
from tests.pokerkit_oracle import final_stacks

PLAYERS = [f"p{i}" for i in range(1, 9)]
THIRD = ["4sAh6d", "6hAs7d", "4dAc5h", "Jh8d7c", "QsQc6s", "8sTc3c", "Ad9c2h", "Jc9s8h"]
FOURTH = ["5c", "Th", "3d", "4c", "5d", "Kd", "Jd", "2c"]
FIFTH = ["Ts", "3h", "8c", "Qh", "9h", "7s", "3s", "4h"]
SIXTH = ["2s", "Kh", "5s", "9d", "2d", "Td", "Qd", "Kc"]
#: Seventh street of RESHUFFLE: the four cards left, then p8's Jc, 9s and 8h again.
SEVENTH = ["7h", "Ks", "6c", "Js", "Jc", "9s", "8h"]


def _deal(cards: list[str], players: list[str] = PLAYERS) -> list[str]:
    return [f"d dh {p} {c}" for p, c in zip(players, cards, strict=True)]


def _calls(first: int, players: list[str]) -> list[str]:
    """Everyone still in calls (checks) once, from seat ``first`` round the table."""
    ring = PLAYERS[first - 1:] + PLAYERS[: first - 1]
    return [f"{p} cc" for p in ring if p in players]


def _text(actions: list[str]) -> str:
    return (
        "variant = 'F7S'\nantes = [1, 1, 1, 1, 1, 1, 1, 1]\nbring_in = 1\nsmall_bet = 2\n"
        f"big_bet = 4\nstarting_stacks = {[100] * 8}\nactions = {actions!r}\n")


# p7's 2h brings it in; from fourth street p6 (3c Kd showing) acts first; on sixth street
# p3 bets 4.
_UP_TO_SIXTH = [
    *_deal(THIRD), "p7 pb", *_calls(8, PLAYERS)[:-1],
    *_deal(FOURTH), *_calls(6, PLAYERS), *_deal(FIFTH), *_calls(6, PLAYERS), *_deal(SIXTH),
    "p3 cbr 4", "p4 cc", "p5 cc", "p6 cc", "p7 cc",
]
LIVE = PLAYERS[:7]
RESHUFFLE = _text([*_UP_TO_SIXTH, "p8 f", "p1 cc", "p2 cc", *_deal(SEVENTH, LIVE),
                   *_calls(3, LIVE)])
COMMUNITY_ACTIONS = [*_UP_TO_SIXTH, "p8 cc", "p1 cc", "p2 cc", "d db 7h", *_calls(3, PLAYERS)]
COMMUNITY = _text([*COMMUNITY_ACTIONS, "p2 sm 6hAs7dTh3hKh7h", "p5 sm QsQc6s5d9h2d"])

REDEALT = [f"the deck ran out: p8's {c}, folded, was reshuffled and dealt again to {p} "
           "(RULES.md §4.1)" for c, p in (("Jc", "p5"), ("9s", "p6"), ("8h", "p7"))]
COMMUNITY_NOTE = ("seventh street: the stub could not give the 8 players still in a card each "
                  "(0 left): 7h, face up, is the seventh card of every one of them "
                  "(RULES.md §4.1)")


def _replay(text: str, file: str = "s.phh"):  # noqa: ANN202
    (hand,) = read_phh_text(text, file=file).check()
    return replay_events(events_from_phh(hand))


def _pokerkit(text: str) -> list[int]:
    with warnings.catch_warnings():  # it warns that it deals reserved (mucked) cards
        warnings.simplefilter("ignore")
        return [int(x) for x in final_stacks(text)]


def test_the_community_card_is_every_players_seventh() -> None:
    """All eight call to seventh street: pot 8 × 6 = 48. p2 (6h As 7d Th 3h Kh) makes a
    heart flush, K-T-7-6-3, only with the community 7h; without it p5's queens would win, and
    p6's tens would be tens and sevens. p2 shows his six cards with the 7h, p5 his six."""
    r = _replay(COMMUNITY)
    assert [(p.amount, p.eligible, p.awards) for p in r.result.pots] == [
        (48, tuple(PLAYERS), {"p2": 48})]
    assert r.result.lines == (
        "Main pot 48 (p1, p2, p3, p4, p5, p6, p7, p8): p2 wins 48 with flush, K-T-7-6-3.",)
    assert r.final_stacks == {p: 142 if p == "p2" else 94 for p in PLAYERS}
    assert r.notes[0] == COMMUNITY_NOTE
    assert _pokerkit(_text(COMMUNITY_ACTIONS)) == [r.final_stacks[p] for p in PLAYERS]


def test_a_folded_card_dealt_again_after_the_deck_ran_out_is_a_reshuffle() -> None:
    """p8 folds to p3's bet on sixth street (2 in); seventh street needs 7 cards, 4 are
    left: p5, p6 and p7 get p8's Jc, 9s, 8h. Pot 7 × 6 + 2 = 44 to p2's kings (Kh Ks, ace
    kicker) over p5's queens."""
    r = _replay(RESHUFFLE)
    assert r.final_stacks == {**{p: 94 for p in LIVE}, "p2": 138, "p8": 98}
    assert list(r.notes[:3]) == REDEALT
    assert _pokerkit(RESHUFFLE) == [r.final_stacks[p] for p in PLAYERS]


def test_a_live_card_is_never_dealt_again() -> None:
    """The deck has run out, but p1, still in, holds the 4s: refused as before."""
    text = RESHUFFLE.replace("'d dh p5 Jc'", "'d dh p5 4s'")
    with pytest.raises(IllegalHand) as err:
        _replay(text, file="r.phh")
    assert err.value.action == "d dh p5 4s" and err.value.file == "r.phh"
    line = str(err.value)
    assert line.startswith("r.phh:7, hand ")
    assert line.endswith(", action 'd dh p5 4s': card 4s is dealt twice: it was dealt first "
                         "to p1")


SMALL = """variant = 'F7S'
antes = [1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50, 50]
actions = ['d dh p1 AsKs4h', 'd dh p2 QhQd2c', 'd dh p3 7c8dJd', 'p2 pb', 'p3 f', 'p1 cc',
           {}]
"""


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("'d dh p1 8d', 'd dh p2 3d'",
         "card 8d is dealt twice: p3 folded it, but the deck has not run out "
         "(9 of 52 cards dealt, 2 burned)"),
        ("'d db 2s'", "no board cards in fixed-limit seven-card stud: only a community seventh "
                      "card, when the deck runs out (RULES.md §4.1)"),
    ],
)
def test_a_reshuffle_or_a_community_card_only_once_the_deck_ran_out(action: str,
                                                                    reason: str) -> None:
    with pytest.raises(IllegalHand) as err:
        _replay(SMALL.format(action), file="s.phh")
    assert str(err.value).endswith(reason)


def test_a_community_card_with_cards_left_for_everyone_is_refused() -> None:
    """p3 folds on third street, p1 and p2 go to seventh: 15 cards dealt, 32 left after a
    burn a street."""
    streets = ["'d dh p1 2s', 'd dh p2 3s'", "'d dh p1 4s', 'd dh p2 5s'",
               "'d dh p1 6s', 'd dh p2 7s'"]
    bets = "'p1 cc', 'p2 cc'"
    actions = ", ".join(f"{s}, {bets}" for s in streets) + ", 'd db 8s'"
    with pytest.raises(IllegalHand) as err:
        _replay(SMALL.format(actions))
    assert str(err.value).endswith(
        "a community card only when the deck runs out: 32 cards left for 2 players "
        "(RULES.md §4.1)")


def test_replay_show_and_export_keep_the_community_card(run, tmp_path: Path) -> None:  # noqa: ANN001
    """``replay`` and ``show`` print the notes; ``export --format phh`` writes ``d db 7h``
    back, and the exported file replays to the same stacks."""
    (tmp_path / "c.phh").write_text(COMMUNITY)
    # the same deal told two ways: the id tells them apart (without one, the second would be
    # refused as an edited copy of the first, known by its deal: README, PHH)
    (tmp_path / "r.phh").write_text(RESHUFFLE + "_hand_id = 'stud-reshuffled'\n")
    assert run("import", str(tmp_path / "c.phh"), str(tmp_path / "r.phh")).exit_code == 0
    replayed = [json.loads(line) for line in run("replay", "--json").output.splitlines()]
    by_notes = {h["notes"][0]: h for h in replayed}
    assert set(by_notes) == {COMMUNITY_NOTE, REDEALT[0]}
    reshuffled = by_notes[REDEALT[0]]
    assert reshuffled["notes"][:3] == REDEALT
    show = " ".join(run("show", reshuffled["hand"]).output.split())
    assert all(f"note: {n}" in show for n in REDEALT)
    assert f"note: {COMMUNITY_NOTE}" in " ".join(run("replay").output.split())
    community = by_notes[COMMUNITY_NOTE]["hand"]
    text = run("export", "--format", "phh", community).output
    assert "'d db 7h'" in text
    again = _replay(text)
    assert again.final_stacks == {p: 142 if p == "p2" else 94 for p in PLAYERS}
    assert again.notes[0] == COMMUNITY_NOTE


def _state(text: str):  # noqa: ANN202
    """The engine's state after every action of ``text`` (a PHH file)."""
    from engine.state import HandState

    (hand,) = read_phh_text(text).check()
    events = events_from_phh(hand)
    state = HandState.start(events[0])
    for e in events[1:]:
        state.apply(e)
    return state


#: The live hint and the refusal when eight players are still in on seventh street: 48 cards
#: are in their hands (?? counted), 4 are in none, and nobody folded, so no reshuffle can give
#: all eight their own card (RULES.md §4.1).
EIGHT_NEXT = ("phase deal, next: d db CARD (the community card, every player's seventh: the "
              "stub cannot give the 8 players still in a card each, RULES.md §4.1)")
EIGHT_REFUSED = ("{} cannot be dealt a seventh-street card: the 8 players still in need 8 "
                 "cards, but only 4 of the deck's 52 are in no live hand (every card dealt "
                 "counts, ?? too), so seventh street is one community card: d db CARD "
                 "(RULES.md §4.1)")


def test_eight_players_cannot_be_dealt_their_own_seventh_cards() -> None:
    """COMMUNITY up to seventh street: the hint asks for the community card, and the first
    hole card, known or unseen, is refused at its line; 56 cards never come off one deck."""
    assert next_step(_state(_text(COMMUNITY_ACTIONS[:COMMUNITY_ACTIONS.index("d db 7h")]))) \
        == EIGHT_NEXT
    for card in ("7h", "??"):
        text = COMMUNITY.replace("'d db 7h'", f"'d dh p1 {card}'")
        with pytest.raises(IllegalHand) as err:
            _replay(text, file="e.phh")
        assert str(err.value).startswith("e.phh:7, hand ")
        assert str(err.value).endswith(f", action 'd dh p1 {card}': {EIGHT_REFUSED.format('p1')}")


#: The live table's names for p1..p8 (a live seat may not be called p1: PHH's seat word).
NAMES = dict(zip(PLAYERS, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"], strict=True))


def _live(action: str) -> str:
    """A COMMUNITY action at the live table: each player by name, and every third-street
    down card unseen (``??``) but Bob's and Eve's (p2's and p5's)."""
    words = action.split()
    words = [NAMES.get(w, w) for w in words]
    if words[:2] == ["d", "dh"] and len(words[3]) == 6 and words[2] not in ("Bob", "Eve"):
        words[3] = "????" + words[3][4:]
    return " ".join(words)


def test_live_eight_players_are_refused_their_own_seventh_and_take_the_community_card(
        run, db: str) -> None:  # noqa: ANN001
    """The fresh user's table: eight players call to seventh street, six of them with their
    down cards dealt ``??``. ``d dh Ann ??`` is refused in one line naming the community card
    (nothing written), ``state`` asks for it, and ``d db 7h`` completes the hand: the six
    with unseen cards muck, and Bob's heart flush (6h Th 3h Kh with the community 7h) beats
    Eve's queens for the 48 in the pot."""
    Ledger(db).close()
    seats = ",".join(f"{n}:100" for n in NAMES.values())
    assert run("hand", "start", "--hand", "s8", "--game", "F7S", "--antes", "1", "--bring-in",
               "1", "--small-bet", "2", "--big-bet", "4", "--seats", seats).exit_code == 0
    actions = [_live(a) for a in COMMUNITY_ACTIONS]
    cut = actions.index("d db 7h")
    with Ledger(db) as ledger:
        for action in actions[:cut]:
            done = live.act(ledger, "s8", action)
        rows = ledger.count()
    assert legal_now(done.state) == EIGHT_NEXT
    out = run("act", "s8", "d dh Ann ??")
    assert (out.exit_code, out.output) == (
        2, f"error: hand s8, action 'd dh Ann ??': {EIGHT_REFUSED.format('Ann')}; now: "
           f"{EIGHT_NEXT}\n")
    with Ledger(db, read_only=True) as ledger:
        assert ledger.count() == rows
    assert EIGHT_NEXT in run("state", "s8").output.splitlines()
    out = run("act", "s8", "d db 7h")
    # the note the hand keeps of the community card, said as act deals it (RULES.md §4.1)
    assert out.output == (
        f"{done.seq + 1} cards_dealt; Cy to act: check, bet to 4..4\n"
        "note: seventh street: the stub could not give the 8 players still in a card each (0 "
        "left): 7h, face up, is the seventh card of every one of them (RULES.md §4.1)\n")
    with Ledger(db) as ledger:
        for action in [*actions[cut + 1:], "Bob sm 6hAs7dTh3hKh7h", "Eve sm QsQc6s5d9h2d",
                       *[f"{n} sm" for n in NAMES.values() if n not in ("Bob", "Eve")],
                       "end"]:
            live.act(ledger, "s8", action)
        result = live.now(ledger, "s8").result
    assert result.lines == ("Main pot 48 (Bob, Eve): Bob wins 48 with flush, K-T-7-6-3.",)
    assert result.final_stacks == {n: 142 if n == "Bob" else 94 for n in NAMES.values()}


#: Seven players: p1's 2c brings it in and all call; p5's open eights act first on fourth
#: street, p2's nines on fifth and sixth, where p2 bets 4 and p4 and p6 fold. 21 + 3 × 7 = 42
#: cards dealt and one burn on each of the five streets: 52 - 42 - 5 = 5 cards left for the
#: five players still in, just enough.
SEVEN = [f"p{i}" for i in range(1, 8)]
SEVEN_THIRD = ["AsKs2c", "QhQd9s", "3h4hTh", "7d7cJd", "5s6s8h", "2d2hKd", "AcAdQc"]
SEVEN_STREETS = [["3c", "4c", "5c", "6c", "8c", "9c", "Tc"],
                 ["Js", "9h", "Jc", "3d", "4d", "5d", "6d"],
                 ["8d", "9d", "Td", "4s", "7s", "Ts", "2s"]]
SEVEN_UP_TO_SEVENTH = [
    *_deal(SEVEN_THIRD, SEVEN), "p1 pb", *[f"{p} cc" for p in SEVEN[1:]],
    *_deal(SEVEN_STREETS[0], SEVEN), *[f"{p} cc" for p in SEVEN[4:] + SEVEN[:4]],
    *_deal(SEVEN_STREETS[1], SEVEN), *[f"{p} cc" for p in SEVEN[1:] + SEVEN[:1]],
    *_deal(SEVEN_STREETS[2], SEVEN), "p2 cbr 4", "p3 cc", "p4 f", "p5 cc", "p6 f", "p7 cc",
    "p1 cc"]
SEVEN_LIVE = ["p1", "p2", "p3", "p5", "p7"]


def _seven(actions: list[str]) -> str:
    return (f"variant = 'F7S'\nantes = {[1] * 7}\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
            f"starting_stacks = {[100] * 7}\nactions = {actions!r}\n")


def test_seven_players_five_left_on_seventh_street_get_their_own_cards() -> None:
    """The five cards left serve the five still in: the hint asks for their own cards, a
    community card is refused, and they play out. p2's Qs makes queens full of nines (Qh Qd
    Qs, 9s 9h 9d) over p5's eight-high straight (4d 5s 6s 7s 8h), p1's kings, p3's tens and
    fives, p7's aces: pot 7 antes + 7 on third street + 5 × 4 on sixth = 34."""
    state = _state(_seven(SEVEN_UP_TO_SEVENTH))
    assert next_step(state) == ("phase deal, next: d dh p1 CARDS (1 card, ?? for each unseen "
                                "card); then p2, p3, p5, p7")
    with pytest.raises(IllegalHand) as err:
        _replay(_seven([*SEVEN_UP_TO_SEVENTH, "d db Kh"]))
    assert str(err.value).endswith(
        "a community card only when the deck runs out: 5 cards left for 5 players "
        "(RULES.md §4.1)")
    text = _seven([*SEVEN_UP_TO_SEVENTH, *_deal(["Kh", "Qs", "5h", "7h", "Kc"], SEVEN_LIVE),
                   *[f"{p} cc" for p in SEVEN_LIVE[1:] + SEVEN_LIVE[:1]]])
    r = _replay(text)
    assert r.result.lines == (
        "Main pot 34 (p1, p2, p3, p5, p7): p2 wins 34 with full house, queens full of nines.",)
    assert r.final_stacks == {**{p: 94 for p in SEVEN_LIVE}, "p2": 128, "p4": 98, "p6": 98}
    assert _pokerkit(text) == [r.final_stacks[p] for p in SEVEN]


def test_seven_players_six_left_may_take_the_community_card_or_a_reshuffle() -> None:
    """Only p4 folds on sixth street: six still in, five cards left after the burns. The
    dealer turns a community card (RULES.md §4.1), the hint names it first; the 16 cards in
    no live hand (p4's six, the burns and the stub) could serve a reshuffle, which a history
    may record instead, so p1's own card is taken."""
    actions = [a for a in SEVEN_UP_TO_SEVENTH if a != "p6 f"]
    actions.insert(actions.index("p7 cc", actions.index("p2 cbr 4")), "p6 cc")
    state = _state(_seven(actions))
    assert next_step(state) == (
        "phase deal, next: d db CARD (the community card, every player's seventh: the stub "
        "cannot give the 6 players still in a card each, RULES.md §4.1); or, reshuffling the "
        "burned and folded cards, d dh p1 CARDS (1 card, ?? for each unseen card); then p2, "
        "p3, p5, p6, p7")
    assert _replay(_seven([*actions, "d db Kh"])).notes[0] == (
        "seventh street: the stub could not give the 6 players still in a card each (5 left): "
        "Kh, face up, is the seventh card of every one of them (RULES.md §4.1)")
    assert _state(_seven([*actions, "d dh p1 ??"])).cards.hole["p1"][-1] == "??"
