"""What a site's payouts leave out: its rake and, on some sites, the uncalled bet.

A site's hand history says what each player collected. Some sites count an uncalled bet given
back in it, others leave it out; every raked hand pays the pots less the rake. Compared with
the rules' awards (which include the returned uncalled bet), such a hand shows differences that
are not mistakes. This module gives them their own kind, explained in words:

* ``uncalled`` — a player was paid exactly his uncalled bet less than the rules say;
* ``rake`` — the table was paid, in all, less than the pots by the rake: the one the file records
  (PHH's ``rake`` field, FORMATS.md §1; a site text's summary, ``site_rake``), the one a home
  game recorded live (``act HAND "rake AMOUNT"``, a ``recorded_rake`` event: the same field as an
  event), or one within the hand's rake rule (our ``_rake`` table: ``percent``, ``cap`` in the
  file's money, ``no_flop_no_drop``). A hand's rake is named once, one finding however many
  players it left short (a split pot), and counted as that rake: the uncalled bets a site
  left out beside it are each an ``uncalled`` finding of their own.

Anything else, a real over- or under-payment, stays a ``payout`` discrepancy; one short by more
than the player's uncalled bet in a hand that records no rake says both (the uncalled bet not
paid back, and the rest that no rake explains). A home game's hand names a rake only when
one was recorded at the table; otherwise nothing here applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

# engine.pots comes with replay.compare anyway; imported here, not in whole_pot (a hand)
from engine.pots import uncalled as uncalled_bets
from replay.compare import Discrepancy


def classify(found: list[Discrepancy], result: Any, started: Any, *, flop: bool,
             rake: int | None = None, paid: Sequence[Any] = ()) -> list[Discrepancy]:
    """``found`` with the differences a site's rake and uncalled-bet convention explain given
    their kinds (see the module doc); chips throughout. ``flop``: a board was dealt (for a
    no-flop-no-drop rule); ``rake``: the rake recorded at the table (a ``recorded_rake``
    event), None when the hand records none there; ``paid``: the hand's recorded payouts
    (``RecordedPayout`` events): a file that marks any returned pays uncalled bets back, so
    none of them was left out (:func:`not_paid_back`)."""
    payouts = [d for d in found if d.kind == "payout"]
    if not payouts:
        return _unknown_cards(found, result,
                              rake if rake is not None else filed_rake(started),
                              live=rake is not None)
    if any(d.diff > 0 for d in payouts):
        return found
    recorded, most = (rake, None) if rake is not None else _rake(started, result, flop)
    short = -sum(d.diff for d in payouts)
    could = not_paid_back(result.returned, paid)
    returned = {d.player: could.get(d.player, 0) for d in payouts}
    left_out = sum(returned.values())
    for kept, uncalled in ((short, 0), (short - left_out, left_out)):
        if kept <= 0 or (recorded is not None and kept != recorded) or (
                recorded is None and (most is None or kept > most)):
            continue
        extra = f", and left out the uncalled bet ({uncalled})" if uncalled else ""
        text = (f"hand {result.hand}: the table paid {short} less than the pots and returns: "
                f"{_kept(kept, recorded, most, live=rake is not None)}{extra}")
        if not uncalled:
            return _one_rake(found, payouts, text, result)
        return _rake_beside_uncalled(found, payouts, returned, text, result,
                                     _who_paid(started))
    if all(returned[d.player] and d.diff == -returned[d.player] for d in payouts):
        return [replace(d, kind="uncalled", message=(
            f"hand {result.hand}: {d.player} was paid {d.recorded}, the rules give "
            f"{d.recomputed}: the difference is {d.player}'s uncalled bet of {-d.diff}, which "
            f"{_who_paid(started)} leaves out of what it says {d.player} collected"))
        if d in payouts
        else d for d in found]
    if recorded is None and most is None and all(
            0 < returned[d.player] < -d.diff for d in payouts):
        return [replace(d, message=(
            f"hand {result.hand}: {d.player} was paid {d.recorded}, the rules give "
            f"{d.recomputed}, {-d.diff} less: {d.player}'s uncalled bet of "
            f"{returned[d.player]} is not "
            f"in it (some sites leave it out), and {-d.diff - returned[d.player]} more is "
            "missing that no rake explains: the hand records no rake (nor a rake rule), so "
            "either the site took rake the file does not say, or the payout is wrong"))
            if d in payouts else d for d in found]
    return found


def short_returns(found: list[Discrepancy], result: Any, paid: Sequence[Any]
                   ) -> list[Discrepancy]:
    """``found`` (a hand's findings, :func:`classify` and the rake's done) with each
    ``payout`` finding of a player paid short whose uncalled bet the file returns short of
    (:func:`returned_short`; ``paid``: its ``RecordedPayout`` events) saying so: ``hand h:
    Ann was paid 30, the rules give 40 (-10): the file returns 10 of his uncalled bet of
    20``."""
    short = returned_short(result.returned, paid)
    return [replace(d, message=(
        f"{d.sentence()}: the file returns {short[d.player][0]} of {d.player}'s uncalled bet of "
        f"{short[d.player][1]}")) if d.kind == "payout" and d.diff < 0 and d.player in short
        else d for d in found]


def not_paid_back(uncalled: Mapping[str, int], paid: Sequence[Any]) -> dict[str, int]:
    """``{player: chips}``: the part of each player's uncalled bet (``uncalled``, the rules'
    returns, RULES.md §1.4) that a site may have left out of what it says was paid: all of
    it when no payout (``paid``, ``RecordedPayout`` events) is marked returned, else nothing.
    A file that pays uncalled bets back (PokerStars' ``Uncalled bet ($0.10) returned``, a
    JSON-lines payout with ``returned``) says itself what was paid back and left nothing
    out: a return short of the rules' uncalled bet, or a payout short by as much, is short
    (a ``payout`` finding, docs/IMPORTING.md "Bad input"), never the site's convention.

    >>> from types import SimpleNamespace as P
    >>> not_paid_back({"Ann": 10, "Bob": 0}, [P(player="Ann", amount=10, returned=True)])
    {'Ann': 0, 'Bob': 0}
    >>> not_paid_back({"Ann": 20}, [P(player="Ann", amount=10, returned=True)])
    {'Ann': 0}
    >>> not_paid_back({"Ann": 10}, [P(player="Ann", amount=480, returned=False)])
    {'Ann': 10}
    """
    if any(payout.returned for payout in paid):
        return dict.fromkeys(uncalled, 0)
    return dict(uncalled)


def returned_short(uncalled: Mapping[str, int], paid: Sequence[Any]
                   ) -> dict[str, tuple[int, int]]:
    """``{player: (chips returned, his uncalled bet)}`` of each player whose uncalled bet
    (``uncalled``, the rules' returns, RULES.md §1.4) a file that pays uncalled bets back
    (:func:`not_paid_back`; ``paid``: its ``RecordedPayout`` events) returns short of: what
    it marks returned to him is the return, and the rest is paid short. Empty when the file
    marks nothing returned (a site may leave the bet out) or returns every bet whole.

    >>> from types import SimpleNamespace as P
    >>> returned_short({"Ann": 20, "Bob": 0}, [P(player="Ann", amount=10, returned=True)])
    {'Ann': (10, 20)}
    """
    back: dict[str, int] = {}
    for payout in paid:
        if payout.returned:
            back[payout.player] = back.get(payout.player, 0) + payout.amount
    if not back:
        return {}
    return {p: (back.get(p, 0), chips) for p, chips in uncalled.items()
            if chips and back.get(p, 0) < chips}


def short_return_words(state: Any, decimals: int) -> str:
    """``"; the file returns 0.10 of k1tt9nM1nd's uncalled bet of 0.20"``: each uncalled bet
    of the hand whose engine state is ``state`` that its file returns short of
    (:func:`returned_short`), amounts as the file writes them (``decimals``); ``""`` when
    none is."""
    from ledger.formats.phh.base import format_amount

    short = returned_short(uncalled_bets(state.contributed), state.payouts)
    return "".join(f"; the file returns {format_amount(back, decimals)} of {p}'s uncalled bet "
                   f"of {format_amount(bet, decimals)}" for p, (back, bet) in short.items())


def unreturned(state: Any) -> int:
    """The chips of the uncalled bets of the hand whose engine state is ``state`` (RULES.md
    §1.4) that its recorded payouts do not mark returned (:func:`not_paid_back`): what a
    site may have left out of what it says was paid; 0 when it paid them back."""

    return sum(not_paid_back(uncalled_bets(state.contributed), state.payouts).values())


def unexplained(found: list[Discrepancy], result: Any, recorded: dict[str, int] | None,
                rake: int | None) -> list[Discrepancy]:
    """``found`` (a complete hand's differences after :func:`classify`) with one more when
    the hand records a rake above 0 (``rake``: at the table or in its file, chips) that
    nothing explains: its payouts (``recorded``, ``{player: chips}``) match the rules' awards
    and returns, so the rake is not what they leave out and is counted nowhere. The finding
    is a ``payout`` of the whole table (player ``*``): ``recorded`` what was paid,
    ``recomputed`` the pots and returns less the rake (``hand r: it records a rake of 5, but
    the table paid 100 of the pots and returns of 100: …``). A hand with other differences
    is left as found (they are reported, the rake beside them counted nowhere too; the
    import's warning named it), and so is one whose rake they explain."""
    if not rake or recorded is None or found or result.status != "complete":
        return found
    paid = sum(recorded.values())
    owed = sum(p.amount for p in result.pots) + sum(result.returned.values())
    return [Discrepancy(result.hand, "*", paid, owed - rake, "payout", (
        f"hand {result.hand}: it records a rake of {rake}, but the table paid {paid} of the "
        f"pots and returns of {owed}: the rake is not what the payouts leave out, so it is "
        "counted nowhere (as rake or as any player's)"))]


def _one_rake(found: list[Discrepancy], payouts: list[Discrepancy], text: str, result: Any
              ) -> list[Discrepancy]:
    """``found`` with its ``payouts`` differences made the hand's one ``rake`` finding, in
    the first one's place, saying ``text``: a rake is the table's, once a hand, taken from
    the pots before they are split (RULES.md §2.1-2.2 then split what is left: a tie of 6
    raked 1 pays 3 and 2, the odd chip as the rules give it). Its player is the one paid short
    when he alone won the pots the rake came from (:func:`raked_pot_winners`), else ``*``
    (the whole table: a split pot, whoever the odd chip left short); recorded and recomputed
    are then the sums of what those winners and the players paid short were paid and what
    the whole pots give them, so what the books count as rake (recomputed − recorded) is the
    rake once."""
    first = payouts[0]
    kept = sum(d.recomputed - d.recorded for d in payouts)
    winners = raked_pot_winners(result, kept)
    if len(payouts) == 1 and winners in ([], [first.player]):
        one = replace(first, kind="rake", message=text)
    else:
        short = {d.player for d in payouts}
        rest = [p for p in winners if p not in short]
        whole = sum(result.awards[p] + result.returned.get(p, 0) for p in rest)
        one = Discrepancy(first.hand, "*", whole + sum(d.recorded for d in payouts),
                          whole + sum(d.recomputed for d in payouts), "rake", text)
    short_ids = {id(d) for d in payouts[1:]}
    return [one if d is first else d for d in found if id(d) not in short_ids]


def _who_paid(started: Any) -> str:
    """Who says what a player collected in the hand ``started`` (its ``hand_started``), as a
    note names it: ``"the table"`` for a hand recorded live (``hand start``, no file behind
    it: its ``source`` is empty, or names the hand ``hand again`` recorded again), ``"the
    site"`` for a hand read from a file."""
    from ledger.model.events import recorded_live

    return "the table" if recorded_live(started.source) else "the site"


def _rake_beside_uncalled(found: list[Discrepancy], payouts: list[Discrepancy],
                          returned: dict[str, int], text: str, result: Any,
                          who: str = "the site") -> list[Discrepancy]:
    """``found`` of a hand whose site left out of its ``payouts`` differences both the rake
    and each player's uncalled bet (``returned``: ``{player: chips}``): the one ``rake``
    finding (:func:`_one_rake`) counts the rake alone, as if the uncalled bets had been
    paid (its recorded raised by them: what the books count as rake is recomputed −
    recorded, and the rake counted is the one the hand records, never what the payouts
    leave out of the pots and returns), and an ``uncalled`` finding per player whose bet was
    left out says the rest (recorded what he was paid, recomputed that and his bet); ``who``:
    who says what he collected (:func:`_who_paid`)."""
    paid_back = [replace(d, recorded=d.recorded + returned[d.player]) for d in payouts]
    raked = _one_rake([paid_back[payouts.index(d)] if d in payouts else d for d in found],
                      paid_back, text, result)
    at = next(i for i, d in enumerate(raked) if d.kind == "rake") + 1
    left = [Discrepancy(d.hand, d.player, d.recorded, d.recorded + returned[d.player],
                        "uncalled", f"hand {d.hand}: {d.player} was paid {d.recorded}, the "
                        f"rules give {d.recorded + returned[d.player]} beside the rake: the "
                        f"difference is {d.player}'s uncalled bet of {returned[d.player]}, "
                        f"which {who} leaves out of what it says {d.player} collected")
            for d in payouts if returned[d.player]]
    return [*raked[:at], *left, *raked[at:]]


def raked_pot_winners(result: Any, rake: int) -> list[str]:
    """The players (in seat order) the rules award the pots a rake of ``rake`` chips comes
    from, main pot first (docs/LIVE.md "A home game's rake"), before it is taken."""
    left, won = rake, set()
    for pot in result.pots:
        if left <= 0:
            break
        left -= pot.amount
        won.update(p for p, chips in pot.awards.items() if chips)
    return [p for p in result.players if p in won]


def _kept(kept: int, recorded: int | None, most: int | None, *, live: bool) -> str:
    """``"the site kept 1 as rake (as the file records)"``: who kept it, and by what."""
    how = ("as recorded at the table" if live else "as the file records"
           if recorded is not None else f"within its rule of {most} at most")
    return f"{'the table' if live else 'the site'} kept {kept} as rake ({how})"


def _unknown_cards(found: list[Discrepancy], result: Any, recorded: int | None, *, live: bool
                   ) -> list[Discrepancy]:
    """``found`` of a showdown the rules cannot award (unknown cards, RULES.md §1.6): its one
    difference, the table's total short of the pots by exactly the rake the hand records
    (live or in its file), is that rake; anything else stays as found."""
    if recorded is None or len(found) != 1 or found[0].player != "*":
        return found
    (total,) = found
    if total.kind != "infeasible" or total.recomputed - total.recorded != recorded:
        return found
    return [replace(total, kind="rake", message=(
        f"hand {result.hand}: the table paid {recorded} less than the pots and returns: "
        f"{_kept(recorded, recorded, None, live=live)}; the showdown cannot be checked "
        "(unknown cards)"))]


def filed_rake(started: Any) -> int | None:
    """The rake the file of the hand ``started`` (its ``hand_started``) records, in chips:
    ``source["site_rake"]`` (a site text, chips already) or ``source["rake"]`` (PHH, in the
    file's money, FORMATS.md §1); None when it records none (or one that is not a whole
    number of chips, which an import refuses: :func:`replay.ingest.rakes.rake_finding`)."""
    source = started.source
    if isinstance(source.get("site_rake"), int):  # a site text: already chips
        return source["site_rake"]
    if "rake" in source:
        return _chips(source["rake"], started.unit.decimals)
    return None


def whole_pot(state: Any) -> int:
    """The chips a rake can take from the hand whose engine state is ``state`` (RULES.md
    §1.2-1.4, §7.1): every chip put in and carried in, less the uncalled bets (returned,
    never raked) and what is carried out to the next hand."""

    back = sum(uncalled_bets(state.contributed).values())
    return state.pot_total() - state.carried_out - back


def took_the_pot(state: Any, started: Any) -> bool:
    """Whether the rake the file of a hand records (:func:`filed_rake`; ``started``: its
    ``hand_started``, ``state``: the engine's state after it) is its whole pot
    (:func:`whole_pot`) of a hand that returns no uncalled bet (one is paid back, never
    raked: RULES.md §1.2-1.4): a hand so raked paid nobody, and its want of payouts is that,
    never "no recorded payouts", as a live hand whose rake took the pot (README, "A home
    game's rake"; any other rake with no payouts is refused on import,
    :func:`replay.ingest.rakes.rake_finding`)."""

    rake = filed_rake(started)
    return (bool(rake) and rake == whole_pot(state)
            and not any(uncalled_bets(state.contributed).values()))


def _rake(started: Any, result: Any, flop: bool) -> tuple[int | None, int | None]:
    """``(the rake the file records, the most its rule allows)`` in chips; None when unknown."""
    source = started.source
    decimals = started.unit.decimals
    if isinstance(source.get("site_rake"), int) or "rake" in source:
        return filed_rake(started), None
    rule = source.get("_rake")
    if not isinstance(rule, dict):
        return None, None
    pot = sum(p.amount for p in result.pots)
    if rule.get("no_flop_no_drop") and not flop:
        return None, 0
    try:
        most = int(Decimal(str(rule.get("percent", 0))) * pot / 100)
    except InvalidOperation:
        return None, None
    cap = _chips(rule["cap"], decimals) if "cap" in rule else None
    return None, most if cap is None else min(most, cap)


def _chips(value: Any, decimals: int) -> int | None:
    try:
        amount = Decimal(str(value)).scaleb(decimals)
    except InvalidOperation:
        return None
    return int(amount) if amount == amount.to_integral_value() and amount >= 0 else None


def less_rake(state: Any, result: Any, rake: int, taken: Sequence[int] | None = None
              ) -> dict[str, int] | None:
    """The rules' payouts of the hand ``result`` settles (``state``: the engine's state that
    settled it) with a rake of ``rake`` chips taken out of its pots before they are awarded:
    a ``{player: chips}`` of awards and returned uncalled bets, each player's due once the
    table takes its rake (docs/LIVE.md, "A home game's rake"). The rake comes out of the pots only,
    main pot first (an uncalled bet is returned, never raked: RULES.md §1.2-1.4), or as
    ``taken`` says, the chips it took from each pot in the order of ``result.pots`` (a site's
    summary: :func:`site_pot_rakes`), and each pot is then awarded as the rules award it
    (ties and odd chips: RULES.md §2.1-2.2; a declare hand's by its declarations, §3, the
    odd chip between the halves as its declare options say, §3.10). None when the hand cannot
    be so awarded here: not complete, an unverifiable showdown, chips carried in or out, or a
    rake above its pots."""
    from replay.raked_pots import due_of, pots_less_rake

    if result.status != "complete":
        return None
    pots = pots_less_rake(state, result, rake, taken)
    return None if pots is None else due_of(result, pots)


def rules_due(state: Any, result: Any, started: Any) -> dict[str, int] | None:
    """What the rules give each player of the hand ``result`` settles (``state``: the
    engine's state that settled it; ``started``: its ``hand_started``) once the rake it
    records is taken: at the table (a ``recorded_rake``) or in its file
    (:func:`filed_rake`), from each pot as a site's summary says (:func:`site_pot_rakes`),
    else main pot first (:func:`less_rake`). ``{player: chips}`` of awards and returned
    uncalled bets; None when it records no rake (or 0) or the rules cannot award its pots
    less it (:func:`less_rake`)."""
    from replay.raked_pots import due_of, rules_pots

    if result.status != "complete":
        return None
    pots = rules_pots(state, result, started)
    return None if pots is None else due_of(result, pots)


def site_pot_rakes(started: Any, pots: Sequence[Any], rake: int) -> list[int] | None:
    """The chips a site's rake of ``rake`` took from each of ``pots`` (the rules' pots, main
    first: ``Pot``, ``amount`` in chips), as its hand history's summary gives them: the main
    and side pots it lists are each pot less its rake (PokerStars' ``Main pot $2.35. Side
    pot-1 $0.88. Side pot-2 $0.29. | Rake $0.18`` beside pots of 247, 93 and 30 take 12, 5
    and 1; ``started``: the hand's ``hand_started``, whose ``source`` keeps them, FORMATS.md
    §1). None when the file gives no such pots, or ones that are not the rules' pots less a
    rake of ``rake`` in all (another count of pots, a pot above the rules' own): the rake is
    then taken main pot first (:func:`less_rake`)."""
    source = started.source or {}
    main = source.get("site_main_pot")
    sides = source.get("site_side_pots") or []
    after = [main, *sides]
    if (not isinstance(main, int) or source.get("site_rake") != rake
            or not all(isinstance(a, int) for a in after) or len(after) != len(pots)):
        return None
    taken = [pot.amount - a for pot, a in zip(pots, after, strict=True)]
    return taken if min(taken) >= 0 and sum(taken) == rake else None


def recorded_rake(found: list[Discrepancy], result: Any, recorded: dict[str, int],
                  rake: int, due: dict[str, int], *, live: bool = True) -> list[Discrepancy]:
    """The findings of a complete hand that records a rake (``rake``, chips: a
    ``recorded_rake`` at the table, ``live``, or its file's, :func:`filed_rake`) and whose
    payouts (``recorded``, ``{player: chips}``) differ from the rules' awards less that rake
    (``due``, :func:`less_rake`): the rake stays counted, one ``rake`` finding (recorded −
    recomputed = −rake, what the books count as rake), then a ``payout`` finding per player
    paid other than his due (recorded what he was paid, recomputed ``due[player]``). The
    ``rake`` finding is of the players the rake took from and those paid wrong: recorded what
    they were paid, recomputed the rules' awards and returns before the rake (so its
    recorded is what the ``payout`` findings say was paid); the books count the rake as its
    difference less theirs (:func:`ledger.audit.rake_count.counted_rake`): the rake alone.
    ``found``: the hand's differences after :func:`classify`, returned as they are when the
    payouts are each player's due (or none differ from the rules' whole pots: the rake then
    counted nowhere, :func:`unexplained`)."""
    wrong = [Discrepancy(result.hand, p, recorded.get(p, 0), chips)
             for p, chips in due.items() if recorded.get(p, 0) != chips]
    if not found or not wrong:
        return found
    full = {p: result.awards[p] + result.returned.get(p, 0) for p in result.players}
    raked = [p for p in result.players if full[p] != due[p]]
    winners = raked_pot_winners(result, rake)
    # the table's rake, taken before the pots are split: a player's only when he alone won
    # the pots it came from (else the players who won them are named with those paid wrong)
    named = [p for p in result.players
             if p in raked or p in winners or recorded.get(p, 0) != due[p]]
    who = named[0] if len(named) == 1 else "*"
    text = (f"hand {result.hand}: {_kept(rake, rake, None, live=live)}; the rules' awards of "
            f"the pots less it: " + ", ".join(f"{p} {due[p]}" for p in named
                                              if p in raked or p in winners)
            + " (the payouts differ from them)")
    one = Discrepancy(result.hand, who, sum(recorded.get(p, 0) for p in named),
                      sum(full[p] for p in named), "rake", text)
    return [one, *wrong]
