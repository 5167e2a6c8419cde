"""A PokerNow export that lacks its game's oldest rows (FORMATS.md §2: rows are newest first,
so a file cut at its end): its first hand seats players no line of it bought, a warning each
as the audit's stack continuity finds them, and the whole log imported after it is refused
(the ledger cannot know it as the same game: README, Formats: PokerNow).

Real data: valakuzhyk's log of 2022-07-21 (52 hands) without its 35 oldest rows, which hold
hand #1 and the eight players' joins: hand #2 is its first (line 1074 of the cut file).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

LOG = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
HAND2 = "pn-noold-2-165843763372700"
#: Hand #2's stacks (its ``Player stacks`` row), each bought by a join the cut file lacks.
STACKS = [("Aab Ovwsi (gKyQzJRs7T)", 980), ("IpusyM (f-mUxYkHrq)", 1000),
          ("Efvoziamtgktl (JC9KmsGDZv)", 980), ("Erhradnpmi3 (H353kCoMHV)", 1000),
          ("gaxdqwmwksve (hoL3fbolcH)", 940), ("Phzd Juwvifsvh (Bq7QhNKAYJ)", 1000),
          ("sjfid753 (Bv3wRKv-vh)", 1000), ("Hznmh#9009 (1RhUayZFQU)", 1100)]


@pytest.fixture
def noold(tmp_path: Path) -> Path:
    lines = LOG.read_bytes().splitlines(keepends=True)
    path = tmp_path / "noold.csv"
    path.write_bytes(b"".join(lines[:-35]))
    return path


def test_a_cut_export_warns_of_each_stack_nobody_bought(tmp_path: Path, noold: Path) -> None:
    db = tmp_path / "n.duckdb"
    code, out, err = one_shot(db, "import", str(noold))
    assert (code, out) == (0, "imported 51 hand(s) (1206 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected; 8 warning(s) about hands stored\n")
    assert err == "".join(
        f"warning: {noold}:1074: hand {HAND2}: {who} starts with {chips} but has no buy-in: no "
        f"line of the log seats {who} before this hand (an export that lacks the game's oldest "
        "rows?) (stored; the audit reports it)\n" for who, chips in STACKS)
    code, out, _ = one_shot(db, "audit", "--json")
    assert code == 1 and out.count('"kind": "stack_continuity"') == 8


def test_the_whole_log_after_the_cut_one_is_refused(tmp_path: Path, noold: Path) -> None:
    db = tmp_path / "n.duckdb"
    assert one_shot(db, "import", str(noold))[0] == 0
    before = events(db)
    refusal = (
        f"error: {LOG}: 51 of this PokerNow log's hands are in the ledger already, in session "
        f"noold (the first: {HAND2}), from an export of the same game that lacked its oldest "
        "rows: the log would open a second session for the game, and the ledger cannot join "
        "the two; nothing of the file was written (import the whole log into a new ledger; a "
        "`handledger buyin noold PLAYER CHIPS` recorded now counts only for hands after it, not "
        "for the stored export's first hands)\n")
    for options in ([], ["--session", "noold"]):
        assert one_shot(db, "import", *options, str(LOG)) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 51 already in the ledger; 1 "
               "rejected; 1 other hand(s) not written, their file refused\n",
            refusal)  # the hands it shares with the cut export: known; its first not written
    assert events(db) == before
    assert one_shot(db, "session", "list")[1] == (
        "noold  2022-07-21  51 hand(s)  0 buy-in(s)  open\n")


def test_the_whole_log_alone_warns_of_nothing(tmp_path: Path) -> None:
    assert one_shot(tmp_path / "w.duckdb", "import", str(LOG)) == (
        0, "imported 52 hand(s) (1255 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")


CHARLES = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


def _without_oldest(tmp_path: Path, name: str, rows: int) -> Path:
    """charlestudor's first log (58 rows, newest first: hand #1 is its lines 38-59, its
    starting line 50) without its ``rows`` oldest rows."""
    lines = CHARLES.read_bytes().splitlines(keepends=True)
    assert lines[49].startswith(b'"-- starting hand #1 ')
    path = tmp_path / name
    path.write_bytes(b"".join(lines[:-rows]))
    return path


def test_a_log_that_begins_inside_a_hand_warns_of_one_cut_hand(tmp_path: Path) -> None:
    """The log without its 14 oldest rows (the seat requests and approvals, hand #1's
    starting line, the three joins and its ``Player stacks`` row): it begins inside hand #1,
    whose 8 lines left (38-45: the exporter's cards, the blinds, two folds, the bet returned,
    the pot collected, the ending line) are one cut hand in one warning, not 8 rejected
    hands: exit 0, hands #2-#4 stored (each player's stack in #2 bought by no line of the
    file: a warning each, as before). Each line was an error before, 8 rejected, exit 2."""
    path = _without_oldest(tmp_path, "cut.csv", 14)
    db = tmp_path / "c.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (0, (
        "imported 3 hand(s) (43 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
        "3 warning(s) about hands stored; 1 hand(s) cut at the log's start not written (a "
        "warning names the lines)\n"))
    hand2 = "pn-cut-2-164210354621900"
    assert err == "".join(
        f"warning: {path}:37: hand {hand2}: {who} starts with {chips} but has no buy-in: no "
        f"line of the log seats {who} before this hand (an export that lacks the game's oldest "
        "rows?) (stored; the audit reports it)\n" for who, chips in (
            ("Anvjfbmj2 (ydk9sgEWl2)", 101), ("Qapurjsa9 (BfS83Cedu3)", 100),
            ("TA (gE4aE_Yhc3)", 99))) + (
        f"warning: {path}:38: the log begins inside hand #1, whose starting line it lacks (an "
        "export cut at the game's oldest rows): its 8 lines (38 to 45) not read, the hand not "
        "written\n")
    assert [r[2] for r in events(db) if r[5] == "hand_started"] == [
        hand2, "pn-cut-3-164210356587500", "pn-cut-4-164210359269400"]


def test_a_log_that_begins_with_a_show_after_an_ending_line_names_no_number(
        tmp_path: Path) -> None:
    """valakuzhyk's log cut between hand #50's ending line and the show logged after it (its
    26 newest lines kept: hand #51 and that show, line 26): the show is the cut hand, whose
    number no line left says, in one warning; hand #51 is stored (its two stacks bought by no
    line: a warning each). The show was a rejected hand before, exit 2."""
    path = tmp_path / "show.csv"
    path.write_bytes(b"".join(LOG.read_bytes().splitlines(keepends=True)[:26]))
    hand = "pn-show-51-165843995486700"
    assert one_shot(tmp_path / "s.duckdb", "import", str(path)) == (
        0, "imported 2 hand(s) (28 events) from 1 file(s); 0 already in the ledger; 0 rejected; "
           "2 warning(s) about hands stored; 1 hand(s) cut at the log's start not written (a "
           "warning names the lines)\n",
        "".join(f"warning: {path}:25: hand {hand}: {who} starts with {chips} but has no buy-in: "
                f"no line of the log seats {who} before this hand (an export that lacks the game's "
                "oldest rows?) (stored; the audit reports it)\n" for who, chips in (
                    ("Efvoziamtgktl (JC9KmsGDZv)", 1040), ("Aab Ovwsi (gKyQzJRs7T)", 6960)))
        + f"warning: {path}:26: the log begins inside a hand, whose starting line it lacks (an "
        "export cut at the game's oldest rows): line 26 not read, the hand not written\n")


def test_a_hand_line_outside_any_hand_after_the_first_is_still_refused(
        tmp_path: Path) -> None:
    """A fold logged between hand #1's ending line and hand #2's starting line (the log
    begins with its first hand): a line of no hand, one error, as before."""
    lines = CHARLES.read_bytes().splitlines(keepends=True)
    stray = b'"""TA @ gE4aE_Yhc3"" folds",2022-01-13T19:52:25.000Z,164210354500000\n'
    path = tmp_path / "stray.csv"
    path.write_bytes(b"".join([*lines[:37], stray, *lines[37:]]))
    assert one_shot(tmp_path / "s.duckdb", "import", str(path)) == (
        2, "imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger; 1 "
           "rejected\n",
        f"error: {path}:38, action '\"TA @ gE4aE_Yhc3\" folds': a hand line outside any hand "
        "(skipped)\n")


def test_a_buy_in_recorded_after_the_cut_hands_says_it_funds_none_of_them(
        tmp_path: Path) -> None:
    """The run-it-twice log lacks its oldest rows: hand #30 seats yfg with 24.93 (2493 chips
    of 0.01) no line bought. `buyin` recorded now counts for hands after it only (RULES.md
    §1.1): the finding stays, and now says why; settle's note says what clears what."""
    log = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
    session = "pokernowpy_run-it-twice"
    hand30 = f"pn-{session}-30-163028603289300"
    db = tmp_path / "r.duckdb"
    assert one_shot(db, "import", str(log))[0] == 0
    assert one_shot(db, "buyin", session, "yfg", "2493") == (
        0, f"{session}: yfg buy-in 2493 chips (entry 8)\n", "")
    code, out, _ = one_shot(db, "audit", "--session", session)
    assert code == 1
    assert [line for line in out.splitlines() if " yfg starts with 2493" in line] == [
        f"stack_continuity: hand {hand30}: yfg starts with 2493 but yfg has no buy-in before "
        "it (2493 bought in the session is recorded after it, and a buy-in counts only for the "
        "hands after it unless recorded as made before one, `handledger buyin … --before "
        "HAND`, RULES.md §1.1): expected 0 (+2493) [session "
        f"{session}, hand {hand30}, player yfg; expected 0, actual 2493; amounts in chips of "
        "0.01]"]
    assert [line for line in out.splitlines() if " Ntunn starts with 1536" in line] == [
        f"stack_continuity: hand {hand30}: Ntunn starts with 1536 but Ntunn has no buy-in: "
        f"expected 0 (+1536) [session {session}, hand {hand30}, player Ntunn; expected 0, "
        "actual 1536; amounts in chips of 0.01]"]
    code, _, err = one_shot(db, "settle", "--session", session)
    assert code == 0
    assert err.endswith(  # plus and minus stacks: what clears each sign
        f"names each (a plus: a rebuy not recorded before the hand: `handledger buyin {session} "
        "PLAYER CHIPS --before HAND` counts it before that hand; a minus: a buy-in recorded "
        f"wrong (too many chips, or entered twice): `handledger entry amend {session} SEQ "
        f"CHIPS --reason … --by …` or `handledger entry retract {session} SEQ --reason … --by "
        f"…` (`handledger history --session {session}` lists the entries); or a stack typed "
        "wrong: its start replaced, `handledger correct HAND --replace 1 …`; or a hand before it "
        "not recorded "
        "(a log with hands missing): record or import it)\n")
