"""``handledger report`` pages in a real browser: headless Chromium (tests/browser.py), started
by the tests; when it cannot start, the tests fail with the reason (never a skip).

The site: a generated series of two sessions with planted errors and a session whose name and
players are named like markup. The standings are read back from the index as the browser
shows them and compared with ``handledger standings --json``; the hostile names are text on
the index, the session page and the hand page. Each test writes a screenshot of what it
checked under its own temporary folder (``shot-*.png``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.chart import COLOURS
from tests.browser import Browser, by_id, css, shoot, text
from tests.test_report import NIGHT, hostile_ledger, ok
from tests.test_view import HOSTILE


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("report")
    db = hostile_ledger(base)  # the night of hostile names first, then the series
    files = base / "files"
    ok(base / "unused.duckdb", "demo-series", "--sessions", "2", "--hands", "20", "--seed",
       "1", "--plant-errors", str(files))
    ok(db, "import", str(files / "s01.jsonl"), str(files / "s02.jsonl"))
    out = base / "site"
    ok(db, "report", str(out))
    (night,) = [p for p in (out / "sessions").iterdir() if p.name.startswith("night")]
    return {"out": out, "night": night,
            "chips": json.loads(ok(db, "standings", "--json")),
            "money": json.loads(ok(db, "standings", "--money", "--json"))}


def load(driver: Any, page: Path) -> None:
    driver.set_window_size(1200, 1000)
    driver.get(page.as_uri())
    assert driver.execute_script("return document.readyState") == "complete"
    assert driver.execute_script("return window.__alerts") == []


def grid(driver: Any) -> dict[str, tuple[dict[str, int], int, str]]:
    """The standings as the browser shows them: per player (his row's data-player) his net
    in each session he played (the cell's chips), his total and the total's money."""
    out = {}
    for row in css(driver, "#standings-grid tbody tr"):
        nets = {c.get_attribute("data-session"): int(text(css(c, ".chips")[0]))
                for c in css(row, "td[data-session]") if css(c, ".chips")}
        total = css(row, "td.total")[0]
        out[row.get_attribute("data-player")] = (
            nets, int(text(css(total, ".chips")[0])), text(css(total, ".money")[0]))
    return out


def test_the_standings_shown_equal_the_command(browser: Browser, site: dict[str, Any],
                                               tmp_path: Path) -> None:
    from ledger.model.money import format_money

    d = browser.driver
    load(d, site["out"] / "index.html")
    chips, money = site["chips"], site["money"]
    shown = grid(d)
    assert list(shown) == [p["player"] for p in money["players"]]  # most won first, in money
    totals = {p["player"]: p["total"] for p in money["players"]}
    assert shown == {
        p["player"]: (p["nets"], p["total"],
                      f"({'+' if totals[p['player']] > 0 else ''}"
                      f"{format_money(totals[p['player']], 2, 'USD')})")
        for p in chips["players"]}
    heads = [text(th) for th in css(d, "#standings-grid thead th")]
    assert heads[0] == "Player" and heads[-1] == "Total"
    assert heads[1:-1] == [f"{s['session']}{s['date']}" for s in chips["sessions"]]
    assert [text(td) for td in css(d, "#standings-grid tfoot td")] == ["0", "0", "0", "0"]
    assert d.execute_script("return document.styleSheets.length") == 2  # assets/*.css, linked
    assert by_id(d, "standings-grid").value_of_css_property("border-collapse") == "collapse"
    assert css(d, ".scroll")[0].value_of_css_property("overflow-x") == "auto"  # report.css
    lines = css(d, 'figure.chart svg g[id^="chart-player-"] path')  # a line per player
    assert len(lines) == len(chips["players"])
    assert {line.value_of_css_property("stroke") for line in lines} == {
        "rgb({}, {}, {})".format(*bytes.fromhex(c[1:])) for c in COLOURS}  # 11 players
    assert len({line.value_of_css_property("stroke-dasharray") for line in lines}) == 8
    legend = [text(t) for t in css(d, 'figure.chart svg g[id^="legend"] text')]
    assert legend == [f"{p['nickname'] or p['player']} ({p['total']:+d})"
                      for p in chips["players"]]  # most won first, as text the page shows
    shoot(d, tmp_path, "index")


def test_hostile_names_are_text_on_every_page(browser: Browser, site: dict[str, Any],
                                             tmp_path: Path) -> None:
    d = browser.driver
    out = site["out"]
    load(d, out / "index.html")
    rows = [text(th) for th in css(d, "#standings-grid tbody th")]
    assert set(HOSTILE) <= set(rows)
    assert text(css(d, "#standings-grid thead th a")[0]) == NIGHT
    assert d.execute_script("return document.scripts.length") == 2  # the two JSON elements
    load(d, site["night"])
    assert text(by_id(d, "session-name")) == NIGHT
    assert [text(th) for th in css(d, "#player-table tbody th")] == [
        HOSTILE[0], HOSTILE[1], HOSTILE[2]]
    assert [text(li) for li in css(d, "ul.transfers li")] == [  # 0.50 of 2.00 paid
        f"{HOSTILE[2]} pays {HOSTILE[0]} 1.50 USD"]
    assert d.execute_script("return document.scripts.length") == 0
    shoot(d, tmp_path, "session-hostile")
    css(d, "#hand-list tbody a")[0].click()  # to the hand's page, through the link
    assert d.current_url.endswith("/hands/hostile-7.html")
    assert d.execute_script("return document.body.dataset.ready") == "1"
    assert [text(e) for e in css(d, ".seat-name")] == HOSTILE
    assert [text(a) for a in css(d, "nav a")] == [
        "Index", f"Session {NIGHT}", "Disputed and corrected hands"]
    assert d.execute_script("return window.__alerts") == []
    shoot(d, tmp_path, "hand-hostile")


def test_a_session_page_links_its_findings_to_the_hands(browser: Browser,
                                                        site: dict[str, Any],
                                                        tmp_path: Path) -> None:
    d = browser.driver
    load(d, site["out"] / "sessions" / "s01.html")
    findings = [text(li) for li in css(d, "ul.findings li")]
    assert findings == [  # the planted side pot (two findings) and miscounted cash-out
        "✗ payout (s01-007): hand s01-007: Erin was paid 128, the rules give 0 (+128)",
        "✗ payout (s01-007): hand s01-007: Bob was paid 236, the rules give 364 (-128)",
        "✗ session_balance: session s01: Bob cashed out 161 chips but the hands leave Bob "
        "168 (-7)"]
    flagged = [text(css(r, "th")[0]) for r in css(d, "#hand-list tr.flagged")]
    assert flagged == ["s01-007"]
    shoot(d, tmp_path, "session-s01")
    css(d, "ul.findings a")[0].click()
    assert d.current_url.endswith("/hands/s01-007.html")
    rows = [r for r in css(d, "table.payouts tbody tr") if "discrepancy" in
            r.get_attribute("class")]
    assert [text(css(r, "th")[0]) for r in rows] == ["Erin", "Bob"]


def test_keyboard_and_print(browser: Browser, site: dict[str, Any], tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    d = browser.driver
    load(d, site["out"] / "index.html")
    keys = ActionChains(d)
    keys.send_keys(Keys.TAB).perform()
    skip = d.switch_to.active_element
    assert text(skip) == "Skip to the content" and skip.is_displayed()
    assert skip.value_of_css_property("outline-style") == "solid"
    order = []
    for _ in range(12):  # the page's own links, then the standings, scrollable by keyboard
        keys.send_keys(Keys.TAB).perform()
        active = d.switch_to.active_element
        order.append(active.get_attribute("href") or active.get_attribute("role"))
        if active.get_attribute("role") == "region":
            break
    assert [o.rsplit("#", 1)[-1] for o in order[:5]] == [
        "standings", "chart", "sessions", "disputes", "audit"]
    assert order[-1] == "region"
    region = d.switch_to.active_element
    d.set_window_size(500, 1000)
    assert d.execute_script("return arguments[0].scrollWidth - arguments[0].clientWidth",
                            region) > 100
    keys.send_keys(Keys.ARROW_RIGHT * 5).perform()
    WebDriverWait(d, 5).until(lambda _: d.execute_script(
        "return arguments[0].scrollLeft", region) > 0)  # scrolled (smoothly)
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not css(d, ".toc")[0].is_displayed()
        assert by_id(d, "standings-grid").is_displayed()
        assert css(d, "figure.chart svg")[0].is_displayed()
        shoot(d, tmp_path, "index-print")
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
