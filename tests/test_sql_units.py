"""The SQL standings view over sessions whose chips are worth different amounts: a row per
player and chip unit (``chip_value_minor``, ``currency``, ``decimals``), so that no row adds
chips of 0.25 USD to chips of 0.01 USD; money adds up across rows of one currency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_standings_units import PENNY, run
from tests.unit_nights import night_and  # friday, 1 chip = 0.25 USD: Ann +150, Bob -150


def rows(db: Path, query: str) -> list[tuple]:
    out = run(db, "sql", "--json", query)
    assert out.exit_code == 0, out.output
    return [tuple(r.values()) for r in json.loads(out.output)]


def test_standings_view_has_a_row_per_player_and_chip_unit(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    assert rows(db, "SELECT player, chip_value_minor, currency, decimals, sessions, hands, net, "
                    "net_minor, buy_in, cash_out FROM standings "
                    "ORDER BY player, chip_value_minor") == [
        ("Ann", 1, "USD", 2, 1, 1, -2, -2, 200, 0),
        ("Ann", 25, "USD", 2, 1, 1, 150, 3750, 200, 350),
        ("Bob", 1, "USD", 2, 1, 1, 2, 2, 200, 0),
        ("Bob", 25, "USD", 2, 1, 1, -150, -3750, 150, 0),
        ("Cy", 25, "USD", 2, 1, 1, 0, 0, 300, 300)]
    # each unit's chips sum to zero; the money of one currency adds up across the units
    assert rows(db, "SELECT chip_value_minor, sum(net) FROM standings GROUP BY ALL "
                    "ORDER BY ALL") == [(1, 0), (25, 0)]
    assert rows(db, "SELECT player, sum(net_minor) FROM standings WHERE currency = 'USD' "
                    "GROUP BY player ORDER BY player") == [("Ann", 3748), ("Bob", -3748),
                                                           ("Cy", 0)]
    assert rows(db, "SELECT DISTINCT session, chip_value_minor FROM player_hand_results "
                    "ORDER BY ALL") == [("friday", 25), ("penny", 1)]
    assert rows(db, "SELECT DISTINCT session, chip_value_minor FROM player_session_results "
                    "ORDER BY ALL") == [("friday", 25), ("penny", 1)]


def test_one_chip_value_keeps_a_row_per_player(tmp_path: Path,
                                               tmp_path_factory: pytest.TempPathFactory
                                               ) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb")
    assert rows(db, "SELECT player, net, net_minor, currency, chip_value_minor FROM standings"
                ) == [("Ann", 150, 3750, "USD", 25), ("Cy", 0, 0, "USD", 25),
                      ("Bob", -150, -3750, "USD", 25)]
