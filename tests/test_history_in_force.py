"""``history`` (and the ``view`` page) name what a correction changed as it stood just before
it: a correction of a correction names the value the earlier one put there, and which one,
never the event as first recorded (replay/fold.py ``in_force_before``).

Worked by hand: heads-up 1/2, Ann (button) raises to 10, Bob calls, checked down; Ann's kings
win the 20, paid ``pay Ann 16`` (seq 19) and ``pay Ann 4`` (seq 20), ``end`` (seq 21). Each
correction keeps the 20 paid to Ann: 22 makes them 17 + 3, 23 puts 16 + 4 back, its undo (24)
takes 23 back (17 + 3 in force again), 25 makes them 18 + 2, 26 pays 20 at seq 19 and deletes
seq 20, 27 pays 16 at seq 19 and inserts 4 after seq 20."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_live_table import one_shot

ACTIONS = ("d dh Ann AsKs", "d dh Bob QhQd", "Ann cbr 10", "Bob cc", "d db 2c7h9s", "Bob cc",
           "Ann cc", "d db Kd", "Bob cc", "Ann cc", "d db 3c", "Bob cc", "Ann cc", "Ann sm AsKs",
           "Bob sm QhQd", "pay Ann 16", "pay Ann 4", "end")


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("history") / "t.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "q1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:100,Bob:100", "--button", "Ann")[0] == 0
    for action in ACTIONS:
        assert one_shot(db, "act", "q1", action)[0] == 0, action
    for changes in ((("--replace", "19", "pay Ann 17"), ("--replace", "20", "pay Ann 3")),
                    (("--replace", "19", "pay Ann 16"), ("--replace", "20", "pay Ann 4")),
                    None,  # undo
                    (("--replace", "19", "pay Ann 18"), ("--replace", "20", "pay Ann 2")),
                    (("--replace", "19", "pay Ann 20"), ("--delete", "20")),
                    (("--replace", "19", "pay Ann 16"), ("--insert-after", "20", "pay Ann 4"))):
        args = (("undo", "q1", "--by", "host") if changes is None else
                ("correct", "q1", *(w for c in changes for w in c), "--reason", "r", "--by",
                 "host"))
        code, out, err = one_shot(db, *args)
        assert code == 0, (args, out, err)
    return db


def test_history_names_the_value_in_force(corrected: Path) -> None:
    code, out, _ = one_shot(corrected, "history", "q1")
    assert code == 0
    changes = [line.strip() for line in out.splitlines() if line.startswith("        ")]
    assert changes == [
        "replace seq 19 recorded_payout Ann 17 (seq 19 was: recorded_payout Ann 16)",
        "replace seq 20 recorded_payout Ann 3 (seq 20 was: recorded_payout Ann 4)",
        # the correction of the correction: 3 was in force, not the 4 first recorded
        "replace seq 19 recorded_payout Ann 16 (seq 19 was: recorded_payout Ann 17, set by "
        "correction 22)",
        "replace seq 20 recorded_payout Ann 4 (seq 20 was: recorded_payout Ann 3, set by "
        "correction 22)",
        "delete seq 23 (seq 23 was: correction by host: r)",
        # 23 taken back: 22's values are in force again
        "replace seq 19 recorded_payout Ann 18 (seq 19 was: recorded_payout Ann 17, set by "
        "correction 22)",
        "replace seq 20 recorded_payout Ann 2 (seq 20 was: recorded_payout Ann 3, set by "
        "correction 22)",
        "replace seq 19 recorded_payout Ann 20 (seq 19 was: recorded_payout Ann 18, set by "
        "correction 25)",
        "delete seq 20 (seq 20 was: recorded_payout Ann 2, set by correction 25)",
        "replace seq 19 recorded_payout Ann 16 (seq 19 was: recorded_payout Ann 20, set by "
        "correction 26)",
        "insert_after seq 20 recorded_payout Ann 4 (seq 20 was deleted by correction 26)"]


def test_history_json_gives_the_correction_that_set_it(corrected: Path) -> None:
    code, out, _ = one_shot(corrected, "history", "q1", "--json")
    assert code == 0
    got = [(a["seq"], c["op"], c["seq"], c["was"], c["was_set_by"])
           for a in json.loads(out)["amendments"] for c in a["changes"]]
    assert got == [
        (22, "replace", 19, "recorded_payout Ann 16", None),
        (22, "replace", 20, "recorded_payout Ann 4", None),
        (23, "replace", 19, "recorded_payout Ann 17", 22),
        (23, "replace", 20, "recorded_payout Ann 3", 22),
        (24, "delete", 23, "correction by host: r", None),
        (25, "replace", 19, "recorded_payout Ann 17", 22),
        (25, "replace", 20, "recorded_payout Ann 3", 22),
        (26, "replace", 19, "recorded_payout Ann 18", 25),
        (26, "delete", 20, "recorded_payout Ann 2", 25),
        (27, "replace", 19, "recorded_payout Ann 20", 26),
        (27, "insert_after", 20, None, 26)]


def test_the_view_names_the_value_in_force(corrected: Path) -> None:
    from ledger.store.store import Ledger
    from replay.handview import load_view

    with Ledger(str(corrected), read_only=True) as ledger:
        view = load_view(ledger, "q1")
    assert [(a.seq, c.was, c.now) for a in view.history for c in a.changes][2:4] == [
        (23, "pay Ann 17 (set by correction 22)", "pay Ann 16"),
        (23, "pay Ann 3 (set by correction 22)", "pay Ann 4")]
    assert [(a.seq, c.was) for a in view.history for c in a.changes][-1] == (
        27, "deleted by correction 26")


def _started(db: Path, hand: str) -> dict:
    code, out, _ = one_shot(db, "export", "--format", "jsonl", hand)
    assert code == 0
    return json.loads(out.splitlines()[0])["event"]


@pytest.fixture(scope="module")
def restacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Heads-up 1/2, Ann (button, small blind) 100, Bob 150; the start corrected twice: Bob's
    stack 150 → 160 and Ann's 100 → 90 (seq 4), then Bob's 160 → 170 (seq 5)."""
    db = tmp_path_factory.mktemp("restacked") / "t.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "g2", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:100,Bob:150", "--button", "Ann")[0] == 0
    for stacks in ({"Bob": 160, "Ann": 90}, {"Bob": 170, "Ann": 90}):
        started = _started(db, "g2")
        for seat in started["seats"]:
            seat["stack"] = stacks[seat["player"]]
        code, out, err = one_shot(db, "correct", "g2", "--replace", "1", json.dumps(started),
                                  "--reason", "stack typed wrong", "--by", "host")
        assert code == 0, (out, err)
    return db


def test_history_says_what_a_replaced_start_changed(restacked: Path) -> None:
    code, out, _ = one_shot(restacked, "history", "g2")
    assert code == 0
    changes = [line.strip() for line in out.splitlines() if line.startswith("        ")]
    assert changes == [
        "replace seq 1 hand_started g2: seat Bob's stack 150 → 160; seat Ann's stack 100 → 90 "
        "(seq 1 was: hand_started g2)",
        "replace seq 1 hand_started g2: seat Bob's stack 160 → 170 (seq 1 was: hand_started "
        "g2, set by correction 4)"]
    code, out, _ = one_shot(restacked, "history", "g2", "--json")
    assert [c["differs"] for a in json.loads(out)["amendments"] for c in a["changes"]] == [
        ["seat Bob's stack 150 → 160", "seat Ann's stack 100 → 90"],
        ["seat Bob's stack 160 → 170"]]


def test_the_view_says_what_a_replaced_start_changed(restacked: Path, tmp_path: Path) -> None:
    from ledger.store.store import Ledger
    from replay.handview import load_view

    with Ledger(str(restacked), read_only=True) as ledger:
        view = load_view(ledger, "g2")
    assert [(a.seq, c.differs) for a in view.history for c in a.changes] == [
        (4, ("seat Bob's stack 150 → 160", "seat Ann's stack 100 → 90")),
        (5, ("seat Bob's stack 160 → 170",))]
    page = tmp_path / "g2.html"
    assert one_shot(restacked, "view", "g2", "-o", str(page))[0] == 0
    assert ("replace seq 1 <code>hand_started g2 (set by correction 4)</code> by "
            "<code>hand_started g2</code>: <span class=\"differs\">seat Bob&#39;s stack 160 → "
            "170</span></li>") in page.read_text(encoding="utf-8")


def test_every_field_of_a_start_that_differs_is_named() -> None:
    from ledger.model import events as ev
    from replay.started_changes import started_changes

    was = ev.HandStarted(
        hand="h", game="NT", button="Ann", session=None,
        stakes=ev.Stakes(betting="no_limit", blinds_or_straddles=[1, 2], min_bet=2),
        seats=[ev.Seat(player="Ann", stack=100), ev.Seat(player="Bob", stack=150),
               ev.Seat(player="Cy", stack=300)])
    now = was.model_copy(update={
        "button": "Bob", "session": "friday",
        "stakes": ev.Stakes(betting="no_limit", blinds_or_straddles=[2, 4], min_bet=4),
        "seats": [ev.Seat(player="Bob", stack=150, seat=3), ev.Seat(player="Ann", stack=110),
                  ev.Seat(player="Dee", stack=250)]})
    assert started_changes(was, now) == [
        "seat Ann's stack 100 → 110", "seat Bob's seat number none → 3",
        "seat Cy removed (had 300)", "seat Dee added with 250", "seat order Ann, Bob → Bob, Ann",
        "button Ann → Bob", "stakes blinds 1/2 → 2/4", "stakes min bet 2 → 4",
        "session none → friday"]
    assert started_changes(was, was) == []
    # a hand kept in cents writes its chips as its actions do
    assert started_changes(was, was.model_copy(update={"seats": [
        ev.Seat(player="Ann", stack=150), *was.seats[1:]]}), 2) == [
        "seat Ann's stack 1.00 → 1.50"]
