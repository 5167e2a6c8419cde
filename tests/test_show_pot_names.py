"""``show`` names the pots of a hand in play as ``state`` does (RULES.md §1.2: the main pot,
then side pots 1, 2, …), never ``pot 0``."""

from __future__ import annotations


def _play(run, hand: str, seats: str, actions: list[str]) -> None:  # noqa: ANN001
    assert run("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2",
               "--seats", seats, "--button", "Ann").exit_code == 0
    for action in actions:
        result = run("act", hand, action)
        assert result.exit_code == 0, result.output


def test_the_blinds_alone_are_the_main_pot_in_show_and_state(run) -> None:  # noqa: ANN001
    _play(run, "h1", "Ann:100,Bob:100", ["d dh Bob ????", "d dh Ann ????"])
    assert run("show", "h1").output.splitlines() == [
        "hand h1: NT, button Ann; seats Bob 100, Ann 100",
        "  2 Bob posts big blind 2        pot 2 [Bob:98 Ann:100] forced",
        "  3 Ann posts small blind 1      pot 3 [Bob:98 Ann:99] forced",
        "  4 d dh Bob ????                pot 3 [Bob:98 Ann:99] deal",
        "  5 d dh Ann ????                pot 3 bet 2 [Bob:98 Ann:99] bet → Ann",
        "    Main pot: 3 (Bob, Ann)"]
    assert "Main pot: 3 (Bob, Ann)" in run("state", "h1").output.splitlines()


def test_a_side_pot_is_side_pot_1_in_show_and_state(run) -> None:  # noqa: ANN001
    """Bob all-in for 30, called by Ann and Cy (90: 30 each); Cy's raise to 60, called by
    Ann, is 60 more that Bob cannot win."""
    _play(run, "h2", "Ann:100,Bob:30,Cy:100",
          ["d dh Bob ????", "d dh Cy ????", "d dh Ann ????", "Ann cbr 30", "Bob cc",
           "Cy cbr 60", "Ann cc"])
    pots = ["Main pot: 90 (Bob, Cy, Ann)", "Side pot 1: 60 (Cy, Ann)"]
    assert run("show", "h2").output.splitlines()[-2:] == [f"    {p}" for p in pots]
    assert run("state", "h2").output.splitlines()[2:4] == pots
