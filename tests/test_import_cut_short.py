"""A file cut short in the middle of a hand (a copy or a download stopped early: its last
line has no newline) is refused naming the file, the line and the hand as before, and now
says the file ends there (README "import"): PokerStars text, PHH and a PokerNow log alike.
Before, the refusal read as a line the format does not know (``unknown line '*** S'``,
``bad TOML``, ``row has too few columns``) and never said the file was cut short."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED

PLO8 = SHARED / "text" / "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt"
PHH = SHARED / "phh" / "televised" / "test_2023_54_4" / "test_6_00_15_43.phh"
CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
CUT = "(no newline at its end): a file cut short? import the whole file\n"


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
NOT_PLACED = (": the row cannot be placed in the log, so nothing of the file was written (the "
              "lines around it would be read in a guessed order or without it; correct the row "
              "and import the file again); the file ends there, line {} cut off " + CUT)


def _cut(source: Path, size: int, to: Path) -> Path:
    to.write_bytes(source.read_bytes()[:size])
    return to


def test_stars_text_cut_in_a_hand(tmp_path: Path) -> None:
    cut = _cut(PLO8, 3000, tmp_path / "cut.txt")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stdout == ("imported 2 hand(s) (45 events) from 1 file(s); 0 already in the "
                             "ledger; 1 rejected\n")
    assert result.stderr == (
        f"error: {cut}:101, hand PokerStars-35875034981: unknown line '*** S'; the file ends "
        f"in the middle of hand PokerStars-35875034981, line 101 cut off {CUT}")


def test_phh_cut_short(tmp_path: Path) -> None:
    cut = _cut(PHH, 600, tmp_path / "cut.phh")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (f"error: {cut}:8: bad TOML: Expected \"'\" (at end of document); "
                             f"the file ends there, line 8 cut off {CUT}")


def test_pokernow_log_cut_short(tmp_path: Path) -> None:
    cut = _cut(CT2, 5000, tmp_path / "cut.csv")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == f"error: {cut}:55: row has too few columns" + NOT_PLACED.format(55)


def test_a_whole_last_line_says_nothing_of_a_cut(tmp_path: Path) -> None:
    """The same bytes with a newline after them: the file may have ended so; no cut said."""
    cut = _cut(PLO8, 3000, tmp_path / "cut.txt")
    cut.write_bytes(cut.read_bytes() + b"\n")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (
        f"error: {cut}:101, hand PokerStars-35875034981: unknown line '*** S'\n")


def test_pokernow_log_cut_in_its_order_column(tmp_path: Path) -> None:
    """Cut after the time's comma (an empty order) or inside the order: said as a cut."""
    cut = _cut(VK, 50000, tmp_path / "cutpn.csv")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (
        f"error: {cut}:532, action '\"Hznmh#9009 @ 1RhUayZFQU\" collected 2320 from pot with "
        "Flush, Ks High (combination: K♠, Q♠, 8♠, 3♠, 2♠)': order '' is not an integer"
        + NOT_PLACED.format(532))
    cut = _cut(VK, 40200, tmp_path / "c2.csv")
    result = run(tmp_path / "t.duckdb", "import", str(cut))
    assert result.stderr == (
        f"error: {cut}:435, action '\"IpusyM @ f-mUxYkHrq\" folds': order '1658439' does not "
        "fit '2022-07-21T21:34:48.021Z'" + NOT_PLACED.format(435))
    assert not (tmp_path / "t.duckdb").exists()


def test_json_lines_cut_short(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(SHARED / "rules" / "ex01.phh")).exit_code == 0
    assert run(db, "export", "--format", "jsonl", "-o", str(whole)).exit_code == 0
    lines = whole.read_bytes().split(b"\n")
    inside_17 = sum(len(line) + 1 for line in lines[:16]) + 65  # in its "schema_version"
    cut = _cut(whole, inside_17, tmp_path / "cut.jsonl")
    result = run(tmp_path / "n.duckdb", "import", str(cut))
    assert result.stderr == (
        f"error: {cut}:17, hand phh-f1802a128b6b: bad JSON: Unterminated string starting at: "
        "line 1 column 60 (char 59); the file ends in the middle of hand phh-f1802a128b6b, line "
        f"17 cut off {CUT}")
    cut.write_bytes(cut.read_bytes() + b"\n")  # the same line whole: no cut said
    result = run(tmp_path / "m.duckdb", "import", str(cut))
    assert result.stderr == (
        f"error: {cut}:17, hand phh-f1802a128b6b: bad JSON: Unterminated string starting at: "
        "line 1 column 60 (char 59)\n")


def test_json_lines_cut_inside_a_rows_hand_id(tmp_path: Path) -> None:
    """The five hands of test_papers exported and cut inside the hand id of line 120 (as
    at some 20,000 bytes), a row of the fifth hand: the hand the file ends in is named and
    refused once. Before, its rows up to line 119 were refused by a rule for the ante they
    lack (a second rejection) and the cut line named no hand."""
    whole = tmp_path / "whole.jsonl"
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(SHARED / "phh" / "televised" / "test_papers")).exit_code == 0
    assert run(db, "export", "--format", "jsonl", "-o", str(whole)).exit_code == 0
    line_120 = sum(len(line) + 1 for line in whole.read_bytes().split(b"\n")[:119])
    cut = _cut(whole, line_120 + 17, tmp_path / "cut.jsonl")
    assert cut.read_bytes().rsplit(b"\n", 1)[1] == b'{"hand":"phh-91a6'
    result = run(tmp_path / "n.duckdb", "import", str(cut))
    assert (result.exit_code, result.stdout) == (2, (
        "imported 4 hand(s) (115 events) from 1 file(s); 0 already in the ledger; "
        "1 rejected\n"))
    assert result.stderr == (
        f"error: {cut}:120, hand phh-91a6941c2fda: bad JSON: Unterminated string starting at: "
        "line 1 column 9 (char 8); the file ends in the middle of hand phh-91a6941c2fda, line "
        f"120 cut off {CUT}")
    shorter = _cut(whole, line_120 + 1, tmp_path / "short.jsonl")  # cut at its first brace
    assert shorter.read_bytes().rsplit(b"\n", 1)[1] == b"{"
    result = run(tmp_path / "s.duckdb", "import", str(shorter))
    assert result.stderr == (
        f"error: {shorter}:120, hand phh-91a6941c2fda: bad JSON: Expecting property name "
        "enclosed in double quotes: line 1 column 2 (char 1); the file ends in the middle of "
        f"hand phh-91a6941c2fda, line 120 cut off {CUT}")


def test_json_lines_cut_in_the_first_row_of_a_hand_names_none(tmp_path: Path) -> None:
    """Cut in the first line after a hand that ended: which hand the line begins is not
    known, and the hand before it is whole (imported)."""
    whole = tmp_path / "whole.jsonl"
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(SHARED / "phh" / "televised" / "test_papers")).exit_code == 0
    assert run(db, "export", "--format", "jsonl", "-o", str(whole)).exit_code == 0
    lines = whole.read_bytes().split(b"\n")
    first = next(n for n, line in enumerate(lines) if b'"seq":1,' in line and n > 0)
    cut = _cut(whole, sum(len(line) + 1 for line in lines[:first]) + 12,
               tmp_path / "cut.jsonl")
    result = run(tmp_path / "n.duckdb", "import", str(cut))
    assert (result.exit_code, result.stdout) == (2, (
        f"imported 1 hand(s) ({first} events) from 1 file(s); 0 already in the ledger; "
        "1 rejected\n"))  # the first hand, its rows the lines before the cut
    assert result.stderr == (
        f"error: {cut}:{first + 1}: bad JSON: Unterminated string starting at: line 1 column 9"
        f" (char 8); the file ends there, line {first + 1} cut off {CUT}")
