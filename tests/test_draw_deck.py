"""A draw's discards are dealt again only once the deck has run out (RULES.md §4.1, §4.2).

The discards go back into play when the stub cannot give the replacements a draw needs; until
then a discarded card is out of the hand, and dealing it again (to the player who threw it or
to another) is refused as stud refuses a folded card dealt again: "card 2c is dealt twice: A
discarded it, but the deck has not run out", live (``act``) and in an imported file alike.

``SIX``: six players of fixed-limit five-card draw, dealt 30 cards from a fresh deck in order
(2c … 5h); everyone draws five. The stub holds 52 - 30 - 2 burns (one before the deal, one
before the draw) = 20 cards, 6h … Qs: p1 … p4 get them, and p5's five are p1's discards
reshuffled (RULES.md §4.1, a note each). p6 stands pat, p1 bets and the others fold.
"""

from __future__ import annotations

import pytest

from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import IllegalHand
from ledger.store.store import Ledger
from replay.build import events_from_phh
from replay.fold import replay_events

LIVE_F5D = ("hand", "start", "--hand", "d1", "--game", "F5D", "--antes", "1", "--small-bet",
            "2", "--big-bet", "4", "--seats", "A:50,B:50", "--button", "B")
BEFORE_DRAW = ["d dh A 2c3c4c5c6c", "d dh B 2d3d4d5d6d", "A cc", "B cc"]

HOLE = ["2c3c4c5c6c", "7c8c9cTcJc", "QcKcAc2d3d", "4d5d6d7d8d", "9dTdJdQdKd", "Ad2h3h4h5h"]
STUB = ["6h7h8h9hTh", "JhQhKhAh2s", "3s4s5s6s7s", "8s9sTsJsQs"]


def _six(p4: str = STUB[3], p5: str = HOLE[0]) -> str:
    deals = [f"d dh p{i} {c}" for i, c in enumerate(HOLE, 1)]
    calls = ["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc"]
    draws = [f"p{i} sd {c}" for i, c in enumerate(HOLE[:5], 1)] + ["p6 sd"]
    replacements = [f"d dh p{i} {c}" for i, c in enumerate([*STUB[:3], p4, p5], 1)]
    after = ["p1 cbr 4", "p2 f", "p3 f", "p4 f", "p5 f", "p6 f"]
    return ("variant = 'F5D'\nantes = [0, 0, 0, 0, 0, 0]\n"
            "blinds_or_straddles = [1, 2, 0, 0, 0, 0]\nsmall_bet = 2\nbig_bet = 4\n"
            "starting_stacks = [50, 50, 50, 50, 50, 50]\n"
            f"actions = {[*deals, *calls, *draws, *replacements, *after]!r}\n")


def _replay(text: str, file: str = "d.phh"):  # noqa: ANN202
    (hand,) = read_phh_text(text, file=file).check()
    return replay_events(events_from_phh(hand))


def test_a_discard_dealt_again_after_the_stub_ran_out_is_a_reshuffle() -> None:
    """Pot 6 x 2 = 12 before the draw; p1's bet of 4 is uncalled: p1 ends at 50 - 2 + 12 = 60,
    everyone else at 48."""
    r = _replay(_six())
    assert r.final_stacks == {"p1": 60, **{f"p{i}": 48 for i in range(2, 7)}}
    assert list(r.notes[:5]) == [
        f"the deck ran out: p1's {c}, discarded, was reshuffled and dealt again to p5 "
        "(RULES.md §4.1)" for c in ("2c", "3c", "4c", "5c", "6c")]


def test_an_imported_discard_dealt_again_before_the_deck_ran_out_is_refused() -> None:
    """p4's last replacement is p1's 2c instead of the Qs: 49 cards are out before it, one
    fresh card is left (52 - 49 - 2 burns)."""
    with pytest.raises(IllegalHand) as err:
        _replay(_six(p4="8s9sTsJs2c", p5="Qs????????"), file="d.phh")
    assert err.value.action == "d dh p4 8s9sTsJs2c"
    line = str(err.value)
    assert line.startswith("d.phh:7, hand ")
    assert line.endswith(
        ", action 'd dh p4 8s9sTsJs2c': card 2c is dealt twice: p1 discarded it, but the deck "
        "has not run out (49 of 52 cards dealt, 2 burned)")


@pytest.mark.parametrize(("draw", "deal", "reason"), [
    ("A sd 2c", "d dh A 2c", "card 2c is dealt twice: A discarded it, but the deck has not run "
     "out (10 of 52 cards dealt, 2 burned)"),
    ("A sd 6c5c", "d dh A 7h6c", "card 6c is dealt twice: A discarded it, but the deck has not "
     "run out (11 of 52 cards dealt, 2 burned)"),
])
def test_live_a_player_is_not_dealt_his_own_discard(user, db: str, draw: str, deal: str,  # noqa: ANN001
                                                    reason: str) -> None:
    """42 cards unseen after the deal (52 - 10): refused, nothing written, and the draw waits
    for A's replacements as before."""
    Ledger(db).close()
    assert user(*LIVE_F5D)[0] == 0
    for line in [*BEFORE_DRAW, draw]:
        assert user("act", "d1", line)[0] == 0
    code, out, err = user("act", "d1", deal)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: hand d1, action '{deal}': {reason}; now: phase draw, next: "
                          "d dh A CARDS")
    assert user("act", "d1", deal.replace("6c", "??").replace("2c", "??"))[0] == 0


def test_live_a_discard_is_not_dealt_to_the_next_player(user, db: str) -> None:  # noqa: ANN001
    """Triple draw, heads-up: A throws his 9h and draws the 2s; B throws his Kd and is dealt
    A's 9h with 41 cards unseen (52 - 10 - 1 after A's replacement)."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "t1", "--game", "F2L3D", "--stakes", "1/2",
                "--small-bet", "2", "--big-bet", "4", "--seats", "A:50,B:50", "--button",
                "B")[0] == 0
    for line in ["d dh A 7c5d4h3s9h", "d dh B 8c6d5h4sKd", "B cc", "A cc", "A sd 9h",
                 "d dh A 2s", "B sd Kd"]:
        code, _, err = user("act", "t1", line)
        assert code == 0, err
    code, _, err = user("act", "t1", "d dh B 9h")
    assert code == 2
    assert err.startswith("error: hand t1, action 'd dh B 9h': card 9h is dealt twice: A "
                          "discarded it, but the deck has not run out (11 of 52 cards dealt, "
                          "2 burned); now: phase draw, next: d dh B CARDS")


def test_a_reshuffle_never_deals_a_player_his_own_discards_of_the_draw() -> None:
    """The stub runs out before p5's replacements (50 cards dealt, 2 burned), as in ``SIX``;
    p5 is dealt p1's 2c 3c 4c 5c and his own Kd, thrown in this draw: refused at his Kd."""
    with pytest.raises(IllegalHand) as err:
        _replay(_six(p5="2c3c4c5cKd"))
    assert err.value.action == "d dh p5 2c3c4c5cKd"
    assert str(err.value).endswith(
        ", action 'd dh p5 2c3c4c5cKd': card Kd is dealt back to p5, who discarded it in this "
        "draw: the reshuffle once the deck ran out leaves out the drawing player's own discards "
        "(RULES.md §4.1)")


def _triple(second: str) -> str:
    """Six players of 2-7 triple draw dealt ``HOLE``; in the first draw p1 … p4 throw their
    five and take the stub's 20 cards (``STUB``: 30 + 20 dealt, 2 burned, the deck is out),
    p5 and p6 stand pat; all check; in the second draw p1 throws his 6h and is dealt
    ``second``, the others stand pat; p1 bets 4 and everyone folds."""
    deals = [f"d dh p{i} {c}" for i, c in enumerate(HOLE, 1)]
    first = [f"p{i} sd {c}" for i, c in enumerate(HOLE[:4], 1)] + ["p5 sd", "p6 sd"]
    first += [f"d dh p{i} {c}" for i, c in enumerate(STUB, 1)]
    checks = [f"p{i} cc" for i in range(1, 7)]
    again = ["p1 sd 6h", f"d dh p1 {second}", "p2 sd", "p3 sd", "p4 sd", "p5 sd", "p6 sd"]
    after = ["p1 cbr 4", "p2 f", "p3 f", "p4 f", "p5 f", "p6 f"]
    calls = ["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc"]
    return ("variant = 'F2L3D'\nantes = [0, 0, 0, 0, 0, 0]\n"
            "blinds_or_straddles = [1, 2, 0, 0, 0, 0]\nsmall_bet = 2\nbig_bet = 4\n"
            "starting_stacks = [50, 50, 50, 50, 50, 50]\n"
            f"actions = {[*deals, *calls, *first, *checks, *again, *after]!r}\n")


def test_a_discard_of_an_earlier_draw_may_come_back_to_its_player() -> None:
    """p1's 2c, thrown in the first draw, is in the second draw's reshuffle (the deck ran out:
    50 dealt, 3 burned): accepted with its note. Pot 6 x 2 = 12; p1's bet of 4 is uncalled:
    p1 ends at 50 - 2 + 12 = 60, everyone else at 48."""
    r = _replay(_triple("2c"))
    assert r.final_stacks == {"p1": 60, **{f"p{i}": 48 for i in range(2, 7)}}
    assert list(r.notes[:1]) == [
        "the deck ran out: p1's 2c, discarded, was reshuffled and dealt again to p1 "
        "(RULES.md §4.1)"]


def test_a_discard_of_this_draw_does_not_come_back_to_its_player() -> None:
    with pytest.raises(IllegalHand) as err:
        _replay(_triple("6h"))
    assert str(err.value).endswith(
        ", action 'd dh p1 6h': card 6h is dealt back to p1, who discarded it in this draw: the "
        "reshuffle once the deck ran out leaves out the drawing player's own discards (RULES.md "
        "§4.1)")
