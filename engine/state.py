"""The hand state machine: applies one event at a time and rejects an illegal one.

``HandState.start(hand_started)`` opens a hand; ``state.apply(event)`` checks the event against
the rules and then changes the state, or raises :class:`engine.errors.IllegalAction` naming the
hand, the event's sequence number and the reason, leaving the state untouched. Chips are
integers. Pots are never stored: :mod:`engine.settle` derives them from contributions.

Phases: ``forced`` (antes, blinds, straddles) → for each street: ``deal`` (hole and board
cards), ``draw`` (draw games: discards then replacements), ``bet`` → ``declare`` (declare
games) → ``showdown`` (reveals, mucks, recorded payouts) → ``done`` (hand ended).

Rule sources: RULES.md §1 (table stakes, all-in, reopening, caps), §4 (structure: stud,
blinds, draw, straddles, run it twice), §3.3–3.4 (declaration order, bet after declare).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import betting, dealing
from engine.betting import Limits, Round
from engine.errors import IllegalAction
from engine.games import Game, game
from ledger.model import events as ev

_LIVE_BLINDS = ("small_blind", "big_blind", "straddle")
#: Events a hand takes after it ended: what the table paid, late shows, and the record of
#: chips carried into the session's next hand (RULES.md §7.1).
_AFTER_END = ("recorded_payout", "reveal", "muck", "carry_over")


@dataclass(slots=True)
class HandState:
    """Mutable state of one hand. Use :meth:`start`, :meth:`apply` and the query methods."""

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
    cards: dealing.Cards = field(default_factory=dealing.Cards)
    declarations: dict[str, str] = field(default_factory=dict)
    declare_done: bool = False
    runs: int = 1
    carried_in: int = 0
    payouts: list[ev.RecordedPayout] = field(default_factory=list)
    status: str = "open"  # open | complete | incomplete | voided
    seq: int = 0
    forced_seen: bool = False
    nominal_blind: int = 0
    posted_out_of_position: set[str] = field(default_factory=set)
    dead: dict[str, int] = field(default_factory=dict)
    carried_out: int = 0
    last_round: tuple[str | None, str | None] = (None, None)

    # ---------------------------------------------------------------- construction

    @classmethod
    def start(cls, started: ev.HandStarted) -> HandState:
        """Open a hand from its ``hand_started`` event.

        Raises:
            IllegalAction: unknown variant, button not seated, or stakes that do not fit the
                game (e.g. fixed limit without small and big bets).
        """
        try:
            g = game(started.game)
        except ValueError as exc:
            raise IllegalAction(str(exc), hand=started.hand, seq=1) from exc
        players = [s.player for s in started.seats]
        if g.stud or started.button is None:
            order = list(players)
        else:
            if started.button not in players:
                raise IllegalAction(
                    f"button {started.button!r} is not seated", hand=started.hand, seq=1
                )
            b = players.index(started.button)
            order = players[b + 1 :] + players[: b + 1]
        st = started.stakes
        if st.betting != g.betting:
            raise IllegalAction(
                f"stakes say {st.betting} but {g.code} is {g.betting}", hand=started.hand, seq=1
            )
        if g.betting == "fixed_limit" and not (st.small_bet and st.big_bet):
            raise IllegalAction("fixed limit needs small_bet and big_bet", hand=started.hand, seq=1)
        if started.options.declare is not None and g.hole_count + g.board_count < 5:
            raise IllegalAction(
                f"{g.code} cannot be a declare game: its hands have fewer than five cards",
                hand=started.hand, seq=1,
            )
        return cls(
            started=started,
            game=g,
            players=players,
            order=order,
            stacks={s.player: s.stack for s in started.seats},
            contributed=dict.fromkeys(players, 0),
            street_bets=dict.fromkeys(players, 0),
            cards=dealing.Cards.new(players),
            seq=1,
        )

    def copy(self) -> HandState:
        """An independent copy (for what-if and step-through)."""
        return HandState(
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
            status=self.status,
            seq=self.seq,
            forced_seen=self.forced_seen,
            nominal_blind=self.nominal_blind,
            posted_out_of_position=set(self.posted_out_of_position),
            dead=dict(self.dead),
            carried_out=self.carried_out,
            last_round=self.last_round,
        )

    # ---------------------------------------------------------------- queries

    @property
    def hand(self) -> str:
        return self.started.hand

    @property
    def reopen_rule(self) -> str:
        return self.started.options.reopen_rule or self.game.default_reopen_rule

    def live(self) -> list[str]:
        """Players still in the hand (not folded, not mucked), in seat order."""
        return [p for p in self.players if p not in self.folded and p not in self.mucked]

    def live_count(self) -> int:
        """``len(self.live())``, without building the list while nobody has mucked (folded
        players are seated, each counted once)."""
        if self.mucked:
            return len(self.live())
        return len(self.players) - len(self.folded)

    def can_bet(self) -> list[str]:
        """Players who can still put chips in (live and not all-in), in acting order."""
        return [p for p in self.order if p not in self.folded and p not in self.all_in]

    @property
    def to_act(self) -> str | None:
        """Whose turn it is in a betting round, a draw or an in-turn declaration."""
        if self.phase == "bet" and self.rnd.pending:
            return self.rnd.pending[0]
        if self.phase == "draw":
            return self.cards.next_to_draw(self)
        if self.phase == "declare" and self.declare_method == "in_turn":
            return self._declare_queue()[0] if self._declare_queue() else None
        return None

    @property
    def declare_method(self) -> str | None:
        d = self.started.options.declare
        return d.method if d else None

    def pot_total(self) -> int:
        """All chips put in so far (antes, blinds, bets; before any refund) plus carried-in."""
        return sum(self.contributed.values()) + self.carried_in

    def bet_size(self) -> int:
        """Fixed-limit bet for this street (big or small), else the minimum bet."""
        st = self.started.stakes
        if self.game.betting == "fixed_limit":
            street = self.game.streets[max(self.street, 0)]
            return st.big_bet if street.big else st.small_bet
        return max(st.min_bet, self.nominal_blind, 1)

    def limits(self, player: str) -> Limits:
        """What ``player`` may do now: chips to call and the legal raise range (street totals)."""
        return betting.limits(self, player)

    # ---------------------------------------------------------------- apply

    def apply(self, event: object) -> None:
        """Check ``event`` against the rules, then apply it.

        Raises:
            IllegalAction: the event is not legal now; the state is unchanged.
        """
        seq = self.seq + 1
        try:
            handler = _HANDLERS[event.type]  # type: ignore[attr-defined]
        except (KeyError, AttributeError):
            raise IllegalAction(
                f"{getattr(event, 'type', event)!r} is not a hand action",
                hand=self.hand,
                seq=seq,
            ) from None
        if self.status != "open" and event.type not in _AFTER_END:  # type: ignore[attr-defined]
            raise IllegalAction(f"the hand is already {self.status}", hand=self.hand, seq=seq)
        try:
            handler(self, event)
        except IllegalAction as exc:
            exc.hand = exc.hand or self.hand
            exc.seq = exc.seq or seq
            raise
        self.seq = seq

    def _fail(self, reason: str) -> IllegalAction:
        return IllegalAction(reason, hand=self.hand, seq=self.seq + 1)

    # ------------------------------------------------------------------ helpers used by
    # engine.betting / engine.dealing

    def put_in(self, player: str, chips: int, *, live: bool = True) -> None:
        """Move ``chips`` from the player's stack into the pot (live: also his street bet)."""
        self.stacks[player] -= chips
        self.contributed[player] += chips
        if live:
            self.street_bets[player] += chips
        if self.stacks[player] == 0:
            self.all_in.add(player)

    def _declare_queue(self) -> list[str]:
        from engine.declare.order import declare_queue

        return declare_queue(self)


def _forced(state: HandState, e: ev.ForcedBet) -> None:
    if e.player not in state.stacks:
        raise state._fail(f"{e.player!r} is not seated")
    if e.kind == "bring_in":
        betting.bring_in(state, e)
        return
    if state.phase != "forced":
        raise state._fail(f"{e.kind.replace('_', ' ')} after the cards were dealt")
    if e.amount > state.stacks[e.player]:
        raise state._fail(f"{e.player} posts {e.amount} but has only {state.stacks[e.player]}")
    live = e.kind in _LIVE_BLINDS or e.kind == "posted_blind"
    state.put_in(e.player, e.amount, live=live)
    if not live:
        state.dead[e.player] = state.dead.get(e.player, 0) + e.amount
    state.forced_seen = True
    if e.kind == "posted_blind":
        state.posted_out_of_position.add(e.player)
    if e.kind in _LIVE_BLINDS:
        nominal = e.amount
        if state.stacks[e.player] == 0:  # posted short all-in: bet sizes stay (RULES.md §4.2)
            nominal = max([e.amount, *state.started.stakes.blinds_or_straddles])
        state.nominal_blind = max(state.nominal_blind, nominal)


def _carry(state: HandState, e: ev.CarryOver) -> None:
    if e.direction == "in":
        if state.phase != "forced":
            raise state._fail("carried-in chips must come before the cards are dealt")
        state.carried_in += e.amount
    elif state.status == "open" and state.phase != "showdown":
        raise state._fail("chips are carried out only after the betting is over")
    else:
        state.carried_out += e.amount


def _run_count(state: HandState, e: ev.RunCount) -> None:
    dealing.run_count(state, e)


def _payout(state: HandState, e: ev.RecordedPayout) -> None:
    if e.player not in state.stacks:
        raise state._fail(f"payout to {e.player!r}, who is not seated")
    state.payouts.append(e)


def _ended(state: HandState, e: ev.HandEnded) -> None:
    if e.status == "incomplete":
        state.status = "incomplete"
        return
    if state.phase not in ("showdown",):
        raise state._fail(f"the hand cannot end during the {state.phase} phase")
    dealing.check_showdown_ready(state)
    state.status = "complete"


def _voided(state: HandState, e: ev.HandVoided) -> None:
    state.status = "voided"


def _declaration(state: HandState, e: ev.Declaration) -> None:
    from engine.declare.order import declare

    declare(state, e)


def _not_engine(state: HandState, e: object) -> None:
    raise state._fail(f"{e.type} events are not hand actions")  # type: ignore[attr-defined]


_HANDLERS = {
    "forced_bet": _forced,
    "cards_dealt": dealing.deal,
    "discard": dealing.discard,
    "check": betting.act,
    "call": betting.act,
    "bet_raise": betting.act,
    "fold": betting.act,
    "all_in": betting.act,
    "declaration": _declaration,
    "reveal": dealing.reveal,
    "muck": dealing.muck,
    "run_count": _run_count,
    "recorded_payout": _payout,
    "carry_over": _carry,
    "hand_ended": _ended,
    "hand_voided": _voided,
}
