"""``session list`` names a closed session whose books are off (README "Sessions"): settling
goes by the hands' nets, so a session closed with chips never cashed out is "settled" (nobody
owes anybody) and yet its books do not balance; the audit's findings are counted beside it."""

from __future__ import annotations

import json


def test_a_session_closed_with_every_player_uncashed_is_said_to_be_off(user) -> None:  # noqa: ANN001
    for step in (("session", "open", "s1", "--date", "2026-12-05"), ("buyin", "s1", "Ann", "100"),
                 ("buyin", "s1", "Bob", "100"), ("session", "close", "s1")):
        assert user(*step)[0] == 0
    assert user("session", "list") == (0, (
        "s1  2026-12-05  0 hand(s)  2 buy-in(s)  closed, settled, but its books are off (2 "
        "finding(s): `handledger audit --session s1`)\n"), "")
    listed = json.loads(user("session", "list", "--json")[1])["sessions"][0]
    assert (listed["settled"], listed["books_off"]) == (True, 2)
    code, out, _ = user("audit", "--session", "s1")
    assert code == 1 and out.count("session_balance: ") == 2


def test_a_session_whose_books_balance_says_nothing_more(user) -> None:  # noqa: ANN001
    for step in (("session", "open", "s1", "--date", "2026-12-05"), ("buyin", "s1", "Ann", "100"),
                 ("cashout", "s1", "Ann", "100"), ("session", "close", "s1")):
        assert user(*step)[0] == 0
    assert user("session", "list") == (
        0, "s1  2026-12-05  0 hand(s)  1 buy-in(s)  closed, settled\n", "")
    assert "books_off" not in json.loads(user("session", "list", "--json")[1])["sessions"][0]
