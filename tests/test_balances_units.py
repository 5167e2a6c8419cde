"""Balances over sessions whose chips are worth different amounts: without --session, chips of
0.25 USD and of 0.01 USD (or of EUR) are not added up as one unit; money is, within one
currency; a ledger of one chip value reads as it always did, unless that value is a fraction of
a chip of no currency (hands in fractional plain chips), which is named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_standings_units import EURO, PENNY, build, run
from tests.unit_nights import night_and  # friday, 1 chip = 0.25 USD: Ann +150, Bob -150


def test_chips_of_two_values_get_a_table_each_and_money_adds_them(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
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


def test_one_chip_value_keeps_the_json_as_it_was(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb")
    body = json.loads(run(db, "balances", "--json").output)
    assert list(body) == ["players"]
    assert [(p["player"], p["net"], p["buy_in"], p["cash_out"]) for p in body["players"]] == [
        ("Ann", 150, 200, 350), ("Cy", 0, 300, 300), ("Bob", -150, 150, 0)]
    assert sorted(body["players"][0]) == ["buy_in", "cash_out", "hands", "name", "net",
                                          "nickname", "paid_minor", "player",
                                          "received_minor", "rules_net", "sessions"]
    said = run(db, "balances").output
    assert said.splitlines()[0].startswith("player ") and "note:" not in said


def test_chips_in_two_currencies_say_money_does_not_add_up(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+euro", EURO)
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


def test_nets_that_do_not_sum_to_zero_get_a_note_per_chip_unit(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A PHH hand of 1100 chips paid 1090 (10 lost to the books, as a site's rake) imported
    into penny: Quin 1090 − 460 = +630, Pia −180, Ona −460, and Ann −2, Bob +2 of p1; the
    penny nets sum to −10 chips of 0.01 USD (−0.10 USD), friday's to 0 (no note). A hand
    still in progress (f9, no session: its blinds put in) is its own note, not this one."""
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    short = tmp_path / "short.phh"
    text = (Path(__file__).resolve().parent.parent / "data" / "hands" / "plo-three-way.phh"
            ).read_text(encoding="utf-8")
    short.write_text(text.replace("winnings = [0, 0, 1100]", "winnings = [0, 0, 1090]"),
                     encoding="utf-8")
    build(db, ("import", "--session", "penny", str(short)))
    body = json.loads(run(db, "balances", "--json").output)
    assert body["unbalanced"] == [
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD", "net_sum": -10}]
    money = json.loads(run(db, "balances", "--money", "--json").output)
    assert money["unbalanced"] == [
        {"chip_value_minor": None, "decimals": 2, "currency": "USD", "net_sum": -10}]
    grid = json.loads(run(db, "standings", "--json").output)  # as balances --json gives it
    assert (grid["unbalanced"], "rake" in grid) == ([
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD", "net_sum": -10}], False)
    assert json.loads(run(db, "standings", "--money", "--json").output)["unbalanced"] == [
        {"chip_value_minor": None, "decimals": 2, "currency": "USD", "net_sum": -10}]
    assert run(db, "balances", "--money").output.splitlines()[-1] == (
        "note: the players' nets sum to -0.10 USD, not 0: chips the table kept or paid to "
        "nobody (a rake, a hand paid short) or paid beyond the pot; `handledger "
        "audit` names the hands")
    friday = json.loads(run(db, "balances", "--session", "friday", "--json").output)
    assert "unbalanced" not in friday and sum(p["net"] for p in friday["players"]) == 0
    build(db, ("hand", "start", "--hand", "f9", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:350,Cy:300", "--button", "Ann"))  # blinds in: Cy -1, Ann -2, no session
    lines = run(db, "balances").output.splitlines()
    assert lines[-3] == ("note: the players' nets sum to -10 chips of 0.01 USD, not 0: chips "
                         "the table kept or paid to nobody (a rake, a hand paid short) "
                         "or paid beyond the pot; `handledger audit` names the hands")
    assert lines[-2].startswith("note: the sessions count chips of different values")
    assert lines[-1].startswith("note: hand f9 is in progress")
    assert sum(line.startswith("note: the players' nets") for line in lines) == 1
    body = json.loads(run(db, "balances", "--json").output)
    assert [u["net_sum"] for u in body["unbalanced"]] == [-10]


def test_plain_chips_beside_a_currency_are_said_to_have_no_money_value() -> None:
    """The bundled data's case: 0.25 USD sessions and plain-chip hands of no session."""
    from cli.books_text import chip_units_note

    units = [{"chip_value_minor": 25, "decimals": 2, "currency": "USD", "sessions": ["s01"]},
             {"chip_value_minor": 1, "decimals": 0, "currency": None, "sessions": [None]}]
    assert chip_units_note(units, "table", "balances") == (
        "note: the sessions count chips of different values (s01: 1 chip = 0.25 USD; "
        "(no session): plain chips): they do not add up, so each value has its own table; and "
        "plain chips have no money value, so money does not add up either (`handledger "
        "balances --session S --money` reads one session's)")


STARS = "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt"  # 15 hands, one raked 20 chips


def _stars(tmp_path: Path) -> Path:
    """Sessions w5 and w6 at 1 chip = 0.01 USD, the PokerStars PLO8 file :data:`STARS`
    imported into w5; w6 has no hand."""
    from tests.conftest import SHARED

    db = tmp_path / "t.duckdb"
    build(db, ("session", "open", "w5", "--chip-value", "0.01", "--currency", "USD"),
          ("import", str(SHARED / "text" / STARS), "--session", "w5"),
          ("session", "open", "w6", "--chip-value", "0.01", "--currency", "USD"))
    return db


def test_money_gives_the_rake_in_money(tmp_path: Path) -> None:
    """With --money the rake line gives the 20 chips as money too (0.20 USD, the nets'
    -0.20 USD beside it); in chips it stays chips."""
    db = _stars(tmp_path)
    assert run(db, "balances", "--money").output.splitlines()[-2:] == [
        "rake: 0.20 USD (20 chips) taken from the pots in session w5 (1 hand)",
        "note: the players' nets sum to -0.20 USD, not 0: the rake the table took (above)"]
    assert run(db, "balances").output.splitlines()[-2] == (
        "rake: 20 chips taken from the pots in session w5 (1 hand)")


def test_standings_give_the_rake_under_the_sum_row_as_balances_do(tmp_path: Path) -> None:
    """The standings' (sum) row is -20 chips (-0.20 USD) in w5, 0 in w6, no hand: under it
    the rake line and the note ``balances`` gives, in money with --money, in chips without."""
    db = _stars(tmp_path)
    assert run(db, "standings", "--money").output.splitlines()[-3:] == [
        "(sum)             -0.20       0.00        -0.20",
        "rake: 0.20 USD (20 chips) taken from the pots in session w5 (1 hand)",
        "note: the players' nets sum to -0.20 USD, not 0: the rake the table took (above)"]
    assert run(db, "standings").output.splitlines()[-3:] == [
        "(sum)               -20          0          -20",
        "rake: 20 chips taken from the pots in session w5 (1 hand)",
        "note: the players' nets sum to -20 chips of 0.01 USD, not 0: the rake the table took "
        "(above)"]


def test_money_of_a_session_of_no_hand_is_headed_with_its_currency(tmp_path: Path) -> None:
    """A session no hand counts in (none yet; or its file's hands, voided, stay in another
    session), read in money: its table is headed with its currency, as any money table
    (before: no "(USD)", as in chips)."""
    db = _stars(tmp_path)
    assert run(db, "balances", "--session", "w6", "--money").output == (
        "player                  net       buy-in     cash-out  hands sessions   (USD)\n")
    assert json.loads(run(db, "balances", "--session", "w6", "--money", "--json").output) == {
        "players": [], "decimals": 2, "currency": "USD"}


#: One hand of no session in fractional plain chips (Ann's 200.5): kept in tenths. Ann's
#: aces lose a 300-chip pot to Bob's sevens and deuces: Bob +150 chips, Ann -150.
HALF_CHIP = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200.5, 150, 300]
actions = ['d dh p1 AsAh', 'd dh p2 7c2d', 'd dh p3 9s8s', 'p3 f', 'p1 cbr 10', 'p2 cbr 150',
 'p1 cc', 'd db Kd7h2c', 'd db 3s', 'd db 4d']
players = ['Ann', 'Bob', 'Cy']
"""


def test_hands_in_fractional_plain_chips_name_their_unit(tmp_path: Path) -> None:
    """The books of such a hand count tenths of a chip (Bob's 150 chips are 1500): balances
    and standings head their table with the unit, as a table of several units is headed,
    and balances --json adds "units" naming it, its numbers unchanged."""
    hand = tmp_path / "half.phh"
    hand.write_text(HALF_CHIP)
    db = tmp_path / "h.duckdb"
    build(db, ("import", str(hand)))
    assert run(db, "balances").output.splitlines() == [
        "chips of 0.1 (no session):",
        "player                  net       buy-in     cash-out  hands sessions",
        "Bob                    1500            0            0      1        0",
        "Cy                        0            0            0      1        0",
        "Ann                   -1500            0            0      1        0"]
    assert run(db, "standings").output.splitlines() == [
        "chips of 0.1 (no session):",
        "player     (no session)        total",
        "Bob                1500         1500",
        "Cy                    0            0",
        "Ann               -1500        -1500",
        "(sum)                 0            0"]
    body = json.loads(run(db, "balances", "--json").output)
    assert body["units"] == [{"chip_value_minor": 1, "decimals": 1, "currency": None,
                              "sessions": [""]}]
    assert [(p["player"], p["net"]) for p in body["players"]] == [
        ("Bob", 1500), ("Cy", 0), ("Ann", -1500)]
