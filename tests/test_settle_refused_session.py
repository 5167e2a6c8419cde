"""``settle`` of the whole ledger beside a session whose own settle is refused: the other
sessions are settled and a line gives that session's refusal, exit 0, as a session with a
hand still in progress is left out (docs/LIVE.md "settle")."""

from __future__ import annotations

import json

SESSION_S = (  # Ann bought 1 chip and is seated with 100: she loses 2 (the big blind)
    ("session", "open", "s", "--chip-value", "0.25", "--currency", "USD"),
    ("buyin", "s", "Ann", "1"), ("buyin", "s", "Bob", "100"),
    ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100",
     "--button", "Bob", "--session", "s", "--hand", "h1"))
SESSION_T = (  # Cy folds his small blind to Dee: 1 chip, 0.25 USD
    ("session", "open", "t", "--chip-value", "0.25", "--currency", "USD"),
    ("buyin", "t", "Cy", "100"), ("buyin", "t", "Dee", "100"),
    ("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", "Cy:100,Dee:100",
     "--button", "Cy", "--session", "t", "--hand", "t1"))
WHY = ("Ann lost 2 chips (0.50 USD) in session s, more than Ann's buy-ins there (1 chips, "
       "0.25 USD): a hand seats Ann with chips never bought, and nobody pays more than the "
       "chips put on the table (RULES.md §1.1; `pay` refuses it): `handledger audit --session "
       "s` names the hand (a buy-in not recorded: `handledger buyin s Ann CHIPS --before "
       "HAND`, or `entry amend` of the buy-in; a stack typed wrong: `handledger correct`); "
       "then run `handledger settle` again")


def _record(user, steps, hand: str, lines: str) -> None:  # noqa: ANN001
    for args in steps:
        assert user(*args)[0] == 0, args
    assert user("table", hand, input=lines)[0] == 0


def test_settle_settles_the_other_sessions_and_names_the_refused_one(user) -> None:  # noqa: ANN001
    _record(user, SESSION_S, "h1", "d dh Ann ????\nd dh Bob ????\nBob cbr 4\nAnn f\nend\n")
    # alone, session s is refused as before
    status, out, err = user("settle", "--session", "s")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == "error: cannot settle: " + WHY
    # the whole ledger holds nothing else: nothing settled, the line says why, exit 0
    status, out, _ = user("settle")
    assert (status, out) == (0, "nothing settled yet: no session read can be settled now\n"
                                "session s: not settled: " + WHY + "\n")
    _record(user, SESSION_T, "t1", "d dh Cy ????\nd dh Dee ????\nCy f\nend\n")
    assert user("settle", "--session", "t")[:2] == (
        0, "Cy pays Dee 0.25 USD\n1 transfer(s) settle 2 player(s)\n")
    status, out, _ = user("settle")
    assert (status, out) == (0, "Cy pays Dee 0.25 USD in session t\n"
                                "1 transfer(s) settle 2 player(s)\n"
                                "session s: not settled: " + WHY + "\n")
    status, out, _ = user("settle", "--json")
    assert status == 0
    assert json.loads(out) == {
        "transfers": [{"session": "t", "from": "Cy", "from_name": "Cy", "to": "Dee",
                       "to_name": "Dee", "amount": 25}],
        "decimals": 2, "currency": "USD", "paid_already": 0, "payments_recorded": 0,
        "cannot_settle": [{"session": "s", "error": "cannot settle: " + WHY}]}


def test_a_refused_session_beside_one_with_a_hand_in_progress(user) -> None:  # noqa: ANN001
    """Both left out: the in-progress line first, then the refusal; nothing settled."""
    _record(user, SESSION_S, "h1", "d dh Ann ????\nd dh Bob ????\nBob cbr 4\nAnn f\nend\n")
    for args in SESSION_T:
        assert user(*args)[0] == 0, args
    status, out, _ = user("settle")
    assert (status, out) == (
        0, "nothing settled yet: no session read can be settled now\n"
           "session t: not settled yet: hand t1 is still in progress (not ended): its pot is "
           "paid when it ends (`handledger act t1 end`) or is voided; then run `handledger "
           "settle` again\n"
           "session s: not settled: " + WHY + "\n")
