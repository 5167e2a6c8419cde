"""Shared pieces of the PHH reader and writer: amounts, forced bets and the typed hand.

Amounts: PHH numbers may be decimals (HandHQ files are dollars with cents). A hand is scaled by
``10 ** decimals`` into integer chips, ``decimals`` being the largest number of decimal places
written anywhere in the hand (``0.10`` counts as two). :func:`scale_amount` and
:func:`format_amount` convert one amount each way; both are exact (no floats anywhere).

Forced bets (FORMATS.md §1, pokerkit's ``State.get_effective_blind_or_straddle``): antes first in
seat order, then blinds and straddles in seat order. With two players PHH's list is read
swapped: ``blinds_or_straddles[0]`` (the small blind) is posted by p2, the button, and
``blinds_or_straddles[1]`` (the big blind) by p1. With more players the first positive value is
the small blind, the second the big blind and any later positive one a straddle. A negative value
is a live blind posted out of position (``posted_blind``, amount ``abs(value)``). Each forced bet
is capped at what is left of the stack (ante first, then blind).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from ledger.model.errors import MalformedInput
from ledger.model.events import MAX_CHIPS, ForcedBet, HandStarted, RecordedPayout, Seat, Stakes
from ledger.model.money import beyond_bound, shown_amount

_NUMBER_RE = re.compile(r"-?[0-9]+(?:\.[0-9]+)?\Z")  # ASCII digits (FORMATS.md §1)
MAX_DECIMALS = 6
#: ``HandStarted.source`` keys the reader sets itself; every other source key is PHH metadata.
RESERVED_SOURCE_KEYS = ("file", "section", "line", "source_key")
#: The PHH key of a hand ``hand again`` recorded: the voided hand it records again, its
#: ``source`` key :data:`ledger.model.events.AGAIN_OF`. Ours, so it starts with ``_``
#: (FORMATS.md §1: a key that starts with ``_`` is a user extension); the reader stores it as
#: that ``source`` key and the writer writes that ``source`` key as it.
AGAIN_OF_KEY = "_again_of"
#: The PHH key of a hand exported from a ledger that read it from a site's file: the source
#: key that file gave it there (``pokernow:…``), by which a ledger holding the hand under
#: another id (a PokerNow hand's id names its session) knows it. Ours, so it starts with
#: ``_``; the reader keeps it in ``source`` under this name and the writer writes it back.
SOURCE_KEY = "_source_key"
BLIND_KINDS = ("small_blind", "big_blind", "straddle", "posted_blind")


def to_decimal(value: object) -> Decimal:
    """Return a finite ``Decimal`` for an int, a ``Decimal`` or a plain number string.

    Strings must look like ``12``, ``-3`` or ``1.50``: ASCII digits, no exponent, no plus sign,
    no digit or thousands separator.

    >>> to_decimal("1.50")
    Decimal('1.50')

    Raises:
        MalformedInput: a bool, a float, a non-numeric string or a non-finite number.
    """
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise MalformedInput(f"{value!r} is not a number")
    if isinstance(value, str):
        if not _NUMBER_RE.match(value.strip()):
            raise MalformedInput(f"{value!r} is not a number")
        return Decimal(value.strip())
    number = Decimal(value)
    if number.is_nan():  # TOML's nan (or -nan, +nan), as it is written
        raise MalformedInput(f"{'-' if number.is_signed() else ''}nan is not a number (NaN): "
                             "the hand history does not record this amount")
    if not number.is_finite():  # iPoker files write an unknown stack as inf
        raise MalformedInput(f"{value!r} is not a finite number: the hand history does not "
                             "record this amount (a stack written as inf)")
    return number


def places(value: Decimal) -> int:
    """Decimal places as written: ``Decimal('0.10')`` → 2, ``Decimal('5')`` → 0."""
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def scale_amount(value: str | Decimal | int, decimals: int, *, negative: bool = False) -> int:
    """Convert a PHH amount (money, possibly with decimals) to integer chips.

    ``decimals`` is the hand's scale (``PhhHand.started.unit.decimals``): one chip is
    ``10 ** -decimals`` of the written unit, so ``scale_amount("1.50", 2) == 150``.

    >>> scale_amount("1.50", 2), scale_amount(7, 0), scale_amount("-0.25", 2, negative=True)
    (150, 7, -25)

    Raises:
        MalformedInput: not a number, negative while ``negative`` is False, or not a whole
            number of chips at this scale (``"0.125"`` with ``decimals=2``).
    """
    if type(value) is int:  # the usual case, exact without a Decimal
        if value < 0 and not negative:
            raise MalformedInput(f"amount {value} is negative")
        return value * 10**decimals
    number = to_decimal(value)
    if beyond_bound(number, decimals):
        raise MalformedInput(f"amount {shown_amount(str(value))} is beyond the largest amount "
                             f"a ledger holds ({MAX_CHIPS} chips)")
    if number < 0 and not negative:
        raise MalformedInput(f"amount {value} is negative")
    try:
        chips = number.scaleb(decimals)
        whole = chips.to_integral_value()
    except InvalidOperation as exc:  # pragma: no cover - absurd exponents only
        raise MalformedInput(f"amount {value} is out of range") from exc
    if chips != whole:
        raise MalformedInput(
            f"amount {value} has more decimal places than the hand's scale ({decimals})"
        )
    return int(whole)


def format_amount(chips: int, decimals: int) -> str:
    """Write integer chips as a PHH amount with exactly ``decimals`` places (exact).

    >>> format_amount(1151, 2), format_amount(-25, 2), format_amount(40, 0)
    ('11.51', '-0.25', '40')
    """
    if decimals == 0:
        return str(chips)
    sign = "-" if chips < 0 else ""
    whole, frac = divmod(abs(chips), 10**decimals)
    return f"{sign}{whole}.{frac:0{decimals}d}"


# --------------------------------------------------------------------------------------------
# Forced bets


def blind_kinds(blinds: Sequence[int]) -> list[str | None]:
    """Kind of each entry of PHH's ``blinds_or_straddles`` (``None`` for a zero).

    >>> blind_kinds([10, 25, 0, -25, 50])
    ['small_blind', 'big_blind', None, 'posted_blind', 'straddle']
    """
    kinds: list[str | None] = []
    positive = 0
    for value in blinds:
        if value < 0:
            kinds.append("posted_blind")
        elif value == 0:
            kinds.append(None)
        else:
            kinds.append(BLIND_KINDS[min(positive, 2)])
            positive += 1
    return kinds


def blind_index(seat: int, players: int) -> int:
    """Index into PHH's positional lists (``blinds_or_straddles``, ``antes``) of what seat
    ``seat`` (0-based) posts: swapped heads-up (p1 posts entry 1, the big blind and its ante;
    the button p2 entry 0), the same index otherwise (FORMATS.md §1)."""
    return 1 - seat if players == 2 else seat


def forced_bets(stakes: Stakes, seats: Sequence[Seat]) -> list[ForcedBet]:
    """The forced bets a PHH header implies, in posting order (see the module docstring).

    ``stakes.antes`` / ``stakes.blinds_or_straddles`` are PHH's lists in chips (empty = none).
    Zero amounts (no blind, or nothing left after the ante) produce no event.
    """
    count = len(seats)
    forced = _forced_bet
    antes = list(stakes.antes) or [0] * count
    blinds = list(stakes.blinds_or_straddles) or [0] * count
    out: list[ForcedBet] = []
    left = [seat.stack for seat in seats]
    for i, seat in enumerate(seats):
        amount = min(antes[blind_index(i, count)], left[i])
        if amount > 0:
            out.append(forced(seat.player, "ante", amount))
            left[i] -= amount
    kinds = blind_kinds(blinds)
    for i, seat in enumerate(seats):
        j = blind_index(i, count)
        kind = kinds[j] if j < len(kinds) else None
        amount = min(abs(blinds[j]), left[i]) if kind else 0
        if kind and amount > 0:
            out.append(forced(seat.player, kind, amount))
    return out


#: The forced bets made before, by (player, kind, amount): events are immutable, and a
#: session's hands post the same blinds and antes again and again. Emptied when full.
_FORCED: dict[tuple[str, str, int], ForcedBet] = {}
_FORCED_MAX = 10_000


def _forced_bet(player: str, kind: str, amount: int) -> ForcedBet:
    """``ForcedBet(player=player, kind=kind, amount=amount)``, the one made before if any
    (``amount`` an int, as :func:`forced_bets` computes it from the stakes' chips)."""
    key = (player, kind, amount)
    bet = _FORCED.get(key)
    if bet is None:
        if len(_FORCED) >= _FORCED_MAX:
            _FORCED.clear()
        bet = _FORCED[key] = ForcedBet(player=player, kind=kind, amount=amount)  # type: ignore[arg-type]
    return bet


# --------------------------------------------------------------------------------------------
# The typed intermediate


class PhhAction(NamedTuple):
    """One entry of ``actions``: ``text`` is the action without its comment, whitespace
    collapsed (``'p3 cbr 40'``, ``'d dh p1 AsKd'``; ``''`` for a comment-only entry);
    ``comment`` is what followed ``#`` (stripped), or None; ``line`` is the 1-based line of the
    string in the file. Amounts inside ``text`` are as written (money, e.g. ``'cbr 1.50'``):
    convert them with ``scale_amount(x, hand.started.unit.decimals)``. A named tuple: a hand
    has a score of them, and a frozen dataclass costs three times as much to make."""

    line: int
    text: str
    comment: str | None = None

    @property
    def raw(self) -> str:
        """The PHH string again: ``text`` plus ``' # comment'`` when there is one."""
        if self.comment is None:
            return self.text
        return f"{self.text} # {self.comment}" if self.text else f"# {self.comment}"


@dataclass(frozen=True)
class ExpectedPot:
    """One pot of ``_expected.pots``: amount in chips, eligible player names in seat order."""

    amount: int
    eligible: tuple[str, ...]


@dataclass(frozen=True)
class Expected:
    """A test file's ``_expected`` table (FORMATS.md §1), chips, keyed by player name.

    ``awards``: what each player receives from all pots (returned chips excluded);
    ``pots``: the pots in order; ``returned``: uncalled chips given back; ``carried``: chips
    that go to the next deal; ``pot_awards``: each pot's split, in pot order;
    ``contributions``: everything each player put in (forced bets included, before refunds).
    """

    awards: Mapping[str, int] = field(default_factory=dict)
    pots: tuple[ExpectedPot, ...] = ()
    returned: Mapping[str, int] = field(default_factory=dict)
    carried: int = 0
    pot_awards: tuple[Mapping[str, int], ...] = ()
    contributions: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PhhHand:
    """One hand read from a PHH file.

    ``section`` is the table name in a ``.phhs`` (``'1'`` for ``[1]``), None in a ``.phh``;
    ``line`` the 1-based line where the hand starts (its ``[n]`` header; 1 in a ``.phh``);
    ``index`` its 0-based position among the file's hands (bad hands included).
    ``forced`` are the header's forced bets (antes, blinds, straddles; the stud bring-in is
    the action ``pb``). ``payouts`` come from ``winnings`` (absent or all zero = not recorded):
    one per player with a positive amount, what that player collected as the file says it;
    whether that holds an uncalled bet given back, files differ (the import decides:
    :mod:`replay.phh_returns`). ``exported``: the file gives ``_hand_id``, our own export,
    whose winnings are everything the table paid, uncalled bets included. ``finishing_stacks``
    in chips when the file gives them. ``source_key`` is the sha256 (hex) of the hand's own
    TOML text with comments, blank lines and runs of whitespace normalised away: the same
    hand imported twice has the same key. ``rake_line``: the line of its ``rake`` key, None
    when it has none (a refusal of the rake names it). ``notice``: what the import warns of
    the hand as stored, with the line it names (``notice_line``), None when nothing: a
    declare hand of a game whose code names 8-or-better whose ``_declare`` gives no
    ``low_qualifier`` (:func:`ledger.model.events.qualifier_unsaid`).
    """

    file: str
    section: str | None
    line: int
    index: int
    started: HandStarted
    forced: list[ForcedBet]
    actions: list[PhhAction]
    payouts: list[RecordedPayout]
    finishing_stacks: list[int] | None
    expected: Expected | None
    source_key: str
    rake_line: int | None = None
    exported: bool = False
    notice: str | None = None
    notice_line: int | None = None
    #: a site's text the hand was read from (PokerStars): the file line of its first line
    #: and its lines, so that a refusal names an action in the file's words (:meth:`words`)
    text: tuple[int, tuple[str, ...]] | None = None

    @property
    def hand(self) -> str:
        """The hand id (``started.hand``)."""
        return self.started.hand

    def words(self, action: PhhAction) -> str:
        """``action`` as a refusal names it: a site's line as the file writes it (``Hero:
        raises $0.05 to $0.15``) for a player's action, else its PHH text with each seat's
        label (``p2``) given as the player's name (a deal the site's text spreads over its
        lines: ``d dh DSOR65 AcQs``); a PHH file's own action text as written."""
        if self.text is None:
            return action.text
        first, lines = self.text
        k = action.line - first
        if not action.text.startswith("d ") and 0 <= k < len(lines) and lines[k]:
            return lines[k]
        names = {f"p{i}": seat.player for i, seat in enumerate(self.started.seats, 1)}
        return " ".join(names.get(word, word) for word in action.text.split(" "))


@dataclass(frozen=True)
class PhhFile:
    """What :func:`ledger.formats.phh.read.read_phh` returns: the good hands in file order and one
    :class:`MalformedInput` per bad hand (or one for the whole file when it cannot be read at
    all). A bad hand never hides the good ones."""

    file: str
    hands: list[PhhHand]
    errors: list[MalformedInput]

    def check(self) -> list[PhhHand]:
        """Return the hands, or raise the first error.

        Raises:
            MalformedInput: the file had at least one bad hand.
        """
        if self.errors:
            raise self.errors[0]
        return self.hands
