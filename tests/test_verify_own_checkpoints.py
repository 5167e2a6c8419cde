"""Plain ``verify`` checks the ledger's own checkpoints file beside it (README "Anchoring it"):
a copy of the ledger put back (a rollback) or a checkpoints file altered in the middle passed
every other check of ``verify`` (exit 0); ``run`` and the report named the same file ``not
checked`` as a whole over one damaged line.

The ledger: ``data/series/s01.jsonl`` imported (913 events), a checkpoint, ``s02.jsonl``
(2,305 events in all), a checkpoint; the copy after the first checkpoint is the rollback.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import DATA
from tests.copies import build_ledger, copy_ledger

S01, S02 = DATA / "series" / "s01.jsonl", DATA / "series" / "s02.jsonl"
OK = "ok: 2305 events, hash chain intact, head 2305:"
TABLES = "derived tables: as the events' replay gives them (462 rows)"
ALTERED = "with checkpoints after it: the file altered after it was written"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the ledger with two checkpoints, its copy after the first checkpoint)."""
    folder = tmp_path_factory.mktemp("own")
    db = folder / "b.duckdb"
    build_ledger(db, [("import", str(S01)), ("checkpoint",)])
    early = copy_ledger(db, folder / "early.duckdb")
    build_ledger(db, [("import", str(S02)), ("checkpoint",)])
    return db, early


@pytest.fixture
def ledger(built: tuple[Path, Path], db: str) -> Path:
    copy_ledger(built[0], Path(db))
    return Path(db)


def _records(ledger: Path) -> list[str]:
    return Path(f"{ledger}.checkpoints").read_text().splitlines(keepends=True)


def _hint(ledger: Path) -> str:
    return (f" (`handledger verify --against {ledger}.checkpoints` says where the ledger "
            "parts)")


def test_a_whole_file_the_ledger_extends_is_one_line_and_passes(user, ledger: Path) -> None:
    code, out, err = user("verify")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert lines[0].startswith(OK) and lines[1] == TABLES
    assert lines[2:] == ["checkpoints t.duckdb.checkpoints: 2, the ledger extends every one"]


def test_a_copy_put_back_fails_naming_the_checkpoint_it_no_longer_reaches(
        user, built: tuple[Path, Path], db: str) -> None:
    """The rollback: the ledger as after the first checkpoint, beside the file of both."""
    ledger = Path(db)
    copy_ledger(built[1], ledger)
    shutil.copyfile(f"{built[0]}.checkpoints", f"{ledger}.checkpoints")
    code, out, _ = user("verify")
    assert code == 1
    assert out.splitlines()[0].startswith("ok: 913 events, hash chain intact, head 913:")
    assert out.splitlines()[-1] == (
        "checkpoints t.duckdb.checkpoints: 2, 1 FAIL: 2305 (line 2): the ledger ends at "
        "position 913, before 2305: an older copy put back, or cut short" + _hint(ledger))


def test_a_line_altered_before_a_later_checkpoint_fails(user, ledger: Path) -> None:
    first, second = _records(ledger)
    at = first.index('"hash":"') + 20  # two hex digits of the first record's hash made "XX"
    Path(f"{ledger}.checkpoints").write_text(first[:at] + "XX" + first[at + 2:] + second)
    code, out, _ = user("verify")
    assert code == 1
    assert out.splitlines()[-1] == (
        "checkpoints t.duckdb.checkpoints: 1 intact, the ledger extends every one; line 1 "
        f"FAILS: a damaged checkpoint record, {ALTERED}" + _hint(ledger))


def test_a_last_line_cut_short_is_named_and_the_others_checked(user, ledger: Path) -> None:
    first, second = _records(ledger)
    Path(f"{ledger}.checkpoints").write_text(first + second[:40])
    code, out, _ = user("verify")
    assert code == 0
    assert out.splitlines()[-1] == (
        "checkpoints t.duckdb.checkpoints: 1 intact, the ledger extends every one; line 2 "
        "not checked: a damaged checkpoint record (not JSON), the file's last line: a write "
        "cut short (disk full, killed)")


def test_a_file_that_holds_no_checkpoint_is_said_and_fails_nothing(user, ledger: Path) -> None:
    Path(f"{ledger}.checkpoints").write_text("shopping list: chips, cards\n")
    code, out, _ = user("verify")
    assert code == 0
    assert out.splitlines()[-1] == (
        f"checkpoints t.duckdb.checkpoints: not checked: {ledger}.checkpoints: holds no "
        "checkpoint (a JSON record, a chat line or POS:HASH)")


def test_no_file_no_line_and_against_checks_only_what_it_names(user, ledger: Path) -> None:
    keep = Path(f"{ledger}.checkpoints").read_text()
    Path(f"{ledger}.checkpoints").unlink()
    code, out, _ = user("verify")
    assert code == 0 and out.splitlines()[1:] == [TABLES]
    Path(f"{ledger}.checkpoints").write_text("shopping list\n")
    Path(f"{ledger}.kept").write_text(keep)
    code, out, _ = user("verify", "--against", f"{ledger}.kept")
    assert code == 0
    assert out.splitlines()[-1] == "the ledger extends all 2 checkpoint(s)"
    assert not any(line.startswith("checkpoints ") for line in out.splitlines())


def test_run_checks_the_intact_records_beside_a_damaged_line(user, ledger: Path) -> None:
    """``run``'s line used to be ``not checked`` for the whole file over one damaged line."""
    first, second = _records(ledger)
    Path(f"{ledger}.checkpoints").write_text("{not a record\n" + first + second)
    code, out, _ = user("run", str(DATA / "series"))
    assert code == 0
    assert (
        "checkpoints t.duckdb.checkpoints: 2 intact, the ledger extends every one; line 1 "
        f"FAILS: a damaged checkpoint record (not JSON), {ALTERED}" + _hint(ledger)
    ) in out.splitlines()
