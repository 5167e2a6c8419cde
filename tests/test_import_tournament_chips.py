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
