"""The CLI's UTF-8 check of text arguments has a public home (:mod:`cli.utf8`): no CLI module
imports another's private names, and the check says the text with its bad byte escaped."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.utf8 import check_utf8, escaped, is_utf8
from ledger.model.errors import MalformedInput
from tests.conftest import ROOT
from tests.console_run import handledger


def test_no_cli_module_imports_a_private_name_of_another() -> None:
    found = []
    for path in sorted((ROOT / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cli"):
                found += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and node.module != f"cli.{path.stem}"]
    assert found == []


def test_the_check_escapes_the_byte_that_is_not_utf8() -> None:
    bad = b"Ann cbr 1\xff0".decode("utf-8", "surrogateescape")
    assert (is_utf8("Ann cbr 10"), is_utf8(bad), is_utf8("Zoë")) == (True, False, True)
    assert escaped(bad) == "Ann cbr 1\\xff0" and escaped("Zoë") == "Zoë"
    assert check_utf8("Zoë", "ACTION") == "Zoë"
    with pytest.raises(MalformedInput) as caught:
        check_utf8(bad, "ACTION")
    assert str(caught.value) == ("ACTION 'Ann cbr 1\\xff0' is not UTF-8 text (it has a byte "
                                 "that is not)")



EXE = str(Path(sys.executable).with_name("handledger"))


def _in(encoding: str, db: Path, *args: str) -> tuple[int, bytes, bytes]:
    """The command as a real process whose standard streams are ``encoding``."""
    done = subprocess.run([EXE, "--db", str(db), *args], capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": encoding})
    return done.returncode, done.stdout, done.stderr


def test_output_never_fails_for_the_terminals_encoding(tmp_path: Path) -> None:
    """What the encoding cannot show (a name's ``🃏``, the program's own ``—``, ``…`` and
    box-drawing characters) is written ``?`` on a latin-1 terminal: the buy-in that was saved
    is answered with exit 0, never a traceback and exit 1 after it; the JSON stays JSON; a
    UTF-8 terminal's line is unchanged. On an ``ascii`` terminal click takes the encoding
    for a misconfigured locale and writes UTF-8: exit 0 all the same."""
    db = tmp_path / "x.duckdb"
    assert handledger(db, "session", "open", "fri", "--chip-value", "0.25",
                      "--currency", "USD", "--date", "2026-01-09")[0] == 0
    assert _in("latin-1", db, "buyin", "fri", "Zoë🃏", "200") == (
        0, b"fri: Zo\xeb? buy-in 200 chips (entry 2)\n", b"")
    code, out, err = handledger(db, "history", "--session", "fri")
    assert (code, [line.split()[-1] for line in out.splitlines()[1:]], err) == (
        0, ['{"session":"fri","date":"2026-01-09","chip_value_minor":25,"currency":"USD",'
            '"decimals":2}', '{"player":"Zoë🃏","chips":200,"kind":"buy_in"}'], "")  # once
    query = "SELECT player || ' — …' AS p FROM session_players"
    assert _in("latin-1", db, "sql", query) == (
        0, b"p\n" + b"?" * 9 + b"\nZo\xeb? ? ?\n(1 row)\n", b"")
    code, out, err = _in("latin-1", db, "sql", query, "--json")
    assert (code, json.loads(out), err) == (0, [{"p": "Zoë🃏 — …"}], b"")
    assert _in("utf-8", db, "sql", query) == (
        0, ("p\n" + "─" * 9 + "\nZoë🃏 — …\n(1 row)\n").encode(), b"")
    assert _in("ascii", db, "buyin", "fri", "Ann", "100") == (
        0, b"fri: Ann buy-in 100 chips (entry 3)\n", b"")
    code, out, err = _in("ascii", db, "sql", query)
    assert (code, out.decode().splitlines()[2], err) == (0, "Zoë🃏 — …", b"")
