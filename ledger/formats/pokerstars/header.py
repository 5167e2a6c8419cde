"""The first lines of a PokerStars hand: hand number, game, stakes, time, table, seats.

Line 1, cash: ``PokerStars Game #35824118297:  Hold'em No Limit ($0.05/$0.10 USD) - 2009/11/25
6:21:05 ET``; tournament: ``PokerStars Game #62678213223: Tournament #999999999, $20.00+$0.80
USD Hold'em No Limit - Level I (10/20) - 2010/06/05 18:20:59 WET [2010/06/05 13:20:59 ET]``.
Line 2: ``Table 'May IV' 6-max Seat #3 is the button`` (stud tables name no button). Then one
``Seat N: name ($9.60 in chips)`` line per seated player (``… is sitting out`` or ``… out of
hand …`` after it: not dealt in).

Games (engine.games codes, betting letter first): Hold'em ``T``, Omaha ``O``, Omaha Hi/Lo
``O/8``, 5 Card Omaha ``O5`` / ``O5/8``, 7 Card Stud ``7S``, 7 Card Stud Hi/Lo ``7S/8``, Razz
``R``, 5 Card Stud ``5S``, 5 Card Draw ``5D``, Triple Draw 2-7 Lowball ``2L3D``, Single Draw 2-7
Lowball ``2L1D``, Badugi ``B``; ``No Limit`` ``N``, ``Pot Limit`` ``P``, ``Limit`` ``F``.

Amounts: a cash game's currency (``USD``, ``EUR``, ``GBP``; from the code or the symbol) is
counted in integer minor units (two decimals: ``$0.05`` → 5); tournament and play-money chips
stay chips (no decimals). Time: the header's time in the zone it names, converted to UTC; the
bracketed ET time is preferred (ET = America/New_York, through :mod:`zoneinfo`; in the hour
that repeats when summer time ends the earlier reading is taken). A zone other than ET, UTC or
GMT is kept as written with no UTC time: its abbreviations are not unambiguous (the files'
``WET`` is UTC+1 in June).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from ledger.formats.pokerstars.text import HandText
from ledger.model.errors import MalformedInput

_GAME_NAMES = {
    "5 Card Omaha Hi/Lo": "O5/8", "5 Card Omaha": "O5", "Omaha Hi/Lo": "O/8", "Omaha": "O",
    "Hold'em": "T", "7 Card Stud Hi/Lo": "7S/8", "7 Card Stud": "7S", "5 Card Stud": "5S",
    "Razz": "R", "5 Card Draw": "5D", "Triple Draw 2-7 Lowball": "2L3D",
    "Single Draw 2-7 Lowball": "2L1D", "Badugi": "B",
}
_LIMITS = {"No Limit": "N", "Pot Limit": "P", "Limit": "F"}
_GAMES_ALT = "|".join(re.escape(g) for g in _GAME_NAMES)
_GAME_RE = re.compile(f"(?P<game>{_GAMES_ALT}) (?P<limit>No Limit|Pot Limit|Limit)\\b")
#: A written amount: an optional currency symbol, digits (thousands commas allowed), decimals.
AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?"
_STAKES_RE = re.compile(
    rf"\((?:[^()]*, )?(?P<lo>{AMOUNT})/(?P<hi>{AMOUNT})(?: (?P<cur>[A-Z]{{3}}))?\)"
)
_TOURNAMENT_RE = re.compile(rf"Tournament #(?P<id>\d+), (?P<buy_in>.*?) ?(?=(?:{_GAMES_ALT}) )")
_LEVEL_RE = re.compile(r"Level (?P<level>[IVXLCDM\d]+)")
_TIME_RE = re.compile(
    r"(?P<date>\d{4}/\d{1,2}/\d{1,2}) (?P<time>\d{1,2}:\d{2}:\d{2}) (?P<zone>[A-Z]+)"
)
_TABLE_RE = re.compile(
    r"^Table '(?P<table>.*)'(?: (?P<max>\d+)-max)?(?P<rest>.*?)"
    r"(?: Seat #(?P<button>\d+) is the button)?$"
)
_SEAT_RE = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>{AMOUNT}) in chips(?:,[^)]*)?\)(?P<rest>.*)$"
)
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_ZONES = {"ET": "America/New_York", "UTC": "UTC", "GMT": "UTC"}


def amount(text: str, decimals: int) -> int:
    """Chips of one written amount: ``'$0.05'`` with 2 decimals → 5, ``'1,500'`` → 1500.

    >>> amount("$0.05", 2), amount("€109.16", 2), amount("1,500", 0), amount("$5", 2)
    (5, 10916, 1500, 500)

    Raises:
        MalformedInput: not an amount, or finer than the hand's unit.
    """
    body = text.strip().lstrip("$€£").replace(",", "")
    whole, _, frac = body.partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()):
        raise MalformedInput(f"{text!r} is not an amount")
    if len(frac.rstrip("0")) > decimals:
        raise MalformedInput(f"amount {text} has more decimal places than the hand's unit "
                             f"({decimals})")
    return int(whole) * 10**decimals + int((frac + "0" * decimals)[:decimals] or 0)


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One ``Seat N:`` line of the header: seat number, name, stack in chips, and whether
    the line marks the player out of the hand (sitting out, out of hand)."""

    seat: int
    name: str
    stack: int
    out: bool


@dataclass(frozen=True, slots=True)
class Header:
    """Everything the header says. ``code`` is the engine's variant code; ``lo``/``hi`` the
    two stakes (blinds in big-bet games, small and big bet in fixed limit) in chips;
    ``currency`` None for chips; ``time_utc`` ISO 8601 or None (zone not known)."""

    number: str
    code: str
    game: str
    currency: str | None
    decimals: int
    lo: int
    hi: int
    time_local: str | None
    zone: str | None
    time_utc: str | None
    table: str | None
    max_seats: int | None
    button_seat: int | None
    seats: list[SeatLine] = field(default_factory=list)
    tournament: str | None = None
    buy_in: str | None = None
    level: str | None = None
    end: int = 2  #: index in the hand's lines of the first line after the seats


def parse_header(hand: HandText) -> Header:
    """Read the header lines of one hand (``hand.lines[0]`` is the ``PokerStars …`` line).

    Raises:
        MalformedInput: an unknown game, no stakes, no table line, or a bad seat line.
    """
    lines = hand.lines
    first = lines[0]
    g = _GAME_RE.search(first)
    if g is None:
        raise MalformedInput("unknown game (not a PokerStars game this reader knows)")
    code = _LIMITS[g["limit"]] + _GAME_NAMES[g["game"]]
    s = _STAKES_RE.search(first, g.start())
    if s is None:
        raise MalformedInput("no stakes in the header")
    t = _TOURNAMENT_RE.search(first)
    currency = None if t else (s["cur"] or _SYMBOLS.get(s["lo"][0]))
    decimals = 2 if currency else 0
    lo, hi = amount(s["lo"], decimals), amount(s["hi"], decimals)
    local, zone, utc = _time(first)
    level = _LEVEL_RE.search(first, g.end()) if t else None
    table = _TABLE_RE.match(lines[1]) if len(lines) > 1 else None
    if table is None:
        raise MalformedInput("no table line after the header",  # a hand of one line: there
                             line=hand.line + min(1, len(lines) - 1))
    seats, end = _seats(hand, decimals)
    return Header(
        number=hand.number, code=code, game=f"{g['game']} {g['limit']}", currency=currency,
        decimals=decimals, lo=lo, hi=hi, time_local=local, zone=zone, time_utc=utc,
        table=table["table"], max_seats=int(table["max"]) if table["max"] else None,
        button_seat=int(table["button"]) if table["button"] else None, seats=seats,
        tournament=t["id"] if t else None, buy_in=t["buy_in"] if t else None,
        level=level["level"] if level else None, end=end,
    )


def _time(first: str) -> tuple[str | None, str | None, str | None]:
    found = list(_TIME_RE.finditer(first))
    if not found:
        return None, None, None
    known = [m for m in found if m["zone"] in _ZONES]
    m = known[0] if known else found[0]
    local = f"{m['date']} {m['time']}"
    if m["zone"] not in _ZONES:
        return local, m["zone"], None
    try:
        naive = datetime.strptime(local, "%Y/%m/%d %H:%M:%S")
    except ValueError:
        raise MalformedInput(f"bad date or time {local!r} in the header") from None
    utc = naive.replace(tzinfo=ZoneInfo(_ZONES[m["zone"]])).astimezone(UTC)
    return local, m["zone"], utc.isoformat()


def _seats(hand: HandText, decimals: int) -> tuple[list[SeatLine], int]:
    lines = hand.lines
    seats: list[SeatLine] = []
    i = 2
    while i < len(lines) and lines[i].startswith("Seat "):
        m = _SEAT_RE.match(lines[i])
        if m is None:
            raise MalformedInput(f"bad seat line {lines[i]!r}", line=hand.line + i)
        rest = m["rest"].strip()
        out = rest.startswith("is sitting out") or rest.startswith("out of hand")
        try:
            stack = amount(m["stack"], decimals)
        except MalformedInput as exc:
            raise exc.located(line=hand.line + i) from None
        seats.append(SeatLine(int(m["seat"]), m["name"], stack, out))
        i += 1
    if len(seats) < 2:
        # at the line after the table line; a hand that ends there, at its last line
        raise MalformedInput("fewer than two seated players",
                             line=hand.line + min(2, len(lines) - 1))
    return seats, i
