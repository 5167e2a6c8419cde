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


def _raked_night(run) -> None:  # noqa: ANN001
    """Session fri: Ann buys 100 (seq 2), Dee 116 (seq 3), hand k1 (RAKED), Dee cashes out
    16 (seq 4)."""
    for args in (("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
                 ("buyin", "fri", "Dee", "116"),
                 ("hand", "start", "--session", "fri", "--hand", "k1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Dee:116", "--button", "Dee"),
                 *(("act", "k1", a) for a in RAKED), ("cashout", "fri", "Dee", "16")):
        assert run(*args).exit_code == 0, args


def test_the_rake_is_not_on_the_table_to_cash_out(run, db: str) -> None:  # noqa: ANN001
    _raked_night(run)
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


def test_an_amended_cash_out_is_bounded_by_the_table_too(run, db: str) -> None:  # noqa: ANN001
    _raked_night(run)
    assert run("cashout", "fri", "Ann", "198").exit_code == 0  # seq 5
    by = ("--reason", "miscounted", "--by", "Host")
    before = _rows(db)
    # Ann's 198 counted back: 216 bought in, 16 cashed out by Dee, 2 raked leave 198
    out = run("entry", "amend", "fri", "5", "199", *by)
    assert (out.exit_code, out.output) == (2, (
        "error: entry amend fri 5 (cash-out of Ann): 199 chips: the table holds 198 chips not "
        "cashed out yet besides this cash-out (216 bought in, 16 cashed out by the other "
        "entries, 2 taken as rake), and no hand makes chips; a buy-in missing from the books "
        "is recorded first, another cash-out counted wrong is amended (`handledger entry "
        "amend fri SEQ CHIPS --reason … --by …`; `handledger history --session fri` lists the "
        "entries)\n"))
    # Dee's 16 counted back: 216 - 198 - 2 = 16 are his at most
    out = run("entry", "amend", "fri", "4", "17", *by)
    assert out.exit_code == 2
    assert out.output.startswith(
        "error: entry amend fri 4 (cash-out of Dee): 17 chips: the table holds 16 chips not "
        "cashed out yet besides this cash-out (216 bought in, 198 cashed out by the other "
        "entries, 2 taken as rake)")
    assert _rows(db) == before
    # fewer chips always go in; then Dee's may grow by what Ann's gave back, and no further
    assert run("entry", "amend", "fri", "5", "150", *by).exit_code == 0
    assert run("entry", "amend", "fri", "4", "65", *by).output.startswith(
        "error: entry amend fri 4 (cash-out of Dee): 65 chips: the table holds 64 chips")
    assert run("entry", "amend", "fri", "4", "64", *by).exit_code == 0
    # an amended amendment counts back the chips it has now (150), not those first recorded
    assert run("entry", "amend", "fri", "5", "152", *by).output.startswith(
        "error: entry amend fri 5 (cash-out of Ann): 152 chips: the table holds 150 chips not "
        "cashed out yet besides this cash-out (216 bought in, 64 cashed out by the other "
        "entries, 2 taken as rake)")
    assert run("entry", "amend", "fri", "5", "151", *by).output.startswith(
        "error: entry amend fri 5 (cash-out of Ann): 151 chips: the table holds 150")
