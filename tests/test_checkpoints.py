"""Checkpoints held outside the ledger: ``checkpoint``, ``verify --against``, signed checkpoints,
on real DuckDB files tampered with through DuckDB directly.

The ledger: ``data/hands`` (5 hands, rows 1-160) then ``data/series`` (3 sessions, rows
161-3696); row 1534 is a payout of 48 to Carol in hand s02-011 (seq 37).
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.store.chain import GENESIS
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.ledger_files import edit_payload, head, rewrite, stored
from tests.test_store import hand

PAYOUT = 1534
SEALED = ("derived tables FAIL their own check: the ledger's rows up to"
          " the tables' head are not those they were built from")
CHAT = re.compile(
    r"handledger checkpoint (\S+) (\d+):([0-9a-f]{24}) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the ledger after data/hands, the ledger after data/hands and data/series)."""
    from cli.main import cli

    root = tmp_path_factory.mktemp("ledgers")
    small, full = root / "small.duckdb", root / "full.duckdb"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(small), "import", str(DATA / "hands")]).exit_code == 0
    shutil.copy(small, full)
    assert runner.invoke(cli, ["--db", str(full), "import", str(DATA / "series")]).exit_code == 0
    return small, full


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "keys"
    monkeypatch.setenv("HANDLEDGER_KEYS", str(directory))
    return directory


@pytest.fixture
def db(tmp_path: Path, template: tuple[Path, Path], keys: Path) -> str:
    """A fresh copy of the full ledger, as friday.duckdb."""
    path = tmp_path / "friday.duckdb"
    shutil.copy(template[1], path)
    return str(path)


def _built(folder: Path, template: Path, *commands: tuple[str, ...]) -> Path:
    """A copy of ``template`` as ``folder``/friday.duckdb with ``commands`` run on it, each
    as ``run`` runs it (in the environment of the caller)."""
    from cli.main import cli

    path = folder / "friday.duckdb"
    shutil.copy(template, path)
    for args in commands:
        out = CliRunner().invoke(cli, ["--db", str(path), *args], catch_exceptions=False)
        assert out.exit_code == 0, (args, out.output)
    return path


@pytest.fixture(scope="module")
def checkpointed(tmp_path_factory: pytest.TempPathFactory, template: tuple[Path, Path]) -> Path:
    """The full ledger, as friday.duckdb, after one ``checkpoint``; built once for the module."""
    return _built(tmp_path_factory.mktemp("checkpointed"), template[1], ("checkpoint",))


@pytest.fixture(scope="module")
def extended(tmp_path_factory: pytest.TempPathFactory, template: tuple[Path, Path]) -> Path:
    """The ledger after data/hands, as friday.duckdb: ``checkpoint``, then data/series
    imported, then ``checkpoint`` again; built once for the module. The full ledger is
    data/series imported into a copy of the one after data/hands (``template``), so it is
    put in place of the file rather than imported a second time."""
    folder = tmp_path_factory.mktemp("extended")
    _built(folder, template[0], ("checkpoint",))
    assert not (folder / "friday.duckdb.wal").exists()
    # the rows 1-160 it checkpointed, then data/series's; its checkpoints file kept
    return _built(folder, template[1], ("checkpoint",))


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory, template: tuple[Path, Path]
           ) -> tuple[Path, Path, str]:
    """The full ledger, as friday.duckdb, after ``key new ann`` and ``checkpoint --sign ann``;
    built once for the module: the ledger, the keys directory and the line the checkpoint
    printed."""
    from cli.main import cli

    folder = tmp_path_factory.mktemp("signed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDLEDGER_KEYS", str(folder / "keys"))
        path = _built(folder, template[1], ("key", "new", "ann"))
        said = CliRunner().invoke(cli, ["--db", str(path), "checkpoint", "--sign", "ann"],
                                  catch_exceptions=False)
    assert said.exit_code == 0, said.output
    return path, folder / "keys", said.output


@pytest.fixture(scope="module")
def declared(tmp_path_factory: pytest.TempPathFactory, template: tuple[Path, Path]) -> Path:
    """The full ledger, as friday.duckdb, after ``checkpoint -o one.jsonl`` (beside it) and
    data/declare imported; built once for the module."""
    folder = tmp_path_factory.mktemp("declared")
    return _built(folder, template[1], ("checkpoint", "-o", str(folder / "one.jsonl")),
                  ("import", str(DATA / "declare")))


def _books_dropped(db: str) -> None:
    """The derived tables' record of what they were built from dropped, as a forger who
    rewrote rows would: ``verify`` then has no books to compare (every read rebuilds them)."""
    import duckdb

    with duckdb.connect(db) as con:
        con.execute("DROP TABLE derived_state")


def test_verify_prints_the_head_it_verified(run, db: str) -> None:
    result = run("verify")
    position, digest = head(db)
    assert (position, len(digest)) == (3696, 64)
    assert result.exit_code == 0
    assert result.output == (f"ok: 3696 events, hash chain intact, head 3696:{digest}\n"
                             "derived tables: as the events' replay gives them (732 rows)\n")


def test_checkpoint_prints_one_line_and_appends_a_record(run, db: str, template) -> None:
    small = Path(db).with_name("early.duckdb")
    shutil.copy(template[0], small)
    result = run("checkpoint")
    assert result.exit_code == 0
    match = CHAT.fullmatch(result.output.strip())
    position, digest = head(db)
    assert match and match.group(1, 2, 3) == ("friday", "3696", digest[:24])
    [record] = [json.loads(line) for line in Path(f"{db}.checkpoints").read_text().splitlines()]
    assert (record["ledger"], record["position"], record["hash"]) == ("friday", 3696, digest)
    assert record["at"] == match.group(4) and record["marks_from"] == 1
    marks = base64.b64decode(record["marks"])
    assert marks == b"".join(bytes.fromhex(r[11][:8]) for r in stored(db))
    again = run("checkpoint", "--json")
    second = json.loads(again.output)
    assert (second["marks_from"], second["marks"]) == (3697, "")  # nothing new since
    other = Path(db).with_name("other.jsonl")
    assert run("checkpoint", "-o", str(other)).exit_code == 0
    assert len(other.read_text().splitlines()) == 1
    assert len(Path(f"{db}.checkpoints").read_text().splitlines()) == 2
    void = run("checkpoint", "-o", "/dev/null")  # a character device: written, not synced
    assert void.exit_code == 0 and CHAT.fullmatch(void.output.strip())
    assert len(Path(f"{db}.checkpoints").read_text().splitlines()) == 2


def test_the_next_checkpoint_marks_only_the_rows_since(run, db: str, extended: Path) -> None:
    copy_ledger(extended, Path(db))
    first, second = map(json.loads, Path(f"{db}.checkpoints").read_text().splitlines())
    assert (first["position"], first["marks_from"]) == (160, 1)
    assert (second["position"], second["marks_from"]) == (3696, 161)
    assert len(base64.b64decode(second["marks"])) == 4 * (3696 - 160)


def _only_the_file_tells(run, db: str) -> None:  # noqa: ANN001
    """Plain ``verify`` fails on the checkpoints file beside the ledger alone (its last line:
    the file's checkpoint the ledger no longer extends); moved away, as whoever can write
    the ledger can move it, ``verify`` passes: only a checkpoint kept elsewhere tells."""
    plain = run("verify")
    last = plain.output.splitlines()[-1]
    assert plain.exit_code == 1
    assert last.startswith(f"checkpoints {Path(db).name}.checkpoints: ") and " FAIL: " in last
    aside = Path(f"{db}.aside")
    Path(f"{db}.checkpoints").rename(aside)
    assert run("verify").exit_code == 0
    aside.rename(f"{db}.checkpoints")


def test_a_consistent_rewrite_passes_verify_but_not_the_checkpoint(
    run, db: str, checkpointed: Path
) -> None:
    copy_ledger(checkpointed, Path(db))
    before = head(db)
    edit_payload(db, PAYOUT, '"amount":48', '"amount":58')
    assert head(db)[0] == before[0] and head(db)[1] != before[1]
    plain = run("verify")  # the chain holds; the derived tables were built from the old rows
    assert plain.exit_code == 1 and plain.output.startswith("ok: 3696 events")
    assert SEALED in plain.output
    assert "derived table results differs from the events' replay at the row hand_id " \
        "'s02-011', session 's02', player 'Carol': recorded 52 stored, 62 by the replay" \
        in plain.output
    _books_dropped(db)  # a forger who also drops them: the chain alone cannot tell
    _only_the_file_tells(run, db)
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines.pop(1) == ("derived tables not checked: the derived tables were never built: "
                            "every read replays the ledger")
    assert lines[0].startswith("ok: 3696 events")
    assert lines[1].startswith(f"checkpoint {db}.checkpoints:1 friday 3696:{before[1][:16]}")
    assert "FAILS: row 3696 hashes" in lines[1]
    assert lines[2] == "the ledger parts from its checkpoints at position 1534 (s02-011 seq 37)"
    pasted = run("verify", "--against", f"3696:{before[1]}")  # its record beside marks the row
    assert pasted.exit_code == 1
    assert pasted.output.splitlines()[-1] == (
        "the ledger parts from its checkpoints at position 1534 (s02-011 seq 37)")


def test_the_checkpoint_before_the_rewrite_still_holds(run, db: str, extended: Path) -> None:
    copy_ledger(extended, Path(db))
    edit_payload(db, PAYOUT, '"amount":48', '"amount":58')
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    first, second, parts = [line for line in result.output.splitlines()[1:]
                            if not line.startswith("derived tables")]
    assert first.endswith(": ok: extended") and ":1 friday 160:" in first
    assert ":2 friday 3696:" in second and ": FAILS: " in second
    assert parts == "the ledger parts from its checkpoints at position 1534 (s02-011 seq 37)"


def test_an_older_copy_put_back_is_a_rollback(run, db: str, tmp_path: Path,
                                             declared: Path) -> None:
    old = tmp_path / "old-copy.duckdb"
    shutil.copy(db, old)
    copy_ledger(declared, Path(db))  # data/declare imported
    assert run("checkpoint").exit_code == 0
    grown = head(db)[0]
    shutil.copy(old, db)  # the older copy put back: a sound chain, shorter than the checkpoint
    _only_the_file_tells(run, db)
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    assert f"the ledger ends at position 3696, before {grown}" in result.output
    assert result.output.splitlines()[-1] == (
        f"the ledger parts from its checkpoints after its head (position 3696): checkpoint "
        f"{grown} is beyond it, rows 3697-{grown} missing (an older copy put back, or cut "
        "short)")
    pasted = run("verify", "--against", f"{grown}:{'ab' * 12}")
    assert pasted.exit_code == 1
    assert pasted.output.splitlines()[-1] == (  # no position 3697: the ledger ends at 3696
        f"the ledger parts from its checkpoints between positions 1 and 3696, or after its "
        f"head (position 3696): checkpoint {grown} is beyond it, rows 3697-{grown} missing (an "
        "older copy put back, or cut short) (no record given or beside the ledger marks the "
        "rows between: a pasted line or POS:HASH only bounds it; the records `checkpoint` "
        "appends name the row)")


def test_another_ledger_parts_at_position_1(run, db: str, checkpointed: Path) -> None:
    copy_ledger(checkpointed, Path(db))
    other = Path(db).with_name("other.duckdb")  # one hand: its row 1 is not friday's
    assert run("--db", str(other), "import", str(DATA / "hands" / "plo-three-way.phh")
               ).exit_code == 0
    result = run("--db", str(other), "verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith(
        "the ledger parts from its checkpoints at position 1 (")


def test_a_signed_checkpoint_names_its_signer(run, db: str, keys: Path) -> None:
    made = run("key", "new", "ann")
    assert made.exit_code == 0
    assert oct((keys / "ann.key").stat().st_mode & 0o777) == "0o600"
    public = run("key", "show", "ann").output.strip()
    assert re.fullmatch(r"ed25519:[A-Za-z0-9_-]{43}", public) and public in made.output
    signed = run("checkpoint", "--sign", "ann")
    assert signed.exit_code == 0 and " signed ann " in signed.output
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[2].endswith(": ok: extended; signed by ann")
    chat = Path(db).with_name("chat.txt")
    chat.write_text(f"Ann: {signed.output}")  # the pasted line: a hash prefix, signed
    pasted = run("verify", "--against", str(chat))
    assert pasted.exit_code == 0 and "signed by ann" in pasted.output


@pytest.mark.parametrize("field", ["position", "hash", "at", "signature", "ledger"])
def test_an_altered_signed_checkpoint_fails(run, db: str, field: str, keys: Path,
                                          signed: tuple[Path, Path, str]) -> None:
    copy_ledger(signed[0], Path(db))
    shutil.copytree(signed[1], keys)
    path = Path(f"{db}.checkpoints")
    record = json.loads(path.read_text())
    earlier = stored(db)[3000 - 1]
    record[field] = {  # each change alone; position and hash together make a real head
        "position": 3000, "at": "2026-01-01T00:00:00Z", "ledger": "saturday",
        "hash": earlier[11],
        "signature": ("B" if record["signature"][0] == "A" else "A") + record["signature"][1:],
    }[field]
    if field == "position":
        record["hash"] = earlier[11]
        del record["marks"], record["marks_from"]
    path.write_text(json.dumps(record) + "\n")
    result = run("verify", "--against", str(path))
    assert result.exit_code == 1
    assert ": FAILS: " in result.output
    assert "does not verify with key 'ann': altered" in result.output


def test_an_unknown_key_is_said_and_a_false_name_fails(
        run, db: str, tmp_path: Path, keys: Path, signed: tuple[Path, Path, str]) -> None:
    copy_ledger(signed[0], Path(db))  # key new ann, checkpoint --sign ann
    shutil.copytree(signed[1], keys)
    fingerprint = signed[2].strip().split(" signed ann ")[1][:12]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # a key directory without ann's key
    result = run("verify", "--against", f"{db}.checkpoints", "--keys", str(elsewhere))
    assert result.exit_code == 0
    assert f"signed by an unknown key {fingerprint} (as 'ann')" in result.output
    assert run("key", "new", "ann", "--keys", str(elsewhere)).exit_code == 0  # another ann
    result = run("verify", "--against", f"{db}.checkpoints", "--keys", str(elsewhere))
    assert result.exit_code == 1
    assert (f"FAILS: the ledger extends its head, but signed as 'ann' with key {fingerprint}, "
            "not with the key 'ann' has here") in result.output
    position = signed[2].split()[3].split(":")[0]
    result = run("verify", "--keys", str(elsewhere))  # the ledger's own checkpoints file
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (  # nowhere to part: the hint is the key's
        f"checkpoints {Path(db).name}.checkpoints: 1, 1 FAIL: {position} (line 1): the ledger "
        f"extends its head, but signed as 'ann' with key {fingerprint}, not with the key "
        "'ann' has here (the key directory holds another key as 'ann': `handledger key list` "
        "shows its fingerprint, `handledger key show ann` its public key)")
    public = run("key", "show", "ann").output.strip()
    assert run("key", "add", "annie", public, "--keys", str(elsewhere)).exit_code == 0
    listed = run("key", "list", "--keys", str(elsewhere)).output.splitlines()
    assert [line.split()[0::2] for line in listed] == [["ann", "private"], ["annie", "public"]]
    result = run("verify", "--against", f"{db}.checkpoints", "--keys", str(elsewhere))
    assert result.exit_code == 1 and ("but signed as 'ann' with the key named 'annie' here: a "
                                      "checkpoint names its signer by its key's name") \
        in result.output


def test_bad_checkpoint_input_is_one_line_and_exit_2(run, db: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")  # chat around pasted lines is passed over: none here
    cases = {
        str(bad): f"{bad}: holds no checkpoint",
        "12:xyz": "'12:xyz' is not POS:HASH (a position above 0, ':' and at least 16 "
                  "lowercase hex digits of its hash) and no file has that name",
        "25:1ad8890b": "'25:1ad8890b' is not POS:HASH",
        str(tmp_path): "cannot read checkpoints",
    }
    for spec, said in cases.items():
        result = run("verify", "--against", spec)
        assert result.exit_code == 2 and said in result.output, result.output
        # the argument is read before the chain is walked: the error alone, no "ok: ..."
        # verdict of a check that was not made
        (line,) = result.output.splitlines()
        assert line.startswith("error: "), result.output
    bad.write_bytes(b"\xff\xfe\n")
    assert "not UTF-8 text" in run("verify", "--against", str(bad)).output
    bad.write_text('{"ledger": "x", "position": 3, "hash": "' + "a" * 64 + '", "evil": 1}\n')
    assert "unknown fields" in run("verify", "--against", str(bad)).output
    for deep, said in (("[" * 50_000, f"{bad}: holds no checkpoint"),
                       ('{"a":' * 50_000, f"{bad}:1: ")):
        bad.write_text(deep + "\n")
        result = run("verify", "--against", str(bad))
        assert result.exit_code == 2 and said in result.output


def test_session_close_takes_a_checkpoint(run, db: str) -> None:
    assert run("session", "open", "late", "--date", "2026-11-27").exit_code == 0
    closed = run("session", "close", "late")
    assert closed.exit_code == 0
    said = closed.output.splitlines()
    assert said[0] == "session late closed" and CHAT.fullmatch(said[1])
    [record] = [json.loads(line) for line in Path(f"{db}.checkpoints").read_text().splitlines()]
    assert (record["position"], record["hash"]) == head(db) == (3698, head(db)[1])
    assert run("verify", "--against", f"{db}.checkpoints").exit_code == 0


def test_an_empty_ledger_has_no_checkpoint(run, db: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.duckdb"
    assert run("--db", str(empty), "init").exit_code == 0
    result = run("--db", str(empty), "checkpoint")
    assert result.exit_code == 2 and "empty" in result.output
    assert head(db) != (0, GENESIS)


def test_keys_refuse_bad_names_duplicates_and_open_private_files(run, db: str,
                                                                  keys: Path) -> None:
    assert run("key", "list").output == f"no keys in {keys}\n"
    assert not keys.exists()  # listing creates nothing
    assert run("key", "new", "ann").exit_code == 0
    assert oct(keys.stat().st_mode & 0o777) == "0o700"
    again = run("key", "new", "ann")
    assert again.exit_code == 2 and "already exists" in again.output
    for bad in ("../evil", "", "a b", "x" * 41):
        refused = run("key", "new", bad)
        assert refused.exit_code == 2 and "key name" in refused.output
    public = run("key", "show", "ann").output.strip()
    assert run("key", "add", "ann", public).exit_code == 0  # the same key again: a no-op
    other = run("key", "new", "bob").output.split(": ")[1].strip()
    clash = run("key", "add", "ann", other)
    assert clash.exit_code == 2 and "is another key" in clash.output
    junk = run("key", "add", "cy", "ed25519:short")
    assert junk.exit_code == 2 and "is not a public key" in junk.output
    (keys / "ann.key").chmod(0o640)
    open_key = run("checkpoint", "--sign", "ann")
    assert open_key.exit_code == 2 and "readable by others: chmod 600" in open_key.output
    missing = run("checkpoint", "--sign", "cy")
    assert missing.exit_code == 2 and "no private key 'cy'" in missing.output
    assert not Path(f"{db}.checkpoints").exists()  # nothing written when signing fails


def test_records_of_several_files_together_name_the_row(run, db: str, tmp_path: Path,
                                                         declared: Path) -> None:
    two, both = (tmp_path / f"{n}.jsonl" for n in ("two", "both"))
    copy_ledger(declared, Path(db))  # checkpointed to one.jsonl, then data/declare imported
    one = declared.with_name("one.jsonl")
    assert run("checkpoint", "-o", str(two)).exit_code == 0  # marks from row 1 again
    edit_payload(db, PAYOUT, '"amount":48', '"amount":58')
    both.write_text(two.read_text() + one.read_text())
    result = run("verify", "--against", str(both))
    assert result.exit_code == 1 and result.output.count(": FAILS: ") == 2
    assert result.output.splitlines()[-1] == (
        "the ledger parts from its checkpoints at position 1534 (s02-011 seq 37)")


@pytest.fixture(scope="module")
def chains(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """``chains(n)`` → a folder holding p.duckdb, a ledger of ``n`` hands of 10 rows appended
    through :class:`Ledger`, and p.checkpoints, the checkpoint taken at its end; built once
    for the module (the first time a test asks for it); copy it, never change it."""
    from ledger.store.checkpoint import take
    from ledger.store.store import Ledger

    built: dict[int, Path] = {}

    def chain(hands: int) -> Path:
        if hands not in built:
            folder = tmp_path_factory.mktemp(f"chain{hands}")
            with Ledger(str(folder / "p.duckdb")) as led:
                for i in range(hands):
                    led.append(f"h{i}", hand(f"h{i}"))
                take(led, out=folder / "p.checkpoints")
            built[hands] = folder
        return built[hands]

    return chain


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=st.integers(1, 6), data=st.data())
def test_any_consistent_rewrite_or_rollback_is_located_to_its_row(
    tmp_path_factory: pytest.TempPathFactory, chains, hands: int,  # noqa: ANN001
    data: st.DataObject
) -> None:
    """Hands of 10 rows, checkpointed at the end: rewriting any row p (every later hash and
    the head redone) parts at p; cutting the ledger back to n rows parts at n + 1."""
    from ledger.store.anchor import compare
    from ledger.store.checkpoint import load
    from ledger.store.store import Ledger

    folder = tmp_path_factory.mktemp("prop")
    db, marks = str(folder / "p.duckdb"), folder / "p.checkpoints"
    copy_ledger(chains(hands) / "p.duckdb", Path(db))  # each example rewrites its own copy
    shutil.copyfile(chains(hands) / "p.checkpoints", marks)
    total = 10 * hands
    if data.draw(st.booleans(), label="rewrite"):
        where = data.draw(st.integers(1, total), label="row")
        edit_payload(db, where, "{", "{ ")
        expected = (where, where)
    else:
        kept = data.draw(st.integers(0, total - 1), label="rows kept")
        rewrite(db, stored(db)[:kept], start=1)
        expected = (kept + 1, kept + 1)
    with Ledger(db, read_only=True) as led:
        assert led.verify().ok
        report = compare(led, load(str(marks)), None)
    assert not report.ok and report.parts == expected


def _hands(db: str) -> list[tuple[str, int, int]]:
    """(stream, first, last position) of each hand stream, in ledger order."""
    spans: dict[str, list[int]] = {}
    for r in stored(db):
        if not r[1].startswith("session:"):
            spans.setdefault(r[1], []).append(r[0])
    return [(s, p[0], p[-1]) for s, p in spans.items()]


def test_the_last_hand_deleted_and_the_head_moved_parts_where_it_stood(
    run, db: str, checkpointed: Path
) -> None:
    """Deleting the last hand and setting ``meta``'s head to the new last row passed
    ``verify``; the checkpoint names the hand's first row."""
    copy_ledger(checkpointed, Path(db))
    stream, first, last = _hands(db)[-1]
    rows = stored(db)
    assert last - first + 1 == sum(1 for r in rows if r[1] == stream)  # its rows together
    rewrite(db, [(r[0] - (last - first + 1), *r[1:]) for r in rows[last:]], start=first)
    assert len(stored(db)) == len(rows) - (last - first + 1)
    assert ("derived tables FAIL their own check: the derived tables are not of this ledger"
            in run("verify").output)  # built up to a head the ledger no longer reaches
    _books_dropped(db)
    _only_the_file_tells(run, db)
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    end = len(stored(db))  # the rows after the hand moved down: its last row is not meta's
    assert (f"FAILS: the ledger ends at position {end}, before {len(rows)}, and parts from it "
            f"at row {first} (by its marks): rewritten there, or another ledger"
            ) in result.output.splitlines()[-2]
    assert result.output.splitlines()[-1] == (
        f"the ledger parts from its checkpoints at position {first} ("
        f"{stored(db)[first - 1][1]} seq {stored(db)[first - 1][4]})")


def test_two_hands_swapped_and_relinked_part_at_the_first(run, db: str, checkpointed: Path) -> None:
    copy_ledger(checkpointed, Path(db))
    (a, a1, a2), (b, b1, b2) = _hands(db)[50:52]  # two hands of s02, one after the other
    rows = stored(db)
    assert [r[1] for r in rows[a1 - 1:a2]] == [a] * (a2 - a1 + 1)
    assert [r[1] for r in rows[b1 - 1:b2]] == [b] * (b2 - b1 + 1)
    order = rows[b1 - 1:b2] + rows[a2:b1 - 1] + rows[a1 - 1:a2] + rows[b2:]
    rewrite(db, [(a1 + i, *r[1:]) for i, r in enumerate(order)], start=a1)
    assert sorted(r[7] for r in stored(db)) == sorted(r[7] for r in rows)  # the same rows
    assert SEALED in run("verify").output  # the derived tables were built from the old rows
    _books_dropped(db)
    _only_the_file_tells(run, db)
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith(
        f"the ledger parts from its checkpoints at position {a1} (")


def test_a_forged_payment_appended_is_said_to_be_after_every_checkpoint(
    run, db: str, checkpointed: Path
) -> None:
    """A payment row appended with a right hash extends the chain, so ``verify`` and the
    checkpoints pass (they vouch for the rows up to them); ``verify --against`` says which
    rows none of them vouches for."""
    copy_ledger(checkpointed, Path(db))
    rows = stored(db)
    last = rows[-1]
    seq = max(r[4] for r in rows if r[1] == "session:s01")
    payload = ('{"amount_minor":50000,"payee":"Alice","payer":"Bob","reason":null,'
               '"schema_version":1,"type":"payment"}')
    forged = (last[0] + 1, "session:s01", None, "s01", seq + 1, "payment", 1, payload, last[8],
              None, last[11], "")
    rewrite(db, [forged], start=last[0] + 1)
    assert run("verify").exit_code == 0
    result = run("verify", "--against", f"{db}.checkpoints")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        f"the ledger extends all 1 checkpoint(s); 1 row(s) after the latest ({last[0] + 1}-"
        f"{last[0] + 1}), which none vouches for: 1 entry")


def test_a_hash_that_differs_late_is_shown_past_the_difference(run, db: str) -> None:
    position, real = head(db)
    fake = real[:19] + ("0" if real[19] != "0" else "1") + real[20:]
    result = run("verify", "--against", f"{position}:{fake}")
    assert result.exit_code == 1
    # 16 digits would print the same prefix twice; the line shows four digits past digit 20
    assert f"hashes {real[:23]}…, not {fake[:23]}…" in result.output
    assert real[:23] != fake[:23]


def test_a_key_directory_given_that_is_none_is_refused_first(user, db: str,  # noqa: ANN001
                                                             tmp_path: Path) -> None:
    """``--keys DIR`` given and missing (or a file) is one usage line and exit 2 for every
    command that reads keys, before the ledger or any file is opened (its bytes unchanged);
    ``key new`` makes a missing one."""
    before = Path(db).read_bytes()
    missing, afile = tmp_path / "nonexist", tmp_path / "afile"
    afile.write_text("not keys\n")
    hands = str(DATA / "hands")
    for args in (("import", hands), ("history", "h1"), ("verify",), ("checkpoint",),
                 ("key", "list"), ("key", "show", "ann"),
                 ("correct", "h1", "--reason", "r", "--by", "b", "--delete", "1"),
                 ("void", "h1", "--reason", "r", "--by", "b")):
        command = " ".join(args[:2] if args[0] == "key" else args[:1])
        usage = f"(`handledger {command} -h` shows the usage)"
        assert user(*args, "--keys", str(missing)) == (2, "", (
            f"error: Invalid value for '--keys': {missing}: no such directory (`handledger key "
            f"new NAME --keys {missing}` makes one) {usage}\n")), args
        assert user(*args, "--keys", str(afile)) == (2, "", (
            f"error: Invalid value for '--keys': {afile}: not a directory {usage}\n")), args
    for args in (("key", "new", "ann"), ("key", "add", "ann", "ed25519:x")):
        assert user(*args, "--keys", str(afile)) == (2, "", (
            f"error: Invalid value for '--keys': {afile}: not a directory (`handledger "
            f"{' '.join(args[:2])} -h` shows the usage)\n")), args
    assert Path(db).read_bytes() == before and not missing.exists()
    code, out, _ = user("key", "new", "ann", "--keys", str(missing))
    assert code == 0 and out.startswith("key ann ") and (missing / "ann.pub").exists()
    assert user("key", "list", "--keys", str(missing))[0] == 0
