"""Pots derived from contributions, never stored (RULES.md §1.2–1.6).

A hand's pots follow from what each player put in and who has not folded: take back the
uncalled part of a unique top contribution (§1.4), then layer the rest at the contribution
levels of the players still in (§1.2). Folded players' chips stay in every layer they reach as
dead money (§1.3), and a player who folded is eligible for no pot (§1.5). Chips are ints.
While the betting goes on, :func:`standing_pots` names the same chips as the table does: a
player who can still put chips in is eligible for every pot, and only an all-in caps one.

>>> contributions, returned = return_uncalled({"a": 30, "b": 180, "c": 80, "d": 30})
>>> returned
{'b': 100}
>>> layer_pots(contributions, ["a", "b"])
[Pot(amount=120, eligible=('a', 'b')), Pot(amount=100, eligible=('b',))]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine._compiled import by_fields

__all__ = ["Pot", "claimed", "layer_pots", "layers", "return_uncalled", "standing_pots",
           "uncalled"]


@dataclass(frozen=True)
class Pot:
    """One pot: ``amount`` in chips (> 0) and the players who can win it, in seat order
    (not folded, and put in at least this pot's level). Index 0 of a list is the main pot."""

    amount: int
    eligible: tuple[str, ...]

    # Written out, as engine.awards.PotAward's: compiled, object.__setattr__ here is a direct
    # store (the frozen dataclass's generated __init__ stays interpreted: 270 ns a pot).
    def __init__(self, amount: int, eligible: tuple[str, ...]) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def _check(contributions: Mapping[str, object]) -> None:  # object: checked here, not trusted
    for player, chips in contributions.items():
        if not isinstance(chips, int) or chips < 0:
            raise ValueError(f"{player} contributed {chips!r}: chips are ints >= 0")


def return_uncalled(
    contributions: Mapping[str, int],
) -> tuple[dict[str, int], dict[str, int]]:
    """Give back the part of a bet nobody matched (RULES.md §1.4).

    ``contributions``: player -> chips put in this hand (antes, blinds, bring-in and bets;
    folded players included, because their chips matched that far), in seat order.

    Returns ``(after, returned)``: the contributions after the refund (same players, same
    order) and ``{player: chips}`` given back — empty, or one player whose contribution is
    strictly the highest, refunded ``top - second_highest``.

    >>> return_uncalled({"p1": 1, "p2": 7, "p5": 56, "p4": 41})
    ({'p1': 1, 'p2': 7, 'p5': 41, 'p4': 41}, {'p5': 15})

    Raises:
        ValueError: a contribution is not an int >= 0.
    """
    _check(contributions)
    after = dict(contributions)
    returned = uncalled(after)
    for player, chips in returned.items():
        after[player] -= chips
    return after, returned


def uncalled(contributions: Mapping[str, int]) -> dict[str, int]:
    """:func:`return_uncalled`'s ``returned`` alone, of contributions already known to be
    ints >= 0 (a hand's own, as :mod:`engine.settle` reads them): ``{player: chips}``."""
    if not contributions:
        return {}
    ordered = sorted(contributions.values(), reverse=True)
    top = ordered[0]
    second = ordered[1] if len(ordered) > 1 else 0
    if top == second:
        return {}
    player = next(p for p, chips in contributions.items() if chips == top)
    return {player: top - second}


def layer_pots(contributions: Mapping[str, int], live: Sequence[str]) -> list[Pot]:
    """Layer the contributions into the main pot and side pots (RULES.md §1.2, §1.3, §1.5).

    ``contributions``: player -> chips, in seat order, after :func:`return_uncalled`;
    ``live``: the players who have not folded, in seat order (a live player missing from
    ``contributions`` put in 0).

    For each distinct contribution level ``L`` of the live players, ascending, the layer takes
    ``min(c, L) - min(c, L_prev)`` from every player, folded or not; its eligible players are
    the live players with ``c >= L``. Chips above the top live level (dead money a folded
    player put in beyond every live player, possible only without a refund) go into the top
    pot, so ``sum(pot.amount) == sum(contributions)``. Returns the main pot first; no pot is
    empty. Never merges pots (§1.6).

    Raises:
        ValueError: a contribution is not an int >= 0, ``live`` repeats a player, or chips were
            put in but nobody is live.
    """
    _check(contributions)
    if len(set(live)) != len(live):
        raise ValueError(f"live players repeat: {list(live)}")
    return layers(contributions, live)


def layers(contributions: Mapping[str, int], live: Sequence[str]) -> list[Pot]:
    """:func:`layer_pots` of contributions already known to be ints >= 0 and distinct live
    players (a hand's own, as :mod:`engine.settle` reads them).

    Raises:
        ValueError: chips were put in but nobody is live.
    """
    total = sum(contributions.values())
    if not live:
        if total:
            raise ValueError(f"{total} chips in the pot but every player folded")
        return []
    if len(live) == 1:  # one player left: every chip is his one pot (the layers below agree)
        return [Pot(total, tuple(live))] if total else []
    levels = sorted({contributions.get(p, 0) for p in live} - {0})
    if not levels:
        # only dead money (e.g. antes of folded players) and nobody live put anything in
        return [Pot(total, tuple(live))] if total else []
    pots: list[Pot] = []
    below = 0  # the chips up to the previous level, from every player
    for level in levels:
        upto = sum(c if c < level else level for c in contributions.values())
        eligible = tuple(p for p in live if contributions.get(p, 0) >= level)
        pots.append(Pot(upto - below, eligible))
        below = upto
    above = total - below
    if above:
        pots[-1] = Pot(pots[-1].amount + above, pots[-1].eligible)
    return pots


def claimed(pots: Sequence[Pot], mucked: Sequence[str]) -> list[Pot]:
    """The layers of the players who did not fold, mucked hands among them (``pots``, main pot
    first), each given to the players who still claim it: a player who mucks at the showdown
    gives up every pot another player still contests (RULES.md §1.5), but a pot whose every
    player mucked stays with the last of them to muck (``mucked``, in the order they mucked),
    who was then alone in it (§1.6: a pot with a single eligible player goes to him). It is
    never given to a player who cannot win it: an all-in wins from each opponent at most what
    he put in, whoever mucks above him (§1.2). Neighbouring pots with the same players are one
    pot, as the layers of the players still in make them.

    >>> claimed([Pot(300, ("a", "b", "c")), Pot(100, ("a", "b"))], ["b", "a"])
    [Pot(amount=300, eligible=('c',)), Pot(amount=100, eligible=('a',))]
    >>> claimed([Pot(90, ("a", "b", "c")), Pot(40, ("a", "c"))], ["b"])
    [Pot(amount=130, eligible=('a', 'c'))]
    """
    return [pot for pot, _ in claims(pots, mucked)]


def claims(pots: Sequence[Pot], mucked: Sequence[str]) -> list[tuple[Pot, tuple[str, ...]]]:
    """:func:`claimed`'s pots, each with the players who could have won it and mucked, in the
    order they mucked (none: nobody gave it up; RULES.md §1.5), what its award says.

    >>> claims([Pot(300, ("a", "b", "c")), Pot(100, ("a", "b"))], ["b", "a"])
    [(Pot(amount=300, eligible=('c',)), ('b', 'a')), (Pot(amount=100, eligible=('a',)), ('b',))]
    """
    out: list[tuple[Pot, tuple[str, ...]]] = []
    for pot in pots:
        left = tuple(p for p in pot.eligible if p not in mucked)
        if not left:
            left = (max(pot.eligible, key=mucked.index),)
        gave = tuple(p for p in mucked if p in pot.eligible and p not in left)
        if out and out[-1][0].eligible == left:
            was, gave_before = out[-1]
            more = tuple(p for p in gave if p not in gave_before)
            out[-1] = (Pot(was.amount + pot.amount, left), gave_before + more)
        else:
            out.append((Pot(pot.amount, left), gave))
    return out


def standing_pots(pots: Sequence[Pot], live: Sequence[str], free: Collection[str]) -> list[Pot]:
    """The pots of a hand whose betting goes on, as the table names them (RULES.md §1.2).

    ``pots``: the layers of what was put in so far (:func:`layer_pots`, nothing returned yet:
    a bet may still be called), main pot first; ``live``: the players who have not folded, in
    seat order; ``free``: those of them who can still put chips in (not all-in).

    A layer's level caps only an all-in player: a free player can still match any amount, so
    he is eligible for every pot; an all-in player stays eligible for the layers up to what he
    put in. Neighbouring layers with the same eligible players are then one pot. So after the
    blinds there is one pot for everybody, and a side pot appears only above an all-in that a
    free player has covered or raised. Chips put in above what anyone has matched yet are in
    the top pot of the players who can still match them; if nobody does, they go back to the
    bettor as uncalled once the betting is over (§1.4, :func:`return_uncalled`).
    ``sum(pot.amount)`` is unchanged. At the end of the betting the pots are :func:`layer_pots`
    again and are never merged (§1.6).

    >>> layers = layer_pots({"a": 100, "b": 2, "c": 6}, ["a", "b", "c"])  # a all-in for 100
    >>> [(p.amount, p.eligible) for p in layers]
    [(6, ('a', 'b', 'c')), (8, ('a', 'c')), (94, ('a',))]
    >>> standing_pots(layers, ["a", "b", "c"], {"b", "c"})
    [Pot(amount=108, eligible=('a', 'b', 'c'))]
    >>> standing_pots(layer_pots({"a": 100, "b": 300, "c": 6}, ["a", "b", "c"]),
    ...               ["a", "b", "c"], {"b", "c"})
    [Pot(amount=206, eligible=('a', 'b', 'c')), Pot(amount=200, eligible=('b', 'c'))]
    """
    merged: list[Pot] = []
    for pot in pots:
        eligible = tuple(p for p in live if p in free or p in pot.eligible)
        if merged and merged[-1].eligible == eligible:
            merged[-1] = Pot(merged[-1].amount + pot.amount, eligible)
        else:
            merged.append(Pot(pot.amount, eligible))
    return merged
