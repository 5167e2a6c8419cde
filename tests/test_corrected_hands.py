"""Hands a correction changed, read back through every command: ``view`` and ``report`` show
the corrected hand and its original (an original the rules refuse is shown as such), and a
hand's events carry one numbering, the seq of the hand's stream, in ``act``, ``show``,
``history``, ``correct`` and the error messages (replay/fold.py ``numbered_events``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.store.store import Ledger
from tests.copies import copy_ledger


def _start(run, hand: str, first: str = "Ann", second: str = "Bob") -> None:  # noqa: ANN001
    assert run("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2", "--seats",
               f"{first}:100,{second}:100", "--button", first).exit_code == 0


def _builder(db: Path):  # noqa: ANN202
    """``run`` on the ledger ``db``, for a module fixture."""
    from cli.main import cli

    def run(*args: str):  # noqa: ANN202
        return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    return run


@pytest.fixture(scope="module")
def folded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The case as reported, in hand o4: Ann folds, the host undoes it, Ann calls instead;
    built once for the module: the ledger and what the call's `act` printed."""
    db = tmp_path_factory.mktemp("folded") / "t.duckdb"
    run = _builder(db)
    _start(run, "o4")
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Ann f"):
        assert run("act", "o4", action).exit_code == 0
    assert run("undo", "o4", "--by", "host").exit_code == 0
    out = run("act", "o4", "Ann cc")
    assert out.exit_code == 0
    return db, out.output


def _folded_then_undone(folded: tuple[Path, str], db: str) -> None:
    """The test's ledger ``db`` becomes a copy of ``folded``."""
    built, printed = folded
    copy_ledger(built, Path(db))
    assert printed.startswith("8 call")


def test_view_of_a_hand_whose_correction_deleted_an_action(run, db, tmp_path: Path, folded) -> None:  # noqa: ANN001
    _folded_then_undone(folded, db)
    assert run("replay", "--hand", "o4").exit_code == 0
    page = tmp_path / "o4.html"
    out = run("view", "o4", "-o", str(page))
    assert out.exit_code == 0, out.output
    text = page.read_text(encoding="utf-8")
    assert "This version does not replay: event 8 (call by Ann): Ann has folded." in text
    assert 'id="version-original"' in text


def test_the_two_versions_of_the_undone_hand(run, db, folded) -> None:  # noqa: ANN001
    from replay.handview import load_view

    _folded_then_undone(folded, db)
    with Ledger(db, read_only=True) as ledger:
        view = load_view(ledger, "o4")
    fixed, orig = view.corrected, view.original
    # stream: 1 started, 2-3 blinds, 4-5 hole cards, 6 fold (deleted by 7), 8 call
    assert [s.seq for s in fixed.steps.steps] == [1, 2, 3, 4, 5, 8]
    assert fixed.status == "open" and fixed.steps.broken is None
    assert [s.seq for s in orig.steps.steps] == [1, 2, 3, 4, 5, 6]
    assert orig.status == "unreplayable" and orig.payouts == ()
    assert orig.steps.broken == "event 8 (call by Ann): Ann has folded"


def test_report_writes_the_page_of_the_corrected_hand(run, db, tmp_path: Path, folded) -> None:  # noqa: ANN001
    _folded_then_undone(folded, db)
    # a second hand: the deletion made with `correct` instead of `undo`; other players, as
    # Ann and Bob are in play in o4 (one hand at a time, RULES.md §1.1)
    _start(run, "o5", "Cy", "Dee")
    for action in ("d dh Cy AsAh", "d dh Dee KsKh", "Cy f"):
        assert run("act", "o5", action).exit_code == 0
    assert run("correct", "o5", "--delete", "6", "--reason", "she called", "--by",
               "host").exit_code == 0
    assert run("act", "o5", "Cy cc").exit_code == 0
    site = tmp_path / "site"
    assert run("report", str(site)).exit_code == 0
    for hand, who in (("o4", "Ann"), ("o5", "Cy")):
        text = (site / "hands" / f"{hand}.html").read_text(encoding="utf-8")
        assert "cannot be replayed" not in text
        assert f"This version does not replay: event 8 (call by {who}): {who} has folded." in text
    assert "unreplayable" not in run("audit").output


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """Hand o3: Bob raises by mistake (seq 7), the host undoes it (seq 8), the hand goes on
    to its end; built once for the module: the ledger and the seqs `act` printed after the
    undo."""
    db = tmp_path_factory.mktemp("river") / "t.duckdb"
    run = _builder(db)
    _start(run, "o3")
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cc", "Bob cbr 4"):
        assert run("act", "o3", action).exit_code == 0
    assert run("undo", "o3", "--by", "host").exit_code == 0
    printed = []
    for action in ("Bob cc", "d db 2c3d4h", "Bob cc", "Ann cc", "d db 9s", "Bob cc", "Ann cc",
                   "d db Td", "Bob cc", "Ann cc", "pay Ann 4", "end"):
        out = run("act", "o3", action)
        assert out.exit_code == 0
        printed.append(int(out.output.split()[0]))
    return db, printed


def _river_after_an_undo(river: tuple[Path, list[int]], db: str) -> None:
    """The test's ledger ``db`` becomes a copy of ``river``."""
    built, printed = river
    copy_ledger(built, Path(db))
    assert printed == list(range(9, 21))  # the river is dealt at seq 16


def test_show_numbers_events_as_act_and_history_do(run, db, river) -> None:  # noqa: ANN001
    _river_after_an_undo(river, db)
    lines = run("show", "o3").output.splitlines()
    numbered = {int(line.split()[0]): line.split()[1] for line in lines
                if line[:3].strip().isdigit()}
    assert sorted(numbered) == [2, 3, 4, 5, 6, *range(9, 21)]
    assert numbered[16] == "d" and numbered[19] == "pay"
    assert numbered[20] == "hand_ended"
    history = run("history", "o3").output
    assert " 16 @16 " in history and "cards_dealt" in history.split(" 16 @16 ")[1][:60]
    at = run("show", "o3", "--at", "16").output.splitlines()
    assert [line.split()[0] for line in at if line[:3].strip().isdigit()][-1] == "16"


def test_a_refused_correction_names_the_event_by_its_stream_seq(run, db, river) -> None:  # noqa: ANN001
    _river_after_an_undo(river, db)
    with Ledger(db, read_only=True) as ledger:
        before = len(ledger.read("o3"))
    out = run("correct", "o3", "--delete", "5", "--reason", "x", "--by", "host")
    assert out.exit_code == 2
    assert out.output == ("error: hand o3: the corrected hand is not legal: event 6 (call by Ann): "
                          "no betting now (deal phase)\n")
    with Ledger(db, read_only=True) as ledger:
        assert len(ledger.read("o3")) == before
