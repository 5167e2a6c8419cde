"""A PokerNow hand stored as the site played and paid it, though its chips do not add up, is a
``warning:`` line of the import, not a refusal (FORMATS.md §2): exit 0, the summary true, the
hand in the ledger and the audit reporting it (exit 1). A line of a hand that cannot be read
is still a refusal: an ``error:`` line, exit 2, nothing of that hand written. Real data: the
first charlestudor log (hands #1-#4, ids ``pn-charlestudor_Input_Log_001-N-…``), edited."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED
from tests.test_host_mistakes import _edited
from tests.test_live_table import events, one_shot

GAME = "pn-charlestudor_Input_Log_001"
HAND3 = f"{GAME}-3-164210356587500"
HAND4 = f"{GAME}-4-164210359269400"
STORED = ("; 0 rejected; 1 warning(s) about hands stored\n")


def _audit(db: Path) -> tuple[int, dict]:
    code, out, err = one_shot(db, "audit", "--json")
    assert err == ""
    return code, json.loads(out)


def _hands(db: Path) -> list[str]:
    return [e[2] for e in events(db) if e[5] == "hand_started"]


def test_a_stack_that_does_not_follow_the_previous_hand_is_stored_with_a_warning(
        tmp_path: Path) -> None:
    """TA left hand #3 with 104; hand #4's stacks line (line 10) gives him 114."""
    log = _edited(tmp_path, 10, '"TA @ gE4aE_Yhc3"" (104)', '"TA @ gE4aE_Yhc3"" (114)')
    db = tmp_path / "w.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, err) == (0, (
        f"warning: {log}:10: hand {HAND4}: TA (gE4aE_Yhc3) starts with 114 but had 104 after "
        "the previous hand and the session lines (stored; the audit reports it)\n"))
    assert out == f"imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger{STORED}"
    (start,) = [json.loads(e[6]) for e in events(db) if e[2] == HAND4 and e[4] == 1]
    assert {s["player"]: s["stack"] for s in start["seats"]} == {
        "gE4aE_Yhc3": 114, "ydk9sgEWl2": 100, "BfS83Cedu3": 96}
    assert _audit(db) == (1, {"discrepancies": [{
        "kind": "stack_continuity", "session": "charlestudor_Input_Log_001", "hand": HAND4,
        "player": "gE4aE_Yhc3", "name": "TA", "expected": 104, "actual": 114,
        "message": f"hand {HAND4}: TA starts with 114 but TA left hand {HAND3} with "
                   "104 and bought nothing: expected 104 (+10)",
        "unit": "chips", "chip_value_minor": 1, "decimals": 0, "currency": None}]})


def test_chips_collected_that_were_not_put_in_are_stored_with_a_warning(tmp_path: Path) -> None:
    """Hand #4: 3 put in, 1 returned, and Anvjfbmj2 collects 3 (line 3; was 2): PokerNow paid
    one chip too many, the ledger records it and the audit finds the payout."""
    log = _edited(tmp_path, 3, "collected 2 from pot", "collected 3 from pot")
    db = tmp_path / "w.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, err) == (0, (
        f"warning: {log}:2: hand {HAND4}: chips put in 3 − returned 1 = 2, but 3 collected "
        "(stored; the audit reports it)\n"))
    assert out.endswith(STORED) and out.startswith("imported 4 hand(s) (60 events)")
    paid = [json.loads(e[6]) for e in events(db) if e[2] == HAND4 and e[5] == "recorded_payout"]
    assert [(p["player"], p["amount"], p["returned"]) for p in paid] == [
        ("ydk9sgEWl2", 1, True), ("ydk9sgEWl2", 3, False)]
    assert _audit(db) == (1, {"discrepancies": [{
        "kind": "payout", "session": "charlestudor_Input_Log_001", "hand": HAND4,
        "player": "ydk9sgEWl2", "name": "Anvjfbmj2", "expected": 3, "actual": 4,
        "message": f"hand {HAND4}: Anvjfbmj2 was paid 4, the rules give 3 (+1)",
        "unit": "chips", "chip_value_minor": 1, "decimals": 0, "currency": None}]})


def test_strict_refuses_nothing_for_a_warning(tmp_path: Path) -> None:
    """--strict rejects a file with a bad hand; a hand stored as logged is none."""
    log = _edited(tmp_path, 10, '"TA @ gE4aE_Yhc3"" (104)', '"TA @ gE4aE_Yhc3"" (114)')
    db = tmp_path / "w.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(log))
    assert code == 0 and err.startswith(f"warning: {log}:10: hand {HAND4}: ")
    assert out.endswith(STORED) and len(_hands(db)) == 4
    again = one_shot(db, "import", str(log))  # known: said when it was stored, not again
    assert again == (0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the "
                        "ledger; 0 rejected\n", "")


def test_a_line_that_cannot_be_read_refuses_its_hand_whole(tmp_path: Path) -> None:
    """Hand #4's ``Your hand is`` line (line 9) with a card that is none: exit 2, one error
    line, nothing of hand #4 written (it was stored without the line), the others stored."""
    log = _edited(tmp_path, 9, "Your hand is 4♣, 9♦", "Your hand is 4♣, 9X")
    db = tmp_path / "r.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, err) == (2, (
        f"error: {log}:9, hand {HAND4}, action 'Your hand is 4♣, 9X': ' 9X' is not a card\n"))
    assert out == ("imported 3 hand(s) (49 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")
    assert HAND4 not in {e[2] for e in events(db)} and len(_hands(db)) == 3
    with_warning = _edited(tmp_path, 10, '"TA @ gE4aE_Yhc3"" (104)', '"TA @ gE4aE_Yhc3"" (114)',
                           source=log)  # the same hand also starting off: still refused
    db = tmp_path / "r2.duckdb"
    code, out, err = one_shot(db, "import", str(with_warning))
    # its stack finding is no line of its own: a refused hand's one line is its refusal
    assert (code, err) == (2, f"error: {with_warning}:9, hand {HAND4}, action 'Your hand is "
                              "4♣, 9X': ' 9X' is not a card\n")
    assert HAND4 not in {e[2] for e in events(db)} and len(_hands(db)) == 3


def test_run_prints_the_warning_and_exits_0(tmp_path: Path) -> None:
    """`run` on a folder holding the edited log: the warning on stderr, no rejection, the
    audit's finding in its report."""
    log = _edited(tmp_path, 10, '"TA @ gE4aE_Yhc3"" (104)', '"TA @ gE4aE_Yhc3"" (114)')
    code, out, err = one_shot(tmp_path / "run.duckdb", "run", str(log.parent))
    assert (code, err) == (0, (
        f"warning: {log}:10: hand {HAND4}: TA (gE4aE_Yhc3) starts with 114 but had 104 after "
        "the previous hand and the session lines (stored; the audit reports it)\n"))
    assert f"imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger{STORED}" in out
    assert (f"stack_continuity: hand {HAND4}: TA starts with 114 but TA left hand "
            f"{HAND3} with 104 and bought nothing: expected 104 (+10)") in out  # as audit


VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
VK34 = "pn-valakuzhyk_07_21_2022_log1-34-165843949548700"
VK35 = "pn-valakuzhyk_07_21_2022_log1-35-165843951322700"


def test_a_call_that_does_not_match_the_bet_refuses_its_hand_whole(tmp_path: Path) -> None:
    """Hand #34 of the valakuzhyk log: Efvoziamtgktl, small blind 100, "calls 250" (line 319;
    was 200) over Phzd's big blind of 200 posted in full; the log then returns him an
    uncalled bet of 200 (line 314). The call does not match the bet: an error line, hand #34
    not written, exit 2 (it was stored, with the log's 200 rewritten as "returned 150"). The
    stacks of hands #35-#52 carry from it, so they are refused with it in one more line, and
    the session lines after it too (FORMATS.md §2): the 33 hands before it are stored and
    audit clean. The log as PokerNow wrote it, imported next into the same session, adds the
    19 hands in the log's order: the audit is clean (hands #35-#52 written before #34 left
    stack_continuity findings for good, the ledger being append-only)."""
    log = _edited(tmp_path, 319, 'calls 200"', 'calls 250"', source=VK)
    db = tmp_path / "c.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, err) == (2, (
        f"error: {log}:319, hand {VK34}, action '\"Efvoziamtgktl @ JC9KmsGDZv\" calls 250': "
        "calls 250 but the bet is 200\n"
        f"error: {log}:311, hand pn-valakuzhyk_07_21_2022_log1-35-165843951322700: hands #35 "
        "to #52 (18 hands) follow the refused hand #34 in the log and are not written, nor "
        "the session lines after it (the stacks carry from hand to hand): fix the log and "
        "import it again\n"))
    assert out == ("imported 33 hand(s) (925 events) from 1 file(s); 0 already in the ledger; "
                   "19 rejected\n")
    hands = _hands(db)
    assert VK34 not in hands and VK35 not in hands and len(hands) == 33
    assert _audit(db) == (0, {"discrepancies": []})
    code, out, err = one_shot(db, "import", "--session", log.stem, str(VK))
    assert (code, out, err) == (0, "imported 19 hand(s) (330 events) from 1 file(s); 33 already "
                                   "in the ledger; 0 rejected\n", "")
    assert _hands(db)[33:35] == [VK34, VK35]  # in the log's order
    assert _audit(db) == (0, {"discrepancies": []})
    strict = tmp_path / "s.duckdb"  # --strict: the file refused in one line, no ledger made
    code, out, err = one_shot(strict, "import", "--strict", str(log))
    assert (code, out, err) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 19 rejected; "
        "33 other hand(s) not written, their file refused\n"),
        f"error: {log}:319, hand {VK34}, action '\"Efvoziamtgktl @ JC9KmsGDZv\" calls 250': "
        "calls 250 but the bet is 200 (and 1 more error(s) in the file); --strict: nothing of "
        "this file was written\n")
    assert not strict.exists()


def test_the_logged_uncalled_bet_is_the_returned_payout(tmp_path: Path) -> None:
    """The same hand #34 as logged ("calls 200"): stored with the 200 returned the log says."""
    db = tmp_path / "v.duckdb"
    assert one_shot(db, "import", str(VK))[0] == 0
    paid = [json.loads(e[6]) for e in events(db) if e[2] == VK34 and e[5] == "recorded_payout"]
    assert [(p["player"], p["amount"], p["returned"]) for p in paid] == [
        ("JC9KmsGDZv", 200, True), ("JC9KmsGDZv", 400, False)]


def test_a_hand_that_cannot_be_built_refuses_the_hands_after_it(tmp_path: Path) -> None:
    """Hand #3 of the first charlestudor log in a game handledger does not know (line 26): no
    hand to build, refused; hand #4 follows it and is refused with it; the log as logged then
    adds #3 and #4, in order, and the audit is clean."""
    log = _edited(tmp_path, 26, "No Limit Texas Hold'em", "Crazy Pineapple")
    db = tmp_path / "u.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    assert (code, out) == (2, "imported 2 hand(s) (33 events) from 1 file(s); 0 already in the "
                              "ledger; 2 rejected\n")
    assert err.splitlines()[1] == (
        f"error: {log}:11, hand {HAND4}: hand #4 follows the refused hand #3 in the log and is not "
        "written (the stacks carry from hand to hand): fix the log and import it again")
    code, out, _ = one_shot(db, "import", "--session", GAME[3:], str(SHARED / "pokernow" /
                                                                     f"{GAME[3:]}.csv"))
    assert (code, out) == (0, "imported 2 hand(s) (27 events) from 1 file(s); 2 already in the "
                              "ledger; 0 rejected\n")
    assert _hands(db)[2:] == [HAND3, HAND4]
    assert _audit(db) == (0, {"discrepancies": []})


def test_a_log_cut_at_its_newest_rows_names_the_hand_it_stops_inside(tmp_path: Path) -> None:
    """The second charlestudor log without its lines 2-5 (a quit, hand #4's ending line, its
    collected line and river): the log is newest first, so it stops inside hand #4 (both
    all in, cards shown). The hand is stored incomplete, every chip returned, with a
    warning naming its 11 lines (2, the turn, to 12, its starting line); never as played."""
    lines = (SHARED / "pokernow" / "charlestudor_Input_Log_002.csv").read_text(
        encoding="utf-8").splitlines(keepends=True)
    log = tmp_path / "cut.csv"
    log.write_text(lines[0] + "".join(lines[5:]), encoding="utf-8")
    db = tmp_path / "c.duckdb"
    code, out, err = one_shot(db, "import", str(log))
    hand = "pn-cut-4-164267592456700"
    assert (code, err) == (0, (
        f"warning: {log}:2: hand {hand}: the log stops inside hand #4, before its ending line "
        "(an export cut at the game's newest rows, or taken during the hand): its 11 lines (2 "
        "to 12) kept as an incomplete hand, every chip returned (stored; the audit reports "
        "it)\n"))
    assert out == f"imported 4 hand(s) (79 events) from 1 file(s); 0 already in the ledger{STORED}"
    (last,) = [json.loads(e[6]) for e in events(db) if e[2] == hand and e[5] == "hand_ended"]
    assert last["status"] == "incomplete"


def test_a_cents_logs_warnings_name_the_unit_of_their_amounts(tmp_path: Path) -> None:
    """The run-it-twice log counts cents: line 29 seats Mdeyxwb with 1.57, and he left hand
    #31 with 1.91; hand #30 (line 90) seats yfg with 24.93 no line bought. Its warnings say
    157 and 191 chips of 0.01, as the audit does."""
    log = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
    hand48 = "pn-pokernowpy_run-it-twice-48-16302875682920"
    hand30 = "pn-pokernowpy_run-it-twice-30-163028603289300"
    code, _, err = one_shot(tmp_path / "c.duckdb", "import", str(log))
    lines = err.splitlines()
    assert code == 0
    assert lines[0] == (
        f"warning: {log}:29: hand {hand48}: Mdeyxwb (HXN7RGKNLI) starts with 157 but had 191 "
        "after hand #31 and the session lines (hands #32-#47 are not in the log); amounts in "
        "chips of 0.01 (stored; the audit reports it)")
    assert lines[6] == (
        f"warning: {log}:90: hand {hand30}: yfg (R2MwqIZu29) starts with 2493 but has no "
        "buy-in: no line of the log seats yfg (R2MwqIZu29) before this hand (an export that "
        "lacks the game's oldest rows?); amounts in chips of 0.01 (stored; the audit reports "
        "it)")
