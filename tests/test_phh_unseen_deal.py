"""A PHH hand without ``_hand_id`` whose hole cards are all unknown (``????``) has no deal to be
known by: a copy of it under another file name with another key is that hand when it holds all
the stored one holds (its ``hand`` number, start and events), never a second hand; a hand that
differs anywhere, or that a file numbers apart, is another hand (replay/ingest/unseen_deal.py;
docs/IMPORTING.md, "A change to a stored hand").

The hand: blinds 1/2, stacks 100; Cy folds, Ann raises to 6, Bob calls, flop 2c7h9s, Ann bets
10, Bob folds: Ann wins the pot of 12 and her bet of 10 back (winnings 22): Ann +6, Bob -6.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from tests.test_live_table import events, one_shot

HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 6', 'p2 cc', \
'd db 2c7h9s', 'p1 cbr 10', 'p2 f']
players = ['Ann', 'Bob', 'Cy']
hand = 7
winnings = [22, 0, 0]
"""
# everyone folds to the big blind: Bob wins Ann's small blind (Ann -1, Bob +1)
FOLDED = HAND.replace("'p3 f', 'p1 cbr 6', 'p2 cc', 'd db 2c7h9s', 'p1 cbr 10', 'p2 f'",
                      "'p3 f', 'p1 f'").replace("[22, 0, 0]", "[0, 3, 0]")
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
ONE = "imported 1 hand(s) (14 events) from 1 file(s); 0 already in the ledger; 0 rejected\n"


def _file(tmp_path: Path, name: str, text: str, key: str = "") -> Path:
    path = tmp_path / name
    path.write_text(text.replace("players = ", f"{key}\nplayers = ") if key else text,
                    encoding="utf-8")
    return path


def _nets(db: Path) -> list[tuple[str, int]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT json_extract_string(payload, '$.player'), sum(CAST(json_extract("
            "payload, '$.amount') AS BIGINT)) FROM events WHERE type = 'recorded_payout'"
            " GROUP BY 1 ORDER BY 1").fetchall()
    finally:
        con.close()


def _hands(db: Path) -> list[str]:
    return sorted({e[2] for e in events(db) if e[2] is not None})


def test_a_copy_with_a_comment_or_an_event_is_already_in_the_ledger(tmp_path: Path) -> None:
    """nightA.phh's hand 7, then copies under other names with ``_comment`` or ``event``:
    known, one hand, Ann paid 22 once; with or without the ``hand`` key."""
    for text, stored in ((HAND, "nightA-7"), (HAND.replace("hand = 7\n", ""), None)):
        db = tmp_path / f"{stored}.duckdb"
        assert one_shot(db, "import", str(_file(tmp_path, "nightA.phh", text))) == (0, ONE, "")
        (hand,) = _hands(db)
        assert stored is None or hand == stored
        before = events(db)
        for name, key in (("nightA-cmt.phh", '_comment = "hi"'),
                          ("nightA-ev.phh", 'event = "Friday game"')):
            path = _file(tmp_path, name, text, key)
            assert one_shot(db, "import", str(path)) == (0, KNOWN, "")
            assert one_shot(db, "import", "--jobs", "2", str(path)) == (0, KNOWN, "")
        assert events(db) == before
        assert _hands(db) == [hand] and _nets(db) == [("Ann", 22)]


def test_another_hand_that_looks_alike_is_stored_apart(tmp_path: Path) -> None:
    """Hand 7 with other actions (Bob calls down to the river), hand 8 with the same
    actions, and hand 7 of another night (``event`` named otherwise on both): three more
    hands, none refused."""
    db = tmp_path / "d.duckdb"
    friday = _file(tmp_path, "nightA.phh", HAND, 'event = "Friday game"')
    assert one_shot(db, "import", str(friday)) == (0, ONE, "")
    other = HAND.replace("'p1 cbr 10', 'p2 f'", "'p1 cc', 'p2 cc', 'd db Td', 'p1 cc', "
                         "'p2 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'p1 sm', 'p2 sm'").replace(
        "[22, 0, 0]", "[12, 0, 0]")
    for name, text, key in (("nightB.phh", other, ""),
                            ("nightC.phh", HAND.replace("hand = 7", "hand = 8"), ""),
                            ("nightD.phh", HAND, 'event = "Saturday game"')):
        code, out, err = one_shot(db, "import", str(_file(tmp_path, name, text, key)))
        assert (code, err) == (0, "") and out.startswith("imported 1 hand(s)"), out
    assert _hands(db) == ["nightA-7", "nightB-7", "nightC-8", "nightD-7"]


def test_two_alike_hands_of_one_file_stay_two_and_their_copy_is_known(tmp_path: Path) -> None:
    """[1] hand 1 and [2] hand 2 of one session, both everyone folding to Bob at stacks of
    100 (????), 10 events each: two hands (Bob paid 3 each); the file again with a comment on
    each table under another name (with worker processes too): both known, nothing
    written."""
    db = tmp_path / "d.duckdb"
    assert one_shot(db, "session", "open", "fri")[0] == 0
    one, two = FOLDED.replace("hand = 7", "hand = 1"), FOLDED.replace("hand = 7", "hand = 2")
    path = _file(tmp_path, "fri.phhs", f"[1]\n{one}\n[2]\n{two}")
    assert one_shot(db, "import", "--session", "fri", str(path)) == (0, (
        "imported 2 hand(s) (20 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"), "")
    assert _hands(db) == ["fri-1", "fri-2"] and _nets(db) == [("Bob", 6)]
    before = events(db)
    copy = _file(tmp_path, "fri-copy.phhs", f"[1]\n{one}\n[2]\n{two}", '_comment = "hi"')
    for jobs in (("--jobs", "2"), ()):  # worker processes leave such a file to one process
        assert one_shot(db, "import", *jobs, str(copy)) == (0, (
            "imported 0 hand(s) (0 events) from 1 file(s); 2 already in the ledger; "
            "0 rejected\n"), "")
    assert events(db) == before


def test_a_copy_whose_rake_differs_is_refused_in_one_line(tmp_path: Path) -> None:
    """The same players, stacks and actions, and a ``rake = 2`` the stored hand has not: that
    hand changed, refused naming it and the rake; nothing written."""
    db = tmp_path / "d.duckdb"
    assert one_shot(db, "import", str(_file(tmp_path, "nightA.phh", HAND))) == (0, ONE, "")
    before = events(db)
    path = _file(tmp_path, "nightA-rake.phh", HAND, "rake = 2")
    assert one_shot(db, "import", str(path)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"),
        f"error: {path}:1, hand nightA-rake-7: this hand holds what hand nightA-7 of the "
        "ledger holds, no hole card known (the same players in their seats, stacks and "
        "actions: a PHH hand without _hand_id is known by its content), and differs from it: "
        "its rake is 2 here, none in the ledger; a change to a stored hand is a correction "
        "(`handledger correct nightA-7 ...`), not another hand\n")
    assert events(db) == before
