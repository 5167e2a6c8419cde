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
``unit.currency`` is ``currency`` (else ``currency_symbol``). A ``rake``, kept as written in
``started.source``, must be whole chips at that scale
(:func:`ledger.formats.phh.fields.check_rake`); it never sets it.

Hand ids: ``<venue or file stem>-<hand>`` when the file gives ``hand`` (whitespace in the venue
becomes ``_``), else ``phh-`` + the first 12 hex digits of the sha256 of the hand's canonical
JSON (what was played: game, stakes, seats, options, unit, metadata, comment-free actions with
amounts in chips, payouts, finishing stacks, fields at their defaults left out; never the file
name, comments, layout or ``_expected``). A repeated id inside one
file is the same hand again when its game, players, seats and known hole cards say so (the
same content: that hand; other content: an error), else another hand, which gets ``-2``,
``-3``, … in file order (:mod:`ledger.formats.phh.repeats`). Ids are therefore stable
across re-imports and across a write/read round trip; ``PhhHand.source_key`` (also
``started.source["source_key"]``) recognises the very same text imported again.

Player names come from ``players`` (else ``p1 … pN``); the button is the last player in button
games and None in stud games. ``_split`` / ``_declare`` accept exactly the option names and
values of :class:`~ledger.model.events.SplitOptions` / :class:`~ledger.model.events.DeclareOptions`
(FORMATS.md §1, RULES.md §5), and ``_split`` no key of the low half, but at its default,
where no pot of the hand reads it (:func:`ledger.formats.phh.expected.unread_split`, the rule
``hand start`` follows); ``_reopen_rule`` (ours) overrides the game's default
``reopen_rule``; ``_again_of`` (ours: the voided hand a hand ``hand again`` recorded records
again) is stored as ``started.source["again_of"]`` (:data:`ledger.model.events.AGAIN_OF`;
an earlier export's top-level ``again_of`` is kept there as it is, the two together refused).
Every other top-level key (``venue``, ``hand``, ``ante_trimming_status``,
``currency_symbol``, ``author``, …) is kept verbatim in ``started.source``, next to ``file``,
``section``, ``line`` and ``source_key``.

``stakes.antes`` / ``stakes.blinds_or_straddles`` are PHH's own lists in chips, same order and
signs (heads-up: entry 0 is the small blind, posted by p2, the button; a negative entry is a
posted blind); the forced bets say who posted what (:mod:`ledger.formats.phh.base`).

Module layout: :mod:`ledger.formats.phh.base` (amounts, forced bets, the dataclasses),
:mod:`ledger.formats.phh.fields` (per-key validation), :mod:`ledger.formats.phh.hand` (one
hand built), :mod:`ledger.formats.phh.expected` (extensions),
:mod:`ledger.formats.phh.scan` (line numbers), :mod:`ledger.formats.phh.write` (writing).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from decimal import Decimal
from functools import partial
from pathlib import Path

try:  # tomli built with mypyc parses a PHH hand about twice as fast as tomllib (see pyproject)
    from tomli import TOMLDecodeError as _FastTomlError
    from tomli import loads as _fast_toml
except ImportError:  # pragma: no cover - an environment installed before tomli was required
    from tomllib import TOMLDecodeError as _FastTomlError
    from tomllib import loads as _fast_toml

from ledger.formats.files import (
    decode_text,
    file_name,
    line_error,
    long_line,
    read_capped,
    utf16_bom,
    utf16_unmarked,
)
from ledger.formats.phh.base import (
    Expected,
    ExpectedPot,
    PhhAction,
    PhhFile,
    PhhHand,
    format_amount,
    scale_amount,
)
from ledger.formats.phh.fields import RawHand
from ledger.formats.phh.hand import build_hand
from ledger.formats.phh.repeats import HandIds
from ledger.formats.phh.scan import (
    Section,
    TableTexts,
    header_name,
    non_comment_lines,
    scan_layout,
    split_sections,
    toml_error_line,
)
from ledger.formats.phh.write import write_hand, write_phh, write_phhs
from ledger.model.errors import FileNotText, MalformedInput, RepeatedHand
from ledger.model.events import MAX_DEPTH

__all__ = [
    "Expected",
    "ExpectedPot",
    "PhhAction",
    "PhhFile",
    "PhhHand",
    "format_amount",
    "iter_phh",
    "iter_phh_text",
    "read_phh",
    "read_plain_part",
    "read_phh_text",
    "read_phh_whole",
    "scale_amount",
    "write_hand",
    "write_phh",
    "write_phhs",
]

# --------------------------------------------------------------------------------------------
# Files

Item = PhhHand | MalformedInput


def read_phh(path: str | os.PathLike[str]) -> PhhFile:
    """Read a ``.phh`` (one hand) or ``.phhs`` (tables ``[1]``, ``[2]``, …) file. A ``.phh``
    whose first line (comments aside) is a table header is hands as tables, read as its
    content decides (a ``.phhs`` under the other name: README, files found by content).

    Never raises for bad content: a file that is not UTF-8 or (``.phh``) not TOML gives one
    error and no hands; in a ``.phhs`` each bad hand gives one error and the good hands are
    still returned (even when another hand's TOML is broken).

    Raises:
        OSError: the file cannot be read.
    """
    return _collect(file_name(path), iter_phh(path))


def iter_phh(path: str | os.PathLike[str]) -> Iterator[Item]:
    """:func:`read_phh` one hand (or error) at a time, in file order but for the errors,
    whose order is free (:func:`read_phh` sorts them by line); see :func:`iter_phh_text`.

    Raises:
        OSError: the file cannot be read.
        pydantic.ValidationError: as :func:`read_phh`, at the same hand.
    """
    file = file_name(path)  # a name that is not UTF-8 is written with \\xNN escapes
    try:
        data = read_capped(path)  # a regular file within the caps (ledger.formats.reading)
    except MalformedInput as exc:
        yield exc
        return
    suffix = Path(path).suffix.lower()
    multi = True if suffix == ".phhs" else False if suffix == ".phh" else None
    unmarked = utf16_unmarked(data)
    if unmarked is not None:  # NUL bytes that TOML would refuse as its first error
        yield MalformedInput(f"the file looks like {unmarked} text without its byte-order "
                             "mark (a NUL byte beside each character): PHH is read as UTF-8, or "
                             "as UTF-16 after its byte-order mark: save it as UTF-8",
                             file=file, line=1)
        return
    try:
        if utf16_bom(data) is not None:  # UTF-16 after its byte-order mark (Windows tools)
            text = decode_text(data, name=file)
        else:
            text = data.decode("utf-8-sig")
    except MalformedInput as exc:
        yield exc
        return
    except UnicodeDecodeError as exc:
        yield _not_utf8(data, exc, file, multi)
        return
    del data
    if multi is False and _opens_with_table(text):
        multi = None  # hands as tables ([1], [2], … as `export --format phh` writes several)
    too_long = long_line(text)
    if too_long is not None:
        yield line_error(file, too_long)
        return
    yield from iter_phh_text(text, file=file, multi=multi)


#: A top-level table header line of a ``.phhs`` (``[12]``; not a sub-table, ``[12._expected]``).
_TABLE_RE = re.compile(rb"^[ \t]*\[[ \t]*([^\[\]\.\s]+)[ \t]*\][ \t]*\r?$", re.M)


def _not_utf8(data: bytes, exc: UnicodeDecodeError, file: str, multi: bool | None
              ) -> MalformedInput:
    """The one error of a file whose bytes ``data`` are not UTF-8 (``exc``), at the line of the
    first such byte. Of hand tables (not a ``.phh`` of one hand): the table the byte is in,
    and that the file is refused whole, its other tables not written
    (:class:`FileNotText`)."""
    line = data.count(b"\n", 0, exc.start) + 1
    tables = [] if multi is False else _TABLE_RE.findall(data)
    if not tables:
        return MalformedInput(f"not UTF-8 ({exc.reason})", file=file, line=line)
    before = _TABLE_RE.findall(data, 0, exc.start)
    table = f"[{before[-1].decode('ascii', 'replace')}] " if before else ""
    return FileNotText(f"{table}not UTF-8 ({exc.reason}): a file of hand tables is read as "
                       "text whole; nothing of the file was written",
                       others=len(tables) - bool(before), file=file, line=line)


def _opens_with_table(text: str) -> bool:
    """Whether the first line of ``text`` holding more than a comment is a table header: a
    file found by its content to be hands as tables (a ``.phhs`` named ``.phh``), since one
    hand's keys (``variant = …``) come before any table of his (TOML puts top-level keys
    first). Reads only up to that line."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        line = text[start: end if end >= 0 else len(text)].strip()
        if line and not line.startswith("#"):
            return line.startswith("[")
        if end < 0:
            return False
        start = end + 1
    return False


def read_phh_text(text: str, *, file: str = "<text>", multi: bool | None = None) -> PhhFile:
    """Read PHH from a string (see :func:`read_phh`).

    ``multi``: True for a ``.phhs`` (every top-level table is a hand, any other top-level key
    is an error), False for a ``.phh`` (the document is the hand), None to decide from the
    content (tables holding a ``variant`` → ``.phhs``). A top-level ``variant`` always means
    one hand. When the text is not valid TOML, a ``.phh`` gives one error, otherwise the
    ``[n]`` tables that parse on their own are still read. Time is linear in the size of
    the text (:func:`iter_phh_text`).
    """
    return _collect(file, iter_phh_text(text, file=file, multi=multi))


def read_phh_whole(text: str, *, file: str = "<text>", multi: bool | None = None
                   ) -> PhhFile:
    """:func:`read_phh_text` reading the TOML of ``text`` whole (by sections when it is not
    valid TOML), never a plain ``.phhs`` one section at a time: the reading the section by
    section one gives the same hands, errors, lines and source keys as
    (:func:`iter_phh_text`). Memory grows with the whole document."""
    return _collect(file, _read_whole(text, file, multi))


def _collect(file: str, items: Iterable[Item]) -> PhhFile:
    hands: list[PhhHand] = []
    errors: list[MalformedInput] = []
    for item in items:
        (errors if isinstance(item, MalformedInput) else hands).append(item)
    errors.sort(key=lambda e: e.line or 0)
    return PhhFile(file, hands, errors)


def iter_phh_text(text: str, *, file: str = "<text>", multi: bool | None = None
                  ) -> Iterator[Item]:
    """:func:`read_phh_text` one hand (or error) at a time (errors in any order).

    A plain ``.phhs`` (what real files are) is read one ``[n]`` section at a time, its TOML
    never held whole: plain is nothing but comments before the first header, no header
    name twice, every header line (sub-tables included) inside the section of its hand,
    and every section parsing on its own as its one table (the first one holding a
    ``variant`` when ``multi`` is None). Whatever of that a section breaks, the hands before
    it are those a reading of the whole text gives (no later header can reach their
    tables, and a section cut inside a multi-line string or array never parses alone), and
    the rest is read as the whole text reads it: its TOML parsed whole when valid, else by
    sections. Any other text is read whole. A section is parsed by tomli, whose TOML 1.0
    grammar and values are tomllib's (tomllib is the tomli of its day); what tomli refuses
    goes to the reading by tomllib, whose errors are reported.
    """
    sections = _plain_sections(text) if multi is not False else None
    if sections is None:
        yield from _read_whole(text, file, multi)
        return
    ids = HandIds(partial(_reread, file, sections))
    for index, section in enumerate(sections):
        table = _own_table(section)
        if table is not None and index == 0 and multi is None and "variant" not in table:
            table = None  # maybe one hand of tables: the whole document decides
        if table is None:
            rest = (_read_whole(text, file, multi) if index == 0 else
                    _read_rest(text, file, sections, index, ids))
            yield from rest
            return
        raw = _plain_raw(file, section, index, table)
        try:
            yield ids(build_hand(raw), raw, index)
        except MalformedInput as exc:
            yield exc


def _reread(file: str, sections: list[Section], place: int | RawHand) -> RawHand:
    """The table of a hand at ``place``: a plain section's index, or the table itself."""
    if isinstance(place, RawHand):
        return place
    return _plain_raw(file, sections[place], place)


def _held(place: RawHand) -> RawHand:
    """The table itself (every table of a reading of the whole text is held)."""
    return place


def _plain_raw(file: str, section: Section, index: int, table: dict | None = None
               ) -> RawHand:
    """The hand table of a plain section (``table``: parsed already, else parsed again)."""
    if table is None:
        table = _own_table(section) or {}
    layout = scan_layout(section.text, section.line)
    keys, actions = layout.keys.get(section.name, {}), layout.actions.get(section.name, [])
    body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
    return RawHand(file, section.name, section.line, index, table, keys, actions, body)


def read_plain_part(data: bytes, *, file: str, first_line: int, lines: bool = True
                    ) -> tuple[list[PhhHand], list[str]] | None:
    """The hands of one part of a ``.phhs`` file cut at a top-level table header (bytes; the
    first part starts the file), as reading the whole file gives them, and the part's table
    names; None when the part is not plain (:func:`iter_phh_text`), is not UTF-8, holds a
    line too long, a hand that cannot be read, a hand id met twice, or a hand the import
    warns of (``PhhHand.notice``) (the whole file is then read by :func:`iter_phh`, which
    says why). ``first_line``: the file line of the
    part's first line. The whole file reads so too when each part does, its table names are
    all distinct and no hand id repeats across the parts.

    ``lines=False``: the lines of the keys and action strings are not looked for (every
    action's ``line`` is then its table's header line; the hands are otherwise the same).
    Only error messages name those lines: a reader that hands a file with any error to
    :func:`iter_phh` (a worker of the import) has no use for them, and saves a fifth of
    the reading.

    Raises:
        pydantic.ValidationError: a value the event models refuse (as :func:`iter_phh`).
    """
    try:
        text = data.decode("utf-8-sig" if first_line == 1 else "utf-8")
    except UnicodeDecodeError:
        return None
    sections = _plain_sections(text)
    if sections is None or long_line(text) is not None:
        return None
    hands: list[PhhHand] = []
    seen: set[str] = set()
    for index, section in enumerate(sections):
        table = _own_table(section)
        if table is None:
            return None
        line = section.line + first_line - 1
        keys: dict[str, int] = {}
        actions: list[int] = []
        if lines:
            layout = scan_layout(section.text, line)
            keys = layout.keys.get(section.name, keys)
            actions = layout.actions.get(section.name, actions)
        body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
        try:
            hand = build_hand(RawHand(file, section.name, line, index, table, keys, actions,
                                      body))
        except MalformedInput:
            return None
        if hand.hand in seen or hand.notice is not None:  # the file's reading names it -2,
            return None  # -3, …; a hand the import warns of: the one-process import says it
        seen.add(hand.hand)
        hands.append(hand)
    return hands, [section.name for section in sections]


_HEADER_LINE_RE = re.compile(r"^[ \t]*\[", re.M)


def _plain_sections(text: str) -> list[Section] | None:
    """The sections of ``text`` when its head and headers are plain (see
    :func:`iter_phh_text`), else None."""
    head, sections = split_sections(text)
    if not sections or non_comment_lines(head):
        return None
    if len({section.name for section in sections}) != len(sections):
        return None
    k, offset = 0, len(head)  # section k is text[offset:offset + len(its text)]
    for found in _HEADER_LINE_RE.finditer(text):
        pos = found.end() - 1
        while k + 1 < len(sections) and pos >= offset + len(sections[k].text):
            offset += len(sections[k].text)
            k += 1
        if header_name(text, pos) != sections[k].name:
            return None
    return sections


def _own_table(section: Section) -> dict | None:
    """The section's table when it parses alone and defines nothing else, else None."""
    try:
        doc = _fast_toml(section.text, parse_float=Decimal)
    except (_FastTomlError, RecursionError):
        return None
    table = doc.get(section.name)
    return table if len(doc) == 1 and isinstance(table, dict) else None


def _read_rest(text: str, file: str, sections: list[Section], start: int, ids: HandIds
               ) -> Iterator[Item]:
    """What the whole reading gives for the tables from section ``start`` on (the earlier
    ones are read: a plain head and plain headers; see :func:`iter_phh_text`)."""
    try:
        doc = _loads(text)
    except tomllib.TOMLDecodeError:
        raws, errors = _section_raws(file, sections, start)
    else:
        raws, errors = _table_raws(text, file, doc, start)
    yield from _finish(file, raws, errors, ids, found=True)


def _read_whole(text: str, file: str, multi: bool | None) -> Iterator[Item]:
    """:func:`iter_phh_text` of any text: its TOML parsed whole (by sections when broken)."""
    try:
        doc = _loads(text)
    except tomllib.TOMLDecodeError as exc:
        head, sections = split_sections(text)
        if multi is False or not sections:
            yield _toml_error(exc, file, None, 1, text, one_hand=multi is False)
            return
        stray = non_comment_lines(head)
        if stray:
            yield MalformedInput("text before the first hand table", file=file, line=stray[0])
        yield from _finish(file, *_section_raws(file, sections, 0), HandIds(_held),
                           bool(stray))
        return
    if not doc:
        yield MalformedInput("no hand in the file", file=file, line=1)
        return
    tables = any(isinstance(v, dict) and "variant" in v for v in doc.values())
    if multi is None:
        multi = tables
    if multi and tables and "variant" in doc:
        yield from _bare_and_tables(text, file, doc)
        return
    if not multi or "variant" in doc:
        layout = scan_layout(text)
        raw = RawHand(file, None, 1, 0, doc, layout.keys[None], layout.actions.get(None, []), text)
        yield from _finish(file, [raw], [], HandIds(_held))
        return
    yield from _finish(file, *_table_raws(text, file, doc, 0), HandIds(_held))


def _bare_and_tables(text: str, file: str, doc: dict) -> Iterator[Item]:
    """A valid document holding a hand outside any table (``variant`` … before the first
    header) and hands as tables: a ``.phh`` put before a ``.phhs`` (``cat one.phh t.phhs``).

    A ``.phhs`` holds each hand in a table of its own (FORMATS.md §1), so the bare hand is
    no hand of it and has no name to be known by in the file: it is refused in one error at
    the line of its first key, naming the table after it, and is never read as a table nor
    dropped unsaid; the tables are read as the file's hands, as the tables of a ``.phhs``
    with a stray key before its first header are (``'note' is not a hand table``)."""
    layout = scan_layout(text)
    bare = layout.keys[None]
    first = min(layout.tables.items(), key=lambda item: item[1])
    errors = [MalformedInput(
        f"a hand outside any table, before the table [{first[0]}] at line {first[1]}: a "
        ".phhs file holds each hand in a table of its own ([1], [2], …; FORMATS.md §1), and "
        "this one is not read: give it a header of its own", file=file,
        line=min(bare.values(), default=1))]
    raws, more = _table_raws(text, file, doc, 0, skip=frozenset(bare))
    yield from _finish(file, raws, errors + more, HandIds(_held))


def _table_raws(text: str, file: str, doc: dict, start: int, skip: frozenset[str] = frozenset()
                ) -> tuple[list[RawHand], list[MalformedInput]]:
    """The hand tables of a valid ``.phhs`` document from its ``start``-th key on (the keys
    of ``skip``, a bare hand's, left out)."""
    layout = scan_layout(text)
    bodies = TableTexts(text, layout)
    raws, errors = [], []
    for index, (name, table) in enumerate(doc.items()):
        if index < start or name in skip:
            continue
        line = layout.tables.get(name) or layout.keys[None].get(name, 1)
        if not isinstance(table, dict) or name not in layout.tables:  # a dotted key: x.y = 1
            errors.append(MalformedInput(f"{name!r} is not a hand table", file=file, line=line))
            continue
        keys, actions = layout.keys.get(name, {}), layout.actions.get(name, [])
        raws.append(RawHand(file, name, line, index, table, keys, actions, bodies(name)))
    return raws, errors


def _toml_error(exc: tomllib.TOMLDecodeError, file: str, section: str | None,
                first_line: int = 1, text: str = "", *, one_hand: bool = False
                ) -> MalformedInput:
    """The error for TOML that does not parse, at its line in the file; ``first_line``: the
    line of the parsed ``text``'s first line in the file (tomllib counts from 1). An error
    tomllib places "at end of document" (a file cut short) is at ``text``'s last line.
    ``one_hand``: ``text`` is a ``.phh``, a hand key set twice in it said to be two hands
    (:func:`ledger.formats.phh.keys.two_hands_said`)."""
    where = f"[{section}] " if section is not None else ""
    message = str(exc)
    if one_hand:
        from ledger.formats.phh.keys import two_hands_said

        message = two_hands_said(message, text)
    if first_line > 1:
        message = _AT_LINE_RE.sub(lambda m: f"(at line {int(m[1]) + first_line - 1},",
                                  message, count=1)
    line = toml_error_line(message)
    if line is None:
        line = first_line + max(len(text.splitlines()), 1) - 1
    return MalformedInput(f"{where}bad TOML: {message}", file=file, line=line)


def _loads(text: str) -> dict:
    """``text`` parsed by tomllib (floats as Decimal). Nesting so deep that it exhausts the
    parser's recursion (``[`` × 1,000) is a TOML error like any other, at the line where the
    nesting passes :data:`~ledger.model.events.MAX_DEPTH` levels (no hand nests so deep).

    Raises:
        tomllib.TOMLDecodeError: not TOML.
    """
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except RecursionError:
        depth, line = 0, 1
        for char in text:  # the line where the brackets first open too deep
            line += char == "\n"
            depth += (char in "[{") - (char in "]}")
            if depth > MAX_DEPTH:
                break
        raise tomllib.TOMLDecodeError(f"nested more than {MAX_DEPTH} levels deep (at line "
                                      f"{line}, column 1)") from None


_AT_LINE_RE = re.compile(r"\(at line (\d+),(?=[^(]*\)$)")


def _section_raws(file: str, sections: list[Section], start: int
                  ) -> tuple[list[RawHand], list[MalformedInput]]:
    """The hand tables of a broken ``.phhs``, each section parsed alone so that the good
    hands survive, from section ``start`` on."""
    raws, errors = [], []
    seen: dict[str, Section] = {}  # table name -> its first section
    for section in sections[:start]:
        seen.setdefault(section.name, section)
    for index, section in enumerate(sections):
        if index < start:
            continue
        try:
            doc = _loads(section.text)
        except tomllib.TOMLDecodeError as exc:
            errors.append(_toml_error(exc, file, section.name, section.line, section.text))
            continue
        table = doc.get(section.name)
        if not isinstance(table, dict):
            errors.append(MalformedInput(f"table [{section.name}] is not a hand", file=file,
                                         line=section.line))
            continue
        layout = scan_layout(section.text, section.line)
        keys, actions = layout.keys.get(section.name, {}), layout.actions.get(section.name, [])
        body = section.text.split("\n", 1)[1] if "\n" in section.text else ""
        raw = RawHand(file, section.name, section.line, index, table, keys, actions, body)
        if section.name in seen:
            errors.append(_repeated_table(raw, seen[section.name], table))
            continue
        seen[section.name] = section
        raws.append(raw)
    return raws, errors


def _repeated_table(raw: RawHand, first: Section, table: dict) -> RepeatedHand:
    """The refusal of a table (``table``, parsed) whose name an earlier table of the file has
    (``first``), naming the hand this copy holds when it can be built (:func:`build_hand`); a
    rejected hand of its own, whatever became of the first. The same hand (the same text, or
    the same values) is a repeat (a file pasted after itself, say); another hand under the
    name is a table named again (two files joined, say: docs/IMPORTING.md)."""
    try:
        hand: str | None = build_hand(raw).hand
    except (MalformedInput, ValueError):  # its own error is not said: the repeat is
        hand = None
    if _same_table(first, raw, table):
        said = (f"table [{raw.section}] is repeated: the file's first table [{raw.section}] is "
                f"at line {first.line}; a table is one hand, named once in its file")
    else:
        said = (f"table [{raw.section}] is named again at line {raw.line} for another hand "
                "(two files joined?): a table is one hand, named once in its file; give it "
                "another number or import the files apart")
    return RepeatedHand(said, file=raw.file, line=raw.line, hand=hand)


def _same_table(first: Section, raw: RawHand, table: dict) -> bool:
    """Whether ``raw`` (its ``table`` parsed) holds what the section ``first`` holds: the same
    text after its header, or the same values (comments and blank lines aside)."""
    body = first.text.split("\n", 1)[1] if "\n" in first.text else ""
    if body.rstrip() == raw.text.rstrip():
        return True
    try:
        return _loads(first.text).get(raw.section) == table
    except tomllib.TOMLDecodeError:
        return False


def _finish(file: str, raws: list[RawHand], errors: list[MalformedInput], ids: HandIds,
            found: bool = False) -> Iterator[Item]:
    """Build every hand (ids made unique inside the file), then the errors; "no hand in the
    file" when there is neither and nothing was ``found`` before."""
    for raw in raws:
        try:
            hand = ids(build_hand(raw), raw, raw)  # the raws are held here
        except MalformedInput as exc:
            errors.append(exc)
            continue
        found = True
        yield hand
    if not found and not errors:
        errors.append(MalformedInput("no hand in the file", file=file, line=1))
    yield from errors
