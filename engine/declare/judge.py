"""Reading declared hands and judging swing declarers (RULES.md §3.5, §3.6, §3.11, §5).

One *share* of a pot (the pot, or one run of it when it is run more than once) is read once:
every high or swing declarer's best high and every low or swing declarer's best low, by the
declare game's own low method and qualifier (``DeclareOptions.low_method`` / ``low_qualifier``,
RULES.md §3.11) whatever the game's normal ranking — any game can be a declare game (§3.1),
Omaha with exactly two hole cards both ways (§2.6), stud and draw with any five cards (§2.7).

Then each swing declarer is judged against all the *other* declarers of each direction in
that share, other swings included, all at once (RULES.md §5 "Swing evaluation order", steps
1–2), and the ``swing_ties`` option turns the two results into an outcome (§3.6).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine._compiled import by_fields
from engine.awards import and_list
from engine.evaluate import Rank, best_high, best_low
from engine.games import Game
from ledger.model.events import DeclareOptions

HIGH, LOW, SWING = "high", "low", "swing"
DECLARATIONS = (HIGH, LOW, SWING)
DIRECTIONS = (HIGH, LOW)

#: Stands in for a hand nobody has to see: its owner is alone in every direction he declared
#: and no qualifier applies, so it is never compared (RULES.md §3.5: a lone declarer takes his
#: half however weak his hand is).
UNSEEN = Rank(-1, "cards not shown")

# results in one direction
WON, TIED, LOST, NO_LOW = "won", "tied", "lost", "no_low"
# outcomes of a swing
WINS, KEEPS_HIGH, KEEPS_LOW, FAILS = "wins", "keeps_high", "keeps_low", "fails"


def other(direction: str) -> str:
    """``'low'`` for ``'high'`` and the reverse."""
    return LOW if direction == HIGH else HIGH


def declarers(
    eligible: Sequence[str], declarations: Mapping[str, str], direction: str
) -> list[str]:
    """The players of ``eligible`` (order kept) who declared ``direction`` or swing (§3.5)."""
    return [p for p in eligible if declarations[p] in (direction, SWING)]


def needed_hands(
    eligible: Sequence[str], declarations: Mapping[str, str], options: DeclareOptions
) -> list[str]:
    """The players whose cards must be read to award a share by declaration (seat order).

    A direction with two or more declarers needs all their hands; with a low qualifier every
    low and swing declarer's hand is needed (he may not qualify, §3.11). A lone declarer with
    no qualifier wins his direction unseen (§3.5). (The §3.8 cards-speak re-read needs every
    hand; the caller checks that separately.)
    """
    need: set[str] = set()
    for direction in DIRECTIONS:
        who = declarers(eligible, declarations, direction)
        if len(who) > 1 or (direction == LOW and options.low_qualifier != "none"):
            need.update(who)
    return [p for p in eligible if p in need]


@dataclass(frozen=True)
class Reading:
    """The declared hands of one share.

    ``high``: player -> best high, for high and swing declarers. ``low``: player -> best low,
    for low and swing declarers who have a (qualifying) low. ``no_low``: low and swing
    declarers without a qualifying low, seat order — absent from the low direction (§3.11).
    Greater :class:`~engine.evaluate.Rank` is better in both directions.
    """

    high: dict[str, Rank]
    low: dict[str, Rank]
    no_low: tuple[str, ...] = ()

    def ranks(self, direction: str) -> dict[str, Rank]:
        """``high`` or ``low``."""
        return self.high if direction == HIGH else self.low

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def read_share(
    game: Game,
    eligible: Sequence[str],
    declarations: Mapping[str, str],
    hands: Mapping[str, Sequence[str]],
    board: Sequence[str],
    options: DeclareOptions,
    seen: Collection[str],
) -> Reading:
    """Read every eligible declarer's hand in the direction(s) he declared.

    ``seen``: the players whose cards (and the board) are known; the others get
    :data:`UNSEEN` and must not be in :func:`needed_hands`.

    Raises:
        ValueError: as :func:`engine.evaluate.best_high` / :func:`~engine.evaluate.best_low`.
    """
    high: dict[str, Rank] = {}
    low: dict[str, Rank] = {}
    no_low: list[str] = []
    method, qualifier = str(options.low_method), options.low_qualifier
    for p in eligible:
        declared = declarations[p]
        if declared in (HIGH, SWING):
            high[p] = best_high(game, hands[p], board) if p in seen else UNSEEN
        if declared in (LOW, SWING):
            rank = best_low(game, hands[p], board, method, qualifier) if p in seen else UNSEEN
            if rank is None:
                no_low.append(p)
            else:
                low[p] = rank
    return Reading(high, low, tuple(no_low))


@dataclass(frozen=True)
class Verdict:
    """How one swing declarer fared in one share (RULES.md §3.6).

    ``high`` / ``low``: ``won`` | ``tied`` | ``lost`` (``low`` also ``no_low``: no
    qualifying low and no other qualifying low declarer to lose to). ``outcome``: ``wins``
    (both ways, or with ties when they are allowed) | ``keeps_high`` / ``keeps_low``
    (``keep_clean_half``: won that half outright, tied the other) | ``fails``.
    ``tied_with`` / ``better``: direction -> the other declarers who tie him / hold a strictly
    better hand, seat order.
    """

    player: str
    high: str
    low: str
    outcome: str
    tied_with: Mapping[str, tuple[str, ...]]
    better: Mapping[str, tuple[str, ...]]

    def result(self, direction: str) -> str:
        """``high`` or ``low``."""
        return self.high if direction == HIGH else self.low

    @property
    def failed(self) -> bool:
        return self.outcome == FAILS

    @property
    def lost(self) -> tuple[str, ...]:
        """The directions in which somebody beat him."""
        return tuple(d for d in DIRECTIONS if self.result(d) == LOST)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def _compare(
    player: str, ranks: Mapping[str, Rank]
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(result, tied_with, better) of ``player`` against everyone else in ``ranks``."""
    mine = ranks[player]
    others = {q: r for q, r in ranks.items() if q != player}
    better = tuple(q for q, r in others.items() if r > mine)
    if better:
        return LOST, (), better
    tied = tuple(q for q, r in others.items() if r == mine)
    return (TIED, tied, ()) if tied else (WON, (), ())


def _outcome(high: str, low: str, swing_ties: str) -> str:
    if high == WON and low == WON:
        return WINS
    if swing_ties == "allowed" and {high, low} <= {WON, TIED}:
        return WINS
    if swing_ties == "keep_clean_half":
        if (high, low) == (WON, TIED):
            return KEEPS_HIGH
        if (high, low) == (TIED, WON):
            return KEEPS_LOW
    return FAILS


def judge_swings(
    reading: Reading, eligible: Sequence[str], declarations: Mapping[str, str], swing_ties: str
) -> dict[str, Verdict]:
    """Judge every swing declarer of ``eligible`` at once (RULES.md §5 steps 1–2, §3.6, §3.11).

    A swing must beat every other high declarer for high and every other low declarer for
    low; a low declarer's better high (or a high declarer's better low) does not count. A
    swing without a qualifying low loses low to any qualifying low declarer, and fails even
    when there is none. Returns player -> :class:`Verdict`, seat order.
    """
    verdicts: dict[str, Verdict] = {}
    for s in eligible:
        if declarations[s] != SWING:
            continue
        high, high_tied, high_better = _compare(s, reading.high)
        if s in reading.low:
            low, low_tied, low_better = _compare(s, reading.low)
        elif reading.low:
            low, low_tied, low_better = LOST, (), tuple(reading.low)
        else:
            low, low_tied, low_better = NO_LOW, (), ()
        verdicts[s] = Verdict(
            s, high, low, _outcome(high, low, swing_ties),
            {HIGH: high_tied, LOW: low_tied}, {HIGH: high_better, LOW: low_better},
        )
    return verdicts


def _best(names: Sequence[str], ranks: Mapping[str, Rank]) -> list[str]:
    top = max(ranks[q] for q in names)
    return [q for q in names if ranks[q] == top]


def _reason(v: Verdict, direction: str, reading: Reading, swing_ties: str) -> str | None:
    """Why ``direction`` sank the swing, or None when it did not."""
    result = v.result(direction)
    if result == NO_LOW:
        return f"{v.player} has no qualifying low"
    if result == LOST and direction == LOW and v.player in reading.no_low:
        return f"{v.player} has no qualifying low, and {and_list(v.better[LOW])} have one"
    ranks = reading.ranks(direction)
    if result == LOST:
        best = _best(v.better[direction], ranks)
        verb = "beats" if len(best) == 1 else "beat"
        return (f"{and_list(best)} {verb} {v.player} for {direction} ({ranks[best[0]].label} "
                f"against {v.player}'s {ranks[v.player].label})")
    if result == TIED and swing_ties != "allowed":
        rule = f"{v.player} wins neither way outright"
        if swing_ties == "not_allowed":
            rule = "ties are not allowed"
        return (f"{v.player} only ties for {direction} with {and_list(v.tied_with[direction])} "
                f"({ranks[v.player].label}) and {rule}")
    return None


def _way(v: Verdict, direction: str, reading: Reading) -> str:
    label = reading.ranks(direction)[v.player].label
    if v.result(direction) == TIED:
        return f"ties for {direction} with {and_list(v.tied_with[direction])} ({label})"
    return f"wins {direction} ({label})"


def describe(v: Verdict, reading: Reading, swing_ties: str) -> str:
    """One plain-English sentence on the swing's verdict (RULES.md §3.6, §3.11)."""
    s = v.player
    if v.outcome == WINS:
        ties = " (ties allowed)" if TIED in (v.high, v.low) else ""
        return (f"{s}'s swing stands{ties}: {s} {_way(v, HIGH, reading)} and "
                f"{_way(v, LOW, reading)}.")
    if v.outcome in (KEEPS_HIGH, KEEPS_LOW):
        kept = HIGH if v.outcome == KEEPS_HIGH else LOW
        return (f"{s} {_way(v, kept, reading)} outright but {_way(v, other(kept), reading)}: "
                f"under keep_clean_half {s} keeps only the {kept} half.")
    losing = [d for d in DIRECTIONS if v.result(d) in (LOST, NO_LOW)] or list(DIRECTIONS)
    reasons = [r for d in losing if (r := _reason(v, d, reading, swing_ties))]
    return f"{s}'s swing fails: {'; '.join(reasons)}."
