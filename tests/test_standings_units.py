"""Standings over sessions whose chips are worth different amounts: chips of 0.25 USD and of
0.01 USD (or of EUR) are not added up as one unit; money is, within one currency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.unit_nights import night_and  # friday, 1 chip = 0.25 USD: Ann +150, Bob -150

PENNY = [  # 1 chip = 0.01 USD: Bob raises, Ann folds her big blind (Ann -2, Bob +2)
    ("session", "open", "penny", "--date", "2026-11-28", "--chip-value", "0.01",
     "--currency", "USD"),
    ("buyin", "penny", "Ann", "200"), ("buyin", "penny", "Bob", "200"),
    ("hand", "start", "--session", "penny", "--hand", "p1", "--game", "NT", "--stakes", "1/2",
     "--seats", "Ann:200,Bob:200", "--button", "Bob"),
    *[("act", "p1", a) for a in ("d dh Ann AsKs", "d dh Bob QhQd", "Bob cbr 100", "Ann f",
                                 "end")],
]
EURO = [  # 1 chip = 0.25 EUR: Ann and Bob buy in and cash out even (nets 0)
    ("session", "open", "euro", "--date", "2026-11-29", "--chip-value", "0.25",
     "--currency", "EUR"),
    ("buyin", "euro", "Ann", "100"), ("buyin", "euro", "Bob", "100"),
    ("cashout", "euro", "Ann", "100"), ("cashout", "euro", "Bob", "100"),
]


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def build(db: Path, *steps: tuple[str, ...]) -> None:
    for step in steps:
        out = run(db, *step)
        assert out.exit_code == 0, (step, out.output)


def test_chips_of_two_values_get_a_total_each_and_money_adds_them(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    out = run(db, "standings")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [
        "player         friday      penny total 0.25 USD total 0.01 USD",
        "Ann               150         -2            150             -2",
        "Cy                  0                         0               ",
        "Bob              -150          2           -150              2",
        "(sum)               0          0              0              0",
        "note: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
        "penny: 1 chip = 0.01 USD): they do not add up, so each value has its own total; "
        "`handledger standings --money` adds them up in money"]
    grid = json.loads(run(db, "standings", "--json").output)
    assert [(p["player"], p["total"], p["totals"]) for p in grid["players"]] == [
        ("Ann", None, [150, -2]), ("Cy", None, [0, None]), ("Bob", None, [-150, 2])]
    assert grid["units"] == [
        {"chip_value_minor": 25, "decimals": 2, "currency": "USD", "sessions": ["friday"]},
        {"chip_value_minor": 1, "decimals": 2, "currency": "USD", "sessions": ["penny"]}]
    # in money they add up: 150 × 0.25 − 2 × 0.01 = 37.48 USD (not 148 of anything)
    money = json.loads(run(db, "standings", "--money", "--json").output)
    assert [(p["player"], p["total"]) for p in money["players"]] == [
        ("Ann", 3748), ("Cy", 0), ("Bob", -3748)]
    assert (money["units"], money["decimals"], money["currency"]) == ([], 2, "USD")
    # the site's grid gives the same two totals, each with its chip value, and the money
    assert run(db, "report", str(tmp_path / "site")).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    # the chips named as chips of their value, only the money in brackets: "+150 (0.25 USD)"
    # read as 0.25 USD beside "(+37.48 USD)"
    assert ('<td class="total"><span class="chips">+150</span> <span class="unit">chips of '
            '0.25 USD</span><br><span class="chips">-2</span> <span class="unit">chips of 0.01 '
            'USD</span> <span class="money">(+37.48 USD)</span></td>') in index


def test_one_chip_value_keeps_one_total(tmp_path: Path,
                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb")
    grid = json.loads(run(db, "standings", "--json").output)
    assert [(p["player"], p["total"], "totals" in p) for p in grid["players"]] == [
        ("Ann", 150, False), ("Cy", 0, False), ("Bob", -150, False)]
    assert len(grid["units"]) == 1
    assert "note:" not in run(db, "standings").output


def test_chips_in_two_currencies_say_money_does_not_add_up(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+euro", EURO)
    out = run(db, "standings")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == (
        "player         friday       euro total 0.25 USD total 0.25 EUR")
    assert out.output.splitlines()[1] == (
        "Ann               150          0            150              0")
    assert out.output.splitlines()[-1] == (
        "note: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
        "euro: 1 chip = 0.25 EUR): they do not add up, so each value has its own total; and "
        "their money is of different currencies or decimals, so it does not add up either "
        "(`handledger balances --session S --money` reads one session's)")
    refused = run(db, "standings", "--money")
    assert refused.exit_code == 2
    assert refused.output.strip().startswith(
        "error: the sessions use different currencies or decimals")


HOME = [  # plain chips (no chip value): Bob raises, Ann folds her big blind (Ann -2, Bob +2)
    ("session", "open", "home", "--date", "2026-11-28"),
    ("buyin", "home", "Ann", "200"), ("buyin", "home", "Bob", "200"),
    ("hand", "start", "--session", "home", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
     "--seats", "Ann:200,Bob:200", "--button", "Bob"),
    *[("act", "h1", a) for a in ("d dh Ann AsKs", "d dh Bob QhQd", "Bob cbr 100", "Ann f",
                                 "end")],
]


def test_plain_chips_of_no_session_beside_a_sessions_are_totalled_with_a_note(
        tmp_path: Path) -> None:
    """A session of plain chips (home: Ann -2, Bob +2) and a PHH hand of no session in plain
    chips (straddle-allin.phh: Kim 93 - 30 = +63, Lou 180 - 90 - 60 = +30, Nia -1, Oto -2,
    Max -90): one chip unit, so one total, but nothing records that a chip of one is worth a
    chip of the other, and the note under the table says so; a session alone reads as
    before."""
    db = tmp_path / "t.duckdb"
    build(db, *HOME)
    alone = run(db, "standings").output.splitlines()
    assert alone == ["player           home        total",
                     "Bob                 2            2",
                     "Ann                -2           -2",
                     "(sum)               0            0"]
    hand = Path(__file__).resolve().parent.parent / "data" / "hands" / "straddle-allin.phh"
    build(db, ("import", str(hand)))
    out = run(db, "standings")
    assert (out.exit_code, out.output.splitlines()) == (0, [
        "player           home (no session)        total",
        "Kim                             63           63",
        "Lou                             30           30",
        "Bob                 2                         2",
        "Nia                             -1           -1",
        "Ann                -2                        -2",
        "Oto                             -2           -2",
        "Max                            -90          -90",
        "(sum)               0            0            0",
        "note: `total` adds the plain chips of hands of no session to those of session home, "
        "though none of them records what a chip is worth: the ledger cannot tell whether "
        "they are worth the same (a tournament's chips are no cash game's), so read their "
        "columns apart, or give each session's chip its worth (`handledger session set S "
        "--chip-value V --currency C`)"])
    build(db, *PENNY)  # chips of 0.01 USD beside: a total per value, the plain one named
    lines = run(db, "standings").output.splitlines()
    assert lines[0] == ("player           home (no session)      penny  total chips "
                        "total 0.01 USD")
    assert lines[-1].startswith("note: `total chips` adds the plain chips of hands of no "
                                "session to those of session home, though none of them")
