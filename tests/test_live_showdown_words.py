"""What ``act`` and ``state`` say at a live showdown (docs/LIVE.md, "When nobody is to bet"):
the rules' award once a muck decides the pot (RULES.md §1.5), and ``next: pay PLAYER AMOUNT,
end`` once nobody is left to show, in a flop game, stud and a declare hand.

Worked by hand. Hold'em, blinds 1/2, 100 chips each: all in before the flop, a pot of 200;
board Kd 7c 2s Tc 3h. AhKh (a pair of kings, A-T-7 kickers) beats QsJs (queen high). Stud,
antes 1, bring-in 1, two players: Ann (As 2s 3d, upcard 3d) brings it in for 1, Bob (Ks Kh
Kc) calls, every later street checked: a pot of 2 antes + 2 = 4. Bob's KsKhKc9d9h8s7s is a
full house, kings full of nines; Ann's As2s3d4c6hKdQd a 6-4-3-2-A low.
"""

from __future__ import annotations

NT = ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
      "--button", "Ann")
NT_PLAY = ("d dh Bob AhKh", "d dh Ann QsJs", "Ann cbr 100", "Bob cc", "d db Kd7c2s",
           "d db Tc", "d db 3h")
STUD = ("hand", "start", "--game", "F7S", "--antes", "1", "--bring-in", "1", "--small-bet",
        "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100")
STUD_PLAY = ("d dh Ann As2s3d", "d dh Bob KsKhKc", "Ann pb", "Bob cc",
             "d dh Ann 4c", "d dh Bob 9d", "Bob cc", "Ann cc",
             "d dh Ann 6h", "d dh Bob 9h", "Bob cc", "Ann cc",
             "d dh Ann Kd", "d dh Bob 8s", "Bob cc", "Ann cc",
             "d dh Ann Qd", "d dh Bob 7s", "Bob cc", "Ann cc")
SHOW = "phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER AMOUNT, end"
PAY = "phase showdown, next: pay PLAYER AMOUNT, end"
NT_SEATS = "seats as pN: p1 Bob, p2 Ann (p1 sits left of the button: PHH's order, not --seats')\n"


def _start(user, hand: str, start: tuple[str, ...], *options: str) -> None:  # noqa: ANN001
    code, out, err = user(*start[:2], "--hand", hand, *start[2:], *options)
    assert (code, out, err) == (0, f"{hand}\n", "")


def _play(user, hand: str, actions: tuple[str, ...]) -> None:  # noqa: ANN001
    for action in actions:
        code, _, err = user("act", hand, action)
        assert (code, err) == (0, ""), action


def test_state_says_what_the_rules_pay_after_a_muck_decides_the_pot(user) -> None:  # noqa: ANN001
    _start(user, "m1", NT)
    _play(user, "m1", (*NT_PLAY, "Bob sm AhKh"))
    assert user("act", "m1", "Ann sm") == (0, f"12 muck; {PAY}\n", "")
    assert user("state", "m1") == (0, (
        "hand m1: NT, phase showdown, status open\n"
        f"{PAY}\n"
        "Main pot: 200 (Bob)\n"
        "by the rules: Main pot 200 (Bob): Bob takes 200: Ann mucked, nobody else is "
        "eligible.\n"
        "stacks: Bob 0, Ann 0\n" + NT_SEATS), "")


def test_a_hand_won_by_a_fold_has_no_rules_line_nor_show(user) -> None:  # noqa: ANN001
    _start(user, "f1", NT)
    _play(user, "f1", ("d dh Bob AhKh", "d dh Ann QsJs"))
    assert user("act", "f1", "Ann f") == (
        0, "6 fold; phase no showdown, next: pay PLAYER AMOUNT, end\n", "")
    assert "by the rules" not in user("state", "f1")[1]


def test_nobody_left_to_show_once_every_hand_is_shown(user) -> None:  # noqa: ANN001
    _start(user, "m2", NT)
    _play(user, "m2", NT_PLAY)
    assert user("act", "m2", "Bob sm AhKh") == (0, f"11 reveal; {SHOW}\n", "")
    assert user("act", "m2", "Ann sm QsJs") == (0, f"12 reveal; {PAY}\n", "")
    assert user("act", "m2", "Ann sm") == (2, "", (
        f"error: hand m2, action 'Ann sm': Ann has shown QsJs already; a shown hand stays "
        f"shown; now: {PAY}\n"))
    assert user("state", "m2") == (0, (
        "hand m2: NT, phase showdown, status open\n"
        f"{PAY}\n"
        "Main pot: 200 (Bob, Ann)\n"
        "by the rules: Main pot 200 (Bob, Ann): Bob wins 200 with pair of kings, A-T-7 "
        "kickers.\n"
        "stacks: Bob 0, Ann 0\n" + NT_SEATS), "")


def test_a_stud_showdown_and_its_rake_once_every_hand_is_shown(user) -> None:  # noqa: ANN001
    _start(user, "s1", STUD)
    _play(user, "s1", STUD_PLAY)
    assert user("act", "s1", "Bob sm KsKhKc9d9h8s7s") == (0, f"24 reveal; {SHOW}\n", "")
    assert user("act", "s1", "Ann sm As2s3d4c6hKdQd") == (0, f"25 reveal; {PAY}\n", "")
    assert user("act", "s1", "rake 1") == (0, (
        "26 recorded_rake; phase showdown, next: pay PLAYER AMOUNT (the pot less the rake of "
        "1), then end\n"), "")
    assert user("state", "s1")[1].splitlines()[1:5] == [
        "phase showdown, next: pay PLAYER AMOUNT (the pot less the rake of 1), then end",
        "Main pot: 4 (Ann, Bob)",
        "rake: 1 taken from the pot",
        "by the rules: Main pot 4, 3 after the rake of 1 (Ann, Bob): Bob wins 3 with full "
        "house, kings full of nines."]


def test_a_declare_showdown_once_every_hand_is_shown(user) -> None:  # noqa: ANN001
    _start(user, "d1", STUD, "--declare-options", "method=simultaneous")
    _play(user, "d1", (*STUD_PLAY, "Ann dcl low"))
    assert user("act", "d1", "Bob dcl high") == (0, f"25 declaration; {SHOW}\n", "")
    assert user("act", "d1", "Ann sm As2s3d4c6hKdQd") == (0, f"26 reveal; {SHOW}\n", "")
    assert user("act", "d1", "Bob sm KsKhKc9d9h8s7s") == (0, f"27 reveal; {PAY}\n", "")
    # a pot of 4 split: high 2 to Bob, low 2 to Ann (no odd chip)
    assert [line for line in user("state", "d1")[1].splitlines()
            if line.startswith("by the rules")] == [
        "by the rules: Main pot 4 (Ann, Bob): declared Bob high, Ann low.",
        "by the rules: Main pot: Split high/low.",
        "by the rules: Main pot: High 2: Bob wins 2 with full house, kings full of nines.",
        "by the rules: Main pot: Low 2: Ann wins 2 with 6-4-3-2-A low."]


def test_a_declare_hand_mucked_at_its_showdown(user) -> None:  # noqa: ANN001
    _start(user, "d2", STUD, "--declare-options", "method=simultaneous")
    _play(user, "d2", (*STUD_PLAY, "Ann dcl low", "Bob dcl high", "Ann sm As2s3d4c6hKdQd"))
    assert user("act", "d2", "Bob sm") == (0, f"27 muck; {PAY}\n", "")
    assert [line for line in user("state", "d2")[1].splitlines()
            if line.startswith("by the rules")] == [
        "by the rules: Main pot 4 (Ann): Ann takes 4: Bob mucked, nobody else is eligible."]
