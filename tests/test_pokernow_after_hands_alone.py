"""A PokerNow log imported after an export of some of its hands alone (no session book).

A one-hand JSON-lines export, a PHH export of one hand or of all of them: the ledger holds
the hands in a session it never opened, so the log would open it after them and store its
book (joins, buy-ins, quits) after the held hands. Where that would put a line of the log
after a hand it came before, the log is refused whole, in one line, nothing written.
charlestudor's second log, hand 2: ksv @ ycx (YJJJbgIQrB, 120) posts the big blind of 20,
@ovvkpfngo@@@ (CzMp1GAawT, 30) raises all in to 30, ksv calls and wins the 60 pot with a
straight: +30, -30, and A8 (gE4aE_Yhc3) folded for nothing, 0."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
FIRST_LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
HAND2 = "pn-charlestudor_Input_Log_002-2-164267583814001"
HAND1_OF_FIRST = "pn-charlestudor_Input_Log_001-1-164210353199300"
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); {} already in the ledger; 1 rejected"
NOT_WRITTEN = "; {} other hand(s) not written, their file refused"
HAND2_ALONE = (
    "player                  net       buy-in     cash-out  hands sessions\n"
    "YJJJbgIQrB               30            0            0      1        1\n"
    "gE4aE_Yhc3                0            0            0      1        1\n"
    "CzMp1GAawT              -30            0            0      1        1\n")


def _refusal(log: Path, line: int, what: str, hand: str, session: str) -> str:
    return (
        f"error: {log}:{line}: its {what} comes before hand {hand}, which the ledger holds "
        f"already in session {session}, a session it never opened (the hand came without "
        "its book: a PHH file or a JSON-lines export of single hands carries none): the log "
        f"would open the session after the held hands and store its {what} after them, out "
        "of the table's order (buy-ins counted after the hands they paid for); nothing of the "
        "file was written (the log carries those hands too: import it into a new ledger, "
        f"`handledger --db NEW.duckdb import {log}`)\n")


def _export(tmp_path: Path, log: Path, *args: str) -> Path:
    """``export ARGS`` of a ledger holding ``log`` alone; the file written."""
    whole, out = tmp_path / "whole.duckdb", tmp_path / args[-1]
    assert one_shot(whole, "import", str(log))[0] == 0
    assert one_shot(whole, "export", *args[:-1], "-o", str(out))[0] == 0
    return out


def _refused(db: Path, log: Path, stderr: str, held: int, *, a_hand: bool = False) -> None:
    """The log's four hands: ``held`` already in the ledger, the others not written but
    (``a_hand``) the one whose line refuses the file, rejected."""
    before = events(db)
    others = 4 - held - a_hand
    summary = REFUSED.format(held) + (NOT_WRITTEN.format(others) if others else "")
    assert one_shot(db, "import", str(log)) == (2, summary + "\n", stderr)
    assert events(db) == before


def test_the_log_after_a_one_hand_jsonl_export_is_refused_naming_the_hand_before(
        tmp_path: Path) -> None:
    """The held hand 2 is in the log's own session, never opened: hand 1 (line 70 of the
    log, read bottom up) would be stored after it."""
    db = tmp_path / "f.duckdb"
    one = _export(tmp_path, LOG, HAND2, "one.jsonl")
    assert one_shot(db, "import", str(one))[0] == 0
    _refused(db, LOG, _refusal(LOG, 70, "hand pn-charlestudor_Input_Log_002-1-"
                               "164267577749500", HAND2, "charlestudor_Input_Log_002"), 1,
             a_hand=True)
    assert one_shot(db, "balances") == (0, HAND2_ALONE, "")


def test_the_log_after_a_one_hand_phh_export_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    one = _export(tmp_path, LOG, "--format", "phh", HAND2, "one.phh")
    assert one_shot(db, "import", str(one))[0] == 0
    _refused(db, LOG, _refusal(LOG, 70, "hand pn-charlestudor_Input_Log_002-1-"
                               "164267577749500", HAND2, "charlestudor_Input_Log_002"), 1,
             a_hand=True)
    assert one_shot(db, "balances") == (0, HAND2_ALONE, "")


def test_the_log_after_its_whole_phh_export_is_refused_at_its_first_quit(
        tmp_path: Path) -> None:
    """All four hands held: the quit of "uhuhqb" after hand 1 (line 48, a seat change to no
    seat) would be stored after hand 2 it came before."""
    db = tmp_path / "q.duckdb"
    whole = _export(tmp_path, LOG, "--format", "phh", "p.phhs")
    assert one_shot(db, "import", str(whole))[0] == 0
    _refused(db, LOG, _refusal(LOG, 48, "seat_change", HAND2, "charlestudor_Input_Log_002"),
             4)


def test_a_held_first_hand_alone_is_refused_at_the_book_before_it(tmp_path: Path) -> None:
    """Hand 1 of the first log held, hands 2 to 4 not: its joins and buy-ins of 100 each
    would be stored between hand 1 and hand 2, as bought after hand 1 (the audit found three
    stacks 100 short)."""
    db = tmp_path / "h.duckdb"
    one = _export(tmp_path, FIRST_LOG, HAND1_OF_FIRST, "one.jsonl")
    assert one_shot(db, "import", str(one))[0] == 0
    _refused(db, FIRST_LOG, _refusal(FIRST_LOG, 59, "player_alias", HAND1_OF_FIRST,
                                     "charlestudor_Input_Log_001"), 1)
