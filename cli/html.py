"""HTML pages (Jinja2): one self-contained page replaying a hand, reusable by a report.

The page (templates in ``cli/templates``, rendered with Jinja2, autoescape on) embeds the
hand's :class:`replay.handview.HandView` as JSON in a ``<script type="application/json">``
element with ``<``, ``>`` and ``&`` written as ``\\u003c`` … so no text from a file can end the
script; the page's own plain JavaScript steps through it (buttons, arrow keys, a slider) and
writes every name and text with ``textContent``. No server and no network: it works opened
from a file. :func:`render_hand` is what a report's page per hand reuses.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cli.names import Names
    from replay.handview import HandView, Version

_TEMPLATES = "templates"
_SUITS = {"s": ("♠", "spades"), "h": ("♥", "hearts"), "d": ("♦", "diamonds"),
          "c": ("♣", "clubs")}
_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}


def embed_json(data: Any) -> str:
    """``data`` as JSON safe inside ``<script type="application/json">``: ``<``, ``>``, ``&``
    (and the JavaScript line separators) escaped as ``\\uXXXX``; JSON.parse reads it back."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch in "<>&\u2028\u2029":
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def seat_positions(n: int) -> list[tuple[float, float]]:
    """Where ``n`` seats sit around the table, as percentages of its box (x, y), clockwise
    from the bottom centre (seat order, p1 first)."""
    out = []
    for i in range(n):
        angle = math.pi / 2 + 2 * math.pi * i / n
        out.append((round(50 + 44 * math.cos(angle), 2), round(50 + 41 * math.sin(angle), 2)))
    return out


def card_label(card: str) -> str:
    """``"Ah"`` → ``"ace of hearts"``; ``"??"`` → ``"unknown card"``."""
    if len(card) != 2 or card[1] not in _SUITS:
        return "unknown card"
    return f"{_RANKS.get(card[0], card[0])} of {_SUITS[card[1]][1]}"


@functools.cache
def _environment():  # noqa: ANN202 - jinja2.Environment, made once: it caches the templates
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("cli", _TEMPLATES), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["card_label"] = card_label
    return env


@functools.cache
def _asset(name: str) -> str:
    return resources.files("cli").joinpath(_TEMPLATES, name).read_text(encoding="utf-8")


def asset(name: str) -> str:
    """The text of one of the pages' own files in ``cli/templates`` (``base.css``,
    ``hand.css``, ``hand.js``, ``report.css``)."""
    return _asset(name)


def render_hand(view: HandView, *, links: Sequence[tuple[str, str]] = (), key: str | None = None,
                assets: str | None = None, names: Names | None = None) -> str:
    """The page of one hand: ``links`` are ``(href, text)`` shown above it (a report's way
    back to its session and index); ``key`` is written into the page's head (a report keeps
    a page whose key has not changed); ``assets``: the relative folder (``"../assets/"``)
    holding ``base.css``, ``hand.css`` and ``hand.js``, linked instead of written into the
    page (None: the page holds them, self-contained); ``names``: the players known by a
    PokerNow id named as the reads name them (:class:`cli.names.Names`; the history of
    corrections and voids as stored, as ``history`` prints it). Returns the HTML text."""
    from markupsafe import Markup

    data = view.to_json()
    if names is not None and names.labels:
        from cli.names import renamed

        data = {k: v if k == "history" else renamed(v, names) for k, v in data.items()}
        view = _named(view, names)
    versions = [view.corrected] + ([view.original] if view.original else [])
    money = view.money

    def chips(n: int | None, sign: bool = False) -> Markup:
        """``145`` and, with money, ``(36.25 USD)`` on a line of its own (never for 0)."""
        if n is None:
            return Markup("—")
        text = Markup('<span class="chips">{}</span>').format(f"{n:+d}" if sign else str(n))
        if money and n:
            text += Markup(' <span class="money">({})</span>').format(money.text(n))
        return text

    return _environment().get_template("hand.html").render(
        view=view, versions=versions, links=list(links), chips=chips,
        events=data["versions"]["corrected"]["steps"],  # the list a page without script shows
        seats=list(zip(view.starting, seat_positions(len(view.starting)), strict=True)),
        data=Markup(embed_json(data)), key=key,
        stylesheets=[assets + "base.css", assets + "hand.css"] if assets is not None else [],
        style=Markup(_asset("base.css") + _asset("hand.css")) if assets is None else "",
        script_src=assets + "hand.js" if assets is not None else None,
        script=Markup(_asset("hand.js")) if assets is None else "",
    )


def _named(view: HandView, names: Names) -> HandView:
    """``view`` with what the page draws of it before its script runs (the button, the seats,
    each version's explanation, payouts, discrepancies and notes, the late-correction notes)
    naming the players as
    ``names`` does; its steps and history as they are (the page's data is renamed apart)."""
    from dataclasses import replace

    def version(v: Version) -> Version:
        return replace(
            v, explanation=tuple(map(names, v.explanation)),
            payouts=tuple(replace(p, player=names.label(p.player)) for p in v.payouts),
            discrepancies=tuple((names.label(p) or p, names(m)) for p, m in v.discrepancies),
            notes=tuple(map(names, v.notes)),
            unknown=None if v.unknown is None else names(v.unknown))

    return replace(view, button=names.label(view.button),
                   starting=tuple((names.label(p) or p, s) for p, s in view.starting),
                   corrected=version(view.corrected),
                   original=version(view.original) if view.original else None,
                   late=tuple(map(names, view.late)))


def render_page(template: str, **context: Any) -> str:
    """A page of ``cli/templates`` rendered with ``context`` (autoescape on: every text is
    escaped unless it is ``markupsafe.Markup``). Returns the HTML text."""
    return _environment().get_template(template).render(**context)
