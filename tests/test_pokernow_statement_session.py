"""A PokerNow ledger statement (``import LOG --ledger STATEMENT``, FORMATS.md §2) goes to the
session that holds its log's game, found as the import of the log finds it (its first hand,
whatever the file is named now), not to a session named after the file the log has now: the
same log saved as ``other.csv`` was "no session 'other' in the ledger (its log … was not
imported)" though the ledger holds it in ``game``, and with ``--session friday`` (the log
refused there: its game is in ``game``) the statement went into friday, whose books it then
contradicted row by row (a ``ledger_mismatch`` for each player)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import SHARED
from tests.test_import_into_closed import STATEMENT
from tests.test_live_table import events, one_shot

CT1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
AGAIN = "imported 0 hand(s) ({n} events) from 1 file(s); 4 already in the ledger; 0 rejected\n"


def _game(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A ledger holding charlestudor's first log imported as ``game.csv`` (session game: 4
    hands, its book's 10 entries), the same log saved as ``other.csv``, and PokerNow's
    statement of the game (TA 103, Anvjfbmj2 101, Qapurjsa9 96 at the table, each bought in
    for 100: what the books say)."""
    db = tmp_path / "s.duckdb"
    for name in ("game.csv", "other.csv"):
        shutil.copy(CT1, tmp_path / name)
    statement = tmp_path / "ledger_game.csv"
    statement.write_text(STATEMENT)
    assert one_shot(db, "import", str(tmp_path / "game.csv"))[0] == 0
    return db, tmp_path / "other.csv", statement


def test_a_statement_goes_to_the_session_holding_its_logs_game(tmp_path: Path) -> None:
    """other.csv with the statement: the log adds nothing, the statement is the 11th entry of
    session game (it was exit 2, "no session 'other'"), and the audit compares it with game's
    books: clean. Given again under either file name it adds nothing."""
    db, other, statement = _game(tmp_path)
    before = events(db)
    assert one_shot(db, "import", str(other), "--ledger", str(statement)) == (
        0, AGAIN.format(n=1), "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("game", 11, "platform_ledger")]
    assert one_shot(db, "audit") == (
        0, "audit clean: 4 hand(s) in 1 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n", "")
    for log in (other, tmp_path / "game.csv"):
        assert one_shot(db, "import", str(log), "--ledger", str(statement)) == (
            0, AGAIN.format(n=0), "")
    assert len(events(db)) == len(before) + 1


def test_session_naming_another_session_than_the_games_refuses_the_statement(
        tmp_path: Path) -> None:
    """``--session friday`` while the ledger holds the game in game: one line naming both
    sessions and what to do, exit 2, nothing written (the statement went into friday, the log
    refused); ``--session game`` takes it."""
    db, other, statement = _game(tmp_path)
    assert one_shot(db, "session", "open", "friday", "--date", "2022-01-13")[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(other), "--session", "friday", "--ledger",
                    str(statement)) == (
        2, "", f"error: --ledger {statement}: its log's game is in the ledger in session game, "
        "not friday: import the statement with its log without --session (or with --session "
        "game); nothing was imported\n")
    assert events(db) == before
    assert one_shot(db, "import", str(other), "--session", "game", "--ledger",
                    str(statement)) == (0, AGAIN.format(n=1), "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("game", 11, "platform_ledger")]


def test_a_statement_for_its_games_closed_session_names_that_session(tmp_path: Path) -> None:
    """game closed (entry 11): other.csv's statement is refused as game's, up front, nothing
    written (it was "no session 'other'"); --closed appends it to game."""
    db, other, statement = _game(tmp_path)
    assert one_shot(db, "session", "close", "game")[0] == 0
    before = events(db)
    assert one_shot(db, "import", str(other), "--ledger", str(statement)) == (
        2, "", f"error: --ledger {statement}: session 'game' is closed (entry 11): its books "
        "were settled up at the close, and a ledger statement is compared with them; nothing "
        "was imported; --closed records it anyway\n")
    assert events(db) == before
    assert one_shot(db, "import", str(other), "--ledger", str(statement), "--closed") == (
        0, AGAIN.format(n=1), "")
    assert [r[3:6] for r in events(db)[len(before):]] == [("game", 12, "platform_ledger")]


def test_the_log_is_read_once_for_its_session_its_import_and_its_statement(
        tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """``import LOG --ledger STATEMENT`` reads the log once: the statement's session is found
    from the read the import then takes, and the statement is counted in the log's unit from
    it (it read the log four times: to find the session before the import and again after it,
    for the import, and for the unit). A copy under another name of a game the ledger holds
    is read a second time, into the game's session, as its import alone reads it."""
    import ledger.formats.pokernow.importer as importer
    import ledger.formats.pokernow.log as log

    reads: list[str] = []
    real = log.read_pokernow_log

    def read(path, *, session=None):  # noqa: ANN001, ANN202
        reads.append(f"{Path(path).name} into {session}")
        return real(path, session=session)

    monkeypatch.setattr(importer, "read_pokernow_log", read)
    monkeypatch.setattr(log, "read_pokernow_log", read)
    db, other, statement = _game(tmp_path)
    assert reads == ["game.csv into None"]  # the import of the fixture
    fresh = tmp_path / "fresh.duckdb"
    reads.clear()
    code, out, err = one_shot(fresh, "import", str(tmp_path / "game.csv"), "--ledger",
                              str(statement))
    assert (code, err) == (0, "")
    assert out == "imported 4 hand(s) (61 events) from 1 file(s); 0 already in the ledger; 0 " \
        "rejected\n"
    assert reads == ["game.csv into None"]
    stored = events(fresh)  # the 4 hands, the 10 entries of the game's book, the statement
    book = [r[3:6] for r in stored if r[1] == "session:game"]
    assert len(stored) == 61 and len({r[1] for r in stored}) == 5
    assert len(book) == 11 and book[-1] == ("game", 11, "platform_ledger")
    assert one_shot(fresh, "audit") == (
        0, "audit clean: 4 hand(s) in 1 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n", "")
    reads.clear()
    assert one_shot(db, "import", str(other), "--ledger", str(statement)) == (
        0, AGAIN.format(n=1), "")
    assert reads == ["other.csv into None", "other.csv into game"]
    reads.clear()
    assert one_shot(db, "import", str(other), "--session", "game", "--ledger",
                    str(statement)) == (0, AGAIN.format(n=0), "")
    assert reads == ["other.csv into game"]
