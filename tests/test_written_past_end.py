"""The live writes refuse a ledger file that ``verify`` calls corrupt, in ``verify``'s words:
bytes written past the end of the file (another program appending to it) leave it ending
inside a block; ``buyin``, ``cashout``, ``hand start`` and ``act`` each refuse it in one
line, exit 2, the file left byte for byte (before, DuckDB's checkpoint after the write cut the
bytes away, a repair nobody asked for, and ``verify`` then said ok).

The ledger: session s (plain chips), Ann and Bob buy in 100 each; hand x1 started
(Ann:100, Bob:100), Ann's hole cards dealt.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import open_s, run
from tests.test_live_books import SEATS

BLOCK, FIRST = 262144, 12288  # DuckDB's block size and its headers' bytes


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    db = tmp_path_factory.mktemp("table") / "t.duckdb"
    open_s(db, "s", "Ann", "Bob")
    assert run(db, "hand", "start", "--hand", "x1", *SEATS, "--seats", "Ann:100,Bob:100"
               ).exit_code == 0
    assert run(db, "act", "x1", "d dh Ann AsAh").exit_code == 0
    return db


@pytest.mark.parametrize("args", [
    ("buyin", "s", "Bob", "100"),
    ("cashout", "s", "Ann", "100"),
    ("hand", "start", "--hand", "x2", *SEATS, "--seats", "Ann:100,Bob:100"),
    ("act", "x1", "d dh Bob KsKh"),
], ids=["buyin", "cashout", "hand start", "act"])
def test_a_live_write_refuses_bytes_written_past_the_end(table: Path, tmp_path: Path,
                                                         args: tuple[str, ...]) -> None:
    db = copy_ledger(table, tmp_path / "t.duckdb")
    with open(db, "ab") as f:
        f.write(b"X" * 12)
    size = db.stat().st_size
    blocks = (size - FIRST) // BLOCK
    line = (f"ledger {db} is corrupt: not a whole number of blocks: {size} bytes, {blocks} "
            "blocks and 12 bytes (blocks of 262144 bytes after 12288 bytes of headers): cut "
            "short or written past its end")
    before = db.read_bytes()
    verify = run(db, "verify")
    assert (verify.exit_code, verify.output) == (1, f"corrupt: {line}\n")
    result = run(db, *args)
    assert (result.exit_code, result.output) == (2, f"error: {line}\n")
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.duckdb"]


def test_a_checkpoint_cut_short_beside_its_log_is_no_corruption(tmp_path: Path) -> None:
    """A write whose checkpoint was cut short (a full disk: DuckDB committed the rows to its
    write-ahead log, then wrote part of a block into the file and stopped) leaves the file
    ending inside a block with the log beside it: the rows are whole (DuckDB replays the
    log), so reads and verify go on, and the next write makes the file whole again."""
    from ledger.store.store import Ledger
    from replay.sessions.entries import buy_in

    db = tmp_path / "t.duckdb"
    open_s(db, "s", "Ann")
    ledger = Ledger(db)
    ledger.connection.execute("PRAGMA disable_checkpoint_on_shutdown")
    ledger.connection.execute("SET checkpoint_threshold = '1TB'")
    buy_in(ledger, "s", "Bob", "150", None)
    ledger.close()
    wal = Path(f"{db}.wal")
    assert wal.stat().st_size > 0
    with open(db, "ab") as f:
        f.write(bytes(98304))  # part of a block the checkpoint wrote
    assert (db.stat().st_size - FIRST) % BLOCK == 98304
    before = db.read_bytes(), wal.read_bytes()
    balances = run(db, "balances")
    assert balances.exit_code == 0
    assert [line.split()[:3] for line in balances.stdout.splitlines()[1:]] == [
        ["Ann", "0", "100"], ["Bob", "0", "150"]]
    assert run(db, "verify").exit_code == 0
    assert (db.read_bytes(), wal.read_bytes()) == before
    assert run(db, "buyin", "s", "Cy", "50").exit_code == 0
    assert (db.stat().st_size - FIRST) % BLOCK == 0 and not wal.exists()
    assert run(db, "verify").stdout.startswith("ok: 4 events, hash chain intact")
    # without its log, the same bytes past the end are refused as above
    with open(db, "ab") as f:
        f.write(bytes(98304))
    assert run(db, "balances").exit_code == 2
