"""Once the betting is over the uncalled chips go back (RULES.md §1.4), before the board is
out: README "Pots while the betting goes on".

A 50 (AsAh), B 100 (KsKh), C 30 (7c2d), A on the button, B small blind 1, C big blind 2: A
shoves 50, B 100, C calls all in for 30. Nobody can bet any more: pot 0 is 30 x 3 = 90 (B, C,
A), pot 1 is 20 x 2 = 40 (B, A), and B's 50 above A's 50 is uncalled, returned to him, no pot
of his alone. While the betting went on (B to act after A's shove) the pots were as the table
names them. The cards are known, yet nothing is awarded before the showdown.
"""

from __future__ import annotations

from ledger.store.store import Ledger

START = ("hand", "start", "--hand", "p1", "--game", "NT", "--stakes", "1/2", "--seats",
         "A:50,B:100,C:30", "--button", "A")
DEAL = ["d dh B KsKh", "d dh C 7c2d", "d dh A AsAh"]


def _play(user, *actions: str) -> None:  # noqa: ANN001
    for action in actions:
        code, _, err = user("act", "p1", action)
        assert code == 0, err


def test_state_returns_the_uncalled_bet_once_the_betting_is_over(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user(*START)[0] == 0
    _play(user, *DEAL, "A cbr 50")
    assert user("state", "p1") == (0, (
        "hand p1: NT, phase bet, status open\n"
        "B to act: to call 49, raise to 98..100\n"
        "current bet 50\n"
        "Main pot: 53 (B, C, A)\n"
        "stacks: B 99 bet 1, C 28 bet 2, A 0 bet 50\n"
        "seats as pN: p1 B, p2 C, p3 A (p1 sits left of the button: PHH's order, not "
        "--seats')\n"), "")
    _play(user, "B cbr 100", "C cc")
    assert user("state", "p1") == (0, (
        "hand p1: NT, phase deal, status open\n"
        "phase deal, next: d db CARDS (3 cards)\n"
        "Main pot: 90 (B, C, A)\n"
        "Side pot 1: 40 (B, A)\n"
        "returned: B 50\n"
        "stacks: B 50, C 0, A 0\n"  # the round over: its bets in the pots, B's 50 back
        "seats as pN: p1 B, p2 C, p3 A (p1 sits left of the button: PHH's order, not "
        "--seats')\n"), "")
    code, out, _ = user("show", "p1")
    assert code == 0 and out.splitlines()[-1].strip() == "uncalled returned: B 50"
    # the board dealt: still returned
    _play(user, "d db 2c3d4h", "d db 9s", "d db Td")
    assert "returned: B 50\n" in user("state", "p1")[1]


def test_show_s_pot_is_state_s_once_the_uncalled_bet_is_back(user, db: str) -> None:  # noqa: ANN001
    """Heads-up, Ann on the button: blinds Ann 1, Bob 2; Ann raises to 100, Bob calls all in
    for 50: the pot is 50 x 2 = 100 and Ann's 50 nobody called goes back to her stack (RULES.md
    §1.4). ``show``'s row says so as ``state`` does, until ``pay`` and ``returned`` are
    recorded (unknown cards: the rules award nothing): 100 + 0 + 50 = the 150 chips."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "u1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:50", "--button", "Ann")[0] == 0
    for action in ("d dh Bob ????", "d dh Ann ????", "Ann cbr 100", "Bob cc"):
        assert user("act", "u1", action)[0] == 0
    assert user("state", "u1")[1].splitlines()[2:5] == [
        "Main pot: 100 (Bob, Ann)", "returned: Ann 50", "stacks: Bob 0, Ann 50"]
    assert user("show", "u1")[1].splitlines()[-4:] == [
        "  6 Ann cbr 100                  pot 102 bet 100 [Bob:48 Ann:0] bet → Bob",
        "  7 Bob cc                       pot 100 [Bob:0 Ann:50] deal",
        "    Main pot: 100 (Bob, Ann)",
        "    uncalled returned: Ann 50"]
    for action in ("d db ??????", "d db ??", "d db ??", "pay Bob 100", "returned Ann 50", "end"):
        assert user("act", "u1", action)[0] == 0
    assert user("show", "u1")[1].splitlines()[-6:-1] == [
        " 10 d db ??                      pot 100 [Bob:0 Ann:50] showdown",
        " 11 pay Bob 100                  pot 0 [Bob:100 Ann:50] showdown",
        " 12 returned Ann 50              pot 0 [Bob:100 Ann:50] showdown",
        " 13 hand_ended                   pot 0 [Bob:100 Ann:50] showdown",
        "    Main pot 100 (Bob, Ann): cannot be checked, unknown cards for Bob, Ann, the board."]


FOUR = ("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats",
        "A:100,B:50,C:30,D:200", "--button", "D")


def test_a_live_hand_s_uncalled_bet_left_out_is_the_table_s_not_a_site_s(user, db: str) -> None:  # noqa: ANN001
    """A 100, B 50, C 30, D 200, D on the button: C shoves 30, D 200, A calls all in for 100
    (typed as a raise to 100: recorded as the call it is, said in a note), B calls all in for
    50. Main pot 30 x 4 = 120 (C's queens), side pot 1 20 x 3 = 60 and side pot 2 50 x 2 = 100
    (A's aces), D's 100 above A's 100 uncalled. Paid C 120 and A 160, the 100 to return to D
    is left out: the note says the table (typed live, no site) left it out, and `end` says how
    much of the 380 is paid in one sentence (RULES.md §1.4)."""
    Ledger(db).close()
    assert user(*FOUR)[0] == 0
    for action in ["d dh A AsAh", "d dh B KsKh", "d dh C QsQh", "d dh D JsJh", "C cbr 30",
                   "D cbr 200"]:
        assert user("act", "h1", action)[0] == 0
    assert user("act", "h1", "A cbr 100") == (
        0, "10 all_in; B to act: to call 48 (no raise: not enough chips to raise)\n",
        "note: A's raise to 100 is all A has, short of the bet of 200: recorded as a call for "
        "less (all-in)\n")
    assert " 10 A cc                         pot 332 bet 200 [A:0 B:48 C:0 D:0] bet → B" in (
        user("show", "h1")[1].splitlines())
    for action in ["B cc", "d db Qd2c3d", "d db 7h", "d db 8s", "C sm QsQh", "A sm AsAh",
                   "B sm KsKh", "D sm JsJh", "pay C 120", "pay A 160"]:
        assert user("act", "h1", action)[0] == 0, action
    code, out, _ = user("replay", "--hand", "h1")
    assert code == 0
    assert out.splitlines()[-2] == (
        "  note: in progress (not ended), checked once it ends (`handledger act h1 end`); the "
        "payouts recorded so far differ from the rules: D was paid 0, the rules give 100: the "
        "difference is D's uncalled bet of 100, which the table leaves out of what it says D "
        "collected")
    assert user("act", "h1", "end") == (2, "", (
        "error: hand h1, action 'end': cannot end: 280 of the 380 chips to pay are paid (the "
        "pot's 280, and D's uncalled bet of 100 to return, RULES.md §1.4): 100 would go to "
        "nobody (by the rules: returned D 100); record the rest (pay PLAYER AMOUNT, returned "
        "PLAYER AMOUNT for an uncalled bet) first\n"))


def test_a_raise_typed_to_all_a_player_has_that_raises_nothing_is_noted(user, db: str) -> None:  # noqa: ANN001
    """A (small blind, 100) faces a raise to 100: `A cbr 100` is all he has and raises nothing,
    so the hand records it as a call; `act` says so, never silently."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "e1", "--game", "NT", "--stakes", "1/2", "--seats",
                "A:100,B:500,C:500", "--button", "C")[0] == 0
    for action in ["d dh A AsAh", "d dh B KsKh", "d dh C QsQh", "C cbr 100"]:
        assert user("act", "e1", action)[0] == 0
    assert user("act", "e1", "A cbr 100") == (
        0, "8 all_in; B to act: to call 98, raise to 198..500\n",
        "note: A's raise to 100 is all A has and raises nothing: recorded as a call\n")
    assert user("act", "e1", "B cc") == (0, "9 call; phase deal, next: d db CARDS (3 cards)\n", "")
