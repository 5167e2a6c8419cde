"""Balances over sessions whose chips are worth different amounts: without --session, chips of
0.25 USD and of 0.01 USD (or of EUR) are not added up as one unit; money is, within one
currency; a ledger of one chip value reads as it always did."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_books_trust import NIGHT  # friday, 1 chip = 0.25 USD: Ann +150, Bob -150
from tests.test_standings_units import EURO, PENNY, build, run


def test_chips_of_two_values_get_a_table_each_and_money_adds_them(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    build(db, *NIGHT, *PENNY)
    out = run(db, "balances")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [
        "chips of 0.25 USD (friday):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Ann                     150          200          350      1        1",
        "Cy                        0          300          300      1        1",
        "Bob                    -150          150            0      1        1",
        "chips of 0.01 USD (penny):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Bob                       2          200            0      1        1",
        "Ann                      -2          200            0      1        1",
        "note: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
        "penny: 1 chip = 0.01 USD): they do not add up, so each value has its own table; "
        "`handledger balances --money` adds them up in money"]
    body = json.loads(run(db, "balances", "--json").output)
    assert body["units"] == [
        {"chip_value_minor": 25, "decimals": 2, "currency": "USD", "sessions": ["friday"]},
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD", "sessions": ["penny"]}]
    assert [(p["player"], p["net"], p["buy_in"], p["cash_out"], p["rules_net"], p["hands"],
             p["sessions"]) for p in body["players"]] == [
        ("Ann", None, None, None, None, 2, 2), ("Cy", None, None, None, None, 1, 1),
        ("Bob", None, None, None, None, 2, 2)]
    ann, cy, bob = (p["by_unit"] for p in body["players"])
    assert ann == [{"net": 150, "buy_in": 200, "cash_out": 350, "rules_net": 150, "hands": 1,
                    "sessions": 1},
                   {"net": -2, "buy_in": 200, "cash_out": 0, "rules_net": -2, "hands": 1,
                    "sessions": 1}]
    assert cy == [{"net": 0, "buy_in": 300, "cash_out": 300, "rules_net": 0, "hands": 1,
                   "sessions": 1}, None]
    assert [u and u["net"] for u in bob] == [-150, 2]
    # in money they add up: Ann 150 × 0.25 − 2 × 0.01 = 37.48 USD; bought in 50 + 2 USD
    money = json.loads(run(db, "balances", "--money", "--json").output)
    assert [(p["player"], p["net"], p["buy_in"]) for p in money["players"]] == [
        ("Ann", 3748, 5200), ("Cy", 0, 7500), ("Bob", -3748, 3950)]
    assert "units" not in money and "by_unit" not in money["players"][0]
    # one session has one chip value: read alone, nothing changes
    penny = json.loads(run(db, "balances", "--session", "penny", "--json").output)
    assert "units" not in penny
    assert [(p["player"], p["net"]) for p in penny["players"]] == [("Bob", 2), ("Ann", -2)]


def test_one_chip_value_keeps_the_json_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    build(db, *NIGHT)
    body = json.loads(run(db, "balances", "--json").output)
    assert list(body) == ["players"]
    assert [(p["player"], p["net"], p["buy_in"], p["cash_out"]) for p in body["players"]] == [
        ("Ann", 150, 200, 350), ("Cy", 0, 300, 300), ("Bob", -150, 150, 0)]
    assert sorted(body["players"][0]) == ["buy_in", "cash_out", "hands", "net", "nickname",
                                          "paid_minor", "player", "received_minor",
                                          "rules_net", "sessions"]
    text = run(db, "balances").output.splitlines()
    assert text[0].startswith("player ") and "note:" not in run(db, "balances").output


def test_chips_in_two_currencies_say_money_does_not_add_up(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    build(db, *NIGHT, *EURO)
    out = run(db, "balances")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "chips of 0.25 USD (friday):"
    assert lines[5:8] == [
        "chips of 0.25 EUR (euro):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Ann                       0          100          100      0        1"]
    assert lines[-1] == (
        "note: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
        "euro: 1 chip = 0.25 EUR): they do not add up, so each value has its own table; and "
        "their money is of different currencies or decimals, so it does not add up either "
        "(`handledger balances --session S --money` reads one session's)")
    refused = run(db, "balances", "--money")
    assert refused.exit_code == 2
    assert refused.output.strip().startswith(
        "error: the sessions use different currencies or decimals")
