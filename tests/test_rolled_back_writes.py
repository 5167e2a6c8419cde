"""A ledger file rolled back behind its own checkpoints file (an older copy put back, the
checkpoints file kept) takes no write (docs/LEDGER.md "Anchoring it"): every write is refused as
``checkpoint`` refuses to append, in the same words, exit 2, the file left byte for byte as it
was; a ledger with no checkpoints file is not checked.

The ledger: session fri (0.25 USD a chip) and an empty session s2; Ann 200, Bob 150, Cy 300,
Dee 100 and Eve 100 buy in; hand h0 as README's example (Ann wins the 300 pot),
hand h1 of Ann and Cy in play, its first card dealt: rows 1-28. The copy taken
then is put back after session sat was opened (row 29) and checkpointed."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest

from tests.console_run import handledger

H0 = ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy f", "Ann cbr 8", "Bob cbr 150",
      "Ann cc", "d db 2c7h9s", "d db Kd", "d db 3c", "Ann sm AsKs", "Bob sm QhQd",
      "pay Ann 300", "end")
START = ("hand", "start", "--session", "fri", "--game", "NT", "--stakes", "1/2")


@pytest.fixture(scope="module")
def rolled_back(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledger rolled back (module doc), its checkpoints file of position 29 beside it;
    copy it, never change it."""
    db = tmp_path_factory.mktemp("rolled") / "a.duckdb"
    steps = [("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"),
             ("session", "open", "s2", "--chip-value", "0.25", "--currency", "USD"),
             *(("buyin", "fri", who, chips) for who, chips in (
                 ("Ann", "200"), ("Bob", "150"), ("Cy", "300"), ("Dee", "100"), ("Eve", "100"))),
             (*START, "--hand", "h0", "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy"),
             *(("act", "h0", a) for a in H0),
             (*START, "--hand", "h1", "--seats", "Ann:350,Cy:300", "--button", "Cy"),
             ("act", "h1", "d dh Ann AhAd")]
    for step in steps:
        assert handledger(db, *step)[0] == 0, step
    shutil.copyfile(db, f"{db}.older")
    assert handledger(db, "session", "open", "sat")[0] == 0
    assert handledger(db, "checkpoint")[0] == 0
    shutil.copyfile(f"{db}.older", db)
    return db


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def test_every_write_on_a_ledger_rolled_back_behind_its_checkpoints_is_refused(
        rolled_back: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    for suffix in ("", ".checkpoints"):
        shutil.copyfile(f"{rolled_back}{suffix}", f"{db}{suffix}")
    before, record = _md5(db), Path(f"{db}.checkpoints").read_text()
    refused = (f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of "
               "position 29 (the ledger ends at position 28, before 29): nothing written; run "
               f"`handledger verify --against {db}.checkpoints`\n")
    writes = [
        (*START, "--hand", "h2", "--seats", "Dee:100,Eve:100", "--button", "Eve"),
        ("act", "h1", "d dh Cy 7c2d"), ("buyin", "fri", "Fay", "100"),
        ("cashout", "fri", "Dee", "100"), ("pay", "fri", "Bob", "Ann", "1.00"),
        ("correct", "h0", "--replace", "16", "pay Bob 300", "--reason", "wrong", "--by", "t"),
        ("void", "h0", "--reason", "misdeal", "--by", "t"), ("undo", "h1", "--by", "t"),
        ("entry", "amend", "fri", "5", "90", "--reason", "typo", "--by", "t"),
        ("entry", "retract", "fri", "6", "--reason", "typo", "--by", "t"),
        ("session", "open", "sun"), ("session", "set", "s2", "--chip-value", "0.5"),
        ("player", "alias", "Ann", "Annie"),
    ]
    for args in writes:
        assert handledger(db, *args) == (2, "", refused), args
        assert _md5(db) == before, args
    assert handledger(db, "table", "h1", input="d dh Cy 7c2d\n") == (2, "", refused)
    assert handledger(db, "session", "close", "s2") == (2, "", refused.replace(
        "nothing written", "session s2 not closed (its checkpoint could not be appended); "
        "nothing written"))
    assert _md5(db) == before and Path(f"{db}.checkpoints").read_text() == record
    fresh = tmp_path / "new.duckdb"  # a new ledger beside a kept checkpoints file
    shutil.copyfile(f"{db}.checkpoints", f"{fresh}.checkpoints")
    hand = Path(__file__).parents[1] / "data" / "hands" / "ante-side-pots.phh"
    assert handledger(fresh, "import", str(hand)) == (2, "", refused.replace(
        str(db), str(fresh)).replace("ends at position 28", "ends at position 0"))
    assert not fresh.exists()


def test_a_fork_written_past_the_checkpoint_is_refused_naming_the_row(
        rolled_back: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    shutil.copyfile(rolled_back, db)  # no checkpoints file: not checked, written
    assert handledger(db, "session", "open", "sun")[0] == 0
    shutil.copyfile(f"{rolled_back}.checkpoints", f"{db}.checkpoints")
    with duckdb.connect(str(db), read_only=True) as con:
        (stored,), = con.execute("SELECT hash FROM events WHERE position = 29").fetchall()
    taken = Path(f"{db}.checkpoints").read_text().split('"hash":"')[1][:16]
    before = _md5(db)
    refused = (f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of "
               f"position 29 (row 29 hashes {stored[:16]}…, not {taken}…): nothing written; "
               f"run `handledger verify --against {db}.checkpoints`\n")
    assert handledger(db, "buyin", "fri", "Fay", "100") == (2, "", refused)
    assert handledger(db, "entry", "amend", "fri", "2", "190", "--reason", "typo",
                      "--by", "t") == (2, "", refused)
    assert _md5(db) == before
    Path(f"{db}.checkpoints").unlink()  # the file gone: the ledger is not checked
    assert handledger(db, "buyin", "fri", "Fay", "100") == (
        0, "fri: Fay buy-in 100 chips (entry 7)\n", "")


def test_replay_saves_no_table_on_a_ledger_rolled_back_and_a_read_still_answers(
        rolled_back: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    for suffix in ("", ".checkpoints"):
        shutil.copyfile(f"{rolled_back}{suffix}", f"{db}{suffix}")
    before = _md5(db)
    refused = (f"error: {db}.checkpoints:1: this ledger does not extend the checkpoint of "
               "position 29 (the ledger ends at position 28, before 29): the books are not "
               f"saved from it; run `handledger verify --against {db}.checkpoints`\n")
    assert handledger(db, "replay") == (2, "", refused)
    assert handledger(db, "replay", "--json") == (2, "", refused)
    folder = tmp_path / "hands"
    folder.mkdir()
    shutil.copy(Path(__file__).parents[1] / "data" / "hands" / "ante-side-pots.phh", folder)
    assert handledger(db, "run", str(folder)) == (2, "", refused)
    assert _md5(db) == before
    code, out, err = handledger(db, "replay", "--hand", "h0")  # a read: it answers
    assert (code, err) == (0, "")
    assert out.endswith("1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) "
                        "not verifiable (the hash chain not checked: `handledger verify`)\n")
    assert handledger(db, "sql", "SELECT count(*) AS n FROM events") == (
        0, "n\n──\n28\n(1 row)\n", "")
    assert _md5(db) == before
