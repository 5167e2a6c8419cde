"""A small run of the ``kill -9`` campaign of ``bench/kills.py`` (the README reports the big one).

The scripted bad night up to its first correction, a folder import and the rebuilds, run once
cleanly for the module; then one command of each kind (a book entry, a live hand's start
and action, a correction, an import of a folder, a rebuild) is killed at a random moment as a
real process: ``verify`` passes, only whole hands and book entries are there, running it again
completes without duplicates, and the events then equal the clean run's event for event (and
``audit --json`` says the same). The commands no trial kills, and ``verify``, the re-run
and ``audit`` after each trial, run in the test's own process as the console script runs them
(:func:`cli.main.run`); the killed command is a real process, and so is each target's command
in the clean run (its duration times the kill). Each killed command is a case of its own
(the clean night runs once for the module: ``-n 2`` sends a file's tests to one worker,
pyproject's ``--dist loadfile``).
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from bench import kills

#: One command of each kind: a book entry (entry amend and the other entries write alike), a live
#: action (a hand's start is one too), a correction, an import of a folder, a rebuild.
TARGETS = ["buyin", "act", "correct", "import", "replay"]


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> kills.Night:
    """The short night's clean run (with the audits after each target's command), once for
    the module: each trial works on its own copy of the ledger as it was before the command
    (:func:`bench.kills.trial`), never on the clean run's files."""
    return kills.prepare(tmp_path_factory.mktemp("night"), short=True, targets=TARGETS)


@pytest.fixture
def rerun_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the clean run, every command a trial runs itself (``verify``, the re-run,
    ``audit --json``) runs in this process: only the killed command is a process (a trial
    starts it with :class:`subprocess.Popen`, not through :func:`bench.kills.handledger`)."""
    as_before = kills.handledger

    def here(db: Path, args: list[str], cwd: Path, timeout: float = 600, *,
             here: bool = False) -> subprocess.CompletedProcess:
        return as_before(db, args, cwd, timeout, here=True)

    monkeypatch.setattr(kills, "handledger", here)


@pytest.mark.parametrize("target", TARGETS)
def test_a_kill_of_each_kind_of_command_leaves_whole_hands_and_reruns_clean(
        target: str, night: kills.Night, rerun_here: None) -> None:
    """A ``kill -9`` of the command, at a seeded moment of its clean duration: ``verify``
    passes, only whole hands and entries, and its re-run gives the clean run's events and
    audit."""
    counts, failures = kills.campaign(1, seed=5, work=night.work, to_end=0.0,
                                      targets=[target], prepared=night)
    assert failures == []
    assert counts["trials"] == counts[f"command:{target}"] == 1


def test_ctrl_c_of_a_rebuild_ends_aborted_or_finishes(night: kills.Night, rerun_here: None
                                                     ) -> None:
    """SIGINT for a rebuild (tests/test_interrupts.py interrupts imports and corrections at
    random moments): it ends "Aborted", exit 130, or finishes; no traceback; then as a kill."""
    counts, failures = kills.campaign(1, seed=6, work=night.work, to_end=0.0,
                                      targets=["replay"], sig=signal.SIGINT, prepared=night)
    assert failures == []
    assert counts["trials"] == counts["command:replay"] == 1


def test_a_night_prepared_without_a_targets_audit_is_refused(tmp_path: Path) -> None:
    """A shared clean run kept audits only after the targets' commands: a campaign over
    another command would compare with an audit never taken, so it is refused before any
    trial (a night of two commands, audited after the second only)."""
    script = [["session", "open", "s"], ["buyin", "s", "Ann", "100"]]
    night = kills.Night(script, kills.Clean(script), {1}, tmp_path)
    with pytest.raises(ValueError, match=r"kept no audit after commands \[0\]"):
        kills.campaign(1, seed=1, work=tmp_path, targets=["session open"], prepared=night)
