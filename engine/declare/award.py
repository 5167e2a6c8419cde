"""High-low declaration awards: who wins each pot when the players declared (RULES.md §3).

Each live player declared ``high``, ``low`` or ``swing`` (both ways) before the showdown; his
hand is read only in the direction(s) he declared (§3.1). :func:`award_declare_pots` awards
every pot on its own among its own eligible players (§1.6, §3.9):

* basic award (§3.5): half to the best high among high and swing declarers, half to the best
  low among low and swing declarers; nobody declared one way → the other way takes the whole
  pot; a lone declarer takes his half unseen, however weak his hand;
* swing (§3.6, §5 "Swing evaluation order"): judged against all other declarers of each
  direction at once, other swings included, then ``swing_ties`` (``not_allowed`` |
  ``allowed`` — ¾/¼ when he wins one way and ties the other | ``keep_clean_half``);
* failed swing (§3.7): struck out, halves re-awarded among the rest (Rule A,
  ``next_best_in_that_direction``), or his would-be share goes to whoever beat him the other
  way (Rule B, ``player_who_beat_swing``; a failure by a tie falls back to Rule A, §7.3);
* nobody left to win (§3.8): ``cards_speak`` re-reads the pot as a cards-speak hi-lo pot with
  the declare low method and qualifier; ``carry_over`` leaves it for the next hand;
* ``swing_failure_scope = 'whole_hand'`` (§3.9): a swing that fails in any pot forfeits all;
* qualifier (§3.11), low method (§2.5), odd chips (§3.10, §2.2–2.3) from
  :class:`~ledger.model.events.DeclareOptions` and the tie order.

Any game can be a declare game: high is read with :func:`engine.evaluate.best_high`, low with
:func:`engine.evaluate.best_low` and the declare options' method, in razz and 2-7 as in
hold'em, stud, draw or Omaha (exactly two hole cards both ways). A pot run more than once is
cut into equal shares, odd chips to run 1 first (§4.5), each share judged on its own board; a
swing that fails on any run has failed in that pot. Chips are ints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine._compiled import by_fields
from engine.awards import (
    TIE_ORDERS,
    AwardTable,
    PotAward,
    alone_line,
    and_list,
    award_share,
    divide,
    pot_name,
)
from engine.cards import UNKNOWN
from engine.declare.judge import (
    DECLARATIONS,
    SWING,
    Reading,
    Verdict,
    judge_swings,
    needed_hands,
    read_share,
)
from engine.declare.split import Share, divide_share
from engine.games import Game
from engine.pots import Pot
from ledger.model.events import DeclareOptions, SplitOptions

__all__ = ["award_declare_pots"]


@dataclass(frozen=True)
class _Run:
    """One share of a pot (one run): chips, board, declared hands, swing verdicts."""

    amount: int
    board: tuple[str, ...]
    reading: Reading
    verdicts: dict[str, Verdict]

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


@dataclass(frozen=True)
class _Plan:
    """A pot after reading and judging, before dividing. ``blocked``: why it cannot be
    checked (unknown cards), else None. ``runs`` is empty for an uncontested or blocked pot."""

    index: int
    pot: Pot
    runs: tuple[_Run, ...] = ()
    blocked: str | None = None

    @property
    def head(self) -> str:
        return f"{pot_name(self.index)} {self.pot.amount} ({', '.join(self.pot.eligible)})"

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def award_declare_pots(
    game: Game,
    pots: Sequence[Pot],
    hands: Mapping[str, Sequence[str]],
    boards: Sequence[Sequence[str]],
    order_from_button: Sequence[str],
    options: DeclareOptions,
    declarations: Mapping[str, str],
    tie_order: str,
    smallest_chip: int = 1,
    mucked: Sequence[Sequence[str]] | None = None,
    folded: Sequence[str] = (),
) -> list[PotAward]:
    """Award every pot of a declare hand (RULES.md §3; see the module doc for the rules).

    ``pots``: from :func:`engine.pots.layer_pots`, main pot first, chips. ``hands``: player ->
    his cards (stud: all of them; ``'??'`` unknown) for every live player. ``boards``: one
    board per run (``[()]`` for stud and draw). ``order_from_button``: players clockwise from
    the first seat left of the button (stud: seat order). ``declarations``: player ->
    ``'high'`` | ``'low'`` | ``'swing'``. ``tie_order``: ``left_of_button`` | ``card_by_suit``
    | ``carry_to_next_hand`` (odd chips among tied hands, §2.2, §3.10). ``smallest_chip``:
    the smallest chip in play, in chips (§2.1, ``SplitOptions.smallest_chip``): each odd chip.
    ``mucked``: for each pot, the players who could have won it and mucked (RULES.md §1.5,
    :func:`engine.settle.gave_up`; None: nobody), named when a direction is left without a
    declarer because its declarers mucked (``Nobody who declared low showed a hand (Ann
    mucked), …``); ``folded``: the players who declared and then folded (a bet after the
    declarations, RULES.md §3.4), named so too (``… is still in the hand (P3 folded)``).

    Returns one :class:`~engine.awards.PotAward` per pot, in order: ``awards`` player -> chips
    (winners only) and ``carried`` with ``sum(awards) + carried == amount``, and ``lines`` in
    plain English. A pot with one eligible player goes to him without a showdown (§1.6). A pot
    whose result needs a hand (or board) with unknown cards is ``verifiable=False`` with empty
    ``awards``; under ``whole_hand`` so is every pot that depends on a swing judged there.

    Raises:
        ValueError: no boards, an unknown tie order or declaration, a pot without eligible
            players, or a contested pot's eligible player without a hand, a declaration or a
            place in ``order_from_button``; or a hand the evaluator rejects.
    """
    if tie_order not in TIE_ORDERS:
        known = ", ".join(TIE_ORDERS)
        raise ValueError(f"unknown odd_chip_tie_order {tie_order!r} (known: {known})")
    if not boards:
        raise ValueError("need one board per run ([()] for games without a board)")
    wrong = {p: d for p, d in declarations.items() if d not in DECLARATIONS}
    if wrong:
        raise ValueError(f"declarations must be high, low or swing, got {wrong}")
    split = SplitOptions(
        odd_chip_between_halves=options.odd_chip_between_halves,
        odd_chip_tie_order=tie_order,  # type: ignore[arg-type]
        low_method=options.low_method,
        low_qualifier=options.low_qualifier,
        smallest_chip=smallest_chip,
    )
    # read like a hi-lo game: best_high one way, best_low with the declare method the other
    hilo = replace(game, evaluation="hilo8")
    table = AwardTable(hilo, hands, order_from_button, split, tie_order)
    plans = [_plan(table, i, pot, boards, options, declarations) for i, pot in enumerate(pots)]
    forfeited: frozenset[str] = frozenset()
    if options.swing_failure_scope == "whole_hand":
        forfeited, plans = _whole_hand(plans, declarations)
    failed_at = _failed_at(plans) if forfeited else {}
    gave = list(mucked) if mucked is not None else [()] * len(plans)
    return [_award(table, plan, options, declarations, forfeited, failed_at, tuple(g),
                   tuple(folded)) for plan, g in zip(plans, gave, strict=True)]


def _failed_at(plans: Sequence[_Plan]) -> dict[str, list[tuple[int, int, int]]]:
    """Where each swing failed (RULES.md §3.9): player -> ``(pot index, run index, runs in
    that pot)`` of every run of every pot in which his swing failed."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    for plan in plans:
        for r, run in enumerate(plan.runs):
            for s, v in run.verdicts.items():
                if v.failed:
                    out.setdefault(s, []).append((plan.index, r, len(plan.runs)))
    return out


def _failed_where(places: Sequence[tuple[int, int, int]], index: int, run: int) -> str:
    """Where a swing forfeited in run ``run`` of pot ``index`` failed, in a sentence:
    ``"in run 2"`` (another run of this pot), ``"in side pot 1"``, ``"in run 1 of the main
    pot"`` (another pot, run twice or more), this pot's runs first, several joined
    (:func:`engine.awards.and_list`); ``places``: :func:`_failed_at`'s of the player."""
    def pot(i: int) -> str:
        return "the main pot" if i == 0 else f"side pot {i}"

    here = [f"in run {r + 1}" for i, r, _ in places if i == index and r != run]
    there = [f"in run {r + 1} of {pot(i)}" if runs > 1 else f"in {pot(i)}"
             for i, r, runs in places if i != index]
    return and_list([*here, *there]) if here or there else "in another pot"


def _plan(
    table: AwardTable,
    index: int,
    pot: Pot,
    boards: Sequence[Sequence[str]],
    options: DeclareOptions,
    declarations: Mapping[str, str],
) -> _Plan:
    """Read and judge one pot, run by run (RULES.md §3.6, §5 steps 1–2)."""
    plan = _Plan(index, pot)
    if not pot.eligible:
        raise ValueError(f"{plan.head} has no eligible player")
    if len(pot.eligible) == 1:
        return plan
    for what, known in (("hand", table.hands), ("declaration", declarations)):
        missing = [p for p in pot.eligible if p not in known]
        if missing:
            raise ValueError(f"{plan.head}: no {what} given for {', '.join(missing)}")
    needed = needed_hands(pot.eligible, declarations, options)
    unknown = [p for p in needed if UNKNOWN in table.hands[p]]
    board_unknown = any(UNKNOWN in board for board in boards)
    if needed and board_unknown:
        unknown.append("the board")
    if unknown:
        return replace(plan, blocked=f"cannot be checked, unknown cards for {', '.join(unknown)}")
    seen = set() if board_unknown else {p for p in pot.eligible if UNKNOWN not in table.hands[p]}
    amounts = divide(pot.amount, len(boards), table.split.smallest_chip)
    runs = []
    for r, board in enumerate(boards):
        reading = read_share(table.game, pot.eligible, declarations, table.hands, board,
                             options, seen)
        verdicts = judge_swings(reading, pot.eligible, declarations, options.swing_ties)
        runs.append(_Run(amounts[r], tuple(board), reading, verdicts))
    return replace(plan, runs=tuple(runs))


def _whole_hand(
    plans: list[_Plan], declarations: Mapping[str, str]
) -> tuple[frozenset[str], list[_Plan]]:
    """``swing_failure_scope = 'whole_hand'`` (RULES.md §3.9): the swings that failed in any
    pot (on any run); pots that share a swing with a pot that cannot be checked are blocked
    too, since whether he forfeits is unknown."""
    forfeited = frozenset(
        s for plan in plans for run in plan.runs for s, v in run.verdicts.items() if v.failed
    )
    doubtful = {
        s for plan in plans if plan.blocked for s in plan.pot.eligible
        if declarations.get(s) == SWING and s not in forfeited
    }
    out = []
    for plan in plans:
        depends = [s for s in plan.pot.eligible if s in doubtful]
        if plan.runs and depends:
            why = (f"cannot be checked: it depends on whether {and_list(depends)}'s swing "
                   f"stands in a pot with unknown cards (whole_hand)")
            plan = replace(plan, runs=(), blocked=why)
        out.append(plan)
    return forfeited, out


def _declared(plan: _Plan, declarations: Mapping[str, str]) -> str:
    parts = []
    for d in DECLARATIONS:
        names = [p for p in plan.pot.eligible if declarations[p] == d]
        if names:
            parts.append(f"{and_list(names)} {d}")
    return f"{plan.head}: declared {', '.join(parts)}."


def _award(
    table: AwardTable,
    plan: _Plan,
    options: DeclareOptions,
    declarations: Mapping[str, str],
    forfeited: frozenset[str],
    failed_at: Mapping[str, Sequence[tuple[int, int, int]]] | None = None,
    mucked: tuple[str, ...] = (),
    folded: tuple[str, ...] = (),
) -> PotAward:
    pot, name = plan.pot, pot_name(plan.index)
    if len(pot.eligible) == 1:
        (player,) = pot.eligible
        line = alone_line(plan.head, player, pot.amount)
        return PotAward(plan.index, pot.amount, pot.eligible, {player: pot.amount}, 0, (line,))
    if plan.blocked:
        line = f"{plan.head}: {plan.blocked}."
        return PotAward(plan.index, pot.amount, pot.eligible, {}, 0, (line,), verifiable=False)
    awards = dict.fromkeys(pot.eligible, 0)
    carried = 0
    lines = [_declared(plan, declarations)]
    for r, run in enumerate(plan.runs):
        where = name
        if len(plan.runs) > 1:
            where = f"{name}, run {r + 1} ({' '.join(run.board) or 'no board'}, {run.amount})"
        if not run.amount:
            lines.append(f"{where}: nothing left to award.")
            continue
        lost = forfeited & set(pot.eligible)
        said = tuple((s, _failed_where((failed_at or {}).get(s, ()), plan.index, r))
                     for s in sorted(lost))
        share = Share(run.amount, pot.eligible, declarations, run.reading, run.verdicts,
                      lost, said, mucked, folded)
        won, kept, sentences = _divide_run(table, share, run, options)
        lines += [f"{where}: {s}" for s in sentences]
        if won is None:
            return PotAward(plan.index, pot.amount, pot.eligible, {}, 0, tuple(lines),
                            verifiable=False)
        for p, chips in won.items():
            awards[p] += chips
        carried += kept
    paid = {p: chips for p, chips in awards.items() if chips}
    return PotAward(plan.index, pot.amount, pot.eligible, paid, carried, tuple(lines))


def _divide_run(
    table: AwardTable, share: Share, run: _Run, options: DeclareOptions
) -> tuple[dict[str, int] | None, int, list[str]]:
    """(awards, carried, sentences) of one share; awards None when it cannot be checked."""
    divided = divide_share(table, share, options)
    sentences = list(divided.sentences)
    if not divided.nobody_left:
        return divided.awards, divided.carried, sentences
    if options.no_eligible_winner == "carry_over":
        sentences.append(f"Nobody is left to win by declaration: the {share.amount} "
                         f"carry over to the next hand.")
        return {}, share.amount, sentences
    hands = [table.hands[p] for p in share.eligible]
    if any(UNKNOWN in cards for cards in [*hands, run.board]):
        sentences.append("Nobody is left to win by declaration, and reading the pot by cards "
                         "speak needs cards that are unknown: it cannot be checked.")
        return None, 0, sentences
    won, kept, text = award_share(table, share.eligible, share.amount, run.board)
    sentences.append("Nobody is left to win by declaration, so the pot is read by cards speak, "
                     "declarations ignored.")
    return {p: c for p, c in won.items() if c}, kept, sentences + text
