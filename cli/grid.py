"""Text tables and lines drawn as rich draws them, without rich's cost where the text is plain.

rich measures, wraps and crops every cell of every table it draws: about 3 ms a table here,
three quarters of a text ``replay``'s time on a large ledger, where the rules' work for a hand
takes about one. The tables ``replay`` prints are simple (one line a cell, short numbers and
names), and for those rich's layout is fixed: every column as wide as its widest cell plus one
space either side, rich's default box (``HEAVY_HEAD``), the title justified to the table's width.
:class:`Sheet` draws that case itself and gives every other one to rich: a cell or line that is
not plain printable text one terminal cell a character, that could hold an emoji code, or that
would not fit the width. ``tests/test_grid.py`` checks the two agree byte for byte on generated
tables and lines.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
from collections.abc import Sequence

from rich.cells import cell_len

#: Characters of rich's default table box (``rich.box.HEAVY_HEAD``): top, head row, head
#: separator, body row, bottom; each as (left, fill, divider, right).
_TOP = ("┏", "━", "┳", "┓")
_HEAD = ("┃", " ", "┃", "┃")
_HEAD_RULE = ("┡", "━", "╇", "┩")
_ROW = ("│", " ", "│", "│")
_BOTTOM = ("└", "─", "┴", "┘")

#: The width of text written to a pipe or a file: wide enough that no line of it is ever
#: wrapped (a line is whole for grep and awk), as ``sql_table`` draws.
UNWRAPPED = 100_000


def out_width() -> int:
    """The width in terminal cells that text for standard output is drawn at (``show``,
    ``replay``, ``run``: :class:`Sheet` and rich's ``Console``): the terminal's own when
    standard output is one (a longer line wraps there, as the terminal would wrap it), else
    :data:`UNWRAPPED` (a pipe or a file: no line is broken)."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size((110, 24)).columns
    return UNWRAPPED


#: What rich would read as an emoji code (``:smile:``) and replace: such text goes to rich.
_EMOJI = re.compile(r":\S*:")


def _plain(text: str) -> bool:
    """``text`` is printable, one terminal cell a character, and holds no emoji code."""
    return text.isprintable() and cell_len(text) == len(text) and not _EMOJI.search(text)


class Sheet:
    """Lines of text, ``width`` terminal cells wide, as a rich ``Console`` with no colour,
    markup or highlighting would print them (``print_table`` as a rich ``Table``)."""

    def __init__(self, width: int = 110) -> None:
        self.width = width
        self._out: list[str] = []
        self._rich: object | None = None  # (Console, StringIO), made on first need

    def _console(self) -> tuple[object, io.StringIO]:
        if self._rich is None:
            from rich.console import Console

            buf = io.StringIO()
            self._rich = (Console(file=buf, width=self.width, color_system=None,
                                  highlight=False, markup=False), buf)
        return self._rich  # type: ignore[return-value]

    def _by_rich(self, renderable: object) -> None:
        console, buf = self._console()
        console.print(renderable)  # type: ignore[attr-defined]
        self._out.append(buf.getvalue())
        buf.seek(0)
        buf.truncate()

    def print(self, line: str) -> None:
        """One line of text (rich wraps a long one at the width)."""
        if len(line) <= self.width and _plain(line):
            self._out.append(line + "\n")
        else:
            self._by_rich(line)

    def print_table(self, title: str, columns: Sequence[tuple[str, str]],
                    rows: Sequence[Sequence[str]]) -> None:
        """A table: ``columns`` as (header, ``"left"``/``"right"``), ``rows`` of cell texts
        (as many as columns), the title above it justified left."""
        cells = [[h for h, _ in columns], *rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
        total = sum(widths) + 3 * len(widths) + 1
        if (total > self.width or len(title) > total or not _plain(title)
                or not all(_plain(c) and c[-1:] != " " for r in cells for c in r)):
            # (rich drops a cell's trailing spaces when it justifies it right)
            self._by_rich(self._rich_table(title, columns, rows))
            return
        out = self._out
        if title:
            out.append(title.ljust(total) + "\n")
        out.append(_rule(_TOP, widths))
        out.append(_line(_HEAD, cells[0], widths, columns))
        out.append(_rule(_HEAD_RULE, widths))
        out.extend(_line(_ROW, r, widths, columns) for r in rows)
        out.append(_rule(_BOTTOM, widths))

    @staticmethod
    def _rich_table(title: str, columns: Sequence[tuple[str, str]],
                    rows: Sequence[Sequence[str]]) -> object:
        from rich.table import Table

        table = Table(title=title or None, title_justify="left")
        for header, justify in columns:
            table.add_column(header, justify=justify)  # type: ignore[arg-type]
        for row in rows:
            table.add_row(*row)
        return table

    def text(self) -> str:
        """Everything printed, without the last line's newline."""
        return "".join(self._out).rstrip("\n")


def _rule(box: tuple[str, str, str, str], widths: list[int]) -> str:
    left, fill, divider, right = box
    return left + divider.join(fill * (w + 2) for w in widths) + right + "\n"


def _line(box: tuple[str, str, str, str], cells: Sequence[str], widths: list[int],
          columns: Sequence[tuple[str, str]]) -> str:
    left, _, divider, right = box
    parts = [" " + (c.rjust(w) if j == "right" else c.ljust(w)) + " "
             for c, w, (_, j) in zip(cells, widths, columns, strict=True)]
    return left + divider.join(parts) + right + "\n"
