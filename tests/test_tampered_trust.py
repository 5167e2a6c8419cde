"""What a ledger file edited by SQL behind handledger's back gets from the commands a host
trusts: ``checkpoint`` (the line pasted as proof) and a ``replay`` that saves the books refuse
it (exit 2, one line naming the first bad position or the damaged block, nothing written), as
does ``session close``, which takes a checkpoint; ``audit``, which reads the saved books and
does not walk the chain, says so in its clean line.

The ledger: README's dispute (``data/dispute/wrong-push.phh``), README's "night at the table"
(session fri: Bob bought in for 150) as its JSON-lines export, and session sat opened.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.fri_night import dispute_and_night

BLOCK, FIRST = 262_144, 3 * 4096  # DuckDB's block size and where the first block starts
CHECKPOINT = "no checkpoint taken (it would vouch for rows that are not those written)"
VERIFY = "; run `handledger verify`\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("trust")
    return dispute_and_night(base, ["session", "open", "sat", "--date", "2026-12-05"],
                             ["key", "new", "floor", "--keys", str(base / "keys")])


@pytest.fixture
def keys(template: Path) -> str:
    return str(template.parent / "keys")


def _bob_buy_in(db: str) -> int:
    with duckdb.connect(db, read_only=True) as con:
        (position,), = con.execute(
            "SELECT position FROM events WHERE type = 'buy_in' AND session = 'fri'"
            " AND payload LIKE '%\"player\":\"Bob\"%'").fetchall()
    return position


@pytest.fixture
def tampered(db: str, template: Path) -> str:
    """The ledger with Bob's buy-in of 150 made 15 by SQL, its hash left as it was."""
    copy_ledger(template, Path(db))
    position = _bob_buy_in(db)
    with duckdb.connect(db) as con:
        con.execute("UPDATE events SET payload = replace(payload, '\"chips\":150',"
                    " '\"chips\":15') WHERE position = ?", [position])
    return db


def _broken(db: str, refused: str) -> str:
    position = _bob_buy_in(db)
    assert position == 27  # the dispute's 24 rows, then fri's opening and 2 buy-ins
    return (f"error: ledger {db}: broken at position 27: edited: row 27 (session:fri seq 3): "
            f"its content does not hash to its stored hash: {refused}{VERIFY}")


def _files(db: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in Path(db).parent.iterdir() if p.is_file()}


def test_checkpoint_of_a_tampered_ledger_is_refused_signed_or_not(
        run, tampered: str, keys: str) -> None:
    before = _files(tampered)
    for args in (("checkpoint", "--sign", "floor", "--keys", keys), ("checkpoint",),
                 ("checkpoint", "--json", "-o", str(Path(tampered).parent / "marks"))):
        result = run(*args)
        assert (result.exit_code, result.output) == (2, _broken(tampered, CHECKPOINT)), args
    assert _files(tampered) == before  # no checkpoints file, the ledger as it was
    assert run("verify").output.splitlines()[0] == (
        "broken at position 27: edited: row 27 (session:fri seq 3): its content does not "
        "hash to its stored hash")


def test_a_replay_does_not_save_books_from_a_tampered_row(run, tampered: str) -> None:
    """The saved books are the honest ones (fri: Bob -150); a replay would have saved
    Bob's forged buy-in of 15, and balances and the audit would have read it as a fact."""
    before = _files(tampered)
    result = run("replay")
    assert (result.exit_code, result.output) == (
        2, _broken(tampered, "the books are not saved from it"))
    assert _files(tampered) == before
    result = run("replay", "--hand", "f1")  # a replay of a hand saves nothing, checks nothing
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (  # and says so, as a clean audit does
        "1 hand(s) replayed: 0 paid differently from the rules, 0 showdown(s) not verifiable "
        "(the hash chain not checked: `handledger verify`)")
    empty = Path(tampered).parent / "nothing"
    empty.mkdir()
    result = run("run", str(empty))  # imports nothing new, then would replay and save
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == _broken(
        tampered, "the books are not saved from it").removesuffix("\n")
    assert _files(tampered) == before


def test_run_refuses_a_tampered_ledger_before_importing_its_folder(
        run, tampered: str) -> None:
    """The check comes before the import: the folder's new hand is not written into a file
    whose books would then be refused (docs/LEDGER.md "Tampering": exit 2, nothing written)."""
    folder = Path(tampered).parent / "new"
    folder.mkdir()
    (folder / "five-card-draw.phh").write_bytes(
        (DATA / "hands" / "five-card-draw.phh").read_bytes())
    before = _files(tampered)
    result = run("run", str(folder))
    assert (result.exit_code, result.output) == (
        2, _broken(tampered, "the books are not saved from it"))
    assert _files(tampered) == before


def test_session_close_of_a_tampered_ledger_writes_nothing(run, tampered: str) -> None:
    before = _files(tampered)
    result = run("session", "close", "sat")
    assert (result.exit_code, result.output) == (2, _broken(
        tampered, "session sat not closed (its checkpoint would vouch for rows that are not "
                  "those written); nothing written"))
    assert _files(tampered) == before


def test_the_clean_audit_of_a_tampered_ledger_claims_only_the_books(run, tampered: str
                                                                    ) -> None:
    result = run("audit", "--session", "fri")
    assert (result.exit_code, result.output) == (0, (  # fri, closed, still owes money
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`); 1 closed session still owes money "
        "(fri): `handledger audit --unsettled` names who, `handledger settle` who pays whom\n"))


def test_a_corrupt_block_is_refused_by_checkpoint_and_replay(run, db: str, template: Path
                                                              ) -> None:
    """64 bytes of 0xFF in the events' first block: verify names the block, its bytes and
    what it holds (DuckDB's read of the events meets it first), and so do checkpoint and
    replay, refusing it."""
    copy_ledger(template, Path(db))
    with duckdb.connect(db, read_only=True) as con:
        block = con.execute("SELECT min(block_id) FROM pragma_storage_info('events')"
                            " WHERE block_id >= 0").fetchone()[0]
    with open(db, "r+b") as f:
        f.seek(FIRST + block * BLOCK + 5000)
        f.write(b"\xff" * 64)
    before = _files(db)
    start = FIRST + block * BLOCK
    damaged = (f"ledger {db} is corrupt: its block {block} (bytes {start}-{start + BLOCK - 1})"
               " fails its checksum (it holds rows of events)")
    result = run("verify")
    assert (result.exit_code, result.output) == (1, f"corrupt: {damaged}\n")
    result = run("checkpoint")
    assert (result.exit_code, result.output) == (2, f"error: {damaged}: {CHECKPOINT}{VERIFY}")
    result = run("replay")  # it meets the block reading the players' names first
    assert (result.exit_code, result.output) == (2, f"error: {damaged}\n")
    assert _files(db) == before


def test_an_intact_ledger_is_checkpointed_and_replayed(run, db: str, template: Path,
                                                       keys: str) -> None:
    copy_ledger(template, Path(db))
    result = run("checkpoint", "--sign", "floor", "--keys", keys)
    assert result.exit_code == 0
    assert result.output.startswith("handledger checkpoint t 50:")
    assert run("replay").exit_code == 1  # the dispute's mis-pushed pot
    assert run("session", "close", "sat").exit_code == 0
