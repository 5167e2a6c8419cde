"""What the reads that copy or vouch for a ledger's rows do with a file edited by SQL behind
handledger's back: ``export`` refuses it (exit 2, one line naming the first bad position as
``verify`` does, no file written), or with ``--broken-ok`` writes the copy under a
``warning:`` line.

The ledger: README's dispute (``data/dispute/wrong-push.phh``) and README's "night at the
table" (session fri: Bob bought in for 150) as its JSON-lines export.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import duckdb
import pytest

from tests.copies import copy_ledger
from tests.fri_night import dispute_and_night

EXPORT = ("nothing exported (a ledger importing the copy would not know its rows were "
          "changed); run `handledger verify`, or export with --broken-ok for a copy as it is")
EDITED = "edited: row 27 (session:fri seq 3): its content does not hash to its stored hash"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("reads")
    return dispute_and_night(base)


@pytest.fixture
def tampered(db: str, template: Path) -> str:
    """The ledger with Bob's buy-in of 150 (position 27) made 15 by SQL, its hash left."""
    copy_ledger(template, Path(db))
    with duckdb.connect(db) as con:
        con.execute("UPDATE events SET payload = replace(payload, '\"chips\":150',"
                    " '\"chips\":15') WHERE position = 27")
    return db


def _files(db: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in Path(db).parent.iterdir() if p.is_file()}


def test_export_of_a_tampered_ledger_is_refused_in_every_format(run, tampered: str) -> None:
    folder = Path(tampered).parent
    before = _files(tampered)
    for args in (("--format", "jsonl", "-o", str(folder / "x.jsonl")),
                 ("--format", "phh", "-o", str(folder / "x.phh")),
                 ("--format", "jsonl"), ("--format", "jsonl", "f1"),
                 ("--format", "csv", str(folder / "csv")),
                 ("--format", "parquet", "-o", str(folder / "pq"))):
        result = run("export", *args)
        assert (result.exit_code, result.output) == (
            2, f"error: ledger {tampered}: broken at position 27: {EDITED}: {EXPORT}\n"), args
    assert _files(tampered) == before
    assert sorted(p.name for p in folder.iterdir()) == ["t.duckdb"]


def test_export_broken_ok_copies_it_as_it_is_with_a_warning(run, tampered: str) -> None:
    out = Path(tampered).parent / "x.jsonl"
    result = run("export", "--format", "jsonl", "--broken-ok", "-o", str(out))
    assert (result.exit_code, result.output) == (0, (
        f"warning: ledger {tampered}: broken at position 27: {EDITED}: exported anyway "
        "(--broken-ok): the copy holds the rows as they are, and a ledger importing it would "
        f"not know they were changed\nwrote {out}\n"))
    assert '"chips":15,' in out.read_text()  # the row as it stands, for forensics


def test_an_intact_ledger_exports_without_a_word(run, db: str, template: Path) -> None:
    copy_ledger(template, Path(db))
    out = Path(db).parent / "x.jsonl"
    result = run("export", "--format", "jsonl", "-o", str(out))
    assert (result.exit_code, result.output) == (0, f"wrote {out}\n")
    assert '"chips":150,' in out.read_text()


def _hash_at(db: str, position: int) -> str:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT hash FROM events WHERE position = ?", [position]).fetchone()[0]


def test_a_checkpoint_over_a_row_edited_since_does_not_hold(run, db: str, template: Path
                                                            ) -> None:
    """The checkpoint's own row keeps its hash (the edit left the stored hashes alone), but
    the rows it covers no longer hash to it: verify --against fails it (exit 1) and names
    the edited row; one taken before that row still holds."""
    copy_ledger(template, Path(db))
    assert run("checkpoint").exit_code == 0
    head, early = _hash_at(db, 49), _hash_at(db, 26)
    with duckdb.connect(db) as con:
        con.execute("UPDATE events SET payload = replace(payload, '\"chips\":150',"
                    " '\"chips\":15') WHERE position = 27")
    marks = f"{db}.checkpoints"
    result = run("verify", "--against", marks)
    fails = f"its rows no longer hash to its head: the chain breaks at position 27 ({EDITED})"
    assert result.exit_code == 1
    timeless = re.sub(r" at 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ: ", " at T: ", result.output)
    assert timeless.splitlines()[-2:] == [
        f"checkpoint {marks}:1 t 49:{head[:16]}… at T: FAILS: {fails}",
        "the ledger parts from its checkpoints at position 27 (session:fri seq 3)"]
    result = run("verify", "--against", f"49:{head}")
    assert result.exit_code == 1
    assert result.output.splitlines()[-2:] == [
        f"checkpoint 49:{head[:16]}…: FAILS: {fails}",  # the POS:HASH given, named once
        "the ledger parts from its checkpoints at position 27 (session:fri seq 3)"]
    result = run("verify", "--against", f"26:{early}")
    assert result.exit_code == 1  # the chain is broken all the same
    assert result.output.splitlines()[-2:] == [
        f"checkpoint 26:{early[:16]}…: ok: extended",
        # 27-28 Bob's and Cy's buy-ins, 29-45 hand f1's 17 rows, 46-48 the three cash-outs,
        # 49 the close
        "the ledger extends all 1 checkpoint(s); 23 row(s) after the latest (27-49), which "
        "none vouches for: 17 hand events, 5 entries, 1 session close"]


BLOCK, FIRST = 262_144, 3 * 4096  # DuckDB's block size and where the first block starts
READS = (("audit",), ("balances",), ("standings",), ("replay", "--hand", "f1"), ("show", "f1"),
         ("state", "f1"), ("session", "list"), ("sql", "SELECT 1 AS one"), ("history", "f1"))


def _block_of(db: str, table: str) -> int:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT min(block_id) FROM pragma_storage_info(?)"
                           " WHERE block_id >= 0", [table]).fetchone()[0]


def _every_read_refuses(run, db: str, line: str) -> None:  # noqa: ANN001
    before = _files(db)
    for args in READS:
        result = run(*args)
        assert (result.exit_code, result.output) == (2, f"error: {line}\n"), args
    result = run("verify")
    assert (result.exit_code, result.output) == (1, f"corrupt: {line}\n")
    assert _files(db) == before


def test_a_block_failing_its_checksum_is_met_by_the_reads_that_read_it(run, db: str,
                                                                       template: Path) -> None:
    """4 KB garbled in the derived table hands' block. Reads do not check every block first
    (that costs a pass over the file on every `state` at the table): the reads of the events
    alone go on, a read of the damaged table refuses it, and verify names the block."""
    copy_ledger(template, Path(db))
    block = _block_of(db, "hands")
    with open(db, "r+b") as f:
        f.seek(FIRST + block * BLOCK + 8192)
        # words that differ (one repeated an even number of times cancels out of DuckDB's
        # checksum, a xor of the words)
        f.write(b"".join(hashlib.sha256(bytes([i])).digest() for i in range(128)))
    before = _files(db)
    for args in (("show", "f1"), ("history", "f1")):
        assert run(*args).exit_code == 0, args
    hands = run("sql", "SELECT count(*) AS n FROM hands")
    assert hands.exit_code == 2
    assert hands.output.startswith("error: ") and "checksum" in hands.output
    assert len(hands.output.splitlines()) == 1
    start = FIRST + block * BLOCK
    result = run("verify")
    assert (result.exit_code, result.output) == (
        1, f"corrupt: ledger {db} is corrupt: its block {block} (bytes {start}-"
           f"{start + BLOCK - 1}) fails its checksum (it holds rows of hands)\n")
    assert _files(db) == before


def test_every_read_refuses_a_file_cut_short(run, db: str, template: Path) -> None:
    copy_ledger(template, Path(db))
    size = Path(db).stat().st_size
    blocks = (size - FIRST) // BLOCK
    Path(db).write_bytes(Path(db).read_bytes()[:size - 4096])
    _every_read_refuses(run, db, f"ledger {db} is corrupt: not a whole number of blocks: "
                                 f"{size - 4096} bytes, {blocks - 1} blocks and {BLOCK - 4096} "
                                 "bytes (blocks of 262144 bytes after 12288 bytes of headers): "
                                 "cut short or written past its end")


REPORT = ("no report written (its pages would show rows changed outside handledger as the "
          "books); run `handledger verify`, or report with --broken-ok for a site of the rows "
          "as they are")


def test_report_of_a_tampered_ledger_is_refused(run, tampered: str) -> None:
    """A site's index names the chain's head, vouching for the rows it shows: a ledger
    edited by SQL is refused as export refuses it, no folder made."""
    folder = Path(tampered).parent
    before = _files(tampered)
    result = run("report", str(folder / "site"))
    assert (result.exit_code, result.output) == (
        2, f"error: ledger {tampered}: broken at position 27: {EDITED}: {REPORT}\n")
    assert _files(tampered) == before
    assert sorted(p.name for p in folder.iterdir()) == ["t.duckdb"]


def test_report_broken_ok_writes_the_site_and_says_where_it_breaks(run, tampered: str
                                                                    ) -> None:
    site = Path(tampered).parent / "site"
    result = run("report", str(site), "--broken-ok")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == (
        f"warning: ledger {tampered}: broken at position 27: {EDITED}: reported anyway "
        "(--broken-ok): the site shows the rows as they are, and its index says the chain "
        "breaks")
    index = (site / "index.html").read_text()
    assert (f"The hash chain breaks: ledger {tampered}: broken at position 27: edited: row 27 "
            "(session:fri seq 3): its content does not hash to its stored hash. These pages "
            "show the rows as they are") in index


def test_report_of_an_intact_ledger_says_nothing_of_the_chain(run, db: str, template: Path
                                                              ) -> None:
    copy_ledger(template, Path(db))
    site = Path(db).parent / "site"
    result = run("report", str(site))
    assert result.exit_code == 0
    assert not result.output.startswith("warning")
    assert "hash chain breaks" not in (site / "index.html").read_text()


@pytest.mark.parametrize(("size", "said"), [
    (100, "cut short: 100 bytes, where DuckDB's file starts with 3 headers of 4096 bytes: it "
          "ends inside header 0 (bytes 0-4095); the rest of header 0, headers 1-2 and every "
          "block missing"),
    (4096, "cut short: 4096 bytes, where DuckDB's file starts with 3 headers of 4096 bytes: "
           "it ends after header 0; headers 1-2 and every block missing"),
    (8192, "cut short: 8192 bytes, where DuckDB's file starts with 3 headers of 4096 bytes: "
           "it ends after header 1; header 2 and every block missing"),
    (12288, "cut short: 12288 bytes, its 3 headers of 4096 bytes and no block of 262144 "
            "bytes, where DuckDB reads block 0 (bytes 12288-274431): block 0 and every block "
            "after it missing"),
])
def test_every_read_names_a_cut_duckdb_cannot_open(run, db: str, template: Path, size: int,
                                                   said: str) -> None:
    """A file cut inside or right after its headers (DuckDB cannot open it: its own words
    are ``Could not read enough bytes``) is named by its size, where it ends and what is
    missing, by every read and by verify."""
    copy_ledger(template, Path(db))
    Path(db).write_bytes(Path(db).read_bytes()[:size])
    _every_read_refuses(run, db, f"ledger {db} is corrupt: {said}")


def test_every_read_names_a_cut_on_a_block_boundary(run, db: str, template: Path) -> None:
    """Cut right after block 0 (the catalog's): the file is a whole number of blocks, and
    the open reads the meta table's rows from block 1, which the cut took."""
    copy_ledger(template, Path(db))
    assert _block_of(db, "meta") == 1
    Path(db).write_bytes(Path(db).read_bytes()[:FIRST + BLOCK])
    _every_read_refuses(run, db, f"ledger {db} is corrupt: cut short: 274432 bytes, its 3 "
                                 "headers of 4096 bytes and block 0 of 262144 bytes, where "
                                 "DuckDB reads block 1 (bytes 274432-536575): block 1 and "
                                 "every block after it missing")


@pytest.mark.parametrize(("table", "block", "held"), [
    (None, 0, "the file's catalog, which DuckDB reads at every open"),
    ("meta", 1, "rows of meta"),
])
def test_a_block_every_open_reads_is_named_with_what_it_holds(
        run, db: str, template: Path, table: str | None, block: int, held: str) -> None:
    """8 bytes garbled in the catalog's block (DuckDB's open fails on it) or in the meta
    table's (every open reads it): every read and verify name the block, its bytes and what
    it holds, not DuckDB's words for a failed checksum."""
    copy_ledger(template, Path(db))
    with duckdb.connect(db, read_only=True) as con:
        catalog = con.execute("SELECT block_id FROM pragma_metadata_info()").fetchone()[0]
    assert (catalog if table is None else _block_of(db, table)) == block
    with open(db, "r+b") as f:
        f.seek(FIRST + block * BLOCK + 1000)
        f.write(b"TAMPERED")
    start = FIRST + block * BLOCK
    _every_read_refuses(run, db, f"ledger {db} is corrupt: its block {block} (bytes {start}-"
                                 f"{start + BLOCK - 1}) fails its checksum (it holds {held})")


def test_verify_names_a_damaged_block_holding_no_rows_and_no_catalog(run, db: str,
                                                                      template: Path) -> None:
    copy_ledger(template, Path(db))
    with duckdb.connect(db, read_only=True) as con:
        used = {con.execute("SELECT block_id FROM pragma_metadata_info()").fetchone()[0]}
        for (table,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall():
            used |= {r[0] for r in con.execute(
                "SELECT block_id FROM pragma_storage_info(?)", [table]).fetchall()}
    assert 2 not in used
    with open(db, "r+b") as f:
        f.seek(FIRST + 2 * BLOCK + 1000)
        f.write(b"TAMPERED")
    result = run("verify")
    assert (result.exit_code, result.output) == (
        1, f"corrupt: ledger {db} is corrupt: its block 2 (bytes 536576-798719) fails its "
           "checksum (it holds no table's rows: an index or a free block)\n")


def test_a_file_cut_by_its_last_block_names_the_block_missing(run, db: str,
                                                               template: Path) -> None:
    """DuckDB opens it (its catalog and the meta rows are before the cut): verify names the
    cut by the blocks the tables' rows are in, a read of the lost block by where it reads."""
    copy_ledger(template, Path(db))
    blocks = (Path(db).stat().st_size - FIRST) // BLOCK
    assert _block_of(db, "session_players") == blocks - 1 == 21
    Path(db).write_bytes(Path(db).read_bytes()[:FIRST + 21 * BLOCK])
    result = run("verify")
    assert (result.exit_code, result.output) == (
        1, f"corrupt: ledger {db} is corrupt: cut short: 5517312 bytes, 21 blocks, where its "
           "rows are in blocks up to 21: block 21 missing\n")
    result = run("sql", "SELECT count(*) AS n FROM session_players")
    assert (result.exit_code, result.output) == (
        2, f"error: ledger {db} is corrupt: cut short: 5517312 bytes, its 3 headers of 4096 "
           "bytes and blocks 0-20 of 262144 bytes, where DuckDB reads block 21 (bytes "
           "5517312-5779455): block 21 and every block after it missing\n")
