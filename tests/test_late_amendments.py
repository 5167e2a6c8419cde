"""A later JSON-lines export of a hand that is over in this ledger, amended in another ledger
that imported it (README, JSON lines): its corrections, voids and undos are appended as made
(their own ``by``, ``reason`` and signature) and the summary says so; amendments that part
from this ledger's are refused in one line naming the hand and the first row not stored,
nothing written; an earlier export adds nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_later_export import KNOWN, SEATS, acted, export, nets, played, stream
from tests.test_live_table import one_shot as cli

PLAYED = ("d dh Ann ????", "d dh Bob ????", "Ann cbr 10", "Bob f", "pay Ann 12", "end")
ORIGINAL = ("seq,type\n1,hand_started\n2,forced_bet\n3,forced_bet\n4,cards_dealt\n"
            "5,cards_dealt\n6,bet_raise\n7,fold\n8,recorded_payout\n9,hand_ended\n")
AMENDED = ("imported 0 hand(s) ({n} events) from 1 file(s); 0 already in the ledger; 0 rejected;"
           " 1 stored hand(s) amended from this later export (its corrections and voids "
           "appended as made: `history` names them)\n")
#: the wrong winner: Ann folded, Bob takes her small blind
FOLDED = ("--replace", "6", "Ann f", "--delete", "7", "--replace", "8", "pay Bob 3",
          "--reason", "Ann folded", "--by", "host")


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ledger a.duckdb, where hand h1 was played to its end (Ann +2, Bob -2),
    its export e1.jsonl, and ledger b.duckdb that imported e1: built once for the module,
    copied by each test (:func:`amended_elsewhere`), never changed."""
    folder = tmp_path_factory.mktemp("dealt")
    a, b, e1 = folder / "a.duckdb", folder / "b.duckdb", folder / "e1.jsonl"
    played(a, "h1", *PLAYED)
    export(a, e1)
    assert cli(b, "import", str(e1))[0] == 0
    return folder


def amended_elsewhere(tmp_path: Path, dealt: Path, *amend: tuple[str, ...]
                      ) -> tuple[Path, Path, Path]:
    """Hand h1 played to its end in ledger a (Ann +2, Bob -2), exported (e1), imported into
    ledger b (copies of ``dealt`` in ``tmp_path``), amended there by ``amend`` (commands),
    and exported from b again (e2)."""
    a = copy_ledger(dealt / "a.duckdb", tmp_path / "a.duckdb")
    b = copy_ledger(dealt / "b.duckdb", tmp_path / "b.duckdb")
    shutil.copyfile(dealt / "e1.jsonl", tmp_path / "e1.jsonl")
    e2 = tmp_path / "e2.jsonl"
    for command in amend:
        code, out, err = cli(b, *command)
        assert code == 0, (command, out, err)
    export(b, e2)
    return a, b, e2


def test_a_correction_made_elsewhere_is_appended(tmp_path: Path, dealt: Path) -> None:
    a, b, e2 = amended_elsewhere(tmp_path, dealt, ("correct", "h1", *FOLDED))
    assert nets(a) == {"Ann": 2, "Bob": -2}
    assert cli(a, "import", str(e2))[:2] == (0, AMENDED.format(n=1))
    assert stream(a, "h1") == ORIGINAL + "10,correction\n"
    assert nets(a) == nets(b) == {"Ann": -1, "Bob": 1}
    history = cli(a, "history", "h1")[1]
    assert "   10 @10 " in history and "correction by host: Ann folded" in history
    assert cli(a, "export", "--format", "jsonl")[1] == e2.read_text()
    assert cli(a, "verify")[0] == 0
    assert cli(a, "import", str(e2))[:2] == (0, KNOWN)  # nothing twice
    assert cli(a, "import", str(tmp_path / "e1.jsonl"))[:2] == (0, KNOWN)  # the earlier one


def test_a_void_made_elsewhere_is_appended(tmp_path: Path, dealt: Path) -> None:
    a, b, e2 = amended_elsewhere(tmp_path, dealt,
                                 ("void", "h1", "--reason", "misdeal", "--by", "dee"))
    assert cli(a, "import", str(e2))[:2] == (0, AMENDED.format(n=2))
    assert stream(a, "h1") == ORIGINAL + "10,correction\n11,hand_voided\n"
    assert nets(a) == nets(b) == {}  # a voided hand of no session is in no book
    assert "hand_voided by dee: misdeal" in cli(a, "history", "h1")[1]
    assert cli(a, "import", str(e2))[:2] == (0, (  # nothing twice, the hand voided here
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (1 of them "
        "voided here: an import never brings a voided hand back); 0 rejected\n"))


def test_an_undo_made_elsewhere_is_appended(tmp_path: Path, dealt: Path) -> None:
    a, b, e2 = amended_elsewhere(tmp_path, dealt, ("correct", "h1", *FOLDED),
                                 ("undo", "h1", "--by", "dee"))
    assert cli(a, "import", str(e2))[:2] == (0, AMENDED.format(n=2))
    assert stream(a, "h1") == ORIGINAL + "10,correction\n11,correction\n"
    assert nets(a) == nets(b) == {"Ann": 2, "Bob": -2}  # the correction taken back
    assert "correction by dee: undo" in cli(a, "history", "h1")[1]
    assert cli(a, "export", "--format", "jsonl")[1] == e2.read_text()
    assert cli(a, "import", str(e2))[:2] == (0, KNOWN)


def test_a_void_undone_elsewhere_is_appended(tmp_path: Path, dealt: Path) -> None:
    a, b, e2 = amended_elsewhere(tmp_path, dealt,
                                 ("void", "h1", "--reason", "misdeal", "--by", "dee"),
                                 ("undo", "h1", "--by", "dee"))
    assert cli(a, "import", str(e2))[:2] == (0, AMENDED.format(n=3))
    assert nets(a) == nets(b) == {"Ann": 2, "Bob": -2}
    assert cli(a, "verify")[0] == 0
    # an export b made between its void and its undo holds less than a now: nothing added
    voided = tmp_path / "voided.jsonl"
    voided.write_text("".join(e2.read_text().splitlines(keepends=True)[:-1]))
    assert '"seq":11' in voided.read_text() and '"seq":12' not in voided.read_text()
    assert cli(a, "import", str(voided))[:2] == (0, KNOWN)
    assert stream(a, "h1") == ORIGINAL + "10,correction\n11,hand_voided\n12,correction\n"


def test_amendments_that_part_from_this_ledgers_are_refused(tmp_path: Path, dealt: Path) -> None:
    a, b, e2 = amended_elsewhere(tmp_path, dealt,
                                 ("void", "h1", "--reason", "misdeal", "--by", "dee"))
    assert cli(a, "correct", "h1", *FOLDED)[0] == 0
    code, out, err = cli(a, "import", str(e2))
    assert (code, out) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n")
    assert err == (
        f"error: {e2}:10, hand h1: the ledger's copy of this hand does not hold the file's "
        "amendments and they cannot be appended: its event 10 is correction "
        '{"by":"dee","changes":[{"event":null,"op":"delete","seq":9}… here, correction '
        '{"by":"host","changes":[{"event":{"player":"Ann","schema_ve… in the ledger; nothing '
        "of this hand was written (amend it here: `handledger correct h1 ...`, `void`, "
        "`undo`)\n")
    assert stream(a, "h1") == ORIGINAL + "10,correction\n"  # nothing written
    assert nets(a) == {"Ann": -1, "Bob": 1}


def test_a_signed_correction_made_elsewhere_keeps_its_signature(
        tmp_path: Path, dealt: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    assert cli(tmp_path / "k.duckdb", "key", "new", "floor")[0] == 0
    a, b, e2 = amended_elsewhere(tmp_path, dealt,
                                 ("correct", "h1", *FOLDED, "--sign", "floor"))
    played(a, "h2", *PLAYED)  # a has rows b has not: the correction stands elsewhere
    assert cli(a, "import", str(e2))[:2] == (0, AMENDED.format(n=1))
    assert stream(a, "h1") == ORIGINAL + "10,correction\n"
    assert nets(a) == {"Ann": 1, "Bob": -1}  # h1 as corrected (-1/+1), h2 as played (+2/-2)
    mine, theirs = (json.loads(cli(db, "history", "h1", "--json")[1])["amendments"][0]
                    for db in (a, b))
    assert mine["signature"] == theirs["signature"] == {
        "status": "good", "signer": "floor", "note": "signed by floor", "binds": "hand",
        "covers": "binds the hand as it stood (seqs 1-9) and this correction"}
    # the seq it changes are the hand's own; its positions, where b recorded it
    assert mine["position"] == 19 and theirs["position"] == 10
    assert mine["positions"] == theirs["positions"] == [6, 7, 8]



def test_a_correction_made_elsewhere_to_a_hand_of_a_closed_session_needs_closed(
        tmp_path: Path) -> None:
    """h1 played in session s (Ann and Bob bought in for 100 each; Ann +2, Bob -2) and s
    closed in ledger a; b imports a's export and corrects h1 there with --closed (Ann folded:
    Ann -1, Bob +1). b's export into a would append that correction to a's closed session:
    refused in one line naming the hand, nothing written (it was appended, exit 0);
    --closed records it, as made."""
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    e1, e2 = tmp_path / "e1.jsonl", tmp_path / "e2.jsonl"
    assert cli(a, "session", "open", "s")[0] == 0
    for who in ("Ann", "Bob"):
        assert cli(a, "buyin", "s", who, "100")[0] == 0
    assert cli(a, "hand", "start", "--hand", "h1", *SEATS, "--session", "s")[0] == 0
    acted(a, "h1", *PLAYED)
    assert cli(a, "session", "close", "s")[0] == 0
    export(a, e1)
    assert cli(b, "import", str(e1))[0] == 0
    assert cli(b, "correct", "h1", *FOLDED, "--closed")[0] == 0
    export(b, e2)
    before = stream(a, "h1")
    assert cli(a, "import", str(e2)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {e2}:4, hand h1: session 's' is closed (entry 4) and this file would append "
        "to the hand the corrections and voids another ledger made to it: its books were "
        "settled up at the close; nothing of the file was written; --closed records it "
        "anyway\n")
    assert stream(a, "h1") == before == ORIGINAL
    assert nets(a) == {"Ann": 2, "Bob": -2}
    assert cli(a, "import", "--closed", str(e2))[:2] == (0, AMENDED.format(n=1))
    assert stream(a, "h1") == ORIGINAL + "10,correction\n"
    assert nets(a) == nets(b) == {"Ann": -1, "Bob": 1}
