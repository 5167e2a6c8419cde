"""``state`` of a hand that is over says so and shows what each player has after it: the
stacks after the payout the table recorded (the books' net, README "Net has one meaning
everywhere"), the rules' result when it recorded none, every chip back for a voided hand;
its pots explained in the words ``show`` ends with."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_live_table import LINES, SEATS, one_shot, table

#: The README's hand (tests/test_live_table.py) to the showdown: Ann's kings beat Bob's queens
#: for a pot of 300; Cy folded.
SHOWDOWN = [line for line in LINES if line != "state"][:-2]
EXPLAINED = "Main pot 300 (Ann, Bob): Ann wins 300 with pair of kings, A-9-7 kickers."


@pytest.fixture
def showdown(tmp_path: Path) -> Path:
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", SEATS, "--button", "Cy")[0] == 0
    done = table(db, "h1", SHOWDOWN)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return db


def _state(db: Path) -> list[str]:
    code, out, err = one_shot(db, "state", "h1")
    assert (code, err) == (0, "")
    return out.splitlines()


def test_a_hand_paid_and_ended_shows_the_stacks_after_the_payout(showdown: Path) -> None:
    before = _state(showdown)
    assert before[-2] == "stacks: Ann 50, Bob 0, Cy 300 (folded)"  # the chips in the middle
    assert table(showdown, "h1", ["pay Ann 300"]).returncode == 0
    paid = _state(showdown)  # not over yet: the 300 paid is in Ann's stack, out of the pot
    assert paid[2] == "Main pot: 0 of 300, the rest paid out (Ann, Bob)"
    assert paid[-2] == "stacks: Ann 350, Bob 0, Cy 300 (folded)"
    assert table(showdown, "h1", ["end"]).returncode == 0
    assert _state(showdown) == [
        "hand h1: NT, phase showdown, status complete",
        "hand complete",
        EXPLAINED,
        "paid: Ann 300",
        "stacks after the hand: Ann 350, Bob 0, Cy 300 (folded)"]
    code, out, _ = one_shot(showdown, "show", "h1")
    assert code == 0 and out.splitlines()[-1] == f"    {EXPLAINED}"


def test_a_hand_paid_against_the_rules_shows_what_the_table_paid(showdown: Path) -> None:
    assert table(showdown, "h1", ["pay Bob 300", "end"]).returncode == 0
    assert _state(showdown)[1:] == [
        "hand complete",
        EXPLAINED,
        "paid: Bob 300",
        "paid differently from the rules: hand h1: Ann was paid 0, the rules give 300 (-300)",
        "paid differently from the rules: hand h1: Bob was paid 300, the rules give 0 (+300)",
        "stacks after the hand: Ann 50, Bob 300, Cy 300 (folded)"]


def test_a_hand_ended_without_a_payout_shows_the_rules_result(showdown: Path) -> None:
    assert table(showdown, "h1", ["end"]).returncode == 0
    assert _state(showdown)[-2:] == [
        "paid: none recorded (the stacks after the hand are the rules' result)",
        "stacks after the hand: Ann 350, Bob 0, Cy 300 (folded)"]


def test_a_voided_hand_shows_every_chip_back(tmp_path: Path) -> None:
    db = tmp_path / "v.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", SEATS, "--button", "Cy")[0] == 0
    assert table(db, "h1", SHOWDOWN[:6]).returncode == 0  # Ann raised to 8, Bob to act
    assert one_shot(db, "void", "h1", "--reason", "misdeal", "--by", "Dee")[0] == 0
    assert _state(db) == [
        "hand h1: NT, phase bet, status voided",
        "hand voided: every contribution returned",
        "stacks after the hand: Ann 200, Bob 150, Cy 300 (folded)"]


def test_state_of_a_hand_over_loads_only_what_a_live_state_loads(showdown: Path) -> None:
    from tests.test_live_imports import HEAVY, _cli

    assert table(showdown, "h1", ["pay Bob 300", "end"]).returncode == 0
    code, out, modules = _cli(showdown, "state", "h1")
    assert code == 0 and out.splitlines()[-1].startswith("stacks after the hand: Ann 50")
    # a showdown's hands are evaluated (pokerkit's lookups, engine/evaluate.py), as for the
    # state at the showdown before the end; nothing else heavy (no renderer, no books)
    assert not modules & (HEAVY - {"pokerkit"}), modules & HEAVY


CUT = """variant = 'NT'
hand = 7
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 300, 300]
players = ['Ann', 'Bob', 'Cy']
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 6', 'p1 cc', 'p2 cc',
  'd db 2c7d9h']
"""


def test_a_hand_whose_log_stops_before_its_end_shows_every_chip_back(tmp_path: Path) -> None:
    """A file that stops at the flop is imported incomplete: 6 each in the pot, every chip
    returned (README: settled like a void, net 0), named cut-7 by its file and hand number."""
    db, path = tmp_path / "c.duckdb", tmp_path / "cut.phh"
    path.write_text(CUT, encoding="utf-8")
    assert one_shot(db, "import", str(path))[0] == 0
    code, out, err = one_shot(db, "state", "cut-7")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "hand cut-7: NT, phase bet, status incomplete",
        "hand incomplete: the log stops before its end, every contribution returned",
        "stacks after the hand: Ann 100, Bob 300, Cy 300"]


def test_a_hand_won_by_a_fold_is_named_no_showdown_by_state_and_show(tmp_path: Path) -> None:
    """Heads-up, Ann raises to 6 and Bob folds his big blind: the pot goes to Ann without a
    showdown (RULES.md §1.6). `act`, `state` and `show` name the phase after the fold `no
    showdown`, not `showdown` (nobody showed; a hand checked down to the river still says
    showdown, above); Ann's 4 uncalled come back and she takes the 4 in the pot."""
    db = tmp_path / "f.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    for action in ("d dh Ann ????", "d dh Bob ????", "Ann cbr 6"):
        assert one_shot(db, "act", "h1", action)[0] == 0, action
    assert one_shot(db, "act", "h1", "Bob f") == (
        0, "7 fold; phase no showdown, next: pay PLAYER AMOUNT, end\n", "")
    assert _state(db)[0] == "hand h1: NT, phase no showdown, status open"
    assert one_shot(db, "act", "h1", "end")[0] == 0
    assert _state(db) == [
        "hand h1: NT, phase no showdown, status complete",
        "hand complete",
        "Main pot 4 (Ann): Ann takes 4; nobody else is eligible.",
        "uncalled returned: Ann 4",
        "paid: none recorded (the stacks after the hand are the rules' result)",
        "stacks after the hand: Bob 98 (folded), Ann 102"]
    code, out, _ = one_shot(db, "show", "h1")
    assert code == 0 and out.splitlines()[5:8] == [
        "  6 Ann cbr 6                    pot 8 bet 6 [Bob:98 Ann:94] bet → Bob",
        "  7 Bob f                        pot 4 [Bob:98 Ann:98] no showdown",
        "  8 hand_ended                   pot 0 [Bob:98 Ann:102] no showdown"]
