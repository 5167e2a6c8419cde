"""The fast import paths keep the import's meaning.

``ledger.formats.jsonl`` reads most lines on a fast path (``_Reader.feed_fast``) and falls back to
the exact path (``json.loads`` with the duplicate-key hook) on anything unusual; these tests read
the same bytes both ways and require the same hands, sessions, events and errors. The store
inserts many rows as numpy columns; the rows must be the same as through the appender, and a
failure must still roll back everything.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import ledger.formats.jsonl.lines as jsonl
import ledger.store.chain as chain
import ledger.store.store as store
from ledger.formats.jsonl import read_jsonl_text, write_jsonl
from ledger.model.errors import DuplicateEvent
from ledger.store.store import Ledger
from replay.demo.randomhand import random_hand
from replay.ingest.hand_checks import read_batches
from replay.ingest.pipeline import import_paths
from tests.test_store_versions import v1_ledger


def _hand_rows(hand_id: str, seed: int, game: str = "NT") -> list[tuple[str, int, Any]]:
    hand = random_hand(random.Random(seed), game, hand_id=hand_id)
    return [(hand_id, seq, event) for seq, event in enumerate(hand.events, 1)]


def _text(hands: int = 4, prefix: str = "h") -> str:
    rows: list[tuple[str, int, Any]] = []
    for k in range(hands):
        rows += _hand_rows(f"{prefix}{k}", k, ("NT", "FO/8", "F7S", "F2L3D")[k % 4])
    return write_jsonl(rows)


def _exact_only(monkeypatch: pytest.MonkeyPatch, data: bytes) -> jsonl.JsonlFile:
    with monkeypatch.context() as patch:
        patch.setattr(jsonl._Reader, "feed_fast", lambda self, number, line: False)
        return read_jsonl_text(data, file="f.jsonl")


def _shape(result: jsonl.JsonlFile) -> tuple[list[Any], list[str]]:
    streams = [(s.kind, s.id, s.line, [(r.seq, r.event, r.line) for r in s.rows])
               for s in result.hands + result.sessions]
    return streams, [str(e) for e in result.errors]


def _both(monkeypatch: pytest.MonkeyPatch, data: bytes) -> jsonl.JsonlFile:
    """Read ``data`` on the fast path and on the exact path; they must agree."""
    fast = read_jsonl_text(data, file="f.jsonl")
    assert _shape(fast) == _shape(_exact_only(monkeypatch, data))
    return fast


def test_canonical_file_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _text(8)
    result = _both(monkeypatch, text.encode())
    assert result.errors == [] and len(result.hands) == 8
    assert write_jsonl(result.rows()) == text


def test_equal_event_texts_share_one_frozen_event() -> None:
    line = '{"hand":"h","seq":%d,"event":{"player":"p1","schema_version":1,"type":"fold"}}'
    reader = jsonl._Reader("f")

    def envelope(seq: int) -> tuple[Any, ...] | None:
        match = jsonl._ENVELOPE_RE.match((line % seq).encode())
        assert match is not None
        return reader._envelope(match)

    assert envelope(2) is not None
    assert envelope(3)[3] is envelope(2)[3]
    assert len(reader.events) == 1


def test_interleaved_streams_and_a_gap_read_the_same_both_ways(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A line of the stream of the line before is taken without looking its stream up again
    (feed_fast): interleaved hands, a seq that skips one after the stream changed back and a
    stream whose bad line came before read as on the exact path."""
    h0, h1 = _text(2).splitlines()[:4], _hand_rows("h1", 1)
    rows = write_jsonl(h1).splitlines()
    lines = [h0[0], rows[0], h0[1], h0[3], rows[1], rows[2], h0[2]]
    result = _both(monkeypatch, ("\n".join(lines) + "\n").encode())
    assert [s.id for s in result.hands] == ["h1"] and result.errors[0].line == 4
    assert [r.seq for r in result.hands[0].rows] == [1, 2, 3]


# Each edit of hand h0's second line (a forced bet, or whatever it is) must give the same
# outcome on both paths: the same rows when the line is still good, the same error otherwise.
EDITS = [
    ("spaces after colons", lambda s: s.replace('":', '": ')),
    ("spaces before colons", lambda s: s.replace('":', '" :')),
    ("tab and CR", lambda s: s.replace(',"seq"', ',\t"seq"') + "\r"),
    ("keys reordered", lambda s: '{"seq":2,' + s.replace(',"seq":2', "", 1)[1:]),
    ("escaped key", lambda s: s.replace('"type"', '"\\u0074ype"')),
    ("escaped id", lambda s: s.replace('"hand":"h0"', '"hand":"\\u00680"')),
    ("duplicate row key", lambda s: s.replace(',"seq":2,', ',"seq":2,"seq":2,')),
    ("duplicate hand key", lambda s: s.replace('{"hand":"h0",', '{"hand":"h0","hand":"h0",')),
    ("duplicate event key", lambda s: s.replace('"schema_version":1', '"schema_version":1,'
                                                '"schema_version":1')),
    ("duplicate, other value", lambda s: s.replace('"schema_version":1', '"schema_version":2,'
                                                   '"schema_version":1')),
    ("colon in a string", lambda s: s.replace('"type"', '"x\\":":1,"type"')),
    ("NaN", lambda s: s.replace('"schema_version":1', '"schema_version":NaN')),
    ("Infinity", lambda s: s.replace('"schema_version":1', '"schema_version":Infinity')),
    ("lone surrogate", lambda s: s.replace('"hand":"h0"', '"hand":"h\\ud8000"')),
    ("control character", lambda s: s.replace('"hand":"h0"', '"hand":"h\x010"')),
    ("seq as float", lambda s: s.replace('"seq":2', '"seq":2.0')),
    ("seq as string", lambda s: s.replace('"seq":2', '"seq":"2"')),
    ("seq with leading zero", lambda s: s.replace('"seq":2', '"seq":02')),
    ("null id", lambda s: s.replace('"hand":"h0"', '"hand":null')),
    ("both kinds", lambda s: s.replace('"hand":"h0"', '"hand":"h0","session":"s"')),
    ("trailing data", lambda s: s + "{}"),
    ("two objects", lambda s: s + "," + s),
    ("extra brace", lambda s: s[:-1] + "}}"),
    ("BOM", lambda s: "\ufeff" + s),
]


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[name for name, _ in EDITS])
def test_edited_lines_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch, name: str,
                                              edit: Any) -> None:
    lines = _text(2).splitlines()
    assert lines[1].startswith('{"hand":"h0","seq":2,"event":')
    lines[1] = edit(lines[1])
    _both(monkeypatch, ("\n".join(lines) + "\n").encode())


@pytest.mark.parametrize("where", ["row", "event", "seat", "options"])
def test_a_duplicated_key_is_always_rejected(monkeypatch: pytest.MonkeyPatch,
                                             where: str) -> None:
    lines = _text(1).splitlines()
    first = lines[0]
    assert '"seats":[{"player":' in first and '"split":{' in first
    edit = {
        "row": ('"seq":1,', '"seq":1,"seq":1,'),
        "event": ('"game":', '"button":null,"game":') if '"button":null' in first
        else ('"schema_version":1,', '"schema_version":1,"schema_version":1,'),
        "seat": ('"seats":[{"player":', '"seats":[{"stack":1,"player":'),
        "options": ('"split":{', '"split":{"low_method":"A-5",'),
    }[where]
    lines[0] = first.replace(*edit, 1)
    assert lines[0] != first
    result = _both(monkeypatch, ("\n".join(lines) + "\n").encode())
    assert result.hands == []
    assert result.errors[0].line == 1 and "duplicate keys" in result.errors[0].message


def test_source_key_is_the_sha256_of_the_events_json(tmp_path: Path) -> None:
    """The source key formula is unchanged, so files imported before stay known."""
    path = tmp_path / "k.jsonl"
    path.write_text(_text(3) + _text(3, "g"))
    batches, errors = read_batches(path)
    assert errors == [] and len(batches) == 6
    for batch in batches:
        text = "\n".join(e.model_dump_json() for e in batch.events)
        assert batch.source_key == "jsonl:" + hashlib.sha256(text.encode()).hexdigest(), \
            batch.stream


def _rows(ledger: Ledger) -> list[tuple]:
    return ledger.connection.execute(
        f"SELECT {store.COLUMNS} FROM events ORDER BY position").fetchall()


def test_bulk_insert_stores_the_same_rows_as_the_appender(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(_text(6))
    batches, _ = read_batches(path)
    stored = []
    for bulk in (10**9, 0):
        monkeypatch.setattr(store, "_BULK", bulk)
        with Ledger(tmp_path / f"{bulk}.duckdb") as ledger:
            ledger.append_many(batches)
            assert ledger.verify().ok
            stored.append([row[:8] + row[9:10] for row in _rows(ledger)])  # all but time, hashes
    assert stored[0] == stored[1] and len(stored[0]) == sum(len(b[1]) for b in batches)


def test_bulk_insert_collision_rolls_back_everything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row that collides in the second chunk of a bulk insert into a ledger with keys
    (store version 1; a new ledger has none, and its writer numbers the rows): a
    DuplicateEvent (not the aborted transaction's error), and nothing of the append is
    left."""
    monkeypatch.setattr(store, "_BULK", 0)
    monkeypatch.setattr(store, "_FLUSH", 5)  # the collision comes after a first chunk is in
    path = tmp_path / "c.jsonl"
    path.write_text(_text(3))
    batches, _ = read_batches(path)
    real = chain.link_rows

    def repeat_a_position(*args: Any, **kwargs: Any) -> list:
        rows = real(*args, **kwargs)
        return [*rows[:-1], (rows[0][0], *rows[-1][1:])]

    with v1_ledger(tmp_path / "c.duckdb") as ledger:
        ledger.append_many(batches[:1])
        before = _rows(ledger)
        monkeypatch.setattr(chain, "link_rows", repeat_a_position)
        first = ledger.head()[0] + 1  # the append's first row, repeated by its last
        with pytest.raises(DuplicateEvent, match=f"already holds a row at position {first} "
                                                 "where this write would put one"):
            ledger.append_many(batches[1:])
        assert _rows(ledger) == before and ledger.verify().ok


def test_import_is_whole_hands_and_never_twice(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad hand is refused naming file, line, hand and action; the rest is written in one
    go (through the bulk insert); importing the file again adds nothing."""
    monkeypatch.setattr(store, "_BULK", 0)
    lines = _text(3).splitlines()
    bad = next(i for i, line in enumerate(lines)
               if line.startswith('{"hand":"h1"') and '"type":"fold"' in line)
    lines[bad] = lines[bad].replace('"type":"fold"', '"type":"check"')
    path = tmp_path / "w.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with Ledger(tmp_path / "w.duckdb") as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None)
        assert report.imported == 2 and len(report.errors) == 1
        assert report.errors[0].startswith(f"{path}:{bad + 1}, hand h1, action 'check by ")
        assert ledger.streams(kind="hand") == ["h0", "h2"]
        count = ledger.count()
        again = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None)
        assert (again.imported, again.known, ledger.count()) == (0, 2, count)
        assert ledger.verify().ok


def _stored(ledger: Ledger) -> list[tuple]:
    """Every row but its time and hashes (which depend on the time)."""
    return [row[:8] + row[9:10] for row in _rows(ledger)]


@pytest.mark.parametrize("strict", [False, True])
def test_jobs_give_the_same_import_as_one_process(tmp_path: Path, strict: bool) -> None:
    """``--jobs 2``: a worker checks the hands while this process appends them. A good file
    is committed as is; a file with illegal hands is rolled back and written without them;
    the report (errors in file order) and the rows are those of one process."""
    good = tmp_path / "good.jsonl"
    good.write_text(_text(6))
    lines = _text(8, "b").splitlines()
    folds = [i for i, line in enumerate(lines) if '"type":"fold"' in line]
    victims = sorted({json.loads(lines[i])["hand"] for i in folds} - {"b0"})[:2]
    for hand in victims:  # a fold made a check: illegal facing a bet
        bad = next(i for i in folds if json.loads(lines[i])["hand"] == hand)
        lines[bad] = lines[bad].replace('"type":"fold"', '"type":"check"')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    outcomes = []
    for jobs in (1, 2):
        with Ledger(tmp_path / f"j{jobs}.duckdb") as ledger:
            report = import_paths(ledger, [good, broken], strict=strict, session=None,
                                  pn_ledger=None, jobs=jobs)
            outcomes.append((report, _stored(ledger)))
            assert ledger.verify().ok
    (one, rows_one), (two, rows_two) = outcomes
    assert two == one and rows_two == rows_one
    if strict:  # one line: the first illegal hand, how many more, none of the file's 8 hands
        [line] = one.errors
        assert line.split(",")[1] == f" hand {victims[0]}"
        assert line.endswith(" (and 1 more error(s) in the file); --strict: nothing of this "
                             "file was written")
        assert one.summary().endswith("; 2 rejected; 6 other hand(s) not written, their file "
                                      "refused")
    else:
        assert [e.split(",")[1] for e in one.errors] == [f" hand {h}" for h in victims]
    assert one.imported == (6 if strict else 12)



def test_mutated_files_read_the_same_both_ways(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The hardening suite's random mutations of JSON-lines files (numbers, cards, players,
    line order, fields, truncation, garbage, encodings): the fast and the exact path agree on
    every one of them."""
    from tests.test_hardening import mutated_files

    files = [path for path, _ in mutated_files(400, 3, tmp_path) if path.suffix == ".jsonl"]
    assert len(files) == 200
    for path in files:
        _both(monkeypatch, path.read_bytes())
