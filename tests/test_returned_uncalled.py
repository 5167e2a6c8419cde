"""Chips marked returned (``returned PLAYER AMOUNT``) are at most the player's uncalled bet
(RULES.md §1.4; replay/payout_rules.py ``within_uncalled_bet``): refused live, in a correction
or a what-if that makes it so, and, read from a file, stored with a warning that the replay
and the audit report (a ``returned`` difference, replay/compare.py).

Worked by hand, blinds 1/2 heads-up, Ann on the button posts 1, Bob 2:

* ``p1``: both 100. Ann raises to 10, Bob calls, they check it down: a pot of 20, nothing
  uncalled. Ann's AsKs pairs the king of 2c7h9s Kd 3c, Bob has queens: Ann wins 20.
* ``p2``: Ann 100, Bob 50. Ann raises all in to 100, Bob calls all in for 50: a pot of 100,
  Ann's uncalled 50 (100 - 50) is returned to her. Same cards: Ann takes 100 + 50.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

CARDS = ("d dh Ann AsKs", "d dh Bob QhQd")
CHECKED = ("d db 2c7h9s", "Bob cc", "Ann cc", "d db Kd", "Bob cc", "Ann cc", "d db 3c",
           "Bob cc", "Ann cc")
SHOWN = ("Ann sm AsKs", "Bob sm QhQd")
RULE = "(RULES.md §1.4: only a bet nobody called is returned)"
POT = "; chips won from a pot are paid with pay PLAYER AMOUNT"
NEXT = "now: phase showdown, next: pay PLAYER AMOUNT or end"
#: Ann's uncalled 50, 30 of it returned: the rest and the pot still to pay
NEXT_BACK = ("now: phase showdown, next: returned Ann 20 (the uncalled bet, in no pot: "
             "RULES.md §1.4), pay PLAYER AMOUNT, then end")


def _hand(db: Path, hand: str, seats: str, *actions: str) -> None:
    start = ("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2", "--seats",
             seats, "--button", "Ann")
    assert one_shot(db, *start)[0] == 0
    for action in actions:
        code, out, err = one_shot(db, "act", hand, action)
        assert code == 0, (action, out, err)


def _refused(db: Path, *args: str) -> str:
    """``args`` refused: exit 2, nothing on stdout, one line on stderr, no event written."""
    before = events(db)
    code, out, err = one_shot(db, *args)
    assert (code, out, err.count("\n")) == (2, "", 1), (code, out, err)
    assert events(db) == before
    return err


def _p1(db: Path, *more: str) -> None:
    _hand(db, "p1", "Ann:100,Bob:100", *CARDS, "Ann cbr 10", "Bob cc", *CHECKED, *SHOWN, *more)


def _p2(db: Path, *more: str) -> None:
    _hand(db, "p2", "Ann:100,Bob:50", *CARDS, "Ann cbr 100", "Bob cc", "d db 2c7h9s",
          "d db Kd", "d db 3c", *SHOWN, *more)


def test_no_uncalled_bet_nothing_returned(tmp_path: Path) -> None:
    """The tester's hand: raked 3, Ann paid 1, then ``returned Ann 1`` with nothing uncalled."""
    db = tmp_path / "t.duckdb"
    _p1(db, "rake 3", "pay Ann 1")
    assert _refused(db, "act", "p1", "returned Ann 1") == (
        f"error: hand p1, action 'returned Ann 1': Ann has no uncalled bet, but 1 would be "
        f"returned to Ann {RULE}{POT}; {NEXT}\n")
    # the chips are hers as a pot's: paid so, the hand ends with 1 + 16 + the rake of 3
    for action in ("pay Ann 16", "end"):
        assert one_shot(db, "act", "p1", action)[0] == 0
    # the pot less the rake, paid as the rules give: no audit finding, the rake counted
    assert one_shot(db, "audit", "--json")[:2] == (0, '{"discrepancies": []}\n')
    code, out, _ = one_shot(db, "replay", "--hand", "p1", "--json")
    assert [d["kind"] for d in json.loads(out)["discrepancies"]] == ["rake"]


def test_no_more_than_the_uncalled_bet(tmp_path: Path) -> None:
    """Ann's uncalled 50: 51 refused; 30 then 21 refused (51 in all), 20 taken; Bob, who
    called, has none. Then the pot, 100, is paid with ``pay`` and the hand ends clean."""
    db = tmp_path / "t.duckdb"
    _p2(db)
    assert _refused(db, "act", "p2", "returned Ann 51") == (
        f"error: hand p2, action 'returned Ann 51': Ann's uncalled bet is 50, but 51 would be "
        f"returned to Ann {RULE}{POT}; now: phase showdown, next: pay PLAYER AMOUNT, end\n")
    assert one_shot(db, "act", "p2", "returned Ann 30")[0] == 0
    assert _refused(db, "act", "p2", "returned Ann 21") == (
        f"error: hand p2, action 'returned Ann 21': Ann's uncalled bet is 50, but 51 (30 of "
        f"them already) would be returned to Ann {RULE}{POT}; {NEXT_BACK}\n")
    assert _refused(db, "act", "p2", "returned Bob 1") == (
        f"error: hand p2, action 'returned Bob 1': Bob has no uncalled bet, but 1 would be "
        f"returned to Bob {RULE}{POT}; {NEXT_BACK}\n")
    for action in ("returned Ann 20", "pay Ann 100", "end"):
        assert one_shot(db, "act", "p2", action)[0] == 0
    assert one_shot(db, "audit")[:2] == (
        0, "audit clean: 1 hand(s) in 0 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n")


def test_a_correction_may_not_return_what_was_won(tmp_path: Path) -> None:
    """p2 paid as above (seq 14 ``returned Ann 20``, seq 15 ``pay Ann 100``): the pot's 100
    marked returned makes 150 returned against an uncalled 50, refused by ``whatif`` and
    ``correct`` alike; marking the returned 20 a ``pay`` is a label the rules allow."""
    db = tmp_path / "t.duckdb"
    _p2(db, "returned Ann 30", "returned Ann 20", "pay Ann 100", "end")
    said = (f"correction replace 15 'returned Ann 100': Ann's uncalled bet is 50, but 150 "
            f"would be returned to Ann {RULE}{POT}\n")
    assert _refused(db, "whatif", "p2", "--replace", "15", "returned Ann 100") == (
        f"error: hand p2: what-if {said.removeprefix('correction ')}")
    assert _refused(db, "correct", "p2", "--replace", "15", "returned Ann 100", "--reason",
                    "x", "--by", "host") == f"error: hand p2: {said}"
    code, out, _ = one_shot(db, "correct", "p2", "--replace", "14", "pay Ann 20", "--reason",
                            "x", "--by", "host")
    assert (code, out) == (0, "corrected hand p2 (seq 17); change in net: none; by the rules: "
                              "unchanged\n")


def _with_returned_flag(tmp_path: Path) -> Path:
    """p1 paid ``pay Ann 20`` and ended, exported as JSON lines with that payout marked
    ``returned``: a file saying 20 went back to Ann, who has no uncalled bet."""
    db = tmp_path / "live.duckdb"
    _p1(db, "pay Ann 20", "end")
    path = tmp_path / "p1.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "p1", "-o", str(path))[0] == 0
    text = path.read_text()
    paid = '"amount":20,"player":"Ann","pot":null,"returned":false'
    assert text.count(paid) == 1
    path.write_text(text.replace(paid, paid.replace("false", "true")))
    return path


def test_a_file_returning_what_was_won_is_stored_with_a_warning(tmp_path: Path) -> None:
    """Ann's 20 came from the pot: her total is right (20), the label is not. Stored as the
    file says, one warning; ``replay`` and ``audit`` name it (exit 1): recorded 20 as
    returned, her uncalled bet 0."""
    path = _with_returned_flag(tmp_path)
    db = tmp_path / "t.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (0, "imported 1 hand(s) (20 events) from 1 file(s); 0 already in the "
                              "ledger; 0 rejected; 1 warning(s) about hands stored\n")
    words = f"Ann has no uncalled bet, but 20 is recorded as returned to Ann {RULE}"
    assert err == f"warning: {path}:1: hand p1: {words} (stored; the audit reports it)\n"
    code, out, _ = one_shot(db, "replay", "--hand", "p1", "--json")
    assert code == 1
    assert json.loads(out)["discrepancies"] == [
        {"player": "Ann", "name": "Ann", "kind": "returned", "recorded": 20, "recomputed": 0,
         "diff": 20, "message": f"hand p1: {words}"}]
    code, out, _ = one_shot(db, "audit", "--json")
    assert code == 1
    assert [(d["kind"], d["player"], d["expected"], d["actual"], d["message"])
            for d in json.loads(out)["discrepancies"]] == [
        ("payout", "Ann", 0, 20, f"hand p1: {words}")]
    # a correction of another event keeps the file's label (seq 18: Bob's show, mucked);
    # one that pays the 20 as won from the pot (seq 19) leaves the audit clean
    for seq, action in (("18", "Bob sm"), ("19", "pay Ann 20")):
        assert one_shot(db, "correct", "p1", "--replace", seq, action, "--reason", "x",
                        "--by", "host")[0] == 0
    assert one_shot(db, "audit")[:2] == (
        0, "audit clean: 1 hand(s) in 0 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n")


def test_a_site_text_returning_more_than_the_uncalled_bet(tmp_path: Path) -> None:
    """PokerStars: k1tt9nM1nd raises to $0.30 over the big blind's $0.10, who folds: $0.20 is
    uncalled and the pot is $0.20 (the blinds). The file says $0.25 returned and $0.15
    collected: the same $0.40 to him, 5 cents of the pot called returned."""
    text = (SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
            ).read_text().split("\n\n\n")[0]
    for was, now in (("Uncalled bet ($0.20)", "Uncalled bet ($0.25)"),
                     ("collected $0.20 from", "collected $0.15 from"),
                     ("collected ($0.20)", "collected ($0.15)"),
                     ("Total pot $0.20", "Total pot $0.15")):
        assert text.count(was) == 1
        text = text.replace(was, now)
    path = tmp_path / "stars.txt"
    path.write_text(text + "\n")
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(path))
    assert code == 0 and out.endswith("; 0 rejected; 1 warning(s) about hands stored\n")
    assert err == (f"warning: {path}:1: hand PokerStars-35824118297: k1tt9nM1nd's uncalled "
                   f"bet is 20, but 25 is recorded as returned to k1tt9nM1nd {RULE} (stored; "
                   "the audit reports it)\n")
