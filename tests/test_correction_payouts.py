"""A correction of a hand is held to the payout rules of a live ``act`` and ``end``
(replay/correction_build.py ``payouts_as_at_the_table``, replay/payout_rules.py): no payout to a
player who folded, none beyond what he can win, no complete hand paid short; what a hand
had already (an imported hand a site paid less its rake) is kept."""

from __future__ import annotations

import json

from ledger.store.store import Ledger
from tests.conftest import SHARED

#: Ann (button) raises to 10, Bob (small blind) calls, Cy folds his big blind of 2: a pot of
#: 22 that Ann's aces win (seqs 4-20); ``pay Ann 22`` is seq 21, ``end`` seq 22.
FOLDED = ("d dh Ann AsAh", "d dh Bob KsKh", "d dh Cy 7c2d", "Ann cbr 10", "Bob cc", "Cy f",
          "d db 2c3d4h", "Bob cc", "Ann cc", "d db 9s", "Bob cc", "Ann cc", "d db Td",
          "Bob cc", "Ann cc", "Bob sm KsKh", "Ann sm AsAh", "pay Ann 22", "end")
#: Bob (150) calls Dee's all-in of 300, Ann folds first: a main pot of 300 that Bob's
#: ace-king wins and Dee's uncalled 150 (seqs 4-15); ``pay Bob 300`` seq 16, ``returned Dee
#: 150`` seq 17, ``end`` seq 18.
UNCALLED = ("d dh Bob AsKs", "d dh Dee QhQd", "d dh Ann 7c2d", "Ann f", "Bob cc",
            "Dee cbr 300", "Bob cc", "d db 2c7h9s", "d db Kd", "d db 3c", "Bob sm AsKs",
            "Dee sm QhQd", "pay Bob 300", "returned Dee 150", "end")
REASON = ("--reason", "x", "--by", "host")


def _play(run, hand: str, seats: str, actions: tuple[str, ...]) -> None:  # noqa: ANN001
    assert run("hand", "start", "--hand", hand, "--game", "NT", "--stakes", "1/2", "--seats",
               seats, "--button", "Ann").exit_code == 0
    for action in actions:
        assert run("act", hand, action).exit_code == 0, action


def _refused(run, db: str, hand: str, *args: str) -> str:  # noqa: ANN001
    with Ledger(db, read_only=True) as ledger:
        before = len(ledger.read(hand))
    out = run(*args)
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    with Ledger(db, read_only=True) as ledger:
        assert len(ledger.read(hand)) == before
    return out.output


def _nets(run) -> dict[str, int]:  # noqa: ANN001
    return {p["player"]: p["net"] for p in json.loads(run("balances", "--json").output)["players"]}


def test_a_correction_may_not_pay_a_player_who_folded(run, db) -> None:  # noqa: ANN001
    _play(run, "f1", "Ann:100,Bob:100,Cy:100", FOLDED)
    for command in ("correct", "whatif"):
        extra = REASON if command == "correct" else ()
        out = _refused(run, db, "f1", command, "f1", "--replace", "21", "pay Cy 22", *extra)
        said = "correction" if command == "correct" else "what-if"
        assert out == (f"error: hand f1: {said} replace 21 'pay Cy 22': Cy folded: a folded "
                       "player wins no pot and has no uncalled bet to be returned (RULES.md "
                       "§1.3-1.5)\n")
    # Ann's payout split with Cy, the pot still paid in full: Cy's part is the refusal
    out = _refused(run, db, "f1", "correct", "f1", "--replace", "21", "pay Ann 4",
                   "--insert-after", "21", "pay Cy 18", *REASON)
    assert "correction replace 21 'pay Ann 4', insert_after 21 'pay Cy 18': Cy folded" in out
    assert _nets(run) == {"Ann": 12, "Bob": -10, "Cy": -2}
    assert run("audit").exit_code == 0


def test_a_correction_may_not_leave_a_complete_hand_paid_short(run, db) -> None:  # noqa: ANN001
    _play(run, "b", "Ann:200,Bob:150,Dee:300", UNCALLED)
    out = _refused(run, db, "b", "correct", "b", "--delete", "17", *REASON)
    assert out == ("error: hand b: correction delete 17: cannot end: 300 of the 450 chips to "
                   "pay are paid (the pot's 300, and Dee's uncalled bet of 150 to return, RULES.md "
                   "§1.4): 150 would go to nobody (by the rules: returned Dee 150); record "
                   "the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) "
                   "first\n")
    out = _refused(run, db, "b", "correct", "b", "--replace", "17", "returned Dee 100", *REASON)
    assert ("correction replace 17 'returned Dee 100': cannot end: 400 of the 450 chips to "
            "pay are paid (the pot's 300, and Dee's uncalled bet of 150 to return, RULES.md "
            "§1.4): 50 would go to nobody (by the rules: returned Dee 50)") in out
    # Bob's 50 more than the main pot he can win, the pot paid in full
    out = _refused(run, db, "b", "correct", "b", "--replace", "17", "returned Dee 100",
                   "--insert-after", "17", "pay Bob 50", *REASON)
    assert out == ("error: hand b: correction replace 17 'returned Dee 100', insert_after 17 "
                   "'pay Bob 50': Bob can win at most 300 (the pots Bob is eligible for: the "
                   "main pot of 300; RULES.md §1.2-1.5): 350 would be paid to Bob\n")
    assert _nets(run) == {"Bob": 150, "Ann": 0, "Dee": -150}
    # the main pot to Dee, who is eligible for it, is a legal payout (the audit names it)
    assert run("correct", "b", "--replace", "16", "pay Dee 300", *REASON).exit_code == 0
    assert _nets(run) == {"Dee": 150, "Ann": 0, "Bob": -150}


def test_an_imported_hand_keeps_the_rake_its_site_took(run, db) -> None:  # noqa: ANN001
    """PokerStars hand 42875758685 (cents): Player2 is paid 4.70 (seq 22) and his uncalled
    0.10 (seq 21) of a 5.00 pot; the site kept 0.20 as rake, held as a live rake is. A
    correction that keeps the payouts whole goes in; one that leaves 0.10 to nobody is
    refused, naming the 0.20 raked and the 5.00 to pay as the pot's 4.90 and the uncalled
    0.10 apart (4.70 + 0.20 + 0.10 = 5.00; amounts in dollars, as the correction's actions
    write them)."""
    name = "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"
    assert run("import", str(SHARED / "text" / name)).exit_code == 0
    hand = "PokerStars-42875758685"
    out = _refused(run, db, hand, "correct", hand, "--delete", "21", *REASON)
    assert out == (f"error: hand {hand}: correction delete 21: cannot end: 4.70 of the "
                   "5.00 to pay are paid and 0.20 raked (the pot's 4.90, and Player2's uncalled "
                   "bet of 0.10 to return, RULES.md §1.4): 0.10 would go to nobody (an uncalled "
                   "bet is returned, never raked: returned Player2 0.10); record the rest "
                   "(pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) first\n")
    out = _refused(run, db, hand, "correct", hand, "--replace", "21", "pay Player1 0.10",
                   *REASON)
    assert out.startswith(f"error: hand {hand}: correction replace 21 'pay Player1 0.10': "
                          "Player1 folded")
    done = run("correct", hand, "--replace", "22", "pay Hero 4.70", *REASON)
    assert done.exit_code == 0, done.output
    assert _nets(run) == {"Hero": 230, "Player1": -10, "Player2": -240}


def test_a_correction_cannot_take_away_every_payout_of_a_raked_file(run, db, tmp_path  # noqa: ANN001
                                                                    ) -> None:
    """tests/test_import_rake.py's all-in hand paid 492 of its 502 pot with ``rake = 10``:
    deleting the payout (seq 11) would make it a hand of no recorded payouts, the rules' 502
    to Ann and the file's rake counted nowhere; it is refused as a live ``end`` without
    payouts is (the file's 10 raked, 492 to nobody); nothing written, the rake still
    counted."""
    from tests.test_import_rake import ALL_IN

    path = tmp_path / "r1.phh"
    path.write_text(ALL_IN + "winnings = [492, 0]\nrake = 10\n")
    assert run("import", str(path)).exit_code == 0
    for command in ("correct", "whatif"):
        extra = REASON if command == "correct" else ()
        out = _refused(run, db, "r1", command, "r1", "--delete", "11", *extra)
        said = "correction" if command == "correct" else "what-if"
        assert out == (f"error: hand r1: {said} delete 11: cannot end with 0 of the pot's "
                       "502 chips paid and 10 raked: 492 would go to nobody; "
                       "record the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an "
                       "uncalled bet) first\n")
    assert _nets(run) == {"Ann": 241, "Bob": -251}
    assert json.loads(run("balances", "--json").output)["rake"] == [
        {"session": None, "chips": 10, "hands": 1,
         "chip_value_minor": 1, "decimals": 0, "currency": None}]


def test_a_files_rake_is_held_to_the_pot_as_a_live_one(run, db, tmp_path  # noqa: ANN001
                                                       ) -> None:
    """The same hand paid 492 with ``rake = 10``: paying Ann the whole 502 beside the file's
    rake pays out 512 of the 502 pot, refused as for a ``recorded_rake``; 497 leaves 5 to
    nobody beside the rake; nothing written, the rake still counted. Ann 482 and Bob 10
    (he did not fold) is a legal split of the 492 and goes in."""
    from tests.test_import_rake import ALL_IN

    path = tmp_path / "r1.phh"
    path.write_text(ALL_IN + "winnings = [492, 0]\nrake = 10\n")
    assert run("import", str(path)).exit_code == 0
    out = _refused(run, db, "r1", "correct", "r1", "--replace", "11", "pay Ann 502", *REASON)
    assert out == ("error: hand r1: correction replace 11 (recorded_payout by Ann) 'pay Ann "
                   "502': the corrected hand pays out 512 (a rake of 10 with it): the pot "
                   "holds 502\n")
    out = _refused(run, db, "r1", "correct", "r1", "--replace", "11", "pay Ann 487", *REASON)
    assert out == ("error: hand r1: correction replace 11 'pay Ann 487': cannot end with 487 "
                   "of the pot's 502 chips paid and 10 raked: 5 would go to nobody; record the "
                   "rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT for an uncalled bet) "
                   "first\n")
    assert json.loads(run("balances", "--json").output)["rake"] == [
        {"session": None, "chips": 10, "hands": 1,
         "chip_value_minor": 1, "decimals": 0, "currency": None}]
    done = run("correct", "r1", "--replace", "11", "pay Ann 482", "--insert-after", "11",
               "pay Bob 10", *REASON)
    assert done.exit_code == 0, done.output
    assert _nets(run) == {"Ann": 231, "Bob": -241}


def test_a_correction_may_not_put_in_a_payout_of_no_chips(run, db) -> None:  # noqa: ANN001
    """``pay Cy 0`` after seq 21: Cy folded, and a payout of 0 is no payout; live ``pay``
    refuses it, and so does a correction (it was stored: the folded rule weighs chips paid),
    to a player who folded or not, inserted or replacing a payout."""
    _play(run, "f1", "Ann:100,Bob:100,Cy:100", FOLDED)
    zero = ("a payout is a number of chips above 0 (a player the table pays nothing gets no "
            "payout line); a payout recorded wrongly is taken back with --delete SEQ")
    for change in (("--insert-after", "21", "pay Cy 0"), ("--insert-after", "21", "pay Ann 0"),
                   ("--replace", "21", "pay Ann 0")):
        out = _refused(run, db, "f1", "correct", "f1", *change, "--closed", *REASON)
        op = change[0].removeprefix("--").replace("-", "_")
        assert out == f"error: hand f1: {op} 21 '{change[2]}': {zero}\n", change
    assert _nets(run) == {"Ann": 12, "Bob": -10, "Cy": -2}
