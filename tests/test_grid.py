"""``cli.grid.Sheet`` draws tables and lines byte for byte as rich does (rich is the oracle)."""

from __future__ import annotations

import io

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from cli.grid import Sheet

#: Plain text, and what must go to rich: an emoji code, wide and combining characters, a tab.
TEXT = st.one_of(
    st.text(alphabet=st.sampled_from(list("ab Zz09+-.,()—")), max_size=30),
    st.text(alphabet=st.sampled_from(list("ab Zz09+-.,()—") + [":", "漢", "\u0301", "\t"]),
            max_size=30))
JUSTIFY = st.sampled_from(["left", "right"])


def by_rich(title: str, columns: list[tuple[str, str]], rows: list[list[str]],
            lines: list[str], width: int) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, highlight=False, markup=False)
    table = Table(title=title or None, title_justify="left")
    for header, justify in columns:
        table.add_column(header, justify=justify)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for line in lines:
        console.print(line)
    return buf.getvalue().rstrip("\n")


def by_sheet(title: str, columns: list[tuple[str, str]], rows: list[list[str]],
             lines: list[str], width: int) -> str:
    sheet = Sheet(width)
    sheet.print_table(title, columns, rows)
    for line in lines:
        sheet.print(line)
    return sheet.text()


@st.composite
def tables(draw: st.DrawFn) -> tuple:
    n = draw(st.integers(1, 8))
    columns = [(draw(TEXT), draw(JUSTIFY)) for _ in range(n)]
    rows = draw(st.lists(st.lists(TEXT, min_size=n, max_size=n), max_size=6))
    return draw(TEXT), columns, rows, draw(st.lists(TEXT, max_size=4)), draw(
        st.sampled_from([40, 80, 110]))


@settings(max_examples=300, deadline=None)
@given(tables())
@example(("", [("0 ", "right")], [], [], 40))  # trailing spaces in a right-justified column
def test_sheet_draws_as_rich(case: tuple) -> None:
    assert by_sheet(*case) == by_rich(*case)


def test_replay_table_fast_path_exact() -> None:
    """A replayed hand's table, checked character by character (the fast path draws it)."""
    columns = [("player", "left"), ("start", "right"), ("net", "right")]
    rows = [["Alice", "60", "-2"], ["Erin", "150", "+1"]]
    sheet = Sheet(110)
    sheet.print_table("hand h1 (NT)", columns, rows)
    sheet.print("  Main pot 4 (Erin): Erin takes 4.")
    assert sheet._rich is None  # rich was never needed
    assert sheet.text() == (
        "hand h1 (NT)" + " " * 12 + "\n"
        "┏━━━━━━━━┳━━━━━━━┳━━━━━┓\n"
        "┃ player ┃ start ┃ net ┃\n"
        "┡━━━━━━━━╇━━━━━━━╇━━━━━┩\n"
        "│ Alice  │    60 │  -2 │\n"
        "│ Erin   │   150 │  +1 │\n"
        "└────────┴───────┴─────┘\n"
        "  Main pot 4 (Erin): Erin takes 4."
    )


def test_output_to_a_pipe_is_never_wrapped_to_a_terminal_at_its_width(monkeypatch) -> None:  # noqa: ANN001
    import shutil
    import sys

    from cli.grid import UNWRAPPED, out_width

    class Out(io.StringIO):
        def __init__(self, tty: bool) -> None:
            super().__init__()
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setattr(shutil, "get_terminal_size", lambda fallback: os_size(72))
    monkeypatch.setattr(sys, "stdout", Out(False))
    assert out_width() == UNWRAPPED == 100_000
    monkeypatch.setattr(sys, "stdout", Out(True))
    assert out_width() == 72


def os_size(columns: int) -> object:
    import os

    return os.terminal_size((columns, 24))


def test_show_and_replay_to_a_pipe_keep_each_line_whole(tmp_path) -> None:  # noqa: ANN001
    """#64146221551 (five-card draw): the seats' line is 111 characters, seq 8's row 118, the
    rake's note in ``replay`` 134; each one line when standard output is not a terminal (each
    was cut at 110 columns)."""
    from tests.pokerstars_helpers import path
    from tests.test_live_table import one_shot

    db, hand = tmp_path / "w.duckdb", "PokerStars-64146221551"
    assert one_shot(db, "import", str(path(
        "Stars-cash-5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt")))[0] == 0
    code, out, _ = one_shot(db, "show", hand)
    assert code == 0
    assert out.splitlines()[8] == (
        "  8 d dh Hero Qd7h6c6hTh         pot 15 bet 10 [Player3:728 Player4:5 Player5:19 "
        "Player1:152 Hero:235] bet → Player5")
    assert len(out.splitlines()) == 30  # the seats, the unit, 26 events (2-27), pot and note
    code, out, _ = one_shot(db, "replay", "--hand", hand)
    assert out.splitlines()[-2] == (
        f"  note: hand {hand}: the table paid 2 less than the pots and returns: the site kept 2 "
        "as rake (as the file records)")
