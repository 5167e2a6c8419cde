"""A ledger another process is making: a read that finds no ledger file waits for it.

A new ledger's tables are written into a file of its own beside its path
(``<path>.<pid>-<hex>.new``, :func:`ledger.store.store._create`), linked into place once whole.
Meanwhile there is no file at the path, yet a ledger is being made there, and the process
making it goes on to write it (``import`` of a new ledger): a read then waits for it as for a
writer (:mod:`ledger.store.waiting`), or, when its wait runs out (``--no-wait``), says in one
line which process is making it. A ``.new`` file of a process that is gone (``kill -9``
during the making) is no ledger being made. Nothing here writes or creates a file.
"""

from __future__ import annotations

import os
import re

from ledger.model.errors import LedgerBusy, no_ledger
from ledger.store.holders import process_words
from ledger.store.waiting import waiting


def maker(path: str) -> int | None:
    """The pid of a live process making a ledger at ``path`` (its ``.new`` file is there),
    None when there is none (or the folder cannot be listed)."""
    folder, name = os.path.split(path)
    pattern = re.compile(re.escape(name) + r"\.(\d+)-[0-9a-f]{8}\.new")
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return None
    for entry in sorted(entries):
        found = pattern.fullmatch(entry)
        if found and _alive(int(found.group(1))):
            return int(found.group(1))
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: there
        return True
    except OSError:
        return False
    return True


def wait_until_made(path: str, *, wait: bool = True) -> None:
    """Return once there is a file at ``path``: at once when there is one, else after
    waiting, by the process's wait policy, for the process making a ledger there.

    Raises:
        NotFound: no ledger at ``path`` and none being made (or its making ended without
            one); LedgerBusy: a ledger is being made there still when the wait runs out
            (``ledger PATH is being made: another process (pid N: handledger import …) is
            writing it``).
    """

    def made() -> None:
        if os.path.exists(path):
            return
        pid = maker(path)
        if pid is None:
            if os.path.exists(path):  # linked into place since
                return
            raise no_ledger(path)
        who = process_words(pid)
        raise LedgerBusy(f"ledger {path} is being made: {who} is writing it", holder="writer",
                         who=who)

    waiting(path, made, wait=wait)
