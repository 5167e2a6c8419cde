"""The full replay in worker processes over ranges of the ledger (replay/ranges.py) against
the one-process pass: the same derived tables row for row (in their stored order), the same
findings, counts, rendered hands and views, on the generated series with planted errors and
on a ledger mixing sessions, hands of no session, corrections appended after other hands, a
void, corrected book entries, an alias and a PokerNow log; and where the ranges are cut."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cli.render import replay_json_text
from ledger.store.store import Ledger
from replay import ranges
from replay.ingest.pipeline import import_paths
from replay.projections import rebuild
from tests.conftest import SHARED
from tests.copies import copy_ledger
from tests.once import built_once
from tests.test_live_table import one_shot
from tests.unbuilt import unbuild


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranges of a few dozen hands, from any number of hands (the defaults need 20,000)."""
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)


def _derived(ledger: Ledger) -> dict[str, list[tuple]]:
    """Every table and view of the ledger but the events, rows in stored order."""
    con = ledger.connection
    names = [n for (n,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        " UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal"
        " AND database_name = current_database() ORDER BY 1").fetchall()]
    return {n: con.execute(f"SELECT * FROM {n}").fetchall() for n in names
            if n not in ("events", "meta")}


def _both(path: Path) -> tuple[dict[int, Any], dict[int, dict[str, list[tuple]]],
                               dict[int, list[str]]]:
    """Replay copies of the ledger at ``path`` with one job and with two: the projections,
    the derived tables and the rendered hands of each."""
    projections, tables, texts = {}, {}, {}
    for jobs in (1, 2):
        copy = path.with_name(f"jobs{jobs}.duckdb")
        shutil.copyfile(path, copy)
        texts[jobs] = []
        with Ledger(copy) as ledger:
            projections[jobs] = rebuild(ledger, jobs=jobs, render=replay_json_text,
                                        echo=texts[jobs].append)
            tables[jobs] = _derived(ledger)
    return projections, tables, texts


def _assert_same(path: Path) -> Any:
    projections, tables, texts = _both(path)
    one, two = projections[1], projections[2]
    assert two.counts == one.counts
    assert two.findings == one.findings
    assert list(two.series.sessions) == list(one.series.sessions)
    assert two.series.nicknames == one.series.nicknames
    assert two.series.aliases == one.series.aliases
    assert texts[2] == texts[1] and len(texts[1]) == one.counts["hands"]
    assert set(tables[2]) == set(tables[1])
    for name, rows in tables[1].items():
        if name == "derived_state":  # its digest of the tables is checked by equality too
            assert dict(tables[2][name]) == dict(rows)
        else:
            assert tables[2][name] == rows, name
    return one


def _series(tmp_path: Path) -> Path:
    from replay.demo.series import generate_series, write_series

    db = tmp_path / "series.duckdb"
    series = generate_series(sessions=6, hands=25, seed=7, plant_errors=True)
    with Ledger(db) as ledger:
        import_paths(ledger, write_series(series, tmp_path / "series"), strict=True,
                     session=None, pn_ledger=None)
        unbuild(ledger.connection)  # never built: the first replay reads every hand
    return db


def series_copy(factory: pytest.TempPathFactory, folder: Path) -> Path:
    """A copy in ``folder`` of the ledger :func:`_series` builds (built once a test session),
    the test's own to change."""
    return copy_ledger(built_once(factory, "series", _series), folder / "series.duckdb")


@pytest.fixture
def series(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:func:`series_copy` in the test's folder."""
    return series_copy(tmp_path_factory, tmp_path)


def test_series_in_ranges_as_in_one_process(series: Path, small_ranges: None) -> None:
    db = series
    with Ledger(db, read_only=True) as ledger:
        top = ledger.connection.execute("SELECT max(position) FROM events").fetchone()[0]
        cut = ranges.plan(ledger.connection, top)
    # six sessions of 25 hands: a range closes at the first session end past 40 hands
    assert [(r.first_ord, r.hands) for r in cut] == [(1, 50), (51, 50), (101, 50)]
    assert cut[0].low == 0 and cut[-1].high == top
    assert all(a.high == b.low for a, b in zip(cut, cut[1:], strict=False))
    one = _assert_same(db)
    assert one.counts == {"hands": 150, "bad": 1, "unverifiable": 0}
    # the planted errors (replay.demo.series), found alike in both
    assert sorted(d.kind for d in one.findings) == [
        "payout", "payout", "session_balance", "settlement", "stack_continuity"]


def test_mixed_ledger_in_ranges_as_in_one_process(tmp_path: Path, run: Any, db: str,
                                                  small_ranges: None, corrected_data: Path
                                                  ) -> None:
    copy_ledger(corrected_data, Path(db))  # data/ imported, its books corrected
    with Ledger(db, read_only=True) as ledger:
        (fixed,) = ledger.connection.execute("SELECT max(position) FROM events").fetchone()
    # after the corrections: a PokerNow log (ids and nicknames) and the real hands (no session)
    pokernow = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert run("import", str(pokernow), str(SHARED / "phh")).exit_code == 0
    with Ledger(db, read_only=True) as ledger:
        con = ledger.connection
        top = con.execute("SELECT max(position) FROM events").fetchone()[0]
        cut = ranges.plan(con, top)
        loose_firsts = [p for (p,) in con.execute(
            "SELECT min(position) FROM events WHERE session IS NULL AND hand_id IS NOT NULL"
            " AND position > ? GROUP BY hand_id", [fixed]).fetchall()]
    # a correction, a void or a corrected entry joins every row from its hand's (or its
    # session's) first to it: everything up to the last of them is the first range
    assert cut[0].low == 0 and cut[0].high >= fixed
    assert len(cut) >= 3 and cut[-1].high == top
    # the real hands of no session imported after them fall in several ranges
    assert len({r.number for r in cut for p in loose_firsts if r.low < p <= r.high}) >= 2
    one = _assert_same(Path(db))
    assert [(d.kind, d.hand, d.player, d.expected, d.actual) for d in one.findings
            if d.session in ("s02", "s03")] == [
        ("stack_continuity", "s02-001", "Carol", 160, 100),
        ("stack_continuity", "s03-001", "Carol", 350, 150),
        ("settlement", None, "Alicia", -700, 0)]  # Alice's payment of 7.00 USD retracted
    assert one.series.aliases["Alice"] == "Alicia" and one.series.nicknames


def test_one_range_or_one_job_is_the_one_process_pass(series: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger below MIN_HANDS, or one job, never starts workers."""
    db = series

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("no ranges expected")

    monkeypatch.setattr(ranges, "rebuild_in_ranges", refuse)
    with Ledger(db) as ledger:
        assert rebuild(ledger, jobs=2).counts["hands"] == 150  # 150 < MIN_HANDS
        monkeypatch.setattr(ranges, "MIN_HANDS", 0)
        assert rebuild(ledger, jobs=1).counts["hands"] == 150
        monkeypatch.setattr(ranges, "PART_HANDS", 10_000)  # one range: one process
        assert rebuild(ledger, jobs=2).counts["hands"] == 150


def test_a_rebuy_made_before_its_hand_counts_there_in_ranges(series: Path,
                                                               small_ranges: None) -> None:
    """After the series, session z: Bob loses his 100 to Ann in z1 and z2 seats him with the
    100 he rebought, recorded after z2 as made before it (`buyin --before z2`), beside a
    hand of session y dealt between. Replayed in ranges as in one process, the rebuy counts
    before z2: no finding of z's (its stack continuity is clean), the series' own as before."""
    steps = [("session", "open", "z"), ("buyin", "z", "Ann", "100"), ("buyin", "z", "Bob", "100"),
             ("session", "open", "y"), ("buyin", "y", "Cy", "100"), ("buyin", "y", "Dee", "100")]
    for session, hand, seats, actions in (
            ("z", "z1", "Ann:100,Bob:100", ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 100",
                                           "Bob cc", "d db 2c3d4h", "d db 9s", "d db Td",
                                           "pay Ann 200", "end")),
            ("y", "y1", "Cy:100,Dee:100", ("d dh Cy ????", "d dh Dee ????", "Cy f", "end")),
            ("z", "z2", "Ann:200,Bob:100", ("d dh Ann ????", "d dh Bob ????", "Ann f", "end"))):
        button = seats.split(":")[0]
        steps.append(("hand", "start", "--session", session, "--hand", hand, "--game", "NT",
                      "--stakes", "1/2", "--seats", seats, "--button", button))
        steps.extend(("act", hand, a) for a in actions)
    steps.append(("buyin", "z", "Bob", "100", "--before", "z2"))
    for args in steps:
        assert one_shot(series, *args)[0] == 0, args
    one = _assert_same(series)
    assert [d.kind for d in one.findings if d.session in ("y", "z")] == []
    assert sorted(d.kind for d in one.findings) == [
        "payout", "payout", "session_balance", "settlement", "stack_continuity"]
