"""One PHH hand table built into a :class:`~ledger.formats.phh.base.PhhHand` (used by
:mod:`ledger.formats.phh.read`, whose docstring gives the units, hand ids and source keys)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.games import Game
from ledger.formats.bring_in import bring_in_fault
from ledger.formats.phh.base import (
    AGAIN_OF_KEY,
    RESERVED_SOURCE_KEYS,
    SOURCE_KEY,
    PhhAction,
    PhhHand,
    forced_bets,
    scale_amount,
)
from ledger.formats.phh.expected import parse_expected, parse_options, unread_split
from ledger.formats.phh.fields import (
    MODELLED,
    SCALAR_AMOUNTS,
    RawHand,
    check_rake,
    check_required,
    finer_amount,
    hand_decimals,
    parse_actions,
    parse_amounts,
    parse_game,
    parse_seats,
    player_count,
)
from ledger.formats.phh.keys import check_keys
from ledger.formats.phh.scan import normalise
from ledger.model.errors import MalformedInput
from ledger.model.events import (
    AGAIN_OF,
    MAX_CHIPS,
    HandStarted,
    RecordedPayout,
    Stakes,
    Unit,
    qualifier_unsaid,
)
from ledger.model.money import currency_code, minor_units, unit_problem


def _check_bring_in(raw: RawHand, stud: bool, stakes: Stakes) -> None:
    """A stud bring-in is below the full bet (:func:`ledger.formats.bring_in.bring_in_fault`,
    RULES.md §4.1). Raises MalformedInput naming the ``bring_in`` key's line."""
    fault = bring_in_fault(stud, stakes)
    if fault is not None:
        key, reason = fault
        raise raw.error(reason, key)


def build_hand(raw: RawHand) -> PhhHand:
    """The hand of one table (its id before making it unique in the file).

    Its id: ``_hand_id`` (a PHH export of the ledger), else ``<venue or file stem>-<hand>``,
    else ``phh-`` and a digest of its content, so that the same hand imported again is the
    same hand. Such a hand is also known by its place, the file as the path was given and its
    section (``source.file``, ``source.section``): a hand of another content at the place of
    a stored one is that hand edited, which the import refuses
    (:func:`replay.ingest.writing.FileWriter.add`; FORMATS.md §1), and by its deal anywhere
    (:mod:`replay.ingest.samedeal`). A ``_source_key`` (a ledger's export of a hand a site's
    file gave it) is kept in ``source`` as it is: a ledger holding the hand under another id
    knows it by that key (:mod:`replay.ingest.carried_source`). Its ``currency`` is stored
    as its ISO 4217 code.

    Raises:
        MalformedInput: a bad field, naming the file, the key's line, the hand when known
            (a key neither PHH's nor ``_``-prefixed: :func:`~ledger.formats.phh.keys.check_keys`);
            a ``_split`` key of the low half no pot of the hand reads (a no-limit hold'em
            hand's ``low_qualifier = 'none'``; RULES.md §2, §5), naming the hand.
        pydantic.ValidationError: a value the event models refuse.
    """
    table = raw.table
    if "hand" in table:
        raw.label = _file_hand_id(raw)
    for key in ("_hand_id", "_session", AGAIN_OF_KEY, SOURCE_KEY):  # ours: an export's
        if key in table and (not isinstance(table[key], str) or not table[key].strip()):
            if key == SOURCE_KEY and "_hand_id" in table:  # the hand its id names
                raw.label = table["_hand_id"]
            raise raw.error(f"{key} must be a non-empty string", key)
    if "_hand_id" in table:
        raw.label = table["_hand_id"]
    check_keys(raw)
    the_game = parse_game(raw)
    count = player_count(raw)
    check_required(raw, the_game)
    actions = parse_actions(raw)
    decimals = hand_decimals(raw, actions, money_places=_money_places(table))
    amounts = parse_amounts(raw, decimals, count)
    check_rake(raw, decimals)
    seats = parse_seats(raw, amounts["starting_stacks"], count)
    stakes = Stakes(
        betting=the_game.betting,
        antes=amounts["antes"],
        blinds_or_straddles=amounts["blinds_or_straddles"],
        **{key: amounts[key] for key in SCALAR_AMOUNTS},
    )
    if the_game.stud and any(stakes.blinds_or_straddles):
        raise raw.error("stud games post a bring_in, not blinds", "blinds_or_straddles")
    _check_bring_in(raw, the_game.stud, stakes)
    names = [seat.player for seat in seats]
    currency = table.get("currency", table.get("currency_symbol"))
    if currency is not None and not isinstance(currency, str):
        raise raw.error(f"currency {currency!r} is not a string", "currency")
    problem = None  # refused once the hand has its id, which the refusal names (_refusal)
    if currency is not None:  # ISO 4217 money, its code: HandHQ's '$' is USD, 'usd' USD
        problem = unit_problem(currency, decimals)
        currency = currency_code(currency)
    check_chip(raw, currency)
    meta = {key: value for key, value in table.items() if key not in MODELLED}
    for key in RESERVED_SOURCE_KEYS:
        if key in meta:
            raise raw.error(f"key {key!r} is reserved", key)
    _read_again_of(raw, meta)
    started = HandStarted(
        hand="pending",
        game=the_game.code,
        stakes=stakes,
        seats=seats,
        button=None if the_game.stud else names[-1],
        options=parse_options(table, the_game, raw.error, decimals),
        unit=Unit(currency=currency, decimals=decimals),
        source=meta,
    )
    payouts = [
        RecordedPayout(player=name, amount=amount)
        for name, amount in zip(names, amounts["winnings"] or [0] * count, strict=True)
        if amount > 0
    ]
    finishing = amounts["finishing_stacks"] or None
    expected = None
    if "_expected" in table:
        expected = parse_expected(table["_expected"], names, decimals, raw.error)
    hand_id = raw.label or _hash_id(started, actions, payouts, finishing)
    refusal = _refusal(table, the_game, problem)
    if refusal is not None:  # a hand without an id of its own: the one its content gives
        raw.label = hand_id
        raise _refused(raw, actions, refusal, problem, decimals)
    source_key = hashlib.sha256(normalise(raw.text).encode()).hexdigest()
    source = {"file": raw.file, "section": raw.section, "line": raw.line,
              "source_key": source_key, **meta}
    started = started.model_copy(update={"hand": hand_id, "source": source,
                                         "session": table.get("_session")})
    return PhhHand(
        file=raw.file, section=raw.section, line=raw.line, index=raw.index, started=started,
        forced=forced_bets(stakes, seats), actions=actions, payouts=payouts,
        finishing_stacks=finishing, expected=expected, source_key=source_key,
        rake_line=raw.keys.get("rake") if "rake" in table else None,
        exported="_hand_id" in table, notice=_notice(table, the_game),
        notice_line=raw.keys.get("_declare", raw.line),
    )


def _read_again_of(raw: RawHand, meta: dict) -> None:
    """Store the file's ``_again_of`` (ours, FORMATS.md §1: the voided hand a hand ``hand
    again`` recorded records again) in ``meta`` as the ``source`` key
    :data:`ledger.model.events.AGAIN_OF`, where an earlier export's top-level ``again_of``
    stays as it is.

    Raises:
        MalformedInput: both keys given, naming the file and ``again_of``'s line.
    """
    if AGAIN_OF_KEY not in raw.table:
        return
    if AGAIN_OF in meta:  # an earlier export's key beside ours: which one holds?
        raise raw.error(
            f"{AGAIN_OF} and {AGAIN_OF_KEY} are both given: the voided hand this hand "
            f"records again is {AGAIN_OF_KEY} (a key of ours starts with _, FORMATS.md "
            f"§1); leave out {AGAIN_OF}", AGAIN_OF)
    meta[AGAIN_OF] = raw.table[AGAIN_OF_KEY]


def _notice(table: dict, the_game: Game) -> str | None:
    """What the import warns of the hand: a ``_declare`` that gives no ``low_qualifier`` in a
    game whose code names 8-or-better (:func:`ledger.model.events.qualifier_unsaid`)."""
    declare = table.get("_declare")
    if not isinstance(declare, dict):
        return None
    return qualifier_unsaid(declare, game=the_game.code, hilo=the_game.hilo,
                            declare="_declare",
                            eight="give _declare.low_qualifier = '8_or_better'")


def _money_places(table: dict) -> int | None:
    """The minor units of the currency the hand names (USD 2), None for none or an unknown one
    (which :func:`ledger.model.money.unit_problem` refuses by name)."""
    currency = table.get("currency", table.get("currency_symbol"))
    return minor_units(currency_code(currency)) if isinstance(currency, str) else None


def _refused(raw: RawHand, actions: list, refusal: tuple[str, str], problem: str | None,
             decimals: int) -> MalformedInput:
    """The error of a ``refusal`` (:func:`_refusal`); amounts finer than the currency's minor
    unit are named by the first such amount, at its line (its key's or its action's)."""
    places_at_most = _money_places(raw.table)
    if problem is not None and places_at_most is not None and decimals > places_at_most:
        amount, key, action = finer_amount(raw, actions, places_at_most)
        if amount:
            return raw.error(f"{key or 'bet'} {amount}: {problem}", key,
                             line=action.line if action else None,
                             action=action.text if action else None)
    return raw.error(*refusal)


def _refusal(table: dict, the_game: Game, problem: str | None) -> tuple[str, str] | None:
    """What refuses a hand once it has its id, and the key whose line the refusal names: a
    ``problem`` with its money (:func:`ledger.model.money.unit_problem`), else a ``_split``
    key no pot of the hand reads (:func:`~ledger.formats.phh.expected.unread_split`)."""
    if problem is not None:
        return problem, "currency" if "currency" in table else "currency_symbol"
    unread = unread_split(table, the_game)
    return None if unread is None else (unread, "_split")


def _file_hand_id(raw: RawHand) -> str:
    venue = raw.table.get("venue")
    label = venue if isinstance(venue, str) and venue.strip() else Path(raw.file).stem
    return f"{'_'.join(label.split())}-{raw.table['hand']}"


def _hash_id(started: HandStarted, actions: list[PhhAction], payouts: list[RecordedPayout],
             finishing: list[int] | None) -> str:
    decimals = started.unit.decimals
    canonical = {
        # exclude_defaults: a field added to the models later does not change old ids
        "started": started.model_dump(
            mode="json", exclude={"hand", "session"}, exclude_defaults=True
        ),
        "actions": [_chip_text(action.text, decimals) for action in actions],
        "payouts": [[p.player, p.amount] for p in payouts],
        "finishing_stacks": finishing,
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), default=str)
    return "phh-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def _chip_text(text: str, decimals: int) -> str:
    if "cbr" not in text:
        return text  # already one space between words (fields.parse_actions)
    parts = text.split()
    if len(parts) >= 3 and parts[1] == "cbr":
        try:
            parts[2] = str(scale_amount(parts[2], decimals))
        except MalformedInput:  # refused where the hand is replayed, naming line and action
            pass
    return " ".join(parts)


def check_chip(raw: RawHand, currency: object) -> None:
    """Check our ``_chip = { minor_per_chip = N }`` (FORMATS.md §1, a user extension): what
    one chip of the hand is worth, N minor units of its ``currency`` (a 0.25 USD chip: 25),
    written by ``export --format phh`` for a hand counted in a session's chips of money,
    whose amounts it writes as money. The table is kept in ``started.source``; the import
    counts the hand in those chips again (:func:`replay.build.phh_fold`).

    Raises:
        MalformedInput: ``_chip`` is not that table, N is not a whole number from 1 to
            2^53 - 1, or the hand names no currency (naming the key's line).
    """
    if "_chip" not in raw.table:
        return
    chip = raw.table["_chip"]
    worth = chip.get("minor_per_chip") if isinstance(chip, dict) else None
    if not isinstance(chip, dict) or set(chip) != {"minor_per_chip"} or not (
            type(worth) is int and 1 <= worth <= MAX_CHIPS):
        raise raw.error(f"_chip must be {{ minor_per_chip = N }}, N a whole number of minor "
                        f"units from 1 to {MAX_CHIPS}, not {chip!r}", "_chip")
    if currency is None:
        raise raw.error("_chip says what a chip is worth in minor units of the hand's "
                        "currency, but the hand names no currency", "_chip")
