"""Read PHH hand histories into a typed intermediate, and write them back.

PHH (FORMATS.md §1) is TOML: one hand per ``.phh`` file, or tables ``[1]``, ``[2]``, … in a
``.phhs`` file. :func:`read_phh` returns a :class:`PhhFile` whose ``hands`` are
:class:`PhhHand` values (a ``HandStarted``, the header's ``ForcedBet`` list, the action strings
with their line numbers, ``RecordedPayout`` values from ``winnings``, ``_expected``) and whose
``errors`` hold one :class:`~ledger.model.errors.MalformedInput` per bad hand, naming file, line
and,
when known, hand and action. The action strings themselves are parsed elsewhere; their amounts
are money as written: ``scale_amount(text, hand.started.unit.decimals)`` gives chips.

Units: every amount of a hand is scaled by ``10 ** d`` into integer chips, ``d`` being the
largest number of decimal places written among its amounts (stacks, antes, blinds, bring-in,
bet sizes, ``cbr`` amounts, ``winnings``, ``finishing_stacks``); ``unit.decimals = d`` and
``unit.currency`` is ``currency`` (else ``currency_symbol``).

Hand ids: ``<venue or file stem>-<hand>`` when the file gives ``hand`` (whitespace in the venue
becomes ``_``), else ``phh-`` + the first 12 hex digits of the sha256 of the hand's canonical
JSON (what was played: game, stakes, seats, options, unit, metadata, comment-free actions with
amounts in chips, payouts, finishing stacks, fields at their defaults left out; never the file
name, comments, layout or ``_expected``). A repeated id inside one
file gets ``-2``, ``-3``, … in file order. Ids are therefore stable across re-imports and
across a write/read round trip; ``PhhHand.source_key`` (also ``started.source["source_key"]``)
recognises the very same text imported again.

Player names come from ``players`` (else ``p1 … pN``); the button is the last player in button
games and None in stud games. ``_split`` / ``_declare`` accept exactly the option names and
values of :class:`~ledger.model.events.SplitOptions` / :class:`~ledger.model.events.DeclareOptions`
(FORMATS.md §1, RULES.md §5); ``_reopen_rule`` (ours) overrides the game's default
``reopen_rule``. Every other top-level key (``venue``, ``hand``, ``ante_trimming_status``,
``currency_symbol``, ``author``, …) is kept verbatim in ``started.source``, next to ``file``,
``section``, ``line`` and ``source_key``.

``stakes.antes`` / ``stakes.blinds_or_straddles`` are PHH's own lists in chips, same order and
signs (heads-up: entry 0 is the small blind, posted by p2, the button; a negative entry is a
posted blind); the forced bets say who posted what (:mod:`ledger.formats.phh.base`).

Module layout: :mod:`ledger.formats.phh.base` (amounts, forced bets, the dataclasses),
:mod:`ledger.formats.phh.fields` (per-key validation), :mod:`ledger.formats.phh.expected`
(extensions),
:mod:`ledger.formats.phh.scan` (line numbers), :mod:`ledger.formats.phh.write` (writing).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from pydantic import ValidationError

try:  # tomli built with mypyc parses a PHH hand about twice as fast as tomllib (see pyproject)
    from tomli import TOMLDecodeError as _FastTomlError
    from tomli import loads as _fast_toml
except ImportError:  # pragma: no cover - an environment installed before tomli was required
    from tomllib import TOMLDecodeError as _FastTomlError
    from tomllib import loads as _fast_toml

from ledger.formats.phh.base import (
    RESERVED_SOURCE_KEYS,
    Expected,
    ExpectedPot,
    PhhAction,
    PhhFile,
    PhhHand,
    forced_bets,
    format_amount,
    scale_amount,
)
from ledger.formats.phh.expected import parse_expected, parse_options
from ledger.formats.phh.fields import (
    MODELLED,
    SCALAR_AMOUNTS,
    RawHand,
    check_required,
    hand_decimals,
    parse_actions,
    parse_amounts,
    parse_game,
    parse_seats,
    player_count,
)
from ledger.formats.phh.scan import (
    TableTexts,
    non_comment_lines,
    normalise,
    scan_layout,
    split_sections,
    toml_error_line,
)
from ledger.formats.phh.write import write_hand, write_phh, write_phhs
from ledger.model.errors import MalformedInput
from ledger.model.events import HandStarted, RecordedPayout, Stakes, Unit

__all__ = [
    "Expected",
    "ExpectedPot",
    "PhhAction",
    "PhhFile",
    "PhhHand",
    "format_amount",
    "read_phh",
    "read_phh_text",
    "scale_amount",
    "write_hand",
    "write_phh",
    "write_phhs",
]

# --------------------------------------------------------------------------------------------
# Files


def read_phh(path: str | os.PathLike[str]) -> PhhFile:
    """Read a ``.phh`` (one hand) or ``.phhs`` (tables ``[1]``, ``[2]``, …) file.

    Never raises for bad content: a file that is not UTF-8 or (``.phh``) not TOML gives one
    error and no hands; in a ``.phhs`` each bad hand gives one error and the good hands are
    still returned (even when another hand's TOML is broken).

    Raises:
        OSError: the file cannot be read.
    """
    file = os.fspath(path)
    data = Path(file).read_bytes()
    suffix = Path(file).suffix.lower()
    multi = True if suffix == ".phhs" else False if suffix == ".phh" else None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        error = MalformedInput(f"not UTF-8 ({exc.reason})", file=file, line=line)
        return PhhFile(file, [], [error])
    return read_phh_text(text, file=file, multi=multi)


def read_phh_text(text: str, *, file: str = "<text>", multi: bool | None = None) -> PhhFile:
    """Read PHH from a string (see :func:`read_phh`).

    ``multi``: True for a ``.phhs`` (every top-level table is a hand, any other top-level key
    is an error), False for a ``.phh`` (the document is the hand), None to decide from the
    content (tables holding a ``variant`` → ``.phhs``). A top-level ``variant`` always means
    one hand. When the text is not valid TOML, a ``.phh`` gives one error, otherwise the
    ``[n]`` tables that parse on their own are still read.

    Time is linear in the size of the text. A plain ``.phhs`` (:func:`_read_plain`: what
    real files are) is read one section at a time, its TOML never held whole.
    """
    if multi is not False:
        plain = _read_plain(text, file, multi)
        if plain is not None:
            return plain
    return _read_whole(text, file, multi)


def _read_plain(text: str, file: str, multi: bool | None) -> PhhFile | None:
    """:func:`read_phh_text` of a plain ``.phhs``, section by section; None when the text is
    not plain. Plain: nothing but comments before the first ``[n]`` header, no header name
    twice, and every section parses on its own and defines its own table alone (the first
    one holding a ``variant`` when ``multi`` is None). The whole text is then valid TOML
    whose tables are exactly the sections' (a section cut inside a multi-line string or
    array never parses alone), so the hands, errors, lines and source keys are those of
    :func:`_read_whole`, which reads any other text. A section is parsed by tomli, whose
    TOML 1.0 grammar and values are tomllib's (tomllib is the tomli of its day); anything
    tomli refuses goes to :func:`_read_whole`, whose errors are tomllib's."""
    head, sections = split_sections(text)
    if not sections or non_comment_lines(head):
        return None
    if len({section.name for section in sections}) != len(sections):
        return None
    hands: list[PhhHand] = []
    errors: list[MalformedInput] = []
    ids = _UniqueIds()
    for index, section in enumerate(sections):
        try:
            doc = _fast_toml(section.text, parse_float=Decimal)
        except (_FastTomlError, RecursionError):  # the whole reading words the error
            return None
        table = doc.get(section.name)
        if len(doc) != 1 or not isinstance(table, dict):
            return None
        if index == 0 and multi is None and "variant" not in table:
            return None  # maybe one hand of tables: the whole document decides
        layout = scan_layout(section.text, section.line)
        keys, actions = layout.keys.get(section.name, {}), layout.actions.get(section.name, [])
        body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
        raw = RawHand(file, section.name, section.line, index, table, keys, actions, body)
        try:
            hands.append(ids(_hand(raw)))
        except MalformedInput as exc:
            errors.append(exc)
        except ValidationError:
            return None  # raised by the whole-text reading as well, at the same hand
    errors.sort(key=lambda e: e.line or 0)
    return PhhFile(file, hands, errors)


class _UniqueIds:
    """A hand id met again in the same file gets ``-2``, ``-3``, … (in file order)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, hand: PhhHand) -> PhhHand:
        count = self.seen[hand.hand] = self.seen.get(hand.hand, 0) + 1
        if count == 1:
            return hand
        started = hand.started.model_copy(update={"hand": f"{hand.hand}-{count}"})
        return replace(hand, started=started)


def _read_whole(text: str, file: str, multi: bool | None) -> PhhFile:
    """:func:`read_phh_text` of any text: its TOML parsed whole (by sections when broken)."""
    try:
        doc = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        if multi is False or not split_sections(text)[1]:
            return PhhFile(file, [], [_toml_error(exc, file, None)])
        return _read_sections(text, file)
    if not doc:
        return PhhFile(file, [], [MalformedInput("no hand in the file", file=file, line=1)])
    if multi is None:
        multi = any(isinstance(v, dict) and "variant" in v for v in doc.values())
    multi = multi and "variant" not in doc
    layout = scan_layout(text)
    if not multi:
        raw = RawHand(file, None, 1, 0, doc, layout.keys[None], layout.actions.get(None, []), text)
        return _finish(file, [raw], [])
    raws, errors = [], []
    bodies = TableTexts(text, layout)
    for index, (name, table) in enumerate(doc.items()):
        line = layout.tables.get(name) or layout.keys[None].get(name, 1)
        if not isinstance(table, dict) or name not in layout.tables:  # a dotted key: x.y = 1
            errors.append(MalformedInput(f"{name!r} is not a hand table", file=file, line=line))
            continue
        keys, actions = layout.keys.get(name, {}), layout.actions.get(name, [])
        raws.append(RawHand(file, name, line, index, table, keys, actions, bodies(name)))
    return _finish(file, raws, errors)


def _toml_error(exc: tomllib.TOMLDecodeError, file: str, section: str | None,
                first_line: int = 1) -> MalformedInput:
    """The error for TOML that does not parse; ``first_line``: the line of the parsed text's
    first line in the file (tomllib counts from 1)."""
    where = f"[{section}] " if section is not None else ""
    message = str(exc)
    if first_line > 1:
        message = _AT_LINE_RE.sub(lambda m: f"(at line {int(m[1]) + first_line - 1},",
                                  message, count=1)
    return MalformedInput(f"{where}bad TOML: {message}", file=file,
                          line=toml_error_line(message))


_AT_LINE_RE = re.compile(r"\(at line (\d+),(?=[^(]*\)$)")


def _read_sections(text: str, file: str) -> PhhFile:
    """Parse a broken ``.phhs`` hand by hand so that the good hands survive."""
    head, sections = split_sections(text)
    errors = []
    stray = non_comment_lines(head)
    if stray:
        errors.append(MalformedInput("text before the first hand table", file=file, line=stray[0]))
    raws, seen = [], set()
    for index, section in enumerate(sections):
        try:
            doc = tomllib.loads(section.text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as exc:
            errors.append(_toml_error(exc, file, section.name, section.line))
            continue
        table = doc.get(section.name)
        if section.name in seen or not isinstance(table, dict):
            message = f"table [{section.name}] is repeated or not a hand"
            errors.append(MalformedInput(message, file=file, line=section.line))
            continue
        seen.add(section.name)
        layout = scan_layout(section.text, section.line)
        keys, actions = layout.keys.get(section.name, {}), layout.actions.get(section.name, [])
        body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
        raws.append(RawHand(file, section.name, section.line, index, table, keys, actions, body))
    return _finish(file, raws, errors)


def _finish(file: str, raws: list[RawHand], errors: list[MalformedInput]) -> PhhFile:
    """Build every hand, collect errors, and make ids unique inside the file."""
    hands: list[PhhHand] = []
    ids = _UniqueIds()
    for raw in raws:
        try:
            hands.append(ids(_hand(raw)))
        except MalformedInput as exc:
            errors.append(exc)
    errors.sort(key=lambda e: e.line or 0)
    if not hands and not errors:
        errors.append(MalformedInput("no hand in the file", file=file, line=1))
    return PhhFile(file, hands, errors)


# --------------------------------------------------------------------------------------------
# One hand


def _hand(raw: RawHand) -> PhhHand:
    table = raw.table
    if "hand" in table:
        raw.label = _file_hand_id(raw)
    for key in ("_hand_id", "_session"):  # ours: what a PHH export keeps of the ledger
        if key in table and (not isinstance(table[key], str) or not table[key].strip()):
            raise raw.error(f"{key} must be a non-empty string", key)
    if "_hand_id" in table:
        raw.label = table["_hand_id"]
    the_game = parse_game(raw)
    count = player_count(raw)
    check_required(raw, the_game)
    actions = parse_actions(raw)
    decimals = hand_decimals(raw, actions)
    amounts = parse_amounts(raw, decimals, count)
    seats = parse_seats(raw, amounts["starting_stacks"], count)
    stakes = Stakes(
        betting=the_game.betting,
        antes=amounts["antes"],
        blinds_or_straddles=amounts["blinds_or_straddles"],
        **{key: amounts[key] for key in SCALAR_AMOUNTS},
    )
    if the_game.stud and any(stakes.blinds_or_straddles):
        raise raw.error("stud games post a bring_in, not blinds", "blinds_or_straddles")
    names = [seat.player for seat in seats]
    currency = table.get("currency", table.get("currency_symbol"))
    if currency is not None and not isinstance(currency, str):
        raise raw.error(f"currency {currency!r} is not a string", "currency")
    meta = {key: value for key, value in table.items() if key not in MODELLED}
    for key in RESERVED_SOURCE_KEYS:
        if key in meta:
            raise raw.error(f"key {key!r} is reserved", key)
    started = HandStarted(
        hand="pending",
        game=the_game.code,
        stakes=stakes,
        seats=seats,
        button=None if the_game.stud else names[-1],
        options=parse_options(table, the_game, raw.error),
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
    source_key = hashlib.sha256(normalise(raw.text).encode()).hexdigest()
    source = {"file": raw.file, "section": raw.section, "line": raw.line,
              "source_key": source_key, **meta}
    started = started.model_copy(update={"hand": hand_id, "source": source,
                                         "session": table.get("_session")})
    return PhhHand(
        file=raw.file, section=raw.section, line=raw.line, index=raw.index, started=started,
        forced=forced_bets(stakes, seats), actions=actions, payouts=payouts,
        finishing_stacks=finishing, expected=expected, source_key=source_key,
    )


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
        parts[2] = str(scale_amount(parts[2], decimals))
    return " ".join(parts)
