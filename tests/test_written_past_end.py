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
