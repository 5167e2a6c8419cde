"""No command writes its output over the ledger (ledger/store/outputs.py): an ``-o`` of
``export``, ``view`` or ``checkpoint``, ``chart OUT``, ``export --format parquet DIR``, a
report's pages and folder, ``demo-series OUT`` (the folder and its session files),
``dask-replay``'s OUT (the folder, and the table folders it replaces whole) and ``key new``'s
and ``key add``'s key directory and key files that are the ledger file or its write-ahead log,
by any path (``./``, absolute, a symbolic or hard link), are refused before anything is
written, in one line, exit 2, the ledger byte for byte as it was; a report into the ledger's
folder leaves it alone."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import SHARED

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
SESSION = "charlestudor_Input_Log_001"
HAND = "pn-charlestudor_Input_Log_001-1-164210353199300"


def handledger(*args: str) -> tuple[int, str, str]:
    """``(status, stdout, stderr)`` of the command run as the console script runs it."""
    from cli.main import run as run_main

    with CliRunner().isolation() as (out, err, _):
        try:
            code = run_main(list(args))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()


def md5(path: str | Path) -> str:
    return hashlib.md5(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of the PokerNow log's four hands, its session ``charlestudor_Input_Log_001``;
    it verifies (so does every copy of it left byte for byte as it is, nothing beside it)."""
    db = tmp_path_factory.mktemp("built") / "l.duckdb"
    assert handledger("--db", str(db), "import", str(LOG))[0] == 0
    assert handledger("--db", str(db), "verify")[0] == 0
    return db


@pytest.fixture
def here(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the ledger as ``l.duckdb`` in the current folder, a symbolic link ``link``
    and a hard link ``hard`` to it."""
    shutil.copy(built, tmp_path / "l.duckdb")
    os.symlink("l.duckdb", tmp_path / "link")
    os.link(tmp_path / "l.duckdb", tmp_path / "hard")
    monkeypatch.chdir(tmp_path)
    return tmp_path


ITSELF = "is the ledger itself: nothing written"
WAL = "is the ledger's write-ahead log: nothing written"
#: A public key to ``key add`` (of the private key of 32 zero bytes).
PUBLIC = "ed25519:O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik"

REFUSED = [
    (("export", "--format", "jsonl", "-o", "l.duckdb"), f"-o l.duckdb {ITSELF}"),
    (("export", "--format", "phh", "-o", "l.duckdb"), f"-o l.duckdb {ITSELF}"),
    (("export", "--format", "jsonl", HAND, "-o", "./l.duckdb"), f"-o l.duckdb {ITSELF}"),
    (("export", "--format", "jsonl", "-o", "hard"), f"-o hard {ITSELF}"),
    (("export", "--format", "jsonl", "-o", "l.duckdb.wal"), f"-o l.duckdb.wal {WAL}"),
    (("export", "--format", "parquet", "l.duckdb"), f"l.duckdb {ITSELF}"),
    (("export", "--format", "csv", "-o", "link"), f"link {ITSELF}"),
    (("view", HAND, "-o", "l.duckdb"), f"-o l.duckdb {ITSELF}"),
    (("view", HAND, "-o", "link"), f"-o link {ITSELF}"),
    (("view", HAND, "-o", "l.duckdb.wal"), f"-o l.duckdb.wal {WAL}"),
    (("chart", "l.duckdb", "--session", SESSION), f"l.duckdb {ITSELF}"),
    (("chart", "hard"), f"hard {ITSELF}"),
    (("checkpoint", "-o", "l.duckdb"), f"-o l.duckdb {ITSELF}"),
    (("checkpoint", "-o", "link"), f"-o link {ITSELF}"),
    (("checkpoint", "-o", "l.duckdb.wal"), f"-o l.duckdb.wal {WAL}"),
    # a folder made at the write-ahead log's name: DuckDB cannot open the ledger after it
    (("report", "l.duckdb.wal"), f"l.duckdb.wal {WAL}"),
    (("demo-series", "--sessions", "2", "--hands", "3", "l.duckdb.wal"), f"l.duckdb.wal {WAL}"),
    (("demo-series", "--sessions", "2", "--hands", "3", "l.duckdb.wal/series"),
     f"demo-series l.duckdb.wal/series: l.duckdb.wal {WAL}"),
    (("key", "new", "ann", "--keys", "l.duckdb.wal"), f"--keys l.duckdb.wal {WAL}"),
    (("key", "new", "ann", "--keys", "l.duckdb.wal/keys"),
     f"--keys l.duckdb.wal/keys: l.duckdb.wal {WAL}"),
    (("key", "add", "bob", PUBLIC, "--keys", "l.duckdb.wal"), f"--keys l.duckdb.wal {WAL}"),
]


@pytest.mark.parametrize(("args", "line"), REFUSED, ids=lambda a: " ".join(a)
                         if isinstance(a, tuple) else "")
def test_an_output_that_is_the_ledger_is_refused_nothing_written(here: Path, built: Path,
                                                                 args: tuple, line: str) -> None:
    assert handledger("--db", "l.duckdb", *args) == (2, "", f"error: {line}\n")
    # byte for byte the built ledger, nothing beside it (no .wal, no output): it verifies as
    # the built one does (`built`), a `verify` here would repeat that
    assert md5("l.duckdb") == md5(built)
    assert sorted(os.listdir(here)) == ["hard", "l.duckdb", "link"]


def test_the_ledger_named_by_an_absolute_path_or_a_link_is_the_ledger(here: Path) -> None:
    before = md5("l.duckdb")
    absolute = str(here / "l.duckdb")
    assert handledger("--db", "l.duckdb", "export", "-o", absolute) == (
        2, "", f"error: -o {absolute} {ITSELF}\n")
    # the ledger opened through its link: its file, and the link's write-ahead log
    assert handledger("--db", "link", "export", "-o", "l.duckdb") == (
        2, "", f"error: -o l.duckdb {ITSELF}\n")
    assert handledger("--db", "link", "checkpoint", "-o", "link.wal") == (
        2, "", f"error: -o link.wal {WAL}\n")
    assert handledger("--db", absolute, "view", HAND, "-o", "./hard") == (
        2, "", f"error: -o hard {ITSELF}\n")
    assert md5("l.duckdb") == before
    assert sorted(os.listdir(here)) == ["hard", "l.duckdb", "link"]


def test_other_outputs_beside_the_ledger_are_written(here: Path) -> None:
    """The check refuses the ledger only: the same commands write other files beside it."""
    before = md5("l.duckdb")
    assert handledger("--db", "l.duckdb", "export", "-o", "e.jsonl") == (0, "wrote e.jsonl\n", "")
    assert handledger("--db", "l.duckdb", "view", HAND, "-o", "h.html") == (
        0, "wrote h.html\n", "")
    assert handledger("--db", "l.duckdb", "chart", "c.png")[:2] == (0, "wrote c.png\n")
    assert md5("l.duckdb") == before


def test_a_report_whose_page_is_the_ledger_writes_nothing(here: Path) -> None:
    """The ledger named as the report's index, or hard-linked where a hand's page goes."""
    os.rename("l.duckdb", "index.html")
    before = md5("index.html")
    assert handledger("--db", "index.html", "report", ".") == (
        2, "", f"error: report .: index.html {ITSELF}\n")
    assert md5("index.html") == before
    assert not Path("hands").exists()
    os.mkdir("site")
    os.mkdir("site/hands")
    os.link("index.html", f"site/hands/{HAND}.html")
    assert handledger("--db", "index.html", "report", "site") == (
        2, "", f"error: report site: site/hands/{HAND}.html {ITSELF}\n")
    assert md5("index.html") == before
    assert sorted(os.listdir("site")) == ["hands"]


def test_a_report_beside_the_ledger_leaves_it_alone(here: Path) -> None:
    """A report into the ledger's folder writes its pages around it; one into a folder whose
    ``hands/`` holds the ledger under a name a report removes as stale (a hidden ``.tmp``
    file, an interrupted page) keeps it."""
    before = md5("l.duckdb")
    code, out, err = handledger("--db", "l.duckdb", "report", ".")
    assert (code, err) == (0, ""), err
    assert out.startswith("wrote ./index.html: 4 hand page(s) written, 0 unchanged;"), out
    assert md5("l.duckdb") == before
    os.makedirs("site/hands")
    os.rename("l.duckdb", "site/hands/.old.tmp")
    code, out, err = handledger("--db", "site/hands/.old.tmp", "report", "site")
    assert (code, err) == (0, ""), err
    assert out.endswith("index written; 0 removed\n"), out
    assert md5("site/hands/.old.tmp") == before
    assert handledger("--db", "site/hands/.old.tmp", "verify")[0] == 0


def test_the_ledgers_checkpoints_file_is_never_written_over(here: Path) -> None:
    """An export, a page or a chart over ``<ledger>.checkpoints`` would lose the records the
    group keeps as proof: refused; a checkpoint appends its line there, as it is for."""
    assert handledger("--db", "l.duckdb", "checkpoint")[0] == 0
    kept = md5("l.duckdb.checkpoints")
    said = "is the ledger's checkpoints file: nothing written"
    assert handledger("--db", "l.duckdb", "export", "-o", "l.duckdb.checkpoints") == (
        2, "", f"error: -o l.duckdb.checkpoints {said}\n")
    assert handledger("--db", "link", "view", HAND, "-o", "l.duckdb.checkpoints") == (
        2, "", f"error: -o l.duckdb.checkpoints {said}\n")
    assert handledger("--db", "l.duckdb", "chart", "l.duckdb.checkpoints") == (
        2, "", f"error: l.duckdb.checkpoints {said}\n")
    assert md5("l.duckdb.checkpoints") == kept
    assert handledger("--db", "l.duckdb", "checkpoint", "-o", "l.duckdb.checkpoints")[0] == 0
    assert len(Path("l.duckdb.checkpoints").read_text().splitlines()) == 2


@pytest.fixture(scope="module")
def exported(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Parquet export of the built ledger (``events.parquet`` and the derived tables)."""
    folder = tmp_path_factory.mktemp("exported") / "exp"
    assert handledger("--db", str(built), "export", "--format", "parquet", str(folder))[0] == 0
    return folder


def test_dask_replay_never_replaces_a_folder_holding_the_ledger(here: Path, exported: Path
                                                                ) -> None:
    """``dask-replay EVENTS OUT`` removes ``OUT/hands``, ``OUT/pots`` … whole before it
    writes them: a ledger inside one of them (opened there, or through a link) would be
    deleted, one named as a table's folder too; OUT made at the write-ahead log's name would
    leave the ledger unopenable."""
    before = md5("l.duckdb")
    assert handledger("--db", "l.duckdb", "dask-replay", str(exported), "l.duckdb.wal") == (
        2, "", f"error: l.duckdb.wal {WAL}\n")
    assert sorted(os.listdir(here)) == ["hard", "l.duckdb", "link"]
    os.makedirs("out/hands")
    os.rename("l.duckdb", "out/hands/l.duckdb")
    before = md5("out/hands/l.duckdb")
    held = "holds the ledger file (a folder the command replaces whole): nothing written"
    assert handledger("--db", "out/hands/l.duckdb", "dask-replay", str(exported), "out") == (
        2, "", f"error: dask-replay out: out/hands {held}\n")
    os.symlink("out/hands/l.duckdb", "to-ledger")
    assert handledger("--db", "to-ledger", "dask-replay", str(exported), "out/") == (
        2, "", f"error: dask-replay out/: out/hands {held}\n")
    assert md5("out/hands/l.duckdb") == before
    assert os.listdir("out") == ["hands"] and os.listdir("out/hands") == ["l.duckdb"]
    os.rename("out/hands/l.duckdb", "pots")
    assert handledger("--db", "pots", "dask-replay", str(exported), ".") == (
        2, "", f"error: dask-replay .: ./pots {ITSELF}\n")
    assert md5("pots") == before
    assert handledger("--db", "pots", "verify")[0] == 0


def test_demo_series_never_writes_a_session_file_over_the_ledger(here: Path) -> None:
    """A session's file (``OUT/s02.jsonl``) that is a hard or symbolic link to the ledger."""
    before = md5("l.duckdb")
    os.mkdir("series")
    os.link("l.duckdb", "series/s02.jsonl")
    assert handledger("--db", "l.duckdb", "demo-series", "--sessions", "2", "--hands", "3",
                      "series") == (
        2, "", f"error: demo-series series: series/s02.jsonl {ITSELF}\n")
    os.remove("series/s02.jsonl")
    os.symlink("../link", "series/s01.jsonl")
    assert handledger("--db", "l.duckdb", "demo-series", "--sessions", "2", "--hands", "3",
                      "series") == (
        2, "", f"error: demo-series series: series/s01.jsonl {ITSELF}\n")
    assert md5("l.duckdb") == before
    assert os.listdir("series") == ["s01.jsonl"]
    assert handledger("--db", "l.duckdb", "verify")[0] == 0


def test_a_key_file_is_never_the_ledger(here: Path) -> None:
    """``key new`` writes ``NAME.key`` and ``NAME.pub``, ``key add`` ``NAME.pub``, in the key
    directory: a link there to the ledger (a dangling one to its write-ahead log) is refused."""
    before = md5("l.duckdb")
    os.mkdir("keys")
    os.symlink("../l.duckdb.wal", "keys/ann.pub")
    assert handledger("--db", "l.duckdb", "key", "new", "ann", "--keys", "keys") == (
        2, "", f"error: key new: keys/ann.pub {WAL}\n")
    os.symlink("../hard", "keys/bob.pub")
    assert handledger("--db", "l.duckdb", "key", "add", "bob", PUBLIC, "--keys", "keys") == (
        2, "", f"error: key add: keys/bob.pub {ITSELF}\n")
    assert md5("l.duckdb") == before
    assert sorted(os.listdir("keys")) == ["ann.pub", "bob.pub"]
    assert sorted(os.listdir(here)) == ["hard", "keys", "l.duckdb", "link"]  # no .wal
    assert handledger("--db", "l.duckdb", "verify")[0] == 0


def test_series_and_keys_beside_the_ledger_are_written(here: Path) -> None:
    """The check refuses the ledger only: the folders beside it are made and written."""
    before = md5("l.duckdb")
    assert handledger("--db", "l.duckdb", "demo-series", "--sessions", "2", "--hands", "3",
                      "series") == (0, "wrote 2 session file(s), 6 hands, to series\n", "")
    assert sorted(os.listdir("series")) == ["s01.jsonl", "s02.jsonl"]
    code, out, err = handledger("--db", "l.duckdb", "key", "new", "ann", "--keys", "keys")
    assert (code, err) == (0, "") and out.startswith("key ann "), (out, err)
    assert handledger("--db", "l.duckdb", "key", "add", "bob", PUBLIC, "--keys", "keys") == (
        0, "key bob 139e3940e64b: public\n", "")
    assert sorted(os.listdir("keys")) == ["ann.key", "ann.pub", "bob.pub"]
    assert md5("l.duckdb") == before
