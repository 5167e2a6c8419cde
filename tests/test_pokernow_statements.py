"""PokerNow ledger statements (``import LOG --ledger STATEMENT``, FORMATS.md §2): a session holds
one, the platform's record of the game, which the audit compares with the books. Another
statement for the same game is refused whole (one line naming both files and each player whose
row differs, exit 2, nothing written): swapped in, it would make the audit's findings come and
go with whichever file was given last. The statement in force given again, under any name,
adds nothing."""

from __future__ import annotations

import csv
from pathlib import Path

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
        "buy-in or cash-out there: `handledger entry amend` or `entry retract`); nothing was "
        "imported\n"))
    assert user(*count)[1] == before
    code, out, _ = user("audit")
    assert code == 1 and mismatch in out.splitlines()
    again = tmp_path / "again.csv"
    again.write_bytes(wrong.read_bytes())
    assert user("import", str(VK), "--ledger", str(again)) == (0, SUMMARY.format(n=0), "")
    code, out, _ = user("sql", "--csv", "SELECT count(*) AS n FROM events WHERE type = "
                        "'platform_ledger'")
    assert out == "n\n1\n"
