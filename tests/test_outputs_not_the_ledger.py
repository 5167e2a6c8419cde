"""No command writes its output over the ledger (ledger/store/outputs.py): an ``-o`` of
``export``, ``view`` or ``checkpoint``, ``chart OUT``, ``export --format parquet DIR`` and a
report's pages that are the ledger file or its write-ahead log, by any path (``./``, absolute,
a symbolic or hard link), are refused before anything is written, in one line, exit 2, the
ledger byte for byte as it was; a report into the ledger's folder leaves it alone."""

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
    """A ledger of the PokerNow log's four hands, its session ``charlestudor_Input_Log_001``."""
    db = tmp_path_factory.mktemp("built") / "l.duckdb"
    assert handledger("--db", str(db), "import", str(LOG))[0] == 0
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
]


@pytest.mark.parametrize(("args", "line"), REFUSED, ids=lambda a: " ".join(a)
                         if isinstance(a, tuple) else "")
def test_an_output_that_is_the_ledger_is_refused_nothing_written(here: Path, args: tuple,
                                                                 line: str) -> None:
    before = md5("l.duckdb")
    assert handledger("--db", "l.duckdb", *args) == (2, "", f"error: {line}\n")
    assert md5("l.duckdb") == before
    assert sorted(os.listdir(here)) == ["hard", "l.duckdb", "link"]  # no .wal, no output
    assert handledger("--db", "l.duckdb", "verify")[0] == 0


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
