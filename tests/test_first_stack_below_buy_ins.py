"""``hand start`` warns when a player's first stack of a session is not his buy-ins there:
above them, and below them too (a stack typed short, ``Bob:15`` for ``Bob:150``), which the
audit's stack continuity names once the hand is recorded (docs/LIVE.md "A new player's
buy-in and first stack")."""

from __future__ import annotations

SHORT = ("warning: Bob starts hand n1 with 15 but Bob's buy-ins in session s come to 100: a "
         "stack counted short?; the audit's stack continuity will name it\n")


def _open(user) -> None:  # noqa: ANN001
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100")):
        assert user(*args)[0] == 0, args


def test_a_first_stack_below_the_buy_ins_is_warned_of(user) -> None:  # noqa: ANN001
    _open(user)
    assert user("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:15", "--button", "Ann", "--session", "s", "--hand", "n1") == (
        0, "n1\n", SHORT)
    # the hand is started all the same, and the audit names the same 85 chips
    status, out, _ = user("audit", "--session", "s")
    assert status == 1
    assert out.splitlines()[1] == (
        "stack_continuity: hand n1: Bob starts with 15 but Bob's buy-ins come to 100: "
        "expected 100 (-85) [session s, hand n1, player Bob; expected 100, actual 15]")


def test_first_stacks_at_the_buy_ins_and_above(user) -> None:  # noqa: ANN001
    """At the buy-ins: no warning; above: the warning as before, naming no cause."""
    _open(user)
    assert user("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100", "--button", "Ann", "--session", "s", "--hand", "n1") == (
        0, "n1\n", "")
    assert user("void", "n1", "--reason", "misdeal", "--by", "host")[0] == 0
    assert user("hand", "start", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:150,Bob:100", "--button", "Ann", "--session", "s", "--hand", "n2") == (
        0, "n2\n", "warning: Ann starts hand n2 with 150 but Ann's buy-ins in session s come "
                   "to 100\n")
