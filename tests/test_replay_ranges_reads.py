"""The full replay over ranges (replay/ranges.py) where this process reads the ledger and the
workers never open it: a read (the derived tables computed in memory over the read-only file)
replays in ranges with the same audit and tables as one process; a range that fails raises
what one process raises and leaves the saved tables as they were; the payloads a range sends
as one text are those the one-process reader gives, corrections and a payload holding the
separator included; and rows inserted as columns are those the appender writes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ledger.model.errors import LedgerError
from ledger.store.store import Ledger
from ledger.store.streams import raw_hand_streams
from replay import ranges
from replay import tables as T
from replay.books import audit, fresh_books
from replay.projections import rebuild
from tests.copies import copy_ledger
from tests.test_replay_ranges import series_copy


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Ranges of a few dozen hands, from any number of hands; counts the replays in ranges."""
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)
    calls: list[int] = []
    real = ranges.rebuild_in_ranges

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["jobs"])
        return real(*args, **kwargs)

    monkeypatch.setattr(ranges, "rebuild_in_ranges", counted)
    return calls


@pytest.fixture
def series(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the generated series' ledger (:func:`tests.test_replay_ranges.series_copy`):
    six sessions of 25 hands, planted errors, its derived tables never built."""
    return series_copy(tmp_path_factory, tmp_path)


def _tables(con: Any) -> dict[str, list[tuple]]:
    names = ("hands", "pots", "results", "discrepancies", "session_book", "session_players",
             "player_names", "player_nicknames", "audit_discrepancies")
    return {n: con.execute(f"SELECT * FROM {n}").fetchall() for n in names}


def test_a_read_replays_in_ranges_as_in_one_process(series: Path,
                                                    small_ranges: list[int]) -> None:
    db = series  # its derived tables never built: the read replays every hand
    before = db.read_bytes()
    found, tables = {}, {}
    for jobs in (1, 2):
        found[jobs] = audit(str(db), None, jobs=jobs)
        with fresh_books(str(db), jobs=jobs) as ledger:
            assert ledger.read_only  # the tables in memory, over the read-only file
            tables[jobs] = _tables(ledger.connection)
    assert small_ranges == [2, 2]  # the reads with two jobs went over ranges, in memory
    assert found[2] == found[1]
    assert sorted(d.kind for d in found[1][1]) == [
        "payout", "payout", "session_balance", "settlement", "stack_continuity"]
    assert tables[2] == tables[1] and len(tables[1]["hands"]) == 150
    assert db.read_bytes() == before  # a read never writes


def test_ranges_name_the_players_of_a_pokernow_log_in_an_opened_session(
        series: Path, small_ranges: list[int]) -> None:
    """The series, then a session opened with ``session open`` and given the run-it-twice
    log: replayed in ranges (the log's hands in the last), its players have their PokerNow
    names in the derived tables as in one process."""
    from click.testing import CliRunner

    from cli.main import cli
    from tests.test_pokernow_opened_names import NAMES, RIT

    db = series
    for args in (("session", "open", "fri", "--chip-value", "0.01", "--currency", "USD"),
                 ("import", "--session", "fri", str(RIT))):
        assert CliRunner().invoke(cli, ["--db", str(db), *args]).exit_code == 0
    with Ledger(db) as ledger:  # never built: the reads replay every hand
        ledger.connection.execute("DROP TABLE derived_state")
    small_ranges.clear()
    tables = {}
    for jobs in (1, 2):
        with fresh_books(str(db), jobs=jobs) as ledger:
            tables[jobs] = _tables(ledger.connection)
    assert small_ranges == [2]
    assert tables[2] == tables[1]
    assert dict(tables[2]["player_nicknames"]) == NAMES


def test_a_range_that_fails_raises_as_one_process_and_leaves_the_tables(
        series: Path, small_ranges: list[int]) -> None:
    """Two session rows that do not parse, in different ranges: two jobs raise what one job
    raises (the first in ledger order, located at its stream); the tables saved before are
    left as they were, row for row."""
    db = series
    with Ledger(db) as ledger:
        rebuild(ledger, jobs=1)
        saved = _tables(ledger.connection)
        cut = ranges.plan(ledger.connection, ledger.connection.execute(
            "SELECT max(position) FROM events").fetchone()[0])
        assert len(cut) == 3
        con = ledger.connection
        for rng in cut[1:]:  # the first buy-in of the second and of the third range
            con.execute("UPDATE events SET payload = '{\"type\": \"buy_in\"}' WHERE position ="
                        " (SELECT min(position) FROM events WHERE type = 'buy_in'"
                        " AND position > ? AND position <= ?)", [rng.low, rng.high])
    errors = {}
    for jobs in (1, 2):
        copy = db.with_name(f"jobs{jobs}.duckdb")
        shutil.copyfile(db, copy)
        with Ledger(copy) as ledger:
            with pytest.raises(LedgerError) as caught:
                rebuild(ledger, jobs=jobs)
            errors[jobs] = str(caught.value)
            assert _tables(ledger.connection) == saved
    assert small_ranges == [2]
    assert errors[2] == errors[1]
    assert errors[1].startswith("action 'session:s03 position ")  # the first of the two


def test_a_range_sends_the_payloads_one_process_reads(tmp_path: Path, run: Any, db: str,
                                                      corrected_data: Path) -> None:
    """Ranges of a ledger with corrections, a void and corrected entries appended after other
    hands (a hand whose rows do not follow one another is read on its own) give every hand
    as the one-process reader does; a payload holding the separator of the one text they
    are sent in (a NUL, which no JSON holds: a stored JSON column refuses it, a Parquet
    dataset's text column does not) is read one by one, as stored."""
    from replay.partition import read_part

    copy_ledger(corrected_data, Path(db))  # data/ imported, its books corrected
    with Ledger(db, read_only=True) as ledger:
        con = ledger.connection
        top = con.execute("SELECT max(position) FROM events").fetchone()[0]
        whole = list(raw_hand_streams(ledger))
        for per_part in (1, 7, 40, 10_000):
            read = [hand for rng in ranges.plan(con, top, per_part=per_part)
                    for hand in ranges.read_range(con, rng).typed().hands]
            assert read == whole, per_part
        rows = con.execute("SELECT position, stream, hand_id, session, seq, type,"
                           " CAST(payload AS VARCHAR) FROM events").fetchall()
    damaged = min(r[0] for r in rows if r[5] == "fold")
    rows = [(*r[:6], r[6].replace('"fold"', '"fo\x00ld"') if r[0] == damaged else r[6])
            for r in rows]
    part = duckdb.connect()
    part.execute("CREATE TABLE part (position BIGINT, stream VARCHAR, hand_id VARCHAR,"
                 " session VARCHAR, seq INTEGER, type VARCHAR, payload VARCHAR)")
    appender = part.appender("part")  # executemany runs a statement a row: seconds here
    appender.append_rows(rows)
    appender.flush()
    hands = read_part(part).hands
    assert [(h, s, p) for h, s, _, p in hands] == [(h, s, p) for h, s, _, p in whole]
    stored: dict[str, list[tuple[int, str]]] = {}
    for _, _, hand, _, seq, _, payload in rows:
        if hand is not None:
            stored.setdefault(hand, []).append((seq, payload))
    assert {hand: body for hand, _, body, _ in hands} == {
        hand: [payload for _, payload in sorted(texts)] for hand, texts in stored.items()}
    assert sum("\x00" in t for _, _, body, _ in hands for t in body) == 1


@pytest.mark.parametrize("columns_from", [1, 10**9])
def test_rows_go_in_as_columns_as_through_the_appender(monkeypatch: pytest.MonkeyPatch,
                                                       columns_from: int) -> None:
    """The same rows, row for row, whether they go in as columns or through the appender:
    NULLs, lists all of one length (one value a row, never a second dimension), JSON; and a
    value beyond 64 bits is the one line naming the table and the hand either way."""
    monkeypatch.setattr(T, "_COLUMNS_FROM", columns_from)
    rows = {
        "hands": [(f"h{i}", None if i % 2 else "s1", "NT", "complete", True, i == 3, 2,
                   10 * i, 0, "" if i else "a note", i, 25 if i % 2 else 1,
                   "USD" if i % 2 else None, 2 if i % 2 else 0) for i in range(5)],
        "pots": [(f"h{i}", 0, 10 * i, ["Ann", "Bob"], '{"Ann": 10}', 0, "Ann wins")
                 for i in range(5)],
        "results": [(f"h{i}", "s1", p, 100, 5, 0, 10, None if i == 2 else 10, 5, 105, i, 5)
                    for i in range(5) for p in ("Ann", "Bob")],
        "discrepancies": [("h1", "s1", "Ann", "payout", 10, 12, 2, "Ann was paid 10")],
    }
    con = duckdb.connect()
    T.create_tables(con)
    for table, table_rows in rows.items():
        T.insert_rows(con, table, table_rows)
    for table, table_rows in rows.items():
        assert con.execute(f"SELECT * FROM {table}").fetchall() == table_rows, table
    big = [("h9", "s1", "Ann", 100, 5, 0, 10, 2**63, 5, 105, 9, 5)]
    with pytest.raises(LedgerError) as caught:
        T.insert_rows(con, "results", big)
    assert str(caught.value) == (f"hand h9: {2**63} chips do not fit the derived table results"
                                 " (64-bit integers)")


def test_rows_made_arrow_where_replayed_go_in_as_the_same_rows() -> None:
    """A range's rows made Arrow columns in the worker that replayed them
    (``arrow_columns``) are stored as its numpy columns are; a text that is not UTF-8 is
    refused there, in the one line naming the table."""
    rows = [(f"h{i}", i, 10 * i, ["Ann", "Bob"] if i % 2 else [], '{"Ann": 10}', 0,
             None if i == 1 else "Ann wins") for i in range(4)]
    con = duckdb.connect()
    T.create_tables(con)
    T.insert_columns(con, "pots", T.arrow_columns("pots", rows))
    assert con.execute("SELECT * FROM pots ORDER BY hand_id").fetchall() == rows
    with pytest.raises(LedgerError) as caught:
        T.arrow_columns("pots", [("h9", 0, 10, ["Ann"], "{}", 0, "Ann\udc80")])
    assert str(caught.value) == (
        "cannot write the derived table pots: 'utf-8' codec can't encode character"
        " '\\udc80' in position 3: surrogates not allowed")


def test_scattered_hands_read_a_few_a_query_are_each_hand_as_stored(
        db: str, corrected_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hands whose rows do not follow one another (corrected, voided) are read many a
    query as they come by (here both by the first): each is its rows by seq as a read of it
    alone gives them, its session and first position, in ledger order with the others."""
    from ledger.store import streams

    monkeypatch.setattr(streams, "_SCATTERED", 2)
    copy_ledger(corrected_data, Path(db))
    with Ledger(db, read_only=True) as ledger:
        scattered = ledger.query(
            "SELECT count(*) FROM (SELECT stream FROM events WHERE hand_id IS NOT NULL"
            " GROUP BY stream HAVING max(position) - min(position) + 1 <> count(*))")[0][0]
        assert scattered == 2
        each = [(hand, rows[0].session, [r.payload for r in rows], rows[0].position)
                for hand in ledger.streams(kind="hand") for rows in [ledger.read(hand)]]
        assert list(raw_hand_streams(ledger)) == each
