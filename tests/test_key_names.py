"""One key a name and one name a key in a key directory, and a signed checkpoint's named
signer held to the name of the key that verifies it (docs/LEDGER.md, "Anchoring it";
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


def _verdict(out: str) -> str:
    """The line of ``verify --against``'s output that gives the checkpoint's verdict."""
    [line] = [v for v in out.splitlines() if v.startswith("checkpoint ")]
    return line


def test_a_checkpoint_signer_renamed_fails(tmp_path: Path, keys: KeyStore) -> None:
    db, record = _signed_checkpoint(tmp_path)
    code, out, _ = cli(db, "verify", "--against", str(record))
    assert code == 0 and _verdict(out).endswith(": ok: extended; signed by floor")
    renamed = write(tmp_path / "renamed.txt", record.read_text().replace(
        '"signer":"floor"', '"signer":"mallory"'))
    code, out, _ = cli(db, "verify", "--against", str(renamed))
    assert code == 1
    assert _verdict(out).endswith(
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
    assert code == 0 and _verdict(out).endswith(
        ": ok: extended; signed by floor (a signature of the older form: the name is not "
        "covered)")
    path = write(tmp_path / "upper.txt", older.line().replace("signed floor", "signed FLOOR"))
    code, out, _ = cli(db, "verify", "--against", str(path))  # the same name, whatever its case
    assert code == 0 and _verdict(out).endswith(
        ": ok: extended; signed by floor (signed as 'FLOOR') (a signature of the older form: "
        "the name is not covered)")
    path = write(tmp_path / "mallory.txt", older.line().replace("signed floor", "signed mallory"))
    code, out, _ = cli(db, "verify", "--against", str(path))
    assert code == 1 and _verdict(out).endswith(
        ": FAILS: the ledger extends its head, but signed as 'mallory' with the key named "
        "'floor' here: a checkpoint names its signer by its key's name (the name altered, or "
        "the key held here under another name: `handledger key list`)")


def test_a_key_is_found_whatever_the_case_of_its_name(tmp_path: Path, keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    code, out, err = cli(db, "correct", "h1", "--replace", "4", "d dh Ann AsKd", "--reason",
                         "typo", "--by", "floor", "--sign", "FLOOR")
    assert (code, err) == (0, "")
    code, out, _ = cli(db, "history", "h1", "--json")
    [amendment] = json.loads(out)["amendments"]
    signature = amendment["signature"]
    assert (signature["status"], signature["signer"], signature["note"]) == (
        "good", "floor", "signed by floor")  # signed under the name the key is held as
    code, out, _ = cli(db, "checkpoint", "--sign", "Floor")
    assert code == 0 and f" signed floor {keys.info('floor').fingerprint}:" in out
    code, out, _ = cli(db, "verify", "--against", out.strip())
    assert code == 0 and _verdict(out).endswith(": ok: extended; signed by floor")
    assert cli(db, "key", "show", "FLOOR") == (0, keys.info("floor").public + "\n", "")
    assert keys.held_name("FLOOR") == "floor" and keys.held_name("nobody") == "nobody"
    assert cli(db, "checkpoint", "--sign", "nobody") == (
        2, "", f"error: no private key 'nobody' in {keys.directory}\n")


def test_a_key_held_under_two_names_checks_as_the_name_signed(
        tmp_path: Path, keys: KeyStore) -> None:
    floor = keys.info("floor")
    (keys.directory / "eve.pub").write_text((keys.directory / "floor.pub").read_text())
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    assert cli(db, "correct", "h1", "--replace", "4", "d dh Ann AsKd", "--reason", "typo",
               "--by", "floor", "--sign", "floor")[0] == 0
    code, out, _ = cli(db, "checkpoint", "--sign", "floor")
    assert code == 0
    code, verified, _ = cli(db, "verify", "--against", out.strip())
    assert code == 0 and _verdict(verified).endswith(": ok: extended; signed by floor")
    [amendment] = json.loads(cli(db, "history", "h1", "--json")[1])["amendments"]
    assert amendment["signature"]["note"] == "signed by floor"
    assert cli(db, "key", "list") == (0, (
        f"eve  {floor.fingerprint}  public  {floor.public}  (the same key is held as 'floor': "
        "a key has one name here, the name its signatures give; remove the copy's .pub file)\n"
        f"floor  {floor.fingerprint}  private  {floor.public}  (the same key is held as 'eve': "
        "a key has one name here, the name its signatures give; remove the copy's .pub file)\n"
    ), "")
    assert KeyStore(tmp_path / "none").aliases() == {}
