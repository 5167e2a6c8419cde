"""The facts of one hand in play: :class:`HandData`, read and changed by the rule modules.

Seats, stacks, chips put in, the betting round, the cards, declarations, the phase and the
status, and the queries every rule reads off them. No rules and no phase changes here: the
rule modules (:mod:`engine.betting`, :mod:`engine.dealing`, :mod:`engine.declare.order`)
check and change their part, :mod:`engine.flow` moves the hand from phase to phase, and
:class:`engine.state.HandState` (this class plus ``start`` and ``apply``) is what callers
hold. Every one of them imports this module, and it imports none of them. Chips are ints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from engine.cards import Cards
from engine.errors import IllegalAction
from engine.games import Game
from engine.rounds import Round
from ledger.model import events as ev


@dataclass(slots=True)
class HandData:
    """Mutable state of one hand (see the module doc; :class:`engine.state.HandState` plays
    it). ``phase``: ``forced`` → ``deal`` / ``draw`` / ``bet`` per street → ``declare`` →
    ``showdown``; ``status``: ``open`` | ``complete`` | ``incomplete`` | ``voided``."""

    started: ev.HandStarted
    game: Game
    players: list[str]  # seat order as in HandStarted
    order: list[str]  # clockwise from the first seat left of the button (stud: seat order)
    stacks: dict[str, int]
    contributed: dict[str, int]
    street_bets: dict[str, int]
    folded: set[str] = field(default_factory=set)
    mucked: set[str] = field(default_factory=set)
    all_in: set[str] = field(default_factory=set)
    phase: str = "forced"
    street: int = -1
    rnd: Round = field(default_factory=Round)
    cards: Cards = field(default_factory=Cards)
    declarations: dict[str, str] = field(default_factory=dict)
    declare_done: bool = False
    runs: int = 1
    carried_in: int = 0
    payouts: list[ev.RecordedPayout] = field(default_factory=list)
    rake: int | None = None  # the table's recorded rake (``recorded_rake``), chips
    status: str = "open"  # open | complete | incomplete | voided
    seq: int = 0
    forced_seen: bool = False
    nominal_blind: int = 0
    posted_out_of_position: set[str] = field(default_factory=set)
    dead: dict[str, int] = field(default_factory=dict)
    antes: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    carried_out: int = 0
    last_round: tuple[str | None, str | None] = (None, None)
    # Per-hand constants, set once by ``HandState.start`` (read on every action):
    seat: dict[str, int] = field(default_factory=dict)  # each player's index in ``order``
    fixed: bool = False  # fixed-limit betting
    half_bet: bool = False  # fixed limit under the half-bet rule (RULES.md §1.7)
    cap: int = 0  # fixed limit: full bets and raises a round may hold (RULES.md §1.8)

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
            mucked=set(self.mucked),
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
