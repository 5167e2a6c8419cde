"""Signatures where a user reviewing the books looks: a hand's page (``view``, and the
report's), the report's index and ``run`` say who signed each correction, void and undo and
whether it verifies against the key directory, and check the ledger's own checkpoints file,
by the code ``audit --keys`` and ``verify --against`` use (docs/LEDGER.md, "Anchoring it").

The ledger (built once, key ``floor``): ``data/dispute/wrong-push.phh`` (hand dispute-1,
rows 1-24) corrected (seq 25), the correction undone (seq 26) and made again (seq 27), each
signed by floor; ``data/hands/plo-three-way.phh`` (hand phh-e90348620d79, rows 28-53) voided
unsigned (rows 54-55: the correction that takes back its end, then the void); then
``checkpoint --sign floor`` at the head, 55. The tampered copy has the second correction's
payout to Ann (row 27) edited from 300 to 400 with the chain made again: its signature, and
only its, fails, and the ledger no longer extends the checkpoint.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from ledger.audit.signatures import APPLIED
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.ledger_files import edit_payload
from tests.signed_night import PLO, signed_night

ALTERED = ("the signature does not verify with key 'floor': altered (it covers the hand's 26 "
           "row(s) before it and the correction: one of them is not as signed)")


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The ledger of the module docstring and its key directory."""
    return signed_night(tmp_path_factory.mktemp("signed"), void_signed=False,
                        after=("checkpoint", "--sign", "floor"))


@pytest.fixture
def books(signed: tuple[Path, Path], db: str, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the signed ledger as the test's ``db`` (its checkpoints file beside it), the
    key directory copied and given as ``$HANDLEDGER_KEYS``."""
    copy_ledger(signed[0], Path(db))
    shutil.copy(f"{signed[0]}.checkpoints", f"{db}.checkpoints")
    keys = tmp_path / "keys"
    shutil.copytree(signed[1], keys)
    monkeypatch.setenv("HANDLEDGER_KEYS", str(keys))
    return keys


def _tampered(db: str) -> None:
    edit_payload(db, 27, '"amount":300', '"amount":400')


def _words(page: str, pattern: str) -> list[str]:
    """The text (tags dropped, entities read, blanks folded) of every element whose opening
    tag matches ``pattern`` up to its closing ``</p>``/``</li>``."""
    found = re.findall(pattern + r".*?</(?:p|li)>", page, flags=re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", f)).split()) for f in found]


def test_a_hand_page_names_each_signer_and_what_verifies(run, db: str, books: Path) -> None:
    page = Path(db).with_name("d.html")
    assert run("view", "dispute-1", "-o", str(page)).exit_code == 0
    text = page.read_text()
    assert _words(text, r'<p class="signatures-summary"') == [
        "Signatures: 3 signed correction(s) and void(s) (an undo is a correction), all verify "
        "against the key directory."]
    assert _words(text, r'<p class="signature" data-status="good"') == [
        "✓ The signature verifies against the key directory: signed by floor; it binds the "
        f"hand as it stood (seqs 1-{n}) and this correction." for n in (24, 25, 26)]
    assert 'class="warning signature-fails"' not in text
    voided = Path(db).with_name("v.html")
    assert run("view", PLO, "-o", str(voided)).exit_code == 0
    words = voided.read_text()
    assert _words(words, r'<p class="signature"') == ["Unsigned.", "Unsigned."]
    assert "signatures-summary" not in words


def test_a_failing_signature_is_said_on_the_page_as_audit_finds_it(run, db: str,
                                                                  books: Path) -> None:
    _tampered(db)
    page = Path(db).with_name("d.html")
    assert run("view", "dispute-1", "-o", str(page)).exit_code == 0
    text = page.read_text()
    assert _words(text, r'<p class="warning signature-fails"') == [
        "✗ The signature of the correction at seq 27 (signed as floor) FAILS against the key "
        "directory: see the history. The books replayed from the events apply it as stored "
        "(tables saved before its row was edited in place show it as it was: handledger "
        "verify)."]
    assert _words(text, r'<p class="signature" data-status="bad"') == [
        f"✗ Signed as floor: the signature FAILS against the key directory: {ALTERED}; the "
        "books replayed from the events apply it as stored."]
    assert len(_words(text, r'<p class="signature" data-status="good"')) == 2  # seqs 25, 26
    audited = json.loads(run("audit", "--json", "--keys", str(books)).stdout)
    assert [(d["hand"], d["message"]) for d in audited["discrepancies"]
            if d["kind"] == "signature"] == [
        ("dispute-1", f"the correction at seq 27 signed as 'floor': {ALTERED}; {APPLIED}")]
    elsewhere = Path(db).with_name("none")
    elsewhere.mkdir()  # a key directory without floor's key: nothing can be checked
    assert run("view", "dispute-1", "-o", str(page), "--keys", str(elsewhere)).exit_code == 0
    unknown = _words(page.read_text(), r'<p class="signature" data-status="unknown"')
    assert len(unknown) == 3 and unknown[0].startswith(
        "Signed as floor: not checked: signed by an unknown key ")


def test_run_prints_the_signatures_and_the_checkpoints(run, db: str, books: Path,
                                                       tmp_path: Path) -> None:
    empty = tmp_path / "again"  # a folder whose one hand is in the ledger: nothing new
    empty.mkdir()
    shutil.copyfile(DATA / "dispute" / "wrong-push.phh", empty / "wrong-push.phh")
    lines = run("run", str(empty)).output.splitlines()
    assert [line for line in lines if line.startswith(("signature", "checkpoints"))] == [
        "signatures: 3 signed correction(s) and void(s) (an undo is a correction), all verify "
        "against the key directory",
        "checkpoints t.duckdb.checkpoints: 1, the ledger extends every one; 1 signed, 1 verify "
        "against the key directory (55 by floor)"]
    _tampered(db)
    # a history rewritten under its checkpoint: run (an import, then the books saved) is
    # refused before anything, in checkpoint's words, and sends to verify
    refused = run("run", str(empty))
    assert refused.exit_code == 2
    assert re.fullmatch(
        r"error: \S+/t\.duckdb\.checkpoints:1: this ledger does not extend the checkpoint of "
        r"position 55 \(row 55 hashes [0-9a-f]{16}…, not [0-9a-f]{16}…\): the books are not "
        r"saved from it; run `handledger verify --against \S+/t\.duckdb\.checkpoints`",
        refused.output.strip()), refused.output
    # the audit (a read) counts the failing signature as `audit --keys` does, finding first
    audited = run("audit").stdout.splitlines()
    assert audited[1:] == [
        f"signature: the correction at seq 27 signed as 'floor': {ALTERED}; {APPLIED} "
        "[hand dispute-1]",
        "audit: 2 discrepancies (payout 1, signature 1); 1 hand(s) in 0 session(s) checked"]
    # without its checkpoints file, run goes on and names the failing signature as the audit
    shutil.move(f"{db}.checkpoints", tmp_path / "kept.checkpoints")
    lines = run("run", str(empty)).output.splitlines()
    assert lines[lines.index(audited[-1]) - 2:lines.index(audited[-1]) + 1] == audited
    said = [line for line in lines if line.startswith(("signature ", "signatures"))]
    assert said == [
        "signatures: 3 signed correction(s) and void(s) (an undo is a correction): 2 verify; "
        "1 FAIL: hand dispute-1 seq 27 (a correction signed as 'floor')",
        f"signature FAILS: hand dispute-1 seq 27 (a correction signed as 'floor', position "
        f"27): {ALTERED}"]


def test_the_report_counts_them_names_each_failing_and_redraws_when_they_change(
        run, db: str, books: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    files = [Path(db), Path(f"{db}.checkpoints"), *sorted(books.iterdir())]
    kept = [f.read_bytes() for f in files]
    assert run("report", str(out)).exit_code == 0
    assert run("view", "dispute-1", "-o", str(tmp_path / "d.html")).exit_code == 0
    assert [f.read_bytes() for f in files] == kept  # a read never writes
    assert [f.name for f in files[2:]] == ["floor.key", "floor.pub"]
    index = (out / "index.html").read_text()
    assert _words(index, r'<p id="signed-amendments"') == [
        "✓ Signed amendments: 3 signed correction(s) and void(s) (an undo is a correction), "
        "all verify against the key directory."]
    assert _words(index, r'<p id="checkpoints-line"') == [
        "✓ checkpoints t.duckdb.checkpoints: 1, the ledger extends every one; 1 signed, 1 "
        "verify against the key directory (55 by floor)."]
    hand = next((out / "hands").glob("dispute-1*.html")).read_text()
    assert len(_words(hand, r'<p class="signature" data-status="good"')) == 3
    assert _words((out / "sessions" / "~no-session.html").read_text(),
                  r'<p id="signed-amendments"') == [
        "Signed amendments of its hands: 3 signed correction(s) and void(s) (an undo is a "
        "correction), all verify against the key directory."]
    before = (out / "index.html").read_bytes()
    _tampered(db)
    again = run("report", str(out))
    assert again.exit_code == 0
    assert "2 hand page(s) written, 0 unchanged" in again.output  # the chain made again from 27
    index = (out / "index.html").read_text()
    assert _words(index, r'<p id="signed-amendments"') == [
        "✗ Signed amendments: 3 signed correction(s) and void(s) (an undo is a correction): "
        "2 verify; 1 FAIL: hand dispute-1 seq 27 (a correction signed as 'floor')."]
    assert _words(index, r'<li><span class="bad">✗</span> <a href="hands/') == [
        f"✗ dispute-1 seq 27, the correction signed as floor: {ALTERED}; "
        f"{APPLIED.replace('`', '')}"]
    assert (out / "index.html").read_bytes() != before
    assert _words((out / "sessions" / "~no-session.html").read_text(),
                  r'<p id="signed-amendments"') == [
        "✗ Signed amendments of its hands: 3 signed correction(s) and void(s) (an undo is a "
        "correction): 2 verify; 1 FAIL: hand dispute-1 seq 27 (a correction signed as "
        "'floor')."]
    elsewhere = tmp_path / "none"
    elsewhere.mkdir()  # the same ledger, another key directory: only the checks differ
    third = run("report", str(out), "--keys", str(elsewhere))
    assert "1 hand page(s) written, 1 unchanged" in third.output  # the void is unsigned
    assert _words((out / "index.html").read_text(), r'<p id="signed-amendments"') == [
        "Signed amendments: 3 signed correction(s) and void(s) (an undo is a correction): 3 "
        "not checked (a key the directory does not hold): hand dispute-1 seq 25 (signed as "
        "'floor'), hand dispute-1 seq 26 (signed as 'floor'), hand dispute-1 seq 27 (signed "
        "as 'floor')."]


def test_an_unsigned_undo_of_a_signed_correction_says_so(run, db: str, books: Path) -> None:
    assert run("undo", "dispute-1", "--by", "host").exit_code == 0  # takes back seq 27
    page = Path(db).with_name("d.html")
    assert run("view", "dispute-1", "-o", str(page)).exit_code == 0
    text = page.read_text()
    assert _words(text, r'<p class="signature" data-status="unsigned"') == [
        "Unsigned: takes back the correction at seq 27 (signed by floor) with no signature of "
        "its own."]
    assert "unsigned: takes back the correction at seq 27 (signed by floor) with no signature " \
        "of its own" in run("history", "dispute-1").output
    assert len(_words(text, r'<p class="signature" data-status="good"')) == 3
