"""A home game's rake taken while a declare hand's players declare (docs/LIVE.md, "A home
game's rake"): the betting is over and every card dealt, the declarations decide who wins the
pots, not what they hold, so the rake comes out of them before the halves are split (RULES.md
§3.5, §3.10). Refused while a betting round follows the declarations (§3.4) or when the hand
may carry a pot to the session's next hand (§3.8, §7.1), which only the declarations decide.

Worked by hand: seven-card stud, antes 1, bring-in 1, Ann and Bob 100 chips each. Ann (3d up)
brings it in, Bob calls, every later street checked: a pot of 4. The table takes 1: 3 is
split, high 2 (the odd chip between the halves is the high half's, §3.10) to Bob's full house,
kings full of nines, low 1 to Ann's 6-4-3-2-A. Nets: Ann -1, Bob 0, together -1, the rake.
"""

from __future__ import annotations

import json

START = ("hand", "start", "--hand", "r1", "--game", "F7S", "--antes", "1", "--bring-in", "1",
         "--small-bet", "2", "--big-bet", "4", "--seats", "Ann:100,Bob:100")
PLAY = ("d dh Ann As2s3d", "d dh Bob KsKhKc", "Ann pb", "Bob cc",
        "d dh Ann 4c", "d dh Bob 9d", "Bob cc", "Ann cc",
        "d dh Ann 6h", "d dh Bob 9h", "Bob cc", "Ann cc",
        "d dh Ann Kd", "d dh Bob 8s", "Bob cc", "Ann cc",
        "d dh Ann Qd", "d dh Bob 7s", "Bob cc", "Ann cc")
DECLARE = ("phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to "
           "declare: Ann, Bob)")
RULES = ("Main pot 4, 3 after the rake of 1 (Ann, Bob): declared Bob high, Ann low.",
         "Main pot: Split high/low, the odd chip to the high half.",
         "Main pot: High 2: Bob wins 2 with full house, kings full of nines.",
         "Main pot: Low 1: Ann wins 1 with 6-4-3-2-A low.")
REFUSED = ("the rake is taken from the pot once the betting is over: at the showdown, or while "
           "the players declare when no betting round follows the declarations (phase declare "
           "now, ")


def _play(user, actions: tuple[str, ...]) -> None:  # noqa: ANN001
    for action in actions:
        code, _, err = user("act", "r1", action)
        assert (code, err) == (0, ""), action


def test_a_rake_while_the_players_declare_comes_out_before_the_halves(user) -> None:  # noqa: ANN001
    assert user(*START, "--declare-options", "method=simultaneous")[0] == 0
    _play(user, PLAY)
    assert user("act", "r1", "rake 1") == (0, f"24 recorded_rake; {DECLARE}\n", "")
    assert user("state", "r1") == (0, (
        "hand r1: F7S, phase declare, status open\n"
        f"{DECLARE}\n"
        "Main pot: 4 (Ann, Bob)\n"
        "rake: 1 taken from the pot\n"
        "stacks: Ann 98, Bob 98\n"
        "seats as pN: p1 Ann, p2 Bob (--seats' order)\n"), "")
    _play(user, ("Ann dcl low", "Bob dcl high", "Ann sm As2s3d4c6hKdQd",
                 "Bob sm KsKhKc9d9h8s7s"))
    assert [line for line in user("state", "r1")[1].splitlines()
            if line.startswith("by the rules")] == [f"by the rules: {line}" for line in RULES]
    _play(user, ("pay Bob 2", "pay Ann 1", "end"))
    code, out, err = user("show", "r1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[23] == " 24 rake 1                       pot 4 [Ann:98 Bob:98] declare"
    assert lines[-5:] == [f"    {line}" for line in RULES] + [
        "    note: the table paid 1 less than the pots and returns: the table kept 1 as rake "
        "(as recorded at the table)"]
    code, out, _ = user("replay", "--hand", "r1", "--json")
    hand = json.loads(out)
    assert (code, hand["net"], hand["recorded"]) == (0, {"Ann": -1, "Bob": 0},
                                                     {"Bob": 2, "Ann": 1})
    assert [d["kind"] for d in hand["discrepancies"]] == ["rake"]


def test_a_rake_before_a_betting_round_after_the_declarations_is_refused(user) -> None:  # noqa: ANN001
    assert user(*START, "--declare-options", "method=simultaneous,bet_after_declare=true")[0] == 0
    _play(user, PLAY[:18])  # seventh street dealt: the players declare, then bet
    assert user("act", "r1", "rake 1") == (2, "", (
        f"error: hand r1, action 'rake 1': {REFUSED}and a betting round follows the "
        f"declarations); now: {DECLARE}\n"))


def test_a_rake_in_a_hand_that_may_carry_its_pot_waits_for_the_showdown(user) -> None:  # noqa: ANN001
    for line in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"),
                 (*START, "--session", "s", "--declare-options",
                  "no_eligible_winner=carry_over")):
        assert user(*line)[0] == 0
    _play(user, PLAY)
    assert user("act", "r1", "rake 1") == (2, "", (
        f"error: hand r1, action 'rake 1': {REFUSED}and what the pot carries to the session's "
        f"next hand is known at the showdown, RULES.md §3.8, §7.1); now: {DECLARE}\n"))
