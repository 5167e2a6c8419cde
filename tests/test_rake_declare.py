"""A raked declare hand: its rules' result is the pots less the rake awarded by declaration
(docs/LIVE.md "A home game's rake"; RULES.md §3.5, §3.10). Worked by hand, played live: Ann, Bob
and Cy, 100 chips each, blinds 1/2, Cy on the button, simultaneous declarations; Cy calls, Ann
completes, Bob checks, and all check down a board of 4c 5h 9s Qc Kh: a pot of 2 + 2 + 2 = 6.
Ann (As Ks, a pair of kings) and Cy (7c 7d, sevens) declare high, Bob (2d 3d, 9-5-4-3-2)
low. The table takes 1: 5 is split, high 3 (the odd chip between the halves is the high
half's, §3.10) to Ann, low 2 to Bob. Rules' nets: Ann +1, Bob 0, Cy -2, together -1, the
rake."""

from __future__ import annotations

import json

START = ("hand", "start", "--hand", "D", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:100,Bob:100,Cy:100", "--button", "Cy",
         "--declare-options", "method=simultaneous")
CHECKS = ("Ann cc", "Bob cc", "Cy cc")
PLAY = ("d dh Ann AsKs", "d dh Bob 2d3d", "d dh Cy 7c7d", "Cy cc", "Ann cc", "Bob cc",
        "d db 4c5h9s", *CHECKS, "d db Qc", *CHECKS, "d db Kh", *CHECKS,
        "Ann dcl high", "Bob dcl low", "Cy dcl high",
        "Ann sm AsKs", "Bob sm 2d3d", "Cy sm 7c7d", "rake 1")


def _play(user, pays: tuple[str, ...], warned: tuple[str, ...] = ()) -> None:  # noqa: ANN001
    """The hand played and paid ``pays``; ``warned``: the end's warning lines (a payout the
    rules contradict), none by default."""
    assert user(*START)[0] == 0
    code, _, err = user("table", "D", input="\n".join((*PLAY, *pays, "end")) + "\n")
    assert (code, err.splitlines()) == (0, list(warned))


def _books(user) -> dict[str, tuple[int, int]]:  # noqa: ANN001
    books = json.loads(user("balances", "--json")[1])
    assert books["rake"][0]["chips"] == 1
    return {p["player"]: (p["net"], p["rules_net"]) for p in books["players"]}


def test_a_raked_declare_hand_paid_its_halves_less_the_rake_is_the_rake_alone(
        user) -> None:  # noqa: ANN001
    _play(user, ("pay Ann 3", "pay Bob 2"))
    # paid as the rules give: no audit finding; the replay's one rake finding is the rake
    assert user("audit", "--json")[:2] == (0, '{"discrepancies": []}\n')
    assert _books(user) == {"Ann": (1, 1), "Bob": (0, 0), "Cy": (-2, -2)}
    (hand,) = [json.loads(line) for line in user("replay", "--hand", "D", "--json")[1]
               .splitlines()]
    (found,) = hand["discrepancies"]
    assert (found["kind"], found["player"], found["recomputed"], found["recorded"]) == (
        "rake", None, 6, 5)
    assert hand["net"] == {"Ann": 1, "Bob": 0, "Cy": -2}
    assert "by the rules" not in user("replay", "--hand", "D")[1]


def test_a_raked_declare_hand_paid_3_to_low_names_both_players(user) -> None:  # noqa: ANN001
    """The 5 left paid the other way (Ann 2, Bob 3): the rake is the table's one finding,
    and each half paid other than the rules' split of 5 is a payout finding."""
    _play(user, ("pay Ann 2", "pay Bob 3"), (
        "warning: paid differently from the rules: hand D: Ann was paid 2, the rules give 3 (-1) "
        "(recorded as the table paid it; `handledger correct` puts it right)",
        "warning: paid differently from the rules: hand D: Bob was paid 3, the rules give 2 (+1) "
        "(recorded as the table paid it; `handledger correct` puts it right)"))
    found = json.loads(user("audit", "--json")[1])["discrepancies"]
    assert sorted((f["kind"], f["player"] or "", f["expected"], f["actual"]) for f in found) == [
        ("payout", "Ann", 3, 2), ("payout", "Bob", 2, 3), ("rake", "", 6, 5)]
    assert _books(user) == {"Ann": (0, 1), "Bob": (1, 0), "Cy": (-2, -2)}
    (rake,) = [f["message"] for f in found if f["kind"] == "rake"]
    assert rake.endswith("the rules' awards of the pots less it: Ann 3, Bob 2 (the payouts "
                         "differ from them)")
    (hand,) = [json.loads(line) for line in user("replay", "--hand", "D", "--json")[1]
               .splitlines()]
    assert hand["net"] == {"Ann": 1, "Bob": 0, "Cy": -2}
