"""Taking back a session, or several hands, in one write (``session void``, ``void HAND HAND
...``; :mod:`replay.voiding`): every hand voided and every book entry retracted as ``void``
and ``entry retract`` do it, all or nothing, with one summary line and no advice to correct a
later hand that is voided too.

The night ``fri`` (1 chip = 0.25 USD): Ann and Bob buy in 100 each (entries 2, 3). Three
heads-up hold'em hands, blinds 1/2, Bob the button (small blind 1) each time, and each time
Bob folds to Ann's big blind: Ann +1, Bob -1 a hand. h1 starts Ann 100, Bob 100; h2 Ann 101,
Bob 99; h3 Ann 102, Bob 98; after h3 Ann 103, Bob 97. Bob cashes out 97 (entry 4) and pays
Ann 0.75 USD, his 3 chips (entry 5). Nets: Ann +3, Bob -3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.built_once import build, snapshot, table
from tests.conftest import DATA, SHARED
from tests.copies import copy_ledger
from tests.test_carry_taken import CARRY, H1, H2

FOLD = ["d dh Ann ????", "d dh Bob ????", "Bob f", "end"]
WHY = ("--reason", "wrong ledger", "--by", "host")
#: What voiding fri's h1 and h2 says of them: each gives Ann back 2 and Bob 1.
H1_H2_VOIDED = [
    "voided hand h1: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: "
    "Ann -1, Bob +1",
    "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: "
    "Ann -1, Bob +1"]
#: What voiding fri's h1 and h2 says of h3, dealt on the 102 / 98 h2 left Ann and Bob: it
#: stands as played, the 2 chips owed in settle.
H3_AS_PLAYED = [
    "  warning: hand h3 started Ann with 102, on hand h2 as it stood (the books had Ann 102 "
    "there); now they have Ann 100: Ann -2 chips in settle, and hand h3 stands as played "
    "(the chips at the table are facts)",
    "  warning: hand h3 started Bob with 98, on hand h2 as it stood (the books had Bob 98 "
    "there); now they have Bob 100: Bob +2 chips in settle, and hand h3 stands as played "
    "(the chips at the table are facts)"]


def _hand(hand: str, seats: str) -> list:
    return [(("hand", "start", "--session", "fri", "--hand", hand, "--game", "NT", "--stakes",
              "1/2", "--seats", seats, "--button", "Bob"), None), table(hand, FOLD)]


@pytest.fixture(scope="module")
def fri_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The night ``fri`` of the module doc, built once."""
    return build(tmp_path_factory.mktemp("fri") / "t.duckdb", [
        (("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD", "--date",
          "2026-11-27"), None),
        (("buyin", "fri", "Ann", "100"), None), (("buyin", "fri", "Bob", "100"), None),
        *_hand("h1", "Ann:100,Bob:100"), *_hand("h2", "Ann:101,Bob:99"),
        *_hand("h3", "Ann:102,Bob:98"),
        (("cashout", "fri", "Bob", "97"), None), (("pay", "fri", "Bob", "Ann", "0.75"), None)])


@pytest.fixture
def fri(fri_built: Path, db: str) -> Path:
    """The test's ledger: a copy of ``fri_built``."""
    return copy_ledger(fri_built, Path(db))


def _balances(user) -> list[str]:  # noqa: ANN001
    return user("balances", "--session", "fri")[1].splitlines()


def _unchanged(user, db: Path, *args: str) -> tuple[int, str, str]:  # noqa: ANN001
    """``user(*args)``, asserted to leave the ledger file byte for byte as it was."""
    before = snapshot(db)
    said = user(*args)
    assert snapshot(db) == before
    return said


def test_session_void_takes_back_every_hand_and_entry_in_one_write(user, fri) -> None:  # noqa: ANN001
    assert _balances(user) == [
        "player                  net       buy-in     cash-out  hands sessions",
        "Ann                       3          100            0      3        1",
        "Bob                      -3          100           97      3        1"]
    code, out, err = user("session", "void", "fri", *WHY)
    assert (code, out, err) == (0, "session fri voided: 3 hands voided, 4 book entries "
                                "retracted (2 buy-ins, 1 cash-out, 1 payment); every net in "
                                "fri is 0 now\n", "")
    assert _balances(user) == [
        "player                  net       buy-in     cash-out  hands sessions",
        "Ann                       0            0            0      0        1",
        "Bob                       0            0            0      0        1"]
    assert user("settle", "--session", "fri")[1] == "settled: nobody owes anybody\n"
    code, out, _ = user("audit", "--session", "fri")
    assert (code, out.splitlines()[0]) == (0, "audit clean: 3 hand(s) in 1 session(s); every "
                                           "chip adds up in the books as stored (the hash "
                                           "chain not checked: `handledger verify`)")
    assert user("verify")[0] == 0
    # the hands voided and the buy-ins retracted said apart, alike (before: "3 hand(s)  0
    # buy-in(s)", the voided hands counted, the retracted buy-ins not)
    assert user("session", "list")[1] == (
        "fri  2026-11-27  3 hand(s) (3 voided)  2 buy-in(s) (2 retracted)  open\n")
    # the entries retracted latest first, after the hands: payment, cash-out, buy-ins
    rows = [line.split()[3:5] for line in user("history", "--session", "fri")[1].splitlines()
            if "entry_corrected" in line]
    assert rows == [["entry_corrected", '{"seq":5,"reason":"wrong'],
                    ["entry_corrected", '{"seq":4,"reason":"wrong'],
                    ["entry_corrected", '{"seq":3,"reason":"wrong'],
                    ["entry_corrected", '{"seq":2,"reason":"wrong']]
    assert "voided by host: wrong ledger" in user("history", "h1")[1]


def test_session_void_passes_over_what_is_taken_back_already(user, fri) -> None:  # noqa: ANN001
    assert user("void", "h3", *WHY)[0] == 0
    assert user("entry", "retract", "fri", "5", *WHY)[0] == 0
    code, out, err = user("session", "void", "fri", *WHY)
    assert (code, out, err) == (0, "session fri voided: 2 hands voided, 3 book entries "
                                "retracted (2 buy-ins, 1 cash-out, 0 payments); every net in "
                                "fri is 0 now (passed over: 1 hand voided before and 1 book "
                                "entry retracted before)\n", "")
    assert [line.split()[1] for line in _balances(user)[1:]] == ["0", "0"]
    code, _, err = _unchanged(user, fri, "session", "void", "fri", *WHY)
    assert (code, err) == (2, "error: session fri has nothing to void: its 3 hands are "
                              "voided already and its 4 book entries are retracted already; "
                              "nothing written\n")


def test_session_void_done_twice_counts_one_entry_as_one(user, db) -> None:  # noqa: ANN001
    """A session of one buy-in and no hand, voided twice: the refusal says "its book entry",
    not "its 1 book entries"."""
    assert user("session", "open", "sat", "--date", "2026-11-28")[0] == 0
    assert user("buyin", "sat", "Ann", "100")[0] == 0
    assert user("session", "void", "sat", *WHY)[0] == 0
    assert user("session", "list")[1] == (
        "sat  2026-11-28  0 hand(s)  1 buy-in(s) (1 retracted)  open\n")
    code, _, err = _unchanged(user, Path(db), "session", "void", "sat", *WHY)
    assert (code, err) == (2, "error: session sat has nothing to void: it holds no hand and "
                              "its book entry is retracted already; nothing written\n")


def test_session_void_refusals_write_nothing(user, fri) -> None:  # noqa: ANN001
    code, _, err = _unchanged(user, fri, "session", "void", "frx", *WHY)
    assert (code, err) == (2, "error: no session 'frx'; did you mean 'fri'?\n")
    code, _, err = _unchanged(user, fri, "session", "void", "club-w2", *WHY)
    assert (code, err) == (2, "error: no session 'club-w2' (the ledger's sessions: 'fri')\n")
    assert user("session", "open", "sun")[0] == 0
    code, _, err = _unchanged(user, fri, "session", "void", "sun", *WHY)
    assert (code, err) == (2, "error: session sun holds no hand and no book entry: nothing to "
                              "void; nothing written\n")
    assert user("hand", "start", "--session", "fri", "--hand", "h4", "--game", "NT",
                "--stakes", "1/2", "--seats", "Ann:103,Bob:97", "--button", "Bob")[0] == 0
    assert user("void", "h4", *WHY)[0] == 0
    assert user("session", "close", "fri")[0] == 0
    code, _, err = _unchanged(user, fri, "session", "void", "fri", *WHY)
    assert (code, err) == (2, "error: session fri is closed (entry 6; its books were settled "
                              "up at the close): voiding its hands and retracting its entries "
                              "changes them; nothing written; --closed records it anyway\n")
    code, out, _ = user("session", "void", "fri", *WHY, "--closed")
    assert (code, out) == (0, "session fri voided: 3 hands voided, 4 book entries retracted "
                              "(2 buy-ins, 1 cash-out, 1 payment); every net in fri is 0 now "
                              "(passed over: 1 hand voided before)\n")
    assert user("session", "list")[1].splitlines()[0] == (
        "fri  2026-11-27  4 hand(s) (4 voided)  2 buy-in(s) (2 retracted)  closed, settled")


def test_session_void_voids_a_hand_still_in_play_in_the_same_write(user, fri) -> None:  # noqa: ANN001
    """h4 started after the night (Ann 103, Bob 97: the blinds in, the cards dealt) and still
    in play: ``session void`` voids it with h1-h3 and retracts the four entries in one write,
    and says h4 was in play; every net is 0, the audit clean, nothing left in play."""
    assert user("hand", "start", "--session", "fri", "--hand", "h4", "--game", "NT",
                "--stakes", "1/2", "--seats", "Ann:103,Bob:97", "--button", "Bob")[0] == 0
    assert user("act", "h4", "d dh Ann ????")[0] == 0
    code, out, err = user("session", "void", "fri", *WHY)
    assert (code, out, err) == (0, "session fri voided: 4 hands voided (still in play: h4), 4 "
                                   "book entries retracted (2 buy-ins, 1 cash-out, 1 payment); "
                                   "every net in fri is 0 now\n", "")
    assert user("session", "list")[1].splitlines()[0] == (
        "fri  2026-11-27  4 hand(s) (4 voided)  2 buy-in(s) (2 retracted)  open")
    assert user("state", "h4")[1].splitlines()[0] == "hand h4: NT, phase deal, status voided"
    assert _balances(user)[1:] == [
        "Ann                       0            0            0      0        1",
        "Bob                       0            0            0      0        1"]
    code, out, _ = user("audit", "--session", "fri")
    assert (code, out.splitlines()[0][:12]) == (0, "audit clean:")


def test_a_refusal_after_some_voids_are_appended_writes_nothing(user, fri) -> None:  # noqa: ANN001
    """fri closed, then the night sat's hand s1 recorded after it: ``void s1 h3`` voids s1
    first (the latest), then h3's void is refused by ``void``'s own check (fri is closed and
    it moves Ann's and Bob's nets). Nothing of either is written."""
    build(fri, [(("session", "close", "fri"), None), (("session", "open", "sat"), None),
                (("buyin", "sat", "Ann", "100"), None), (("buyin", "sat", "Bob", "100"), None),
                (("hand", "start", "--session", "sat", "--hand", "s1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Bob"), None),
                table("s1", FOLD)])
    code, out, err = _unchanged(user, fri, "void", "s1", "h3", *WHY)
    assert (code, out, err) == (2, "", "error: hand h3: session fri is closed and voiding hand "
                                "h3 moves its players' nets (Ann -1, Bob +1): nothing written; "
                                "--closed records it anyway\n")
    assert [line.split()[:2] for line in user("balances", "--session", "sat")[1].splitlines()
            [1:]] == [["Ann", "1"], ["Bob", "-1"]]  # s1 not voided
    assert [line.split()[1] for line in _balances(user)[1:]] == ["3", "-3"]


def _carry_night(db: Path) -> Path:
    """tests/test_carry_taken.py's night ``sat``: h1 carries its pot of 4 (Ann's 2 and Bob's
    2) and h2, ended, took it: Ann +3, Bob -3."""
    return build(db, [
        (("session", "open", "sat"), None), (("buyin", "sat", "Ann", "100"), None),
        (("buyin", "sat", "Bob", "100"), None),
        (("hand", "start", "--session", "sat", "--hand", "h1", *CARRY, "--seats",
          "Ann:100,Bob:100", "--button", "Ann"), None), table("h1", [*H1, "end"]),
        (("hand", "start", "--session", "sat", "--hand", "h2", *CARRY, "--seats",
          "Ann:98,Bob:98", "--button", "Bob"), None), table("h2", H2)])


def test_a_session_whose_carried_pot_a_later_hand_took_voids_whole(user, db) -> None:  # noqa: ANN001
    """h2 (the latest) is voided first and its void drops its carry_over in from h1: it passes
    nothing on; then h1's void, h2 voided in the same write, drops its carry_over out (seq 22)
    and gives Ann and Bob their 2 each. Nets 0, the audit clean, and the next hand of sat
    takes nothing carried."""
    _carry_night(Path(db))
    assert [line.split()[:2] for line in user("balances")[1].splitlines()[1:]] == [
        ["Ann", "3"], ["Bob", "-3"]]
    code, out, err = user("session", "void", "sat", *WHY)
    assert (code, out, err) == (0, "session sat voided: 2 hands voided, 2 book entries "
                                "retracted (2 buy-ins, 0 cash-outs, 0 payments); every net in "
                                "sat is 0 now\n", "")
    assert [line.split()[:4] for line in user("balances")[1].splitlines()[1:]] == [
        ["Ann", "0", "0", "0"], ["Bob", "0", "0", "0"]]
    assert user("audit")[1].splitlines()[0].startswith("audit clean: 2 hand(s) in 1 session")
    assert "        delete seq 22 (seq 22 was: carry_over 4 out h2)" in user(
        "history", "h1")[1].splitlines()
    assert "        delete seq 2 (seq 2 was: carry_over 4 in h1)" in user(
        "history", "h2")[1].splitlines()
    # h2's void taken back would hold the 4 h1's void gave back: refused, nothing written
    code, out, err = _unchanged(user, Path(db), "undo", "h2", "--by", "host")
    assert (code, out, err) == (2, "", "error: hand h2: cannot undo the void at seq 10 (by "
                                "host: wrong ledger): the void dropped the 4 chip(s) carried "
                                "into the hand from hand h1, voided with it, whose void gave "
                                "them back to its players (RULES.md §7.1): back in play, the "
                                "hand would count them twice; one undo takes back one hand's "
                                "void, and the other's is refused likewise: the two voids "
                                "stand; nothing written\n")
    # h1's void taken back would carry the 4 to h2, whose void dropped them: refused too
    code, out, err = _unchanged(user, Path(db), "undo", "h1", "--by", "host")
    assert (code, out, err) == (2, "", "error: hand h1: cannot undo the void at seq 24 (by "
                                "host: wrong ledger): the void gave back to its players the 4 "
                                "chip(s) the hand carried to hand h2, voided with it, whose "
                                "void dropped them (RULES.md §7.1): back in play, the hand "
                                "would carry them to a hand that takes none; one undo takes "
                                "back one hand's void, and the other's is refused likewise: "
                                "the two voids stand; nothing written\n")
    build(Path(db), [(("buyin", "sat", "Ann", "100"), None),
                     (("buyin", "sat", "Bob", "100"), None),
                     (("hand", "start", "--session", "sat", "--hand", "h3", *CARRY, "--seats",
                       "Ann:100,Bob:100", "--button", "Ann"), None)])
    lines = user("history", "h3")[1].splitlines()
    assert lines[2] == ("        rule options: declare method=simultaneous,"
                        "no_eligible_winner=carry_over")
    assert [line.split()[3] for line in [lines[1], *lines[3:5]]] == [
        "hand_started", "forced_bet", "forced_bet"]  # no carry_over in


def test_the_declare_night_whose_pot_limit_raise_the_carry_allowed_voids_whole(user) -> None:  # noqa: ANN001
    """The bundled declare night: hand 3 carries 28 into hand 4 (pot-limit), where Ann's raise
    to 29 (seq 15) is legal with them only (22 the maximum without). Hand 4's void drops the
    carry_over in and, as a void drops what cannot be played, seq 15 on: its players get back
    what they put in before it (Ann 2, Bob 3, Cy 5, Dee 5). Nets before: Dee +157, Bob +87,
    Ann +76, Cy -320; after: every net, buy-in and cash-out 0, the audit and verify clean."""
    assert user("run", str(DATA / "declare"))[0] == 0
    assert [line.split()[:2] for line in user("balances")[1].splitlines()[1:]] == [
        ["Dee", "157"], ["Bob", "87"], ["Ann", "76"], ["Cy", "-320"]]
    code, out, err = user("session", "void", "declare-night", *WHY, "--closed")
    assert (code, out, err) == (0, "session declare-night voided: 10 hands voided, 11 book "
                                "entries retracted (7 buy-ins, 4 cash-outs, 0 payments); every "
                                "net in declare-night is 0 now\n", "")
    assert [line.split()[:4] for line in user("balances")[1].splitlines()[1:]] == [
        ["Ann", "0", "0", "0"], ["Bob", "0", "0", "0"], ["Cy", "0", "0", "0"],
        ["Dee", "0", "0", "0"]]
    assert user("audit")[1].startswith("audit clean: 10 hand(s) in 1 session(s)")
    assert user("verify")[0] == 0
    voided = user("history", "declare-night-4")[1].splitlines()
    assert "        delete seq 2 (seq 2 was: carry_over 28 in declare-night-3)" in voided
    assert "        delete seq 15 (seq 15 was: bet_raise Ann 29)" in voided
    assert user("show", "declare-night-4")[1].splitlines()[-1] == (
        "    voided: every contribution returned: Ann 2, Bob 3, Cy 5, Dee 5")


def test_voids_of_a_carry_and_its_taker_voided_before_are_refused(user, db) -> None:  # noqa: ANN001
    """h2 voided alone passes the 4 carried into it on (RULES.md §7.1): voiding h1 then gives
    them back twice, so ``session void`` is refused naming h2, nothing written; h2's void
    undone, ``void h1 h2`` goes in, nets back to the buy-ins."""
    _carry_night(Path(db))
    code, out, err = _unchanged(user, Path(db), "void", "h1", *WHY)
    assert (code, out, err) == (2, "", "error: hand h1: hand h2 took the chips this hand "
                                "carried to the session's next hand (RULES.md §3.8, §7.1), and "
                                "a void returns every contribution: the chips would be counted "
                                "twice; nothing written; void them together in one write "
                                "(`handledger void h1 h2`)\n")
    assert user("void", "h2", *WHY)[0] == 0
    before = ("error: hand h1: hand h2, voided before, passes on the chips this hand carried "
              "to the session's next hand (RULES.md §3.8, §7.1), and a void returns every "
              "contribution: the chips would be counted twice; nothing written; void both in "
              "one write (undo the void of hand h2 first)\n")
    assert _unchanged(user, Path(db), "session", "void", "sat", *WHY) == (2, "", before)
    # h1 alone, h2 voided: the same way through, not `void h1 h2` (refused: h2 is voided)
    assert _unchanged(user, Path(db), "void", "h1", *WHY) == (2, "", before)
    assert user("undo", "h2", "--by", "host")[0] == 0
    code, out, err = user("void", "h1", "h2", *WHY)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "voided hand h1: returned Bob 2, Ann 2; change in net: Bob +2, Ann +2; by the rules: "
        "Bob +2, Ann +2",
        "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -5, Bob +1; by the rules: "
        "Ann -5, Bob +1"]
    assert [line.split()[:2] for line in user("balances")[1].splitlines()[1:]] == [
        ["Ann", "0"], ["Bob", "0"]]


def test_no_undo_of_a_void_once_a_buy_in_of_its_players_is_retracted(user, fri) -> None:  # noqa: ANN001
    """h1-h3 voided, then Bob's payment (entry 5) and cash-out (4) retracted: h3's void may
    be taken back (Ann's and Bob's buy-ins still bought what it seats them with). Voided
    again and Bob's buy-in (entry 3) retracted too, it may not: h3 would start Bob with 98
    chips nobody bought, as `entry retract` refuses while a hand seats him (the audit's
    stack continuity). Nothing written."""
    assert user("void", "h1", "h2", "h3", *WHY)[0] == 0
    for seq in ("5", "4"):
        assert user("entry", "retract", "fri", seq, *WHY)[0] == 0
    # back in the books on Ann 102, Bob 98, which h1 and h2, voided, no longer leave
    assert user("undo", "h3", "--by", "host") == (0, (
        "undid the void at seq 9 (by host: wrong ledger) in hand h3 (seq 10); change in net: "
        "Ann +1, Bob -1; by the rules: Ann +1, Bob -1\n"
        "  warning: hand h3, back in the books, starts Ann with 102, the books have 100 for "
        "Ann before it: hand h2, before it, is voided and counts for nothing (undo its void "
        "too, and this hand follows it)\n"
        "  warning: hand h3, back in the books, starts Bob with 98, the books have 100 for "
        "Bob before it: hand h2, before it, is voided and counts for nothing (undo its void "
        "too, and this hand follows it)\n"
        "    to follow it: `handledger correct h3 --replace 1 JSON --reason … --by …`, JSON "
        "the \"event\" of `handledger export h3`'s first line with Ann 100, Bob 100\n"), "")
    assert user("void", "h3", *WHY)[0] == 0  # seq 11 drops h3's end again, seq 12 voids it
    assert user("entry", "retract", "fri", "3", *WHY)[0] == 0
    code, out, err = _unchanged(user, fri, "undo", "h3", "--by", "host")
    assert (code, out, err) == (2, "", (
        "error: hand h3: cannot undo the void at seq 12 (by host: wrong ledger): entry 3 of "
        "session fri (buy-in of Bob, 100 chips) is retracted since, and it was all Bob bought "
        "there before this hand: the hand would start Bob with chips nobody bought (RULES.md "
        "§1.1), as `entry retract` refuses while a hand seats Bob; nothing written; the void "
        "stands: a retraction is final (`entry amend` does not bring it back) and a buy-in "
        "recorded now comes after the hand (record the buy-in again, then the hand as a new "
        "one)\n"))
    assert [line.split()[1] for line in _balances(user)[1:]] == ["0", "0"]


def test_void_of_several_hands_warns_of_a_later_hand_once_with_every_void_in(user, fri) -> None:  # noqa: ANN001
    """Voided, h1 and h2 leave h3 starting Ann with 102 and Bob with 98 where the books now
    expect their buy-ins, 100 each: said once, not once a void; h3 was dealt on h2 as it
    stood, so it stands as played, the chips the voids move owed in settle."""
    code, out, err = user("void", "h2", "h1", *WHY)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        *H1_H2_VOIDED,
        *H3_AS_PLAYED]
    lines = _balances(user)
    assert [line.split()[1] for line in lines[1:3]] == ["1", "-1"]
    assert lines[3:] == [
        "note: session fri: hand h2 voided after hand h3 was dealt (seq 8, by host: void: wrong "
        "ledger): Ann -2, Bob +2 chips owed in settle, not moved at the table (net and cash-out "
        "− buy-in differ by it)"]


def test_void_of_the_last_hands_gives_no_advice_to_correct_them(user, fri) -> None:  # noqa: ANN001
    code, out, err = user("void", "h2", "h3", *WHY)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "voided hand h2: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: "
        "Ann -1, Bob +1",
        "voided hand h3: returned Ann 2, Bob 1; change in net: Ann -1, Bob +1; by the rules: "
        "Ann -1, Bob +1"]
    lines = _balances(user)  # Bob cashed out 97 on h3 as played: it stands, 2 chips owed
    assert [line.split()[1] for line in lines[1:3]] == ["1", "-1"]
    assert lines[3:] == [
        "note: session fri: hand h3 voided after the cash-outs (seq 8, by host: void: wrong "
        "ledger): Bob +2 chips owed in settle, not moved at the table (net and cash-out − "
        "buy-in differ by it)"]


def test_void_of_several_hands_of_no_session(user, db) -> None:  # noqa: ANN001
    """data/hands: five-card-draw (Bob -14, Cy +20, Ann -6) and plo-three-way (Ona -460,
    Pia -180, Quin +640) voided in one write; Ann keeps her -1 of ante-side-pots, and the
    others, of those hands alone, leave the books (no book counts a voided hand of none)."""
    assert user("import", str(DATA / "hands"))[0] == 0
    draw, plo = "phh-90f35dda9542", "phh-e90348620d79"
    nets = {p: n for p, n, *_ in (line.split() for line in user("balances")[1].splitlines()[1:])}
    assert [nets[p] for p in ("Ann", "Bob", "Cy", "Ona", "Pia", "Quin")] == [
        "-7", "-14", "20", "-460", "-180", "640"]
    code, _, err = _unchanged(user, Path(db), "void", draw, draw, *WHY)
    assert (code, err) == (2, f"error: hand {draw} is given twice; nothing written\n")
    code, _, err = _unchanged(user, Path(db), "void", draw, "nosuch", *WHY)
    assert (code, err) == (2, f"error: hand nosuch: ledger {db} holds no such hand\n")
    code, out, err = user("void", plo, draw, *WHY)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"voided hand {draw}: returned Bob 14, Cy 14, Ann 6; change in net: Bob +14, Cy -20, "
        "Ann +6; by the rules: Bob +14, Cy -20, Ann +6",
        f"voided hand {plo}: returned Ona 460, Pia 180, Quin 460; change in net: Ona +460, "
        "Pia +180, Quin -640; by the rules: Ona +460, Pia +180, Quin -640"]
    nets = {p: n for p, n, *_ in (line.split() for line in user("balances")[1].splitlines()[1:])}
    # a voided hand of no session is in no book: who played only those is in none either
    assert nets["Ann"] == "-1" and not {"Bob", "Cy", "Ona", "Pia", "Quin"} & nets.keys()
    code, _, err = _unchanged(user, Path(db), "void", draw, "phh-877231987944", *WHY)
    assert (code, err) == (2, f"error: hand {draw}: the hand is already voided; nothing "
                              "written\n")


def test_a_pokernow_log_imported_into_the_wrong_ledger(user, db, tmp_path) -> None:  # noqa: ANN001
    """The host's case: a PokerNow log (52 hands, 8 buy-ins of 1000, 7 quits of 0 chips)
    imported as club-w1 into the wrong ledger. Taken back in one write; imported again there,
    nothing is added (its hands are known, voided); imported into the right ledger, it is
    all there."""
    log = str(SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv")
    assert user("import", "--session", "club-w1", log)[0] == 0
    assert user("balances", "--session", "club-w1")[1].splitlines()[1] == (
        "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1")
    code, out, err = user("session", "void", "club-w1", *WHY)
    assert (code, out, err) == (0, "session club-w1 voided: 52 hands voided, 15 book entries "
                                "retracted (8 buy-ins, 7 cash-outs, 0 payments); every net in "
                                "club-w1 is 0 now\n", "")
    assert {line.split()[-5] for line in
            user("balances", "--session", "club-w1")[1].splitlines()[1:]} == {"0"}
    assert user("audit", "--session", "club-w1")[0] == 0
    assert user("verify")[0] == 0
    # its last hand's void is not taken back: its players' buy-ins are retracted since
    last = "pn-club-w1-52-165843996642600"
    code, out, err = _unchanged(user, Path(db), "undo", last, "--by", "host")
    assert (code, out, err) == (2, "", (
        f"error: hand {last}: cannot undo the void at seq 16 (by host: wrong ledger): entry "
        "19 of session club-w1 (buy-in of Efvoziamtgktl, 1000 chips) is retracted since, and "
        "it was all Efvoziamtgktl bought there before this hand: the hand would start "
        "Efvoziamtgktl with chips nobody bought (RULES.md §1.1), as `entry retract` refuses "
        "while a hand seats Efvoziamtgktl; nothing written; the void stands: a retraction is "
        "final (`entry amend` does not bring it back) and a buy-in recorded now comes after "
        "the hand (record the buy-in again, then the hand as a new one)\n"))
    assert user("session", "list")[1] == (
        "club-w1  2022-07-21  52 hand(s) (52 voided)  8 buy-in(s) (8 retracted)  open\n")
    assert user("session", "void", "club-w1", *WHY)[2] == (
        "error: session club-w1 has nothing to void: its 52 hands are voided already and its "
        "15 book entries are retracted already; nothing written\n")
    assert user("import", "--session", "club-w1", log)[1] == (
        "imported 0 hand(s) (0 events) from 1 file(s); 52 already in the ledger (52 of them "
        "voided here: an import never brings a voided hand back); 0 rejected\n")
    assert {line.split()[-5] for line in
            user("balances", "--session", "club-w1")[1].splitlines()[1:]} == {"0"}
    from tests.console_run import handledger

    right = tmp_path / "right.duckdb"
    assert handledger(right, "import", "--session", "club-w1", log)[1] == (
        "imported 52 hand(s) (1255 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n")
    assert handledger(right, "balances")[1].splitlines()[1] == (
        "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1")


def test_a_log_voided_in_the_wrong_session_says_it_cannot_go_into_the_right_one(
        user, db) -> None:  # noqa: ANN001
    """A week's PokerNow log (4 hands, 3 buy-ins of 1000) imported as club-w2, the week
    after, and taken back with ``session void``: imported as club-w1 it is refused, nothing
    written, saying its hands are voided in club-w2 (no longer that its buy-ins would count
    twice: they are retracted) and how to have it in club-w1, a new ledger. Voided by
    ``void`` alone, its buy-ins still count, and the refusal says it too."""
    log = str(SHARED / "pokernow" / "charlestudor_Input_Log_001.csv")
    for name, day in (("club-w1", "2022-01-13"), ("club-w2", "2022-01-20")):
        assert user("session", "open", name, "--date", day)[0] == 0
    assert user("import", "--session", "club-w2", log)[1] == (
        "imported 4 hand(s) (59 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    twice = (f"error: {log}: this PokerNow game is in the ledger already, in session club-w2: "
             "it is not imported into session club-w1 too (its buy-ins would count twice); "
             "nothing of the file was written\n")
    assert user("import", "--session", "club-w1", log)[2] == twice
    assert user("void", "pn-club-w2-1-164210353199300", *WHY)[0] == 0  # one hand: as before
    assert user("import", "--session", "club-w1", log)[2] == twice
    assert user("session", "void", "club-w2", "--reason", "wrong week", "--by", "Org") == (
        0, "session club-w2 voided: 3 hands voided, 3 book entries retracted (3 buy-ins, 0 "
           "cash-outs, 0 payments); every net in club-w2 is 0 now (passed over: 1 hand voided "
           "before)\n", "")
    assert _unchanged(user, Path(db), "import", "--session", "club-w1", log) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 1 "
           "rejected\n",
        f"error: {log}: this PokerNow game is in the ledger already, in session club-w2, its "
        "4 hand(s) voided there: a voided hand stays voided (an import never brings one back) "
        "and stays in its session, so this ledger cannot take the game into session club-w1; "
        "to have it there, import it into a new ledger (`handledger --db NEW.duckdb import "
        f"--session club-w1 {log}`); nothing of the file was written\n")
    assert user("session", "list")[1] == (
        "club-w1  2022-01-13  0 hand(s)  0 buy-in(s)  open\n"
        "club-w2  2022-01-20  4 hand(s) (4 voided)  3 buy-in(s) (3 retracted)  open\n")


def test_a_pokerstars_file_voided_in_the_wrong_session_says_what_to_do(user, db) -> None:  # noqa: ANN001
    """A PokerStars file (one hand, no session of its own) imported into week2 and taken back
    with ``session void``: imported into week1 it adds nothing, exit 0, and its summary says
    the hand stays in week2, voided, and how to have it in week1: a new ledger."""
    stars = str(SHARED / "text" /
                "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt")
    for name, day in (("week1", "2010-04-01"), ("week2", "2010-04-08")):
        assert user("session", "open", name, "--date", day, "--chip-value", "0.01",
                    "--currency", "USD")[0] == 0
    assert user("import", "--session", "week2", stars)[1] == (
        "imported 1 hand(s) (23 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert user("session", "void", "week2", *WHY)[0] == 0
    assert _unchanged(user, Path(db), "import", "--session", "week1", stars) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay "
           "outside session week1; 1 of them voided here: an import never brings a voided hand "
           "back; a hand stays in the session it was stored in: to have them in session week1, "
           "import the file into a new ledger (`handledger --db NEW.duckdb import --session "
           "week1 FILE`)); 0 rejected\n", "")


def test_session_void_help_promises_no_move_between_sessions(user) -> None:  # noqa: ANN001
    """``session void --help`` says what becomes of the voided hands: they stay in the
    session, an import never brings them back, and where a file's and a live hand's go."""
    out = " ".join(user("session", "void", "--help")[1].split())
    assert "recorded under the wrong name" not in out
    assert ("The voided hands stay in NAME: importing their file again, into NAME or another "
            "session, brings none back (import it into a new ledger, `--db NEW.duckdb import "
            "--session S FILE`, to have it in session S); a hand recorded live goes into the "
            "right session with `hand again HAND --session S` once its players' buy-ins are "
            "recorded there.") in out


def test_both_prove_the_chain_first(user, fri) -> None:  # noqa: ANN001
    """A deliberate write (tests/test_proven_writes.py): Bob's buy-in (row 3) edited by SQL
    refuses them before anything is read or written."""
    from tests.test_proven_writes import _edit

    _edit(str(fri), 3, '"chips":100', '"chips":10')
    for args in (("session", "void", "fri", *WHY), ("void", "h1", "h2", *WHY)):
        code, out, err = _unchanged(user, fri, *args)
        assert (code, out, err) == (2, "", f"error: ledger {fri}: broken at position 3: "
                                    "edited: row 3 (session:fri seq 3): its content does not "
                                    "hash to its stored hash: nothing written; run "
                                    "`handledger verify`\n"), args


def test_an_empty_hand_id_among_several_is_refused(user, fri) -> None:  # noqa: ANN001
    code, _, err = _unchanged(user, fri, "void", "h1", "", *WHY)
    assert (code, err) == (2, "error: HAND...: a hand id is needed\n")


def test_show_of_a_voided_hand_says_every_contribution_returned(user, db) -> None:  # noqa: ANN001
    """Bob bets 10, Ann calls, the hand is voided: both get their 10 back, not as uncalled
    chips (both were called) but as a void's refunds, as ``replay`` says it."""
    build(Path(db), [
        (("hand", "start", "--hand", "v1", "--game", "NT", "--stakes", "1/2", "--seats",
          "Ann:100,Bob:100", "--button", "Bob"), None),
        table("v1", ["d dh Ann ????", "d dh Bob ????", "Bob cbr 10", "Ann cc"]),
        (("void", "v1", *WHY), None)])
    assert user("show", "v1")[1].splitlines()[-1] == (
        "    voided: every contribution returned: Ann 10, Bob 10")


def _pair(db: Path) -> None:
    """fri, Ann and Bob buy in 100: a1 (Bob the button) Bob raises to 10, Ann folds her big
    blind: Ann 98, Bob 102; a2 starts on that (Ann the button), Ann raises to 6, Bob folds
    his big blind: Ann 100, Bob 100; a3 starts on that, in play."""
    start = ("hand", "start", "--session", "fri", "--game", "NT", "--stakes", "1/2", "--hand")
    build(db, [
        (("session", "open", "fri"), None), (("buyin", "fri", "Ann", "100"), None),
        (("buyin", "fri", "Bob", "100"), None),
        ((*start, "a1", "--seats", "Ann:100,Bob:100", "--button", "Bob"), None),
        table("a1", ["d dh Ann ????", "d dh Bob ????", "Bob cbr 10", "Ann f", "end"]),
        ((*start, "a2", "--seats", "Ann:98,Bob:102", "--button", "Ann"), None),
        table("a2", ["d dh Ann ????", "d dh Bob ????", "Ann cbr 6", "Bob f", "end"]),
        ((*start, "a3", "--seats", "Ann:100,Bob:100", "--button", "Bob"), None),
        (("void", "a1", "a2", *WHY), None)])


def test_undo_of_the_later_void_of_a_pair_warns_its_start_is_not_followed(user, db) -> None:  # noqa: ANN001
    """``void a1 a2``, then ``undo a2``: a2 is back on Ann 98, Bob 102, which a1, still voided,
    no longer leaves (the books: their buy-ins, 100 each): warned as ``undo a1`` warns of a3;
    a1's void undone then, a2 follows it and the audit finds only a3 in play."""
    _pair(Path(db))
    code, out, err = user("undo", "a2", "--by", "host")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "undid the void at seq 10 (by host: wrong ledger) in hand a2 (seq 11); change in net: "
        "Bob -2, Ann +2; by the rules: Bob -2, Ann +2",
        "  warning: hand a2, back in the books, starts Bob with 102, the books have 100 for Bob "
        "before it: hand a1, before it, is voided and counts for nothing (undo its void too, "
        "and this hand follows it)",
        "  warning: hand a2, back in the books, starts Ann with 98, the books have 100 for Ann "
        "before it: hand a1, before it, is voided and counts for nothing (undo its void too, "
        "and this hand follows it)",
        "    to follow it: `handledger correct a2 --replace 1 JSON --reason … --by …`, JSON the "
        "\"event\" of `handledger export a2`'s first line with Bob 100, Ann 100"]
    assert user("undo", "a1", "--by", "host")[0] == 0
    assert user("audit")[1].splitlines()[-1] == (
        "audit: 1 discrepancy (in_progress 1); 3 hand(s) in 1 session(s) checked")


def test_void_of_hands_of_a_session_and_of_none_appends_the_latest_first(user, fri) -> None:  # noqa: ANN001
    """h1 and h2 of fri with five-card-draw and plo-three-way of data/hands (no session),
    stored after them, in one write: each hand's void rows follow the last row of the one
    after it in the ledger (plo, draw, h2, h1), whichever reads the ledger for its checks;
    the chain verifies, and h3, dealt on 102/98 as h2 left them, is said to stand as played,
    the 2 chips owed in settle."""
    assert user("import", str(DATA / "hands"))[0] == 0
    draw, plo = "phh-90f35dda9542", "phh-e90348620d79"
    head = int(user("sql", "SELECT max(position) FROM events", "--csv")[1].split()[1])
    code, out, err = user("void", draw, "h1", plo, "h2", *WHY)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        *H1_H2_VOIDED,
        f"voided hand {draw}: returned Bob 14, Cy 14, Ann 6; change in net: Bob +14, Cy -20, "
        "Ann +6; by the rules: Bob +14, Cy -20, Ann +6",
        f"voided hand {plo}: returned Ona 460, Pia 180, Quin 460; change in net: Ona +460, "
        "Pia +180, Quin -640; by the rules: Ona +460, Pia +180, Quin -640",
        *H3_AS_PLAYED]
    rows = user("sql", f"SELECT stream, seq, type FROM events WHERE position > {head}"
                " ORDER BY position", "--csv")[1].splitlines()
    assert rows == ["stream,seq,type", f"{plo},27,correction", f"{plo},28,hand_voided",
                    f"{draw},25,correction", f"{draw},26,hand_voided",
                    "h2,8,correction", "h2,9,hand_voided", "h1,8,correction", "h1,9,hand_voided"]
    assert user("verify")[0] == 0


def test_the_later_hands_looked_for_with_the_session_read_once(fri) -> None:  # noqa: ANN001
    """What h2's void leaves unfollowed, looked for with fri's hands read and replayed once
    for the whole write (``known``, filled as fri is met), is what the void of h2 alone
    finds: h3 starts Ann with 102 and Bob with 98, where h1 left them 101 and 99."""
    from ledger.store.store import Ledger
    from replay.corrections import void_checked
    from replay.later_hands import void_downstream

    with Ledger(str(fri), read_only=True) as ledger:
        alone = void_checked(ledger, "h2", reason="wrong ledger", by="host")
        known: dict = {}
        once = void_downstream(ledger, "h2", alone.session, alone.stored, alone.voided.hand,
                               known)
    assert [(d.hand, d.player, d.starting, d.expected, d.was) for d in once] == [
        ("h3", "Ann", 102, 101, 102), ("h3", "Bob", 98, 99, 98)]
    assert once == alone.voided.downstream
    assert list(known) == ["fri"]
    assert known["fri"].streams == ["h1", "h2", "h3"]
