"""A hand id met twice in one PHH file: the same hand (game, players in their seats, table,
known hole cards) again is that hand, an edited copy of it is refused naming both lines, and
only another hand gets ``-2`` (ledger/formats/phh/repeats.py; docs/IMPORTING.md, "Bad input")."""

from __future__ import annotations

from pathlib import Path

import duckdb

from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import RepeatedHand
from tests.test_live_table import events, one_shot

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "phh" / "handhq"
BASE = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 50, 200]
actions = ['d dh p1 AsKs', 'd dh p2 ????', 'p3 cbr 6', 'p1 f', 'p2 f']
winnings = [0, 0, 9]
hand = 4
"""


def _read(second: str) -> tuple[list[str], list[str]]:
    parsed = read_phh_text(f"[1]\n{BASE}\n[2]\n{second}", file="t.phhs")
    return [h.hand for h in parsed.hands], [str(e) for e in parsed.errors]


def test_the_same_hand_again_keeps_its_id() -> None:
    """Another layout (a comment, spacing, the keys in another order) is the same hand: one
    id, which the import counts as known."""
    again = "# the same hand\nhand   = 4\n" + BASE.replace("hand = 4\n", "")
    assert _read(again) == (["t-4", "t-4"], [])


def test_an_edited_copy_is_refused_naming_both_lines() -> None:
    parsed = read_phh_text(f"[1]\n{BASE}\n[2]\n" + BASE.replace("[100, 50, 200]",
                                                                "[999, 50, 200]"),
                           file="t.phhs")
    assert [h.hand for h in parsed.hands] == ["t-4"]
    (error,) = parsed.errors
    assert isinstance(error, RepeatedHand) and (error.line, error.hand) == (16, "t-4")
    assert str(error) == (
        "t.phhs:16, hand t-4: [2] hand t-4 is also at line 1 of this file, the same game and "
        "players in the same seats, and this copy differs from it: its starting_stacks is "
        "[999, 50, 200] here, [100, 50, 200] at line 6; a hand is recorded once, and a change "
        "to it is a correction (`handledger correct t-4 ...`), never a second hand")
    # p2's unknown cards known in the copy tell nothing: still that hand, its actions edited
    _, errors = _read(BASE.replace("'d dh p2 ????'", "'d dh p2 7c2d'"))
    assert errors == [
        "t.phhs:17, hand t-4: [2] hand t-4 is also at line 1 of this file, the same game and "
        "players in the same seats, and this copy differs from it: its actions is ['d dh p1 "
        "AsKs', 'd dh p2 7c2d', 'p3 cbr 6', 'p… here, ['d dh p1 AsKs', 'd dh p2 ????', 'p3 "
        "cbr 6', 'p… at line 7; a hand is recorded once, and a change to it is a correction "
        "(`handledger correct t-4 ...`), never a second hand"]


def test_another_hand_under_the_id_gets_a_suffix() -> None:
    """Other hole cards, another table, other players or seats: another hand, ``-2``."""
    for other in (BASE.replace("AsKs", "AhKh"), BASE + "table = 'B'\n",
                  BASE + "players = ['Ann', 'Bob', 'Cy']\n", BASE + "seats = [2, 4, 6]\n"):
        assert _read(other) == (["t-4", "t-4-2"], [])


def _edited_pty(tmp_path: Path, stacks: str) -> Path:
    """The HandHQ excerpt with a copy of its first hand as table ``[99]`` at its end, the
    first player's stack ``stacks`` (11.51 in the file)."""
    text = (DATA / "pty-25nl-excerpt.phhs").read_text()
    first = text[text.index("[1]\n"):text.index("\n[2]\n")]
    copy = first.replace("[1]\n", "[99]\n", 1).replace("starting_stacks = [11.51,",
                                                       f"starting_stacks = [{stacks},")
    path = tmp_path / "d2.phhs"
    path.write_text(f"{text}\n{copy}\n")
    return path


def _hand_ids(db: Path) -> list[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [h for (h,) in con.execute("SELECT DISTINCT hand_id FROM events WHERE "
                                          "hand_id LIKE 'PartyPoker-16405514564%'").fetchall()]
    finally:
        con.close()


def test_an_edited_copy_of_a_handhq_hand_is_not_stored_twice(tmp_path: Path) -> None:
    path = _edited_pty(tmp_path, "999")
    line = path.read_text().splitlines().index("[99]") + 7  # its starting_stacks
    refusal = (f"error: {path}:{line}, hand PartyPoker-16405514564: [99] hand "
               "PartyPoker-16405514564 is also at line 3 of this file, the same game and "
               "players in the same seats, and this copy differs from it: its starting_stacks "
               "is [999, 25.72, 4.40, 27.91, 5, 4.65] here, [11.51, 25.72, 4.40, 27.91, 5, 4.65] "
               "at line 9; a hand is recorded once, and a change to it is a correction "
               "(`handledger correct PartyPoker-16405514564 ...`), never a second hand\n")
    db = tmp_path / "x.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, "imported 18 hand(s) (458 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected; 13 warning(s) about hands stored\n")
    assert err.startswith(refusal)
    assert _hand_ids(db) == ["PartyPoker-16405514564"]
    # into a ledger that holds the real hand: nothing written, the copy refused alike
    before = events(db)
    code, out, err = one_shot(db, "import", "--jobs", "2", str(path))
    assert (code, out, err) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 18 already "
                                   "in the ledger; 1 rejected\n", refusal)
    assert events(db) == before


def test_an_identical_copy_of_a_handhq_hand_is_one_hand(tmp_path: Path) -> None:
    path = _edited_pty(tmp_path, "11.51")
    db = tmp_path / "x.duckdb"
    code, out, _ = one_shot(db, "import", str(path))
    # 19 tables: 18 hands written and the copy, repeated in the file (it said "1 already in
    # the ledger" of a new ledger)
    assert (code, out) == (0, "imported 18 hand(s) (458 events) from 1 file(s); 0 already in "
                              "the ledger; 1 repeated in the file; 0 rejected; 13 warning(s) "
                              "about hands stored\n")
    assert _hand_ids(db) == ["PartyPoker-16405514564"]


def test_the_same_hand_twice_in_a_new_ledger_is_one_hand_repeated(tmp_path: Path) -> None:
    """[1] and [2] the same hand (11 events: start, 2 blinds, 3 deals, 3 actions, the
    payout, the end): written once, its copy counted apart from the ledger's
    hands; imported again, both copies are the hand the ledger holds."""
    path = tmp_path / "t.phhs"
    hand = BASE.replace("'d dh p2 ????', ", "'d dh p2 ????', 'd dh p3 ????', ")
    path.write_text(f"[1]\n{hand}\n[2]\n{hand}")
    db = tmp_path / "x.duckdb"
    assert one_shot(db, "import", str(path)) == (0, (
        "imported 1 hand(s) (11 events) from 1 file(s); 0 already in the ledger; 1 repeated in "
        "the file; 0 rejected\n"), "")
    assert one_shot(db, "import", str(path)) == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 2 already in the ledger; 0 rejected\n"),
        "")


def test_a_file_read_whole_finds_the_copy_alike() -> None:
    """Broken TOML in table [2]: the tables after it are read otherwise (each section parsed
    alone), and the edited copy in [3] of the hand in [1] is refused the same way."""
    parsed = read_phh_text(f"[1]\n{BASE}\n[2]\nvariant = \n\n[3]\n" + BASE.replace(
        "[100, 50, 200]", "[999, 50, 200]"), file="t.phhs")
    assert [h.hand for h in parsed.hands] == ["t-4"]
    assert [(e.line, type(e).__name__) for e in parsed.errors] == [
        (12, "MalformedInput"), (19, "RepeatedHand")]
    assert "its starting_stacks is [999, 50, 200] here, [100, 50, 200] at line 6" in str(
        parsed.errors[1])


def test_a_file_pasted_after_itself_names_each_repeated_table_its_hand_and_first_line(
        tmp_path: Path) -> None:
    """``cat one.phhs one.phhs``: each table of the second copy is refused once, naming the
    hand it holds and the line of the first table of its number; the first copies are
    stored (2 hands imported, 2 rejected: the summary adds up to the 4 tables read)."""
    dealt = BASE.replace("'d dh p2 ????', ", "'d dh p2 ????', 'd dh p3 ????', ")
    one = f"[1]\n{dealt}\n[2]\n{dealt.replace('hand = 4', 'hand = 5')}\n"
    path = tmp_path / "twice.phhs"
    path.write_text(one + one, encoding="utf-8")
    assert one.count("\n") == 20  # the second copy's [1] at line 21, its [2] at line 31
    single = tmp_path / "one.phhs"
    single.write_text(one, encoding="utf-8")
    alone = one_shot(tmp_path / "o.duckdb", "import", str(single))
    assert alone == (0, "imported 2 hand(s) (22 events) from 1 file(s); 0 already in the "
                        "ledger; 0 rejected\n", "")
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(path))
    assert (code, out) == (2, "imported 2 hand(s) (22 events) from 1 file(s); 0 already in the "
                              "ledger; 2 rejected\n")  # the first copies, as the file alone
    assert err.splitlines() == [
        f"error: {path}:21, hand twice-4: table [1] is repeated: the file's first table [1] is "
        "at line 1; a table is one hand, named once in its file",
        f"error: {path}:31, hand twice-5: table [2] is repeated: the file's first table [2] is "
        "at line 11; a table is one hand, named once in its file"]


def test_two_files_joined_name_a_table_again_for_another_hand(tmp_path: Path) -> None:
    """``cat one.phhs other.phhs``: the other file's [1] holds another hand (hand 6), refused
    as a table named again, not as a repeat; its [2] is hand 5 again with a comment of its own
    (the same values): a repeat, naming the first [2]. The first file's hands are stored."""
    dealt = BASE.replace("'d dh p2 ????', ", "'d dh p2 ????', 'd dh p3 ????', ")
    one = f"[1]\n{dealt}\n[2]\n{dealt.replace('hand = 4', 'hand = 5')}\n"
    other = (f"[1]\n{dealt.replace('hand = 4', 'hand = 6')}\n[2]\n# the same hand\n"
             f"{dealt.replace('hand = 4', 'hand = 5')}")
    path = tmp_path / "joined.phhs"
    path.write_text(one + other, encoding="utf-8")  # the other's [1] at line 21, [2] at 31
    code, out, err = one_shot(tmp_path / "t.duckdb", "import", str(path))
    assert (code, out) == (2, "imported 2 hand(s) (22 events) from 1 file(s); 0 already in the "
                              "ledger; 2 rejected\n")
    assert err.splitlines() == [
        f"error: {path}:21, hand joined-6: table [1] is named again at line 21 for another hand "
        "(two files joined?): a table is one hand, named once in its file; give it another "
        "number or import the files apart",
        f"error: {path}:31, hand joined-5: table [2] is repeated: the file's first table [2] is "
        "at line 11; a table is one hand, named once in its file"]


def test_a_short_paid_hand_pasted_twice_is_warned_of_once(tmp_path: Path) -> None:
    """[1] and [2] the same hand, paid 290 of its pot of 300 (3 players call 100 to the end,
    Bob paid 290): stored once with one warning at [1]'s line, its copy repeated in the file,
    with worker processes too; imported again, nothing more said."""
    hand = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\n"
            "min_bet = 100\nstarting_stacks = [1000, 1000, 1000]\nactions = ['d dh p1 AsKs', "
            "'d dh p2 QhQd', 'd dh p3 7c2d', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2c7h9s', "
            "'p1 cc', 'p2 cc', 'p3 cc', 'd db Td', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 3s', "
            "'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm', 'p2 sm', 'p3 sm']\n"
            "players = ['Ann', 'Bob', 'Cy']\nwinnings = [0, 290, 0]\n")
    path = tmp_path / "t.phhs"
    path.write_text(f"[1]\n{hand}[2]\n{hand}")
    for db, jobs in ((tmp_path / "a.duckdb", ()), (tmp_path / "b.duckdb", ("--jobs", "2"))):
        code, out, err = one_shot(db, "import", *jobs, str(path))
        assert (code, out) == (0, "imported 1 hand(s) (26 events) from 1 file(s); 0 already in "
                                  "the ledger; 1 repeated in the file; 0 rejected; 1 warning(s) "
                                  "about hands stored\n")
        assert err.splitlines() == [
            f"warning: {path}:1: hand phh-9c5d433b8cd4: the table paid 290 of the pot of 300: "
            "short by 10, and the hand records no rake (stored; the audit reports it)"]
        assert one_shot(db, "import", str(path)) == (0, (
            "imported 0 hand(s) (0 events) from 1 file(s); 2 already in the ledger; "
            "0 rejected\n"), "")
