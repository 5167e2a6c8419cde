"""``export --format phh`` of real PokerStars hands imports back as the hands already stored,
into the same ledger, and into a fresh one as the same books. PHH posts the antes in seat order
(PokerStars from seat 1 on) and pays each player one amount (``winnings``: an uncalled bet
returned and the pot he won together), so the hand comes back in PHH's shape and is the same
hand: the same forced bets and the same chips to each player (:mod:`replay.ingest.phh_form`).
A really changed amount is still refused."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SHARED

#: Seat 1 (Player7) posts the first ante, PHH's p1 (Player3) the second; Player4's uncalled
#: 760 comes back with the 930 he collected as one payout of 1690.
HAND = "PokerStars-29869218603"
HINT = f"a change to a stored hand is a correction (`handledger correct {HAND} ...`)"


def _stars(user) -> None:  # noqa: ANN001
    files = sorted((SHARED / "text").glob("Stars-*.txt"))
    assert len(files) == 10
    code, out, _ = user("import", *map(str, files))
    assert (code, out) == (0, "imported 184 hand(s) (5311 events) from 10 file(s); 0 already "
                              "in the ledger; 0 rejected\n")


def _json_lines(user, db: str, *args: str) -> list:  # noqa: ANN001
    code, out, _ = user("--db", db, *args)
    assert code in (0, 1)
    return [json.loads(line) for line in out.splitlines()]


def test_pokerstars_hands_exported_as_phh_are_already_in_the_ledger(
        user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    _stars(user)
    dump = tmp_path / "stars.phhs"
    assert user("export", "--format", "phh", "-o", str(dump)) == (0, f"wrote {dump}\n", "")
    text = dump.read_text(encoding="utf-8")
    table = text[: text.index(f"_hand_id = '{HAND}'")].rsplit("\n[", 1)[1]
    assert "antes = [30, 30, 30, 30, 30, 30]\n" in table
    assert "players = ['Player7', 'Player3', 'Player4', 'Player2', 'Hero', 'Player8']\n" in table
    assert "winnings = [0, 0, 1690, 0, 0, 0]\n" in table
    assert user("import", str(dump)) == (0, "imported 0 hand(s) (0 events) from 1 file(s); "
                                            "184 already in the ledger; 0 rejected\n", "")
    fresh = str(tmp_path / "fresh.duckdb")
    code, out, _ = user("--db", fresh, "import", str(dump))
    # 140 fewer events: each uncalled bet returned is one payout with the pot its player won
    assert (code, out) == (0, "imported 184 hand(s) (5171 events) from 1 file(s); 0 already "
                              "in the ledger; 0 rejected\n")
    for args in (("replay", "--json"), ("balances", "--json")):
        assert _json_lines(user, fresh, *args) == _json_lines(user, db, *args)
    assert user("--db", fresh, "audit")[1] == user("--db", db, "audit")[1]


def test_a_changed_payout_of_an_exported_pokerstars_hand_is_refused(
        user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    _stars(user)
    path = tmp_path / "one.phh"
    assert user("export", "--format", "phh", HAND, "-o", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    assert user("import", str(path)) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 "
                                            "already in the ledger; 0 rejected\n", "")
    changed = tmp_path / "changed.phh"
    changed.write_text(text.replace("winnings = [0, 0, 1690, 0, 0, 0]",
                                    "winnings = [0, 0, 1680, 10, 0, 0]"))
    code, out, err = user("import", str(changed))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (f"error: {changed}:1, hand {HAND}: a different hand {HAND} is already in the "
                   "ledger: the table paid otherwise: Player4 1680 here, 1690 in the ledger, "
                   f"Player2 10 here, 0 in the ledger; {HINT}\n")


def test_a_hand_in_a_sessions_chips_is_exported_as_its_money(user, db: str,  # noqa: ANN001
                                                             tmp_path: Path) -> None:
    """A hand converted into a session's chips (0.05 USD each) is written in USD, as its file
    named it, and imports back into the session as the chips it has there."""
    stars = SHARED / "text" / "Stars-cash-NLHE-6max-USD-0.05-0.10-200911.txt"
    opened = ("session", "open", "s1", "--chip-value", "0.05", "--currency", "USD", "--date",
              "2009-11-25")
    assert user(*opened)[0] == 0
    assert user("import", "--session", "s1", str(stars))[1] == (
        "imported 78 hand(s) (1725 events) from 1 file(s); 0 already in the ledger; 0 "
        "rejected\n")
    dump = tmp_path / "s1.phhs"
    assert user("export", "--format", "phh", "-o", str(dump))[0] == 0
    text = dump.read_text(encoding="utf-8")
    # hand 77: Patman01 collected 57 chips of 0.05 USD in the session, written as 2.85 USD
    table = text[: text.index("_hand_id = 'PokerStars-35825200467'")].rsplit("\n[", 1)[1]
    assert "blinds_or_straddles = [0.05, 0.10, 0.00, 0.00, 0.00, 0.00]\n" in table
    assert "starting_stacks = [10.50, 7.25, 8.20, 10.00, 23.80, 14.25]\n" in table
    assert "winnings = [0.00, 0.00, 0.00, 2.85, 0.00, 0.00]\n" in table
    assert user("import", str(dump)) == (0, "imported 0 hand(s) (0 events) from 1 file(s); "
                                            "78 already in the ledger; 0 rejected\n", "")
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, *opened)[0] == 0
    assert user("--db", fresh, "import", str(dump))[:2] == (0, (
        "imported 78 hand(s) (1662 events) from 1 file(s); 0 already in the ledger; 0 "
        "rejected\n"))
    for args in (("replay", "--json"), ("balances", "--json", "--session", "s1")):
        assert _json_lines(user, fresh, *args) == _json_lines(user, db, *args)
