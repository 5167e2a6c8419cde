"""Compare what the table paid with what the engine recomputes; differences are values.

Per player, the recorded amount is everything the table pushed to him (pots won plus any
uncalled bet returned) and the recomputed amount is awards plus returned chips. When the
showdown cannot be computed (unknown hole cards), the recorded payouts are checked for
feasibility instead (README, "Unknown hole cards"): the total paid equals the pots plus the
returned chips, and each player is paid no more than the pots he is eligible for plus his own
returned chips.
A feasible hand is marked "showdown not verifiable" — never silently accepted.
Chips the table recorded as returned to a player (``returned`` payouts) beyond his uncalled
bet are a difference too, of kind ``returned``, even when his total is right
(:func:`returned_beyond_uncalled`, RULES.md §1.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.settle import HandResult


@dataclass(frozen=True)
class Discrepancy:
    """One difference between the table and the engine, in chips.

    ``diff`` = recorded − recomputed (positive: the player was paid too much).
    ``kind``: ``payout`` (a recomputed award differs), ``infeasible`` (an unverifiable
    showdown paid in a way no legal split allows) or ``returned`` (chips recorded as returned
    beyond the player's uncalled bet: ``recorded`` those chips, ``recomputed`` the bet).
    """

    hand: str
    player: str
    recorded: int
    recomputed: int
    kind: str = "payout"
    message: str = ""

    @property
    def diff(self) -> int:
        return self.recorded - self.recomputed

    @property
    def named(self) -> str | None:
        """The player the finding names where it is shown (``replay --json``, the
        ``discrepancies`` table, ``view``'s data): ``player``, but None for a finding of the
        whole table (``"*"``: a ``rake``, an ``infeasible`` total, a ``carry``), as ``audit``
        names it (README: a finding that concerns no one player names none)."""
        return None if self.player == "*" else self.player

    def sentence(self) -> str:
        if self.message:
            return self.message
        return (
            f"hand {self.hand}: {self.player} was paid {self.recorded}, the rules give "
            f"{self.recomputed} ({self.diff:+d})"
        )


#: ``replay``'s note on a hand whose showdown the rules cannot check, and the words
#: ``whatif``, ``correct`` and the page of ``view`` say it with (README, "Unknown hole cards").
NOT_VERIFIABLE = "showdown not verifiable: hole cards unknown"
#: The note of a hand whose payouts were not recorded (``end`` at once, a file without
#: winnings): the rules' awards count, so it is no dispute (README "run").
NO_PAYOUTS = "no recorded payouts"


def recomputed_payouts(result: HandResult) -> dict[str, int]:
    """Chips the engine says each player takes back from the middle: awards + returned."""
    awards, returned = result.awards, result.returned
    return {p: awards[p] + returned.get(p, 0) for p in result.players}


def compare_payouts(
    result: HandResult, recorded: dict[str, int] | None, rake: int | None = None
) -> tuple[list[Discrepancy], list[str]]:
    """Return ``(discrepancies, notes)`` for one hand (``rake``: the one recorded at the
    table, chips, None when none).

    No recorded payouts → no discrepancies and the note "no recorded payouts". Chips carried
    to the session's next hand (:func:`carried_on`) not yet recorded so are a note; chips a
    ``carry_over`` records other than the rules carry are a ``carry`` difference, saying when
    they and the payouts together come to more than went in (RULES.md §2.2, §3.8, §7.1).
    """
    notes: list[str] = []
    if result.status in ("voided", "incomplete"):
        return [], notes
    if not result.verifiable:
        notes.append(NOT_VERIFIABLE)
        if recorded is None:
            notes.append(NO_PAYOUTS)
            return [], notes
        return _feasibility(result, recorded), notes
    carried, carried_out = result.carried, result.carried_out
    left = carried_on(result, recorded, rake)
    if left and not carried_out:
        notes.append(f"{left} chip(s) carried to the session's next hand (not yet claimed)")
    if carried and left < carried and carried_out in (0, left):
        notes.append(f"the table paid out {carried - left} of the {carried} chip(s) the rules "
                     "carry to the session's next hand: only what it left is carried "
                     "(RULES.md §2.2, §3.8, §7.1)")
    out: list[Discrepancy] = []
    if carried_out and carried_out != carried:
        paid = sum(recorded.values()) if recorded else 0
        beyond = paid + (rake or 0) + carried_out - pot_in(result)
        over = (f"; with the {paid} the table paid, {beyond} more than the {pot_in(result)} "
                "chips that went in") if beyond > 0 else ""
        out.append(Discrepancy(
            result.hand, "*", carried_out, carried, "carry",
            f"hand {result.hand}: {carried_out} chip(s) were carried to the next "
            f"hand, the rules carry {carried}{over}"))
        if not paid:
            return out, notes
    mine = recomputed_payouts(result)
    if recorded is None:
        if any(mine.values()):
            notes.append(NO_PAYOUTS)
        return out, notes
    # mine holds every player: a difference is a player whose recorded total is not his due
    return [*out, *(Discrepancy(result.hand, p, recorded.get(p, 0), due)
                    for p, due in mine.items() if recorded.get(p, 0) != due)], notes


def pot_in(result: HandResult) -> int:
    """Every chip that went into the middle of the hand ``result`` settles: what each player
    put in (before refunds) plus the chips carried in (RULES.md §1.2, §7.1)."""
    return sum(result.contributions.values()) + result.carried_in


def carried_on(result: HandResult, recorded: dict[str, int] | None, rake: int | None = None
               ) -> int:
    """The chips the hand ``result`` settles leaves in the middle for the session's next hand
    (RULES.md §2.2, §3.8, §7.1), before any ``carry_over`` records them: what the rules carry
    (``result.carried``; a voided or incomplete hand's, the chips carried into it), less
    whatever of them the table paid out: with ``recorded`` payouts (chips per player, or None:
    none recorded) and a ``rake`` recorded at the table, only what they leave of the chips
    that went in (:func:`pot_in`) can be carried, so a pot paid out is never carried as well.
    A voided or incomplete hand's payouts count for nothing (every contribution goes back)."""
    carried = result.carried
    if not carried or recorded is None or result.status in ("voided", "incomplete"):
        return carried
    left = pot_in(result) - sum(recorded.values()) - (rake or 0)
    return max(0, min(carried, left))


def most_can_win(result: HandResult, player: str) -> int:
    """The most chips ``player`` can be paid out of the hand ``result`` settles: the whole of
    every pot he is eligible for plus the uncalled bet returned to him (RULES.md §1.2-1.5).
    Over every pot and run, so a bound for run it twice, a hi-lo split and a declaration."""
    cap = sum(pot.amount for pot in result.pots if player in pot.eligible)
    return cap + result.returned.get(player, 0)


def _feasibility(result: HandResult, recorded: dict[str, int]) -> list[Discrepancy]:
    out: list[Discrepancy] = []
    total_due = sum(p.amount for p in result.pots) + sum(result.returned.values())
    total_paid = sum(recorded.values())
    for p in result.players:
        cap = most_can_win(result, p)
        paid = recorded.get(p, 0)
        if paid > cap:
            out.append(
                Discrepancy(
                    result.hand,
                    p,
                    paid,
                    cap,
                    "infeasible",
                    f"hand {result.hand}: {p} was paid {paid} but can win at most {cap}",
                )
            )
    if not out and total_paid == total_due:
        out.extend(_no_legal_split(result, recorded))
    if total_paid != total_due:
        out.append(
            Discrepancy(
                result.hand,
                "*",
                total_paid,
                total_due,
                "infeasible",
                f"hand {result.hand}: the table paid {total_paid} in all but the pots and "
                f"returned chips come to {total_due} ({total_paid - total_due:+d})",
            )
        )
    return out


def _no_legal_split(result: HandResult, recorded: dict[str, int]) -> list[Discrepancy]:
    """The payouts add up, but can they be a legal split of the pots? (replay.feasible)"""
    if legal_split(result, recorded) is not False:
        return []
    return [
        Discrepancy(
            result.hand,
            "*",
            sum(recorded.values()),
            sum(recorded.values()),
            "infeasible",
            f"hand {result.hand}: no legal split of the pots pays what the table paid "
            f"({', '.join(f'{p} {c}' for p, c in recorded.items() if c)})",
        )
    ]


def legal_split(result: HandResult, recorded: dict[str, int]) -> bool | None:
    """Whether ``recorded`` (chips per player, uncalled bets returned included) is a legal
    split of the pots of ``result``, a showdown it could not award whole (unknown cards): the
    pots it awarded as awarded, each other pot whole to one eligible player or evenly to
    those who tie, in halves in a hi-lo game (RULES.md §2.1, §2.3; :mod:`replay.feasible`).
    None when the search was cut off undecided."""
    from replay.feasible import split_exists

    need = {p: recorded.get(p, 0) - result.returned.get(p, 0) for p in result.players}
    open_pots = []
    for pot in result.pots:
        if pot.verifiable:
            for p, c in pot.awards.items():
                need[p] -= c
        else:
            open_pots.append((pot.amount, pot.eligible))
    return split_exists(open_pots, need, hilo=is_hilo(result), chip=result.smallest_chip)


def is_hilo(result: HandResult) -> bool:
    """Whether the pots of ``result`` are split high and low: a hi-lo game's, or a declare
    hand's (RULES.md §2.3, §3)."""
    from engine.games import game

    return result.declarations != {} or game(result.game).hilo


def returned_beyond(result: HandResult, payouts: Iterable[Any]) -> dict[str, int]:
    """``{player: chips}``: the chips ``payouts`` (``RecordedPayout`` events) mark as returned
    to each player whose total of them is above his uncalled bet in ``result`` (RULES.md §1.4:
    only the part of a bet nobody called is returned), in chips; empty when none is."""
    back: dict[str, int] = {}
    for payout in payouts:
        if payout.returned:
            back[payout.player] = back.get(payout.player, 0) + payout.amount
    return {p: c for p, c in back.items() if c > result.returned.get(p, 0)}


def returned_words(result: HandResult, player: str, back: int, verb: str = "is recorded as",
                   a: Callable[[int], str] = str) -> str:
    """The words naming ``back`` chips marked returned to ``player`` beyond his uncalled bet:
    ``"Ann has no uncalled bet, but 1 is recorded as returned to Ann (RULES.md §1.4: only a
    bet nobody called is returned)"``; ``verb`` how they came (``"would be"`` for a payout
    not yet recorded), ``a`` how an amount in chips is written."""
    bet = result.returned.get(player, 0)
    has = f"{player}'s uncalled bet is {a(bet)}" if bet else f"{player} has no uncalled bet"
    return (f"{has}, but {a(back)} {verb} returned to {player} (RULES.md §1.4: only a bet "
            "nobody "
            "called is returned)")


def returned_beyond_uncalled(result: HandResult, payouts: Iterable[Any]) -> list[Discrepancy]:
    """A ``returned`` :class:`Discrepancy` for each player ``payouts`` mark chips as returned
    to beyond his uncalled bet (:func:`returned_beyond`), of a complete hand (a voided or
    cut-off hand is not compared, an open one is checked as each payout is recorded)."""
    if result.status != "complete":
        return []
    return [Discrepancy(result.hand, p, chips, result.returned.get(p, 0), "returned",
                        f"hand {result.hand}: " + returned_words(result, p, chips))
            for p, chips in returned_beyond(result, payouts).items()]
