"""A small run of the ``kill -9`` campaign of ``bench/kills.py`` (the README reports the big one).

The scripted bad night up to its first correction, a folder import and the rebuilds, run once
cleanly; then one command of each kind (a session command, a book entry, a live hand's start
and action, a correction, an import of a folder, a rebuild) is killed at a random moment as a
real process: ``verify`` passes, only whole hands and book entries are there, running it again
completes without duplicates, and the events then equal the clean run's event for event (and
``audit --json`` says the same).
"""

from __future__ import annotations

from pathlib import Path

from bench import kills

TARGETS = ["buyin", "entry amend", "hand start", "act", "correct", "import", "replay"]


def test_a_kill_of_each_kind_of_command_leaves_whole_hands_and_reruns_to_the_clean_ledger(
        tmp_path: Path) -> None:
    counts, failures = kills.campaign(len(TARGETS), seed=5, work=tmp_path, short=True,
                                      to_end=0.0, targets=TARGETS)
    assert failures == []
    assert counts["trials"] == len(TARGETS)
    assert counts["command:import"] == counts["command:replay"] == 1


def test_ctrl_c_of_a_write_an_import_and_a_rebuild_is_aborted_and_reruns_clean(
        tmp_path: Path) -> None:
    """The same with SIGINT: each also ends "Aborted", exit 130, or finishes; no traceback."""
    import signal

    counts, failures = kills.campaign(3, seed=6, work=tmp_path, short=True, to_end=0.0,
                                      targets=["act", "import", "replay"], sig=signal.SIGINT)
    assert failures == []
    assert counts["trials"] == 3
