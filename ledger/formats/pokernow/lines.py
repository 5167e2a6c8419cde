"""The line grammar of a PokerNow game log (FORMATS.md §2): one ``entry`` text → one :class:`Line`.

Every entry shape the format documents is recognised here; nothing is interpreted yet (amounts stay
the decimal text the log wrote, players stay ids). :func:`parse_line` raises ``ValueError`` for an
entry it does not know or cannot read, and the reader turns that into a
:class:`ledger.model.errors.MalformedInput` that names the CSV line.

Players are ``"Name @ ID"``: the ID is 10 characters of ``[A-Za-z0-9_-]`` and the name may hold
`` @ ``, quotes, digits or words like ``all in``. Every pattern is anchored at both ends and takes
the name greedily, so the player is cut at the **last** `` @ ID"`` that still lets the rest of the
line match its shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.games import UnknownGame, game

_ID = r"[A-Za-z0-9_-]{10}"
_P = rf'"(?P<name>.*) @ (?P<pid>{_ID})"'
_P2 = rf'"(?P<name2>.*) @ (?P<pid2>{_ID})"'
_N = r"(?P<amt>\d+(?:\.\d+)?)"
_N2 = r"(?P<amt2>\d+(?:\.\d+)?)"
_ALLIN = r"(?P<allin> and go all in)?"
_SEAT = re.compile(
    rf'#(?P<seat>\d+) "(?P<name>.*?) @ (?P<pid>{_ID})" \({_N}\)(?: \| |\s*$)'
)

#: Kinds that belong inside a hand (between its starting and ending lines).
HAND_KINDS = frozenset(
    {"stacks", "your_hand", "post", "bomb", "act", "board", "uncalled", "collected", "show",
     "rit", "dead_sb"}
)
#: Kinds that move money or seats between hands (session events).
SESSION_KINDS = frozenset(
    {"approved", "joined", "quit", "stand_up", "sit_back", "updated", "rebought", "bounty",
     "id_change"}
)

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(rx, flags))
    for kind, rx, flags in [
        ("start", rf"^-- starting hand #(?P<num>\d+)\s*(?:\(id: (?P<hid>[^()\s]*)\))?\s*"
                  rf"(?P<game>.*?)\s*\((?:dealer: {_P}|(?P<dead>dead button))\) --$", 0),
        ("end", r"^-- ending hand #(?P<num>\d+) --$", 0),
        ("stacks", r"^Player stacks: (?P<body>.*)$", 0),
        ("your_hand", r"^Your hand is (?P<cards>.+)$", 0),
        ("post", rf"^{_P} posts an? (?P<what>small blind|big blind|ante|straddle|missing small "
                 rf"blind|missed big blind) of {_N}{_ALLIN}$", 0),
        ("bomb", rf"^{_P} (?:posts a bet of|calls) {_N}(?P<allin1> and go all in)? "
                 rf"\(bomb pot bet\){_ALLIN}$", 0),
        ("act", rf"^{_P} (?P<what>folds|checks)$", 0),
        ("act", rf"^{_P} (?P<what>calls|bets|raises to) {_N}{_ALLIN}$", 0),
        ("board", r"^(?P<what>Flop|Turn|River)(?: \((?P<second>second run|second board)\))?:"
                  r"\s*(?P<cards>.*)$", 0),
        ("uncalled", rf"^Uncalled bet of {_N} returned to {_P}$", 0),
        ("ignore", rf"^{_P} collected {_N} from the .+ bounty$", 0),
        ("collected", rf"^{_P} collected {_N} from pot(?P<rest>(?:\s.*)?)$", 0),
        ("show", rf"^{_P} shows a (?P<cards>.+?)\.?$", 0),
        ("rit", r"^All players in hand choose to run it twice\.?$", 0),
        ("dead_sb", r"^Dead Small Blind$", 0),
        ("approved", rf"^The admin approved the player {_P} participation with a stack of "
                     rf"{_N}\.?$", 0),
        ("joined", rf"^The player {_P} joined the game with a stack of {_N}\.?$", 0),
        ("quit", rf"^The player {_P} quits the game with a stack of {_N}\.?$", 0),
        ("stand_up", rf"^The player {_P} stand up with the stack of {_N}\.?$", 0),
        ("sit_back", rf"^The player {_P} sit back with the stack of {_N}\.?$", 0),
        ("updated", rf"^The admin updated the player {_P} stack from {_N} to {_N2}\.?$", 0),
        ("rebought", rf"^The player {_P} rebought\. New stack {_N}\.?$", 0),
        ("bounty", rf"^{_P} paid {_N} for the (?P<what>.+?) bounty to {_P2}$", 0),
        ("id_change", rf"^The player {_P} changed the ID from (?P<former>{_ID}) to "
                      rf"(?P<new>{_ID})(?: because .*?)?\.?$", 0),
        ("blind_level", rf"^The game's (?P<what>small blind|big blind|ante) was changed from "
                        rf"{_N} to {_N2}\.?$", 0),
        # Recognised and deliberately ignored (FORMATS.md §2): votes, requests, queued changes.
        ("ignore", rf"^The player {_P} (?:requested a seat|canceled the seat request|requested "
                   rf"a rebuy of {_N})\.?$", 0),
        ("ignore", rf"^{_P} chooses to\s+(?:not\s+)?run it twice\.?$", 0),
        ("ignore", r"^(?:Remaining players decide whether to run it twice|Some players choose "
                   r"to not run it twice|Asking to busted players the rebuy decision|Waiting for "
                   r"the game owner to approve or reject pending rebuy requests)\.?$", 0),
        ("ignore", r"^(?:Undealt cards: |Game Config Changes|WARNING: |The game's ).*$",
         re.DOTALL),
        ("ignore", r'^The admin ".*" (?:enqueued|canceled|rejected|forced) .*$', 0),
        ("ignore", rf"^The player {_P} passed the room ownership to .*$", 0),
    ]
]

#: The shapes again with an ID of any length: an entry of a known shape whose ID is not of 10
#: characters names no player a seat list holds (:func:`parse_line` says so).
_ANY_ID = [(kind, re.compile(p.pattern.replace(_ID, "[A-Za-z0-9_-]+"), p.flags))
           for kind, p in _PATTERNS if _ID in p.pattern]
#: The hand lines of a player who must be seated in the hand.
_SEATED_KINDS = frozenset({"post", "bomb", "act", "uncalled", "collected", "show"})
_ID_WORDS = "a PokerNow ID is 10 characters of A-Z, a-z, 0-9, _ and -"

_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "s": "s", "h": "h", "d": "d", "c": "c"}
_RANKS = frozenset("23456789TJQKA")


@dataclass(frozen=True)
class Line:
    """One recognised entry. Amounts are the decimal text of the log (``"0.65"``, ``"100"``).

    ``kind`` is one of ``start end stacks your_hand post bomb act board uncalled collected show
    rit dead_sb`` (hand lines), ``approved joined quit stand_up sit_back updated rebought bounty
    id_change`` (session lines), ``blind_level`` or ``ignore``. ``what`` is the post kind, the
    action verb, the street or the bounty kind; ``run`` is 2 for ``(second run)``/``(second
    board)`` boards and ``collected … on the second run/board``; ``refs`` lists every ``(id,
    name)`` on the line; ``former`` is the id an ``id_change`` line changes from (``player``: the
    new one).
    """

    kind: str
    player: str | None = None
    amount: str | None = None
    amount2: str | None = None
    all_in: bool = False
    what: str | None = None
    cards: tuple[str, ...] = ()
    run: int = 1
    double_board: bool = False
    number: int | None = None
    pn_id: str | None = None
    game: str | None = None
    seats: tuple[tuple[int, str, str], ...] = ()  # (seat number, player id, stack text)
    payee: str | None = None
    refs: tuple[tuple[str, str], ...] = ()
    former: str | None = None

    def amounts(self) -> list[str]:
        """Every amount text on the line (for the game-wide chips-or-cents decision)."""
        found = [a for a in (self.amount, self.amount2) if a is not None]
        return found + [stack for _, _, stack in self.seats]


class BookLineError(ValueError):
    """A line of the session's book (``changed the ID``) whose shape is known but that cannot
    be read: wherever it is logged, the file is refused whole (FORMATS.md §2)."""


def card(token: str) -> str:
    """One PokerNow card (``10♥``, ``K♠``) as a PHH card (``Th``, ``Ks``).

    >>> card("10♥"), card("A♣")
    ('Th', 'Ac')

    Raises:
        ValueError: not a rank ``2-10 J Q K A`` followed by a suit ``♠♥♦♣``.
    """
    text = token.strip().replace("\ufe0f", "")
    rank, suit = text[:-1].upper(), _SUITS.get(text[-1:].lower() if text else "")
    rank = "T" if rank == "10" else rank
    if rank not in _RANKS or suit is None:
        raise ValueError(f"{token!r} is not a card")
    return rank + suit


def cards(text: str) -> tuple[str, ...]:
    """A comma-separated card list (``"K♦, 9♥"``) as PHH cards.

    Raises:
        ValueError: an empty list or a token that is not a card.
    """
    tokens = [t for t in text.strip().strip("[]").split(",") if t.strip()]
    if not tokens:
        raise ValueError(f"no cards in {text!r}")
    return tuple(card(t) for t in tokens)


def game_code(name: str) -> str:
    """The variant code (engine/games.py) of a PokerNow game name.

    >>> game_code("(No Limit Texas Hold'em)"), game_code("Pot Limit Omaha Hi/Lo 8 or Better")
    ('NT', 'PO/8')
    >>> game_code("Pot Limit Omaha 5 Hi/Lo (8 or Better)")
    'PO5/8'

    Raises:
        ValueError: a betting structure or game this project does not play.
    """
    low = " ".join(name.lower().replace("(", " ").replace(")", " ").split())
    betting = next(
        (code for prefix, code in (("no limit", "N"), ("pot limit", "P"), ("fixed limit", "F"),
                                   ("limit", "F")) if prefix in low),
        None,
    )
    base = None
    if "hold'em" in low or "holdem" in low:
        base = "T"
    elif "omaha" in low:
        words = low.replace("8 or better", "").replace("five", "5").replace("four", "4")
        size = set(re.findall(r"\b(\d+)\b", words)) or {"4"}
        base = {frozenset({"4"}): "O", frozenset({"5"}): "O5"}.get(frozenset(size))
    if betting is None or base is None:
        raise ValueError(f"unknown PokerNow game {name!r}")
    hilo = "hi/lo" in low or "hi-lo" in low or "8 or better" in low
    code = betting + base + ("/8" if hilo else "")
    try:
        game(code)
    except UnknownGame as exc:
        raise ValueError(f"unknown PokerNow game {name!r}") from exc
    return code


def _board(m: re.Match[str]) -> Line:
    text = m["cards"]
    new = text[text.rfind("[") :] if "[" in text else ""
    if not new.endswith("]"):
        raise ValueError(f"no [new cards] on the {m['what']} line")
    dealt = cards(new)
    if len(dealt) != (3 if m["what"] == "Flop" else 1):
        raise ValueError(f"{m['what']} with {len(dealt)} new cards")
    second = m["second"]
    return Line("board", what=m["what"].lower(), cards=dealt, run=2 if second else 1,
                double_board=second == "second board")


def _start(m: re.Match[str]) -> Line:
    raw = m["game"].strip()
    if raw.startswith("(") and raw.endswith(")"):
        raw = raw[1:-1].strip()
    refs = ((m["pid"], m["name"]),) if m["pid"] else ()
    return Line("start", number=int(m["num"]), pn_id=m["hid"] or None, game=raw,
                player=m["pid"], refs=refs)


def _stacks(m: re.Match[str]) -> Line:
    body, pos, seats = m["body"].rstrip(), 0, []
    while pos < len(body):
        seat = _SEAT.match(body, pos)
        if seat is None:
            raise ValueError(f"cannot read the seat list at {body[pos:pos + 30]!r}")
        seats.append((int(seat["seat"]), seat["pid"], seat["amt"], seat["name"]))
        pos = seat.end()
    if not seats:
        raise ValueError("no seats on the Player stacks line")
    return Line("stacks", seats=tuple(s[:3] for s in seats),
                refs=tuple((pid, name) for _, pid, _, name in seats))


def _generic(kind: str, m: re.Match[str]) -> Line:
    groups = m.groupdict()
    refs = tuple(
        (groups[pid], groups[name])
        for pid, name in (("pid", "name"), ("pid2", "name2"))
        if groups.get(pid)
    )
    rest = groups.get("rest") or ""
    found = groups.get("cards")
    if kind == "id_change" and groups["new"] != groups["pid"]:
        raise BookLineError(f"the ID changes to {groups['new']}, not to the player's "
                            f"{groups['pid']}")
    return Line(
        kind,
        player=groups.get("pid"),
        amount=groups.get("amt"),
        amount2=groups.get("amt2"),
        all_in=bool(groups.get("allin") or groups.get("allin1")),
        what=groups.get("what"),
        cards=cards(found) if found and kind in ("show", "your_hand") else (),
        run=2 if "on the second run" in rest or "on the second board" in rest else 1,
        double_board="on the second board" in rest,
        number=int(groups["num"]) if groups.get("num") else None,
        payee=groups.get("pid2"),
        refs=refs,
        former=groups.get("former"),
    )


def parse_line(entry: str) -> Line:
    """Recognise one log entry.

    Raises:
        ValueError: an entry of no known shape, or a known shape with unreadable cards or seats
            (:class:`BookLineError`: a line of the session's book), or with a player's ID not
            of 10 characters (``'zzZZzz9' is not seated: no Player stacks line lists that ID
            (…)`` for a hand line of his; FORMATS.md §2).
    """
    text = entry.strip()
    for kind, pattern in _PATTERNS:
        m = pattern.match(text)
        if m is None:
            continue
        if kind == "start":
            return _start(m)
        if kind == "stacks":
            return _stacks(m)
        if kind == "board":
            return _board(m)
        return _generic(kind, m)
    for kind, pattern in _ANY_ID:
        m = pattern.match(text)
        if m is None:
            continue
        groups = m.groupdict()
        odd = next((groups[k] for k in ("pid", "pid2", "former", "new")
                    if groups.get(k) and len(groups[k]) != 10), None)
        if odd is None:
            break
        if kind in _SEATED_KINDS:
            raise ValueError(f"{odd!r} is not seated: no Player stacks line lists that ID "
                             f"({_ID_WORDS})")
        raise ValueError(f"{odd!r} is not a player's ID ({_ID_WORDS})")
    raise ValueError("unrecognised log entry")
