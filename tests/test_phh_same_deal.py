"""A PHH hand without ``_hand_id`` is known by its content: a copy of a stored one under
another file name that deals the same players in the same seats the same hole cards is that
hand, already in the ledger when its events are the stored ones, and refused as the stored
hand changed otherwise (a change to a stored hand is a correction: README); a changed hole
card deals another hand.

Data: data/hands/plo-three-way.phh (Quin's trip queens win 1100 from Ona and Pia).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.test_live_table import events, one_shot

HAND = ROOT / "data" / "hands" / "plo-three-way.phh"
STORED = "phh-e90348620d79"


def _copy(tmp_path: Path, old: str, new: str, name: str) -> Path:
    text = HAND.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "d.duckdb"
    assert one_shot(db, "import", str(HAND))[0] == 0
    assert {e[2] for e in events(db)} == {STORED}
    return db


def test_an_edited_copy_is_refused_naming_the_stored_hand(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    before = events(db)
    copy = _copy(tmp_path, "winnings = [0, 0, 1100]", "winnings = [0, 0, 1000]", "w.phh")
    assert one_shot(db, "import", str(copy)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {copy}:1, hand phh-25519fe98490: this hand deals the players in their seats "
        f"the hole cards hand {STORED} of the ledger dealt them (a PHH hand without _hand_id is "
        "known by its content), and differs from it: the table paid otherwise: Quin 1000 here, "
        f"1100 in the ledger; a change to a stored hand is a correction (`handledger correct "
        f"{STORED} ...`), not another hand\n")
    assert events(db) == before


def test_a_copy_with_other_comments_and_keys_is_already_in_the_ledger(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    before = events(db)
    copy = _copy(tmp_path, "variant = 'PO'", "author = 'someone'\nvariant = 'PO'", "c.phh")
    code, out, err = one_shot(db, "import", str(copy))
    assert (code, out, err) == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in "
                                   "the ledger; 0 rejected\n", "")
    assert events(db) == before


def test_a_changed_hole_card_deals_another_hand(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    copy = _copy(tmp_path, "QcQdJhJc", "QcQdJhJs", "h.phh")
    code, out, err = one_shot(db, "import", str(copy))
    assert (code, err) == (0, "")
    assert out.startswith("imported 1 hand(s) (26 events) from 1 file(s); 0 already")
    assert len({e[2] for e in events(db)}) == 2


@pytest.mark.parametrize(("old", "new", "hand", "field"), [
    ("starting_stacks = [1000", "starting_stacks = [10009", "phh-8b1c0761d5f0",
     "seats[0].stack 10009 here, 1000"),
    ("min_bet = 10", "min_bet = 20", "phh-abcca3a085ff", "stakes.min_bet 20 here, 10"),
    ("winnings = [0, 0, 1100]", "winnings = [0, 0, 1100]\ncurrency = 'EUR'", "phh-750e720a9efd",
     'unit.currency "EUR" here, null'),
    ("winnings = [0, 0, 1100]", "winnings = [0, 0, 1100]\ncurrency = 'usd'", "phh-5a1d123fbb48",
     'unit.currency "USD" here, null'),
])
def test_a_copy_with_another_start_is_refused_naming_the_field(
        tmp_path: Path, old: str, new: str, hand: str, field: str) -> None:
    # its hand_started is compared whole (stakes, stacks, unit), as a copy with _hand_id is
    db = _ledger(tmp_path)
    before = events(db)
    copy = _copy(tmp_path, old, new, "s.phh")
    assert one_shot(db, "import", str(copy)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {copy}:1, hand {hand}: this hand deals the players in their seats "
        f"the hole cards hand {STORED} of the ledger dealt them (a PHH hand without _hand_id is "
        f"known by its content), and differs from it: its event 1, hand_started, has {field} in "
        f"the ledger; a change to a stored hand is a correction (`handledger correct "
        f"{STORED} ...`), not another hand\n")
    assert events(db) == before


def test_a_copy_whose_finishing_stacks_are_wrong_is_known_with_its_warning(
        tmp_path: Path) -> None:
    # the same events, stored as its winnings pay it: the hand the ledger holds; the finishing
    # stacks say Ona 1, Pia 2, Quin 3 where the actions and winnings leave 540, 0, 1640
    db = _ledger(tmp_path)
    before = events(db)
    copy = _copy(tmp_path, "winnings = [0, 0, 1100]",
                 "winnings = [0, 0, 1100]\nfinishing_stacks = [1, 2, 3]", "f.phh")
    assert one_shot(db, "import", str(copy)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected;"
           " 1 warning(s) about hands stored\n",
        f"warning: {copy}:1: hand {STORED}: its finishing_stacks [1, 2, 3] are not the stacks "
        "its actions and winnings leave, [540, 0, 1640] (Ona -539, Pia +2, Quin -1637): the "
        "winnings are what the table paid (FORMATS.md §1), so the finishing stacks are wrong, "
        "or the winnings are (stored as its winnings pay it)\n")
    assert events(db) == before


def _numbered(tmp_path: Path, name: str, old: str = "", new: str = "") -> Path:
    path = tmp_path / name
    path.write_text(HAND.read_text(encoding="utf-8").replace(old, new) + "hand = 7\n",
                    encoding="utf-8")
    return path


def test_a_numbered_hand_edited_under_another_file_name_is_refused(tmp_path: Path) -> None:
    # PHH's ``hand`` key makes the id from the file's name: b.phh's copy of a.phh's hand 7 is
    # hand b-7, known by its deal as a-7 still
    db = tmp_path / "d.duckdb"
    assert one_shot(db, "import", str(_numbered(tmp_path, "a.phh")))[0] == 0
    before = events(db)
    assert {e[2] for e in before} == {"a-7"}
    copy = _numbered(tmp_path, "b.phh", "winnings = [0, 0, 1100]", "winnings = [0, 0, 1000]")
    assert one_shot(db, "import", str(copy)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {copy}:1, hand b-7: this hand deals the players in their seats the hole cards "
        "hand a-7 of the ledger dealt them (a PHH hand without _hand_id is known by its "
        "content), and differs from it: the table paid otherwise: Quin 1000 here, 1100 in the "
        "ledger; a change to a stored hand is a correction (`handledger correct a-7 ...`), not "
        "another hand\n")
    same = _numbered(tmp_path, "c.phh", "variant = 'PO'", "author = 'x'\nvariant = 'PO'")
    assert one_shot(db, "import", str(same)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n",
        "")
    assert events(db) == before
