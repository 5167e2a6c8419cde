"""A small run of the ``kill -9`` campaign of ``bench/kills.py`` (the README reports the big one).

The scripted bad night up to its first correction, a folder import and the rebuilds, run once
cleanly (shared by both tests: they run on one worker, ``xdist_group``); then one command of
each kind (a session command, a book entry, a live hand's start and action, a correction, an
import of a folder, a rebuild) is killed at a random moment as a real process: ``verify``
passes, only whole hands and book entries are there, running it again completes without
duplicates, and the events then equal the clean run's event for event (and ``audit --json``
says the same).
"""

from __future__ import annotations

import signal

import pytest

from bench import kills

TARGETS = ["buyin", "entry amend", "hand start", "act", "correct", "import", "replay"]

pytestmark = pytest.mark.xdist_group("kill-campaign")


@pytest.fixture(scope="session")
def night(tmp_path_factory: pytest.TempPathFactory) -> kills.Night:
    """The short night and its clean run, with the audits after each target's command: made
    once for the worker (a module's fixture is made again when another module's tests ran
    between these, as xdist's scheduling may)."""
    return kills.prepare(tmp_path_factory.mktemp("night"), short=True, targets=TARGETS)


def test_a_kill_of_each_kind_of_command_leaves_whole_hands_and_reruns_to_the_clean_ledger(
        night: kills.Night) -> None:
    counts, failures = kills.campaign(len(TARGETS), seed=5, work=night.work, to_end=0.0,
                                      targets=TARGETS, prepared=night)
    assert failures == []
    assert counts["trials"] == len(TARGETS)
    assert counts["command:import"] == counts["command:replay"] == 1


def test_ctrl_c_of_a_write_an_import_and_a_rebuild_is_aborted_and_reruns_clean(
        night: kills.Night) -> None:
    """The same with SIGINT: each also ends "Aborted", exit 130, or finishes; no traceback."""
    counts, failures = kills.campaign(3, seed=6, work=night.work, to_end=0.0,
                                      targets=["act", "import", "replay"], sig=signal.SIGINT,
                                      prepared=night)
    assert failures == []
    assert counts["trials"] == 3
    assert counts["command:act"] == counts["command:import"] == counts["command:replay"] == 1


def test_a_night_prepared_without_a_targets_audit_is_refused(night: kills.Night) -> None:
    """A shared clean run kept audits only after the targets' commands: a campaign over
    another command would compare with an audit never taken, so it is refused."""
    with pytest.raises(ValueError, match="kept no audit after commands"):
        kills.campaign(1, seed=1, work=night.work, targets=["session open"], prepared=night)
