"""What ``import`` says in one line: a file ``--strict`` refuses is one error line (its first
error, how many more, nothing written) and exit status 2; hands already in the ledger under no
session (or another) stay where they are when imported again with ``--session S``, and the
summary says so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_action_amounts import HAND
from tests.test_live_table import events, one_shot

BAD = HAND  # a bet of {} in a no-limit hand


def _phhs(path: Path, amounts: list[str]) -> Path:
    path.write_text("".join(f"[{n}]\n{BAD.format(a)}\n" for n, a in enumerate(amounts, 1)),
                    encoding="utf-8")
    return path


def test_strict_refuses_a_file_in_one_line(tmp_path: Path) -> None:
    path = _phhs(tmp_path / "one.phhs", ["100", "zz"])
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert code == 2
    # the bad hand rejected, the good one not written with its file: 2 hands read
    assert out == "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; " \
                  "1 rejected; 1 other hand(s) not written, their file refused\n"
    assert err == (f"error: {path}:16, action 'p2 cbr zz': [2] 'zz' is not a number; "
                   "--strict: nothing of this file was written\n")
    assert not db.exists()  # nothing written: not even the new ledger file


def test_strict_names_the_first_error_and_counts_the_others(tmp_path: Path) -> None:
    path = _phhs(tmp_path / "three.phhs", ["zz", "100", "yy", "ww"])
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert code == 2 and out.endswith("; 3 rejected; 1 other hand(s) not written, their file "
                                      "refused\n")
    assert err == (f"error: {path}:7, action 'p2 cbr zz': [1] 'zz' is not a number (and 2 "
                   "more error(s) in the file); --strict: nothing of this file was written\n")
    assert not db.exists()  # nothing written: not even the new ledger file
    code, out, err = one_shot(db, "import", str(path))  # without --strict: a line each
    assert code == 2 and out.startswith("imported 1 hand(s)") and out.endswith("3 rejected\n")
    assert len(err.splitlines()) == 3


def test_strict_counts_errors_not_the_warnings_of_hands_it_would_store(tmp_path: Path) -> None:
    """Two hands the table paid 10 short of their pot of 200 (warnings: stored, never
    refused by --strict) before the bad ones: the line counts the other errors alone."""
    short = BAD.format("100") + "winnings = [190, 0]\n"
    hands = [short, short.replace("'d db 3c'", "'d db 4c'"), BAD.format("zz")]
    path = tmp_path / "paid.phhs"
    path.write_text("".join(f"[{n}]\n{h}\n" for n, h in enumerate(hands, 1)), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert (code, out, err) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
        "2 other hand(s) not written, their file refused\n"),
        f"error: {path}:27, action 'p2 cbr zz': [3] 'zz' is not a number; --strict: nothing "
        "of this file was written\n")
    assert not db.exists()
    # the same hands and one more bad one: one more error
    path.write_text("".join(f"[{n}]\n{h}\n" for n, h in enumerate([*hands, BAD.format("yy")],
                                                                  1)), encoding="utf-8")
    code, out, err = one_shot(db, "import", "--strict", str(path))
    assert (code, out, err) == (2, (
        "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 2 rejected; "
        "2 other hand(s) not written, their file refused\n"),
        f"error: {path}:27, action 'p2 cbr zz': [3] 'zz' is not a number (and 1 more error(s)"
        " in the file); --strict: nothing of this file was written\n")
    code, out, err = one_shot(db, "import", str(path))  # without --strict: stored, warned
    assert code == 2 and out == ("imported 2 hand(s) (28 events) from 1 file(s); 0 already in "
                                 "the ledger; 2 rejected; 2 warning(s) about hands stored\n")
    paid = "the table paid 190 of the pot of 200: short by 10, and the hand records no rake"
    assert err.splitlines() == [
        f"error: {path}:27, action 'p2 cbr zz': [3] 'zz' is not a number",
        f"error: {path}:36, action 'p2 cbr yy': [4] 'yy' is not a number",
        f"warning: {path}:1: hand phh-b09ff9b9987d: {paid} (stored; the audit reports it)",
        f"warning: {path}:11: hand phh-91f8e89f5208: {paid} (stored; the audit reports it)"]


def test_strict_refuses_each_bad_file_in_one_line_and_imports_the_good(
        tmp_path: Path) -> None:
    bad = [_phhs(tmp_path / f"bad{n}.phhs", ["zz", "yy"]) for n in (1, 2)]
    good = _phhs(tmp_path / "good.phhs", ["100"])
    code, out, err = one_shot(tmp_path / "a.duckdb", "import", "--strict", str(bad[0]),
                              str(good), str(bad[1]))
    assert code == 2 and out.startswith("imported 1 hand(s)") and out.endswith("4 rejected\n")
    assert [line.split(":")[1].strip() for line in err.splitlines()] == [str(bad[0]),
                                                                         str(bad[1])]


def _hand(path: Path, hole: str) -> Path:
    path.write_text(BAD.format("100").replace("AsKs", hole), encoding="utf-8")
    return path


def test_hands_already_in_the_ledger_outside_the_session_say_they_stay_there(
        tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    loose, kept = _hand(tmp_path / "loose.phh", "AsKs"), _hand(tmp_path / "kept.phh", "AsKh")
    assert one_shot(db, "import", str(loose))[0] == 0  # under no session
    assert one_shot(db, "session", "open", "S")[0] == 0
    stored = events(db)
    code, out, err = one_shot(db, "import", "--session", "S", str(loose))
    assert (code, err) == (0, "")
    assert out == ("imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger "
                   "(they stay outside session S); 0 rejected\n")
    assert events(db) == stored  # nothing written: the hand is still under no session
    assert {e[3] for e in stored if e[2] is not None} == {None}
    assert one_shot(db, "import", "--session", "S", str(kept))[1].startswith(
        "imported 1 hand(s)")
    code, out, _ = one_shot(db, "import", "--session", "S", str(loose), str(kept))
    assert (code, out) == (0, "imported 0 hand(s) (0 events) from 2 file(s); 2 already in "
                              "the ledger (1 of them stays outside session S); 0 rejected\n")
    code, out, _ = one_shot(db, "import", str(kept), str(loose))  # no --session: nothing said
    assert out == ("imported 0 hand(s) (0 events) from 2 file(s); 2 already in the ledger; 0 "
                   "rejected\n")


#: What the summary adds of known hands that are voided (README, ``session void``).
VOIDED = "voided here: an import never brings a voided hand back"


def test_hands_already_in_the_ledger_that_are_voided_say_so_and_what_to_do(
        tmp_path: Path) -> None:
    """A voided hand's file imported again adds nothing, exit 0, and the summary counts the
    voided hands among those already in the ledger, naming the remedy: a new ledger. A void
    undone is no void; beside hands outside the session, both are said."""
    db = tmp_path / "a.duckdb"
    loose, kept = _hand(tmp_path / "loose.phh", "AsKs"), _hand(tmp_path / "kept.phh", "AsKh")
    assert one_shot(db, "session", "open", "S")[0] == 0
    assert one_shot(db, "import", "--session", "S", str(loose))[0] == 0
    hand = one_shot(db, "sql", "SELECT hand_id FROM hands", "--csv")[1].splitlines()[1]
    assert one_shot(db, "import", "--session", "S", str(kept))[0] == 0
    assert one_shot(db, "void", hand, "--reason", "wrong", "--by", "host")[0] == 0
    stored = events(db)
    code, out, err = one_shot(db, "import", "--session", "S", str(loose), str(kept))
    assert (code, err) == (0, "")
    assert out == ("imported 0 hand(s) (0 events) from 2 file(s); 2 already in the ledger "
                   f"(1 of them {VOIDED}); 0 rejected\n")
    assert events(db) == stored
    assert one_shot(db, "session", "open", "T")[0] == 0
    # under another session, what the user can do is said too: a new ledger
    assert one_shot(db, "import", "--session", "T", str(loose))[1] == (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay "
        f"outside session T; 1 of them {VOIDED}; a hand stays in the session it was stored "
        "in: to have them in session T, import the file into a new ledger (`handledger --db "
        "NEW.duckdb import --session T FILE`)); 0 rejected\n")
    assert one_shot(db, "undo", hand, "--by", "host")[0] == 0
    assert one_shot(db, "import", "--session", "S", str(loose), str(kept))[1] == (
        "imported 0 hand(s) (0 events) from 2 file(s); 2 already in the ledger; 0 rejected\n")


def test_a_game_already_in_the_ledger_by_its_source_stays_outside_the_session(
        tmp_path: Path) -> None:
    """A PokerNow game makes its own session (its book: the opening, the joins, the buy-ins),
    so under ``--session S`` the same export would write that book into S a second time (each
    player's buy-ins twice). The ledger knows the game by its first hand's source key: the file
    is refused in one line naming the session the game is in, and nothing is written."""
    from tests.test_pokernow_cli import VK, _find, _rows, _write

    header, rows = _rows(VK)
    path = _write(tmp_path / "three" / VK.name, header, rows[:_find(rows, "-- starting hand #4 ")])
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(path))[1].startswith("imported 3 hand(s)")
    assert one_shot(db, "session", "open", "S")[0] == 0
    stored = events(db)
    assert one_shot(db, "import", "--session", "S", str(path)) == (  # its 3 hands: known
        2, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; 1 rejected\n",
        f"error: {path}: this PokerNow game is in the ledger already, in session {VK.stem}: "
        f"it is not imported into session S too (its buy-ins would count twice); nothing of "
        f"the file was written\n")
    assert events(db) == stored
    buy_ins = [e for e in stored if e[5] == "buy_in"]
    assert len(buy_ins) == 8 and {e[3] for e in buy_ins} == {VK.stem}
    # a session the refused import names but the ledger does not hold is not created either
    assert one_shot(db, "import", "--session", "T", str(path))[0] == 2
    assert events(db) == stored
    # into the game's own session, or with no --session, the file adds nothing, as before
    for again in (["--session", VK.stem], []):
        assert one_shot(db, "import", *again, str(path)) == (
            0, "imported 0 hand(s) (0 events) from 1 file(s); 3 already in the ledger; "
               "0 rejected\n", "")
    assert events(db) == stored


def test_a_game_imported_into_a_session_is_refused_in_another(tmp_path: Path) -> None:
    """The game first imported with ``--session S`` is known there: with no ``--session`` it
    adds nothing (read again into S), with ``--session T`` it is refused naming S."""
    from tests.test_pokernow_cli import VK, _find, _rows, _write

    header, rows = _rows(VK)
    path = _write(tmp_path / VK.name, header, rows[:_find(rows, "-- starting hand #3 ")])
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", "--session", "S", str(path))[1].startswith(
        "imported 2 hand(s)")
    stored = events(db)
    assert {e[3] for e in stored} == {"S"}
    assert one_shot(db, "import", str(path)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 2 already in the ledger; 0 rejected\n",
        "")
    code, out, err = one_shot(db, "import", "--session", "T", str(path))
    assert (code, err) == (2, f"error: {path}: this PokerNow game is in the ledger already, in "
                              "session S: it is not imported into session T too (its buy-ins "
                              "would count twice); nothing of the file was written\n")
    assert events(db) == stored


def test_strict_counts_the_known_hands_of_a_file_it_refuses(tmp_path: Path) -> None:
    """The file's [1] is in the ledger already (outside S) and [2] is bad: refused whole, the
    summary still adds up to the two hands read, one known and one rejected, as without
    ``--strict``."""
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(_hand(tmp_path / "loose.phh", "AsKs")))[0] == 0
    assert one_shot(db, "session", "open", "S")[0] == 0
    stored = events(db)
    path = _phhs(tmp_path / "mixed.phhs", ["100", "zz"])  # [1] is the hand stored above
    error = f"error: {path}:16, action 'p2 cbr zz': [2] 'zz' is not a number"
    assert one_shot(db, "import", "--strict", "--session", "S", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay "
           "outside session S); 1 rejected\n",
        f"{error}; --strict: nothing of this file was written\n")
    assert one_shot(db, "import", "--session", "S", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (they stay "
           "outside session S); 1 rejected\n", f"{error}\n")
    assert events(db) == stored


def test_an_empty_file_is_refused_in_one_line_whatever_its_format(run, db: str,  # noqa: ANN001
                                                                  tmp_path: Path) -> None:
    """An empty ``.jsonl`` imported 0 hands silently (exit 0, a new ledger file) while an empty
    ``.phh`` was refused: both are now the one line ``no hand in the file``."""
    for name in ("empty.jsonl", "empty.phh"):
        path = tmp_path / name
        path.write_bytes(b"")
        out = run("import", str(path))
        assert (out.exit_code, out.output.splitlines()) == (2, [
            f"error: {path}:1: no hand in the file",
            "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
            "1 rejected"]), name
        assert not Path(db).exists()  # a refused write leaves no ledger file


def test_a_pokernow_log_of_its_header_only_is_refused(run, db: str,  # noqa: ANN001
                                                       tmp_path: Path) -> None:
    """A failed download: the real first charlestudor log's header line alone (and again
    with blank lines after it) imported 0 hands and stored an empty, undated session named
    after the file. Refused as an empty file is, nothing written, no ledger file."""
    header = (SHARED / "pokernow" / "charlestudor_Input_Log_001.csv").read_bytes().split(
        b"\n")[0] + b"\n"
    for name, text in (("hdr.csv", header), ("blank.csv", header + b"\n\n")):
        path = tmp_path / name
        path.write_bytes(text)
        out = run("import", str(path))
        assert (out.exit_code, out.output.splitlines()) == (2, [
            f"error: {path}:1: no hand and no entry: only the log's header line (a download "
            "that failed?)",
            "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
            "1 rejected"]), name
        assert not Path(db).exists()


def test_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    """The same file by its path, again, and by another path to it: read once (its error
    said once, its two hands counted once: one imported, one rejected), a note each."""
    path = _phhs(tmp_path / "one.phhs", ["100", "zz"])
    other = tmp_path / "sub" / ".." / "one.phhs"
    (tmp_path / "sub").mkdir()
    code, out, err = one_shot(tmp_path / "a.duckdb", "import", str(path), str(path),
                              str(other))
    assert (code, out) == (2, "imported 1 hand(s) (13 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected\n")
    assert err == (f"error: {path}:16, action 'p2 cbr zz': [2] 'zz' is not a number\n"
                   f"note: {path}: named again: read once\n"
                   f"note: {other}: named again: read once\n")
