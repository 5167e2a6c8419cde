"""One line of a PokerStars hand body → a :class:`Rec` (what the line says, amounts in chips).

Kinds (``player`` set unless noted; amounts in chips; ``cards`` a list of card groups, each a
list of two-character cards, as bracketed on the line):

* forced: ``post`` (``what`` = ``small blind`` | ``big blind`` | ``small & big blinds`` |
  ``the ante``, ``a`` = amount), ``bring_in`` (``a``);
* betting: ``fold``, ``check``, ``call`` (``a`` = chips added), ``bet`` (``a`` = to),
  ``raise`` (``a`` = by, ``b`` = to), ``complete`` (``b`` = to); a trailing ``and is all-in``
  or ``and has reached the … cap`` changes nothing (the engine sees the all-in);
* draws: ``discard`` (``a`` = how many, ``cards`` the discards when the line shows them),
  ``pat``;
* cards: ``dealt`` (``cards``: the groups of ``Dealt to P [..] [..]``), ``street`` (no player;
  ``what`` the label between the stars, ``cards`` the groups after it), ``show`` (``cards``),
  ``muck``, ``noshow``;
* money: ``collected`` (``a``; ``b`` the pot: 0 main pot or the only pot, n side pot n),
  ``uncalled`` (``a``, returned to ``player``);
* ``sitout`` (``player`` may be someone not seated), ``info`` (joins, leaves, chat, time-outs,
  finishing places: nothing for the hand), ``summary`` (no player: ``*** SUMMARY ***``).

Raises:
    MalformedInput: a line this reader does not know, naming its file line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ledger.formats.pokerstars.header import AMOUNT, amount
from ledger.model.errors import MalformedInput
from ledger.model.events import CARD_RE


class Rec(NamedTuple):
    """One classified line (see the module doc). ``line`` is the file's 1-based line."""

    line: int
    kind: str
    player: str | None = None
    a: int = 0
    b: int = 0
    cards: tuple[tuple[str, ...], ...] = ()
    what: str = ""


_A = f"(?P<a>{AMOUNT})"
_B = f"(?P<b>{AMOUNT})"
_TAIL = r"(?: and is all-in)?(?: and has reached the .* cap)?"
_GROUPS = r"(?P<cards>(?: ?\[[^\]]*\])+)"
#: What may follow ``NAME: ``: kind, the first words it can start with, the pattern.
_VERBS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("post", ("posts",),
     rf"posts (?P<what>small blind|big blind|small & big blinds|the ante) {_A}{_TAIL}"),
    ("bring_in", ("brings",), rf"brings in for {_A}{_TAIL}"),
    ("fold", ("folds",), rf"folds(?: {_GROUPS})?"),
    ("check", ("checks",), r"checks"),
    ("call", ("calls",), rf"calls {_A}{_TAIL}"),
    ("bet", ("bets",), rf"bets {_A}{_TAIL}"),
    ("raise", ("raises",), rf"raises {_A} to {_B}{_TAIL}"),
    ("complete", ("completes",), rf"completes it to {_B}{_TAIL}"),
    ("discard", ("discards",), rf"discards (?P<n>\d+) cards?(?: {_GROUPS})?"),
    ("pat", ("stands",), rf"stands pat(?: on {_GROUPS})?"),
    ("show", ("shows",), rf"shows {_GROUPS}(?: \(.*\))?"),
    ("muck", ("mucks",), rf"mucks hand(?: {_GROUPS})?"),
    ("noshow", ("doesn't",), r"doesn't show hand"),
    ("sitout", ("sits", "is"), r"(?:sits out|is sitting out)"),
    ("info", ("is", "has"), r"(?:is connected|is disconnected|has timed out.*|has returned)"),
)
#: First word → the ``(kind, pattern)`` pairs to try, in order.
_BY_WORD: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _kind, _words, _pattern in _VERBS:
    for _word in _words:
        _BY_WORD.setdefault(_word, []).append((_kind, re.compile(_pattern + "$")))
_DEALT = re.compile(rf"^Dealt to (?P<p>.+?) {_GROUPS}$")
_STREET = re.compile(r"^\*\*\* (?P<what>[^*]+?) \*\*\*(?P<cards>(?: ?\[[^\]]*\])*)$")
_UNCALLED = re.compile(rf"^Uncalled bet \({_A}\) returned to (?P<p>.+)$")
_COLLECTED = re.compile(
    rf"^(?P<p>.+) collected {_A} from (?:pot|main pot|(?P<side>side pot)(?:-(?P<n>\d+))?)$"
)
_SITOUT = re.compile(r"^(?P<p>.+?):? is sitting out$|^(?P<q>.+?): sits out$")
_INFO = re.compile(
    r"^(?:.+ (?:joins the table at seat #\d+|leaves the table|will be allowed to play after the "
    r"button|has returned|has timed out(?: while disconnected)?|is (?:dis)?connected|was "
    r"removed from the table for failing to post|finished the tournament in \d+\w+ place.*|"
    r"wins the tournament.*|re-buys and receives .*|takes the add-on.*|said, \".*)|Betting is "
    r"capped|Pair on board - a double bet is allowed|No low hand qualified)$"
)


def cards_of(groups: str, line: int) -> tuple[tuple[str, ...], ...]:
    """``'[Js 9h] [Qs]'`` → ``(('Js', '9h'), ('Qs',))``.

    Raises:
        MalformedInput: a token that is not a card.
    """
    out = []
    for group in re.findall(r"\[([^\]]*)\]", groups):
        cards = tuple(group.split())
        for card in cards:
            if not CARD_RE.match(card) or card == "??":
                raise MalformedInput(f"{card!r} is not a card", line=line)
        out.append(cards)
    return tuple(out)


def classify(text: str, line: int, names: frozenset[str], decimals: int) -> Rec:
    """The :class:`Rec` of one body line (``names``: the seated players).

    Raises:
        MalformedInput: a line not known, a player not seated acting, a bad amount or card.
    """
    try:
        return _classify(text, line, names, decimals)
    except MalformedInput as exc:
        raise exc.located(line=line) from None


def _classify(text: str, line: int, names: frozenset[str], decimals: int) -> Rec:
    if text.startswith("***"):
        m = _STREET.match(text)
        if m is None:
            raise MalformedInput(f"unknown line {text!r}")
        kind = "summary" if m["what"] == "SUMMARY" else "street"
        return Rec(line, kind, cards=cards_of(m["cards"], line), what=m["what"])
    player, rest = _split_player(text, names)
    if player is not None:
        return _player_line(player, rest, line, decimals, text)
    return _other_line(text, line, names, decimals)


def _split_player(text: str, names: frozenset[str]) -> tuple[str | None, str]:
    """``('Nikolay Zem', 'calls $0.02')`` for ``'Nikolay Zem: calls $0.02'`` (a seated name
    followed by ``': '``; the longest such name when several fit)."""
    found: tuple[str | None, str] = (None, "")
    start = 0
    while (i := text.find(": ", start)) >= 0:
        if text[:i] in names:
            found = (text[:i], text[i + 2 :])
        start = i + 1
    return found


def _player_line(player: str, rest: str, line: int, decimals: int, text: str) -> Rec:
    for kind, pattern in _BY_WORD.get(rest.split(" ", 1)[0], ()):
        m = pattern.match(rest)
        if m is None:
            continue
        groups = m.groupdict()
        a = amount(groups["a"], decimals) if groups.get("a") else int(groups.get("n") or 0)
        b = amount(groups["b"], decimals) if groups.get("b") else 0
        cards = cards_of(groups["cards"], line) if groups.get("cards") else ()
        return Rec(line, kind, player, a, b, cards, groups.get("what") or "")
    raise MalformedInput(f"unknown line {text!r}")


def _other_line(text: str, line: int, names: frozenset[str], decimals: int) -> Rec:
    if m := _DEALT.match(text):
        return Rec(line, "dealt", _seated(m["p"], names), cards=cards_of(m["cards"], line))
    if m := _COLLECTED.match(text):
        pot = (int(m["n"]) if m["n"] else 1) if m["side"] else 0
        return Rec(line, "collected", _seated(m["p"], names), amount(m["a"], decimals), pot)
    if m := _UNCALLED.match(text):
        return Rec(line, "uncalled", _seated(m["p"], names), amount(m["a"], decimals))
    if m := _SITOUT.match(text):
        return Rec(line, "sitout", m["p"] or m["q"])
    if _INFO.match(text):
        return Rec(line, "info")
    raise MalformedInput(f"unknown line {text!r}")


def _seated(name: str, names: frozenset[str]) -> str:
    if name not in names:
        raise MalformedInput(f"{name!r} is not seated at the table")
    return name
