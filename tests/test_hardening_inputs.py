"""No traceback on any input: each kind of input a fuzzer found a traceback with, as it found it.

Every reader handles decoding (a PokerNow log with a byte that is not UTF-8), CSV fields over
the csv module's 128 KiB and lines of 50 MB, nesting 1,000 deep, a lone surrogate in a JSON
string, a UTF-8 byte-order mark at the start of a JSON-lines file, a file name that is not
UTF-8, and what is not a regular file (a symbolic link to ``/dev/zero``, a pipe) or is larger
than handledger reads. Every command bounds amounts at input (``MAX_CHIPS`` = 2**53 - 1). Each
is refused with one line and exit 2, nothing of the bad hand written, or (a byte-order mark, a
file name) imported whole.

A command runs in this process as the console script runs it (:func:`tests.console_run.
handledger`: a traceback raises in the test), except where the process is the point: an
argument or a file name given as bytes that are not UTF-8, and a pipe or a device that a
regression would wait on or read for ever (a real process is stopped by its time limit).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from ledger.formats.files import MAX_FILE_BYTES
from ledger.model.events import MAX_CHIPS
from tests.conftest import DATA, SHARED
from tests.console_run import handledger
from tests.copies import copy_ledger

EXE = str(Path(sys.executable).with_name("handledger"))
LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
SERIES = DATA / "series" / "s01.jsonl"


def _run(db: Path, *args: str | bytes, timeout: float = 120) -> tuple[int, str, list[str]]:
    """``handledger --db DB ARGS`` as a real process (arguments may be bytes: names that are
    not UTF-8): (exit status, stdout, stderr lines); a traceback fails the test."""
    proc = subprocess.run([EXE, "--db", str(db), *args], capture_output=True, timeout=timeout)
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 1, 2), (proc.returncode, err)
    return proc.returncode, proc.stdout.decode(), err.strip().splitlines()


def _cli(db: Path, *args: str) -> tuple[int, str, list[str]]:
    """``handledger --db DB ARGS`` run in this process as the console script runs it: (exit
    status, stdout, stderr lines), as :func:`_run` gives them."""
    code, out, err = handledger(db, *args)
    assert code in (0, 1, 2), (code, err)
    return code, out, err.strip().splitlines()


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        con.close()


# ------------------------------------------------------------------------------- decoding


def test_a_pokernow_log_with_a_byte_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    """Was ``UnicodeDecodeError`` in the PokerNow reader (181 of the campaign's 308
    tracebacks)."""
    data = LOG.read_bytes()
    at = data.index(b"folds")  # in a row's text: a player name with a Latin-1 byte
    path = tmp_path / "latin.csv"
    path.write_bytes(data[:at] + b"\xe9" + data[at:])
    line = data[:at].count(b"\n") + 1
    column = at - data.rfind(b"\n", 0, at)
    db = tmp_path / "l.duckdb"
    code, out, err = _cli(db, "import", str(path))
    assert code == 2
    assert err == [f"error: {path}:{line}: not UTF-8 (invalid continuation byte: byte "
                   f"{column} of the line is 0xe9)"]
    assert "imported 0 hand(s)" in out and _count(db) == 0


def test_a_zip_archive_renamed_csv_is_one_line(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "log.csv"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("log.csv", LOG.read_bytes())
    code, _, err = _cli(tmp_path / "z.duckdb", "import", str(path))
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"error: {path}: not a hand history handledger reads")


# ------------------------------------------------------------------------------- sizes


def test_a_csv_field_over_128_kib_is_one_line(tmp_path: Path) -> None:
    """Was ``_csv.Error: field larger than field limit (131072)``."""
    lines = LOG.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"', b'"' + b"x" * 200_000, 1)
    path = tmp_path / "field.csv"
    path.write_bytes(b"\n".join(lines))
    db = tmp_path / "f.duckdb"
    code, _, err = _cli(db, "import", str(path))
    assert code == 2
    assert err == [f"error: {path}:6: not readable as CSV (field larger than field limit "
                   "(131072))"]
    assert _count(db) == 0


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".phh", ".txt"])
def test_a_50_mb_line_is_one_line_in_every_format(tmp_path: Path, suffix: str) -> None:
    """Was ``field larger than field limit`` (PokerNow) and a line read whole elsewhere."""
    base = {".csv": LOG, ".jsonl": SERIES, ".phh": SHARED / "rules" / "ex01.phh",
            ".txt": next((SHARED / "text").glob("*.txt"))}[suffix].read_bytes()
    first = base.index(b"\n") + 1
    path = tmp_path / f"long{suffix}"
    path.write_bytes(base[:first] + b"y" * (50 << 20) + b"\n" + base[first:])
    db = tmp_path / "long.duckdb"
    code, _, err = _cli(db, "import", str(path))
    assert code == 2
    assert f"error: {path}:2" in err[0] and err[0].endswith(
        "a line longer than 1 MB, the most handledger reads in one line" + (
            "; nothing of the file was written: it carries the book of session s01, which goes"
            " in with all its hands or not at all (correct the file and import it again)"
            if suffix == ".jsonl" else "")), err  # a session's book goes in whole or not
    assert len(err) == 1 and _count(db) == 0


def test_a_file_larger_than_the_cap_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as f:  # sparse: nothing is written to disk
        f.truncate(MAX_FILE_BYTES + 1)
    code, _, err = _cli(tmp_path / "h.duckdb", "import", str(path))
    assert code == 2
    assert err == [f"error: {path}: larger than {MAX_FILE_BYTES >> 20} MB, the most "
                   "handledger reads"]


def test_a_symlink_to_dev_zero_named_jsonl_is_not_read(tmp_path: Path) -> None:
    """Was read without limit (memory grew until the process was killed)."""
    link = tmp_path / "z.jsonl"
    link.symlink_to("/dev/zero")
    code, _, err = _run(tmp_path / "z.duckdb", "import", str(link), timeout=60)
    assert code == 2
    assert err == [f"error: {link}: not a regular file (a character device): handledger "
                   "reads files"]


def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "p.phh"
    os.mkfifo(pipe)
    code, _, err = _run(tmp_path / "p.duckdb", "import", str(pipe), timeout=60)
    assert code == 2
    assert err == [f"error: {pipe}: not a regular file (a pipe): handledger reads files"]


# ------------------------------------------------------------------------------- JSON lines


def _series_lines() -> list[str]:
    return SERIES.read_text(encoding="utf-8").splitlines(keepends=True)


def test_nesting_1000_deep_in_a_json_lines_event_is_one_line(tmp_path: Path) -> None:
    """Was ``RecursionError``; the hand is refused in one line, and with it the file, which
    carries its session's book."""
    lines = _series_lines()
    rows = [json.loads(line) for line in lines]
    at = next(i for i, r in enumerate(rows) if r.get("hand") and r["event"]["type"] == "bet_raise")
    hand = rows[at]["hand"]
    lines[at] = lines[at].replace('"to":', '"x":' + "[" * 1000 + "1" + "]" * 1000 + ',"to":', 1)
    path = tmp_path / "deep.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    db = tmp_path / "d.duckdb"
    code, out, err = _cli(db, "import", str(path))
    assert code == 2
    assert err == [f"error: {path}:{at + 1}, hand {hand}: nested more than 32 levels deep; "
                   "nothing of the file was written: it carries the book of session s01, which "
                   "goes in with all its hands or not at all (correct the file and import it "
                   "again)"]
    hands = {r["hand"] for r in rows if r.get("hand")}
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   f"1 rejected; {len(hands) - 1} other hand(s) not written, their file "
                   "refused\n")
    assert _count(db) == 0


def test_nesting_deeper_than_an_event_may_be_is_refused_the_same_way(tmp_path: Path) -> None:
    """40 levels parse, but no event nests so deep (``MAX_DEPTH``): the same refusal, worded
    by the event model, on the fast and the exact path alike."""
    lines = _series_lines()
    lines[7] = lines[7].replace('"source":{}', '"source":{"x":' + "[" * 40 + "]" * 40 + "}", 1)
    path = tmp_path / "deep40.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    code, _, err = _cli(tmp_path / "d.duckdb", "import", str(path))
    assert code == 2
    assert err == [f"error: {path}:8, hand s01-001: invalid event (hand_started.source: Value "
                   "error, nested more than 32 levels deep); nothing of the file was written: "
                   "it carries the book of session s01, which goes in with all its hands or not "
                   "at all (correct the file and import it again)"]


def test_a_lone_surrogate_in_a_json_lines_session_row_is_one_line(tmp_path: Path) -> None:
    """``"player":"B\\ud800b"``: was a serialisation error (a traceback)."""
    lines = _series_lines()
    at = next(i for i, line in enumerate(lines) if '"type":"buy_in"' in line)
    lines[at] = lines[at].replace('"player":"', '"player":"B\\ud800b', 1)
    path = tmp_path / "surrogate.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    db = tmp_path / "s.duckdb"
    code, _, err = _cli(db, "import", str(path))
    assert code == 2
    assert len(err) == 1 and err[0].startswith(f"error: {path}:{at + 1}, session s01: the text ")
    assert err[0].endswith("holds a lone surrogate (\\ud800): not UTF-8 text; a line of the "
                           "session's book is refused, so nothing of the file was written "
                           "(correct the line and import the file again)")
    assert not db.exists()  # nothing of the file (a session's book line refuses it whole)


def test_a_byte_order_mark_at_the_start_of_a_json_lines_file_is_read_past(tmp_path: Path
                                                                          ) -> None:
    """Line 1 was rejected and its session half-imported; PHH and CSV accept one."""
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + SERIES.read_bytes())
    db = tmp_path / "b.duckdb"
    code, out, err = _cli(db, "import", str(path))
    assert (code, err) == (0, [])
    assert _count(db) == len(_series_lines())
    clean = tmp_path / "clean.duckdb"
    assert _cli(clean, "import", str(SERIES))[0] == 0
    again = _cli(db, "import", str(SERIES))  # the same rows: nothing added
    assert again[0] == 0 and "imported 0 hand(s) (0 events)" in again[1]


@pytest.mark.parametrize("suffix", [".phh", ".phhs"])
def test_nesting_1000_deep_in_a_phh_value_is_one_line(tmp_path: Path, suffix: str) -> None:
    """Was ``RecursionError`` (tomllib recurses for each array)."""
    hand = (SHARED / "rules" / "ex01.phh").read_text(encoding="utf-8")
    text = hand.replace("\n", "\nextra = " + "[" * 1000 + "]" * 1000 + "\n", 1)
    if suffix == ".phhs":
        text = f"[1]\n{text}\n[2]\n{hand}"
    path = tmp_path / f"deep{suffix}"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "p.duckdb"
    code, out, err = _cli(db, "import", str(path))
    assert code == 2
    line = 3 if suffix == ".phhs" else 2
    assert err == [f"error: {path}:{line}: {'[1] ' if suffix == '.phhs' else ''}bad TOML: "
                   f"nested more than 32 levels deep (at line {line}, column 1)"]
    assert f"imported {1 if suffix == '.phhs' else 0} hand(s)" in out


# ------------------------------------------------------------------------------- file names


def test_a_phh_file_whose_name_is_not_utf8_imports(tmp_path: Path) -> None:
    """The hand records its file: was a DuckDB conversion error for a valid hand."""
    name = os.fsencode(tmp_path) + b"/h\xff.phh"
    with open(name, "wb") as f:
        f.write((SHARED / "rules" / "ex01.phh").read_bytes())
    db = tmp_path / "n.duckdb"
    code, out, err = _run(db, "import", name)
    assert (code, err) == (0, []), err
    assert "imported 1 hand(s)" in out
    con = duckdb.connect(str(db), read_only=True)
    try:
        (source,) = con.execute("SELECT payload->>'$.source.file' FROM events WHERE type ="
                                " 'hand_started'").fetchone()
    finally:
        con.close()
    assert source == f"{tmp_path}/h\\xff.phh"


def test_a_pokernow_log_whose_name_is_not_utf8_imports(tmp_path: Path) -> None:
    """The session is named after the file: was a DuckDB conversion error."""
    name = os.fsencode(tmp_path) + b"/caf\xe9.csv"
    with open(name, "wb") as f:
        f.write(LOG.read_bytes())
    db = tmp_path / "n.duckdb"
    code, out, err = _run(db, "import", name)
    assert (code, err) == (0, []), err
    assert "imported 4 hand(s)" in out
    con = duckdb.connect(str(db), read_only=True)
    try:
        sessions = {r[0] for r in con.execute("SELECT DISTINCT session FROM events").fetchall()}
    finally:
        con.close()
    assert sessions == {"caf\\xe9"}


def test_a_text_argument_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    assert _cli(db, "session", "open", "fri")[0] == 0
    code, _, err = _run(db, "buyin", "fri", b"B\xffb", "5")
    assert (code, err) == (2, ["error: PLAYER 'B\\xffb' is not UTF-8 text (it has a byte that "
                               "is not)"])
    code, _, err = _run(db, "settle", "--session", b"\xff")
    assert (code, err) == (2, ["error: --session '\\xff' is not UTF-8 text (it has a byte "
                               "that is not)"])
    assert _count(db) == 1


# ------------------------------------------------------------------------------- amounts


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session S with Ann's buy-in of 100 and a live hand H, Bob to act."""
    db = tmp_path_factory.mktemp("evening") / "n.duckdb"
    for args in (["session", "open", "S"], ["buyin", "S", "Ann", "100"],
                 ["hand", "start", "--hand", "H", "--game", "NT", "--stakes", "1/2", "--seats",
                  "Ann:200,Bob:150", "--button", "Bob"],
                 ["act", "H", "d dh Ann AsKs"], ["act", "H", "d dh Bob QhQd"]):
        assert _cli(db, *args)[0] == 0, args
    return db


@pytest.fixture
def night(evening: Path, tmp_path: Path) -> Path:
    """A fresh copy of :func:`evening`."""
    return copy_ledger(evening, tmp_path / "n.duckdb")


BEYOND = f"is beyond the largest amount a ledger holds ({MAX_CHIPS} chips)"


@pytest.mark.parametrize(("args", "message"), [
    (["buyin", "S", "Ann", str(MAX_CHIPS + 1)], f"buyin S Ann: {MAX_CHIPS + 1} {BEYOND}"),
    (["cashout", "S", "Ann", str(MAX_CHIPS + 1)], f"cashout S Ann: {MAX_CHIPS + 1} {BEYOND}"),
    (["cashout", "S", "Ann", "9" * 40], f"cashout S Ann: {'9' * 24}... (40 characters) {BEYOND}"),
    (["pay", "S", "A", "B", str(10**30)], f"amount '{10**30}' is too large (at most "
     f"{MAX_CHIPS})"),
    (["session", "open", "T", "--chip-value", str(10**21)],
     f"--chip-value '{10**21}' is too large (at most {MAX_CHIPS})"),
    (["act", "H", "Bob cbr 1e23"],
     f"hand H, action 'Bob cbr 1e23': {10**23} chips {BEYOND}; now: Bob to act: to call 1, "
     "raise to 4..150"),
    (["act", "H", f"pay Bob {10**23}"],
     f"hand H, action 'pay Bob {10**23}': {10**23} chips {BEYOND}; now: Bob to act: to call "
     "1, raise to 4..150"),
    (["hand", "start", "--hand", "H2", "--game", "NT", "--stakes", "1/2", "--seats",
      f"Ann:{MAX_CHIPS + 1},Bob:150", "--button", "Bob"],
     f"--seats: Ann's stack: {MAX_CHIPS + 1} {BEYOND}"),
    (["hand", "start", "--hand", "H2", "--game", "NT", "--stakes", f"1/{10**20}", "--seats",
      "Ann:200,Bob:150", "--button", "Bob"], f"--stakes: {10**20} {BEYOND}"),
    (["hand", "start", "--hand", "H2", "--game", "NT", "--antes", str(10**20), "--seats",
      "Ann:200,Bob:150", "--button", "Bob"], f"--antes: {10**20} {BEYOND}"),
    (["entry", "amend", "S", "2", str(MAX_CHIPS + 1), "--reason", "r", "--by", "h"],
     f"entry amend S 2 (buy-in of Ann): {MAX_CHIPS + 1} {BEYOND}"),
    (["session", "set", "S", "--chip-value", str(10**21)],
     f"--chip-value '{10**21}' is too large (at most {MAX_CHIPS})"),
    (["correct", "H", "--insert-after", "5", "Bob cbr 1e23", "--reason", "r", "--by", "h"],
     f"hand H: insert_after 5 'Bob cbr 1e23': {10**23} chips {BEYOND}"),
    (["whatif", "H", "--replace", "5", "d dh Bob QhQd", "--insert-after", "5",
      f"Bob cbr {MAX_CHIPS + 1}"], f"hand H: insert_after 5 'Bob cbr {MAX_CHIPS + 1}': "
     f"{MAX_CHIPS + 1} chips {BEYOND}"),
])
def test_amounts_beyond_the_bound_are_refused_at_input(night: Path, args: list[str],
                                                       message: str) -> None:
    """``buyin S Ann 9007199254740992`` and ``act H "Bob cbr 1e23"`` were pydantic
    tracebacks."""
    before = _count(night)
    code, _, err = _cli(night, *args)
    assert (code, err) == (2, [f"error: {message}"])
    assert _count(night) == before


def test_two_buy_ins_at_the_bound_then_a_cash_out_of_their_sum(night: Path) -> None:
    """Both buy-ins were accepted, then cashing out their sum was a traceback: the second is
    refused (a player's buy-ins together are an amount too), and so is the cash-out."""
    assert _cli(night, "buyin", "S", "Bob", str(MAX_CHIPS))[0] == 0
    code, _, err = _cli(night, "buyin", "S", "Bob", str(MAX_CHIPS))
    assert (code, err) == (2, [f"error: Bob's buy-ins in S together: {2 * MAX_CHIPS} {BEYOND}"])
    code, _, err = _cli(night, "cashout", "S", "Bob", str(2 * MAX_CHIPS))
    assert (code, err) == (2, [f"error: cashout S Bob: {2 * MAX_CHIPS} {BEYOND}"])


def test_chips_worth_more_money_than_a_ledger_holds_are_refused(tmp_path: Path) -> None:
    """A chip of 2**53 - 1 minor units times 2**53 - 1 chips overflowed the books' money
    columns (``balances --money``: an INT64 overflow traceback)."""
    db = tmp_path / "m.duckdb"
    assert _cli(db, "session", "open", "S", "--chip-value", str(MAX_CHIPS))[0] == 0
    code, _, err = _cli(db, "buyin", "S", "Ann", str(MAX_CHIPS))
    assert (code, err) == (2, [f"error: buyin S Ann: {MAX_CHIPS} chips are worth "
                               f"{MAX_CHIPS * MAX_CHIPS}, beyond the largest amount a ledger "
                               f"holds ({MAX_CHIPS})"])
    assert _cli(db, "buyin", "S", "Ann", "1")[0] == 0
    code, out, err = _cli(db, "balances", "--money")
    assert code == 0 and err == [] and "Ann" in out


# ------------------------------------------------------------------------------- the ledger


@pytest.mark.parametrize("kind", ["pipe", "device", "directory"])
def test_a_ledger_path_that_is_not_a_file_is_one_line(tmp_path: Path, kind: str) -> None:
    """``--db`` a named pipe: DuckDB waited on it for ever (a real process, stopped by its
    time limit should it wait again); a device it wrote into."""
    db = tmp_path / "l.duckdb"
    if kind == "pipe":
        os.mkfifo(db)
    elif kind == "device":
        db.symlink_to("/dev/null")
    else:
        db.mkdir()
    shown = {"pipe": "a pipe", "device": "a device", "directory": "a directory"}[kind]
    for args in (["show", "x"], ["import", str(SERIES)], ["verify"]):
        code, out, err = (_run(db, *args, timeout=60) if kind == "pipe" else _cli(db, *args))
        assert (code, err) == (2, [f"error: ledger {db} is {shown}, not a ledger file"]), args
