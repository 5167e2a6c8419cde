"""Chips carried into the session's next hand are recorded on both hands (RULES.md §3.8, §7.1)."""

from __future__ import annotations

import json

from tests.conftest import DATA, ROOT

CASE = ROOT / "tests" / "declare_cases" / "c13_no_winner_carry_over.phh"
NEXT = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [87, 87, 99]
players = ['P1', 'P2', 'P3']
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6', 'p2 f']
winnings = [35, 0, 0]
"""


def _events(run, hand: str) -> list[dict]:  # noqa: ANN001
    sql = f"SELECT payload FROM events WHERE hand_id = '{hand}' ORDER BY seq"
    rows = json.loads(run("sql", "--json", sql).output)
    return [r["payload"] for r in rows]  # a JSON column nested


def test_carried_pot_moves_into_the_next_hand_of_the_session(run, tmp_path) -> None:  # noqa: ANN001
    nxt = tmp_path / "next.phh"
    nxt.write_text(NEXT, encoding="utf-8")
    assert run("session", "open", "s1").exit_code == 0  # hands go only to an opened session
    assert run("import", "--session", "s1", str(CASE)).exit_code == 0
    first = json.loads(run("replay", "--json").output.splitlines()[0])
    assert first["carried"] == 27 and first["pots"][0]["awards"] == {}
    assert any("not yet claimed" in n for n in first["notes"])
    assert run("import", "--session", "s1", str(nxt)).exit_code == 0
    hands = [json.loads(line) for line in run("replay", "--json").output.splitlines()]
    one, two = hands
    assert one["carried"] == 27 and not any("not yet claimed" in n for n in one["notes"])
    # P1's raise to 6 is called by nobody: 4 come back; 2 + 2 in the pot, plus the 27 carried
    assert two["pots"][0]["amount"] == 2 + 2 + 27 and two["returned"] == {"P1": 4}
    assert two["net"] == {"P1": 2 + 27, "P2": -2, "P3": 0}
    assert two["discrepancies"] == []
    out = [e for e in _events(run, one["hand"]) if e["type"] == "carry_over"]
    come = [e for e in _events(run, two["hand"]) if e["type"] == "carry_over"]
    assert out == [{"type": "carry_over", "schema_version": 1, "amount": 27,
                    "direction": "out", "other_hand": two["hand"]}]
    assert come[0]["direction"] == "in" and come[0]["other_hand"] == one["hand"]
    assert sum(one["net"].values()) + sum(two["net"].values()) == 0
    assert run("verify").exit_code == 0


def test_bundled_declare_session_audits_clean(run) -> None:  # noqa: ANN001
    out = run("run", str(DATA / "declare"))
    assert out.exit_code == 0
    assert "audit clean: 10 hand(s) in 1 session(s)" in out.output
    lines = run("replay", "--json").output.splitlines()
    hands = {json.loads(x)["hand"]: json.loads(x) for x in lines}
    assert hands["declare-night-3"]["carried"] == 28
    assert hands["declare-night-4"]["pots"][0]["amount"] >= 28
    assert "Nobody is left to win by declaration: the 28 carry over to the next hand." in " ".join(
        hands["declare-night-3"]["pots"][0]["explanation"])
