"""A stud hand read from JSON lines that leaves ``odd_chip_tie_order`` out takes stud's own
order, by card and suit (RULES.md §2.2, §5, §7.5: stud has no button), not the event model's
game-independent ``left_of_button``; a line that gives the order keeps it, and a hold'em hand
keeps ``left_of_button``. A JSON ``hand_started`` typed in a correction reads the same way.

The hand (seven-card stud hi-lo, fixed limit: antes 1, bring-in 2, bets 5/10): Cy's 2d is the
lowest up card, so he brings in for 2; Ann calls, Bob folds; Ann and Cy check every later
street. Both make the king-high straight (Ann 9h Tc Jd Qs Kc, Cy 9s Th Jc Qd Kd); neither has
five cards of 8 or lower, so there is no low and the high takes the whole pot: 3 antes + 2 + 2
= 7 chips, 4 and 3 between the two. By suit the odd chip goes to the higher top card, Cy's
Kd (diamonds above clubs) over Ann's Kc: Cy +1, Ann 0, Bob -1 (his ante). In seat order
(``left_of_button``, stud's seat order) Ann comes first: Ann +1, Cy 0, Bob -1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.games import game
from ledger.formats.phh.expected import parse_options
from ledger.formats.reading import with_game_tie_order
from ledger.model.errors import MalformedInput
from ledger.model.events import parse_event
from replay.action_text import parse_action
from tests.test_live_table import one_shot

SEATS = [{"player": "Ann", "stack": 100}, {"player": "Bob", "stack": 100},
         {"player": "Cy", "stack": 100}]


def _started(game: str = "F7S/8", options: dict[str, Any] | None = None) -> dict[str, Any]:
    started: dict[str, Any] = {
        "type": "hand_started", "hand": "h1", "game": game, "seats": SEATS,
        "stakes": {"betting": "fixed_limit", "antes": [1, 1, 1], "bring_in": 2,
                   "small_bet": 5, "big_bet": 10}}
    if options is not None:
        started["options"] = options
    return started


def _hand_lines(options: dict[str, Any] | None) -> str:
    """The hand of the module doc, one JSON line an event, as a player would write them."""
    def deal(player: str, *cards: str) -> dict[str, Any]:
        return {"type": "cards_dealt", "player": player, "cards": list(cards)}

    events = [_started(options=options)]
    events += [{"type": "forced_bet", "player": p, "kind": "ante", "amount": 1}
               for p in ("Ann", "Bob", "Cy")]
    events += [deal("Ann", "Tc", "Jd", "9h"), deal("Bob", "3c", "4c", "Ks"),
               deal("Cy", "Th", "Jc", "2d"),
               {"type": "forced_bet", "player": "Cy", "kind": "bring_in", "amount": 2},
               {"type": "call", "player": "Ann"}, {"type": "fold", "player": "Bob"}]
    for ann, cy in (("Qs", "Qd"), ("Kc", "Kd"), ("3h", "5s"), ("4h", "9s")):
        events += [deal("Ann", ann), deal("Cy", cy), {"type": "check", "player": "Ann"},
                   {"type": "check", "player": "Cy"}]
    events.append({"type": "hand_ended", "status": "complete"})
    return "".join(json.dumps({"hand": "h1", "seq": seq, "event": event}) + "\n"
                   for seq, event in enumerate(events, 1))


def _imported(tmp_path: Path, name: str, options: dict[str, Any] | None
              ) -> tuple[Path, Path]:
    path = tmp_path / f"{name}.jsonl"
    path.write_text(_hand_lines(options), encoding="utf-8")
    db = tmp_path / f"{name}.duckdb"
    assert one_shot(db, "import", str(path)) == (
        0, "imported 1 hand(s) (27 events) from 1 file(s); 0 already in the ledger; "
        "0 rejected\n", "")
    return path, db


def _pot_line(db: Path) -> str:
    code, out, err = one_shot(db, "show", "h1")
    assert (code, err) == (0, "")
    text = " ".join(out.split())  # as printed, whatever the terminal width
    return text[text.index("Main pot"):]


def _nets(db: Path) -> dict[str, int]:
    code, out, err = one_shot(db, "balances", "--json")
    assert (code, err) == (0, "")
    return {row["player"]: row["net"] for row in json.loads(out)["players"]}


def _stored_order(db: Path) -> str:
    code, out, err = one_shot(db, "export", "--format", "jsonl", "h1")
    assert (code, err) == (0, "")
    return json.loads(out.splitlines()[0])["event"]["options"]["split"]["odd_chip_tie_order"]


def test_a_stud_line_without_options_ties_by_suit(tmp_path: Path) -> None:
    """No ``options`` at all: the hand is stored with ``card_by_suit`` and Cy, holding the Kd,
    takes the odd chip; importing the file again adds nothing, nor does its export."""
    path, db = _imported(tmp_path, "bare", None)
    assert _stored_order(db) == "card_by_suit"
    assert _pot_line(db) == (
        "Main pot 7 (Ann, Cy): No qualifying low, the high takes it all. Ann and Cy tie with "
        "straight, king high; Cy 4, Ann 3; odd chip to Cy (highest card by suit, Kd).")
    assert _nets(db) == {"Ann": 0, "Bob": -1, "Cy": 1}
    again = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
    assert one_shot(db, "import", str(path)) == (0, again, "")
    export = tmp_path / "export.jsonl"
    assert one_shot(db, "export", "--format", "jsonl", "h1", "-o", str(export))[0] == 0
    assert one_shot(db, "import", str(export)) == (0, again, "")


def test_the_same_line_saying_left_of_button_keeps_seat_order(tmp_path: Path) -> None:
    """The order given is never changed: ``left_of_button`` in stud is seat order, so Ann,
    first in it, takes the odd chip that the suits give Cy."""
    _, db = _imported(tmp_path, "seat", {"split": {"odd_chip_tie_order": "left_of_button"}})
    assert _stored_order(db) == "left_of_button"
    assert _pot_line(db) == (
        "Main pot 7 (Ann, Cy): No qualifying low, the high takes it all. Ann and Cy tie with "
        "straight, king high; Ann 4, Cy 3; odd chip to Ann (first in seat order).")
    assert _nets(db) == {"Ann": 1, "Bob": -1, "Cy": 0}


def test_split_options_without_the_order_still_tie_by_suit(tmp_path: Path) -> None:
    """``options`` given, its ``split`` too, but not ``odd_chip_tie_order``: the game's
    order fills only what is missing (the other options stay as written)."""
    options = {"reopen_rule": "half_bet",
               "split": {"odd_chip_between_halves": "low_if_low_quartered"}}
    _, db = _imported(tmp_path, "part", options)
    code, out, _ = one_shot(db, "export", "--format", "jsonl", "h1")
    assert code == 0
    stored = json.loads(out.splitlines()[0])["event"]["options"]
    assert stored["reopen_rule"] == "half_bet"
    assert stored["split"] == {"low_method": "A-5", "low_qualifier": "8_or_better",
                               "odd_chip_between_halves": "low_if_low_quartered",
                               "odd_chip_tie_order": "card_by_suit"}
    assert _nets(db) == {"Ann": 0, "Bob": -1, "Cy": 1}


@pytest.mark.parametrize(("game", "options", "order"), [
    ("F7S", None, "card_by_suit"),
    ("FR", {}, "card_by_suit"),
    ("N5S", {"split": {}}, "card_by_suit"),
    ("F7S/8", {"split": {"odd_chip_tie_order": "carry_to_next_hand"}}, "carry_to_next_hand"),
    ("F7S", {"split": {"odd_chip_tie_order": "left_of_button"}}, "left_of_button"),
    ("NT", None, "left_of_button"),
    ("FO/8", {"split": {"odd_chip_tie_order": "card_by_suit"}}, "card_by_suit"),
    ("XYZ", None, "left_of_button"),  # no such game: left for the engine's check to refuse
])
def test_each_game_takes_its_own_order_when_none_is_given(
        game: str, options: dict[str, Any] | None, order: str) -> None:
    started = with_game_tie_order(parse_event(_started(game, options)))
    assert started.options.split.odd_chip_tie_order == order


def test_a_hand_started_typed_in_a_correction_reads_the_same() -> None:
    """``correct``/``whatif --replace 1 '{...}'``: a JSON ``hand_started`` without the order
    takes the game's; one that gives it keeps it."""
    bare = parse_action(None, json.dumps(_started()))
    assert bare.options.split.odd_chip_tie_order == "card_by_suit"
    given = parse_action(None, json.dumps(
        _started(options={"split": {"odd_chip_tie_order": "left_of_button"}})))
    assert given.options.split.odd_chip_tie_order == "left_of_button"


def test_a_hand_stored_as_read_before_stays_as_stored(tmp_path: Path) -> None:
    """Before stud took its own order here, the bare line was read, stored and keyed as the
    line saying ``left_of_button`` is (the same event JSON). A ledger holding the hand so
    finds the bare file known on a re-import (nothing written twice, nothing rewritten): the
    stored hand keeps reading as written, Ann taking the odd chip in seat order."""
    _, db = _imported(tmp_path, "seat", {"split": {"odd_chip_tie_order": "left_of_button"}})
    bare = tmp_path / "bare.jsonl"
    bare.write_text(_hand_lines(None), encoding="utf-8")
    assert one_shot(db, "import", str(bare)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; "
        "0 rejected\n", "")
    assert _stored_order(db) == "left_of_button"
    assert _nets(db) == {"Ann": 1, "Bob": -1, "Cy": 0}


def test_whatif_with_a_bare_hand_started_moves_the_odd_chip_to_cy(tmp_path: Path) -> None:
    """The hand stored with seat order (Ann +1); ``whatif --replace 1`` with the same
    ``hand_started`` written without options ties by suit: Ann +1 → 0, Cy 0 → +1."""
    _, db = _imported(tmp_path, "seat", {"split": {"odd_chip_tie_order": "left_of_button"}})
    code, out, err = one_shot(db, "whatif", "h1", "--replace", "1", json.dumps(_started()))
    assert (code, err) == (0, "")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:6]}
    assert rows == {"Ann": ["+1", "+0", "-1", "+1", "+0", "-1"],
                    "Bob": ["-1", "-1", "+0", "-1", "-1", "+0"],
                    "Cy": ["+0", "+1", "+1", "+0", "+1", "+1"]}
    assert out.splitlines()[6:] == [  # what the bare line changes, as `correct` says it
        "  start: option split.odd_chip_tie_order left_of_button → card_by_suit"]


@pytest.mark.parametrize(("code", "table", "order"), [
    ("F7S/8", {}, "card_by_suit"),
    ("FR", {"_split": {"odd_chip_between_halves": "high"}}, "card_by_suit"),
    ("F7S", {"_split": {"odd_chip_tie_order": "left_of_button"}}, "left_of_button"),
    ("NT", {"_split": {}}, "left_of_button"),
])
def test_a_phh_file_reads_the_same(code: str, table: dict[str, Any], order: str) -> None:
    """PHH's ``_split`` (FORMATS.md §1), missing or without the order: the game's order;
    given: kept."""
    def error(message: str, key: str) -> MalformedInput:
        return MalformedInput(message)

    assert parse_options(table, game(code), error).split.odd_chip_tie_order == order


@pytest.mark.parametrize("bring_in", [5, 7])
def test_a_bring_in_not_below_the_small_bet_is_refused_as_a_phh_file_is(
        tmp_path: Path, bring_in: int) -> None:
    """RULES.md §4.1: the bring-in is below the small bet (5 here); opening for a full bet is
    completing, a separate action. A ``hand_started`` whose bring-in is 5 or 7 (Cy posting it)
    is refused as ``hand start`` and a PHH file refuse it: one line naming the file, the
    line and the hand, exit 2, nothing written (no ledger made)."""
    text = _hand_lines(None).replace('"bring_in": 2', f'"bring_in": {bring_in}').replace(
        '"kind": "bring_in", "amount": 2', f'"kind": "bring_in", "amount": {bring_in}')
    assert text.count(f'"bring_in": {bring_in}') == 1
    assert text.count(f'"kind": "bring_in", "amount": {bring_in}') == 1
    path, db = tmp_path / "high.jsonl", tmp_path / "high.duckdb"
    path.write_text(text, encoding="utf-8")
    assert one_shot(db, "import", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {path}:1, hand h1: hand_started's stakes: bring_in {bring_in} is not below "
        "small_bet 5: the bring-in is less than a full bet, which completing it makes "
        "(RULES.md §4.1)\n")
    assert not db.exists()
    phh = tmp_path / "high.phh"  # the same stakes in a PHH file: the same words
    phh.write_text(f"variant = 'F7S/8'\nantes = [1, 1, 1]\nbring_in = {bring_in}\n"
                   "small_bet = 5\nbig_bet = 10\nstarting_stacks = [100, 100, 100]\n"
                   "actions = []\n", encoding="utf-8")
    code, _, err = one_shot(db, "import", str(phh))
    assert code == 2 and err.endswith(
        f"bring_in {bring_in} is not below small_bet 5: the bring-in is less than a full bet, "
        "which completing it makes (RULES.md §4.1)\n")


def test_a_no_limit_stud_bring_in_not_below_the_minimum_bet_is_refused(tmp_path: Path) -> None:
    """RULES.md §4.1 in no-limit stud: the full bet is the minimum bet (2 here), so a
    bring-in of 2 is refused on the ``hand_started`` line, exit 2, nothing written."""
    started = {**_started("N7S"), "stakes": {"betting": "no_limit", "antes": [1, 1, 1],
                                             "bring_in": 2, "min_bet": 2}}
    path, db = tmp_path / "nl.jsonl", tmp_path / "nl.duckdb"
    path.write_text(json.dumps({"hand": "h1", "seq": 1, "event": started}) + "\n",
                    encoding="utf-8")
    assert one_shot(db, "import", str(path)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 rejected\n",
        f"error: {path}:1, hand h1: hand_started's stakes: bring_in 2 is not below min_bet 2: "
        "the bring-in is less than a full bet, which completing it makes (RULES.md §4.1)\n")
    assert not db.exists()
