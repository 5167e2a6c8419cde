"""Payouts come out of the pots, never out of another player's uncalled bet, in a hand with
no rake as in a raked one (replay/payout_rules.py ``rake_within_the_pots`` with a rake of 0,
RULES.md §1.2-1.4): live (``act``) and by correction (``payout_faults``' ``pots`` rule).

Worked by hand: 1/2, button Ann (100 chips), Bob (7) posts 1, Cy (6) posts 2. Ann raises to
15, Bob calls all in for 7, Cy for 6. Put in: Ann 15, Bob 7, Cy 6 = 28. Pot 0: 6 x 3 = 18
(Ann, Bob, Cy); pot 1: 1 x 2 = 2 (Ann, Bob); Ann's uncalled 8 (15 - 7) is returned. The pots
hold 20. Bob can win 20, Cy 18: paying Bob 20 and Cy 8 keeps each within his reach and the
28 within the chips in the pot, but takes Ann's 8 for the pots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.copies import build_ledger, copy_ledger

#: seqs 4-12: the hole cards, the betting above, the board; phase showdown.
ALL_IN = ("d dh Bob KsKh", "d dh Cy QsQh", "d dh Ann AsAh", "Ann cbr 15", "Bob cc", "Cy cc",
          "d db 2c3d4h", "d db 9s", "d db Td")
HINT = "(a player's uncalled bet is paid back with `returned PLAYER AMOUNT`)"
ASIDE = "(Ann's uncalled bet of 8 is returned to Ann, it is in no pot; RULES.md §1.2-1.4)"
REASON = ("--reason", "x", "--by", "host")


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hand u1 played to its showdown (seq 12), no rake, built once for the module."""
    db = tmp_path_factory.mktemp("uncalled") / "t.duckdb"
    start = ("hand", "start", "--hand", "u1", "--game", "NT", "--stakes", "1/2", "--seats",
             "Ann:100,Bob:7,Cy:6", "--button", "Ann")
    return build_ledger(db, [start, *(("act", "u1", a) for a in ALL_IN)])


def _count(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return len(ledger.read("u1"))


def _refused(run, db: str, *args: str) -> str:  # noqa: ANN001
    """``args`` refused: exit 2, one line, nothing written to hand u1."""
    before = _count(db)
    out = run(*args)
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert "Traceback" not in out.output and _count(db) == before
    return out.output


def _play(run, *actions: str) -> None:  # noqa: ANN001
    for action in actions:
        assert run("act", "u1", action).exit_code == 0, action


def _nets(run) -> dict[str, int]:  # noqa: ANN001
    return {p["player"]: p["net"] for p in json.loads(run("balances", "--json").output)["players"]}


def test_a_payout_may_not_take_an_uncalled_bet_for_the_pots(run, db, shown) -> None:  # noqa: ANN001
    copy_ledger(shown, Path(db))
    _play(run, "pay Bob 20")
    for action in ("pay Cy 8", "pay Cy 1"):
        assert _refused(run, db, "act", "u1", action) == (
            f"error: hand u1, action '{action}': the pots hold 20 {ASIDE}, 20 of them paid: "
            f"nothing more can be paid out of them {HINT}; now: phase showdown, next: "
            "returned Ann 8 (the uncalled bet, in no pot: RULES.md §1.4), then end\n")
    # Ann's own 8 back is no chip of the pots; then the hand ends with all 28 paid
    _play(run, "returned Ann 8", "end")
    assert _nets(run) == {"Bob": 13, "Ann": -7, "Cy": -6}


def test_the_bound_counts_what_was_paid_before(run, db, shown) -> None:  # noqa: ANN001
    copy_ledger(shown, Path(db))
    _play(run, "pay Cy 8")  # a chop the table agreed: Cy 8 of the pots, Bob the other 12
    assert (f"action 'pay Bob 20': the pots hold 20 {ASIDE}, 8 of them paid: at most 12 more "
            f"can be paid out of them {HINT}" in _refused(run, db, "act", "u1", "pay Bob 20"))
    # Ann's own uncalled bet, paid to her with `pay`, is hers: it takes nothing of the pots
    _play(run, "pay Bob 12", "pay Ann 8", "end")
    assert _nets(run) == {"Bob": 5, "Ann": -7, "Cy": 2}


def test_a_correction_may_not_pay_an_uncalled_bet_to_another(run, db, shown) -> None:  # noqa: ANN001
    copy_ledger(shown, Path(db))
    _play(run, "pay Bob 20", "returned Ann 8", "end")  # seqs 13, 14, 15
    assert _refused(run, db, "correct", "u1", "--replace", "14", "pay Cy 8", *REASON) == (
        f"error: hand u1: correction replace 14 'pay Cy 8': the pots hold 20 {ASIDE}: 28 "
        f"would be paid out of them, at most 20 can be {HINT}\n")
    # the pots split otherwise, Ann's 8 still hers: a legal correction
    assert run("correct", "u1", "--replace", "13", "pay Bob 12", "--insert-after", "13",
               "pay Cy 8", *REASON).exit_code == 0
    assert _nets(run) == {"Bob": 5, "Ann": -7, "Cy": 2}
