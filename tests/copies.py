"""Ledgers built once for a module by the commands a host types, and copied for each test:
a test changes only its own copy, and the commands that built the ledger are run once, not
once a test."""

from __future__ import annotations

import shutil
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
