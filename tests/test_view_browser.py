"""``handledger view`` pages in a real browser: headless Chromium (tests/browser.py).

The tests start Chromium themselves, one browser for the module; when it cannot start, every
test here fails with the reason (never a skip). Each test writes a screenshot of what it
checked under its own temporary folder (``shot-*.png``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.browser import Browser, by_id, css, shoot, text
from tests.conftest import DATA, SHARED
from tests.test_view import HOSTILE, RIGHT_SPLIT, WRONG_PUSH, hostile_phh

EX01_ALL = "p1, p2, p3, p4, p5, p6, p7"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pages under test: ex01; the dispute before and after its correction (as
    data/dispute/dispute.sh does it); the hand of hostile names; a live hand whose fold was
    undone (its original does not replay)."""
    from cli.main import cli

    out = tmp_path_factory.mktemp("pages")
    runner = CliRunner()

    def hl(*args: str) -> None:
        result = runner.invoke(cli, ["--db", str(out / "view.duckdb"), *args],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.output

    hl("import", str(WRONG_PUSH), str(SHARED / "rules" / "ex01.phh"),
       str(hostile_phh(out / "hostile.phh")))
    hl("view", "dispute-1", "-o", str(out / "dispute-before.html"))
    hl("correct", "dispute-1", *RIGHT_SPLIT, "--reason",
       "dealer pushed the main pot to Bob; Ann's aces win it", "--by", "floor")
    hl("view", "dispute-1", "-o", str(out / "dispute.html"))
    hl("view", "phh-f1802a128b6b", "-o", str(out / "ex01.html"))
    hl("view", "hostile-7", "-o", str(out / "hostile.html"))
    hl("hand", "start", "--hand", "o4", "--game", "NT", "--stakes", "1/2", "--seats",
       "Ann:100,Bob:100", "--button", "Ann")
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "Ann f"):
        hl("act", "o4", action)
    hl("undo", "o4", "--by", "host")
    hl("act", "o4", "Ann cc")
    hl("view", "o4", "-o", str(out / "undone.html"))
    return {p.stem: p for p in out.glob("*.html")}


# ------------------------------------------------------------------------------ helpers


def load(driver: Any, page: Path) -> None:
    driver.set_window_size(1200, 1000)
    driver.get(page.as_uri())
    assert driver.execute_script("return document.body.dataset.ready") == "1"
    assert driver.execute_script("return window.__alerts") == []


def go_to(driver: Any, step: int) -> None:
    """Move the slider to ``step`` as a pointer would (value set, ``input`` fired)."""
    driver.execute_script("var s = arguments[0]; s.value = arguments[1];"
                          "s.dispatchEvent(new Event('input', {bubbles: true}));",
                          by_id(driver, "slider"), str(step))


def pots(driver: Any) -> list[tuple[str, str, str]]:
    return [tuple(text(c) for c in css(row, "th, td")) for row in css(driver, "#pots tbody tr")]


def step_label(driver: Any) -> str:
    return text(by_id(driver, "step-label"))


# ------------------------------------------------------------------------------ tests


def test_ex01_pots_and_side_pots_step_by_step(browser: Browser, pages: dict[str, Path],
                                              tmp_path: Path) -> None:
    d = browser.driver
    load(d, pages["ex01"])
    assert d.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert step_label(d) == "Step 1 of 53" and pots(d) == [("no chips in the pot",)]
    go_to(d, 8)  # the seven antes
    assert step_label(d) == "Step 8 of 53" and pots(d) == [("Main pot", "7", EX01_ALL)]
    go_to(d, 29)  # p2 calls all-in for his last 10 (hand-checked in tests/test_steps.py)
    assert pots(d) == [("Main pot", "67", "p2, p3, p4, p5, p6"),
                       ("Side pot 1", "2", "p3, p4, p5, p6")]
    assert text(by_id(d, "turn")) == "p3 to act: to call 8 (or fold), raise to 20 up to 99."
    assert text(by_id(d, "step-words")) == "p2 calls all-in: 10 more, 14 this street"
    seat2 = by_id(d, "seat-1")
    assert [text(b) for b in css(seat2, ".badge")] == ["all-in"]
    assert text(css(seat2, ".seat-stack")[0]) == "stack 0"
    assert [text(b) for b in css(by_id(d, "seat-2"), ".badge")] == ["to act"]
    assert "to-act" in by_id(d, "seat-2").get_attribute("class")
    shoot(d, tmp_path, "ex01-step29")
    by_id(d, "last").click()
    assert step_label(d) == "Step 53 of 53"
    # no payout recorded: the end shows the rules' award in the stacks, said as the rules'
    rules = "the rest as the rules award it (no payout recorded)"
    assert pots(d) == [("Main pot", f"0 of 77, {rules}", "p2, p3, p4, p5, p6"),
                       ("Side pot 1", f"0 of 8, {rules}", "p3, p4, p5, p6")]
    assert [text(css(by_id(d, f"seat-{i}"), ".seat-stack")[0]) for i in (1, 3, 5)] == [
        "stack 77", "stack 87", "stack 87"]
    assert text(by_id(d, "pot-total")) == "0"
    board = css(d, "#boards .card")
    assert [c.get_attribute("aria-label") for c in board] == [
        "ace of hearts", "king of diamonds", "8 of clubs", "5 of spades", "2 of hearts"]
    assert [text(c) for c in board] == ["A♥", "K♦", "8♣", "5♠", "2♥"]  # the suit in symbols
    colours = {c.value_of_css_property("color") for c in board}
    assert len(colours) == 4  # four colours, hearts red: and the symbol besides
    assert board[0].value_of_css_property("color") == "rgba(192, 24, 42, 1)"
    assert [text(li) for li in css(d, ".version-end:not([hidden]) .explanation li")] == [
        "Main pot 77 (p2, p3, p4, p5, p6): p2 wins 77 with three of a kind, aces, K-8 kickers.",
        "Side pot 1 8 (p3, p4, p5, p6): p4 and p6 tie with pair of kings, A-Q-8 kickers; "
        "4 each."]
    shoot(d, tmp_path, "ex01-end")


def test_dispute_discrepancy_is_highlighted(browser: Browser, pages: dict[str, Path],
                                            tmp_path: Path) -> None:
    d = browser.driver
    load(d, pages["dispute-before"])
    assert css(d, "button.version") == []  # never corrected: one version
    rows = {text(css(r, "th")[0]): r for r in css(d, "table.payouts tbody tr")}
    assert [p for p, r in rows.items() if "discrepancy" in r.get_attribute("class")] == [
        "Ann", "Bob"]
    assert text(css(rows["Ann"], "td.check")[0]) == "✗ differs by -300"  # in words, not
    assert text(css(rows["Bob"], "td.check")[0]) == "✗ differs by +300"  # colour alone
    assert text(css(rows["Cy"], "td.check")[0]) == "✓ agrees"
    # Net as paid (what the table paid minus what he put in: 100, 150, 150), not the rules'
    assert [text(css(rows[p], "td")[-2]) for p in ("Ann", "Bob", "Cy")] == [
        "-100", "+250", "-150"]
    assert (rows["Ann"].value_of_css_property("background-color")
            != rows["Cy"].value_of_css_property("background-color"))
    assert [text(li) for li in css(d, ".discrepancies li")] == [
        "✗ Discrepancy: hand dispute-1: Ann was paid 0, the rules give 300 (-300)",
        "✗ Discrepancy: hand dispute-1: Bob was paid 400, the rules give 100 (+300)"]
    by_id(d, "last").click()
    assert pots(d) == [  # the table pushed all 400 to Bob: in his stack, out of the pots
        ("Main pot", "0 of 300, the rest paid out", "Ann, Bob, Cy"),
        ("Side pot 1", "0 of 100, the rest paid out", "Bob, Cy")]
    shoot(d, tmp_path, "dispute-discrepancy")


def test_dispute_switches_between_original_and_corrected(browser: Browser,
                                                         pages: dict[str, Path],
                                                         tmp_path: Path) -> None:
    d = browser.driver
    load(d, pages["dispute"])
    corrected, original = by_id(d, "version-corrected"), by_id(d, "version-original")
    assert corrected.get_attribute("aria-pressed") == "true"
    assert step_label(d) == "Step 1 of 25"
    assert not any(r.is_displayed() for r in css(d, "tr.discrepancy"))
    assert text(css(d, ".version-end:not([hidden]) .clean")[0]) == (
        "✓ No discrepancy: the table paid what the rules give.")
    by_id(d, "last").click()
    events = [text(li) for li in css(d, "#events li")]
    assert events[22:24] == ["23  recorded_payout — the table pays 100 to Bob",
                             "23+  recorded_payout — the table pays 300 to Ann"]  # inserted
    original.click()
    assert original.get_attribute("aria-pressed") == "true"
    assert corrected.get_attribute("aria-pressed") == "false"
    assert step_label(d) == "Step 24 of 24"  # the original has no inserted payout
    assert text(by_id(d, "now-title")) == "After step 24: the hand ends"  # seq 24: one number
    assert text(css(d, "#events li")[22]) == "23  recorded_payout — the table pays 400 to Bob"
    shown = [r for r in css(d, "tr.discrepancy") if r.is_displayed()]
    assert [text(css(r, "th")[0]) for r in shown] == ["Ann", "Bob"]
    assert text(by_id(d, "announce")).startswith(
        "Showing the original version, as first recorded. Step 24 of 24:")
    history = text(by_id(d, "history"))
    assert "by floor" in history and "dealer pushed the main pot to Bob; Ann's aces win it" \
        in history
    assert [text(li) for li in css(d, ".changes li")] == [
        "replace seq 23 pay Bob 400 by pay Bob 100", "after seq 23 pay Bob 400 insert pay Ann 300"]
    shoot(d, tmp_path, "dispute-original")
    corrected.click()
    assert step_label(d) == "Step 24 of 25"
    # the step as the slider counts it; the seq of the correction's inserted payout beside it
    assert text(by_id(d, "now-title")) == "After step 24 (seq 23+): the table pays 300 to Ann"
    assert not any(r.is_displayed() for r in css(d, "tr.discrepancy"))
    assert text(by_id(d, "announce")).startswith("Showing the corrected version. Step 24 of 25:")
    shoot(d, tmp_path, "dispute-corrected")


def test_keyboard_steps_and_focus_is_visible(browser: Browser, pages: dict[str, Path],
                                             tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    d = browser.driver
    load(d, pages["dispute"])
    keys = ActionChains(d)
    keys.send_keys(Keys.ARROW_RIGHT * 3).perform()
    assert step_label(d) == "Step 4 of 25"
    assert text(by_id(d, "announce")) == (
        "Step 4 of 25: Ann is dealt As Ah. Main pot 3 (Ann, Bob, Cy). Nobody to act (deal).")
    go_to(d, 12)  # Bob bets 50 beyond Ann's all-in: the side pot she cannot win
    assert pots(d) == [("Main pot", "300", "Ann, Bob, Cy"), ("Side pot 1", "50", "Bob, Cy")]
    keys.send_keys(Keys.END).perform()
    assert step_label(d) == "Step 25 of 25" and by_id(d, "next").get_attribute("disabled")
    assert text(by_id(d, "now-title")) == "After step 25 (seq 24): the hand ends"
    keys.send_keys(Keys.HOME).perform()
    keys.send_keys(Keys.ARROW_LEFT).perform()
    assert step_label(d) == "Step 1 of 25" and by_id(d, "prev").get_attribute("disabled")
    assert text(by_id(d, "now-title")).startswith("After step 1: ")  # seq 1: one number
    for _ in range(12):  # Tab to the Next button; its focus ring shows
        keys.send_keys(Keys.TAB).perform()
        if d.switch_to.active_element.get_attribute("id") == "next":
            break
    focused = d.switch_to.active_element
    assert focused.get_attribute("id") == "next"
    assert focused.value_of_css_property("outline-style") == "solid"
    assert focused.value_of_css_property("outline-width") == "3px"
    keys.send_keys(Keys.ENTER).perform()
    assert step_label(d) == "Step 2 of 25"
    shoot(d, tmp_path, "keyboard-focus")
    slider = by_id(d, "slider")
    slider.send_keys(Keys.ARROW_RIGHT)  # the slider's own keys: one step, not two
    assert step_label(d) == "Step 3 of 25"
    assert text(by_id(d, "step-words")) == "Bob posts the big blind of 2"


def test_hostile_player_names_are_shown_as_text(browser: Browser, pages: dict[str, Path],
                                                tmp_path: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    d = browser.driver
    load(d, pages["hostile"])  # no alert() was called while it loaded
    with pytest.raises(NoAlertPresentException):
        d.switch_to.alert  # noqa: B018 - raises when there is none
    assert d.execute_script("return document.scripts.length") == 2
    assert [text(e) for e in css(d, ".seat-name")] == HOSTILE
    by_id(d, "last").click()
    assert pots(d) == [("Main pot", "0 of 14, the rest paid out", f"{HOSTILE[0]}, {HOSTILE[2]}")]
    assert [text(e) for e in css(d, "#players tbody th")] == HOSTILE
    assert text(css(d, ".explanation li")[0]).startswith(f"Main pot 14 ({HOSTILE[0]}, ")
    assert d.execute_script("return window.__alerts") == []
    d.execute_script("alert('the hook counts')")  # the check above can fail
    assert d.execute_script("return window.__alerts") == ["the hook counts"]
    shoot(d, tmp_path, "hostile-names")


def test_print_shows_the_final_state_and_the_explanations(browser: Browser,
                                                          pages: dict[str, Path],
                                                          tmp_path: Path) -> None:
    d = browser.driver
    load(d, pages["ex01"])
    go_to(d, 10)
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        d.execute_script("window.dispatchEvent(new Event('beforeprint'))")
        assert step_label(d) == "Step 53 of 53"
        assert not by_id(d, "controls").is_displayed() and not by_id(d, "log").is_displayed()
        assert by_id(d, "end").is_displayed() and by_id(d, "table").is_displayed()
        # no payout recorded: the 77 are in the stacks as the rules award them (p2 77)
        assert pots(d)[0] == ("Main pot", "0 of 77, the rest as the rules award it (no "
                              "payout recorded)", "p2, p3, p4, p5, p6")
        shoot(d, tmp_path, "print")
        d.execute_script("window.dispatchEvent(new Event('afterprint'))")
        assert step_label(d) == "Step 10 of 53"
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert by_id(d, "controls").is_displayed()


def test_money_is_shown_beside_chips(browser: Browser, tmp_path: Path) -> None:
    from cli.main import cli

    runner = CliRunner()
    db = str(tmp_path / "s.duckdb")
    assert runner.invoke(cli, ["--db", db, "import", str(DATA / "series" / "s01.jsonl")]
                         ).exit_code == 0
    page = tmp_path / "s01.html"
    out = runner.invoke(cli, ["--db", db, "view", "s01-001", "-o", str(page)])
    assert out.exit_code == 0, out.output
    d = browser.driver
    load(d, page)
    assert "1 chip = 0.25 USD" in text(css(d, ".meta")[0])
    by_id(d, "last").click()
    assert pots(d) == [  # 290 x 0.25 USD, paid out to Erin and Bob
        ("Main pot", "0 of 290 (72.50 USD), the rest paid out", "Erin, Bob")]
    assert [text(e) for e in css(d, ".seat-won")] == ["", "wins 145", "wins 145", ""]
    shoot(d, tmp_path, "money")


def test_an_original_that_does_not_replay_is_shown_as_such(browser: Browser,
                                                          pages: dict[str, Path]) -> None:
    d = browser.driver
    load(d, pages["undone"])
    by_id(d, "last").click()
    assert [text(li).split()[0] for li in css(d, "#events li")] == ["1", "2", "3", "4", "5", "8"]
    by_id(d, "version-original").click()
    assert step_label(d) == "Step 6 of 6"
    assert [text(li).split()[0] for li in css(d, "#events li")] == ["1", "2", "3", "4", "5", "6"]
    assert text(css(d, ".version-end:not([hidden]) .warning")[0]) == (
        "✗ This version does not replay: event 8 (call by Ann): Ann has folded. The steps stop "
        "before that event; the corrected version is the hand as the ledger counts it.")


def test_seats_say_what_the_table_paid_beside_what_the_rules_give(browser: Browser,
                                                                   pages: dict[str, Path],
                                                                   tmp_path: Path) -> None:
    """At the end of the dispute the seats said "stack 0 · wins 300" of Ann, whom the table
    paid 0: the rules' award beside the stack the table paid. Both, labelled, when they
    differ; "wins" once the correction pays what the rules give."""
    d = browser.driver
    load(d, pages["dispute-before"])
    by_id(d, "last").click()
    seats = [by_id(d, f"seat-{i}") for i in range(3)]
    assert [(text(css(s, ".seat-stack")[0]), text(css(s, ".seat-won")[0])) for s in seats] == [
        ("stack 0", "table paid 0 · rules give 300"),
        ("stack 550", "table paid 400 · rules give 100"), ("stack 150", "")]
    shoot(d, tmp_path, "dispute-seats-paid")
    load(d, pages["dispute"])
    by_id(d, "last").click()
    seats = [by_id(d, f"seat-{i}") for i in range(3)]
    assert [(text(css(s, ".seat-stack")[0]), text(css(s, ".seat-won")[0])) for s in seats] == [
        ("stack 300", "wins 300"), ("stack 250", "wins 100"), ("stack 150", "")]


def test_the_street_heading_names_the_cards_out(browser: Browser, pages: dict[str, Path]
                                                ) -> None:
    """Step 13 ("Cy calls 50" on the flop) was headed "Turn" with the flop alone on the
    board; step 1 "Blinds And Antes" (each word capitalized by the style sheet)."""
    d = browser.driver
    load(d, pages["dispute"])
    street = by_id(d, "street")
    assert (step_label(d), text(street), street.text) == (
        "Step 1 of 25", "Blinds and antes", "Blinds and antes")
    go_to(d, 13)
    assert (step_label(d), text(street), len(css(d, "#boards .card"))) == (
        "Step 13 of 25", "Flop", 3)
    go_to(d, 14)
    assert (text(street), len(css(d, "#boards .card"))) == ("Turn", 4)


def test_a_hand_in_play_shows_the_stacks_its_seats_show(browser: Browser, tmp_path: Path
                                                        ) -> None:
    """A three-handed declare hand in play, the table having paid Ann 6 of the 6 so far (the
    rules give Ann and Cy 3 each): the seat showed "stack 104" beside a row whose Final was
    98 under a "✓ No discrepancy" headline. Now the page says the hand is in play at the top
    and in the end's heading, each row's Stack now is its seat's (Ann 100 − 2 + 6 = 104,
    Bob and Cy 100 − 2 = 98), and no row claims to agree."""
    from cli.main import cli
    from tests.test_net_as_paid import DECLARE_LINES

    runner = CliRunner()
    db = str(tmp_path / "d.duckdb")
    assert runner.invoke(cli, ["--db", db, "hand", "start", "--hand", "d1", "--game", "NT",
                               "--stakes", "1/2", "--seats", "Ann:100,Bob:100,Cy:100",
                               "--button", "Cy", "--declare-options", "method=simultaneous"]
                         ).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "table", "d1"],
                        input="".join(f"{a}\n" for a in (*DECLARE_LINES, "pay Ann 6")))
    assert out.exit_code == 0, out.output
    page = tmp_path / "d1.html"
    assert runner.invoke(cli, ["--db", db, "view", "d1", "-o", str(page)]).exit_code == 0
    d = browser.driver
    load(d, page)
    by_id(d, "last").click()
    assert text(by_id(d, "in-play")) == (
        "In play: the hand has not ended. What the table has paid so far is not checked "
        "against the rules until it ends (handledger act d1 end); the balances count only "
        "what each player has put in so far.")
    assert text(by_id(d, "end-title")) == "The hand so far (in play, not ended)"
    assert [text(css(by_id(d, f"seat-{i}"), ".seat-stack")[0]) for i in range(3)] == [
        "stack 104", "stack 98", "stack 98"]
    rows = css(d, "table.payouts tbody tr")
    assert [[text(c) for c in css(r, "th, td")][7:] for r in rows] == [
        ["in play", "+4", "104"], ["in play", "-2", "98"], ["in play", "-2", "98"]]
    assert [text(e) for e in css(d, ".version-end .clean")] == []
    shoot(d, tmp_path, "in-play")


def test_a_draw_names_the_dealer_s_deal_and_the_cards_discarded(browser: Browser,
                                                                 tmp_path: Path) -> None:
    """Deuce-to-seven triple draw (RULES.md §4.2): Dan folds, Eli stands pat, Flo throws the
    9s: at that step the dealer deals Flo's replacement (nobody is to act), and the list of
    events names the card Flo discarded, as it names the card dealt him."""
    from cli.main import cli

    runner = CliRunner()
    db = str(tmp_path / "t.duckdb")
    assert runner.invoke(cli, ["--db", db, "hand", "start", "--hand", "t", "--game", "F2L3D",
                               "--stakes", "1/2", "--small-bet", "2", "--big-bet", "4",
                               "--seats", "Dan:50,Eli:50,Flo:50", "--button", "Dan"]
                         ).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "table", "t"], input=(
        "d dh Eli ??????????\nd dh Flo 9s????????\nd dh Dan ??????????\nDan f\nEli cc\n"
        "Flo cc\nEli sd\nFlo sd 9s\nd dh Flo 8h\n"))
    assert out.exit_code == 0, out.output
    page = tmp_path / "t.html"
    assert runner.invoke(cli, ["--db", db, "view", "t", "-o", str(page)]).exit_code == 0
    d = browser.driver
    load(d, page)
    go_to(d, 11)
    assert step_label(d) == "Step 11 of 12"
    assert text(by_id(d, "turn")) == "The dealer deals Flo 1 replacement card (draw)."
    assert [text(li) for li in css(d, "#events li")][10:] == [
        "11  p2 sd 9s — Flo discards 9s", "12  d dh p2 8h — Flo is dealt 8h"]
    shoot(d, tmp_path, "draw")


def test_without_script_only_what_the_page_writes_is_shown(browser: Browser,
                                                           pages: dict[str, Path]) -> None:
    """The corrected dispute with JavaScript off: the table, the step control, the panel of
    the step (``After step :`` with its empty tables) and the version buttons are not
    displayed; the events, the end of the hand and the history are. With it back on, the
    step control is displayed again."""
    d = browser.driver
    d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        d.get(pages["dispute"].as_uri())
        assert [by_id(d, i).is_displayed() for i in (
            "table", "controls", "now", "version-corrected", "version-original")] == [
            False] * 5
        assert [by_id(d, i).is_displayed() for i in ("events", "end", "history")] == [True] * 3
        assert css(d, "noscript") != []
    finally:
        d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    load(d, pages["dispute"])
    assert [by_id(d, i).is_displayed() for i in ("table", "controls", "now")] == [True] * 3
