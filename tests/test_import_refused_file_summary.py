"""The import summary of a file refused whole as it is read adds up to the hands it holds.

A JSON-lines export of ledger y (charlestudor's first PokerNow log imported as session home:
4 hands) imported into ledger x, which opened another session named home: its first row is
not x's, so the file is refused in one line, and its 4 hands, none of them in x, are said
not written with it (docs/IMPORTING.md: the summary adds up to the hands read)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"


def test_a_jsonl_file_of_another_session_counts_its_hands_not_written(tmp_path: Path) -> None:
    x, y, out = tmp_path / "x.duckdb", tmp_path / "y.duckdb", tmp_path / "y.jsonl"
    assert one_shot(y, "import", "--session", "home", str(LOG))[0] == 0
    assert one_shot(y, "export", "-o", str(out))[0] == 0
    assert one_shot(x, "session", "open", "home", "--date", "2022-01-13")[0] == 0
    assert one_shot(x, "buyin", "home", "Ann", "100")[0] == 0
    before = events(x)
    assert one_shot(x, "import", str(out)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
           "4 other hand(s) not written, their file refused\n",
        f"error: {out}:1, session home: its session_opened at seq 1 is not the ledger's entry "
        "1: this is another session named home; nothing of the file was written (import it "
        "into another ledger, or rename the session in the file)\n")
    assert events(x) == before


def test_a_refused_file_counts_the_hands_the_ledger_holds_as_already_there(
        tmp_path: Path) -> None:
    """x holds the log's 4 hands already, imported under session night: y's export, the
    same game in session home, is refused as it is read, and its 4 hands are counted
    already in the ledger, none left over."""
    x, y, out = tmp_path / "x.duckdb", tmp_path / "y.duckdb", tmp_path / "y.jsonl"
    assert one_shot(y, "import", "--session", "home", str(LOG))[0] == 0
    assert one_shot(y, "export", "-o", str(out))[0] == 0
    assert one_shot(x, "session", "open", "home", "--date", "2022-01-13")[0] == 0
    assert one_shot(x, "buyin", "home", "Ann", "100")[0] == 0
    assert one_shot(x, "import", "--session", "night", str(LOG))[0] == 0
    before = events(x)
    assert one_shot(x, "import", str(out)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "1 rejected\n",
        f"error: {out}:1, session home: this PokerNow game is in the ledger already, in "
        "session night: it is not imported into session home too (its buy-ins would count "
        "twice); nothing of the file was written\n")
    assert events(x) == before
