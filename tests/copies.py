"""Ledgers built once for a module by the commands a host types, and copied for each test:
a test changes only its own copy, and the commands that built the ledger are run once, not
once a test."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path


def copy_ledger(source: Path, target: Path) -> Path:
    """Copy the ledger file ``source`` (and its write-ahead log and checkpoints, if any) to
    ``target``; returns ``target``. Every command closes the file when it ends, so a copy
    taken between commands is the ledger as the next command would open it."""
    for suffix in ("", ".wal", ".checkpoints"):
        theirs = Path(f"{source}{suffix}")
        if theirs.exists():
            shutil.copyfile(theirs, f"{target}{suffix}")
    return target


def build_ledger(db: Path, steps: Iterable[Sequence[str]]) -> Path:
    """Run each command of ``steps`` (the words a host types after ``handledger --db DB``) on
    the ledger ``db`` in order, each asserted to exit 0; returns ``db``."""
    from click.testing import CliRunner

    from cli.main import cli

    runner = CliRunner()
    for step in steps:
        out = runner.invoke(cli, ["--db", str(db), *step], catch_exceptions=False)
        assert out.exit_code == 0, (step, out.output)
    return db
