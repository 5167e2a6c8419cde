"""``handledger table HAND``: a live hand recorded by one process reading lines from standard
input. Every line does what the one-shot ``act`` / ``state`` does (same events, same hash
chain, same output, same one error line), a refused line leaves nothing and the session goes
on (exit 2 at the end), the ledger is free for other processes between lines, and a session
that ends without ``end`` leaves the hand live."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from cli.main import run as run_main
from tests.copies import copy_ledger
from tests.live_words import DEALT_ANN, DEALT_BOB, NEXT_BOB, NEXT_CY

HANDLEDGER = str(Path(sys.executable).with_name("handledger"))
SEATS = "Ann:200,Bob:150,Cy:300"
#: A three-handed hand to its end (docs/LIVE.md, "A night at the table"), ``state`` now and then:
#: Cy folds, Bob all-in for 150, a side pot of Bob's uncalled 142 returned, Ann wins 300.
LINES = ["d dh Ann AsKs", "d dh Bob QhQd", "state", "d dh Cy 7c2d", "Cy f", "Ann cbr 8",
         "state", "Bob cbr 150", "Ann cc", "d db 2c7h9s", "d db Kd", "d db 3c", "state",
         "Ann sm AsKs", "Bob sm QhQd", "pay Ann 300", "state", "end", "state"]


def one_shot(db: Path, *args: str, input: bytes | None = None,  # noqa: A002
             ) -> tuple[int, str, str]:
    """``handledger --db DB ARGS`` as the console script runs it, in this process (``input``
    its standard input: a file, not a terminal)."""
    from click.testing import CliRunner

    with CliRunner().isolation(input=input) as (out, err, _):
        try:
            code = run_main(["--db", str(db), *args])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()


def table(db: Path, hand: str, lines: list[str] | bytes, *options: str
          ) -> subprocess.CompletedProcess[str]:
    """``handledger table HAND`` as a real process, ``lines`` on its standard input."""
    data = lines if isinstance(lines, bytes) else "".join(f"{x}\n" for x in lines).encode()
    done = subprocess.run([HANDLEDGER, "--db", str(db), "table", hand, *options], input=data,
                          capture_output=True, timeout=120)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                       done.stderr.decode())


def table_here(db: Path, hand: str, lines: list[str], *options: str
               ) -> subprocess.CompletedProcess[str]:
    """:func:`table` run as the console script runs it, in this process: standard input a
    file (not a terminal), as a pipe is."""
    data = "".join(f"{x}\n" for x in lines).encode()
    code, out, err = one_shot(db, "table", hand, *options, input=data)
    return subprocess.CompletedProcess(["table", hand, *options], code, out, err)


def events(db: Path) -> list[tuple[object, ...]]:
    """Every stored event but its recording time and hashes, by position."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT position, stream, hand_id, session, seq, type, payload,"
                           " source_key FROM events ORDER BY position").fetchall()
    finally:
        con.close()


def verified(db: Path) -> str:
    code, out, err = one_shot(db, "verify")
    assert code == 0, (out, err)
    return out


@pytest.fixture(scope="module")
def started_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger with hand h1 started (blinds 1/2, Cy on the button), built once for the
    module: a test changes only its copy (:func:`started`)."""
    db = tmp_path_factory.mktemp("started") / "a.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", SEATS, "--button", "Cy")[:2] == (0, "h1\n")
    return db


@pytest.fixture
def started(started_once: Path, tmp_path: Path) -> Path:
    """The test's own copy of :func:`started_once`."""
    return copy_ledger(started_once, tmp_path / "a.duckdb")


def test_a_whole_hand_through_table_is_the_hand_through_act_and_state(
        started: Path, tmp_path: Path) -> None:
    copy = tmp_path / "b.duckdb"
    shutil.copyfile(started, copy)
    expected = []
    for line in LINES:
        code, out, err = (one_shot(copy, "state", "h1") if line == "state"
                          else one_shot(copy, "act", "h1", line))
        assert (code, err) == (0, ""), (line, err)
        expected.append(out)
    done = table(started, "h1", LINES)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "".join(expected)
    assert events(started) == events(copy)
    assert len(events(started)) == 3 + 14  # start and blinds, then every action
    assert verified(started).startswith("ok: 17 events, hash chain intact")
    assert [expected[-4], expected[-2]] == [
        "16 recorded_payout; phase showdown, next: pay PLAYER AMOUNT or end\n",
        "17 hand_ended; hand complete\n"]
    assert expected[-3].splitlines()[2:4] == [  # paid, not ended: the 300 in Ann's stack
        "Main pot: 0 of 300, the rest paid out (Ann, Bob)", "paid so far: Ann 300 (300 of the "
        "pot's 300)"]
    assert expected[-3].splitlines()[4] == "stacks: Ann 350, Bob 0, Cy 300 (folded)"
    assert expected[-1].splitlines()[-2:] == [  # after the end: the stacks after the payout
        "paid: Ann 300", "stacks after the hand: Ann 350, Bob 0, Cy 300 (folded)"]


def test_a_refused_line_prints_its_error_writes_nothing_and_keep_going_goes_on(
        started: Path, tmp_path: Path) -> None:
    """With --keep-going, as at a terminal, the lines after a refused one are read."""
    copy = tmp_path / "b.duckdb"
    shutil.copyfile(started, copy)
    for line in LINES[:2]:
        one_shot(copy, "act", "h1", line)
    # Bob acts out of turn after the deal: refused by the one-shot with this line
    one_shot(copy, "act", "h1", "d dh Cy 7c2d")
    code, out, err = one_shot(copy, "act", "h1", "Bob cc")
    assert (code, out) == (2, "")
    assert err == ("error: hand h1, action 'Bob cc': out of turn: Cy is to act, not Bob; "
                   "now: Cy to act: to call 2, raise to 4..300\n")
    lines = ["d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Bob cc", "Cy f",
             "Ann cbr nine", "Ann cc", "state"]
    done = table_here(started, "h1", lines, "--keep-going")
    assert done.returncode == 2
    # read from a pipe, each refusal names its line of the input (4 and 6)
    assert done.stderr.splitlines()[0] == err.rstrip("\n").replace("error: ", "error: line 4, ")
    assert len(done.stderr.splitlines()) == 2
    assert done.stderr.splitlines()[1].startswith(
        "error: line 6, hand h1, action 'Ann cbr nine'")
    assert done.stdout.splitlines()[:5] == [
        f"4 cards_dealt; phase deal, {NEXT_BOB}", f"5 cards_dealt; phase deal, {NEXT_CY}",
        "6 cards_dealt; Cy to act: to call 2, raise to 4..300",
        "7 fold; Ann to act: to call 1, raise to 4..200",
        "8 call; Bob to act: check, raise to 4..150"]
    stored = events(started)
    assert [(e[4], e[5]) for e in stored[3:]] == [
        (4, "cards_dealt"), (5, "cards_dealt"), (6, "cards_dealt"), (7, "fold"), (8, "call")]
    assert verified(started).startswith("ok: 8 events, hash chain intact")


def test_input_from_a_pipe_stops_at_its_first_refused_line(started: Path) -> None:
    """A script's later lines assume the refused one went in (here Bob's call would be read
    as Cy's turn passing): none of them is read, the status is 2, and the hand stays live
    after the last line that went in."""
    lines = ["d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Bob cc", "Cy f", "Ann cc"]
    done = table(started, "h1", lines)
    assert done.returncode == 2
    assert done.stderr == ("error: line 4, hand h1, action 'Bob cc': out of turn: Cy is to act, "
                           "not Bob; now: Cy to act: to call 2, raise to 4..300\n")
    assert done.stdout.splitlines() == [
        f"4 cards_dealt; phase deal, {NEXT_BOB}", f"5 cards_dealt; phase deal, {NEXT_CY}",
        "6 cards_dealt; Cy to act: to call 2, raise to 4..300"]
    assert [e[5] for e in events(started)][3:] == ["cards_dealt"] * 3
    assert verified(started).startswith("ok: 6 events, hash chain intact")


def test_a_line_that_is_not_utf8_is_refused_as_act_refuses_it(started: Path) -> None:
    code, _, err = one_shot(started, "act", "h1", "d dh Ann As\udcffKs")
    assert code == 2
    done = table(started, "h1", b"d dh Ann As\xffKs\nd dh Ann AsKs\n", "--keep-going")
    assert (done.returncode, done.stderr) == (2, err.replace("error: ", "error: line 1: "))
    assert err == ("error: ACTION 'd dh Ann As\\xffKs' is not UTF-8 text (it has a byte that "
                   "is not)\n")
    assert done.stdout == DEALT_ANN


def test_quit_ends_the_session_and_blank_lines_are_skipped(started: Path) -> None:
    done = table_here(started, "h1", ["d dh Ann AsKs", "", "  d dh Bob QhQd  ", "quit",
                                 "d dh Cy 7c2d"])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == DEALT_ANN + DEALT_BOB
    assert [e[5] for e in events(started)][-1] == "cards_dealt"
    assert len(events(started)) == 5


def test_a_hand_not_in_the_ledger_is_refused_at_once_as_act_refuses_it(started: Path) -> None:
    _, _, err = one_shot(started, "act", "h9", "Ann cc")
    done = table_here(started, "h9", ["Ann cc"])
    assert (done.returncode, done.stdout, done.stderr) == (2, "", err)
    assert err == f"error: hand h9: ledger {started} holds no such hand\n"
    missing = started.with_name("none.duckdb")
    done = table_here(missing, "h1", ["state"])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: no ledger at {missing}")
    assert not missing.exists()


def test_eof_without_end_leaves_the_hand_live_for_act(started: Path) -> None:
    done = table_here(started, "h1", LINES[:6])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "8 bet_raise; Bob to act: to call 6, raise to 14..150"
    code, out, _ = one_shot(started, "state", "h1")
    assert code == 0 and out.splitlines()[0] == "hand h1: NT, phase bet, status open"
    assert one_shot(started, "act", "h1", "Bob cbr 150")[:2] == (
        0, "9 all_in; Ann to act: to call 142 (no raise: every other player is all-in)\n")
    done = table_here(started, "h1", LINES[8:])
    assert (done.returncode, done.stderr) == (0, "")
    assert "17 hand_ended; hand complete" in done.stdout.splitlines()
    assert verified(started).startswith("ok: 17 events, hash chain intact")


def test_another_process_writes_between_lines(started: Path) -> None:
    """A second live hand h2 acted on by one-shot processes (with --no-wait: refused at once
    if the session held the file) between the session's lines: every action is recorded, in
    the order written, on one valid chain."""
    assert one_shot(started, "hand", "start", "--hand", "h2", "--game", "NT", "--stakes",
                    "1/2", "--seats", "Dee:100,Eve:100", "--button", "Dee")[0] == 0
    proc = subprocess.Popen([HANDLEDGER, "--db", str(started), "table", "h1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        outputs = []
        for line, other in (("d dh Ann AsKs", "d dh Dee 2c2d"),
                            ("d dh Bob QhQd", "d dh Eve 3c3d"),
                            ("d dh Cy 7c2d", "Dee cc")):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            outputs.append(proc.stdout.readline())
            done = subprocess.run([HANDLEDGER, "--db", str(started), "--no-wait", "act", "h2",
                                   other], capture_output=True, text=True, timeout=120)
            assert (done.returncode, done.stderr) == (0, ""), done.stderr
        proc.stdin.write("Cy f\nstate\n")
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(timeout=120) == 0
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert outputs == [DEALT_ANN, DEALT_BOB,
                       "6 cards_dealt; Cy to act: to call 2, raise to 4..300\n"]
    assert rest.splitlines()[:2] == ["7 fold; Ann to act: to call 1, raise to 4..200",
                                     "hand h1: NT, phase bet, status open"]
    stored = events(started)
    # h1's start (3), h2's start (3), then the two hands' actions alternating
    assert [(e[1], e[4]) for e in stored[6:]] == [
        ("h1", 4), ("h2", 4), ("h1", 5), ("h2", 5), ("h1", 6), ("h2", 6), ("h1", 7)]
    assert verified(started).startswith("ok: 13 events, hash chain intact")


def test_a_session_killed_between_lines_keeps_every_action_it_printed(started: Path) -> None:
    proc = subprocess.Popen([HANDLEDGER, "--db", str(started), "table", "h1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        printed = []
        for line in LINES[:2]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            printed.append(proc.stdout.readline())
    finally:
        proc.kill()
        proc.wait()
    assert printed == [DEALT_ANN, DEALT_BOB]
    assert [(e[4], e[5]) for e in events(started)[3:]] == [(4, "cards_dealt"),
                                                          (5, "cards_dealt")]
    assert verified(started).startswith("ok: 5 events, hash chain intact")
    assert one_shot(started, "act", "h1", "d dh Cy 7c2d")[:2] == (
        0, "6 cards_dealt; Cy to act: to call 2, raise to 4..300\n")


def test_a_session_loads_only_what_act_and_state_load(started: Path) -> None:
    from tests.test_live_imports import _CODE, HEAVY

    done = subprocess.run([sys.executable, "-c", _CODE, "--db", str(started), "table", "h1"],
                          input="d dh Ann AsKs\nstate\n", capture_output=True, text=True,
                          timeout=120)
    *_, last = done.stderr.rstrip("\n").rsplit("\n", 1)
    assert last.startswith("MODULES "), done.stderr
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == [f"4 cards_dealt; phase deal, {NEXT_BOB}",
                                            "hand h1: NT, phase deal, status open"]
    assert not set(last.split()[1:]) & HEAVY


def test_state_names_the_pot_of_every_player_who_can_still_bet(tmp_path: Path) -> None:
    # README's t1 after the hole cards: Bob 1, Cy 2 in, Ann (button) still to act with
    # nothing in. All three can still bet, so the 3 chips are one pot for all three (the
    # contribution layers would be 2 for Bob, Cy and 1 for Cy alone, leaving Ann out).
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "t1", "--game", "NT", "--stakes", "1/2",
                    "--seats", SEATS, "--button", "Ann")[:2] == (0, "t1\n")
    for line in ("d dh Bob 8c8d", "d dh Cy Th9h", "d dh Ann 2s2h"):
        assert one_shot(db, "act", "t1", line)[0] == 0
    code, out, err = one_shot(db, "state", "t1")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:5] == ["Ann to act: to call 2, raise to 4..200", "current bet 2",
                                     "Main pot: 3 (Bob, Cy, Ann)",
                                     "stacks: Bob 149 bet 1, Cy 298 bet 2, Ann 200"]
