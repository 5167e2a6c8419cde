"""``entry retract`` of part of what a player bought (one of two buy-ins, a rebuy) is held to
the bound ``entry amend`` holds a buy-in lowered to: a retraction is an amendment to 0 chips,
refused when the first hand after the buy-in that seats its player would start him with chips
nobody bought (RULES.md §1.1; replay/sessions/seated_chips.py). The same code refuses a
JSON-lines file's ``entry_corrected`` retraction row, and the ``undo`` of a void that would
count the hand again after such a retraction. Before, each went in and only the audit's stack
continuity named it.

``night``: session r (plain chips); Ann buys in 100 (entry 2) and 50 (entry 3), Bob 150
(entry 4); hand x1 seats Ann 150, Bob 150: Ann's aces beat Bob's kings all in, Ann is paid
300.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_books_refusals import refused, rows, run
from tests.test_import_workers_same_books import cli

BY = ("--reason", "typo", "--by", "host")
ALL_IN = ("d dh Ann AsAh", "d dh Bob KsKh", "Ann cbr 150", "Bob cc", "d db 2c3d4h", "d db 9s",
          "d db Td", "pay Ann 300", "end")
HINT = ("(RULES.md §1.1); nothing written (a hand seated with the wrong stack is corrected or "
        "voided first; `handledger history --session r` lists the entries)")


def _night(db: Path, ann: str = "150") -> Path:
    assert run(db, "session", "open", "r", "--date", "2026-11-27").exit_code == 0
    for args in (("Ann", "100"), ("Ann", "50"), ("Bob", "150")):
        assert run(db, "buyin", "r", *args).exit_code == 0
    assert run(db, "hand", "start", "--hand", "x1", "--session", "r", "--game", "NT",
               "--stakes", "1/2", "--button", "Ann", "--seats", f"Ann:{ann},Bob:150"
               ).exit_code == 0
    for action in ALL_IN:
        said = action.replace("150", ann).replace("300", str(2 * int(ann)))
        assert run(db, "act", "x1", said).exit_code == 0, said
    return db


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module: copy it to change it."""
    return _night(tmp_path_factory.mktemp("night") / "t.duckdb")


def _retract(db: Path, seq: int) -> tuple[int, str]:
    result = run(db, "entry", "retract", "r", str(seq), *BY)
    return result.exit_code, (result.stdout if result.exit_code == 0 else refused(result))


def test_a_buy_in_of_two_retracted_under_the_hand_is_refused(night: Path,
                                                             tmp_path: Path) -> None:
    """Retracting Ann's 50 leaves her 100 of the 150 x1 seats her with; retracting her 100
    leaves 50: each refused in one line, the ledger unchanged and the audit clean."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    before = rows(db)
    assert _retract(db, 3) == (2, (
        "error: entry retract r 3 (buy-in of Ann, 50 chips): hand x1 seats Ann with 150 "
        "chips, and Ann's buy-ins there would come to 100: it would start Ann with 50 chips "
        f"nobody bought {HINT}"))
    assert _retract(db, 2) == (2, (
        "error: entry retract r 2 (buy-in of Ann, 100 chips): hand x1 seats Ann with 150 "
        "chips, and Ann's buy-ins there would come to 50: it would start Ann with 100 chips "
        f"nobody bought {HINT}"))
    assert rows(db) == before
    assert run(db, "audit", "--session", "r").exit_code == 0


def test_a_rebuy_retracted_under_the_next_hand_is_refused(night: Path,
                                                          tmp_path: Path) -> None:
    """Bob left x1 with 0; his rebuy of 40 (entry 5) and hand x2 seating him with 40: the
    rebuy's retraction would start him with 40 nobody bought. Refused; x2 voided, it goes in
    (a voided hand counts for nothing in the books) and the audit stays clean."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "r", "Bob", "40").exit_code == 0
    assert run(db, "hand", "start", "--hand", "x2", "--session", "r", "--game", "NT",
               "--stakes", "1/2", "--button", "Bob", "--seats", "Ann:300,Bob:40"
               ).exit_code == 0
    assert _retract(db, 5) == (2, (
        "error: entry retract r 5 (buy-in of Bob, 40 chips): hand x2 seats Bob with 40 "
        "chips, and Bob left hand x1 with 0 and would have bought 0 since: it would start Bob "
        f"with 40 chips nobody bought {HINT}"))
    assert run(db, "void", "x2", *BY).exit_code == 0
    assert _retract(db, 5) == (0, "r: entry 5 (buy-in of Bob) retracted\n")
    assert run(db, "audit", "--session", "r").exit_code == 0


def test_a_buy_in_the_hand_did_not_need_is_retracted(tmp_path: Path) -> None:
    """x1 seating Ann with 100 of her 150 (all in, paid 200, Bob's other 50 back): her 50 is
    retracted (100 left, as x1 starts her),
    then her 100 is not (x1 would start her with 100 of none: the rule for all she
    bought, unchanged)."""
    db = _night(tmp_path / "t.duckdb", ann="100")
    assert _retract(db, 3) == (0, "r: entry 3 (buy-in of Ann) retracted\n")
    assert run(db, "audit", "--session", "r").exit_code == 0
    assert _retract(db, 2)[1].startswith(
        "error: entry retract r 2 (buy-in of Ann, 100 chips): it is all Ann bought in session "
        "r, and hand x1 seats Ann: it would start Ann with chips nobody bought; nothing "
        "written")


def test_the_undo_of_a_void_after_a_part_is_retracted_is_refused(night: Path,
                                                                  tmp_path: Path) -> None:
    """x1 voided, Ann's 50 retracted (no hand counted seats her now): the void's undo would
    count x1 again, starting Ann with 150 of 100. Refused in one line, nothing written, the
    audit clean."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "void", "x1", *BY).exit_code == 0
    assert _retract(db, 3) == (0, "r: entry 3 (buy-in of Ann) retracted\n")
    before = rows(db)
    assert refused(run(db, "undo", "x1", "--by", "host")) == (
        "error: hand x1: cannot undo the void at seq 14 (by host: typo): entry 3 of session r "
        "(buy-in of Ann, 50 chips) is retracted since: hand x1 seats Ann with 150 chips, and "
        "Ann's buy-ins there would come to 100: it would start Ann with 50 chips nobody bought "
        "(RULES.md §1.1), as `entry retract` refuses while a hand seats Ann; nothing written; "
        "the void stands: a retraction is final (`entry amend` does not bring it back) and a "
        "buy-in recorded now comes after the hand (record the buy-in again, then the hand as "
        "a new one)")
    assert rows(db) == before
    assert run(db, "audit", "--session", "r").exit_code == 0


def test_a_files_retraction_of_a_seated_buy_in_is_refused(night: Path,
                                                          tmp_path: Path) -> None:
    """The night's export with one more row, the host's retraction of Ann's 50 (seq 5 of r,
    after x1): refused into a fresh ledger in one line naming the file's line, with and
    without workers, no ledger left."""
    export = tmp_path / "night.jsonl"
    assert run(night, "export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    text = export.read_text()
    lines = len(text.splitlines())
    fix = {"by": "host", "reason": "typo", "schema_version": 1, "seq": 3,
           "type": "entry_corrected", "replacement": None}
    path = tmp_path / "fix.jsonl"
    path.write_text(text + json.dumps({"session": "r", "seq": 5, "event": fix}) + "\n")
    for jobs in ("1", "2"):
        db = tmp_path / f"fresh{jobs}.duckdb"
        assert cli(db, "import", str(path), "--jobs", jobs) == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
               "rejected; 1 other hand(s) not written, their file refused\n",
            f"error: {path}:{lines + 1}, session r: its entry_corrected at seq 5 retracts entry "
            "3 (buy-in of Ann, 50 chips): hand x1 seats Ann with 150 chips, and Ann's buy-ins "
            "there would come to 100: it would start Ann with 50 chips nobody bought (RULES.md "
            "§1.1); nothing of the file was written (a hand seated with the wrong stack is "
            "corrected or voided first; `handledger history --session r` lists the entries); a "
            "file's correction of a book entry is held to `entry retract`'s rules\n")
        assert not db.exists()


RIT = Path(__file__).resolve().parents[2] / "shared/data/pokernow/pokernowpy_run-it-twice.csv"
VAL = Path(__file__).resolve().parents[2] / "shared/data/pokernow/valakuzhyk_07_21_2022_log1.csv"


def test_a_buy_in_typed_after_a_pokernow_sessions_hands_is_retracted(tmp_path: Path) -> None:
    """The run-it-twice log into w4 (its 3 hands seat Ntunn, whom no line of the log buys
    in); a buy-in of 1536 for Ntunn typed after them (entry 8) counts for none of them (a
    buy-in counts for the hands after it), so its retraction changes nothing for them: it goes
    in, and the audit is again what it was before the buy-in."""
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(RIT), "--session", "w4").exit_code == 0
    before = run(db, "audit", "--session", "w4").output
    assert before.endswith("audit: 11 discrepancies (stack_continuity 11); "
                           "3 hand(s) in 1 session(s) checked\n")
    assert run(db, "buyin", "w4", "Ntunn", "1536").stdout == (
        "w4: Ntunn buy-in 1536 chips (entry 8)\n")
    assert "Ntunn has no buy-in before it (1536 bought in the session is recorded after it" \
        in run(db, "audit", "--session", "w4").output
    result = run(db, "entry", "retract", "w4", "8", "--reason", "wrong session", "--by",
                 "host")
    assert (result.exit_code, result.stdout) == (0, "w4: entry 8 (buy-in of Ntunn) retracted\n")
    assert run(db, "audit", "--session", "w4").output == before


def test_a_pokernow_buy_in_the_hands_after_it_seat_is_not_retracted(tmp_path: Path) -> None:
    """The valakuzhyk log into w3: entry 4, the log's buy-in of 1000 for Phzd Juwvifsvh,
    is all he bought there, and the 35 hands after it seat him: its retraction is refused in
    one line, nothing written."""
    db = tmp_path / "t.duckdb"
    assert run(db, "import", str(VAL), "--session", "w3").exit_code == 0
    before = rows(db)
    assert refused(run(db, "entry", "retract", "w3", "4", *BY)) == (
        "error: entry retract w3 4 (buy-in of Phzd Juwvifsvh, 1000 chips): it is all Phzd "
        "Juwvifsvh bought in session w3, and hands pn-w3-1-165843755677200, "
        "pn-w3-2-165843763372700, pn-w3-3-165843774582000, pn-w3-4-165843780657400, "
        "pn-w3-5-165843786846203 and 30 more seat Phzd Juwvifsvh: they would start Phzd "
        "Juwvifsvh with chips nobody bought; nothing written (a wrong amount is amended: "
        "`handledger entry amend w3 4 CHIPS --reason … --by …`; a hand seated by mistake is "
        "voided first)")
    assert rows(db) == before


def test_a_buy_in_typed_after_the_hands_it_did_not_buy_is_retracted(night: Path,
                                                                    tmp_path: Path) -> None:
    """After x1 (Bob left it with 0), Cy buys in 100 (entry 5) and hand x2 seats Cy 100,
    Ann 300 (Ann folds her small blind: Cy is paid 3); then a rebuy of 1536 for Cy typed by
    mistake (entry 6, after x2): retracted, x2 bought by entry 5. Entry 5 is then all Cy
    bought, and x2 seats him: refused."""
    db = copy_ledger(night, tmp_path / "t.duckdb")
    assert run(db, "buyin", "r", "Cy", "100").exit_code == 0
    assert run(db, "hand", "start", "--hand", "x2", "--session", "r", "--game", "NT",
               "--stakes", "1/2", "--button", "Ann", "--seats", "Ann:300,Cy:100"
               ).exit_code == 0
    for action in ("d dh Cy ????", "d dh Ann ????", "Ann f", "pay Cy 3", "end"):
        assert run(db, "act", "x2", action).exit_code == 0, action
    assert run(db, "buyin", "r", "Cy", "1536").stdout == "r: Cy rebuy 1536 chips (entry 6)\n"
    assert _retract(db, 6) == (0, "r: entry 6 (buy-in of Cy) retracted\n")
    assert _retract(db, 5) == (2, (
        "error: entry retract r 5 (buy-in of Cy, 100 chips): it is all Cy bought in session "
        "r, and hand x2 seats Cy: it would start Cy with chips nobody bought; nothing written "
        "(a wrong amount is amended: `handledger entry amend r 5 CHIPS --reason … --by …`; a "
        "hand seated by mistake is voided first)"))
    assert run(db, "audit", "--session", "r").exit_code == 0
