"""The deliberate writes prove the whole hash chain before they compute or write anything
(:mod:`ledger.store.proven`; docs/LEDGER.md "Tampering"): a row edited by SQL anywhere in the file
refuses ``correct``, ``void``, ``undo`` (signed or not), ``entry amend|retract``, ``pay``,
``session open|set``, ``player alias``, ``cashout --closed`` and an ``import`` into it in one
line naming the row, exit 2, the file's bytes as they were. The live table's writes (``buyin``,
``cashout``, ``hand start``, ``act``, ``table``) check only the chain's tail: they go in after
an edit further back (their documented limit) and are refused after an edit of the last row.

The ledger: README's dispute (``data/dispute/wrong-push.phh``, hand dispute-1, rows 1-24), README's
"night at the table" (session fri, closed; rows 25-49) as its JSON-lines export, and session
sat opened (row 50).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from ledger.model.errors import ChainBroken
from ledger.model.events import Check
from ledger.store.proven import prove_before_writing
from ledger.store.store import Ledger
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.fri_night import dispute_and_night

EDITED = ("broken at position 27: edited: row 27 (session:fri seq 3): its content does not "
          "hash to its stored hash: nothing written; run `handledger verify`")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("proven")
    return dispute_and_night(base, ["session", "open", "sat", "--date", "2026-12-05"],
                             ["key", "new", "floor", "--keys", str(base / "keys")])


def _edit(db: str, position: int, old: str, new: str) -> None:
    """The payload of row ``position`` edited by SQL, its hash left as it was."""
    with duckdb.connect(db) as con:
        (payload,), = con.execute("SELECT payload FROM events WHERE position = ?",
                                  [position]).fetchall()
        assert old in payload
        con.execute("UPDATE events SET payload = replace(payload, ?, ?) WHERE position = ?",
                    [old, new, position])


@pytest.fixture
def tampered(db: str, template: Path) -> str:
    """The ledger with Bob's buy-in of 150 in fri (row 27 of 50) made 15."""
    copy_ledger(template, Path(db))
    _edit(db, 27, '"chips":150', '"chips":15')
    return db


def _files(db: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in Path(db).parent.iterdir() if p.is_file()}


def _rows(db: str) -> int:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]


def deliberate(keys: str) -> list[tuple[str, ...]]:
    """One of each deliberate write (signed too), in an order the intact ledger takes."""
    fix = ("correct", "dispute-1", "--replace", "23", "pay Bob 100", "--insert-after", "23",
           "pay Ann 300", "--reason", "wrong push", "--by", "Eve")
    signed = ("--sign", "floor", "--keys", keys)
    return [
        (*fix, *signed), ("undo", "dispute-1", "--by", "Eve"), fix,
        ("void", "dispute-1", "--reason", "misdeal", "--by", "Eve"),
        ("undo", "dispute-1", "--by", "Eve", *signed),
        ("void", "dispute-1", "--reason", "misdeal", "--by", "Eve", *signed),
        ("entry", "amend", "fri", "7", "290", "--reason", "miscounted", "--by", "Eve",
         "--closed"),
        ("entry", "retract", "fri", "6", "--reason", "never left", "--by", "Eve", "--closed"),
        ("pay", "fri", "Bob", "Ann", "10"),
        ("session", "open", "sun", "--date", "2026-12-06"),
        ("session", "set", "sat", "--chip-value", "0.5"),
        ("player", "alias", "Ann", "Annie"),
        ("cashout", "fri", "Bob", "0", "--closed"),
        ("import", str(DATA / "hands" / "five-card-draw.phh")),
    ]


@pytest.fixture
def keys(template: Path) -> str:
    return str(template.parent / "keys")


def test_each_deliberate_write_refuses_a_row_edited_mid_chain(run, tampered: str,
                                                             keys: str) -> None:
    before = _files(tampered)
    for args in deliberate(keys):
        result = run(*args)
        assert (result.exit_code, result.output) == (
            2, f"error: ledger {tampered}: {EDITED}\n"), args
        assert _files(tampered) == before, args


def test_the_refusal_is_the_proof_not_the_write_s_own(run, db: str, template: Path,
                                                      keys: str) -> None:
    """On the intact ledger the same writes go in, one after the other: it is the edit that
    refuses them."""
    copy_ledger(template, Path(db))
    for args in deliberate(keys):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    # 8 rows of the hand (a void is 2), 7 book entries, the imported hand's 24
    assert _rows(db) == 50 + 8 + 7 + 24
    assert run("verify").exit_code == 0


def _live(run) -> None:  # noqa: ANN001
    for args, shown in (
            (("buyin", "sat", "Ann", "100"), "sat: Ann buy-in 100 chips (entry 2)\n"),
            (("buyin", "sat", "Bob", "100"), "sat: Bob buy-in 100 chips (entry 3)\n"),
            (("buyin", "sat", "Cy", "50"), "sat: Cy buy-in 50 chips (entry 4)\n"),
            (("cashout", "sat", "Cy", "50"), "sat: Cy cashed out 50 chips (entry 5)\n"),
            (("hand", "start", "--hand", "s1", "--game", "NT", "--stakes", "1/2", "--seats",
              "Ann:100,Bob:100", "--button", "Bob", "--session", "sat"), "s1\n")):
        result = run(*args)
        assert (result.exit_code, result.output) == (0, shown), args


def test_the_live_writes_go_in_after_an_edit_mid_chain(run, tampered: str) -> None:
    """Their documented limit: the tail is intact, so they are taken, and verify still
    names the edited row."""
    _live(run)
    assert run("act", "s1", "d dh Ann AsKs").exit_code == 0
    result = run("table", "s1", input="d dh Bob QhQd\n")
    assert result.exit_code == 0, result.output
    assert _rows(tampered) == 50 + 4 + 3 + 2  # the book entries, the hand's 3 rows, 2 actions
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.startswith("broken at position 27: edited: row 27 (session:fri seq "
                                    "3): its content does not hash to its stored hash")


def test_the_live_writes_refuse_an_edit_of_the_last_row(run, db: str, template: Path) -> None:
    copy_ledger(template, Path(db))
    _live(run)  # rows 51-54 the book entries, 55-57 hand s1's start and blinds
    _edit(db, 57, '"amount":1', '"amount":10')
    before = _files(db)
    line = (f"error: ledger {db}: broken at position 57: edited: row 57 (s1 seq 3): its "
            "content does not hash to its stored hash: nothing written; run `handledger "
            "verify`\n")
    for args in (("act", "s1", "d dh Ann AsKs"), ("buyin", "sat", "Dee", "100"),
                 ("hand", "start", "--hand", "s2", "--game", "NT", "--stakes", "1/2",
                  "--seats", "Ann:100,Bob:100", "--button", "Bob", "--session", "sat")):
        result = run(*args)
        assert (result.exit_code, result.output) == (2, line), args
        assert _files(db) == before, args


def test_a_ledger_proven_once_is_proven_again_when_its_head_moved(db: str, template: Path
                                                                   ) -> None:
    """One command proves once at a head (``undo`` correcting, ``run`` importing); rows
    appended since, and an edit made meanwhile, are proven again."""
    copy_ledger(template, Path(db))
    led = Ledger(db)
    try:
        prove_before_writing(led)
        led.connection.execute("UPDATE events SET payload = replace(payload, '\"chips\":150',"
                               " '\"chips\":15') WHERE position = 27")
        prove_before_writing(led)  # the head it was proven at: not proven again
        led.append("x1", [Check(player="Ann")], hand_id="x1")
        with pytest.raises(ChainBroken) as refused:
            prove_before_writing(led)
        assert str(refused.value) == f"ledger {db}: {EDITED}"
    finally:
        led.close()
