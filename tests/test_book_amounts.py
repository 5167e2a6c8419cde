"""The amounts of the book commands as a new user typed them: a buy-in, cash-out or its
amendment takes whole chips in ASCII digits, a payment money in the session's currency, in
ASCII digits with at most its decimals. Anything else (dollars where chips are counted, a
sign, an exponent, a currency, another script's digits) is one line naming the command, the
player and the amount, exit 2, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.built_once import snapshot
from tests.copies import copy_ledger
from tests.test_books_refusals import refused, rows, run

USD = "(amounts are whole chips, in ASCII digits; 1 chip is 0.25 USD"


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session ``fri`` (1 chip = 0.25 USD) where Ann bought 200 chips and Bob 100; session
    ``home`` (1 chip = 1, no currency) where Ann bought 200."""
    db = tmp_path_factory.mktemp("books") / "t.duckdb"
    for args in (("session", "open", "fri", "--date", "2026-11-27", "--chip-value", "0.25",
                  "--currency", "USD"), ("buyin", "fri", "Ann", "200"),
                 ("buyin", "fri", "Bob", "100"), ("session", "open", "home", "--date",
                 "2026-11-28"), ("buyin", "home", "Ann", "200")):
        assert run(db, *args).exit_code == 0, args
    return db


@pytest.fixture
def db(books: Path, tmp_path: Path) -> Path:
    """A copy of ``books`` for the test."""
    return copy_ledger(books, tmp_path / "t.duckdb")


@pytest.mark.parametrize(("args", "line"), [
    (("buyin", "fri", "Cy", "50.00"),
     f"buyin fri Cy: '50.00' is not a number of chips {USD}, so 50.00 USD is 200 chips)"),
    (("buyin", "fri", "Cy", "50.10"), f"buyin fri Cy: '50.10' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "$50"), f"buyin fri Cy: '$50' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "-5"), f"buyin fri Cy: '-5' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "+5"), f"buyin fri Cy: '+5' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "5_0"), f"buyin fri Cy: '5_0' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "1e3"), f"buyin fri Cy: '1e3' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", " 50"), f"buyin fri Cy: ' 50' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "\uff15\uff10"),  # fullwidth 50: int() took it as 50
     f"buyin fri Cy: '\uff15\uff10' is not a number of chips {USD})"),
    (("buyin", "fri", "Cy", "0"), "buyin fri Cy: 0 chips is no buy-in (at least 1 chip)"),
    (("buyin", "home", "Cy", "50.00"), "buyin home Cy: '50.00' is not a number of chips "
     "(amounts are whole chips, in ASCII digits)"),
    (("cashout", "fri", "Ann", "50.00"),
     f"cashout fri Ann: '50.00' is not a number of chips {USD}, so 50.00 USD is 200 chips)"),
    (("cashout", "fri", "Ann", "-1"), f"cashout fri Ann: '-1' is not a number of chips {USD})"),
    (("entry", "amend", "fri", "2", "50.00", "--reason", "typo", "--by", "host"),
     f"entry amend fri 2 (buy-in of Ann): '50.00' is not a number of chips {USD}, so 50.00 "
     "USD is 200 chips)"),
    (("entry", "amend", "fri", "2", "0", "--reason", "typo", "--by", "host"),
     "entry amend fri 2 (buy-in of Ann): 0 chips is no buy-in (at least 1 chip)"),
    (("pay", "fri", "Bob", "Ann", "1e3"),  # was recorded as 1000.00 USD
     "pay fri Bob Ann: '1e3' is not an amount of money (a payment is money in USD, written in "
     "ASCII digits with at most 2 decimal places, e.g. 12.50; 1 chip is 0.25 USD)"),
    (("pay", "fri", "Bob", "Ann", "12.505"),
     "pay fri Bob Ann: '12.505' is not an amount of money (a payment is money in USD, written "
     "in ASCII digits with at most 2 decimal places, e.g. 12.50; 1 chip is 0.25 USD)"),
    (("pay", "fri", "Bob", "Ann", "$12"),
     "pay fri Bob Ann: '$12' is not an amount of money (a payment is money in USD, written in "
     "ASCII digits with at most 2 decimal places, e.g. 12.50; 1 chip is 0.25 USD)"),
    (("pay", "fri", "Bob", "Ann", "0.00"), "pay fri Bob Ann: 0.00 is no payment (an amount "
     "above 0)"),
    (("pay", "home", "Bob", "Ann", "12.50"),
     "pay home Bob Ann: '12.50' is not an amount of money (a payment is money, written in "
     "ASCII digits with no decimal places, e.g. 12; 1 chip is 1)"),
])
def test_an_amount_not_written_as_the_entry_takes_it_is_one_line(
        db: Path, args: tuple[str, ...], line: str) -> None:
    before = snapshot(db)
    assert refused(run(db, *args)) == f"error: {line}"
    assert snapshot(db) == before


def test_the_same_amounts_in_digits_go_in(db: Path) -> None:
    assert run(db, "buyin", "fri", "Cy", "200").stdout == "fri: Cy buy-in 200 chips (entry 4)\n"
    assert run(db, "buyin", "fri", "Cy", "050").stdout == "fri: Cy rebuy 50 chips (entry 5)\n"
    assert run(db, "cashout", "fri", "Ann", "0").stdout == ("fri: Ann cashed out 0 chips "
                                                            "(entry 6)\n")
    assert run(db, "pay", "fri", "Ann", "Bob", "12.5", "--more-than-owed"  # no hand: none owed
               ).stdout == "fri: Ann paid Bob 12.50 USD (entry 7)\n"
    assert run(db, "entry", "amend", "fri", "2", "250", "--reason", "typo", "--by", "host"
               ).stdout == "fri: entry 2 (buy-in of Ann) amended: 200 → 250 chips\n"
    assert rows(db)[-5:] == [("session:fri", 4, "buy_in"), ("session:fri", 5, "buy_in"),
                             ("session:fri", 6, "cash_out"), ("session:fri", 7, "payment"),
                             ("session:fri", 8, "entry_corrected")]



BOB = ("is more than Bob's buy-ins in fri (100 chips, 25.00 USD): a payment is money, not "
       "chips (1 chip is 0.25 USD")
ANN = ("is more than Ann's buy-ins in fri (200 chips, 50.00 USD): a payment is money, not "
       "chips (1 chip is 0.25 USD")
MISSING = "a buy-in missing from the books is recorded first"


def test_a_payment_beyond_the_payers_own_buy_ins_is_one_line(db: Path) -> None:
    """Ann 200 and Bob 100 chips at 0.25 USD: Bob loses at most his 100 chips, 25.00 USD, so
    no settlement has him pay more; his 100 chips written as his payment were recorded as
    100.00 USD (the bound of every buy-in together, 75.00 USD, let 25.01 to 75.00 through)."""
    before = snapshot(db)
    for args, line in (
            (("pay", "fri", "Bob", "Ann", "100"),
             f"pay fri Bob Ann: 100.00 USD {BOB}; 100 chips are 25.00 USD); {MISSING}"),
            (("pay", "fri", "Bob", "Ann", "25.01"), "pay fri Bob Ann: 25.01 USD is more than "
             "Bob's buy-ins in fri (100 chips, 25.00 USD): nobody pays more than the chips put "
             f"on the table; {MISSING}"),  # money as typed: never said to be chips
            (("pay", "fri", "Bob", "Ann", "75"), f"pay fri Bob Ann: 75.00 USD {BOB}; 75 chips "
             f"are 18.75 USD); {MISSING}"),
            (("pay", "fri", "Ann", "Bob", "150"), f"pay fri Ann Bob: 150.00 USD {ANN}; 150 "
             f"chips are 37.50 USD); {MISSING}")):
        assert refused(run(db, *args)) == f"error: {line}"
    assert snapshot(db) == before
    # no hand yet: settle has nobody owe anything, so the payment is one beyond what is owed
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "25")) == (
        "error: pay fri Bob Ann: 25.00 USD is more than Bob still owes in fri (0.00 USD: Bob "
        "broke even, paid 0.00 USD, received 0.00 USD); nothing written (`handledger settle "
        "--session fri` says who pays whom); --more-than-owed records it anyway")
    assert run(db, "pay", "fri", "Bob", "Ann", "25", "--more-than-owed").stdout == (
        "fri: Bob paid Ann 25.00 USD (entry 4)\n")
    before = snapshot(db)
    assert refused(run(db, "entry", "amend", "fri", "4", "100", "--reason", "r", "--by", "h")
                   ) == (f"error: entry amend fri 4 (payment of Bob to Ann): 100.00 USD {BOB}; "
                         f"100 chips are 25.00 USD); {MISSING}")
    assert snapshot(db) == before
    # a rebuy raises his bound: 150 chips are 37.50 USD
    assert run(db, "buyin", "fri", "Bob", "50").exit_code == 0
    assert run(db, "entry", "amend", "fri", "4", "37.50", "--reason", "r", "--by", "h",
               "--more-than-owed").exit_code == 0


def test_what_a_player_was_paid_he_may_hand_back(db: Path) -> None:
    """Bob (100 chips, 25.00 USD) was paid 40.00 USD by Ann by mistake: he may hand back up to
    his buy-ins and what he was paid, 65.00 USD, and no more."""
    assert run(db, "pay", "fri", "Ann", "Bob", "40", "--more-than-owed").exit_code == 0
    assert run(db, "pay", "fri", "Bob", "Ann", "40").stdout == ("fri: Bob paid Ann 40.00 USD "
                                                                "(entry 5)\n")
    before = snapshot(db)
    assert refused(run(db, "pay", "fri", "Bob", "Ann", "65.01")) == (
        "error: pay fri Bob Ann: 65.01 USD is more than Bob's buy-ins in fri (100 chips, 25.00 "
        "USD, and 40.00 USD paid to Bob): nobody pays more than the chips put on the table; "
        f"{MISSING}")
    assert snapshot(db) == before


def test_a_session_of_one_unit_a_chip_says_it_without_money(db: Path) -> None:
    assert run(db, "buyin", "home", "Bob", "100").exit_code == 0
    before = snapshot(db)
    assert refused(run(db, "pay", "home", "Bob", "Ann", "101")) == (
        "error: pay home Bob Ann: 101 is more than Bob's buy-ins in home (100 chips): nobody "
        f"pays more than the chips put on the table; {MISSING}")
    assert snapshot(db) == before
    assert run(db, "pay", "home", "Bob", "Ann", "100", "--more-than-owed").stdout == (
        "home: Bob paid Ann 100 (entry 4)\n")


ZED = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 100', 'p1 cc', 'd db 2c3d4h', 'd db 9s',
  'd db Td', 'p1 sm AsAh', 'p2 sm KsKh']
players = ['Ann', 'zed']
"""


def test_a_seat_without_a_buy_in_leaves_the_bound_unknown(db: Path, tmp_path: Path) -> None:
    """bob77, whom an alias makes Bob, sat in a hand of fri: his chips are Bob's buy-in, and
    the bound holds. zed, in no book of fri, is refused a live seat; a hand imported into fri
    seats him with chips no buy-in records: what he won is not bounded by the books, and a
    large payment goes in."""
    assert run(db, "player", "alias", "Bob", "bob77", "--session", "fri").exit_code == 0
    assert run(db, "hand", "start", "--session", "fri", "--hand", "h1", "--seats",
               "Ann:200,bob77:100", *SEATS).exit_code == 0
    before = snapshot(db)
    assert refused(run(db, "pay", "fri", "bob77", "Ann", "100")) == (
        f"error: pay fri bob77 Ann: 100.00 USD is more than bob77's buy-ins in fri (100 chips, "
        f"25.00 USD): a payment is money, not chips (1 chip is 0.25 USD; 100 chips are 25.00 "
        f"USD); {MISSING}")
    assert snapshot(db) == before
    assert run(db, "void", "h1", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert refused(run(db, "hand", "start", "--session", "fri", "--hand", "h2", "--seats",
                       "Ann:200,zed:100", *SEATS)).startswith(
        "error: zed has no buy-in in session fri (its players: Ann, Bob, bob77): ")
    (tmp_path / "zed.phh").write_text(ZED)
    assert run(db, "import", str(tmp_path / "zed.phh"), "--session", "fri").exit_code == 0
    assert run(db, "pay", "fri", "Ann", "zed", "150", "--more-than-owed").stdout == (
        "fri: Ann paid zed 150.00 USD (entry 5)\n")


SEATS = ("--game", "NT", "--stakes", "1/2", "--button", "Ann")


#: ``--chip-value`` spellings that are not ASCII digits with at most one decimal point: each
#: was taken by Decimal (``1e-2`` as 0.01, ``Infinity`` and ``NaN`` refused only later).
NOT_PLAIN = ["1e-2", "2.5E-1", "1E0", "+0.25", "-0.25", " 0.25", "0.25 ", ".25", "1.",
             "0.2.5", "0,25", "1_0", "$0.25", "\uff10.25", "Infinity", "NaN", "0x10", ""]


@pytest.mark.parametrize("value", NOT_PLAIN)
def test_a_chip_value_not_in_plain_digits_is_one_line(db: Path, value: str) -> None:
    """``session open`` and ``session set`` take ``--chip-value`` as a payment's money is
    written (ASCII digits, one optional decimal point), refused in one line naming the
    option and the value, nothing written."""
    before = snapshot(db)
    line = (f"error: --chip-value {value!r} is not an amount of money (a chip's value is "
            "written in ASCII digits with at most one decimal point, e.g. 0.25)")
    assert refused(run(db, "session", "open", "sat", "--chip-value", value)) == line
    assert refused(run(db, "session", "open", "sun", "--chip-value", value, "--currency",
                       "USD")) == line
    assert refused(run(db, "session", "set", "home", "--chip-value", value)) == line
    assert snapshot(db) == before


def test_a_chip_value_in_plain_digits_goes_in(db: Path) -> None:
    assert run(db, "session", "open", "sat", "--date", "2026-11-28", "--chip-value", "0.05",
               "--currency", "USD").stdout == "session sat opened 2026-11-28: 1 chip = 0.05 USD\n"
    assert run(db, "session", "open", "sun", "--date", "2026-11-29", "--chip-value", "0.010"
               ).stdout == "session sun opened 2026-11-29: 1 chip = 0.010\n"
    assert run(db, "session", "open", "mon", "--date", "2026-11-30", "--chip-value", "25"
               ).stdout == "session mon opened 2026-11-30: 1 chip = 25\n"
    assert run(db, "session", "set", "home", "--chip-value", "0.50", "--currency", "EUR"
               ).exit_code == 0

    def unit(session: str) -> tuple[int, int, str | None]:
        entries = json.loads(run(db, "history", "--session", session, "--json").stdout)
        e = [x["event"] for x in entries["events"] if "chip_value_minor" in x["event"]][-1]
        return e["chip_value_minor"], e["decimals"], e["currency"]

    assert [unit(s) for s in ("sat", "sun", "mon", "home")] == [
        (5, 2, "USD"), (10, 3, None), (25, 0, None), (50, 2, "EUR")]
