"""An output the system refuses (``/proc/version``, a folder that is not there, a folder no
file can be made in) is refused in one line naming it, exit 2, no traceback, nothing
written; ``chart``, ``view -o`` and ``export -o`` write whole or not at all, so a write
failing part-way leaves an older file as it was (docs/LEDGER.md "A write is all or nothing").
Before, ``chart /proc/version`` said ``error: Input/output error`` (no file named) and
``chart``/``export`` wrote straight into the file.

``played``: session s, Ann and Bob buy in 100; hand a1, Bob folds his small blind.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import run
from tests.test_unalias import _fold

WRITES = (("chart", "{}"), ("view", "a1", "-o", "{}"), ("export", "-o", "{}"),
          ("export", "--format", "phh", "-o", "{}"))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("out") / "t.duckdb"
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100")):
        assert run(db, *args).exit_code == 0
    _fold(db, "a1", "s", "Bob", "Ann", "100,100")
    return db


def _refused(db: Path, out: str) -> list[tuple[str, int, str, str]]:
    said = []
    for words in WRITES:
        result = run(db, *(w.format(out) for w in words))
        said.append((words[0], result.exit_code, result.stdout,
                     "".join(ln + "\n" for ln in result.stderr.splitlines()
                             if not ln.startswith("note: "))))
    return said


def _strerror(folder: str) -> str:
    """What the system says making a file in ``folder`` (/sys: no file can be made there,
    whoever asks; ``Permission denied`` here, perhaps ``Read-only file system`` elsewhere)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder)
    except OSError as exc:
        return exc.strerror
    os.close(fd)
    os.unlink(name)
    raise AssertionError(f"a file could be made in {folder}")


def test_a_file_the_system_refuses_is_named_in_one_line(played: Path, tmp_path: Path) -> None:
    db = copy_ledger(played, tmp_path / "t.duckdb")
    line = "error: cannot write /proc/version: no file can be made in /proc\n"
    assert _refused(db, "/proc/version") == [
        ("chart", 2, "", line), ("view", 2, "", line), ("export", 2, "", line),
        ("export", 2, "", line)]
    missing = tmp_path / "no" / "such" / "x.svg"  # a suffix chart writes (.out is refused)
    line = f"error: cannot write {missing}: No such file or directory\n"
    assert _refused(db, str(missing)) == [
        ("chart", 2, "", line), ("view", 2, "", line), ("export", 2, "", line),
        ("export", 2, "", line)]
    assert not (tmp_path / "no").exists()
    line = f"error: cannot write /sys/x.svg: {_strerror('/sys')}\n"
    assert _refused(db, "/sys/x.svg") == [
        ("chart", 2, "", line), ("view", 2, "", line), ("export", 2, "", line),
        ("export", 2, "", line)]
    # a checkpoint's file and a key folder: the system's words, not Python's ([Errno 2] …)
    result = run(db, "checkpoint", "-o", str(missing))
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", f"error: cannot write the checkpoints file {missing}: No such file or "
        "directory\n")
    result = run(db, "key", "new", "k", "--keys", "/proc/x")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "error: cannot create the key directory /proc/x: No such file or directory\n")


def test_a_write_failing_part_way_leaves_the_older_file_as_it_was(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = copy_ledger(played, tmp_path / "t.duckdb")
    old = tmp_path / "out" / "x.png"
    old.parent.mkdir()
    old.write_bytes(b"the older file")

    def full(src: str, dst: str) -> None:  # the disk fills up as the file is completed
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), dst)

    monkeypatch.setattr("ledger.store.outputs.os.replace", full)
    line = f"error: cannot write {old}: No space left on device\n"
    assert _refused(db, str(old)) == [
        ("chart", 2, "", line), ("view", 2, "", line), ("export", 2, "", line),
        ("export", 2, "", line)]
    assert sorted(p.name for p in old.parent.iterdir()) == ["x.png"]  # no temporary file left
    assert old.read_bytes() == b"the older file"
    monkeypatch.undo()
    result = run(db, "chart", str(old))
    assert (result.exit_code, result.stdout) == (0, f"wrote {old}\n")
    assert old.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
