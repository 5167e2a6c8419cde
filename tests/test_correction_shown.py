"""A shown hand stays shown in a correction as at the table (RULES.md §1.5, FORMATS.md §1
``sm``): ``correct`` and ``whatif`` refuse a muck put in after the player's show (it would
give the pot his cards win to another player) and a show of the same cards put in again, as
live ``act`` refuses them, in one line, nothing written; a correction that also takes the
earlier show away goes in."""

from __future__ import annotations

from pathlib import Path

MUCKED = "Ann has shown AsKs already; a shown hand stays shown"


def _shown_down(user) -> None:  # noqa: ANN001
    """Hold'em heads-up checked down: Ann AsKs (seq 17 shows them), then Bob QhQd (seq 18),
    board 2c7h9sKd3c, the end seq 19; Ann wins the 4-chip pot (+2, Bob -2)."""
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    for action in ["d dh Ann AsKs", "d dh Bob QhQd", "Ann cc", "Bob cc", "d db 2c7h9s",
                   "Bob cc", "Ann cc", "d db Kd", "Bob cc", "Ann cc", "d db 3c", "Bob cc",
                   "Ann cc", "Ann sm AsKs", "Bob sm QhQd", "end"]:
        assert user("act", "h1", action)[0] == 0, action


def test_a_muck_or_a_show_again_after_a_show_is_refused(user, db: str) -> None:  # noqa: ANN001
    _shown_down(user)
    before = Path(db).read_bytes()
    assert user("correct", "h1", "--insert-after", "18", "Ann sm", "--reason", "r",
                "--by", "floor") == (
        2, "", f"error: hand h1: correction insert_after 18 'Ann sm': {MUCKED}\n")
    assert user("whatif", "h1", "--insert-after", "18", "Ann sm") == (
        2, "", f"error: hand h1: what-if insert_after 18 'Ann sm': {MUCKED}\n")
    assert user("correct", "h1", "--insert-after", "17", "Ann sm AsKs", "--reason", "r",
                "--by", "floor") == (
        2, "", "error: hand h1: correction insert_after 17 'Ann sm AsKs': Ann has shown AsKs "
               "already\n")
    # a show put in before the one recorded makes that one the second
    assert user("whatif", "h1", "--insert-after", "16", "Ann sm AsKs") == (
        2, "", "error: hand h1: what-if insert_after 16 'Ann sm AsKs': then seq 17 (reveal "
               "by Ann): Ann has shown AsKs already\n")
    assert Path(db).read_bytes() == before


def test_a_muck_that_replaces_the_show_goes_in(user) -> None:  # noqa: ANN001
    """The show taken away by the same correction: Ann mucked, Bob's shown queens win."""
    _shown_down(user)
    assert user("correct", "h1", "--delete", "17", "--insert-after", "18", "Ann sm",
                "--reason", "Ann mucked", "--by", "floor") == (
        0, "corrected hand h1 (seq 20); change in net: Bob +4, Ann -4; by the rules: Bob +4, "
           "Ann -4\n", "")


def test_a_winner_moved_in_a_hand_in_play_is_named(user, db: str) -> None:  # noqa: ANN001
    """Checked down, not ended: Ann shows 2c3c (king high), Bob mucks AhAd; by the rules Ann
    takes the 4-chip pot. Bob showing his aces instead gives it to Bob. Nothing is paid
    until the hand ends (the nets stay -2/-2), so whatif and correct name the pot's winner
    before and after."""
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    lines = ["d dh Bob AhAd", "d dh Ann 2c3c", "Ann cc", "Bob cc", "d db KsQsJd", "Bob cc",
             "Ann cc", "d db 9c", "Bob cc", "Ann cc", "d db 4h", "Bob cc", "Ann cc",
             "Ann sm 2c3c", "Bob sm"]
    assert user("table", "h1", input="\n".join(lines) + "\n")[0] == 0
    moved = ("Main pot 4 by the rules: Ann before, Bob after (the hand is in play: nothing is "
             "paid until it ends)")
    code, out, err = user("whatif", "h1", "--replace", "18", "Bob sm AhAd")
    assert (code, err) == (0, "")
    assert out.splitlines()[3:] == [
        "  Bob               -2      -2      +0           -2          -2         +0",
        "  Ann               -2      -2      +0           -2          -2         +0",
        f"  {moved}"]
    assert user("correct", "h1", "--replace", "18", "Bob sm AhAd", "--reason", "x", "--by",
                "host") == (
        0, f"corrected hand h1 (seq 19); change in net: none; by the rules: no net moves until "
        f"the hand ends; {moved}\n", "")
    # ended with no payout recorded, the rules' award is the net: both columns move
    assert user("act", "h1", "end")[1].startswith("20 hand_ended; hand complete")
    assert user("whatif", "h1", "--replace", "18", "Bob sm")[1].splitlines()[3:] == [
        "  Bob               +2      -2      -4           +2          -2         -4",
        "  Ann               -2      +2      +4           -2          +2         +4"]


def test_two_rows_inserted_after_one_seq_are_shown_as_show_at_names_them(user) -> None:  # noqa: ANN001
    """Ann's 4-chip pot recorded paid in two payouts inserted after seq 18 (3, then 1): show
    numbers them 18+1 and 18+2, as `show --at` stops after each (the one row inserted after a
    seq stays N+), and the stacks after each are Ann 101, then 102."""
    _shown_down(user)
    assert user("correct", "h1", "--insert-after", "18", "pay Ann 3", "--insert-after", "18",
                "pay Ann 1", "--reason", "paid in two", "--by", "floor")[0] == 0
    rows = [line for line in user("show", "h1")[1].splitlines() if line.startswith("18+")]
    assert rows == ["18+1 pay Ann 3                    pot 1 [Bob:98 Ann:101] showdown",
                    "18+2 pay Ann 1                    pot 0 [Bob:98 Ann:102] showdown"]
    at = user("show", "h1", "--at", "18+1")[1].splitlines()
    assert [line for line in at if line.startswith("18+")] == [rows[0]]


def test_the_label_column_is_as_wide_as_its_widest_label(user) -> None:  # noqa: ANN001
    """18+1 is 4 characters: every label is right-aligned in a column of 4, so the table
    stays aligned (a column of 3 let 18+1 push its row one character right)."""
    _shown_down(user)
    assert user("correct", "h1", "--insert-after", "18", "pay Ann 3", "--insert-after", "18",
                "pay Ann 1", "--reason", "paid in two", "--by", "floor")[0] == 0
    assert user("show", "h1")[1].splitlines()[17:22] == [
        "  17 Ann sm AsKs                  pot 4 [Bob:98 Ann:98] showdown",
        "  18 Bob sm QhQd                  pot 4 [Bob:98 Ann:98] showdown",
        "18+1 pay Ann 3                    pot 1 [Bob:98 Ann:101] showdown",
        "18+2 pay Ann 1                    pot 0 [Bob:98 Ann:102] showdown",
        "  19 hand_ended                   pot 0 [Bob:98 Ann:102] showdown"]


def test_a_row_label_with_its_number_is_read_as_show_prints_it(user, db: str) -> None:  # noqa: ANN001
    """With 18+1 and 18+2 inserted (correction 20), `--replace 18+2` names row 18+2 and the
    correction that inserted it; `--replace 18+3` and `--insert-after 18+3` name row 18+3,
    which the hand does not have (it was read as 18+ before); nothing written."""
    _shown_down(user)
    assert user("correct", "h1", "--insert-after", "18", "pay Ann 3", "--insert-after", "18",
                "pay Ann 1", "--reason", "paid in two", "--by", "floor")[0] == 0
    before = Path(db).read_bytes()
    assert user("correct", "h1", "--replace", "18+2", "pay Ann 2", "--reason", "r", "--by",
                "floor") == (
        2, "", "error: hand h1: replace 18+2: seq 18+2 is a row correction 20 inserted after "
               "seq 18, and a correction names the hand's original rows (those `handledger "
               "show` numbers without +): to change it, take correction 20 back (`handledger "
               "undo h1 --by …` takes back the last correction or void appended to the hand, "
               "an undo after it the one before) and correct again\n")
    missing = ("18+3: the hand has no row 18+3: the corrections in force inserted 2 rows, "
               "which `handledger show h1` numbers 18+1 to 18+2, after seq 18\n")
    assert user("correct", "h1", "--replace", "18+3", "pay Ann 2", "--reason", "r", "--by",
                "floor") == (2, "", f"error: hand h1: replace {missing}")
    assert user("whatif", "h1", "--insert-after", "18+3", "pay Ann 2") == (
        2, "", f"error: hand h1: insert_after {missing}")
    assert Path(db).read_bytes() == before
