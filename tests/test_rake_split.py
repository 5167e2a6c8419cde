"""A rake comes out of the pot before it is split (docs/LIVE.md "A home game's rake"; RULES.md §2.1
-2.2 then split what is left): the rules' result of a raked split pot is the split of the pot
less the rake, so the table that pays it is no player's fault. Worked by hand, played live:
Ann and Dee, 50 chips each, antes 1, blinds 1/2, Dee on the button; Dee limps, Ann checks, and
both check to a royal flush on the board: a tie for the pot of 1 + 1 + 2 + 2 = 6. The table
takes 1: 5 is split, 3 to Ann (the odd chip: first left of the button, §2.2) and 2 to Dee.
Nets: Ann 0, Dee -1, together -1, the rake."""

from __future__ import annotations

import json

START = ("hand", "start", "--hand", "r", "--game", "NT", "--stakes", "1/2", "--antes", "1",
         "--seats", "Ann:50,Dee:50", "--button", "Dee")
PLAY = ("d dh Ann 2c3d", "d dh Dee 2h3h", "Dee cc", "Ann cc", "d db AsKsQs", "Ann cc", "Dee cc",
        "d db Js", "Ann cc", "Dee cc", "d db Ts", "Ann cc", "Dee cc", "Ann sm 2c3d",
        "Dee sm 2h3h", "rake 1")


def _play(user, pays: tuple[str, ...], warned: tuple[str, ...] = ()) -> None:  # noqa: ANN001
    """The hand played and paid ``pays``; ``warned``: the end's warning lines (a payout the
    rules contradict), none by default."""
    assert user(*START)[0] == 0
    code, _, err = user("table", "r", input="\n".join((*PLAY, *pays, "end")) + "\n")
    assert (code, err.splitlines()) == (0, list(warned))


def test_a_raked_tie_paid_3_and_2_blames_nobody(user) -> None:  # noqa: ANN001
    _play(user, ("pay Ann 3", "pay Dee 2"))
    # paid as the rules give: no audit finding, and the replay's one rake finding (what the
    # books count as rake) is the table's, counted once: no player's
    assert user("audit", "--json")[:2] == (0, '{"discrepancies": []}\n')
    (hand,) = [json.loads(line) for line in user("replay", "--hand", "r", "--json")[1]
               .splitlines()]
    (found,) = hand["discrepancies"]
    assert (found["kind"], found["player"], found["recomputed"], found["recorded"]) == (
        "rake", None, 6, 5)
    books = json.loads(user("balances", "--json")[1])
    assert {p["player"]: (p["net"], p["rules_net"]) for p in books["players"]} == {
        "Ann": (0, 0), "Dee": (-1, -1)}
    assert books["rake"][0]["chips"] == 1
    (hand,) = [json.loads(line) for line in user("replay", "--hand", "r", "--json")[1]
               .splitlines()]
    assert hand["net"] == {"Ann": 0, "Dee": -1}
    assert "by the rules" not in user("replay", "--hand", "r")[1]


def test_a_raked_tie_paid_the_odd_chip_wrong_names_the_player(user) -> None:  # noqa: ANN001
    """The 5 left split the other way (Ann 2, Dee 3): the rake is still the table's one
    finding, and each player paid other than the rules' split of 5 is a payout finding."""
    _play(user, ("pay Ann 2", "pay Dee 3"), (
        "warning: paid differently from the rules: hand r: Ann was paid 2, the rules give 3 (-1) "
        "(recorded as the table paid it; `handledger correct` puts it right)",
        "warning: paid differently from the rules: hand r: Dee was paid 3, the rules give 2 (+1) "
        "(recorded as the table paid it; `handledger correct` puts it right)"))
    found = json.loads(user("audit", "--json")[1])["discrepancies"]
    assert sorted((f["kind"], f["player"] or "", f["expected"], f["actual"]) for f in found) == [
        ("payout", "Ann", 3, 2), ("payout", "Dee", 2, 3), ("rake", "", 6, 5)]
    books = json.loads(user("balances", "--json")[1])
    assert {p["player"]: (p["net"], p["rules_net"]) for p in books["players"]} == {
        "Ann": (-1, 0), "Dee": (0, -1)}
