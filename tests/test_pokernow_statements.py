"""PokerNow ledger statements (``import LOG --ledger STATEMENT``): the latest is the one in force
(the audit compares it with the books). A corrected statement after a wrong one, or the right
one given again after a wrong one, is never swallowed: it is appended and in force, with one
``note:`` line per player whose row it changes; the statement in force given again adds
nothing."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.test_pokernow_cli import VK, _statement

SESSION = VK.stem
NOTE = (f"note: session {SESSION}: the ledger statement ledger_game.csv replaces the one in force "
        "(ledger_game.csv): Aab Ovwsi (gKyQzJRs7T) stack {a} → {b}, net {c} → {d}; `handledger "
        f"audit --session {SESSION}` compares it with the books (a wrong buy-in or cash-out "
        "there: `handledger entry amend` or `entry retract`)\n")
SUMMARY = "imported 0 hand(s) ({n} events) from 1 file(s); 52 already in the ledger; 0 rejected\n"


def _wrong(right: Path, path: Path) -> Path:
    """``right`` with Aab Ovwsi's stack at the table (8000) and net (7000) 100 more."""
    rows = list(csv.reader(right.open(encoding="utf-8")))
    (row,) = [r for r in rows if r[1] == "gKyQzJRs7T"]
    assert (row[6], row[7]) == ("8000", "7000")
    row[6], row[7] = "8100", "7100"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_the_right_statement_again_after_a_wrong_one_is_in_force(run, user,  # noqa: ANN001
                                                                 tmp_path: Path) -> None:
    assert user("import", str(VK))[0] == 0
    (tmp_path / "right").mkdir()
    right = _statement(run, VK, SESSION, tmp_path / "right" / "ledger_game.csv")
    wrong = _wrong(right, tmp_path / "wrong" / "ledger_game.csv")
    assert user("import", str(VK), "--ledger", str(right)) == (0, SUMMARY.format(n=1), "")
    assert user("audit")[0] == 0
    assert user("import", str(VK), "--ledger", str(wrong)) == (
        0, SUMMARY.format(n=1), NOTE.format(a=8000, b=8100, c=7000, d=7100))
    code, out, _ = user("audit")
    assert code == 1 and "ledger_mismatch" in out
    # the corrected statement, the same as the first: appended again, in force
    assert user("import", str(VK), "--ledger", str(right)) == (
        0, SUMMARY.format(n=1), NOTE.format(a=8100, b=8000, c=7100, d=7000))
    assert user("audit") == (0, "audit clean: 52 hand(s) in 1 session(s); every chip adds up"
                                " in the books as stored (the hash chain not checked: "
                                "`handledger verify`)\n",
                             "")
    # the statement in force again: nothing to add, nothing to say
    assert user("import", str(VK), "--ledger", str(right)) == (0, SUMMARY.format(n=0), "")
    code, out, _ = user("sql", "--csv", "SELECT count(*) AS n FROM events WHERE type = "
                        "'platform_ledger'")
    assert out == "n\n3\n"
