"""The pots of a raked hand as the rules award them once the rake is taken (README, "A home
game's rake"): the rake is the table's, taken from the pots before they are split, so a tie
for 18 raked 1 is 17 split 9 and 8 (RULES.md §2.1-2.2), not 9 each.

:func:`pots_less_rake` gives each pot less what the rake took from it, awarded as the rules
award it (ties, odd chips, a declare hand's halves), its sentences naming both amounts
(``Main pot 18, 17 after the rake of 1 (Ann, Bob): …``): what ``show``, ``view`` and
``replay``'s text explain, and what :func:`replay.rake.less_rake` adds up into each player's
due. Chips are ints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.awards import PotAward, pot_name


def pots_less_rake(state: Any, result: Any, rake: int, taken: Sequence[int] | None = None
                   ) -> tuple[PotAward, ...] | None:
    """The pots of the hand ``result`` settles (``state``: the engine's state that settled
    it), main pot first, each less the chips a rake of ``rake`` took from it and awarded
    (:func:`engine.settle.award`), as :class:`engine.awards.PotAward` (``amount``: the pot
    less its rake; ``index`` and its sentences as the whole pot's, the first sentence's head
    ``Main pot 18, 17 after the rake of 1 (Ann, Bob)``; a pot the rake took whole is
    ``Main pot 5: all 5 taken as the rake.``, no award). The rake comes out of the pots only,
    main pot first (an uncalled bet is returned, never raked: RULES.md §1.2-1.4), or as
    ``taken`` says (chips taken from each pot in the order of ``result.pots``:
    :func:`replay.rake.site_pot_rakes`). None when the hand cannot be so awarded: neither
    complete nor in play at its showdown (a declare hand's rake may be recorded while its
    players declare, before the declarations that award its pots, RULES.md §3;
    :func:`replay.rake.less_rake` asks only of a complete hand), voided, an unverifiable
    showdown, chips carried in or out, a rake above its pots, or a pot the rules carry."""
    from engine.pots import Pot
    from engine.settle import award, gave_up

    pots = result.pots
    before_showdown = result.status == "open" and state.phase != "showdown"
    if (result.status not in ("complete", "open") or before_showdown or not result.verifiable
            or result.carried or result.carried_in or result.carried_out
            or rake > sum(p.amount for p in pots)):
        return None
    left, takes = rake, []
    for k, pot in enumerate(pots):
        take = min(left, pot.amount) if taken is None else taken[k]
        left -= take
        takes.append(take)
    kept = [k for k, pot in enumerate(pots) if pot.amount > takes[k]]
    gave = gave_up(state, dict(result.returned), len(pots))  # who mucked each pot away
    awarded = award(state, [Pot(pots[k].amount - takes[k], pots[k].eligible) for k in kept],
                    [gave[k] for k in kept])
    if any(pot.carried or not pot.verifiable for pot in awarded):
        return None
    by_index = dict(zip(kept, awarded, strict=True))
    out = []
    for k, pot in enumerate(pots):
        name = pot_name(k)
        if k not in by_index:
            out.append(PotAward(k, 0, tuple(pot.eligible), {}, 0,
                                (f"{name} {pot.amount}: all {pot.amount} taken as the rake.",)))
            continue
        done = by_index[k]
        lines = list(done.lines)
        if takes[k]:
            # award() names the k-th pot it was given by its place among the kept ones
            was = f"{pot_name(kept.index(k))} {done.amount} ("
            now = f"{name} {pot.amount}, {done.amount} after the rake of {takes[k]} ("
            lines = [now + line[len(was):] if line.startswith(was) else line
                     for line in lines]
        out.append(PotAward(k, done.amount, done.eligible, dict(done.awards), 0, tuple(lines)))
    return tuple(out)


def rules_pots(state: Any, result: Any, started: Any) -> tuple[PotAward, ...] | None:
    """:func:`pots_less_rake` of the rake the hand ``result`` records (``state``: the engine's
    state that settled it; ``started``: its ``hand_started``): at the table (a
    ``recorded_rake``) or in its file (:func:`replay.rake.filed_rake`), taken from each pot
    as a site's summary says (:func:`replay.rake.site_pot_rakes`), else main pot first. None
    when it records no rake (or 0) or the rules cannot award its pots less it."""
    from replay.rake import filed_rake, site_pot_rakes

    live = state.rake is not None
    rake = state.rake if live else filed_rake(started)
    if not rake:
        return None
    taken = None if live else site_pot_rakes(started, result.pots, rake)
    return pots_less_rake(state, result, rake, taken)


def due_of(result: Any, pots: Sequence[PotAward]) -> dict[str, int]:
    """Each player's due of the hand ``result`` settles, its ``pots`` awarded less the rake
    (:func:`pots_less_rake`): his awards plus his returned uncalled bet, ``{player: chips}``
    in seat order."""
    due = {p: result.returned.get(p, 0) for p in result.players}
    for pot in pots:
        for player, chips in pot.awards.items():
            due[player] += chips
    return due
