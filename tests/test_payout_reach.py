"""A live payout is at most what its player can win: the pots he is eligible for plus his
uncalled bet returned (replay/payout_rules.py ``within_reach``, RULES.md §1.2-1.5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.store.store import Ledger
from tests.copies import copy_ledger

#: Dee (button) limps for 2, Cy (small blind) shoves 73, Bob (big blind) shoves 100, Dee
#: calls: the main pot is 3 x 73 = 219 (Cy, Bob, Dee), the side pot 2 x 27 = 54 (Bob, Dee);
#: nobody's cards are known (seqs 4-6), the board comes at seqs 11-13: 273 chips in all.
ALL_IN = ("d dh Cy ????", "d dh Bob ????", "d dh Dee ????", "Dee cc", "Cy cbr 73",
          "Bob cbr 100", "Dee cc")
BOARD = ("d db 2c3d4h", "d db 9s", "d db Td")


@pytest.fixture(scope="module")
def shoved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hand h7 played through ``ALL_IN`` (seq 10), built once for the module."""
    from cli.main import cli

    db = tmp_path_factory.mktemp("reach") / "t.duckdb"
    start = ("hand", "start", "--hand", "h7", "--game", "NT", "--stakes", "1/2", "--seats",
             "Cy:73,Bob:100,Dee:100", "--button", "Dee")
    for args in (start, *(("act", "h7", a) for a in ALL_IN)):
        out = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
        assert out.exit_code == 0, (args, out.output)
    return db


def _count(db: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return len(ledger.read("h7"))


def _refused(run, db: str, action: str) -> str:  # noqa: ANN001
    before = _count(db)
    out = run("act", "h7", action)
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert _count(db) == before
    return out.output.split("; now:")[0].rstrip("\n")


def test_an_all_in_player_is_paid_at_most_the_pots_he_is_eligible_for(run, db, shoved  # noqa: ANN001
                                                                       ) -> None:
    copy_ledger(shoved, Path(db))
    for action in BOARD:
        assert run("act", "h7", action).exit_code == 0
    assert _refused(run, db, "pay Cy 273") == (
        "error: hand h7, action 'pay Cy 273': Cy can win at most 219 (the pots Cy is eligible "
        "for: the main pot of 219; RULES.md §1.2-1.5): 273 would be paid to Cy")
    assert run("act", "h7", "pay Cy 200").exit_code == 0
    assert _refused(run, db, "pay Cy 20") == (  # the cap is on all that is paid to him
        "error: hand h7, action 'pay Cy 20': Cy can win at most 219 (the pots Cy is eligible "
        "for: the main pot of 219; RULES.md §1.2-1.5): 220 would be paid to Cy (200 already)")
    for action in ("pay Cy 19", "pay Bob 50"):
        assert run("act", "h7", action).exit_code == 0, action
    # the cards are unknown: what is missing is said, not who is due it
    assert _refused(run, db, "end") == (
        "error: hand h7, action 'end': cannot end with 269 of the pot's 273 chips paid: 4 "
        "would go to nobody; record the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an "
        "uncalled bet) first")
    for action in ("pay Bob 4", "end"):  # Cy the main pot, Bob the side pot
        assert run("act", "h7", action).exit_code == 0, action


def test_his_uncalled_bet_counts_toward_what_he_can_win(run, db) -> None:  # noqa: ANN001
    # Dee limps for 2 and folds to the shoves: the main pot is 73 + 73 + 2 = 148 (Cy, Bob);
    # Bob's 27 above Cy's 73 are uncalled and go back to him: he can be paid 148 + 27 = 175
    assert run("hand", "start", "--hand", "h7", "--game", "NT", "--stakes", "1/2", "--seats",
               "Cy:73,Bob:100,Dee:100", "--button", "Dee").exit_code == 0
    for action in (*ALL_IN[:-1], "Dee f", *BOARD):
        assert run("act", "h7", action).exit_code == 0, action
    assert _refused(run, db, "pay Cy 149") == (
        "error: hand h7, action 'pay Cy 149': Cy can win at most 148 (the pots Cy is eligible "
        "for: the main pot of 148; RULES.md §1.2-1.5): 149 would be paid to Cy")
    # Bob's bound is the whole of the middle: the main pot and his own 27 back
    for action in ("pay Bob 175", "end"):
        assert run("act", "h7", action).exit_code == 0, action


def test_run_twice_the_bound_is_the_whole_of_each_pot(run, db, shoved) -> None:  # noqa: ANN001
    # the board run twice (RULES.md §4.5): Cy may scoop both runs of the main pot, 219 in all
    copy_ledger(shoved, Path(db))
    for action in ("d db 2c3d4h", "d rc 2", "d db 9s", "d db Td", "d db 9h", "d db Tc",
                   "pay Cy 110", "pay Cy 109"):
        assert run("act", "h7", action).exit_code == 0, action
    assert _refused(run, db, "pay Cy 1") == (
        "error: hand h7, action 'pay Cy 1': Cy can win at most 219 (the pots Cy is eligible "
        "for: the main pot of 219; RULES.md §1.2-1.5): 220 would be paid to Cy (219 already)")
    for action in ("pay Dee 54", "end"):
        assert run("act", "h7", action).exit_code == 0, action


@pytest.mark.parametrize("action", ["pay Cy 0", "returned Bob 0", "pay Dee 000"])
def test_a_payout_of_no_chips_is_refused(run, db, shoved, action: str) -> None:  # noqa: ANN001
    # as `rake 0` is: a player the table pays nothing gets no payout line (an imported hand's
    # zero payouts, which mean nothing, are the file's)
    copy_ledger(shoved, Path(db))
    for step in BOARD:
        assert run("act", "h7", step).exit_code == 0
    assert _refused(run, db, action) == (
        f"error: hand h7, action '{action}': a payout is a number of chips above 0 (a player "
        "the table pays nothing gets no payout line)")


def test_a_declare_hand_bounds_each_player_over_every_pot(run, db) -> None:  # noqa: ANN001
    # the same all-ins as a high-low declaration game (RULES.md §5): Cy declares high, Bob
    # low, Dee high; Cy can still take at most the main pot, 219, whatever the halves
    assert run("hand", "start", "--hand", "h7", "--game", "NT", "--stakes", "1/2", "--seats",
               "Cy:73,Bob:100,Dee:100", "--button", "Dee", "--declare-options",
               "method=simultaneous").exit_code == 0
    for action in (*ALL_IN, *BOARD, "Cy dcl high", "Bob dcl low", "Dee dcl high"):
        assert run("act", "h7", action).exit_code == 0, action
    assert _refused(run, db, "pay Cy 220") == (
        "error: hand h7, action 'pay Cy 220': Cy can win at most 219 (the pots Cy is eligible "
        "for: the main pot of 219; RULES.md §1.2-1.5): 220 would be paid to Cy")
    for action in ("pay Cy 110", "pay Bob 163", "end"):  # Cy's high half, Bob the rest
        assert run("act", "h7", action).exit_code == 0, action
