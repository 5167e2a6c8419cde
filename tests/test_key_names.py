"""One key a name and one name a key in a key directory, and a signed checkpoint's named
signer held to the name of the key that verifies it (README, "Anchoring it";
:mod:`ledger.store.keys`, :mod:`ledger.store.anchor`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ledger.store.checkpoint import parse_line
from ledger.store.keys import KeyStore
from tests.test_import_signatures import hand, write
from tests.test_live_table import one_shot as cli


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KeyStore:
    """Key floor in the default key directory ($HANDLEDGER_KEYS)."""
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    store = KeyStore(tmp_path / "keys")
    store.new("floor")
    return store


def test_a_name_differing_only_in_case_is_refused(tmp_path: Path, keys: KeyStore) -> None:
    fingerprint = keys.info("floor").fingerprint
    held = (f"the key directory already holds a key 'floor' ({fingerprint}): key names are one "
            "key each, whatever their case; nothing written\n")
    assert cli(tmp_path / "b.duckdb", "key", "new", "FLOOR") == (
        2, "", f"error: key 'FLOOR': {held}")
    other = KeyStore(tmp_path / "other")
    public = other.new("x").public
    assert cli(tmp_path / "b.duckdb", "key", "add", "Floor", public) == (
        2, "", f"error: key 'Floor': {held}")
    assert [k.name for k in keys.list()] == ["floor"]


def test_a_public_key_held_under_another_name_is_refused(tmp_path: Path, keys: KeyStore) -> None:
    floor = keys.info("floor")
    assert cli(tmp_path / "b.duckdb", "key", "add", "mallory", floor.public) == (
        2, "", f"error: key 'mallory': this public key ({floor.fingerprint}) is already held "
        "here as 'floor': a key has one name in a key directory, the name its signatures are "
        "checked against (`handledger key list`); nothing written\n")
    assert [k.name for k in keys.list()] == ["floor"]
    assert cli(tmp_path / "b.duckdb", "key", "add", "floor", floor.public)[0] == 0  # the same


def _signed_checkpoint(tmp_path: Path) -> tuple[Path, Path]:
    """A ledger of h1 and its checkpoints file with one checkpoint signed by floor."""
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    assert cli(db, "checkpoint", "--sign", "floor")[0] == 0
    return db, Path(f"{db}.checkpoints")


def test_a_checkpoint_signer_renamed_fails(tmp_path: Path, keys: KeyStore) -> None:
    db, record = _signed_checkpoint(tmp_path)
    code, out, _ = cli(db, "verify", "--against", str(record))
    assert code == 0 and out.splitlines()[1].endswith(": ok: extended; signed by floor")
    renamed = write(tmp_path / "renamed.txt", record.read_text().replace(
        '"signer":"floor"', '"signer":"mallory"'))
    code, out, _ = cli(db, "verify", "--against", str(renamed))
    assert code == 1
    assert out.splitlines()[1].endswith(
        ": FAILS: the ledger extends its head, but the signature does not verify with key "
        "'floor': altered")


def test_an_older_checkpoint_verifies_and_its_signer_is_held_to_the_key(
        tmp_path: Path, keys: KeyStore) -> None:
    db, record = _signed_checkpoint(tmp_path)
    point = parse_line(record.read_text().splitlines()[0])
    assert point is not None
    key, value = keys.sign("floor", point.message(older=True))  # as signed before the name was
    older = replace(point, signature=value)
    assert key == point.key and value != point.signature
    path = write(tmp_path / "older.txt", json.dumps(older.record()) + "\n")
    code, out, _ = cli(db, "verify", "--against", str(path))
    assert code == 0 and out.splitlines()[1].endswith(
        ": ok: extended; signed by floor (a signature of the older form: the name is not "
        "covered)")
    path = write(tmp_path / "mallory.txt", older.line().replace("signed floor", "signed mallory"))
    code, out, _ = cli(db, "verify", "--against", str(path))
    assert code == 1 and out.splitlines()[1].endswith(
        ": FAILS: the ledger extends its head, but signed as 'mallory' with the key named "
        "'floor' here: a checkpoint names its signer by its key's name (the name altered, or "
        "the key held here under another name: `handledger key list`)")
