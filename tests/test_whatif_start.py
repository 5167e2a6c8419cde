"""``whatif`` of a changed start says what it changes there, as ``correct`` does (README, "A
stack typed wrong": the what-if "shows the same change without writing it"). A stack typed
wrong changes no net of a hand still in play, so the what-if's table showed only +0 and a
host previewing the fix read that it changed nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_live_table import events, one_shot


def _start_with_bob(db: Path, stack: int) -> str:
    """The hand's ``hand_started`` as ``export`` gives it, Bob's stack made ``stack``."""
    code, out, _ = one_shot(db, "export", "--format", "jsonl", "w1")
    assert code == 0
    start = json.loads(out.splitlines()[0])["event"]
    [bob] = [s for s in start["seats"] if s["player"] == "Bob"]
    bob["stack"] = stack
    return json.dumps(start)


def test_whatif_of_a_stack_typed_wrong_says_the_start_it_changes(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "w1", "--game", "NT", "--stakes", "1/2",
                    "--seats", "Ann:100,Bob:15", "--button", "Ann")[0] == 0
    fixed = _start_with_bob(db, 150)
    before = events(db)
    assert one_shot(db, "whatif", "w1", "--replace", "1", fixed) == (0, (
        "what if, hand w1 (nothing written):\n"
        "                          by the rules           net (what the table paid)\n"
        "  player        before   after    diff       before       after       diff\n"
        "  Bob               -2      -2      +0           -2          -2         +0\n"
        "  Ann               -1      -1      +0           -1          -1         +0\n"
        "  start: seat Bob's stack 15 → 150\n"), "")
    code, out, _ = one_shot(db, "whatif", "w1", "--replace", "1", fixed, "--json")
    assert (code, json.loads(out)["start"]) == (0, ["seat Bob's stack 15 → 150"])
    code, out, _ = one_shot(db, "whatif", "w1", "--replace", "1", _start_with_bob(db, 15),
                            "--json")
    assert (code, json.loads(out)["start"]) == (0, [])  # the start as it stands
    assert events(db) == before
    code, out, _ = one_shot(db, "correct", "w1", "--replace", "1", fixed, "--reason", "typo",
                            "--by", "Host")
    assert code == 0 and "; start: seat Bob's stack 15 → 150;" in out
