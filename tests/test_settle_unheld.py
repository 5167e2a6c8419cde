"""A correction after the chips moved on, as ``settle`` asks for what it leaves owed
(docs/CORRECTIONS.md "A correction after the chips moved on"): the part the nets hold is
settled between the players; a changed start, which no net holds, with the bank.

Both nights count 1 chip = 0.25 USD; Ann and Bob buy in 100 each, blinds 1/2.
"""

from __future__ import annotations

import json

#: Hand 1 recorded Ann with 120 (her buy-ins: 100); Ann folds her small blind (Bob +1), hand 2
#: is dealt on it (Ann 119, Bob 101) and Bob folds his (Ann +1); then hand 1 is corrected to
#: Ann 100: nets unchanged (Ann 0, Bob 0), but hand 2 stands as played on Ann's 119 where the
#: books leave her 99: 20 chips she had at the table beyond the books, 5.00 USD.
START_100 = json.dumps({
    "type": "hand_started", "hand": "1", "game": "NT", "session": "n1", "button": "Ann",
    "seats": [{"player": "Bob", "stack": 100}, {"player": "Ann", "stack": 100}],
    "stakes": {"betting": "no_limit", "blinds_or_straddles": [1, 2], "antes": [0, 0],
               "min_bet": 2}, "options": {"reopen_rule": "full_bet"}})
H1 = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cc", "Bob cc", "d db 2c3d4h", "Bob cc", "Ann cc",
      "d db 9s", "Bob cc", "Ann cc", "d db Td", "Bob cc", "Ann cc", "pay Ann 4", "end")
# h1: Ann's aces win the 4-chip pot, seq 17 the payout


def _night(user, seats1: str, hand1: tuple[str, ...], seats2: str,  # noqa: ANN001
           hand2: tuple[str, ...], names: tuple[str, str]) -> None:
    assert user("session", "open", "n1", "--date", "2026-11-27", "--chip-value", "0.25",
                "--currency", "USD")[0] == 0
    for player in ("Ann", "Bob"):
        assert user("buyin", "n1", player, "100")[0] == 0
    for name, seats, button, actions in ((names[0], seats1, "Ann", hand1),
                                         (names[1], seats2, "Bob", hand2)):
        assert user("hand", "start", "--session", "n1", "--hand", name, "--game", "NT",
                    "--stakes", "1/2", "--seats", seats, "--button", button)[0] == 0
        for action in actions:
            assert user("act", name, action)[0] == 0


def test_a_start_corrected_after_the_next_hand_is_owed_to_the_bank(user) -> None:  # noqa: ANN001
    _night(user, "Ann:120,Bob:100", ("d dh Ann ????", "d dh Bob ????", "Ann f", "pay Bob 3",
                                     "end"),
           "Ann:119,Bob:101", ("d dh Bob ????", "d dh Ann ????", "Bob f", "pay Ann 3", "end"),
           ("1", "2"))
    code, out, err = user("correct", "1", "--replace", "1", START_100, "--reason",
                          "Ann had 100", "--by", "Host")
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == (
        "  warning: hand 2 started Ann with 119, on hand 1 as it stood (it left Ann 119); now "
        "it leaves Ann 99: Ann -20 chips in settle, and hand 2 stands as played (the chips at "
        "the table are facts)")
    note = ("note: hand 1 corrected after hand 2 was dealt (seq 9, by Host: Ann had 100): "
            "Ann -20 (with the bank) chips owed in settle\n")
    assert user("settle", "--session", "n1") == (0, (
        "Ann pays the bank 5.00 USD: chips Ann had at the table beyond the books, in no "
        "player's net\n"
        "no transfer between the players; 1 with the bank\n"), note)
    code, out, err = user("settle", "--session", "n1", "--json")
    body = json.loads(out)
    assert (code, err, body["transfers"]) == (0, "", [])
    assert body["bank"] == [{"session": "n1", "player": "Ann", "player_name": "Ann",
                             "amount": 500}]
    late = body["corrected_late"][0]
    assert (late["owed"], late["owed_minor"], late["unheld"], late["unheld_minor"]) == (
        {"Ann": -20}, {"Ann": -500}, {"Ann": -20}, {"Ann": -500})
    code, out, _ = user("balances", "--session", "n1", "--money")
    assert code == 0
    assert out.splitlines()[1:] == [
        "Ann                    0.00        25.00         0.00      2        1",
        "Bob                    0.00        25.00         0.00      2        1",
        "note: session n1: hand 1 corrected after hand 2 was dealt (seq 9, by Host: Ann had "
        "100): Ann -20 (with the bank) chips owed in settle (Ann -5.00 USD), not moved at the "
        "table (net and cash-out − buy-in differ by it)"]


def test_a_payout_corrected_after_the_next_hand_is_owed_between_the_players(user) -> None:  # noqa: ANN001
    """h1 corrected to pay Bob the 4 chips after h2 was dealt on Ann 102, Bob 98: the nets
    hold it all (h1 Ann -2, Bob +2; h2 Ann +1, Bob -1), so Ann pays Bob 1 chip, 0.25 USD,
    and nothing is owed to the bank."""
    _night(user, "Ann:100,Bob:100", H1, "Ann:102,Bob:98",
           ("d dh Bob ????", "d dh Ann ????", "Bob f", "pay Ann 3", "end"), ("h1", "h2"))
    assert user("correct", "h1", "--replace", "17", "pay Bob 4", "--reason", "Bob won",
                "--by", "Host")[0] == 0
    note = ("note: hand h1 corrected after hand h2 was dealt (seq 19, by Host: Bob won): "
            "Ann -4, Bob +4 chips owed in settle\n")
    assert user("settle", "--session", "n1") == (
        0, "Ann pays Bob 0.25 USD\n1 transfer(s) settle 2 player(s)\n", note)
    body = json.loads(user("settle", "--session", "n1", "--json")[1])
    assert body["transfers"] == [{"session": "n1", "from": "Ann", "from_name": "Ann",
                                  "to": "Bob", "to_name": "Bob", "amount": 25}]
    assert "bank" not in body and "unheld" not in body["corrected_late"][0]
    assert body["corrected_late"][0]["owed_minor"] == {"Ann": -100, "Bob": 100}


def test_a_start_and_a_payout_corrected_together_split_the_chips_owed(user) -> None:  # noqa: ANN001
    """h1 recorded Ann with 120 (bought 100) and paid her the 4 chips; h2 dealt on Ann 122,
    Bob 98. One correction puts Ann at 100 and pays Bob: Ann -24 owed, -4 of it in the nets
    (h1 Ann -2, Bob +2; h2 Ann +1, Bob -1: Ann pays Bob 1 chip, 0.25 USD) and -20 with the
    bank (5.00 USD)."""
    _night(user, "Ann:120,Bob:100", H1, "Ann:122,Bob:98",
           ("d dh Bob ????", "d dh Ann ????", "Bob f", "pay Ann 3", "end"), ("h1", "h2"))
    start = START_100.replace('"hand": "1"', '"hand": "h1"')
    assert user("correct", "h1", "--replace", "1", start, "--replace", "17", "pay Bob 4",
                "--reason", "Ann had 100, Bob won", "--by", "Host")[0] == 0
    code, out, err = user("settle", "--session", "n1")
    assert (code, out) == (0, (
        "Ann pays Bob 0.25 USD\n"
        "Ann pays the bank 5.00 USD: chips Ann had at the table beyond the books, in no "
        "player's net\n"
        "1 transfer(s) settle 2 player(s); 1 with the bank\n"))
    assert err.splitlines()[-1] == (
        "note: hand h1 corrected after hand h2 was dealt (seq 19, by Host: Ann had 100, Bob "
        "won): Ann -24 (-20 with the bank), Bob +4 chips owed in settle")
    body = json.loads(user("settle", "--session", "n1", "--json")[1])
    assert body["bank"] == [{"session": "n1", "player": "Ann", "player_name": "Ann",
                             "amount": 500}]
    assert body["corrected_late"][0]["unheld_minor"] == {"Ann": -500}
