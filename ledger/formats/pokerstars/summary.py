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


def summary_facts(summary: Summary) -> dict[str, Any]:
    """The site's totals as ``HandStarted.source`` keeps them (JSON values, chips)."""
    return {
        "site_total_pot": summary.total_pot,
        "site_rake": summary.rake,
        "site_main_pot": summary.pots[0] if summary.pots else None,
        "site_side_pots": summary.pots[1:] if summary.pots else [],
        "site_paid": dict(summary.paid),
    }


def summary_differences(source: Mapping[str, Any]) -> list[str]:
    """Where the site's own totals disagree with the hand's lines, in words (chips); an empty
    list when everything adds up.

    ``source`` is a hand's ``HandStarted.source`` as :func:`read_pokerstars` sets it: the
    summary's ``site_total_pot``, ``site_rake``, ``site_main_pot`` / ``site_side_pots`` and
    ``site_paid`` (per player), and from the hand's lines ``put_in`` (every chip posted, bet
    or called, less the uncalled bets returned) and ``collected`` (per player, the
    ``collected … from pot`` lines). Checks: the chips put in equal the total pot; what was
    collected plus the rake equals the total pot; the main and side pots add up to it; each
    player's summary amount equals what his lines collected.

    >>> summary_differences({"site_total_pot": 490, "site_rake": 20, "put_in": 490,
    ...                      "collected": {"p": 470}, "site_paid": {"p": 470}})
    []
    """
    out: list[str] = []
    total, rake = source.get("site_total_pot"), source.get("site_rake")
    put_in = source.get("put_in")
    collected: Mapping[str, int] = source.get("collected") or {}
    if total is None or rake is None:
        return ["the summary gives no total pot and rake"]
    if put_in is not None and put_in != total:
        out.append(f"the actions put {put_in} in the pot, the summary says {total} "
                   f"({total - put_in:+d})")
    paid_total = sum(collected.values())
    if paid_total + rake != total:
        out.append(f"collected {paid_total} + rake {rake} = {paid_total + rake}, the total pot "
                   f"is {total} ({total - paid_total - rake:+d})")
    main = source.get("site_main_pot")
    pots = [main, *source.get("site_side_pots", [])] if main is not None else []
    if pots and sum(pots) + rake != total:
        out.append(f"the main and side pots {pots} + rake {rake} do not make the total pot "
                   f"{total}")
    paid: Mapping[str, int] = source.get("site_paid") or {}
    for player in sorted(set(paid) | set(collected)):
        if paid.get(player, 0) != collected.get(player, 0):
            out.append(f"{player}: the summary says {paid.get(player, 0)}, the lines collected "
                       f"{collected.get(player, 0)}")
    return out


def adds_up(source: Mapping[str, Any]) -> bool:
    """Whether the hand's actions add up to the site's own totals
    (``not summary_differences(source)``)."""
    return not summary_differences(source)
