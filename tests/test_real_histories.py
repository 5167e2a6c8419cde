"""Real hand histories as they are (RULES.md §1.7, §4.1, §4.3; FORMATS.md §1): heads-up antes,
a file cut before the hand's end, results recorded as finishing stacks."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ledger.formats.phh.read import read_phh_text
from replay.build import events_from_phh
from replay.fold import replay_events
from tests.conftest import SHARED

HEADS_UP = """variant = 'NT'
antes = [0, 3]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'p2 cbr 6', 'p1 cbr 20', 'p2 f']
"""


def _replay(text: str):  # noqa: ANN202
    (hand,) = read_phh_text(text).check()
    return replay_events(events_from_phh(hand))


def test_heads_up_antes_are_read_reversed_as_the_blinds() -> None:
    """p2, the button, posts the small blind and raises to 6; p1 posts the big blind and the
    ante (3) and re-raises to 20; p2 folds: p1 takes 6 + 6 + 3 and his 14 uncalled back."""
    r = _replay(HEADS_UP)
    assert r.result.contributions == {"p1": 23, "p2": 6}
    assert r.result.returned == {"p1": 14}
    assert r.final_stacks == {"p1": 206, "p2": 194}


def test_heads_up_antes_written_back_the_same_way(run, tmp_path: Path) -> None:  # noqa: ANN001
    (tmp_path / "hu.phh").write_text(HEADS_UP)
    assert run("import", str(tmp_path / "hu.phh")).exit_code == 0
    text = run("export", "--format", "phh").output
    assert "antes = [0, 3]" in text and "blinds_or_straddles = [1, 2]" in text


def _cut_ex01() -> str:
    """ex01, the seed's seven-player ante table, stopped after its first betting round (no
    board dealt), its expected results removed."""
    text = (SHARED / "rules" / "ex01.phh").read_text()
    head, rest = text.split("actions = [", 1)
    actions, tail = rest.split("]", 1)
    kept = []
    for line in actions.split("\n"):
        if "'d db" in line:
            break
        kept.append(line)
    return head + "actions = [" + "\n".join(kept) + "\n]" + re.sub(r"_expected = \{.*", "",
                                                                     tail, flags=re.S)


def test_a_file_cut_after_a_betting_round_is_an_incomplete_hand(run, tmp_path: Path) -> None:  # noqa: ANN001
    """Its pots as they stand (main 77 for p2–p6, side 8 for p3–p6), nobody paid, settled
    like a void (every chip back), named by replay and audit, never a discrepancy."""
    (tmp_path / "ex01-cut.phh").write_text(_cut_ex01())
    out = run("import", str(tmp_path / "ex01-cut.phh"))
    assert out.exit_code == 0 and "imported 1 hand(s)" in out.output
    replayed = run("replay", "--json")
    hand = json.loads(replayed.output)
    assert replayed.exit_code == 0 and hand["status"] == "incomplete"
    assert [(p["amount"], p["eligible"], p["awards"]) for p in hand["pots"]] == [
        (77, ["p2", "p3", "p4", "p5", "p6"], {}), (8, ["p3", "p4", "p5", "p6"], {})]
    assert set(hand["net"].values()) == {0} and hand["discrepancies"] == []
    assert "incomplete" in hand["notes"][0]
    audit = run("audit")
    assert audit.exit_code == 0 and "1 incomplete hand(s)" in audit.output


FINISHED = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 50, 200]
actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 6',
           'p2 cbr 50', 'p1 cc', 'p1 sm AsKs', 'p2 sm QhQd', 'd db 2s3s9d', 'd db Tc', 'd db Ah']
"""


def test_finishing_stacks_are_what_the_table_paid() -> None:
    """With no ``winnings``, ``finishing_stacks`` say what each player left with (as the
    Pluribus hands record it): the FORMATS.md example ends 150 / 0 / 200."""
    right = _replay(FINISHED + "finishing_stacks = [150, 0, 200]\n")
    assert right.recorded == {"p1": 100} and right.discrepancies == ()
    wrong = _replay(FINISHED + "finishing_stacks = [140, 10, 200]\n")
    assert wrong.recorded == {"p1": 90, "p2": 10}
    assert [(d.player, d.diff) for d in wrong.discrepancies] == [("p1", -10), ("p2", 10)]


def test_what_a_file_lacks_is_said_in_words() -> None:
    """iPoker writes an unknown stack as ``inf``; an empty player name: each is one line that
    says what the file does not record."""
    base = HEADS_UP.replace("antes = [0, 3]", "antes = [0, 0]")
    inf = read_phh_text(base.replace("starting_stacks = [200, 200]",
                                     "starting_stacks = [inf, 200]"), file="i.phh")
    assert [str(e) for e in inf.errors] == [
        "i.phh:5: starting_stacks: Decimal('Infinity') is not a finite number: the hand "
        "history does not record this amount (a stack written as inf)"]
    for written in ("nan", "-nan"):  # not a number: said so, never as an inf
        nan = read_phh_text(base.replace("starting_stacks = [200, 200]",
                                         f"starting_stacks = [200, {written}]"), file="n.phh")
        assert [str(e) for e in nan.errors] == [
            f"n.phh:5: starting_stacks: {written} is not a number (NaN): the hand history does "
            "not record this amount"]
    empty = read_phh_text(base + "players = ['', 'Bob']\n", file="e.phh")
    assert [str(e) for e in empty.errors] == [
        "e.phh:7: players: entry 1 is an empty name: the file does not name this player"]


BIG_BLIND_ANTE = """variant = 'NT'
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 150, 1000]
actions = ['d dh p1 7h2c', 'd dh p2 AsAd', 'd dh p3 KcQd', 'p3 cbr 200', 'p1 cc',
           'd db 9s8s3d', 'p1 cc', 'p3 cc', 'd db 4h', 'p1 cc', 'p3 cc', 'd db Jc', 'p1 cc',
           'p3 cc', 'p1 sm 7h2c', 'p2 sm AsAd', 'p3 sm KcQd']
"""


def test_a_big_blind_ante_is_dead_money_of_the_main_pot() -> None:
    """RULES.md §4.3: p2 posts the table's ante (100) and then only 50 of his big blind, all-in.
    His level is the 50 of his blind: main pot 50 × 3 + the ante 100 = 250, which his aces
    win; the 150 each of p1 and p3 put in above it is a side pot of 300 for them alone (KQ
    high takes it). Before, his ante counted toward his level and he won 450 of a pot p1
    and p3 contested alone. pokerkit ends the hand 800 / 250 / 1100 as well."""
    r = _replay(BIG_BLIND_ANTE)
    assert [(p.amount, p.eligible, p.awards) for p in r.result.pots] == [
        (250, ("p1", "p2", "p3"), {"p2": 250}), (300, ("p1", "p3"), {"p3": 300})]
    assert r.final_stacks == {"p1": 800, "p2": 250, "p3": 1100}


def test_each_players_own_short_ante_still_makes_its_own_layer() -> None:
    """RULES.md §4.3 (Morehead 39(a)): antes of 10 that everyone posts, p2 has only 6: a main
    pot of 6 × 3 for all three, the other 4 + 4 of the antes the next layer, without p2."""
    text = """variant = 'NT'
antes = [10, 6, 10]
blinds_or_straddles = [0, 0, 0]
min_bet = 10
starting_stacks = [100, 6, 100]
actions = ['d dh p1 7h2c', 'd dh p2 AsAd', 'd dh p3 KcQd', 'p1 cc', 'p3 cc', 'd db 9s8s3d',
           'p1 cc', 'p3 cc', 'd db 4h', 'p1 cc', 'p3 cc', 'd db Jc', 'p1 cc', 'p3 cc',
           'p1 sm 7h2c', 'p2 sm AsAd', 'p3 sm KcQd']
"""
    r = _replay(text)
    assert [(p.amount, p.eligible) for p in r.result.pots] == [
        (18, ("p1", "p2", "p3")), (8, ("p1", "p3"))]
    assert r.final_stacks == {"p1": 90, "p2": 18, "p3": 98}


BELOW_MINIMUM = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 3, 100]
actions = ['d dh p1 7h2c', 'd dh p2 AsAd', 'd dh p3 KcQd', 'p3 f', 'p1 cbr 3', 'p2 cc',
           'd db 9s8s3d', 'd db 4h', 'd db Jc', 'p1 sm 7h2c', 'p2 sm AsAd']
"""

COVERS = ("p1's raise to 3 is below the minimum 4 but covers every opponent (each is all-in "
          "or covered by it): accepted: no chip changes hands otherwise (RULES.md §1.7)")


def test_a_raise_below_the_minimum_that_covers_everyone_is_named(run, tmp_path: Path) -> None:  # noqa: ANN001
    """RULES.md §1.7: p2's big blind leaves him 1; p1's raise to 3 (the minimum is 4) puts him
    all-in and is accepted, and both ``replay`` and ``show`` say so in a note."""
    r = _replay(BELOW_MINIMUM)
    assert r.final_stacks == {"p1": 97, "p2": 6, "p3": 100} and COVERS in r.notes
    (tmp_path / "min.phh").write_text(BELOW_MINIMUM)
    assert run("import", str(tmp_path / "min.phh")).exit_code == 0
    replayed = run("replay", "--json")
    assert COVERS in json.loads(replayed.output)["notes"]
    hand = json.loads(replayed.output)["hand"]
    for out in (run("replay").output, run("show", hand).output):
        assert f"note: {COVERS}" in " ".join(out.split())
