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
        "line of the log seats him before this hand (an export that lacks the game's oldest "
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
        "the two; nothing of the file was written (import the whole log into a new ledger, or "
        "record the buy-ins the stored export lacks with `handledger buyin noold PLAYER "
        "CHIPS`)\n")
    for options in ([], ["--session", "noold"]):
        assert one_shot(db, "import", *options, str(LOG)) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
               "rejected\n", refusal)
    assert events(db) == before
    assert one_shot(db, "session", "list")[1] == (
        "noold  2022-07-21  51 hand(s)  0 buy-in(s)  open\n")


def test_the_whole_log_alone_warns_of_nothing(tmp_path: Path) -> None:
    assert one_shot(tmp_path / "w.duckdb", "import", str(LOG)) == (
        0, "imported 52 hand(s) (1255 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
