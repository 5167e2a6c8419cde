"""No command writes its output over ANOTHER ledger than its --db one (ledger/store/
otherledger.py): an ``-o`` of ``export``, ``view`` or ``checkpoint`` or ``chart OUT`` that is
an existing DuckDB file (known by its header, whatever its name), its write-ahead log, or a
ledger's ``.checkpoints`` file is refused before anything is written, in one line, exit 2,
the other ledger's files byte for byte as they were; ``checkpoint -o`` appends to a
checkpoints file of its own ledger. A ledger file that is not a whole number of blocks is
said to be so (cut short or written past its end), never only "cut short"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.test_outputs_not_the_ledger import HAND, handledger, md5

OTHER = "is another ledger (a DuckDB database): nothing written"


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``a.duckdb`` (the PokerNow log's four hands), ``b.duckdb`` (a session opened) and
    ``b.duckdb.checkpoints`` (b's checkpoint)."""
    from tests.test_outputs_not_the_ledger import LOG

    folder = tmp_path_factory.mktemp("ledgers")
    assert handledger("--db", str(folder / "a.duckdb"), "import", str(LOG))[0] == 0
    assert handledger("--db", str(folder / "b.duckdb"), "session", "open", "s2")[0] == 0
    assert handledger("--db", str(folder / "b.duckdb"), "checkpoint")[0] == 0
    return folder


@pytest.fixture
def here(ledgers: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("a.duckdb", "b.duckdb", "b.duckdb.checkpoints"):
        shutil.copy(ledgers / name, tmp_path / name)
    shutil.copy(ledgers / "b.duckdb", tmp_path / "b.png")  # a ledger named as a picture
    monkeypatch.chdir(tmp_path)
    return tmp_path


CHECKPOINTS = "is a ledger's checkpoints file (of b): nothing written"
REFUSED = [
    (("export", "--format", "jsonl", "-o", "b.duckdb"), f"-o b.duckdb {OTHER}"),
    (("export", "--format", "phh", HAND, "-o", "b.png"), f"-o b.png {OTHER}"),
    (("view", HAND, "-o", "b.duckdb"), f"-o b.duckdb {OTHER}"),
    (("chart", "b.png"), f"b.png {OTHER}"),
    (("checkpoint", "-o", "b.duckdb"), f"-o b.duckdb {OTHER}"),
    (("export", "--format", "jsonl", "-o", "b.duckdb.checkpoints"),
     f"-o b.duckdb.checkpoints {CHECKPOINTS}"),
    (("view", HAND, "-o", "b.duckdb.checkpoints"), f"-o b.duckdb.checkpoints {CHECKPOINTS}"),
    (("checkpoint", "-o", "b.duckdb.checkpoints"),
     "-o b.duckdb.checkpoints holds the checkpoints of another ledger (b), not of a: nothing "
     "written"),
]


@pytest.mark.parametrize(("args", "line"), REFUSED, ids=lambda a: " ".join(a)
                         if isinstance(a, tuple) else "")
def test_an_output_that_is_another_ledger_is_refused_nothing_written(
        here: Path, args: tuple, line: str) -> None:
    before = {name: md5(name) for name in os.listdir(here)}
    assert handledger("--db", "a.duckdb", *args) == (2, "", f"error: {line}\n")
    assert {name: md5(name) for name in os.listdir(here)} == before
    assert handledger("--db", "b.duckdb", "verify")[0] == 0


def test_another_ledgers_write_ahead_log_is_refused(here: Path) -> None:
    Path("b.duckdb.wal").write_bytes(b"\x00" * 64)  # what DuckDB has not checkpointed yet
    assert handledger("--db", "a.duckdb", "export", "-o", "b.duckdb.wal") == (
        2, "", "error: -o b.duckdb.wal is another ledger's write-ahead log (b.duckdb): nothing "
               "written\n")
    assert Path("b.duckdb.wal").read_bytes() == b"\x00" * 64


def test_a_name_that_would_become_another_ledgers_file_is_refused(here: Path) -> None:
    """``b.duckdb.checkpoints`` not there yet (b never took a checkpoint) and ``b.duckdb.wal``
    not there (b closed cleanly): an export written there became b's checkpoints file (b's
    `verify` and `checkpoint` then read it) or a log DuckDB replays when b next opens."""
    Path("b.duckdb.checkpoints").unlink()
    for args, name, what in (
            (("export", "-o", "b.duckdb.checkpoints"), "b.duckdb.checkpoints", "checkpoints file"),
            (("checkpoint", "-o", "b.duckdb.checkpoints"), "b.duckdb.checkpoints",
             "checkpoints file"),
            (("export", "-o", "b.duckdb.wal"), "b.duckdb.wal", "write-ahead log")):
        assert handledger("--db", "a.duckdb", *args) == (
            2, "", f"error: -o {name} would be the {what} of another ledger (b.duckdb): "
                   "nothing written\n")
        assert not Path(name).exists()
    assert handledger("--db", "b.duckdb", "verify")[0] == 0


def test_other_files_are_written_and_a_checkpoint_appends_to_its_own_ledgers_file(
        here: Path) -> None:
    """A ``.checkpoints`` file holding no checkpoint is no ledger's; a checkpoints file of
    ledger ``a`` kept under another name takes a's next checkpoint."""
    Path("notes.checkpoints").write_text("# to fill in\n")
    Path("notes.txt").write_text("handledger checkpoint b 1:0123456789abcdef0123 \n")
    assert handledger("--db", "a.duckdb", "export", "-o", "notes.checkpoints") == (
        0, "wrote notes.checkpoints\n", "")
    assert handledger("--db", "a.duckdb", "export", "-o", "notes.txt") == (
        0, "wrote notes.txt\n", "")
    for _ in range(2):
        code, out, _ = handledger("--db", "a.duckdb", "checkpoint", "-o", "friday.checkpoints")
        assert code == 0 and out.startswith("handledger checkpoint a "), out
    assert len(Path("friday.checkpoints").read_text().splitlines()) == 2
    assert handledger("--db", "a.duckdb", "verify", "--against", "friday.checkpoints")[0] == 0


def test_a_ledger_written_past_its_end_is_not_said_cut_short(here: Path) -> None:
    """The user's case: a checkpoint's record appended to a ledger file (before this check)
    made it longer, not shorter: every read says it is no whole number of blocks."""
    with open("b.duckdb", "ab") as f:
        f.write(b'{"ledger":"a","position":1}\n')
    size = Path("b.duckdb").stat().st_size
    blocks, part = divmod(size - 12288, 262144)
    assert part == 28
    assert handledger("--db", "b.duckdb", "session", "list") == (
        2, "", f"error: ledger b.duckdb is corrupt: not a whole number of blocks: {size} bytes, "
               f"{blocks} blocks and {part} bytes (blocks of 262144 bytes after 12288 bytes of "
               "headers): cut short or written past its end\n")


def test_a_report_page_or_export_file_that_is_another_ledger_is_refused(here: Path) -> None:
    """A folder's files are checked one by one: a copy of ledger b left where the report
    writes its index page, or where an export writes its events, is refused, b unchanged."""
    os.mkdir("site")
    shutil.copy("b.duckdb", "site/index.html")
    os.mkdir("csv")
    shutil.copy("b.duckdb", "csv/events.csv")
    before = {p: md5(p) for p in ("site/index.html", "csv/events.csv")}
    assert handledger("--db", "a.duckdb", "report", "site") == (
        2, "", f"error: report site: site/index.html {OTHER}\n")
    assert handledger("--db", "a.duckdb", "export", "--format", "csv", "csv") == (
        2, "", f"error: export csv: csv/events.csv {OTHER}\n")
    assert {p: md5(p) for p in before} == before
    assert sorted(os.listdir("site")) == ["index.html"]
