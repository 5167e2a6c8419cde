"""Line numbers for PHH files, which ``tomllib`` does not give.

:func:`scan_layout` walks valid TOML text once and records, for every top-level table (a
``.phhs`` hand such as ``[1]``; ``None`` for keys before any header), the line of its header,
the line of each of its keys and the line of each string of its ``actions`` array (one-line
arrays as in the HandHQ files and multi-line arrays alike). :func:`split_sections` cuts a
``.phhs`` text into one chunk per hand so that one hand's TOML error does not lose the others.
:func:`normalise` is the text ``PhhHand.source_key`` hashes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER_RE = re.compile(r"\[(?!\[)\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*([].])?")


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


def scan_layout(text: str) -> Layout:
    """Record header, key and action-string lines of valid TOML ``text`` (see module doc)."""
    layout = Layout()
    table: str | None = None
    layout.keys[None] = {}
    i, line = 0, 1
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
    """Cut ``.phhs`` text at its top-level table headers ``[name]``.

    Returns the text before the first header (comments only, normally) and the sections.
    Headers of sub-tables (``[1._expected]``) stay with their hand. Used when the file as a
    whole is not valid TOML; a header-like line inside a multi-line string would be cut too.
    """
    lines = text.splitlines(keepends=True)
    starts: list[tuple[int, str]] = []
    for number, raw in enumerate(lines):
        match = _HEADER_RE.match(raw)
        if match and match.group(2) == "]":  # [name]; [name.sub] stays with its hand
            starts.append((number, _unquote(match.group(1))))
    head = "".join(lines[: starts[0][0]]) if starts else text
    sections = []
    for k, (number, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        sections.append(Section(name, number + 1, "".join(lines[number:end])))
    return head, sections


def table_text(text: str, layout: Layout, table: str | None) -> str:
    """The raw text of one top-level table of ``text`` (its header line excluded)."""
    lines = text.splitlines(keepends=True)
    if table is None:
        starts = sorted(layout.tables.values())
        return "".join(lines[: starts[0] - 1] if starts else lines)
    start = layout.tables[table]
    later = [n for n in layout.tables.values() if n > start]
    return "".join(lines[start : (min(later) - 1) if later else len(lines)])


def normalise(text: str) -> str:
    """Text with whole-line comments and blank lines dropped and whitespace runs collapsed."""
    kept = []
    for raw in text.splitlines():
        stripped = " ".join(raw.split())
        if stripped and not stripped.startswith("#"):
            kept.append(stripped)
    return "\n".join(kept)


def non_comment_lines(text: str) -> list[int]:
    """1-based numbers of the lines of ``text`` that hold something other than comments."""
    return [n for n, raw in enumerate(text.splitlines(), 1) if raw.strip() and
            not raw.strip().startswith("#")]


def toml_error_line(message: str) -> int | None:
    """The line number in a ``tomllib.TOMLDecodeError`` message (``(at line 3, column 9)``)."""
    match = re.search(r"at line (\d+)", message)
    return int(match.group(1)) if match else None


__all__ = [
    "Layout",
    "Section",
    "normalise",
    "non_comment_lines",
    "scan_layout",
    "split_sections",
    "table_text",
    "toml_error_line",
]
