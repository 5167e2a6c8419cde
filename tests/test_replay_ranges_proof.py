"""The first replay over ranges that saves the books proves the chain a range at a time, as it
reads each range (ledger/store/intact.py ProvenInRanges): an intact ledger is proven by the
queries alone, range after range; a row edited by SQL in a later range is refused with
``verify``'s words and nothing is saved, as the whole proof before the replay refused it."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

import ledger.store.intact as intact
from ledger.model.errors import ChainBroken
from ledger.store.store import Ledger
from replay import ranges
from replay.projections import rebuild
from tests.test_replay_ranges import _series

REFUSED = "the books are not saved from it; run `handledger verify`"


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranges of a few dozen hands (the series: three ranges of 50 hands)."""
    monkeypatch.setattr(ranges, "MIN_HANDS", 0)
    monkeypatch.setattr(ranges, "PART_HANDS", 40)


def _tables(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [n for (n,) in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1"
                                          ).fetchall()]


def test_an_intact_ledger_is_proven_range_by_range(tmp_path: Path, small_ranges: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = _series(tmp_path)
    added: list[tuple[int, int]] = []
    add = intact.ProvenInRanges.add

    def noted(self: intact.ProvenInRanges, low: int, high: int) -> None:
        added.append((low, high))
        add(self, low, high)

    def whole(*args: object) -> None:
        raise AssertionError("the whole proof ran: a range was not proven by the queries")

    monkeypatch.setattr(intact.ProvenInRanges, "add", noted)
    monkeypatch.setattr(intact, "require_intact", whole)
    with Ledger(db) as ledger:
        top = ledger.connection.execute("SELECT max(position) FROM events").fetchone()[0]
        cut = [(r.low, r.high) for r in ranges.plan(ledger.connection, top)]
        counts = rebuild(ledger, jobs=2, intact=True).counts
    assert len(cut) == 3 and added == cut  # every range proven once, in order
    assert counts == {"hands": 150, "bad": 1, "unverifiable": 0}
    assert "hands" in _tables(db)


def test_a_row_edited_in_the_last_range_is_refused_nothing_saved(
        tmp_path: Path, small_ranges: None) -> None:
    db = _series(tmp_path)
    with duckdb.connect(str(db)) as con:
        (top,), = con.execute("SELECT max(position) FROM events").fetchall()
        last = ranges.plan(con, top)[-1]
        # the last range's first hand row: a chip count edited, its hash left as it was
        (position, stream, seq), = con.execute(
            "SELECT position, stream, seq FROM events WHERE position > ? AND hand_id IS NOT"
            " NULL AND payload LIKE '%\"stack\":%' ORDER BY position LIMIT 1",
            [last.low]).fetchall()
        con.execute("UPDATE events SET payload = regexp_replace(payload, '\"stack\":(\\d+)',"
                    " '\"stack\":1\\1') WHERE position = ?", [position])
    before = _tables(db)
    with Ledger(db) as ledger, pytest.raises(ChainBroken) as refused:
        rebuild(ledger, jobs=2, intact=True)
    assert str(refused.value) == (
        f"ledger {db}: broken at position {position}: edited: row {position} ({stream} seq"
        f" {seq}): its content does not hash to its stored hash: {REFUSED}")
    assert _tables(db) == before  # no derived table made
