"""An import checks every signed correction and void of a JSON-lines file before it writes
anything (README, JSON lines; :mod:`replay.ingest.signatures`), and a refusal of a copy of a
stored hand names the line of the row that differs.

The files are written here by hand: hand h1 (NT 1/2, Bob 150, Ann 200, button Ann: Ann
raises to 8, Bob folds, Ann is paid 10), nine lines, and the amendments a ledger would add
(signed with a key made for the test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import replay.ingest.parallel as par
from ledger.formats.jsonl.importer import items_of
from ledger.formats.jsonl.lines import jsonl_line, read_jsonl_text
from ledger.model.events import Change, Correction, EventSignature, HandVoided
from ledger.store import signing
from ledger.store.keys import KeyStore
from ledger.store.store import Ledger
from replay.ingest.pipeline import import_paths
from replay.ingest.signatures import Signatures
from tests.test_later_export import stream
from tests.test_live_table import one_shot as cli


def hand(name: str = "h1", bob: str = '"Qh","Qd"') -> str:
    """The nine lines of hand ``name`` (Bob dealt ``bob``)."""
    events = (
        f'{{"type":"hand_started","hand":"{name}","game":"NT","button":"Ann","seats":['
        '{"player":"Bob","stack":150},{"player":"Ann","stack":200}],"stakes":{"betting":'
        '"no_limit","blinds_or_straddles":[1,2],"min_bet":2}}',
        '{"type":"forced_bet","player":"Bob","kind":"big_blind","amount":2}',
        '{"type":"forced_bet","player":"Ann","kind":"small_blind","amount":1}',
        '{"type":"cards_dealt","player":"Ann","cards":["As","Ks"]}',
        f'{{"type":"cards_dealt","player":"Bob","cards":[{bob}]}}',
        '{"type":"bet_raise","player":"Ann","to":8}',
        '{"type":"fold","player":"Bob"}',
        '{"type":"recorded_payout","player":"Ann","amount":10}',
        '{"type":"hand_ended","status":"complete"}')
    return "".join(f'{{"hand":"{name}","seq":{seq},"event":{event}}}\n'
                   for seq, event in enumerate(events, 1))


def events_of(text: str) -> list[Any]:
    """The events of the one hand of the JSON lines ``text`` as an import reads them (its
    ``hand_started`` given its game's odd-chip order: :func:`items_of`), what a signature
    of an amendment after them binds (:mod:`ledger.store.signing`)."""
    [read] = items_of(read_jsonl_text(text), None).items
    return read.events


def kd(keys: KeyStore | None = None) -> str:
    """Line 10 of h1: a correction by floor making Ann's Ks a Kd, signed by key floor of
    ``keys`` (None: unsigned), binding h1 as :func:`hand` writes it."""
    event: Any = Correction(changes=[Change(op="replace", seq=4, event={
        "type": "cards_dealt", "player": "Ann", "cards": ["As", "Kd"]})], positions=[4],
        by="floor", reason="typo")
    if keys is not None:
        event = signing.sign("h1", event, keys, "floor", events_of(hand()))
    return jsonl_line("h1", 10, event) + "\n"


def voided(keys: KeyStore, older: bool = False) -> str:
    """Lines 10 and 11 of h1: its end deleted and a void by floor, signed by key floor
    (``older``: with a signature of the older form, which binds the void only)."""
    drop = Correction(changes=[Change(op="delete", seq=9)], positions=[9], by="floor",
                      reason="void: misdeal")
    void = HandVoided(by="floor", reason="misdeal")
    if older:
        key, value = keys.sign("floor", signing.message("h1", void))
        void = void.model_copy(update={"signature": EventSignature(signer="floor", key=key,
                                                                   value=value)})
    else:
        void = signing.sign("h1", void, keys, "floor", [*events_of(hand()), drop])
    return jsonl_line("h1", 10, drop) + "\n" + jsonl_line("h1", 11, void) + "\n"


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KeyStore:
    """Key floor in the default key directory ($HANDLEDGER_KEYS)."""
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    store = KeyStore(tmp_path / "keys")
    store.new("floor")
    return store


REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"
ALTERED = ("fails its signature: the signature does not verify with key 'floor': altered (it "
           "covers the hand's 9 row(s) before it and the correction: one of them is not as "
           "signed); nothing of the file was written\n")


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_an_altered_signed_correction_of_a_new_hand_is_refused(tmp_path: Path,
                                                               keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    good = write(tmp_path / "good.jsonl", hand() + kd(keys))
    bad = write(tmp_path / "bad.jsonl", good.read_text().replace('"Kd"', '"Kh"'))
    assert cli(db, "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:10, hand h1: its correction at seq 10 (by floor) {ALTERED}")
    assert not db.exists()  # nothing written, not even the ledger file
    assert cli(db, "import", str(good))[:2] == (
        0, "imported 1 hand(s) (10 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert "signature ok: signed by floor" in cli(db, "history", "h1")[1]


def test_an_altered_signed_amendment_of_a_stored_hand_is_refused(tmp_path: Path,
                                                                 keys: KeyStore) -> None:
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    bad = write(tmp_path / "bad.jsonl", hand() + kd(keys).replace('"typo"', '"a typo"'))
    assert cli(db, "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:10, hand h1: its correction at seq 10 (by floor) {ALTERED}")
    assert stream(db, "h1").endswith("8,recorded_payout\n9,hand_ended\n")  # not amended
    bad = write(tmp_path / "void.jsonl", hand() + voided(keys).replace(
        '"reason":"misdeal"', '"reason":"misdeal!"'))
    assert cli(db, "import", str(bad)) == (
        2, REFUSED, f"error: {bad}:11, hand h1: its hand_voided at seq 11 (by floor) "
                    + ALTERED.replace("9 row(s)", "10 row(s)").replace("the correction",
                                                                       "the void"))
    assert stream(db, "h1").endswith("9,hand_ended\n")
    good = write(tmp_path / "good.jsonl", hand() + voided(keys))
    assert cli(db, "import", str(good))[0] == 0
    assert stream(db, "h1").endswith("9,hand_ended\n10,correction\n11,hand_voided\n")


def test_a_key_not_held_is_a_note_unless_keys_are_given(tmp_path: Path, keys: KeyStore,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "h1.jsonl", hand() + kd(keys))
    key = keys.info("floor").fingerprint
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # a key directory without floor's key
    code, out, err = cli(tmp_path / "given.duckdb", "import", "--keys", str(elsewhere), str(path))
    assert (code, out) == (2, REFUSED)
    assert err == (f"error: {path}:10, hand h1: its correction at seq 10 (by floor) is signed by "
                   f"a key {key} (as 'floor') that {elsewhere} does not hold: `handledger key "
                   "add` it there to check it (--keys: every signature must verify); nothing of "
                   "the file was written\n")
    assert not (tmp_path / "given.duckdb").exists()
    code, out, err = cli(tmp_path / "given.duckdb", "import", "--keys", str(keys.directory),
                         str(path))
    assert (code, err) == (0, "")
    monkeypatch.setenv("HANDLEDGER_KEYS", str(elsewhere))  # as `history` without --keys
    code, out, err = cli(tmp_path / "default.duckdb", "import", str(path))
    assert (code, out) == (
        0, "imported 1 hand(s) (10 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert err == (f"note: {path}:10, hand h1: its correction at seq 10 (by floor) is signed by "
                   f"an unknown key {key} (as 'floor'): not checked (`handledger key add` it to "
                   "check; `import --keys DIR` refuses a key DIR does not hold)\n")
    history = cli(tmp_path / "default.duckdb", "history", "h1")[1]
    assert "signature unknown key: signed by an unknown key" in history


def test_the_workers_leave_a_signed_file_to_the_one_process_check(
        tmp_path: Path, keys: KeyStore, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "two.jsonl", hand("h0") + (hand() + kd(keys)).replace(
        '"Kd"', '"Kh"'))
    assert len(par.split(path.read_bytes(), 4)) == 2  # a part for each hand
    tried: list[Any] = []
    real = par.import_parallel
    monkeypatch.setattr(par, "import_parallel",
                        lambda *a, **k: tried.append(real(*a, **k)) or tried[-1])
    with Ledger(tmp_path / "p.duckdb") as ledger:
        report = import_paths(ledger, [path], strict=False, session=None, pn_ledger=None,
                              jobs=2, signatures=Signatures(keys))
        assert ledger.count() == 0
    assert tried == [None]  # the workers' attempt rolled back
    assert report.errors == [
        f"{path}:19, hand h1: its correction at seq 10 (by floor) {ALTERED.rstrip()}"]


def test_a_differing_copy_of_a_stored_hand_names_the_line_of_its_row(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand())))[0] == 0
    other = write(tmp_path / "other.jsonl", hand("h0") + hand(bob='"Qh","Qs"'))
    code, out, err = cli(db, "import", str(other))
    assert (code, out) == (
        2, "imported 1 hand(s) (9 events) from 1 file(s); 0 already in the ledger; 1 rejected\n")
    assert err == (
        f"error: {other}:14, hand h1: a different hand h1 is already in the ledger: its event 5 "
        'is cards_dealt {"cards":["Qh","Qs"],"face_up":[],"player":"Bob","run":1} here, '
        'cards_dealt {"cards":["Qh","Qd"],"face_up":[],"player":"Bob","run":1} in the ledger; '
        "a change to a stored hand is a correction (`handledger correct h1 ...`)\n")


def test_amendments_that_part_name_the_line_of_the_first_row_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "b.duckdb"
    assert cli(db, "import", str(write(tmp_path / "h1.jsonl", hand() + kd())))[0] == 0
    other = write(tmp_path / "other.jsonl", hand("h0") + hand() + kd().replace('"Kd"', '"Kh"'))
    code, out, err = cli(db, "import", str(other))
    assert code == 2
    assert err.startswith(
        f"error: {other}:19, hand h1: the ledger's copy of this hand does not hold the file's "
        "amendments and they cannot be appended: its event 10 is correction ")
