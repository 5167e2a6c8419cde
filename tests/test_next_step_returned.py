"""At the showdown of a hand with an uncalled bet, once a payout is recorded, the ``next:``
line offers the ``returned PLAYER AMOUNT`` that ``end`` waits for (RULES.md §1.4), in the
notation its refusal names; raked or not."""

from __future__ import annotations

# Ann (250) shoves, Bob and Cy (200 each) call all-in: a pot of 600, Ann's 50 uncalled;
# Ann's aces hold
PLAYED = ("d dh Ann AsAh\nd dh Bob KsKh\nd dh Cy QsQh\nAnn cbr 250\nBob cc\nCy cc\n"
          "d db 2c3d7h\nd db 8s\nd db 9c\nAnn sm AsAh\nBob sm KsKh\nCy sm QsQh\n")
BACK = "returned Ann 50 (the uncalled bet, in no pot: RULES.md §1.4)"


def _start(user) -> None:  # noqa: ANN001
    assert user("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:250,Bob:200,Cy:200", "--button", "Ann", "--hand", "r1")[0] == 0
    assert user("table", "r1", input=PLAYED)[0] == 0


def test_a_raked_pot_paid_leaves_the_uncalled_bet_to_return(user) -> None:  # noqa: ANN001
    _start(user)
    assert user("table", "r1", input="rake 10\npay Ann 500\npay Ann 90\n")[1].splitlines() == [
        "16 recorded_rake; phase showdown, next: pay PLAYER AMOUNT (the pot less the rake "
        "of 10), then end",
        f"17 recorded_payout; phase showdown, next: {BACK}, pay PLAYER AMOUNT, then end",
        f"18 recorded_payout; phase showdown, next: {BACK}, then end"]
    assert user("state", "r1")[1].splitlines()[1] == f"phase showdown, next: {BACK}, then end"
    refused = user("act", "r1", "end")
    assert refused[:2] == (2, "")
    assert refused[2].endswith("(an uncalled bet is returned, never raked: returned Ann 50); "
                               "record the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT "
                               "for an uncalled bet) first\n")
    assert user("table", "r1", input="returned Ann 50\nend\n")[1].splitlines() == [
        "19 recorded_payout; phase showdown, next: pay PLAYER AMOUNT or end",
        "20 hand_ended; hand complete"]


def test_an_unraked_pot_paid_leaves_the_uncalled_bet_to_return(user) -> None:  # noqa: ANN001
    _start(user)
    assert user("act", "r1", "pay Ann 600")[1] == (
        f"16 recorded_payout; phase showdown, next: {BACK}, then end\n")
    assert user("act", "r1", "returned Ann 50")[1] == (
        "17 recorded_payout; phase showdown, next: pay PLAYER AMOUNT or end\n")
    assert user("act", "r1", "end")[:2] == (0, "18 hand_ended; hand complete\n")


def test_a_payout_with_the_uncalled_bet_in_it_needs_no_return(user) -> None:  # noqa: ANN001
    """``pay Ann 650`` pays the pot and gives the uncalled bet back as one (PHH)."""
    _start(user)
    assert user("act", "r1", "pay Ann 650")[1] == (
        "16 recorded_payout; phase showdown, next: pay PLAYER AMOUNT or end\n")
    assert user("act", "r1", "end")[0] == 0
