"""``verify`` against a ledger file edited or damaged behind handledger's back, where the hash
chain alone says nothing: derived tables edited with their digest recomputed (anyone with the
file can), and a damaged block of any part of the file (an index, the catalog, a derived
table), with the way back from a damaged derived table (export the events, import them anew).

The ledger: README's dispute (``data/dispute/wrong-push.phh``: the table pushed Ann's 300 to
Bob, a payout finding of -300) and README's "night at the table" as its JSON-lines export
(session fri, chip 0.25 USD: Ann +150, Bob -150, Cy 0).
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from ledger.audit.tables import tables_digest
from tests.conftest import DATA
from tests.copies import copy_ledger
from tests.fri_night import NIGHT_JSONL

BLOCK, FIRST = 262_144, 3 * 4096  # DuckDB's block size and where the first block starts


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cli.main import cli

    base = tmp_path_factory.mktemp("books")
    path, night = base / "t.duckdb", base / "night.jsonl"
    night.write_text(NIGHT_JSONL)
    for source in (DATA / "dispute" / "wrong-push.phh", night):
        assert CliRunner().invoke(cli, ["--db", str(path), "import", str(source)]
                                  ).exit_code == 0
    return path


@pytest.fixture
def ledger(db: str, template: Path) -> str:
    copy_ledger(template, Path(db))
    return db


def _edit(db: str, *statements: str) -> None:
    """Run ``statements`` on the file and recompute the derived tables' digest, as anyone
    with the file and DuckDB can."""
    with duckdb.connect(db) as con:
        for sql in statements:
            con.execute(sql)
        con.execute("UPDATE derived_state SET value = ? WHERE key = 'digest'",
                    [tables_digest(con)])


def test_a_ledger_as_written_verifies(run, ledger: str) -> None:
    result = run("verify")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("ok: 49 events, hash chain intact, head 49:")
    # 2 hands, 3 pots, 6 results, 2 payout differences (Ann -300, Bob +300), 2 books (fri and
    # the hands of no session), their 6 players, 2 audit findings and derived_state's 6 rows
    assert lines[1:] == ["derived tables: as the events' replay gives them (29 rows)"]


def test_findings_deleted_with_the_digest_made_again_fail_verify(run, ledger: str) -> None:
    assert run("audit").exit_code == 1  # the dispute's payout finding
    _edit(ledger, "DELETE FROM audit_discrepancies")
    assert run("audit").output.startswith("audit clean")  # audit trusts sealed tables
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.splitlines()[1] == (
        "derived tables FAIL: derived table audit_discrepancies lacks a row the events' "
        "replay gives: kind 'payout', hand_id 'dispute-1', player 'Ann', expected 300, "
        "actual 0, diff -300, message 'hand dispute-1: Ann was paid 0, the rules give 300 "
        "(-300)', seq 1")


def test_nets_swapped_with_the_digest_made_again_fail_verify(run, ledger: str) -> None:
    assert "Bob pays Ann 37.50 USD" in run("settle", "--session", "fri").output
    _edit(ledger, "UPDATE session_players SET net = -net WHERE session = 'fri'")
    assert "Ann pays Bob 37.50 USD" in run("settle", "--session", "fri").output
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.splitlines()[1] == (
        "derived tables FAIL: derived table session_players differs from the events' replay "
        "at the row session 'fri', player 'Ann', buy_in 200: net -150 stored, 150 by the replay")


def test_tables_edited_without_the_digest_fail_their_own_check(run, ledger: str) -> None:
    with duckdb.connect(ledger) as con:
        con.execute("DELETE FROM pots")
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.splitlines()[1:3] == [
        "derived tables FAIL their own check: the derived tables were changed outside "
        "handledger",
        "derived tables FAIL: derived table pots lacks a row the events' replay gives: "
        "hand_id 'dispute-1', pot_index 0, amount 300, eligible ['Ann', 'Bob', 'Cy'], awards "
        "'{\"Ann\": 300}', carried 0, explanation 'Main pot 300 (Ann, Bob, Cy): Ann wins 300 "
        "with pair of aces, T-9-7 kickers.'"]


def _damaged(source: str, target: Path, block: int) -> Path:
    """A copy of ``source`` with four bytes of its block ``block`` changed."""
    copy_ledger(Path(source), target)
    with open(target, "r+b") as f:
        f.seek(FIRST + block * BLOCK + 5000)
        f.write(b"\xde\xad\xbe\xef")
    return target


def test_every_damaged_block_fails_verify(run, ledger: str, tmp_path: Path) -> None:
    """Each block in turn: an index's or the catalog's too, which the chain walk never
    reads (other commands meet them and refuse the file as corrupt)."""
    blocks = (os.path.getsize(ledger) - FIRST) // BLOCK
    assert blocks >= 10
    for block in range(blocks):
        copy = _damaged(ledger, tmp_path / f"b{block}.duckdb", block)
        result = run("--db", str(copy), "verify")
        assert result.exit_code == 1, (block, result.output)
        assert result.output.startswith("corrupt: "), (block, result.output)
        assert "corrupt" in result.output and "checksum" in result.output, result.output


def test_every_damaged_block_of_the_events_is_refused_by_a_saving_replay(
        run, ledger: str, tmp_path: Path) -> None:
    """A saving replay checks the file first (ledger/store/intact.py): the blocks' check
    leaves the events to the chain's check, which reads them whole, only once every block
    passed its checksum; so a damaged events block is still refused, the file unchanged."""
    with duckdb.connect(ledger, read_only=True) as con:
        held = [b for (b,) in con.execute("SELECT DISTINCT block_id FROM pragma_storage_info("
                                          "'events') WHERE block_id >= 0 ORDER BY 1").fetchall()]
    assert held
    for block in held:
        copy = _damaged(ledger, tmp_path / f"e{block}.duckdb", block)
        before = copy.read_bytes()
        result = run("--db", str(copy), "replay")
        assert result.exit_code == 2, (block, result.output)
        assert result.output.startswith(f"error: ledger {copy} is corrupt: "), result.output
        assert copy.read_bytes() == before


def test_a_damaged_derived_table_is_named_and_its_events_export_to_a_new_ledger(
        run, ledger: str, tmp_path: Path) -> None:
    with duckdb.connect(ledger, read_only=True) as con:
        (block,), = con.execute("SELECT DISTINCT block_id FROM pragma_storage_info("
                                "'session_players') WHERE block_id >= 0").fetchall()
    copy = str(_damaged(ledger, tmp_path / "d.duckdb", block))
    result = run("--db", copy, "verify")
    assert result.exit_code == 1
    assert result.output == (
        f"corrupt: ledger {copy} is corrupt: its block {block} (bytes {FIRST + block * BLOCK}-"
        f"{FIRST + (block + 1) * BLOCK - 1}) fails its checksum (it holds rows of "
        "session_players)\n")
    assert run("--db", copy, "balances").exit_code == 2
    events = tmp_path / "events.jsonl"
    assert run("--db", copy, "export", "--format", "jsonl", "-o", str(events)).exit_code == 0
    fresh = str(tmp_path / "fresh.duckdb")
    assert run("--db", fresh, "import", str(events)).exit_code == 0
    assert run("--db", fresh, "verify").exit_code == 0
    for command in (["balances"], ["settle", "--session", "fri"], ["audit"]):
        assert run("--db", fresh, *command).output == run(*command).output


def test_a_view_redefined_fails_verify(run, ledger: str) -> None:
    """The views the reads query are no table: the digest does not cover them."""
    assert _fri_nets(run) == {"Ann": 150, "Bob": -150, "Cy": 0}
    with duckdb.connect(ledger) as con:
        (sql,), = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = "
                              "'player_session_results'").fetchall()
        con.execute(sql.replace("CREATE VIEW", "CREATE OR REPLACE VIEW")
                    .replace("p.net,", "-p.net AS net,", 1))
    assert _fri_nets(run) == {"Ann": -150, "Bob": 150, "Cy": 0}  # standings trusts the view
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.splitlines()[1] == (
        "derived tables FAIL: derived view player_session_results is not the one handledger "
        "writes: its definition was changed")


def _fri_nets(run) -> dict[str, int]:  # noqa: ANN001
    import json

    players = json.loads(run("standings", "--json").stdout)["players"]
    return {p["player"]: p["nets"]["fri"] for p in players if "fri" in p["nets"]}


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "keys"
    monkeypatch.setenv("HANDLEDGER_KEYS", str(directory))
    return directory


def test_a_forged_signed_correction_of_the_night_fails_verify_and_audit(
        run, db: str, keys: Path, tmp_path: Path) -> None:
    """The night with Ann's 300 pushed to Bob, corrected and signed by the floor; then the
    correction's payout made 299 and the chain made again: the books apply it, the chain
    holds, the signature does not."""
    from tests.ledger_files import edit_payload

    night = tmp_path / "night.jsonl"
    night.write_text(NIGHT_JSONL.replace('"amount":300,"player":"Ann"',
                                         '"amount":300,"player":"Bob"'))
    assert run("import", str(night)).exit_code == 0
    assert run("key", "new", "floor").exit_code == 0
    assert run("correct", "f1", "--replace", "16", "pay Ann 300", "--reason", "misread", "--by",
               "floor", "--sign", "floor", "--closed").exit_code == 0
    assert run("verify").exit_code == 0
    edit_payload(db, 26, '"amount":300', '"amount":299')
    result = run("verify")
    assert result.exit_code == 1
    assert result.output.splitlines()[1] == (
        "signature FAILS: hand f1 seq 18 (a correction signed as 'floor', position 26): the "
        "signature does not verify with key 'floor': altered (it covers the hand's 17 row(s) "
        "before it and the correction: one of them is not as signed)")
    audit = run("audit", "--session", "fri")
    assert audit.exit_code == 1
    assert audit.stdout.splitlines()[-2:] == [
        "signature: the correction at seq 18 signed as 'floor': the signature does not verify "
        "with key 'floor': altered (it covers the hand's 17 row(s) before it and the "
        "correction: one of them is not as signed); the books replayed from the events "
        "apply it as stored (tables saved before its row was edited in place show it as it "
        "was: `handledger verify`) [session fri, hand f1]",
        "audit: 3 discrepancies (payout 1, session_balance 1, signature 1); "
        "1 hand(s) in 1 session(s) checked"]
    edit_payload(db, 12, '"to":8', '"to":"x"')  # a row before it no reader takes
    assert run("verify").output.splitlines()[1] == (
        "signature FAILS: hand f1 seq 18 (a correction signed as 'floor', position 26): the "
        "hand's rows cannot be read: invalid event (bet_raise.to: Input should be a valid "
        "integer)")


def test_a_storage_format_this_reading_does_not_know_is_left_to_duckdb(
        run, ledger: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should DuckDB checksum its blocks otherwise than ``ledger.store.blocks`` reads them
    (here: every block seems to fail that reading), a sound file still verifies, and a
    damaged events block is still corrupt by DuckDB's own read of it."""
    from ledger.store import blocks

    real = blocks.checksum
    monkeypatch.setattr(blocks, "checksum", lambda data: real(data) ^ 1)
    assert blocks.damaged_block(ledger, BLOCK) is None  # its headers no longer check out
    # the headers pass, every block fails
    monkeypatch.setattr(blocks, "_sound", lambda data: len(data) == blocks.HEADER)
    assert run("verify").exit_code == 0
    with duckdb.connect(ledger, read_only=True) as con:
        (block,), = con.execute("SELECT min(block_id) FROM pragma_storage_info('events')"
                                " WHERE block_id >= 0").fetchall()
    copy = _damaged(ledger, tmp_path / "e.duckdb", block)
    result = run("--db", str(copy), "verify")
    assert (result.exit_code, result.output[:9]) == (1, "corrupt: "), result.output
