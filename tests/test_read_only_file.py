"""A ledger file without any write permission bit (``chmod 0444``) is read-only for every
command, also for root, whom the system lets write any file (the suite runs as root): the reads
answer as on a writable copy, their derived tables computed in memory, and every command that
writes refuses in one line naming the file, exit 2, the file byte for byte and its mtime as
they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA
from tests.test_reads_never_write import SEATS, reads


def handledger(db: Path, *args: str) -> tuple[int, str, str]:
    """``(status, stdout, stderr)`` of the command run as the console script runs it."""
    from cli.main import run as run_main

    with CliRunner().isolation() as (out, err, _):
        try:
            code = run_main(["--db", str(db), *args])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The series' first session (closed, settled), an open session ``fri`` where Ann and
    Bob bought in, and a live hand ``live`` of no session three actions in."""
    db = tmp_path_factory.mktemp("ro") / "l.duckdb"
    for args in (("import", str(DATA / "series")), ("session", "open", "fri", "--date",
                 "2026-11-27", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "fri", "Ann", "200"), ("buyin", "fri", "Bob", "150"),
                 ("hand", "start", "--hand", "live", *SEATS),
                 ("act", "live", "d dh Ann AsKs"), ("act", "live", "d dh Bob QhQd"),
                 ("act", "live", "Bob cc")):
        code, _, err = handledger(db, *args)
        assert code == 0, (args, err)
    return db


@pytest.fixture
def locked(built: Path, tmp_path: Path) -> Path:
    """A copy of the built ledger with every write bit off, alone in its folder."""
    (tmp_path / "ro").mkdir()
    db = tmp_path / "ro" / "ro.duckdb"
    shutil.copyfile(built, db)
    db.chmod(0o444)
    return db


def snapshot(db: Path) -> tuple[bytes, int, list[str]]:
    """The file's bytes, its mtime and the names beside it (no WAL, no temporary file)."""
    return db.read_bytes(), os.stat(db).st_mtime_ns, sorted(p.name for p in db.parent.iterdir())


def test_every_read_answers_as_on_a_writable_copy_and_writes_nothing(
        built: Path, locked: Path, tmp_path: Path) -> None:
    writable = tmp_path / "rw.duckdb"
    shutil.copyfile(built, writable)
    before = snapshot(locked)
    code, out, err = handledger(locked, "replay")
    assert code == 0
    assert out.splitlines()[-1] == ("91 hand(s) replayed: 0 paid differently from the rules, "
                                    "0 showdown(s) not verifiable (the hash chain not "
                                    "checked: `handledger verify`)")  # nothing saved
    assert err == ("note: the derived tables cannot be saved (the file cannot be written "
                   "here): they are computed in memory this time\n")
    assert snapshot(locked) == before
    said = {}
    for args in (("balances", "--session", "s01", "--money"), ("settle", "--session", "s01"),
                 ("session", "list"), ("state", "live")):
        code, out, err = handledger(locked, *args)
        assert (code, out) == handledger(writable, *args)[:2], args
        assert code in (0, 1) and "Traceback" not in err, (args, err)
        said[args] = out
    assert said[("session", "list")] == (
        "s01  2025-01-07  30 hand(s)  15 buy-in(s)  closed, settled\n"
        "s02  2025-01-14  30 hand(s)  22 buy-in(s)  closed, settled\n"
        "s03  2025-01-21  30 hand(s)  8 buy-in(s)  closed, settled\n"
        "fri  2026-11-27  0 hand(s)  2 buy-in(s)  open\n")
    for args in reads(tmp_path):
        if args in said:  # the same command on the same file, answered above
            continue
        code, _, err = handledger(locked, *args)
        assert code in (0, 1) and "Traceback" not in err, (args, err)
    assert snapshot(locked) == before


@pytest.mark.parametrize("args", [
    ("replay", "--jobs", "1"),  # a read: refused no write, said in a note (above)
    ("init",),
    ("import", str(DATA / "hands")),
    ("session", "open", "sat"),
    ("session", "set", "fri", "--chip-value", "0.5"),
    ("session", "close", "fri"),
    ("buyin", "fri", "Cy", "100"),
    ("cashout", "fri", "Ann", "200"),
    ("pay", "fri", "Bob", "Ann", "5"),
    ("entry", "retract", "fri", "2", "--reason", "typo", "--by", "host"),
    ("entry", "amend", "fri", "2", "250", "--reason", "typo", "--by", "host"),
    ("player", "alias", "Ann", "Annie"),
    ("hand", "start", "--hand", "h2", *SEATS),
    ("act", "live", "Ann cc"),
    ("undo", "live", "--by", "host"),
    ("void", "live", "--reason", "misdeal", "--by", "host"),
    ("correct", "live", "--delete", "3", "--reason", "typo", "--by", "host"),
    ("checkpoint",),  # LEDGER.checkpoints beside it: not made
    ("checkpoint", "--json", "-o", "SELF"),  # the same file named by -o
])
def test_a_write_is_one_line_naming_the_file_and_nothing_is_written(
        locked: Path, args: tuple[str, ...]) -> None:
    before = snapshot(locked)
    args = tuple(f"{locked}.checkpoints" if a == "SELF" else a for a in args)
    code, out, err = handledger(locked, *args)
    if args[0] == "replay":
        assert code == 0 and out.endswith("0 showdown(s) not verifiable (the hash chain not "
                                          "checked: `handledger verify`)\n")
    else:
        assert (code, err) == (2, f"error: {locked} is read-only (no write permission on the "
                                  f"file): nothing written (`chmod u+w {locked}` to write it)\n")
        assert out == ""
    assert snapshot(locked) == before


def test_table_refuses_each_line_and_writes_nothing(locked: Path) -> None:
    before = snapshot(locked)
    code, out, err = handledger(locked, "table", "live")  # no input: nothing to refuse
    assert code == 0 and snapshot(locked) == before
    from cli.main import run as run_main

    with CliRunner().isolation(input="Ann cc\nstate\n") as (o, e, _):
        code = run_main(["--db", str(locked), "table", "live", "--keep-going"])
    assert code == 2
    assert e.getvalue().decode() == (f"error: {locked} is read-only (no write permission on "
                                     f"the file): nothing written (`chmod u+w {locked}` to "
                                     "write it)\n")
    assert "Ann to act" in o.getvalue().decode()  # `state` still reads
    assert snapshot(locked) == before


def test_a_checkpoint_of_a_locked_ledger_goes_only_to_a_file_named_elsewhere(
        locked: Path, tmp_path: Path) -> None:
    """``-o FILE`` away from the ledger writes nothing of it nor beside it: the record of
    its head goes there, one line, the position and hash the chat line names."""
    import json
    import re

    before = snapshot(locked)
    elsewhere = tmp_path / "mine.checkpoints"
    code, out, err = handledger(locked, "checkpoint", "-o", str(elsewhere))
    assert (code, err) == (0, "")
    said = re.fullmatch(r"handledger checkpoint ro (\d+):([0-9a-f]{24}) \S+Z\n", out)
    assert said, out
    (record,) = [json.loads(line) for line in elsewhere.read_text().splitlines()]
    assert (str(record["position"]), record["hash"][:24]) == said.groups()
    assert snapshot(locked) == before


def test_a_write_bit_back_makes_it_writable_again(locked: Path) -> None:
    locked.chmod(0o644)
    code, out, _ = handledger(locked, "buyin", "fri", "Cy", "100")
    assert (code, out) == (0, "fri: Cy buy-in 100 chips (entry 4)\n")
