"""The chart over sessions whose chips are worth different amounts: a running net that adds
chips of 0.25 USD to chips of 0.01 USD (or money in EUR to money in USD) means nothing, so it
is refused in one line naming what to chart instead; money of one currency, or one session,
is charted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replay.books import chart_rows
from tests.test_standings_units import PENNY, build, run
from tests.unit_nights import night_and  # friday, 1 chip = 0.25 USD: Ann +150, Bob -150

EURO_HAND = [  # 1 chip = 0.25 EUR: the penny hand again (Ann -2, Bob +2)
    ("session", "open", "euro", "--date", "2026-11-29", "--chip-value", "0.25",
     "--currency", "EUR"),
    ("buyin", "euro", "Ann", "200"), ("buyin", "euro", "Bob", "200"),
    ("hand", "start", "--session", "euro", "--hand", "e1", "--game", "NT", "--stakes", "1/2",
     "--seats", "Ann:200,Bob:200", "--button", "Bob"),
    *[("act", "e1", a) for a in ("d dh Ann AsKs", "d dh Bob QhQd", "Bob cbr 100", "Ann f",
                                 "end")],
]


def test_chips_of_two_values_are_refused_and_money_is_charted(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    png = tmp_path / "c.png"
    out = run(db, "chart", str(png))
    assert (out.exit_code, out.output) == (
        2, "error: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
           "penny: 1 chip = 0.01 USD), which do not add up into one running net: chart the "
           "money with --money, or one session with --session S\n")
    assert not png.exists()
    # in money, cents: friday's hand Ann +150 × 25, Bob −150 × 25; penny's Ann −2, Bob +2
    assert [(p, n) for _, p, n in chart_rows(str(db), money=True)] == [
        ("Ann", 3750), ("Bob", -3750), ("Cy", 0), ("Ann", -2), ("Bob", 2)]
    assert run(db, "chart", str(png), "--money").output == f"wrote {png}\n"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # one session has one chip value
    assert [(p, n) for _, p, n in chart_rows(str(db), money=False, session="penny")] == [
        ("Ann", -2), ("Bob", 2)]
    assert run(db, "chart", str(tmp_path / "p.png"), "--session", "penny").exit_code == 0
    missing = run(db, "chart", str(tmp_path / "x.png"), "--session", "nope")
    assert (missing.exit_code, missing.output) == (2, "error: no session 'nope' in the ledger\n")


def test_money_of_two_currencies_is_refused_too(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+euro hand", EURO_HAND)
    png = tmp_path / "c.png"
    out = run(db, "chart", str(png))
    assert (out.exit_code, out.output) == (
        2, "error: the sessions count chips of different values (friday: 1 chip = 0.25 USD; "
           "euro: 1 chip = 0.25 EUR), which do not add up into one running net: chart one "
           "session with --session S (their money is of different currencies or decimals, so "
           "--money does not add up either)\n")
    money = run(db, "chart", str(png), "--money")
    assert (money.exit_code, money.output) == (
        2, "error: the sessions use different currencies or decimals (friday: USD, 2 decimals; "
           "euro: EUR, 2 decimals): chart one session with --session S\n")
    assert not png.exists()
    assert [(p, n) for _, p, n in chart_rows(str(db), money=True, session="euro")] == [
        ("Ann", -50), ("Bob", 50)]  # 2 chips of 0.25 EUR: 50 cents


def test_one_chip_value_is_charted_as_before(tmp_path: Path,
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb")
    assert [(p, n) for _, p, n in chart_rows(str(db), money=False)] == [
        ("Ann", 150), ("Bob", -150), ("Cy", 0)]
    assert run(db, "chart", str(tmp_path / "c.png")).exit_code == 0


def test_the_report_draws_a_chart_per_chip_unit(tmp_path: Path,
                                               tmp_path_factory: pytest.TempPathFactory
                                               ) -> None:
    """The report's chart summed chips of 0.25 USD and of 0.01 USD into one running net
    (Ann 150 − 2 = +148): now a chart per chip unit, each with its sessions' hands only."""
    from replay.report import UnitChart, open_report

    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    with open_report(str(db)) as books:
        charts = books.collect().charts
    assert [(c.unit, c.sessions, c.starts) for c in charts] == [
        ((25, 2, "USD"), ["friday"], [(charts[0].rows[0][0], "friday")]),
        ((1, 2, "USD"), ["penny"], [(charts[1].rows[0][0], "penny")])]
    assert all(isinstance(c, UnitChart) for c in charts)

    def totals(rows: list[tuple[int, str, int]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, player, net in rows:
            out[player] = out.get(player, 0) + net
        return out

    assert totals(charts[0].rows) == {"Ann": 150, "Bob": -150, "Cy": 0}
    assert totals(charts[1].rows) == {"Ann": -2, "Bob": 2}
    site = tmp_path / "site"
    assert run(db, "report", str(site)).exit_code == 0
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "<h3>chips of 0.25 USD (friday)</h3>" in index
    assert "<h3>chips of 0.01 USD (penny)</h3>" in index
    assert index.count('<figure class="chart">') == 2
    assert "in chips of 0.25 USD, hand by hand in ledger order, over 1 hands" in index
    assert 'id="chart-caption"' in index and 'id="chart-caption1"' in index
    assert "Ann (+150)" in index and "Ann (-2)" in index and "Ann (+148)" not in index


def test_hands_of_no_session_in_two_units_say_what_can_be_read(tmp_path: Path) -> None:
    """Hands of no session only, one kept in cents (no currency) and one in plain chips: no
    ``--session`` names them and ``--money`` cannot add chips of no money value, so the
    refusal names neither and says what reads them (``balances``: a table per unit)."""
    from tests.test_view import cents_phh, hostile_phh

    db = tmp_path / "t.duckdb"
    build(db, ("import", str(cents_phh(tmp_path / "cents.phh"))),
          ("import", str(hostile_phh(tmp_path / "plain.phh"))))
    svg = tmp_path / "o.svg"
    out = run(db, "chart", str(svg))
    assert (out.exit_code, out.output) == (
        2, "error: the hands read count chips of different values ((no session): 1 chip = "
           "0.01; (no session): plain chips), which do not add up into one running net: hands "
           "of no session have no session to name with --session, and their money is of "
           "different currencies or decimals, so --money does not add up either; "
           "`handledger balances` gives a table per unit and `handledger standings` a column "
           "per unit\n")
    money = run(db, "chart", str(svg), "--money")
    assert (money.exit_code, money.output) == (
        2, "error: the hands read use different currencies or decimals ((no session): no "
           "currency, 2 decimals; (no session): plain chips, no currency): hands of no session "
           "have no session to name with --session; `handledger balances` without --money "
           "gives a table per unit\n")
    assert not svg.exists()
    # what the refusals point to works: a table per unit, a column per unit
    tables = run(db, "balances")
    assert tables.exit_code == 0
    assert "chips of 0.01 (no session):" in tables.output
    assert "plain chips (no session):" in tables.output
    assert run(db, "standings").exit_code == 0


def test_money_is_drawn_in_the_currencys_units_and_a_session_titled(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """friday (0.25 USD a chip: Ann +150 chips, 37.50 USD) and penny (0.01 USD: Ann -2, Bob
    +2 cents): --money drew the legend and axis in minor units (``Ann (+3748)``, "money (minor
    units)"); it draws 37.48 USD, ticks in dollars, the axis naming USD. ``--session`` titles
    the chart with the session, not the series."""
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    svg = tmp_path / "c.svg"
    assert run(db, "chart", str(svg), "--money").output == f"wrote {svg}\n"
    text = svg.read_text()
    assert re.findall(r">([^<>]+ \([+-][0-9.]+ USD\))<", text) == [
        "Ann (+37.48 USD)", "Bob (-37.48 USD)"]
    assert ">cumulative net, money (USD)<" in text and "minor units" not in text
    assert ">0.00<" in text and ">Cumulative net per player across the series<" in text
    one = tmp_path / "penny.svg"
    assert run(db, "chart", str(one), "--session", "penny").exit_code == 0
    text = one.read_text()
    assert re.findall(r">([^<>]+ \([+-][0-9]+\))<", text) == ["Bob (+2)", "Ann (-2)"]
    assert ">Cumulative net per player in session penny<" in text
    assert ">cumulative net, chips<" in text


def test_a_suffix_the_chart_cannot_be_written_as_is_refused(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``chart c.html`` wrote a PNG named c.html; it is refused in one line, nothing
    written; a suffix matplotlib writes is written in its format (a JPEG for .jpg)."""
    db = night_and(tmp_path_factory, tmp_path / "t.duckdb", "night+penny", PENNY)
    page = tmp_path / "c.html"
    out = run(db, "chart", str(page), "--money")
    assert (out.exit_code, out.output) == (
        2, f"error: cannot write a chart as .html ({page}): chart writes .eps, .gif, .jpg, "
           ".jpeg, .pdf, .png, .ps, .raw, .rgba, .svg, .svgz, .tif, .tiff, .webp, .avif (a "
           "name with no suffix: PNG); nothing was written\n")
    assert not page.exists()
    jpg = tmp_path / "c.jpg"
    assert run(db, "chart", str(jpg), "--money").exit_code == 0
    assert jpg.read_bytes()[:3] == b"\xff\xd8\xff"  # JPEG's start of image
