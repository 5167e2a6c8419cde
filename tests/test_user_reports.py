"""What a fresh user met at the command line, each now one clear line and exit 2: an empty
``--db``, a binary file named ``.jsonl``."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.context import DEFAULT_DB
from tests.conftest import ROOT


@pytest.mark.parametrize("args", [("init",), ("balances",), ("import", "data/hands")])
def test_an_empty_db_is_one_line(tmp_path: Path, args: tuple[str, ...],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from cli.main import run

    monkeypatch.chdir(ROOT)
    with CliRunner().isolation() as (out, err, _):
        code = run(["--db", "", *args])
    assert (code, out.getvalue(), err.getvalue().decode()) == (
        2, b"", f"error: --db '' names no file: give the ledger's path (default ./{DEFAULT_DB}, "
        "or $HANDLEDGER_DB)\n")
    assert not list(ROOT.glob("*.new")) and not (ROOT / DEFAULT_DB).exists()


@pytest.mark.parametrize(("env", "args", "line"), [
    ({"HANDLEDGER_DB": ""}, (), f"$HANDLEDGER_DB '' names no file: give the ledger's path "
     f"(default ./{DEFAULT_DB}, or $HANDLEDGER_DB)"),
    ({"HANDLEDGER_DB": "x.duckdb"}, ("--db", ""), f"--db '' names no file: give the ledger's "
     f"path (default ./{DEFAULT_DB}, or $HANDLEDGER_DB)"),
    ({"HANDLEDGER_WAIT": "abc"}, ("--db", "s.duckdb"),
     "Invalid value for $HANDLEDGER_WAIT: 'abc' is not a valid float range."),
    ({"HANDLEDGER_WAIT": "-1"}, ("--db", "s.duckdb"),
     "Invalid value for $HANDLEDGER_WAIT: -1.0 is not in the range x>=0."),
    ({"HANDLEDGER_WAIT": "abc"}, ("--db", "s.duckdb", "--wait", "abc"),
     "Invalid value for '--wait': 'abc' is not a valid float range. (`handledger -h` shows "
     "the usage)"),
])
def test_a_bad_environment_variable_is_named(tmp_path: Path, env: dict[str, str],
                                             args: tuple[str, ...], line: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A value refused is named as it was given: the environment variable it came from, not
    the option it sets (which the user never typed); one line, exit 2, no file."""
    from click.testing import CliRunner

    from cli.main import run

    monkeypatch.chdir(tmp_path)
    for name in ("HANDLEDGER_DB", "HANDLEDGER_WAIT", "HANDLEDGER_NO_WAIT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with CliRunner().isolation() as (out, err, _):
        code = run([*args, "balances"])
    assert (code, out.getvalue(), err.getvalue().decode()) == (2, b"", f"error: {line}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [("init",), ("balances",), ("import", "data/hands")])
def test_a_db_path_that_is_not_utf8_is_one_line(tmp_path: Path, args: tuple[str, ...],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger path with a byte that is not UTF-8 (``$'\\xff.duckdb'``): DuckDB opens no
    such path (a traceback of std::bad_cast, exit 1, before); one line, exit 2, no file."""
    from click.testing import CliRunner

    from cli.main import run

    monkeypatch.chdir(ROOT)
    db = str(tmp_path / b"\xff.duckdb".decode("utf-8", "surrogateescape"))
    with CliRunner().isolation() as (out, err, _):
        code = run(["--db", db, *args])
    assert (code, out.getvalue(), err.getvalue().decode()) == (
        2, b"", f"error: --db '{tmp_path}/\\xff.duckdb': DuckDB opens only a path that is UTF-8 "
        "text, and this one has a byte that is not\n")
    assert list(tmp_path.iterdir()) == []


ELF = bytes.fromhex("7f454c4602010100") + bytes(8) + b"\x03\x00>\x00" * 200


@pytest.mark.parametrize(("content", "where"), [
    (ELF, "byte 5, on line 1, is 0x02, a control byte text does not hold"),
    (b'{"hand": "a", "seq": 1, "event": {}}\n' + ELF,
     "byte 42, on line 2, is 0x02, a control byte text does not hold"),
    (b"\x89PNG\r\n\x1a\n" + bytes(200), "byte 1, on line 1, is 0x89, not UTF-8"),
])
def test_a_binary_file_named_jsonl_is_one_line(user, tmp_path: Path,  # noqa: ANN001
                                               content: bytes, where: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    code, out, err = user("import", str(path))
    assert (code, err) == (2, f"error: {path}: not JSON-lines text (a binary file?): {where}\n")
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")


def test_a_stray_byte_after_the_first_line_is_named_at_its_line(user,  # noqa: ANN001
                                                                 tmp_path: Path) -> None:
    """A text file with one line that is not UTF-8 is not binary: that line is the error,
    which refuses the file whole (its bytes may be a row of any stream)."""
    good = (ROOT / "data" / "declare" / "declare-night.jsonl").read_bytes()
    path = tmp_path / "night.jsonl"
    path.write_bytes(good + b'{"hand": "caf\xe9", "seq": 1, "event": {}}\n')
    line = good.count(b"\n") + 1
    code, out, err = user("import", str(path))
    assert code == 2
    assert err == (f"error: {path}:{line}: not UTF-8 (invalid continuation byte at byte 14): "
                   "a line that is not text may be a row of any hand or session of the file; "
                   "nothing of the file was written\n")
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected; 10 other hand(s) not written, their file refused\n")
