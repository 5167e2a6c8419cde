"""A hand that is over, as ``state`` shows it (:func:`replay.live.now`): its pots explained as
``show`` ends, what the table paid, and what each player has after it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.state import HandState


@dataclass(frozen=True)
class Ended:
    """A hand that is over (complete, voided, or a log that stops before its end): every pot
    explained in the words ``show`` ends with (:meth:`replay.steps.Step.explanation`),
    what the table pushed to each player (``paid``: its recorded payouts and returns, chips;
    None when it recorded none), each payout that differs from the rules in a sentence, and
    ``stacks``: what each player has after the hand, chips (his starting stack plus the
    books' net, :attr:`replay.hand_replay.HandReplay.paid_net`: what the table paid him, the rules'
    result when it recorded no payouts, every chip back for a voided hand; README, "Net has
    one meaning everywhere")."""

    explanation: tuple[str, ...]
    paid: dict[str, int] | None
    differences: tuple[str, ...]
    stacks: dict[str, int]
    #: complete with no payout recorded and a showdown that cannot be read: no pot is
    #: awarded, by the table or the rules (:func:`cannot_award`)
    unawarded: bool = False


def cannot_award(state: HandState, result: Any) -> bool:
    """Whether a hand ``state`` (settled as ``result``, :func:`engine.settle.settle`) is
    complete with no payout recorded and a showdown that cannot be read (cards not all shown,
    ``result.verifiable`` false): then neither the table nor the rules award a pot, and the
    stacks count only the uncalled chips returned (README, Rules: "showdown not verifiable").
    ``show`` and ``state`` both say so from this test."""
    return state.status == "complete" and not state.payouts and not result.verifiable


def pots_explained(pots: Any) -> list[str]:
    """Every pot of ``pots`` (:class:`engine.awards.PotAward`, as the rules award them: a
    raked hand's less its rake) in the words ``show`` explains it with
    (:meth:`replay.steps.Step.explanation`); a pot not awarded reads ``Main pot: AMOUNT
    (ELIGIBLE, ...)`` (``Side pot N: …``, :func:`engine.awards.pot_name`). Chips."""
    from engine.awards import pot_name

    return [line for pot in pots
            for line in pot.lines or (f"{pot_name(pot.index)}: {pot.amount} "
                                      f"({', '.join(pot.eligible)})",)]


def rules_pay(state: HandState, result: Any) -> tuple[str, ...]:
    """What the rules pay a hand in play once its cards decide it: at its showdown (every
    declaration made, RULES.md §3; two players or more not folded, not a hand won by a fold:
    a player who mucked at the showdown counts, his muck gives up the pots, §1.5), no payout
    recorded yet, and its pots verifiable (every
    hand that contests one shown or mucked, RULES.md §1.6): its pots (less the rake typed,
    :func:`replay.raked_pots.rules_pots`) as ``show`` explains them (:func:`pots_explained`),
    for the host to type as ``pay PLAYER AMOUNT``; ``()`` otherwise. ``result``:
    :func:`engine.settle.settle` of ``state``."""
    if (state.status != "open" or state.phase != "showdown" or state.payouts
            or len(state.players) - len(state.folded) < 2 or not result.verifiable
            or not result.pots):
        return ()
    raked = None
    if state.rake:  # `rake AMOUNT` typed: the pots less it, as `end` will hold them
        from replay.raked_pots import rules_pots

        raked = rules_pots(state, result, state.started)
    return tuple(pots_explained(raked or result.pots))


def ended(state: HandState, result: Any) -> Ended:
    """:class:`Ended` of a hand that is over: ``state`` after its last event (corrections
    applied), ``result`` its settlement (:func:`engine.settle.settle`)."""
    from replay.fold import replay_folded

    replayed = replay_folded(state, state.started)
    lines: list[str] = []
    if state.status == "complete":  # as `show` explains the pots of its last step
        # a raked hand's split after the rake
        lines.extend(pots_explained(replayed.raked or result.pots))
        if result.returned:
            lines.append("uncalled returned: " + ", ".join(
                f"{p} {c}" for p, c in result.returned.items()))
    lines.extend(f"note: {note}" for note in result.notes)
    # paid the pots less the rake: as the rules give, the rake kept said in a note
    lines.extend(f"note: {d.sentence()}" for d in replayed.rake_kept)
    net = replayed.paid_net
    return Ended(explanation=tuple(lines),
                 paid=None if state.status != "complete" else replayed.recorded,
                 differences=tuple(d.sentence() for d in replayed.differences),
                 stacks={p: result.starting[p] + net[p] for p in result.players},
                 unawarded=cannot_award(state, result))
