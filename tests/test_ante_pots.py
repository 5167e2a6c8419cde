"""Antes in the pots (RULES.md §4.3): the table's dead money when its poster put in nothing
else, and an individual ante nobody else could match. Hand-checked, with pokerkit beside."""

from __future__ import annotations

from ledger.formats.phh.read import read_phh_text
from replay.build import events_from_phh
from replay.fold import replay_events
from tests.pokerkit_oracle import final_stacks

CARDS = ("actions = ['d dh p1 7h2c', 'd dh p2 AsAd', 'd dh p3 KcQd', {}'p2 sm AsAd', 'p3 sm KcQd',"
         " 'd db 9s8s3d', 'd db 4h', 'd db Jc']\n")


def _text(antes: list[int], stacks: list[int], betting: str = "") -> str:
    return (f"variant = 'NT'\nantes = {antes}\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
            f"starting_stacks = {stacks}\n" + CARDS.format(betting))


def _replay(text: str):  # noqa: ANN202
    (hand,) = read_phh_text(text).check()
    return replay_events(events_from_phh(hand)).result


def test_a_big_blind_all_in_on_his_ante_can_win_it_back() -> None:
    """p2 has 1 chip: he posts it toward the big-blind ante (2) and has nothing for his blind.
    p3 raises to 6, p1 folds his small blind. p2's chip is the table's dead money: the main pot
    (1) is for p2 and p3 and p2's aces win it; p1's 1 and p3's 1 called of 6 are a side pot
    for p3 alone, his other 5 go back. pokerkit ends 99 / 1 / 101 as well."""
    text = _text([0, 2, 0], [100, 1, 100], "'p3 cbr 6', 'p1 f', ")
    r = _replay(text)
    assert [(p.amount, p.eligible, p.awards) for p in r.pots] == [
        (1, ("p2", "p3"), {"p2": 1}), (2, ("p3",), {"p3": 2})]
    assert r.returned == {"p3": 5}
    assert r.final_stacks == {"p1": 99, "p2": 1, "p3": 101}
    assert [int(x) for x in final_stacks(text)] == [99, 1, 101]


def test_an_individual_ante_nobody_matched_is_its_posters_own_layer() -> None:
    """Antes of 3 from all: p2 has 1 chip, p3 2, p1 posts his 3 and the small blind (1, not
    called: back to him). Morehead's layers: 1 × 3 = 3 for all (p2's aces), 1 × 2 = 2 for p1
    and p3 (p3's K-Q high), and p1's third ante chip, which nobody else reached, his alone:
    76 / 3 / 2. pokerkit puts all six ante chips in one main pot for p2 (75 / 6 / 0, FORMATS.md
    §1); with ``ante_trimming_status = true`` it layers the antes as Morehead does."""
    text = _text([3, 3, 3], [78, 1, 2], "'p1 sm 7h2c', ")
    r = _replay(text)
    assert [(p.amount, p.eligible, p.awards) for p in r.pots] == [
        (3, ("p1", "p2", "p3"), {"p2": 3}), (2, ("p1", "p3"), {"p3": 2}), (1, ("p1",), {"p1": 1})]
    assert r.returned == {"p1": 1}
    assert r.final_stacks == {"p1": 76, "p2": 3, "p3": 2}
    assert [int(x) for x in final_stacks(text)] == [75, 6, 0]
    trimmed = text.replace("min_bet", "ante_trimming_status = true\nmin_bet")
    assert [int(x) for x in final_stacks(trimmed)] == [76, 3, 2]
