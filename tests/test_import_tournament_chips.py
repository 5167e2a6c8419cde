"""A PokerStars tournament's hands go into no session that counts money (tournament chips
are not the session's money), as a hand in another currency goes into none; and a cause
that refuses every hand of a file is said once, in one line, with every hand counted
rejected."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

TOUR = SHARED / "text" / "Stars-tour-NLHE-USD-STT-20-201006.DONturbo.txt"
CASH = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"


def _session(tmp_path: Path, *args: str) -> Path:
    db = tmp_path / "l.duckdb"
    code, _, err = one_shot(db, "session", "open", "c", *args)
    assert (code, err) == (0, "")
    return db


def test_a_tournament_is_refused_by_a_money_session_in_one_line(tmp_path: Path) -> None:
    db = _session(tmp_path, "--chip-value", "0.01", "--currency", "USD")
    before = events(db)
    code, out, err = one_shot(db, "import", "--session", "c", str(TOUR))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 61 rejected\n")
    assert err == (f"error: {TOUR}: the hand is in tournament chips, session c in USD: "
                   "tournament chips are not the session's money (import the file without "
                   "--session) (all 61 hands of the file, from PokerStars-62678213223 to "
                   "PokerStars-12858227913: nothing of them was imported)\n")
    assert events(db) == before


def test_a_tournament_into_a_plain_chip_session_goes_in(tmp_path: Path) -> None:
    db = _session(tmp_path)
    code, out, err = one_shot(db, "import", "--session", "c", str(TOUR))
    assert (code, out, err) == (0, "imported 61 hand(s) (1852 events) from 1 file(s); 0 "
                                   "already in the ledger; 0 rejected\n", "")


def test_a_money_file_into_a_plain_chip_session_says_it_once(tmp_path: Path) -> None:
    db = _session(tmp_path)
    code, out, err = one_shot(db, "import", "--session", "c", str(CASH))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 78 rejected\n")
    assert err == (f"error: {CASH}: the hand is in USD but session c counts plain chips: say "
                   "what its chip is worth first (`handledger session set c --chip-value … "
                   "--currency USD`) (all 78 hands of the file, from PokerStars-35824118297 to "
                   "PokerStars-35825214163: nothing of them was imported)\n")
    code, out, err = one_shot(db, "import", "--strict", "--session", "c", str(CASH))
    assert code == 2 and err.endswith("nothing of them was imported); --strict: nothing of "
                                      "this file was written\n")
    assert "; 78 rejected" in out


def test_a_money_file_into_a_session_of_cents_of_no_currency_names_its_chip(
        tmp_path: Path) -> None:
    """The run-it-twice PokerNow log opens its session with a chip of 0.01 and no currency
    (``balances``: ``chips of 0.01``): the PokerStars USD file refused there says so, not
    "plain chips", and the ``session set`` it gives then takes the file in."""
    db = tmp_path / "l.duckdb"
    assert one_shot(db, "import", str(SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"))[0] == 0
    session = "pokernowpy_run-it-twice"
    before = events(db)
    code, out, err = one_shot(db, "import", "--session", session, str(CASH))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 78 rejected\n")
    assert err == (f"error: {CASH}: the hand is in USD but session {session} counts chips of "
                   "0.01 (no currency): say what its chip is worth first (`handledger session "
                   f"set {session} --chip-value 0.01 --currency USD`) (all 78 hands of the "
                   "file, from PokerStars-35824118297 to PokerStars-35825214163: nothing of "
                   "them was imported)\n")
    assert events(db) == before
    assert one_shot(db, "session", "set", session, "--chip-value", "0.01", "--currency",
                    "USD") == (0, f"session {session}: 1 chip = 0.01 USD\n", "")
    assert one_shot(db, "import", "--session", session, str(CASH))[:2] == (
        0, "imported 78 hand(s) (1725 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
