"""engine.declare.award: high-low declaration awards (RULES.md §3, §5, §7).

Three layers:

* the worked examples ex06, ex09 and ex11 (read in place from ../shared/data/rules) and our own
  hand files in tests/declare_cases/ are replayed through the whole engine (PHH reader →
  ``HandState`` → ``settle``) and compared with their ``_expected`` tables; every expected number
  in those files was worked out by hand (the reasoning is the comment at the top of each file);
* direct calls of :func:`engine.declare.award.award_declare_pots` for what a hand file cannot say
  (unknown cards, run it twice, odd chips carried, errors);
* a Hypothesis property test over random declare showdowns with every combination of options.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.awards import TIE_ORDERS, PotAward
from engine.declare.award import award_declare_pots
from engine.errors import IllegalAction
from engine.evaluate import Rank, best_high, best_low
from engine.games import game
from engine.notation import to_event
from engine.pots import Pot
from engine.settle import HandResult, settle
from engine.state import HandState
from ledger.formats.phh.expected import option_values
from ledger.formats.phh.read import PhhHand, read_phh, read_phh_text
from ledger.model import events as ev
from ledger.model.events import DeclareOptions
from ledger.store.store import Ledger
from tests.conftest import SHARED
from tests.test_live_table import one_shot

RULES = SHARED / "rules"
CASES = Path(__file__).parent / "declare_cases"
CASE_FILES = sorted(CASES.glob("*.phh"))
OPTION_NAMES = tuple(DeclareOptions.model_fields)
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


# ------------------------------------------------------------------------------------ replay


def load(path: Path) -> PhhHand:
    (hand,) = read_phh(path).check()
    return hand


def replay(hand: PhhHand, actions: Sequence[str] | None = None) -> HandResult:
    """Drive the state machine with the hand's forced bets and actions, end it, settle it."""
    state = HandState.start(hand.started)
    for forced in hand.forced:
        state.apply(forced)
    texts = [a.text for a in hand.actions] if actions is None else list(actions)
    for text in texts:
        if text:
            state.apply(to_event(state, text))
    state.apply(ev.HandEnded())
    return settle(state)


def check_expected(hand: PhhHand, result: HandResult) -> None:
    expected = hand.expected
    assert expected is not None, f"{hand.file} has no _expected table"
    assert [(p.amount, p.eligible) for p in result.pots] == [
        (p.amount, p.eligible) for p in expected.pots
    ]
    assert [p.awards for p in result.pots] == [dict(a) for a in expected.pot_awards]
    assert result.awards == {p: expected.awards.get(p, 0) for p in result.players}
    assert result.returned == dict(expected.returned)
    assert result.carried == expected.carried
    assert result.contributions == dict(expected.contributions)
    assert result.verifiable
    for pot in result.pots:
        assert sum(pot.awards.values()) + pot.carried == pot.amount
        assert pot.lines


@pytest.mark.parametrize("name", ["ex06", "ex09", "ex11"])
def test_worked_examples(name: str) -> None:
    hand = load(RULES / f"{name}.phh")
    assert hand.started.options.declare is not None
    check_expected(hand, replay(hand))


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case_files(path: Path) -> None:
    hand = load(path)
    check_expected(hand, replay(hand))


def test_case_files_cover_every_option() -> None:
    """≥ 25 hand files, each spelling out every ``_declare`` option, together using every
    value of every option (RULES.md §5)."""
    assert len(CASE_FILES) >= 25
    seen: dict[str, set[object]] = {name: set() for name in OPTION_NAMES}
    for path in CASE_FILES:
        table = tomllib.loads(path.read_text())["_declare"]
        assert set(table) == set(OPTION_NAMES), path.name
        for name, value in table.items():
            seen[name].add(value)
    for name in OPTION_NAMES:
        values = set(option_values(DeclareOptions, name))
        if name == "low_method":  # FORMATS.md documents A-5 | 2-7; the property test takes all
            values = {"A-5", "2-7"}
        assert values <= seen[name], name
    variants = {tomllib.loads(p.read_text())["variant"] for p in CASE_FILES}
    assert {"NT", "PO", "F7S", "F5D", "FR"} <= variants


def test_in_turn_out_of_turn_is_rejected() -> None:
    """c02 is in turn: the last raiser p3 declares first (RULES.md §3.3)."""
    hand = load(CASES / "c02_in_turn.phh")
    texts = [a.text for a in hand.actions]
    first = texts.index("p3 dcl high")
    assert texts[first + 1] == "p1 dcl low"
    swapped = texts[:first] + ["p1 dcl low", "p3 dcl high"] + texts[first + 2 :]
    with pytest.raises(IllegalAction, match="out of turn"):
        replay(hand, swapped)


def test_bet_after_declare_fold_leaves_every_pot() -> None:
    result = replay(load(CASES / "c03_bet_after_declare_fold.phh"))
    assert result.pots[0].eligible == ("P1", "P2")
    assert result.lines[1] == (
        "Main pot: Nobody who declared low is still in the hand (P3 folded), so the high "
        "declarers play for the whole pot.")  # P3 declared low, then folded (RULES.md §3.4)


def test_a_side_pot_beyond_the_only_low_declarers_all_in_says_he_is_not_in_it() -> None:
    """c14 with P2 declaring high: P1 (all-in for 10) declared low, P2 and P3 high. The main
    pot 30 splits (high P2 15, low P1 15); the side pot 40 (P2, P3) has no low declarer of
    its own, and its line says why P1's low does not count there (RULES.md §1.6, §3)."""
    hand = load(CASES / "c14_side_pot_per_pot.phh")
    texts = ["p2 dcl high" if t == "p2 dcl swing" else t for t in (a.text for a in hand.actions)]
    result = replay(hand, texts)
    assert [p.awards for p in result.pots] == [{"P2": 15, "P1": 15}, {"P2": 40}]
    assert ("Side pot 1: Nobody in this pot declared low (P1 declared low but is not in it), "
            "so the high declarers play for the whole pot.") in result.lines
    assert "Main pot: Split high/low." in result.lines


def test_lines_explain_the_award() -> None:
    text = " ".join(replay(load(CASES / "c11_ciaf_rule_b.phh")).lines)
    assert "P1's swing fails: P2 beats P1 for low" in text
    assert "Rule B" in text and "who beat P2 for high" in text
    text = " ".join(replay(load(CASES / "c13_no_winner_carry_over.phh")).lines)
    assert "carry over" in text
    text = " ".join(replay(load(CASES / "c24_stud_card_by_suit.phh")).lines)
    assert "odd chip to P3 (highest card by suit, Kh)" in text
    lines = replay(load(CASES / "c15_side_pot_whole_hand.phh")).lines
    assert ("Side pot 1: P2's swing failed in the main pot, so under whole_hand P2 forfeits "
            "this one.") in lines


def test_a_rule_b_award_line_names_who_is_paid() -> None:
    """c08: P1's swing wins high but fails for low, so Rule B pays P3 his 24: the award line
    said "High 24: P1 wins 24 …" above the Rule B line sending those 24 to P3. c11: two
    failed swings pay each other, each half named by who takes it (P2 the high 40, P1 the low
    40)."""
    assert replay(load(CASES / "c08_rule_b_swing_loses_low.phh")).lines[-5:] == (
        "Main pot: P1's swing fails: P3 beats P1 for low (8-4-3-2-A low against P1's "
        "K-9-8-3-2 low).",
        "Main pot: Split high/low.",
        "Main pot: High 24: P3 is paid the 24 by Rule B, in place of P1 (three of a kind, "
        "kings, 9-8 kickers), whose swing failed.",
        "Main pot: Rule B: P1's swing failed, so those 24 go to P3, who beat P1 for low.",
        "Main pot: Low 24: P3 wins 24 with 8-4-3-2-A low.")
    assert replay(load(CASES / "c11_ciaf_rule_b.phh")).lines[-4:] == (
        "Main pot: High 40: P2 is paid the 40 by Rule B, in place of P1 (straight, six high), "
        "whose swing failed.",
        "Main pot: Rule B: P1's swing failed, so those 40 go to P2, who beat P1 for low.",
        "Main pot: Low 40: P1 is paid the 40 by Rule B, in place of P2 (5-4-3-2-A low), whose "
        "swing failed.",
        "Main pot: Rule B: P2's swing failed, so those 40 go to P1, who beat P2 for high.")


def test_show_names_who_rule_b_pays(run) -> None:  # noqa: ANN001
    """``show`` prints the pot's sentences as the engine words them: c08's high half under
    P3's name, not P1's."""
    assert run("import", str(CASES / "c08_rule_b_swing_loses_low.phh")).exit_code == 0
    hand = run("replay", "--json").output.split('"hand": "', 1)[1].split('"', 1)[0]
    lines = run("show", hand).output.splitlines()
    assert lines[-4:] == [
        "    Main pot: Split high/low.",
        "    Main pot: High 24: P3 is paid the 24 by Rule B, in place of P1 (three of a kind, "
        "kings, 9-8 kickers), whose swing failed.",
        "    Main pot: Rule B: P1's swing failed, so those 24 go to P3, who beat P1 for low.",
        "    Main pot: Low 24: P3 wins 24 with 8-4-3-2-A low."]


# ------------------------------------------------------------------------------ direct calls

NT = game("NT")
BOARD = ["2c", "3d", "4h", "9s", "Kc"]
ORDER = ["a", "b", "c", "d"]


def award(
    pots: Sequence[Pot],
    hands: Mapping[str, Sequence[str]],
    declarations: Mapping[str, str],
    *,
    boards: Sequence[Sequence[str]] = (BOARD,),
    tie: str = "left_of_button",
    **options: object,
) -> list[PotAward]:
    return award_declare_pots(
        NT, pots, hands, boards, ORDER, DeclareOptions(**options), declarations, tie
    )


def test_unknown_cards_of_a_needed_hand_make_the_pot_unverifiable() -> None:
    hands = {"a": ["Kd", "Kh"], "b": ["??", "??"], "c": ["As", "5d"]}
    (pot,) = award([Pot(30, ("a", "b", "c"))], hands, {"a": "high", "b": "high", "c": "low"})
    assert not pot.verifiable and pot.awards == {} and pot.carried == 0
    assert "unknown cards for b" in pot.lines[0]


def test_a_lone_declarer_wins_unseen() -> None:
    """RULES.md §3.5: alone in his direction, his cards do not matter."""
    hands = {"a": ["Kd", "Kh"], "b": ["??", "??"], "c": ["Qd", "Qh"]}
    (pot,) = award([Pot(31, ("a", "b", "c"))], hands, {"a": "high", "b": "low", "c": "high"})
    assert pot.verifiable and pot.awards == {"a": 16, "b": 15}
    (pot,) = award([Pot(31, ("a", "b", "c"))], hands, {"a": "high", "b": "low", "c": "high"},
                   low_qualifier="8_or_better")
    assert not pot.verifiable  # with a qualifier his low must be seen (§3.11)


def test_unknown_board_blocks_only_when_hands_are_compared() -> None:
    hands = {"a": ["Kd", "Kh"], "b": ["As", "5d"]}
    board = ["2c", "3d", "4h", "9s", "??"]
    (pot,) = award([Pot(20, ("a", "b"))], hands, {"a": "high", "b": "low"}, boards=[board])
    assert pot.awards == {"a": 10, "b": 10}
    (pot,) = award([Pot(20, ("a", "b"))], hands, {"a": "high", "b": "high"}, boards=[board])
    assert not pot.verifiable and "the board" in pot.lines[0]


def test_whole_hand_cannot_be_checked_past_a_doubtful_swing() -> None:
    """The swing b is judged in a main pot with unknown cards: under whole_hand the side pot
    depends on it (§3.9); per pot it does not."""
    hands = {"a": ["??", "??"], "b": ["Ad", "5s"], "c": ["Kd", "Kh"]}
    pots = [Pot(30, ("a", "b", "c")), Pot(40, ("b", "c"))]
    declared = {"a": "low", "b": "swing", "c": "high"}
    per_pot = award(pots, hands, declared)
    assert [p.verifiable for p in per_pot] == [False, True]
    assert per_pot[1].awards == {"b": 40}
    whole = award(pots, hands, declared, swing_failure_scope="whole_hand")
    assert [p.verifiable for p in whole] == [False, False]
    assert "depends on whether b's swing stands" in whole[1].lines[0]


def test_whole_hand_names_the_run_in_which_a_swing_failed() -> None:
    """Run twice (RULES.md §3.9, §4.5): a (Ah5s) swings against b's low (6d7d) and c's high
    (KsKh). Run 2 (Kd 8c 8h Tc Qd): c's kings full beat a for high, so a's swing fails there;
    under whole_hand he forfeits run 1 (2c 3d 4h 9s Jc) too, where he would have won both ways:
    its 32 goes 16 to c's kings and 16 to b's 7-6-4-3-2. Run 2's 31: 16 high to c, 15 low to
    b. The side pot 58 (b, c): 29 a run, 15 to c and 14 to b each time."""
    hands = {"a": ["Ah", "5s"], "b": ["6d", "7d"], "c": ["Ks", "Kh"]}
    boards = [["2c", "3d", "4h", "9s", "Jc"], ["Kd", "8c", "8h", "Tc", "Qd"]]
    main, side = award([Pot(63, ("a", "b", "c")), Pot(58, ("b", "c"))], hands,
                       {"a": "swing", "b": "low", "c": "high"}, boards=boards,
                       swing_failure_scope="whole_hand")
    assert (main.awards, side.awards) == ({"b": 31, "c": 32}, {"b": 28, "c": 30})
    assert main.lines[1] == ("Main pot, run 1 (2c 3d 4h 9s Jc, 32): a's swing failed in run 2, "
                             "so under whole_hand a forfeits this one.")
    assert main.lines[6].startswith("Main pot, run 2 (Kd 8c 8h Tc Qd, 31): a's swing fails: c "
                                    "beats a for high")


def test_whole_hand_names_the_run_of_another_pot_in_which_a_swing_failed() -> None:
    """b (2c3c) is all in for the main pot 60 (a, b, c); the side pot 40 is a's and c's. Run 1
    (3d 4s 6c Jh Ts): a's ace high beats c's king high, his 6-4-3-2-A beats b's T-6-4-3-2. Run
    2 (Ad 4s 5c Jh Ts): b's wheel beats a's T-5-4-2-A low, so a's swing fails in the main pot's
    run 2 only; under whole_hand he forfeits every run of both pots (RULES.md §3.9): the main
    pot 15 + 15 to c (high) and to b (low), the side pot's 20 + 20 to c, no low left in it."""
    hands = {"a": ["Ah", "2h"], "b": ["2c", "3c"], "c": ["Kc", "9s"]}
    boards = [["3d", "4s", "6c", "Jh", "Ts"], ["Ad", "4s", "5c", "Jh", "Ts"]]
    main, side = award([Pot(60, ("a", "b", "c")), Pot(40, ("a", "c"))], hands,
                       {"a": "swing", "b": "low", "c": "high"}, boards=boards,
                       swing_failure_scope="whole_hand")
    assert (main.awards, side.awards) == ({"b": 30, "c": 30}, {"c": 40})
    assert main.lines[1] == ("Main pot, run 1 (3d 4s 6c Jh Ts, 30): a's swing failed in run 2, "
                             "so under whole_hand a forfeits this one.")
    assert [line for line in side.lines if "forfeits" in line] == [
        f"Side pot 1, run {r} ({board}, 20): a's swing failed in run 2 of the main pot, so under "
        "whole_hand a forfeits this one."
        for r, board in ((1, "3d 4s 6c Jh Ts"), (2, "Ad 4s 5c Jh Ts"))]


def test_single_eligible_pot_goes_to_him_without_a_showdown() -> None:
    hands = {"a": ["As", "5d"], "b": ["Ad", "5s"], "c": ["Kd", "Kh"]}
    pots = [Pot(30, ("a", "b", "c")), Pot(7, ("c",))]
    result = award(pots, hands, {"a": "low", "b": "swing", "c": "high"})
    assert result[1].awards == {"c": 7}


def test_odd_chips_carried_by_tie_order() -> None:
    """Tie order carry_to_next_hand: the odd chip of a shared half stays for the next hand."""
    hands = {"a": ["3s", "4h"], "b": ["Ks", "Kh"], "c": ["3d", "4c"]}
    board = ["2c", "5d", "9h", "Jc", "Kd"]
    (pot,) = award([Pot(39, ("a", "b", "c"))], hands, {"a": "low", "b": "high", "c": "low"},
                   boards=[board], tie="carry_to_next_hand")
    assert pot.awards == {"a": 9, "b": 20, "c": 9} and pot.carried == 1


def test_run_twice_each_share_judged_on_its_board() -> None:
    """41 run twice: 21 on run 1, 20 on run 2 (RULES.md §4.5). The swing a wins both ways on
    run 1 and loses high on run 2 (the second board pairs b's kings)."""
    hands = {"a": ["As", "5d"], "b": ["Kd", "Kh"], "c": ["7h", "8h"]}
    boards = [["2c", "3d", "4h", "9s", "Qc"], ["2c", "3d", "4h", "Ks", "Kc"]]
    (pot,) = award([Pot(41, ("a", "b", "c"))], hands, {"a": "swing", "b": "high", "c": "low"},
                   boards=boards)
    # run 1: a scoops 21. run 2: b has four kings, a fails; Rule A: b 10, c 10.
    assert pot.awards == {"a": 21, "b": 10, "c": 10}
    assert any("run 2" in line for line in pot.lines)


def test_keep_clean_half_needs_one_outright_win() -> None:
    """Tying both ways wins nothing outright: the swing fails (RULES.md §3.6 c)."""
    hands = {"a": ["As", "5d"], "b": ["Ad", "5s"], "c": ["Ah", "5c"]}
    declared = {"a": "swing", "b": "high", "c": "low"}
    (pot,) = award([Pot(40, ("a", "b", "c"))], hands, declared, swing_ties="keep_clean_half")
    assert pot.awards == {"b": 20, "c": 20}
    (pot,) = award([Pot(40, ("a", "b", "c"))], hands, declared, swing_ties="allowed")
    assert pot.awards == {"a": 20, "b": 10, "c": 10}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tie": "by_age"}, "odd_chip_tie_order"),
        ({"boards": []}, "one board per run"),
        ({"declarations": {"a": "high", "b": "both"}}, "high, low or swing"),
        ({"declarations": {"a": "high"}}, "no declaration given for b"),
        ({"pots": [Pot(10, ())]}, "no eligible player"),
        ({"hands": {"a": ["Kd", "Kh"]}}, "no hand given for b"),
    ],
)
def test_bad_input_raises(change: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "pots": [Pot(20, ("a", "b"))],
        "hands": {"a": ["Kd", "Kh"], "b": ["As", "5d"]},
        "declarations": {"a": "high", "b": "low"},
    }
    args.update(change)
    with pytest.raises(ValueError, match=message):
        award(**args)  # type: ignore[arg-type]


def test_read_from_text_and_settle_directly() -> None:
    """A declare hand given as PHH text settles like the file (reader and engine agree)."""
    path = CASES / "c21_odd_chip_high_half.phh"
    (hand,) = read_phh_text(path.read_text(), file=str(path)).check()
    check_expected(hand, replay(hand))


# -------------------------------------------------------------------------- property test

# variant -> (hole cards per player, board cards)
GAMES = {"NT": (2, 5), "PO": (4, 5), "F7S": (7, 0), "F5D": (5, 0), "FR": (7, 0)}


@st.composite
def showdowns(draw: st.DrawFn) -> dict[str, object]:
    code = draw(st.sampled_from(sorted(GAMES)))
    hole, board_size = GAMES[code]
    count = draw(st.integers(2, 6))
    deck = draw(st.permutations(DECK))
    players = [f"s{i}" for i in range(count)]
    hands = {p: list(deck[i * hole : (i + 1) * hole]) for i, p in enumerate(players)}
    board = list(deck[count * hole : count * hole + board_size])
    declarations = {p: draw(st.sampled_from(["high", "low", "swing"])) for p in players}
    # pots as layering makes them: each pot's players include the next pot's
    deepest = draw(st.permutations(players))
    sizes = sorted(draw(st.lists(st.integers(1, count), min_size=0, max_size=2)), reverse=True)
    pots = []
    for size in [count, *sizes]:
        eligible = tuple(p for p in players if p in deepest[:size])
        pots.append(Pot(draw(st.integers(1, 301)), eligible))
    choices = {name: st.sampled_from(option_values(DeclareOptions, name)) for name in OPTION_NAMES}
    options = DeclareOptions(**{name: draw(choice) for name, choice in choices.items()})
    return {
        "game": game(code), "pots": pots, "hands": hands, "boards": [board],
        "order": players, "options": options, "declarations": declarations,
        "tie": draw(st.sampled_from(TIE_ORDERS)),
    }


def _judge(case: dict[str, object], pot: Pot) -> dict[str, tuple[str, str]]:
    """An independent reading of RULES.md §3.6/§3.11: swing -> (high, low) result among this
    pot's declarers, each 'won' | 'tied' | 'lost' ('lost' also for no qualifying low)."""
    g, hands, (board,) = case["game"], case["hands"], case["boards"]
    options: DeclareOptions = case["options"]  # type: ignore[assignment]
    declared: dict[str, str] = case["declarations"]  # type: ignore[assignment]
    highs: dict[str, Rank] = {}
    lows: dict[str, Rank | None] = {}
    for p in pot.eligible:
        if declared[p] in ("high", "swing"):
            highs[p] = best_high(g, hands[p], board)  # type: ignore[index, arg-type]
        if declared[p] in ("low", "swing"):
            lows[p] = best_low(g, hands[p], board, str(options.low_method),  # type: ignore[index, arg-type]
                               options.low_qualifier)

    def result(p: str, ranks: Mapping[str, Rank | None]) -> str:
        mine = ranks[p]
        others = [r for q, r in ranks.items() if q != p and r is not None]
        if mine is None:
            return "lost"
        if any(r > mine for r in others):
            return "lost"
        return "tied" if any(r == mine for r in others) else "won"

    return {p: (result(p, highs), result(p, lows)) for p in pot.eligible if declared[p] == "swing"}


def _fails(results: tuple[str, str], swing_ties: str) -> bool:
    if "lost" in results:
        return True
    if swing_ties == "not_allowed":
        return results != ("won", "won")
    if swing_ties == "keep_clean_half":
        return results == ("tied", "tied")
    return False


def _beats(case: dict[str, object], winner: str, loser: str) -> bool:
    g, hands, (board,) = case["game"], case["hands"], case["boards"]
    options: DeclareOptions = case["options"]  # type: ignore[assignment]
    a, b = hands[winner], hands[loser]  # type: ignore[index]
    if best_high(g, a, board) > best_high(g, b, board):  # type: ignore[arg-type]
        return True
    low_a = best_low(g, a, board, str(options.low_method), options.low_qualifier)  # type: ignore[arg-type]
    low_b = best_low(g, b, board, str(options.low_method), options.low_qualifier)  # type: ignore[arg-type]
    return low_a is not None and (low_b is None or low_a > low_b)


def run(case: dict[str, object]) -> list[PotAward]:
    return award_declare_pots(
        case["game"], case["pots"], case["hands"], case["boards"], case["order"],  # type: ignore[arg-type]
        case["options"], case["declarations"], case["tie"],  # type: ignore[arg-type]
    )


@settings(max_examples=300, deadline=None)
@given(showdowns())
def test_random_declare_showdowns(case: dict[str, object]) -> None:
    options: DeclareOptions = case["options"]  # type: ignore[assignment]
    pots: list[Pot] = case["pots"]  # type: ignore[assignment]
    result = run(case)
    assert result == run(case)  # deterministic
    assert len(result) == len(pots)
    failed_here = [
        {s for s, r in _judge(case, pot).items() if _fails(r, options.swing_ties)} for pot in pots
    ]
    failed_anywhere = set().union(*failed_here)
    for pot, awarded, failed in zip(pots, result, failed_here, strict=True):
        assert awarded.verifiable
        assert (awarded.amount, awarded.eligible) == (pot.amount, pot.eligible)
        assert sum(awarded.awards.values()) + awarded.carried == pot.amount
        assert set(awarded.awards) <= set(pot.eligible)
        assert all(chips > 0 for chips in awarded.awards.values())
        if awarded.carried:
            assert options.no_eligible_winner == "carry_over" or case["tie"] == "carry_to_next_hand"
        if len(pot.eligible) == 1 or any("by cards speak" in line for line in awarded.lines):
            continue  # no showdown / the §3.8 re-read ignores declarations
        losers = failed_anywhere if options.swing_failure_scope == "whole_hand" else failed
        for s in losers & set(pot.eligible):
            if s not in awarded.awards:
                continue
            # only Rule B, per pot, pays a failed swing: as the one who beat another failed swing
            assert options.failed_swing_share_goes_to == "player_who_beat_swing"
            assert options.swing_failure_scope == "per_pot"
            assert any(_beats(case, s, t) for t in failed if t != s)


# ------------------------------------------------------------------------- a file's refusal

MISSING_DECLARATION = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 Ah5s', 'd dh p2 AcTc', 'd dh p3 6d7d', 'p3 cbr 20', 'p1 cc', 'p2 cc',
  'd db 2c3c4h', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 9c', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Kd',
  'p1 cc', 'p2 cc', 'p3 cc', 'p2 dcl high', 'p3 dcl low',
  'p1 sm Ah5s', 'p2 sm AcTc', 'p3 sm 6d7d']
players = ['W', 'H', 'L']
_declare = { method = 'simultaneous' }
"""


def test_a_show_before_every_declaration_names_who_is_still_to_declare(user, db: str,  # noqa: ANN001
                                                                        tmp_path: Path) -> None:
    """RULES.md §3.2-3.4: H and L declared, W (p1) did not, and p1 shows (line 9): the refusal
    names W as still to declare, as `act` does, and nothing of the hand is written."""
    (tmp_path / "e1.phh").write_text(MISSING_DECLARATION)
    code, out, err = user("import", str(tmp_path / "e1.phh"))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (f"error: {tmp_path / 'e1.phh'}:9, hand phh-5fa503aa66ab, action 'p1 sm "
                   "Ah5s': cards are shown once every player has declared (still to declare: "
                   "W)\n")


# ------------------------------------------------------------- giving up at the declaration

RIVER = ["d dh Ann As2h", "d dh Bob Ad5s", "d dh Cy KhKs", "Cy cc", "Ann cc", "Bob cc",
         "d db 3c4d8h", "Ann cc", "Bob cc", "Cy cc", "d db Ts", "Ann cc", "Bob cc", "Cy cc",
         "d db Kc", "Ann cc", "Bob cbr 4", "Cy cc", "Ann cc"]  # seqs 4-22


def _said(user, hand: str, actions: list[str]) -> list[str]:  # noqa: ANN001
    code, out, err = user("table", hand, input="\n".join(actions) + "\n")
    assert (code, err) == (0, ""), err
    return out.splitlines()


def _shown(user, hand: str) -> list[str]:  # noqa: ANN001
    code, out, err = user("show", hand)
    assert (code, err) == (0, "")
    return [" ".join(line.split()) for line in out.splitlines()]


@pytest.mark.parametrize("method", ["simultaneous", "in_turn"])
def test_a_player_gives_up_his_hand_at_the_declaration(user, db: str, tmp_path: Path,  # noqa: ANN001
                                                        method: str) -> None:
    """RULES.md §3, §1.5: a player may give up his hand instead of declaring (``f`` in the
    declare phase): he is out of every pot, his chips stay in. Cy on the button, blinds 1/2
    (Ann, Bob); all limp, check to the river, Bob bets 4, Cy and Ann call: 6 each, pot 18.
    Bob (the last bettor, first in turn) declares high, Cy gives up, Ann declares low: the
    pot is Ann's and Bob's: high 9 to Bob (alone), low 9 to Ann (alone); Cy loses his 6:
    Ann 100 - 6 + 9 = 103, Bob 103, Cy 94. The hand's JSON-lines export imports the same."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "g1", "--game", "NT", "--stakes", "1/2",
                "--button", "Cy", "--declare-options", f"method={method}",
                "--seats", "Ann:100,Bob:100,Cy:100")[0] == 0
    _said(user, "g1", RIVER)
    if method == "in_turn":  # Bob declares first: a concession out of turn is refused too
        assert user("act", "g1", "Cy f") == (2, "", (
            "error: hand g1, action 'Cy f': out of turn: Bob declares next, not Cy; now: "
            "phase declare, Bob to act: Bob dcl high|low|swing or Bob f (give up)\n"))
    ann = ("Ann to act: Ann dcl high|low|swing or Ann f (give up)" if method == "in_turn" else
           "next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to declare: Ann)")
    _said(user, "g1", ["Bob dcl high"])
    cy = ("Cy to act: Cy dcl high|low|swing or Cy f (give up)" if method == "in_turn" else
          "next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to declare: Ann, Cy)")
    assert user("act", "g1", "Bob dcl low") == (2, "", (  # what he declared, how to change it
        "error: hand g1, action 'Bob dcl low': Bob has already declared high (at 23): to "
        "change it, `handledger undo g1` takes it back (the last action), or `handledger "
        "correct g1 --replace 23 'Bob dcl low' --reason … --by …`; now: phase declare, "
        f"{cy}\n"))
    assert _said(user, "g1", ["Cy f"])[-1] == f"24 fold; phase declare, {ann}"
    assert user("act", "g1", "Bob f") == (2, "", (  # not the last action now: a correction
        "error: hand g1, action 'Bob f': Bob has already declared high (at 23): to give up "
        "the hand instead, `handledger correct g1 --replace 23 'Bob f' --reason … --by …`; "
        f"now: phase declare, {ann}\n"))
    assert user("act", "g1", "Cy dcl low") == (2, "", (
        f"error: hand g1, action 'Cy dcl low': Cy is out of the hand; now: phase declare, "
        f"{ann}\n"))
    assert _said(user, "g1", ["Ann dcl low", "Ann sm As2h", "Bob sm Ad5s", "end"])[-1] == (
        "28 hand_ended; hand complete")
    shown = _shown(user, "g1")
    assert shown[-6:] == [
        "28 hand_ended pot 0 [Ann:103 Bob:103 Cy:94] showdown",
        "no payout recorded: stacks as the rules award (Ann 9, Bob 9)",
        "Main pot 18 (Ann, Bob): declared Bob high, Ann low.",
        "Main pot: Split high/low.",
        "Main pot: High 9: Bob wins 9 with high card, A-K-T-8-5.",
        "Main pot: Low 9: Ann wins 9 with 8-4-3-2-A low."]
    lines = tmp_path / "g1.jsonl"
    assert user("export", "g1", "-o", str(lines))[0] == 0
    other = tmp_path / "other.duckdb"
    assert one_shot(other, "import", str(lines))[0] == 0
    code, out, err = one_shot(other, "show", "g1")
    assert (code, err) == (0, "")
    assert [" ".join(line.split()) for line in out.splitlines()][-6:] == shown[-6:]


@pytest.mark.parametrize("method", ["simultaneous", "in_turn"])
def test_an_undone_give_up_names_the_player_who_declares_now(user, db: str,  # noqa: ANN001
                                                             method: str) -> None:
    """RULES.md §3.2-3.4: Bob (the river's bettor, first in turn) declares high, Cy low, and
    Ann, the last to declare, gives up her hand: the hand goes to its showdown, where by the
    rules Bob alone takes the high half of the 18-chip pot (9) and Cy alone the low (9).
    The host undoes Ann's fold: the pot is nobody's yet, and the undo names Ann as the one
    to declare now, in the words ``state`` used before the fold, and ``state`` says it
    again."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "g1", "--game", "NT", "--stakes", "1/2",
                "--button", "Cy", "--declare-options", f"method={method}",
                "--seats", "Ann:100,Bob:100,Cy:100")[0] == 0
    _said(user, "g1", [*RIVER, "Bob dcl high", "Cy dcl low"])
    ann = ("Ann to act: Ann dcl high|low|swing or Ann f (give up)" if method == "in_turn" else
           "next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to declare: Ann)")
    before = user("state", "g1")[1].splitlines()
    assert before[1] == f"phase declare, {ann}"
    assert _said(user, "g1", ["Ann f"]) == [
        "25 fold; phase showdown, next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay "
        "PLAYER AMOUNT, end"]
    assert user("undo", "g1", "--by", "host") == (0, (
        "undid seq 25 (fold Ann) in hand g1 (seq 26); change in net: none; by the rules: no "
        "net moves until the hand ends; Main pot 18 by the rules: Bob 9, Cy 9 before, nobody "
        f"yet after (now: phase declare, {ann}; the hand is in play: nothing is paid until it "
        "ends)\n"), "")
    assert user("state", "g1")[1].splitlines() == before


def test_heads_up_a_player_who_gives_up_at_the_declaration_leaves_the_pot_to_the_other(  # noqa: ANN001
        user, db: str) -> None:
    """Heads-up, Bob on the button posts the small blind 1, Ann the big blind 2; Bob calls,
    Ann checks, then the flop, turn and river are checked: pot 4. Ann declares first (first
    to act in the last round, checked through, RULES.md §3.3) high; Bob gives up his hand:
    Ann alone takes the pot as any fold-win, no showdown: Ann 102, Bob 98."""
    Ledger(db).close()
    assert user("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                "--button", "Bob", "--declare-options", "method=in_turn",
                "--seats", "Ann:100,Bob:100")[0] == 0
    said = _said(user, "h1", ["d dh Ann 9c8d", "d dh Bob AsKs", "Bob cc", "Ann cc",
                              "d db 2c7d9h", "Ann cc", "Bob cc", "d db Jc", "Ann cc", "Bob cc",
                              "d db Kd", "Ann cc", "Bob cc", "Ann dcl high", "Bob f", "end"])
    assert said[-4:] == [
        "16 check; phase declare, Ann to act: Ann dcl high|low|swing or Ann f (give up)",
        "17 declaration; phase declare, Bob to act: Bob dcl high|low|swing or Bob f (give up)",
        "18 fold; phase no showdown, next: pay PLAYER AMOUNT, end",
        "19 hand_ended; hand complete"]
    assert _shown(user, "h1")[-3:] == [
        "19 hand_ended pot 0 [Ann:102 Bob:98] no showdown",
        "no payout recorded: stacks as the rules award (Ann 4)",
        "Main pot 4 (Ann): Ann takes 4; nobody else is eligible."]


_MUCKED_DEAL = ["d dh Ann ????", "d dh Bob KhKd", "d dh Cy QhQd", "Cy cc", "Ann cc", "Bob cc",
                "d db 2c7h9s", "Ann cc", "Bob cc", "Cy cc", "d db Jd", "Ann cc", "Bob cc",
                "Cy cc", "d db 3c", "Ann cc", "Bob cc", "Cy cc"]


@pytest.mark.parametrize(("ann", "others", "why", "won", "stacks"), [
    ("low", "high", "Nobody who declared low showed a hand (Ann mucked), so the high "
     "declarers play for the whole pot.", "Bob wins 6 with pair of kings, J-9-7 kickers.",
     "Ann 98, Bob 104, Cy 98"),
    ("high", "low", "Nobody who declared high showed a hand (Ann mucked), so the low "
     "declarers play for the whole pot.", "Bob and Cy tie with J-9-7-3-2 low; 3 each.",
     "Ann 98, Bob 101, Cy 101"),
    ("swing", "high", "Nobody who declared low or swing showed a hand (Ann mucked), so the "
     "high declarers play for the whole pot.", "Bob wins 6 with pair of kings, J-9-7 kickers.",
     "Ann 98, Bob 104, Cy 98"),
])
def test_a_lone_declarer_who_mucks_is_named_not_said_to_be_nobody(  # noqa: ANN001, PLR0913
        user, ann: str, others: str, why: str, won: str, stacks: str) -> None:
    """RULES.md §1.5, §3: Ann alone declares one way (or swing) and mucks: she wins nothing,
    and the other way's declarers play for the pot of 6 (each of the three put in 2), but
    somebody did declare her way: `show`, `state` and `replay` say she mucked."""
    assert user("hand", "start", "--hand", "m1", "--game", "NT", "--stakes", "1/2", "--seats",
                "Ann:100,Bob:100,Cy:100", "--button", "Cy", "--declare-options",
                "method=simultaneous")[0] == 0
    for action in [*_MUCKED_DEAL, f"Ann dcl {ann}", f"Bob dcl {others}", f"Cy dcl {others}",
                   "Ann sm", "Bob sm KhKd", "Cy sm QhQd", "end"]:
        assert user("act", "m1", action)[0] == 0, action
    explained = [f"Main pot 6 (Bob, Cy): declared Bob and Cy {others}.", f"Main pot: {why}",
                 f"Main pot: {won}"]
    shown = user("show", "m1")[1].splitlines()
    assert shown[-3:] == [f"    {line}" for line in explained]
    assert user("state", "m1")[1].splitlines()[2:] == [
        *explained, "paid: none recorded (the stacks after the hand are the rules' result)",
        f"stacks after the hand: {stacks}"]
    assert [f"  {line}" for line in explained] == [
        line for line in user("replay", "--hand", "m1")[1].splitlines() if "Main pot" in line]
