"""A signed correction or void binds the hand it changes (:mod:`ledger.store.signing`; README,
JSON lines): its signature covers the hand's rows before it, so a JSON-lines export whose other
rows were edited after the signing is refused on import, naming the amendment, and a stored row
edited under it makes ``history`` say FAILS. A signature of the older form, which binds the event
only, still verifies as it did, and ``history`` says so.

The ledger: ``data/dispute/wrong-push.phh`` (hand dispute-1, 24 rows: Cy raises to 6 at seq 7,
the flop 2c 7d 9h at seq 11, Bob paid 400 at seq 23) corrected by floor as
``data/dispute/dispute.sh`` does (seq 25: Bob 100, Ann 300), signed with key floor, and
exported as JSON lines (25 lines, one a row).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.model.events import EventSignature, parse_event
from ledger.store import signing
from ledger.store.keys import KeyStore
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.ledger_files import edit_payload
from tests.test_live_table import one_shot as cli

HAND = "dispute-1"
CORRECT = ("correct", HAND, "--replace", "23", "pay Bob 100", "--insert-after", "23",
           "pay Ann 300", "--reason", "wrong push", "--by", "floor")
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
IMPORTED = ("imported 1 hand(s) (25 events) from 1 file(s); 0 already in the ledger; "
            "0 rejected\n")
BINDS_HAND = ("signature ok: signed by floor; binds the hand as it stood (seqs 1-24) and this "
              "correction")
BINDS_EVENT = ("signature ok: signed by floor; binds this correction only, not the rest of the "
               "hand (a signature of the older form)")
#: Rows of the hand other than the signed correction, edited in the file: (seq, old, new).
EDITS = {
    "raise": (7, '"to":6,', '"to":8,'),
    "card": (11, '"cards":["2c","7d","9h"]', '"cards":["2d","7d","9h"]'),
    "payout": (23, '"amount":400,', '"amount":390,'),
    "rake": (1, '"source":{', '"source":{"rake":10,'),  # the file's rake, in its source
}


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The ledger of the module docstring, its keys directory and its export, made once."""
    base = tmp_path_factory.mktemp("signedhand")
    db, keys, out = base / "a.duckdb", base / "keys", base / "a.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANDLEDGER_KEYS", str(keys))
        assert cli(db, "key", "new", "floor")[0] == 0
        assert cli(db, "import", str(DATA / "dispute" / "wrong-push.phh"))[0] == 0
        assert cli(db, *CORRECT, "--sign", "floor")[0] == 0
        assert cli(db, "export", "--format", "jsonl", "-o", str(out))[0] == 0
    return db, keys, out


@pytest.fixture
def keys(signed: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> KeyStore:
    """The keys directory holding floor's key, as $HANDLEDGER_KEYS."""
    monkeypatch.setenv("HANDLEDGER_KEYS", str(signed[1]))
    return KeyStore(signed[1])


def edited(text: str, seq: int, old: str, new: str) -> str:
    """``text`` (JSON lines of dispute-1) with ``old`` made ``new`` in the row of ``seq``."""
    lines = text.splitlines(keepends=True)
    assert f'"seq":{seq},' in lines[seq - 1] and old in lines[seq - 1]
    lines[seq - 1] = lines[seq - 1].replace(old, new, 1)
    return "".join(lines)


def refusal(path: Path, rows: int = 24) -> str:
    return (f"error: {path}:25, hand {HAND}: its correction at seq 25 (by floor) fails its "
            "signature: the signature does not verify with key 'floor': altered (it covers "
            f"the hand's {rows} row(s) before it and the correction: one of them is not as "
            "signed); nothing of the file was written\n")


@pytest.mark.parametrize("edit", list(EDITS))
def test_an_export_with_another_row_of_the_signed_hand_edited_is_refused(
        edit: str, signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    path = tmp_path / "edited.jsonl"
    path.write_text(edited(signed[2].read_text(), *EDITS[edit]))
    db = tmp_path / "fresh.duckdb"
    assert cli(db, "import", str(path)) == (2, REFUSED, refusal(path))
    assert not db.exists()  # nothing written, not even the ledger file
    if edit == "raise":  # with worker processes the same: they leave a signed file to this one
        assert cli(db, "import", "--jobs", "2", str(path)) == (2, REFUSED, refusal(path))
        assert not db.exists()


def test_the_export_as_signed_imports_and_its_signature_binds_the_hand(
        signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    db = tmp_path / "fresh.duckdb"
    assert cli(db, "import", str(signed[2]))[:2] == (0, IMPORTED)
    assert BINDS_HAND in cli(db, "history", HAND)[1]
    [amendment] = json.loads(cli(db, "history", HAND, "--json")[1])["amendments"]
    assert amendment["signature"] == {
        "status": "good", "signer": "floor", "note": "signed by floor", "binds": "hand",
        "covers": "binds the hand as it stood (seqs 1-24) and this correction"}
    # into a session (its hand_started then names it): the hand the signer saw all the same
    fri = tmp_path / "fri.duckdb"
    assert cli(fri, "session", "open", "fri")[0] == 0
    assert cli(fri, "import", "--session", "fri", str(signed[2]))[:2] == (0, IMPORTED)
    assert BINDS_HAND in cli(fri, "history", HAND)[1]
    code, out, _ = cli(fri, "sql", "SELECT payload->>'$.session' FROM events WHERE seq = 1 "
                       f"AND hand_id = '{HAND}'", "--csv")
    assert out.splitlines()[1] == "fri"


def test_a_stored_row_edited_under_the_signature_fails_in_history(
        signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    db = copy_ledger(signed[0], tmp_path / "t.duckdb")
    edit_payload(db, 7, '"to":6', '"to":8')  # the chain relinked: only the books betray it
    code, out, _ = cli(db, "verify")
    assert code == 1 and "hash chain intact" in out and "derived tables FAIL" in out
    history = cli(db, "history", HAND, "--keys", str(signed[1]))[1]
    assert ("signature FAILS: the signature does not verify with key 'floor': altered (it "
            "covers the hand's 24 row(s) before it and the correction: one of them is not as "
            "signed); binds the hand as it stood (seqs 1-24) and this correction") in history


def test_void_signs_its_correction_and_the_void_each_binding_the_rows_before_it(
        signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    db = copy_ledger(signed[0], tmp_path / "t.duckdb")
    assert cli(db, "void", HAND, "--reason", "misdeal", "--by", "floor", "--sign", "floor")[0] == 0
    amendments = json.loads(cli(db, "history", HAND, "--json")[1])["amendments"]
    assert [(a["seq"], a["type"], a["signature"]["status"], a["signature"]["covers"])
            for a in amendments] == [
        (25, "correction", "good", "binds the hand as it stood (seqs 1-24) and this correction"),
        (26, "correction", "good", "binds the hand as it stood (seqs 1-25) and this correction"),
        (27, "hand_voided", "good",
         "binds the hand as it stood (seqs 1-26) and this void")]
    code, out, _ = cli(db, "sql", "SELECT count(*) FROM events WHERE payload LIKE "
                       "'%\"binds\":\"hand\"%'", "--csv")
    assert out.splitlines()[1] == "3"


def older(text: str, store: KeyStore) -> str:
    """``text`` (JSON lines of dispute-1) with its correction signed in the older form,
    which binds the hand id and the event only (the signed bytes of ``signing.message``
    without the hand's rows)."""
    lines = text.splitlines(keepends=True)
    row = json.loads(lines[24])
    event = parse_event(row["event"]).model_copy(update={"signature": None})
    key, value = store.sign("floor", signing.message(HAND, event))
    row["event"] = json.loads(json.dumps(event.model_copy(update={"signature": EventSignature(
        signer="floor", key=key, value=value)}).model_dump(mode="json")))
    lines[24] = json.dumps(row, separators=(",", ":")) + "\n"
    return "".join(lines)


def test_an_older_signature_binds_the_event_only_and_still_verifies(
        signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    path = tmp_path / "older.jsonl"
    path.write_text(older(signed[2].read_text(), keys))
    assert '"binds"' not in path.read_text()
    db = tmp_path / "fresh.duckdb"
    assert cli(db, "import", str(path))[:2] == (0, IMPORTED)
    assert BINDS_EVENT in cli(db, "history", HAND)[1]
    [amendment] = json.loads(cli(db, "history", HAND, "--json")[1])["amendments"]
    assert amendment["signature"]["binds"] == "event"
    code, out, _ = cli(db, "sql", "SELECT payload FROM events WHERE seq = 25", "--csv")
    assert '""signature"":{""key""' in out  # stored as written (CSV quotes): no ``binds``
    # it never covered the other rows: edited, the file still imports (as it always did)
    other = tmp_path / "other.jsonl"
    other.write_text(edited(path.read_text(), *EDITS["raise"]))
    assert cli(tmp_path / "other.duckdb", "import", str(other))[:2] == (0, IMPORTED)
    assert BINDS_EVENT in cli(tmp_path / "other.duckdb", "history", HAND)[1]
    # and its own event edited, it fails as it did
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().replace('"reason":"wrong push"', '"reason":"wrong"'))
    assert cli(tmp_path / "bad.duckdb", "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:25, hand {HAND}: its correction at seq 25 (by floor) fails "
                    "its signature: the signature does not verify with key 'floor': altered; "
                    "nothing of the file was written\n")


def test_where_a_ledger_read_the_hand_from_is_not_signed(
        signed: tuple[Path, Path, Path], keys: KeyStore, tmp_path: Path) -> None:
    """Ledger a imported the same PHH file from another path (its ``source.file``): the
    signed correction of the export is appended there, its signature good."""
    copy = tmp_path / "wp.phh"
    copy.write_bytes((DATA / "dispute" / "wrong-push.phh").read_bytes())
    a = tmp_path / "a.duckdb"
    assert cli(a, "import", str(copy))[0] == 0
    code, out, err = cli(a, "import", str(signed[2]))
    assert (code, err) == (0, "") and "1 stored hand(s) amended" in out
    assert BINDS_HAND in cli(a, "history", HAND)[1]
    code, out, _ = cli(a, "sql", "SELECT payload->>'$.source.file' FROM events WHERE seq = 1",
                       "--csv")
    assert out.splitlines()[1] == str(copy)
