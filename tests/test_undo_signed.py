"""`undo --sign NAME` signs the undo as `correct` and `void` sign (binding the hand as it
stood: :mod:`ledger.store.signing`), and `history` says when a signed amendment was taken
back by an unsigned undo (docs/LEDGER.md, "What is in the ledger").

Hand h1 of :func:`tests.test_import_signatures.hand` with its correction at seq 10 (Ann's Ks
made a Kd) signed by floor (:func:`tests.test_import_signatures.kd`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.store.keys import KeyStore
from tests.test_import_signatures import hand, kd, write
from tests.test_live_table import one_shot as cli

UNDID = ("undid the correction at seq 10 (by floor: typo) in hand h1 (seq 11); change in net: "
         "none; "
         "by the rules: unchanged\n")


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KeyStore:
    """Key floor in the default key directory ($HANDLEDGER_KEYS)."""
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    store = KeyStore(tmp_path / "keys")
    store.new("floor")
    return store


def _amended(db: Path, tmp_path: Path, keys: KeyStore) -> None:
    """h1 imported into ``db``, then its signed correction (a write of its own, to undo)."""
    assert cli(db, "import", str(write(tmp_path / "h0.jsonl", hand())))[0] == 0
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand() + kd(keys))))[0] == 0


def test_a_signed_undo_binds_the_hand_and_re_imports(tmp_path: Path, keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    _amended(db, tmp_path, keys)
    assert cli(db, "undo", "h1", "--by", "floor", "--sign", "floor") == (0, UNDID, "")
    out = cli(db, "history", "h1")[1].splitlines()
    assert out[-3:] == [
        out[-3].split(" correction by ")[0] + " correction by floor: undo of the correction at "
        "seq 10 (by floor: typo)",
        "        signature ok: signed by floor; binds the hand as it stood (seqs 1-10) and this "
        "correction",
        "        delete seq 10 (seq 10 was: correction by floor: typo)"]
    assert "unsigned" not in "\n".join(out)
    export = tmp_path / "e.jsonl"
    assert cli(db, "export", "--format", "jsonl", "h1", "-o", str(export))[0] == 0
    assert cli(tmp_path / "c.duckdb", "import", str(export))[:2] == (
        0, "imported 1 hand(s) (11 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    bad = write(tmp_path / "bad.jsonl", export.read_text().replace("undo of", "undo  of"))
    code, out2, err = cli(tmp_path / "d.duckdb", "import", str(bad))
    assert code == 2 and err.startswith(
        f"error: {bad}:11, hand h1: its correction at seq 11 (by floor) fails its signature")


def test_an_unsigned_undo_of_a_signed_correction_says_so(tmp_path: Path, keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    _amended(db, tmp_path, keys)
    assert cli(db, "undo", "h1", "--by", "floor", "--sign", "nobody") == (
        2, "", f"error: hand h1: no private key 'nobody' in {keys.directory}\n")
    assert cli(db, "undo", "h1", "--by", "floor") == (0, UNDID, "")
    out = cli(db, "history", "h1")[1].splitlines()
    assert out[-2:] == [
        "        unsigned: takes back the correction at seq 10 (signed by floor) with no "
        "signature of its own",
        "        delete seq 10 (seq 10 was: correction by floor: typo)"]
    data = json.loads(cli(db, "history", "h1", "--json")[1])
    assert data["amendments"][-1]["unsigned"] == [
        {"seq": 10, "type": "correction", "signer": "floor"}]
    assert "unsigned" not in data["amendments"][0]  # the signed correction itself


def test_verify_names_an_unsigned_undo_of_a_signed_correction(tmp_path: Path,
                                                              keys: KeyStore) -> None:
    """`verify` said "signatures: 1 signed correction(s) and void(s) verify", silent on the
    unsigned undo that took the signed correction back; it names it, still exit 0."""
    db = tmp_path / "b.duckdb"
    _amended(db, tmp_path, keys)
    before = cli(db, "verify")
    assert before[0] == 0
    assert before[1].splitlines()[1] == "signatures: 1 signed correction(s) and void(s) verify"
    assert cli(db, "undo", "h1", "--by", "floor") == (0, UNDID, "")
    code, out, _ = cli(db, "verify")
    assert code == 0
    assert out.splitlines()[1] == (
        "signatures: 1 signed correction(s) and void(s) verify; unsigned: hand h1 seq 11 takes "
        "back the correction at seq 10 (signed by floor) with no signature of its own")


def test_verify_says_nothing_of_a_signed_undo(tmp_path: Path, keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    _amended(db, tmp_path, keys)
    assert cli(db, "undo", "h1", "--by", "floor", "--sign", "floor") == (0, UNDID, "")
    code, out, _ = cli(db, "verify")
    assert code == 0
    assert out.splitlines()[1] == "signatures: 2 signed correction(s) and void(s) verify"
