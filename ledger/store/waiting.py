"""Waiting a bounded time for a ledger file another process holds.

DuckDB lets one process open a file for writing, or any number for reading; an open that
conflicts fails at once (:class:`ledger.model.errors.LedgerBusy`). A command would rather wait
for the other process to finish: :func:`waiting` retries an open every :data:`POLL` seconds
until it succeeds or the process's wait policy (:func:`configure`, set by the CLI from
``--wait`` / ``--no-wait``) runs out, saying once that it waits and for what. The policy
outside the CLI is to fail at once (``seconds`` 0), as DuckDB does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ledger.model.errors import LedgerBusy

T = TypeVar("T")

#: Seconds between two attempts to open a busy ledger.
POLL = 0.05


@dataclass(frozen=True)
class Policy:
    """How long an open waits for a busy ledger (``seconds``; 0: not at all) and where the
    line saying that it waits goes (``say``; None: nowhere)."""

    seconds: float = 0.0
    say: Callable[[str], None] | None = None


_policy = Policy()
_said: set[str] = set()  # the ledgers this process has said it waits for


def configure(seconds: float = 0.0, say: Callable[[str], None] | None = None) -> None:
    """Set this process's wait policy (see :class:`Policy`); ``configure()`` restores the
    default, failing at once."""
    global _policy
    _policy = Policy(max(0.0, seconds), say)
    _said.clear()


def policy() -> Policy:
    """This process's wait policy."""
    return _policy


def holder_text(exc: LedgerBusy) -> str:
    """What holds the ledger, in words: ``another process (pid 4321: handledger import
    big.jsonl) is writing it``."""
    return f"{exc.who} is {'reading' if exc.holder == 'reader' else 'writing'} it"


def waiting(path: str, attempt: Callable[[], T], *, wait: bool = True) -> T:
    """``attempt()`` (an open of the ledger at ``path``), retried while it raises
    :class:`LedgerBusy` because another process holds the file, for at most the policy's
    seconds (``wait`` False: not at all). The first retry says so, once a process and ledger
    (a command that opens the ledger twice and waits twice says it once):
    ``waiting for the ledger PATH (another process (pid 4321: handledger import big.jsonl) is
    writing it; --no-wait to fail at once)``.

    Raises:
        LedgerBusy: still busy when the time is up (saying how long it waited), at once when
            this process itself holds the file in the other mode; whatever ``attempt`` raises.
    """
    rules = _policy if wait else Policy()
    deadline: float | None = None
    while True:
        try:
            return attempt()
        except LedgerBusy as exc:
            if exc.holder == "mode" or rules.seconds <= 0:
                raise
            now = time.monotonic()
            if deadline is None:
                deadline = now + rules.seconds
                if rules.say is not None and path not in _said:
                    _said.add(path)
                    rules.say(f"waiting for the ledger {path} ({holder_text(exc)}; --no-wait "
                              "to fail at once)")
            elif now >= deadline:
                raise LedgerBusy(f"{exc.message} (waited {rules.seconds:g} s; --wait SECONDS "
                                 "waits longer)", holder=exc.holder, who=exc.who) from exc
            time.sleep(min(POLL, max(0.0, deadline - now)))
