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


#: A pair of aces each, checked down (2 each in the pot): the table paid nobody, so the floor
#: enters the chop as two ``--insert-after`` of seq 18 (Bob's reveal), 2 each: the pot of 4.
CHOP_PLAY = "\n".join(("d dh Ann AsAd", "d dh Bob AhAc", "Bob cc", "Ann cc", "d db 2c3d9h",
                       "Ann cc", "Bob cc", "d db 5h", "Ann cc", "Bob cc", "d db Kd", "Ann cc",
                       "Bob cc", "Ann sm AsAd", "Bob sm AhAc", "end")) + "\n"
CHOP = ("--insert-after", "18", "pay Ann 2", "--insert-after", "18", "pay Bob 2")
CHOP_BY = ("--reason", "chop", "--by", "host")
CHOP_MADE = ("already corrected so: the correction at seq 20 (by host) made insert_after seq "
             "18 recorded_payout Ann 2, insert_after seq 18 recorded_payout Bob 2")


def test_a_chop_of_two_inserts_after_one_seq_entered_again_names_it(tmp_path: Path) -> None:
    """Each of the two inserts alone, or both in the other order, is the chop seq 20 made:
    refused naming it (each insert told from the other by its event), nothing written."""
    db = tmp_path / "c.duckdb"
    assert handledger(db, "hand", "start", "--hand", "c1", "--game", "NT", "--stakes", "1/2",
                      "--seats", "Ann:100,Bob:100", "--button", "Bob")[0] == 0
    assert handledger(db, "table", "c1", input=CHOP_PLAY)[0] == 0
    assert handledger(db, "correct", "c1", *CHOP, *CHOP_BY) == (
        0, "corrected hand c1 (seq 20); change in net: none; by the rules: unchanged\n", "")
    before = db.read_bytes()
    for player in ("Bob", "Ann"):  # a part: either insert alone
        assert handledger(db, "correct", "c1", "--insert-after", "18", f"pay {player} 2",
                          *CHOP_BY) == (2, "", (
            "error: hand c1: already corrected so: the correction at seq 20 (by host) made "
            f"insert_after seq 18 recorded_payout {player} 2 (1 of its 2 changes: insert_after "
            "seq 18 recorded_payout Ann 2, insert_after seq 18 recorded_payout Bob 2); nothing "
            "written (`handledger history c1` lists it)\n"))
    reordered = ("--insert-after", "18", "pay Bob 2", "--insert-after", "18", "pay Ann 2")
    for changes in (reordered, CHOP):  # the whole, in the other order or the same
        assert handledger(db, "correct", "c1", *changes, *CHOP_BY) == (2, "", (
            f"error: hand c1: {CHOP_MADE}; nothing written (`handledger history c1` lists "
            "it)\n"))
    assert handledger(db, "whatif", "c1", *reordered) == (
        2, "", f"error: hand c1: {CHOP_MADE} (`handledger history c1` lists it)\n")
    assert db.read_bytes() == before
    # a payout it did not make is said as what it would do
    assert handledger(db, "whatif", "c1", "--insert-after", "18", "pay Bob 3") == (
        2, "", "error: hand c1: what-if insert_after 18 'pay Bob 3': the hand with these "
               "changes pays out 7: the pot holds 4\n")
