"""A JSON-lines export of a hand whose correction was undone, imported into a ledger built
from the hand's PHH export, is already in it (docs/IMPORTING.md: PHH holds the hand as its
corrections made it, without their history; the face-up flags PHH does not write are no
difference): nothing appended, the hand's payouts as the PHH copy holds them. A copy whose
corrections make another hand is refused in one line naming the chips as they make them,
not a payout row in another shape."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SHARED
from tests.test_live_table import events, one_shot

VK = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
HAND = "pn-valakuzhyk_07_21_2022_log1-21-165843907408700"
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
PHH_IN = "imported 1 hand(s) (27 events) from 1 file(s); 0 already in the ledger; 0 rejected\n"
#: Hznmh#9009 (1RhUayZFQU) was paid 330 and 2320 (two rows); the dispute gives the 330 to
#: Aab Ovwsi (gKyQzJRs7T). PHH pays one amount a player: 2650.
CORRECT = ("correct", HAND, "--replace", "26", "pay Aab Ovwsi 330", "--reason", "dispute",
           "--by", "Keeper")


def _source(tmp_path: Path) -> Path:
    db = tmp_path / "a.duckdb"
    assert one_shot(db, "import", str(VK))[0] == 0
    return db


def _export(db: Path, fmt: str, to: Path) -> Path:
    assert one_shot(db, "export", "--format", fmt, HAND, "-o", str(to)) == (0, f"wrote {to}\n", "")
    return to


def _payouts(db: Path) -> list[tuple[object, ...]]:
    return [(e[4], e[6]) for e in events(db) if e[5] == "recorded_payout"]


def test_an_undone_correction_is_already_in_the_phh_ledger(tmp_path: Path) -> None:
    a = _source(tmp_path)
    assert one_shot(a, *CORRECT)[0] == 0
    assert one_shot(a, "undo", HAND, "--by", "Keeper")[0] == 0
    phh, jsonl = _export(a, "phh", tmp_path / "h.phh"), _export(a, "jsonl", tmp_path / "h.jsonl")
    assert '"face_up":[false,false]' in jsonl.read_text()
    b = tmp_path / "b.duckdb"
    assert one_shot(b, "import", str(phh)) == (0, PHH_IN, "")
    before = events(b)
    assert _payouts(b) == [(26, '{"amount":2650,"player":"1RhUayZFQU","pot":null,'
                                '"returned":false,"run":null,"schema_version":1,'
                                '"type":"recorded_payout"}')]  # 330 + 2320
    assert '"face_up":[]' in before[3][6]
    assert one_shot(b, "import", str(jsonl)) == (0, KNOWN, "")
    assert events(b) == before  # nothing appended: the corrections name a's rows
    assert one_shot(b, "import", str(jsonl)) == (0, KNOWN, "")


def test_an_uncorrected_hand_is_already_in_the_phh_ledger(tmp_path: Path) -> None:
    a = _source(tmp_path)
    phh, jsonl = _export(a, "phh", tmp_path / "h.phh"), _export(a, "jsonl", tmp_path / "h.jsonl")
    b = tmp_path / "b.duckdb"
    assert one_shot(b, "import", str(phh)) == (0, PHH_IN, "")
    assert one_shot(b, "import", str(jsonl)) == (0, KNOWN, "")


def test_a_correction_after_the_phh_export_names_the_chips_it_makes(tmp_path: Path) -> None:
    a = _source(tmp_path)
    phh = _export(a, "phh", tmp_path / "h.phh")  # before the correction
    assert one_shot(a, *CORRECT)[0] == 0
    jsonl = _export(a, "jsonl", tmp_path / "h.jsonl")
    b = tmp_path / "b.duckdb"
    assert one_shot(b, "import", str(phh)) == (0, PHH_IN, "")
    before = events(b)
    code, out, err = one_shot(b, "import", str(jsonl))
    assert (code, out) == (2, REJECTED)
    assert err == (
        f"error: {jsonl}:26, hand {HAND}: the ledger's copy of this hand does not hold the "
        "file's amendments and they cannot be appended: as its corrections make it, the table "
        "paid otherwise: gKyQzJRs7T 330 here, 0 in the ledger, 1RhUayZFQU 2320 here, 2650 in "
        f"the ledger; nothing of this hand was written (amend it here: `handledger correct "
        f"{HAND} ...`, `void`, `undo`)\n")
    assert events(b) == before
