"""A PokerNow log that cannot be the game it copies, or whose session's book has a line that
cannot be read, is refused whole: the `error:` line names it and nothing of the file is
written (README, PokerNow; FORMATS.md §2). A rename the game logged still imports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from tests.conftest import SHARED
from tests.copies import build_ledger
from tests.test_pokernow_renamed import _with_ids

# 4 hands, 83 events; "A8 @ gE4aE_Yhc3" sits in seat 1 of each; hand #1 starts on line 70
CT = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
A8 = "gE4aE_Yhc3"
EMPTY = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
#: The same, the copy's four hands held (as a file refused once checked counts them).
HELD = "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 1 rejected\n"
#: The copy's four hands held, the one its refusal names counted once: rejected.
HELD_ONE_REFUSED = ("imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
                    "1 rejected\n")
#: its 4 hands none of the ledger's: each not written with the refused file
UNWRITTEN = ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
             "4 other hand(s) not written, their file refused\n")
#: Its 4 hands none of the ledger's, the one its refusal names rejected, the 3 others not written
OTHERS = ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
          "3 other hand(s) not written, their file refused\n")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _runner(db: Path):  # noqa: ANN202
    runner = CliRunner()

    def run(*args: str):  # noqa: ANN202
        return runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    return run


def _rows(run) -> str:  # noqa: ANN001
    """The chain's head line: how many events and their hash."""
    return run("verify").output


def _edited_seat(path: Path, line: int, hand: str, session: str) -> str:
    return (f"error: {path}:{line}, hand {hand}: this PokerNow hand is in the ledger already "
            f"(session {session}) with another player: seat 1 is player gE4aE_Yhc4 here, "
            f"{A8} in the ledger; nothing of the file was written (an edited copy of the game:"
            " its hands and buy-ins would count twice)\n")


@pytest.mark.parametrize("ids", [True, False])
def test_a_copy_with_one_id_edited_is_refused_and_writes_nothing(tmp_path, ids) -> None:  # noqa: ANN001
    """With hand ids the copy's hands were each refused, yet its alias, join and 50-chip
    buy-in for the new id were written; without them it was a new session counting every
    other player's result twice (4 hands, 4 buy-ins, exit 0)."""
    text = CT.read_text(encoding="utf-8")
    original = _write(tmp_path / "game.csv", _with_ids(text) if ids else text)
    copy = _write(tmp_path / "copy.csv",
                  original.read_text(encoding="utf-8").replace(A8, "gE4aE_Yhc4"))
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(original)]])
    run = _runner(db)
    before = _rows(run)
    assert before.startswith("ok: 83 events")
    out = run("import", str(copy))
    assert out.exit_code == 2
    hand = "pn-game-h164267577749500" if ids else "pn-game-1-164267577749500"
    # with hand ids its hands are the stored ones by their keys (held, but the refused one);
    # without, its edited seat makes each key another
    assert out.output == _edited_seat(copy, 70, hand, "game") + (
        HELD_ONE_REFUSED if ids else OTHERS)
    assert _rows(run) == before
    balances = run("balances").output
    assert "gE4aE_Yhc4" not in balances and "A8 " in balances


def _between_hands_2_and_3(entry: str, new_id: str | None = None) -> str:
    """The log with ``entry`` logged between hands #2 and #3 (line 32, just below hand #3's
    start: newest first), the lines after it naming ``new_id`` for A8."""
    lines = CT.read_text(encoding="utf-8").splitlines(keepends=True)
    start3 = next(i for i, t in enumerate(lines) if t.startswith('"-- starting hand #3'))
    assert start3 == 30  # line 31
    later = lines[1:start3 + 1]
    if new_id is not None:
        later = [t.replace(A8, new_id) for t in later]
    row = f'"{entry}",2022-01-20T10:51:20.000Z,164267588000000\n'
    return "".join([lines[0], *later, row, *lines[start3 + 1:]])


BAD_ID_CHANGE = (f'The player ""A8 @ {A8}"" changed the ID from {A8} to ZZZZZZZZZ1.',
                 f"action 'The player \"A8 @ {A8}\" changed the ID from {A8} to ZZZZZZZZZ1.':"
                 f" the ID changes to ZZZZZZZZZ1, not to the player's {A8}")
BAD_APPROVAL = (f'The admin approved the player ""A8 @ {A8}"" participation with a stack of 5x0.',
                f"action 'The admin approved the player \"A8 @ {A8}\" participation with a stack"
                " of 5x0.': unrecognised log entry")


@pytest.mark.parametrize(("entry", "said"), [BAD_ID_CHANGE, BAD_APPROVAL])
def test_a_session_line_that_cannot_be_read_refuses_the_file(tmp_path, entry, said) -> None:  # noqa: ANN001
    """Before, the line alone was refused and the 4 hands imported (ZZZZZZZZZ1 with hands
    and no buy-in)."""
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(SHARED / "pokernow" /
                                                             "charlestudor_Input_Log_001.csv")]])
    run = _runner(db)
    before = _rows(run)
    log = _write(tmp_path / "bad.csv", _between_hands_2_and_3(entry, "ZZZZZZZZZ1"))
    for jobs in ("1", "2"):
        out = run("import", "--jobs", jobs, str(log))
        assert out.exit_code == 2
        assert out.output == (f"error: {log}:32, session bad, {said}; a line of the session's "
                              "book is refused, so nothing of the file was written (correct "
                              "the line and import the file again)\n" + UNWRITTEN)
        assert _rows(run) == before


def test_an_id_change_the_game_logged_imports_after_the_hands_before_it(tmp_path) -> None:  # noqa: ANN001
    """The hands stored before the change keep the old id (seat 1 is gE4aE_Yhc3 in both
    files there): the longer export is no edited copy and adds hand #4, as one import of it."""
    lines = CT.read_text(encoding="utf-8").splitlines(keepends=True)
    start4 = next(i for i, t in enumerate(lines) if t.startswith('"-- starting hand #4'))
    assert start4 == 15  # line 16; hand #3 ended at 10:51:58.556, #4 starts at 10:52:04.567
    change = (f'"The player ""A8 @ ZZZZZZZZZ1"" changed the ID from {A8} to ZZZZZZZZZ1.",'
              "2022-01-20T10:52:00.000Z,164267592000000\n")
    short = _write(tmp_path / "short.csv", "".join([lines[0], *lines[start4 + 1:]]))
    longer = _write(tmp_path / "longer.csv", "".join(
        [lines[0], *(t.replace(A8, "ZZZZZZZZZ1") for t in lines[1:start4 + 1]), change,
         *lines[start4 + 1:]]))
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(short)]])
    run = _runner(db)
    out = run("import", str(longer))
    assert out.exit_code == 0, out.output
    assert out.output.startswith("imported 1 hand(s) (18 events) from 1 file(s); 3 already in "
                                 "the ledger; 0 rejected")
    # 67 + 18: the 85 events of the longer log imported alone (2 aliases of the change)
    assert _rows(run).startswith("ok: 85 events")
    rows = json.loads(run("sql", "--json", "SELECT CAST(payload->'seats' AS VARCHAR) AS s"
                          " FROM events WHERE type = 'hand_started' ORDER BY position").output)
    seat1 = [next(s["player"] for s in json.loads(r["s"]) if s["seat"] == 1) for r in rows]
    assert seat1 == [A8, A8, A8, "ZZZZZZZZZ1"]
    assert run("audit").exit_code == 0


def test_a_copy_with_its_oldest_row_edited_is_refused(tmp_path) -> None:  # noqa: ANN001
    """Its hands are the stored ones, but the oldest row names the game in its session lines'
    keys: before, its 19 session lines (4 buy-ins, 7 seat changes, 3 cash-outs, 5 aliases)
    were written again, every buy-in counted twice, exit 0."""
    lines = CT.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[-1].startswith('"The player ""A8 @ gE4aE_Yhc3"" requested a seat.')
    copy = _write(tmp_path / "copy.csv", "".join([*lines[:-1],
                                                   lines[-1].replace("A8 @", "A7 @")]))
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(CT)]])
    run = _runner(db)
    before = _rows(run)
    out = run("import", str(copy))
    assert out.exit_code == 2
    assert out.output == (
        f"error: {copy}: this PokerNow game is in the ledger already (session "
        "charlestudor_Input_Log_002: its first hand is), but its oldest row is not the one the "
        "stored export begins with: an edited copy, whose joins and buy-ins would be written a "
        "second time; nothing of the file was written\n" + HELD)
    assert _rows(run) == before


@pytest.mark.parametrize(("edit", "said"), [
    (lambda t: t.replace(",164267588246200\n", ",16426758824620x\n"),
     "order '16426758824620x' is not an integer"),
    (lambda t: t.replace(",2022-01-20T10:51:22.462Z,164267588246200\n", "\n"),
     "row has too few columns")])
def test_a_row_that_cannot_be_placed_refuses_the_file(tmp_path, edit, said) -> None:  # noqa: ANN001
    """Line 32, the quit of @ovvkpfngo@@@ (CzMp1GAawT) between hands #2 and #3: before, the
    row was reported and then sorted first in its millisecond (or left out) while the whole
    log was imported, 83 events, exit 2."""
    db = build_ledger(tmp_path / "t.duckdb", [["import", str(SHARED / "pokernow" /
                                                             "charlestudor_Input_Log_001.csv")]])
    run = _runner(db)
    before = _rows(run)
    log = _write(tmp_path / "bad.csv", edit(CT.read_text(encoding="utf-8")))
    out = run("import", str(log))
    assert out.exit_code == 2
    action = (", action 'The player \"@ovvkpfngo@@@ @ CzMp1GAawT\" quits the game with a stack "
              "of 0.'" if "order" in said else "")
    assert out.output == (
        f"error: {log}:32{action}: {said}: the row cannot be placed "
        "in the log, so nothing of the file was written (the lines around it would be read in "
        "a guessed order or without it; correct the row and import the file again)\n" + EMPTY)
    assert _rows(run) == before
