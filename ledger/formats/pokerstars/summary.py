"""The ``*** SUMMARY ***`` section, and whether a hand's actions add up to the site's totals.

Summary lines read: ``Total pot $3.70 Main pot $2.35. Side pot-1 $0.88. Side pot-2 $0.29. |
Rake $0.18`` (the pot as the site counts it: every chip put in less the uncalled bets returned;
then its main and side pots, and the rake it kept), ``Board [..]`` / ``FIRST Board [..]`` /
``SECOND Board [..]``, ``Hand was run twice``, and one ``Seat N: name …`` line per player with
what he ``showed [..]`` or ``mucked [..]`` and what he ``won (..)`` or ``collected (..)`` (a run
it twice hand: one ``won`` per run).

:func:`summary_differences` compares those totals with the hand's own lines, kept in
``HandStarted.source`` by the reader (:mod:`ledger.formats.pokerstars.read`): a site whose
summary does not add up is a fact of the hand for the audit to report, never an import error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.formats.pokerstars.header import AMOUNT, amount
from ledger.formats.pokerstars.lines import cards_of
from ledger.model.errors import MalformedInput

_TOTAL = re.compile(
    rf"^Total pot (?P<total>{AMOUNT})(?P<pots>(?: (?:Main|Side) pot(?:-\d+)? {AMOUNT}\.)*)"
    rf" \| Rake (?P<rake>{AMOUNT})(?: \|.*)?$"
)
_POT = re.compile(rf"(?:Main|Side) pot(?:-\d+)? ({AMOUNT})\.")
_BOARD = re.compile(r"^(?:(?P<run>FIRST|SECOND|THIRD) )?Board (?P<cards>\[[^\]]*\])$")
_RUNS = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<rest>.*)$")
_PAID = re.compile(rf"(?:won|collected) \((?P<a>{AMOUNT})\)")
_SHOWN = re.compile(r"(?P<how>showed|mucked) (?P<cards>\[[^\]]*\])")


@dataclass
class Summary:
    """What the summary says, in chips: ``total_pot``, ``rake``, ``pots`` (main pot first,
    empty when the site names no side pot), ``boards`` (run → cards), ``paid`` (player →
    everything the summary says he won or collected), ``shown`` / ``mucked`` (player → cards),
    ``listed`` (the seats it has a line for)."""

    total_pot: int | None = None
    rake: int | None = None
    pots: list[int] = field(default_factory=list)
    boards: dict[int, list[str]] = field(default_factory=dict)
    paid: dict[str, int] = field(default_factory=dict)
    shown: dict[str, list[str]] = field(default_factory=dict)
    mucked: dict[str, list[str]] = field(default_factory=dict)
    runs: int = 1
    #: the seat numbers of its ``Seat N:`` lines
    listed: set[int] = field(default_factory=set)


def parse_summary(lines: list[tuple[int, str]], seats: Mapping[int, str],
                  decimals: int) -> Summary:
    """Read the summary's ``(file line, text)`` pairs; ``seats``: seat number → player.

    Raises:
        MalformedInput: a line that is none of the forms above, a bad amount or card.
    """
    out = Summary()
    for line, text in lines:
        try:
            _summary_line(out, text, line, seats, decimals)
        except MalformedInput as exc:
            raise exc.located(line=line) from None
    return out


def _summary_line(out: Summary, text: str, line: int, seats: Mapping[int, str],
                  decimals: int) -> None:
    if m := _TOTAL.match(text):
        out.total_pot = amount(m["total"], decimals)
        out.rake = amount(m["rake"], decimals)
        out.pots = [amount(a, decimals) for a in _POT.findall(m["pots"])]
    elif m := _BOARD.match(text):
        out.boards[_RUNS.get(m["run"] or "FIRST", 1)] = list(cards_of(m["cards"], line)[0])
    elif text.startswith("Hand was run "):
        out.runs = {"twice": 2, "three times": 3}.get(text.removeprefix("Hand was run "), 1)
    elif m := _SEAT.match(text):
        out.listed.add(int(m["seat"]))
        name = seats.get(int(m["seat"]))
        if name is None:
            return  # a seat that was not dealt in (sitting out)
        paid = sum(amount(a, decimals) for a in _PAID.findall(m["rest"]))
        if paid:
            out.paid[name] = out.paid.get(name, 0) + paid
        for how, cards in _SHOWN.findall(m["rest"]):
            target = out.shown if how == "showed" else out.mucked
            target[name] = list(cards_of(cards, line)[0])
    elif text:
        raise MalformedInput(f"unknown summary line {text!r}")


def check_whole(summary: Summary, seats: Mapping[int, str], last: int) -> None:
    """Refuse a summary cut short: the site writes its ``Total pot … | Rake …`` line and a
    ``Seat N:`` line for every seat dealt in (``seats``: seat number → player), so a summary
    without one of them is a file that stops inside the hand (a copy cut short, a download
    broken off) rather than what the table did. ``last``: the hand's last file line.

    Raises:
        MalformedInput: at ``last``, naming what is missing, worded as the reader's other
            cut points (``… (is the file cut?)``).
    """
    if summary.total_pot is None:
        raise MalformedInput("the hand's *** SUMMARY *** has no 'Total pot … | Rake …' line "
                             "(is the file cut?)", line=last)
    missing = sorted(set(seats) - summary.listed)
    if missing:
        seat = missing[0]
        raise MalformedInput(f"the hand's *** SUMMARY *** has no 'Seat {seat}: "
                             f"{seats[seat]} …' line (is the file cut?)", line=last)


#: Card ranks as a hand's description names them, one and several (``Ace``, ``Aces``).
_RANK = "(?:Deuce|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace)"
_RANKS = "(?:Deuces|Threes|Fours|Fives|Sixes|Sevens|Eights|Nines|Tens|Jacks|Queens|Kings|Aces)"
_HIGH = (rf"(?:high card {_RANK}|a pair of {_RANKS}|two pair, {_RANKS} and {_RANKS}"
         rf"|three of a kind, {_RANKS}|a straight, {_RANK} to {_RANK}|a flush, {_RANK} high"
         rf"|a full house, {_RANKS} full of {_RANKS}|four of a kind, {_RANKS}"
         rf"|a straight flush, {_RANK} to {_RANK}|a Royal Flush)")
_CARD_RANK = "[2-9TJQKA]"
_FIVE_LOW = rf"{_CARD_RANK}(?:,{_CARD_RANK}){{4}}"
#: What a shown hand is described ``with``: a high hand, a low (``Lo: 8,6,4,3,2``), a badugi
#: (``a Badugi: 8,4,3,A``, ``a 3-card: T,7,2`` …), or both halves of a hi-lo hand.
_DESCRIBED = (rf"(?:{_HIGH}|Lo: {_FIVE_LOW}|a Badugi: {_CARD_RANK}(?:,{_CARD_RANK}){{3}}"
              rf"|a 3-card: {_CARD_RANK}(?:,{_CARD_RANK}){{2}}|a 2-card: {_CARD_RANK},{_CARD_RANK}"
              rf"|a 1-card: {_CARD_RANK}|HI: {_HIGH}(?:; LO: {_FIVE_LOW})?)")
_SHOWDOWN = rf"(?:won \({AMOUNT}\)|lost) with {_DESCRIBED}"
_STREET = r"(?:Flop|Turn|River|\d+(?:st|nd|rd|th) Street)"
#: The start of a ``Seat N:`` line, no further than its colon (the seat named only then:
#: ``Seat 1`` may be the start of ``Seat 10:``).
_SEAT_START = re.compile(r"^S(?:e(?:a(?:t(?: (?:\d+|(?P<seat>\d+):)?)?)?)?)?$")
#: The whole ``Seat N: name …`` line of a summary: the name, its places at the table, then
#: how the hand ended for him.
_WHOLE_SEAT = re.compile(
    r"^Seat \d+: .+?(?: \((?:button|small blind|big blind)\))* "
    rf"(?:folded (?:before Flop|before the Draw|on the {_STREET}"
    r"|after the \d+(?:st|nd|rd|th) Draw)(?: \(didn't bet\))?"
    rf"|collected \({AMOUNT}\)|mucked \[[^\]]*\]"
    rf"|showed \[[^\]]*\] and {_SHOWDOWN}(?:, and {_SHOWDOWN})*)$"
)


def check_last_seat_line(text: str, line: int, seats: Mapping[int, str]) -> None:
    """Refuse a hand whose file ends inside its summary's last ``Seat N: …`` line: ``text``,
    at file ``line``, is the file's last line and no line break follows it; ``seats``: seat
    number → player, of the table's header. Another last line is left to the summary's other
    checks (:func:`check_whole`: a summary cut before a seat's line).

    The site ends every line with a line break, and a copy saved without the last one is
    still whole; so such a line counts as cut when it is only the start of a seat line
    (``Seat``, ``Seat 10:``) or lacks the shape of a whole summary seat line, as the site
    writes it (every one of the 184 hands of the real files, ``../shared/data/text``): the
    player, his places at the table (``(button)``, ``(small blind)``, ``(big blind)``), then
    how the hand ended for him, complete to its last word: ``folded before Flop`` / ``before
    the Draw`` / ``on the Flop|Turn|River|3rd Street …`` / ``after the 1st Draw …``
    (``(didn't bet)`` or not), ``collected (X)``, ``mucked [cards]``, or ``showed [cards] and
    won (X) with …`` / ``and lost with …`` (one such clause a run, joined by ``, and``), the
    shown hand described in the site's words to its end (``a pair of Kings``, ``two pair,
    Queens and Jacks``, ``a straight, Ten to Ace``, ``a flush, Ace high``, ``a full house,
    Fives full of Aces``, ``Lo: 8,6,4,3,2``, ``a Badugi: 8,4,3,A``, ``HI: …; LO: 7,6,5,2,A``
    …). A cut that leaves a whole shape (after ``before Flop`` of ``before Flop (didn't
    bet)``, after a hi-lo hand's high half, after a run-it-twice line's first run) cannot be
    told from a whole line: what it leaves out is a note, a low's description, or the
    summary's second ``won`` amount (the payouts are the hand's ``collected`` lines, whole;
    :func:`summary_differences` names the summary then paying less than they do).

    Raises:
        MalformedInput: at ``line``: ``the hand's *** SUMMARY *** ends inside its 'Seat 9:
            Player2 …' line (is the file cut?)`` (``… inside a 'Seat N: …' line`` before its
            seat number is whole).
    """
    m = _SEAT.match(text) or _SEAT_START.match(text)
    if m is None or _WHOLE_SEAT.match(text):
        return
    seat = int(m["seat"]) if m["seat"] else None
    name = seats.get(seat) if seat is not None else None
    which = f"its 'Seat {seat}: {name} …'" if name else "a 'Seat N: …'"
    raise MalformedInput(f"the hand's *** SUMMARY *** ends inside {which} line (is the file "
                         "cut?)", line=line)


def summary_facts(summary: Summary) -> dict[str, Any]:
    """The site's totals as ``HandStarted.source`` keeps them (JSON values, chips)."""
    return {
        "site_total_pot": summary.total_pot,
        "site_rake": summary.rake,
        "site_main_pot": summary.pots[0] if summary.pots else None,
        "site_side_pots": summary.pots[1:] if summary.pots else [],
        "site_paid": dict(summary.paid),
    }


@dataclass(frozen=True)
class SummaryDifference:
    """One place where a site's summary disagrees with the hand's own lines (chips):
    ``player`` None for a total of the table; ``lines`` what the hand's lines give,
    ``summary`` what the summary says; ``said`` the difference in words."""

    player: str | None
    lines: int
    summary: int
    said: str


def summary_findings(source: Mapping[str, Any]) -> list[SummaryDifference]:
    """Where the site's own totals disagree with the hand's lines (:class:`SummaryDifference`
    each); an empty list when everything adds up, or when ``source`` holds no summary (a hand
    of another format).

    ``source`` is a hand's ``HandStarted.source`` as :func:`read_pokerstars` sets it: the
    summary's ``site_total_pot``, ``site_rake``, ``site_main_pot`` / ``site_side_pots`` and
    ``site_paid`` (per player), and from the hand's lines ``put_in`` (every chip posted, bet
    or called, less the uncalled bets returned) and ``collected`` (per player, the
    ``collected … from pot`` lines). Checks: the chips put in equal the total pot; what was
    collected plus the rake equals the total pot; the main and side pots add up to it; each
    player's summary amount equals what his lines collected. A ``source`` whose values are
    not of those shapes (chips as integers; a JSON-lines file's own ``source`` may hold
    anything under those names) is not a summary this reader wrote: nothing is compared.
    """
    if "site_total_pot" not in source or not _summary_shaped(source):
        return []
    out: list[SummaryDifference] = []
    total, rake = source["site_total_pot"], source["site_rake"]
    put_in = source.get("put_in")
    collected: Mapping[str, int] = source.get("collected") or {}
    if put_in is not None and put_in != total:
        out.append(SummaryDifference(None, put_in, total, (
            f"the actions put {put_in} in the pot, the summary says {total} "
            f"({total - put_in:+d})")))
    paid_total = sum(collected.values())
    if paid_total + rake != total:
        out.append(SummaryDifference(None, paid_total + rake, total, (
            f"collected {paid_total} + rake {rake} = {paid_total + rake}, the total pot is "
            f"{total} ({total - paid_total - rake:+d})")))
    main = source.get("site_main_pot")
    pots = [main, *source.get("site_side_pots", [])] if main is not None else []
    if pots and sum(pots) + rake != total:
        out.append(SummaryDifference(None, total, sum(pots) + rake, (
            f"the main and side pots {pots} + rake {rake} do not make the total pot {total}")))
    paid: Mapping[str, int] = source.get("site_paid") or {}
    for player in sorted(set(paid) | set(collected)):
        if paid.get(player, 0) != collected.get(player, 0):
            out.append(SummaryDifference(player, collected.get(player, 0), paid.get(player, 0), (
                f"{player}: the summary says {paid.get(player, 0)}, the lines collected "
                f"{collected.get(player, 0)}")))
    return out


def _chips(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _summary_shaped(source: Mapping[str, Any]) -> bool:
    """Whether ``source`` holds the summary's totals as :func:`summary_facts` and the reader
    wrote them (chips as integers)."""
    per_player = [source.get(k) or {} for k in ("collected", "site_paid")]
    sides = source.get("site_side_pots", [])
    return (_chips(source.get("site_total_pot")) and _chips(source.get("site_rake"))
            and all(source.get(k) is None or _chips(source.get(k))
                    for k in ("put_in", "site_main_pot"))
            and isinstance(sides, list) and all(_chips(v) for v in sides)
            and all(isinstance(d, Mapping) and all(_chips(v) for v in d.values())
                    for d in per_player))


def summary_differences(source: Mapping[str, Any]) -> list[str]:
    """:func:`summary_findings` in words (chips); an empty list when everything adds up;
    a ``source`` without the summary's total pot and rake is said to lack them.

    >>> summary_differences({"site_total_pot": 490, "site_rake": 20, "put_in": 490,
    ...                      "collected": {"p": 470}, "site_paid": {"p": 470}})
    []
    """
    if source.get("site_total_pot") is None or source.get("site_rake") is None:
        return ["the summary gives no total pot and rake"]
    return [d.said for d in summary_findings(source)]


def adds_up(source: Mapping[str, Any]) -> bool:
    """Whether the hand's actions add up to the site's own totals
    (``not summary_differences(source)``)."""
    return not summary_differences(source)
