"""PHH import never drops a hand or a field unsaid (FORMATS.md §1): a hand outside any table
before a ``.phhs``'s tables (``cat one.phh t.phhs``), a hand typed as a sub-table (``[1.2]``)
and a misspelt key (``winings``) are each refused in one line, exit status 2."""

from __future__ import annotations

from pathlib import Path

import duckdb

from ledger.formats.phh.read import read_phh_text
from tests.conftest import SHARED
from tests.test_live_table import one_shot

HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 {}', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 f']
players = ['Ann', 'Bob', 'Cy']
winnings = [0, 3, 0]
"""
BARE = ("a hand outside any table, before the table [1] at line 10: a .phhs file holds each "
        "hand in a table of its own ([1], [2], …; FORMATS.md §1), and this one is not read: "
        "give it a header of its own")


def _nets(db: Path) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT hand_id, player, net FROM results ORDER BY hand_id, player"
                           ).fetchall()


def test_a_hand_before_the_tables_is_refused_and_the_tables_read(tmp_path: Path) -> None:
    path = tmp_path / "cat.phhs"
    path.write_text(HAND.format("AsKs") + "\n[1]\n" + HAND.format("AhKh") + "\n[2]\n"
                    + HAND.format("AdKd"), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert code == 2
    assert err == f"error: {path}:1: {BARE}; --strict: nothing of this file was written\n"
    assert not db.exists()
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out == ("imported 2 hand(s) (20 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")
    assert err == f"error: {path}:1: {BARE}\n"
    nets = _nets(db)  # the two tables: Ann's small blind 1 to Bob, each hand
    assert sorted(n for _, _, n in nets) == [-1, -1, 0, 0, 1, 1]
    assert len({h for h, _, _ in nets}) == 2


def test_a_real_phh_put_before_a_real_phhs(tmp_path: Path) -> None:
    one = SHARED / "phh" / "televised" / "test_papers" / "test_dwan_ivey_2009.phh"
    many = SHARED / "phh" / "handhq" / "pty-25nl-excerpt.phhs"
    path = tmp_path / "all.phhs"
    path.write_bytes(one.read_bytes() + many.read_bytes())
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert code == 2
    assert err.splitlines()[0] == (
        f"error: {path}:1: a hand outside any table, before the table [1] at line 14: a .phhs "
        "file holds each hand in a table of its own ([1], [2], …; FORMATS.md §1), and this "
        "one is not read: give it a header of its own; --strict: nothing of this file was "
        "written")
    assert not db.exists()


def test_a_hand_typed_as_a_sub_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "typo.phhs"
    path.write_text("[1]\n" + HAND.format("AhKh") + "\n[1.2]\n" + HAND.format("AdKd"),
                    encoding="utf-8")
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
                   "1 rejected\n")
    assert err == (f"error: {path}:11: [1] table [1.2] is a hand inside the hand [1]: a hand "
                   "is a top-level table of its own ([1], [2], …; FORMATS.md §1)\n")


def test_a_misspelt_key_is_refused_naming_the_closest_field(tmp_path: Path) -> None:
    path = tmp_path / "keys.phhs"
    text = "[1]\n" + HAND.format("AhKh")
    path.write_text(text.replace("players =", "playres =").replace("winnings =", "winings ="),
                    encoding="utf-8")
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert code == 2
    assert err == (f"error: {path}:8: [1] unknown key 'playres' (did you mean 'players'?): not "
                   "a PHH field, and a key of one's own starts with '_' (FORMATS.md §1); "
                   "--strict: nothing of this file was written\n")
    path.write_text(text.replace("winnings =", "winings ="), encoding="utf-8")
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert err == (f"error: {path}:9: [1] unknown key 'winings' (did you mean 'winnings'?): not "
                   "a PHH field, and a key of one's own starts with '_' (FORMATS.md §1)\n")
    assert not db.exists()


def test_keys_of_ones_own_and_the_specifications_optional_fields_are_read(tmp_path: Path
                                                                          ) -> None:
    path = tmp_path / "meta.phh"
    path.write_text(HAND.format("AhKh") + "_note = 'x'\ntime_zone = 'UTC'\ntable = 7\n"
                    "seat_count = 6\n", encoding="utf-8")
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert (code, err) == (0, "")
    assert sorted(n for _, _, n in _nets(db)) == [-1, 0, 1]


def test_our_exports_metadata_keys_are_read_as_they_are() -> None:
    # the ledger's export writes a PokerStars hand's button_seat back as a top-level key
    result = read_phh_text(HAND.format("AhKh") + "_hand_id = 'h1'\nbutton_seat = 3\n",
                           file="e.phh")
    (hand,) = result.check()
    assert (hand.hand, hand.started.source["button_seat"]) == ("h1", 3)
    result = read_phh_text(HAND.format("AhKh") + "button_seat = 3\n", file="u.phh")
    assert [(e.line, e.message) for e in result.errors] == [
        (9, "unknown key 'button_seat': not a PHH field, and a key of one's own starts with "
            "'_' (FORMATS.md §1)")]
