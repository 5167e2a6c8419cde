"""An import into an empty ledger writes the derived tables a full replay would make.

``replay.ingest.derived`` makes each appended hand's rows and audit facts from the engine
state the import's check left, and writes the replay tables, the audit's tables and the head
in the import's one transaction. These tests compare them, table by table and row by row in
stored order, with the tables ``save_tables`` makes after an import without them (every hand
replayed from the stored events): real PHH hands with bad ones among them, a JSON-lines
series with sessions and planted errors, our own export of a corrected ledger (corrections,
a void, amended entries, an alias), PokerNow and PokerStars files; and check that a save
after such an import finds them fresh, and that they are written only into an empty ledger.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import replay.ingest.chunked as chunked
import replay.ingest.derived as derived
from ledger.formats.jsonl import iter_jsonl
from ledger.store.store import Ledger
from replay.demo.series import generate_series
from replay.ingest.pipeline import import_paths
from replay.projections import catch_up, save_tables
from tests.conftest import DATA, SHARED
from tests.copies import copy_ledger
from tests.test_import_chunks import ILLEGAL, _phhs


def _derived(ledger: Ledger) -> dict[str, list[tuple]]:
    """Every derived table and view, rows in stored order; of ``derived_state`` all but the
    head's chain hash (which the rows' times make differ between two imports)."""
    con = ledger.connection
    names = [n for (n,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal"
        " AND database_name = current_database() ORDER BY 1").fetchall()]
    out = {n: con.execute(f"SELECT * FROM {n}").fetchall() for n in names
           if n not in ("events", "meta", "derived_state", "sessions")}
    out["derived_state"] = con.execute(
        "SELECT * FROM derived_state WHERE key <> 'head_hash' ORDER BY key").fetchall()
    return out


def _pays(files: list[Path]) -> bool:
    """Whether a JSON-lines file of ``files`` records a payment of a session with hands."""
    return any(f.suffix == ".jsonl" and '"type":"payment"' in f.read_text() for f in files)


def _compare(tmp_path: Path, files: list[Path], **kw: Any) -> dict[str, list[tuple]]:
    """Import ``files`` into two new ledgers, one making the tables as it imports and one
    whose tables ``save_tables`` then makes; assert they are equal and return them."""
    tables = []
    for made in (True, False):
        with Ledger(tmp_path / f"made-{made}.duckdb") as ledger:
            report = import_paths(ledger, files, strict=False, session=None, pn_ledger=None,
                                  tables=made, **kw)
            assert report.imported
            if made:
                assert catch_up(ledger) == "fresh"  # the import saved them as of its head
            else:  # made by a rebuild: after the import, or by its check of a file's
                # payments, which reckons what each payer owes from them (book_rules)
                assert save_tables(ledger) == ("fresh" if _pays(files) else "full")
            tables.append(_derived(ledger))
    made, saved = tables
    assert made.keys() == saved.keys()
    for name in saved:
        assert made[name] == saved[name], name
    assert saved["hands"] and saved["results"] and saved["session_book"]
    return saved


def test_real_phh_hands_with_bad_ones(tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Real hands of every game (a chunk of 7 hands: rows appended chunk after chunk), an
    illegal hand and a broken table among them."""
    monkeypatch.setattr(chunked, "CHUNK_HANDS", 7)
    path = _phhs(tmp_path / "real.phhs", 60, bad={3: ILLEGAL, 31: "variant = \n"})
    saved = _compare(tmp_path, [path])
    assert len(saved["hands"]) == 58 and saved["discrepancies"]


def test_a_json_lines_series_with_sessions(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions with buy-ins, rebuys and cash-outs (their audit: session books, players,
    findings of the planted errors); rows and facts held 5 hands at a time."""
    monkeypatch.setattr(derived, "_FLUSH_HANDS", 5)
    series = generate_series(sessions=3, hands=12, seed=4, plant_errors=True)
    path = tmp_path / "series.jsonl"
    path.write_text("".join("".join(iter_jsonl(log.rows)) for log in series.sessions))
    saved = _compare(tmp_path, [path])
    assert len(saved["session_book"]) == 3 and saved["audit_discrepancies"]


def test_our_export_of_a_corrected_ledger(tmp_path: Path, run: Any, db: str,
                                          corrected_data: Path) -> None:
    """Corrections appended after other hands, a void, amended and retracted entries, an
    alias, PokerNow ids: the export read back into a new ledger."""
    copy_ledger(corrected_data, Path(db))  # data/ imported, its books corrected
    pokernow = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert run("import", str(pokernow)).exit_code == 0
    export = tmp_path / "all.jsonl"
    assert run("export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    saved = _compare(tmp_path, [export])
    assert any(row[5] for row in saved["hands"])  # corrected hands among them
    assert saved["player_names"]


@pytest.mark.parametrize("name", ["pokernow/charlestudor_Input_Log_002.csv",
                                  "text/Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"])
def test_pokernow_and_pokerstars_files(tmp_path: Path, name: str) -> None:
    _compare(tmp_path, [SHARED / name])


def test_only_a_lone_file_into_an_empty_ledger_makes_them(tmp_path: Path) -> None:
    """Into a ledger with rows, or with several files, the import leaves the tables to the
    save after it (which replays what moved)."""
    path = _phhs(tmp_path / "real.phhs", 5)
    other = _phhs(tmp_path / "other.phhs", 3)
    other.write_text(other.read_text().replace("venue = 'chunks'", "venue = 'other'"))
    with Ledger(tmp_path / "two.duckdb") as ledger:
        import_paths(ledger, [path, other], strict=False, session=None, pn_ledger=None,
                     tables=True)
        assert catch_up(ledger) == "full"
    with Ledger(tmp_path / "after.duckdb") as ledger:
        import_paths(ledger, [path], strict=False, session=None, pn_ledger=None, tables=True)
        assert catch_up(ledger) == "fresh"
        import_paths(ledger, [other], strict=False, session=None, pn_ledger=None, tables=True)
        assert catch_up(ledger) == "full"  # the hands of no session that moved: all again


@pytest.mark.parametrize("kind", ["phhs", "jsonl"])
def test_made_by_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  kind: str) -> None:
    """Workers make each hand's share of their part (numbered from the part's first hand
    and row): the same tables, whatever the parts."""
    import replay.ingest.parallel as par
    from tests.test_import_parallel import _Spy

    monkeypatch.setattr(par, "PHHS_PART_BYTES", 5_000)
    monkeypatch.setattr(par, "PART_BYTES", 5_000)
    monkeypatch.setattr(derived, "_FLUSH_HANDS", 7)
    spy = _Spy(monkeypatch)
    if kind == "phhs":
        path = _phhs(tmp_path / "real.phhs", 70)
    else:
        series = generate_series(sessions=3, hands=12, seed=4, plant_errors=True)
        path = tmp_path / "series.jsonl"
        path.write_text("".join("".join(iter_jsonl(log.rows)) for log in series.sessions))
    _compare(tmp_path, [path], jobs=2)
    assert len(spy.results) == 2 and None not in spy.results


def test_hands_whose_streams_the_import_changes(tmp_path: Path) -> None:
    """The declare night carries chips from hand to hand (RULES.md §3.8): the import adds
    ``carry_over`` events to the checked streams, whose shares are then made again from the
    streams as stored."""
    saved = _compare(tmp_path, [DATA / "declare" / "declare-night.jsonl"])
    assert any(row[8] for row in saved["hands"])  # chips carried


def test_a_hand_with_two_rows_in_hands_refuses_the_import(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``hands`` table has no key (replay/tables.py): the import checks, once its rows are
    in, that no hand has two. A share appended twice (a fault planted here) rolls the whole
    file back, naming the hand."""
    add = derived.ImportTables.add

    def twice(self: derived.ImportTables, share: Any) -> None:
        add(self, share)
        if self.hands == 3:
            add(self, share)

    monkeypatch.setattr(derived.ImportTables, "add", twice)
    path = _phhs(tmp_path / "five.phhs", 5)
    with Ledger(tmp_path / "l.duckdb") as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                              tables=True)
        assert report.errors == [f"{path}: hand chunks-3 has two rows in the derived tables: "
                                 "nothing written"]
        assert (report.imported, ledger.count()) == (0, 0)
        assert ledger.connection.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'hands'"
                " AND database_name = current_database()").fetchone() == (0,)
