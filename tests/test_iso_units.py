"""A hand's money is counted in its currency's ISO 4217 minor unit whatever its file's decimals,
and a file's unit that is no ISO 4217 money is refused (docs/BOOKS.md "Chips of different values").

Real data: two televised PHH hands in USD, Antonius-Blom 2009 written in dollars and cents
(its stacks 1259450.25 and 678473.5: Antonius wins Blom's whole 678473.50) and Dwan-Ivey 2009
in whole dollars (Dwan wins 556000 from Ivey's 553500 and Antonius's 2500).
"""

from __future__ import annotations

import json
from pathlib import Path

from ledger.model.events import Unit
from ledger.model.money import unit_problem
from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

PAPERS = SHARED / "phh" / "televised" / "test_papers"
BLOM = PAPERS / "test_antonius_blom_2009.phh"  # cents: 2 decimals
DWAN = PAPERS / "test_dwan_ivey_2009.phh"  # whole dollars: 0 decimals


def test_a_unit_is_worth_minor_units_of_iso_4217() -> None:
    assert Unit(currency="USD", decimals=2).money() == (1, "USD", 2)
    assert Unit(currency="USD").money() == (100, "USD", 2)  # a whole dollar: 100 cents
    assert Unit(currency="USD", decimals=1).money() == (10, "USD", 2)  # a dime
    assert Unit(currency="usd").money() == (100, "USD", 2)  # stored so before: USD
    assert Unit(currency="$", decimals=2).money() == (1, "USD", 2)
    assert Unit(currency="KWD", decimals=1).money() == (100, "KWD", 3)  # 100 fils
    assert Unit(currency="JPY").money() == (1, "JPY", 0)
    assert Unit(currency="USD", minor_per_chip=25).money() == (25, "USD", 2)
    assert Unit(decimals=2).money() == (1, None, 2)  # PokerNow cents: no currency
    # stored before and refused now: read as written
    assert Unit(currency="XYZ", decimals=0).money() == (1, "XYZ", 0)
    assert Unit(currency="JPY", decimals=1).money() == (1, "JPY", 1)


def test_what_is_no_iso_4217_money() -> None:
    assert unit_problem(None, 3) is None and unit_problem("usd", 2) is None
    assert unit_problem("$", 2) is None and unit_problem("USD", 0) is None
    assert unit_problem("USD", 5, minor_per_chip=25) is None  # a chip of 25 cents
    assert unit_problem("XYZ", 0) == "currency 'XYZ' is not an ISO 4217 currency code"
    assert unit_problem("KWX", 0) == ("currency 'KWX' is not an ISO 4217 currency code: did "
                                      "you mean KWD or KRW or KPW?")
    assert unit_problem("XAU", 0) == ("currency 'XAU': ISO 4217 gives Gold no minor unit (a "
                                      "metal, fund or test code), not money")
    assert unit_problem("JPY", 1) == (
        "amounts written with 1 decimal place(s) are finer than JPY's minor unit (0 decimal "
        "place(s), ISO 4217): no whole amount of its money")


def test_dollars_and_cents_add_up_in_cents(tmp_path: Path) -> None:
    db = tmp_path / "u.duckdb"
    code, out, err = one_shot(db, "import", str(BLOM), str(DWAN))
    assert (code, err) == (0, "")
    code, out, err = one_shot(db, "balances", "--money", "--json")
    assert (code, err) == (0, "")
    nets = {p["player"]: p["net"] for p in json.loads(out)["players"]}
    # minor units of USD: 678473.50 - 2500 = 675973.50 for Antonius
    assert nets == {"Patrik Antonius": 67597350, "Tom Dwan": 55600000,
                    "Phil Ivey": -55350000, "Victor Blom": -67847350}
    code, out, err = one_shot(db, "settle")
    assert (code, err) == (0, "")
    assert out == ("Phil Ivey pays Tom Dwan 553500.00 USD\n"
                   "Victor Blom pays Patrik Antonius 675973.50 USD\n"
                   "Victor Blom pays Tom Dwan 2500.00 USD\n"
                   "3 transfer(s) settle 4 player(s)\n")
    code, out, err = one_shot(db, "standings", "--money")
    assert (code, err) == (0, "")
    assert "Patrik Antonius    675973.50    675973.50" in out
    # in chips they are two values: a cent and a dollar
    code, out, err = one_shot(db, "sql", "--json", "SELECT DISTINCT chip_value_minor, currency,"
                              " decimals FROM hands ORDER BY 1")
    assert json.loads(out) == [{"chip_value_minor": 1, "currency": "USD", "decimals": 2},
                               {"chip_value_minor": 100, "currency": "USD", "decimals": 2}]


def _edited(tmp_path: Path, old: str, new: str, name: str = "h.phh") -> Path:
    text = DWAN.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_currency_in_lower_case_is_its_code(tmp_path: Path) -> None:
    path = _edited(tmp_path, "currency = 'USD'", "currency = 'usd'")
    db = tmp_path / "u.duckdb"
    assert one_shot(db, "import", str(path))[0] == 0
    (start,) = [json.loads(e[6]) for e in events(db) if e[5] == "hand_started"]
    assert start["unit"] == {"currency": "USD", "decimals": 0, "minor_per_chip": 1}


def test_no_such_currency_or_finer_than_its_minor_unit_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "u.duckdb"
    xyz = _edited(tmp_path, "currency = 'USD'", "currency = 'XYZ'", "x.phh")
    assert one_shot(db, "import", str(xyz)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {xyz}:12, hand phh-bdb99189baa2: currency 'XYZ' is not an ISO 4217 currency "
        "code\n")  # named by the id its content gives (README: file, line and hand)
    jpy = _edited(tmp_path, "currency = 'USD'", "currency = 'JPY'", "j.phh")
    jpy.write_text(jpy.read_text().replace("1125600,", "1125600.5,"))
    code, _, err = one_shot(db, "import", str(jpy))
    assert (code, err) == (2, f"error: {jpy}:6, hand phh-2bd2111d82ef: starting_stacks "
                              "1125600.5: amounts written with 1 decimal place(s) are "
                              "finer than JPY's minor unit (0 decimal place(s), ISO 4217): no "
                              "whole amount of its money\n")
    assert not db.exists()  # nothing written: no ledger made


def test_a_json_lines_unit_finer_than_its_currency_is_refused(tmp_path: Path) -> None:
    db, fresh = tmp_path / "u.duckdb", tmp_path / "f.duckdb"
    assert one_shot(db, "import", str(DWAN))[0] == 0
    code, out, _ = one_shot(db, "export", "--format", "jsonl")
    assert code == 0
    unit = '"unit":{"currency":"USD","decimals":0,"minor_per_chip":1}'
    assert out.count(unit) == 1
    bad = tmp_path / "d5.jsonl"
    bad.write_text(out.replace(unit, unit.replace('"decimals":0', '"decimals":5')))
    code, _, err = one_shot(fresh, "import", str(bad))
    hand = json.loads(out.splitlines()[0])["hand"]
    assert (code, err) == (2, f"error: {bad}:1, hand {hand}: hand_started's unit: amounts "
                              "written with 5 decimal place(s) are finer than USD's minor unit "
                              "(2 decimal place(s), ISO 4217): no whole amount of its money\n")
    good = tmp_path / "ok.jsonl"
    good.write_text(out)
    assert one_shot(fresh, "import", str(good))[0] == 0


def test_zeros_written_below_the_minor_unit_are_the_minor_unit(tmp_path: Path) -> None:
    """``553500.000`` dollars are 55,350,000 cents: places beyond USD's two that are only zeros
    make no finer chip (FORMATS.md §1, money in integer minor units); a nonzero digit there is
    still no whole amount of the money and refused."""
    text = DWAN.read_text(encoding="utf-8")
    zeros = tmp_path / "zeros.phh"
    zeros.write_text(text.replace("553500]", "553500.000]").replace("'p3 cbr 7000'",
                                                                    "'p3 cbr 7000.000'"))
    db = tmp_path / "u.duckdb"
    assert one_shot(db, "import", str(zeros))[0] == 0
    (start,) = [json.loads(e[6]) for e in events(db) if e[5] == "hand_started"]
    assert start["unit"] == {"currency": "USD", "decimals": 2, "minor_per_chip": 1}
    assert [seat["stack"] for seat in start["seats"]] == [112560000, 200000000, 55350000]
    code, out, err = one_shot(db, "balances", "--money", "--json")
    assert (code, err) == (0, "")
    nets = {p["player"]: p["net"] for p in json.loads(out)["players"]}
    assert nets == {"Tom Dwan": 55600000, "Phil Ivey": -55350000,  # cents
                    "Patrik Antonius": -250000}
    cent = tmp_path / "cent.phh"
    cent.write_text(text.replace("553500]", "553500.005]"))
    code, _, err = one_shot(tmp_path / "c.duckdb", "import", str(cent))
    line = 1 + text[:text.index("starting_stacks")].count("\n")  # the amount's line
    assert (code, err[err.index(": starting"):], err[:len(f"error: {cent}:{line}, hand ")]) == (
        2, ": starting_stacks 553500.005: amounts written with 3 decimal place(s) are finer than "
        "USD's minor unit (2 decimal place(s), ISO 4217): no whole amount of its money\n",
        f"error: {cent}:{line}, hand ")
    many = tmp_path / "many.phh"  # zeros alone, past the six places any amount may have
    many.write_text(text.replace("553500]", "553500.0000000]"))
    assert one_shot(tmp_path / "m.duckdb", "import", str(many))[0] == 0
