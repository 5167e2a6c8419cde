"""A PHH payout with a fraction of a chip in a hand whose stacks, blinds and bets are whole chips
is a typo, refused naming the field, its line and the value (ledger/formats/phh/fields.py,
``_paid_in_chips_played``): ``winnings = [0, 400.5, 0]`` turned the hand into tenths (its pot
"400.0", the balances in chips of 0.1) and said only "over by 0.5". A hand in dollars and
cents is paid in cents as before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_live_table import events, one_shot

# Ann (p1) folds her small blind; Cat (p3) is all in for 200 and Bob (p2) calls: a pot of
# 1 + 200 + 200 = 401 chips, Bob's with the board's straight (he holds 6-7); 16 events: the
# start, 2 blinds, 3 deals, 3 actions, 3 boards, 2 shows, the payout, the end
HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 500, 200]
players = ['Ann', 'Bob', 'Cat']
actions = ['d dh p1 AsKs', 'd dh p2 6c7c', 'd dh p3 QdQh', 'p3 cbr 200', 'p1 f', 'p2 cc',
  'd db 2c3d4h', 'd db 5s', 'd db 9h', 'p2 sm 6c7c', 'p3 sm QdQh']
"""


def test_a_fraction_paid_in_a_hand_of_whole_chips_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    path = tmp_path / "h.phh"
    for line in ("winnings = [0, 400.5, 0]", "finishing_stacks = [99, 700.5, 0]"):
        path.write_text(HAND + line + "\n")
        key = line.split()[0]
        value = line.split("[")[1].split(", ")[1]
        assert one_shot(db, "import", str(path)) == (2, (
            "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
            "rejected\n"), (
            f"error: {path}:9: {key} {value} is not a whole number of the hand's chips (a chip "
            "is 1, the smallest unit its stacks, blinds and bets write): a payout is paid in "
            "the chips played (a typo?)\n")), line
        assert not db.exists()
    path.write_text(HAND + "winnings = [0, 401, 0]\n")
    assert one_shot(db, "import", str(path))[:2] == (0, (
        "imported 1 hand(s) (16 events) from 1 file(s); 0 already in the ledger; 0 "
        "rejected\n"))
    (started,) = [e for e in events(db) if e[5] == "hand_started"]
    assert '"decimals":0' in str(started[6])


def test_a_hand_in_cents_is_paid_in_cents(tmp_path: Path) -> None:
    """The same hand in dollars: stacks 1.00, 5.00, 2.00, blinds 0.01/0.02, a pot of 4.01."""
    text = (HAND.replace("[1, 2, 0]", "[0.01, 0.02, 0]").replace("min_bet = 2", "min_bet = 0.02")
            .replace("[100, 500, 200]", "[1.00, 5.00, 2.00]").replace("cbr 200", "cbr 2.00")
            + "winnings = [0, 4.01, 0]\n")
    path = tmp_path / "c.phh"
    path.write_text(text)
    db = tmp_path / "t.duckdb"
    assert one_shot(db, "import", str(path))[:2] == (0, (
        "imported 1 hand(s) (16 events) from 1 file(s); 0 already in the ledger; 0 "
        "rejected\n"))
    payouts = [json.loads(e[6]) for e in events(db) if e[5] == "recorded_payout"]
    assert [(p["player"], p["amount"]) for p in payouts] == [("Bob", 401)]  # cents
