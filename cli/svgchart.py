"""The series chart as inline SVG: each player's cumulative net, hand by hand in ledger order,
drawn from the rows ``handledger chart`` plots (:func:`replay.books.chart_rows`).

Only the geometry is made here (:func:`chart`); ``cli/templates/chart.html`` writes it, with
every name escaped. Readable without colour: each line has its own dash pattern as well as its
colour, and is named at its end with the player's total.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 1000, 440
LEFT, RIGHT, TOP, BOTTOM = 64, 190, 16, 46
#: Okabe and Ito's colours, told apart with colour vision deficiencies; black last.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7a6a00",
           "#000000")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "4 4", "12 4 4 4", "1 2", "6 2 2 2 2 2")
_LABEL_GAP = 14  # px between two end labels


@dataclass(frozen=True)
class Line:
    """One player's line: ``points`` (SVG ``x,y`` pairs), ``colour``, ``dash`` (SVG
    ``stroke-dasharray``, "" solid), his ``total``, the ``name`` it is labelled with and
    where his label sits (``label_y``)."""

    player: str
    name: str
    total: int
    points: str
    colour: str
    dash: str
    label_y: float


@dataclass(frozen=True)
class Chart:
    """The chart's geometry: ``lines`` (most won first), ``y_ticks`` ``(y, value)``,
    ``x_ticks`` ``(x, hand number)``, ``sessions`` ``(x, name)`` where each session starts,
    ``zero`` (y of 0), ``hands`` (how many), the plot box and the SVG size."""

    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    sessions: tuple[tuple[float, str], ...]
    zero: float
    hands: int
    left: int = LEFT
    top: int = TOP
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM
    width: int = WIDTH
    height: int = HEIGHT


def nice_step(span: float, count: int = 6) -> int:
    """A step of 1, 2 or 5 × a power of ten giving about ``count`` ticks over ``span``."""
    raw = max(span, 1) / count
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return max(1, int(m * power))
    return max(1, int(10 * power))  # pragma: no cover - the loop always returns


def chart(rows: Sequence[tuple[int, str, int]], starts: Sequence[tuple[int, str | None]] = (),
          names: Mapping[str, str] | None = None) -> Chart:
    """The :class:`Chart` of ``(ord, player, net)`` rows (chips, ledger order) and
    ``starts`` ``(ord of a session's first hand, session)``; ``names``: what to label a
    player with (his PokerNow nickname) when not his name. A player's line is flat from
    his last hand to the end, drawn in steps (level from one hand to the next); at most one
    value per pixel column is kept (its last)."""
    ords = sorted({o for o, _, _ in rows})
    index = {o: i for i, o in enumerate(ords, 1)}
    n = max(len(ords), 1)
    plot_w, plot_h = WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP
    totals: dict[str, int] = {}
    series: dict[str, list[tuple[int, int]]] = {}
    for o, player, net in rows:
        totals[player] = totals.get(player, 0) + net
        series.setdefault(player, [(0, 0)]).append((index[o], totals[player]))
    low = min([0, *(v for pts in series.values() for _, v in pts)])
    high = max([0, *(v for pts in series.values() for _, v in pts)])
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / n, 1)

    def y(v: float) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    lines = []
    order = sorted(series, key=lambda p: (-totals[p], p))
    for k, player in enumerate(order):
        pts = series[player] + [(n, totals[player])]
        kept: dict[float, float] = {}
        for i, v in pts:
            kept[x(i)] = y(v)  # the last value in each pixel column
        steps: list[str] = []
        before = None
        for a, b in kept.items():  # a step: level until the next hand, then up or down
            if before is not None and before != b:
                steps.append(f"{a:g},{before:g}")
            steps.append(f"{a:g},{b:g}")
            before = b
        text = " ".join(steps)
        lines.append((player, text, k))
    labels = _spread([y(totals[p]) for p in order], TOP, HEIGHT - BOTTOM)
    x_step = nice_step(n, 8)
    return Chart(
        lines=tuple(Line(p, (names or {}).get(p, p), totals[p], text, COLOURS[k % len(COLOURS)],
                         DASHES[(k + k // len(COLOURS)) % len(DASHES)], labels[k])
                    for p, text, k in lines),
        y_ticks=tuple((y(v), v) for v in range(low, high + 1, step)),
        x_ticks=tuple((x(i), i) for i in range(0, n + 1, x_step)),
        sessions=tuple((x(index[o] - 1), name or "no session") for o, name in starts
                       if o in index),
        zero=y(0), hands=len(ords))


def _spread(ys: list[float], top: float, bottom: float) -> list[float]:
    """The label positions nearest ``ys`` that are at least a label apart, in the box."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = list(ys)
    last = top - _LABEL_GAP
    for i in order:
        out[i] = max(ys[i], last + _LABEL_GAP)
        last = out[i]
    over = (last - bottom) if order else 0
    if over > 0:  # pushed past the bottom: shift everything up (as far as the top allows)
        for i in order:
            out[i] = max(top, out[i] - over)
        last = top - _LABEL_GAP
        for i in order:
            out[i] = max(out[i], last + _LABEL_GAP)
            last = out[i]
    return [round(v, 1) for v in out]
