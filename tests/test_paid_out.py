"""Chips the table has paid out are in the winners' stacks and out of the pot (RULES.md §1.2;
README, net and final stack): at every step of ``show``, ``view`` and ``state`` the stacks and
the pot add up to the chips on the table, whether or not payouts were typed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from replay.steps import hand_steps

U1 = ("hand", "start", "--hand", "u1", "--game", "NT", "--stakes", "1/2", "--seats",
      "Ann:100,Bob:100", "--button", "Ann")
U1_TABLE = "d dh Ann AsAh\nd dh Bob KsKh\nAnn cbr 10\nBob f\npay Ann 12\nend\n"
#: Ann all in for 30, Bob all in for 50, Cy calls: main pot 90 (Ann, Bob, Cy), side pot 40
#: (Bob, Cy); Ann's aces take the main pot, Bob's kings the side pot.
SIDE = ("hand", "start", "--hand", "s1", "--game", "NT", "--stakes", "1/2", "--seats",
        "Ann:30,Bob:50,Cy:100", "--button", "Cy")
SIDE_TABLE = ("d dh Ann AsAh\nd dh Bob KsKh\nd dh Cy QsQh\nCy cbr 30\nAnn cc\nBob cbr 50\n"
              "Cy cc\nd db 2c3d4h\nd db 9s\nd db Td\nAnn sm AsAh\nBob sm KsKh\n"
              "Cy sm QsQh\npay Ann 90\npay Bob 40\nend\n")


def _page_steps(run, hand: str, page: Path) -> list[dict]:  # noqa: ANN001
    assert run("view", hand, "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="hand-data">(.*?)</script>', html,
                      re.S)
    assert found is not None
    return json.loads(found.group(1))["versions"]["corrected"]["steps"]


def _rows(run, hand: str) -> list[tuple[str, int, int]]:  # noqa: ANN001
    """``show``'s event rows: (label, pot, sum of the stacks)."""
    out = run("show", hand)
    assert out.exit_code == 0
    rows = []
    for line in out.output.splitlines()[1:]:
        row = re.match(r"\s*(\S+) .* pot (\d+)(?: bet \d+)? \[(.*)\]", line)
        if row:
            stacks = sum(int(s.rpartition(":")[2]) for s in row.group(3).split())
            rows.append((row.group(1), int(row.group(2)), stacks))
    return rows


def test_u1_the_pay_takes_the_chips_out_of_the_pot(run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run(*U1).exit_code == 0
    assert run("table", "u1", input=U1_TABLE).exit_code == 0
    rows = _rows(run, "u1")
    # Bob's fold ends the betting: Ann's 8 nobody called is back in her stack (98), the pot
    # is the 4 of the blinds; her 12 paid is those 4 and the 8 (a table paying both at once)
    assert rows[-3:] == [("7", 4, 196), ("8", 0, 200), ("9", 0, 200)]
    assert all(pot + stacks == 200 for _, pot, stacks in rows)
    assert run("show", "u1").output.splitlines()[-4:] == [
        "  8 pay Ann 12                   pot 0 [Bob:98 Ann:102] no showdown",
        "  9 hand_ended                   pot 0 [Bob:98 Ann:102] no showdown",
        "    Main pot 4 (Ann): Ann takes 4; nobody else is eligible.",  # the rules' award
        "    uncalled returned: Ann 8"]
    steps = _page_steps(run, "u1", tmp_path / "u1.html")
    assert all(s["pot_total"] + sum(x["stack"] for x in s["seats"]) == 200 for s in steps)
    last = steps[-1]
    assert last["pot_total"] == 0 and last["paid"] == {"Ann": 12}
    assert [(x["player"], x["stack"], x["bet"]) for x in last["seats"]] == [
        ("Bob", 98, 0), ("Ann", 102, 0)]
    assert [(p["amount"], p["left"], p["awards"]) for p in last["pots"]] == [(4, 0, {"Ann": 4})]
    assert last["returned"] == {"Ann": 8}  # the rules' side, as before


def test_a_side_pot_hand_adds_up_at_every_step(run, tmp_path: Path) -> None:  # noqa: ANN001
    assert run(*SIDE).exit_code == 0
    assert run("table", "s1", input=SIDE_TABLE).exit_code == 0
    rows = _rows(run, "s1")
    assert [r for r in rows if r[0] in ("16", "17", "18", "19")] == [
        ("16", 130, 50), ("17", 40, 140), ("18", 0, 180), ("19", 0, 180)]
    assert all(pot + stacks == 180 for _, pot, stacks in rows)
    steps = _page_steps(run, "s1", tmp_path / "s1.html")
    assert all(s["pot_total"] + sum(x["stack"] for x in s["seats"]) == 180 for s in steps)
    after_ann = next(s for s in steps if s["seq"] == 17)
    assert [(p["amount"], p["left"]) for p in after_ann["pots"]] == [(90, 0), (40, 40)]
    assert [(x["player"], x["stack"]) for x in steps[-1]["seats"]] == [
        ("Ann", 90), ("Bob", 40), ("Cy", 50)]


def test_a_hand_ended_with_no_payout_shows_the_rules_award(run, tmp_path: Path) -> None:  # noqa: ANN001
    """The side-pot hand ended with no `pay` typed: its last step shows what the rules award
    (Ann's aces the main pot 90, Bob's kings the side pot 40), in the stacks and out of the
    pot, as the hand paid by the table shows it (Ann 90, Bob 40, Cy 50; pot 0), but said as
    the rules' award (``awarded``), not as paid (``paid`` stays empty); every step adds up
    to the 180 chips on the table."""
    assert run(*SIDE).exit_code == 0
    assert run("table", "s1", input=SIDE_TABLE.replace("pay Ann 90\npay Bob 40\n", "")
               ).exit_code == 0
    rows = _rows(run, "s1")
    assert rows[-2:] == [("16", 130, 50), ("17", 0, 180)]  # Cy's show, then the end
    assert all(pot + stacks == 180 for _, pot, stacks in rows)
    assert run("show", "s1").output.splitlines()[-5:] == [
        " 16 Cy sm QsQh                   pot 130 [Ann:0 Bob:0 Cy:50] showdown",
        " 17 hand_ended                   pot 0 [Ann:90 Bob:40 Cy:50] showdown",
        "    no payout recorded: stacks as the rules award (Ann 90, Bob 40)",
        "    Main pot 90 (Ann, Bob, Cy): Ann wins 90 with pair of aces, T-9-4 kickers.",
        "    Side pot 1 40 (Bob, Cy): Bob wins 40 with pair of kings, T-9-4 kickers."]
    steps = _page_steps(run, "s1", tmp_path / "s1.html")
    assert all(s["pot_total"] + sum(x["stack"] for x in s["seats"]) == 180 for s in steps)
    last = steps[-1]
    assert (last["pot_total"], last["paid"], last["awarded"]) == (0, {}, {"Ann": 90, "Bob": 40})
    assert [(x["player"], x["stack"], x["bet"]) for x in last["seats"]] == [
        ("Ann", 90, 0), ("Bob", 40, 0), ("Cy", 50, 0)]
    assert [(p["amount"], p["left"]) for p in last["pots"]] == [(90, 0), (40, 0)]
    assert all(not s["awarded"] for s in steps[:-1])  # the award is the end's alone


def test_a_hand_paid_by_the_rules_adds_up_too() -> None:
    """No payout typed (a PHH file without winnings): the end shows the rules' award to p2,
    the pot of 4 (2 each) and the 8 of the raise to 10 nobody called, in p2's stack (102) and
    out of the pot; still 200 chips at every step."""
    from ledger.formats.phh.read import read_phh_text
    from replay.build import events_from_phh

    (hand,) = read_phh_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', "
        "'p2 cbr 10', 'p1 f']\n").check()
    steps = hand_steps(events_from_phh(hand)).steps
    assert all(s.pot_total + sum(x.stack for x in s.seats) == 200 for s in steps)
    end = steps[-1]
    assert (end.type, end.pot_total, end.awarded, end.paid) == ("hand_ended", 0, {"p2": 12}, {})
    assert [x.stack for x in end.seats] == [98, 102]


def test_state_counts_the_paid_chips_in_the_stacks_not_the_pot(user) -> None:  # noqa: ANN001
    assert user(*SIDE)[0] == 0
    assert user("table", "s1", input=SIDE_TABLE.removesuffix("pay Bob 40\nend\n"))[0] == 0
    lines = user("state", "s1")[1].splitlines()
    assert lines[2:] == [
        "Main pot: 0 of 90, the rest paid out (Ann, Bob, Cy)", "Side pot 1: 40 (Bob, Cy)",
        "paid so far: Ann 90 (90 of the pot's 130)", "stacks: Ann 90, Bob 0, Cy 50",
        "seats as pN: p1 Ann, p2 Bob, p3 Cy (p1 sits left of the button: PHH's order, "
        "not --seats')"]
