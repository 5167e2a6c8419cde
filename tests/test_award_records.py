"""The award records (PotAward, AwardTable, Rank): their ``__init__`` written out so that mypyc
compiles it (a frozen dataclass's generated one stays interpreted), and still the frozen
dataclasses they were: the same fields and defaults, equal by fields, ordered (Rank) by key
alone, refusing a change, pickled."""

from __future__ import annotations

import dataclasses
import pickle
from types import WrapperDescriptorType

import pytest

import engine
from engine.awards import AwardTable, PotAward, award_pots
from engine.evaluate import Rank, best_high
from engine.games import game
from engine.pots import Pot
from ledger.model.events import SplitOptions


def test_the_records_are_made_by_compiled_inits_when_the_engine_is_compiled() -> None:
    for cls in (PotAward, AwardTable, Rank):
        assert isinstance(cls.__init__, WrapperDescriptorType) is engine.COMPILED, cls


def test_a_pot_award_keeps_its_fields_defaults_and_frozenness() -> None:
    award = PotAward(1, 30, ("p1", "p2"), {"p1": 30})
    assert [f.name for f in dataclasses.fields(award)] == [
        "index", "amount", "eligible", "awards", "carried", "lines", "verifiable"]
    assert (award.carried, award.lines, award.verifiable) == (0, (), True)
    assert award == PotAward(1, 30, ("p1", "p2"), {"p1": 30}, 0, (), True)
    assert award != PotAward(1, 30, ("p1", "p2"), {"p1": 30}, carried=1)
    assert repr(award) == ("PotAward(index=1, amount=30, eligible=('p1', 'p2'), "
                           "awards={'p1': 30}, carried=0, lines=(), verifiable=True)")
    with pytest.raises(dataclasses.FrozenInstanceError):
        award.amount = 31  # type: ignore[misc]
    assert dataclasses.replace(award, carried=2).carried == 2 and award.carried == 0
    assert pickle.loads(pickle.dumps(award)) == award


def test_an_award_table_keeps_its_fields() -> None:
    nt = game("NT")
    table = AwardTable(nt, {"p1": ["As", "Ks"]}, ["p1"], SplitOptions(), "left_of_button")
    assert (table.game, table.order, table.tie) == (nt, ["p1"], "left_of_button")
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.tie = "card_by_suit"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(table)) == table


def test_ranks_compare_by_key_alone_and_stay_frozen() -> None:
    assert Rank(5, "a") == Rank(5, "b") and Rank(6, "a") > Rank(5, "z")
    assert max([Rank(3, "x"), Rank(7, "y"), Rank(7, "z")]).label == "y"
    rank = best_high(game("NT"), ["As", "Ad"], ["Ac", "Kd", "Ks", "2c", "3h"])
    assert rank.label == "full house, aces full of kings"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rank.label = "x"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(rank)) == rank


def test_award_pots_pays_an_uncontested_and_a_contested_pot() -> None:
    # main pot 30 among three (p1's aces full beat p2's two pair), side pot 20 p2's alone
    hands = {"p1": ["As", "Ad"], "p2": ["Qh", "Qc"], "p3": ["7c", "2d"]}
    board = ["Ac", "Kd", "Ks", "2c", "3h"]
    pots = [Pot(30, ("p1", "p2", "p3")), Pot(20, ("p2",))]
    main, side = award_pots(game("NT"), pots, hands, [board], ["p1", "p2", "p3"],
                            SplitOptions())
    assert main == PotAward(0, 30, ("p1", "p2", "p3"), {"p1": 30}, 0, (
        "Main pot 30 (p1, p2, p3): p1 wins 30 with full house, aces full of kings.",))
    assert side == PotAward(1, 20, ("p2",), {"p2": 20}, 0, (
        "Side pot 1 20 (p2): p2 takes 20; nobody else is eligible.",))
