"""Cards-speak awards: who wins each pot, ties, odd chips, high-low and run it twice.

RULES.md §1.6 (each pot on its own), §2.1–2.7 (ties, odd chips, quartering, qualifier, Omaha
and stud hi-lo), §4.5 and §7.4 (run it twice). Hands are ranked only through
:mod:`engine.evaluate`; declaration games (RULES.md §3) are a separate module. Chips are ints.
Every :class:`PotAward` carries ``lines``: plain sentences a home-game host can read back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine._compiled import by_fields
from engine.cards import UNKNOWN
from engine.evaluate import Rank, best_for_game, best_high, best_low, card_suit_key
from engine.games import Game
from engine.pots import Pot
from ledger.model.events import SplitOptions

__all__ = [
    "TIE_ORDERS",
    "AwardTable",
    "PotAward",
    "and_list",
    "award_direction",
    "award_pots",
    "award_share",
    "divide",
    "odd_chips",
    "pot_name",
    "split_evenly",
]

#: The odd-chip tie orders (RULES.md §2.2, §5 ``odd_chip_tie_order``).
TIE_ORDERS: Final = ("left_of_button", "card_by_suit", "carry_to_next_hand")
#: ``UNKNOWN`` as a Final name: compiled, a C static (a global is a dictionary lookup)
_UNKNOWN: Final = UNKNOWN


@dataclass(frozen=True)
class PotAward:
    """The award of one pot (RULES.md §1.6).

    ``index``: 0 = main pot, 1… = side pots. ``awards``: player -> chips from this pot (winners
    only); ``sum(awards.values()) + carried == amount`` whenever ``verifiable``. ``carried``:
    chips left for the next hand. ``lines``: who was eligible, who won with what, where each
    odd chip went, per run. ``verifiable``: False when a needed hand has unknown cards; then
    ``awards`` is empty and ``carried`` 0.
    """

    index: int
    amount: int
    eligible: tuple[str, ...]
    awards: dict[str, int]
    carried: int = 0
    lines: tuple[str, ...] = ()
    verifiable: bool = True

    # Written out, not generated: compiled, ``object.__setattr__`` here is a direct store (the
    # frozen dataclass's generated __init__ is interpreted: 660 ns for these seven fields, 30
    # ns this way, measured). The same fields, defaults and checks as the generated one.
    def __init__(self, index: int, amount: int, eligible: tuple[str, ...],
                 awards: dict[str, int], carried: int = 0, lines: tuple[str, ...] = (),
                 verifiable: bool = True) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "awards", awards)
        object.__setattr__(self, "carried", carried)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "verifiable", verifiable)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def divide(amount: int, parts: int, chip: int = 1) -> list[int]:
    """``amount`` chips cut into ``parts`` shares as evenly as possible down to the smallest
    chip in play, ``chip`` chips (RULES.md §2.1; ``SplitOptions.smallest_chip``), one odd chip
    each to the first shares: 11 in three is 4, 4, 3; 55 in three with a chip of 5 is 20, 20,
    15. Chips below one chip in play (an amount it does not divide) go with the odd chips, so
    no share gets more than one chip in play more than another. ``parts`` and ``chip`` >= 1.

    >>> divide(11, 3), divide(55, 3, 5), divide(57, 3, 5)
    ([4, 4, 3], [20, 20, 15], [20, 20, 17])
    """
    base = amount // (parts * chip) * chip
    left = amount - base * parts
    return [base + min(chip, max(0, left - i * chip)) for i in range(parts)]


def split_evenly(amount: object, winners_in_order: Sequence[str], chip: int = 1
                 ) -> dict[str, int]:
    """Divide ``amount`` chips as evenly as possible, one odd chip each to the first winners in
    the given order (RULES.md §2.1–2.2): 11 among three is 4, 4, 3; an odd chip is ``chip``
    chips, the smallest chip in play (:func:`divide`).

    >>> split_evenly(11, ["p3", "p1", "p2"])
    {'p3': 4, 'p1': 4, 'p2': 3}
    >>> split_evenly(55, ["p3", "p1", "p2"], 5)
    {'p3': 20, 'p1': 20, 'p2': 15}

    Raises:
        ValueError: no winners, a winner repeats, or ``amount`` is not an int >= 0 (typed
            ``object`` for that check: the compiled engine refuses an argument that is not
            of its annotated type before the body runs, engine/_compiled.py).
    """
    if not winners_in_order or len(set(winners_in_order)) != len(winners_in_order):
        raise ValueError(f"need distinct winners, got {list(winners_in_order)}")
    if not isinstance(amount, int) or amount < 0:
        raise ValueError(f"cannot split {amount!r} chips")
    shares = divide(amount, len(winners_in_order), chip)
    return {w: shares[i] for i, w in enumerate(winners_in_order)}


def odd_chips(chips: int, chip: int = 1) -> str:
    """``chips`` left over as odd chips in words: ``"2 odd chips"``; where the smallest chip
    in play is ``chip`` > 1 chips (RULES.md §2.1), ``"2 odd chips of 5 (10)"``."""
    count = -(-chips // chip)
    words = f"{count} odd chip{'s' if count > 1 else ''}"
    return words if chip == 1 else f"{words} of {chip} ({chips})"


def pot_name(index: int) -> str:
    """``"Main pot"`` for index 0, ``"Side pot N"`` for index N (RULES.md §1.2 step 5)."""
    return "Main pot" if index == 0 else f"Side pot {index}"


def and_list(names: Sequence[str]) -> str:
    """``'A'``, ``'A and B'``, ``'A, B and C'``: players named in a sentence of an award."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def alone_line(head: str, player: str, chips: int, gave_up: Sequence[str] = (),
               mucked: bool = False) -> str:
    """The award of a pot ``player`` alone is eligible for (RULES.md §1.6): ``"Main pot 300
    (Cy): Cy takes 300; nobody else is eligible."``; ``gave_up``: the players who could have
    won it and mucked (§1.5), named: ``"… Cy takes 300: Ann and Bob mucked, nobody else is
    eligible."``; ``mucked``: ``player`` mucked too, the last to (a pot nobody else can win
    stays with him: :func:`engine.pots.claimed`), ``"… Ann takes 100 (the last to muck): Bob
    mucked, …"``."""
    if not gave_up:
        return f"{head}: {player} takes {chips}; nobody else is eligible."
    last = " (the last to muck)" if mucked else ""
    return (f"{head}: {player} takes {chips}{last}: {and_list(gave_up)} mucked, nobody else "
            "is eligible.")


def with_mucks(pot: PotAward, gave_up: Sequence[str], mucked: Sequence[str]) -> PotAward:
    """``pot`` (one of :func:`award_pots`' or a declare award's) whose award names the
    players who gave it up by mucking (``gave_up``; ``mucked``: every player who mucked):
    :func:`alone_line` for a pot one player alone is eligible for; any other unchanged."""
    if not gave_up or len(pot.eligible) != 1 or not pot.lines:
        return pot
    (player,) = pot.eligible
    head = pot.lines[0].split(": ", 1)[0]
    line = alone_line(head, player, pot.amount, gave_up, player in mucked)
    return PotAward(pot.index, pot.amount, pot.eligible, dict(pot.awards), pot.carried,
                    (line, *pot.lines[1:]), pot.verifiable)


@dataclass(frozen=True)
class AwardTable:
    """What every award of one hand reads: the ``game`` (its ranking; declare awards pass it
    with ``evaluation='hilo8'``), ``hands`` (player -> his cards, ``'??'`` unknown), ``order``
    (players clockwise from the first seat left of the button; stud: seat order), the
    ``split`` options (low method and qualifier, odd chip between halves: RULES.md §2.3–2.5)
    and ``tie``, one of :data:`TIE_ORDERS` (RULES.md §2.2)."""

    game: Game
    hands: Mapping[str, Sequence[str]]
    order: Sequence[str]
    split: SplitOptions
    tie: str

    def __init__(self, game: Game, hands: Mapping[str, Sequence[str]], order: Sequence[str],
                 split: SplitOptions, tie: str) -> None:
        # written out, as PotAward's: compiled, a direct store for each field
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "tie", tie)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def award_pots(
    game: Game,
    pots: Sequence[Pot],
    hands: Mapping[str, Sequence[str]],
    boards: Sequence[Sequence[str]],
    order_from_button: Sequence[str],
    split: SplitOptions,
    tie_order: str | None = None,
) -> list[PotAward]:
    """Award every pot by cards speak, each on its own (RULES.md §1.6, §2, §4.5).

    ``pots``: from :func:`engine.pots.layer_pots`, main pot first. ``hands``: player -> hole
    cards (stud: all his cards; ``'??'`` = unknown) for every player still in. ``boards``: one
    board per run (``[()]`` for stud and draw). ``order_from_button``: players clockwise from
    the first seat left of the button (stud: seat order). ``tie_order``: ``left_of_button`` |
    ``card_by_suit`` | ``carry_to_next_hand``; ``None`` takes ``split.odd_chip_tie_order``.

    A pot with one eligible player goes to him unseen. Otherwise, if any eligible hand (or the
    board) has an unknown card the pot is not verifiable. Each pot is cut into ``len(boards)``
    equal shares, odd chips to run 1 first (§4.5, §7.4), and each share is awarded on its
    run's board: to the best hand of the game's ranking, or in hi-lo games half to the best
    high and half to the best qualifying low (``split.low_method``/``low_qualifier``; no
    qualifying low in this pot → the high takes it all, §2.4). The high half takes the odd chip
    between the halves unless ``split.odd_chip_between_halves == 'low_if_low_quartered'``, the
    high is won alone and the low is shared (§2.3). The same players winning both ways split
    the share as one (§2.2). Ties split by ``tie_order`` (§2.2): odd chips to the first tied
    winners left of the button, or by the highest card by suit (lowest, in a low) among all
    the player's cards, or left for the next hand.

    Raises:
        ValueError: no boards, an unknown tie order, an eligible player without a hand or
            missing from ``order_from_button``, a pot without eligible players, or a hand the
            evaluator rejects (see :mod:`engine.evaluate`).
    """
    tie = tie_order or split.odd_chip_tie_order
    if tie not in TIE_ORDERS:
        raise ValueError(f"unknown odd_chip_tie_order {tie!r} (known: {', '.join(TIE_ORDERS)})")
    if not boards:
        raise ValueError("need one board per run ([()] for games without a board)")
    table = AwardTable(game, hands, order_from_button, split, tie)
    return [_award_pot(table, i, pot, boards) for i, pot in enumerate(pots)]


def _award_pot(
    table: AwardTable, index: int, pot: Pot, boards: Sequence[Sequence[str]]
) -> PotAward:
    head = f"{pot_name(index)} {pot.amount} ({', '.join(pot.eligible)})"
    if not pot.eligible:
        raise ValueError(f"{head} has no eligible player")
    if len(pot.eligible) == 1:
        (player,) = pot.eligible
        line = alone_line(head, player, pot.amount)
        return PotAward(index, pot.amount, pot.eligible, {player: pot.amount}, 0, (line,))
    missing = [p for p in pot.eligible if p not in table.hands]
    if missing:
        raise ValueError(f"{head}: no hand given for {', '.join(missing)}")
    unknown = [p for p in pot.eligible if _UNKNOWN in table.hands[p]]
    if any(_UNKNOWN in board for board in boards):
        unknown.append("the board")
    if unknown:
        line = f"{head}: cannot be checked, unknown cards for {', '.join(unknown)}."
        return PotAward(index, pot.amount, pot.eligible, {}, 0, (line,), verifiable=False)

    runs = len(boards)
    shares = divide(pot.amount, runs, table.split.smallest_chip)
    odd = sum(share > shares[-1] for share in shares)
    awards = {p: 0 for p in pot.eligible}
    carried = 0
    lines: list[str] = []
    if runs > 1:
        note = f" (odd chip{'s' if odd > 1 else ''} to run 1 first)" if odd else ""
        shares_text = ", ".join(f"{s} on run {r + 1}" for r, s in enumerate(shares))
        times = "twice" if runs == 2 else f"{runs} times"
        lines.append(f"{head}: run {times}, {shares_text}{note}.")
    for run in range(runs):  # one share a board (indexed: a zip with strict= is a generic call)
        share, board = shares[run], boards[run]
        if not share:
            lines.append(f"Run {run + 1}: nothing left to award.")
            continue
        won, kept, sentences = award_share(table, pot.eligible, share, board)
        for player, chips in won.items():
            awards[player] += chips
        carried += kept
        text = " ".join(sentences)
        if runs > 1:
            lines.append(f"Run {run + 1} ({' '.join(board) or 'no board'}), {share}: {text}")
        else:
            lines.append(f"{head}: {text}")
    paid = {p: chips for p, chips in awards.items() if chips}
    return PotAward(index, pot.amount, pot.eligible, paid, carried, tuple(lines))


def award_share(
    table: AwardTable, eligible: Sequence[str], amount: int, board: Sequence[str]
) -> tuple[dict[str, int], int, list[str]]:
    """Award ``amount`` chips (one run's share of one pot) by cards speak among ``eligible``
    on ``board`` (RULES.md §2): to the best hand, or in hi-lo half to the best high and half
    to the best qualifying low (§2.3–2.4: no qualifying low, the high takes it all; the same
    winners both ways are not halved; the odd chip between the halves to the high unless the
    split options give it to a quartered low), ties by :func:`award_direction`.

    Every eligible player's cards must be known. Returns ``(won, carried, sentences)``:
    player -> chips (winners only), chips left for the next hand, plain sentences saying who
    won what. Raises ``ValueError`` from :mod:`engine.evaluate` for a hand it rejects.
    """
    game, hands, split = table.game, table.hands, table.split
    if not game.hilo:
        ranks = {p: best_for_game(game, hands[p], board) for p in eligible}
        return award_direction(table, ranks, amount, low=game.evaluation != "high", what="")
    highs = {p: best_high(game, hands[p], board) for p in eligible}
    lows: dict[str, Rank] = {}
    for p in eligible:
        low = best_low(game, hands[p], board, split.low_method, split.low_qualifier)
        if low is not None:
            lows[p] = low
    if not lows:
        won, kept, sentences = award_direction(table, highs, amount, low=False, what="")
        return won, kept, ["No qualifying low, the high takes it all.", *sentences]
    high_winners, low_winners = _winners(highs), _winners(lows)
    if set(high_winners) == set(low_winners):
        names = and_list(high_winners)
        verb = "has" if len(high_winners) == 1 else "have"
        both = (f"{names} {verb} the best high and the best low "
                f"({lows[low_winners[0]].label}), so the pot is not halved.")
        won, kept, sentences = award_direction(table, highs, amount, low=False, what="")
        return won, kept, [both, *sentences]
    high_half, low_half = divide(amount, 2, split.smallest_chip)
    if high_half == low_half:
        note = "Split high/low."
    elif (split.odd_chip_between_halves == "low_if_low_quartered"
          and len(high_winners) == 1 and len(low_winners) > 1):
        high_half, low_half = low_half, high_half
        note = "Split high/low, the odd chip to the low half (high won alone, low quartered)."
    else:
        note = "Split high/low, the odd chip to the high half."
    hi_won, hi_kept, hi_text = award_direction(table, highs, high_half, low=False,
                                                what=f"High {high_half}: ")
    lo_won, lo_kept, lo_text = award_direction(table, lows, low_half, low=True,
                                                what=f"Low {low_half}: ")
    won = dict(hi_won)
    for player, chips in lo_won.items():
        won[player] = won.get(player, 0) + chips
    return won, hi_kept + lo_kept, [note, *hi_text, *lo_text]


def _winners(ranks: Mapping[str, Rank]) -> list[str]:
    # Ranks compare by their keys alone (Rank's order): the keys are compared here, not the
    # Ranks, whose dataclass __eq__ and __lt__ are interpreted (max() and == call them).
    best = max([rank.key for rank in ranks.values()])
    return [p for p, rank in ranks.items() if rank.key == best]


def award_direction(
    table: AwardTable, ranks: Mapping[str, Rank], amount: int, *, low: bool, what: str
) -> tuple[dict[str, int], int, list[str]]:
    """Give ``amount`` chips to the best of ``ranks`` (player -> his rank one way; higher is
    better, lows included), ties split by ``table.tie`` (RULES.md §2.2): odd chips to the
    first tied winners left of the button or by card by suit (the lowest card when ``low``),
    or carried to the next hand. ``what`` starts each sentence (e.g. ``'Low 5: '``).

    Returns ``(won, carried, sentences)``: player -> chips (every tied winner), chips left for
    the next hand, plain sentences. Raises ``ValueError`` when a tied winner is missing from
    ``table.order``.
    """
    winners = _winners(ranks)
    label = ranks[winners[0]].label
    if len(winners) == 1:
        return {winners[0]: amount}, 0, [f"{what}{winners[0]} wins {amount} with {label}."]
    names = and_list(winners)
    chip = table.split.smallest_chip
    if table.tie == "carry_to_next_hand":
        base = amount // (len(winners) * chip) * chip
        kept = amount - base * len(winners)
        text = f"{what}{names} tie with {label}; {base} each"
        if kept:
            text += f", {odd_chips(kept, chip)} carried to the next hand"
        return dict.fromkeys(winners, base), kept, [text + "."]
    ordered, reasons = _tie_break(table, winners, low=low)
    won = split_evenly(amount, ordered, chip)
    odd = sum(won[p] > won[ordered[-1]] for p in ordered)
    if not odd:
        return won, 0, [f"{what}{names} tie with {label}; {won[winners[0]]} each."]
    amounts = ", ".join(f"{p} {won[p]}" for p in ordered)
    each = "odd chip" if chip == 1 else f"odd chip of {chip}"
    chips = "; ".join(f"{each} to {p} ({reasons[p]})" for p in ordered[:odd])
    return won, 0, [f"{what}{names} tie with {label}; {amounts}; {chips}."]


def _tie_break(
    table: AwardTable, winners: list[str], *, low: bool
) -> tuple[list[str], dict[str, str]]:
    """Order tied winners for the odd chips (RULES.md §2.2) and say why each comes where."""
    missing = [p for p in winners if p not in table.order]
    if missing:
        raise ValueError(f"{', '.join(missing)} not in the order from the button")
    seat = sorted(winners, key=list(table.order).index)
    if table.tie == "left_of_button":  # stud has no button: seat order (§7.5)
        where = "in seat order" if table.game.stud else "left of the button"
        return seat, {p: f"{'first' if i == 0 else 'next'} {where}"
                      for i, p in enumerate(seat)}
    if table.game.hilo:
        ace_low = low and table.split.low_method in ("A-5", "A-6")
    else:
        ace_low = low and table.game.evaluation in ("a5_low", "badugi")
    cards = {}
    for p in seat:
        keyed = [(card_suit_key(c, ace_low=ace_low), c) for c in table.hands[p]]
        cards[p] = min(keyed) if low else max(keyed)
    ordered = sorted(seat, key=lambda p: cards[p][0], reverse=not low)
    which = "lowest" if low else "highest"
    return ordered, {p: f"{which} card by suit, {cards[p][1]}" for p in ordered}
