"""A Parquet export (``export --format parquet DIR``) imported into a fresh ledger: no import
reads Parquet, and the refusal names the file and points to the JSON-lines export, which
imports (README "Formats", exports)."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import handledger

HAND = Path(__file__).parents[1] / "data" / "hands" / "ante-side-pots.phh"
SAID = ("a Parquet file (a table `handledger export --format parquet` writes), which import "
        "does not read: export the ledger as JSON lines (`handledger export --format jsonl -o "
        "FILE.jsonl`) and import that file")


def test_a_parquet_export_is_refused_pointing_to_the_json_lines_export(tmp_path: Path) -> None:
    db, fresh, out = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "pq"
    assert handledger(db, "import", str(HAND))[0] == 0
    assert handledger(db, "export", "--format", "parquet", str(out))[0] == 0
    events = out / "events.parquet"
    assert handledger(fresh, "import", str(events)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {events}: {SAID}\n")
    assert not fresh.exists()
    code, said, err = handledger(fresh, "import", str(out))
    tables = sorted(out.iterdir())
    assert (code, said) == (0, "imported 0 hand(s) (0 events) from 0 file(s); 0 already in the "
                               f"ledger; 0 rejected; {len(tables)} other file(s) skipped (each "
                               "in a note)\n")
    assert err.splitlines() == [f"note: {path}: skipped: {SAID}" for path in tables]
    assert not fresh.exists()
    jsonl = tmp_path / "a.jsonl"  # what the refusal points to imports
    assert handledger(db, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    assert handledger(fresh, "import", str(jsonl)) == (
        0, "imported 1 hand(s) (56 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
