"""`correct` and `undo` that leave a hand paid otherwise than the rules award go in (a
correction is the host's word) and warn on standard error in the lines `act … end` prints
(cli/dispute_text.py ``paid_otherwise_warnings``), naming whom the rules pay."""

from __future__ import annotations

import pytest

#: Ann's aces win the 6-chip pot (1/2 blinds, Cy on the button calls 2, all check down).
_PLAY = ("d dh Ann AsAd\nd dh Bob KsKd\nd dh Cy QsQd\nCy cc\nAnn cc\nBob cc\nd db 2c3d4h\n"
         "Ann cc\nBob cc\nCy cc\nd db 9s\nAnn cc\nBob cc\nCy cc\nd db Jc\nAnn cc\nBob cc\n"
         "Cy cc\npay Bob 6\nend\n")


def _warning(player: str, paid: int, rules: int) -> str:
    return (f"warning: paid differently from the rules: hand w1: {player} was paid {paid}, "
            f"the rules give {rules} ({paid - rules:+d}) (recorded as the table paid it; "
            "`handledger correct` puts it right)\n")


@pytest.fixture
def w1(user):  # noqa: ANN001, ANN201
    assert user("hand", "start", "--hand", "w1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy")[0] == 0
    code, out, err = user("table", "w1", input=_PLAY)
    assert (code, out.splitlines()[-1]) == (0, "23 hand_ended; hand complete")
    assert err == _warning("Ann", 0, 6) + _warning("Bob", 6, 0)  # as `act … end` warns
    return user


def test_a_correction_that_leaves_the_hand_paid_wrong_warns_as_end_does(w1) -> None:  # noqa: ANN001
    assert w1("correct", "w1", "--replace", "22", "pay Cy 6", "--reason",
              "pot to the wrong player", "--by", "host") == (
        0, "corrected hand w1 (seq 24); change in net: Bob -6, Cy +6; by the rules: "
           "unchanged\n", _warning("Ann", 0, 6) + _warning("Cy", 6, 0))
    assert w1("undo", "w1", "--by", "host") == (
        0, "undid the correction at seq 24 (by host: pot to the wrong player) in hand w1 "
           "(seq 25); change in net: Bob +6, Cy -6; by the rules: unchanged\n",
        _warning("Ann", 0, 6) + _warning("Bob", 6, 0))
    # paid as the rules award: no warning
    assert w1("correct", "w1", "--replace", "22", "pay Ann 6", "--reason", "Ann's aces",
              "--by", "host") == (
        0, "corrected hand w1 (seq 26); change in net: Ann +6, Bob -6; by the rules: "
           "unchanged\n", "")
    code, out, _ = w1("replay", "--hand", "w1")
    assert code == 0 and "0 paid differently from the rules" in out

