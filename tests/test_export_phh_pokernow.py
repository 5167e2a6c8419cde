"""``export --format phh`` of a whole ledger of PokerNow games: every hand is written (a dead
small blind and a heads-up hand, whose stakes PokerNow keeps in seat order, get the header PHH
reads them by, FORMATS.md §1) and imports back to the same pots, nets and final stacks. A hand
PHH cannot hold (a pot carried between hands) is one line naming it and why, exit 2, and no
file is left."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import DATA, SHARED

DEAD_SB = "pn-charlestudor_Input_Log_002-2-164267583814001"
HEADS_UP = "pn-charlestudor_Input_Log_002-3-164267588246201"


def _replays(user, db: str) -> dict[str, tuple]:  # noqa: ANN001
    code, out, _ = user("--db", db, "replay", "--json")
    assert code in (0, 1)
    rows = (json.loads(line) for line in out.splitlines())
    return {r["hand"]: (r["status"], r["pots"], r["net"], r["final_stacks"], r["returned"],
                        r["discrepancies"]) for r in rows}


def _named(db: str, replays: dict[str, tuple]) -> dict[str, tuple]:
    """``replays`` with each PokerNow id renamed as ``replay`` renames it in the ledger
    ``db`` (the name he played under, :class:`cli.names.Names`)."""
    from cli.names import Names, renamed
    from ledger.store.store import Ledger
    from ledger.store.streams import platform_names

    with Ledger(db, read_only=True) as ledger:
        names = Names(platform_names(ledger))
    return {hand: tuple(renamed(list(r), names)) for hand, r in replays.items()}


def _header(text: str, hand: str) -> tuple[str, str]:
    table = ("\n" + text[: text.index(f"_hand_id = '{hand}'")]).rsplit("\n[", 1)[1]
    lines = dict(line.split(" = ", 1) for line in table.splitlines()[1:] if " = " in line)
    return lines["blinds_or_straddles"], lines["players"]


def test_every_pokernow_hand_exports_and_imports_back_the_same(user, db: str,  # noqa: ANN001
                                                               tmp_path: Path) -> None:
    logs = sorted((SHARED / "pokernow").glob("*.csv"))
    assert user("import", *map(str, logs))[0] == 0
    dump = tmp_path / "all.phhs"
    assert user("export", "--format", "phh", "-o", str(dump)) == (0, f"wrote {dump}\n", (
        "note: 4 session book(s) left out: PHH cannot carry a session's opening, buy-ins, "
        "cash-outs, payments or player names (an alias, an alias ended), so a ledger "
        "importing the file holds their "
        "hands alone (--format jsonl can): charlestudor_Input_Log_001, "
        "charlestudor_Input_Log_002, pokernowpy_run-it-twice, valakuzhyk_07_21_2022_log1\n"))
    text = dump.read_text(encoding="utf-8")
    # the dead small blind: the seat left of the button posts the big blind alone
    assert _header(text, DEAD_SB) == ("[20, 0, 0]", "['YJJJbgIQrB', 'gE4aE_Yhc3', 'CzMp1GAawT']")
    # heads-up, PHH's order: the button (p2, YJJJ) posts entry 0, the small blind of 10
    assert _header(text, HEADS_UP) == ("[10, 20]", "['gE4aE_Yhc3', 'YJJJbgIQrB']")
    again = str(tmp_path / "again.duckdb")
    code, out, _ = user("--db", again, "import", str(dump))
    assert (code, out) == (0, "imported 63 hand(s) (1382 events) from 1 file(s); 0 already in "
                              "the ledger; 0 rejected\n")
    # replay names a PokerNow player by his name there; the PHH copy knows only the ids
    first, second = _replays(user, db), _replays(user, again)
    assert len(first) == 63 and first == _named(db, second)
    assert first[HEADS_UP][3] == {"A8": 100, "ksv @ ycx": 100}  # gE4aE_Yhc3, YJJJbgIQrB
    assert second[HEADS_UP][3] == {"gE4aE_Yhc3": 100, "YJJJbgIQrB": 100}


def test_a_hand_phh_cannot_hold_is_one_line_and_no_file(user, db: str,  # noqa: ANN001
                                                        tmp_path: Path) -> None:
    assert user("import", str(DATA / "declare" / "declare-night.jsonl"))[0] == 0
    dump = tmp_path / "night.phhs"
    assert user("export", "--format", "phh", "-o", str(dump)) == (
        2, "", "error: hand declare-night-3: cannot be written as PHH: it carries 28 chips out "
        "to hand declare-night-4 (RULES.md §3.8, §7.1), and PHH holds no pot carried between "
        "hands\n")
    assert not dump.exists()
    assert user("export", "--format", "phh", "declare-night-4") == (
        2, "", "error: hand declare-night-4: cannot be written as PHH: it takes 28 chips carried "
        "in from hand declare-night-3 (RULES.md §2.2, §3.8, §7.1), and PHH holds no pot "
        "carried between hands\n")
    code, out, _ = user("export", "--format", "phh", "declare-night-1")
    assert code == 0 and out.startswith("variant = ")


BUTTON_UNKNOWN = "pn-valakuzhyk_07_21_2022_log1-6-165843794571100"


def test_a_phh_export_of_pokernow_hands_is_already_in_their_ledger(user, db: str,  # noqa: ANN001
                                                                   tmp_path: Path) -> None:
    """PHH writes no face-up flags (PokerNow records hole cards down, the board up), a
    heads-up hand's blinds in PHH's order, no unknown button (the last seat) and a dead small
    blind's lone big blind as a small blind (a live blind either way): the export is the hand
    the ledger holds, counted, nothing written."""
    log = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert user("import", str(log))[0] == 0
    dump = tmp_path / "p1.phh"
    assert user("export", "--format", "phh", "-o", str(dump))[0] == 0
    assert "face_up" not in dump.read_text(encoding="utf-8")
    assert user("import", str(dump)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; "
           "0 rejected\n", "")
    assert user("import", str(SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"),
                str(SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"))[0] == 0
    two = tmp_path / "two.phhs"
    assert user("export", "--format", "phh", "-o", str(two), HEADS_UP, BUTTON_UNKNOWN,
                DEAD_SB)[0] == 0
    text = two.read_text(encoding="utf-8")
    assert text.startswith("[1]\n") and _header(text, HEADS_UP)[0] == "[10, 20]"  # ledger: [20, 10]
    assert _header(text, DEAD_SB)[0] == "[20, 0, 0]"  # read back: a small blind of 20
    assert user("import", str(two)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
           "0 rejected\n", "")


def test_a_phh_copy_with_a_card_changed_is_still_another_hand(user, db: str,  # noqa: ANN001
                                                              tmp_path: Path) -> None:
    """The face-up flags are taken from the ledger only where the copy deals the same cards:
    a board card changed is refused, naming the event."""
    log = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert user("import", str(log))[0] == 0
    dump = tmp_path / "p1.phh"
    assert user("export", "--format", "phh", "-o", str(dump))[0] == 0
    text = dump.read_text(encoding="utf-8")
    assert text.count("'d db 3sAcKd'") == 1  # the flop of hand 3
    edited = tmp_path / "edited.phh"
    edited.write_text(text.replace("'d db 3sAcKd'", "'d db 3sAcKh'"), encoding="utf-8")
    code, out, err = user("import", str(edited))
    assert code == 2 and "3 already in the ledger; 1 rejected" in out
    assert "is already in the ledger: its event" in err and "cards_dealt" in err


def test_a_phh_export_names_the_session_books_it_leaves_out(user, db: str,  # noqa: ANN001
                                                            tmp_path: Path) -> None:
    """PHH has no place for a session's book: a whole export of a PokerNow log writes its
    hands and says on stderr, exit 0, that the session's opening, buy-ins and player names
    are left out and that JSON lines carry them; a ledger importing the PHH file has the
    hands alone (no buy-in, the ids for names, the session never opened), one importing the
    JSON lines the book too. An export of named hands says nothing of their session."""
    log = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert user("import", str(log))[0] == 0
    dump = tmp_path / "s.phhs"
    assert user("export", "--format", "phh", "-o", str(dump)) == (0, f"wrote {dump}\n", (
        "note: 1 session book(s) left out: PHH cannot carry a session's opening, buy-ins, "
        "cash-outs, payments or player names (an alias, an alias ended), so a ledger "
        "importing the file holds their "
        "hands alone (--format jsonl can): charlestudor_Input_Log_001\n"))
    phh_db, jsonl_db = str(tmp_path / "phh.duckdb"), str(tmp_path / "jsonl.duckdb")
    assert user("--db", phh_db, "import", str(dump))[0] == 0
    assert user("--db", phh_db, "session", "list")[1] == (
        "charlestudor_Input_Log_001  -  4 hand(s)  0 buy-in(s)  never opened (named by its "
        "hands)\n")
    whole = tmp_path / "s.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(whole)) == (0, f"wrote {whole}\n", "")
    assert user("--db", jsonl_db, "import", str(whole))[0] == 0
    assert user("--db", jsonl_db, "balances")[1] == user("balances")[1]
    assert "TA (gE4aE_Yhc3)" in user("balances")[1]
    assert user("--db", phh_db, "balances")[1].splitlines()[1:] == [
        "gE4aE_Yhc3                3            0            0      4        1",
        "ydk9sgEWl2                1            0            0      4        1",
        "BfS83Cedu3               -4            0            0      4        1"]
    one = tmp_path / "one.phh"
    hand = "pn-charlestudor_Input_Log_001-1-164210353199300"
    assert user("export", "--format", "phh", "-o", str(one), hand) == (0, f"wrote {one}\n", "")
