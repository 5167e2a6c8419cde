"""Eight players in seven-card stud run out of cards (RULES.md §4.1).

Two eight-handed hands dealt from one shuffled deck (seed 5) and played through pokerkit
first, every player calling: 8 × 6 = 48 cards are out after sixth street, four are left.
``RESHUFFLE``: p8 folds on sixth street, and seventh street deals the four left, then three of
p8's folded cards again (pokerkit's reshuffle of the muck). ``COMMUNITY``: nobody folds, and
the dealer turns one community card, 7h, every player's seventh. pokerkit plays both to the
same final stacks as the ledger.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import IllegalHand
from replay.build import events_from_phh
from replay.fold import replay_events
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
    assert line.endswith(", action 'd dh p5 4s': card 4s is dealt twice")


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
    (tmp_path / "r.phh").write_text(RESHUFFLE)
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
