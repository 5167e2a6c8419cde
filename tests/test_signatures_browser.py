"""Signatures on a hand's page and the report's index in a real browser: headless Chromium
(tests/browser.py), the text a reader sees. The ledger is that of
:mod:`tests.test_signatures_shown` (three corrections of dispute-1 signed by floor, the last
one's payout edited afterwards with the chain made again; a checkpoint signed by floor before
the edit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import Browser, by_id, css, shoot, text
from tests.test_signatures_shown import ALTERED, _tampered, books, signed  # noqa: F401
from tests.test_view_browser import load


@pytest.fixture
def tampered(run, db: str, books: Path, tmp_path: Path) -> Path:  # noqa: F811
    """The tampered ledger's report (``view`` of dispute-1 as ``dispute.html`` beside it)."""
    _tampered(db)
    assert run("view", "dispute-1", "-o", str(tmp_path / "dispute.html")).exit_code == 0
    assert run("report", str(tmp_path / "site")).exit_code == 0
    return tmp_path


def test_the_hand_page_shows_who_signed_and_what_fails(browser: Browser, tampered: Path
                                                       ) -> None:
    d = browser.driver
    load(d, tampered / "dispute.html")
    [warning] = css(d, ".signature-fails")
    assert text(warning) == (
        "✗ The signature of the correction at seq 27 (signed as floor) FAILS against the key "
        "directory: see the history. The books replayed from the events apply it as stored "
        "(tables saved before its row was edited in place show it as it was: handledger "
        "verify).")
    assert text(by_id(d, "signatures-summary")) == (
        "Signatures: 3 signed correction(s) and void(s) (an undo is a correction): 2 verify; "
        "1 FAIL: hand dispute-1 seq 27 (a correction signed as 'floor').")
    shown = [(e.get_attribute("data-status"), text(e)) for e in css(d, "#history .signature")]
    assert shown == [
        ("good", "✓ The signature verifies against the key directory: signed by floor; it "
                 "binds the hand as it stood (seqs 1-24) and this correction."),
        ("good", "✓ The signature verifies against the key directory: signed by floor; it "
                 "binds the hand as it stood (seqs 1-25) and this correction."),
        ("bad", f"✗ Signed as floor: the signature FAILS against the key directory: {ALTERED}; "
                "the books replayed from the events apply it as stored.")]
    assert [" ".join(text(e).split()).split(" by ")[0]
            for e in css(d, "#history .amendment > p:first-child")] == [
        "Corrected (seq 25, ledger position 25)", "Undone (seq 26, ledger position 26)",
        "Corrected (seq 27, ledger position 27)"]
    undo = css(d, "#history .amendment")[1]  # the undo: a correction taking back seq 25
    assert [text(li) for li in css(undo, ".changes li")] == ["delete seq 25 correction"]
    shoot(d, tampered, "signed-hand")


def test_the_index_names_the_failing_signature_and_the_checkpoint(browser: Browser,
                                                                  tampered: Path) -> None:
    d = browser.driver
    d.set_window_size(1200, 1000)
    d.get((tampered / "site" / "index.html").as_uri())
    assert text(by_id(d, "signed-amendments")) == (
        "✗ Signed amendments: 3 signed correction(s) and void(s) (an undo is a correction): "
        "2 verify; 1 FAIL: hand dispute-1 seq 27 (a correction signed as 'floor').")
    [failing] = css(d, "#failing-signatures li")
    assert text(failing) == (f"✗ dispute-1 seq 27, the correction signed as floor: {ALTERED}; "
                             "the books replayed from the events apply it as stored (tables "
                             "saved before its row was edited in place show it as it was: "
                             "handledger verify)")
    link = css(failing, "a")[0]
    assert link.get_attribute("href").endswith("/hands/dispute-1.html")
    rows = [[text(c) for c in css(r, "th, td")] for r in css(d, "#checkpoint-list tbody tr")]
    assert len(rows) == 1
    position, at, signer, signature, verdict = rows[0]
    assert (position, signer, signature) == ("55", "floor", "✓ verifies")
    assert verdict.startswith("✗ FAILS: row 55 hashes ") and verdict.endswith(
        ": rewritten at or before it, or another ledger; signed by floor")
    assert css(d, "#checkpoint-list tbody tr")[0].get_attribute("class") == "flagged"
    link.click()  # the failing hand's page, from the index
    assert text(by_id(d, "hand-id")) == "dispute-1"
    assert len(css(d, "#history .signature[data-status='bad']")) == 1
    shoot(d, tampered, "signed-index")
