"""A PokerNow hand is corrected and played by the names ``show`` prints: ``whatif``,
``correct``, ``act`` and ``table`` take ``Hznmh#9009`` (stored as his PokerNow id
``1RhUayZFQU``) and ``Phzd Juwvifsvh`` (two words) in an action's text or as a JSON event's
``player``, and still the id; a name two players of the hand are shown by is refused naming
both ids; the refusals and what is printed name the players as ``show`` does
(replay/shown_names.py, cli/names.py)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from replay.shown_names import as_stored, stored_player
from tests.conftest import SHARED

LOG = SHARED / "pokernow" / "valakuzhyk_07_21_2022_log1.csv"
#: the log's fourth hand: Erhradnpmi3 (H353kCoMHV) all in for 865, Hznmh#9009 (1RhUayZFQU)
#: calls and wins the pot of 1750 with aces; Phzd Juwvifsvh (Bq7QhNKAYJ) folds at seq 13
HAND = "pn-valakuzhyk_07_21_2022_log1-4-165843780657400"
#: the rule's words after the correction, as `whatif` and `correct` say them
SHORT = ("cannot end with 1700 of the pot's 1750 chips paid: 50 would go to nobody (by the "
         "rules: pay Hznmh#9009 50); record the rest (pay PLAYER AMOUNT, returned PLAYER "
         "AMOUNT for an uncalled bet) first\n")


def run(db: Path, *args: str, input: str | None = None) -> Result:  # noqa: A002
    return CliRunner().invoke(cli, ["--db", str(db), *args], input=input,
                              catch_exceptions=False)


def count(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log imported (52 hands), and its JSON-lines export beside it."""
    db = tmp_path_factory.mktemp("pn") / "log.duckdb"
    assert run(db, "import", str(LOG)).exit_code == 0
    assert run(db, "export", "-o", str(db.with_suffix(".jsonl"))).exit_code == 0
    return db


def _in_play(logged: Path, out: Path, *, alias: str | None = None) -> Path:
    """A ledger of the log's first three hands and the fourth in play after its seq 18
    (Erhradnpmi3 to act: check, raise to 40..865), from the export cut there with its closing
    ``in_play`` line; ``alias``: Phzd Juwvifsvh renamed so (two players shown alike)."""
    rows = [json.loads(line) for line in logged.with_suffix(".jsonl").read_text().splitlines()]
    first = rows.index(next(r for r in rows if r.get("hand") == HAND))
    kept = rows[:first] + [r for r in rows if r.get("hand") == HAND][:18]
    if alias is not None:
        for r in kept:
            if r["event"].get("alias") == "Phzd Juwvifsvh":
                r["event"]["alias"] = alias
    lines = [json.dumps(r) for r in kept]
    path = out.with_suffix(".jsonl")
    path.write_text("\n".join([*lines, json.dumps({"in_play": {HAND: 18},
                                                   "rows": len(lines)})]) + "\n")
    assert run(out, "import", str(path)).exit_code == 0
    return out


def test_show_names_the_players_that_whatif_takes(logged: Path) -> None:
    shown = run(logged, "show", HAND).output.splitlines()
    assert [line[:24].rstrip() for line in shown if line[:4] in (" 13 ", " 27 ")] == [
        " 13 Phzd Juwvifsvh f", " 27 pay Hznmh#9009 1750"]


def test_whatif_takes_the_name_show_prints(logged: Path) -> None:
    before = count(logged)
    out = run(logged, "whatif", HAND, "--replace", "27", "pay Hznmh#9009 1700")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}: what-if replace 27 'pay Hznmh#9009 1700': {SHORT}")
    # his id still names him, and the refusal names him as show does
    out = run(logged, "whatif", HAND, "--replace", "27", "pay 1RhUayZFQU 1700")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}: what-if replace 27 'pay Hznmh#9009 1700': {SHORT}")
    same = run(logged, "whatif", HAND, "--replace", "13", "Phzd Juwvifsvh f")
    assert same.exit_code == 0, same.output
    assert same.output.splitlines() == [
        f"what if, hand {HAND} (nothing written):",
        "                              by the rules           net (what the table paid)",
        "  player            before   after    diff       before       after       diff",
        "  Efvoziamtgktl        -20     -20      +0          -20         -20         +0",
        "  Erhradnpmi3         -865    -865      +0         -865        -865         +0",
        "  gaxdqwmwksve          +0      +0      +0           +0          +0         +0",
        "  Phzd Juwvifsvh        +0      +0      +0           +0          +0         +0",
        "  sjfid753              +0      +0      +0           +0          +0         +0",
        "  Hznmh#9009          +885    +885      +0         +885        +885         +0",
        "  Aab Ovwsi             +0      +0      +0           +0          +0         +0",
        "  IpusyM                +0      +0      +0           +0          +0         +0",
        "  session valakuzhyk_07_21_2022_log1 results: no change"]
    as_json = run(logged, "whatif", HAND, "--replace", "13",
                  '{"type": "fold", "player": "Phzd Juwvifsvh"}')
    assert (as_json.exit_code, as_json.output) == (0, same.output)
    out = run(logged, "whatif", HAND, "--replace", "13", "Phzd f")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}: replace 13 'Phzd f': unknown player 'Phzd': did you mean "
        "Phzd Juwvifsvh?\n")
    out = run(logged, "whatif", HAND, "--replace", "13", "Phzd Juwvifsvh cc")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}: the hand with these changes is not legal: event 20 (call by "
        "Hznmh#9009): out of turn: Phzd Juwvifsvh is to act, not Hznmh#9009\n")
    assert count(logged) == before


def test_correct_act_and_table_take_the_name_show_prints(logged: Path,
                                                          tmp_path: Path) -> None:
    db = _in_play(logged, tmp_path / "live.duckdb")
    assert run(db, "state", HAND).output.splitlines()[1] == (
        "Erhradnpmi3 to act: check, raise to 40..865")
    before = count(db)
    out = run(db, "act", HAND, "Phzd Juwvifsvh f")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}, action 'Phzd Juwvifsvh f': Phzd Juwvifsvh has folded; now: "
        "Erhradnpmi3 to act: check, raise to 40..865\n")
    assert count(db) == before
    out = run(db, "act", HAND, "Erhradnpmi3 cbr 865")
    assert (out.exit_code, out.output) == (
        0, "19 all_in; Hznmh#9009 to act: to call 845, raise to 990..990, or to 960 covering "
        "every opponent\n")  # Efvoziamtgktl has 960 in all (RULES.md §1.7)
    out = run(db, "table", HAND, input="1RhUayZFQU cc\nstate\nEfvoziamtgktl f\n")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == (
        "20 call; Efvoziamtgktl to act: to call 845, raise to 960..960")
    assert out.output.splitlines()[-1] == "21 fold; phase deal, next: d db CARDS (3 cards)"
    out = run(db, "act", HAND, "d dh Phzd Juwvifsvh AsKd")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}, action 'd dh Phzd Juwvifsvh AsKd': Phzd Juwvifsvh has "
        "folded; now: phase deal, next: d db CARDS (3 cards)\n")
    # IpusyM called at seq 17 instead of folding: the correction stores his id
    db = _in_play(logged, tmp_path / "corrected.duckdb")
    out = run(db, "correct", HAND, "--by", "host", "--reason", "IpusyM called",
              "--replace", "17", '{"type": "call", "player": "IpusyM"}')
    assert (out.exit_code, out.output) == (
        0, f"corrected hand {HAND} (seq 19); change in net: IpusyM -20; by the rules: IpusyM -20\n")
    with duckdb.connect(str(db), read_only=True) as con:
        [(payload,)] = con.execute("SELECT payload FROM events WHERE type = 'correction'"
                                   ).fetchall()
    assert json.loads(payload)["changes"] == [
        {"op": "replace", "seq": 17, "event": {"player": "f-mUxYkHrq", "schema_version": 1,
                                               "type": "call"}}]
    out = run(db, "undo", HAND, "--by", "host")
    assert (out.exit_code, out.output) == (
        0, f"undid the correction at seq 19 (by host: IpusyM called) in hand {HAND} (seq 20); "
        "change in net: IpusyM +20; by the rules: IpusyM +20\n")


def test_a_name_two_players_are_shown_by_is_refused_naming_both_ids(logged: Path,
                                                                     tmp_path: Path) -> None:
    db = _in_play(logged, tmp_path / "twin.duckdb", alias="Hznmh#9009")
    before = count(db)
    both = ("'Hznmh#9009' names 2 players of this hand: Hznmh#9009 (1RhUayZFQU) and "
            "Hznmh#9009 (Bq7QhNKAYJ); name the one meant by the id; now: Erhradnpmi3 to "
            "act: check, raise to 40..865\n")
    out = run(db, "act", HAND, "Hznmh#9009 f")
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}, action 'Hznmh#9009 f': {both}")
    out = run(db, "act", HAND, '{"type": "fold", "player": "Hznmh#9009"}')
    assert (out.exit_code, out.output) == (
        2, f"error: hand {HAND}, action '{{\"type\": \"fold\", \"player\": \"Hznmh#9009\"}}': "
        f"{both}")
    assert count(db) == before
    # the label show prints, or the id, names one
    assert run(db, "act", HAND, "Erhradnpmi3 cbr 865").exit_code == 0
    out = run(db, "act", HAND, "Hznmh#9009 (1RhUayZFQU) cc")
    assert (out.exit_code, out.output) == (
        0, "20 call; Efvoziamtgktl to act: to call 845, raise to 960..960\n")


PLAYERS = ["JC9KmsGDZv", "H353kCoMHV", "Bq7QhNKAYJ", "1RhUayZFQU"]
NAMES = {"JC9KmsGDZv": "Efvoziamtgktl", "H353kCoMHV": "Erhradnpmi3",
         "Bq7QhNKAYJ": "Phzd Juwvifsvh", "1RhUayZFQU": "Hznmh#9009"}


@pytest.mark.parametrize(("text", "stored"), [
    ("Phzd Juwvifsvh f", "Bq7QhNKAYJ f"),
    ("Phzd  Juwvifsvh   cbr 40 # late", "Bq7QhNKAYJ cbr 40 # late"),
    ("d dh Phzd Juwvifsvh AsKd", "d dh Bq7QhNKAYJ AsKd"),
    ("pay Hznmh#9009 1750", "pay 1RhUayZFQU 1750"),
    ("returned Hznmh#9009 5", "returned 1RhUayZFQU 5"),
    ("1RhUayZFQU cc", "1RhUayZFQU cc"),  # his id, unchanged
    ("p3 f", "p3 f"),  # a seat, for the engine
    ("d db 2c7h9s", "d db 2c7h9s"),
    ("rake 5", "rake 5"),
    ("end", "end"),
])
def test_an_action_names_the_player_as_stored(text: str, stored: str) -> None:
    assert as_stored(text, PLAYERS, NAMES) == stored


def test_names_that_are_not_the_hands_read_as_before() -> None:
    from engine.errors import IllegalAction

    # a hand of no platform player: its text untouched, the engine says what it is
    assert as_stored("Phzd f", ["Ann", "Bob"], NAMES) == "Phzd f"
    assert stored_player("Phzd Juwvifsvh", ["Ann", "Bob"], NAMES) == "Phzd Juwvifsvh"
    assert stored_player("Phzd Juwvifsvh", PLAYERS, NAMES) == "Bq7QhNKAYJ"
    assert stored_player("Nobody", PLAYERS, NAMES) == "Nobody"
    with pytest.raises(IllegalAction) as caught:
        as_stored("Hznmh f", PLAYERS, NAMES)
    assert caught.value.reason == "unknown player 'Hznmh': did you mean Hznmh#9009?"
    # an id that is another player's name is two players
    with pytest.raises(IllegalAction) as caught:
        as_stored("Bq7QhNKAYJ f", PLAYERS, {**NAMES, "1RhUayZFQU": "Bq7QhNKAYJ"})
    assert caught.value.reason == ("'Bq7QhNKAYJ' names 2 players of this hand: 1RhUayZFQU "
                                   "and Bq7QhNKAYJ; name the one meant by the id")


def test_whatif_names_two_players_who_share_a_name_once_each(tmp_path: Path) -> None:
    log = tmp_path / "dup.csv"
    log.write_text(LOG.read_text(encoding="utf-8").replace("IpusyM @", "Sam Lee @")
                   .replace("Erhradnpmi3 @", "Sam Lee @"), encoding="utf-8")
    db = tmp_path / "d.duckdb"
    assert run(db, "import", str(log)).exit_code == 0
    result = run(db, "whatif", "pn-dup-3-165843774582000", "--replace", "12", "H353kCoMHV cc")
    assert result.exit_code == 0
    rows = result.output.splitlines()[3:11]
    # as show labels them, never the label's id labelled again
    assert rows[0].split() == ["Sam", "Lee", "(f-mUxYkHrq)", "-10", "-10", "+0", "-10", "-10",
                               "+0"]
    assert rows[2].split()[:3] == ["Sam", "Lee", "(H353kCoMHV)"]
    assert "(Sam Lee" not in result.output
