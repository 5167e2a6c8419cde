"""Importing a JSON-lines file with worker processes gives the one-process import.

``replay.ingest.parallel`` cuts a file into parts at stream starts; workers read, check and
serialise the parts and this process links the hash chain (``ledger.store.columns``). These
tests compare its ledgers and reports with the one-process import, row for row, on a series
whose sessions are cut between parts, and check that every file that is not plain for the
workers (an illegal hand, a stored hand or session, a hand in two parts, a hand that carries
chips) goes through the one-process import with nothing of the attempt left behind.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import ledger.store.store as store
import replay.ingest.parallel as par
from ledger.formats.jsonl import iter_jsonl, read_jsonl_text
from ledger.model.errors import DuplicateEvent, LedgerError
from ledger.store.chain import GENESIS, prepare_batch, row_hash
from ledger.store.columns import link_columns, link_hashes, prepare_columns
from ledger.store.store import Ledger
from replay.demo.randomhand import random_hand
from replay.demo.series import generate_series
from replay.ingest.pipeline import import_paths
from tests.conftest import DATA


@functools.cache
def _series_text(sessions: int = 3, hands: int = 8, seed: int = 5) -> str:
    """The generated series as JSON lines (an immutable string: made once for each size)."""
    series = generate_series(sessions=sessions, hands=hands, seed=seed)
    return "".join("".join(iter_jsonl(log.rows)) for log in series.sessions)


def _stored(ledger: Ledger) -> list[tuple]:
    """Every row but its time and hashes (which depend on the time)."""
    rows = ledger.connection.execute(
        f"SELECT {store.COLUMNS} FROM events ORDER BY position").fetchall()
    return [row[:8] + row[9:10] for row in rows]


class _Spy:
    """Records what each ``import_parallel`` call returned (None: the file fell back)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.results: list[Any] = []
        real = par.import_parallel

        def spy(*args: Any, **kwargs: Any) -> Any:
            out = real(*args, **kwargs)
            self.results.append(out)
            return out

        monkeypatch.setattr(par, "import_parallel", spy)


def _import(db: Path, files: list[Path], jobs: int, **kw: Any) -> tuple[Any, list[tuple]]:
    with Ledger(db) as ledger:
        report = import_paths(ledger, files, strict=kw.get("strict", False),
                              session=kw.get("session"), pn_ledger=None, jobs=jobs)
        assert ledger.verify().ok
        return report, _stored(ledger)


@pytest.mark.parametrize("part_bytes", [3_000, 40_000])
def test_workers_store_the_rows_of_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               part_bytes: int) -> None:
    """Sessions cut between parts (their cash-outs come after the hands, in a later part):
    the same rows in the same order, the same report, and the chain verifies."""
    path = tmp_path / "series.jsonl"
    path.write_text(_series_text())
    monkeypatch.setattr(par, "PART_BYTES", part_bytes)
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [path], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [path], jobs=2)
    assert len(spy.results) == 1 and spy.results[0] is not None  # the workers did it
    assert two.summary() == one.summary() and two.errors == one.errors == []
    assert rows_two == rows_one
    assert (one.imported, one.events) == (24, len(rows_one))
    parts = par.split(path.read_bytes(), max(4, path.stat().st_size // part_bytes))
    assert len(parts) > 2
    sessions_cut = [s for s in ("s01", "s02", "s03")
                    if sum(f'"session":"{s}"'.encode() in path.read_bytes()[a:b]
                           for a, b, _ in parts) > 1]
    assert sessions_cut  # a session's rows really are in two parts


def test_second_import_of_the_file_adds_nothing(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "series.jsonl"
    path.write_text(_series_text(sessions=2, hands=5))
    monkeypatch.setattr(par, "PART_BYTES", 5_000)
    spy = _Spy(monkeypatch)
    with Ledger(tmp_path / "l.duckdb") as ledger:
        first = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None, jobs=2)
        count = ledger.count()
        again = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None, jobs=2)
        assert (first.imported, again.imported, again.known) == (10, 0, 10)
        assert ledger.count() == count and ledger.verify().ok
    assert spy.results[0] is not None and spy.results[1] is None  # its hands are stored


def test_split_cuts_at_stream_starts_and_counts_lines() -> None:
    text = _series_text(sessions=2, hands=4).encode()
    parts = par.split(text, 6)
    assert parts[0][0] == 0 and parts[-1][1] == len(text)
    for (start, end, line), (nxt, _, _) in zip(parts, parts[1:], strict=False):
        assert end == nxt
        first = json.loads(text[nxt:text.index(b"\n", nxt)])
        assert first["seq"] == 1  # a hand or a session starts the part
        assert line == text.count(b"\n", 0, start) + 1
    assert par.split(b'{"hand":"h","seq":1,"event":{}}\n', 4) == [(0, 32, 1)]


def _broken(text: str, hand: str) -> str:
    """``text`` with a fold of ``hand`` made a check: illegal facing a bet."""
    lines = text.splitlines()
    bad = next(i for i, line in enumerate(lines)
               if line.startswith(f'{{"hand":"{hand}"') and '"type":"fold"' in line)
    lines[bad] = lines[bad].replace('"type":"fold"', '"type":"check"')
    return "\n".join(lines) + "\n"


def _some_hand_with_a_fold(text: str, after: int) -> str:
    lines = [json.loads(line) for line in text.splitlines()]
    folds = [row["hand"] for row in lines if "hand" in row and row["event"]["type"] == "fold"]
    return folds[after]


@pytest.mark.parametrize(("strict", "books"), [(False, False), (True, False), (False, True)])
def test_an_illegal_hand_late_in_the_file_leaves_nothing_of_the_attempt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strict: bool, books: bool) -> None:
    """The workers append the first parts, then a later part holds an illegal hand: all of it
    is rolled back and the one-process import writes the file of hands without that hand
    (or nothing with --strict, or when the file carries its sessions' books), with its error
    naming file, line, hand and action."""
    text = _series_text()
    if not books:  # the hands alone
        text = "".join(line + "\n" for line in text.splitlines()
                       if line.startswith('{"hand":'))
    victim = _some_hand_with_a_fold(text, -1)
    path = tmp_path / "late.jsonl"
    path.write_text(_broken(text, victim))
    monkeypatch.setattr(par, "PART_BYTES", 3_000)
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [path], jobs=1, strict=strict)
    two, rows_two = _import(tmp_path / "two.duckdb", [path], jobs=2, strict=strict)
    assert spy.results == [None]
    assert two.summary() == one.summary() and two.errors == one.errors
    assert rows_two == rows_one
    assert one.errors[0].startswith(f"{path}:") and f"hand {victim}, action 'check by" in (
        one.errors[0])
    assert (rows_one == []) is (strict or books)
    assert (one.imported, one.rejected, one.unwritten) == (
        (0, 1, 23) if strict or books else (23, 1, 0))
    assert one.errors[0].endswith(
        "; --strict: nothing of this file was written" if strict else
        "; nothing of the file was written: it carries the books of sessions s01, s02, s03, "
        "which go in with all their hands or not at all (correct the file and import it "
        "again)" if books else ": 4 to call")  # the hand's own error alone


def test_stored_session_and_repeated_hand_fall_back(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A file continuing a session already in the ledger, and a file with one hand id twice
    (in different parts), are imported by the one-process path exactly as without workers."""
    monkeypatch.setattr(par, "PART_BYTES", 2_000)
    series = generate_series(sessions=1, hands=6, seed=9).sessions[0]
    head = [r for r in series.rows if r[0] == series.name][:3]
    rest = [r for r in series.rows if r not in head]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(iter_jsonl(head)))
    hand_rows = [(f"x{k}", seq, e) for k in range(3)
                 for seq, e in enumerate(random_hand(random.Random(k), "NT", hand_id="x").events,
                                         1)]
    twice = tmp_path / "twice.jsonl"
    twice.write_text("".join(iter_jsonl(hand_rows[: len(hand_rows) // 3]))
                     + "".join(iter_jsonl(rest)) + "".join(iter_jsonl(hand_rows)))
    second.write_text("".join(iter_jsonl(rest)))
    spy = _Spy(monkeypatch)
    outcomes = []
    for jobs in (1, 2):
        with Ledger(tmp_path / f"s{jobs}.duckdb") as ledger:
            reports = [import_paths(ledger, [p], strict=False, session=None, pn_ledger=None,
                                    jobs=jobs).summary() for p in (first, second, twice)]
            outcomes.append((reports, _stored(ledger)))
            assert ledger.verify().ok
    assert outcomes[0] == outcomes[1]
    assert spy.results[1:] == [None, None]  # the stored session; the hand in two parts


def test_hands_that_carry_chips_fall_back(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The declare night carries chips from hand to hand (RULES.md §3.8): the carry-over
    events are added by the one-process import, so the workers hand the file back."""
    monkeypatch.setattr(par, "PART_BYTES", 2_000)
    path = DATA / "declare" / "declare-night.jsonl"
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [path], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [path], jobs=2)
    assert spy.results == [None]
    assert (two.summary(), rows_two) == (one.summary(), rows_one)
    assert any(row[5] == "carry_over" for row in rows_one)


def test_auto_workers_only_for_large_json_lines(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    small, phh = tmp_path / "s.jsonl", tmp_path / "h.phh"
    small.write_text(_series_text(sessions=1, hands=2))
    phh.write_text("")
    assert par.auto_workers(small, None) == 0
    assert par.auto_workers(small, 1) == 0 and par.auto_workers(small, 3) == 3
    assert par.auto_workers(phh, 3) == 0
    monkeypatch.setattr(par, "AUTO_MIN_BYTES", 10)
    monkeypatch.setattr(par.os, "cpu_count", lambda: 2)
    assert par.auto_workers(small, None) == 2


# ------------------------------------------------------------------ the columns and the chain


def _batches() -> list[Any]:
    hand = random_hand(random.Random(3), "FO/8", hand_id="h é\"1")
    rows = list(read_jsonl_text(_series_text(sessions=1, hands=2)).sessions[0].rows)
    batches = [prepare_batch("h é\"1", hand.events, None, "s01", "jsonl:k1")]
    batches += [prepare_batch("session:s01", [r.event], None, "s01", None) for r in rows[:2]]
    for b, expected in zip(batches, [0, 0, 1], strict=True):
        b.expected_seq = expected
    return batches


def test_columns_hash_like_the_reference_row_hash() -> None:
    """``link_hashes`` over ``prepare_columns`` gives :func:`row_hash` row by row."""
    moment = datetime(2026, 11, 29, 21, 0, 0, 123456)
    batches = _batches()
    cols = prepare_columns(batches, moment)
    hashes = link_hashes(GENESIS, 1, cols.hashed())
    assert link_columns(GENESIS.encode(), 1, cols) == [h.encode() for h in hashes]
    prev, position = GENESIS, 1
    for b in batches:
        for k, (kind, version, payload) in enumerate(zip(b.types, b.versions, b.payloads,
                                                         strict=True)):
            want = row_hash(prev, position=position, stream=b.stream, hand_id=b.hand_id,
                            session=b.session, seq=b.expected_seq + 1 + k, type=kind,
                            schema_version=version, payload=payload, recorded_at=moment,
                            source_key=b.source_key)
            assert hashes[position - 1] == want
            prev, position = want, position + 1
    assert cols.starts == {"h é\"1": 1, "session:s01": 1}


def test_columns_refuse_seqs_that_do_not_follow() -> None:
    batches = _batches()
    batches[2].expected_seq = 5
    with pytest.raises(ValueError, match="does not continue"):
        prepare_columns(batches, datetime(2026, 1, 1))
    batches[2].expected_seq = None
    with pytest.raises(ValueError, match="no expected_seq"):
        prepare_columns(batches, datetime(2026, 1, 1))


def test_append_columns_refuses_a_stored_or_moved_stream(tmp_path: Path) -> None:
    batches = _batches()
    cols = prepare_columns(batches, datetime(2026, 1, 1))
    with Ledger(tmp_path / "c.duckdb") as ledger:
        assert list(ledger.append_columns(cols)) == list(range(1, len(cols) + 1))
        before = _stored(ledger)
        with pytest.raises(DuplicateEvent):  # the same streams from seq 1 again
            ledger.append_columns(prepare_columns(batches, datetime(2026, 1, 2)))
        later = prepare_batch("session:s01", [_event(batches[2])],
                              None, "s01", None)
        later.expected_seq = 1  # the stream is at seq 2
        with pytest.raises(DuplicateEvent, match="is at seq 2, not 1"):
            ledger.append_columns(prepare_columns([later], datetime(2026, 1, 2)))
        assert _stored(ledger) == before and ledger.verify().ok
    with Ledger(tmp_path / "c.duckdb", read_only=True) as ledger, \
            pytest.raises(LedgerError, match="read-only"):
        ledger.append_columns(cols)


def _event(batch: Any) -> Any:
    from ledger.model.events import parse_event

    return parse_event(batch.payloads[0])


@pytest.mark.parametrize("change", ["gap", "again"])
def test_session_rows_that_do_not_join_up_fall_back(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    change: str) -> None:
    """A session's rows in a later part skip a seq, or the session opens a second time: the
    one-process import refuses that session whole, as without workers."""
    monkeypatch.setattr(par, "PART_BYTES", 2_000)
    lines = _series_text(sessions=2, hands=4).splitlines()
    rows = [json.loads(line) for line in lines]
    last = max(i for i, r in enumerate(rows) if r.get("session") == "s01")
    if change == "gap":
        rows[last]["seq"] += 1
        lines[last] = json.dumps(rows[last], separators=(",", ":"))
    else:
        lines.insert(last, lines[0])
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert len(par.split(path.read_bytes(), 8)) > 2
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [path], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [path], jobs=2)
    assert spy.results == [None]
    assert (two.summary(), two.errors, rows_two) == (one.summary(), one.errors, rows_one)
    assert len(one.errors) == 1 and "session s01" in one.errors[0]


def test_mutated_files_import_the_same_with_workers(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The hardening suite's random mutations of JSON-lines files, each after three legal
    hands (a third of the files without it), every hand in its own part: with workers, the
    same reports and rows as in one process (the workers take the plain files, the others
    fall back), none left half written."""
    from tests.test_hardening import mutated_files

    monkeypatch.setattr(par, "PART_BYTES", 1)
    texts = [p.read_bytes() for p, _ in mutated_files(60, 7, tmp_path)
             if p.suffix == ".jsonl"]
    rng = random.Random(4)
    files = []
    for k, text in enumerate(texts):
        clean = []
        for h in range(3):
            hand = random_hand(rng, ("NT", "F7S", "FO/8")[h], hand_id=f"c{k}-{h}")
            clean += [(hand.events[0].hand, seq, e) for seq, e in enumerate(hand.events, 1)]
        mutated = text if text.endswith(b"\n") else text + b"\n"
        path = tmp_path / f"four{k:03d}.jsonl"
        path.write_bytes("".join(iter_jsonl(clean)).encode()
                         + (b"" if k % 3 == 0 else mutated))  # a third of them clean
        files.append(path)
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", files, jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", files, jobs=2)
    assert (two.summary(), two.errors, rows_two) == (one.summary(), one.errors, rows_one)
    taken = sum(r is not None for r in spy.results)
    assert len(files) == 30 and 5 < taken < 30  # the clean files at least; not the others
    assert one.imported > 0 and one.errors


def _named(text: str, old: str, new: str) -> str:
    return text.replace(f'"{old}"', f'"{new}"').replace(f'"{old}-', f'"{new}-')


@pytest.mark.parametrize("case", ["colon", "same_key", "session_hand"])
def test_odd_names_import_the_same_with_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               case: str) -> None:
    """A session named ``club:fri`` cut between parts; the same session row under the names
    ``session:x`` and ``x`` (one stream: the second opening of ``x``, after the closing of
    ``session:x``, refuses the file, where its opening, buy-ins and closing were appended
    after that closing); a hand id the store
    refuses (``session:…``): with workers as in one process, the file named in any error."""
    monkeypatch.setattr(par, "PART_BYTES", 2_000)
    text = _series_text(sessions=2, hands=4)
    if case == "colon":
        text = _named(text, "s01", "club:fri")
    elif case == "same_key":
        second = _series_text(sessions=1, hands=2, seed=8).replace('"s01-', '"y-')
        text = text.replace('"s01"', '"session:x"') + second.replace('"s01"', '"x"')
    else:
        text = text.replace('"s01-0', '"session:s01-0')
    path = tmp_path / "odd.jsonl"
    path.write_text(text)
    other = tmp_path / "other.jsonl"
    other.write_text(_named(_series_text(sessions=1, hands=2, seed=3), "s01", "later"))
    one, rows_one = _import(tmp_path / "one.duckdb", [path, other], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [path, other], jobs=2)
    assert (two.summary(), two.errors, rows_two) == (one.summary(), one.errors, rows_one)
    sessions = {row[3] for row in rows_one}
    if case == "colon":
        assert "club:fri" in sessions and "fri" not in sessions and not one.errors
    elif case == "same_key":  # session x, closed on line 158, is opened again on line 326
        assert one.known == 0 and one.errors == [
            f"{path}:326, session x: its session_opened at seq 1 comes after the session was "
            "closed: a closed session takes no more; nothing of the file was written"]
        assert sessions == {"later"}  # only the other file
    else:
        assert one.errors[0].startswith(f"{path}: ") and "later" in sessions


def test_a_pipe_is_read_once_in_one_process(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    assert par.auto_workers(fifo, 2) == 0 and par.auto_workers(fifo, None) == 0


def test_workers_import_handledger_not_packages_of_the_current_folder(tmp_path: Path) -> None:
    """A folder holding packages named like handledger's (a user's own ``ledger/``): the
    workers' forkserver, a new interpreter, must not import them in place of the installed
    ones (Python 3.11 puts its current folder first on its path)."""
    folder = tmp_path / "work"
    for package in ("ledger", "replay", "engine"):
        (folder / package).mkdir(parents=True)
        (folder / package / "__init__.py").write_text(
            "raise SystemExit('the folder\\'s own package was imported')\n")
    path = tmp_path / "series.jsonl"
    path.write_text(_series_text())
    code = subprocess.run(
        [str(Path(sys.executable).with_name("handledger")), "--db", str(tmp_path / "w.duckdb"),
         "import", "--jobs", "2", str(path)], cwd=folder, capture_output=True, text=True,
        timeout=300, env={**os.environ, "HANDLEDGER_NO_SERVE": "1"})
    assert (code.returncode, code.stderr) == (0, "")
    assert code.stdout.startswith("imported 24 hand(s)")


def test_workers_store_the_source_keys_an_export_carries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PokerNow log's hands and session lines restored from the ledger's JSON-lines export
    by workers keep the keys the log gave them, as in one process (a longer export of the log
    then adds only its new hands to either)."""
    from tests.conftest import SHARED
    from tests.test_live_table import one_shot

    log = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
    original, export = tmp_path / "original.duckdb", tmp_path / "backup.jsonl"
    assert one_shot(original, "import", str(log))[0] == 0
    assert one_shot(original, "export", "--format", "jsonl", "-o", str(export))[0] == 0
    monkeypatch.setattr(par, "PART_BYTES", 100_000)
    spy = _Spy(monkeypatch)
    one, rows_one = _import(tmp_path / "one.duckdb", [export], jobs=1)
    two, rows_two = _import(tmp_path / "two.duckdb", [export], jobs=2)
    assert len(spy.results) == 1 and spy.results[0] is not None  # the workers did it
    assert two.summary() == one.summary() and rows_two == rows_one
    assert (one.imported, one.events) == (52, 1255)
    with Ledger(original) as ledger:
        assert rows_one == _stored(ledger)  # its keys too: every one the log gave
    assert {row[-1].split(":")[0] for row in rows_one} == {"pokernow"}
