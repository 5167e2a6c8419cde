"""Mucks at the showdown above a shorter all-in (RULES.md §1.2, §1.5, §1.6): a player who
mucks gives up the pots another player still contests, never a pot nobody else can win. Cy
is all-in for 100; Ann (200) and Bob (150) both muck; Cy shows. The main pot (300: 100 of
each) is Cy's; the side pot (100: 50 of Ann, 50 of Bob) cannot be Cy's, who put in only 100
(§1.2): it stays with whichever of Ann and Bob mucked last, who was then alone in it; Ann's
50 above Bob's 150 is uncalled and goes back to her (§1.4). Chips checked by hand: 450 on
the table before and after."""

from __future__ import annotations

import json

import pytest

from engine.pots import Pot, claimed

_PLAY = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy QsQh", "Cy cc", "Ann cbr 200", "Bob cc",
         "Cy cc", "d db 2c7d9h", "d db Td", "d db 3s")


def _played(user, mucks: tuple[str, str]) -> dict:  # noqa: ANN001
    code, _, err = user("hand", "start", "--hand", "m", "--game", "NT", "--stakes", "1/2",
                        "--seats", "Ann:200,Bob:150,Cy:100", "--button", "Cy")
    assert (code, err) == (0, "")
    for action in (*_PLAY, *mucks, "Cy sm QsQh", "end"):
        code, _, err = user("act", "m", action)
        assert (code, err) == (0, ""), action
    code, out, err = user("replay", "--hand", "m", "--json")
    assert code == 0, err
    return json.loads(out.splitlines()[0])


@pytest.mark.parametrize(("mucks", "kept_by"), [
    (("Bob sm", "Ann sm"), "Ann"),  # Bob mucks first: Ann is then alone in the side pot
    (("Ann sm", "Bob sm"), "Bob"),
])
def test_the_side_pot_stays_with_the_last_of_its_players_to_muck(user, mucks, kept_by) -> None:  # noqa: ANN001
    hand = _played(user, mucks)
    pots = [(p["amount"], p["eligible"], p["awards"]) for p in hand["pots"]]
    assert pots == [(300, ["Cy"], {"Cy": 300}), (100, [kept_by], {kept_by: 100})]
    back = {"Ann": 50 + (100 if kept_by == "Ann" else 0), "Bob": 100 if kept_by == "Bob" else 0}
    assert hand["final_stacks"] == {"Ann": back["Ann"], "Bob": back["Bob"], "Cy": 300}
    assert sum(hand["final_stacks"].values()) == 450


def test_show_says_who_takes_each_pot(user) -> None:  # noqa: ANN001
    _played(user, ("Bob sm", "Ann sm"))
    code, out, _ = user("show", "m")
    assert code == 0
    assert out.splitlines()[-4:] == [
        "    no payout recorded: stacks as the rules award (Ann 150, Cy 300)",
        "    Main pot 300 (Cy): Cy takes 300: Bob and Ann mucked, nobody else is eligible.",
        "    Side pot 1 100 (Ann): Ann takes 100 (the last to muck): Bob mucked, nobody else "
        "is eligible.",
        "    uncalled returned: Ann 50",
    ]


def test_a_mucked_level_between_the_others_makes_no_pot_of_its_own() -> None:
    # b mucks at 30 between a's and c's 60: the layers at 30 and 60 have the same players left
    pots = [Pot(90, ("a", "b", "c")), Pot(60, ("a", "c"))]
    assert claimed(pots, ["b"]) == [Pot(150, ("a", "c"))]


def test_show_names_who_mucked_each_pot_away_in_either_order(user) -> None:  # noqa: ANN001
    """Ann mucks first, then Bob: the side pot stays with Bob, who mucked last; each line
    names the players who gave its pot up, in the order they mucked."""
    _played(user, ("Ann sm", "Bob sm"))
    code, out, _ = user("show", "m")
    assert code == 0
    assert out.splitlines()[-3:] == [
        "    Main pot 300 (Cy): Cy takes 300: Ann and Bob mucked, nobody else is eligible.",
        "    Side pot 1 100 (Bob): Bob takes 100 (the last to muck): Ann mucked, nobody else "
        "is eligible.",
        "    uncalled returned: Ann 50",
    ]


#: One pot, no all-in: Cy raises to 12, Ann folds her small blind (1), Bob calls; checked down.
#: The pot is 25 (12 + 12 + 1); Bob mucks, so it is Cy's: Ann 99, Bob 88, Cy 113 (300 in all).
_ONE_POT = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy QsQh", "Cy cbr 12", "Ann f", "Bob cc",
            "d db 2c7d9h", "Bob cc", "Cy cc", "d db Td", "Bob cc", "Cy cc", "d db 3s", "Bob cc",
            "Cy cc", "Bob sm")


@pytest.mark.parametrize(("last", "line"), [
    ("Cy sm", "    Main pot 25 (Cy): Cy takes 25 (the last to muck): Bob mucked, nobody else is "
              "eligible."),  # Cy mucks too, alone in the hand: said as the side pot's last
    ("Cy sm QsQh", "    Main pot 25 (Cy): Cy takes 25: Bob mucked, nobody else is eligible."),
])
def test_the_last_to_muck_in_a_single_pot_is_said_so(user, last, line) -> None:  # noqa: ANN001
    code, _, err = user("hand", "start", "--hand", "one", "--game", "NT", "--stakes", "1/2",
                        "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy")
    assert (code, err) == (0, "")
    for action in (*_ONE_POT, last, "end"):
        code, _, err = user("act", "one", action)
        assert (code, err) == (0, ""), action
    code, out, _ = user("show", "one")
    assert code == 0
    assert out.splitlines()[-3:] == [
        " 21 hand_ended                   pot 0 [Ann:99 Bob:88 Cy:113] showdown",
        "    no payout recorded: stacks as the rules award (Cy 25)", line]
