"""``--money`` where every chip read is a plain chip (no chip value, no currency) is refused
in one line, exit 2, by ``balances`` (with ``--session`` or not, ``--json`` too),
``standings`` and ``chart`` alike (docs/BOOKS.md, "Chips of different values do not add up").
Before, ``balances --money --session club-w1`` printed the chips under ``net`` with exit 0
and no word that they were no money."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from tests.conftest import SHARED
from tests.copies import build_ledger

VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
CT2 = SHARED / "pokernow" / "charlestudor_Input_Log_002.csv"
REFUSAL = ("error: session club-w1 counts plain chips, with no money value (no currency): "
           "--money has no money to show; read the chips without --money, or give its chip a "
           "worth (`handledger session set club-w1 --chip-value V --currency C`)\n")


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def chips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_ledger(tmp_path_factory.mktemp("chips") / "t.duckdb",
                        [["import", "--session", "club-w1", str(VK)]])


@pytest.mark.parametrize("args", [
    ["balances", "--money", "--session", "club-w1"], ["balances", "--money"],
    ["balances", "--money", "--json"], ["standings", "--money"]])
def test_money_of_plain_chips_is_refused(chips: Path, args: list[str]) -> None:
    result = run(chips, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", REFUSAL)


def test_chart_money_of_plain_chips_is_refused(chips: Path, tmp_path: Path) -> None:
    result = run(chips, "chart", "--money", str(tmp_path / "c.svg"))
    assert (result.exit_code, result.stderr) == (2, REFUSAL)
    assert not (tmp_path / "c.svg").exists()


def test_chips_still_read_without_money(chips: Path) -> None:
    result = run(chips, "balances", "--session", "club-w1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == (
        "Aab Ovwsi (gKyQzJRs7T)              7000         1000            0     52        1")


def test_a_session_with_money_beside_one_of_chips_names_the_chips(tmp_path: Path) -> None:
    db = build_ledger(tmp_path / "t.duckdb", [
        ["import", "--session", "club-w2", str(CT2)],
        ["import", "--session", "club-w1", str(VK)],
        ["session", "set", "club-w2", "--chip-value", "0.01", "--currency", "USD"]])
    assert run(db, "balances", "--money", "--session", "club-w1").stderr == REFUSAL
    result = run(db, "balances", "--money")
    assert (result.exit_code, result.stderr) == (
        2, "error: the sessions use different currencies or decimals (club-w2: USD, 2 "
           "decimals; club-w1: plain chips, no currency): read one session with --session, or "
           "give each session of no currency its chip's worth in USD (`handledger session set "
           "S --chip-value V --currency USD`)\n")
    assert run(db, "balances", "--money", "--session", "club-w2").stdout.splitlines()[0] == (
        "player                              net       buy-in     cash-out  hands sessions"
        "   (USD)")
