"""An export taken while a hand is in play says what it wrote: ``--format csv|parquet DIR``
counts each file once (a ledger whose derived tables are caught up in memory lists the
file's tables beside them under the same names) and names the hands in play; ``--format phh
HAND`` of a hand in play says it is in play and what importing the PHH does."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.test_export_live import played
from tests.test_live_table import one_shot as cli

#: The events table and the derived tables and views (docs/SQL.md), one file each.
TABLES = ["audit_discrepancies", "derived_state", "discrepancies", "events", "hands",
          "player_hand_results", "player_names", "player_nicknames", "player_session_results",
          "pots", "results", "session_book", "session_players", "sessions", "standings"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_table_export_during_a_hand_counts_its_files_once(tmp_path: Path, fmt: str) -> None:
    db = tmp_path / "a.duckdb"
    played(db, "d dh Ann AsKs")
    out = tmp_path / "out"
    code, text, err = cli(db, "export", "--format", fmt, str(out))
    assert (code, text) == (0, f"wrote 15 files to {out}\n")
    assert sorted(p.name for p in out.iterdir()) == [f"{t}.{fmt}" for t in TABLES]
    assert err == ("note: 1 hand(s) still in play, exported as played so far (their chips in "
                   "the pot counted as put in, nothing as paid until each ends): L1\n")
    read = "read_csv_auto" if fmt == "csv" else "read_parquet"
    con = duckdb.connect()
    events = con.execute(f"SELECT count(*) FROM {read}('{out / f'events.{fmt}'}')").fetchall()
    con.close()
    assert events == [(4,)]  # the hand's start, its blinds and Ann's cards, once
    # the hand over: the same 15 files, no note
    for action in ("d dh Bob QhQd", "Ann f", "end"):
        assert cli(db, "act", "L1", action)[0] == 0
    assert cli(db, "export", "--format", fmt, str(tmp_path / "after")) == (
        0, f"wrote 15 files to {tmp_path / 'after'}\n", "")


def test_a_phh_export_of_a_named_hand_in_play_says_so(tmp_path: Path) -> None:
    """Named, to standard output or a file: the one note naming it, and that PHH cannot
    keep it in play (its wording of what an import does is the export's, whole-ledger)."""
    db = tmp_path / "a.duckdb"
    played(db, "d dh Ann AsKs")
    whole = cli(db, "export", "--format", "phh")[2]
    assert whole.startswith("note: 1 hand(s) still in play, written as played so far: PHH "
                            "cannot say a hand goes on") and whole.endswith(": L1\n")
    assert cli(db, "export", "--format", "phh", "L1")[2] == whole
    code, out, err = cli(db, "export", "--format", "phh", "L1", "-o", str(tmp_path / "L1.phh"))
    assert (code, out, err) == (0, f"wrote {tmp_path / 'L1.phh'}\n", whole)
