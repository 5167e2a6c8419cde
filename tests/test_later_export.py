"""A later JSON-lines export of a hand the ledger holds in play adds the events it was missing
(README, JSON lines): the streams are compared as stored, row for row, an undo or a void
taken back among them, and a copy that parts from the stored one is refused naming the
first event that differs by its seq in the stream, before any rake one of them has not
reached yet."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_live_table import one_shot as cli

SEATS = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann")


def played(db: Path, hand: str, *actions: str) -> None:
    assert cli(db, "hand", "start", "--hand", hand, *SEATS)[0] == 0
    acted(db, hand, *actions)


def acted(db: Path, hand: str, *actions: str) -> None:
    for action in actions:
        assert cli(db, "act", hand, action)[0] == 0, action


def export(db: Path, file: Path) -> str:
    assert cli(db, "export", "--format", "jsonl", "-o", str(file))[0] == 0
    return file.read_text()


def stream(db: Path, hand: str) -> str:
    """``seq,type`` of each stored row of ``hand``."""
    code, out, _ = cli(db, "sql", "--csv", "SELECT seq, type FROM events WHERE hand_id = "
                       f"'{hand}' ORDER BY seq")
    assert code == 0
    return out


def nets(db: Path) -> dict[str, int]:
    code, out, _ = cli(db, "balances", "--json")
    assert code == 0
    return {p["player"]: p["net"] for p in json.loads(out)["players"]}


ONE = "imported 1 hand(s) (1 events) from 1 file(s); 0 already in the ledger; 0 rejected\n"
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
DEALT = ("d dh Ann ????", "d dh Bob ????")


def amended_then_called(tmp_path: Path, *amend: tuple[str, ...]) -> tuple[Path, Path, Path]:
    """Hand h1 in ledger a: dealt, then ``amend`` (commands); exported (e1), imported into
    ledger b, Ann calls there (seq 8), exported again (e2)."""
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    e1, e2 = tmp_path / "e1.jsonl", tmp_path / "e2.jsonl"
    played(a, "h1", *DEALT)
    for command in amend:
        assert cli(a, *command)[0] == 0, command
    export(a, e1)
    assert cli(b, "import", str(e1))[0] == 0
    acted(b, "h1", "Ann cc")
    export(b, e2)
    return a, b, e2


def _built(factory: pytest.TempPathFactory, build: Callable[[Path], object]) -> Path:
    """A new folder, ``build(folder)`` run in it: the ledgers and files a module fixture
    makes once, for :func:`_copied`."""
    folder = factory.mktemp("built")
    build(folder)
    return folder


def _copied(built: Path, tmp_path: Path) -> Path:
    """Every ledger and file of ``built`` copied into ``tmp_path`` (the test's own to
    change); returns ``tmp_path``."""
    shutil.copytree(built, tmp_path, dirs_exist_ok=True)
    return tmp_path


@pytest.fixture(scope="module")
def undone_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:func:`amended_then_called` with Ann's raise to 10 undone in ledger a."""
    return _built(tmp_path_factory, lambda folder: amended_then_called(
        folder, ("act", "h1", "Ann cbr 10"), ("undo", "h1", "--by", "host")))


@pytest.fixture
def undone(undone_built: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """``(a, b, e2)`` of :func:`amended_then_called` with Ann's raise undone in a, copied
    into the test's folder (``e1.jsonl`` beside them)."""
    _copied(undone_built, tmp_path)
    return tmp_path / "a.duckdb", tmp_path / "b.duckdb", tmp_path / "e2.jsonl"


def test_a_later_export_adds_the_call_after_an_undo(undone: tuple[Path, Path, Path]) -> None:
    a, b, e2 = undone
    assert cli(a, "import", str(e2))[:2] == (0, ONE)
    assert stream(a, "h1") == ("seq,type\n1,hand_started\n2,forced_bet\n3,forced_bet\n"
                               "4,cards_dealt\n5,cards_dealt\n6,bet_raise\n7,correction\n"
                               "8,call\n")
    assert cli(a, "export", "--format", "jsonl")[1] == e2.read_text()
    # the raise taken back: Ann's small blind called, 2 chips each in the pot
    assert nets(a) == nets(b) == {"Ann": -2, "Bob": -2}
    assert "Bob to act: check, raise to 4..100" in cli(a, "state", "h1")[1]
    assert cli(a, "verify")[0] == 0
    assert cli(a, "import", str(e2))[:2] == (0, KNOWN)  # nothing twice


def test_a_later_export_adds_the_call_after_a_void_undone(tmp_path: Path) -> None:
    a, b, e2 = amended_then_called(tmp_path, ("void", "h1", "--reason", "oops", "--by", "host"),
                                   ("undo", "h1", "--by", "host"))
    assert cli(a, "import", str(e2))[:2] == (0, ONE)
    assert stream(a, "h1") == ("seq,type\n1,hand_started\n2,forced_bet\n3,forced_bet\n"
                               "4,cards_dealt\n5,cards_dealt\n6,hand_voided\n7,correction\n"
                               "8,call\n")
    assert cli(a, "export", "--format", "jsonl")[1] == e2.read_text()
    assert nets(a) == nets(b) == {"Ann": -2, "Bob": -2}


def test_the_plain_later_export_still_adds_the_call(tmp_path: Path) -> None:
    a, b, e2 = amended_then_called(tmp_path)
    assert cli(a, "import", str(e2))[:2] == (0, ONE)
    assert stream(a, "h1") == ("seq,type\n1,hand_started\n2,forced_bet\n3,forced_bet\n"
                               "4,cards_dealt\n5,cards_dealt\n6,call\n")
    assert nets(a) == {"Ann": -2, "Bob": -2}


def test_an_earlier_export_with_an_undo_adds_nothing_where_the_hand_went_on(
        tmp_path: Path, undone: tuple[Path, Path, Path]) -> None:
    a, b, e2 = undone
    c = tmp_path / "c.duckdb"
    assert cli(c, "import", str(e2))[0] == 0
    assert cli(c, "import", str(tmp_path / "e1.jsonl"))[:2] == (0, KNOWN)
    assert stream(c, "h1").endswith("7,correction\n8,call\n")


def test_a_later_export_that_parts_after_an_undo_names_its_stream_seq(
        undone: tuple[Path, Path, Path]) -> None:
    a, b, e2 = undone
    acted(a, "h1", "Ann f")  # a's seq 8 is a fold, b's a call
    code, out, err = cli(a, "import", str(e2))
    assert (code, out) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n")
    assert err.endswith(
        f"error: {e2}:8, hand h1: a different hand h1 is already in the ledger: its event 8 "
        'is call {"player":"Ann"} here, fold {"player":"Ann"} in the ledger; a change to a '
        "stored hand is a correction (`handledger correct h1 ...`)\n")
    assert stream(a, "h1").endswith("7,correction\n8,fold\n")  # nothing written


def _raised(folder: Path) -> None:
    """Hand h1 in ledger a dealt, Ann raises to 10; exported (early) and imported into b."""
    a, b, early = folder / "a.duckdb", folder / "b.duckdb", folder / "early.jsonl"
    played(a, "h1", *DEALT, "Ann cbr 10")
    export(a, early)
    assert cli(b, "import", str(early))[0] == 0


@pytest.fixture(scope="module")
def raised_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _built(tmp_path_factory, _raised)


def test_a_void_a_later_export_adds_ends_the_hand(tmp_path: Path, raised_built: Path) -> None:
    _copied(raised_built, tmp_path)  # h1 raised in a, exported (early), imported into b
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    early, late = tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    assert cli(a, "void", "h1", "--reason", "misdeal", "--by", "host")[0] == 0
    export(a, late)
    assert cli(b, "import", str(late))[:2] == (0, ONE)
    assert stream(b, "h1").endswith("6,bet_raise\n7,hand_voided\n")
    assert nets(b) == {}  # a voided hand of no session is in no book
    # the earlier one: nothing more; the hand is voided here, which the summary says
    assert cli(b, "import", str(early))[:2] == (0, (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger (1 of them "
        "voided here: an import never brings a voided hand back); 0 rejected\n"))


FLOP = ("Ann cc", "Bob cc", "d db 9h8h7h")
TO_THE_END = ("Bob cc", "Ann cc", "d db 2c", "Bob cc", "Ann cc", "d db 3d", "Bob cc", "Ann cc")


def _to_the_end(folder: Path) -> None:
    """Hand z1 in ledger a dealt through the flop, exported (mid.jsonl), played on with
    :data:`TO_THE_END`."""
    a, mid = folder / "a.duckdb", folder / "mid.jsonl"
    played(a, "z1", *DEALT, *FLOP)
    export(a, mid)
    acted(a, "z1", *TO_THE_END)


@pytest.fixture(scope="module")
def flop_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _built(tmp_path_factory, _to_the_end)


def edited_flop(tmp_path: Path, built: Path, *end: str) -> tuple[Path, Path, Path]:
    """Hand z1 in ledger a dealt through the flop, exported (mid), then played to its end with
    ``end`` (a copy of ``built``, :func:`_to_the_end`, played on); mid with its flop's 9h made
    9d (edited)."""
    _copied(built, tmp_path)
    a, mid, edited = tmp_path / "a.duckdb", tmp_path / "mid.jsonl", tmp_path / "edited.jsonl"
    text = mid.read_text()
    acted(a, "z1", *end)
    assert text.count('"cards":["9h","8h","7h"]') == 1
    edited.write_text(text.replace('"cards":["9h","8h","7h"]', '"cards":["9d","8h","7h"]'))
    return a, mid, edited


CARD = (":8, hand z1: a different hand z1 is already in the ledger: its "
        'event 8 is cards_dealt {"cards":["9d","8h","7h"],"face_up":[],"player":null,"run":… '
        'here, cards_dealt {"cards":["9h","8h","7h"],"face_up":[],"player":null,"run":… in the '
        "ledger; a change to a stored hand is a correction (`handledger correct z1 ...`)\n")
REJECTED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def test_an_edited_export_of_a_raked_hand_names_the_card(tmp_path: Path,
                                                         flop_built: Path) -> None:
    a, mid, edited = edited_flop(tmp_path, flop_built, "rake 1", "pay Ann 3", "end")
    assert cli(a, "import", str(mid))[:2] == (0, KNOWN)  # the rake is no difference
    assert cli(a, "import", str(edited)) == (2, REJECTED, f"error: {edited}{CARD}")
    assert stream(a, "z1").endswith("16,check\n17,recorded_rake\n18,recorded_payout\n"
                                    "19,hand_ended\n")
    assert nets(a) == {"Ann": 1, "Bob": -2}  # Ann paid 3 of the pot of 4, less the rake


def test_an_edited_export_of_an_unraked_hand_names_the_card(tmp_path: Path,
                                                           flop_built: Path) -> None:
    a, mid, edited = edited_flop(tmp_path, flop_built, "pay Ann 4", "end")
    assert cli(a, "import", str(mid))[:2] == (0, KNOWN)
    assert cli(a, "import", str(edited)) == (2, REJECTED, f"error: {edited}{CARD}")
    assert nets(a) == {"Ann": 2, "Bob": -2}


def test_an_undo_a_later_export_adds_is_a_hand_going_on_not_a_completion(
        tmp_path: Path, raised_built: Path) -> None:
    _copied(raised_built, tmp_path)  # h1 raised in a, exported (early), imported into b
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    late = tmp_path / "late.jsonl"
    assert cli(a, "undo", "h1", "--by", "host")[0] == 0
    acted(a, "h1", "Ann cc")
    export(a, late)
    assert cli(b, "import", str(late))[:2] == (
        0, "imported 1 hand(s) (2 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert stream(b, "h1").endswith("6,bet_raise\n7,correction\n8,call\n")
    assert nets(b) == {"Ann": -2, "Bob": -2}
    assert cli(b, "import", str(late))[:2] == (0, KNOWN)
