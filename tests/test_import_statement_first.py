"""``import LOG... --ledger STATEMENT`` checks that exactly one PokerNow log goes with the
statement before anything is written (a write command checks its preconditions first): two
logs, or none, is one error line, exit 2, no ledger created and no row added. It imported the
logs and then complained."""

from __future__ import annotations

from pathlib import Path

from tests.fri_night import night
from tests.test_live_table import events, one_shot
from tests.test_pokernow_cli import DATA, VK

CT = DATA / "charlestudor_Input_Log_001.csv"


def test_two_logs_with_a_statement_write_nothing(tmp_path: Path) -> None:
    statement = tmp_path / "ledger_x.csv"
    statement.write_text("player_nickname,player_id\n")
    db = tmp_path / "new.duckdb"
    code, out, err = one_shot(db, "import", str(VK), str(CT), "--ledger", str(statement))
    assert (code, out) == (2, "")
    assert err == (f"error: --ledger {statement}: give exactly one PokerNow log with it "
                   "(2 given); nothing was imported\n")
    assert not db.exists()


def test_no_log_with_a_statement_leaves_the_ledger_as_it_was(tmp_path: Path) -> None:
    db = night(tmp_path)
    before = events(db)
    statement = tmp_path / "ledger_x.csv"
    statement.write_text("player_nickname,player_id\n")
    other = tmp_path / "other.jsonl"
    other.write_text((tmp_path / "night.jsonl").read_text().replace('"fri"', '"sat"'))
    code, out, err = one_shot(db, "import", str(other), "--ledger", str(statement))
    assert (code, out) == (2, "")
    assert err == (f"error: --ledger {statement}: give exactly one PokerNow log with it "
                   "(0 given); nothing was imported\n")
    assert events(db) == before


def test_a_statement_that_cannot_be_read_imports_not_its_log(tmp_path: Path) -> None:
    statement = tmp_path / "ledger_x.csv"
    statement.write_text("player_nickname,player_id\n")
    db = tmp_path / "new.duckdb"
    code, out, err = one_shot(db, "import", str(VK), "--ledger", str(statement))
    assert (code, out) == (2, "")
    assert err == ("error: ledger_x.csv:1: not a PokerNow ledger (missing buy_in, buy_out, "
                   "stack, net); nothing was imported\n")
    assert not db.exists()


def test_a_statement_given_as_its_own_log_is_said_to_be_one(tmp_path: Path) -> None:
    statement = tmp_path / "st.csv"
    statement.write_text("player_nickname,player_id,session_start_at,session_end_at,buy_in,"
                         "buy_out,stack,net\nTA,gE4aE_Yhc3,2022-01-13T19:50:00.000Z,,100,,100,"
                         "0\n")
    db = tmp_path / "new.duckdb"
    assert one_shot(db, "import", str(statement), "--ledger", str(statement)) == (
        2, "", f"error: --ledger {statement}: give exactly one PokerNow log with it (0 given: "
               f"{statement} is a PokerNow ledger statement, not a game log); nothing was "
               "imported\n")
    assert not db.exists()
