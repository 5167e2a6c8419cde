"""A JSON-lines file whose session book has a line that cannot be read (cut off, a negative
buy-in) is refused whole: importing the session's hands without its buy-in would leave
books the audit cannot follow. So is one with a broken hand line (its book without the hand
would be chips nobody played); in a file of hands alone, it costs only that hand. An import
of files none of which exists writes nothing, not even a new ledger file."""

from __future__ import annotations

from pathlib import Path

from tests.test_live_table import one_shot

SERIES = Path(__file__).resolve().parents[1] / "data" / "series" / "s01.jsonl"


def _variant(tmp_path: Path, name: str, line: int, edit) -> Path:  # noqa: ANN001
    rows = SERIES.read_text().splitlines()
    rows[line] = edit(rows[line])
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_cut_off_buy_in_line_refuses_the_whole_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "cut", 5, lambda row: row[:40])
    db = tmp_path / "cut.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert code == 2
    assert out.startswith("imported 0 hand(s) (0 events) from 1 file(s)")
    assert err == (f"error: {path}:6, session s01: bad JSON: Unterminated string starting at: "
                   "line 1 column 35 (char 34); a line of the session's book is refused, so "
                   "nothing of the file was written (correct the line and import the file "
                   "again)\n")
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_file_cut_inside_its_last_session_line_says_it_is_cut(tmp_path: Path) -> None:
    """A book of an opening, a buy-in and a cash-out, exported and cut 40 bytes short of its
    end (inside the cash-out's line): the refusal says the file ends there, as a hand's
    line cut off does (docs/IMPORTING.md), in place of the advice to correct the line."""
    db = tmp_path / "s.duckdb"
    for args in (["session", "open", "fri"], ["buyin", "fri", "Ann", "100"],
                 ["cashout", "fri", "Ann", "100"]):
        assert one_shot(db, *args)[0] == 0
    whole = tmp_path / "s.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "-o", str(whole))[0] == 0
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(whole.read_bytes()[:-40])
    new = tmp_path / "new.duckdb"
    code, out, err = one_shot(new, "import", str(cut))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (f"error: {cut}:3, session fri: bad JSON: Expecting ',' delimiter: line 1 "
                   "column 61 (char 60); a line of the session's book is refused, so nothing "
                   "of the file was written; the file ends there, line 3 cut off (no newline "
                   "at its end): a file cut short? import the whole file\n")
    assert not new.exists()


def test_a_negative_buy_in_refuses_the_whole_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "neg", 5, lambda row: row.replace('"chips":150', '"chips":-40'))
    db = tmp_path / "neg.duckdb"
    code, _, err = one_shot(db, "import", str(path))
    assert code == 2
    assert err.startswith(f"error: {path}:6, session s01: invalid event (buy_in.chips: ")
    assert "nothing of the file was written" in err
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_broken_hand_line_refuses_a_file_that_carries_the_book(tmp_path: Path) -> None:
    rows = SERIES.read_text().splitlines()
    first = next(i for i, row in enumerate(rows) if '"hand_started"' in row)
    path = _variant(tmp_path, "hand", first + 3, lambda row: row[:30])
    db = tmp_path / "hand.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected; 29 other hand(s) not written, their file "
                              "refused\n")
    assert err == (f"error: {path}:{first + 4}, hand s01-001: bad JSON: Unterminated string "
                   "starting at: line 1 column 27 (char 26); nothing of the file was written: "
                   "it carries the book of session s01, which goes in with all its hands or not "
                   "at all (correct the file and import it again)\n")
    assert not db.exists()  # nothing written: not even the new ledger file


def test_a_broken_hand_line_costs_only_that_hand_of_a_file_of_hands(tmp_path: Path) -> None:
    rows = [r for r in SERIES.read_text().splitlines() if r.startswith('{"hand":')]
    rows[3] = rows[3][:30]  # s01-001's fourth row
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(rows) + "\n")
    db = tmp_path / "hands.duckdb"
    code, out, err = one_shot(db, "import", str(path))
    assert (code, out) == (2, "imported 29 hand(s) (855 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {path}:4, hand s01-001: bad JSON: Unterminated string starting "
                   "at: line 1 column 27 (char 26)\n")


def test_an_import_of_no_existing_file_creates_no_ledger(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    missing = tmp_path / "nope.jsonl"
    for args in ([str(missing)], ["--strict", str(missing)]):
        assert one_shot(db, "import", *args) == (2, "", f"error: {missing}: no such file\n")
        assert not db.exists()


def test_a_session_file_with_a_bad_hand_is_refused_whole_and_the_fixed_file_goes_in(
        tmp_path: Path) -> None:
    """s01-003 pasted twice (its rows again after it): the second copy goes on at seq 1 where
    23 is due, so the hand is refused; the file carries s01's book (its close and payments
    too), so nothing of it is written, and the fixed file then imports whole, closed and
    settled (never a closed session that lacks the hand)."""
    rows = SERIES.read_text().splitlines()
    path = tmp_path / "dup.jsonl"
    path.write_text("\n".join([*rows[:72], *rows[50:72], *rows[72:]]) + "\n")
    db = tmp_path / "x.duckdb"
    assert one_shot(db, "import", str(path)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
        "29 other hand(s) not written, their file refused\n"), (
        f"error: {path}:73, hand s01-003: hand continues with seq 1 (expected 23); nothing of "
        "the file was written: it carries the book of session s01, which goes in with all its "
        "hands or not at all (correct the file and import it again)\n"))
    assert one_shot(db, "init")[0] == 0  # a ledger to read: the refused file left none
    assert one_shot(db, "session", "list")[1] == ""
    assert one_shot(db, "import", str(SERIES)) == (0, (
        "imported 30 hand(s) (913 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"), "")
    assert one_shot(db, "session", "list")[1] == (
        "s01  2025-01-07  30 hand(s)  15 buy-in(s)  closed, settled\n")


def test_the_night_again_under_another_session_name_is_refused_whole(tmp_path: Path) -> None:
    """s01's file with every "session":"s01" made s04: its 30 hands are s01's, known; the
    file carries s04's book (15 buy-ins, the cash-outs, its close, 292.50 USD of payments),
    which would count them again (settle would bill s01's night twice): refused, nothing
    written, naming the first hand and both sessions."""
    db = tmp_path / "o.duckdb"
    assert one_shot(db, "import", str(SERIES))[0] == 0
    again = tmp_path / "s04.jsonl"
    again.write_text(SERIES.read_text().replace('"session":"s01"', '"session":"s04"'))
    head = one_shot(db, "verify")[1]
    assert one_shot(db, "import", str(again)) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 30 already in the ledger; 1 rejected\n"),
        f"error: {again}:8: hand s01-001 is in the ledger already, in session s01, and this "
        "file puts it in session s04 (and 29 more of the file's hands the ledger holds outside "
        "session s04): a hand stays in the session it was stored in, so the book of s04 would "
        "count chips played in session s01 (is it that night again under another name?); "
        "nothing of the file was written: it carries the book of session s04, which goes in "
        "with all its hands or not at all (correct the file and import it again)\n")
    assert one_shot(db, "verify")[1] == head  # the same head: nothing appended
    assert one_shot(db, "session", "list")[1] == (
        "s01  2025-01-07  30 hand(s)  15 buy-in(s)  closed, settled\n")


def test_a_session_file_whose_hands_the_ledger_holds_outside_any_session_is_refused(
        tmp_path: Path) -> None:
    """The night's hands stored first with no session (their session field emptied), then
    its file: the book of s01 would count hands played outside it."""
    rows = SERIES.read_text().splitlines()
    loose = tmp_path / "loose.jsonl"
    loose.write_text("".join(r.replace('"session":"s01"', '"session":null') + "\n"
                             for r in rows if r.startswith('{"hand":')))
    db = tmp_path / "l.duckdb"
    assert one_shot(db, "import", str(loose)) == (0, (
        "imported 30 hand(s) (885 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n"), "")
    code, out, err = one_shot(db, "import", str(SERIES))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 30 already in "
                              "the ledger; 1 rejected\n")
    assert err.startswith(
        f"error: {SERIES}:8: hand s01-001 is in the ledger already, outside any session, and "
        "this file puts it in session s01 (and 29 more of the file's hands the ledger holds "
        "outside session s01): a hand stays in the session it was stored in, so the book of "
        "s01 would count chips played outside any session (")
    assert one_shot(db, "session", "list")[1] == ""
