"""Payments add up (README "sessions and the books"): a payment beyond what its payer still
owes as ``settle`` reckons it (his net in money, less what he paid, plus what he was paid) is
refused in one line naming the amounts, ``--again`` or not; an amendment of a payment counts
the others. While settle cannot say (a hand in play), the payer's payments together stay
within his buy-ins. Nothing of a refusal is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_books_trust import NIGHT
from tests.unit_nights import night_and

# NIGHT: Bob (150 chips at 0.25 USD) loses them all to Ann: Bob -37.50 USD, Ann +37.50, Cy 0
OWES = ("(`handledger settle --session friday` says who pays whom); --more-than-owed records "
        "it anyway\n")


@pytest.fixture
def at_night(db: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The test's ledger ``db`` (the one ``user`` runs on): a copy of the ledger of ``NIGHT``,
    built once a test session (:func:`tests.unit_nights.night_and`), as its steps leave it."""
    night_and(tmp_path_factory, Path(db))


def test_payments_stop_at_what_is_owed(user, at_night: None) -> None:  # noqa: ANN001
    assert user("pay", "friday", "Bob", "Ann", "20.00") == (
        0, "friday: Bob paid Ann 20.00 USD (entry 9)\n", "")
    assert user("pay", "friday", "Bob", "Ann", "17.75") == (
        2, "", "error: pay friday Bob Ann: 17.75 USD is more than Bob still owes in friday "
        "(17.50 USD: Bob lost 37.50 USD, paid 20.00 USD, received 0.00 USD); nothing written "
        + OWES)
    assert user("settle", "--session", "friday")[1].splitlines()[0] == "Bob pays Ann 17.50 USD"
    # the amendment of entry 9 counts the other payment: 17.50 + 37.50 is more than 37.50
    assert user("pay", "friday", "Bob", "Ann", "17.50")[0] == 0
    assert user("entry", "amend", "friday", "9", "37.50", "--reason", "r", "--by", "b") == (
        2, "", "error: entry amend friday 9 (payment of Bob to Ann): 37.50 USD is more than Bob "
        "still owes in friday (20.00 USD: Bob lost 37.50 USD, paid 17.50 USD, received 0.00 "
        "USD); nothing written " + OWES)
    assert user("settle", "--session", "friday")[1] == (
        "settled: nobody owes anybody (37.50 USD paid already)\n")


def test_the_users_three_payments(user, at_night: None) -> None:  # noqa: ANN001
    assert user("pay", "friday", "Bob", "Ann", "37.50")[0] == 0
    refusal = ("error: pay friday Bob Ann: {} USD is more than Bob still owes in friday (0.00 "
               "USD: Bob lost 37.50 USD, paid 37.50 USD, received 0.00 USD); nothing written "
               + OWES)
    assert user("pay", "friday", "Bob", "Ann", "37.25") == (2, "", refusal.format("37.25"))
    assert user("pay", "friday", "Bob", "Ann", "37.50", "--again") == (
        2, "", refusal.format("37.50"))
    assert user("pay", "friday", "Cy", "Ann", "1.00")[2] == (
        "error: pay friday Cy Ann: 1.00 USD is more than Cy still owes in friday (0.00 USD: Cy "
        "broke even, paid 0.00 USD, received 0.00 USD); nothing written " + OWES)
    # Ann hands back what Bob overpaid: then Bob owes it again
    assert user("pay", "friday", "Ann", "Bob", "37.50")[2] == (
        "error: pay friday Ann Bob: 37.50 USD is more than Ann still owes in friday (0.00 USD: "
        "Ann won 37.50 USD, paid 0.00 USD, received 37.50 USD); nothing written " + OWES)
    # said meant: Cy's 1.00 goes in, and settle has Ann pay it back
    assert user("pay", "friday", "Cy", "Ann", "1.00", "--more-than-owed") == (
        0, "friday: Cy paid Ann 1.00 USD (entry 10)\n", "")
    assert user("settle", "--session", "friday")[1].splitlines()[0] == "Ann pays Cy 1.00 USD"


def test_while_a_hand_is_in_play_payments_stay_within_the_buy_ins(user) -> None:  # noqa: ANN001
    for step in NIGHT[:5]:  # the session, the buy-ins, f1 started: settle cannot say yet
        assert user(*step)[0] == 0, step
    assert user("pay", "friday", "Bob", "Ann", "30.00")[0] == 0
    assert user("pay", "friday", "Bob", "Ann", "7.75") == (
        2, "", "error: pay friday Bob Ann: 7.75 USD, with the 30.00 USD Bob paid already, is "
        "more than Bob's buy-ins in friday (150 chips, 37.50 USD): nobody pays more than the "
        "chips put on the table; a buy-in missing from the books is recorded first; "
        "--more-than-owed records it anyway\n")
    assert user("pay", "friday", "Bob", "Ann", "7.50")[0] == 0


def test_a_payment_to_a_player_owed_nothing_is_written_under_a_warning(
        user, at_night: None) -> None:  # noqa: ANN001
    assert user("settle", "--session", "friday")[1].splitlines()[0] == "Bob pays Ann 37.50 USD"
    assert user("pay", "friday", "Bob", "Cy", "10.00") == (
        0, "friday: Bob paid Cy 10.00 USD (entry 9)\n",
        "warning: settle has Cy owed nothing in friday (Bob pays Ann 37.50 USD): `handledger "
        "entry retract friday 9 --reason … --by …` takes it back\n")
    assert user("settle", "--session", "friday")[1].splitlines()[:2] == [
        "Bob pays Ann 27.50 USD", "Cy pays Ann 10.00 USD"]
    assert user("pay", "friday", "Bob", "Ann", "27.50") == (
        0, "friday: Bob paid Ann 27.50 USD (entry 10)\n", "")
    assert user("pay", "friday", "Cy", "Ann", "10.00") == (
        0, "friday: Cy paid Ann 10.00 USD (entry 11)\n", "")
    # 10.00 + 27.50 + 10.00 recorded; Cy passed Bob's 10.00 on to Ann: 37.50 settled
    assert user("settle", "--session", "friday")[1].splitlines()[0] == (
        "settled: nobody owes anybody (payments recorded 47.50 USD, net 37.50 USD paid "
        "already: the rest paid back or passed on)")


def test_a_payment_to_a_player_owed_nothing_names_what_settle_still_asks(
        user, at_night: None) -> None:  # noqa: ANN001
    assert user("pay", "friday", "Bob", "Ann", "30.00") == (
        0, "friday: Bob paid Ann 30.00 USD (entry 9)\n", "")
    assert user("pay", "friday", "Bob", "Cy", "5.00") == (
        0, "friday: Bob paid Cy 5.00 USD (entry 10)\n",
        "warning: settle has Cy owed nothing in friday (Bob pays Ann 7.50 USD): `handledger "
        "entry retract friday 10 --reason … --by …` takes it back\n")
    assert user("entry", "retract", "friday", "10", "--reason", "wrong payee", "--by", "t"
                )[0] == 0
    assert user("pay", "friday", "Bob", "Ann", "7.50") == (
        0, "friday: Bob paid Ann 7.50 USD (entry 12)\n", "")


def test_a_session_with_no_hand_owes_nothing_but_what_was_paid(user) -> None:  # noqa: ANN001
    """Buy-ins (and cash-outs) only: settle says nobody owes anybody, so a payment is one
    beyond what is owed, refused as any other (before, it went in and settle then asked for
    it back); with --more-than-owed it goes in, and what was paid may be handed back."""
    for step in (("session", "open", "q", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "q", "Ann", "100"), ("buyin", "q", "Bob", "100")):
        assert user(*step)[0] == 0, step
    assert user("settle", "--session", "q") == (0, "settled: nobody owes anybody\n", "")
    owes = "(`handledger settle --session q` says who pays whom); --more-than-owed records it " \
           "anyway\n"
    assert user("pay", "q", "Bob", "Ann", "10") == (
        2, "", "error: pay q Bob Ann: 10.00 USD is more than Bob still owes in q (0.00 USD: Bob "
        f"broke even, paid 0.00 USD, received 0.00 USD); nothing written {owes}")
    assert user("cashout", "q", "Ann", "100")[0] == 0
    assert user("pay", "q", "Bob", "Ann", "10") == (
        2, "", "error: pay q Bob Ann: 10.00 USD is more than Bob still owes in q (0.00 USD: Bob "
        f"broke even, paid 0.00 USD, received 0.00 USD); nothing written {owes}")
    assert user("pay", "q", "Bob", "Ann", "10", "--more-than-owed") == (
        0, "q: Bob paid Ann 10.00 USD (entry 5)\n", "")
    assert user("pay", "q", "Ann", "Bob", "10") == (0, "q: Ann paid Bob 10.00 USD (entry 6)\n", "")
    # it said no more than "settled: nobody owes anybody", silent on the 20.00 USD paid
    assert user("settle", "--session", "q") == (
        0, "settled: nobody owes anybody (payments recorded 20.00 USD, net 0.00 USD paid "
        "already: the rest paid back or passed on)\n", "")


def test_settle_counts_the_payments_paid_back(user, at_night: None) -> None:  # noqa: ANN001
    """Bob paid Ann 37.50, Ann paid him 10.00 back, Bob paid her the 10.00 again: settle
    said "(37.50 USD paid already)", as if 37.50 USD were all the payments recorded."""
    assert user("pay", "friday", "Bob", "Ann", "37.50")[0] == 0
    assert user("pay", "friday", "Ann", "Bob", "10.00", "--more-than-owed") == (
        0, "friday: Ann paid Bob 10.00 USD (entry 10)\n", "")
    assert user("settle", "--session", "friday") == (
        0, "Bob pays Ann 10.00 USD\n1 transfer(s) settle 3 player(s) (payments recorded "
        "47.50 USD, net 27.50 USD paid already: the rest paid back or passed on)\n", "")
    assert user("pay", "friday", "Bob", "Ann", "10.00")[0] == 0
    assert user("settle", "--session", "friday") == (
        0, "settled: nobody owes anybody (payments recorded 57.50 USD, net 37.50 USD paid "
        "already: the rest paid back or passed on)\n", "")
