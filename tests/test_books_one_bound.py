"""Guards a fresh user broke at the table (RULES.md §1.1, README "sessions and the books"):
``settle`` never offers a transfer ``pay`` refuses, a player's payments in a session are held
to his buy-ins together, and a ``buyin`` that first names a player close to one of the
books warns as ``cashout`` and ``hand start`` do.

``fri``: 1 chip = 0.25 USD; Ann buys 300 chips (entry 2), Bob 100 (entry 3, 25.00 USD); hand h1
seats both with 300 (button Ann): Ann bets 300, Bob calls, Ann is paid the pot of 600, so Bob
loses 300 chips (75.00 USD), 200 more than he bought. Ann cashes out 400 (entry 4), Bob 0
(entry 5); the close is entry 6.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.copies import copy_ledger
from tests.test_books_refusals import refused, rows

SETTLE_REFUSED = (
    "error: cannot settle: Bob lost 300 chips (75.00 USD) in session fri, more than Bob's "
    "buy-ins there (100 chips, 25.00 USD): a hand seats Bob with chips never bought, and "
    "nobody pays more than the chips put on the table (RULES.md §1.1; `pay` refuses it): "
    "`handledger audit --session fri` names the hand (a buy-in not recorded: `handledger "
    "buyin fri Bob CHIPS --before HAND --closed`, or `entry amend` of the buy-in; a stack "
    "typed wrong: `handledger correct`); then run `handledger settle` again")  # fri closed


def run(db: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], input=stdin,
                              catch_exceptions=False)


@pytest.fixture(scope="module")
def fri(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module docstring's session, closed; built once (copy it to change it)."""
    db = tmp_path_factory.mktemp("fri") / "t.duckdb"
    for args in (("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "fri", "Ann", "300"), ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:300,Bob:300", "--button", "Ann")):
        assert run(db, *args).exit_code == 0, args
    lines = ["d dh Bob ????", "d dh Ann ????", "Ann cbr 300", "Bob cc", "d db ??????",
             "d db ??", "d db ??", "pay Ann 600", "end"]
    assert run(db, "table", "h1", stdin="".join(f"{x}\n" for x in lines)).exit_code == 0
    for args in (("cashout", "fri", "Ann", "400"), ("cashout", "fri", "Bob", "0"),
                 ("session", "close", "fri")):
        assert run(db, *args).exit_code == 0, args
    return db


def test_settle_names_the_books_instead_of_a_transfer_pay_refuses(
        fri: Path, tmp_path: Path) -> None:
    """Bob lost 300 chips (75.00 USD) of the 100 (25.00 USD) he bought: settle is refused
    naming both, and the audit names the hand that seated him with 200 chips he never
    bought; nothing is written."""
    db = copy_ledger(fri, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "settle", "--session", "fri")) == SETTLE_REFUSED
    audit = run(db, "audit", "--session", "fri")
    assert audit.stdout.splitlines()[0] == (
        "stack_continuity: hand h1: Bob starts with 300 but Bob's buy-ins come to 100: expected "
        "100 (+200) [session fri, hand h1, player Bob; expected 100, actual 300; amounts in "
        "chips of 0.25 USD]")
    assert rows(db) == before


def test_payments_split_are_held_to_the_buy_ins_together(fri: Path, tmp_path: Path) -> None:
    """75.00 USD in one payment is refused (more than Bob's 25.00 USD of buy-ins), never said
    to be chips (it was: "a payment is money, not chips"), as ``75`` may be, 75 of his 100
    chips, and ``101`` may not; split in
    three of 25.00, the first goes in and the second is refused counting the first, as
    settle cannot say what he owes; --more-than-owed records it, marked so."""
    db = copy_ledger(fri, tmp_path / "t.duckdb")
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "75.00")) == (  # money as typed
        "error: pay fri Bob Ann: 75.00 USD is more than Bob's buy-ins in fri (100 chips, 25.00 "
        "USD): nobody pays more than the chips put on the table; a buy-in missing from the "
        "books is recorded first")
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "75")) == (  # 75 of his 100 chips?
        "error: pay fri Bob Ann: 75.00 USD is more than Bob's buy-ins in fri (100 chips, 25.00 "
        "USD): a payment is money, not chips (1 chip is 0.25 USD; 75 chips are 18.75 USD); a "
        "buy-in missing from the books is recorded first")
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "101")) == (  # no chips he has
        "error: pay fri Bob Ann: 101.00 USD is more than Bob's buy-ins in fri (100 chips, "
        "25.00 USD): nobody pays more than the chips put on the table; a buy-in missing from "
        "the books is recorded first")
    done = run(db, "pay", "fri", "Bob", "Ann", "25.00")
    assert (done.exit_code, done.stdout) == (0, "fri: Bob paid Ann 25.00 USD (entry 7)\n")
    before = rows(db)
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "25.00", "--again")) == (
        "error: pay fri Bob Ann: 25.00 USD, with the 25.00 USD Bob paid already, is more than "
        "Bob's buy-ins in fri (100 chips, 25.00 USD): nobody pays more than the chips put on "
        "the table; a buy-in missing from the books is recorded first; --more-than-owed "
        "records it anyway")
    assert rows(db) == before
    done = run(db, "pay", "fri", "Bob", "Ann", "25.00", "--again", "--more-than-owed")
    assert (done.exit_code, done.stdout) == (0, "fri: Bob paid Ann 25.00 USD (entry 8)\n")


BEYOND = ("Bob lost 75.00 USD, more than the buy-ins (25.00 USD): a hand seats Bob with chips "
          "never bought, and nobody pays more than the chips put on the table (RULES.md §1.1; "
          "`pay` refuses it), so Bob can owe at most 25.00 USD (the buy-ins)")
#: What Ann's settlement finding says of the 75.00 USD Bob lost to her beyond his 25.00 USD.
UNPAID = ("Bob lost 75.00 USD, more than the buy-ins (25.00 USD): a hand seats Bob with chips "
          "never bought, and nobody pays more than the chips put on the table (RULES.md §1.1; "
          "`pay` refuses it)")
PUT_RIGHT = ("the rest is settled once the books are put right (a buy-in not recorded: "
             "`handledger buyin … --before HAND`, or `entry amend` of the buy-in; a stack "
             "typed wrong: "
             "`handledger correct`) [session fri, player Bob; expected -7500, actual ")
ANN_RIGHT = PUT_RIGHT.replace("player Bob; expected -7500", "player Ann; expected 7500")


def test_the_settlement_finding_names_what_pay_takes(fri: Path, tmp_path: Path) -> None:
    """Bob lost 75.00 USD of the 25.00 USD he bought, and pays it in parts: 10.00 USD. The
    audit's settlement finding once asked 65.00 USD more of him, which pay refuses (his
    payments together stay within his buy-ins); it names the 15.00 USD left of his buy-ins,
    which pay takes, and once paid says so; one cent more is refused."""
    db = copy_ledger(fri, tmp_path / "t.duckdb")
    assert run(db, "pay", "fri", "Bob", "Ann", "10.00").exit_code == 0
    bob, ann = [x for x in run(db, "audit", "--session", "fri").stdout.splitlines()
                if x.startswith("settlement:")]
    assert bob == (
        "settlement: session fri: payments come to -10.00 USD for Bob but Bob's net calls for "
        f"-75.00 USD (+65.00 USD): {BEYOND}: Bob must still pay Ann 15.00 USD; {PUT_RIGHT}"
        "-1000; amounts in 0.01 USD]")
    assert ann == (
        "settlement: session fri: payments come to 10.00 USD for Ann but Ann's net calls for "
        "75.00 USD (-65.00 USD): Bob must still pay Ann 15.00 USD; 50.00 USD of it no payment "
        f"settles: {UNPAID}; {ANN_RIGHT}1000; amounts in 0.01 USD]")
    done = run(db, "pay", "fri", "Bob", "Ann", "15.00")
    assert (done.exit_code, done.stdout) == (0, "fri: Bob paid Ann 15.00 USD (entry 8)\n")
    bob, ann = [x for x in run(db, "audit", "--session", "fri").stdout.splitlines()
                if x.startswith("settlement:")]
    assert bob == (
        "settlement: session fri: payments come to -25.00 USD for Bob but Bob's net calls for "
        f"-75.00 USD (+50.00 USD): {BEYOND}, paid already; {PUT_RIGHT}-2500; amounts in 0.01 "
        "USD]")
    assert ann == (  # what Bob lost beyond the buy-ins is still Ann's, and settle says so too
        "settlement: session fri: payments come to 25.00 USD for Ann but Ann's net calls for "
        f"75.00 USD (-50.00 USD): 50.00 USD of it no payment settles: {UNPAID}; "
        f"{ANN_RIGHT}2500; amounts in 0.01 USD]")
    assert refused(run(db, "settle", "--session", "fri")) == SETTLE_REFUSED
    before = rows(db)
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "0.01")) == (
        "error: pay fri Bob Ann: 0.01 USD, with the 25.00 USD Bob paid already, is more than "
        "Bob's buy-ins in fri (100 chips, 25.00 USD): nobody pays more than the chips put on "
        "the table; a buy-in missing from the books is recorded first; --more-than-owed "
        "records it anyway")
    assert rows(db) == before


def test_the_buy_in_recorded_lets_settle_say_and_pay_follow(fri: Path, tmp_path: Path) -> None:
    """Bob's buy-in amended to the 300 chips he sat with (entry 3): settle asks 75.00 USD of
    him less the 25.00 paid, 50.00 USD, which pay takes; the audit keeps only Ann's cash-out
    of 400 where the hands leave her 600."""
    db = copy_ledger(fri, tmp_path / "t.duckdb")
    assert run(db, "pay", "fri", "Bob", "Ann", "25.00").exit_code == 0
    assert run(db, "entry", "amend", "fri", "3", "300", "--closed", "--reason", "bought 300",
               "--by", "host").exit_code == 0
    done = run(db, "settle", "--session", "fri")
    assert (done.exit_code, done.stdout) == (
        0, "Bob pays Ann 50.00 USD\n1 transfer(s) settle 2 player(s) (25.00 USD paid already)\n")
    done = run(db, "pay", "fri", "Bob", "Ann", "50.00")
    assert (done.exit_code, done.stdout) == (0, "fri: Bob paid Ann 50.00 USD (entry 9)\n")
    assert run(db, "audit", "--session", "fri").stdout.splitlines() == [
        "session_balance: session fri: Ann cashed out 400 chips but the hands leave Ann 600 "
        "(-200) [session fri, player Ann; expected 600, actual 400; amounts in chips of "
        "0.25 USD]",
        "audit: 1 discrepancy (session_balance 1); 1 hand(s) in 1 session(s) checked"]


def test_a_buy_in_naming_a_player_close_to_one_of_the_books_warns(tmp_path: Path) -> None:
    """Anne beside Ann: recorded (a new player may join) with a warning offering Ann, as
    cashout and hand start offer a name; Dan, no typo of Ann, goes in without a word."""
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "decl"), ("buyin", "decl", "Ann", "20")):
        assert run(db, *args).exit_code == 0, args
    done = run(db, "buyin", "decl", "Dan", "20")
    assert (done.exit_code, done.stdout, done.stderr) == (
        0, "decl: Dan buy-in 20 chips (entry 3)\n", "")
    done = run(db, "buyin", "decl", "Anne", "20")
    assert (done.exit_code, done.stdout) == (0, "decl: Anne buy-in 20 chips (entry 4)\n")
    assert done.stderr == (
        "warning: Anne is new to the books of session decl (its players: Ann, Dan): did you "
        "mean Ann? (recorded as a new player's buy-in; a name mistyped is ended with "
        "`handledger entry retract decl 4 --reason … --by …`)\n")
    assert rows(db)[-1] == ("session:decl", 4, "buy_in")
    again = run(db, "buyin", "decl", "Anne", "5")  # his rebuy: he is in the books now
    assert (again.exit_code, again.stderr) == (0, "")


def test_a_look_alike_of_another_script_is_spelled_in_the_warning(tmp_path: Path) -> None:
    """'Аnn' with a Cyrillic А (U+0410) beside Ann: no other encoding of Ann's letters (that
    is refused), so recorded as a new player, and the warning spells his code points, here
    and in the books' list, so that "did you mean Ann?" does not read as the same name."""
    db = tmp_path / "t.duckdb"
    for args in (("session", "open", "decl"), ("buyin", "decl", "Ann", "20")):
        assert run(db, *args).exit_code == 0, args
    done = run(db, "buyin", "decl", "\u0410nn", "10")
    assert (done.exit_code, done.stdout) == (0, "decl: \u0410nn buy-in 10 chips (entry 3)\n")
    assert done.stderr == (
        "warning: '\u0410nn' (U+0410 n n) is new to the books of session decl (its players: "
        "Ann): did you mean Ann? (recorded as a new player's buy-in; a name mistyped is ended "
        "with `handledger entry retract decl 3 --reason … --by …`)\n")
    done = run(db, "buyin", "decl", "Anne", "20")
    assert done.stderr.startswith("warning: Anne is new to the books of session decl (its "
                                  "players: Ann, '\u0410nn' (U+0410 n n)): did you mean Ann?")


def test_unsettled_names_the_loss_beyond_the_buy_ins_as_the_settlement_finding(
        fri: Path, tmp_path: Path) -> None:
    """No payment recorded: `audit --unsettled` asks of Bob his 25.00 USD of buy-ins, not the
    75.00 USD pay refuses (it read no buy-ins), and names what Bob lost to Ann beyond them,
    75.00 - 25.00 = 50.00 USD, on Ann's side too."""
    db = copy_ledger(fri, tmp_path / "t.duckdb")
    bob, ann = [x for x in run(db, "audit", "--session", "fri", "--unsettled").stdout
                .splitlines() if x.startswith("unsettled:")]
    assert bob == (
        "unsettled: session fri: payments come to 0.00 USD for Bob but Bob's net calls for "
        f"-75.00 USD (+75.00 USD): {BEYOND}: Bob must still pay Ann 25.00 USD; {PUT_RIGHT}0; "
        "amounts in 0.01 USD]")
    assert ann == (
        "unsettled: session fri: payments come to 0.00 USD for Ann but Ann's net calls for "
        "75.00 USD (-75.00 USD): Bob must still pay Ann 25.00 USD; 50.00 USD of it no payment "
        f"settles: {UNPAID}; {ANN_RIGHT}0; amounts in 0.01 USD]")
