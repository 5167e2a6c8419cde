"""The engine's per-hand records (HandState, Cards, Round, Limits, Pot, HandResult): made by
``__init__``s that mypyc compiles (a dataclass's generated one stays interpreted), with the
values a hand starts from, and still dataclasses: equal by fields, replaceable, pickled; the
immutable ones refuse a change where the engine runs compiled."""

from __future__ import annotations

import dataclasses
import pickle
from types import WrapperDescriptorType

import pytest

import engine
from engine.cards import Cards
from engine.notation import to_event
from engine.pots import Pot
from engine.rounds import Limits, Round
from engine.settle import HandResult, settle
from engine.state import HandState
from ledger.formats.phh.read import read_phh_text
from ledger.model import events as ev

PHH = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 80, 60]
actions = []
"""


def _started() -> HandState:
    parsed = read_phh_text(PHH, file="t.phh")
    assert parsed.errors == []
    hand = parsed.hands[0]
    state = HandState.start(hand.started)
    for e in hand.forced:
        state.apply(e)
    return state


def test_the_records_are_made_by_compiled_inits_when_the_engine_is_compiled() -> None:
    for cls in (HandState, Cards, Round, Limits, Pot, HandResult):
        assert isinstance(cls.__init__, WrapperDescriptorType) is engine.COMPILED, cls


def test_a_hand_starts_with_nothing_put_in_nor_dealt() -> None:
    parsed = read_phh_text(PHH, file="t.phh")
    state = HandState.start(parsed.hands[0].started)
    players = ["p1", "p2", "p3"]
    assert (state.players, state.stacks) == (players, {"p1": 100, "p2": 80, "p3": 60})
    assert state.contributed == state.street_bets == {"p1": 0, "p2": 0, "p3": 0}
    assert (state.phase, state.street, state.seq, state.status) == ("forced", -1, 1, "open")
    assert state.rnd == Round(0, 0, 0, {}, [])
    assert state.cards == Cards({p: [] for p in players}, {p: [] for p in players}, [[]],
                                set(), {}, set(), {}, {}, set(), 0)
    assert (state.folded, state.all_in, state.dead, state.payouts) == (set(), set(), {}, [])
    assert (state.runs, state.rake, state.last_round) == (0, None, (None, None))  # no d rc yet
    assert state.seat == {p: state.order.index(p) for p in players}
    assert (state.fixed, state.half_bet, state.cap) == (False, False, 4)  # RULES.md §1.8


def test_a_copy_is_equal_and_independent() -> None:
    state = _started()
    copy = state.copy()
    assert copy == state and type(copy) is HandState
    copy.apply(to_event(copy, "d dh p1 AsKs"))
    assert copy.cards.hole["p1"] == ["As", "Ks"] and state.cards.hole["p1"] == []
    assert copy != state


def test_limits_pots_and_results_stay_dataclasses() -> None:
    state = _started()
    for text in ("d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c2d"):
        state.apply(to_event(state, text))
    # p3 first after the 1/2 blinds: 2 to call, a raise to 4 (the big blind more) up to 60
    assert state.limits("p3") == Limits(2, 4, 60) == Limits(2, 4, 60, "")
    for text in ("p3 f", "p1 f"):
        state.apply(to_event(state, text))
    state.apply(ev.HandEnded())
    result = settle(state)  # p2 alone: his uncalled 1 back, the blinds' 2 his pot
    assert result.status == "complete"
    assert (result.returned, result.net) == ({"p2": 1}, {"p1": -1, "p2": 1, "p3": 0})
    assert result.pots[0].amount == 2 and result.pots[0].eligible == ("p2",)
    assert dataclasses.replace(result, game="FT").game == "FT" and result.game == "NT"
    assert pickle.loads(pickle.dumps(result)) == result
    pot = Pot(2, ("p2",))
    assert repr(pot) == "Pot(amount=2, eligible=('p2',))"
    assert {pot, Pot(2, ("p2",))} == {pot} and pot != Pot(3, ("p2",))
    assert pickle.loads(pickle.dumps(pot)) == pot
    limits = state.limits("p2")
    assert pickle.loads(pickle.dumps(limits)) == limits
    for record, name in ((result, "net"), (pot, "amount"), (limits, "to_call")):
        with pytest.raises(AttributeError):  # frozen, compiled or not (FrozenInstanceError)
            setattr(record, name, 0)
