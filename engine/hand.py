"""The facts of one hand in play: :class:`HandData`, read and changed by the rule modules.

Seats, stacks, chips put in, the betting round, the cards, declarations, the phase and the
status, and the queries every rule reads off them. No rules and no phase changes here: the
rule modules (:mod:`engine.betting`, :mod:`engine.dealing`, :mod:`engine.declare.order`)
check and change their part, :mod:`engine.flow` moves the hand from phase to phase, and
:class:`engine.state.HandState` (this class plus ``start`` and ``apply``) is what callers
hold. Every one of them imports this module, and it imports none of them. Chips are ints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from engine._compiled import by_fields
from engine.cards import Cards
from engine.errors import IllegalAction
from engine.games import Game
from engine.rounds import Round
from ledger.model import events as ev


@dataclass(slots=True, init=False)
class HandData:
    """Mutable state of one hand (see the module doc; :class:`engine.state.HandState` plays
    it). ``phase``: ``forced`` → ``deal`` / ``draw`` / ``bet`` per street → ``declare`` →
    ``showdown``; ``status``: ``open`` | ``complete`` | ``incomplete`` | ``voided``.
    :meth:`engine.state.HandState.start` gives every field its value at the hand's start."""

    started: ev.HandStarted
    game: Game
    players: list[str]  # seat order as in HandStarted
    order: list[str]  # clockwise from the first seat left of the button (stud: seat order)
    stacks: dict[str, int]
    contributed: dict[str, int]
    street_bets: dict[str, int]
    folded: set[str]
    mucked: list[str]  # in the order they mucked (engine.settle: who keeps a pot)
    # the player who mucked with nobody else left in the hand: his muck changes nothing, the
    # award of his pot says he was the last to muck (engine.awards.with_mucks); else None
    mucked_alone: str | None
    all_in: set[str]
    phase: str
    street: int
    rnd: Round
    cards: Cards
    declarations: dict[str, str]
    declare_done: bool
    runs: int  # the runs agreed (``d rc N``, RULES.md §4.5); 0: none agreed, the board runs once
    carried_in: int
    payouts: list[ev.RecordedPayout]
    rake: int | None  # the table's recorded rake (``recorded_rake``), chips
    status: str  # open | complete | incomplete | voided
    seq: int
    forced_seen: bool
    nominal_blind: int
    posted_out_of_position: set[str]
    dead: dict[str, int]
    antes: dict[str, int]
    notes: list[str]
    carried_out: int
    last_round: tuple[str | None, str | None]
    # Per-hand constants, set once by ``HandState.start`` (read on every action):
    seat: dict[str, int]  # each player's index in ``order``
    fixed: bool  # fixed-limit betting
    half_bet: bool  # the half-bet rule: an all-in of half a bet or more reopens (RULES.md §1.7)
    cap: int  # fixed limit: full bets and raises a round may hold (RULES.md §1.8)

    # Written out, not the dataclass's: mypyc compiles this one, the generated __init__ stays
    # interpreted (measured with Cards' and Round's: HandState.start 4.6 us -> 2.2 us). It
    # takes every field, in order, as the generated one would: by_fields pickles a state so
    # (the compiled class runs this __init__ when it is made, unpickled too).
    def __init__(
        self, started: ev.HandStarted, game: Game, players: list[str], order: list[str],
        stacks: dict[str, int], contributed: dict[str, int], street_bets: dict[str, int],
        folded: set[str], mucked: list[str], mucked_alone: str | None, all_in: set[str],
        phase: str, street: int, rnd: Round, cards: Cards, declarations: dict[str, str],
        declare_done: bool, runs: int,
        carried_in: int, payouts: list[ev.RecordedPayout], rake: int | None, status: str,
        seq: int, forced_seen: bool, nominal_blind: int, posted_out_of_position: set[str],
        dead: dict[str, int], antes: dict[str, int], notes: list[str], carried_out: int,
        last_round: tuple[str | None, str | None], seat: dict[str, int], fixed: bool,
        half_bet: bool, cap: int,
    ) -> None:
        self.started = started
        self.game = game
        self.players = players
        self.order = order
        self.stacks = stacks
        self.contributed = contributed
        self.street_bets = street_bets
        self.folded = folded
        self.mucked = mucked
        self.mucked_alone = mucked_alone
        self.all_in = all_in
        self.phase = phase
        self.street = street
        self.rnd = rnd
        self.cards = cards
        self.declarations = declarations
        self.declare_done = declare_done
        self.runs = runs
        self.carried_in = carried_in
        self.payouts = payouts
        self.rake = rake
        self.status = status
        self.seq = seq
        self.forced_seen = forced_seen
        self.nominal_blind = nominal_blind
        self.posted_out_of_position = posted_out_of_position
        self.dead = dead
        self.antes = antes
        self.notes = notes
        self.carried_out = carried_out
        self.last_round = last_round
        self.seat = seat
        self.fixed = fixed
        self.half_bet = half_bet
        self.cap = cap

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)

    def copy(self) -> Self:
        """An independent copy (for what-if and step-through)."""
        return type(self)(
            started=self.started,
            game=self.game,
            players=self.players,
            order=self.order,
            stacks=dict(self.stacks),
            contributed=dict(self.contributed),
            street_bets=dict(self.street_bets),
            folded=set(self.folded),
            mucked=list(self.mucked),
            mucked_alone=self.mucked_alone,
            all_in=set(self.all_in),
            phase=self.phase,
            street=self.street,
            rnd=self.rnd.copy(),
            cards=self.cards.copy(),
            declarations=dict(self.declarations),
            declare_done=self.declare_done,
            runs=self.runs,
            carried_in=self.carried_in,
            payouts=list(self.payouts),
            rake=self.rake,
            status=self.status,
            seq=self.seq,
            forced_seen=self.forced_seen,
            nominal_blind=self.nominal_blind,
            posted_out_of_position=set(self.posted_out_of_position),
            dead=dict(self.dead),
            antes=dict(self.antes),
            notes=list(self.notes),
            carried_out=self.carried_out,
            last_round=self.last_round,
            seat=self.seat,
            fixed=self.fixed,
            half_bet=self.half_bet,
            cap=self.cap,
        )

    # ---------------------------------------------------------------- queries

    @property
    def hand(self) -> str:
        """The hand's id."""
        return self.started.hand

    @property
    def reopen_rule(self) -> str:
        """``full_bet`` or ``half_bet`` (RULES.md §1.7): the hand's option, else the game's."""
        return self.started.options.reopen_rule or self.game.default_reopen_rule

    def live(self) -> list[str]:
        """Players still in the hand (not folded, not mucked), in seat order."""
        folded, mucked = self.folded, self.mucked
        if not mucked:
            return [p for p in self.players if p not in folded]
        return [p for p in self.players if p not in folded and p not in mucked]

    def live_count(self) -> int:
        """``len(self.live())``, without building the list while nobody has mucked (folded
        players are seated, each counted once)."""
        if self.mucked:
            return len(self.live())
        return len(self.players) - len(self.folded)

    def can_bet(self) -> list[str]:
        """Players who can still put chips in (live and not all-in), in acting order."""
        folded, all_in = self.folded, self.all_in
        return [p for p in self.order if p not in folded and p not in all_in]

    @property
    def phase_said(self) -> str:
        """The phase as messages name it: ``deal`` for ``forced`` once a forced bet is posted
        (the blinds or antes are in and the hand waits for its first cards); ``no showdown``
        for ``showdown`` when all but one player folded (or gave up the hand): the pot goes
        to him without a showdown (RULES.md §1.6); else :attr:`phase`."""
        if self.phase == "forced" and self.forced_seen:
            return "deal"
        if self.phase == "showdown" and len(self.players) - len(self.folded) <= 1:
            return "no showdown"
        return self.phase

    @property
    def declare_method(self) -> str | None:
        """``simultaneous`` or ``in_turn`` in a declare game (RULES.md §3.3), else None."""
        d = self.started.options.declare
        return d.method if d else None

    def pot_total(self) -> int:
        """All chips put in so far (antes, blinds, bets; before any refund) plus carried-in."""
        return sum(self.contributed.values()) + self.carried_in

    def bet_size(self) -> int:
        """Fixed-limit bet for this street (big or small), else the minimum bet."""
        st = self.started.stakes
        if self.fixed:  # fixed-limit betting
            street = self.game.streets[self.street if self.street > 0 else 0]
            return st.big_bet if street.big else st.small_bet
        return max(st.min_bet, self.nominal_blind, 1)

    # ---------------------------------------------------------------- changes

    def put_in(self, player: str, chips: int, *, live: bool = True) -> None:
        """Move ``chips`` from the player's stack into the pot (live: also his street bet)."""
        self.stacks[player] -= chips
        self.contributed[player] += chips
        if live:
            self.street_bets[player] += chips
        if self.stacks[player] == 0:
            self.all_in.add(player)

    def fail(self, reason: str, **amounts: int | str) -> IllegalAction:
        """The error refusing the event being applied now (the next ``seq``) for ``reason``;
        the caller raises it. With ``amounts``, ``reason`` is a :meth:`str.format` pattern they
        fill (``int``: chips, ``str``: a name), kept apart so that the refusal can be written
        in the hand's own unit where it reaches the host
        (:meth:`engine.errors.IllegalAction.with_amounts`)."""
        if amounts:
            return IllegalAction.with_amounts(reason, hand=self.hand, seq=self.seq + 1,
                                              **amounts)
        return IllegalAction(reason, hand=self.hand, seq=self.seq + 1)
