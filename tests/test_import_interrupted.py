"""Ctrl-C during an import: all or nothing for a ledger it made, and a word on what stands.

An import of a new ledger interrupted left the ledger file it had made, with no event (README:
a refused write leaves no file); the file goes now, with its write-ahead log. A folder import
writes each file in a transaction of its own: interrupted, it said only "Aborted", though the
files before were in the ledger; it names them now, with their hands, before "Aborted".

The interrupt is raised in-process where SIGINT would raise it (inside a write, or as the next
file begins); tests/test_interrupts.py sends real signals at random moments.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import replay.ingest.pipeline as pipeline
from cli.main import run
from ledger.store.store import Ledger
from tests.test_interrupts import _wrapped_by_pydantic

SERIES = Path(__file__).resolve().parents[1] / "data" / "series"
#: data/series/s01.jsonl: 30 hands, 913 lines (an event each); s02: 30 hands, 1,392 events.
S01_EVENTS, S02_EVENTS = 913, 1392
#: An interrupted command's stderr ends so: click's new line (after a terminal's ^C), then
#: "Aborted" (cli/main.py).
ABORTED = ["", "Aborted"]


def _cli(*args: str) -> tuple[int, list[str], str]:
    """Exit status, the lines on stderr, stdout of ``handledger ARGS`` run in this process."""
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        code = run(list(args))
    return code, err.getvalue().decode().splitlines(), out.getvalue().decode()


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "night"
    folder.mkdir()
    for name in ("s01.jsonl", "s02.jsonl", "s03.jsonl"):
        shutil.copy(SERIES / name, folder / name)
    return folder


def _interrupt_in_write(form: str) -> Callable[..., object]:
    """An ``append_many`` that inserts its rows and is then interrupted (before the commit):
    SIGINT as Python raises it, as DuckDB passes it on, or wrapped by pydantic."""
    real = Ledger.append_many
    error = {"python": KeyboardInterrupt(), "duckdb": RuntimeError("Query interrupted"),
             "pydantic": _wrapped_by_pydantic()}[form]

    def append_many(self: Ledger, batches: object) -> object:
        real(self, batches)  # type: ignore[arg-type]
        spill = Path(f"{self.path}.tmp")  # DuckDB's spill folder, as a capped write makes it
        spill.mkdir(exist_ok=True)
        (spill / "duckdb_temp_storage_S32K-0.tmp").write_bytes(b"\0" * 4096)
        raise error

    return append_many


@pytest.mark.parametrize("form", ["python", "duckdb", "pydantic"])
def test_an_import_of_a_new_ledger_interrupted_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    db = tmp_path / "new.duckdb"
    monkeypatch.setattr(Ledger, "append_many", _interrupt_in_write(form))
    code, err, out = _cli("--db", str(db), "import", str(SERIES / "s01.jsonl"))
    assert (code, err, out) == (130, ABORTED, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no ledger, .wal or .tmp


def test_an_import_interrupted_into_a_ledger_that_was_there_keeps_it_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "kept.duckdb"
    assert _cli("--db", str(db), "import", str(SERIES / "s02.jsonl"))[0] == 0
    monkeypatch.setattr(Ledger, "append_many", _interrupt_in_write("python"))
    assert _cli("--db", str(db), "import", str(SERIES / "s01.jsonl"))[:2] == (130, ABORTED)
    with Ledger(db, read_only=True) as ledger:
        assert ledger.count() == S02_EVENTS and ledger.verify().ok
    assert (tmp_path / "kept.duckdb.tmp").is_dir()  # not this command's to remove


@pytest.mark.parametrize("command", ["import", "run"])
def test_a_folder_import_interrupted_names_the_files_it_had_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """Interrupted as its third file begins: s01 and s02 are in the ledger (kept, though the
    import made it), each whole, and said so; nothing of s03."""
    folder, db = _folder(tmp_path), tmp_path / "new.duckdb"
    real, calls = pipeline.import_file, []

    def import_file(ledger: Ledger, path: Path, *args: object, **kwargs: object) -> None:
        calls.append(path.name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(ledger, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "import_file", import_file)
    code, err, _ = _cli("--db", str(db), command, str(folder))
    assert code == 130 and calls == ["s01.jsonl", "s02.jsonl", "s03.jsonl"]
    assert err == [
        "note: interrupted: 2 file(s) had been written, each whole, 60 hand(s) "
        f"({S01_EVENTS + S02_EVENTS} events); nothing of any other (importing again adds only "
        "what is missing)",
        f"note: written: {folder}/s01.jsonl: 30 hand(s) ({S01_EVENTS} events)",
        f"note: written: {folder}/s02.jsonl: 30 hand(s) ({S02_EVENTS} events)",
        *ABORTED]
    with Ledger(db, read_only=True) as ledger:
        assert ledger.count() == S01_EVENTS + S02_EVENTS and ledger.verify().ok
        assert ledger.streams(kind="session") == ["session:s01", "session:s02"]
