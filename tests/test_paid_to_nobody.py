"""A pot the rules cannot award (a showdown of unknown cards, RULES.md §1.6) with no payout
recorded would be paid to nobody: its chips lost to the books (every net minus what was put
in, nets that no longer sum to zero). Live, ``end`` is refused until the winner is recorded;
a hand read from a file that ends so is stored as played and the audit names it
(``chip_conservation``), so that the audit agrees with settle, which refuses nets that do not
sum to zero."""

from __future__ import annotations

import json
from pathlib import Path

BOARD = ("d dh Ann ????", "d dh Bob ????", "Ann cbr 100", "Bob cc", "d db ??????", "d db ??",
         "d db ??")
PHH = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 100', 'p1 cc', 'd db ??????', 'd db ??',
           'd db ??']
hand = 7
"""


def test_end_is_refused_while_the_pot_would_go_to_nobody(run) -> None:  # noqa: ANN001
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "a", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 *(("act", "a", action) for action in BOARD)):
        assert run(*args).exit_code == 0, args
    out = run("act", "a", "end")
    assert (out.exit_code, out.output) == (2, (
        "error: hand a, action 'end': cannot end with nothing paid, or its chips go to nobody: "
        "Main pot 200 (Bob, Ann): cannot be checked, unknown cards for Bob, Ann, the board; "
        "record who won (pay PLAYER AMOUNT) or the unknown cards first\n"))
    assert run("act", "a", "pay Bob 200").exit_code == 0
    assert run("act", "a", "end").exit_code == 0
    assert json.loads(run("settle", "--json").output) == {
        "transfers": [{"session": "fri", "from": "Ann", "from_name": "Ann", "to": "Bob",
                       "to_name": "Bob", "amount": 100}], "decimals": 0, "currency": None,
        "paid_already": 0, "payments_recorded": 0}
    assert run("audit").output.startswith("audit clean: 1 hand(s) in 1 session(s)")


def test_a_file_hand_that_pays_nobody_is_an_audit_finding(run, tmp_path: Path) -> None:  # noqa: ANN001
    hand = tmp_path / "nobody.phh"
    hand.write_text(PHH, encoding="utf-8")
    assert run("import", str(hand)).exit_code == 0
    out = run("audit", "--json")
    assert out.exit_code == 1
    (finding,) = json.loads(out.output)["discrepancies"]
    hand_id = finding["hand"]
    assert finding == {
        "kind": "chip_conservation", "session": None, "hand": hand_id, "player": None,
        "name": None, "expected": 200, "actual": 0,
        "message": f"hand {hand_id}: its 200 chips are paid to nobody: no payout is recorded "
                   "and the rules cannot award them (unknown cards); record who won "
                   f"(`handledger correct {hand_id} --insert-after SEQ 'pay PLAYER AMOUNT' "
                   "--reason … --by …`, SEQ before its end) (-200)",
        "unit": "chips", "chip_value_minor": 1, "decimals": 0, "currency": None}
    # the correction the finding names brings the chips back: the audit is clean again
    assert run("correct", hand_id, "--insert-after", "10", "pay p2 200", "--reason",
               "p2 showed the nuts", "--by", "host").exit_code == 0
    assert run("audit").exit_code == 0


UNCALLED = ("d dh Bob AsKs", "d dh Dee QhQd", "d dh Ann 7c2d", "Ann f", "Bob cc", "Dee cbr 300",
            "Bob cc", "d db 2c7h9s", "d db Kd", "d db 3c", "Bob sm AsKs", "Dee sm QhQd")


def test_end_is_refused_while_payouts_leave_chips_of_the_pot_to_nobody(run) -> None:  # noqa: ANN001
    """Bob (150) calls Dee's all-in of 300 (Ann, the button, folds before putting anything
    in): the pot holds 150 + 300 = 450, a main pot of 300 that Bob's ace-king (a pair of
    kings on K-9-7-3-2) wins against Dee's queens, and Dee's uncalled 150. The host records
    the pot and forgets the uncalled chips: `end` would have Dee lose 300 where the rules
    lose him 150, and the books 150 chips."""
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "150"), ("buyin", "fri", "Dee", "300"),
                 ("hand", "start", "--session", "fri", "--hand", "b", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:200,Bob:150,Dee:300", "--button", "Ann"),
                 *(("act", "b", action) for action in UNCALLED), ("act", "b", "pay Bob 300")):
        assert run(*args).exit_code == 0, args
    out = run("act", "b", "end")
    assert (out.exit_code, out.output) == (2, (
        "error: hand b, action 'end': cannot end: 300 of the 450 chips to pay are paid (the "
        "pot's 300, and Dee's uncalled bet of 150 to return, RULES.md §1.4): 150 would go "
        "to nobody (by the rules: returned Dee 150); record the rest (pay PLAYER AMOUNT, "
        "returned PLAYER AMOUNT for an uncalled bet) first\n"))
    # part of it recorded: the line names what is still due
    assert run("act", "b", "returned Dee 100").exit_code == 0
    assert ("400 of the 450 chips to pay are paid (the pot's 300, and Dee's uncalled bet of "
            "150 to return, RULES.md §1.4): 50 would go to nobody (by the rules: returned Dee "
            "50)") in run("act", "b", "end").output
    # 10 too many to Bob is refused: he can win the main pot, 300, and no more
    out = run("act", "b", "pay Bob 10")
    assert (out.exit_code, out.output.split("; now:")[0]) == (2, (
        "error: hand b, action 'pay Bob 10': Bob can win at most 300 (the pots Bob is eligible "
        "for: the main pot of 300; RULES.md §1.2-1.5): 310 would be paid to Bob (300 already)"))
    assert run("act", "b", "returned Dee 50").exit_code == 0
    assert run("act", "b", "end").exit_code == 0
    # every chip paid: the nets sum to zero: Bob 300 paid less 150 put in, Dee 150 less 300,
    # Ann put in nothing
    nets = {p["player"]: p["net"] for p in json.loads(run("balances", "--json").output)["players"]}
    assert nets == {"Bob": 150, "Ann": 0, "Dee": -150}


def _heads_up_fold(run, hand: str, payout: str) -> None:  # noqa: ANN001
    for args in (("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2", "--seats",
                  "Ann:100,Bob:100", "--button", "Ann"),
                 *(("act", hand, a) for a in ("d dh Bob ????", "d dh Ann ????", "Ann f",
                                               payout))):
        assert run(*args).exit_code == 0, args


def test_a_short_end_names_an_uncalled_bet_as_returned(run) -> None:  # noqa: ANN001
    """Heads-up, Ann (button, small blind 1) folds to Bob's big blind of 2: a pot of 2 (her
    1 and the 1 of his that it matched) and Bob's uncalled 1 (`state`: returned: Bob 1). The
    host records `pay Bob 2`: the chip left is Bob's uncalled bet, to be returned, not a
    payout to record (the line said "by the rules: pay Bob 1")."""
    _heads_up_fold(run, "h", "pay Bob 2")
    out = run("act", "h", "end")
    assert (out.exit_code, out.output) == (2, (
        "error: hand h, action 'end': cannot end: 2 of the 3 chips to pay are paid (the pot's "
        "2, and Bob's uncalled bet of 1 to return, RULES.md §1.4): 1 would go to nobody "
        "(by the rules: returned Bob 1); record the rest (pay PLAYER AMOUNT, returned PLAYER "
        "AMOUNT for an uncalled bet) first\n"))
    assert run("act", "h", "returned Bob 1").exit_code == 0
    assert run("act", "h", "end").exit_code == 0
    # `pay Bob 1`: a chip of the pot short too, and the uncalled one
    _heads_up_fold(run, "h2", "pay Bob 1")
    assert run("act", "h2", "end").output == (
        "error: hand h2, action 'end': cannot end: 1 of the 3 chips to pay is paid (the pot's "
        "2, and Bob's uncalled bet of 1 to return, RULES.md §1.4): 2 would go to nobody "
        "(by the rules: returned Bob 1, pay Bob 1); record the rest (pay PLAYER AMOUNT, "
        "returned PLAYER AMOUNT for an uncalled bet) first\n")


def test_a_short_end_counts_a_chip_carried_to_the_next_hand_as_no_payout(user) -> None:  # noqa: ANN001
    """RULES.md §2.2, §7.1: with ``odd_chip_tie_order=carry_to_next_hand`` the odd chip of a
    tie goes to the session's next hand. Antes 1, blinds 1/2, Cy folds, Ann and Bob check it
    down on a royal flush board: pot 3 + 2 + 2 = 7, Ann 3, Bob 3, 1 carried. With Ann's 3
    paid, `end` says 3 of the 6 chips to pay are paid, not 4 of 7: the carried chip is
    nobody's payout."""
    from tests.test_carry_taken import K1_TO_ANN_PAID, odd_chip_k1_started

    odd_chip_k1_started(user)
    assert user("table", "k1", input="\n".join(K1_TO_ANN_PAID) + "\n")[0] == 0
    # the odd chip is left in the pot for the next deal (RULES.md §2.2, its option §5), not a
    # declare pot nobody is eligible to win (§3.8)
    assert user("state", "k1")[1].splitlines()[3] == (
        "carried: 1 to the session's next hand, paid to nobody (RULES.md §2.2, §5)")
    assert user("act", "k1", "pay Bob 4") == (2, "", (
        "error: hand k1, action 'pay Bob 4': the pot holds 7, 1 of it carried to the session's "
        "next hand (odd_chip_tie_order = carry_to_next_hand; RULES.md §2.2, §5), 3 "
        "already paid: at most 3 can be paid; now: phase showdown, next: pay PLAYER AMOUNT or "
        "end\n"))
    assert user("act", "k1", "end") == (2, "", (
        "error: hand k1, action 'end': cannot end: 3 of the 6 chips to pay are paid (the pot's "
        "7 less 1 carried to the next hand): 3 would go to nobody (by the rules: pay Bob 3); "
        "record the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) "
        "first\n"))
    assert user("act", "k1", "pay Bob 3")[0] == 0
    assert user("act", "k1", "end") == (0, "24 hand_ended; hand complete\n", "")
