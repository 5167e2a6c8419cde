"""Field-by-field validation of one PHH hand table (used by :mod:`ledger.formats.phh.read`).

Each check raises :class:`~ledger.model.errors.MalformedInput` through :meth:`RawHand.error`, which
names the file, the line of the offending key (or action string), the hand when known and the
action. Amount rules: lists must have one entry per player (``starting_stacks`` decides N), no
amount may be negative except a ``blinds_or_straddles`` entry (a posted blind), and numbers are
integers or decimals (strings, booleans, ``inf``/``nan`` are rejected).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from engine.games import Game, UnknownGame, game
from ledger.formats.phh.base import (
    AGAIN_OF_KEY,
    MAX_DECIMALS,
    PhhAction,
    format_amount,
    places,
    scale_amount,
    to_decimal,
)
from ledger.model.errors import MalformedInput
from ledger.model.events import MAX_CHIPS, Seat

LIST_AMOUNTS = ("antes", "blinds_or_straddles", "starting_stacks", "winnings", "finishing_stacks")
SCALAR_AMOUNTS = ("bring_in", "min_bet", "small_bet", "big_bet")
MODELLED = frozenset(
    (*LIST_AMOUNTS, *SCALAR_AMOUNTS, "variant", "actions", "players", "seats", "currency")
) | {"_split", "_declare", "_reopen_rule", "_expected", "_hand_id", "_session",
       AGAIN_OF_KEY}


class RawHand:
    """One hand's parsed TOML table and where its pieces are in the file."""

    def __init__(
        self, file: str, section: str | None, line: int, index: int, table: Mapping[str, Any],
        keys: Mapping[str, int], action_lines: list[int], text: str,
    ) -> None:
        self.file, self.section, self.line, self.index = file, section, line, index
        self.table, self.keys, self.action_lines, self.text = table, keys, action_lines, text
        self.label: str | None = None  # hand id once known, for error messages

    def error(self, message: str, key: str | None = None, *, line: int | None = None,
              action: str | None = None) -> MalformedInput:
        where = f"[{self.section}] " if self.section is not None else ""
        return MalformedInput(
            where + message, file=self.file, hand=self.label, action=action,
            line=line if line is not None else self.keys.get(key or "", self.line),
        )


def parse_game(raw: RawHand) -> Game:
    code = raw.table.get("variant")
    if code is None:
        raise raw.error("missing required key 'variant'")
    if not isinstance(code, str):
        raise raw.error(f"variant {code!r} is not a string", "variant")
    try:
        return game(code)
    except UnknownGame as exc:
        raise raw.error(str(exc), "variant") from exc


def player_count(raw: RawHand) -> int:
    stacks = raw.table.get("starting_stacks")
    if stacks is None:
        raise raw.error("missing required key 'starting_stacks'")
    if not isinstance(stacks, list) or len(stacks) < 2:
        raise raw.error("starting_stacks must be a list of at least 2 amounts", "starting_stacks")
    return len(stacks)


def check_required(raw: RawHand, the_game: Game) -> None:
    required = ["antes", "actions"]
    required.append("bring_in" if the_game.stud else "blinds_or_straddles")
    required += ["small_bet", "big_bet"] if the_game.betting == "fixed_limit" else ["min_bet"]
    for key in required:
        if key not in raw.table:
            raise raw.error(f"missing required key {key!r} for variant {the_game.code}")


def parse_actions(raw: RawHand) -> list[PhhAction]:
    entries = raw.table["actions"]
    if not isinstance(entries, list):
        raise raw.error("actions must be a list of strings", "actions")
    lines = raw.action_lines
    if len(lines) != len(entries):
        lines = [raw.keys.get("actions", raw.line)] * len(entries)
    out = []
    for entry, line in zip(entries, lines, strict=True):
        if not isinstance(entry, str):
            raise raw.error(f"action {entry!r} is not a string", line=line)
        if "#" not in entry:  # the usual entry: no comment
            text = " ".join(entry.split())
            if not text:
                raise raw.error("empty action", line=line, action=entry)
            out.append(PhhAction(line, text))
            continue
        body, _, comment = entry.partition("#")
        out.append(PhhAction(line, " ".join(body.split()), comment.strip()))
    return out


#: The amounts a hand pays (the rest are played: stacks, forced bets, bet sizes).
PAID_AMOUNTS = ("winnings", "finishing_stacks")


def hand_decimals(raw: RawHand, actions: list[PhhAction], *,
                  money_places: int | None = None) -> int:
    """Validate every amount's type and return the hand's scale (see module doc).

    ``money_places``: the minor units of the hand's currency (USD 2), None without one. When
    the places written go beyond them only by trailing zeros (``10.000`` in USD), the scale is
    the minor unit: ``10.000`` dollars are 1,000 cents, no finer chip (FORMATS.md §1: money in
    integer minor units). Places with a nonzero digit beyond it stay, and are refused
    (:func:`ledger.model.money.unit_problem`).

    Raises:
        MalformedInput: an amount that is not a number; more than ``MAX_DECIMALS`` places;
            a payout (``winnings``, ``finishing_stacks``) that is no whole number of the
            chips the hand is played in (:func:`_paid_in_chips_played`).
    """
    played = 0
    for key in (*LIST_AMOUNTS, *SCALAR_AMOUNTS):
        value = raw.table.get(key)
        for item in value if isinstance(value, list) else [] if value is None else [value]:
            if type(item) is not int and key not in PAID_AMOUNTS:  # an int has no places
                played = max(played, places(_number(raw, item, key)))
    found = _paid_in_chips_played(raw, actions, played)
    for action in actions:
        parts = action.text.split()
        if len(parts) >= 3 and parts[1] == "cbr" and not (parts[2].isascii()
                                                         and parts[2].isdigit()):
            try:
                found = max(found, places(to_decimal(parts[2])))
            except MalformedInput as exc:
                raise raw.error(exc.message, line=action.line, action=action.text) from exc
    if (money_places is not None and found > money_places
            and _significant(raw, actions) <= money_places):
        return money_places
    if found > MAX_DECIMALS:
        raise raw.error(f"amounts have {found} decimal places (at most {MAX_DECIMALS})")
    return found


def finer_amount(raw: RawHand, actions: list[PhhAction], places_at_most: int
                 ) -> tuple[str, str | None, PhhAction | None]:
    """The first amount of the hand, in the file's order of keys then actions, that needs more
    than ``places_at_most`` decimal places (trailing zeros dropped): ``(amount as written, its
    key or None, its action or None)``; ``("", None, None)`` when none does. What a refusal of
    amounts finer than a currency's minor unit names (FORMATS.md §1)."""
    for written, key, action, needed in _needed_places(raw, actions):
        if needed > places_at_most:
            return written, key, action
    return "", None, None


def _significant(raw: RawHand, actions: list[PhhAction]) -> int:
    """The most places any amount of the hand needs, trailing zeros dropped (``10.500`` → 1)."""
    return max((needed for *_, needed in _needed_places(raw, actions)), default=0)


def _needed_places(raw: RawHand, actions: list[PhhAction]
                   ) -> Iterator[tuple[str, str | None, PhhAction | None, int]]:
    """Each written decimal amount of the hand (its keys', then its bets'): ``(as written, its
    key or None, its action or None, the places it needs, trailing zeros dropped)``."""
    for key in (*LIST_AMOUNTS, *SCALAR_AMOUNTS):
        for item in _items(raw.table.get(key)):
            if type(item) is not int:
                number = _number(raw, item, key)
                if number.is_finite():
                    yield str(item), key, None, places(number.normalize())
    for action in actions:
        parts = action.text.split()
        if len(parts) >= 3 and parts[1] == "cbr":
            number = to_decimal(parts[2])
            if number.is_finite():
                yield parts[2], None, action, places(number.normalize())


def _items(value: object) -> list:
    return value if isinstance(value, list) else [] if value is None else [value]


def _paid_in_chips_played(raw: RawHand, actions: list[PhhAction], played: int) -> int:
    """Refuse a payout (``winnings``, ``finishing_stacks``) that is no whole number of the
    chips the hand is played in, when its stacks, forced bets and bets are whole chips
    (``played`` 0 places, its bets looked at here): every chip paid is one put in, so
    ``winnings = [0, 400.5, 0]`` beside whole stacks is a typo, never a hand in tenths (the
    same rule as ``rake``: :func:`check_rake`; FORMATS.md §1, amounts as the file writes
    them). Returns the places of every amount but the bets' (``played`` and the payouts').

    Raises:
        MalformedInput: naming the field, its line and the value.
    """
    bets = any(len(parts) >= 3 and parts[1] == "cbr" and not (parts[2].isascii()
                                                                and parts[2].isdigit())
               for parts in (action.text.split() for action in actions))
    found = played
    for key in PAID_AMOUNTS:
        value = raw.table.get(key)
        for item in value if isinstance(value, list) else []:
            if type(item) is int:
                continue
            number = _number(raw, item, key)
            found = max(found, places(number))
            if played or bets or not number.is_finite() or number == number.to_integral_value():
                continue
            raise raw.error(
                f"{key} {item} is not a whole number of the hand's chips (a chip is 1, the "
                "smallest unit its stacks, blinds and bets write): a payout is paid in the "
                "chips played (a typo?)", key)
    return found


def _number(raw: RawHand, value: object, key: str) -> Decimal:
    try:
        return to_decimal(value)
    except MalformedInput as exc:
        raise raw.error(f"{key}: {exc.message}", key) from exc


def parse_amounts(raw: RawHand, decimals: int, count: int) -> dict[str, Any]:
    """Every header amount in chips: lists (length-checked) and scalars (0 when absent)."""
    out: dict[str, Any] = {}
    for key in LIST_AMOUNTS:
        value = raw.table.get(key)
        if value is None:
            out[key] = []
            continue
        if not isinstance(value, list) or len(value) != count:
            size = len(value) if isinstance(value, list) else "no list"
            raise raw.error(f"{key} has {size} entries but starting_stacks has {count}", key)
        out[key] = [_chips(raw, item, key, decimals) for item in value]
    for key in SCALAR_AMOUNTS:
        out[key] = _chips(raw, raw.table.get(key, 0), key, decimals)
    return out


def check_rake(raw: RawHand, decimals: int) -> None:
    """Refuse a ``rake`` (what the table took from the pot, in the hand's money: FORMATS.md
    §1, docs/LIVE.md "A home game's rake") that is not a whole number of the hand's chips at or
    above 0 and within ``MAX_CHIPS``, and a ``_rake`` rule that cannot be read whole (its
    ``cap`` so too). The hand's chip is set by its played amounts
    (``decimals``, :func:`hand_decimals`), never by its rake: the rake is taken from those
    chips, so ``rake = 0.5`` beside whole stacks is a mistake (dollars beside chips), never
    read as half a chip nor left unread (it is kept as written in ``started.source``).

    Raises:
        MalformedInput: naming the file, the ``rake`` line and the hand (``rake 0.5 is not
            a whole number of the hand's chips (a chip is 1 …)``; not a number; negative;
            beyond ``MAX_CHIPS``; the ``_rake`` rule's faults, at its line).
    """
    if "rake" in raw.table:
        _whole_chips(raw, raw.table["rake"], "rake", decimals)
    if "_rake" in raw.table:
        _rake_rule(raw, raw.table["_rake"], decimals)


#: Our ``_rake`` rule's keys (:mod:`replay.rake`): what it may take of the pot.
_RULE_KEYS = ("percent", "cap", "no_flop_no_drop")


def _rake_rule(raw: RawHand, rule: object, decimals: int) -> None:
    """Refuse a ``_rake`` rule :mod:`replay.rake` could not read whole: not a table, a key
    it does not know, a ``percent`` that is no number from 0 to 100, a ``cap`` that is no
    whole number of the hand's chips, a ``no_flop_no_drop`` that is not true or false."""
    if not isinstance(rule, dict):
        raise raw.error(f"_rake must be a table of {', '.join(_RULE_KEYS)}", "_rake")
    for key in rule:
        if key not in _RULE_KEYS:
            raise raw.error(f"_rake: unknown key {key!r} (it takes {', '.join(_RULE_KEYS)})",
                            "_rake")
    if "percent" in rule:
        percent = _named_number(raw, rule["percent"], "_rake percent", "_rake")
        if not 0 <= percent <= 100:
            raise raw.error(f"_rake percent {rule['percent']} is not from 0 to 100", "_rake")
    if "cap" in rule:
        _whole_chips(raw, rule["cap"], "_rake cap", decimals)
    if not isinstance(rule.get("no_flop_no_drop", False), bool):
        raise raw.error(f"_rake no_flop_no_drop {rule['no_flop_no_drop']!r} is not true or "
                        "false", "_rake")


def _named_number(raw: RawHand, value: object, name: str, key: str) -> Decimal:
    if isinstance(value, Decimal) and not value.is_finite():  # TOML's nan, inf
        written = "nan" if value.is_nan() else "-inf" if value < 0 else "inf"
        raise raw.error(f"{name}: {written} is not a finite number", key)
    try:
        return to_decimal(value)
    except MalformedInput as exc:
        raise raw.error(f"{name}: {exc.message}", key) from exc


def _whole_chips(raw: RawHand, value: object, name: str, decimals: int) -> None:
    key = name.split()[0]
    number = _named_number(raw, value, name, key)
    if number >= 0:
        chips = number.scaleb(decimals)
        if chips != chips.to_integral_value():
            raise raw.error(
                f"{name} {value} is not a whole number of the hand's chips (a chip is "
                f"{format_amount(1, decimals)}, the smallest unit its stacks, bets and "
                "payouts write): the table takes its rake from the pot in those chips", key)
    try:
        chips = scale_amount(value, decimals)  # type: ignore[arg-type]
    except MalformedInput as exc:
        raise raw.error(f"{name}: {exc.message}", key) from exc
    if chips > MAX_CHIPS:
        raise raw.error(f"{name}: {value} is beyond the largest amount a ledger holds "
                        f"({MAX_CHIPS} chips)", key)


def _chips(raw: RawHand, value: object, key: str, decimals: int) -> int:
    try:
        chips = scale_amount(value, decimals, negative=key == "blinds_or_straddles")  # type: ignore[arg-type]
    except MalformedInput as exc:
        raise raw.error(f"{key}: {exc.message}", key) from exc
    if abs(chips) > MAX_CHIPS:
        raise raw.error(f"{key}: {value} is beyond the largest amount a ledger holds "
                        f"({MAX_CHIPS} chips)", key)
    return chips


def parse_seats(raw: RawHand, stacks: list[int], count: int) -> list[Seat]:
    names = raw.table.get("players", [f"p{i}" for i in range(1, count + 1)])
    numbers = raw.table.get("seats", [None] * count)
    for key, value, ok in (
        ("players", names, lambda v: isinstance(v, str) and v.strip() != ""),
        ("seats", numbers, lambda v: v is None or (type(v) is int and v >= 1)),
    ):
        _check_list(raw, key, value, count, ok)
    if len(set(names)) != count:
        raise raw.error(f"player names are not unique: {names}", "players")
    return [Seat(player=name, stack=stack, seat=number)
            for name, stack, number in zip(names, stacks, numbers, strict=True)]


def _check_list(raw: RawHand, key: str, value: object, count: int,
                ok: Callable[[object], bool]) -> None:
    if not isinstance(value, list) or len(value) != count:
        size = len(value) if isinstance(value, list) else "no list"
        raise raw.error(f"{key} has {size} entries but starting_stacks has {count}", key)
    for n, item in enumerate(value, 1):
        if not ok(item):
            if isinstance(item, str) and not item.strip():
                raise raw.error(f"{key}: entry {n} is an empty name: the file does not name "
                                "this player", key)
            raise raw.error(f"{key}: {item!r} is not valid here", key)
