"""Our PHH extensions (FORMATS.md §1): ``_split``, ``_declare``, ``_reopen_rule``, ``_expected``.

Option tables accept exactly the field names and values of the event models
(:class:`~ledger.model.events.SplitOptions`, :class:`~ledger.model.events.DeclareOptions`); a
missing key takes its default, and a missing ``_split`` uses the game's odd-chip order (stud:
``card_by_suit``, RULES.md §5). ``_split``'s ``smallest_chip``, the smallest chip in play
(RULES.md §2.1), is an amount, written as the hand's other amounts are (``0.25``); it is
written only when it is not one chip. ``_expected`` amounts are scaled like the hand's other
amounts and its labels ``p1 … pN`` become player names.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from enum import Enum
from typing import Any

from engine.games import Game
from ledger.formats.phh.base import Expected, ExpectedPot, scale_amount
from ledger.model.errors import MalformedInput
from ledger.model.events import (
    LOW_HALF_KEYS,
    MAX_CHIPS,
    DeclareOptions,
    RuleOptions,
    SplitOptions,
    unread_low_half,
)

ErrorFactory = Callable[..., MalformedInput]
REOPEN_RULES = ("full_bet", "half_bet")
_EXPECTED_KEYS = ("awards", "pots", "returned", "carried", "pot_awards", "contributions")


def option_values(model: type[SplitOptions | DeclareOptions], name: str) -> tuple[Any, ...]:
    """The values one option accepts, from the model's annotation.

    >>> option_values(DeclareOptions, "method")
    ('simultaneous', 'in_turn')
    """
    annotation = model.model_fields[name].annotation
    if annotation is bool:
        return (False, True)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(member.value for member in annotation)
    return typing.get_args(annotation)


def _option_table(
    table: Mapping[str, Any], key: str, model: type[SplitOptions | DeclareOptions],
    defaults: dict[str, Any], error: ErrorFactory,
) -> Any:
    given = table.get(key, {})
    if not isinstance(given, dict):
        raise error(f"{key} must be a table of options", key)
    for name, value in given.items():
        if name not in model.model_fields:
            known = ", ".join(model.model_fields)
            raise error(f"unknown {key} option {name!r} (known: {known})", key)
        allowed = option_values(model, name)
        if type(value) not in {type(v) for v in allowed} or value not in allowed:
            choices = " | ".join(_show(v) for v in allowed)
            raise error(f"{key}.{name} = {_show(value)} is not one of {choices}", key)
    return model(**(defaults | given))


def _show(value: object) -> str:
    """A value as TOML writes it (``true``, ``'A-5'``)."""
    return str(value).lower() if isinstance(value, bool) else repr(value)


def parse_options(table: Mapping[str, Any], the_game: Game, error: ErrorFactory,
                  decimals: int = 0) -> RuleOptions:
    """The hand's :class:`RuleOptions` from its extension keys (see module doc); ``decimals``:
    the hand's scale, as :func:`~ledger.formats.phh.base.scale_amount` takes it.

    Raises (via ``error``): an unknown option name or value, a non-table option key, or a
    ``smallest_chip`` that is not a whole number of at least one of the hand's chips.
    """
    defaults: dict[str, Any] = {"odd_chip_tie_order": the_game.tie_order}
    given = table.get("_split")
    if isinstance(given, dict) and "smallest_chip" in given:
        defaults["smallest_chip"] = _smallest_chip(given["smallest_chip"], decimals, error)
        table = {**table, "_split": {k: v for k, v in given.items() if k != "smallest_chip"}}
    split = _option_table(table, "_split", SplitOptions, defaults, error)
    declare = None
    if "_declare" in table:
        declare = _option_table(table, "_declare", DeclareOptions, {}, error)
    reopen = table.get("_reopen_rule", the_game.default_reopen_rule)
    if reopen not in REOPEN_RULES:
        raise error(f"_reopen_rule = {reopen!r} is not one of {REOPEN_RULES}", "_reopen_rule")
    return RuleOptions(reopen_rule=reopen, split=split, declare=declare)


def unread_split(table: Mapping[str, Any], the_game: Game) -> str | None:
    """Why the hand's ``_split`` sets a key of the low half that no pot of the hand reads
    (``"_split.low_qualifier splits a cards-speak high-low pot (RULES.md §2), and NT has no
    low half: leave it out"``), or None: the rule ``hand start`` follows
    (:func:`ledger.model.events.unread_low_half`; RULES.md §2, §3, §5; FORMATS.md
    ``_split``). A key set to its default changes nothing the hand stores and is let be:
    this ledger's PHH export writes ``odd_chip_between_halves`` (one of FORMATS.md's two
    ``_split`` keys) in every hand. Call it once :func:`parse_options` has read the table.
    """
    given = table.get("_split")
    if not isinstance(given, dict):
        return None
    default = SplitOptions.model_construct()
    keys = [key for key, value in given.items()
            if key in LOW_HALF_KEYS and value != getattr(default, key)]
    unread = unread_low_half(keys, game=the_game.code, hilo=the_game.hilo,
                             declare="_declare" if "_declare" in table else None)
    return None if unread is None else f"_split.{unread}"


def options_tables(options: RuleOptions, the_game: Game, decimals: int = 0) -> dict[str, Any]:
    """The extension keys that record ``options`` (the inverse of :func:`parse_options`).

    ``_split`` is always written (its two FORMATS.md keys, plus ``low_method`` /
    ``low_qualifier`` when they are not the defaults, and ``smallest_chip`` when it is not
    one chip, as an amount of ``decimals`` places), ``_declare`` in full when the hand is a
    declare hand, ``_reopen_rule`` only when it is not the game's default.
    """
    out: dict[str, Any] = {}
    if options.reopen_rule not in (None, the_game.default_reopen_rule):
        out["_reopen_rule"] = options.reopen_rule
    split = options.split.model_dump(mode="json", exclude={"smallest_chip"})
    defaults = SplitOptions().model_dump(mode="json")
    keep = ("odd_chip_between_halves", "odd_chip_tie_order")
    out["_split"] = {k: v for k, v in split.items() if k in keep or v != defaults[k]}
    chip = options.split.smallest_chip
    if chip != 1:
        out["_split"]["smallest_chip"] = Decimal(chip).scaleb(-decimals) if decimals else chip
    if options.declare is not None:
        out["_declare"] = options.declare.model_dump(mode="json")
    return out


def _smallest_chip(value: object, decimals: int, error: ErrorFactory) -> int:
    """``_split.smallest_chip`` in the hand's chips (RULES.md §2.1).

    Raises (via ``error``): not a number, more decimal places than the hand's, below one
    chip, or beyond the largest amount a ledger holds.
    """
    try:
        chips = scale_amount(value, decimals)  # type: ignore[arg-type]
    except MalformedInput as exc:
        raise error(f"_split.smallest_chip: {exc.message}", "_split") from exc
    if not 1 <= chips <= MAX_CHIPS:
        raise error(f"_split.smallest_chip = {_show(value)} is not at least one chip of the "
                    "hand", "_split")
    return chips


# --------------------------------------------------------------------------------------------
# _expected


class _Labels:
    def __init__(self, names: Sequence[str], decimals: int, error: ErrorFactory) -> None:
        self.names, self.decimals, self.error = list(names), decimals, error

    def name(self, label: object) -> str:
        if isinstance(label, str) and label.startswith("p") and label[1:].isdigit():
            k = int(label[1:])
            if 1 <= k <= len(self.names):
                return self.names[k - 1]
        raise self.error(f"_expected: {label!r} is not a player label p1..p{len(self.names)}",
                         "_expected")

    def chips(self, value: object) -> int:
        try:
            return scale_amount(value, self.decimals)  # type: ignore[arg-type]
        except MalformedInput as exc:
            raise self.error(f"_expected: {exc.message}", "_expected") from exc

    def per_player(self, value: object, what: str) -> dict[str, int]:
        if not isinstance(value, dict):
            raise self.error(f"_expected.{what} must be a table of p-label = amount", "_expected")
        return {self.name(label): self.chips(amount) for label, amount in value.items()}

    def pot(self, value: object) -> ExpectedPot:
        if not isinstance(value, dict) or set(value) != {"amount", "eligible"}:
            raise self.error("_expected.pots entries need exactly amount and eligible",
                             "_expected")
        eligible = value["eligible"]
        if not isinstance(eligible, list):
            raise self.error("_expected.pots eligible must be a list of labels", "_expected")
        return ExpectedPot(self.chips(value["amount"]), tuple(self.name(x) for x in eligible))

    def items(self, value: object, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(f"_expected.{what} must be a list", "_expected")
        return value


def parse_expected(value: object, names: Sequence[str], decimals: int,
                   error: ErrorFactory) -> Expected:
    """Parse ``_expected`` into :class:`Expected` (chips, player names).

    Raises (via ``error``): not a table, an unknown key, a label that is no player, a bad
    amount.
    """
    if not isinstance(value, dict):
        raise error("_expected must be a table", "_expected")
    unknown = sorted(set(value) - set(_EXPECTED_KEYS))
    if unknown:
        raise error(f"unknown _expected keys {unknown} (known: {list(_EXPECTED_KEYS)})",
                    "_expected")
    labels = _Labels(names, decimals, error)
    return Expected(
        awards=labels.per_player(value.get("awards", {}), "awards"),
        pots=tuple(labels.pot(p) for p in labels.items(value.get("pots", []), "pots")),
        returned=labels.per_player(value.get("returned", {}), "returned"),
        carried=labels.chips(value.get("carried", 0)),
        pot_awards=tuple(labels.per_player(p, "pot_awards")
                         for p in labels.items(value.get("pot_awards", []), "pot_awards")),
        contributions=labels.per_player(value.get("contributions", {}), "contributions"),
    )


def expected_table(expected: Expected, names: Sequence[str], decimals: int) -> dict[str, Any]:
    """``_expected`` for writing: amounts back to PHH numbers, names back to ``p1 … pN``."""
    from decimal import Decimal

    label = {name: f"p{k}" for k, name in enumerate(names, 1)}

    def money(chips: int) -> int | Decimal:
        return Decimal(chips).scaleb(-decimals) if decimals else chips

    def per_player(values: Mapping[str, int]) -> dict[str, Any]:
        return {label[name]: money(amount) for name, amount in values.items()}

    return {
        "awards": per_player(expected.awards),
        "pots": [{"amount": money(p.amount), "eligible": [label[n] for n in p.eligible]}
                 for p in expected.pots],
        "returned": per_player(expected.returned),
        "carried": money(expected.carried),
        "pot_awards": [per_player(p) for p in expected.pot_awards],
        "contributions": per_player(expected.contributions),
    }
