"""What a hand may pay, live and by correction (replay/live.py ``over_the_pot``,
replay/corrected_hand.py ``same_hand``), and the what-if's session result in the books' net."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ledger.store.store import Ledger
from tests.copies import copy_ledger

SHOVE = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 100", "Bob cc", "d db 2c3d4h", "d db 9s",
         "d db Td")  # seqs 4-10: a 200-chip pot; Ann's aces win it


@pytest.fixture(scope="module")
def shoved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Session s, Ann and Bob bought in for 100, hand o1 played through ``SHOVE`` (seq 10),
    built once for the module."""
    from cli.main import cli

    db = tmp_path_factory.mktemp("shoved") / "t.duckdb"
    hand = ("hand", "start", "--hand", "o1", "--session", "s", "--game", "NT", "--stakes",
            "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100"),
                 ("buyin", "s", "Bob", "100"), hand, *(("act", "o1", a) for a in SHOVE)):
        out = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
        assert out.exit_code == 0, (args, out.output)
    return db


def _hand(run, shoved: Path, db: str, *paid: str) -> None:  # noqa: ANN001
    """The test's ledger ``db``: a copy of ``shoved`` (Ann and Bob all-in preflop in session
    s, hand o1); ``paid`` then ``end`` (seq 11 on)."""
    copy_ledger(shoved, Path(db))
    for action in paid:
        assert run("act", "o1", action).exit_code == 0, action


def _count(db: str, hand: str) -> int:
    with Ledger(db, read_only=True) as ledger:
        return len(ledger.read(hand))


def _refused(run, db: str, hand: str, *args: str) -> str:  # noqa: ANN001
    before = _count(db, hand)
    out = run(*args)
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert "Traceback" not in out.output
    assert _count(db, hand) == before
    return out.output


def _balances(run) -> dict[str, int]:  # noqa: ANN001
    return {r["player"]: r["net"] for r in json.loads(run("balances", "--json").output)["players"]}


def test_act_refuses_a_payout_above_the_pot(run, db, shoved) -> None:  # noqa: ANN001
    _hand(run, shoved, db, "pay Ann 200")
    for action in ("pay Ann 5000", "pay Bob 5000", "pay Bob 1"):
        out = _refused(run, db, "o1", "act", "o1", action)
        assert f"action '{action}': the pot holds 200, 200 already paid: nothing more can " \
            "be paid; now:" in out
    assert run("act", "o1", "end").exit_code == 0
    assert _balances(run) == {"Ann": 100, "Bob": -100}


def test_act_takes_payouts_that_add_up_to_the_pot(run, db, shoved) -> None:  # noqa: ANN001
    _hand(run, shoved, db, "pay Ann 150")
    out = _refused(run, db, "o1", "act", "o1", "pay Bob 51")
    assert "the pot holds 200, 150 already paid: at most 50 more can be paid; now:" in out
    assert run("act", "o1", "pay Bob 50").exit_code == 0
    assert run("act", "o1", "end").exit_code == 0
    assert _balances(run) == {"Ann": 50, "Bob": -50}


def test_a_correction_may_not_remove_or_replace_the_end(run, db, shoved) -> None:  # noqa: ANN001
    _hand(run, shoved, db, "pay Ann 200", "end")  # 11 payout, 12 hand_ended
    for change in (("--replace", "12", "pay Ann 40"), ("--delete", "12")):
        out = _refused(run, db, "o1", "correct", "o1", *change, "--reason", "x", "--by", "y")
        assert out == (f"error: hand o1: correction {change[0][2:]} 12 (hand_ended)"
                       + (f" {change[2]!r}" if len(change) > 2 else "")
                       + ": the corrected hand would be open, not complete: a "
                       "correction may not remove or replace the hand's end (insert what is "
                       "missing before it: correct --insert-after SEQ ACTION; or void the hand)\n")
    out = _refused(run, db, "o1", "correct", "o1", "--insert-after", "12", "pay Bob 0",
                   "--reason", "x", "--by", "y")  # nothing comes after the end
    assert out == ("error: hand o1: insert_after 12: seq 12 is the hand's end; nothing comes "
                   "after it: insert what is missing before it (--insert-after an earlier "
                   "SEQ)\n")
    out = _refused(run, db, "o1", "undo", "o1", "--by", "y")  # the last write is the end
    assert out == ("error: hand o1: cannot undo seq 12 (hand_ended): it ends the hand, and an "
                   "ended hand is not opened again; change what it paid with `handledger "
                   "correct` (--insert-after SEQ before the end, --replace SEQ) or void it\n")
    out = _refused(run, db, "o1", "correct", "o1", "--replace", "11", "pay Ann 400",
                   "--reason", "x", "--by", "y")
    assert out == ("error: hand o1: correction replace 11 (recorded_payout by Ann) 'pay Ann "
                   "400': the corrected hand pays out 400: the pot holds 200\n")
    assert run("state", "o1").exit_code == 0
    # a void still takes the end away (its own correction), and the hand counts for nothing
    assert run("void", "o1", "--reason", "misdeal", "--by", "host").exit_code == 0
    assert _balances(run) == {"Ann": 0, "Bob": 0}


def test_whatif_session_result_moves_as_balances_do(run, db, shoved) -> None:  # noqa: ANN001
    _hand(run, shoved, db, "pay Bob 200", "end")  # the table paid the pot to the wrong player
    assert _balances(run) == {"Ann": -100, "Bob": 100}
    out = run("whatif", "o1", "--replace", "11", "pay Ann 200")
    assert out.exit_code == 0
    assert "session s results: Bob -200, Ann +200" in out.output
    data = json.loads(run("whatif", "o1", "--replace", "11", "pay Ann 200", "--json").output)
    assert data["paid_diff"] == {"Ann": 200, "Bob": -200}
    assert data["session"]["before"] == {"Ann": -100, "Bob": 100}
    assert data["session"]["after"] == {"Ann": 100, "Bob": -100}
    assert data["session"]["diff"] == {"Ann": 200, "Bob": -200}
    assert run("correct", "o1", "--replace", "11", "pay Ann 200", "--reason", "Ann's aces",
               "--by", "floor").exit_code == 0
    assert _balances(run) == {"Ann": 100, "Bob": -100}


def test_one_event_replaced_or_deleted_twice_in_a_correction_is_refused(run, db, shoved) -> None:  # noqa: ANN001
    _hand(run, shoved, db, "pay Ann 200", "end")  # 11 payout, 12 hand_ended
    out = _refused(run, db, "o1", "correct", "o1", "--replace", "11", "pay Ann 100",
                   "--replace", "11", "pay Bob 100", "--reason", "x", "--by", "y")
    assert out == ("error: hand o1: seq 11 is given twice (--replace and --replace): replace "
                   "or delete an event once\n")
    out = _refused(run, db, "o1", "whatif", "o1", "--delete", "11", "--replace", "11",
                   "pay Bob 200")
    assert out == ("error: hand o1: seq 11 is given twice (--replace and --delete): replace "
                   "or delete an event once\n")
    # a replacement and events inserted after the same seq are one change each
    done = run("correct", "o1", "--replace", "11", "pay Ann 100", "--insert-after", "11",
               "pay Bob 100", "--reason", "split", "--by", "y")
    assert done.exit_code == 0, done.output
    assert _balances(run) == {"Ann": 0, "Bob": 0}


def test_act_refuses_a_payout_to_a_player_who_folded(run, db) -> None:  # noqa: ANN001
    # Ann on the button raises to 10, Bob (small blind) calls, Cy folds his big blind of 2:
    # a pot of 10 + 10 + 2 = 22 that Ann's aces win; Cy's 2 are dead money (RULES.md §1.3)
    assert run("hand", "start", "--hand", "f1", "--game", "NT", "--stakes", "1/2", "--seats",
               "Ann:100,Bob:100,Cy:100", "--button", "Ann").exit_code == 0
    for action in ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d", "Ann cbr 10", "Bob cc",
                   "Cy f", "d db 2c3d4h", "Bob cc", "Ann cc", "d db 9s", "Bob cc", "Ann cc",
                   "d db Td", "Bob cc", "Ann cc", "Bob sm KsKh", "Ann sm AsAh"):
        assert run("act", "f1", action).exit_code == 0, action
    for action in ("pay Cy 22", "returned Cy 2"):
        out = _refused(run, db, "f1", "act", "f1", action)
        assert out.startswith(f"error: hand f1, action '{action}': Cy folded: a folded player "
                              "wins no pot and has no uncalled bet to be returned (RULES.md "
                              "§1.3-1.5); now: phase showdown")
    assert run("act", "f1", "pay Ann 22").exit_code == 0
    assert run("act", "f1", "end").exit_code == 0
    assert _balances(run) == {"Ann": 12, "Bob": -10, "Cy": -2}
    assert run("audit").exit_code == 0
