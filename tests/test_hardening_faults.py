"""Faults, hardening, with real ``handledger`` processes.

* ``kill -9`` in the middle of a large import (a folder of hand files: one transaction per
  file) leaves only whole hands; ``verify`` passes; importing again completes the ledger
  without a duplicate.
* A second process writing while one imports, with ``--no-wait``, gets one "ledger … is busy"
  line and exit 2; without, it waits for the import and goes through; the import loses
  nothing.
* Editing, deleting, inserting or reordering rows of a real ledger file is caught by
  ``handledger verify`` (exit 1, naming the kind and the position). The store's own tests
  (tests/test_store.py: ``test_verify_names_*``, ``test_any_single_payload_edit_*``,
  ``test_any_deletion_or_swap_is_found``, ``test_second_process_gets_ledger_busy_*``) cover
  every variant of these at the store level; here it is the command on an imported file.

The process killed, the processes refused beside a writer and the one that waits for it are
real processes; the commands before and after them (``init``, ``verify``, an import run
again, ``replay``) run in this process as the console script runs them
(:func:`tests.console_run.handledger`), as does ``verify`` on all but one tampered file.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from bench.kills import descendants
from engine.games import PHH_CODES
from ledger.formats.jsonl import read_jsonl, write_jsonl
from ledger.model.events import event_json
from replay.demo.randomhand import random_hand
from tests.console_run import handledger

EXE = str(Path(sys.executable).with_name("handledger"))
FILES, HANDS_PER_FILE = 64, 12


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """FILES JSON-lines files of HANDS_PER_FILE random legal hands each (every PHH variant)."""
    out = tmp_path_factory.mktemp("hands")
    rng = random.Random(88)
    for f in range(FILES):
        rows = []
        for h in range(HANDS_PER_FILE):
            ident = f"f{f:02d}-{h:02d}"
            hand = random_hand(rng, PHH_CODES[(f + h) % len(PHH_CODES)], hand_id=ident)
            rows.extend((ident, seq, e) for seq, e in enumerate(hand.events, 1))
        (out / f"f{f:02d}.jsonl").write_text(write_jsonl(rows), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def big_folder(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder three times over, under other hand ids (a longer import)."""
    out = tmp_path_factory.mktemp("big")
    for copy in "fgh":
        for path in folder.glob("*.jsonl"):
            text = re.sub(r'"f(\d\d-)', rf'"{copy}\1', path.read_text(encoding="utf-8"))
            (out / f"{copy}{path.name[1:]}").write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def source(folder: Path) -> dict[str, list[str]]:
    """{hand: [canonical payload, …]} of every hand in the folder (read once: never
    changed by a test)."""
    out = {}
    for path in sorted(folder.glob("*.jsonl")):
        for stream in read_jsonl(path).check().hands:
            out[stream.id] = [event_json(e) for e in stream.events]
    return out


def _stored(db: Path) -> dict[str, list[str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT stream, seq, CAST(payload AS VARCHAR) FROM events"
                           " ORDER BY position").fetchall()
    finally:
        con.close()
    out: dict[str, list[str]] = {}
    for stream, seq, payload in rows:
        out.setdefault(stream, []).append(payload)
        assert len(out[stream]) == seq, f"{stream}: seq {seq} out of order"
    return out


def _handledger(db: Path, *args: str) -> subprocess.CompletedProcess:
    """``handledger --db DB ARGS`` as a real process."""
    return subprocess.run([EXE, "--db", str(db), *args], capture_output=True, text=True,
                          timeout=300)


def _ok(db: Path, *args: str) -> str:
    """The command run in this process, asserted to exit 0: its stdout."""
    code, out, err = handledger(db, *args)
    assert code == 0, (args, code, out, err)
    return out


def _wait_for_commits(db: Path, proc: subprocess.Popen, size: int) -> None:
    """Until the importer has committed some files: its write-ahead log (absent after
    ``init``, about 100 kB a file here) has ``size`` bytes."""
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if wal.exists() and wal.stat().st_size >= size:
            return
        time.sleep(0.01)


def test_kill_9_mid_import_leaves_whole_hands_and_a_rerun_completes(
        folder: Path, source: dict[str, list[str]], tmp_path: Path) -> None:
    """Killed once about 3 MB of the write-ahead log are written (some files committed, one
    being written), or at the first commit when that misses the middle."""
    for attempt in range(4):  # on a loaded machine a kill may miss the middle: try again
        db = tmp_path / f"k{attempt}.duckdb"
        _ok(db, "init")  # the log is empty until hands commit
        proc = subprocess.Popen([EXE, "--db", str(db), "import", str(folder)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _wait_for_commits(db, proc, 3_000_000 if attempt < 2 else 1)
        if proc.poll() is not None:
            continue  # it ended before it could be killed
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _ok(db, "verify").startswith("ok: ")
        stored = _stored(db)
        if 0 < len(stored) < len(source):
            break
    else:
        pytest.fail("no kill landed in the middle of the import in 4 tries: make it bigger")
    for hand, payloads in stored.items():
        assert payloads == source[hand], f"hand {hand} is not whole after kill -9"
    assert len(stored) % HANDS_PER_FILE == 0  # whole files: one transaction each

    again = _ok(db, "import", str(folder))
    assert f"{len(source) - len(stored)} hand(s)" in again
    assert f"{len(stored)} already in the ledger" in again
    assert _stored(db) == source  # every hand once, whole, nothing twice
    _ok(db, "verify")
    code, replayed, _ = handledger(db, "replay", "--json")
    assert code in (0, 1) and len(replayed.splitlines()) == len(source)


def test_kill_9_mid_parallel_import_leaves_the_files_before_and_no_half_file(
        folder: Path, big_folder: Path, tmp_path: Path) -> None:
    """``import --jobs 2`` of a large JSON-lines file (workers read and check its parts while
    the importer appends them, one transaction): killed after the first file committed, the
    ledger holds that file and nothing of the second; a rerun completes both."""
    first = tmp_path / "a.jsonl"
    first.write_text(next(iter(sorted(folder.glob("*.jsonl")))).read_text(encoding="utf-8"))
    second = tmp_path / "b.jsonl"
    second.write_text("".join(p.read_text(encoding="utf-8")
                              for p in sorted(big_folder.glob("*.jsonl"))), encoding="utf-8")
    want_first = _source_file(first)
    db = tmp_path / "p.duckdb"
    _ok(db, "init")
    proc = subprocess.Popen([EXE, "--db", str(db), "import", "--jobs", "2", str(first),
                             str(second)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _wait_for_commits(db, proc, 1)  # the first file is in
    # The second is being read by the workers and appended: kill once they are seen (how soon
    # after the first commit depends on the machine; a fixed wait missed them on a fast one).
    helpers: set[int] = set()
    deadline = time.monotonic() + 60
    while proc.poll() is None and len(helpers) < 3 and time.monotonic() < deadline:
        helpers = descendants(proc.pid)
        time.sleep(0.01)
    assert proc.poll() is None, "the import ended before it could be killed: make it bigger"
    assert len(helpers) >= 3  # the workers' forkserver and two workers (and its tracker)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 20
    while helpers & descendants(1) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not helpers & descendants(1), "worker processes outlived the killed import"
    _ok(db, "verify")
    assert _stored(db) == want_first
    again = _ok(db, "import", "--jobs", "2", str(first), str(second))
    whole = {**want_first, **_source_file(second)}
    assert f"{len(whole) - len(want_first)} hand(s)" in again
    assert _stored(db) == whole
    _ok(db, "verify")


def _source_file(path: Path) -> dict[str, list[str]]:
    return {s.id: [event_json(e) for e in s.events] for s in read_jsonl(path).check().hands}


def test_a_second_writer_is_told_the_ledger_is_busy_and_nothing_is_lost(
        folder: Path, source: dict[str, list[str]], tmp_path: Path) -> None:
    """While an import of 64 files (a transaction each) runs, an import, a session opened and
    a verify with ``--no-wait`` are refused in one line; an import that waits goes in after."""
    db = tmp_path / "b.duckdb"
    _ok(db, "init")
    other = tmp_path / "other.jsonl"
    hand = random_hand(random.Random(5), "NT", hand_id="other")
    other.write_text(write_jsonl(("other", s, e) for s, e in enumerate(hand.events, 1)))

    proc = subprocess.Popen([EXE, "--db", str(db), "import", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_commits(db, proc, 1)
    probes = [subprocess.Popen([EXE, "--db", str(db), "--no-wait", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for args in (("import", str(other)), ("session", "open", "late"), ("verify",))]
    results = [(p.args, *p.communicate(timeout=120), p.returncode) for p in probes]
    assert proc.poll() is None, "the import ended before the other processes were refused"
    for args, _, err, returncode in results:
        assert returncode == 2, (args, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "is busy" in lines[0] and str(db) in lines[0], (args, lines)
    # --wait 300: the import outlasts the default 30 s on a loaded machine (tests/test_waiting.py)
    waiting = subprocess.Popen([EXE, "--db", str(db), "--wait", "300", "import", str(other)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    out, err = waiting.communicate(timeout=300)  # without --no-wait: after the import
    assert waiting.returncode == 0, err
    assert _stored(db) == {**source, **_source_file(other)}  # the import lost nothing
    _ok(db, "verify")
    assert "imported 0 hand(s)" in _ok(db, "import", str(other))


@pytest.fixture(scope="module")
def imported(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four of the files imported; ``verify`` passes on it (the control for the tampered
    copies: each test changes only its own copy)."""
    db = tmp_path_factory.mktemp("tamper") / "t.duckdb"
    files = sorted(folder.glob("*.jsonl"))[:4]
    _ok(db, "import", *map(str, files))
    assert _ok(db, "verify").startswith("ok: ")
    return db


def _tampered(imported: Path, tmp_path: Path, sql: list[str]) -> Path:
    db = tmp_path / "t.duckdb"
    db.write_bytes(imported.read_bytes())
    con = duckdb.connect(str(db))
    for statement in sql:
        con.execute(statement)
    con.close()
    return db


COPY = ("INSERT INTO events SELECT {pos}, stream, hand_id, session, seq + 1000, type,"
        " schema_version, payload, recorded_at, source_key, prev_hash, hash FROM events"
        " WHERE position = {src}")


@pytest.mark.parametrize(("kind", "sql", "first_bad", "process"), [
    ("edited", ["UPDATE events SET payload = replace(CAST(payload AS VARCHAR), '\"to\":', "
                "'\"to\":1') WHERE position = (SELECT min(position) FROM events"
                " WHERE type = 'bet_raise' AND position > 300)"], None, False),
    # one file is verified by a real process: the console script's exit 1 and stdout
    ("deleted", ["DELETE FROM events WHERE position = 250"], 250, True),
    ("inserted", ["UPDATE events SET position = position + 1 WHERE position >= 400",
                  COPY.format(pos=400, src=120)], None, False),
    ("reordered", ["UPDATE events SET position = -1 WHERE position = 500",
                   "UPDATE events SET position = 500 WHERE position = 501",
                   "UPDATE events SET position = 501 WHERE position = -1"], 500, False),
])
def test_verify_catches_tampering_of_an_imported_ledger(
        imported: Path, tmp_path: Path, kind: str, sql: list[str], first_bad: int | None,
        process: bool) -> None:
    """``imported`` verifies (its fixture asserts it); its tampered copy does not."""
    db = _tampered(imported, tmp_path, sql)
    if process:
        done = _handledger(db, "verify")
        code, out, err = done.returncode, done.stdout, done.stderr
    else:  # in this process a traceback would raise here
        code, out, err = handledger(db, "verify")
    assert code == 1, (code, out, err)
    assert f": {kind}: " in out, out
    if first_bad is not None:
        assert out.startswith(f"broken at position {first_bad}:"), out
    assert "Traceback" not in err


def test_the_faults_leave_json_readable_replays(imported: Path, tmp_path: Path) -> None:
    """The untampered ledger replays every hand (a control for the tests above); on a copy,
    as ``replay`` saves the derived tables."""
    from tests.copies import copy_ledger

    code, out, _ = handledger(copy_ledger(imported, tmp_path / "r.duckdb"), "replay", "--json")
    assert code in (0, 1)
    assert all(json.loads(line)["hand"] for line in out.splitlines())
