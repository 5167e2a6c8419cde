"""PHH action notation ⇄ events, decided against the hand's current state.

``to_event(state, text)`` turns one action string (``"p3 cbr 40"``, ``"Bob cc"``,
``"d dh p1 AsKd"``, ``"p2 sd 7h"``, ``"p1 sm AsKd"``, ``"Ann dcl swing"``, ``"p3 pb"``,
``"d rc 2"``) into the event it means now: ``cc`` is a check, a call or an all-in call for
less; ``cbr X`` to the player's whole stack is an all-in; ``d rc N`` (ours: PHH has no form
for it) is the players' agreement to run the rest of the board N times (RULES.md §4.5), after
which each ``d db`` goes to the first run that still needs cards. Players are named ``pN``
(seat N) or by name.
``to_action(state, event)`` writes an event back in the same notation (FORMATS.md §1).
Amounts inside the text are scaled to chips by ``decimals`` (e.g. 2: ``1.50`` → 150).

Raises:
    IllegalAction: text that is not an action, an unknown player, a bad amount or card.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from engine.errors import IllegalAction, NotAnAction
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.errors import quoted
from ledger.model.events import MAX_CHIPS
from ledger.model.money import beyond_bound, shown_amount
from ledger.model.names import unknown_player

_SEAT_RE = re.compile(r"^p([1-9][0-9]*)$")

#: What a player verb makes of its arguments: the event, or None when they do not fit it.
_Made = ev.HandEvent | None


def player_name(state: HandState, token: str, *, labels_first: bool = False) -> str:
    """Resolve ``pN`` (seat order, 1-based) or a player's name: the name first, as at the table
    (where no player may be named ``pN``, :func:`ledger.model.names.check_seat_name`); with
    ``labels_first`` (a hand file's actions, FORMATS.md §1: ``pN`` is always seat N, whatever
    ``players`` names the seats, so ``players = ['Ann', 'p1']`` names seat 2 ``p1`` and
    ``p1`` in an action is Ann) a label of a seat of the hand first.

    Raises:
        IllegalAction: neither a seat's label nor a player's name, with the names it likely
            meant.
    """
    m = _SEAT_RE.match(token)
    if labels_first and m and int(m.group(1)) <= len(state.players):
        return state.players[int(m.group(1)) - 1]
    if token in state.stacks:
        return token
    if m and int(m.group(1)) <= len(state.players):
        return state.players[int(m.group(1)) - 1]
    raise IllegalAction(unknown_player(token, state.players), hand=state.hand)


#: Digits up to which an amount beyond the bound is said in chips (else its text, cut).
_SHOWN_DIGITS = 40


#: An amount as an action writes it: ASCII digits, and for a hand kept in a unit with
#: decimals (a PHH file in dollars and cents, FORMATS.md §1) a decimal point and more digits.
_AMOUNT_RE = re.compile(r"[0-9]+(?:\.[0-9]+)?\Z")


def parse_amount(text: str, decimals: int) -> int:
    """``"1.50"`` with 2 decimals → 150 chips; ``"150"`` with 0 → 150 (RULES.md: chips are
    integers). An amount is written in ASCII digits, with a decimal point only in a hand whose
    unit has decimals (FORMATS.md §1: PHH numbers are integers or decimals): no exponent
    (``1e1``), sign, digit separator (``1_0``), other script's digits or ``10.0`` in chips.

    Raises:
        IllegalAction: not an amount so written, not whole at this scale, or beyond the
            largest amount a ledger holds (told before any arithmetic on it).
    """
    if len(text) + decimals < len(str(MAX_CHIPS)) and text.isdigit() and text.isascii():
        return int(text) * 10**decimals  # the usual amount: digits, far within the bound
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise IllegalAction(f"{shown_amount(text)!r} is not an amount") from None
    if beyond_bound(value, decimals):
        small = value.adjusted() + decimals < _SHOWN_DIGITS  # said in chips, as other bounds
        said = f"{int(value.scaleb(decimals))} chips" if small else shown_amount(text)
        raise IllegalAction(f"{said} is beyond the largest amount a ledger holds "
                            f"({MAX_CHIPS} chips)")
    scaled = value * (10**decimals)
    if not value.is_finite() or scaled != scaled.to_integral_value() or value < 0:
        raise IllegalAction(f"{text!r} is not a valid amount in this hand's units")
    if not _AMOUNT_RE.match(text) or (not decimals and "." in text):
        written = "a whole number of chips" if not decimals else "an amount"
        raise IllegalAction(f"{shown_amount(text)!r} is not {written} written in digits "
                            f"(0-9{'' if not decimals else ', a decimal point'})")
    return int(scaled)


def format_amount(chips: int, decimals: int) -> str:
    """150 chips with 2 decimals → ``"1.50"``; with 0 → ``"150"``."""
    if not decimals:
        return str(chips)
    return str((Decimal(chips) / (10**decimals)).quantize(Decimal(1).scaleb(-decimals)))


def _cards(text: str) -> list[str]:
    try:
        return ev.split_cards(text)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


def to_event(state: HandState, text: str, *, decimals: int | None = None,
             labels_first: bool = False) -> ev.HandEvent:
    """The event that PHH action ``text`` means in ``state`` (see module doc); its player as
    :func:`player_name` resolves him (``labels_first``: a hand file's action)."""
    if decimals is None:
        decimals = state.started.unit.decimals
    body = text.split(" #", 1)[0].strip()
    parts = body.split()
    if not parts:
        raise IllegalAction("empty action")
    if parts[0] == "d":
        return _dealer(state, parts, text, labels_first)
    if len(parts) < 2:
        raise NotAnAction(f"{quoted(text)} is not an action")
    player = player_name(state, parts[0], labels_first=labels_first)
    verb, args = parts[1], parts[2:]
    make = _PLAYER_VERBS.get(verb)
    event = make(state, player, args, decimals) if make else None
    if event is None:
        takes = (f"{verb} {_TAKES[verb].format(p=parts[0])}" if verb in _TAKES
                 else f"after the player comes an action word: {_WORDS}")
        raise NotAnAction(f"{quoted(text)} is not an action: {takes}")
    return event


def _cc(state: HandState, player: str, args: list[str], decimals: int) -> _Made:
    if args:
        return None
    owed = state.rnd.current - state.street_bets[player] if state.phase == "bet" else 0
    if owed <= 0:
        return ev.Check(player=player)
    if owed >= state.stacks[player]:
        return ev.AllIn(player=player, to=state.street_bets[player] + state.stacks[player])
    return ev.Call(player=player)


def _cbr(state: HandState, player: str, args: list[str], decimals: int) -> _Made:
    if len(args) != 1:
        return None
    to = parse_amount(args[0], decimals)
    if to <= 0:
        raise IllegalAction(f"bet/raise to {args[0]} is not positive")
    if to == state.street_bets[player] + state.stacks[player]:
        return ev.AllIn(player=player, to=to)
    return ev.BetRaise(player=player, to=to)


def _pb(state: HandState, player: str, args: list[str], decimals: int) -> _Made:
    if args:
        return None
    amount = min(state.started.stakes.bring_in, state.stacks[player])
    return ev.ForcedBet(player=player, kind="bring_in", amount=amount)


def _sm(state: HandState, player: str, args: list[str], decimals: int) -> _Made:
    if not args:
        return ev.Muck(player=player)
    if args == ["-"]:
        return ev.Reveal(player=player, cards=[])
    return ev.Reveal(player=player, cards=_cards(args[0])) if len(args) == 1 else None


#: What a player may declare (RULES.md §3.2: the meaning is recorded, never a chip count).
_DIRECTIONS = ("high", "low", "swing")
#: Other words for a swing, the declaration of both ways (RULES.md §3.6).
_SWING_WORDS = ("both", "hilo", "hi-lo", "high-low", "pig", "scoop")


def _dcl(state: HandState, player: str, args: list[str], decimals: int) -> _Made:
    if len(args) == 1 and args[0] in _DIRECTIONS:
        return ev.Declaration(player=player, direction=args[0])
    form = f"{player} dcl high|low|swing or {player} f (give up) (RULES.md §3.2)"
    if not args:
        raise IllegalAction(f"dcl needs a declaration: {form}")
    said = " ".join(args)
    meant = ""
    if said.lower() in _SWING_WORDS:
        meant = f"; both ways is a swing: {player} dcl swing (RULES.md §3.6)"
    elif said.lower() in _DIRECTIONS:
        meant = f"; the notation is lower case: {player} dcl {said.lower()}"
    raise IllegalAction(f"{quoted(said)} is not a declaration: {form}{meant}")


#: What each player's action word takes, said when it is given something else ({p}: the
#: player as typed; FORMATS.md §1).
_TAKES = {
    "f": "takes nothing after it: {p} f",
    "cc": "takes no amount (a call is of what is owed): {p} cc",
    "cbr": "takes one amount, the total bet or raised to: {p} cbr AMOUNT",
    "pb": "takes no amount (the bring-in is the hand's): {p} pb",
    "sd": "takes the cards discarded in one word, or none to stand pat: {p} sd CARDS",
    "sm": "takes the cards shown in one word, or none to muck: {p} sm CARDS",
}
#: The action words that follow a player, with what each takes.
_WORDS = "f, cc, cbr AMOUNT, pb, sd CARDS, sm CARDS or dcl high|low|swing"

_PLAYER_VERBS = {
    "f": lambda s, p, a, d: None if a else ev.Fold(player=p),
    "cc": _cc,
    "cbr": _cbr,
    "pb": _pb,
    "sd": lambda s, p, a, d: ev.Discard(player=p, cards=_cards(a[0]) if a else [])
    if len(a) <= 1
    else None,
    "sm": _sm,
    "dcl": _dcl,
}


def _dealer(state: HandState, parts: list[str], text: str,
            labels_first: bool) -> ev.CardsDealt | ev.RunCount:
    if len(parts) == 4 and parts[1] == "dh":
        player = player_name(state, parts[2], labels_first=labels_first)
        return ev.CardsDealt(player=player, cards=_cards(parts[3]))
    if len(parts) == 3 and parts[1] == "rc":
        if parts[2] not in ("1", "2", "3", "4"):
            raise IllegalAction(f"{quoted(text)}: the board is run 1 to 4 times")
        return ev.RunCount(runs=int(parts[2]))
    if len(parts) == 3 and parts[1] == "db":
        run = max(1, len(state.cards.boards))
        return ev.CardsDealt(player=None, cards=_cards(parts[2]), run=_board_run(state, run))
    cards = {"dh": 3, "db": 2}.get(parts[1]) if len(parts) > 1 else None
    if cards is not None and len(parts) > cards + 1:  # the cards typed apart: "Kd Ks"
        joined = " ".join([*parts[:cards], "".join(parts[cards:])])
        raise IllegalAction(f"{quoted(text)} is not a dealer action: cards are written "
                            f"without spaces, {joined}")
    raise IllegalAction(f"{quoted(text)} is not a dealer action")


def _board_run(state: HandState, runs: int) -> int:
    """With several runs, board cards go to the first run that still needs cards."""
    if runs == 1:
        return 1
    need = sum(s.board for s in state.game.streets[: state.street + 1])
    for i, b in enumerate(state.cards.boards, 1):
        if len(b) < need:
            return i
    return runs


def seat_label(state: HandState, player: str) -> str:
    return f"p{state.players.index(player) + 1}"


#: Events whose PHH text is the player and one fixed verb.
_PLAIN = {"check": "cc", "call": "cc", "fold": "f", "muck": "sm"}


def to_action(
    state: HandState, event: ev.HandEvent, *, decimals: int | None = None
) -> str | None:
    """PHH action text for ``event`` applied to ``state`` (None: not an action in PHH)."""
    if decimals is None:
        decimals = state.started.unit.decimals
    t = event.type
    who = seat_label(state, event.player) if getattr(event, "player", None) else None
    if t == "cards_dealt":
        cards = "".join(event.cards)
        return f"d dh {who} {cards}" if who else f"d db {cards}"
    if t == "run_count":
        return f"d rc {event.runs}"
    if t in _PLAIN:
        return f"{who} {_PLAIN[t]}"
    if t == "bet_raise":
        return f"{who} cbr {format_amount(event.to, decimals)}"
    if t == "all_in":
        to = state.street_bets[event.player] + state.stacks[event.player]
        if state.phase == "bet" and to > state.rnd.current:
            return f"{who} cbr {format_amount(to, decimals)}"
        return f"{who} cc"
    if t == "forced_bet" and event.kind == "bring_in":
        return f"{who} pb"
    if t == "discard":
        return f"{who} sd {''.join(event.cards)}".rstrip()
    if t == "reveal":
        return f"{who} sm {''.join(event.cards) or '-'}"
    if t == "declaration":
        return f"{who} dcl {event.direction}"
    return None
