"""A small run of the ``kill -9`` campaign of ``bench/kills.py`` (the README reports the big one).

The scripted bad night up to its first correction, a folder import and the rebuilds, run once
cleanly; then one command of each kind (a book entry, a live hand's start
and action, a correction, an import of a folder, a rebuild) is killed at a random moment as a
real process: ``verify`` passes, only whole hands and book entries are there, running it again
completes without duplicates, and the events then equal the clean run's event for event (and
``audit --json`` says the same). The commands no trial kills, and ``verify`` and ``audit``
after each trial, run in the test's own process (the killed command and its re-run are
processes).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bench import kills

#: One command of each kind: a book entry (entry amend and the other entries write alike), a live
#: action (a hand's start is one too), a correction, an import of a folder, a rebuild.
TARGETS = ["buyin", "act", "correct", "import", "replay"]


def test_a_kill_or_ctrl_c_of_each_kind_of_command_leaves_whole_hands_and_reruns_clean(
        tmp_path: Path) -> None:
    """One clean run of the short night (with the audits after each target's command), then
    a ``kill -9`` of each kind of command; then SIGINT for a rebuild (tests/test_interrupts.py
    interrupts imports and corrections at random moments): it ends "Aborted", exit 130, or
    finishes; no traceback. (One test: the clean run is the longest part, and xdist would
    make it once a worker.)"""
    night = kills.prepare(tmp_path, short=True, targets=TARGETS)
    counts, failures = kills.campaign(len(TARGETS), seed=5, work=night.work, to_end=0.0,
                                      targets=TARGETS, prepared=night)
    assert failures == []
    assert counts["trials"] == len(TARGETS)
    assert counts["command:import"] == counts["command:replay"] == 1
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
