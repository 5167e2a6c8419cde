"""A rake recorded at the table (``rake AMOUNT``) stays counted when the payouts beside it are
wrong too (docs/LIVE.md, "A home game's rake"): the hand's one ``rake`` finding names it, the books
count it and ``settle`` owes it to the house, and each payout is checked against the rules'
awards of the pots less the rake (replay/rake.py: ``less_rake``, ``recorded_rake``).

Worked by hand: Ann (200, button) and Bob (150), blinds 1/2; Ann raises to 10, Bob calls, then
both check down a board of 4h5h6h 7s 8d: the board's 8-high straight plays, a pot of 20 tied.
The table rakes 2, which leaves 18: the rules give Ann 9 and Bob 9. The host pays Bob all 18:
Bob +9 over, Ann -9 short; nets as paid Bob +8, Ann -10, together -2, the rake."""

from __future__ import annotations

import json
from pathlib import Path

from ledger.store.store import Ledger
from tests.copies import build_ledger

TIED = ("d dh Ann AsKs", "d dh Bob 2c3d", "Ann cbr 10", "Bob cc", "d db 4h5h6h", "Bob cc",
        "Ann cc", "d db 7s", "Bob cc", "Ann cc", "d db 8d", "Bob cc", "Ann cc", "Ann sm AsKs",
        "Bob sm 2c3d", "rake 2")
START = ("hand", "start", "--hand", "r1", "--session", "s", "--game", "NT", "--stakes", "1/2",
         "--seats", "Ann:200,Bob:150", "--button", "Ann")
RAKE = ("hand r1: the table kept 2 as rake (as recorded at the table); the rules' awards of "
        "the pots less it: Bob 9, Ann 9 (the payouts differ from them)")


def _build(db: str, start: tuple[str, ...], actions: tuple[str, ...]) -> None:
    build_ledger(Path(db), [("session", "open", "s"), ("buyin", "s", "Ann", "200"),
                            ("buyin", "s", "Bob", "150"), start,
                            *(("act", "r1", a) for a in actions)])


def test_a_tie_raked_and_paid_to_one_keeps_its_rake(run, db: str) -> None:  # noqa: ANN001
    from replay.rake_taken import rake_taken

    _build(db, START, (*TIED, "pay Bob 18", "end"))
    (r,) = [json.loads(line) for line in run("replay", "--hand", "r1", "--json").output
            .splitlines()]
    assert sorted((d["kind"], d["player"], d["recorded"], d["recomputed"])
                  for d in r["discrepancies"]) == [
        ("payout", "Ann", 0, 9), ("payout", "Bob", 18, 9), ("rake", None, 18, 20)]
    out = run("audit")
    assert out.exit_code == 1
    assert out.output.splitlines() == [
        "payout: hand r1: Bob was paid 18, the rules give 9 (+9) [session s, hand r1, player "
        "Bob; expected 9, actual 18]",
        "payout: hand r1: Ann was paid 0, the rules give 9 (-9) [session s, hand r1, player "
        "Ann; expected 9, actual 0]",
        f"rake: {RAKE} [session s, hand r1; expected 20, actual 18]",
        "audit: 3 discrepancies (payout 2, rake 1); 1 hand(s) in 1 session(s) checked"]
    body = json.loads(run("balances", "--json").output)
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": -10, "Bob": 8}
    assert body["rake"] == [{"session": "s", "chips": 2, "hands": 1,
                             "chip_value_minor": 1, "decimals": 0, "currency": None}]
    assert "rake: 2 chips taken from the pots in session s (1 hand)" in run("balances").output
    out = run("settle", "--session", "s")  # the house is owed the 2 the table kept
    assert (out.exit_code, out.output.splitlines()[:3]) == (0, [
        "Ann pays Bob 8 chips", "Ann pays the house 2 chips",
        "2 transfer(s) settle 2 player(s) and the house"])
    with Ledger(db, read_only=True) as ledger:
        assert rake_taken(ledger, "s") == 2


def test_a_pot_raked_and_paid_to_the_loser_keeps_its_rake(run, db: str) -> None:  # noqa: ANN001
    """The same betting on a board of Jd Qd 9c 7h 4s: Ann's ace-king high (A K Q J 9) beats
    Bob's board (Q J 9 7 4), she wins the pot of 20, 18 once the table rakes 2; the host pays
    Bob the 18. The rake is Ann's pot's alone: one finding of the table (``*``: the players it
    took from and those paid wrong, paid 18 of the 20 the rules give them before it), her
    payout 18 short, Bob's 18 over; the books count 2 (20 - 18, less -18 + 18)."""
    board = ("d db JdQd9c", "Bob cc", "Ann cc", "d db 7h", "Bob cc", "Ann cc", "d db 4s")
    actions = (*TIED[:4], *board, *TIED[11:])
    _build(db, START, (*actions, "pay Bob 18", "end"))
    (r,) = [json.loads(line) for line in run("replay", "--hand", "r1", "--json").output
            .splitlines()]
    assert sorted((d["kind"], d["player"], d["recorded"], d["recomputed"])
                  for d in r["discrepancies"]) == [
        ("payout", "Ann", 0, 18), ("payout", "Bob", 18, 0), ("rake", None, 18, 20)]
    body = json.loads(run("balances", "--json").output)
    assert {p["player"]: p["net"] for p in body["players"]} == {"Ann": -10, "Bob": 8}
    assert [(k["chips"], k["hands"]) for k in body["rake"]] == [(2, 1)]
    out = run("settle", "--session", "s")
    assert (out.exit_code, out.output.splitlines()[:2]) == (0, [
        "Ann pays Bob 8 chips", "Ann pays the house 2 chips"])


def test_the_rake_comes_out_of_the_main_pot(run, db: str) -> None:  # noqa: ANN001
    """Ann (50), Bob (100), Cy (100, button) all in preflop: a main pot of 150 (Ann, Bob, Cy)
    and a side pot of 100 (Bob, Cy). Ann's aces win the main pot, Bob's kings the side pot
    over Cy's 7-2. The table rakes 5, from the main pot: the rules give Ann 145, Bob 100. The
    host pays Bob 245: Ann 145 short, Bob 145 over; the rake is Ann's pot's, one finding of the
    table: 245 paid to Ann and Bob of the 250 the rules give them before it.
    Nets as paid: Ann -50, Bob +145, Cy -100, together -5."""
    start = ("hand", "start", "--hand", "r1", "--session", "s", "--game", "NT", "--stakes",
             "1/2", "--seats", "Ann:50,Bob:100,Cy:100", "--button", "Cy")
    actions = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d", "Cy cbr 100", "Ann cc",
               "Bob cc", "d db 2c3d9h", "d db Js", "d db 4c", "Ann sm AsAh", "Bob sm KsKh",
               "Cy sm 7c2d", "rake 5", "pay Bob 245", "end")
    build_ledger(Path(db), [("session", "open", "s"), *(("buyin", "s", p, c) for p, c in (
        ("Ann", "50"), ("Bob", "100"), ("Cy", "100"))), start,
        *(("act", "r1", a) for a in actions)])
    (r,) = [json.loads(line) for line in run("replay", "--hand", "r1", "--json").output
            .splitlines()]
    assert sorted((d["kind"], d["player"], d["recorded"], d["recomputed"])
                  for d in r["discrepancies"]) == [
        ("payout", "Ann", 0, 145), ("payout", "Bob", 245, 100), ("rake", None, 245, 250)]
    body = json.loads(run("balances", "--json").output)
    assert {p["player"]: p["net"] for p in body["players"]} == {
        "Ann": -50, "Bob": 145, "Cy": -100}
    assert [(k["chips"], k["hands"]) for k in body["rake"]] == [(5, 1)]
