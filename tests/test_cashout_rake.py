"""A cash-out is bounded by the chips still on the table: the buy-ins less the cash-outs and
less the rake the session's pots paid the table (replay/sessions/entries.py ``within_table``,
replay/rake_taken.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.copies import build_ledger, copy_ledger

#: Dee (button) bets 100, Ann calls all-in: a pot of 200 that Ann's aces win; the table
#: takes a rake of 2 and pays Ann 198. Dee keeps 116 - 100 = 16.
RAKED = ("d dh Ann AsAh", "d dh Dee KsKh", "Dee cbr 100", "Ann cc", "d db 2c3d4h", "d db 9s",
         "d db Td", "Ann sm AsAh", "Dee sm KsKh", "rake 2", "pay Ann 198", "end")


def _rows(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return ledger.count()


@pytest.fixture(scope="module")
def raked_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session fri: Ann buys 100 (seq 2), Dee 116 (seq 3), hand k1 (RAKED), Dee cashes out
    16 (seq 4); built once for the module, every step exiting 0."""
    return build_ledger(tmp_path_factory.mktemp("raked") / "t.duckdb", [
        ("session", "open", "fri"), ("buyin", "fri", "Ann", "100"),
        ("buyin", "fri", "Dee", "116"),
        ("hand", "start", "--session", "fri", "--hand", "k1", "--game", "NT",
         "--stakes", "1/2", "--seats", "Ann:100,Dee:116", "--button", "Dee"),
        *(("act", "k1", a) for a in RAKED), ("cashout", "fri", "Dee", "16")])


@pytest.fixture
def raked_night(raked_ledger: Path, db: str) -> None:
    """The test's ledger ``db`` (the one ``run`` uses): a copy of ``raked_ledger``."""
    copy_ledger(raked_ledger, Path(db))


def test_the_rake_is_not_on_the_table_to_cash_out(run, db: str, raked_night: None) -> None:  # noqa: ANN001
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
    # the session's balance adds up, and the hand paid its pot less the rake: audit clean
    assert run("audit", "--session", "fri").output.splitlines()[-1] == (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)")


def test_an_amended_cash_out_is_bounded_by_the_table_too(run, db: str, raked_night: None) -> None:  # noqa: ANN001
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


BY = ("--reason", "miscounted", "--by", "Host")


def test_a_buy_in_taken_back_may_not_leave_the_cash_outs_above_the_buy_ins(  # noqa: ANN001
        run, db: str, raked_night: None) -> None:
    assert run("cashout", "fri", "Ann", "198").exit_code == 0  # seq 5: 214 out, 2 raked
    before = _rows(db)
    # without Dee's 116, 100 came in for the 214 paid out and the 2 raked
    out = run("entry", "retract", "fri", "3", *BY)
    assert (out.exit_code, out.output) == (2, (
        "error: entry retract fri 3 (buy-in of Dee, 116 chips): the buy-ins would come to 100 "
        "chips, less than the 214 cashed out and 2 taken as rake (216 in all), and no hand "
        "makes chips; nothing written (a cash-out counted wrong is amended first: `handledger "
        "entry amend fri SEQ CHIPS --reason … --by …`; `handledger history --session fri` "
        "lists the entries)\n"))
    out = run("entry", "amend", "fri", "2", "99", *BY)
    assert (out.exit_code, out.output.split(", and")[0]) == (2, (
        "error: entry amend fri 2 (buy-in of Ann): 99 chips: the buy-ins would come to 215 "
        "chips, less than the 214 cashed out and 2 taken as rake (216 in all)"))
    assert _rows(db) == before
    # more chips always go in; then Ann's may come down to the 216 again, and no further
    assert run("entry", "amend", "fri", "2", "150", *BY).exit_code == 0
    assert run("entry", "amend", "fri", "2", "101", *BY).exit_code == 0  # 217 in
    assert run("entry", "amend", "fri", "2", "99", *BY).output.startswith(
        "error: entry amend fri 2 (buy-in of Ann): 99 chips: the buy-ins would come to 215 "
        "chips, less than the 214 cashed out and 2 taken as rake (216 in all)")
    assert run("entry", "amend", "fri", "2", "100", *BY).exit_code == 0  # 216: as played
    # a cash-out counted down first: the table's bound lets the buy-in come down as far, but
    # the hand after it seats Ann with the 100 she bought: 50 would start her with 50 chips
    # nobody bought (the stacks the books follow), refused as a retract of it is
    assert run("entry", "amend", "fri", "5", "148", *BY).exit_code == 0  # 164 out
    out = run("entry", "amend", "fri", "2", "50", *BY)
    assert (out.exit_code, out.output.split(" nobody bought")[0]) == (2, (
        "error: entry amend fri 2 (buy-in of Ann): 50 chips: hand k1 seats Ann with 100 chips, "
        "and Ann's buy-ins there would come to 50: it would start Ann with 50 chips"))


#: A hand read from a file into session x: Bob and Cy (no buy-in there) check it down.
OUTSIDE = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc', 'p1 cc', 'd db 2c3d4h', 'p1 cc', 'p2 cc',
           'd db 9s', 'p1 cc', 'p2 cc', 'd db Td', 'p1 cc', 'p2 cc']
players = ['Bob', 'Cy']
_hand_id = 'o1'
"""


def test_a_buy_in_taken_back_is_not_bounded_when_chips_came_from_outside(  # noqa: ANN001
        run, db: str, tmp_path) -> None:
    for args in (("session", "open", "x"), ("buyin", "x", "Ann", "100"),
                 ("buyin", "x", "Bob", "100"), ("cashout", "x", "Ann", "150")):
        assert run(*args).exit_code == 0, args
    # no rake, no hand: 100 would be in for the 150 cashed out
    out = run("entry", "retract", "x", "3", *BY)
    assert (out.exit_code, out.output.split(", and")[0]) == (2, (
        "error: entry retract x 3 (buy-in of Bob, 100 chips): the buy-ins would come to 100 "
        "chips, less than the 150 cashed out"))
    # a hand seats Cy, who has no buy-in: the buy-ins bound nothing (as for a cash-out), so
    # Ann's 100 may be retracted; Bob's may not, since o1 seats him and it is all he bought
    (tmp_path / "o1.phh").write_text(OUTSIDE)
    out = run("import", str(tmp_path / "o1.phh"), "--session", "x")
    warned, summary = out.output.splitlines()[:2]
    assert (out.exit_code, summary[:19]) == (0, "imported 1 hand(s) ")
    assert warned == (  # the import says so (the audit's stack_continuity names it too)
        f"warning: {tmp_path / 'o1.phh'}:1: hand o1: Cy has no buy-in in session x: settle "
        "would bill chips nobody bought (RULES.md §1.1; `hand start` refuses such a seat) "
        "(stored; the audit reports it)")
    assert run("entry", "retract", "x", "3", *BY).output.startswith(
        "error: entry retract x 3 (buy-in of Bob, 100 chips): it is all Bob bought in session "
        "x, and hand o1 seats Bob")
    assert run("entry", "retract", "x", "2", *BY).exit_code == 0
