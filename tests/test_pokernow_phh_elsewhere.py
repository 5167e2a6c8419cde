"""Another ledger's PHH export of a PokerNow game this ledger holds under another session name.

A PokerNow hand's id names its session (``pn-friday-1-…``), so the hands of the same log
imported as ``club`` here have other ids; PHH carries no book (the export notes it), so a
ledger that imported the export held the game's hands twice, every net doubled, the audit
clean. The export now writes each hand's source key as ``_source_key`` (FORMATS.md §1, a key
of ours), and the import knows the hand by it: already in the ledger, staying in the session
it is stored in, as the JSON-lines export's hands are (tests/test_import_round_trips.py);
a copy that differs from the stored hand is refused in one line. charlestudor's first log:
three players bought 100 chips; TA won 3 (-1, +3, +2, -1: its hands' blinds and two raises
nobody called), Anvjfbmj2 1 (+1, -1, 0, +1), Qapurjsa9 lost 4 (0, -2, -2, 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
BALANCES = (
    "player                          net       buy-in     cash-out  hands sessions\n"
    "TA (gE4aE_Yhc3)                   3          100            0      4        1\n"
    "Anvjfbmj2 (ydk9sgEWl2)            1          100            0      4        1\n"
    "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1\n")
HELD = ("imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger (they stay in "
        "the session they were stored in, not this file's); 0 rejected\n")


def _ledger(db: Path, session: str) -> Path:
    """``db`` holding LOG in ``session``."""
    assert one_shot(db, "import", "--session", session, str(LOG)) == (
        0, "imported 4 hand(s) (60 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    return db


def _phh_export(db: Path, out: Path) -> Path:
    code, _, err = one_shot(db, "export", "--format", "phh", "-o", str(out))
    assert (code, err) == (0, "note: 1 session book(s) left out: PHH cannot carry a session's "
                              "opening, buy-ins, cash-outs, payments or player names (an alias, "
                              "an alias ended), so a ledger importing the file holds their "
                              "hands alone (--format jsonl can): friday\n")
    return out


@pytest.mark.parametrize("jobs", [(), ("--jobs", "2")])
def test_another_ledgers_phh_export_of_a_game_held_here_is_already_in_the_ledger(
        tmp_path: Path, jobs: tuple[str, ...]) -> None:
    export = _phh_export(_ledger(tmp_path / "other.duckdb", "friday"), tmp_path / "f.phhs")
    text = export.read_text()
    assert "_source_key = 'pokernow:2022-01-13T19:52:11.993Z:1:34aead835433a6e2'\n" in text
    assert text.count("_source_key = ") == 4
    db = _ledger(tmp_path / "a.duckdb", "club")
    before = events(db)
    assert one_shot(db, "import", *jobs, str(export)) == (0, HELD, "")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, BALANCES, "")
    assert one_shot(db, "session", "list") == (
        0, "club  2022-01-13  4 hand(s)  3 buy-in(s)  open\n", "")


def test_the_ledgers_own_phh_export_adds_nothing_back(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "a.duckdb", "friday")
    export = _phh_export(db, tmp_path / "f.phhs")
    before = events(db)
    assert one_shot(db, "import", str(export)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, BALANCES, "")


def test_a_ledger_without_the_game_takes_the_hands_and_passes_the_key_on(
        tmp_path: Path) -> None:
    """A ledger that does not hold the game stores the hands (in the export's session, the
    hands alone), each keeping its ``_source_key``; its own PHH export writes it again (once),
    and that export is already in the ledger holding the game as ``club``."""
    export = _phh_export(_ledger(tmp_path / "other.duckdb", "friday"), tmp_path / "f.phhs")
    fresh = tmp_path / "fresh.duckdb"
    assert one_shot(fresh, "import", str(export)) == (
        0, "imported 4 hand(s) (46 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    again = tmp_path / "again.phhs"
    assert one_shot(fresh, "export", "--format", "phh", "-o", str(again))[0] == 0
    text = again.read_text()
    assert text.count("_source_key = ") == 4
    assert "_source_key = 'pokernow:2022-01-13T19:53:12.694Z:4:7d6c55e3002b7862'\n" in text
    db = _ledger(tmp_path / "a.duckdb", "club")
    before = events(db)
    assert one_shot(db, "import", str(again)) == (0, HELD, "")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, BALANCES, "")


def test_a_copy_that_differs_from_the_hand_its_key_names_is_refused(tmp_path: Path) -> None:
    """Hand 1 edited: Anvjfbmj2's 3 chips (TA's folded small blind and his own big blind)
    paid 2 to him and 1 to Qapurjsa9. Refused in one line naming the stored hand and what
    differs; the other three hands are known; nothing written."""
    export = _phh_export(_ledger(tmp_path / "other.duckdb", "friday"), tmp_path / "f.phhs")
    edited = tmp_path / "edited.phhs"
    edited.write_text(export.read_text().replace("winnings = [0, 3, 0]",
                                                 "winnings = [0, 2, 1]", 1))
    db = _ledger(tmp_path / "a.duckdb", "club")
    before = events(db)
    assert one_shot(db, "import", str(edited)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger (they stay "
           "in the session they were stored in, not this file's); 1 rejected\n",
        f"error: {edited}:1, hand pn-friday-1-164210353199300: this hand carries the "
        "_source_key that hand pn-club-1-164210353199300 of the ledger was imported under "
        "(the key its site's file gave it), and differs from it: the table paid otherwise: "
        "ydk9sgEWl2 2 here, 3 in the ledger, BfS83Cedu3 1 here, 0 in the ledger; a change to "
        "a stored hand is a correction (`handledger correct pn-club-1-164210353199300 ...`), "
        "not another hand\n")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, BALANCES, "")


def test_an_earlier_versions_export_without_the_key_goes_in_as_before(tmp_path: Path) -> None:
    """Without ``_source_key`` nothing tells the hands are the ones held as ``club``: they go
    in again, in session friday, as an earlier version's import of the file did (every net
    doubled: TA 6, Anvjfbmj2 2, Qapurjsa9 -8)."""
    export = _phh_export(_ledger(tmp_path / "other.duckdb", "friday"), tmp_path / "f.phhs")
    old = tmp_path / "old.phhs"
    old.write_text("".join(line for line in export.read_text().splitlines(keepends=True)
                           if not line.startswith("_source_key = ")))
    db = _ledger(tmp_path / "a.duckdb", "club")
    assert one_shot(db, "import", str(old)) == (
        0, "imported 4 hand(s) (46 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "balances") == (0, (
        "player                          net       buy-in     cash-out  hands sessions\n"
        "TA (gE4aE_Yhc3)                   6          100            0      8        2\n"
        "Anvjfbmj2 (ydk9sgEWl2)            2          100            0      8        2\n"
        "Qapurjsa9 (BfS83Cedu3)           -8          100            0      8        2\n"), "")


def test_an_empty_source_key_is_refused_at_its_line(tmp_path: Path) -> None:
    export = _phh_export(_ledger(tmp_path / "other.duckdb", "friday"), tmp_path / "f.phhs")
    bad = tmp_path / "bad.phh"
    first = export.read_text().split("\n[2]\n")[0].removeprefix("[1]\n")
    bad.write_text(first.replace(
        "_source_key = 'pokernow:2022-01-13T19:52:11.993Z:1:34aead835433a6e2'",
        "_source_key = ''"))
    line = bad.read_text().splitlines().index("_source_key = ''") + 1
    db = _ledger(tmp_path / "a.duckdb", "club")
    before = events(db)
    code, out, err = one_shot(db, "import", str(bad))
    assert (code, err) == (2, f"error: {bad}:{line}, hand pn-friday-1-164210353199300: "
                              "_source_key must be a non-empty string\n")
    assert events(db) == before
