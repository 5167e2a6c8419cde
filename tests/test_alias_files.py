"""An alias in a JSON-lines file's book rows and in the correction of a book entry: after
``player alias Robert Bob`` a file's buy-in or cash-out under either name is one player's, as
``buyin`` and ``cashout`` take it (replay/ingest/book_rules.py, replay/ingest/table_bound.py),
and ``entry amend`` holds a buy-in of Bob to a hand seating Robert, wherever the alias was
recorded (replay/sessions/seated_chips.py). Every check resolves names through
``replay.sessions.state.series_names``, as the audit does; the rows keep the names as typed.

``books``: session x, Ann and Bob buy in 100 each (entries 2, 3), ``player alias Robert Bob``
(entry 4), Robert cashes out 100 (5), rebuys 50 (6), Bob cashes out 50 (7), Ann cashes out
100 (8): every command takes it, and the audit is clean. Its export was refused by ``import``
before, at line 5 ("Robert has no buy-in in x").

``crossed``: session s, Ann and Bob buy in 100 each (entries 2, 3); session t is opened and
the alias recorded there (its entry 2); hand x1 of s seats Ann:100, Robert:100, both all in,
Robert's aces win the 200.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.store.store import Ledger
from tests.copies import copy_ledger
from tests.test_books_refusals import refused, rows, run
from tests.test_import_workers_same_books import cli
from tests.workers import import_by_workers

IMPORTED = "imported 0 hand(s) (8 events) from 1 file(s); 0 already in the ledger; 0 rejected\n"
REFUSED = "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n"


def _steps(db: Path, *commands: tuple[str, ...]) -> None:
    """Run each command on ``db``; each must go in."""
    for args in commands:
        result = run(db, *args)
        assert result.exit_code == 0, (args, result.output)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``books`` ledger's export (module doc)."""
    folder = tmp_path_factory.mktemp("books")
    db = folder / "t.duckdb"
    _steps(db, ("session", "open", "x"), ("buyin", "x", "Ann", "100"),
           ("buyin", "x", "Bob", "100"), ("player", "alias", "Robert", "Bob"),
           ("cashout", "x", "Robert", "100"), ("buyin", "x", "Robert", "50"),
           ("cashout", "x", "Bob", "50"), ("cashout", "x", "Ann", "100"))
    assert run(db, "audit").stdout.startswith("audit clean: 0 hand(s) in 1 session(s)")
    path = folder / "x.jsonl"
    assert run(db, "export", "--format", "jsonl", "-o", str(path)).exit_code == 0
    assert [(r["seq"], r["event"]["type"], r["event"].get("player"), r["event"].get("kind"))
            for r in map(json.loads, path.read_text().splitlines())] == [
        (1, "session_opened", None, None), (2, "buy_in", "Ann", "buy_in"),
        (3, "buy_in", "Bob", "buy_in"), (4, "player_alias", "Robert", None),
        (5, "cash_out", "Robert", None), (6, "buy_in", "Robert", "rebuy"),
        (7, "cash_out", "Bob", None), (8, "cash_out", "Ann", None)]
    return path


def test_a_files_rows_under_both_names_are_one_players(books: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The export imports whole into a fresh ledger, with --jobs 1 and 2 and by worker
    processes reading it in parts: Robert's cash-out of Bob's 100 (line 5), his rebuy
    (line 6) and Bob's cash-out of it (line 7) are one player's, as the commands took them
    (before, line 7 was refused too, as Bob cashing out twice). The rows keep the names as
    typed; the books count Robert 150 in, 150 out."""
    for jobs in ("1", "2"):
        db = tmp_path / f"j{jobs}.duckdb"
        assert cli(db, "import", str(books), "--jobs", jobs) == (0, IMPORTED, "")
        with Ledger(db, read_only=True) as ledger:
            assert ledger.query(
                "SELECT seq, type, payload->>'player' FROM events WHERE type IN ('buy_in',"
                " 'cash_out') ORDER BY position") == [
                (2, "buy_in", "Ann"), (3, "buy_in", "Bob"), (5, "cash_out", "Robert"),
                (6, "buy_in", "Robert"), (7, "cash_out", "Bob"), (8, "cash_out", "Ann")]
        assert run(db, "balances").stdout.splitlines() == [
            "player                  net       buy-in     cash-out  hands sessions",
            "Ann                       0          100          100      0        1",
            "Robert                    0          150          150      0        1"]
        assert run(db, "audit").stdout == (
            "audit clean: 0 hand(s) in 1 session(s); every chip adds up in the books as stored "
            "(the hash chain not checked: `handledger verify`)\n")
    report, _ = import_by_workers(monkeypatch, books, tmp_path / "w.duckdb", 200)
    assert report.errors == []
    with Ledger(tmp_path / "w.duckdb", read_only=True) as ledger:
        assert ledger.query("SELECT count(*) FROM events") == [(8,)]


def test_a_second_cash_out_under_the_other_name_is_refused_at_its_line(
        books: Path, tmp_path: Path) -> None:
    """After Bob's cash-out of 50 (line 7, no buy-in since), a cash-out of 50 as Robert (line
    8, before Ann's) is the same player's second, refused at its own line as `cashout x
    Robert 50` is ("Robert already cashed out 50 chips in x"), naming the name line 7 wrote;
    no ledger is made."""
    lines = books.read_text().splitlines()
    again = json.dumps({"session": "x", "seq": 8, "event": {
        "chips": 50, "player": "Robert", "type": "cash_out"}})
    ann = lines[7].replace('"seq":8', '"seq":9')
    path = tmp_path / "again.jsonl"
    path.write_text("\n".join([*lines[:7], again, ann]) + "\n")
    db = tmp_path / "a.duckdb"
    assert cli(db, "import", str(path)) == (
        2, REFUSED, f"error: {path}:8, session x: its cash_out at seq 8 cashes out Robert (50 "
        "chips), but none of them are at the table there: Robert cashed out 50 chips at seq 7 "
        "as Bob and bought in none since; nothing of the file was written (a buy-in missing "
        "from the file goes before it)\n")
    assert not db.exists()


def test_a_cash_out_refused_for_an_earlier_one_names_its_own_line(tmp_path: Path) -> None:
    """Bob cashes out 50 twice with no buy-in between (lines 4, 5): the refusal names line 5,
    the row it leads with (before: line 4, the first cash-out of the same chips)."""
    opened = {"chip_value_minor": 1, "currency": None, "date": "2026-12-05", "decimals": 0,
              "session": "x", "source": {}, "type": "session_opened"}
    events = [opened, {"chips": 100, "kind": "buy_in", "player": "Ann", "type": "buy_in"},
              {"chips": 100, "kind": "buy_in", "player": "Bob", "type": "buy_in"},
              {"chips": 50, "player": "Bob", "type": "cash_out"},
              {"chips": 50, "player": "Bob", "type": "cash_out"}]
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(json.dumps({"session": "x", "seq": k, "event": e}) + "\n"
                            for k, e in enumerate(events, 1)))
    assert cli(tmp_path / "t.duckdb", "import", str(path)) == (
        2, REFUSED, f"error: {path}:5, session x: its cash_out at seq 5 cashes out Bob (50 "
        "chips), but none of them are at the table there: Bob cashed out 50 chips at seq 4 and "
        "bought in none since; nothing of the file was written (a buy-in missing from the file "
        "goes before it)\n")


#: Hand x1 of ``crossed``: Robert's aces beat Ann's kings all in; he is paid the 200.
X1 = ("d dh Ann KsKh", "d dh Robert AsAh", "Ann cbr 100", "Robert cc", "d db 2c3d4h", "d db 9s",
      "d db Td", "pay Robert 200", "end")


@pytest.fixture(scope="module")
def crossed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module (module doc): copy it to change it."""
    db = tmp_path_factory.mktemp("crossed") / "t.duckdb"
    _steps(db, ("session", "open", "s"), ("buyin", "s", "Ann", "100"),
           ("buyin", "s", "Bob", "100"), ("session", "open", "t"),
           ("player", "alias", "Robert", "Bob"),
           ("hand", "start", "--hand", "x1", "--session", "s", "--game", "NT", "--stakes",
            "1/2", "--button", "Ann", "--seats", "Ann:100,Robert:100"),
           *(("act", "x1", a) for a in X1))
    return db


SEATS_ROBERT = (
    "hand x1 seats Robert with 100 chips, and Robert's buy-ins there would come to 40: it "
    "would start Robert with 60 chips nobody bought (RULES.md §1.1); nothing {} (a hand "
    "seated with the wrong stack is corrected or voided first; `handledger history --session "
    "s` lists the entries)")


def test_a_buy_in_is_amended_against_a_hand_seating_his_alias_of_another_session(
        crossed: Path, tmp_path: Path) -> None:
    """Bob's buy-in (entry 3) of 100 made 40: x1 seats him as Robert with 100, the alias
    recorded in session t. Refused, the ledger unchanged (before, it went in and only the
    audit's stack continuity named x1: expected 40, +60)."""
    db = copy_ledger(crossed, tmp_path / "t.duckdb")
    before = rows(db)
    assert refused(run(db, "entry", "amend", "s", "3", "40", "--reason", "typo", "--by",
                       "host")) == (
        "error: entry amend s 3 (buy-in of Bob): 40 chips: " + SEATS_ROBERT.format("written"))
    assert rows(db) == before


def test_a_cash_out_under_the_alias_of_another_session_is_not_warned_of(
        crossed: Path, tmp_path: Path) -> None:
    """Bob cashes out the 200 Robert won in x1 (his 100 and Ann's): what the hands leave him,
    no warning (before: "Bob cashes out 200 chips, but the hands leave Bob 100 (+100)"), and
    the audit is clean."""
    db = copy_ledger(crossed, tmp_path / "t.duckdb")
    result = run(db, "cashout", "s", "Bob", "200")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "s: Bob cashed out 200 chips (entry 4)\n", "")
    assert run(db, "audit", "--session", "s").stdout == (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored "
        "(the hash chain not checked: `handledger verify`)\n")


def test_a_files_amendment_is_held_to_a_hand_seating_the_alias(crossed: Path,
                                                               tmp_path: Path) -> None:
    """The ledger's export with a last row (line 18) lowering Bob's buy-in to 40, after x1:
    refused as `entry amend` refuses it, no ledger made (before, it went in)."""
    export = tmp_path / "crossed.jsonl"
    assert run(crossed, "export", "--format", "jsonl", "-o", str(export)).exit_code == 0
    fix = json.dumps({"session": "s", "seq": 4, "event": {
        "by": "host", "reason": "typo", "seq": 3, "type": "entry_corrected",
        "replacement": {"chips": 40, "kind": "buy_in", "player": "Bob", "type": "buy_in"}}})
    path = tmp_path / "lowered.jsonl"
    path.write_text(export.read_text() + fix + "\n")
    db = tmp_path / "f.duckdb"
    assert cli(db, "import", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected; "
        "1 other hand(s) not written, their file refused\n",
        f"error: {path}:18, session s: its entry_corrected at seq 4 amends entry 3 (buy-in of "
        "Bob): 40 chips: " + SEATS_ROBERT.format("of the file was written") + "; a file's "
        "correction of a book entry is held to `entry amend`'s rules\n")
    assert not db.exists()
