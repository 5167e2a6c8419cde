"""PokerNow ledger statements (``import LOG --ledger STATEMENT``, FORMATS.md §2): a session holds
one, the platform's record of the game, which the audit compares with the books. Another
statement for the same game is refused whole (one line naming both files and each player whose
row differs, exit 2, nothing written): swapped in, it would make the audit's findings come and
go with whichever file was given last. The statement in force given again, under any name,
adds nothing."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.console_run import handledger
from tests.test_pokernow_cli import VK, _statement

SESSION = VK.stem
SUMMARY = "imported 0 hand(s) ({n} events) from 1 file(s); 52 already in the ledger; 0 rejected\n"


def _wrong(right: Path, path: Path) -> Path:
    """``right`` with Aab Ovwsi's buy-in (1000) and stack at the table (8000) 100 more: his
    net, 7000, and the sum of the nets (zero) as they were."""
    rows = list(csv.reader(right.open(encoding="utf-8")))
    (row,) = [r for r in rows if r[1] == "gKyQzJRs7T"]
    assert (row[4], row[6], row[7]) == ("1000", "8000", "7000")
    row[4], row[6] = "1100", "8100"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _statement_seq(user) -> int:  # noqa: ANN001
    """The seq of the session's one statement in its stream."""
    out = user("sql", "--csv", "SELECT seq FROM events WHERE type = 'platform_ledger'")[1]
    (seq,) = out.splitlines()[1:]
    return int(seq)


def test_a_second_statement_of_the_game_is_refused(run, user, tmp_path: Path) -> None:  # noqa: ANN001
    """The wrong statement first: stored, the audit names Aab Ovwsi. The right one after it
    is refused, and the finding stays; the wrong one again, under another name, adds
    nothing."""
    assert user("import", str(VK))[0] == 0
    (tmp_path / "right").mkdir()
    right = _statement(run, VK, SESSION, tmp_path / "right" / "ledger_game.csv")
    wrong = _wrong(right, tmp_path / "wrong" / "ledger_game.csv")
    assert user("import", str(VK), "--ledger", str(wrong)) == (0, SUMMARY.format(n=1), "")
    mismatch = (f"ledger_mismatch: session {SESSION}: the pokernow ledger ledger_game.csv says "
                "buy-ins 1100, buy-outs 8100 for Aab Ovwsi (gKyQzJRs7T) but the replayed "
                "session gives buy-ins 1000, buy-outs 8000 (buy-ins +100, buy-outs +100) "
                f"[session {SESSION}, player Aab Ovwsi; expected 1000, actual 1100]")
    code, out, _ = user("audit")
    assert code == 1 and mismatch in out.splitlines()
    count = ("sql", "--csv", "SELECT count(*) AS n FROM events")
    before = user(*count)[1]
    assert user("import", str(VK), "--ledger", str(right)) == (2, "", (
        f"error: --ledger {right}: session {SESSION} has a ledger statement in force already "
        "(ledger_game.csv), and this one differs from it: Aab Ovwsi (gKyQzJRs7T) buy-in 1100 "
        "→ 1000, stack 8100 → 8000; a platform's statement of a game is stored once, never "
        f"replaced (`handledger audit --session {SESSION}` compares it with the books; a wrong "
        "buy-in or cash-out there: `handledger entry amend` or `entry retract`; a wrong "
        f"statement: `handledger entry retract {SESSION} {_statement_seq(user)} --reason … "
        "--by …`, then import the right one); nothing was imported\n"))
    assert user(*count)[1] == before
    code, out, _ = user("audit")
    assert code == 1 and mismatch in out.splitlines()
    again = tmp_path / "again.csv"
    again.write_bytes(wrong.read_bytes())
    assert user("import", str(VK), "--ledger", str(again)) == (0, SUMMARY.format(n=0), "")
    code, out, _ = user("sql", "--csv", "SELECT count(*) AS n FROM events WHERE type = "
                        "'platform_ledger'")
    assert out == "n\n1\n"


def test_a_wrong_statement_is_retracted_and_the_right_one_imported(  # noqa: ANN001
        run, user, tmp_path: Path) -> None:
    """`entry retract` of the statement's seq appends a retraction (the statement stays in
    the ledger): the audit compares no statement, then the right one imported after it; a
    statement is never amended, nor retracted twice; the JSON-lines export of it all imports
    into a fresh ledger with the same books."""
    assert user("import", str(VK))[0] == 0
    (tmp_path / "right").mkdir()
    right = _statement(run, VK, SESSION, tmp_path / "right" / "ledger_game.csv")
    wrong = _wrong(right, tmp_path / "wrong" / "ledger_game.csv")
    assert user("import", str(VK), "--ledger", str(wrong))[0] == 0
    seq = _statement_seq(user)
    assert user("entry", "amend", SESSION, str(seq), "5", "--reason", "r", "--by", "host") == (
        2, "", f"error: entry {seq} of session {SESSION} is a ledger statement "
               "(ledger_game.csv): a statement is the platform's figures, never amended: "
               f"retract it (`handledger entry retract {SESSION} {seq} --reason … --by …`) and "
               "import the right one with its log (`handledger import LOG --ledger "
               "STATEMENT`); nothing written\n")
    assert user("entry", "retract", SESSION, str(seq), "--reason", "wrong statement", "--by",
                "host") == (0, f"{SESSION}: entry {seq} (ledger statement) retracted\n", "")
    assert user("entry", "retract", SESSION, str(seq), "--reason", "again", "--by",
                "host") == (2, "", f"error: entry {seq} of session {SESSION} is a ledger "
                                   "statement (ledger_game.csv): it is retracted already: "
                                   "nothing to retract\n")
    code, out, _ = user("audit")
    assert code == 0 and "ledger_mismatch" not in out
    assert user("import", str(VK), "--ledger", str(right)) == (0, SUMMARY.format(n=1), "")
    code, out, _ = user("audit")
    assert code == 0 and "ledger_mismatch" not in out
    again = user("import", str(VK), "--ledger", str(wrong))
    assert again[0] == 2 and again[2].startswith(
        f"error: --ledger {wrong}: session {SESSION} has a ledger statement in force already "
        "(ledger_game.csv), and this one differs from it: Aab Ovwsi (gKyQzJRs7T) buy-in 1000 "
        "→ 1100, stack 8000 → 8100;")
    events = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(events))[0] == 0
    fresh = tmp_path / "fresh.duckdb"
    code, out, err = handledger(fresh, "import", str(events))
    assert (code, err) == (0, "")
    assert handledger(fresh, "audit")[0] == 0
    code, out, _ = handledger(fresh, "sql", "--csv", "SELECT count(*) AS n FROM events WHERE "
                              "type IN ('platform_ledger', 'entry_corrected')")
    assert out == "n\n3\n"


def test_a_statement_naming_players_its_log_never_seats_is_refused(
        user, tmp_path: Path, db: str) -> None:  # noqa: ANN001
    """The first charlestudor game's statement given with the second game's log: two of its
    three players never sit in that log (TA's id plays there, as A8). Refused up front,
    naming them, nothing written, no ledger made; with its own log it goes in."""
    statement = tmp_path / "ledger_001.csv"
    statement.write_text(
        "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net\n"
        "TA,gE4aE_Yhc3,2022-01-13T01:00:00.000Z,,100,,103,3\n"
        "Anvjfbmj2,ydk9sgEWl2,2022-01-13T01:00:00.000Z,,100,,101,1\n"
        "Qapurjsa9,BfS83Cedu3,2022-01-13T01:00:00.000Z,,100,,96,-4\n")
    log2 = VK.parent / "charlestudor_Input_Log_002.csv"
    assert user("import", str(log2), "--ledger", str(statement)) == (2, "", (
        f"error: --ledger {statement}: it has rows for 2 player(s) its log {log2} never seats, "
        "nor session charlestudor_Input_Log_002 holds: Anvjfbmj2 (ydk9sgEWl2, line 3), "
        "Qapurjsa9 (BfS83Cedu3, line 4): the statement of another game? nothing was imported "
        "(import a statement with its own game's log)\n"))
    assert not Path(db).exists()
    log1 = VK.parent / "charlestudor_Input_Log_001.csv"
    assert user("import", str(log1), "--ledger", str(statement)) == (
        0, "imported 4 hand(s) (61 events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected\n", "")
