"""The books of hands of no session (a site's hand histories imported without ``--session``):
what ``settle`` says of their rake (cli/text.py ``settle_text``; README, "settle"). Real
data: the PokerStars five-card draw hand (USD, 1 chip = 0.01 USD; Player4 pays 2 chips of
rake) and, in a session ``s`` opened for them, the PLO8 hands (20 chips of rake)."""

from __future__ import annotations

from tests.conftest import SHARED

TEXT = SHARED / "text"
DRAW = TEXT / "Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"
PLO8 = TEXT / "Stars-cash-PLO8-6max-USD-0.01-0.02-200911.txt"


def test_settle_names_no_session_to_open_for_the_rake_of_hands_of_none(user) -> None:  # noqa: ANN001
    assert user("import", str(DRAW))[0] == 0
    code, out, err = user("settle")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Hero pays Player3 0.20 USD", "Player4 pays Player3 0.13 USD",
        "Player4 pays the house 0.02 USD", "3 transfer(s) settle 5 player(s) and the house",
        "the house: whoever keeps the rake the table took, 0.02 USD (2 chips in hands of no "
        "session); `handledger pay SESSION PLAYER rake AMOUNT` records a payment to it in a "
        "session; hands of no session have none to name"]
    assert user("session", "open", "s", "--chip-value", "0.01", "--currency", "USD")[0] == 0
    assert user("import", "--session", "s", str(PLO8))[0] == 0
    code, out, _ = user("settle")
    assert code == 0 and "None" not in out
    assert out.splitlines()[-1] == (
        "the house: whoever keeps the rake the table took, 0.22 USD (2 chips in hands of no "
        "session, 20 chips in session s); `handledger pay SESSION PLAYER rake AMOUNT` records "
        "a payment to it (hands of no session have none to name)")
