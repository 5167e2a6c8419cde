"""A Parquet export (``export --format parquet DIR``) imported into a fresh ledger: no import
reads Parquet, and the refusal names the file and points to the JSON-lines export, which
imports (docs/IMPORTING.md, files an import passes over). The export folder, holding nothing
import reads, is refused in one line, exit 2, nothing written; one Parquet file named is refused
in two, the error and the summary counting it rejected, as docs/IMPORTING.md quotes them; a
folder of hands with stray Parquet files beside them imports its hands, the Parquet files in
one note."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.console_run import handledger

HAND = Path(__file__).parents[1] / "data" / "hands" / "ante-side-pots.phh"
SAID = ("a Parquet file (a table `handledger export --format parquet` writes), which import "
        "does not read: export the ledger as JSON lines (`handledger export --format jsonl -o "
        "FILE.jsonl`) and import that file")
#: An export folder refused (``%`` the folder).
FOLDER = ("%s: a Parquet export (15 Parquet file(s), tables `handledger export --format "
          "parquet` writes), which import does not read: nothing imported; to restore a "
          "ledger, import its JSON-lines export instead (`handledger export --format jsonl -o "
          "FILE.jsonl`); `handledger dask-replay %s OUT` replays and audits the Parquet export")


def test_a_parquet_export_is_refused_pointing_to_the_json_lines_export(tmp_path: Path) -> None:
    db, fresh, out = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "pq"
    assert handledger(db, "import", str(HAND))[0] == 0
    assert handledger(db, "export", "--format", "parquet", str(out))[0] == 0
    events = out / "events.parquet"
    assert handledger(fresh, "import", str(events)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {events}: {SAID}\n")
    assert not fresh.exists()
    doc = " ".join((Path(__file__).parents[1] / "docs" / "IMPORTING.md").read_text(
        encoding="utf-8").split())
    assert (f"in two lines: the error on stderr (``error: pq/events.parquet: {SAID}``), then the "
            "import's summary counting it rejected (`imported 0 hand(s) (0 events) from 1 "
            "file(s); 0 already in the ledger; 1 rejected`)") in doc
    tables = sorted(out.iterdir())  # the export folder: nothing import reads, refused
    assert len(tables) == 15
    for command in ("import", "run"):
        assert handledger(fresh, command, str(out)) == (2, "", f"error: {FOLDER % (out, out)}\n")
        assert not fresh.exists()
    jsonl = tmp_path / "a.jsonl"  # what the refusal points to imports
    assert handledger(db, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    assert handledger(fresh, "import", str(jsonl)) == (
        0, "imported 1 hand(s) (56 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")


def test_a_folder_of_hands_with_stray_parquet_files_imports_its_hands(tmp_path: Path) -> None:
    """Two tables of an export (one renamed ``.jsonl``: known by its first bytes) beside a
    PHH file and a CSV no format reads: the hand imports (56 events), exit 0; the Parquet
    files are one note, the CSV its own, and the summary counts the 3 files skipped."""
    db, fresh, out = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "pq"
    assert handledger(db, "import", str(HAND))[0] == 0
    assert handledger(db, "export", "--format", "parquet", str(out))[0] == 0
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copyfile(HAND, mixed / HAND.name)
    shutil.copyfile(out / "events.parquet", mixed / "events.parquet")
    shutil.copyfile(out / "hands.parquet", mixed / "hands.jsonl")
    (mixed / "x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    code, said, err = handledger(fresh, "import", str(mixed))
    assert (code, said) == (0, "imported 1 hand(s) (56 events) from 1 file(s); 0 already in "
                               "the ledger; 0 rejected; 3 other file(s) skipped (in 2 notes)\n")
    assert err.splitlines()[-1] == (
        f"note: {mixed}: 2 Parquet file(s) skipped: tables `handledger export --format "
        "parquet` writes, which import does not read")
    assert err.splitlines()[0].startswith(f"note: {mixed / 'x.csv'}: skipped: not a hand")
    assert len(err.splitlines()) == 2


def test_a_ledger_and_a_csv_events_table_are_refused_pointing_to_the_json_lines_export(
        tmp_path: Path) -> None:
    """A ledger's own file (a DuckDB database) and the events table of ``export --format csv``
    are no hand history either: each refused naming what it is and the export that imports
    (for a ledger, with its path: ``--db LEDGER export --format jsonl``), nothing written; in
    a folder each is counted by what it is. The ledger's export, as the line says, imports."""
    db, fresh, out = tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "csv"
    assert handledger(db, "import", str(HAND))[0] == 0
    assert handledger(db, "export", "--format", "csv", str(out))[0] == 0
    rejected = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
    assert handledger(fresh, "import", str(db)) == (2, rejected, (
        f"error: {db}: a DuckDB database (a ledger's file), which import does not read: to "
        "bring a ledger's hands and books into this one, export them as JSON lines (`handledger "
        f"--db {db} export --format jsonl -o FILE.jsonl`) and import that file\n"))
    events = out / "events.csv"
    assert handledger(fresh, "import", str(events)) == (2, rejected, (
        f"error: {events}: the events table as `handledger export --format csv` writes it, "
        "which import does not read: export the ledger as JSON lines (`handledger export "
        "--format jsonl -o FILE.jsonl`) and import that file\n"))
    assert not fresh.exists()
    both = tmp_path / "both"
    both.mkdir()
    shutil.copyfile(db, both / "old.duckdb")
    shutil.copyfile(events, both / "events.csv")
    assert handledger(fresh, "import", str(both)) == (2, "", (
        f"error: {both}: nothing to import: 2 file(s) skipped, 1 DuckDB database(s) (a ledger: "
        "import its JSON-lines export), 1 events table(s) of a CSV export (import the "
        "JSON-lines export); handledger reads JSON lines (.jsonl), PHH (.phh, .phhs), PokerNow "
        "game logs (.csv), PokerStars hand histories (text); nothing written\n"))
    assert not fresh.exists()
    jsonl = tmp_path / "FILE.jsonl"
    assert handledger(db, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    assert handledger(fresh, "import", str(jsonl)) == (
        0, "imported 1 hand(s) (56 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
