"""Contract tests of the DuckDB event store, run against an in-memory and a file ledger.

Tampering is done the way an editor of the file would: plain SQL on ``Ledger.connection``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.store.store as store
from ledger.model.errors import (
    ChainBroken,
    DuplicateEvent,
    LedgerBusy,
    LedgerCorrupt,
    LedgerError,
    MalformedEvent,
    NotFound,
)
from ledger.model.events import (
    BetRaise,
    BuyIn,
    Call,
    CardsDealt,
    Check,
    Correction,
    DeclareOptions,
    Fold,
    ForcedBet,
    HandEnded,
    HandStarted,
    RuleOptions,
    Seat,
    SessionOpened,
    Stakes,
    event_json,
)
from ledger.store.chain import GENESIS, canonical_json, link_rows, row_hash
from ledger.store.store import Ledger, StoredEvent

# ----------------------------------------------------------------------------------- fixtures


def started(hand: str, session: str | None = None) -> HandStarted:
    return HandStarted(
        hand=hand,
        game="NT",
        stakes=Stakes(betting="no_limit", blinds_or_straddles=[1, 2], min_bet=2),
        seats=[Seat(player="alice", stack=200), Seat(player="bob", stack=150)],
        session=session,
    )


def hand(hand_id: str, session: str | None = None) -> list:
    """A short heads-up no-limit hand: blinds, raise, call, flop, check, bet, fold."""
    return [
        started(hand_id, session),
        ForcedBet(player="alice", kind="small_blind", amount=1),
        ForcedBet(player="bob", kind="big_blind", amount=2),
        BetRaise(player="alice", to=6),
        Call(player="bob"),
        CardsDealt(cards=["As", "Kd", "7c"], face_up=[True, True, True]),
        Check(player="bob"),
        BetRaise(player="alice", to=8),
        Fold(player="bob"),
        HandEnded(),
    ]


@pytest.fixture(params=["memory", "file"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    led = Ledger.memory() if request.param == "memory" else Ledger(tmp_path / "ledger.duckdb")
    yield led
    led.close()


@pytest.fixture
def filled(ledger: Ledger) -> Ledger:
    """Two hands of 10 events each: positions 1-10 are h1, 11-20 are h2."""
    ledger.append("h1", hand("h1"))
    ledger.append("h2", hand("h2"))
    return ledger


def sql(led: Ledger, statement: str, *params: object) -> None:
    led.connection.execute(statement, list(params))


def swap(led: Ledger, a: int, b: int) -> None:
    sql(led, "UPDATE events SET position = -1 WHERE position = ?", a)
    sql(led, "UPDATE events SET position = ? WHERE position = ?", a, b)
    sql(led, "UPDATE events SET position = ? WHERE position = -1", b)


HASHED = ("position", "stream", "hand_id", "session", "seq", "type", "schema_version", "payload",
          "recorded_at", "source_key")  # fmt: skip


def rehash(row: StoredEvent, prev_hash: str | None = None, **changes: object) -> str:
    """The hash ``row`` would have with ``changes`` applied (what a careful forger computes)."""
    fields = {name: getattr(row, name) for name in HASHED} | changes
    return row_hash(prev_hash or row.prev_hash, **fields)  # type: ignore[arg-type]


def forged_row(led: Ledger, position: int, *, prev_hash: str, digest: str | None = None) -> None:
    """Insert a copy of row 1 at ``position`` as seq 99 of its stream, linked to ``prev_hash``;
    ``digest`` None means the correct hash of the forged content."""
    row = next(led.stored())
    fields = {name: getattr(row, name) for name in HASHED} | {"position": position, "seq": 99}
    if digest is None:
        digest = row_hash(prev_hash, **fields)  # type: ignore[arg-type]
    values = [*fields.values(), prev_hash, digest]
    sql(led, "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", *values)


def found(led: Ledger) -> tuple[bool, str | None, int | None]:
    report = led.verify()
    return report.ok, report.problem, report.first_bad


# ------------------------------------------------------------------------------- round trip


def test_append_read_round_trip(ledger: Ledger) -> None:
    events = hand("h1", session="friday")
    assert ledger.append("h1", events) == list(range(1, 11))
    stored = ledger.read("h1")
    assert [s.event for s in stored] == events
    assert [s.seq for s in stored] == list(range(1, 11))
    assert [s.type for s in stored] == [e.type for e in events]
    first = stored[0]
    assert (first.stream, first.hand_id, first.session) == ("h1", "h1", "friday")
    assert first.schema_version == 1
    assert first.prev_hash == GENESIS and stored[1].prev_hash == first.hash
    assert first.payload == event_json(events[0])
    assert first.recorded_at.tzinfo is None
    assert ledger.count() == 10
    assert list(ledger.stored()) == stored


def test_seq_continues_and_positions_are_global(ledger: Ledger) -> None:
    events = hand("h1")
    assert ledger.append("h1", events[:3]) == [1, 2, 3]
    assert ledger.append("h2", hand("h2")[:2]) == [4, 5]
    assert ledger.append("h1", events[3:5], expected_seq=3) == [6, 7]
    assert [s.seq for s in ledger.read("h1")] == [1, 2, 3, 4, 5]
    assert [s.position for s in ledger.read("h1")] == [1, 2, 3, 6, 7]
    assert [s.event for s in ledger.read("h1")] == events[:5]
    assert ledger.append("h1", []) == []
    assert ledger.verify().ok


def test_session_is_inherited_by_later_appends(ledger: Ledger) -> None:
    events = hand("h1", session="friday")
    ledger.append("h1", events[:2])
    ledger.append("h1", events[2:4])
    assert {s.session for s in ledger.read("h1")} == {"friday"}
    with pytest.raises(MalformedEvent, match="belongs to session 'friday'"):
        ledger.append("h1", events[4:5], session="saturday")


def test_read_window_and_not_found(filled: Ledger) -> None:
    assert [s.seq for s in filled.read("h1", after=3, upto=5)] == [4, 5]
    assert [s.seq for s in filled.read("h1", after=8)] == [9, 10]
    assert filled.read("h1", after=10) == []
    with pytest.raises(NotFound):
        filled.read("h9")


def test_streams_in_order_of_first_position(ledger: Ledger) -> None:
    ledger.append("session:friday", [SessionOpened(session="friday")])
    ledger.append("h2", hand("h2", session="friday")[:2])
    ledger.append("h1", hand("h1")[:2])
    ledger.append("session:friday", [BuyIn(player="alice", chips=200)])
    assert ledger.streams() == ["session:friday", "h2", "h1"]
    assert ledger.streams(kind="hand") == ["h2", "h1"]
    assert ledger.streams(kind="session") == ["session:friday"]
    assert ledger.streams(session="friday") == ["session:friday", "h2"]
    assert ledger.streams(kind="hand", session="friday") == ["h2"]
    assert ledger.read("session:friday")[0].hand_id is None
    assert ledger.read("session:friday")[1].session == "friday"


def test_stored_streams_in_pages(filled: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "_PAGE", 3)
    assert [s.position for s in filled.stored()] == list(range(1, 21))
    assert filled.verify().ok


def test_stored_goes_over_positions_no_row_holds(filled: Ledger,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages are ranges of positions (3 here): the ranges rows 4-12 held, deleted, hold none,
    and rows moved before the first (-2) and to the last position a BIGINT holds are read in
    their place, each row once."""
    monkeypatch.setattr(store, "_PAGE", 3)
    sql(filled, "DELETE FROM events WHERE position BETWEEN 4 AND 12")
    sql(filled, "UPDATE events SET position = -2 WHERE position = 13")
    sql(filled, "UPDATE events SET position = 9223372036854775807 WHERE position = 20")
    assert [s.position for s in filled.stored()] == [-2, 1, 2, 3, *range(14, 20),
                                                     9223372036854775807]


# ------------------------------------------------------------------------- all or nothing


def test_expected_seq_mismatch_writes_nothing(filled: Ledger) -> None:
    with pytest.raises(DuplicateEvent, match="is at seq 10, not the expected 9"):
        filled.append("h1", [HandEnded()], expected_seq=9)
    with pytest.raises(DuplicateEvent):
        filled.append("h3", [started("h3")], expected_seq=2)
    assert filled.count() == 20
    assert filled.append("h3", [started("h3")], expected_seq=0) == [21]


def test_collision_with_a_foreign_row_rolls_back_the_whole_append_many(filled: Ledger) -> None:
    forged_row(filled, 24, prev_hash="x" * 64)  # a row someone put where batch 1 will write
    head = filled.head()[1][:16]
    forged = filled.query("SELECT hash FROM events WHERE position = 24")[0][0][:16]
    batches = [("h3", hand("h3"), None, None, None), ("h4", hand("h4"), None, None, None)]
    with pytest.raises(ChainBroken) as refused:  # the head is checked before anything is written
        filled.append_many(batches)
    assert str(refused.value) == (
        f"ledger {filled.path}: the ledger's head 20:{head}... does not match its last row "
        f"24:{forged}...: nothing written; run `handledger verify`")
    assert filled.count() == 21
    assert filled.streams(kind="hand") == ["h1", "h2"]


def test_malformed_batches_write_nothing(filled: Ledger) -> None:
    good = ("h3", hand("h3"), None, None, None)
    with pytest.raises(MalformedEvent, match="BuyIn is not a hand event"):
        filled.append_many([good, ("h4", [BuyIn(player="a", chips=5)], None, None, None)])
    with pytest.raises(MalformedEvent, match="Fold is not a session event"):
        filled.append("session:s", [Fold(player="a")])
    with pytest.raises(MalformedEvent):
        filled.append("h3", hand("h3"), hand_id="other")
    with pytest.raises(MalformedEvent):
        filled.append("session:s", [SessionOpened(session="s")], hand_id="h3")
    with pytest.raises(MalformedEvent):
        filled.append("session:", [SessionOpened(session="s")])
    with pytest.raises(MalformedEvent):
        filled.append("", [Fold(player="a")])
    with pytest.raises(MalformedEvent):
        filled.append("h3", [{"type": "fold", "player": "a"}])  # type: ignore[list-item]
    assert filled.count() == 20


# ------------------------------------------------------------------------------ idempotence


def test_source_key_makes_reimport_a_no_op(ledger: Ledger) -> None:
    assert not ledger.has_source("file.phh#1")
    assert ledger.append("h1", hand("h1"), source_key="file.phh#1") == list(range(1, 11))
    assert ledger.has_source("file.phh#1")
    assert {s.source_key for s in ledger.read("h1")} == {"file.phh#1"}
    assert ledger.append("h1", hand("h1"), source_key="file.phh#1") == []
    assert ledger.append("h9", hand("h9"), source_key="file.phh#1") == []
    assert ledger.count() == 10


def test_append_many_skips_known_and_repeated_source_keys(ledger: Ledger) -> None:
    ledger.append("h1", hand("h1"), source_key="k1")
    result = ledger.append_many(
        [
            ("h1", hand("h1"), None, None, "k1"),
            ("h2", hand("h2"), None, None, "k2"),
            ("h2", hand("h2"), None, None, "k2"),
            ("h3", hand("h3"), None, None, None),
            ("h3", [HandEnded()], None, None, None),
        ]
    )
    assert result == [[], list(range(11, 21)), [], list(range(21, 31)), [31]]
    assert ledger.streams() == ["h1", "h2", "h3"]
    assert [s.seq for s in ledger.read("h3")][-2:] == [10, 11]
    assert ledger.verify().ok


# ---------------------------------------------------------------------------- transactions


def test_transaction_commits_derived_rows_with_appends(ledger: Ledger) -> None:
    with ledger.transaction() as con:
        con.execute("CREATE TABLE hands (hand_id VARCHAR PRIMARY KEY, events INTEGER)")
        ledger.append("h1", hand("h1")[:4])
        ledger.append("h1", (e for e in hand("h1")[4:]))  # type: ignore[arg-type]
        con.execute("INSERT INTO hands VALUES ('h1', 10)")
    assert [s.event for s in ledger.read("h1")] == hand("h1")
    assert ledger.connection.execute("SELECT * FROM hands").fetchall() == [("h1", 10)]
    with pytest.raises(RuntimeError), ledger.transaction() as con:
        ledger.append("h2", hand("h2"))
        con.execute("INSERT INTO hands VALUES ('h2', 10)")
        raise RuntimeError("derived update failed")
    assert ledger.count() == 10
    assert ledger.connection.execute("SELECT count(*) FROM hands").fetchone() == (1,)
    with pytest.raises(DuplicateEvent), ledger.transaction() as con:
        con.execute("INSERT INTO hands VALUES ('h1', 11)")
    assert ledger.verify().ok


def test_concurrent_writer_in_the_same_process_gets_duplicate_event(tmp_path: Path) -> None:
    path = tmp_path / "shared.duckdb"
    with Ledger(path) as first, Ledger(path) as second:
        with first.transaction():
            first.append("h1", hand("h1"))
            with pytest.raises(DuplicateEvent):
                second.append("h2", hand("h2"))
        assert second.count() == 10
        assert second.verify().ok


# --------------------------------------------------------------------------------- verify
# ``filled``: rows 1-10 are hand h1, rows 11-20 hand h2; the recorded head is row 20.

EDIT = """UPDATE events SET payload = '{"player":"bob","type":"fold"}' WHERE position = ?"""


def test_verify_untouched(ledger: Ledger) -> None:
    assert ledger.verify() == store.VerifyReport(True, 0, None, None, "0 rows verify", (0, GENESIS))
    ledger.append("h1", hand("h1"))
    ledger.append("session:s", [SessionOpened(session="s")])
    report = ledger.verify()
    assert (report.ok, report.rows, report.first_bad, report.problem) == (True, 11, None, None)
    assert report.head == (11, ledger.read("session:s")[0].hash)


@pytest.mark.parametrize("position", [1, 7, 20])
def test_verify_names_an_edited_row(filled: Ledger, position: int) -> None:
    sql(filled, EDIT, position)
    report = filled.verify()
    assert (report.ok, report.problem, report.first_bad) == (False, "edited", position)
    assert report.rows == position - 1
    assert f"row {position} " in report.message


def test_verify_names_an_edit_of_any_column(filled: Ledger) -> None:
    sql(filled, "UPDATE events SET recorded_at = NULL WHERE position = 4")
    assert found(filled) == (False, "edited", 4)


def test_verify_names_a_row_rewritten_with_a_new_hash(filled: Ledger) -> None:
    """The forger recomputes row 6's hash; row 7 still names the old one."""
    payload = canonical_json(Fold(player="alice"))
    new_hash = rehash(filled.read("h1")[5], payload=payload, type="fold")
    sql(filled, "UPDATE events SET payload = ?, type = 'fold', hash = ? WHERE position = 6",
        payload, new_hash)  # fmt: skip
    assert found(filled) == (False, "edited", 6)


def test_verify_names_a_rewritten_head(filled: Ledger) -> None:
    new_hash = rehash(filled.read("h2")[-1], source_key="forged")
    sql(filled, "UPDATE events SET source_key = 'forged', hash = ? WHERE position = 20", new_hash)
    assert found(filled) == (False, "edited", 20)


@pytest.mark.parametrize(
    ("where", "first_bad"),
    [("= 1", 1), ("= 9", 9), ("BETWEEN 9 AND 12", 9), ("= 20", 20), (">= 15", 15)],
)
def test_verify_names_deleted_rows(filled: Ledger, where: str, first_bad: int) -> None:
    sql(filled, f"DELETE FROM events WHERE position {where}")
    assert found(filled) == (False, "deleted", first_bad)


def test_verify_names_a_deletion_relinked_over(filled: Ledger) -> None:
    """Row 8 deleted and row 9 relinked to row 7: its prev_hash names the row two back."""
    hash7 = filled.read("h1")[6].hash
    sql(filled, "DELETE FROM events WHERE position = 8")
    sql(filled, "UPDATE events SET prev_hash = ? WHERE position = 9", hash7)
    assert found(filled) == (False, "deleted", 8)


def test_verify_names_an_inserted_row_that_links_to_nothing(filled: Ledger) -> None:
    forged_row(filled, 21, prev_hash="f" * 64, digest="e" * 64)
    assert found(filled) == (False, "inserted", 21)


def test_verify_names_a_well_forged_extra_row_after_the_head(filled: Ledger) -> None:
    forged_row(filled, 21, prev_hash=filled.read("h2")[-1].hash)
    assert found(filled) == (False, "inserted", 21)


@pytest.mark.parametrize("position", [0, -5, 30])
def test_verify_names_rows_inserted_outside_the_chain(filled: Ledger, position: int) -> None:
    forged_row(filled, position, prev_hash=GENESIS)
    assert found(filled) == (False, "inserted", position)


def test_verify_names_a_row_inserted_by_shifting_the_rest(filled: Ledger) -> None:
    """Rows 6.. moved up by one and a well-forged row put at 6, head fixed: row 7 (the old 6)
    now skips back over the forged row to row 5."""
    for position in range(20, 5, -1):
        sql(filled, "UPDATE events SET position = ? WHERE position = ?", position + 1, position)
    forged_row(filled, 6, prev_hash=filled.read("h1")[4].hash)
    sql(filled, "UPDATE meta SET value = '21' WHERE key = 'head_position'")
    assert found(filled) == (False, "inserted", 6)


def test_verify_names_a_forged_row_in_place_of_a_deleted_one(filled: Ledger) -> None:
    sql(filled, "DELETE FROM events WHERE position = 12")
    forged_row(filled, 12, prev_hash="a" * 64, digest="b" * 64)
    assert found(filled) == (False, "inserted", 12)


@pytest.mark.parametrize(("a", "b"), [(5, 6), (3, 14), (1, 2), (19, 20)])
def test_verify_names_reordered_rows(filled: Ledger, a: int, b: int) -> None:
    swap(filled, a, b)
    assert found(filled) == (False, "reordered", a)


def test_verify_names_a_row_moved_to_the_end(filled: Ledger) -> None:
    sql(filled, "UPDATE events SET position = 21 WHERE position = 4")
    assert found(filled) == (False, "reordered", 4)


# --------------------------------------------------------------------------- hash chain


def test_link_rows_hashes_equal_the_reference_definition(filled: Ledger) -> None:
    for row in filled.stored():
        assert row.hash == rehash(row)


def test_hash_covers_every_column(filled: Ledger) -> None:
    row = filled.read("h1")[0]
    assert rehash(row) == row.hash and row.prev_hash == GENESIS
    changes = {"position": 2, "stream": "h2", "hand_id": None, "session": "s", "seq": 2,
               "type": "fold", "schema_version": 2, "payload": row.payload + " ",
               "recorded_at": datetime(2001, 1, 1), "source_key": "k"}  # fmt: skip
    for key, value in changes.items():
        assert rehash(row, **{key: value}) != row.hash, key
    assert rehash(row, prev_hash="1" * 64) != row.hash


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@given(player=names, other=names, amount=st.integers(0, 10**12),
       extra=st.one_of(st.floats(), st.integers(-10**30, 10**30), st.none(), names))
def test_canonical_json_is_event_json(player: str, other: str, amount: int, extra: Any) -> None:
    events = [
        ForcedBet(player=player, kind="ante", amount=amount),
        BetRaise(player=player, to=amount + 1),
        HandStarted(
            hand=other,
            game="FR",
            stakes=Stakes(betting="fixed_limit", small_bet=2),
            seats=[Seat(player=player, stack=amount), Seat(player=other + "x", stack=1)],
            options=RuleOptions(declare=DeclareOptions()),
            source={"k": [player, 1.5], "x": extra},
        ),
        Correction(changes=[{"op": "delete", "seq": 3}], reason=other, by=player),
    ]
    for event in events:
        assert canonical_json(event) == event_json(event)


def test_link_rows_numbering() -> None:
    rows = link_rows(
        GENESIS,
        first_position=5,
        first_seq=2,
        stream="h",
        hand_id="h",
        session=None,
        source_key=None,
        recorded_at=datetime(2024, 1, 1),
        types=["fold", "check"],
        schema_versions=[1, 1],
        payloads=["{}", "{}"],
    )
    assert [(r[0], r[4]) for r in rows] == [(5, 2), (6, 3)]
    assert rows[1][10] == rows[0][11]


# ------------------------------------------------------------------------------ hypothesis

event_lists = st.lists(
    st.sampled_from(
        [
            Fold(player="a"),
            Check(player="b"),
            Call(player="c"),
            BetRaise(player="a", to=9),
            HandEnded(),
            CardsDealt(player="a", cards=["??", "Ah"]),
        ]
    ),
    min_size=1,
    max_size=4,
)
appends = st.lists(
    st.tuples(st.sampled_from(["h1", "h2", "h3"]), event_lists), min_size=1, max_size=8
)


def _apply(appends_: list[tuple[str, list]]) -> Ledger:
    led = Ledger.memory()
    for stream, events in appends_:
        first = stream not in led.streams()
        led.append(stream, [started(stream), *events] if first else events)
    return led


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(appends=appends, data=st.data())
def test_any_single_payload_edit_is_found_at_its_position(
    appends: list, data: st.DataObject
) -> None:
    led = _apply(appends)
    with led:
        report = led.verify()
        assert report.ok and report.rows == led.count()
        for stream in {s for s, _ in appends}:
            assert [s.seq for s in led.read(stream)] == list(range(1, len(led.read(stream)) + 1))
        position = data.draw(st.integers(1, led.count()))
        sql(
            led,
            """UPDATE events SET payload = '{"type":"fold","player":"z"}'
                    WHERE position = ?""",
            position,
        )
        report = led.verify()
        assert (report.ok, report.problem, report.first_bad) == (False, "edited", position)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(appends=appends, data=st.data())
def test_any_deletion_or_swap_is_found(appends: list, data: st.DataObject) -> None:
    led = _apply(appends)
    with led:
        n = led.count()  # at least 2: a HandStarted and one more event
        a, b = sorted(data.draw(st.lists(st.integers(1, n), min_size=2, max_size=2, unique=True)))
        if data.draw(st.booleans()):
            sql(led, "DELETE FROM events WHERE position = ?", a)
            expected = ("deleted", a)
        else:
            swap(led, a, b)
            expected = ("reordered", a)
        report = led.verify()
        assert (report.ok, report.problem, report.first_bad) == (False, *expected)


# ------------------------------------------------------------------------------- opening


HOLDER = textwrap.dedent(
    """
    import json, sys
    from ledger.model.events import parse_event
    from ledger.store.store import Ledger
    first, second = ([parse_event(e) for e in events] for events in json.loads(sys.argv[2]))
    with Ledger(sys.argv[1]) as led:
        led.append("h1", first)
        print("ready", flush=True)
        sys.stdin.readline()
        led.append("h2", second)
    print("done", flush=True)
    """
)


def test_second_process_gets_ledger_busy_and_the_first_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.duckdb"
    events = json.dumps([[event_json(e) for e in hand(h)] for h in ("h1", "h2")])
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), events],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "ready"
        for read_only in (False, True):
            with pytest.raises(LedgerBusy) as caught:
                Ledger(path, read_only=read_only)
            said = str(caught.value)  # the holder's command as the system has it, cut short
            assert said.startswith(f"ledger {path} is busy: another process (pid {holder.pid}:"
                                   f" {Path(sys.executable).name} -c import json, sys from ")
            assert said.endswith("...) is writing it") and len(said) == len(
                f"ledger {path} is busy: another process (pid {holder.pid}: ) is writing it") + 60
            assert caught.value.holder == "writer"
            assert isinstance(caught.value.__cause__, duckdb.IOException)
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "done"
        assert holder.wait(timeout=60) == 0
    finally:
        holder.kill()
        holder.wait()
    with Ledger(path, read_only=True) as led:
        assert led.count() == 20
        assert led.streams() == ["h1", "h2"]
        assert [s.event for s in led.read("h1")] == hand("h1")
        assert [s.event for s in led.read("h2")] == hand("h2")
        assert led.verify().ok


def test_open_errors_are_ledger_errors(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        Ledger(tmp_path / "missing.duckdb", read_only=True)
    garbage = tmp_path / "garbage.duckdb"
    garbage.write_bytes(b"not a database" * 1000)
    with pytest.raises(LedgerCorrupt) as refused:  # refused before DuckDB opens it
        Ledger(garbage)
    assert str(refused.value) == (f"ledger {garbage} is corrupt, or not a ledger: not a DuckDB "
                                  "file (no DuckDB header): nothing done")
    garbage.write_bytes(b"\0" * 8 + b"DUCK" + b"not a database" * 1000)  # DuckDB's mark
    with pytest.raises(LedgerError) as caught:
        Ledger(garbage)
    assert isinstance(caught.value.__cause__, duckdb.Error)
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).close()
    with pytest.raises(LedgerError, match="not a handledger ledger"):
        Ledger(other, read_only=True)
    path = tmp_path / "ro.duckdb"
    Ledger(path).close()
    with Ledger(path, read_only=True) as led, pytest.raises(LedgerError, match="read-only"):
        led.append("h1", hand("h1"))


def test_a_closed_ledger_raises_ledger_errors(ledger: Ledger) -> None:
    ledger.close()
    ledger.close()
    with pytest.raises(LedgerError):
        ledger.count()
    with pytest.raises(LedgerError):
        ledger.append("h1", hand("h1"))


def test_reopened_file_keeps_chain_and_head(tmp_path: Path) -> None:
    path = tmp_path / "reopen.duckdb"
    with Ledger(path) as led:
        led.append("h1", hand("h1"))
    with Ledger(path) as led:
        assert led.append("h1", [HandEnded()]) == [11]
        assert led.verify().ok
        assert isinstance(led.read("h1")[-1], StoredEvent)


@pytest.mark.slow
def test_100k_events_in_one_bulk_append(tmp_path: Path) -> None:
    """10,000 hands of 10 events: one append_many, a streamed walk, verify, re-import no-op."""
    batches = [(f"h{i}", hand(f"h{i}"), None, None, f"file#{i}") for i in range(10_000)]
    with Ledger(tmp_path / "big.duckdb") as led:
        started_at = time.perf_counter()
        written = led.append_many(batches)
        rate = 100_000 / (time.perf_counter() - started_at)
        print(f"append_many: {rate:,.0f} events/s")
        assert written[-1] == list(range(99_991, 100_001))
        assert sum(1 for _ in led.stored()) == led.count() == 100_000
        assert led.verify().ok
        assert led.append_many(batches[:100]) == [[]] * 100
        sql(led, EDIT, 77_777)
        assert found(led) == (False, "edited", 77_777)


def _memory_limit(led: Ledger) -> str:
    return str(led.connection.execute("SELECT current_setting('memory_limit')").fetchone()[0])


def _mib(limit: str) -> float:
    number, unit = limit.split()
    assert unit == "MiB"
    return float(number)


def test_a_capped_transaction_caps_duckdb_memory_until_it_commits_or_rolls_back(
        filled: Ledger) -> None:
    """``transaction(capped=True)`` (ledger/store/spill.py): DuckDB's memory limit is 64 MiB
    above what its unique indexes take (here only ``meta``'s key, one block of 256 KiB: the
    events of a new ledger have none, so appends do not raise it; a ledger with them:
    tests/test_store_versions.py), through the commit too (no index to merge); after the
    commit, and after a rollback the database forced, it is DuckDB's default again, exactly
    as before (not its rounded text)."""
    from ledger.store import spill

    before = _memory_limit(filled)
    assert before.endswith("GiB")  # DuckDB's default: most of the machine's memory
    seen = []
    with filled.transaction(capped=True):
        seen.append(_mib(_memory_limit(filled)))
        filled.append_many([(f"h{i}", hand(f"h{i}"), None, None, None) for i in range(3, 303)])
        seen.append(_mib(_memory_limit(filled)))
        assert spill.indexes(filled.connection) == 512 * 1024  # meta's key, updated: 2 blocks
        assert spill.commit_capped(filled.connection)
    assert seen == [64.5, 64.5]
    assert _memory_limit(filled) == before and filled.count() == 3020
    with pytest.raises(DuplicateEvent), filled.transaction(capped=True):
        filled.append("h303", hand("h303"))
        sql(filled, "INSERT INTO meta VALUES ('head_position', 'x')")  # aborts the transaction
    assert _memory_limit(filled) == before and filled.count() == 3020
    with filled.transaction():  # uncapped: as it was
        filled.append("h303", hand("h303"))
        assert _memory_limit(filled) == before
