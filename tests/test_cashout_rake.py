"""A cash-out is bounded by the chips still on the table: the buy-ins less the cash-outs and
less the rake the session's pots paid the table (replay/sessions.py ``_within_table``,
replay/rake_taken.py)."""

from __future__ import annotations

from ledger.store.store import Ledger

#: Dee (button) bets 100, Ann calls all-in: a pot of 200 that Ann's aces win; the table
#: takes a rake of 2 and pays Ann 198. Dee keeps 116 - 100 = 16.
RAKED = ("d dh Ann AsAh", "d dh Dee KsKh", "Dee cbr 100", "Ann cc", "d db 2c3d4h", "d db 9s",
         "d db Td", "Ann sm AsAh", "Dee sm KsKh", "rake 2", "pay Ann 198", "end")


def _rows(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return ledger.count()


def test_the_rake_is_not_on_the_table_to_cash_out(run, db: str) -> None:  # noqa: ANN001
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Dee", "116"),
                 ("hand", "start", "--session", "fri", "--hand", "k1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Dee:116", "--button", "Dee"),
                 *(("act", "k1", a) for a in RAKED), ("cashout", "fri", "Dee", "16")):
        assert run(*args).exit_code == 0, args
    # 216 bought in, 16 cashed out, 2 raked: 198 are left, Ann's stack
    before = _rows(db)
    out = run("cashout", "fri", "Ann", "199")
    assert (out.exit_code, out.output) == (2, (
        "error: cashout fri Ann 199: the table holds 198 chips not cashed out yet (216 bought "
        "in, 16 cashed out, 2 taken as rake), and no hand makes chips; a buy-in missing from "
        "the books is recorded first, a cash-out counted wrong is amended (`handledger entry "
        "amend fri SEQ CHIPS --reason … --by …`; `handledger history --session fri` lists "
        "the entries)\n"))
    assert _rows(db) == before
    assert run("cashout", "fri", "Ann", "198").exit_code == 0
    # the session's balance adds up: the audit names the rake and nothing else
    assert run("audit", "--session", "fri").output.splitlines()[-1] == (
        "audit: 1 discrepancy in 1 hand(s) in 1 session(s) (rake 1)")
