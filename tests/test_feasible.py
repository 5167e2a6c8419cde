"""Unknown hole cards: the recorded payouts are checked for a legal split of the pots."""

from __future__ import annotations

from ledger.formats.phh.read import read_phh_text
from replay.build import events_from_phh
from replay.feasible import even_splits, split_exists
from replay.fold import replay_events


def test_even_splits_give_one_odd_chip_each() -> None:
    splits = list(even_splits(11, ["a", "b", "c"]))
    assert {"a": 4, "b": 4, "c": 3} in splits and {"a": 3, "b": 4, "c": 4} in splits
    assert {"a": 5, "b": 3, "c": 3} not in splits  # never two odd chips to one player
    assert {"a": 11} in splits


def test_split_exists_side_pot_only_to_its_eligible() -> None:
    pots = [(90, ["a", "b", "c"]), (40, ["b", "c"])]
    assert split_exists(pots, {"a": 90, "b": 40, "c": 0}, hilo=False) is True
    assert split_exists(pots, {"a": 130, "b": 0, "c": 0}, hilo=False) is False
    assert split_exists(pots, {"a": 45, "b": 65, "c": 20}, hilo=False) is True
    assert split_exists(pots, {"a": 44, "b": 66, "c": 20}, hilo=False) is False


def test_hilo_halves_are_legal_splits() -> None:
    assert split_exists([(63, ["x", "y"])], {"x": 32, "y": 31}, hilo=True) is True
    assert split_exists([(63, ["x", "y", "z"])], {"x": 32, "y": 16, "z": 15}, hilo=True)
    assert split_exists([(63, ["x", "y"])], {"x": 40, "y": 23}, hilo=False) is False


def _hand(winnings: str) -> list:
    text = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [50, 100, 100]\n"
        "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 10', 'p1 cbr 50',"
        " 'p2 cc', 'p3 cbr 100', 'p2 cc', 'd db 2c3d4h', 'd db 5s', 'd db 9c']\n"
        f"winnings = {winnings}\n"
    )
    return events_from_phh(read_phh_text(text).hands[0])


def test_unverifiable_hand_with_a_legal_payout_is_flagged_not_wrong() -> None:
    r = replay_events(_hand("[150, 100, 0]"))  # main 150 to p1, side 100 to p2
    assert not r.result.verifiable and r.discrepancies == ()
    assert "showdown not verifiable: hole cards unknown" in r.notes
    assert r.net == {"p1": 100, "p2": 0, "p3": -100}


def test_unverifiable_hand_paid_impossibly_is_a_discrepancy() -> None:
    r = replay_events(_hand("[250, 0, 0]"))  # p1 cannot win the side pot he is not in
    assert [d.kind for d in r.discrepancies] == ["infeasible"]
    assert "can win at most 150" in r.discrepancies[0].sentence()
    r = replay_events(_hand("[149, 101, 0]"))  # adds up, but no legal split gives it
    assert [d.kind for d in r.discrepancies] == ["infeasible"]
    assert "no legal split" in r.discrepancies[0].sentence()
