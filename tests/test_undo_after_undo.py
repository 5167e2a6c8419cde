"""An ``undo`` right after an ``undo`` that has nothing left to take back names the last thing
appended, the undo, and says an undo is not undone (README "undo": the last thing appended, an
action, a correction or a void; undo after undo walks back past an undo and what it took back).
It named only the write it walked back to: "cannot undo seq 20 (hand_ended)…"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_act_end_warning import _at_showdown
from tests.test_live_table import events, one_shot

ENDED = ("cannot undo seq 20 (hand_ended): it ends the hand, and an ended hand is not opened "
         "again; change what it paid with `handledger correct` (--insert-after SEQ before the "
         "end, --replace SEQ) or void it")


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hand e1 ended at seq 20, Dee paid the 404 his aces win."""
    db = tmp_path_factory.mktemp("undo") / "e.duckdb"
    _at_showdown(db, "pay Dee 404")
    assert one_shot(db, "act", "e1", "end")[0] == 0
    return db


@pytest.mark.parametrize("closed", [[], ["--closed"]])
def test_undo_of_a_correction_then_undo_again(ended: Path, tmp_path: Path,
                                              closed: list[str]) -> None:
    db = tmp_path / "u.duckdb"
    shutil.copy(ended, db)
    assert one_shot(db, "correct", "e1", "--replace", "19", "pay Ann 404", "--reason", "fix",
                    "--by", "host")[0] == 0
    assert one_shot(db, "undo", "e1", "--by", "host", *closed)[1].startswith(
        "undid the correction at seq 21 (by host: fix) in hand e1 (seq 22)")
    before = events(db)
    assert one_shot(db, "undo", "e1", "--by", "host", *closed) == (
        2, "", "error: hand e1: cannot undo seq 22, the last thing appended: it is the undo "
               "of the correction at seq 21 (by host: fix), and an undo is not undone "
               "(record that again with `handledger correct`); walking back past it, as undo "
               f"after undo does: {ENDED}\n")
    assert events(db) == before


@pytest.mark.parametrize("closed", [[], ["--closed"]])
def test_void_undo_undo(ended: Path, tmp_path: Path, closed: list[str]) -> None:
    db = tmp_path / "v.duckdb"
    shutil.copy(ended, db)
    assert one_shot(db, "void", "e1", "--reason", "misdeal", "--by", "host", *closed)[0] == 0
    assert one_shot(db, "undo", "e1", "--by", "host", *closed)[1].startswith(
        "undid the void at seq 22 (by host: misdeal) in hand e1 (seq 23)")
    assert one_shot(db, "undo", "e1", "--by", "host", *closed) == (
        2, "", "error: hand e1: cannot undo seq 23, the last thing appended: it is the undo "
               "of the void at seq 22 (by host: misdeal), and an undo is not undone (record "
               "that again with `handledger void`); walking back past it, as undo after undo "
               f"does: {ENDED}\n")


def test_the_end_itself_as_before(ended: Path, tmp_path: Path) -> None:
    """No undo in between: the end's own refusal, unchanged."""
    db = tmp_path / "w.duckdb"
    shutil.copy(ended, db)
    assert one_shot(db, "undo", "e1", "--by", "host") == (2, "", f"error: hand e1: {ENDED}\n")
