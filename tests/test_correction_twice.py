"""The same correction entered twice (README "Correcting a hand"): the dispute of
data/dispute (Ann's aces win the 400 pot the dealer pushed to Bob, seq 23), corrected to
Bob 100 and Ann 300. Entered again, ``--insert-after 23 'pay Ann 300'`` would pay Ann a
second time: refused naming the correction in force that made it, not the pot, by
``correct`` and ``whatif`` alike, nothing written; so is that part of it alone."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import handledger

DISPUTE = Path(__file__).parents[1] / "data" / "dispute" / "wrong-push.phh"
SPLIT = ("--replace", "23", "pay Bob 100", "--insert-after", "23", "pay Ann 300")
BY = ("--reason", "dealer pushed the main pot to Bob", "--by", "floor")
MADE = ("already corrected so: the correction at seq 25 (by floor) made replace seq 23 "
        "recorded_payout Bob 100, insert_after seq 23 recorded_payout Ann 300")


def test_a_correction_entered_twice_names_the_one_that_made_it(tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    assert handledger(db, "import", str(DISPUTE))[0] == 0
    assert handledger(db, "correct", "dispute-1", *SPLIT, *BY) == (
        0, "corrected hand dispute-1 (seq 25); change in net: Ann +300, Bob -300; by the "
           "rules: unchanged\n", "")
    before = db.read_bytes()
    assert handledger(db, "correct", "dispute-1", *SPLIT, *BY) == (2, "", (
        f"error: hand dispute-1: {MADE}; nothing written (`handledger history dispute-1` "
        "lists it)\n"))
    assert handledger(db, "whatif", "dispute-1", *SPLIT) == (2, "", (
        f"error: hand dispute-1: {MADE} (`handledger history dispute-1` lists it)\n"))
    # entered in other words (the file's seat names, a JSON event): what seq 25 stored is
    # quoted, as `history` lists it, not the words typed now
    assert handledger(db, "correct", "dispute-1", "--replace", "23", "pay p2 100",
                      "--insert-after", "23", "pay p1 300", *BY) == (2, "", (
        f"error: hand dispute-1: {MADE}; nothing written (`handledger history dispute-1` "
        "lists it)\n"))
    assert handledger(db, "whatif", "dispute-1", "--replace", "23",
                      '{"type":"recorded_payout","player":"Bob","amount":100}',
                      "--insert-after", "23", "pay Ann 300") == (2, "", (
        f"error: hand dispute-1: {MADE} (`handledger history dispute-1` lists it)\n"))
    assert db.read_bytes() == before
    # a part of it given again (each change one seq 25 made) is refused naming it too
    part = ("already corrected so: the correction at seq 25 (by floor) made insert_after seq "
            "23 recorded_payout Ann 300 (1 of its 2 changes: replace seq 23 recorded_payout "
            "Bob 100, insert_after seq 23 recorded_payout Ann 300)")
    assert handledger(db, "correct", "dispute-1", "--insert-after", "23", "pay Ann 300",
                      *BY) == (2, "", (
        f"error: hand dispute-1: {part}; nothing written (`handledger history dispute-1` "
        "lists it)\n"))
    assert handledger(db, "whatif", "dispute-1", "--insert-after", "23", "pay Ann 300") == (
        2, "", f"error: hand dispute-1: {part} (`handledger history dispute-1` lists it)\n")
    assert handledger(db, "correct", "dispute-1", "--replace", "23", "pay Bob 100", *BY) == (
        2, "", "error: hand dispute-1: already corrected so: the correction at seq 25 (by "
               "floor) made replace seq 23 recorded_payout Bob 100 (1 of its 2 changes: "
               "replace seq 23 recorded_payout Bob 100, insert_after seq 23 recorded_payout "
               "Ann 300); nothing written (`handledger history dispute-1` lists it)\n")
    # a change it did not make is said as what it would do
    assert handledger(db, "whatif", "dispute-1", "--insert-after", "23", "pay Ann 200") == (
        2, "", "error: hand dispute-1: what-if insert_after 23 'pay Ann 200': the hand with "
               "these changes pays out 600: the pot holds 400\n")
    assert handledger(db, "correct", "dispute-1", "--insert-after", "23", "pay Ann 300",
                      "--insert-after", "23", "pay Ann 300", *BY) == (2, "", (
        "error: hand dispute-1: correction insert_after 23 'pay Ann 300', insert_after 23 "
        "'pay Ann 300': the corrected hand pays out 1000: the pot holds 400\n"))
    # once undone, the same correction goes in again
    assert handledger(db, "undo", "dispute-1", "--by", "floor")[0] == 0
    assert handledger(db, "correct", "dispute-1", *SPLIT, *BY) == (
        0, "corrected hand dispute-1 (seq 27); change in net: Ann +300, Bob -300; by the "
           "rules: unchanged\n", "")
