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


def test_a_correction_that_reorders_the_seats_under_their_blinds_is_refused(user) -> None:  # noqa: ANN001
    """RULES.md §4.2: the small blind sits left of the button, the big blind next. Seats
    "Ann,Cy,Bob" with the button on Ann post Cy 1 and Bob 2; seats reordered to "Ann,Bob,Cy"
    under those blinds would have Bob, now left of the button, post the big blind: refused,
    nothing written; the same correction with the blinds moved goes in."""
    import json

    assert user("hand", "start", "--hand", "w2", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Cy:100,Bob:100", "--button", "Ann")[0] == 0
    first = json.loads(user("export", "--format", "jsonl", "w2")[1].splitlines()[0])["event"]
    seats = first["seats"]
    assert [s["player"] for s in seats] == ["Cy", "Bob", "Ann"]  # from the button's left
    seats[0], seats[1] = seats[1], seats[0]
    start = json.dumps(first)
    assert user("correct", "w2", "--replace", "1", start, "--reason", "seats in wrong order",
                "--by", "host") == (
        2, "", "error: hand w2: correction replace 1 (hand_started): the corrected hand's "
               "forced bets no longer fit its seats: with the button on Ann, the rules post "
               "Bob's small blind 1, Cy's big blind 2, not Cy's small blind 1, Bob's big "
               "blind 2 (RULES.md §4.2: the small blind sits immediately left of the button, "
               "the big blind next; §4.3 antes); nothing written (correct the forced bets in "
               "the same correction, `--replace SEQ JSON` of each, or keep the seats, button "
               "and stacks they were posted from)\n")
    assert user("history", "w2")[1].endswith("no corrections or voids\n")
    small = '{"type": "forced_bet", "player": "Bob", "kind": "small_blind", "amount": 1}'
    big = '{"type": "forced_bet", "player": "Cy", "kind": "big_blind", "amount": 2}'
    assert user("correct", "w2", "--replace", "1", start, "--replace", "2", small,
                "--replace", "3", big, "--reason", "seats in wrong order", "--by", "host") == (
        0, "corrected hand w2 (seq 4); start: seat order Cy, Bob, Ann → Bob, Cy, Ann; "
        "change in net: Bob +1, Cy -1; by the rules: Cy -1, "
           "Bob +1\n", "")
    shown = user("show", "w2")[1]
    assert "  2 Bob posts small blind 1 " in shown and "  3 Cy posts big blind 2 " in shown


def test_a_correction_that_deletes_a_blind_is_refused_naming_the_blind_left_out(user) -> None:  # noqa: ANN001
    """RULES.md §4.2, heads-up: the button (Bob) posts the small blind 1, Ann the big blind 2.
    Deleting Bob's small blind (seq 3) leaves a hand no table posts: refused, naming the blind
    the corrected hand leaves out; `whatif` of it, which shows what that correction would do,
    is refused alike; nothing written."""
    assert user("hand", "start", "--hand", "h", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:200,Bob:150", "--button", "Bob")[0] == 0
    line = ("error: hand h: correction delete 3 (forced_bet by Bob): the corrected hand's "
            "forced bets no longer fit its seats: with the button on Bob, the rules post Bob's "
            "small blind 1, which the corrected hand leaves out (RULES.md §4.2: the small "
            "blind sits immediately left of the button, the big blind next; §4.3 antes); "
            "nothing written (correct the forced bets in the same correction, `--replace SEQ "
            "JSON` of each, or keep the seats, button and stacks they were posted from)\n")
    assert user("correct", "h", "--delete", "3", "--reason", "no blind", "--by", "host") == (
        2, "", line)
    assert user("whatif", "h", "--delete", "3") == (2, "", (
        "error: hand h: what-if delete 3 (forced_bet by Bob): the forced bets of the hand with "
        "these changes no longer fit its seats: with the button on Bob, the rules post Bob's "
        "small blind 1, which the hand with these changes leaves out (RULES.md §4.2: the small "
        "blind sits immediately left of the button, the big blind next; §4.3 antes) (correct "
        "the forced bets in the same what-if, `--replace SEQ JSON` of each, or keep the seats, "
        "button and stacks they were posted from)\n"))
    assert user("history", "h")[1].endswith("no corrections or voids\n")
