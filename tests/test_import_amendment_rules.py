"""A JSON-lines file's corrections are held to the rules `correct` holds a correction to,
signed or not, before anything of the file is written (README, JSON lines and "What is in
the ledger"; :mod:`replay.ingest.amendment_rules`), while a hand's own rows are stored as the
table played and paid them, with their finding.

Hand h1 of :func:`tests.test_import_signatures.hand`: Ann raises to 8, Bob folds, Ann is paid
10 (seq 8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ledger.formats.jsonl.lines import jsonl_line
from ledger.model.events import Change, Correction
from ledger.store.store import Ledger
from replay.ingest.pipeline import import_paths
from tests.test_import_signatures import REFUSED, hand, write
from tests.test_later_export import stream
from tests.test_live_table import one_shot as cli


def paid(player: str, seq: int = 10, of: int = 8) -> str:
    """Line ``seq`` of h1: a correction by floor replacing the payout at ``of`` with one of 10
    to ``player``."""
    event: Any = Correction(changes=[Change(op="replace", seq=of, event={
        "type": "recorded_payout", "player": player, "amount": 10})], positions=[of],
        by="floor", reason="misread")
    return jsonl_line("h1", seq, event) + "\n"


FOLDED = ("its correction at seq 10 (by floor: replace seq 8 recorded_payout Bob 10) breaks a "
          "rule `correct` holds a correction to: Bob folded: a folded player wins no pot and "
          "has no uncalled bet to be returned (RULES.md §1.3-1.5); nothing of the file was "
          "written")


def test_a_correction_paying_a_folded_player_is_refused_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    bad = write(tmp_path / "bad.jsonl", hand() + paid("Bob"))
    assert cli(db, "import", str(bad)) == (2, REFUSED, f"error: {bad}:10, hand h1: {FOLDED}\n")
    assert not db.exists()  # nothing written
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    code, out, err = cli(db, "import", str(bad))  # nor as amendments of the stored hand
    assert (code, err) == (2, f"error: {bad}:10, hand h1: {FOLDED}\n")
    assert stream(db, "h1").endswith("8,recorded_payout\n9,hand_ended\n")
    assert cli(db, "correct", "h1", "--replace", "8", "pay Bob 10", "--reason", "misread",
               "--by", "floor") == (
        2, "", "error: hand h1: correction replace 8 'pay Bob 10': Bob folded: a folded player "
        "wins no pot and has no uncalled bet to be returned (RULES.md §1.3-1.5)\n")


def test_a_plain_hand_paying_a_folded_player_is_stored_and_may_be_corrected(
        tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    table = hand().replace('"recorded_payout","player":"Ann"', '"recorded_payout","player":"Bob"')
    code, out, err = cli(db, "import", str(write(tmp_path / "t.jsonl", table + paid("Ann"))))
    assert (code, out) == (
        0, "imported 1 hand(s) (10 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert cli(db, "audit")[:2] == (  # the table paid Bob; the correction pays Ann
        0, "audit clean: 1 hand(s) in 0 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n")
    assert stream(db, "h1").endswith("9,hand_ended\n10,correction\n")
    db2 = tmp_path / "c.duckdb"  # a correction that leaves the table's fault as it was
    code, out, err = cli(db2, "import", str(write(tmp_path / "k.jsonl", table + jsonl_line(
        "h1", 10, Correction(changes=[Change(op="replace", seq=4, event={
            "type": "cards_dealt", "player": "Ann", "cards": ["As", "Kd"]})], positions=[4],
            by="floor", reason="typo")) + "\n")))
    assert (code, err) == (0, "")
    code, out, err = cli(db2, "audit")
    assert code == 1 and "h1" in out and "Bob" in out  # the table's payout, its finding


def test_an_undo_taking_the_correction_back_goes_in(tmp_path: Path) -> None:
    undo = jsonl_line("h1", 11, Correction(changes=[Change(op="delete", seq=10)], positions=[10],
                                           by="floor", reason="undo")) + "\n"
    table = hand().replace('"recorded_payout","player":"Ann"', '"recorded_payout","player":"Bob"')
    path = write(tmp_path / "u.jsonl", table + paid("Ann") + undo)
    code, out, err = cli(tmp_path / "b.duckdb", "import", str(path))
    assert (code, err) == (0, "")


def test_the_workers_leave_a_refused_correction_to_the_one_process(tmp_path: Path) -> None:
    path = write(tmp_path / "two.jsonl", hand("h0") + hand() + paid("Bob"))
    with Ledger(tmp_path / "p.duckdb") as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                              jobs=2)
        assert ledger.count() == 0
    assert report.errors == [f"{path}:19, hand h1: {FOLDED}"]


def _fix(seq: int, change: Change) -> str:
    """Line 10 of h1: a correction by floor making ``change`` to the row ``seq``."""
    return jsonl_line("h1", 10, Correction(changes=[change], positions=[seq], by="floor",
                                           reason="blinds")) + "\n"


_SEATS = ("the corrected hand's forced bets no longer fit its seats: with the button on "
          "{button}, the rules post {said} (RULES.md §4.2: the small blind sits immediately "
          "left of the button, the big blind next; §4.3 antes)")
_ROW = ("; correct the forced bets in the same correction, a change of each, or keep the "
        "seats, button and stacks they were posted from; nothing of the file was written")
_CLI = ("; nothing written (correct the forced bets in the same correction, `--replace SEQ "
        "JSON` of each, or keep the seats, button and stacks they were posted from)")


def test_a_correction_deleting_a_blind_or_moving_the_button_is_refused_as_correct_refuses(
        tmp_path: Path) -> None:
    """RULES.md §4.2, heads-up: the button (Ann) posts the small blind 1, Bob the big blind 2.
    A correction row deleting Ann's small blind (seq 3), or moving the button to Bob under
    the blinds as posted, leaves a hand no table posts: the file is refused in the words
    `correct` refuses the same change in, naming file and line; nothing written."""
    db = tmp_path / "b.duckdb"
    gone = _SEATS.format(button="Ann", said="Ann's small blind 1, which the corrected hand "
                                            "leaves out")
    bad = write(tmp_path / "del.jsonl", hand() + _fix(3, Change(op="delete", seq=3)))
    assert cli(db, "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:10, hand h1: its correction at seq 10 (by floor: delete seq "
                    f"3) breaks a rule `correct` holds a correction to: {gone}{_ROW}\n")
    assert not db.exists()  # nothing written
    moved = _SEATS.format(button="Bob", said="Ann's big blind 2, Bob's small blind 1, not "
                                             "Bob's big blind 2, Ann's small blind 1")
    start = json.loads(hand().splitlines()[0])["event"]
    bad = write(tmp_path / "button.jsonl", hand() + _fix(1, Change(
        op="replace", seq=1, event={**start, "button": "Bob"})))
    assert cli(db, "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:10, hand h1: its correction at seq 10 (by floor: replace seq "
                    f"1 hand_started h1) breaks a rule `correct` holds a correction to: "
                    f"{moved}{_ROW}\n")
    assert not db.exists()
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    assert cli(db, "correct", "h1", "--delete", "3", "--reason", "blinds", "--by", "floor") == (
        2, "", f"error: hand h1: correction delete 3 (forced_bet by Ann): {gone}{_CLI}\n")
    assert cli(db, "correct", "h1", "--replace", "1", json.dumps({**start, "button": "Bob"}),
               "--reason", "blinds", "--by", "floor") == (
        2, "", f"error: hand h1: correction replace 1 (hand_started): {moved}{_CLI}\n")
    assert stream(db, "h1").endswith("8,recorded_payout\n9,hand_ended\n")
