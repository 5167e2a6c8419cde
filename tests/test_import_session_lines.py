"""A JSON-lines file whose session book has a line that cannot be read (cut off, a negative
buy-in) is refused whole: importing the session's hands without its buy-in would leave
books the audit cannot follow. A broken hand line still costs only that hand. An import
of files none of which exists writes nothing, not even a new ledger file."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import one_shot

SERIES = Path(__file__).resolve().parents[1] / "data" / "series" / "s01.jsonl"


def _variant(tmp_path: Path, name: str, line: int, edit) -> Path:  # noqa: ANN001
    rows = SERIES.read_text().splitlines()
    rows[line] = edit(rows[line])
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_cut_off_buy_in_line_refuses_the_whole_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "cut", 5, lambda row: row[:40])
    db = tmp_path / "cut.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s)")
    assert err == (f"error: {path}:6, session s01: bad JSON: Unterminated string starting at: "
                   "line 1 column 35 (char 34); a line of the session's book is refused, so "
                   "nothing of the file was written (correct the line and import the file "
                   "again)\n")
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_negative_buy_in_refuses_the_whole_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "neg", 5, lambda row: row.replace('"chips":150', '"chips":-40'))
    db = tmp_path / "neg.duckdb"
    code, _, err = one_shot(db, "import", str(path))
    assert code == 2
    assert err.startswith(f"error: {path}:6, session s01: invalid event (buy_in.chips: ")
    assert "nothing of the file was written" in err
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_broken_hand_line_costs_only_that_hand(tmp_path: Path) -> None:
    rows = SERIES.read_text().splitlines()
    first = next(i for i, row in enumerate(rows) if '"hand_started"' in row)
    path = _variant(tmp_path, "hand", first + 3, lambda row: row[:30])
    db = tmp_path / "hand.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    whole = sum('"hand_started"' in row for row in rows)
    assert code == 2
    assert out.startswith(f"imported {whole - 1} hand(s)")
    assert err.startswith(f"error: {path}:{first + 4}, hand s01-001: bad JSON")


def test_an_import_of_no_existing_file_creates_no_ledger(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    missing = tmp_path / "nope.jsonl"
    for args in ([str(missing)], ["--strict", str(missing)]):
        assert one_shot(db, "import", *args) == (2, "", f"error: {missing}: no such file\n")
        assert not db.exists()
