"""A file is read as what its content is, whatever its name (docs/IMPORTING.md, "import": found by
content): a PokerStars history named ``.jsonl``, a PokerNow log named ``.phh`` and a PHH hand
named ``.jsonl`` import as they do under their own names, in one process or with workers; a
text file named ``.jsonl`` that is none of the formats is one error line, not one a line.
They were read by their suffix: 32 ``bad JSON`` errors, ``bad TOML: Expected '=' …``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.test_import_skipped_files import FORMATS
from tests.test_live_table import one_shot

STARS = SHARED / "text" / "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
PHH = SHARED / "rules" / "ex01.phh"


@pytest.mark.parametrize(("source", "name", "said"), [
    (STARS, "st.jsonl", "imported 1 hand(s) (23 events) from 1 file(s); 0 already in the "
                        "ledger; 0 rejected\n"),
    (LOG, "pn.phh", "imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger; "
                    "0 rejected\n"),
    (PHH, "x.jsonl", "imported 1 hand(s) (53 events) from 1 file(s); 0 already in the "
                     "ledger; 0 rejected\n"),
])
def test_a_misnamed_file_is_read_as_its_content(tmp_path: Path, source: Path, name: str,
                                                said: str) -> None:
    assert one_shot(tmp_path / "right.duckdb", "import", str(source)) == (0, said, "")
    misnamed = tmp_path / name
    shutil.copyfile(source, misnamed)
    assert one_shot(tmp_path / "wrong.duckdb", "import", str(misnamed)) == (0, said, "")


def test_a_misnamed_history_is_not_given_to_the_workers(tmp_path: Path) -> None:
    misnamed = tmp_path / "st.jsonl"
    shutil.copyfile(STARS, misnamed)
    assert one_shot(tmp_path / "t.duckdb", "import", "--jobs", "2", str(misnamed)) == (
        0, "imported 1 hand(s) (23 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")


def test_a_text_file_named_jsonl_that_is_no_format_is_one_line(tmp_path: Path) -> None:
    other = tmp_path / "notes.jsonl"
    other.write_text("hello\nworld\n" * 20)
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(other)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
           "rejected\n", f"error: {other}: not a hand history handledger reads ({FORMATS})\n")


def test_a_bad_first_row_of_json_lines_is_still_that_rows_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hand": 1\n')
    assert one_shot(tmp_path / "t.duckdb", "import", str(bad)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
           "rejected\n", f"error: {bad}:1: bad JSON: Expecting ',' delimiter: line 1 column 11 "
                          "(char 10)\n")
