"""Dividing one share of a declare pot (RULES.md §3.5–3.7, §3.10, §5 steps 3–4).

After the swings are judged (:mod:`engine.declare.judge`), failed swings are struck out (Rule
A, ``next_best_in_that_direction``) or have the share they would have won re-routed to the
player who beat them (Rule B, ``player_who_beat_swing``). Only then are the halves split, the
odd chip between them going to the high half (§3.10, or to a quartered low with
``odd_chip_between_halves = 'low_if_low_quartered'``), and ties inside a half split by the
table's tie order by :func:`engine.awards.award_direction`. Chips are ints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine._compiled import by_fields
from engine.awards import AwardTable, and_list, award_direction, divide, odd_chips
from engine.declare.judge import (
    DIRECTIONS,
    HIGH,
    KEEPS_HIGH,
    KEEPS_LOW,
    LOW,
    SWING,
    Reading,
    Verdict,
    declarers,
    describe,
    other,
)
from engine.evaluate import Rank
from ledger.model.events import DeclareOptions

RULE_B = "player_who_beat_swing"

#: (direction he lost, the players his share goes to)
Route = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Share:
    """One share of a pot to divide by declaration.

    ``amount``: chips; ``eligible``: the pot's players, seat order; ``declarations``: player
    -> ``high`` | ``low`` | ``swing``; ``reading`` / ``verdicts``: from
    :mod:`engine.declare.judge`; ``forfeited``: swings of this pot that failed in another pot
    or run under ``swing_failure_scope = 'whole_hand'`` (RULES.md §3.9); ``failed_where``:
    ``(player, where)`` pairs saying where each of them failed (``"in run 2"``, ``"in the
    main pot"``), ``"in another pot"`` for one not named; ``mucked``: the players who could
    have won this pot and mucked (RULES.md §1.5), ``folded`` those who declared and folded
    after (RULES.md §3.4), neither among ``eligible``.
    """

    amount: int
    eligible: tuple[str, ...]
    declarations: Mapping[str, str]
    reading: Reading
    verdicts: Mapping[str, Verdict]
    forfeited: frozenset[str] = frozenset()
    failed_where: tuple[tuple[str, str], ...] = ()
    mucked: tuple[str, ...] = ()
    folded: tuple[str, ...] = ()

    @property
    def failed(self) -> list[str]:
        """Swings with no claim on this share: failed here, or forfeited elsewhere."""
        return [s for s, v in self.verdicts.items() if v.failed or s in self.forfeited]

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


@dataclass(frozen=True)
class Divided:
    """What :func:`divide_share` decided: ``awards`` player -> chips (no zeros), ``carried``
    odd chips left for the next hand (tie order ``carry_to_next_hand``), ``sentences`` in
    plain English, and ``nobody_left`` (RULES.md §3.8: nobody can win by declaration; the
    caller applies ``no_eligible_winner``, ``awards`` is then empty)."""

    awards: dict[str, int]
    carried: int
    sentences: tuple[str, ...]
    nobody_left: bool = False

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def divide_share(table: AwardTable, share: Share, options: DeclareOptions) -> Divided:
    """Divide ``share`` by the declarations (RULES.md §3.5–3.7, §3.10; §5 steps 3–4).

    ``table``: the :mod:`engine.awards` table whose game ranks high/low like a hi-lo game, its
    split options carrying the declare low method, qualifier and odd-chip rule, and the tie
    order. Raises ValueError only as :mod:`engine.awards` does (a winner missing from the
    order from the button).
    """
    where = dict(share.failed_where)
    sentences = [
        describe(v, share.reading, options.swing_ties)
        if v.failed or s not in share.forfeited
        else (f"{s}'s swing failed {where.get(s, 'in another pot')}, so under whole_hand {s} "
              "forfeits this one.")
        for s, v in share.verdicts.items()
    ]
    absent = [p for p in share.reading.no_low if p not in share.verdicts]
    if absent:
        verb = "has" if len(absent) == 1 else "have"
        sentences.append(f"{and_list(absent)} {verb} no qualifying low and so no part in the low.")
    routes = _routes(share, options)
    sentences += _failure_sentences(share, routes, options)
    contestants = _contestants(share, routes)
    if not any(contestants.values()):
        return Divided({}, 0, tuple(sentences), nobody_left=True)
    won, kept, text = _divide(table, share, contestants, routes, options)
    return Divided({p: c for p, c in won.items() if c}, kept, tuple(sentences + text))


def _best(names: list[str], ranks: Mapping[str, Rank]) -> tuple[str, ...]:
    top = max(ranks[q] for q in names)
    return tuple(q for q in names if ranks[q] == top)


def _routes(share: Share, options: DeclareOptions) -> dict[str, Route]:
    """Rule B (RULES.md §3.7, §7.3): a swing that failed by *losing* one way passes the share
    he would have won the other way to the best of those who beat him. Failing by a tie, or
    losing both ways (no share to pass), falls back to Rule A. Under whole_hand a forfeited
    swing cannot receive."""
    if options.failed_swing_share_goes_to != RULE_B:
        return {}
    routes: dict[str, Route] = {}
    for s in share.failed:
        lost = share.verdicts[s].lost
        if len(lost) != 1:
            continue
        (direction,) = lost
        takers = [q for q in share.verdicts[s].better[direction] if q not in share.forfeited]
        if takers:
            routes[s] = (direction, _best(takers, share.reading.ranks(direction)))
    return routes


def _failure_sentences(
    share: Share, routes: Mapping[str, Route], options: DeclareOptions
) -> list[str]:
    struck = [s for s in share.failed if s not in routes]
    if not struck:
        return []
    if options.failed_swing_share_goes_to != RULE_B:
        verb = "is" if len(struck) == 1 else "are"
        return [f"Rule A: {and_list(struck)} {verb} struck out and each half goes to the best "
                f"remaining declarer in that direction."]
    out = []
    for s in struck:
        lost = share.verdicts[s].lost
        if not lost and not share.verdicts[s].failed:
            why = f"nobody beat {s} here; {s} forfeits for another pot"
        elif not lost:
            why = f"nobody beat {s}"
        elif len(lost) == 2:
            why = f"{s} lost both ways, so had no share to pass on"
        else:
            why = f"everyone who beat {s} has forfeited"
        out.append(f"Rule B cannot apply to {s} ({why}), so Rule A does: {s} is struck out.")
    return out


def _contestants(share: Share, routes: Mapping[str, Route]) -> dict[str, dict[str, Rank]]:
    """Direction -> the hands still playing for that half (RULES.md §5 step 3)."""
    struck = {s for s in share.failed if s not in routes}
    kept_only = {KEEPS_HIGH: LOW, KEEPS_LOW: HIGH}  # outcome -> the direction he is out of
    out: dict[str, dict[str, Rank]] = {}
    for d in DIRECTIONS:
        out[d] = {
            p: rank
            for p, rank in share.reading.ranks(d).items()
            if p not in struck
            and (p not in routes or routes[p][0] != d)
            and (p not in share.verdicts or kept_only.get(share.verdicts[p].outcome) != d)
        }
    return out


def _nobody_declared(share: Share, direction: str) -> str:
    """Why no player of the pot plays for ``direction``: nobody declared it, or those who did
    (or declared swing) mucked (RULES.md §1.5) or folded after declaring (§3.4): ``Nobody who
    declared low showed a hand (Ann mucked)``, ``Nobody who declared low or swing is still in
    the hand (Ann mucked, P3 folded)``; or those who did are all-in for less, out of this side
    pot (§1.6): ``Nobody in this pot declared low (P1 declared low but is not in it)``."""
    def way(players: tuple[str, ...]) -> list[str]:
        return [p for p in players if share.declarations.get(p) in (direction, SWING)]

    mucked, folded = way(share.mucked), way(share.folded)
    if not mucked and not folded:
        placed = {*share.eligible, *share.mucked, *share.folded}
        outside = way(tuple(p for p in share.declarations if p not in placed))
        if not outside:
            return f"Nobody declared {direction}"
        said = " or ".join(d for d in (direction, SWING)
                           if any(share.declarations[p] == d for p in outside))
        verb = "is" if len(outside) == 1 else "are"
        return (f"Nobody in this pot declared {direction} ({and_list(outside)} declared "
                f"{said} but {verb} not in it)")
    said = f"{direction} or swing" if any(share.declarations[p] == SWING
                                          for p in [*mucked, *folded]) else direction
    gone = ", ".join(f"{and_list(names)} {verb}" for names, verb in
                     ((mucked, "mucked"), (folded, "folded")) if names)
    where = "is still in the hand" if folded else "showed a hand"
    return f"Nobody who declared {said} {where} ({gone})"


def _winners(ranks: Mapping[str, Rank]) -> set[str]:
    top = max(ranks.values())
    return {p for p, r in ranks.items() if r == top}


def _divide(
    table: AwardTable,
    share: Share,
    contestants: Mapping[str, dict[str, Rank]],
    routes: Mapping[str, Route],
    options: DeclareOptions,
) -> tuple[dict[str, int], int, list[str]]:
    amount = share.amount
    high, low = contestants[HIGH], contestants[LOW]
    if not high or not low:
        d = HIGH if high else LOW
        empty = other(d)
        if declarers(share.eligible, share.declarations, empty):
            why = f"No {empty} declarer is left"
        else:
            why = _nobody_declared(share, empty)
        won, kept, text = _pay(table, share, d, contestants[d], amount, "", routes)
        return won, kept, [f"{why}, so the {d} declarers play for the whole pot.", *text]
    if _winners(high) == _winners(low):
        names = sorted(_winners(high), key=share.eligible.index)
        verb = "wins" if len(names) == 1 else "win"
        won, kept, text = _pay(table, share, HIGH, high, amount, "", routes)
        return won, kept, [f"{and_list(names)} {verb} both ways, so the pot is not halved.", *text]
    high_half, low_half = divide(amount, 2, table.split.smallest_chip)
    if high_half == low_half:
        note = "Split high/low."
    elif (options.odd_chip_between_halves == "low_if_low_quartered"
          and len(_winners(high)) == 1 and len(_winners(low)) > 1):
        high_half, low_half = low_half, high_half
        note = "Split high/low, the odd chip to the low half (high won alone, low quartered)."
    else:
        note = "Split high/low, the odd chip to the high half."
    won, kept, text = _pay(table, share, HIGH, high, high_half, f"High {high_half}: ", routes)
    low_won, low_kept, low_text = _pay(
        table, share, LOW, low, low_half, f"Low {low_half}: ", routes
    )
    for p, chips in low_won.items():
        won[p] = won.get(p, 0) + chips
    return won, kept + low_kept, [note, *text, *low_text]


def _pay(
    table: AwardTable,
    share: Share,
    direction: str,
    ranks: Mapping[str, Rank],
    amount: int,
    what: str,
    routes: Mapping[str, Route],
) -> tuple[dict[str, int], int, list[str]]:
    """Give ``amount`` to the best of ``ranks`` (ties by the table's tie order), then pass a
    Rule-B swing's chips on to the players who beat him: the award line names who is paid
    (``High 24: P3 is paid the 24 by Rule B, in place of P1 (three of a kind, …), whose swing
    failed.``), the Rule B line why."""
    won, kept, text = award_direction(table, ranks, amount, low=direction == LOW, what=what)
    won = dict(won)
    alone = len(won) == 1
    for s in [p for p in won if p in routes and won[p]]:
        chips = won.pop(s)
        lost, takers = routes[s]
        lost_ranks = share.reading.ranks(lost)
        got, more, _ = award_direction(
            table, {q: lost_ranks[q] for q in takers}, chips, low=lost == LOW, what=""
        )
        for q, c in got.items():
            won[q] = won.get(q, 0) + c
        kept += more
        paid_to = [q for q, c in got.items() if c] or list(takers)
        paid = paid_to[0] if len(paid_to) == 1 else and_list([f"{q} ({got[q]})" for q in paid_to])
        extra = f", {odd_chips(more, table.split.smallest_chip)} carried" if more else ""
        verb = "is" if len(paid_to) == 1 else "are"
        if alone:  # "P1 wins 24" named who is not paid
            text[0] = (f"{what}{paid} {verb} paid the {chips} by Rule B, in place of {s} "
                       f"({ranks[s].label}), whose swing failed.")
        else:  # a tie: the swing's part of it goes on
            text[0] = f"{text[0][:-1]}; {s}'s {chips} {verb} paid to {paid} by Rule B."
        text.append(f"Rule B: {s}'s swing failed, so those {chips} go to {paid}, who beat {s} "
                    f"for {lost}{extra}.")
    return won, kept, text
