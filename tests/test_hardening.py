"""Bad input, hardening: random mutations of valid PHH and JSON-lines hand files.

Valid files are the real single-hand PHH files of ``../shared/data`` and seeded random legal
hands of every PHH variant written as PHH and as JSON lines. Each is mutated at random
(seeded): an amount changed (to another number, a negative, a non-number, a huge or a
fractional value), the order of actions or lines changed (swapped, dropped, repeated,
reversed), a card made unknown, malformed or a duplicate of another card, a player renamed,
a key or a line dropped or repeated, the file truncated, bytes garbled, deleted or inserted,
or the whole file written in another encoding (UTF-16, Latin-1, a NUL byte).

Every mutated file must be either imported whole, and then replay (the mutation left a legal
hand), or rejected: an error that names the file, nothing of its hand written (the event
count of the ledger is unchanged), never an exception. Through the CLI, a rejection is exit 2
with ``error: <file>…`` lines on stderr and no traceback.

``python -m tests.test_hardening [N]`` runs a bigger campaign and prints the counts.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import cli
from engine.games import PHH_CODES
from ledger.formats.jsonl import write_jsonl
from ledger.model.events import MAX_CHIPS
from ledger.store.store import Ledger
from ledger.store.streams import hand_streams
from replay.demo.randomhand import random_hand
from replay.fold import replay_events
from replay.ingest.export import phh_text
from replay.ingest.pipeline import import_paths
from tests.conftest import SHARED

MUTATIONS = 700  # in the normal suite; the campaign in RESULTS.md ran many more

_NUMBER = re.compile(rb"(?<![A-Za-z0-9_.])-?\d+(?:\.\d+)?(?![A-Za-z0-9_])")
_CARD = re.compile(rb"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?=[2-9TJQKA?]|[^A-Za-z0-9]|$)")
_PLAYER = re.compile(rb"\bp[1-9]\b")
_ODD_NUMBERS = [b"-1", b"-250", b"0", b"1.5", b"0.001", b"1e400", b"NaN", b"abc", b"''", b'"7"',
                b"null", b"true", b"99999999999999999999999999", b"-0", b"0x10", b"1_000"]
_ODD_CARDS = [b"Xx", b"1c", b"Tz", b"??", b"AS", b"a", b"10h", b"Jk"]


# ------------------------------------------------------------------------------- valid files


def real_phh() -> list[bytes]:
    """The real single-hand PHH files (hands and the rules' worked examples)."""
    paths = sorted((SHARED / "phh").rglob("*.phh")) + sorted((SHARED / "rules").glob("*.phh"))
    return [p.read_bytes() for p in paths]


def random_files(rng: random.Random, ident: str) -> tuple[bytes, bytes]:
    """One random legal hand of a random PHH variant as (PHH text, JSON-lines text)."""
    code = rng.choice(PHH_CODES)
    hand = random_hand(rng, code, hand_id=ident)
    rows = [(ident, seq, e) for seq, e in enumerate(hand.events, 1)]
    return phh_text(hand.events).encode(), write_jsonl(rows).encode()


# ------------------------------------------------------------------------------- mutations


def _sub_match(rng: random.Random, data: bytes, pattern: re.Pattern[bytes],
               choices: Callable[[bytes, bytes], bytes]) -> bytes:
    found = list(pattern.finditer(data))
    if not found:
        return data[: len(data) // 2]
    m = rng.choice(found)
    return data[: m.start()] + choices(m.group(), data) + data[m.end():]


def _amount(rng: random.Random, data: bytes) -> bytes:
    def new(old: bytes, _: bytes) -> bytes:
        roll = rng.random()
        if roll < 0.4:
            return str(int(float(old)) + rng.choice([-3, -2, -1, 1, 2, 5, 100])).encode()
        if roll < 0.55:
            return str(int(float(old)) * rng.choice([0, 2, 10, 1000])).encode()
        return rng.choice(_ODD_NUMBERS)

    return _sub_match(rng, data, _NUMBER, new)


def _card(rng: random.Random, data: bytes) -> bytes:
    def new(old: bytes, whole: bytes) -> bytes:
        if rng.random() < 0.5:  # a duplicate: another card of the file
            others = [m.group() for m in _CARD.finditer(whole) if m.group() != old]
            if others:
                return rng.choice(others)
        return rng.choice(_ODD_CARDS)

    return _sub_match(rng, data, _CARD, new)


def _player(rng: random.Random, data: bytes) -> bytes:
    return _sub_match(rng, data, _PLAYER,
                      lambda old, _: rng.choice([b"p9", b"p1", b"p2", b"", b"P1", b"p1 p2"]))


def _units(data: bytes, jsonl: bool) -> list[bytes]:
    """The pieces whose order matters: JSON lines, or the quoted PHH actions."""
    if jsonl:
        return data.split(b"\n")
    return re.findall(rb"'[^'\n]*'", data.split(b"actions = ", 1)[-1].split(b"]", 1)[0])


def _order(rng: random.Random, data: bytes, jsonl: bool) -> bytes:
    units = _units(data, jsonl)
    if len(units) < 2:
        return data + data
    new = list(units)
    i, j = rng.sample(range(len(new)), 2)
    how = rng.choice(["swap", "drop", "repeat", "reverse", "shuffle"])
    if how == "swap":
        new[i], new[j] = new[j], new[i]
    elif how == "drop":
        del new[i]
    elif how == "repeat":
        new.insert(j, new[i])
    elif how == "reverse":
        new.reverse()
    else:
        rng.shuffle(new)
    if jsonl:
        return b"\n".join(new)
    head, rest = data.split(b"actions = ", 1)
    body, tail = rest.split(b"]", 1)
    old_items = re.findall(rb"'[^'\n]*'", body)
    joined = body
    for k, item in enumerate(old_items):  # rewrite the list in place, item by item
        joined = joined.replace(item, b"\0%d\0" % k, 1)
    for k in range(len(old_items)):
        joined = joined.replace(b"\0%d\0" % k, new[k] if k < len(new) else b"", 1)
    if len(new) > len(old_items):
        joined += b", " + b", ".join(new[len(old_items):])
    return head + b"actions = " + joined + b"]" + tail


def _line(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(rng.randrange(len(lines)), lines[i])
    return b"\n".join(lines)


def _json_field(rng: random.Random, data: bytes) -> bytes:
    """A JSON-lines event with a field dropped, added, retyped or its type renamed."""
    lines = data.split(b"\n")
    i = rng.randrange(max(1, len(lines) - 1))
    try:
        row = json.loads(lines[i])
        event = row["event"]
    except (ValueError, KeyError, TypeError):
        return data
    how = rng.choice(["drop", "extra", "type", "seq", "null", "list"])
    key = rng.choice(sorted(event))
    if how == "drop":
        event.pop(key)
    elif how == "extra":
        event["surprise"] = 1
    elif how == "type":
        event["type"] = rng.choice(["raise", "hand_started", "session_opened", "FOLD"])
    elif how == "seq":
        row["seq"] = rng.choice([0, -1, row["seq"] + 1, "2", 2.0, None])
    elif how == "null":
        event[key] = None
    else:
        event[key] = [event[key]]
    lines[i] = json.dumps(row).encode()
    return b"\n".join(lines)


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data))]


def _garble(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out))
        how = rng.random()
        if how < 0.5:
            out[i] = rng.randrange(256)
        elif how < 0.75:
            del out[i : i + rng.randint(1, 20)]
        else:
            out[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(out)


def _encoding(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8")
    how = rng.choice(["utf-16", "utf-16-le", "latin-1", "nul", "cp1252"])
    if how == "nul":
        i = rng.randrange(len(data))
        return data[:i] + b"\0" + data[i:]
    if how in ("latin-1", "cp1252"):
        text = text.replace("p1", "Zoë", 1) if "p1" in text else "é" + text
    return text.encode(how)


MUTATORS: dict[str, Callable[[random.Random, bytes, bool], bytes]] = {
    "amount": lambda rng, d, j: _amount(rng, d),
    "order": _order,
    "card": lambda rng, d, j: _card(rng, d),
    "player": lambda rng, d, j: _player(rng, d),
    "line": lambda rng, d, j: _line(rng, d),
    "field": lambda rng, d, j: _json_field(rng, d) if j else _line(rng, d),
    "truncate": lambda rng, d, j: _truncate(rng, d),
    "garble": lambda rng, d, j: _garble(rng, d),
    "encoding": lambda rng, d, j: _encoding(rng, d),
}


def mutated_files(n: int, seed: int, out: Path) -> list[tuple[Path, str]]:
    """``n`` mutated files in ``out`` (half PHH, half JSON lines): (path, mutation kind)."""
    rng = random.Random(seed)
    real = real_phh()
    files = []
    for i in range(n):
        jsonl = i % 2 == 1
        phh, lines = random_files(rng, f"m{seed}-{i}")
        base = lines if jsonl else (rng.choice(real) if rng.random() < 0.3 else phh)
        kind = rng.choice(sorted(MUTATORS))
        data = base
        while data == base:  # a mutation that changes nothing is no mutation
            data = MUTATORS[kind](rng, base, jsonl)
        path = out / f"m{i:05d}.{'jsonl' if jsonl else 'phh'}"
        path.write_bytes(data)
        files.append((path, kind))
    return files


# ------------------------------------------------------------------------------- checking


def import_one(ledger: Ledger, path: Path) -> str:
    """Import one mutated file in-process and check the outcome (any exception is a failure
    of the property): ``accepted`` (no error; what was written is whole hands that replay),
    ``rejected`` (errors naming the file; nothing written) or ``rejected_line`` (a JSON-lines
    error outside any hand, e.g. a blank line: the error is reported and the file's intact
    hand imported whole, as for a file of several hands)."""
    before = ledger.count()
    report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None)
    after = ledger.count()
    assert after - before == report.events
    if report.errors:
        assert all(str(path) in line for line in report.errors), report.errors
    new = [r[0] for r in ledger.connection.execute(
        "SELECT DISTINCT hand_id FROM events WHERE position > ? AND hand_id IS NOT NULL",
        [before]).fetchall()]
    clean = {}
    if new and path.suffix == ".jsonl":
        from ledger.formats.jsonl import read_jsonl

        clean = {s.id: s.events for s in read_jsonl(path).hands}
    for hand, session, events in hand_streams(ledger, new) if new else ():
        assert events[0].type == "hand_started", hand
        if path.suffix == ".jsonl":
            assert events == clean[hand], f"{path}: hand {hand} written in part"
        replay_events(events, session=session)  # an imported hand must replay
    if not report.errors:
        return "accepted"
    if after == before:
        return "rejected"
    assert path.suffix == ".jsonl" and report.imported, (path, report.errors)
    return "rejected_line"


def campaign(n: int, seed: int, out: Path, failures: list[str] | None = None) -> Counter[str]:
    """Import ``n`` mutated files into one ledger; count outcomes per kind and format. A
    broken property raises, unless ``failures`` collects it (counted as ``failed``)."""
    counts: Counter[str] = Counter()
    with Ledger(out / "campaign.duckdb") as ledger:
        for path, kind in mutated_files(n, seed, out):
            try:
                outcome = import_one(ledger, path)
            except Exception as exc:
                message = f"{path} ({kind}): {type(exc).__name__}: {exc}"
                if failures is None:
                    raise AssertionError(message) from exc
                failures.append(message)
                outcome = "failed"
            fmt = path.suffix[1:]
            counts["tried"] += 1
            counts[outcome] += 1
            counts[f"{fmt}:{outcome}"] += 1
            counts[f"{kind}:{outcome}"] += 1
    return counts


# ------------------------------------------------------------------------------- tests


def test_mutated_files_are_imported_whole_or_rejected_cleanly(tmp_path: Path) -> None:
    counts = campaign(MUTATIONS, seed=8, out=tmp_path)
    print(json.dumps(dict(sorted(counts.items()))))
    assert counts["tried"] == MUTATIONS
    assert counts["accepted"] + counts["rejected"] + counts["rejected_line"] == MUTATIONS
    assert counts["rejected"] >= MUTATIONS // 2
    for fmt in ("phh", "jsonl"):
        assert counts[f"{fmt}:rejected"] and counts[f"{fmt}:accepted"]
    for kind in MUTATORS:
        assert counts[f"{kind}:rejected"], kind


def test_through_the_cli_a_rejection_is_exit_2_naming_the_file(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "cli.duckdb")
    seen = Counter()
    for path, _ in mutated_files(80, seed=9, out=tmp_path):
        result = runner.invoke(cli, ["--db", db, "import", str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            path, result.exception)
        assert result.exit_code in (0, 2), (path, result.exit_code, result.output)
        assert "Traceback" not in result.output + result.stderr
        if result.exit_code == 2:
            errors = result.stderr.strip().splitlines()
            assert errors and all(line.startswith(f"error: {path}") for line in errors), errors
        seen[result.exit_code] += 1
    assert seen[2] and seen[0]


def test_a_real_process_prints_one_line_and_no_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("handledger")
    files = mutated_files(24, seed=10, out=tmp_path)
    rejected = 0
    for path, _ in files[:12]:
        proc = subprocess.run([str(exe), "--db", str(tmp_path / "p.duckdb"), "import",
                               str(path)], capture_output=True, text=True, timeout=60)
        assert proc.returncode in (0, 2), proc.stderr
        assert "Traceback" not in proc.stderr
        if proc.returncode == 2:
            rejected += 1
            assert proc.stderr.startswith(f"error: {path}")
    assert rejected


@pytest.mark.parametrize("data", [
    b"", b"\n", b"\xff\xfe", b"actions = [", b"{", b'{"hand": "h", "seq": 1}\n',
    "variant = 'NT'\n".encode("utf-16"), b"\0" * 100,
])
def test_degenerate_files(tmp_path: Path, data: bytes) -> None:
    with Ledger(tmp_path / "d.duckdb") as ledger:
        for suffix in (".phh", ".jsonl", ".phhs"):
            path = tmp_path / f"bad{suffix}"
            path.write_bytes(data)
            assert import_one(ledger, path) in ("accepted", "rejected", "rejected_line")
        assert ledger.count() == 0


def test_a_control_character_in_the_hand_id_of_a_broken_line(tmp_path: Path) -> None:
    path = tmp_path / "nul.jsonl"
    path.write_bytes(b'{"hand":"h\x001","seq":1,"event":{\n')
    with Ledger(tmp_path / "n.duckdb") as ledger:
        assert import_one(ledger, path) == "rejected"


def _one_hand(tmp_path: Path, edit: Callable[[str], str]) -> Path:
    hand = random_hand(random.Random(1), "NT", hand_id="h")
    path = tmp_path / "h.jsonl"
    path.write_text(edit(write_jsonl(("h", s, e) for s, e in enumerate(hand.events, 1))))
    return path


@pytest.mark.parametrize("factor", [10**24, 2**53])
def test_chips_beyond_the_bound_are_refused_at_import(tmp_path: Path, factor: int) -> None:
    """Found by the campaign: stacks beyond 64 bits imported, then ``replay`` failed writing
    the derived tables (a DuckDB traceback, later a LedgerError). Now the event model bounds
    every chip amount (``MAX_CHIPS`` = 2**53 - 1): the import refuses the hand with one line
    naming the file, the line and the hand, exits 2 and writes nothing."""
    path = _one_hand(tmp_path, lambda t: re.sub(
        r'"stack":(\d+)', lambda m: f'"stack":{int(m.group(1)) * factor}', t))
    db = tmp_path / "big.duckdb"
    imported = CliRunner().invoke(cli, ["--db", str(db), "import", str(path)])
    assert imported.exit_code == 2, imported.output
    assert imported.exception is None or isinstance(imported.exception, SystemExit)
    lines = imported.stderr.strip().splitlines()
    assert lines == [f"error: {path}:1, hand h: invalid event (hand_started.seats.0.stack: Input "
                     f"should be less than or equal to {MAX_CHIPS})"]
    assert "imported 0 hand(s) (0 events)" in imported.stdout
    with Ledger(db) as ledger:
        assert ledger.count() == 0


def test_chips_at_the_bound_still_import(tmp_path: Path) -> None:
    """The bound itself is a legal stack: the hand imports with it."""
    path = _one_hand(tmp_path, lambda t: re.sub(r'"stack":(\d+)', f'"stack":{MAX_CHIPS}', t))
    with Ledger(tmp_path / "edge.duckdb") as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None)
        assert report.errors == [] and report.imported == 1
        started = ledger.read("h")[0].event
    assert started.type == "hand_started"
    assert {seat.stack for seat in started.seats} == {MAX_CHIPS}


def test_a_phh_stack_beyond_the_bound_is_one_error_naming_file_and_line(tmp_path: Path
                                                                         ) -> None:
    """A PHH amount beyond ``MAX_CHIPS`` is a typed error naming the file and the line of the
    key (not a pydantic traceback) and nothing is written."""
    source = next(SHARED.glob("phh/televised/**/*.phh"))
    text = source.read_text(encoding="utf-8")
    big = re.sub(r"starting_stacks = \[(\d+)", f"starting_stacks = [{MAX_CHIPS + 1}", text)
    assert big != text
    path = tmp_path / "big.phh"
    path.write_text(big, encoding="utf-8")
    db = tmp_path / "p.duckdb"
    result = CliRunner().invoke(cli, ["--db", str(db), "import", str(path)])
    assert result.exit_code == 2
    line = 1 + big[:big.index("starting_stacks")].count("\n")
    assert result.stderr.strip().splitlines() == [
        f"error: {path}:{line}: starting_stacks: {MAX_CHIPS + 1} is beyond the largest amount "
        f"a ledger holds ({MAX_CHIPS} chips)"]
    with Ledger(db) as ledger:
        assert ledger.count() == 0


def test_a_huge_schema_version_is_rejected_naming_the_file(tmp_path: Path) -> None:
    path = _one_hand(tmp_path, lambda t: t.replace('"schema_version":1', '"schema_version":'
                                                   + "9" * 26, 1))
    with Ledger(tmp_path / "s.duckdb") as ledger:
        assert import_one(ledger, path) == "rejected"


def main(argv: list[str]) -> Any:
    import tempfile

    n = int(argv[0]) if argv else 5000
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        counts = campaign(n, int(argv[1]) if len(argv) > 1 else 1, Path(tmp), failures)
    print(json.dumps(dict(sorted(counts.items())), indent=1))
    for line in failures:
        print("FAILED", line)
    return counts


if __name__ == "__main__":
    main(sys.argv[1:])


def test_a_json_lines_file_cut_between_lines_mid_hand_writes_none_of_that_hand(
        tmp_path: Path) -> None:
    """Found by a fresh-eyes test: a file that stops at a line boundary inside a hand stored
    the half hand (status open) silently, and the rest could never be added. Now the hand is
    refused, naming file, line and hand; the whole file then imports it whole."""
    from tests.conftest import DATA

    whole = DATA / "series" / "s02.jsonl"
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    rows = [json.loads(line) for line in lines]
    cut_at = next(i for i, r in enumerate(rows) if i > len(rows) // 3
                  and r.get("hand") and r["event"]["type"] == "bet_raise")
    hand = rows[cut_at]["hand"]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:cut_at + 1]), encoding="utf-8")
    db = tmp_path / "c.duckdb"
    result = CliRunner().invoke(cli, ["--db", str(db), "import", str(cut)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (error,) = result.stderr.strip().splitlines()
    assert error.startswith(f"error: {cut}:{cut_at + 1}, hand {hand}, action 'bet_raise by ")
    assert "the hand stops before its end (no hand_ended)" in error
    with Ledger(db) as ledger:
        assert hand not in ledger.streams(kind="hand")
        before = ledger.count()
    again = CliRunner().invoke(cli, ["--db", str(db), "import", str(whole)])
    assert again.exit_code == 0, again.output
    with Ledger(db) as ledger:
        assert len(ledger.read(hand)) == sum(1 for r in rows if r.get("hand") == hand)
        assert ledger.count() == len(rows) > before
    assert CliRunner().invoke(cli, ["--db", str(db), "audit"]).exit_code == 0


@pytest.mark.parametrize("value", ['"150"', "true", "150.0"])
def test_an_amount_that_is_not_an_integer_is_refused_not_coerced(tmp_path: Path, value: str
                                                                  ) -> None:
    """``"chips": "150"`` was stored as 150 and ``true`` as 1 (pydantic's lax mode): amounts
    are strict integers now, so the line is refused, naming the file and line."""
    from tests.conftest import DATA

    lines = (DATA / "series" / "s01.jsonl").read_text(encoding="utf-8").splitlines(True)
    at = next(i for i, line in enumerate(lines) if '"type":"buy_in"' in line)
    assert '"chips":150,' in lines[at]
    lines[at] = lines[at].replace('"chips":150,', f'"chips":{value},')
    path = tmp_path / "lax.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "l.duckdb"), "import", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"error: {path}:{at + 1}" in result.stderr and "chips" in result.stderr


def test_session_rows_an_earlier_version_imported_whole_are_not_appended_again(
        tmp_path: Path) -> None:
    """Session rows were keyed by their whole stream (``jsonl:<digest>``) before they were
    keyed row by row; a file imported into such a ledger adds nothing when imported again."""
    from ledger.formats.jsonl import read_jsonl
    from ledger.formats.jsonl.importer import Digests
    from tests.conftest import DATA

    path = DATA / "series" / "s01.jsonl"
    (stream,) = read_jsonl(path).sessions
    old = f"jsonl:{Digests()(stream.events)}"
    ledger = Ledger.memory()
    import_paths(ledger, [path], strict=True, session=None, pn_ledger=None)
    before = ledger.count()
    ledger.connection.execute("UPDATE events SET source_key = ? WHERE stream = 'session:s01'",
                              [old])  # as the earlier version stored them
    report = import_paths(ledger, [path], strict=True, session=None, pn_ledger=None)
    assert (report.imported, report.events, ledger.count()) == (0, 0, before)
