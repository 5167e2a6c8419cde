"""Signed corrections and voids, and the proof that events stored before signatures existed
keep their JSON byte for byte (what the chain hashes and a JSON-lines re-import's key digests).

The ledger: ``data/dispute/wrong-push.phh`` (hand dispute-1, 24 events) corrected as in
``data/dispute/dispute.sh``, then ``data/hands/plo-three-way.phh`` (hand phh-e90348620d79) voided.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from ledger.model.events import parse_event
from ledger.store import signing
from ledger.store.chain import canonical_json
from ledger.store.keys import KeyStore
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.ledger_files import edit_payload

PLO = "phh-e90348620d79"
REASON = "dealer pushed the main pot to Bob; Ann's aces win it"
# Written by the code before signatures existed (commit c204e68), for these same commands.
GOLDEN = {
    25: '{"by":"floor","changes":[{"event":{"amount":100,"player":"Bob","pot":null,"returned":'
        'false,"run":null,"schema_version":1,"type":"recorded_payout"},"op":"replace","seq":23},'
        '{"event":{"amount":300,"player":"Ann","pot":null,"returned":false,"run":null,'
        '"schema_version":1,"type":"recorded_payout"},"op":"insert_after","seq":23}],'
        '"positions":[23],"reason":"dealer pushed the main pot to Bob; Ann\'s aces win it",'
        '"schema_version":1,"type":"correction"}',
    52: '{"by":"floor","changes":[{"event":null,"op":"delete","seq":26}],"positions":[51],'
        '"reason":"void: misdeal","schema_version":1,"type":"correction"}',
    53: '{"by":"floor","reason":"misdeal","schema_version":1,"type":"hand_voided"}',
}


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "keys"
    monkeypatch.setenv("HANDLEDGER_KEYS", str(directory))
    return directory


def _dispute(run, *sign: str) -> None:
    assert run("import", str(DATA / "dispute" / "wrong-push.phh")).exit_code == 0
    assert run("correct", "dispute-1", "--replace", "23", "pay Bob 100", "--insert-after", "23",
               "pay Ann 300", "--reason", REASON, "--by", "floor", *sign).exit_code == 0
    assert run("import", str(DATA / "hands" / "plo-three-way.phh")).exit_code == 0
    assert run("void", PLO, "--reason", "misdeal", "--by", "floor", *sign).exit_code == 0


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Key ``floor`` made and the ledger of the module docstring written with its amendments
    signed by it, once for the module: the ledger and the keys directory."""
    from cli.main import cli

    base = tmp_path_factory.mktemp("signed")
    db, keys = base / "t.duckdb", base / "keys"

    def run(*args: str):  # noqa: ANN202
        return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDLEDGER_KEYS", str(keys))
        assert run("key", "new", "floor").exit_code == 0
        _dispute(run, "--sign", "floor")
    return db, keys


def _signed(signed: tuple[Path, Path], db: str, keys: Path) -> None:
    """The test's ledger ``db`` and keys directory ``keys`` become copies of ``signed``'s."""
    copy_ledger(signed[0], Path(db))
    shutil.copytree(signed[1], keys)


def _payloads(db: str) -> dict[int, str]:
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT position, payload FROM events ORDER BY position").fetchall()
    return dict(rows)


def test_unsigned_amendments_keep_their_json_byte_for_byte(run, db: str, tmp_path: Path) -> None:
    _dispute(run)
    payloads = _payloads(db)
    assert len(payloads) == 53
    assert {p: payloads[p] for p in GOLDEN} == GOLDEN
    for payload in payloads.values():  # every stored event parses back to the same bytes
        assert canonical_json(parse_event(payload)) == payload
        assert '"signature"' not in payload
    exported = tmp_path / "dispute.jsonl"  # (a voided ended hand does not re-import today)
    assert run("export", "--format", "jsonl", "dispute-1", "-o", str(exported)).exit_code == 0
    again = run("import", str(exported))
    assert again.exit_code == 0 and "imported 0 hand(s) (0 events)" in again.output
    fresh = str(tmp_path / "fresh.duckdb")
    assert run("--db", fresh, "import", str(exported)).exit_code == 0
    assert list(_payloads(fresh).values()) == [payloads[p] for p in range(1, 26)]


def test_signed_amendments_name_their_signer(run, db: str, keys: Path, signed: tuple[Path, Path],
                                             tmp_path: Path) -> None:
    _signed(signed, db, keys)
    payloads = _payloads(db)
    signed = {p: json.loads(payloads[p]) for p in GOLDEN}
    assert all(s["signature"]["signer"] == "floor" for s in signed.values())
    for position, data in signed.items():  # the same event as unsigned, plus the signature
        assert {k: v for k, v in data.items() if k != "signature"} == json.loads(GOLDEN[position])
    history = run("history", "dispute-1").output
    assert "signature ok: signed by floor" in history
    voided = run("history", PLO, "--json")
    amendments = json.loads(voided.output)["amendments"]
    assert [a["signature"]["status"] for a in amendments] == ["good", "good"]
    exported = tmp_path / "dispute.jsonl"
    assert run("export", "--format", "jsonl", "dispute-1", "-o", str(exported)).exit_code == 0
    fresh = str(tmp_path / "fresh.duckdb")
    assert run("--db", fresh, "import", str(exported)).exit_code == 0
    assert "signature ok: signed by floor" in run("--db", fresh, "history", "dispute-1").output
    assert run("--db", fresh, "verify").exit_code == 0
    (tmp_path / "none").mkdir()  # a key directory without floor's key
    elsewhere = run("history", "dispute-1", "--keys", str(tmp_path / "none")).output
    assert "signature unknown key: signed by an unknown key" in elsewhere


def test_an_altered_signed_correction_fails(run, db: str, keys: Path,
                                            signed: tuple[Path, Path]) -> None:
    _signed(signed, db, keys)
    edit_payload(db, 25, '"amount":300', '"amount":400')  # chain relinked
    verified = run("verify")
    assert verified.exit_code == 1
    lines = verified.output.splitlines()
    assert lines[0].startswith("ok: 53 events, hash chain intact")  # the chain alone passes
    assert lines[1] == (
        "signature FAILS: hand dispute-1 seq 25 (a correction signed as 'floor', position 25): "
        "the signature does not verify with key 'floor': altered (it covers the hand's 24 "
        "row(s) before it and the correction: one of them is not as signed)")
    # the void, signed once though stored as two signed rows (its end's correction, the void)
    assert lines[2] == "signatures: 1 signed correction(s) and void(s) verify"
    history = run("history", "dispute-1").output
    assert "signature FAILS: the signature does not verify with key 'floor': altered" in history
    audited = run("audit", "--json")
    assert audited.exit_code == 1
    assert [d for d in json.loads(audited.stdout)["discrepancies"] if d["kind"] == "signature"
            ] == [{"kind": "signature", "session": None, "hand": "dispute-1", "player": None,
                   "name": None, "expected": 0, "actual": 0, "message": (
                       "the correction at seq 25 signed as 'floor': the signature does not "
                       "verify with key 'floor': altered (it covers the hand's 24 row(s) "
                       "before it and the correction: one of them is not as signed); the "
                       "books replayed from the events apply it as stored (tables saved "
                       "before its row was edited in place show it as it was: `handledger "
                       "verify`)"), "unit": None}]
    elsewhere = Path(db).with_name("none")  # a key directory without floor's key: unknown
    elsewhere.mkdir()
    assert "signature" not in run("audit", "--json", "--keys", str(elsewhere)).stdout
    unchecked = run("verify", "--keys", str(elsewhere))
    assert unchecked.output.splitlines()[1].startswith(
        "signature not checked: hand dispute-1 seq 25 (a correction signed as 'floor', "
        "position 25): signed by an unknown key ")


def test_a_signature_belongs_to_its_hand(run, db: str, keys: Path,
                                        signed: tuple[Path, Path]) -> None:
    _signed(signed, db, keys)
    store = KeyStore(keys)
    payloads = _payloads(db)
    void = parse_event(payloads[53])
    before = [parse_event(payloads[p]) for p in range(26, 53)]  # the voided hand's rows
    assert signing.check(PLO, void, store, before).status == "good"
    assert signing.check("dispute-1", void, store, before).status == "bad"
    assert signing.check(PLO, void, store, before[:-1]).status == "bad"  # not the same hand
    assert signing.check(PLO, parse_event(GOLDEN[53]), store, before) is None


def test_only_amendments_are_signed_and_the_key_must_exist(run, db: str, keys: Path) -> None:
    from ledger.model.errors import MalformedEvent
    from ledger.model.events import HandEnded

    store = KeyStore(keys)
    store.new("floor")
    with pytest.raises(MalformedEvent):
        signing.sign("h", HandEnded(), store, "floor", [])
    assert run("import", str(DATA / "dispute" / "wrong-push.phh")).exit_code == 0
    refused = run("void", "dispute-1", "--reason", "r", "--by", "x", "--sign", "nobody")
    assert refused.exit_code == 2 and "no private key 'nobody'" in refused.output
    assert len(_payloads(db)) == 24  # nothing written
