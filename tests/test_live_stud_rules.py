"""Stud rules a live hand takes from its game: the odd chip among tied hands goes to the highest
card by suit, since stud has no button (RULES.md §2.2, §5), unless the hand says seat order
(§7.5); and the open-pair big bet on fourth street is for high stud only, never hi-lo nor a
declare hand (§4.1, §3)."""

from __future__ import annotations

from pathlib import Path

from ledger.store.store import Ledger
from tests.test_live_table import one_shot

STUD = ("--antes", "1", "--bring-in", "2", "--small-bet", "5", "--big-bet", "10",
        "--seats", "Ann:100,Bob:100,Cy:100")
THIRD = ["d dh Ann 5c6d7h", "d dh Bob 3c4cKs", "d dh Cy 5d6h2d", "Cy pb", "Ann cc", "Bob f"]
# Ann's board is the higher from fourth street on: she acts first on every street
LATER = ["d dh Ann 8s", "d dh Cy 7s", "Ann cc", "Cy cc", "d dh Ann 9c", "d dh Cy 8c", "Ann cc",
         "Cy cc", "d dh Ann Kc", "d dh Cy 9h", "Ann cc", "Cy cc", "d dh Ann 2h", "d dh Cy Kd",
         "Ann cc", "Cy cc", "Ann sm 5c6d7h8s9cKc2h", "Cy sm 5d6h2d7s8c9hKd", "end"]


def _table(user, hand: str, lines: list[str]) -> list[str]:  # noqa: ANN001
    code, out, err = user("table", hand, input="\n".join(lines) + "\n")
    assert (code, err) == (0, ""), err
    return out.splitlines()


def _pot_line(user, hand: str) -> str:  # noqa: ANN001
    code, out, err = user("show", hand)
    assert (code, err) == (0, "")
    text = " ".join(out.split())  # the line as printed, whatever the terminal width
    return text[text.index("Main pot"):]


def test_a_live_stud_tie_gives_the_odd_chip_to_the_highest_card_by_suit(user, db: str,  # noqa: ANN001
                                                                      tmp_path: Path) -> None:
    """Both make 5-6-7-8-9; the pot is 3 antes + the bring-in 2 + Ann's call 2 = 7. Ann's
    highest card is Kc, Cy's Kd: diamonds rank above clubs, so Cy takes the odd chip (§2.2),
    though Ann comes first in seat order. An export re-imported says the same."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "s3", "--game", "F7S", *STUD)[0] == 0
    _table(user, "s3", THIRD + LATER)
    assert _pot_line(user, "s3") == (
        "Main pot 7 (Ann, Cy): Ann and Cy tie with straight, nine high; Cy 4, Ann 3; odd chip "
        "to Cy (highest card by suit, Kd).")
    assert user("audit")[:2] == (
        0, "audit clean: 1 hand(s) in 0 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n")
    phh = tmp_path / "s3.phh"
    assert user("export", "--format", "phh", "s3", "-o", str(phh))[0] == 0
    assert ("_split = { odd_chip_between_halves = 'high', odd_chip_tie_order = 'card_by_suit' }"
            in phh.read_text(encoding="utf-8").splitlines())


def test_a_stud_hand_that_says_seat_order_keeps_it(user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    """RULES.md §7.5: a home game may give stud's odd chips by seat order from the dealer
    (``odd_chip_tie_order = left_of_button``); a hand file saying so is taken at its word:
    Ann, first in seat order, takes the odd chip."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "s3", "--game", "F7S", *STUD)[0] == 0
    _table(user, "s3", THIRD + LATER)
    phh = tmp_path / "s3.phh"
    assert user("export", "--format", "phh", "s3", "-o", str(phh))[0] == 0
    text = phh.read_text(encoding="utf-8")
    assert text.count("odd_chip_tie_order = 'card_by_suit'") == 1
    phh.write_text(text.replace("'card_by_suit'", "'left_of_button'"), encoding="utf-8")
    other = tmp_path / "other.duckdb"
    assert one_shot(other, "import", str(phh))[0] == 0
    code, shown, err = one_shot(other, "show", "s3")
    assert (code, err) == (0, "")
    shown = " ".join(shown.split())
    assert shown[shown.index("Main pot"):] == (
        "Main pot 7 (Ann, Cy): Ann and Cy tie with straight, nine high; Ann 4, Cy 3; odd chip "
        "to Ann (first in seat order).")


def _fourth_street(user, hand: str, game: str, *declare: str) -> str:  # noqa: ANN001
    """What Ann may do on fourth street with her open pair of sevens (7h up, then 7s)."""
    assert user("hand", "start", "--hand", hand, "--game", game, *declare, *STUD)[0] == 0
    return _table(user, hand, [*THIRD, "d dh Ann 7s", "d dh Cy 8c"])[-1].split("; ", 1)[1]


def _void(user, hand: str) -> None:  # noqa: ANN001
    """Void ``hand``, still in play, so that the next hand may seat its players (a player's
    chips are in one hand at a time, RULES.md §1.1: ``hand start`` refuses him beside it)."""
    assert user("void", hand, "--reason", "a new deal", "--by", "host")[0] == 0


def test_the_open_pair_big_bet_is_for_high_stud_only(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1: with an open pair on fourth street high stud may bet the small (5) or
    the big bet (10); hi-lo may not, and a declare hand is high-low (§3) though F7S alone is
    a high game."""
    Ledger(db).close()
    assert _fourth_street(user, "high", "F7S") == "Ann to act: check, bet 5 or 10"
    assert user("act", "high", "Ann cbr 7") == (  # nothing between the two bets
        2, "", "error: hand high, action 'Ann cbr 7': fixed limit: the bet is to 5 or 10, not 7; "
        "now: Ann to act: check, bet 5 or 10\n")
    code, out, _ = user("show", "high", "--at", "12")  # `show` at that step says the same
    assert code == 0 and "    at 12: Ann to act, check, bet 5 or 10" in out.splitlines()
    _void(user, "high")  # a player's chips are in one hand at a time (RULES.md §1.1)
    assert _fourth_street(user, "hilo", "F7S/8") == "Ann to act: check, bet to 5..5"
    _void(user, "hilo")
    assert _fourth_street(user, "dcl", "F7S", "--declare-options",
                          "method=simultaneous") == "Ann to act: check, bet to 5..5"
    assert user("act", "dcl", "Ann cbr 10") == (
        2, "", "error: hand dcl, action 'Ann cbr 10': bet to 10 is above the maximum 5; now: "
               "Ann to act: check, bet to 5..5\n")


def test_a_bring_in_with_an_upcard_unknown_names_only_what_is_known(user, db: str) -> None:  # noqa: ANN001
    """Third street with Ann's upcard unknown (``??``): the engine takes whoever posts first
    (it cannot tell), so the prompt may not name a seat it does not know (it said `Ann to
    act`). Cy's 2c is the lowest card there is (RULES.md §4.1: the lowest upcard by suit,
    clubs the lowest suit): he brings it in whatever Ann's is. Bob's Kd beside an unknown is
    not sure: a lower card may be Ann's. In razz (the highest upcard, aces low) Cy's Ks is
    the highest there is."""
    Ledger(db).close()
    start = ("hand", "start", "--game", "F7S", *STUD)
    assert user(*start[:2], "--hand", "x5", *start[2:])[0] == 0
    assert _table(user, "x5", ["d dh Ann ??????", "d dh Bob ????Kd", "d dh Cy ????2c"])[-1] == (
        "7 cards_dealt; Cy to act: bring in 2 (pb), complete to 5..5")
    _void(user, "x5")
    assert user("hand", "start", "--hand", "x6", "--game", "F7S", *STUD)[0] == 0
    out = _table(user, "x6", ["d dh Ann ??????", "d dh Bob ????Kd", "d dh Cy ????3c"])
    bring = "bring-in: the lowest upcard (unknown: Ann's): bring in 2 (pb), complete to 5..5"
    assert out[-1] == f"7 cards_dealt; {bring}"
    assert user("state", "x6")[1].splitlines()[1] == bring
    _void(user, "x6")
    assert user("hand", "start", "--hand", "x7", "--game", "F7S", *STUD)[0] == 0
    assert _table(user, "x7", ["d dh Ann ??????", "d dh Bob ??????", "d dh Cy ????3c"])[-1] == (
        "7 cards_dealt; bring-in: the lowest upcard (unknown: Ann's, Bob's): bring in 2 (pb), "
        "complete to 5..5")
    _void(user, "x7")
    assert user("hand", "start", "--hand", "r1", "--game", "FR", *STUD)[0] == 0
    assert _table(user, "r1", ["d dh Ann ??????", "d dh Bob ????Kd", "d dh Cy ????Ks"])[-1] == (
        "7 cards_dealt; Cy to act: bring in 2 (pb), complete to 5..5")


def test_a_bring_in_from_the_wrong_seat_beside_an_unseen_upcard_is_refused(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1: Cy shows the 2c, the lowest card there is, so Cy brings it in whatever
    Ann's unseen upcard is: Bob's bring-in is refused in one line, exit 2, and nothing is
    written (Cy is still to bring it in). Beside Cy's 3c, Ann's unseen card may be a two: Ann
    may bring it in, Bob (Kd) may not; Ann's 2 goes in beside her ante: 100 - 1 - 2 = 97, the
    pot 3 antes + 2 = 5."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "w1", "--game", "F7S", *STUD)[0] == 0
    _table(user, "w1", ["d dh Ann ??????", "d dh Bob ????Kd", "d dh Cy ????2c"])
    now = "now: Cy to act: bring in 2 (pb), complete to 5..5"
    assert user("act", "w1", "Bob pb") == (
        2, "", "error: hand w1, action 'Bob pb': out of turn: Cy must bring it in, not Bob "
               f"(Cy's 2c is the lowest upcard shown; Ann's is unseen); {now}\n")
    assert user("state", "w1")[1].splitlines()[1] == now[len("now: "):]
    # voided: w2 seats the same players (one hand at a time, RULES.md §1.1)
    assert user("void", "w1", "--reason", "a new deal", "--by", "host")[0] == 0
    assert user("hand", "start", "--hand", "w2", "--game", "F7S", *STUD)[0] == 0
    _table(user, "w2", ["d dh Ann ??????", "d dh Bob ????Kd", "d dh Cy ????3c"])
    assert user("act", "w2", "Bob pb") == (
        2, "", "error: hand w2, action 'Bob pb': out of turn: Ann or Cy must bring it in, not "
               "Bob (Cy's 3c is the lowest upcard shown; Ann's is unseen); now: bring-in: the "
               "lowest upcard (unknown: Ann's): bring in 2 (pb), complete to 5..5\n")
    assert user("act", "w2", "Ann pb") == (
        0, "8 forced_bet; Bob to act: to call 2, complete to 5..5\n", "")
    assert user("state", "w2")[1].splitlines()[3:5] == [
        "Main pot: 5 (Ann, Bob, Cy)", "stacks: Ann 97 bet 2, Bob 99, Cy 99"]


def test_the_lowest_upcard_all_in_on_the_ante_passes_the_bring_in_to_his_left(user, db: str  # noqa: ANN001
                                                                              ) -> None:
    """RULES.md §4.1 names the lowest upcard and says nothing of its owner all-in on the ante
    (docs/LIVE.md, "Blinds, straddles and stud's bring-in"): Ann's 3d is lowest, her 1 chip
    is her ante, so the bring-in passes to Bob on her left (Kc), not to Cy's Qc, the next
    lowest. Bob brings in 1: the antes of 3 are the main pot (Ann all-in for 1), Bob's 1 a
    side pot of Bob and Cy (RULES.md §1.2); Cy to call 1."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "a1", "--game", "F7S", "--antes", "1",
                "--bring-in", "1", "--small-bet", "2", "--big-bet", "4",
                "--seats", "Ann:1,Bob:50,Cy:50")[0] == 0
    _table(user, "a1", ["d dh Ann 2s4s3d", "d dh Bob 5h6hKc", "d dh Cy 7h8hQc"])
    now = "now: Bob to act: bring in 1 (pb), complete to 2..2"
    assert user("act", "a1", "Cy pb") == (
        2, "", f"error: hand a1, action 'Cy pb': out of turn: Bob must bring it in, not Cy; "
               f"{now}\n")
    assert user("act", "a1", "Bob pb") == (
        0, "8 forced_bet; Cy to act: to call 1, complete to 2..2\n", "")
    assert user("state", "a1")[1].splitlines()[3:6] == [
        "Main pot: 3 (Ann, Bob, Cy)", "Side pot 1: 1 (Bob, Cy)",
        "stacks: Ann 0, Bob 48 bet 1, Cy 49"]


def test_a_first_action_on_fourth_street_beside_an_unseen_upcard(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1: from fourth street on the best board acts first. Ann's upcards are
    unseen; Bob shows 9d 4c, Cy 2c 3d, below Bob's whatever Ann holds: Ann or Bob acts first,
    never Cy. `act` refuses Cy in one line, exit 2, nothing written, and `state` names who may
    act; Bob's bet is taken. Each put in the ante 1 and 2 on third street: 97 left, pot 9."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "f4", "--game", "F7S", *STUD)[0] == 0
    _table(user, "f4", ["d dh Ann ??????", "d dh Bob Qh5s9d", "d dh Cy 7d5d2c", "Cy pb",
                        "Ann cc", "Bob cc", "d dh Ann ??", "d dh Bob 4c", "d dh Cy 3d"])
    # no open pair: Ann's two unseen upcards pair nothing (the bet was 5..10 before)
    now = "first to act: Ann or Bob (the best board; unknown: Ann's): check, bet to 5..5"
    assert user("act", "f4", "Cy cc") == (
        2, "", "error: hand f4, action 'Cy cc': out of turn: Ann or Bob must act first, not Cy "
               f"(Bob's 9d 4c is the best board shown; Ann shows ?? ??); now: {now}\n")
    assert user("state", "f4")[1].splitlines()[1:5] == [
        now, "current bet 0", "Main pot: 9 (Ann, Bob, Cy)", "stacks: Ann 97, Bob 97, Cy 97"]
    assert user("act", "f4", "Bob cbr 5") == (
        0, "14 bet_raise; Cy to act: to call 5, raise to 10..10\n", "")


def test_two_unseen_upcards_are_no_open_pair(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1 gives the big bet on fourth street to an open pair showing; it says
    nothing of an unseen upcard, so Ann's ``??`` ``??`` pair nothing: no 10 beside the 5
    (it was `bet 5 or 10`). Cy's 2c, the lowest card there is, brings it in; Ann calls, Bob
    folds. On fourth street Ann's board may be the best (her unseen cards any two) and so may
    Cy's 2c 8c: either acts first. A known pair still opens the big bet (the test above)."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "u4", "--game", "F7S", *STUD)[0] == 0
    lines = _table(user, "u4", ["d dh Ann ??????", "d dh Bob 3c4cKs", "d dh Cy 5d6h2c",
                                "Cy pb", "Ann cc", "Bob f", "d dh Ann ??", "d dh Cy 8c"])
    first = "first to act: Ann or Cy (the best board; unknown: Ann's): check, bet to 5..5"
    assert lines[-1] == f"12 cards_dealt; {first}"
    assert user("act", "u4", "Ann cbr 10") == (
        2, "", f"error: hand u4, action 'Ann cbr 10': bet to 10 is above the maximum 5; now: "
               f"{first}\n")
    assert _table(user, "u4", ["Ann cbr 5"])[-1] == (
        "13 bet_raise; Cy to act: to call 5, raise to 10..10")


NO_LIMIT = ("--antes", "1", "--bring-in", "1", "--min-bet", "2",
            "--seats", "Ann:100,Bob:100,Cy:100")


def test_no_limit_stud_completes_the_bring_in_to_the_minimum_bet(user, db: str,  # noqa: ANN001
                                                                 tmp_path: Path) -> None:
    """RULES.md §4.1: raising the bring-in up to a full bet is a completion, not a raise; in
    no-limit stud the full bet is the minimum bet (2). Bob brings it in for 1, Cy completes
    to 2 (the completion sets the bet a raise is measured by: Ann may raise to 4), Ann
    raises to 6 (a raise of 4: the next is to 10), Bob folds, Cy calls. Pot: antes 3, Bob's
    1, Ann's and Cy's 6 each = 16. On fourth street Cy's pair of tens on board acts first,
    bets 10 and Ann folds: Cy takes the 16 and his 10 comes back. Stacks: Ann 100 - 1 - 6 =
    93, Bob 100 - 1 - 1 = 98, Cy 93 + 16 = 109. Its PHH export imports the same."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "n7", "--game", "N7S", *NO_LIMIT)[0] == 0
    lines = _table(user, "n7", ["d dh Ann KsKd5c", "d dh Bob Qs3d2d", "d dh Cy QhJdTc",
                                "Bob pb", "Cy cbr 2", "Ann cbr 6", "Bob f", "Cy cc",
                                "d dh Ann 9h", "d dh Cy Ts", "Cy cbr 10", "Ann f", "end"])
    assert lines[2:7] + lines[9:11] == [
        "7 cards_dealt; Bob to act: bring in 1 (pb), complete to 2..99",
        "8 forced_bet; Cy to act: to call 1, complete to 2..99",
        "9 bet_raise; Ann to act: to call 2, raise to 4..99",
        "10 bet_raise; Bob to act: to call 5, raise to 10..99",
        "11 fold; Cy to act: to call 4, raise to 10..99",
        "14 cards_dealt; Cy to act: check, bet to 2..93",
        "15 bet_raise; Ann to act: to call 10, raise to 20..93"]
    code, out, err = user("show", "n7")
    assert (code, err) == (0, "")
    shown = [" ".join(line.split()) for line in out.splitlines()]
    assert shown[-4:] == [
        "17 hand_ended pot 0 [Ann:93 Bob:98 Cy:109] no showdown",
        "no payout recorded: stacks as the rules award (Cy 26)",
        "Main pot 16 (Cy): Cy takes 16; nobody else is eligible.",
        "uncalled returned: Cy 10"]
    phh = tmp_path / "n7.phh"
    assert user("export", "--format", "phh", "n7", "-o", str(phh))[0] == 0
    assert "  'p3 cbr 2'," in phh.read_text(encoding="utf-8").splitlines()
    other = tmp_path / "other.duckdb"
    assert one_shot(other, "import", str(phh))[0] == 0
    code, out, err = one_shot(other, "show", "n7")
    assert (code, err) == (0, "")
    assert [" ".join(line.split()) for line in out.splitlines()][-4:] == shown[-4:]


def test_pot_limit_stud_completes_to_the_minimum_bet_at_most_the_pot(user, db: str) -> None:  # noqa: ANN001
    """Pot-limit stud (RULES.md §4.1, §1): facing the bring-in of 1 over antes of 2, Ann
    completes to 2 or makes it at most the pot after her call: 1 + 3 + 1 = 5; a completion
    to 2 lets Bob, who brought it in, raise to 4 up to 2 + 5 + 1 = 8."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "p7", "--game", "P7S", *NO_LIMIT[:6],
                "--seats", "Ann:100,Bob:100")[0] == 0
    assert _table(user, "p7", ["d dh Ann KsKd5c", "d dh Bob Qs3d2d", "Bob pb"])[-1] == (
        "6 forced_bet; Ann to act: to call 1, complete to 2..5")
    assert user("act", "p7", "Ann cbr 6") == (
        2, "", "error: hand p7, action 'Ann cbr 6': complete to 6 is above the maximum 5; "
               "now: Ann to act: to call 1, complete to 2..5\n")
    assert user("act", "p7", "Ann cbr 2") == (
        0, "7 bet_raise; Bob to act: to call 1, raise to 4..8\n", "")



def test_pot_limit_stud_three_handed_the_player_left_of_the_bring_in_acts(  # noqa: ANN001
        user, db: str) -> None:
    """docs/LIVE.md's pot-limit example three-handed: after Bob's bring-in of 1 over antes of
    3, Cy, on Bob's left, is next (not Ann, as heads-up) and completes to at most his call
    plus the pot after it: 1 + 4 + 1 = 6; no-limit, to all his 99 chips behind the ante (the
    hand voided before its players sit in the next)."""
    Ledger(db).close()
    for game, most in (("P7S", 6), ("N7S", 99)):
        hand = game.lower()
        assert user("hand", "start", "--hand", hand, "--game", game, *NO_LIMIT)[0] == 0
        assert _table(user, hand, ["d dh Ann AsKdQh", "d dh Bob 8c8d2s", "d dh Cy Th9h7d",
                                   "Bob pb"])[-1] == (
            f"8 forced_bet; Cy to act: to call 1, complete to 2..{most}")
        assert user("act", hand, "Ann cbr 2") == (
            2, "", f"error: hand {hand}, action 'Ann cbr 2': out of turn: Cy is to act, not "
                   f"Ann; now: Cy to act: to call 1, complete to 2..{most}\n")
        assert user("void", hand, "--reason", "seated again", "--by", "t")[0] == 0

HEADS_UP_N7S = """variant = 'N7S'
antes = [1, 1]
bring_in = {bring_in}
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 KsKd5c', 'd dh p2 Qs3d2d', 'p2 pb', 'p1 cbr 2', 'p2 cbr 4', 'p1 cc',
           'd dh p1 9h', 'd dh p2 Ts', 'p2 cbr 8', 'p1 f']
players = ['Ann', 'Bob']
_hand_id = 'hu'
"""


def test_a_phh_no_limit_stud_completion_is_imported(tmp_path: Path) -> None:
    """A PHH file's completion of the bring-in ('p2 pb', 'p1 cbr 2') and the raise over it
    to 4 (a full bet more): pot 2 antes + 4 + 4 = 10; Bob's board (Ts) acts first on fourth
    street, bets 8, Ann folds: Bob 100 - 5 + 10 = 105, Ann 95. A bring-in not below the
    minimum bet is refused, naming the file and line (RULES.md §4.1)."""
    phh = tmp_path / "hu.phh"
    phh.write_text(HEADS_UP_N7S.format(bring_in=1), encoding="utf-8")
    db = tmp_path / "hu.duckdb"
    assert one_shot(db, "import", str(phh))[0] == 0
    code, out, err = one_shot(db, "show", "hu")
    assert (code, err) == (0, "")
    assert [" ".join(line.split()) for line in out.splitlines()][-4:] == [
        "14 hand_ended pot 0 [Ann:95 Bob:105] no showdown",
        "no payout recorded: stacks as the rules award (Bob 18)",
        "Main pot 10 (Bob): Bob takes 10; nobody else is eligible.",
        "uncalled returned: Bob 8"]
    phh.write_text(HEADS_UP_N7S.format(bring_in=2), encoding="utf-8")
    code, out, err = one_shot(tmp_path / "bad.duckdb", "import", str(phh))
    assert (code, err) == (2, f"error: {phh}:3, hand hu: bring_in 2 is not below min_bet 2: "
                              "the bring-in is less than a full bet, which completing it "
                              "makes (RULES.md §4.1)\n")


def test_a_completion_reopens_the_betting_for_the_bring_in_and_its_callers(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §4.1 (RR-STUD 3): completing the bring-in is the round's first full bet, so
    the bring-in and whoever called it may raise it, however near the bring-in is to the full
    bet. Bring-in 3, small bet 5: Dee brings it in, Eve calls 3, Cy completes to 5; Dee and
    Eve, 2 short each, may raise to 10 (under the half-bet rule a 2-chip increase over their
    3 was below half a bet, and they could only call). Under the full-bet reopen rule the
    same holds for a bring-in of 1 completed to 2."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "b3", "--game", "F7S", "--antes", "1",
                "--bring-in", "3", "--small-bet", "5", "--big-bet", "10",
                "--seats", "Cy:100,Dee:100,Eve:100")[0] == 0
    assert _table(user, "b3", ["d dh Cy KsKd5c", "d dh Dee Qs3d2d", "d dh Eve Jh9h8h",
                               "Dee pb", "Eve cc", "Cy cbr 5", "Dee cc"])[-4:] == [
        "8 forced_bet; Eve to act: to call 3, complete to 5..5",
        "9 call; Cy to act: to call 3, complete to 5..5",
        "10 bet_raise; Dee to act: to call 2, raise to 10..10",
        "11 call; Eve to act: to call 2, raise to 10..10"]
    _void(user, "b3")
    assert user("hand", "start", "--hand", "b1", "--game", "F7S", "--antes", "1",
                "--bring-in", "1", "--small-bet", "2", "--big-bet", "4", "--reopen-rule",
                "full_bet", "--seats", "Cy:100,Dee:100")[0] == 0
    assert _table(user, "b1", ["d dh Cy KsKd5c", "d dh Dee Qs3d2d", "Dee pb",
                               "Cy cbr 2"])[-1] == (
        "7 bet_raise; Dee to act: to call 1, raise to 4..4")


def test_an_all_in_counted_as_the_completion_is_raised_not_completed(user, db: str) -> None:  # noqa: ANN001
    """RULES.md §1.7 (half-bet rule) and §4.1: bring-in 2, small bet 4. Ann, left 3 after
    her ante, opens all-in for 3 in place of the bring-in: 3 is at least half a bet, so it
    counts as the full completion, and Bob faces a raise to 3 + 4 = 7 ("raise", not
    "complete"; a raise to 5 is refused in those words). When Ann brings it in for 2 and
    Bob, left 3, goes all-in for 3, the 1 over the bring-in is below half a bet: no full
    bet yet, and Cy may still complete to 4."""
    Ledger(db).close()
    stakes = ("--game", "F7S", "--antes", "1", "--bring-in", "2", "--small-bet", "4",
              "--big-bet", "8")
    assert user("hand", "start", "--hand", "S3", *stakes,
                "--seats", "Ann:4,Bob:100,Cy:100")[0] == 0
    deal = ["d dh Ann 8c8d2c", "d dh Bob Th9h3d", "d dh Cy AsKsQd"]
    assert _table(user, "S3", [*deal, "Ann cbr 3"])[-1] == (
        "8 all_in; Bob to act: to call 3, raise to 7..7")
    assert user("act", "S3", "Bob cbr 5") == (
        2, "", "error: hand S3, action 'Bob cbr 5': raise to 5 is below the minimum 7; "
               "now: Bob to act: to call 3, raise to 7..7\n")
    _void(user, "S3")
    assert user("hand", "start", "--hand", "S4", *stakes,
                "--seats", "Ann:100,Bob:4,Cy:100")[0] == 0
    assert _table(user, "S4", [*deal, "Ann pb", "Bob cbr 3"])[-2:] == [
        "8 forced_bet; Bob to act: to call 2, complete to 3..3",
        "9 all_in; Cy to act: to call 3, complete to 4..4"]
