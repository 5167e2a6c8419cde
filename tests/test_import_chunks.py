"""A ``.phhs`` imported a chunk of hands at a time gives the import of the whole file.

``replay.ingest.chunked`` reads, checks and appends a PHH file a few hands at a time inside
the file's one transaction (memory flat in the size of the file). These tests compare it with
the import that reads the whole file first (the path every other format takes): the same
rows in the same order, the same report and error lines, with bad hands in the first and the
last chunk, under ``--strict``, with chips carried between hands of a session, and nothing of
the file written when a late chunk fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ledger.store.store as store
import replay.ingest.chunked as chunked
import replay.ingest.pipeline as pipeline
from bench.helpers import real_hand_texts
from ledger.model.errors import LedgerError
from ledger.store.store import Ledger
from replay.ingest.pipeline import import_paths
from tests.test_carry import CASE as CARRY
from tests.test_carry import NEXT


class _Whole:
    """The PHH importer without ``iter_read``: the file read whole, then checked, then
    appended (the import every other format goes through)."""

    def __init__(self, importer: Any) -> None:
        self.name, self.describes = importer.name, importer.describes
        self.identify, self.read = importer.identify, importer.read


def _whole(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pipeline.find_importer

    def find(path: Path) -> Any:
        found = real(path)
        return _Whole(found) if found is not None and found.name == "phh" else found

    monkeypatch.setattr(pipeline, "find_importer", find)


def _stored(ledger: Ledger) -> list[tuple]:
    """Every row but its time and hashes (which depend on the time)."""
    rows = ledger.connection.execute(
        f"SELECT {store.COLUMNS} FROM events ORDER BY position").fetchall()
    return [row[:8] + row[9:10] for row in rows]


def _phhs(path: Path, hands: int, *, bad: dict[int, str] | None = None) -> Path:
    """``hands`` real hands (``../shared/data/phh`` cycled) as one ``.phhs``, table ``[i]``
    hand ``i``; ``bad``: table number → its body instead."""
    bodies = real_hand_texts()
    with path.open("w", encoding="utf-8") as out:
        out.write("# real hands, cycled\n")
        for i in range(1, hands + 1):
            body = (bad or {}).get(i) or bodies[(i - 1) % len(bodies)]
            out.write(f"\n[{i}]\n{body}venue = 'chunks'\nhand = {i}\n")
    return path


def _import(db: Path, files: list[Path], **kw: Any) -> tuple[Any, list[tuple]]:
    with Ledger(db) as ledger:
        report = import_paths(ledger, files, strict=kw.get("strict", False),
                              session=kw.get("session"), pn_ledger=None)
        assert ledger.verify().ok
        return report, _stored(ledger)


def _both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: list[Path], chunk: int,
          **kw: Any) -> tuple[tuple[Any, list[tuple]], tuple[Any, list[tuple]]]:
    """The import in chunks of ``chunk`` hands, then the whole-file import, into new ledgers
    (``prepare(db)`` first, when given)."""
    monkeypatch.setattr(chunked, "CHUNK_HANDS", chunk)
    out = []
    for name in ("chunks", "whole"):
        db = tmp_path / f"{name}.duckdb"
        if kw.get("prepare"):
            kw["prepare"](db)
        if name == "whole":
            _whole(monkeypatch)
        out.append(_import(db, files, **kw))
    return out[0], out[1]


#: An action the rules refuse (a check facing the big blind) and a table TOML refuses.
ILLEGAL = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cc', 'p1 cc', 'p2 cbr 10', 'p1 cc']
"""
BAD_TOML = "variant = 'NT'\nstarting_stacks = [100, \n"


@pytest.mark.parametrize("chunk", [1, 7, 1000])
def test_chunks_store_the_rows_and_report_of_the_whole_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """Bad hands in the first and the last chunk (an illegal action, broken TOML, a table
    with no variant): the same rows in the same order, the same report and error lines."""
    path = _phhs(tmp_path / "real.phhs", 40, bad={2: ILLEGAL, 17: BAD_TOML,
                                                   39: "players = ['a']\n", 40: ILLEGAL})
    (chunks, rows_chunks), (whole, rows_whole) = _both(tmp_path, monkeypatch, [path], chunk)
    assert rows_chunks == rows_whole and len(rows_whole) > 500
    assert chunks == whole
    assert (whole.imported, whole.rejected, len(whole.errors)) == (36, 4, 4)
    # the reader's errors by line, then the engine's in file order
    assert [e.split(": [")[0].split(", action")[0] for e in whole.errors] == [
        f"{path}:{_line(path, 17) + 3}", f"{path}:{_line(path, 39)}, hand chunks-39",
        f"{path}:{_line(path, 2) + 6}, hand chunks-2",
        f"{path}:{_line(path, 40) + 6}, hand chunks-40"]


def _line(path: Path, table: int) -> int:
    """The line of table ``[table]``'s header in ``path``."""
    return path.read_text().splitlines().index(f"[{table}]") + 1


def test_strict_with_a_bad_hand_in_the_last_chunk_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--strict``: the chunks before the bad hand were appended, and are rolled back with
    it; the report is that of the whole file."""
    path = _phhs(tmp_path / "real.phhs", 30, bad={30: ILLEGAL})
    (chunks, rows_chunks), (whole, rows_whole) = _both(tmp_path, monkeypatch, [path], 4,
                                                       strict=True)
    assert rows_chunks == rows_whole == []
    assert chunks == whole
    assert (whole.imported, whole.rejected, whole.unwritten) == (0, 1, 29)
    assert whole.errors[-1].endswith("--strict: nothing of this file was written")


def test_a_late_chunk_the_ledger_refuses_leaves_nothing_of_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ledger refuses the last chunk's append: nothing of the file is written (one
    transaction), the error names the file, and the same file imports whole afterwards."""
    path = _phhs(tmp_path / "real.phhs", 25)
    monkeypatch.setattr(chunked, "CHUNK_HANDS", 10)
    calls = []
    real = Ledger.append_many

    def failing(self: Ledger, batches: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise LedgerError("the disk is full")
        return real(self, batches)

    monkeypatch.setattr(Ledger, "append_many", failing)
    db = tmp_path / "l.duckdb"
    report, rows = _import(db, [path])
    assert len(calls) == 3 and rows == []
    assert report.errors == [f"{path}: the disk is full"] and report.imported == 0
    monkeypatch.setattr(Ledger, "append_many", real)
    again, rows = _import(db, [path])
    assert again.imported == 25 and not again.errors and len(rows) > 400


def test_a_reader_failure_late_in_the_file_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader raises (a value the event models refuse, which refuses the whole file)
    after the earlier chunks were appended: nothing of the file stays, and the report is
    that of the whole file."""
    import ledger.formats.phh.importer as phh_importer
    import ledger.formats.phh.read as phh_read
    from ledger.model.events import Unit

    real = phh_read.iter_phh

    def failing(path: Any) -> Any:
        for k, item in enumerate(real(path)):
            if k == 11:
                Unit(currency="USD", decimals=-1)  # raises pydantic's ValidationError
            yield item

    monkeypatch.setattr(phh_read, "iter_phh", failing)
    monkeypatch.setattr(phh_importer, "iter_phh", failing)
    path = _phhs(tmp_path / "real.phhs", 12)
    (chunks, rows_chunks), (whole, rows_whole) = _both(tmp_path, monkeypatch, [path], 3)
    assert chunks == whole and rows_chunks == rows_whole == []
    assert len(whole.errors) == 1 and "invalid event (decimals" in whole.errors[0]


def test_chips_carried_between_hands_of_a_session_are_never_cut_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands that carry an unclaimed pot into the session's next hand, a chunk a hand: the
    next hand's ``carry_over`` in and the carrying hand's ``carry_over`` out are those of
    the whole file (the chunk does not end after a hand that may carry)."""
    carry, nxt = CARRY.read_text(), NEXT
    path = tmp_path / "carry.phhs"
    tables = [carry, nxt, nxt, carry, nxt, carry, carry, nxt]
    path.write_text("".join(f"[{i}]\n{t}hand = {i}\n\n" for i, t in enumerate(tables, 1)))

    def opened(db: Path) -> None:
        from replay.sessions.opening import open_session

        with Ledger(db) as ledger:
            open_session(ledger, "s1", day=None, chip_value="1", currency=None,
                         decimals=None)

    (chunks, rows_chunks), (whole, rows_whole) = _both(
        tmp_path, monkeypatch, [path], 1, session="s1", prepare=opened)
    assert rows_chunks == rows_whole and chunks == whole
    assert whole.imported == 8 and not whole.errors
    assert sum(1 for row in rows_whole if row[5] == "carry_over") == 8
