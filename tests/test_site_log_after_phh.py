"""A site's file imported after another ledger's PHH export of its hands.

The other order of tests/test_pokernow_phh_elsewhere.py: this ledger first imports the PHH
export (the hands alone, each carrying the site's key as ``_source_key``; PHH carries no
book), then the site's own file. Its hands are the stored ones: known, not written again (an
edited copy refused naming the stored hand), and a PokerNow log's book (opening, joins,
buy-ins) goes in with them, the first of the game, into the session holding its hands; into
another session it is refused (its buy-ins would count chips played there). charlestudor's
first log: three players bought 100 chips; TA won 3 (-1, +3, +2, -1: its hands' blinds and two
raises nobody called), Anvjfbmj2 1 (+1, -1, 0, +1), Qapurjsa9 lost 4 (0, -2, -2, 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

LOG = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
STARS = SHARED / "text" / "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
BALANCES = (
    "player                          net       buy-in     cash-out  hands sessions\n"
    "TA (gE4aE_Yhc3)                   3          100            0      4        1\n"
    "Anvjfbmj2 (ydk9sgEWl2)            1          100            0      4        1\n"
    "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1\n")
AUDIT = ("audit clean: 4 hand(s) in 1 session(s); every chip adds up in the books as stored "
         "(the hash chain not checked: `handledger verify`)\n")
HANDS_ALONE = (
    "player                  net       buy-in     cash-out  hands sessions\n"
    "gE4aE_Yhc3                3            0            0      4        1\n"
    "ydk9sgEWl2                1            0            0      4        1\n"
    "BfS83Cedu3               -4            0            0      4        1\n")


def _phh_export(tmp_path: Path) -> Path:
    """Another ledger's PHH export of LOG, imported there as session friday."""
    other, out = tmp_path / "other.duckdb", tmp_path / "f.phhs"
    assert one_shot(other, "import", "--session", "friday", str(LOG))[0] == 0
    assert one_shot(other, "export", "--format", "phh", "-o", str(out))[0] == 0
    assert out.read_text().count("_source_key = 'pokernow:") == 4
    return out


def _hands_alone(tmp_path: Path, export: Path, *session: str) -> Path:
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", *session, str(export)) == (
        0, "imported 4 hand(s) (46 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    return db


@pytest.mark.parametrize("args", [(), ("--session", "friday"), ("--jobs", "2")])
def test_the_log_after_its_phh_export_brings_its_book_alone(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    """The 4 hands are known (by their ids: the export kept pn-friday-…); the log's 10 book
    rows (the opening, and each player's name, seat and buy-in of 100) are the session's
    first, after its hands: the nets are the hands', bought once."""
    db = _hands_alone(tmp_path, _phh_export(tmp_path))
    assert one_shot(db, "balances") == (0, HANDS_ALONE, "")
    assert one_shot(db, "import", *args, str(LOG)) == (
        0, "imported 0 hand(s) (10 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "balances") == (0, BALANCES, "")
    assert one_shot(db, "session", "list") == (
        0, "friday  2022-01-13  4 hand(s)  3 buy-in(s)  open\n", "")
    assert one_shot(db, "settle") == (
        0, "Qapurjsa9 pays TA 3 chips\nQapurjsa9 pays Anvjfbmj2 1 chip\n"
           "2 transfer(s) settle 3 player(s)\n", "")
    assert one_shot(db, "audit") == (0, AUDIT, "")
    before = events(db)
    assert one_shot(db, "import", str(LOG)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert events(db) == before
    _round_trip(tmp_path, db)


def _round_trip(tmp_path: Path, db: Path) -> None:
    """``db``'s JSON-lines export goes whole into a new ledger: the same books."""
    out, again = tmp_path / "all.jsonl", tmp_path / "again.duckdb"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(out))[0] == 0
    assert one_shot(again, "import", str(out)) == (
        0, "imported 4 hand(s) (56 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(again, "balances") == (0, BALANCES, "")
    assert one_shot(again, "audit") == (0, AUDIT, "")


def test_the_log_into_another_session_than_its_hands_is_refused(tmp_path: Path) -> None:
    db = _hands_alone(tmp_path, _phh_export(tmp_path))
    before = events(db)
    assert one_shot(db, "import", "--session", "club", str(LOG)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "1 rejected\n",
        f"error: {LOG}: this PokerNow game's hands are in the ledger already, in session "
        "friday, without its book (they came from a PHH file, which carries none): its buy-ins "
        "go in with its hands, not into session club (they would count chips played in "
        "session friday); import it into session friday (`--session friday`, or no "
        "--session); nothing of the file was written\n")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, HANDS_ALONE, "")


def test_hands_held_under_other_ids_are_known_by_the_key_they_carry(tmp_path: Path) -> None:
    """The export imported into session club, opened here: its hands keep their ids
    (pn-friday-…), the log read into club names them pn-club-…: known by ``_source_key``. The
    session was opened, so the log brings its 9 other rows (names, seats, buy-ins), appended
    after the hands: each buy-in is written as made before the hand the log gives after it,
    as ``buyin --before`` writes it, so the audit finds every stack bought."""
    export = _phh_export(tmp_path)
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "session", "open", "club", "--date", "2022-01-13")[0] == 0
    _hands_alone(tmp_path, export, "--session", "club")
    assert one_shot(db, "import", str(LOG)) == (
        0, "imported 0 hand(s) (9 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "balances") == (0, BALANCES, "")
    assert one_shot(db, "session", "list") == (
        0, "club  2022-01-13  4 hand(s)  3 buy-in(s)  open\n", "")
    assert one_shot(db, "audit") == (0, AUDIT, "")
    code, out, _ = one_shot(db, "sql", "SELECT payload->>'player', payload->>'before' FROM events"
                            " WHERE type = 'buy_in' ORDER BY position")
    assert code == 0
    assert [line.split() for line in out.splitlines()[2:5]] == [
        [player, "pn-friday-1-164210353199300"]
        for player in ("gE4aE_Yhc3", "ydk9sgEWl2", "BfS83Cedu3")]
    _round_trip(tmp_path, db)


def test_a_log_that_differs_from_the_hand_carrying_its_key_is_refused(tmp_path: Path) -> None:
    """The export's hand 1 edited (Anvjfbmj2's 3 chips paid 2 to him, 1 to Qapurjsa9) and
    stored under its id pn-friday-1-…; the log, read into club, gives that hand as
    pn-club-1-…: refused in one line naming the stored hand and what differs, the game whole
    (its later hands would not follow), nothing written."""
    export = _phh_export(tmp_path)
    edited = tmp_path / "edited.phhs"
    edited.write_text(export.read_text().replace("winnings = [0, 3, 0]",
                                                 "winnings = [0, 2, 1]", 1))
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "session", "open", "club", "--date", "2022-01-13")[0] == 0
    assert one_shot(db, "import", "--session", "club", str(edited))[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(LOG)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
           "1 rejected\n",
        f"error: {LOG}:50, hand pn-club-1-164210353199300: this hand's source key is the "
        "_source_key that hand pn-friday-1-164210353199300 of the ledger carries (a PHH "
        "export of it), and differs from it: the table paid otherwise: ydk9sgEWl2 3 here, 2 "
        "in the ledger, BfS83Cedu3 0 here, 1 in the ledger; a change to a stored hand is a "
        "correction (`handledger correct pn-friday-1-164210353199300 ...`), not another hand; "
        "nothing of this file was written (the hands after it would not follow the "
        "ledger's)\n")
    assert events(db) == before


def test_a_pokerstars_text_after_its_phh_export_is_already_in_the_ledger(
        tmp_path: Path) -> None:
    """One hand, in cents: Hero's all-in of 2.40 called by Player2, who collected 4.70 of
    the 4.90 pot (Player1's folded big blind 0.10 in it), 0.20 rake: Player2 +230, Player1
    -10, Hero -240."""
    other, export = tmp_path / "other.duckdb", tmp_path / "s.phhs"
    assert one_shot(other, "import", str(STARS))[0] == 0
    assert one_shot(other, "export", "--format", "phh", "-o", str(export))[0] == 0
    assert "_source_key = 'pokerstars:" in export.read_text()
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", str(export)) == (
        0, "imported 1 hand(s) (22 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    before = events(db)
    assert one_shot(db, "import", str(STARS)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; "
           "0 rejected\n", "")
    assert events(db) == before
    assert one_shot(db, "balances") == (0, (
        "player                  net       buy-in     cash-out  hands sessions\n"
        "Player2                 230            0            0      1        0\n"
        "Player1                 -10            0            0      1        0\n"
        "Hero                   -240            0            0      1        0\n"
        "rake: 20 chips of 0.01 USD taken from the pots outside sessions (1 hand)\n"
        "note: the players' nets sum to -20 chips of 0.01 USD, not 0: the rake the table took "
        "(above)\n"), "")
