"""A signed void of an ended hand is stored as two signed rows, the correction that takes back
the hand's end and the ``hand_voided`` (docs/LEDGER.md "Anchoring it"): ``verify``, ``run`` and the
report count what the user signed, the void once, while both rows' signatures are still
checked (a tampered void's correction still FAILS)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.copies import copy_ledger
from tests.ledger_files import edit_payload
from tests.signed_night import signed_night


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """dispute-1 corrected (seq 25), undone (26), corrected again (27), the PLO hand voided
    (its rows 54-55: the correction of its end, the void): all signed by floor, so 2
    corrections, 1 undo and 1 void, 5 signed rows."""
    return signed_night(tmp_path_factory.mktemp("signed_void"), void_signed=True)


def _verify(db: Path, keys: Path) -> tuple[int, list[str]]:
    from cli.main import cli

    out = CliRunner(env={"HANDLEDGER_KEYS": str(keys)}).invoke(cli, ["--db", str(db), "verify"])
    return out.exit_code, out.output.splitlines()


def test_verify_counts_the_void_once(signed: tuple[Path, Path]) -> None:
    """It said "5 signed correction(s) and void(s) verify"."""
    code, lines = _verify(*signed)
    assert code == 0 and "signatures: 4 signed correction(s) and void(s) verify" in lines


def test_run_counts_the_void_once(signed: tuple[Path, Path]) -> None:
    from ledger.audit.signatures import signed_amendments, summary_line
    from ledger.store.keys import KeyStore
    from ledger.store.store import Ledger

    with Ledger(str(signed[0]), read_only=True) as ledger:
        found = signed_amendments(ledger, KeyStore(signed[1]))
    assert [(a.seq, a.kind, a.with_void) for a in found] == [
        (25, "correction", False), (26, "correction", False), (27, "correction", False),
        (27, "correction", True), (28, "void", False)]
    assert summary_line(found) == ("4 signed correction(s) and void(s) (an undo is a "
                                   "correction), all verify against the key directory")


def test_a_tampered_void_correction_still_fails(signed: tuple[Path, Path],
                                                tmp_path: Path) -> None:
    """The void's correction (row 54) edited, the chain made again: its signature fails,
    named by row, and the void counts once among 3 that verify."""
    db = tmp_path / "t.duckdb"
    copy_ledger(signed[0], db)
    edit_payload(str(db), 54, '"reason":"void: misdeal"', '"reason":"void: misdeal!"')
    code, lines = _verify(db, signed[1])
    assert code != 0
    assert "signatures: 3 signed correction(s) and void(s) verify" in lines
    assert [x for x in lines if x.startswith("signature FAILS: hand phh-e90348620d79 seq 27 "
                                             "(a correction signed as 'floor', position 54)")]
