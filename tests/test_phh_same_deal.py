"""A PHH hand without ``_hand_id`` is known by its content: a copy of a stored one under
another file name that deals the same players in the same seats the same hole cards is that
hand, already in the ledger when its events are the stored ones, and refused as the stored
hand changed otherwise (a change to a stored hand is a correction: README); a changed hole
card deals another hand.

Data: data/hands/plo-three-way.phh (Quin's trip queens win 1100 from Ona and Pia).
"""

from __future__ import annotations

from pathlib import Path

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
