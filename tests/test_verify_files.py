"""``verify`` on real ledger files damaged through DuckDB or on disk: a copied row put in at
position 3000 is named at 3000 (not where the row it copies stands), and a file that is not a
sound DuckDB file is one line and exit 1 from ``verify``, exit 2 from any other command.

The ledger: ``data/hands`` then ``data/series``, rows 1-3696.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.store.chain import row_hash
from tests.conftest import DATA
from tests.ledger_files import NAMES, relinked, rewrite, stored

COPIED, AT = 1200, 3000


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cli.main import cli

    path = tmp_path_factory.mktemp("ledger") / "t.duckdb"
    for folder in ("hands", "series"):
        assert CliRunner().invoke(cli, ["--db", str(path), "import", str(DATA / folder)]
                                  ).exit_code == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path) -> str:
    path = tmp_path / "t.duckdb"
    shutil.copy(template, path)
    return str(path)


def _copy_of(rows: list[tuple], *, prev_hash: str | None, rehash: bool) -> tuple:
    """Row COPIED as it would stand at AT (seq 99: a stream's seqs are unique), linked to
    ``prev_hash`` (None: its own), its hash recomputed there or kept."""
    row = list(rows[COPIED - 1])
    row[0], row[4] = AT, 99
    if prev_hash is not None:
        row[10] = prev_hash
    if rehash:
        row[11] = row_hash(row[10], **dict(zip(NAMES[:10], row[:10], strict=True)))
    return tuple(row)


def _shifted(rows: list[tuple]) -> list[tuple]:
    return [(r[0] + 1, *r[1:]) for r in rows[AT - 1 :]]


@pytest.mark.parametrize(
    ("how", "problem"),
    [
        ("the raw copy, nothing relinked", "is a copy of row 1200"),
        ("hashed at 3000, linked as row 1200 is, the rest relinked", "hashes right here"),
        ("its hash kept, linked to row 2999", "is a copy of row 1200, relinked"),
        ("hashed at 3000, linked to row 2999, nothing relinked", "links to row 2999"),
    ],
)
def test_a_copied_row_put_in_at_3000_is_named_at_3000(run, db: str, how: str,
                                                      problem: str) -> None:
    rows = stored(db)
    assert len(rows) == 3696
    if how.startswith("the raw copy"):
        rewrite(db, [_copy_of(rows, prev_hash=None, rehash=False), *_shifted(rows)],
                start=AT, relink=False)
    elif how.startswith("hashed at 3000, linked as"):
        copy = _copy_of(rows, prev_hash=rows[COPIED - 2][11], rehash=True)
        rewrite(db, [copy, *relinked(_shifted(rows), copy[11])], start=AT, relink=False)
    elif how.startswith("its hash kept"):
        copy = _copy_of(rows, prev_hash=rows[AT - 2][11], rehash=False)
        rewrite(db, [copy, *_shifted(rows)], start=AT, relink=False)
    else:
        copy = _copy_of(rows, prev_hash=rows[AT - 2][11], rehash=True)
        rewrite(db, [copy, *_shifted(rows)], start=AT, relink=False)
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.startswith("broken at position 3000: inserted: "), result.output
    assert problem in result.output


def test_rows_put_in_before_a_shifted_row_are_named_where_they_start(run, db: str) -> None:
    """Two rows forged at 3000-3001 (linked on from row 2999, hashed right), the rest shifted
    and not relinked: row 3002 (the old 3000) links back to row 2999."""
    rows = stored(db)
    forged = [_copy_of(rows, prev_hash=None, rehash=False) for _ in range(2)]
    forged = relinked([(AT + i, *r[1:4], 99 + i, *r[5:]) for i, r in enumerate(forged)],
                      rows[AT - 2][11])
    later = [(r[0] + 2, *r[1:]) for r in rows[AT - 1 :]]
    rewrite(db, [*forged, *later], start=AT, relink=False)
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.startswith("broken at position 3000: inserted: row 3002 "), result.output


def _damaged(db: str, kind: str) -> None:
    path = Path(db)
    data = bytearray(path.read_bytes())
    if kind == "random bytes":
        path.write_bytes(bytes((i * 7919 + 13) % 251 for i in range(100_000)))
    elif kind == "cut in half":
        path.write_bytes(bytes(data[: len(data) // 2]))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "a damaged block":
        middle = len(data) // 3
        data[middle : 2 * middle] = b"\x5a" * middle
        path.write_bytes(bytes(data))
    else:  # a DuckDB file without the ledger's tables
        import duckdb

        with duckdb.connect(db) as con:
            con.execute("DROP TABLE meta")


KINDS = ["random bytes", "cut in half", "empty", "a damaged block", "no meta table"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_corrupt_file_is_one_line_and_exit_1_from_verify(run, db: str, kind: str) -> None:
    _damaged(db, kind)
    for args in (("verify",), ("verify", "--against", "5:" + "ab" * 12)):
        result = run(*args)
        assert result.exit_code == 1, result.output
        [line] = result.output.splitlines()
        assert line.startswith(f"corrupt: ledger {db} is "), line


@pytest.mark.parametrize("kind", KINDS)
def test_a_corrupt_file_is_one_line_and_exit_2_elsewhere(run, db: str, kind: str) -> None:
    _damaged(db, kind)
    for args in (("checkpoint",), ("show", "s01-001"), ("session", "list"), ("import",
                                                                             str(DATA / "hands"))):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        [line] = result.output.splitlines()
        assert line.startswith(f"error: ledger {db} is "), (args, line)


def test_a_file_cut_inside_a_block_duckdb_cannot_open_is_said_cut_short(run, db: str) -> None:
    """Cut in half, the file ends before blocks DuckDB needs to open it ("IO Error: Could not
    read enough bytes"): every command says it is cut short, with the block size its header
    records (262,144 bytes after three 4,096-byte headers), as ``verify`` says of a file that
    opens."""
    size = Path(db).stat().st_size // 2
    _damaged(db, "cut in half")
    assert Path(db).stat().st_size == size and (size - 12288) % 262144
    line = (f"ledger {db} is corrupt: not a whole number of blocks: {size} bytes, "
            f"{(size - 12288) // 262144} blocks and {(size - 12288) % 262144} bytes (blocks of "
            "262144 bytes after 12288 bytes of headers): cut short or written past its end")
    result = run("verify")
    assert (result.exit_code, result.output) == (1, f"corrupt: {line}\n")
    for args in (("balances",), ("session", "list"), ("audit", "--json"), ("checkpoint",)):
        result = run(*args)
        assert (result.exit_code, result.output) == (2, f"error: {line}\n"), args
