"""``audit`` names what a hand's chips are worth: its findings count chips, as stored, and a
hand whose chips are money (a site's cents, a PokerNow log of cents, a session's chip of
money) ends its line so (``; amounts in chips of 0.01 EUR``), where the import's warnings
write money; a hand of plain chips reads as it always did."""

from __future__ import annotations

from tests.conftest import SHARED

EUR = SHARED / "text" / "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"
LOG = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
HAND = "pn-pokernowpy_run-it-twice-30-163028603289300"


def test_a_site_hand_in_euro_cents_says_its_rake_is_cents(user) -> None:  # noqa: ANN001
    assert user("import", str(EUR))[0] == 0
    assert user("audit") == (1, (
        "rake: hand PokerStars-90721705235: the table paid 215 less than the pots and returns: "
        "the site kept 215 as rake (as the file records) [hand PokerStars-90721705235, player "
        "Hero; expected 22532, actual 22317; amounts in chips of 0.01 EUR]\n"
        "audit: 1 discrepancy in 1 hand(s) in 0 session(s) (rake 1)\n"), "")


def test_a_pokernow_log_of_cents_says_its_chips_are_cents(user) -> None:  # noqa: ANN001
    """A log of cents names no currency (``chips of 0.01``) until ``session set`` names it."""
    assert user("import", str(LOG))[0] == 0
    first = (f"stack_continuity: hand {HAND}: OjtkunxseAbye starts with 672 but he has no "
             f"buy-in: expected 0 (+672) [session pokernowpy_run-it-twice, hand {HAND}, player "
             "OjtkunxseAbye; expected 0, actual 672; amounts in chips of 0.01")
    code, out, _ = user("audit")
    assert (code, out.splitlines()[0]) == (1, first + "]")
    assert user("session", "set", "pokernowpy_run-it-twice", "--chip-value", "0.01",
                "--currency", "USD")[0] == 0
    code, out, _ = user("audit")
    assert (code, out.splitlines()[0]) == (1, first + " USD]")
