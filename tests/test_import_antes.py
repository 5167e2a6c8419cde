"""A JSON-lines hand's antes list against its seats and the antes it posts (RULES.md §4.3,
FORMATS.md §1: ``stakes.antes`` has one entry per seat, or none; every player antes what his
entry gives, all he has when that is less). The hand below was played live (``hand start
--game NT --stakes 1/2 --antes 5 --seats "Ann:100,Bob:3,Cy:50" --button Cy``) and exported:
Bob antes all his 3 chips, so he posts no big blind; Cy folds, Ann checks it down with aces
and takes the pot of 5 + 1 + 3 + 5 = 14."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ledger.formats.jsonl.lines import read_jsonl
from tests.conftest import DATA

_SEATS = [{"player": "Ann", "seat": None, "stack": 100},
          {"player": "Bob", "seat": None, "stack": 3},
          {"player": "Cy", "seat": None, "stack": 50}]
_STARTED = {
    "button": "Cy", "game": "NT", "hand": "a", "schema_version": 1, "seats": _SEATS,
    "session": None, "source": {}, "type": "hand_started",
    "stakes": {"antes": [5, 5, 5], "betting": "no_limit", "big_bet": 0,
               "blinds_or_straddles": [1, 2, 0], "bring_in": 0, "min_bet": 2, "small_bet": 0},
}


def _ante(player: str, amount: int) -> dict[str, Any]:
    return {"amount": amount, "kind": "ante", "player": player, "type": "forced_bet"}


_PLAY = [
    {"amount": 1, "kind": "small_blind", "player": "Ann", "type": "forced_bet"},
    {"cards": ["Ac", "Ad"], "player": "Ann", "type": "cards_dealt"},
    {"cards": ["Kc", "Kd"], "player": "Bob", "type": "cards_dealt"},
    {"cards": ["2c", "7d"], "player": "Cy", "type": "cards_dealt"},
    {"player": "Cy", "type": "fold"},
    {"player": "Ann", "type": "check"},
    {"cards": ["2h", "3h", "4s"], "player": None, "type": "cards_dealt"},
    {"cards": ["9c"], "player": None, "type": "cards_dealt"},
    {"cards": ["Jd"], "player": None, "type": "cards_dealt"},
    {"cards": ["Ac", "Ad"], "player": "Ann", "type": "reveal"},
    {"cards": ["Kc", "Kd"], "player": "Bob", "type": "reveal"},
    {"amount": 14, "player": "Ann", "type": "recorded_payout"},
    {"status": "complete", "type": "hand_ended"},
]


def _file(tmp_path: Path, antes: list[int], posted: list[dict[str, Any]]) -> Path:
    started = {**_STARTED, "stakes": {**_STARTED["stakes"], "antes": antes}}
    events = [started, *posted, *_PLAY]
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps({"hand": "a", "seq": i, "event": e}) + "\n"
                            for i, e in enumerate(events, 1)), encoding="utf-8")
    return path


def test_every_seat_antes_its_entry_or_all_it_has(user, tmp_path: Path) -> None:  # noqa: ANN001
    path = _file(tmp_path, [5, 5, 5], [_ante("Ann", 5), _ante("Bob", 3), _ante("Cy", 5)])
    assert user("import", str(path)) == (
        0, "imported 1 hand(s) (17 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert user("audit")[0] == 0


def test_a_list_not_one_entry_a_seat_is_one_line_naming_file_line_hand(  # noqa: ANN001
        user, tmp_path: Path) -> None:
    """The declare night's stud hand 1 as first shipped: antes [1, 1] beside four seats."""
    path = _file(tmp_path, [5, 5], [_ante("Ann", 5), _ante("Bob", 3)])
    code, out, err = user("import", str(path))
    assert (code, err) == (2, f"error: {path}:1, hand a: stakes.antes lists 2 entries for 3 "
                              "seats: one per seat in seat order, or none (FORMATS.md §1; "
                              "every player antes: RULES.md §4.3)\n")
    assert out.endswith("1 rejected\n")
    assert not (tmp_path / "t.duckdb").exists()  # nothing written: no ledger made


def test_a_seat_that_posts_no_ante_is_named(user, tmp_path: Path) -> None:  # noqa: ANN001
    path = _file(tmp_path, [5, 5, 5], [_ante("Ann", 5), _ante("Bob", 3)])
    assert user("import", str(path))[2] == (
        f"error: {path}:1, hand a: Cy posts no ante, but stakes.antes gives Cy's seat 5: "
        "every player antes, all of the stack when that is less (RULES.md §4.3)\n")


def test_an_ante_the_list_does_not_give_is_named_at_its_line(user, tmp_path: Path) -> None:  # noqa: ANN001
    """A big-blind ante (only Bob's entry, RULES.md §4.3) that Ann posts too."""
    path = _file(tmp_path, [0, 5, 0], [_ante("Ann", 5), _ante("Bob", 3)])
    assert user("import", str(path))[2] == (
        f"error: {path}:2, hand a: Ann posts an ante of 5, but stakes.antes gives Ann's seat "
        "none (RULES.md §4.3)\n")


def test_the_bundled_declare_night_has_every_seat_ante() -> None:
    night = read_jsonl(DATA / "declare" / "declare-night.jsonl")
    assert night.errors == [] and len(night.hands) == 10
    stud = [h.events for h in night.hands if h.events[0].game == "F7S"]
    for events in stud:
        seats = [s.player for s in events[0].seats]
        assert events[0].stakes.antes == [1] * len(seats)
        assert [e.player for e in events[1:5]] == seats
        assert all(e.type == "forced_bet" and e.kind == "ante" for e in events[1:5])
