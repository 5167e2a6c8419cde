"""Line numbers for PHH files, which ``tomllib`` does not give.

:func:`scan_layout` walks valid TOML text once and records, for every top-level table (a
``.phhs`` hand such as ``[1]``; ``None`` for keys before any header), the line of its header,
the line of each of its keys and the line of each string of its ``actions`` array (one-line
arrays as in the HandHQ files and multi-line arrays alike). :func:`split_sections` cuts a
``.phhs`` text into one chunk per hand so that one hand's TOML error does not lose the others.
:func:`normalise` is the text ``PhhHand.source_key`` hashes.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

_HEADER_RE = re.compile(r"\[(?!\[)\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*([].])?")
_LINE_START_RE = re.compile(r"^\[", re.M)
_NEWLINE_RE = re.compile("\n")


@dataclass
class Layout:
    """Where things are in the text (1-based lines), per top-level table (``None``: top)."""

    tables: dict[str | None, int] = field(default_factory=dict)
    keys: dict[str | None, dict[str, int]] = field(default_factory=dict)
    actions: dict[str | None, list[int]] = field(default_factory=dict)


def _unquote(name: str) -> str:
    name = name.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        return name[1:-1]
    return name


def _skip_string(text: str, i: int) -> int:
    """Index just after the TOML string starting at ``text[i]``."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        end = len(text) if end < 0 else end + 3
        while text.startswith(quote, end) and end < len(text):  # ''''' closes late
            end += 1
        return end
    i += 1
    while i < len(text) and text[i] != quote and text[i] != "\n":
        i += 2 if quote == '"' and text[i] == "\\" else 1
    return i + 1


def _skip_line(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _first_key(text: str, i: int) -> tuple[str, int]:
    """The first component of the key starting at ``i`` and the index of its ``=``."""
    start = i
    while i < len(text) and text[i] != "=":
        i = _skip_string(text, i) if text[i] in "'\"" else i + 1
    raw = text[start:i]
    first = re.match(r"\s*(\"[^\"]*\"|'[^']*'|[^.=\s]+)", raw)
    return (_unquote(first.group(1)) if first else raw.strip()), i


def scan_layout(text: str, first_line: int = 1) -> Layout:
    """Record header, key and action-string lines of valid TOML ``text`` (see module doc);
    ``first_line``: the line number of the text's first line (a section of a file).

    Text whose every statement is one line with at most one level of brackets and literal
    strings only (as PHH files are written) is read a line at a time; any other text is
    walked character by character. Both give the same layout.
    """
    return scan_lines(text, first_line) or scan_chars(text, first_line)


# A one-line ``key = value``: a bare key; the value's literal strings, then a comment.
_SIMPLE_RE = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=((?:[^'\"#\n]++|'[^'\n]*+')*+)(?:#.*)?")
_STRING_RE = re.compile(r"'[^'\n]*'")
# Inside an array written one string a line (as the writer does): an item, or the close.
_ITEM_RE = re.compile(r"[ \t]*'[^'\n]*'[ \t]*,?[ \t\r]*(?:#.*)?")
_CLOSE_RE = re.compile(r"[ \t]*\][ \t\r]*(?:#.*)?")


def scan_lines(text: str, first_line: int) -> Layout | None:
    """:func:`scan_layout` a line at a time; None when a statement is not that simple: one
    line with literal strings only, or an array of one literal string a line. Where it gives
    a layout it is the one :func:`scan_chars` gives."""
    layout = Layout()
    table: str | None = None
    keys: dict[str, int] = {}
    layout.keys[None] = keys
    items: list[int] | None = None  # the lines of an open array's strings
    for line, raw in enumerate(text.split("\n"), first_line):
        if items is not None:
            kind = _array_line(raw)
            if kind == "other":
                return None
            if kind == "item":
                items.append(line)
            elif kind == "close":
                items = None
            continue
        stripped = raw.lstrip(" \t\r")
        if not stripped or stripped[0] == "#":
            continue
        if stripped[0] == "[":
            i = len(raw) - len(stripped)
            match = _HEADER_RE.match(raw, i)
            table = _unquote(match.group(1)) if match else raw[i:]
            layout.tables.setdefault(table, line)
            keys = layout.keys.setdefault(table, {})
            continue
        match = _SIMPLE_RE.fullmatch(raw)
        if match is None or "'''" in raw:
            return None
        key, value = match.groups()
        keys.setdefault(key, line)
        if value.strip(" \t\r") == "[":  # an array over the next lines
            items = []
            if key == "actions":
                layout.actions.setdefault(table, items)
            continue
        strings = _depth_one_strings(value)
        if strings is None or (key == "actions" and strings < 0):
            return None
        if key == "actions":
            layout.actions.setdefault(table, [line] * strings)
    return None if items is not None else layout


def _depth_one_strings(value: str) -> int | None:
    """How many strings a one-line value (literal strings only) holds inside its outermost
    brackets: 0 with no brackets, -1 when brackets nest; None when the value goes on over
    the next lines."""
    bare = _STRING_RE.sub("", value)
    opened = bare.count("[") + bare.count("{")
    if opened != bare.count("]") + bare.count("}"):
        return None
    if opened > 1:
        return -1
    return len(_STRING_RE.findall(value)) if opened else 0


def _array_line(raw: str) -> str:
    """What a line inside an array written one string a line is: ``item``, ``close``,
    ``skip`` (blank or a comment) or ``other``."""
    if _ITEM_RE.fullmatch(raw):
        return "item"
    if _CLOSE_RE.fullmatch(raw):
        return "close"
    stripped = raw.strip(" \t\r")
    return "skip" if not stripped or stripped.startswith("#") else "other"


def scan_chars(text: str, first_line: int) -> Layout:
    """:func:`scan_layout` character by character (any valid TOML): the reading
    :func:`scan_lines` must agree with."""
    layout = Layout()
    table: str | None = None
    layout.keys[None] = {}
    i, line = 0, first_line
    while i < len(text):
        char = text[i]
        if char == "\n":
            line += 1
            i += 1
        elif char in " \t\r":
            i += 1
        elif char == "#":
            i = _skip_line(text, i)
        elif char == "[":
            match = _HEADER_RE.match(text, i)
            table = _unquote(match.group(1)) if match else text[i:_skip_line(text, i)]
            layout.tables.setdefault(table, line)
            layout.keys.setdefault(table, {})
            i = _skip_line(text, i)
        else:
            key, i = _first_key(text, i)
            layout.keys[table].setdefault(key, line)
            i, line = _scan_value(text, i + 1, line, layout, table, key)
    return layout


def _scan_value(
    text: str, i: int, line: int, layout: Layout, table: str | None, key: str
) -> tuple[int, int]:
    """Skip one value (to the end of its statement); note ``actions`` string lines."""
    depth = 0
    strings: list[int] = []
    while i < len(text):
        char = text[i]
        if char in "'\"":
            if depth == 1:
                strings.append(line)
            end = _skip_string(text, i)
            line += text.count("\n", i, end)
            i = end
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "#":
            i = _skip_line(text, i)
            continue
        elif char == "\n":
            if depth == 0:
                break
            line += 1
        i += 1
    if key == "actions":
        layout.actions.setdefault(table, strings)
    return i, line


@dataclass(frozen=True)
class Section:
    """One hand's text in a ``.phhs``: table name, header line, text (with its header)."""

    name: str
    line: int
    text: str


def split_sections(text: str) -> tuple[str, list[Section]]:
    """Cut ``.phhs`` text at its top-level table headers ``[name]`` (at the start of a line).

    Returns the text before the first header (comments only, normally) and the sections, in
    one pass over the header offsets (linear in the size of the text). Headers of sub-tables
    (``[1._expected]``) stay with their hand. Lines end at ``\n`` only, as in TOML. A
    header-like line inside a multi-line string or array is cut too: the section before it
    then never parses on its own (its string or array is left open).
    """
    sections: list[Section] = []
    starts: list[tuple[int, int, str]] = []  # (offset, line, name)
    line, counted = 1, 0
    for found in _LINE_START_RE.finditer(text):
        pos = found.start()
        eol = text.find("\n", pos)
        match = _HEADER_RE.match(text, pos, len(text) if eol < 0 else eol + 1)
        if match and match.group(2) == "]":  # [name]; [name.sub] stays with its hand
            line += text.count("\n", counted, pos)
            counted = pos
            starts.append((pos, line, _unquote(match.group(1))))
    head = text[: starts[0][0]] if starts else text
    for k, (pos, line, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        sections.append(Section(name, line, text[pos:end]))
    return head, sections


def header_name(text: str, pos: int) -> str:
    """The top-level table a header line starting at ``text[pos]`` (a ``[``) names, as
    :func:`scan_layout` records it (the rest of the line when it is not ``[name…``)."""
    eol = text.find("\n", pos)
    eol = len(text) if eol < 0 else eol
    match = _HEADER_RE.match(text, pos, eol)
    return _unquote(match.group(1)) if match else text[pos:eol]


class TableTexts:
    """The raw text of each top-level table of valid TOML ``text`` (its header line
    excluded), cut at the header lines of ``layout``; built once per text, each table's text
    found by bisection (linear in the text overall)."""

    def __init__(self, text: str, layout: Layout) -> None:
        self.text = text
        self.headers = sorted(set(layout.tables.values()))
        self.tables = layout.tables
        self.starts = [0, *(m.end() for m in _NEWLINE_RE.finditer(text))]

    def _at(self, line: int) -> int:
        """Offset of the start of 1-based ``line`` (the end of the text past the last)."""
        return self.starts[line - 1] if line - 1 < len(self.starts) else len(self.text)

    def __call__(self, table: str | None) -> str:
        if table is None:
            end = self.headers[0] if self.headers else len(self.starts) + 1
            return self.text[: self._at(end)]
        start = self.tables[table]
        later = bisect.bisect_right(self.headers, start)
        end = self.headers[later] if later < len(self.headers) else len(self.starts) + 1
        return self.text[self._at(start + 1): self._at(end)]


def table_text(text: str, layout: Layout, table: str | None) -> str:
    """The raw text of one top-level table of ``text`` (its header line excluded); for many
    tables of one text use :class:`TableTexts`."""
    return TableTexts(text, layout)(table)


def normalise(text: str) -> str:
    """Text with whole-line comments and blank lines dropped and whitespace runs collapsed."""
    kept = []
    for raw in text.splitlines():
        stripped = " ".join(raw.split())
        if stripped and not stripped.startswith("#"):
            kept.append(stripped)
    return "\n".join(kept)


def non_comment_lines(text: str) -> list[int]:
    """1-based numbers of the lines of ``text`` (ended by ``\\n``, as in TOML) that hold
    something other than comments."""
    return [n for n, raw in enumerate(text.split("\n"), 1) if raw.strip() and
            not raw.strip().startswith("#")]


def toml_error_line(message: str) -> int | None:
    """The line number in a ``tomllib.TOMLDecodeError`` message (``(at line 3, column 9)``)."""
    match = re.search(r"at line (\d+)", message)
    return int(match.group(1)) if match else None


__all__ = [
    "Layout",
    "Section",
    "TableTexts",
    "header_name",
    "normalise",
    "non_comment_lines",
    "scan_chars",
    "scan_layout",
    "scan_lines",
    "split_sections",
    "table_text",
    "toml_error_line",
]
