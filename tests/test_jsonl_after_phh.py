"""A ledger's JSON-lines export imported after its PHH export, into another ledger.

PHH carries no book: the ledger built from the PHH export holds the hands alone, in the session
its ``_session`` names. The JSON-lines export then brings the book, appended after them. Into a
session opened before the hands, each buy-in the file gives before a held hand is written as made
before it (``buyin --before``, RULES.md §1.1), so the books count it where the table did. A
session never opened would be opened by the file after the hands its buy-ins paid for: refused
in one line, the file going whole into a new ledger instead. And a session opened after some of
its hands follows their stacks (from each player's second hand there).
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

VALAKUZHYK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
CHARLES = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
GAME = "valakuzhyk_07_21_2022_log1"
# 8 players bought 1000 each; Aab Ovwsi won every chip (8000 = his 1000 + 7000), the other 7
# lost their 1000 and cashed out 0 on leaving (he is still seated: no cash-out).
EIGHT = (
    "player                               net       buy-in     cash-out  hands sessions\n"
    "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1\n"
    "Hznmh#9009 (1RhUayZFQU)            -1000         1000            0     27        1\n"
    "Phzd Juwvifsvh (Bq7QhNKAYJ)        -1000         1000            0     35        1\n"
    "sjfid753 (Bv3wRKv-vh)              -1000         1000            0     15        1\n"
    "Erhradnpmi3 (H353kCoMHV)           -1000         1000            0      4        1\n"
    "Efvoziamtgktl (JC9KmsGDZv)         -1000         1000            0     52        1\n"
    "IpusyM (f-mUxYkHrq)                -1000         1000            0     37        1\n"
    "gaxdqwmwksve (hoL3fbolcH)          -1000         1000            0     21        1\n")
# charlestudor's log: three bought 100; TA -1 +3 +2 -1 = +3, Anvjfbmj2 +1 -1 0 +1 = +1,
# Qapurjsa9 0 -2 -2 0 = -4.
THREE = (
    "player                          net       buy-in     cash-out  hands sessions\n"
    "TA (gE4aE_Yhc3)                   3          100            0      4        1\n"
    "Anvjfbmj2 (ydk9sgEWl2)            1          100            0      4        1\n"
    "Qapurjsa9 (BfS83Cedu3)           -4          100            0      4        1\n")


def _clean(hands: int) -> str:
    return (f"audit clean: {hands} hand(s) in 1 session(s); every chip adds up in the books as "
            "stored (the hash chain not checked: `handledger verify`)\n")


def _exports(tmp_path: Path, db: Path) -> tuple[Path, Path]:
    phh, jsonl = tmp_path / "a.phhs", tmp_path / "a.jsonl"
    assert one_shot(db, "export", "--format", "phh", "-o", str(phh))[0] == 0
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(jsonl))[0] == 0
    return phh, jsonl


def test_a_book_that_would_open_the_session_after_its_hands_is_refused(
        tmp_path: Path) -> None:
    """The PHH import put the 52 hands in session GAME (its ``_session``), never opened; the
    JSON-lines book would open it after them, its 8 buy-ins of 1000 after the hands they paid
    for: refused at its first buy-in's line, nothing written; the file alone makes a new ledger
    with the books of the first."""
    first = tmp_path / "a.duckdb"
    assert one_shot(first, "import", str(VALAKUZHYK))[0] == 0
    assert one_shot(first, "balances") == (0, EIGHT, "")
    assert one_shot(first, "audit") == (0, _clean(52), "")
    phh, jsonl = _exports(tmp_path, first)
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", str(phh)) == (
        0, "imported 52 hand(s) (1184 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "session", "list") == (
        0, f"{GAME}  -  52 hand(s)  0 buy-in(s)  never opened (named by its hands)\n", "")
    before = events(db)
    assert one_shot(db, "import", str(jsonl)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 52 already in the ledger; "
           "1 rejected\n",
        f"error: {jsonl}:4, session {GAME}: its buy_in at seq 4 (Bq7QhNKAYJ, 1000 chips) was "
        f"made before hand pn-{GAME}-1-165843755677200, which the ledger holds already in "
        f"session {GAME}, a session it never opened (the hands came without their book: a PHH "
        "file carries none): this file would open it after them, and a buy-in counts only "
        "after the session's opening, so its buy-ins would count after the hands they paid "
        "for; the file carries those hands too: import it into a new ledger (`handledger --db "
        f"NEW.duckdb import {jsonl}`); nothing of the file was written\n")
    assert events(db) == before
    new = tmp_path / "new.duckdb"
    assert one_shot(new, "import", str(jsonl)) == (
        0, "imported 52 hand(s) (1255 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(new, "balances") == (0, EIGHT, "")
    assert one_shot(new, "audit") == (0, _clean(52), "")


def test_buy_ins_before_held_hands_count_before_them(tmp_path: Path) -> None:
    """Session club opened, then the log: the JSON-lines export opens club as this ledger's
    ``session open`` did (the same entry 1), the PHH hands are stored after it, and the 9 other
    rows (names, seats, buy-ins) come after the hands: each buy-in is written as made before
    hand 1, which the file gives after it, so the books count it there. Imported again: nothing
    more; this ledger's own export makes a new ledger with the same books."""
    first = tmp_path / "a.duckdb"
    assert one_shot(first, "session", "open", "club", "--date", "2022-01-13")[0] == 0
    assert one_shot(first, "import", "--session", "club", str(CHARLES))[0] == 0
    phh, jsonl = _exports(tmp_path, first)
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "session", "open", "club", "--date", "2022-01-13")[0] == 0
    assert one_shot(db, "import", str(phh)) == (
        0, "imported 4 hand(s) (46 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "import", str(jsonl)) == (
        0, "imported 0 hand(s) (9 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(db, "balances") == (0, THREE, "")
    assert one_shot(db, "audit") == (0, _clean(4), "")
    code, out, _ = one_shot(db, "sql", "SELECT payload->>'player', payload->>'chips',"
                            " payload->>'before' FROM events WHERE type = 'buy_in'"
                            " ORDER BY position")
    assert code == 0
    assert [line.split() for line in out.splitlines()[2:5]] == [
        [player, "100", "pn-club-1-164210353199300"]
        for player in ("gE4aE_Yhc3", "ydk9sgEWl2", "BfS83Cedu3")]
    before = events(db)
    assert one_shot(db, "import", str(jsonl)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert events(db) == before
    again, new = tmp_path / "again.jsonl", tmp_path / "new.duckdb"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(again))[0] == 0
    assert one_shot(new, "import", str(again)) == (
        0, "imported 4 hand(s) (56 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(new, "balances") == (0, THREE, "")
    assert one_shot(new, "audit") == (0, _clean(4), "")


def test_a_session_opened_after_its_hands_follows_their_stacks(tmp_path: Path) -> None:
    """The PHH export with hand 3's start of ydk9sgEWl2 typed 110 (hand 2 left him 100: he
    started it with 101 and lost 1); his hand 3 won nothing and lost nothing, so hand 4's 100
    does not follow it either. Never opened, the session is not followed; opened after the
    hands, it is: both starts named, the first hands (100 each) taken as they start."""
    first = tmp_path / "a.duckdb"
    assert one_shot(first, "import", "--session", "friday", str(CHARLES))[0] == 0
    phh = _exports(tmp_path, first)[0]
    text = phh.read_text()
    assert text.count("starting_stacks = [98, 102, 100]") == 1
    phh.write_text(text.replace("starting_stacks = [98, 102, 100]",
                                "starting_stacks = [98, 102, 110]"))
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", str(phh))[0] == 0
    assert one_shot(db, "audit") == (0, _clean(4), "")
    assert one_shot(db, "session", "open", "friday", "--date", "2022-01-13")[0] == 0
    assert one_shot(db, "audit") == (1, (
        "stack_continuity: hand pn-friday-3-164210356587500: ydk9sgEWl2 starts with 110 but "
        "ydk9sgEWl2 left hand pn-friday-2-164210354621900 with 100 and bought nothing: "
        "expected 100 (+10) [session friday, hand pn-friday-3-164210356587500, player "
        "ydk9sgEWl2; expected 100, actual 110]\n"
        "stack_continuity: hand pn-friday-4-164210359269400: ydk9sgEWl2 starts with 100 but "
        "ydk9sgEWl2 left hand pn-friday-3-164210356587500 with 110 and bought nothing: "
        "expected 110 (-10) [session friday, hand pn-friday-4-164210359269400, player "
        "ydk9sgEWl2; expected 110, actual 100]\n"
        "audit: 2 discrepancies (stack_continuity 2); 4 hand(s) in 1 session(s) checked\n"), "")


def test_a_refused_book_counts_the_phh_hand_the_ledger_holds_known(tmp_path: Path) -> None:
    """A PHH hand (no site key) imported into session fri after its 3 buy-ins of 100: the
    ledger built from its PHH export holds it under its id, so the JSON-lines book refused
    whole says "1 already in the ledger" (its one hand), not "0 … 1 other hand(s) not
    written"; with worker processes alike."""
    hand = tmp_path / "h.phhs"
    hand.write_text(
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsKs', 'd dh p2 QhQd', "
        "'d dh p3 7c2d', 'p3 f', 'p1 f']\nplayers = ['Ann', 'Bob', 'Cy']\n"
        "winnings = [0, 3, 0]\n")
    first = tmp_path / "a.duckdb"
    assert one_shot(first, "session", "open", "fri")[0] == 0
    for player in ("Ann", "Bob", "Cy"):
        assert one_shot(first, "buyin", "fri", player, "100")[0] == 0
    assert one_shot(first, "import", "--session", "fri", str(hand))[0] == 0
    phh, jsonl = _exports(tmp_path, first)
    db = tmp_path / "b.duckdb"
    assert one_shot(db, "import", str(phh))[1] == (
        "imported 1 hand(s) (10 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    before = events(db)
    for jobs in ((), ("--jobs", "2")):
        code, out, err = one_shot(db, "import", *jobs, str(jsonl))
        assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in "
                                  "the ledger; 1 rejected\n")
        assert err.startswith(f"error: {jsonl}:2, session fri: its buy_in at seq 2 (Ann, 100 "
                              "chips) was made before hand phh-4e31f564e399, which the ledger "
                              "holds already in session fri, a session it never opened")
        assert events(db) == before
