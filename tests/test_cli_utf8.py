"""The CLI's UTF-8 check of text arguments has a public home (:mod:`cli.utf8`): no CLI module
imports another's private names, and the check says the text with its bad byte escaped."""

from __future__ import annotations

import ast

import pytest

from cli.utf8 import check_utf8, escaped, is_utf8
from ledger.model.errors import MalformedInput
from tests.conftest import ROOT


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
