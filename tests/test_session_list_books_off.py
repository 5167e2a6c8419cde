"""``session list`` names a closed session whose books are off (docs/LIVE.md "Sessions"): settling
goes by the hands' nets, so a session closed with chips never cashed out is "settled" (nobody
owes anybody) and yet its books do not balance; the audit's findings are counted beside it,
every one ``audit --session`` gives, by kind: a hand paid wrong too, which settles as the
table paid it."""

from __future__ import annotations

import json


def test_a_session_closed_with_every_player_uncashed_is_said_to_be_off(user) -> None:  # noqa: ANN001
    for step in (("session", "open", "s1", "--date", "2026-12-05"), ("buyin", "s1", "Ann", "100"),
                 ("buyin", "s1", "Bob", "100"), ("session", "close", "s1")):
        assert user(*step)[0] == 0
    assert user("session", "list") == (0, (
        "s1  2026-12-05  0 hand(s)  2 buy-in(s)  closed, settled, but its audit has 2 "
        "finding(s) (session_balance 2: `handledger audit --session s1`)\n"), "")
    listed = json.loads(user("session", "list", "--json")[1])["sessions"][0]
    assert (listed["settled"], listed["books_off"], listed["findings"]) == (
        True, 2, {"session_balance": 2})
    code, out, _ = user("audit", "--session", "s1")
    assert code == 1 and out.count("session_balance: ") == 2


def test_a_session_whose_books_balance_says_nothing_more(user) -> None:  # noqa: ANN001
    for step in (("session", "open", "s1", "--date", "2026-12-05"), ("buyin", "s1", "Ann", "100"),
                 ("cashout", "s1", "Ann", "100"), ("session", "close", "s1")):
        assert user(*step)[0] == 0
    assert user("session", "list") == (
        0, "s1  2026-12-05  0 hand(s)  1 buy-in(s)  closed, settled\n", "")
    assert "books_off" not in json.loads(user("session", "list", "--json")[1])["sessions"][0]


NIGHT = (("session", "open", "fri", "--date", "2026-12-05", "--chip-value", "0.25",
          "--currency", "USD"),
         ("buyin", "fri", "Ann", "200"), ("buyin", "fri", "Bob", "150"),
         ("buyin", "fri", "Cy", "300"),
         ("hand", "start", "--session", "fri", "--hand", "f1", "--game", "NT", "--stakes", "1/2",
          "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy"),
         *(("act", "f1", a) for a in (
             "d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy f", "Ann cbr 8",
             "Bob cbr 150", "Ann cc", "d db 2c7h9s", "d db Kd", "d db 3c", "Ann sm AsKs",
             "Bob sm QhQd", "pay Bob 300", "end")))  # README's dispute: Ann's pot pushed to Bob


def test_a_closed_session_with_a_hand_paid_wrong_is_never_said_clean(user) -> None:  # noqa: ANN001
    for step in (*NIGHT, ("cashout", "fri", "Ann", "50"), ("cashout", "fri", "Bob", "300"),
                 ("cashout", "fri", "Cy", "300"), ("session", "close", "fri"),
                 ("pay", "fri", "Ann", "Bob", "37.50")):  # settled as the table paid
        assert user(*step)[0] == 0, step
    assert user("session", "list") == (0, (
        "fri  2026-12-05  1 hand(s)  3 buy-in(s)  closed, settled, but its audit has 2 "
        "finding(s) (payout 2: `handledger audit --session fri`)\n"), "")
    code, out, _ = user("audit", "--session", "fri")
    assert code == 1 and out.splitlines()[-1] == (
        "audit: 2 discrepancies (payout 2); 1 hand(s) in 1 session(s) checked")


def test_session_list_counts_what_audit_of_the_session_counts(user) -> None:  # noqa: ANN001
    for step in (*NIGHT, ("cashout", "fri", "Ann", "350"), ("cashout", "fri", "Bob", "0"),
                 ("cashout", "fri", "Cy", "300")):  # cashed out as the rules pay
        assert user(*step)[0] == 0, step
    assert user("session", "close", "fri")[2].splitlines()[-1] == (
        "note: session fri closed with 4 audit findings (`handledger audit --session fri` "
        "lists them)")
    assert user("session", "list") == (0, (
        "fri  2026-12-05  1 hand(s)  3 buy-in(s)  closed, 37.50 USD owed, but its audit has 4 "
        "finding(s) (payout 2, session_balance 2: `handledger audit --session fri`)\n"), "")
    code, out, _ = user("audit", "--session", "fri")
    assert code == 1 and out.splitlines()[-1] == (
        "audit: 4 discrepancies (payout 2, session_balance 2); 1 hand(s) in 1 session(s) checked")
