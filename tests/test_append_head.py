"""Every append checks the head it extends (``meta``'s ``head_position`` and ``head_hash``)
against the last stored row first (ledger/store/store.py, ``Ledger._append_head``).

A head edited by hand was appended onto as it stood: the new row linked to a hash no row
has (``verify`` then said the untouched last row "was rewritten"), a head moved past the
last row left a gap of positions, and one moved back met DuckDB's raw "Duplicate key" (a
version 1 ledger) or put two rows at one position (version 2, no keys). Each is now one
refusal naming both, nothing written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

import ledger.store.chain as chain
import ledger.store.store as store
from cli.main import cli
from ledger.model.errors import ChainBroken, DuplicateEvent
from ledger.model.events import SessionOpened
from ledger.store.chain import GENESIS, prepare_batch
from ledger.store.columns import prepare_columns
from ledger.store.store import Ledger
from tests.test_store import hand
from tests.test_store_versions import plant, v1_ledger

ROOT = Path(__file__).resolve().parents[1]
#: 10 events: positions 1-10, then h2 11-20 (the ``two_hands`` fixture)
ROWS = 20


@pytest.fixture
def two_hands(tmp_path: Path) -> Iterator[Ledger]:
    with Ledger(tmp_path / "l.duckdb") as led:
        led.append("h1", hand("h1"))
        led.append("h2", hand("h2"))
        yield led


def _set_meta(led: Ledger, key: str, value: str) -> None:
    led.connection.execute("UPDATE meta SET value = ? WHERE key = ?", [value, key])


def _hash_at(led: Ledger, position: int) -> str:
    return led.connection.execute("SELECT hash FROM events WHERE position = ?",
                                  [position]).fetchone()[0]


def _appends(led: Ledger) -> list[Callable[[], object]]:
    """One append of a new stream by each path: append, append_many, append_columns."""
    opened = prepare_batch("session:s", [SessionOpened(session="s")], None, "s", None)
    opened.expected_seq = 0
    return [lambda: led.append("h3", hand("h3")),
            lambda: led.append_many([("h3", hand("h3"), None, None, "k3")]),
            lambda: led.append_columns(prepare_columns([opened], datetime(2026, 1, 1)))]


def _refused_by_every_append(led: Ledger, message: str) -> None:
    head, rows = led.head(), led.count()
    for append in _appends(led):
        with pytest.raises(ChainBroken) as refused:
            append()
        assert str(refused.value) == f"ledger {led.path}: {message}"
    assert (led.head(), led.count()) == (head, rows)  # nothing written, the head as it was


def test_a_head_whose_hash_was_edited_is_refused(two_hands: Ledger) -> None:
    last = _hash_at(two_hands, ROWS)
    _set_meta(two_hands, "head_hash", "0000")
    _refused_by_every_append(two_hands, f"the ledger's head 20:0000 does not match its last row "
                                        f"20:{last[:16]}...: nothing written; run "
                                        "`handledger verify`")


@pytest.mark.parametrize("position", [50, 19, 0])
def test_a_head_moved_past_or_before_the_last_row_is_refused(two_hands: Ledger,
                                                             position: int) -> None:
    """Past it the rows appended would leave positions 21-50 empty; before it they would
    share positions with stored rows (no key says so in a version 2 ledger)."""
    last = _hash_at(two_hands, ROWS)[:16]
    _set_meta(two_hands, "head_position", str(position))
    _refused_by_every_append(two_hands, f"the ledger's head {position}:{last}... does not "
                                        f"match its last row 20:{last}...: nothing written; "
                                        "run `handledger verify`")


def test_a_head_left_at_genesis_over_stored_rows_is_refused(two_hands: Ledger) -> None:
    last = _hash_at(two_hands, ROWS)[:16]
    _set_meta(two_hands, "head_position", "0")
    _set_meta(two_hands, "head_hash", GENESIS)
    _refused_by_every_append(two_hands, f"the ledger's head 0:{GENESIS[:16]}... does not "
                                        f"match its last row 20:{last}...: nothing written; "
                                        "run `handledger verify`")


def test_a_head_over_an_empty_table_is_refused(two_hands: Ledger) -> None:
    last = _hash_at(two_hands, ROWS)[:16]
    two_hands.connection.execute("DELETE FROM events")
    _refused_by_every_append(two_hands, f"the ledger's head 20:{last}... does not match its "
                                        "rows: none is stored: nothing written; run "
                                        "`handledger verify`")


def test_two_rows_at_the_head_position_are_refused(two_hands: Ledger) -> None:
    """A second row at position 20 (linked to 19, so the chain still walks): the head names
    one of them, the next append would follow which?"""
    plant(two_hands, position=ROWS, stream="h9", seq=1, after=ROWS - 1)
    last = two_hands.head()[1][:16]
    _refused_by_every_append(two_hands, f"the ledger's head 20:{last}... does not match its "
                                        "last rows: two rows hold position 20: nothing "
                                        "written; run `handledger verify`")


def test_a_head_that_is_the_last_row_is_appended_to(two_hands: Ledger) -> None:
    """The check passes an intact head, an empty ledger's genesis head included."""
    assert two_hands.append("h3", hand("h3")) == list(range(21, 31))
    assert two_hands.verify().ok
    with Ledger.memory() as empty:
        assert empty.head() == (0, GENESIS)
        assert empty.append("h1", hand("h1")) == list(range(1, 11))


# ------------------------------------------------ the last row: it hashes right, it links up


def _edit_in_place(led: Ledger, position: int, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the payload at ``position``, its hash left as stored."""
    led.connection.execute("UPDATE events SET payload = replace(payload, ?, ?) WHERE position"
                           " = ?", [old, new, position])


def test_a_last_row_edited_in_place_is_refused_as_replay_names_it(two_hands: Ledger) -> None:
    """Row 20 (h2's end, seq 10) made a fold: its content no longer hashes to its stored hash,
    named as ``verify`` and a saving ``replay`` name it."""
    _edit_in_place(two_hands, ROWS, '"type":"hand_ended"', '"type":"fold"')
    _refused_by_every_append(two_hands, "broken at position 20: edited: row 20 (h2 seq 10): its "
                                        "content does not hash to its stored hash: nothing "
                                        "written; run `handledger verify`")


def test_a_last_row_linked_to_no_stored_row_is_refused(two_hands: Ledger) -> None:
    """Row 20 relinked to a hash no row has, its own hash made again and recorded as the head:
    it hashes right, but the row before it is not the one it was linked to."""
    from ledger.store.chain import row_hash

    con = two_hands.connection
    row = con.execute(f"SELECT {store.COLUMNS} FROM events WHERE position = ?",
                      [ROWS]).fetchone()
    forged = row_hash("f" * 64, position=row[0], stream=row[1], hand_id=row[2],
                      session=row[3], seq=row[4], type=row[5], schema_version=row[6],
                      payload=row[7], recorded_at=row[8], source_key=row[9])
    con.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE position = ?",
                ["f" * 64, forged, ROWS])
    _set_meta(two_hands, "head_hash", forged)
    _refused_by_every_append(two_hands, "broken at position 19: edited: row 19 was rewritten: "
                                        "row 20 (h2 seq 10) links to a hash no row has: "
                                        "nothing written; run `handledger verify`")


def test_a_row_edited_before_the_last_is_left_to_verify(two_hands: Ledger) -> None:
    """What each write does not check (docs/LEDGER.md "Tampering"): row 5 edited in place, the last
    row intact. The append goes on; ``verify`` (and checkpoint, session close, a saving replay
    or run) names row 5."""
    _edit_in_place(two_hands, 5, '"player":"bob"', '"player":"alice"')
    assert two_hands.append("h3", hand("h3")) == list(range(21, 31))
    report = two_hands.verify()
    assert (report.ok, report.first_bad, report.problem) == (False, 5, "edited")


# -------------------------------------------------------- a version 1 ledger's keys, translated


@pytest.mark.parametrize("bulk", [False, True])
@pytest.mark.parametrize(("field", "held"), [(0, "a row at position 10"),
                                             (4, "a row of h1 at seq 10")])
def test_a_key_of_a_version_1_ledger_refuses_in_words_naming_the_damage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: int, held: str,
        bulk: bool) -> None:
    """Rows that pass the writer's checks but meet a key of a version 1 ledger (a writer that
    numbered a row as a stored one: ``link_rows`` patched to put h1's next row at position
    10, or at seq 10): DuckDB's "Duplicate key" is said as the damage, nothing written;
    through the appender, and as columns (``bulk``: DuckDB words the key otherwise)."""
    if bulk:
        monkeypatch.setattr(store, "_BULK", 0)
    real = chain.link_rows

    def repeated(*args: object, **kwargs: object) -> list:
        rows = real(*args, **kwargs)  # type: ignore[arg-type]
        row = list(rows[0])
        row[field] = 10
        return [tuple(row)]

    with v1_ledger(tmp_path / "old.duckdb") as led:
        led.append("h1", hand("h1"))
        monkeypatch.setattr(chain, "link_rows", repeated)
        with pytest.raises(DuplicateEvent) as refused:
            led.append("h1", hand("h1")[-1:])
        assert isinstance(refused.value.__cause__, duckdb.ConstraintException)
        assert str(refused.value) == (
            f"ledger {led.path} already holds {held} where this write would put one: its rows"
            " and its head disagree (a damaged ledger): nothing written; run `handledger "
            "verify`")
        assert led.count() == 10 and led.verify().ok


# ----------------------------------------------------------------------------- the command


def test_hand_start_onto_an_edited_head_is_one_line_and_verify_still_names_the_head(
        tmp_path: Path) -> None:
    """The user's report: ``hand start`` on a ledger whose head hash was edited exited 0, and
    ``verify`` then said the last imported row "was rewritten". Refused, exit 2, the file as
    it was: ``verify`` names the edited head."""
    db = tmp_path / "m.duckdb"
    runner = CliRunner()
    imported = runner.invoke(cli, ["--db", str(db), "import",
                                   str(ROOT / "data" / "dispute" / "wrong-push.phh")])
    assert imported.exit_code == 0, imported.output
    with Ledger(db) as led:
        position, digest = led.head()
        _set_meta(led, "head_hash", "0000")
    started = runner.invoke(cli, ["--db", str(db), "hand", "start", "--hand", "z", "--game",
                                  "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:100",
                                  "--button", "Ann"])
    assert (started.exit_code, started.output) == (
        2, f"error: ledger {db}: the ledger's head {position}:0000 does not match its last row "
           f"{position}:{digest[:16]}...: nothing written; run `handledger verify`\n")
    with Ledger(db, read_only=True) as led:
        assert led.count() == position
        report = led.verify()
    assert (report.ok, report.first_bad) == (False, position)


def test_a_head_moved_back_in_a_version_1_ledger_is_refused_before_its_keys_are_met(
        tmp_path: Path) -> None:
    """The report's case: head_position set back, the next row's position held by a stored
    row, which DuckDB's primary key refused as "Constraint Error: Duplicate key" with no word
    of the damage: the head check refuses it first, naming both."""
    with v1_ledger(tmp_path / "old.duckdb") as led:
        led.append("h1", hand("h1"))
        last = _hash_at(led, 10)[:16]
        _set_meta(led, "head_position", "4")
        _refused_by_every_append(led, f"the ledger's head 4:{last}... does not match its last "
                                      f"row 10:{last}...: nothing written; run "
                                      "`handledger verify`")


def test_a_buyin_onto_a_forged_last_row_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    """The fresh user's report: a session's last buy-in edited from 100 to 900 in the file, and
    the next ``buyin`` went in without a word. Refused, exit 2, as a saving replay words it."""
    db = tmp_path / "b.duckdb"
    runner = CliRunner()
    for args in (("session", "open", "s"), ("buyin", "s", "Ann", "100")):
        done = runner.invoke(cli, ["--db", str(db), *args])
        assert done.exit_code == 0, done.output
    with Ledger(db) as led:
        _edit_in_place(led, 2, '"chips":100', '"chips":900')
    refused = runner.invoke(cli, ["--db", str(db), "buyin", "s", "Bob", "100"])
    assert (refused.exit_code, refused.output) == (
        2, f"error: ledger {db}: broken at position 2: edited: row 2 (session:s seq 2): its "
           "content does not hash to its stored hash: nothing written; run `handledger "
           "verify`\n")
    with Ledger(db, read_only=True) as led:
        assert led.count() == 2
