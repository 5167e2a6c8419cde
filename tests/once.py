"""Ledgers that several tests (of one module or of several) build by the same commands, built
once a test session (each worker of ``-n 2`` builds its own) under pytest's temporary folder
and copied by each test (:func:`tests.copies.copy_ledger`): a test changes only its copy, never
the ledger built once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tests.copies import build_ledger, copy_ledger

_BUILT: dict[str, Path] = {}


def built_once(factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], Path]) -> Path:
    """The ledger ``name``: ``build(folder)`` (a new empty folder; it returns the ledger's
    path) run the first time it is asked for in this test session, the same path after;
    never to be written (copy it first)."""
    if name not in _BUILT:
        _BUILT[name] = build(factory.mktemp(name.replace("+", "_")))
    return _BUILT[name]


def steps_once(factory: pytest.TempPathFactory, name: str,
               *steps: Sequence[str], base: str | None = None) -> Path:
    """The ledger ``name``: the ledger ``base`` (built before, by this function) copied, or a
    new one, and then ``steps`` run on it (:func:`tests.copies.build_ledger`, each to exit 0)."""
    def build(folder: Path) -> Path:
        db = folder / "l.duckdb"
        if base is not None:
            copy_ledger(_BUILT[base], db)
        return build_ledger(db, steps)

    return built_once(factory, name, build)
