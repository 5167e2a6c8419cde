"""Who is dealt in, in what order, and what they were forced to post.

Dealt in: every ``Seat N:`` player of the header except those the header marks out (``is
sitting out``, ``out of hand``) or who ``sits out`` before the cards are dealt without posting
anything; a player who sits out after the deal (the files write it at the showdown) played the
hand. Order (``HandStarted.seats``, PHH's ``p1 … pN``): button games start with the first
dealt-in seat left of the button and end with the button; a button seat nobody was dealt in
from (a dead button) passes the button back to the nearest dealt-in seat on its right, which
keeps who acts first. Stud: seat order, no button.

Forced bets (RULES.md §4.2–4.3), in the order posted: ``posts the ante`` → ``ante``; the first
``posts small blind`` → ``small_blind`` and the first ``posts big blind`` → ``big_blind``;
another big blind (a new or returning player's) → ``posted_blind`` (live, out of position),
another small blind → ``dead_blind``; ``posts small & big blinds X`` → a ``posted_blind`` of
the big blind and a ``dead_blind`` of the rest. ``stakes.antes`` and
``stakes.blinds_or_straddles`` restate them as PHH lists (FORMATS.md §1: heads-up both lists
are read in reverse, entry 0 being the button's; a posted blind is negative; a dead blind has
no PHH form).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.games import Game
from ledger.formats.phh.base import blind_index, format_amount
from ledger.formats.pokerstars.header import Header, SeatLine
from ledger.formats.pokerstars.lines import Rec
from ledger.model.errors import MalformedInput
from ledger.model.events import ForcedBet, Seat, Stakes

_DEAL_MARKERS = frozenset({"HOLE CARDS", "DEALING HANDS", "3rd STREET"})


def first_deal(recs: Sequence[Rec]) -> int:
    """Index in ``recs`` of the first street marker (where the cards are dealt).

    Raises:
        MalformedInput: the hand deals no cards.
    """
    for i, rec in enumerate(recs):
        if rec.kind == "street":
            if rec.what not in _DEAL_MARKERS:
                raise MalformedInput(f"*** {rec.what} *** before the cards are dealt",
                                     line=rec.line)
            return i
    raise MalformedInput("no cards are dealt in the hand (no *** HOLE CARDS ***)")


def dealt_in(header: Header, recs: Sequence[Rec], deal: int, game: Game) -> list[SeatLine]:
    """The seats dealt in, in PHH order (see the module doc).

    Raises:
        MalformedInput: fewer than two players, or a button game without a button.
    """
    posted = {r.player for r in recs[:deal] if r.kind == "post"}
    away = {r.player for r in recs[:deal] if r.kind == "sitout"}
    seats = sorted((s for s in header.seats if (s.name in posted or not s.out)
                    and (s.name in posted or s.name not in away)), key=lambda s: s.seat)
    if len(seats) < 2:
        raise MalformedInput("fewer than two players are dealt in")
    if game.stud:
        return seats
    if header.button_seat is None:
        raise MalformedInput("the table line names no button")
    before = [k for k, s in enumerate(seats) if s.seat <= header.button_seat]
    k = before[-1] if before else len(seats) - 1
    return seats[k + 1 :] + seats[: k + 1]


def forced_bets(header: Header, recs: Sequence[Rec], deal: int,
                names: Sequence[str]) -> list[ForcedBet]:
    """The forced bets posted before the deal, in order (see the module doc).

    Raises:
        MalformedInput: a post by a player not dealt in.
    """
    out: list[ForcedBet] = []
    seen: set[str] = set()
    for rec in recs[:deal]:
        if rec.kind != "post":
            continue
        if rec.player not in names:
            raise MalformedInput(f"{rec.player} posts but is not dealt in", line=rec.line)
        kind = {"the ante": "ante", "small blind": "small_blind",
                "big blind": "big_blind"}.get(rec.what, "both")
        if kind == "both":
            live = min(rec.a, header.hi)
            out.append(ForcedBet(player=rec.player, kind="posted_blind", amount=live))
            if rec.a > live:
                out.append(ForcedBet(player=rec.player, kind="dead_blind", amount=rec.a - live))
            continue
        if kind in seen and kind != "ante":
            kind = "posted_blind" if kind == "big_blind" else "dead_blind"
        seen.add(kind)
        out.append(ForcedBet(player=rec.player, kind=kind, amount=rec.a))  # type: ignore[arg-type]
    return out


def check_blinds(header: Header, game: Game, recs: Sequence[Rec], deal: int,
                 line_text: Callable[[int], str]) -> None:
    """Refuse a blind the header's stakes do not make (RULES.md §4.2; the amounts are chips):
    in a big-bet game (no limit, pot limit; a tournament's level) the small blind, and the
    dead part of ``small & big blinds``, is the first stake, the big blind (a posted one too)
    the second; in fixed limit the big blind is the small bet and the small blind (the dead
    part too) more than 0 and at most half of it (the site rounds it down: $0.10 of a $0.25
    big blind). A blind below its amount is a short stack's, taken only when it is his whole
    stack (all in). Stud posts no blinds. ``line_text``: a file line's text, the action the
    refusal quotes.

    Raises:
        MalformedInput: at the post's line, naming the player, the blind, its amount and the
            one the stakes make.
    """
    if game.stud:
        return
    fixed = game.betting == "fixed_limit"
    big = header.lo if fixed else header.hi
    small = header.lo // 2 if fixed else header.lo
    stacks = {s.name: s.stack for s in header.seats}
    stake = f"{format_amount(header.lo, header.decimals)}/" \
            f"{format_amount(header.hi, header.decimals)}"
    for rec in recs[:deal]:
        if rec.kind != "post" or rec.what == "the ante":
            continue
        what, most = {"small & big blinds": ("small and big blinds", big + small),
                      "big blind": ("big blind", big)}.get(rec.what, ("small blind", small))
        least = most if not fixed or what == "big blind" else most - small + 1
        if least <= rec.a <= most or (rec.a < least and rec.a == stacks.get(rec.player or "")):
            continue
        due = format_amount(most, header.decimals)
        if least < most:
            due = f"{format_amount(least, header.decimals)} to {due}"
        raise MalformedInput(
            f"{rec.player} posts a {what} of {format_amount(rec.a, header.decimals)}, but "
            f"the stakes {stake} make it {due} (less only when it is {rec.player}'s whole "
            "stack)",
            line=rec.line, action=line_text(rec.line))


def stakes(header: Header, game: Game, forced: Sequence[ForcedBet], names: Sequence[str],
           bring_in: int) -> Stakes:
    """The hand's :class:`Stakes`: header stakes (blinds → ``min_bet``; fixed limit: small and
    big bet), the bring-in, and the PHH lists of what was posted."""
    count = len(names)
    antes = [0] * count
    blinds = [0] * count
    for bet in forced:
        i = names.index(bet.player)
        if bet.kind == "ante":
            antes[blind_index(i, count)] += bet.amount
        elif bet.kind in ("small_blind", "big_blind"):
            blinds[blind_index(i, count)] = bet.amount
        elif bet.kind == "posted_blind":
            blinds[blind_index(i, count)] = -bet.amount
    fixed = game.betting == "fixed_limit"
    return Stakes(
        betting=game.betting,
        antes=antes if any(antes) else [],
        blinds_or_straddles=blinds if any(blinds) else [],
        bring_in=bring_in if game.stud else 0,
        min_bet=0 if fixed else header.hi,
        small_bet=header.lo if fixed else 0,
        big_bet=header.hi if fixed else 0,
    )


def seat_models(seats: Sequence[SeatLine]) -> list[Seat]:
    """:class:`Seat` events of the dealt-in seats (name, starting stack in chips, seat)."""
    return [Seat(player=s.name, stack=s.stack, seat=s.seat) for s in seats]
