"""Illegal actions are refused with the reason; the betting rules of RULES.md §1.7–1.8."""

from __future__ import annotations

import pytest

from engine.notation import to_event
from engine.state import HandState
from ledger.formats.phh.read import read_phh_text
from ledger.model.errors import IllegalHand
from replay.build import events_from_phh
from replay.fold import replay_events


def _parse(actions: list[str], *, stacks=(100, 100, 100), blinds=(1, 2, 0), variant="NT",
           extra: str = ""):  # noqa: ANN001, ANN202
    n = len(stacks)
    bets = "min_bet = 2" if variant[0] != "F" else "small_bet = 2\nbig_bet = 4"
    text = (
        f"variant = '{variant}'\nantes = {[0] * n}\nblinds_or_straddles = {list(blinds)}\n"
        f"{bets}\nstarting_stacks = {list(stacks)}\nactions = {actions!r}\n{extra}"
    )
    parsed = read_phh_text(text, file="t.phh")
    assert parsed.errors == []
    return parsed.hands[0]


def _hand(actions: list[str], **kw) -> list:  # noqa: ANN003
    return events_from_phh(_parse(actions, **kw))


def _play(actions: list[str], **kw) -> HandState:  # noqa: ANN003
    """Apply the actions without ending the hand; the state after the last one."""
    hand = _parse([], **kw)
    state = HandState.start(hand.started)
    for e in hand.forced:
        state.apply(e)
    for text in actions:
        state.apply(to_event(state, text))
    return state


DEAL3 = ["d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c2d"]


@pytest.mark.parametrize(
    ("actions", "reason"),
    [
        (DEAL3 + ["p1 cc"], "out of turn: p3 is to act, not p1"),
        (DEAL3 + ["p3 cbr 3"], "raise to 3 is below the minimum 4"),
        (DEAL3 + ["p3 cbr 150"], "p3 cannot raise to 150: only 100 behind"),
        (DEAL3 + ["p3 f", "p3 cc"], "p3 has folded"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db AsJdTd"],
         "card As is dealt twice: it was dealt first to p1"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db 9dJdTd", "p1 cc", "p2 cc", "p3 cc",
                  "d db Jd"], "card Jd is dealt twice: it was dealt first on the board"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db 9dJd9d"],
         "card 9d is dealt twice: both in this deal on the board"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cc", "d db JdTd9d8d"], "too many board cards"),
        (DEAL3 + ["p3 cc", "p1 cc", "p2 cbr 7", "p3 cc", "p1 cc", "d db 2s3s4s", "p1 cbr 1"],
         "below the minimum 2"),
        (DEAL3 + ["p3 x"], "is not an action"),
    ],
)
def test_illegal_actions_are_refused_with_the_reason(actions: list[str], reason: str) -> None:
    with pytest.raises(IllegalHand) as err:
        _hand(actions)
    assert reason in str(err.value)
    assert err.value.action == actions[-1]
    assert err.value.file == "t.phh"


def test_short_all_in_does_not_reopen_for_a_player_who_acted() -> None:
    """RULES.md §1.7: bet 10, all-in to 14 (short), the first bettor may only call or fold."""
    deal = ["d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c2d"]
    pre = ["p3 cc", "p1 cc", "p2 cc", "d db 2s3s4d"]
    ok = _play(deal + pre + ["p1 cbr 10", "p2 cbr 14", "p3 cc"], stacks=(100, 16, 100))
    assert ok.limits("p1").min_to is None and ok.limits("p1").to_call == 4
    assert "not reopened" in ok.limits("p1").reason
    with pytest.raises(IllegalHand) as err:
        _hand(deal + pre + ["p1 cbr 10", "p2 cbr 14", "p3 cc", "p1 cbr 30"],
              stacks=(100, 16, 100))
    assert "not reopened" in str(err.value)


def test_several_short_all_ins_together_reopen_the_betting() -> None:
    """TDA-47 addendum (blinds 50-100): A bets 100, B all-in 125, C calls, D all-in 200,
    E calls; A faces a full 100 raise and may re-raise; the minimum is 200 + 100."""
    n = 5
    deal = [f"d dh p{i} {c}" for i, c in enumerate(["2c3c", "4c5c", "6c7c", "8c9c", "TcJc"], 1)]
    pre = ["p3 cc", "p4 cc", "p5 cc", "p1 cc", "p2 cc", "d db 2d3d4d"]
    flop = ["p1 cbr 100", "p2 cbr 125", "p3 cc", "p4 cbr 200", "p5 cc", "p1 cbr 300"]
    state = _play(deal + pre + flop[:-1], stacks=(1000, 225, 1000, 300, 1000),
                  blinds=(50, 100, 0, 0, 0))
    assert state.to_act == "p1"
    assert state.limits("p1").min_to == 300
    state = _play(deal + pre + flop, stacks=(1000, 225, 1000, 300, 1000),
                  blinds=(50, 100, 0, 0, 0))
    assert state.to_act == "p3" and state.rnd.current == 300
    assert n == 5


def test_fixed_limit_cap_and_heads_up() -> None:
    """RULES.md §1.8: bet + 3 raises with three players; a fifth bet is refused."""
    deal = DEAL3
    acts = ["p3 cbr 4", "p1 cbr 6", "p2 cbr 8"]
    assert _play(deal + acts + ["p3 cc", "p1 cc"], variant="FT").phase == "deal"
    with pytest.raises(IllegalHand) as err:
        _hand(deal + acts + ["p3 cbr 10"], variant="FT")
    assert "cap" in str(err.value)


def test_fixed_limit_raise_must_be_one_bet() -> None:
    with pytest.raises(IllegalHand) as err:
        _hand(DEAL3 + ["p3 cbr 5"], variant="FT")
    assert "above the maximum 4" in str(err.value)


def test_uncalled_bet_and_dead_ante_stay_apart() -> None:
    """A big-blind ante is dead money: the caller of the all-in can win it (RULES.md §4.3)."""
    text = (
        "variant = 'NT'\nantes = [0, 20, 0]\nblinds_or_straddles = [10, 20, 0]\nmin_bet = 20\n"
        "starting_stacks = [500, 240, 500]\n"
        "actions = ['d dh p1 2c7d', 'd dh p2 KdKh', 'd dh p3 AsAh', 'p3 cbr 60', 'p1 f',"
        " 'p2 cbr 220', 'p3 cc', 'd db 2s5h9c', 'd db Tc', 'd db 3d']\n"
    )
    events = events_from_phh(read_phh_text(text).hands[0])
    result = replay_events(events).result
    assert result.returned == {}
    assert [(p.amount, p.awards) for p in result.pots] == [(10 + 20 + 220 + 220, {"p3": 470})]
    assert result.final_stacks == {"p1": 490, "p2": 0, "p3": 750}


def test_stud_bring_in_player_must_bring_in_or_complete() -> None:
    """RULES.md §4.1: the lowest up card (clubs lowest) brings it in; he may not check."""
    text = (
        "variant = 'F7S'\nantes = [1, 1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
        "starting_stacks = [50, 50, 50]\n"
        "actions = ['d dh p1 AsKs4h', 'd dh p2 QhQd4c', 'd dh p3 7c2dJd', '{}']\n"
    )
    for action, reason in (("p2 cc", "must bring it in or complete"),
                           ("p1 pb", "out of turn: p2 must bring it in")):
        hand = read_phh_text(text.format(action), file="s.phh").hands[0]
        with pytest.raises(IllegalHand) as err:
            events_from_phh(hand)
        assert reason in str(err.value)
    state = _play([], stacks=(50, 50, 50))
    assert state.phase == "forced"


def _stud(variant: str, deal: list[str], action: str) -> list:
    """A three-seat stud hand (antes 1, bring-in 1, bets 2/4, stacks 50) dealt ``deal``, then
    ``action``: its events."""
    text = (f"variant = '{variant}'\nantes = [1, 1, 1]\nbring_in = 1\nsmall_bet = 2\n"
            f"big_bet = 4\nstarting_stacks = [50, 50, 50]\nactions = {[*deal, action]!r}\n")
    return events_from_phh(read_phh_text(text, file="s.phh").hands[0])


#: p1's upcard unseen; p2 shows 9d, p3 the 2c: the lowest card there is.
UNSEEN_2C = ["d dh p1 ??????", "d dh p2 Qh5s9d", "d dh p3 7d5d2c"]
#: p1's upcard unseen; p3's 3c is the lowest shown, but p1's may be a two.
UNSEEN_3C = ["d dh p1 ??????", "d dh p2 Qh5s9d", "d dh p3 7d5d3c"]


@pytest.mark.parametrize(("variant", "deal", "action", "reason"), [
    ("F7S", UNSEEN_2C, "p2 pb", "out of turn: p3 must bring it in, not p2 (p3's 2c is the "
                                "lowest upcard shown; p1's is unseen)"),
    ("F7S", UNSEEN_2C, "p1 pb", "out of turn: p3 must bring it in, not p1 (p3's 2c is the "
                                "lowest upcard shown; p1's is unseen)"),
    ("F7S", UNSEEN_2C, "p2 cbr 2", "out of turn: p3 must bring it in, not p2 (p3's 2c is the "
                                   "lowest upcard shown; p1's is unseen)"),
    ("F7S", UNSEEN_3C, "p2 pb", "out of turn: p1 or p3 must bring it in, not p2 (p3's 3c is "
                                "the lowest upcard shown; p1's is unseen)"),
    # p2's 2c is face down but known: the only card below his 2d is not p1's nor p3's
    ("F7S", ["d dh p1 ??????", "d dh p2 2cQh2d", "d dh p3 ??????"], "p1 pb",
     "out of turn: p2 must bring it in, not p1 (p2's 2d is the lowest upcard shown; p1's and "
     "p3's are unseen)"),
    # hi-lo: the ace counts high for the bring-in (CASINO-S8)
    ("F7S/8", ["d dh p1 ??????", "d dh p2 Qh5sAc", "d dh p3 7d5d3d"], "p2 pb",
     "out of turn: p1 or p3 must bring it in, not p2 (p3's 3d is the lowest upcard shown; "
     "p1's is unseen)"),
    # razz: the highest card brings it in, the Ks the highest there is
    ("FR", ["d dh p1 ??????", "d dh p2 Qh5sKd", "d dh p3 7d5dKs"], "p2 pb",
     "out of turn: p3 must bring it in, not p2 (p3's Ks is the highest upcard shown; p1's is "
     "unseen)"),
    ("FR", ["d dh p1 ??????", "d dh p2 Qh5sQd", "d dh p3 7d3d5c"], "p3 pb",
     "out of turn: p1 or p2 must bring it in, not p3 (p2's Qd is the highest upcard shown; "
     "p1's is unseen)"),
])
def test_a_bring_in_beside_an_unseen_upcard_is_refused_when_it_cannot_be_lowest(
        variant: str, deal: list[str], action: str, reason: str) -> None:
    """RULES.md §4.1: the lowest upcard by suit brings it in (razz: the highest, aces low).
    With an upcard unseen the engine cannot always tell who, but a seat whose card is above
    one shown, or whose unseen card could only be a card known elsewhere, is never it."""
    with pytest.raises(IllegalHand) as err:
        _stud(variant, deal, action)
    assert str(err.value).endswith(f"action {action!r}: {reason}")
    assert str(err.value).startswith("s.phh:7, hand phh-")


@pytest.mark.parametrize(("variant", "deal", "actions", "stacks"), [
    ("F7S", UNSEEN_3C, ["p1 pb", "p2 f", "p3 f"], {"p1": 52, "p2": 49, "p3": 49}),
    ("F7S", UNSEEN_3C, ["p3 pb", "p1 f", "p2 f"], {"p1": 49, "p2": 49, "p3": 52}),
    ("FR", ["d dh p1 ??????", "d dh p2 Qh5sQd", "d dh p3 7d3d5c"], ["p1 pb", "p2 f", "p3 f"],
     {"p1": 52, "p2": 49, "p3": 49}),
])
def test_a_bring_in_from_a_seat_whose_unseen_upcard_could_be_lowest_is_taken(
        variant: str, deal: list[str], actions: list[str], stacks: dict[str, int]) -> None:
    """p1's unseen upcard may be a two (razz: a king), p3 shows the lowest card seen (razz:
    p2 the highest): either may bring it in. The others fold: the bring-in wins the 3 antes
    and his bring-in 1, 52 in all; the others keep 50 - 1 = 49."""
    text = (f"variant = '{variant}'\nantes = [1, 1, 1]\nbring_in = 1\nsmall_bet = 2\n"
            f"big_bet = 4\nstarting_stacks = [50, 50, 50]\nactions = {[*deal, *actions]!r}\n")
    result = replay_events(events_from_phh(read_phh_text(text).hands[0])).result
    assert result.final_stacks == stacks


#: Third street of UNSEEN_2C played (p3 brings it in, both call: 48 each), then fourth street:
#: p1's upcard unseen, p2 shows 9d 4c, p3 2c 3d (no board of p3's tops p2's nine).
FOURTH = [*UNSEEN_2C, "p3 pb", "p1 cc", "p2 cc", "d dh p1 ??", "d dh p2 4c", "d dh p3 3d"]
#: Fifth street of FOURTH, all checked: p1 shows ?? ?? Kd, p2 a pair of fours, p3 of threes.
FIFTH = [*FOURTH, "p1 cc", "p2 cc", "p3 cc", "d dh p1 Kd", "d dh p2 4d", "d dh p3 3c"]


@pytest.mark.parametrize(("variant", "deal", "action", "reason"), [
    ("F7S", FOURTH, "p3 cc", "out of turn: p1 or p2 must act first, not p3 (p2's 9d 4c is the "
                             "best board shown; p1 shows ?? ??)"),
    ("F7S", FOURTH, "p3 cbr 2", "out of turn: p1 or p2 must act first, not p3 (p2's 9d 4c is "
                                "the best board shown; p1 shows ?? ??)"),
    ("F7S", FIFTH, "p3 cc", "out of turn: p1 or p2 must act first, not p3 (p2's 9d 4c 4d is "
                            "the best board shown; p1 shows ?? ?? Kd)"),
    # p2's Ah is face down but known: with three aces seen p1 cannot pair aces, nor beat them
    ("F7S", ["d dh p1 ??????", "d dh p2 AhQsAd", "d dh p3 7d5d2c", "p3 pb", "p1 cc", "p2 cc",
             "d dh p1 ??", "d dh p2 Ac", "d dh p3 3d"], "p1 cc",
     "out of turn: p2 must act first, not p1 (p2's Ad Ac is the best board shown; p1 shows "
     "?? ??)"),
    # razz: the lowest board acts first; p3's five-ace is below any king, p1's may be lower
    ("FR", ["d dh p1 ??????", "d dh p2 Qh5sQd", "d dh p3 7d3d5c", "p2 pb", "p3 cc", "p1 cc",
            "d dh p1 ??", "d dh p2 Kc", "d dh p3 Ac"], "p2 cc",
     "out of turn: p1 or p3 must act first, not p2 (p3's 5c Ac is the lowest board shown; p1 "
     "shows ?? ??)"),
])
def test_a_first_action_beside_an_unseen_upcard_later_is_refused_when_it_cannot_be_best(
        variant: str, deal: list[str], action: str, reason: str) -> None:
    """RULES.md §4.1: from fourth street on the best board acts first (razz: the lowest).
    With an upcard unseen the engine cannot always tell whose, but a seat whose board is
    below one shown whatever the unseen cards are (cards known elsewhere are not among them)
    is never first."""
    with pytest.raises(IllegalHand) as err:
        _stud(variant, deal, action)
    assert str(err.value).endswith(f"action {action!r}: {reason}")
    assert str(err.value).startswith("s.phh:7, hand phh-")


@pytest.mark.parametrize(("deal", "actions", "stacks"), [
    (FOURTH, ["p2 cbr 2", "p3 f", "p1 f"], {"p1": 48, "p2": 54, "p3": 48}),
    (FOURTH, ["p1 cbr 2", "p2 f", "p3 f"], {"p1": 54, "p2": 48, "p3": 48}),
    (FIFTH, ["p2 cbr 4", "p3 f", "p1 f"], {"p1": 48, "p2": 54, "p3": 48}),
    (FIFTH, ["p1 cbr 4", "p2 f", "p3 f"], {"p1": 54, "p2": 48, "p3": 48}),
])
def test_a_first_action_from_a_seat_whose_board_could_be_best_is_taken(
        deal: list[str], actions: list[str], stacks: dict[str, int]) -> None:
    """p1's unseen upcards may make the best board, and p2's is best if they do not: either
    acts first. He bets, the others fold: the pot of 3 antes and 3 x 1 on third street (6) is
    his and his bet comes back: 50 - 2 + 6 = 54; the others keep 50 - 2 = 48."""
    text = ("variant = 'F7S'\nantes = [1, 1, 1]\nbring_in = 1\nsmall_bet = 2\n"
            f"big_bet = 4\nstarting_stacks = [50, 50, 50]\nactions = {[*deal, *actions]!r}\n")
    result = replay_events(events_from_phh(read_phh_text(text).hands[0])).result
    assert result.final_stacks == stacks


def test_heads_up_fixed_limit_raising_is_not_capped() -> None:
    """RULES.md §1.8: heads-up the cap does not apply (pokerkit caps; we follow RULES)."""
    state = _play(["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 4", "p1 cbr 6", "p2 cbr 8",
                   "p1 cbr 10", "p2 cbr 12"], stacks=(100, 100), blinds=(1, 2), variant="FT")
    assert state.rnd.current == 12 and state.to_act == "p1"
    assert state.limits("p1").min_to == 14


def test_a_four_card_game_cannot_be_declared() -> None:
    """Badugi hands have four cards: a declare hand of it is refused when it starts."""
    hand = _parse([], stacks=(50, 50), blinds=(1, 2), variant="FB",
                  extra="_declare = { method = 'simultaneous' }\n")
    with pytest.raises(IllegalHand) as err:
        events_from_phh(hand)
    assert "FB cannot be a declare game" in str(err.value)
