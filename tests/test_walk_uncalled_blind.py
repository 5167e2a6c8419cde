"""A walk to the big blind (RULES.md §1.4: an uncalled bet is returned before the pots are
formed): heads-up at 1/2, Ann on the button posts 1, Bob 2, Ann folds. Bob's blind is called
only as far as Ann's 1: the pot is 2 (1 each), and Bob's other 1 is returned to him, 3 in all
to pay. ``state`` and a payout's refusal name them alike: the pot of 2 and the 1 returned, never
"the pot holds 3"."""

from __future__ import annotations

START = ("hand", "start", "--hand", "w1", "--game", "NT", "--stakes", "1/2", "--seats",
         "Ann:200,Bob:150", "--button", "Ann")
WALK = ("d dh Bob ????", "d dh Ann ????", "Ann f")
NEXT = "now: phase no showdown, next: pay PLAYER AMOUNT or end"


def _walk(user) -> None:  # noqa: ANN001
    assert user(*START)[0] == 0
    for action in WALK:
        assert user("act", "w1", action)[0] == 0, action


def test_state_and_the_refusal_name_the_pot_and_the_returned_blind_alike(user) -> None:  # noqa: ANN001
    _walk(user)
    assert user("act", "w1", "returned Bob 1")[0] == 0
    code, out, _ = user("state", "w1")
    assert out.splitlines()[2:5] == ["Main pot: 2 (Bob)", "returned: Bob 1",
                                     "paid so far: Bob 1 (1 of 3: the pot's 2 and Bob's 1 "
                                     "returned)"]
    assert user("act", "w1", "pay Bob 3") == (
        2, "", "error: hand w1, action 'pay Bob 3': the pot holds 2 and Bob's uncalled bet of 1 "
        "is returned to Bob (RULES.md §1.4): 3 to pay, 1 already paid: at most 2 more can be "
        f"paid; {NEXT}\n")
    assert user("act", "w1", "pay Bob 2")[0] == 0
    assert user("state", "w1")[1].splitlines()[4] == (
        "paid so far: Bob 3 (3 of 3: the pot's 2 and Bob's 1 returned)")
    assert user("act", "w1", "end")[0] == 0


def test_one_payout_of_pot_and_blind_is_taken_and_more_is_refused(user) -> None:  # noqa: ANN001
    _walk(user)
    assert user("act", "w1", "pay Bob 3")[0] == 0  # PHH pays the pot and the bet as one
    assert user("act", "w1", "pay Bob 1") == (
        2, "", "error: hand w1, action 'pay Bob 1': the pot holds 2 and Bob's uncalled bet of 1 "
        "is returned to Bob (RULES.md §1.4): 3 to pay, 3 already paid: nothing more can be "
        f"paid; {NEXT}\n")
