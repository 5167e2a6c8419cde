"""The hand state machine: applies one event at a time and rejects an illegal one.

``HandState.start(hand_started)`` opens a hand; ``state.apply(event)`` checks the event against
the rules and then changes the state, or raises :class:`engine.errors.IllegalAction` naming the
hand, the event's sequence number and the reason, leaving the state untouched. Chips are
integers. Pots are never stored: :mod:`engine.settle` derives them from contributions.

Phases: ``forced`` (antes, blinds, straddles) → for each street: ``deal`` (hole and board
cards), ``draw`` (draw games: discards then replacements), ``bet`` → ``declare`` (declare
games) → ``showdown`` (reveals, mucks, recorded payouts) → ``done`` (hand ended).

The facts of the hand live in :class:`engine.hand.HandData`; what each event does (a rule
of betting, dealing or declaring, then the phase step that follows it) in
:data:`engine.flow.STEPS`. Rule sources: RULES.md §1 (table stakes, all-in, reopening, caps),
§4 (structure: stud, blinds, draw, straddles, run it twice), §3.3–3.4 (declaration order, bet
after declare).
"""

from __future__ import annotations

from engine.betting import covering_to, limits, may_check
from engine.cards import Cards
from engine.dealing import next_to_draw
from engine.declare.order import declare_queue
from engine.errors import IllegalAction
from engine.flow import STEPS
from engine.games import game
from engine.hand import HandData
from engine.rounds import Limits, Round, cap_for
from ledger.model import events as ev

#: Events a hand takes after it ended: what the table paid, late shows, and the record of
#: chips carried into the session's next hand (RULES.md §7.1).
_AFTER_END = ("recorded_payout", "reveal", "muck", "carry_over")


class HandState(HandData):
    """One hand being played: :class:`~engine.hand.HandData` (its facts and queries) plus
    :meth:`start` and :meth:`apply`."""

    __slots__ = ()

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
        players: list[str] = []
        stacks: dict[str, int] = {}
        for s in started.seats:  # each seat's fields read once (pydantic: a generic getattr)
            player = s.player
            players.append(player)
            stacks[player] = s.stack
        button = started.button
        if g.stud or button is None:
            order = list(players)
        else:
            if button not in players:
                raise IllegalAction(f"button {button!r} is not seated", hand=started.hand, seq=1)
            b = players.index(button)
            order = players[b + 1 :] + players[: b + 1]
        st = started.stakes
        if st.betting != g.betting:
            raise IllegalAction(
                f"stakes say {st.betting} but {g.code} is {g.betting}", hand=started.hand, seq=1
            )
        if g.betting == "fixed_limit" and not (st.small_bet and st.big_bet):
            raise IllegalAction("fixed limit needs small_bet and big_bet", hand=started.hand, seq=1)
        options = started.options
        if options.declare is not None and g.hole_count + g.board_count < 5:
            raise IllegalAction(
                f"{g.code} cannot be a declare game: its hands have fewer than five cards",
                hand=started.hand, seq=1,
            )
        fixed = g.betting == "fixed_limit"
        reopen = options.reopen_rule or g.default_reopen_rule
        # HandState itself, not cls: mypyc calls its compiled constructor directly (measured:
        # 1.3 us less than through the class object, which passes these keywords by name)
        return HandState(
            started=started,
            game=g,
            players=players,
            order=order,
            stacks=stacks,
            # comprehensions, not dict.fromkeys: mypyc builds them inline (130 ns, not 230)
            contributed={p: 0 for p in players},
            street_bets={p: 0 for p in players},
            folded=set(),
            mucked=[],
            mucked_alone=None,
            all_in=set(),
            phase="forced",
            street=-1,
            rnd=Round(0, 0, 0, {}, []),
            cards=Cards.new(players),
            declarations={},
            declare_done=False,
            runs=0,  # no number of runs agreed (``d rc``): the board is run once
            carried_in=0,
            payouts=[],
            rake=None,
            status="open",
            seq=1,
            forced_seen=False,
            nominal_blind=0,
            posted_out_of_position=set(),
            dead={},
            antes={},
            notes=[],
            carried_out=0,
            last_round=(None, None),
            seat={p: i for i, p in enumerate(order)},
            fixed=fixed,
            half_bet=reopen == "half_bet",
            cap=cap_for(len(g.streets)),
        )

    # ---------------------------------------------------------------- queries

    @property
    def to_act(self) -> str | None:
        """Whose turn it is in a betting round, a draw or an in-turn declaration."""
        if self.phase == "bet" and self.rnd.pending:
            return self.rnd.pending[0]
        if self.phase == "draw":
            return next_to_draw(self)
        if self.phase == "declare" and self.declare_method == "in_turn":
            queue = declare_queue(self)
            return queue[0] if queue else None
        return None

    def limits(self, player: str) -> Limits:
        """What ``player`` may do now: chips to call and the legal raise range (street totals)."""
        return limits(self, player)

    def covering_to(self, player: str) -> int | None:
        """A raise total below the minimum that ``player`` may make as it covers every
        opponent (:func:`engine.betting.covering_to`, RULES.md §1.7), or None."""
        return covering_to(self, player)

    def may_check(self, player: str) -> bool:
        """Whether ``player`` may check now (:func:`engine.betting.may_check`)."""
        return may_check(self, player)

    def declare_queue(self) -> list[str]:
        """Live players still to declare, in the order they must (in-turn method, RULES.md
        §3.3)."""
        return declare_queue(self)

    # ---------------------------------------------------------------- apply

    def apply(self, event: object) -> None:
        """Check ``event`` against the rules, then apply it.

        Raises:
            IllegalAction: the event is not legal now; the state is unchanged.
        """
        seq = self.seq + 1
        try:
            rule, then = STEPS[event.type]  # type: ignore[attr-defined]
        except (KeyError, AttributeError):
            raise IllegalAction(
                f"{getattr(event, 'type', event)!r} is not a hand action",
                hand=self.hand,
                seq=seq,
            ) from None
        if self.status != "open" and event.type not in _AFTER_END:  # type: ignore[attr-defined]
            raise IllegalAction(f"the hand is already {self.status}", hand=self.hand, seq=seq)
        try:
            if rule(self, event) and then is not None:
                then(self)
        except IllegalAction as exc:
            exc.hand = exc.hand or self.hand
            exc.seq = exc.seq or seq
            raise
        self.seq = seq
