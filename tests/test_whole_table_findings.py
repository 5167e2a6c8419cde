"""A finding that concerns no one player (an ``infeasible`` total of a showdown whose hole
cards are unknown, a ``carry`` the rules do not make) names no player in every output:
``null`` in ``replay --json`` and ``audit --json``, NULL in the ``discrepancies`` and
``audit_discrepancies`` tables."""

from __future__ import annotations

import json
from pathlib import Path

#: Heads-up 1/2, both hands unknown: p2 bets 100, p1 calls, 200 in the pot; the file records
#: a rake of 5 and pays p1 194: 200 less the rake is 195, so the table paid 1 chip short of
#: any legal split (the pots and returned chips come to 200).
HAND = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', "
        "'p2 cbr 100', 'p1 cc', 'd db 2c3d4h', 'd db 9s', 'd db Td']\nrake = 5\n"
        "winnings = [194, 0]\nhand = 'h1'\n")


def test_an_infeasible_total_names_no_player_anywhere(run, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "night.phh"
    path.write_text(HAND, encoding="utf-8")
    assert run("import", str(path)).exit_code == 0
    out = run("replay", "--json")
    assert out.exit_code == 1
    (hand,) = [json.loads(line) for line in out.output.splitlines()]
    message = ("hand night-h1: the table paid 194 in all but the pots and returned chips come "
               "to 200 (-6)")
    assert hand["discrepancies"] == [
        {"player": None, "name": None, "recorded": 194, "recomputed": 200, "diff": -6,
         "kind": "infeasible", "message": message}]
    rows = json.loads(run("sql", "--json", "SELECT player, kind, recorded, recomputed FROM "
                          "discrepancies").output)
    assert rows == [{"player": None, "kind": "infeasible", "recorded": 194, "recomputed": 200}]
    audit = json.loads(run("audit", "--json").output)
    assert [(d["kind"], d["player"], d["expected"], d["actual"])
            for d in audit["discrepancies"]] == [("payout", None, 200, 194)]


def test_a_carry_names_no_player() -> None:
    """Heads-up 1/2, Ann's aces against Bob's kings all in for 100 on 2c3d4h 9s Td: the rules
    give Ann the pot of 200 and carry nothing, but the table paid her 190 and recorded 10
    carried to the next hand: a ``carry`` finding of the whole table (player null) beside
    Ann's payout."""
    from ledger.formats.phh.read import read_phh_text
    from ledger.model.events import CarryOver
    from replay.build import events_from_phh
    from replay.fold import replay_events

    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nplayers = ['Ann', 'Bob']\nactions = ['d dh p1 AsAh', "
            "'d dh p2 KsKh', 'p2 cbr 100', 'p1 cc', 'd db 2c3d4h', 'd db 9s', 'd db Td']\n"
            "winnings = [190, 0]\n")
    (hand,) = read_phh_text(text).check()
    events = list(events_from_phh(hand))
    events.insert(len(events) - 1, CarryOver(amount=10, direction="out"))  # before its end
    replay = replay_events(events)
    name = events[0].hand
    assert replay.as_json()["discrepancies"] == [
        {"player": None, "recorded": 10, "recomputed": 0, "diff": 10, "kind": "carry",
         "message": f"hand {name}: 10 chip(s) were carried to the next hand, the rules carry 0"},
        {"player": "Ann", "recorded": 190, "recomputed": 200, "diff": -10, "kind": "payout",
         "message": f"hand {name}: Ann was paid 190, the rules give 200 (-10)"}]
