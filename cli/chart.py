"""The series chart (matplotlib): each player's cumulative net across the series, hand by hand
in ledger order, from the ``(ord, player, net)`` rows of :func:`replay.books.chart_rows` —
written to a file for ``handledger chart`` (:func:`write_chart`) or as inline SVG for the
report's index (:func:`chart_svg`).

Readable without colour: each player's line has its own colour (Okabe and Ito's, told apart
with colour vision deficiencies) and its own dash pattern, and the legend names it with his
total. Names are drawn as plain text (never read as mathtext); in SVG they stay text
(``svg.fonttype: none``), readable and searchable, escaped by matplotlib's SVG writer.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

#: Okabe and Ito's colours; black last.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7a6a00",
           "#000000")
#: Dash patterns (on, off… in points), one per line beside its colour; solid first.
DASHES: tuple[tuple[float, ...], ...] = (
    (), (8, 4), (2, 3), (10, 3, 2, 3), (4, 4), (12, 4, 4, 4), (1, 2), (6, 2, 2, 2, 2, 2))
#: Fixed settings: the same SVG text for the same rows (no date, ids from a fixed salt).
_FAMILY = "DejaVu Sans"
_STYLE = {"svg.fonttype": "none", "svg.hashsalt": "handledger", "font.family": "sans-serif",
          "font.sans-serif": [_FAMILY]}


_STYLESHEET = re.compile(r"<style[^>]*>[^<]*</style>")
#: Fonts that draw a placeholder for every character (a box naming its block), not letters.
_PLACEHOLDER_FONTS = ("Last Resort",)


@functools.cache
def _charmap(path: str) -> frozenset[int]:
    """The code points the font file ``path`` has a glyph for (none when it cannot be read)."""
    from matplotlib.ft2font import FT2Font

    try:
        return frozenset(FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def fonts_for(texts: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(families, undrawable)``: the font families to draw ``texts`` with, DejaVu Sans
    first and then each installed font that has a character it lacks (matplotlib takes a
    glyph from the first that has it), and those of ``texts`` with a character no installed
    font has (drawn as a box in its place)."""
    from matplotlib import font_manager

    texts = list(dict.fromkeys(texts))
    have = _charmap(font_manager.findfont(_FAMILY, fallback_to_default=True))
    missing = {ch for t in texts for ch in t if ord(ch) not in have and ch.isprintable()
               and not ch.isspace()}
    families = [_FAMILY]
    for entry in sorted(font_manager.fontManager.ttflist, key=lambda f: (f.name, f.fname)):
        if not missing:
            break
        if entry.name in families or entry.name.startswith(_PLACEHOLDER_FONTS):
            continue
        found = {ch for ch in missing if ord(ch) in _charmap(entry.fname)}
        if found:
            families.append(entry.name)
            missing -= found
    return families, [t for t in texts if any(ch in missing for ch in t)]


@contextlib.contextmanager
def _drawing(texts: Iterable[str]) -> Iterator[list[str]]:
    """matplotlib's settings to draw ``texts`` with (:data:`_STYLE`, the fonts of
    :func:`fonts_for`) and its warnings kept from the user (a glyph a font lacks: the
    caller says it in its own words); yields the texts that cannot be drawn."""
    plt = _pyplot()
    families, undrawable = fonts_for(texts)
    fallback = {"font.family": families} if len(families) > 1 else {}  # glyph by glyph
    with plt.rc_context({**_STYLE, **fallback}), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield undrawable


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure(rows: Sequence[tuple[int, str, int]], unit: str, *,
           starts: Sequence[tuple[int, str | None]] = (),
           names: Mapping[str, str] | None = None, title: str | None = None,
           gid: str = "chart", money: tuple[int, str | None] | None = None) -> Any:
    """The chart of ``(ord, player, net)`` rows (``unit``: what the y axis counts, ``chips``;
    ledger order) as a matplotlib Figure: a step line per player (most won first, flat from
    his last hand to the end) whose label is ``name (+total)``, the line of 0, and a dotted
    line with
    the session's name where each session of ``starts`` ``(ord of its first hand, session)``
    begins. ``names``: what to label a player with (his PokerNow nickname) when not his id.
    The line of the k-th player has the gid ``GID-player-k`` (``gid``: ``chart``, another
    for a second chart of one page). ``money``: the nets are minor units of that ``(decimals,
    currency)``, drawn in the currency's units (``Alice (+279.00 USD)``, ticks ``279.00``, the
    axis ``money (USD)``; README "11 chips won are 2.75 USD"). Close it after use."""
    plt = _pyplot()
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from ledger.model.money import format_money

    hands = sorted({o for o, _, _ in rows})
    index = {o: i for i, o in enumerate(hands, 1)}
    series: dict[str, tuple[list[int], list[int]]] = {}
    totals: dict[str, int] = {}
    for o, player, net in rows:
        totals[player] = totals.get(player, 0) + net
        xs, ys = series.setdefault(player, ([0], [0]))
        xs.append(index[o])
        ys.append(totals[player])
    for xs, ys in series.values():  # flat to the end of the series after his last hand
        xs.append(len(hands))
        ys.append(ys[-1])
    def total(net: int) -> str:
        if money is None:
            return f"{net:+d}"
        return ("+" if net > 0 else "") + format_money(net, *money)

    fig, ax = plt.subplots(figsize=(10, 5.5))
    for k, player in enumerate(sorted(series, key=lambda p: (-totals[p], p))):
        xs, ys = series[player]
        (line,) = ax.step(xs, ys, where="post", color=COLOURS[k % len(COLOURS)],
                          dashes=DASHES[(k + k // len(COLOURS)) % len(DASHES)],
                          linewidth=1.6,
                          label=f"{(names or {}).get(player, player)} ({total(totals[player])})")
        line.set_gid(f"{gid}-player-{k}")
    ax.axhline(0, color="grey", linewidth=0.8)
    for o, session in starts:
        if o in index:
            ax.axvline(index[o] - 1, color="#999999", linewidth=0.8, linestyle=":")
            ax.annotate(session or "no session", (index[o] - 1, 1),
                        xycoords=("data", "axes fraction"), xytext=(2, -2),
                        textcoords="offset points", rotation=90, va="top",
                        fontsize="x-small", color="#555555", parse_math=False)
    ax.set_xlim(0, max(len(hands), 1))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # hands and chips are whole
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # minor units of money too
    if money is not None:
        decimals = money[0]
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda v, _: format_money(round(v), decimals, None)))
        unit = f"money ({money[1]})" if money[1] else "money"
    ax.set_xlabel("hand (ledger order)")
    ax.set_ylabel(f"cumulative net, {unit}")
    if title:
        ax.set_title(title)
    legend = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
                       handlelength=4)
    for text in legend.get_texts():
        text.set_parse_math(False)  # a name like "$x$" is text
    return fig


def _labels(rows: Sequence[tuple[int, str, int]], names: Mapping[str, str] | None,
            starts: Sequence[tuple[int, str | None]] = ()) -> list[str]:
    """The names a chart of ``rows`` writes: each player's label, each session's."""
    return [*((names or {}).get(p, p) for _, p, _ in rows),
            *(session or "" for _, session in starts)]


#: Formats matplotlib writes that need a program besides it (LaTeX): not offered.
_NEEDS_MORE = ("pgf",)


def chart_format(path: Path) -> str:
    """The format ``path`` is written in: the one its suffix names (``png``, ``svg``,
    ``pdf``, ``jpg``… as matplotlib writes them), PNG for a name with no suffix.

    Raises:
        LedgerError: a suffix matplotlib cannot write (``.html``): nothing is written.
    """
    from ledger.model.errors import LedgerError

    kind = path.suffix.lower().lstrip(".")
    if not kind:
        return "png"
    plt = _pyplot()
    fig = plt.figure()
    try:
        formats = [k for k in fig.canvas.get_supported_filetypes() if k not in _NEEDS_MORE]
    finally:
        plt.close(fig)
    if kind not in formats:
        raise LedgerError(f"cannot write a chart as {path.suffix} ({path}): chart writes "
                          f"{', '.join(f'.{k}' for k in formats)} (a name with no suffix: "
                          "PNG); nothing was written")
    return kind


def write_chart(path: Path, rows: list[tuple[int, str, int]], unit: str,
                names: Mapping[str, str] | None = None, *, title: str | None = None,
                money: tuple[int, str | None] | None = None) -> list[str]:
    """Plot cumulative nets from ``(ord, player, net)`` rows (ledger order) into ``path``,
    exactly that file, in the format its suffix names (:func:`chart_format`; :func:`figure`,
    ``money`` and ``unit`` as its); ``names``: what to label a player with when not his
    stored name (a PokerNow id's label, :attr:`cli.names.Names.labels`); ``title``: the
    chart's (the series' when None). Returns the names no installed font can draw (in a
    raster image or PDF each such character is a box; an SVG keeps the names as text, which
    its reader draws): the caller says so.

    Raises:
        LedgerError: as :func:`chart_format`; OSError: ``path`` cannot be written (nothing
            written: :func:`ledger.store.outputs.write_whole`).
    """
    from ledger.store.outputs import write_whole

    kind = chart_format(path)
    plt = _pyplot()
    with _drawing(_labels(rows, names)) as undrawable:
        fig = figure(rows, unit, names=names, money=money,
                     title=title or "Cumulative net per player across the series")
        buf = io.BytesIO()  # drawn whole first: the file is written whole or not at all
        try:
            fig.savefig(buf, dpi=110, bbox_inches="tight", format=kind,
                        metadata={"Date": None} if kind in ("svg", "svgz") else None)
        finally:
            plt.close(fig)
    write_whole(path, lambda f: f.write(buf.getvalue()))
    return [] if kind in ("svg", "svgz") else undrawable


def chart_svg(rows: Sequence[tuple[int, str, int]], starts: Sequence[tuple[int, str | None]],
              names: Mapping[str, str] | None = None, unit: str = "chips",
              gid: str = "chart") -> str:
    """The :func:`figure` of ``rows`` as an ``<svg>`` element to put inside an HTML page (no
    XML declaration, no doctype, no stylesheet), its text kept as text and escaped; the same
    string for the same arguments."""
    plt = _pyplot()
    buf = io.StringIO()
    with _drawing(_labels(rows, names, starts)):  # the page's reader draws the names
        fig = figure(rows, unit, starts=starts, names=names, gid=gid)
        try:
            fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
        finally:
            plt.close(fig)
    svg = buf.getvalue()
    # its stylesheet (the default stroke joins) would style the whole page: report.css has it
    return _STYLESHEET.sub("", svg[svg.index("<svg"):]).rstrip("\n")
