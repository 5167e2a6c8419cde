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

The mutations are those of :mod:`bench.mutations` (``CLASSIC``: the kinds above);
``python -m tests.test_hardening [N]`` runs a bigger campaign of them in this process and
prints the counts, and ``bench/fuzz.py`` the campaigns of every kind and format through the
command (tests/test_fuzz_campaign.py runs a small one of each).
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

from bench import fuzz
from bench import mutations as M
from cli.main import cli
from ledger.formats.jsonl import write_jsonl
from ledger.model.events import MAX_CHIPS
from ledger.store.store import Ledger
from ledger.store.streams import hand_streams
from replay.demo.randomhand import random_hand
from replay.fold import replay_events
from replay.ingest.pipeline import import_paths
from tests.conftest import SHARED

#: In the normal suite (the campaigns of bench/fuzz.py run many more). 350 of seed 8 meet every
#: pair of a mutation's kind and format (27, ``.phhs`` included) and every pair of its kind and
#: outcome (accepted, rejected, rejected_line: 26) that 700 meet, each kind refused at least
#: once: a file depends only on those before it, so they are the first 350 of the 700.
MUTATIONS = 350


def mutated_files(n: int, seed: int, out: Path) -> list[tuple[Path, str]]:
    """``n`` mutated files in ``out`` (half PHH, half JSON lines; the kinds of
    :data:`bench.mutations.CLASSIC`): (path, mutation kind)."""
    return [(m.path, m.kind) for m in M.mutated_files(n, seed, out)]


# ------------------------------------------------------------------------------- checking


def import_one(ledger: Ledger, path: Path) -> str:
    """Import one mutated file in-process and check the outcome (any exception is a failure
    of the property): ``accepted`` (no error; what was written is whole hands that replay),
    ``rejected`` (errors naming the file; nothing written) or ``rejected_line`` (a JSON-lines
    error outside any hand, e.g. a line that is no JSON object, or a bad hand of a ``.phhs``
    file of several: the error is reported and the file's intact hands imported whole)."""
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
    assert path.suffix in (".jsonl", ".phhs") and report.imported, (path, report.errors)
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
    for kind in M.CLASSIC:
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
        lines = result.stderr.strip().splitlines()
        errors = [line for line in lines if line.startswith(f"error: {path}")]
        warned = fuzz.warned_hands(result.stderr)  # only of hands stored: no refusal
        assert len(errors) + len(warned) == len(lines), lines
        if warned:
            with Ledger(Path(db), read_only=True) as ledger:
                assert not set(warned) - {s for s, *_ in hand_streams(ledger, warned)}, lines
        if result.exit_code == 2:
            assert errors, lines
        seen[result.exit_code] += 1
    assert seen[2] and seen[0]


def test_a_real_process_prints_one_line_and_no_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("handledger")
    # the first 12 of seed 10 (a file depends only on those before it: the same 12 as of 24)
    files = mutated_files(12, seed=10, out=tmp_path)
    rejected, kinds = 0, set()
    for path, kind in files:
        if kind in kinds:  # one process a kind of mutation: the in-process runs do the rest
            continue
        kinds.add(kind)
        proc = subprocess.run([str(exe), "--db", str(tmp_path / "p.duckdb"), "import",
                               str(path)], capture_output=True, text=True, timeout=60)
        assert proc.returncode in (0, 2), proc.stderr
        assert "Traceback" not in proc.stderr
        if proc.returncode == 2:
            rejected += 1
            assert proc.stderr.startswith(f"error: {path}")
    assert rejected
    assert kinds == {"garble", "line", "field", "truncate", "encoding", "player"}


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


def _as_stored_earlier(ledger: Ledger, key: str) -> None:
    """Session s01's rows keyed ``key`` as the earlier version stored them, in a chain that
    verifies (the source key is hashed: every row hashed again from the first, the head
    moved with them), as that version wrote it; an import proves the chain first."""
    from bench.tamper import relinked
    from ledger.store.chain import GENESIS
    from ledger.store.store import COLUMNS

    con = ledger.connection
    rows = [(*r[:9], key if r[1] == "session:s01" else r[9], *r[10:])
            for r in con.execute(f"SELECT {COLUMNS} FROM events ORDER BY position").fetchall()]
    rows = relinked(rows, GENESIS)
    con.execute("DELETE FROM events")
    appender = con.appender("events")  # the columns in COLUMNS' order; executemany takes seconds
    appender.append_rows(rows)
    appender.flush()
    con.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", [rows[-1][11]])


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
    _as_stored_earlier(ledger, old)
    report = import_paths(ledger, [path], strict=True, session=None, pn_ledger=None)
    assert (report.imported, report.events, ledger.count()) == (0, 0, before)
