"""The cards-speak split options and the reopen rule of a live hand (RULES.md §1.7, §2, §5):
``hand start --split-options`` (the keys of a PHH hand's ``_split`` but ``smallest_chip``) and
``--reopen-rule`` (its ``_reopen_rule``) store what an imported hand stores for the same
tables, are refused as ``--declare-options`` is (one line, exit 2, nothing written), and
``whatif`` and ``correct`` judge the hand under them."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from tests.console_run import handledger
from tests.test_live_table import events

# FO/8, blinds 1/2, bets 2/4; seats in PHH order: Dee (small blind), Ann (big blind), Bob, Cy
# (the button). Dee folds her blind; Ann, Bob and Cy are in for 2 each: the pot is 1 + 3×2 = 7.
# Board 2c 5d 7h Ks Kd. High: Ann's Kh with the board's kings, three kings (Bob KKQQ, Cy KKJJ:
# two pair); Ann has no low (no two hole cards of 8 or lower). Low: Bob (As 3d) and Cy (Ac 3h)
# both make 7-5-3-2-A and tie.
OMAHA8 = ("--game", "FO/8", "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4",
          "--seats", "Dee:50,Ann:50,Bob:50,Cy:50", "--button", "Cy")
OMAHA8_ACTIONS = [
    "d dh Dee 9s9hTcTd", "d dh Ann KhQcJdTs", "d dh Bob As3dQhQd", "d dh Cy Ac3hJhJc",
    "Bob cc", "Cy cc", "Dee f", "Ann cc", "d db 2c5d7h", "Ann cc", "Bob cc", "Cy cc",
    "d db Ks", "Ann cc", "Bob cc", "Cy cc", "d db Kd", "Ann cc", "Bob cc", "Cy cc",
    "Ann sm KhQcJdTs", "Bob sm As3dQhQd", "Cy sm Ac3hJhJc"]
# FT, blinds 1/2, bets 2/4; PHH order Ann (small blind), Bob (big blind, 5 chips), Cy (button).
# All call 2 before the flop; on the flop Ann bets 2 and Bob, 3 behind, raises all in to 3:
# 1 over the bet, half of the 2, short of a full raise. Cy, who has not acted, calls 3.
LIMIT = ("--game", "FT", "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4",
         "--seats", "Ann:50,Bob:5,Cy:50", "--button", "Cy")
LIMIT_ACTIONS = ["d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c7d", "Cy cc", "Ann cc", "Bob cc",
                 "d db 2c8h9s", "Ann cbr 2", "Bob cbr 3"]


def _table(db: Path, hand: str, lines: list[str]) -> list[str]:
    code, out, err = handledger(db, "table", hand, input="\n".join(lines) + "\n")
    assert (code, err) == (0, ""), err
    return out.splitlines()


def _pot_line(db: Path, hand: str) -> str:
    code, out, err = handledger(db, "show", hand)
    assert (code, err) == (0, "")
    text = " ".join(out.split())  # the line as printed, whatever the terminal width
    return text[text.index("Main pot"):]


def _omaha8(db: Path, hand: str, *options: str) -> str:
    """The O/8 hand above, checked down and ended without a payout recorded: the line of
    ``show`` saying how the rules split the pot of 7."""
    assert handledger(db, "hand", "start", "--hand", hand, *OMAHA8, *options)[:2] == (
        0, f"{hand}\n")
    assert _table(db, hand, [*OMAHA8_ACTIONS, "end"])[-1] == "27 hand_ended; hand complete"
    return _pot_line(db, hand)


def _options(db: Path, hand: str) -> dict[str, object]:
    """The ``options`` of ``hand``'s stored ``hand_started``."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        (payload,) = con.execute("SELECT payload FROM events WHERE hand_id = ? AND seq = 1 "
                                 "AND type = 'hand_started'", [hand]).fetchone()
    finally:
        con.close()
    return json.loads(payload)["options"]


def test_a_quartered_low_takes_the_odd_chip_under_low_if_low_quartered(tmp_path: Path) -> None:
    """RULES.md §2.2, §2.3: the pot of 7 splits 4 high, 3 low by default (the high half takes
    the odd chip): Ann 4, the tied lows 2 (Bob, first left of the button) and 1 (Cy). Ann
    wins high alone and the low is quartered, so under ``low_if_low_quartered`` the odd chip
    goes to the low half: Ann 3, Bob 2, Cy 2."""
    db = tmp_path / "o.duckdb"
    assert _omaha8(db, "h1") == (
        "Main pot 7 (Ann, Bob, Cy): Split high/low, the odd chip to the high half. High 4: Ann "
        "wins 4 with three of a kind, kings, Q-7 kickers. Low 3: Bob and Cy tie with "
        "7-5-3-2-A low; Bob 2, Cy 1; odd chip to Bob (first left of the button).")
    assert _omaha8(db, "h2", "--split-options",
                   "odd_chip_between_halves=low_if_low_quartered") == (
        "Main pot 7 (Ann, Bob, Cy): Split high/low, the odd chip to the low half (high won "
        "alone, low quartered). High 3: Ann wins 3 with three of a kind, kings, Q-7 kickers. "
        "Low 4: Bob and Cy tie with 7-5-3-2-A low; 2 each.")
    code, out, _ = handledger(db, "state", "h2")
    assert code == 0
    assert out.splitlines()[-1] == "stacks after the hand: Dee 49 (folded), Ann 51, Bob 50, Cy 50"


def test_a_tied_low_gives_the_odd_chip_by_suit_under_card_by_suit(tmp_path: Path) -> None:
    """RULES.md §2.2: under ``card_by_suit`` the odd chip of the low half of 3 goes to the
    tied hand holding the lowest card by suit (aces low in an A-5 low, clubs the lowest
    suit): Cy's Ac below Bob's As, so Cy 2, Bob 1 (by seat, Bob would take it); Ann's high
    half is 4. Both options together: Ann 3, Bob 2, Cy 2, as an imported hand stores them."""
    db = tmp_path / "s.duckdb"
    assert _omaha8(db, "h1", "--split-options", "odd_chip_tie_order=card_by_suit") == (
        "Main pot 7 (Ann, Bob, Cy): Split high/low, the odd chip to the high half. High 4: Ann "
        "wins 4 with three of a kind, kings, Q-7 kickers. Low 3: Bob and Cy tie with "
        "7-5-3-2-A low; Cy 2, Bob 1; odd chip to Cy (lowest card by suit, Ac).")
    assert _omaha8(db, "h2", "--split-options", "odd_chip_tie_order=card_by_suit, "
                   "odd_chip_between_halves=low_if_low_quartered").endswith(
        "High 3: Ann wins 3 with three of a kind, kings, Q-7 kickers. Low 4: Bob and Cy tie "
        "with 7-5-3-2-A low; 2 each.")


def _limit(db: Path, hand: str, *options: str) -> list[str]:
    assert handledger(db, "hand", "start", "--hand", hand, *LIMIT, *options)[:2] == (
        0, f"{hand}\n")
    return _table(db, hand, [*LIMIT_ACTIONS, "Cy cc"])[-3:]


def test_a_short_all_in_of_half_a_bet_reopens_under_half_bet_only(tmp_path: Path) -> None:
    """RULES.md §1.7: in limit, an all-in of half a bet or more counts as a full bet under the
    half-bet rule (the game's default): Ann, who bet, may raise again, to 3 + 2 = 5. Under
    the full-bet rule a raise short of a full one does not reopen the betting: Ann may only
    call or fold, and her raise is refused."""
    db = tmp_path / "r.duckdb"
    half = ["11 bet_raise; Bob to act: to call 2, raise to 3..3",
            "12 all_in; Cy to act: to call 3, raise to 5..5",
            "13 call; Ann to act: to call 1, raise to 5..5"]
    assert _limit(db, "d1") == half
    assert handledger(db, "act", "d1", "Ann cbr 5") == (
        0, "14 bet_raise; Cy to act: to call 2, raise to 7..7\n", "")
    assert handledger(db, "void", "d1", "--reason", "a new deal", "--by", "host")[0] == 0
    assert _limit(db, "h1", "--reopen-rule", "half_bet") == half
    assert _options(db, "h1") == _options(db, "d1")
    assert handledger(db, "void", "h1", "--reason", "a new deal", "--by", "host")[0] == 0
    assert _limit(db, "f1", "--reopen-rule", "full_bet") == [
        "11 bet_raise; Bob to act: to call 2, raise to 3..3",
        "12 all_in; Cy to act: to call 3, raise to 4..4",
        "13 call; Ann to act: to call 1 (no raise: the betting was not reopened: a short "
        "all-in is not a full raise)"]
    assert handledger(db, "act", "f1", "Ann cbr 5") == (
        2, "", "error: hand f1, action 'Ann cbr 5': Ann cannot raise: the betting was not "
               "reopened: a short all-in is not a full raise; now: Ann to act: to call 1 (no "
               "raise: the betting was not reopened: a short all-in is not a full raise)\n")
    # whatif judges a change under the hand's own rule: Ann's call (seq 14) made a raise
    refused = ("error: hand f1: the hand with these changes is not legal: event 14 (bet_raise "
               "by Ann): Ann cannot raise: the betting was not reopened: a short all-in is not "
               "a full raise\n")
    assert handledger(db, "act", "f1", "Ann cc")[0] == 0
    assert handledger(db, "whatif", "f1", "--replace", "14", "Ann cbr 5") == (2, "", refused)
    before = events(db)
    assert handledger(db, "correct", "f1", "--replace", "14", "Ann cbr 5", "--reason", "x",
                      "--by", "host") == (2, "", refused.replace(
                          "the hand with these changes", "the corrected hand"))
    assert events(db) == before


def test_the_half_bet_rule_in_a_no_limit_game_reopens_on_half_a_raise(tmp_path: Path) -> None:
    """RULES.md §1.7, §5: the half-bet rule chosen for a big-bet game counts an all-in of half
    the last full raise or more as a full raise, as in limit. A raises to 10 (a raise of 8);
    B's all-in to 17 raises 7, at least half of 8: A may raise again, to 17 + 8 = 25. B's
    all-in to 13 raises 3, below half: A may only call. Under the game's own full-bet rule
    the raise of 7 does not reopen either."""
    db = tmp_path / "n.duckdb"

    def hand(name: str, stack: int, *options: str) -> list[str]:
        assert handledger(db, "hand", "start", "--hand", name, "--game", "NT", "--stakes",
                          "1/2", "--seats", f"A:100,B:{stack},C:100", "--button", "A",
                          *options)[:2] == (0, f"{name}\n")
        said = _table(db, name, ["d dh B ????", "d dh C ????", "d dh A ????", "A cbr 10",
                                 f"B cbr {stack}", "C cc"])[-1:]
        assert handledger(db, "void", name, "--reason", "a new deal", "--by", "host")[0] == 0
        return said

    assert hand("h1", 17, "--reopen-rule", "half_bet") == [
        "9 call; A to act: to call 7, raise to 25..100"]
    assert hand("h2", 13, "--reopen-rule", "half_bet") == [
        "9 call; A to act: to call 3 (no raise: the betting was not reopened: a short all-in "
        "is not a full raise)"]
    assert hand("h3", 17) == [
        "9 call; A to act: to call 7 (no raise: the betting was not reopened: a short all-in "
        "is not a full raise)"]


def test_live_options_are_stored_as_an_imported_hand_stores_them(tmp_path: Path) -> None:
    """The same ``_split`` and ``_reopen_rule`` in a PHH file give the same options JSON as
    the typed ones, the keys not given taking the same defaults (stud: ``card_by_suit``), and
    an export of the live hand writes them back as those tables."""
    db = tmp_path / "p.duckdb"
    phh = tmp_path / "o8.phh"
    phh.write_text("\n".join([
        "variant = 'FO/8'", "antes = [0, 0, 0, 0]", "blinds_or_straddles = [1, 2, 0, 0]",
        "small_bet = 2", "big_bet = 4", "starting_stacks = [50, 50, 50, 50]",
        "players = ['Dee', 'Ann', 'Bob', 'Cy']", "_reopen_rule = 'full_bet'",
        "_split = { odd_chip_tie_order = 'card_by_suit', odd_chip_between_halves = "
        "'low_if_low_quartered', low_qualifier = 'none' }",
        "actions = ['d dh p1 9s9hTcTd', 'd dh p2 KhQcJdTs', 'd dh p3 As3dQhQd', "
        "'d dh p4 Ac3hJhJc', 'p3 cc']", ""]), encoding="utf-8")
    assert handledger(db, "import", str(phh))[0] == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        (imported,) = con.execute("SELECT hand_id FROM events WHERE type = 'hand_started'"
                                  ).fetchone()
    finally:
        con.close()
    assert handledger(db, "void", imported, "--reason", "a new deal", "--by", "host")[0] == 0
    assert handledger(db, "hand", "start", "--hand", "live", *OMAHA8,
                      "--reopen-rule", "full_bet", "--split-options",
                      "low_qualifier=none,odd_chip_between_halves=low_if_low_quartered,"
                      "odd_chip_tie_order=card_by_suit")[:2] == (0, "live\n")
    assert _options(db, "live") == _options(db, imported) == {
        "reopen_rule": "full_bet",
        "split": {"odd_chip_between_halves": "low_if_low_quartered",
                  "odd_chip_tie_order": "card_by_suit", "low_method": "A-5",
                  "low_qualifier": "none"},
        "declare": None}
    out = tmp_path / "live.phh"
    assert handledger(db, "export", "--format", "phh", "live", "-o", str(out))[0] == 0
    assert [line for line in out.read_text(encoding="utf-8").splitlines()
            if line.startswith(("_reopen_rule", "_split"))] == [
        "_reopen_rule = 'full_bet'",
        "_split = { odd_chip_between_halves = 'low_if_low_quartered', odd_chip_tie_order = "
        "'card_by_suit', low_qualifier = 'none' }"]
    stud = ("--game", "F7S/8", "--antes", "1", "--bring-in", "2", "--small-bet", "5",
            "--big-bet", "10", "--seats", "Eve:100,Fay:100")
    assert handledger(db, "hand", "start", "--hand", "stud", *stud, "--split-options",
                      "odd_chip_between_halves=low_if_low_quartered")[:2] == (0, "stud\n")
    assert _options(db, "stud")["split"] == {  # type: ignore[index]
        "odd_chip_between_halves": "low_if_low_quartered", "odd_chip_tie_order": "card_by_suit",
        "low_method": "A-5", "low_qualifier": "8_or_better"}


def test_a_correction_keeps_the_split_options(tmp_path: Path) -> None:
    """The table paid the low's odd chip by seat (Bob 2, Cy 1) in a hand under
    ``card_by_suit``: recorded with a warning; ``whatif`` and ``correct`` judge the fix under
    the hand's option (Cy 2, Bob 1: the rules' side unchanged), and the corrected hand is paid
    as the rules give."""
    db = tmp_path / "c.duckdb"
    assert handledger(db, "hand", "start", "--hand", "c1", *OMAHA8, "--split-options",
                      "odd_chip_tie_order=card_by_suit")[0] == 0
    code, out, err = handledger(db, "table", "c1", input="\n".join(
        [*OMAHA8_ACTIONS, "pay Ann 4", "pay Bob 2", "pay Cy 1", "end"]) + "\n")
    assert (code, out.splitlines()[-1]) == (0, "30 hand_ended; hand complete")
    assert err.splitlines() == [
        "warning: paid differently from the rules: hand c1: Bob was paid 2, the rules give 1 "
        "(+1) (recorded as the table paid it; `handledger correct` puts it right)",
        "warning: paid differently from the rules: hand c1: Cy was paid 1, the rules give 2 "
        "(-1) (recorded as the table paid it; `handledger correct` puts it right)"]
    fix = ("--replace", "28", "pay Bob 1", "--replace", "29", "pay Cy 2")
    code, out, err = handledger(db, "whatif", "c1", *fix)
    assert (code, err) == (0, "")
    assert [" ".join(line.split()) for line in out.splitlines()[3:]] == [
        "Dee -1 -1 +0 -1 -1 +0", "Ann +2 +2 +0 +2 +2 +0", "Bob -1 -1 +0 +0 -1 -1",
        "Cy +0 +0 +0 -1 +0 +1"]
    assert handledger(db, "correct", "c1", *fix, "--reason", "odd chip by suit", "--by",
                      "host") == (0, "corrected hand c1 (seq 31); change in net: Bob -1, Cy "
                                     "+1; by the rules: unchanged\n", "")
    code, out, _ = handledger(db, "show", "c1")
    assert code == 0 and "paid differently" not in out
    assert "odd chip to Cy (lowest card by suit, Ac)." in " ".join(out.split())


START = ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "A:100,B:100",
         "--button", "A")
SPLIT_KEYS = "odd_chip_between_halves, odd_chip_tie_order, low_method, low_qualifier"


@pytest.mark.parametrize(("given", "said"), [
    (("--split-options", "foo=bar"),
     f"--split-options: 'foo' is not a split option: the keys are {SPLIT_KEYS} (RULES.md §5)"),
    (("--split-options", "smallest_chip=5"),
     f"--split-options: 'smallest_chip' is not a split option: the keys are {SPLIT_KEYS} "
     "(RULES.md §5)"),
    (("--split-options", ""),
     f"--split-options '' gives no option: give KEY=VALUE items ({SPLIT_KEYS}), or leave it "
     "out for the game's defaults (RULES.md §5)"),
    (("--split-options", "odd_chip_tie_order"),
     "--split-options: 'odd_chip_tie_order' is not KEY=VALUE"),
    (("--split-options", "odd_chip_tie_order=by_suit"),
     "--split-options: odd_chip_tie_order takes left_of_button, card_by_suit or "
     "carry_to_next_hand, not 'by_suit'"),
    (("--split-options", "low_method=A-5,low_method=2-7"),
     "--split-options: low_method is given twice (A-5, then 2-7): give each key once"),
    (("--split-options", "odd_chip_between_halves=low"),
     "--split-options: odd_chip_between_halves takes high or low_if_low_quartered, not 'low'"),
    (("--reopen-rule", "half"), "--reopen-rule takes full_bet or half_bet, not 'half'"),
    (("--reopen-rule", ""), "--reopen-rule takes full_bet or half_bet, not ''"),
    (("--split-options", "odd_chip_tie_order=carry_to_next_hand"),
     "--split-options odd_chip_tie_order=carry_to_next_hand leaves an odd chip among tied "
     "hands for the session's next hand (RULES.md §2.2, §7.1), and a hand of no session has "
     "none: give --session S, or odd_chip_tie_order=left_of_button or card_by_suit"),
])
def test_bad_split_options_and_reopen_rules_are_refused_in_one_line(
        tmp_path: Path, given: tuple[str, str], said: str) -> None:
    db = tmp_path / "d.duckdb"
    assert handledger(db, *START, *given) == (2, "", f"error: {said}\n")
    assert not db.exists()


@pytest.mark.parametrize(("given", "said"), [
    (("--split-options", "low_qualifier=none"),
     "--split-options: low_qualifier splits a cards-speak high-low pot (RULES.md §2), and NT "
     "has no low half: leave it out"),
    (("--split-options", "odd_chip_tie_order=card_by_suit,odd_chip_between_halves=high",
      "--declare-options", "method=in_turn"),
     "--split-options: odd_chip_between_halves splits a cards-speak high-low pot (RULES.md "
     "§2), and a declare hand splits by the declarations, under its own low options: give it "
     "in --declare-options"),
])
def test_a_low_half_option_no_pot_of_the_hand_reads_is_refused(
        tmp_path: Path, given: tuple[str, ...], said: str) -> None:
    """An option the hand would never read is refused, never stored as if it ruled: NT has
    no low half, and a declare hand takes its low options from ``--declare-options``."""
    db = tmp_path / "d.duckdb"
    assert handledger(db, *START, *given) == (2, "", f"error: {said}\n")
    assert not db.exists()


# Two no-limit hold'em hands of a PHH file: Bob folds his small blind to Ann's big blind in
# each; the second's _split (line 20) sets a low key, which no pot of hold'em reads.
TWO_PHH = """[1]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 f']
players = ['Ann', 'Bob']
hand = 1

[2]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [101, 99]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 f']
players = ['Ann', 'Bob']
hand = 2
_split = { low_qualifier = 'none' }
"""


def test_an_import_refuses_the_low_half_option_hand_start_refuses(tmp_path: Path) -> None:
    """The same rule as ``hand start``'s above, said of the file's ``_split`` line: hand 2 is
    refused in one line, exit 2, none of its events written; hand 1 goes in."""
    db, path = tmp_path / "d.duckdb", tmp_path / "two.phhs"
    path.write_text(TWO_PHH)
    assert handledger(db, "import", str(path)) == (
        2, "imported 1 hand(s) (7 events) from 1 file(s); 0 already in the ledger; "
        "1 rejected\n",
        f"error: {path}:20, hand two-2: [2] _split.low_qualifier splits a cards-speak "
        "high-low pot (RULES.md §2), and NT has no low half: leave it out\n")
    assert handledger(db, "history", "two-2") == (
        2, "", f"error: hand two-2: ledger {db} holds no such hand\n")
    assert _options(db, "two-1")["split"] == {
        "odd_chip_between_halves": "high", "odd_chip_tie_order": "left_of_button",
        "low_method": "A-5", "low_qualifier": "8_or_better"}
    high_low = TWO_PHH.replace("'NT'", "'PO/8'").replace("AsKs'", "AsKs2c3d'").replace(
        "QhQd'", "QhQd4c5d'")
    path.write_text(high_low)
    assert handledger(tmp_path / "h.duckdb", "import", str(path))[:2] == (
        0, "imported 2 hand(s) (14 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n")
    assert _options(tmp_path / "h.duckdb", "two-2")["split"]["low_qualifier"] == "none"  # type: ignore[index]


STUD = ("--game", "F7S", "--antes", "1", "--bring-in", "2", "--small-bet", "5", "--big-bet",
        "10", "--seats", "A:100,B:100")


@pytest.mark.parametrize(("start", "given", "said"), [
    (START[2:], ("--split-options", "odd_chip_tie_order=card_by_suit", "--declare-options",
                 "method=in_turn,swing_ties=allowed,low_qualifier=8_or_better",
                 "--reopen-rule", "half_bet"),
     "reopen_rule=half_bet; split odd_chip_tie_order=card_by_suit; declare method=in_turn,"
     "swing_ties=allowed,low_qualifier=8_or_better"),
    (START[2:], ("--declare-options", "method=simultaneous"), "declare method=simultaneous"),
    (OMAHA8, ("--split-options", "low_qualifier=none,low_method=2-7"),
     "split low_method=2-7,low_qualifier=none"),
    (STUD, ("--split-options", "odd_chip_tie_order=left_of_button", "--reopen-rule",
            "full_bet"), "reopen_rule=full_bet; split odd_chip_tie_order=left_of_button"),
    (START[2:], (), None),
    (STUD, ("--split-options", "odd_chip_tie_order=card_by_suit", "--reopen-rule",
            "half_bet"), None),
])
def test_history_says_the_rule_options_a_hand_sets(
        tmp_path: Path, start: tuple[str, ...], given: tuple[str, ...], said: str | None
) -> None:
    """``history`` says, under the ``hand_started`` row, the rule options the hand sets other
    than its game's defaults (RULES.md §5: full_bet in big-bet games, half_bet in fixed
    limit, stud's odd chip by suit, every other game's left of the button), in one line; a
    declare hand's method always. Under the defaults, no such line."""
    db = tmp_path / "d.duckdb"
    assert handledger(db, "hand", "start", *start, "--hand", "r1", *given)[:2] == (0, "r1\n")
    code, out, err = handledger(db, "history", "r1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    button = "null" if start is STUD else f'"{start[start.index("--button") + 1]}"'
    assert lines[1].startswith("    1 @1      ") and lines[1].endswith(
        f' hand_started {{"hand":"r1","game":"{start[1]}","button":{button},"session":null}}')
    rules = [f"        rule options: {said}"] if said is not None else []
    assert lines[2:2 + len(rules)] == rules
    assert lines[2 + len(rules)].startswith("    2 @2      ")


def test_a_declare_hand_takes_the_odd_chip_order(tmp_path: Path) -> None:
    """The odd chip among tied hands is the split's in a declare hand too (RULES.md §3.10):
    stored beside the declare options."""
    db = tmp_path / "d.duckdb"
    assert handledger(db, *START, "--hand", "d1", "--split-options",
                      "odd_chip_tie_order=card_by_suit", "--declare-options",
                      "method=in_turn")[:2] == (0, "d1\n")
    options = _options(db, "d1")
    assert options["split"] == {  # type: ignore[index]
        "odd_chip_between_halves": "high", "odd_chip_tie_order": "card_by_suit",
        "low_method": "A-5", "low_qualifier": "8_or_better"}
    assert options["declare"]["method"] == "in_turn"  # type: ignore[index]


def test_a_bad_option_writes_nothing_in_a_ledger(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    assert handledger(db, *START, "--hand", "g1", "--reopen-rule", "full_bet")[:2] == (
        0, "g1\n")
    assert handledger(db, "void", "g1", "--reason", "a new deal", "--by", "host")[0] == 0
    before = events(db)
    assert handledger(db, *START, "--hand", "g2", "--split-options", "low_qualifier=9") == (
        2, "", "error: --split-options: low_qualifier takes 8_or_better or none, not '9'\n")
    assert events(db) == before


# F7S/8 as a declare hand, antes 1, bring-in 1, bets 2/4: Bob brings in, Ann calls (pot 4),
# and both check to the end. Ann KsKdKc 2h 3h 4h 5c (three kings) declares high; Bob 9s9dTc
# Jh Qh Ah 6c declares low: his best low is J-T-9-6-A, no 8-or-better low.
STUD8 = ("--game", "F7S/8", "--antes", "1", "--bring-in", "1", "--small-bet", "2",
         "--big-bet", "4", "--seats", "Ann:100,Bob:100")
STUD8_ACTIONS = [
    "d dh Ann KsKdKc", "d dh Bob 9s9dTc", "Bob pb", "Ann cc", "d dh Ann 2h", "d dh Bob Jh",
    "Ann cc", "Bob cc", "d dh Ann 3h", "d dh Bob Qh", "Ann cc", "Bob cc", "d dh Ann 4h",
    "d dh Bob Ah", "Bob cc", "Ann cc", "d dh Ann 5c", "d dh Bob 6c", "Bob cc", "Ann cc",
    "Ann dcl high", "Bob dcl low", "Ann sm KsKdKc2h3h4h5c", "Bob sm 9s9dTcJhQhAh6c", "end"]
QUALIFIER_NOTE = (
    "note: F7S/8 names the 8-or-better qualifier, but --declare-options gives no "
    "low_qualifier, so this declare hand's low needs no qualifying low (low_qualifier = none, "
    "the declare default: RULES.md §3.11, §5); give low_qualifier=8_or_better in "
    "--declare-options for an 8-or-better low\n")


def _header(db: Path, out: Path, hand: str) -> str:
    """The game line under the title of ``hand``'s page in ``report``."""
    assert handledger(db, "report", str(out))[0] == 0
    page = (out / "hands" / f"{hand}.html").read_text()
    return next(line.strip() for line in page.splitlines() if "(F7S/8) ·" in line)


def test_a_declare_hand_of_an_eight_or_better_game_takes_no_qualifier_unless_told(
        tmp_path: Path) -> None:
    """RULES.md §5's declare default stands whatever the game's code names: ``hand start``
    says so in a note and the page names the game as played. Without a qualifier Bob's
    J-T-9-6-A takes the low half, 2 of the 4; with low_qualifier=8_or_better he has no low,
    and Ann's kings scoop the 4."""
    db = tmp_path / "d.duckdb"
    assert handledger(db, "hand", "start", "--hand", "z1", *STUD8, "--declare-options",
                      "method=simultaneous") == (0, "z1\n", QUALIFIER_NOTE)
    assert _table(db, "z1", STUD8_ACTIONS)[-1] == "28 hand_ended; hand complete"
    assert _pot_line(db, "z1") == (
        "Main pot 4 (Ann, Bob): declared Ann high, Bob low. Main pot: Split high/low. Main "
        "pot: High 2: Ann wins 2 with three of a kind, kings, 5-4 kickers. Main pot: Low 2: "
        "Bob wins 2 with J-T-9-6-A low.")
    assert _header(db, tmp_path / "site", "z1") == (
        "fixed-limit seven-card stud hi-lo declare, no low qualifier (F7S/8) · fixed limit, "
        "ante 1, bring-in 1, bets 2/4")
    other = tmp_path / "e.duckdb"
    assert handledger(other, "hand", "start", "--hand", "z1", *STUD8, "--declare-options",
                      "method=simultaneous,low_qualifier=8_or_better") == (0, "z1\n", "")
    assert _table(other, "z1", STUD8_ACTIONS)[-1] == "28 hand_ended; hand complete"
    assert _pot_line(other, "z1") == (
        "Main pot 4 (Ann, Bob): declared Ann high, Bob low. Main pot: Bob has no qualifying "
        "low and so no part in the low. Main pot: No low declarer is left, so the high "
        "declarers play for the whole pot. Main pot: Ann wins 4 with three of a kind, kings, "
        "5-4 kickers.")
    assert _header(other, tmp_path / "site8", "z1") == (
        "fixed-limit seven-card stud hi-lo declare, 8-or-better (F7S/8) · fixed limit, ante 1, "
        "bring-in 1, bets 2/4")
    assert handledger(tmp_path / "f.duckdb", "hand", "start", "--hand", "z1", *STUD8,
                      "--declare-options", "method=simultaneous,low_qualifier=none") == (
        0, "z1\n", "")  # said: no note


def test_an_import_warns_of_a_declare_hand_of_an_eight_or_better_game_alike(
        tmp_path: Path) -> None:
    """The same hand as PHH, its ``_declare`` giving no low_qualifier: stored with none, a
    warning naming the ``_declare`` line; imported again, nothing more. Its own export,
    which writes every declare option, imports with no warning."""
    db = tmp_path / "d.duckdb"
    assert handledger(db, "hand", "start", "--hand", "z1", *STUD8, "--declare-options",
                      "method=simultaneous,low_qualifier=none")[0] == 0
    assert _table(db, "z1", STUD8_ACTIONS)[-1] == "28 hand_ended; hand complete"
    export = tmp_path / "z1.phh"
    assert handledger(db, "export", "--format", "phh", "z1", "-o", str(export))[0] == 0
    text = export.read_text()
    assert handledger(tmp_path / "e.duckdb", "import", str(export)) == (
        0, "imported 1 hand(s) (28 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n", "")
    lines = [line for line in text.splitlines() if not line.startswith("_hand_id")]
    at = next(i for i, line in enumerate(lines) if line.startswith("_declare"))
    lines[at] = "_declare = { method = 'simultaneous' }"
    bare = tmp_path / "bare.phh"
    bare.write_text("\n".join(lines) + "\n")
    other = tmp_path / "f.duckdb"
    code, out, err = handledger(other, "import", str(bare))
    con = duckdb.connect(str(other), read_only=True)
    try:  # the hand's id, of its content (the file gives none)
        (hand,) = con.execute("SELECT DISTINCT hand_id FROM events").fetchone()
    finally:
        con.close()
    assert (code, out, err) == (
        0, "imported 1 hand(s) (28 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected; 1 warning(s) about hands stored\n",
        f"warning: {bare}:{at + 1}: hand {hand}: F7S/8 names the 8-or-better qualifier, but "
        "_declare gives no low_qualifier, so this declare hand's low needs no qualifying low "
        "(low_qualifier = none, the declare default: RULES.md §3.11, §5); give "
        "_declare.low_qualifier = '8_or_better' for an 8-or-better low (stored as its options "
        "say)\n")
    assert _options(other, hand)["declare"]["low_qualifier"] == "none"  # type: ignore[index]
    assert _pot_line(other, hand).endswith("Main pot: Low 2: Bob wins 2 with J-T-9-6-A low.")
    assert handledger(other, "import", str(bare)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected"
        "\n", "")
