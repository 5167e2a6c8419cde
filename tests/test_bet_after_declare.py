"""Bet / declare / bet (RULES.md §3.4; FORMATS.md, declare extension): with ``bet_after_declare``
the declarations come after the last card (the river, seventh street, the draw) and before the
last betting round, which follows them at that street's bet size, opened as that street's round
is (RULES.md §4.1–4.2: left of the button, or the best board in stud): bet / declare / bet, or
bet, draw, declare, bet (PT-DECL). A bet before the declarations is refused. The shared worked
example ex06 plays so (tests/test_declare.py). Every value below is worked out by hand in the
test's docstring."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.errors import IllegalAction
from engine.notation import to_event
from engine.settle import settle
from engine.state import HandState
from ledger.formats.phh.base import forced_bets
from ledger.model import events as ev


def _start(game: str, seats: str, *, button: str | None, antes: int = 0,
           blinds: Sequence[int] = (), bring_in: int = 0, method: str = "simultaneous",
           ) -> HandState:
    """A hand of ``game`` among ``seats`` ("Ann:50,Bob:50"), fixed limit 2/4 unless no-limit,
    every forced bet posted."""
    pairs = [s.split(":") for s in seats.split(",")]
    fixed = game.startswith("F")
    stakes = ev.Stakes(
        betting="fixed_limit" if fixed else "no_limit",
        antes=[antes] * len(pairs) if antes else [],
        blinds_or_straddles=list(blinds) + [0] * (len(pairs) - len(blinds)) if blinds else [],
        bring_in=bring_in, small_bet=2 if fixed else 0, big_bet=4 if fixed else 0,
        min_bet=0 if fixed else 2)
    started = ev.HandStarted(
        hand="bad", game=game, stakes=stakes, button=button,
        seats=[ev.Seat(player=p, stack=int(s)) for p, s in pairs],
        options=ev.RuleOptions(declare=ev.DeclareOptions(method=method,
                                                         bet_after_declare=True)))
    state = HandState.start(started)
    for bet in forced_bets(started.stakes, started.seats):
        state.apply(bet)
    return state


def _play(state: HandState, actions: str) -> None:
    for text in actions.strip().splitlines():
        state.apply(to_event(state, text.strip()))


def test_draw_declares_after_the_draw_then_bets() -> None:
    """Five-card draw, Ann and Bob (button), antes 1, 2/4 (PT-DECL: bet, draw, declare, bet).
    Before the draw both check; after it the hand declares first, a bet then is refused; Ann
    declares low, Bob high; the last round is Ann's to open (left of the button) at the big bet
    4: Ann bets 4, Bob raises to 8, Ann calls. Pot 1+1 + 8+8 = 18, 9 each put in; Ann's
    7-5-4-3-2 is alone for low, Bob's kings full alone for high: 9 each."""
    state = _start("F5D", "Ann:50,Bob:50", button="Bob", antes=1)
    _play(state, """
        d dh Ann 2c3d4h5s7c
        d dh Bob KcKdKhQsQd
        Ann cc
        Bob cc
        Ann sd
        Bob sd""")
    assert state.phase == "declare"
    with pytest.raises(IllegalAction, match="no betting now"):
        state.apply(ev.Check(player="Ann"))
    with pytest.raises(IllegalAction, match="no betting now"):
        state.apply(ev.BetRaise(player="Ann", to=4))
    _play(state, """
        Ann dcl low
        Bob dcl high""")
    assert (state.phase, state.to_act) == ("bet", "Ann")
    with pytest.raises(IllegalAction, match="Ann has already declared"):
        state.apply(ev.Declaration(player="Ann", direction="low"))
    assert (state.limits("Ann").min_to, state.limits("Ann").max_to) == (4, 4)
    _play(state, """
        Ann cbr 4
        Bob cbr 8
        Ann cc""")
    assert state.phase == "showdown"
    _play(state, """
        Ann sm 2c3d4h5s7c
        Bob sm KcKdKhQsQd""")
    state.apply(ev.HandEnded())
    result = settle(state)
    assert result.contributions == {"Ann": 9, "Bob": 9}
    assert result.awards == {"Ann": 9, "Bob": 9}


def test_holdem_river_card_then_in_turn_declare_then_the_river_round() -> None:
    """Fixed-limit hold'em, Cy on the button, blinds 1/2 (Ann, Bob). On the turn Ann checks,
    Bob bets 4, Cy folds, Ann calls; the river card comes and the hand declares before any
    river betting: in turn the last bettor of the round before, Bob, first (RULES.md §3.3),
    then Ann; the river round then opens left of the button with Ann, at 4: Ann checks, Bob
    checks, the showdown. Pot 2+2+2 (preflop) + 4+4 = 14: Bob's kings and queens high, Ann's
    6-5-4-3-2 low, 7 each."""
    state = _start("FT", "Ann:60,Bob:60,Cy:60", button="Cy", blinds=(1, 2), method="in_turn")
    _play(state, """
        d dh Ann 6c4d
        d dh Bob KcKd
        d dh Cy 9h9s
        Cy cc
        Ann cc
        Bob cc
        d db 2h3sQd
        Ann cc
        Bob cc
        Cy cc
        d db 5c
        Ann cc
        Bob cbr 4
        Cy f
        Ann cc
        d db Qh""")
    assert state.phase == "declare"
    assert (state.declare_queue(), state.to_act) == (["Bob", "Ann"], "Bob")
    with pytest.raises(IllegalAction, match="no betting now"):
        state.apply(ev.Check(player="Bob"))
    _play(state, """
        Bob dcl high
        Ann dcl low""")
    assert (state.phase, state.to_act) == ("bet", "Ann")
    assert state.limits("Ann").min_to == 4
    _play(state, """
        Ann cc
        Bob cc""")
    assert state.phase == "showdown"
    _play(state, """
        Ann sm 6c4d
        Bob sm KcKd""")
    state.apply(ev.HandEnded())
    result = settle(state)
    assert result.contributions == {"Ann": 6, "Bob": 6, "Cy": 2}
    assert result.awards == {"Ann": 7, "Bob": 7, "Cy": 0}


def test_stud_seventh_card_then_declare_then_best_board_opens() -> None:
    """Seven-card stud, antes 1, bring-in 1, 2/4. Ann's up cards 9c Kd Ks Qh (a pair of kings
    showing) beat Bob's 2d 5h 7s 8c. Fourth to sixth street are checked through; the seventh
    card comes and the hand declares (a bet then refused): Ann high, Bob low; then seventh
    street's round, Ann first (the best board), at 4: Ann checks, Bob bets 4, Ann folds, out of
    every pot (RULES.md §3.4): Bob takes it alone, 1+1 + 1+1 (bring-in, call) + 4 = 8, of
    which his own last 4 is uncalled and comes back: he collects the pot of 4 and is returned
    4."""
    state = _start("F7S", "Ann:60,Bob:60", button=None, antes=1, bring_in=1)
    _play(state, """
        d dh Ann AsAh9c
        d dh Bob 3c4d2d
        Bob pb
        Ann cc
        d dh Ann Kd
        d dh Bob 5h
        Ann cc
        Bob cc
        d dh Ann Ks
        d dh Bob 7s
        Ann cc
        Bob cc
        d dh Ann Qh
        d dh Bob 8c
        Ann cc
        Bob cc
        d dh Ann Jc
        d dh Bob 6d""")
    assert state.phase == "declare"
    with pytest.raises(IllegalAction, match="no betting now"):
        state.apply(ev.BetRaise(player="Ann", to=4))
    _play(state, """
        Ann dcl high
        Bob dcl low""")
    assert (state.phase, state.to_act) == ("bet", "Ann")
    assert state.limits("Ann").min_to == 4
    _play(state, """
        Ann cc
        Bob cbr 4
        Ann f""")
    assert state.phase == "showdown"
    state.apply(ev.HandEnded())
    result = settle(state)
    assert result.contributions == {"Ann": 2, "Bob": 6}
    assert result.returned == {"Bob": 4}
    assert result.awards == {"Ann": 0, "Bob": 4}


def test_last_round_with_one_player_able_to_bet_closes_at_once() -> None:
    """No-limit hold'em, Ann all-in preflop for 20 against Bob (button) with 100: every round
    closes at once, the one after the declarations too, so they lead straight to the
    showdown."""
    state = _start("NT", "Ann:20,Bob:100", button="Bob", blinds=(1, 2))
    _play(state, """
        d dh Ann 2c3d
        d dh Bob KcKd
        Bob cc
        Ann cbr 20
        Bob cc
        d db 4h5s9d
        d db Qc
        d db Jh""")
    assert state.phase == "declare"
    _play(state, """
        Ann dcl low
        Bob dcl high""")
    assert state.phase == "showdown"


def test_a_river_bet_before_the_declarations_says_why(user) -> None:  # noqa: ANN001
    """A host dealing live with ``bet_after_declare=true`` who bets the river before the
    declarations was told only ``no betting now (declare phase)``: the refusal now says that
    the players declare right after the last card and the last betting round follows, one
    line, exit 2, nothing written (the hand stays at the river card, event 18). The same
    check of a hand without the option, its declarations after the river round, adds
    nothing: a bet there is refused in the plain words."""
    assert user("hand", "start", "--hand", "e1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100,Cy:100", "--button", "Cy", "--declare-options",
                "method=simultaneous,bet_after_declare=true")[0] == 0
    lines = ("d dh Ann As6h", "d dh Bob 8d5d", "d dh Cy KhKc", "Cy cc", "Ann cc", "Bob cc",
             "d db 2s3d4h", "Ann cc", "Bob cc", "Cy cc", "d db 7s", "Ann cc", "Bob cc",
             "Cy cc", "d db Ks")
    assert user("table", "e1", input="".join(f"{a}\n" for a in lines))[0] == 0
    assert user("act", "e1", "Ann cbr 4") == (
        2, "", "error: hand e1, action 'Ann cbr 4': no betting now (declare phase): with "
        "bet_after_declare the players declare right after the last card, and the last "
        "betting round follows the declarations; now: phase declare, next: PLAYER dcl "
        "high|low|swing or PLAYER f (give up) (still to declare: Ann, Bob, Cy)\n")
    assert user("act", "e1", "Ann dcl low") == (
        0, "19 declaration; phase declare, next: PLAYER dcl high|low|swing or PLAYER f (give "
           "up) (still to declare: "
        "Bob, Cy)\n", "")
    assert user("hand", "start", "--hand", "e2", "--game", "NT", "--stakes", "1/2", "--seats",
                "Dee:100,Eve:100,Fay:100", "--button", "Fay", "--declare-options",
                "method=simultaneous")[0] == 0
    named = {"Ann": "Dee", "Bob": "Eve", "Cy": "Fay"}
    river = (*lines, "Ann cc", "Bob cc", "Cy cc")
    assert user("table", "e2", input="".join(
        f"{' '.join(named.get(w, w) for w in a.split())}\n" for a in river))[0] == 0
    assert user("act", "e2", "Dee cbr 4") == (
        2, "", "error: hand e2, action 'Dee cbr 4': no betting now (declare phase); now: phase "
        "declare, next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to declare: Dee, "
        "Eve, Fay)\n")


def test_a_player_gives_up_his_hand_at_the_declaration_then_the_last_round() -> None:
    """Five-card draw, Cy on the button, antes 1, 2/4. All check, all draw; at the
    declaration Bob gives up his hand instead of declaring (a fold: out of every pot, his
    ante stays in, RULES.md §1.5, §3.4); once Ann (low) and Cy (high) have declared the last
    round opens left of the button with Ann: Ann bets 4, Cy calls. Pot 3 antes + 4 + 4 = 11,
    Ann and Cy alone in it: high half 6 (the odd chip to high, §3.10) to Cy, low 5 to Ann.
    Bob, out of the hand, can neither declare nor give up again; Ann, once declared, cannot
    give up her hand."""
    state = _start("F5D", "Ann:50,Bob:50,Cy:50", button="Cy", antes=1)
    _play(state, """
        d dh Ann 2c3d4h5s7c
        d dh Bob 9c9dJhJsAd
        d dh Cy KcKdKhQsQd
        Ann cc
        Bob cc
        Cy cc
        Ann sd
        Bob sd
        Cy sd
        Ann dcl low
        Bob f""")
    assert (state.phase, state.declarations) == ("declare", {"Ann": "low"})
    with pytest.raises(IllegalAction, match="^hand bad: Bob is out of the hand$"):
        state.apply(ev.Declaration(player="Bob", direction="high"))
    with pytest.raises(IllegalAction, match="^hand bad: Bob is out of the hand$"):
        state.apply(ev.Fold(player="Bob"))
    with pytest.raises(IllegalAction, match="^hand bad: Ann has already declared low$"):
        state.apply(ev.Fold(player="Ann"))
    _play(state, """
        Cy dcl high""")
    assert (state.phase, state.to_act) == ("bet", "Ann")
    _play(state, """
        Ann cbr 4
        Cy cc
        Ann sm 2c3d4h5s7c
        Cy sm KcKdKhQsQd""")
    state.apply(ev.HandEnded())
    result = settle(state)
    assert result.contributions == {"Ann": 5, "Bob": 1, "Cy": 5}
    assert [(p.amount, p.eligible) for p in result.pots] == [(11, ("Ann", "Cy"))]
    assert result.awards == {"Ann": 5, "Bob": 0, "Cy": 6}
