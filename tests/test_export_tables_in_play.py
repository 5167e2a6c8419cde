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


def _a_closed_night(db: Path) -> None:
    """Ann (200) and Bob (150) at 1 chip = 0.25 USD, one hand of 1/2: both check it down,
    Ann's wheel beats Bob's queens, the pot of 4 hers; Ann cashes out 202, Bob 148."""
    for args in (("session", "open", "s", "--chip-value", "0.25", "--currency", "USD",
                  "--date", "2026-01-09"), ("buyin", "s", "Ann", "200"),
                 ("buyin", "s", "Bob", "150"),
                 ("hand", "start", "--session", "s", "--hand", "L1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Ann")):
        assert cli(db, *args)[0] == 0, args
    for action in ("d dh Ann AsKs", "d dh Bob QhQd", "Ann cc", "Bob cc", "d db 2h3h4h",
                   "Bob cc", "Ann cc", "d db 5d", "Bob cc", "Ann cc", "d db 9c", "Bob cc",
                   "Ann cc", "end"):
        assert cli(db, "act", "L1", action)[0] == 0, action
    for args in (("cashout", "s", "Ann", "202"), ("cashout", "s", "Bob", "148"),
                 ("session", "close", "s")):
        assert cli(db, *args)[0] == 0, args


def test_chips_and_money_are_64_bit_integers_in_parquet_and_csv_agrees(tmp_path: Path) -> None:
    """The sums (DuckDB's HUGEINT) are Parquet INT64, never DOUBLE; the CSV has the same
    values, and a list is its JSON text there (docs/SQL.md "Units")."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    db = tmp_path / "a.duckdb"
    _a_closed_night(db)
    for fmt in ("parquet", "csv"):
        assert cli(db, "export", "--format", fmt, str(tmp_path / fmt))[:2] == (
            0, f"wrote 15 files to {tmp_path / fmt}\n")
    wanted = {"standings": ["hands", "net", "net_minor", "buy_in", "cash_out"],
              "sessions": ["buy_in", "cash_out"],
              "player_session_results": ["net_minor", "buy_in_minor", "cash_out_minor"],
              "player_hand_results": ["net_minor"]}
    read = {}
    for table, columns in wanted.items():
        got = pq.read_table(tmp_path / "parquet" / f"{table}.parquet", columns=columns)
        assert [got.schema.field(c).type for c in columns] == [pa.int64()] * len(columns)
        read[table] = got.to_pylist()
    assert read == {
        "standings": [{"hands": 1, "net": 2, "net_minor": 50, "buy_in": 200, "cash_out": 202},
                      {"hands": 1, "net": -2, "net_minor": -50, "buy_in": 150,
                       "cash_out": 148}],
        "sessions": [{"buy_in": 350, "cash_out": 350}],
        "player_session_results": [
            {"net_minor": 50, "buy_in_minor": 5000, "cash_out_minor": 5050},
            {"net_minor": -50, "buy_in_minor": 3750, "cash_out_minor": 3700}],
        "player_hand_results": [{"net_minor": -50}, {"net_minor": 50}]}
    assert (tmp_path / "csv" / "standings.csv").read_text().splitlines()[1:] == [
        "Ann,1,1,2,50,2,200,202,2,2,2,0,USD,25,2", "Bob,1,1,-2,-50,-2,150,148,-2,-2,0,-2,USD,25,2"]
    assert (tmp_path / "csv" / "pots.csv").read_text().splitlines()[1] == (
        'L1,0,4,"[""Bob"",""Ann""]","{""Ann"": 4}",0,"Main pot 4 (Bob, Ann): Ann wins 4 with '
        'straight, five high."')
    assert pq.read_table(tmp_path / "parquet" / "pots.parquet").column(
        "eligible").to_pylist() == [["Bob", "Ann"]]


def test_an_amount_beyond_64_bits_is_refused(tmp_path: Path) -> None:
    import duckdb as dd

    from ledger.model.errors import LedgerError
    from replay.ingest.export_columns import select_list

    con = dd.connect()
    con.execute("CREATE VIEW standings AS SELECT 'Ann' AS player, "
                "CAST(9223372036854775807 AS HUGEINT) + 1 AS net, [1] AS l")
    with pytest.raises(LedgerError) as caught:
        select_list(con, "standings", "parquet")
    assert str(caught.value) == ("export: standings.net holds 9223372036854775808, beyond a "
                                 "64-bit integer: nothing written")
    con.execute("CREATE OR REPLACE VIEW standings AS SELECT 'Ann' AS player, "
                "CAST(-9223372036854775808 AS HUGEINT) AS net, [1] AS l")
    assert select_list(con, "standings", "csv") == (
        '"player", CAST("net" AS BIGINT) AS "net", CAST(to_json("l") AS VARCHAR) AS "l"')
