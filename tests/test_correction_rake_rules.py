"""A correction that takes away (or adds) a hand's rake moves the rules' result: a raked
hand's result by the rules is the pots less the rake (docs/LIVE.md, "A home game's rake"), so
``whatif`` and ``correct`` say what moved by the rules as ``balances`` then shows it."""

from __future__ import annotations

import json

#: Bob's 9c8c and Cy's 9d8d split a pot of 6 on KsQhJd Tc 4h (Ann, button, 2h3s loses):
#: ``rake 1`` is seq 25, ``pay Bob 3`` seq 26, ``pay Cy 2`` seq 27 (the 5 less the rake, the
#: odd chip to Bob).
RAKED = ("d dh Bob 9c8c", "d dh Cy 9d8d", "d dh Ann 2h3s", "Ann cc", "Bob cc", "Cy cc",
         "d db KsQhJd", "Bob cc", "Cy cc", "Ann cc", "d db Tc", "Bob cc", "Cy cc", "Ann cc",
         "d db 4h", "Bob cc", "Cy cc", "Ann cc", "Bob sm 9c8c", "Cy sm 9d8d", "Ann sm",
         "rake 1", "pay Bob 3", "pay Cy 2", "end")
NO_RAKE = ("--delete", "25", "--replace", "27", "pay Cy 3")


def _rules(run) -> dict[str, int]:  # noqa: ANN001
    players = json.loads(run("balances", "--json").output)["players"]
    return {p["player"]: p["rules_net"] for p in players}


def test_taking_away_the_rake_moves_the_rules_result(run) -> None:  # noqa: ANN001
    assert run("session", "open", "r", "--chip-value", "1", "--currency", "USD").exit_code == 0
    for player in ("Ann", "Bob", "Cy"):
        assert run("buyin", "r", player, "100").exit_code == 0
    assert run("hand", "start", "--session", "r", "--hand", "h", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Ann").exit_code == 0
    for action in RAKED:
        assert run("act", "h", action).exit_code == 0, action
    assert _rules(run) == {"Ann": -2, "Bob": 1, "Cy": 0}
    out = run("whatif", "h", *NO_RAKE)
    assert out.exit_code == 0, out.output
    assert "  Cy                +0      +1      +1           +0          +1         +1\n" \
        in out.output
    assert "  Bob               +1      +1      +0           +1          +1         +0\n" \
        in out.output
    diff = json.loads(run("whatif", "h", *NO_RAKE, "--json").output)["diff"]
    assert diff == {"Ann": 0, "Bob": 0, "Cy": 1}
    out = run("correct", "h", *NO_RAKE, "--reason", "no rake", "--by", "host")
    assert out.output == "corrected hand h (seq 29); change in net: Cy +1; by the rules: Cy +1\n"
    assert _rules(run) == {"Ann": -2, "Bob": 1, "Cy": 1}
    # the rake put back: the rules' result of the split less it again
    out = run("correct", "h", "--insert-after", "24", "rake 1", "--replace", "27", "pay Cy 2",
              "--reason", "rake after all", "--by", "host")
    assert out.output == "corrected hand h (seq 30); change in net: Cy -1; by the rules: Cy -1\n"
    assert _rules(run) == {"Ann": -2, "Bob": 1, "Cy": 0}


def test_a_refusal_names_the_event_a_change_replaces(run) -> None:  # noqa: ANN001
    """Seq 22 is Bob's showdown (``Bob sm 9c8c``): put a payout of 200 in its place and the
    hand pays out 206 of a pot of 6; the refusal names the change and what it replaced."""
    assert run("hand", "start", "--hand", "h", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100,Cy:100", "--button", "Ann").exit_code == 0
    for action in RAKED:
        assert run("act", "h", action).exit_code == 0, action
    for command, extra in (("whatif", ()), ("correct", ("--reason", "x", "--by", "host"))):
        out = run(command, "h", "--replace", "22", "pay Ann 200", *extra)
        said = ("correction replace 22 (reveal by Bob) 'pay Ann 200': the corrected hand"
                if extra else "what-if replace 22 (reveal by Bob) 'pay Ann 200': the hand with "
                "these changes")
        assert (out.exit_code, out.output) == (2, (
            f"error: hand h: {said} pays out 206 (a rake of 1 with it): the pot holds 6\n"))


#: Hand h2 on h's stacks (Ann 98, Bob 101, Cy 100): Bob folds, Cy's aces beat Ann's 2c3d
#: for a pot of 4 checked down.
LATER = ("d dh Cy AsAh", "d dh Ann 2c3d", "d dh Bob 7h8h", "Bob f", "Cy cc", "Ann cc",
         "d db 2h5d9s", "Cy cc", "Ann cc", "d db Kc", "Cy cc", "Ann cc", "d db Qd", "Cy cc",
         "Ann cc", "Cy sm AsAh", "Ann sm 2c3d", "pay Cy 4", "end")


def test_a_later_hand_follows_once_its_start_is_corrected_as_the_warning_says(run  # noqa: ANN001
                                                                                ) -> None:
    """h's rake taken away leaves Cy 101, not the 100 h2 started him with: h2 was dealt on h
    as it stood, so it stands as played and the chip is owed in settle; a host who finds Cy
    had the 101 at the table after all corrects h2's start to it (``hand_started`` with Cy
    101), which the books then follow, nothing owed, h2's nets as they were."""
    assert run("session", "open", "r").exit_code == 0
    for player in ("Ann", "Bob", "Cy"):
        assert run("buyin", "r", player, "100").exit_code == 0
    for hand, seats, button, actions in (("h", "Ann:100,Bob:100,Cy:100", "Ann", RAKED),
                                         ("h2", "Ann:98,Bob:101,Cy:100", "Bob", LATER)):
        assert run("hand", "start", "--session", "r", "--hand", hand, "--game", "NT",
                   "--stakes", "1/2", "--seats", seats, "--button", button).exit_code == 0
        for action in actions:
            assert run("act", hand, action).exit_code == 0, action
    out = run("correct", "h", *NO_RAKE, "--reason", "no rake", "--by", "host")
    assert out.output.splitlines()[1:] == [
        "  warning: hand h2 started Cy with 100, on hand h as it stood (it left Cy 100); now it "
        "leaves Cy 101: Cy +1 chips in settle, and hand h2 stands as played (the chips at the "
        "table are facts)"]
    audit = run("audit")
    assert audit.exit_code == 0
    assert audit.output.startswith("note: hand h corrected after hand h2 was dealt (seq 29, by "
                                   "host: no rake): Cy +1 chips owed in settle\n")
    event = json.loads(run("export", "h2").output.splitlines()[0])["event"]
    for seat in event["seats"]:
        seat["stack"] += seat["player"] == "Cy"
    out = run("correct", "h2", "--replace", "1", json.dumps(event), "--reason", "Cy had 101",
              "--by", "host")
    assert out.output == ("corrected hand h2 (seq 23); start: seat Cy's stack 100 → 101; "
                          "change in net: none; by the rules: "
                          "unchanged\n")
    audit = run("audit")
    assert audit.exit_code == 0 and "owed" not in audit.output
    assert _rules(run) == {"Ann": -4, "Bob": 1, "Cy": 3}
