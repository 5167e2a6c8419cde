"""A signed amendment is never converted to another chip value: a JSON-lines file of a hand
counted in 0.02 USD chips with a signed correction of its payouts, imported with ``--session``
into a session of 0.01 USD chips, would have the correction's amounts doubled and its
signature no longer verify (``history``: FAILS, altered); the file is refused in one line,
nothing written (README, JSON lines: signatures are checked before anything is written).
Into a session of the file's chip value it goes in, its signature good. A signed void holds
no amounts: signed in the older form, which binds the void only, it is converted with its hand;
signed as every signature is now, binding the hand's rows before it (their amounts and unit), it
is refused like the correction (:mod:`ledger.store.signing`)."""

from __future__ import annotations

from pathlib import Path

from ledger.formats.jsonl.lines import jsonl_line
from ledger.model.events import Change, Correction, HandVoided
from ledger.store import signing
from ledger.store.keys import KeyStore
from tests.test_import_signatures import (  # noqa: F401
    REFUSED,
    events_of,
    hand,
    keys,
    voided,
    write,
)
from tests.test_later_export import stream
from tests.test_live_table import one_shot as cli

TWO_CENTS = '"unit":{"currency":"USD","minor_per_chip":2},'


def in_two_cents() -> str:
    """Hand h1 of :func:`tests.test_import_signatures.hand` counted in 0.02 USD chips."""
    return hand().replace('"type":"hand_started",', '"type":"hand_started",' + TWO_CENTS, 1)


def split(store: KeyStore) -> str:
    """Line 10 of h1: Ann's payout of 10 made her uncalled 6 returned and 4 won, by floor,
    signed with key floor."""
    event = Correction(changes=[
        Change(op="replace", seq=8, event={"type": "recorded_payout", "player": "Ann",
                                           "amount": 6, "returned": True}),
        Change(op="insert_after", seq=8, event={"type": "recorded_payout", "player": "Ann",
                                                "amount": 4})],
        positions=[8], by="floor", reason="uncalled bet apart")
    return jsonl_line("h1", 10, signing.sign("h1", event, store, "floor",
                                             events_of(in_two_cents()))) + "\n"


def _session(db: Path, chip: str) -> None:
    assert cli(db, "session", "open", "b", "--chip-value", chip, "--currency", "USD")[0] == 0


def test_a_signed_correction_is_not_converted_to_another_chip(tmp_path: Path,
                                                              keys: KeyStore) -> None:  # noqa: F811
    path = write(tmp_path / "night.jsonl", in_two_cents() + split(keys))
    db = tmp_path / "cents.duckdb"
    _session(db, "0.01")
    assert cli(db, "import", "--session", "b", str(path)) == (
        2, REFUSED, f"error: {path}:10, hand h1: its correction at seq 10 (by floor) is "
                    "signed, and a signed amendment cannot be converted to another chip value: "
                    "the file counts chips of 0.02 USD, session b chips of 0.01 USD, and the "
                    "signature covers the amounts as signed; import the file into a session "
                    "whose chip is 0.02 USD; nothing of the file was written\n")
    assert cli(db, "sql", "SELECT count(*) FROM events WHERE hand_id IS NOT NULL",
               "--csv")[1] == "count_star()\n0\n"
    same = tmp_path / "same.duckdb"
    _session(same, "0.02")
    assert cli(same, "import", "--session", "b", str(path))[:2] == (
        0, "imported 1 hand(s) (10 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
    history = cli(same, "history", "h1")[1]
    assert "signature ok: signed by floor" in history
    assert "replace seq 8 recorded_payout Ann 6 True" in history


def test_a_void_signed_in_the_older_form_is_converted(tmp_path: Path,
                                                      keys: KeyStore) -> None:  # noqa: F811
    path = write(tmp_path / "void.jsonl", in_two_cents() + voided(keys, older=True))
    db = tmp_path / "cents.duckdb"
    _session(db, "0.01")
    assert cli(db, "import", "--session", "b", str(path))[:2] == (
        0, "imported 1 hand(s) (11 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
    assert stream(db, "h1").endswith("9,hand_ended\n10,correction\n11,hand_voided\n")
    assert "signature ok: signed by floor" in cli(db, "history", "h1")[1]
    code, out, _ = cli(db, "sql", "SELECT payload->>'$.seats[1].stack' FROM events "
                       "WHERE hand_id = 'h1' AND seq = 1", "--csv")
    assert out.splitlines()[1] == "400"  # Ann's 200 chips of 0.02 USD, in cents


def test_a_void_signed_binding_the_hand_is_not_converted(tmp_path: Path,
                                                         keys: KeyStore) -> None:  # noqa: F811
    drop = Correction(changes=[Change(op="delete", seq=9)], positions=[9], by="floor",
                      reason="void: misdeal")
    void = signing.sign("h1", HandVoided(by="floor", reason="misdeal"), keys, "floor",
                        [*events_of(in_two_cents()), drop])
    path = write(tmp_path / "void.jsonl", in_two_cents() + jsonl_line("h1", 10, drop) + "\n"
                 + jsonl_line("h1", 11, void) + "\n")
    db = tmp_path / "cents.duckdb"
    _session(db, "0.01")
    assert cli(db, "import", "--session", "b", str(path)) == (
        2, REFUSED, f"error: {path}:11, hand h1: its hand voided at seq 11 (by floor) is "
                    "signed, and a signed amendment cannot be converted to another chip value: "
                    "the file counts chips of 0.02 USD, session b chips of 0.01 USD, and the "
                    "signature covers the hand's 10 row(s) before it as signed, amounts and "
                    "unit; import the file into a session whose chip is 0.02 USD; nothing of "
                    "the file was written\n")
    assert stream(db, "h1") == "seq,type\n"
    same = tmp_path / "same.duckdb"
    _session(same, "0.02")
    assert cli(same, "import", "--session", "b", str(path))[0] == 0
    history = cli(same, "history", "h1")[1]
    assert ("signature ok: signed by floor; binds the hand as it stood (seqs 1-10) and this "
            "void") in history
