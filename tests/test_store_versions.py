"""The store versions (ledger/store/store.py, module doc): a new ledger's ``events`` table has
no primary key and no unique ``(stream, seq)`` (version 2), and the writer and ``verify`` keep
what those keys kept; a ledger of version 1, made with the keys, is read and written as before.

Rows are planted the way an editor of the file (or a writer with a bug) would: plain SQL, with
hashes a careful forger computes, so that the chain itself still links up.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import duckdb
import pytest

import ledger.store.chain as chain
import ledger.store.store as store
from ledger.model.errors import ChainBroken, DuplicateEvent
from ledger.model.events import SessionOpened
from ledger.store.chain import GENESIS, link_rows, prepare_batch
from ledger.store.columns import prepare_columns
from ledger.store.store import Ledger
from tests.test_store import hand

#: The ``events`` and ``meta`` tables as store version 1 made them (the keys DuckDB keeps as
#: ART indexes).
V1_SCHEMA = (
    """CREATE TABLE events (
        position BIGINT PRIMARY KEY, stream VARCHAR NOT NULL, hand_id VARCHAR, session VARCHAR,
        seq INTEGER NOT NULL, type VARCHAR, schema_version INTEGER, payload JSON,
        recorded_at TIMESTAMP, source_key VARCHAR, prev_hash VARCHAR, hash VARCHAR,
        UNIQUE (stream, seq))""",
    "CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
    f"""INSERT INTO meta VALUES ('store_version', '1'), ('head_position', '0'),
        ('head_hash', '{GENESIS}')""",
)


def v1_ledger(path: Path) -> Ledger:
    """A ledger file made with store version 1's tables, opened."""
    con = duckdb.connect(str(path))
    for ddl in V1_SCHEMA:
        con.execute(ddl)
    con.close()
    return Ledger(path)


@pytest.fixture
def keyless(tmp_path: Path) -> Iterator[Ledger]:
    """A new ledger (version 2) with hands h1 (rows 1-10) and h2 (rows 11-20)."""
    with Ledger(tmp_path / "new.duckdb") as led:
        led.append("h1", hand("h1"))
        led.append("h2", hand("h2"))
        yield led


def _indexes(led: Ledger) -> list[tuple[str, str]]:
    return led.connection.execute(
        "SELECT constraint_type, constraint_text FROM duckdb_constraints()"
        " WHERE table_name = 'events' AND constraint_type <> 'NOT NULL'").fetchall()


def _meta(led: Ledger, key: str) -> str:
    return led.connection.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()[0]


def plant(led: Ledger, *, position: int, stream: str, seq: int, after: int) -> None:
    """A row of ``stream`` at ``position`` with ``seq`` (a fold), hashed right and linked to
    the row at ``after``; the recorded head moved to it when it is the last row."""
    prev = led.connection.execute("SELECT hash FROM events WHERE position = ?",
                                  [after]).fetchone()[0]
    batch = prepare_batch(stream, [hand(stream)[-2]], stream, None, None)
    (row,) = link_rows(prev, first_position=position, first_seq=seq, stream=stream,
                       hand_id=stream, session=None, source_key=None,
                       recorded_at=datetime(2026, 1, 1), types=batch.types,
                       schema_versions=batch.versions, payloads=batch.payloads)
    led.connection.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           list(row))
    if position > int(_meta(led, "head_position")):
        led.connection.execute("UPDATE meta SET value = CASE key WHEN 'head_position' THEN ?"
                               " ELSE ? END WHERE key IN ('head_position', 'head_hash')",
                               [str(position), row[11]])


def test_a_new_ledger_is_version_2_without_keys_on_its_events(keyless: Ledger) -> None:
    assert _meta(keyless, "store_version") == "2"
    assert _indexes(keyless) == []
    assert [(s.position, s.seq) for s in keyless.read("h2")][:2] == [(11, 1), (12, 2)]
    assert keyless.verify().ok


def test_a_version_1_ledger_keeps_its_keys_and_is_read_and_written_as_before(
        tmp_path: Path) -> None:
    with v1_ledger(tmp_path / "old.duckdb") as led:
        assert led.append("h1", hand("h1")) == list(range(1, 11))
        assert led.append_many([("h2", hand("h2"), None, None, "k2")]) == [list(range(11, 21))]
        opened = prepare_batch("session:s", [SessionOpened(session="s")], None, "s", None)
        opened.expected_seq = 0
        assert list(led.append_columns(prepare_columns([opened], datetime(2026, 1, 1)))) == [21]
        assert [s.seq for s in led.read("h2")] == list(range(1, 11))
        assert led.verify().ok and led.verify().rows == 21
        assert _meta(led, "store_version") == "1"  # never converted
        assert [kind for kind, _ in _indexes(led)] == ["PRIMARY KEY", "UNIQUE"]
        with pytest.raises(duckdb.ConstraintException):  # its keys still refuse a repeat
            led.connection.execute("INSERT INTO events SELECT * FROM events WHERE position = 5")
    with Ledger(tmp_path / "old.duckdb", read_only=True) as led:
        assert led.count() == 21 and led.streams() == ["h1", "h2", "session:s"]


def test_a_version_1_ledger_refuses_a_repeated_seq_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that numbered a row twice (link_rows patched) meets the unique key of a
    version 1 ledger on insert, after earlier rows were flushed: all rolled back."""
    monkeypatch.setattr(store, "_FLUSH", 2)
    real = chain.link_rows

    def duplicate_last_seq(*args: object, **kwargs: object) -> list:
        rows = real(*args, **kwargs)  # type: ignore[arg-type]
        return [*rows[:-1], (*rows[-1][:4], rows[0][4], *rows[-1][5:])]

    with v1_ledger(tmp_path / "old.duckdb") as led:
        led.append("h1", hand("h1"))
        monkeypatch.setattr(chain, "link_rows", duplicate_last_seq)
        with pytest.raises(DuplicateEvent) as caught:
            led.append("h3", hand("h3"))
        assert isinstance(caught.value.__cause__, duckdb.Error)
        monkeypatch.setattr(chain, "link_rows", real)
        assert led.count() == 10 and led.streams() == ["h1"]


def test_a_capped_transaction_follows_the_keys_of_a_version_1_ledger(tmp_path: Path) -> None:
    """Its unique indexes grow with every append of the transaction, held in memory until
    the commit: the cap (ledger/store/spill.py) is raised after each, 64 MiB above them."""
    def limit(led: Ledger) -> float:
        text = led.connection.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        number, unit = text.split()
        assert unit == "MiB"
        return float(number)

    with v1_ledger(tmp_path / "old.duckdb") as led, led.transaction(capped=True):
        seen = [limit(led)]
        led.append_many([(f"h{i}", hand(f"h{i}"), None, None, None) for i in range(300)])
        seen.append(limit(led))
    assert 64 <= seen[0] < seen[1] < 72


def test_a_newer_store_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "later.duckdb"
    Ledger(path).close()
    con = duckdb.connect(str(path))
    con.execute("UPDATE meta SET value = '3' WHERE key = 'store_version'")
    con.close()
    with pytest.raises(store.LedgerError, match="store version 3; this handledger reads "
                                                "versions up to 2"):
        Ledger(path)


# --------------------------------------------------------------- what verify finds instead


def test_verify_names_a_repeated_stream_and_seq(keyless: Ledger) -> None:
    """Row 21 is h1's seq 4 again, hashed and linked right, head moved: the chain holds, the
    numbering does not."""
    plant(keyless, position=21, stream="h1", seq=4, after=20)
    report = keyless.verify()
    assert (report.ok, report.problem, report.first_bad, report.rows) == (
        False, "duplicate", 21, 20)
    assert report.message == "row 21 (h1 seq 4) repeats the stream and seq of row 4"


def test_verify_names_a_skipped_seq(keyless: Ledger) -> None:
    plant(keyless, position=21, stream="h2", seq=12, after=20)
    report = keyless.verify()
    assert (report.ok, report.problem, report.first_bad) == (False, "misnumbered", 21)
    assert report.message == "row 21 (h2 seq 12) follows seq 10 of its stream: seq 11 expected"


@pytest.mark.parametrize("page", [10_000, 20])
def test_verify_names_two_rows_at_one_position(keyless: Ledger, page: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A second row at position 20 (h3 seq 1, linked to row 19): within one page of the walk,
    and with a page that ends between the two rows (the second is then not walked)."""
    monkeypatch.setattr(store, "_PAGE", page)
    plant(keyless, position=20, stream="h3", seq=1, after=19)
    report = keyless.verify()
    assert (report.ok, report.problem, report.first_bad) == (False, "duplicate", 20)
    assert report.message == "two rows hold position 20 (h2 seq 10 and h3 seq 1)"


def test_verify_of_a_version_1_ledger_is_unchanged(tmp_path: Path) -> None:
    with v1_ledger(tmp_path / "old.duckdb") as led:
        led.append("h1", hand("h1"))
        led.connection.execute("UPDATE events SET seq = 11 WHERE position = 10")
        report = led.verify()
        assert (report.ok, report.problem, report.first_bad) == (False, "edited", 10)


# ----------------------------------------------------------------- what the writer refuses


def test_no_append_over_a_row_after_the_head(keyless: Ledger) -> None:
    """A row at 24, after the recorded head 20, where the next append would write: refused
    before anything is written, by every append path."""
    plant(keyless, position=24, stream="h9", seq=1, after=20)
    row24 = _meta(keyless, "head_hash")  # the head moved to the planted row, and back
    keyless.connection.execute("UPDATE meta SET value = '20' WHERE key = 'head_position'")
    opened = prepare_batch("session:s", [SessionOpened(session="s")], None, "s", None)
    opened.expected_seq = 0
    for append in (lambda: keyless.append("h3", hand("h3")),
                   lambda: keyless.append_many([("h3", hand("h3"), None, None, None)]),
                   lambda: keyless.append_columns(prepare_columns([opened],
                                                                  datetime(2026, 1, 1)))):
        with pytest.raises(ChainBroken) as refused:
            append()
        assert str(refused.value) == (
            f"ledger {keyless.path}: the ledger's head 20:{row24[:16]}... does not match its "
            f"last row 24:{row24[:16]}...: nothing written; run `handledger verify`")
    assert keyless.count() == 21


def test_append_columns_refuses_a_stored_stream_and_rows_out_of_order(
        keyless: Ledger) -> None:
    """The unique key used to refuse a stored stream appended as columns from seq 1: the
    writer looks every stream's tail up instead; and a part's own batches must follow on."""
    again = prepare_batch("h2", hand("h2")[:1], None, None, None)
    again.expected_seq = 0
    with pytest.raises(DuplicateEvent, match="stream 'h2' is at seq 10, not 0"):
        keyless.append_columns(prepare_columns([again], datetime(2026, 1, 1)))
    first = prepare_batch("h3", hand("h3")[:2], None, None, None)
    first.expected_seq = 0
    cols = prepare_columns([first], datetime(2026, 1, 1))
    cols.first_seq[0] = 2  # the rows would be seqs 2 and 3 of a new stream
    with pytest.raises(DuplicateEvent, match="'h3': rows prepared at seq 2, not after seq 0"):
        keyless.append_columns(cols)
    assert keyless.count() == 20 and keyless.verify().ok


def test_the_verify_command_names_the_repeated_row(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path / "new.duckdb"
    with Ledger(path) as led:
        led.append("h1", hand("h1"))
        plant(led, position=11, stream="h1", seq=10, after=10)
    result = CliRunner().invoke(cli, ["--db", str(path), "verify"])
    assert (result.exit_code, result.output) == (
        1, "broken at position 11: duplicate: row 11 (h1 seq 10) repeats the stream and seq"
           " of row 10\nderived tables not checked: the chain is broken\n")
