"""Once the betting is over the uncalled chips go back (RULES.md §1.4), before the board is
out: README "Pots while the betting goes on".

A 50 (AsAh), B 100 (KsKh), C 30 (7c2d), A on the button, B small blind 1, C big blind 2: A
shoves 50, B 100, C calls all in for 30. Nobody can bet any more: pot 0 is 30 x 3 = 90 (B, C,
A), pot 1 is 20 x 2 = 40 (B, A), and B's 50 above A's 50 is uncalled, returned to him, no pot
of his alone. While the betting went on (B to act after A's shove) the pots were as the table
names them. The cards are known, yet nothing is awarded before the showdown.
"""

from __future__ import annotations

from ledger.store.store import Ledger

START = ("hand", "start", "--hand", "p1", "--game", "NT", "--stakes", "1/2", "--seats",
         "A:50,B:100,C:30", "--button", "A")
DEAL = ["d dh B KsKh", "d dh C 7c2d", "d dh A AsAh"]


def _play(user, *actions: str) -> None:  # noqa: ANN001
    for action in actions:
        code, _, err = user("act", "p1", action)
        assert code == 0, err


def test_state_returns_the_uncalled_bet_once_the_betting_is_over(user, db: str) -> None:  # noqa: ANN001
    Ledger(db).close()
    assert user(*START)[0] == 0
    _play(user, *DEAL, "A cbr 50")
    assert user("state", "p1") == (0, (
        "hand p1: NT, phase bet, status open\n"
        "B to act: to call 49, raise to 98..100\n"
        "current bet 50\n"
        "pot 0: 53 (B, C, A)\n"
        "stacks: B 99 bet 1, C 28 bet 2, A 0 bet 50\n"
        "seats as pN: p1 B, p2 C, p3 A (p1 sits left of the button: PHH's order, not "
        "--seats')\n"), "")
    _play(user, "B cbr 100", "C cc")
    assert user("state", "p1") == (0, (
        "hand p1: NT, phase deal, status open\n"
        "phase deal, next: d db CARDS (3 cards)\n"
        "pot 0: 90 (B, C, A)\n"
        "pot 1: 40 (B, A)\n"
        "returned: B 50\n"
        "stacks: B 0, C 0, A 0\n"  # the round over: its bets are in the pots and returned
        "seats as pN: p1 B, p2 C, p3 A (p1 sits left of the button: PHH's order, not "
        "--seats')\n"), "")
    code, out, _ = user("show", "p1")
    assert code == 0 and out.splitlines()[-1].strip() == "uncalled returned: B 50"
    # the board dealt: still returned
    _play(user, "d db 2c3d4h", "d db 9s", "d db Td")
    assert "returned: B 50\n" in user("state", "p1")[1]
