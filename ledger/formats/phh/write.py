"""Write hands as PHH (FORMATS.md §1): the inverse of :func:`ledger.formats.phh.read.read_phh`.

Chips go back to money with exactly ``unit.decimals`` places (``1151`` → ``11.51``), so reading
the text again gives the same scale, the same ``HandStarted`` (``source`` line numbers and
``source_key`` aside), the same forced bets, actions and payouts. pokerkit's
``HandHistory.loads`` accepts the output for the PHH variant codes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from engine.games import UnknownGame, game
from ledger.formats.phh.base import (
    AGAIN_OF_KEY,
    RESERVED_SOURCE_KEYS,
    PhhHand,
    blind_index,
    forced_bets,
)
from ledger.formats.phh.expected import expected_table, options_tables
from ledger.model.errors import MalformedInput
from ledger.model.events import AGAIN_OF, ForcedBet, HandStarted, RecordedPayout

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f']")


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, else a quoted string."""
    return key if _BARE_KEY.match(key) else toml_value(key)


def toml_value(value: Any) -> str:
    """One TOML value (strings single-quoted when possible, decimals exact, inline tables).

    >>> print(toml_value([Decimal("0.10"), 2, "p1 cc", {"a b": True}]))
    [0.10, 2, 'p1 cc', { 'a b' = true }]

    Raises:
        MalformedInput: ``None`` or a type TOML cannot hold.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if value == value else "nan"
    if isinstance(value, Decimal):
        return format(value, "f") if value.is_finite() else str(value).lower()
    if isinstance(value, str):
        if not _CONTROL.search(value):
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + pairs + " }" if pairs else "{}"
    raise MalformedInput(f"cannot write {value!r} as a TOML value")


def _money(chips: int, decimals: int) -> int | Decimal:
    return Decimal(chips).scaleb(-decimals) if decimals else chips


def _header_lists(started: HandStarted, forced: Sequence[ForcedBet]) -> tuple[list[int], list[int]]:
    """Antes and blinds_or_straddles in chips: from the stakes, else from the forced bets."""
    names = [seat.player for seat in started.seats]
    count = len(names)
    antes = list(started.stakes.antes)
    blinds = list(started.stakes.blinds_or_straddles)
    if not antes:
        antes = [0] * count
        for i, name in enumerate(names):  # positional, swapped heads-up as the blinds
            antes[blind_index(i, count)] = sum(
                f.amount for f in forced if f.kind == "ante" and f.player == name)
    if not blinds:
        blinds = [0] * count
        for bet in forced:
            if bet.kind in ("ante", "bring_in"):
                continue
            if bet.kind == "dead_blind" or bet.player not in names:
                why = ("PHH's blinds are live: it has no dead blind" if bet.player in names
                       else f"{bet.player} is not seated")
                raise MalformedInput(f"cannot be written as PHH: the forced bet {_posts([bet])} "
                                     f"({why})", hand=started.hand)
            sign = -1 if bet.kind == "posted_blind" else 1
            blinds[blind_index(names.index(bet.player), count)] = sign * bet.amount
    for key, values in (("antes", antes), ("blinds_or_straddles", blinds)):
        if len(values) != count:
            raise MalformedInput(f"{key} has {len(values)} entries for {count} seats",
                                 hand=started.hand)
    return antes, blinds


#: Forced bets the rules treat alike (live blinds, RULES.md §4.2): PHH's positional
#: ``blinds_or_straddles`` says only how much each seat posts, so a lone big blind in the
#: small blind's seat (PokerNow's dead small blind) is the same hand as PHH says it.
_LIVE = frozenset({"small_blind", "big_blind", "straddle"})


def _posts(bets: Iterable[ForcedBet]) -> str:
    return ", ".join(f"{b.player} {b.kind.replace('_', ' ')} {b.amount}" for b in bets) or "none"


def _check_forced(started: HandStarted, forced: Sequence[ForcedBet]) -> None:
    """Refuse forced bets the header's antes and blinds_or_straddles do not say (FORMATS.md
    §1): reading the text again would post others.

    Raises:
        MalformedInput: naming the hand, the bets posted and those PHH would say.
    """
    implied = forced_bets(started.stakes, started.seats)

    def key(bet: ForcedBet) -> tuple[str, str, int]:
        return bet.player, "live_blind" if bet.kind in _LIVE else bet.kind, bet.amount

    given = [b for b in forced if b.kind != "bring_in"]
    if sorted(map(key, given)) != sorted(map(key, implied)):
        raise MalformedInput(
            f"cannot be written as PHH: its forced bets ({_posts(given)}) are not what PHH's "
            f"antes and blinds_or_straddles can say (those would post: {_posts(implied)})",
            hand=started.hand)


def _phh_header(started: HandStarted, forced: Sequence[ForcedBet]
                ) -> tuple[list[int], list[int]]:
    """PHH's ``antes`` and ``blinds_or_straddles`` (chips) of a hand: its stakes lists when
    they say its forced bets, else the lists its forced bets make when those are the same
    amounts in PHH's order (a PokerNow hand keeps them in seat order, which heads-up is not
    PHH's, FORMATS.md §1) or the stakes lists do not have an entry a seat.

    Raises:
        MalformedInput: forced bets no PHH header says (:func:`_check_forced`).
    """
    try:
        return _checked_header(started, forced)
    except MalformedInput as exc:
        stakes = started.stakes
        if not (stakes.antes or stakes.blinds_or_straddles):
            raise
        bare = stakes.model_copy(update={"antes": [], "blinds_or_straddles": []})
        antes, blinds = _checked_header(started.model_copy(update={"stakes": bare}), forced)
        count = len(started.seats)
        for listed, made in ((stakes.antes, antes), (stakes.blinds_or_straddles, blinds)):
            if len(listed) == count and sorted(listed) != sorted(made):  # not a reordering
                raise exc from None
        return antes, blinds


def _checked_header(started: HandStarted, forced: Sequence[ForcedBet]
                    ) -> tuple[list[int], list[int]]:
    antes, blinds = _header_lists(started, forced)
    stakes = started.stakes.model_copy(update={"antes": antes, "blinds_or_straddles": blinds})
    _check_forced(started.model_copy(update={"stakes": stakes}), forced)
    return antes, blinds


def write_phh(
    started: HandStarted,
    forced: Sequence[ForcedBet],
    actions: Sequence[str],
    payouts: Sequence[RecordedPayout] = (),
    *,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Return one hand as PHH TOML text (a ``.phh`` file's content).

    ``forced`` must be what the header records (``stakes.antes`` / ``blinds_or_straddles``,
    or derived from ``forced`` when the stakes lists are empty; a ``bring_in`` forced bet is
    the stud action ``pb`` and is not part of the header). ``actions`` are PHH action strings
    written verbatim, amounts already in money (use :func:`ledger.formats.phh.base.format_amount`).
    ``payouts`` become ``winnings`` (summed per player, seat order). ``started.source``
    metadata (all but file/section/line/source_key) is written back as top-level keys, but
    ``again_of`` (:data:`ledger.model.events.AGAIN_OF`, ours) as ``_again_of``, where
    FORMATS.md §1 puts a user extension;
    ``extra`` keys (e.g. ``finishing_stacks``, ``_expected``) are written last, as given.

    Raises:
        MalformedInput: an unknown game, forced bets PHH cannot record or that disagree with
            the stakes, a payout to a player not seated, an action with a line break, a key
            written twice, or a value TOML cannot hold.
    """
    try:
        the_game = game(started.game)
    except UnknownGame as exc:
        raise MalformedInput(str(exc), hand=started.hand) from exc
    decimals = started.unit.decimals
    names = [seat.player for seat in started.seats]
    antes, blinds = _phh_header(started, forced)
    out: dict[str, Any] = {"variant": started.game, "antes": [_money(a, decimals) for a in antes]}
    if not the_game.stud or any(blinds) or started.stakes.blinds_or_straddles:
        out["blinds_or_straddles"] = [_money(b, decimals) for b in blinds]
    fixed = started.stakes.betting == "fixed_limit"
    for key, wanted in (("bring_in", the_game.stud), ("small_bet", fixed), ("big_bet", fixed),
                        ("min_bet", not fixed)):
        value = getattr(started.stakes, key)
        if wanted or value:
            out[key] = _money(value, decimals)
    out["starting_stacks"] = [_money(seat.stack, decimals) for seat in started.seats]
    for action in actions:
        if not isinstance(action, str) or "\n" in action or "\r" in action:
            raise MalformedInput(f"bad action string {action!r}", hand=started.hand)
    out["actions"] = list(actions)
    out["players"] = names
    if any(seat.seat is not None for seat in started.seats):
        out["seats"] = [seat.seat for seat in started.seats]
    if payouts:
        out["winnings"] = [_money(amount, decimals) for amount in _winnings(started, payouts)]
    meta = {AGAIN_OF_KEY if k == AGAIN_OF else k: v for k, v in started.source.items()
            if k not in RESERVED_SOURCE_KEYS and v is not None}
    if started.unit.currency is not None and meta.get("currency_symbol") != started.unit.currency:
        out["currency"] = started.unit.currency
    for more in (meta, options_tables(started.options, the_game, decimals), extra or {}):
        for key, value in more.items():
            if key in out:
                raise MalformedInput(f"key {key!r} would be written twice", hand=started.hand)
            out[key] = value
    return _render(out)


def _winnings(started: HandStarted, payouts: Sequence[RecordedPayout]) -> list[int]:
    names = [seat.player for seat in started.seats]
    totals = [0] * len(names)
    for payout in payouts:
        if payout.player not in names:
            raise MalformedInput(f"payout to {payout.player!r}, who is not seated",
                                 hand=started.hand)
        totals[names.index(payout.player)] += payout.amount
    return totals


def _render(out: Mapping[str, Any]) -> str:
    lines = []
    for key, value in out.items():
        if key == "actions" and value:
            body = "".join(f"  {toml_value(action)},\n" for action in value)
            lines.append(f"actions = [\n{body}]")
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def write_hand(hand: PhhHand) -> str:
    """Write a :class:`PhhHand` back as PHH, comments, ``finishing_stacks`` and ``_expected``
    included."""
    decimals = hand.started.unit.decimals
    extra: dict[str, Any] = {}
    if hand.finishing_stacks is not None:
        extra["finishing_stacks"] = [_money(c, decimals) for c in hand.finishing_stacks]
    if hand.expected is not None:
        names = [seat.player for seat in hand.started.seats]
        extra["_expected"] = expected_table(hand.expected, names, decimals)
    actions = [action.raw for action in hand.actions]
    return write_phh(hand.started, hand.forced, actions, hand.payouts, extra=extra)


def write_phhs(hands: Iterable[PhhHand | str]) -> str:
    """Several hands as one ``.phhs`` text, tables ``[1]``, ``[2]``, …; each item is a
    :class:`PhhHand` or the text :func:`write_phh` returned for a hand."""
    parts = []
    for k, hand in enumerate(hands, 1):
        text = hand if isinstance(hand, str) else write_hand(hand)
        parts.append(f"[{k}]\n{text}")
    return "\n".join(parts)
