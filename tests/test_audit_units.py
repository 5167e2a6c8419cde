"""``audit`` names what a hand's chips are worth: its findings count chips, as stored, and a
hand whose chips are money (a site's cents, a PokerNow log of cents, a session's chip of
money) ends its line so (``; amounts in chips of 0.01 EUR``), where the import's warnings
write money; a hand of plain chips reads as it always did."""

from __future__ import annotations

import json

from tests.conftest import SHARED

EUR = SHARED / "text" / "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"
LOG = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
HAND = "pn-pokernowpy_run-it-twice-30-163028603289300"


def test_a_site_hand_in_euro_cents_paid_less_its_rake_is_clean(user) -> None:  # noqa: ANN001
    """Pot 225.32, rake 2.15, paid 223.17 (the pot less the rake, README "A home game's
    rake"): paid as the rules give, so no finding; the balances count the rake in cents."""
    assert user("import", str(EUR))[0] == 0
    assert user("audit") == (0, (
        "audit clean: 1 hand(s) in 0 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)\n"), "")
    assert user("balances")[1].splitlines()[-2:] == [
        "rake: 215 chips of 0.01 EUR taken from the pots outside sessions (1 hand)",
        "note: the players' nets sum to -215 chips of 0.01 EUR, not 0: the rake the table "
        "took (above)"]


def test_a_cash_out_of_a_log_of_cents_says_its_chips_are_cents(user) -> None:  # noqa: ANN001
    """A session's finding that names no hand (a cash-out) says what its chips are worth, as
    a hand's does: NewGuy bought in 500 cents and cashed out 400, the hands never seating
    him."""
    assert user("import", str(LOG))[0] == 0
    session = "pokernowpy_run-it-twice"
    assert user("buyin", session, "NewGuy", "500")[0] == 0
    assert user("cashout", session, "NewGuy", "400")[0] == 0
    code, out, _ = user("audit")
    assert code == 1 and [line for line in out.splitlines() if "NewGuy" in line] == [
        f"session_balance: session {session}: NewGuy cashed out 400 chips but the hands leave "
        f"NewGuy 500 (-100) [session {session}, player NewGuy; expected 500, actual 400; amounts "
        "in chips of 0.01]"]


def test_a_pokernow_log_of_cents_says_its_chips_are_cents(user) -> None:  # noqa: ANN001
    """A log of cents names no currency (``chips of 0.01``) until ``session set`` names it."""
    assert user("import", str(LOG))[0] == 0
    first = (f"stack_continuity: hand {HAND}: OjtkunxseAbye starts with 672 but OjtkunxseAbye "
             f"has no buy-in: expected 0 (+672) [session pokernowpy_run-it-twice, hand {HAND}, "
             "player OjtkunxseAbye; expected 0, actual 672; amounts in chips of 0.01")
    code, out, _ = user("audit")
    assert (code, out.splitlines()[0]) == (1, first + "]")
    assert user("session", "set", "pokernowpy_run-it-twice", "--chip-value", "0.01",
                "--currency", "USD")[0] == 0
    code, out, _ = user("audit")
    assert (code, out.splitlines()[0]) == (1, first + " USD]")


def test_audit_json_gives_each_findings_unit(user) -> None:  # noqa: ANN001
    """wrong-push.phh imported into session fri (1 chip = 0.25 USD), closed with nobody
    cashed out or paid: its payout, stack and cash-out findings count chips of 0.25 USD, its
    unsettled ones cents of USD; the JSON now says which beside each (the text ends each line
    so: ``; amounts in chips of 0.25 USD`` / ``; amounts in 0.01 USD``)."""
    from tests.conftest import DATA

    assert user("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD")[0] == 0
    assert user("import", "--session", "fri", str(DATA / "dispute" / "wrong-push.phh"))[0] == 0
    assert user("session", "close", "fri")[0] == 0
    code, out, _ = user("audit", "--unsettled", "--json")
    chips = {"unit": "chips", "chip_value_minor": 25, "decimals": 2, "currency": "USD"}
    minor = {"unit": "minor", "decimals": 2, "currency": "USD"}
    found = json.loads(out)["discrepancies"]
    assert code == 1 and [(d["kind"], d["player"], d["expected"], d["actual"],
                           {k: d[k] for k in d if k in chips}) for d in found] == [
        ("payout", "Ann", 300, 0, chips), ("payout", "Bob", 100, 400, chips),
        ("stack_continuity", "Ann", 0, 100, chips), ("stack_continuity", "Bob", 0, 300, chips),
        ("stack_continuity", "Cy", 0, 300, chips), ("session_balance", "Bob", 550, 0, chips),
        ("session_balance", "Cy", 150, 0, chips), ("unsettled", "Ann", -2500, 0, minor),
        ("unsettled", "Cy", -3750, 0, minor)]
    assert user("audit", "--unsettled")[1].splitlines()[0] == (
        "payout: hand dispute-1: Ann was paid 0, the rules give 300 (-300) [session fri, hand "
        "dispute-1, player Ann; expected 300, actual 0; amounts in chips of 0.25 USD]")


def test_audit_json_of_plain_chips_says_chips_worth_one(user) -> None:  # noqa: ANN001
    """wrong-push.phh of no session, plain chips: its payout findings count chips worth 1 of
    no currency."""
    from tests.conftest import DATA

    assert user("import", str(DATA / "dispute" / "wrong-push.phh"))[0] == 0
    code, out, _ = user("audit", "--json")
    assert code == 1 and {(d["kind"], d["unit"], d["chip_value_minor"], d["decimals"],
                           d["currency"]) for d in json.loads(out)["discrepancies"]} == {
        ("payout", "chips", 1, 0, None)}
