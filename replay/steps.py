"""The per-event steps of a hand: what the table looks like after each event.

:func:`hand_steps` applies a hand stream's corrections (:func:`replay.amendments.effective_events`),
then folds the events one at a time through :class:`engine.state.HandState` and records, after
each, a :class:`Step`: the action in PHH notation (FORMATS.md §1; the event type when PHH has no
notation for it), a sentence saying what happened, phase and street, the board of every run,
each player's stack, street bet, chips put in, folded / all-in flag and the hole cards known so
far (``??`` for an unknown card), the pot total, the pots (main pot first, with their eligible
players, as :func:`engine.settle.settle` derives them: while the betting goes on as the table
names them, a player who can still bet in every pot and a side pot only above an all-in,
:func:`engine.pots.standing_pots`; once it is over the layers of RULES.md §1.2–1.6), whose
turn it is and what is legal (:meth:`HandState.limits`). Step 1 is the ``hand_started`` event
(the table before anything happened). Chips are ints.

Both the text view (``handledger show``) and the page (``handledger view``) read these steps:
:meth:`Step.explanation` gives the sentences ``show`` prints for the pots.

Raises:
    engine.errors.IllegalAction: an event the rules reject (its hand, seq and the reason).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.awards import pot_name
from engine.betting import bet_word
from engine.errors import IllegalAction
from engine.games import shown_name
from engine.notation import format_amount, to_action
from engine.settle import settle
from engine.state import HandState
from replay.amendments import numbered_events, renumber
from replay.first_to_act import who_acts
from replay.fold import replay_folded
from replay.over import cannot_award
from replay.paid_out import back_unrecorded, paid_to_each, pots_left
from replay.stepwords import Before, started_words
from replay.street_names import shown_street_name, street_name

__all__ = ["SeatState", "PotState", "Legal", "Step", "HandSteps", "hand_steps", "named_action",
           "street_name"]


@dataclass(frozen=True)
class SeatState:
    """One player after a step. ``label``: the PHH seat label (``p1`` = first seat left of the
    button; stud: seat order). ``stack`` (behind him, with what the table's recorded payouts
    pushed to him so far; a voided hand: his stack before it), ``bet`` (this street; 0 once
    the table has paid chips out: they are no longer in front of him) and
    ``put_in`` (the whole hand, antes and blinds included, before any refund) in chips;
    ``folded``, ``mucked`` (at the showdown), ``all_in``. ``cards``: hole cards known so far
    in deal order (``??`` unknown), ``up``: a face-up flag per card. ``declared``: ``high``,
    ``low``, ``swing`` or None."""

    player: str
    label: str
    stack: int
    bet: int
    put_in: int
    folded: bool
    mucked: bool
    all_in: bool
    cards: tuple[str, ...]
    up: tuple[bool, ...]
    declared: str | None


@dataclass(frozen=True)
class PotState:
    """A pot as it stands: ``index`` 0 the main pot, 1… side pots (RULES.md §1.2); ``amount``
    chips; ``eligible`` players in seat order; ``awards`` chips per winner (empty until the
    betting is over); ``lines``: the award in sentences (RULES.md §2; empty until then). Once
    a raked hand is complete, ``awards`` and ``lines`` are of the pot less the rake it
    records, as the rules split it (:func:`replay.raked_pots.rules_pots`; README "A home
    game's rake"); ``amount`` stays the whole pot, ``left``: what is still in it once the
    table's recorded payouts are paid out of it (:func:`replay.paid_out.pots_left`)."""

    index: int
    name: str
    amount: int
    eligible: tuple[str, ...]
    awards: dict[str, int]
    lines: tuple[str, ...]
    left: int = 0


@dataclass(frozen=True)
class Legal:
    """What ``player`` may do in a betting round: ``to_call`` chips; a bet, raise or, on
    stud's third street below the small bet, completion (``verb``, as ``state`` says it:
    :func:`engine.betting.bet_word`) to a street total from ``min_to`` to ``max_to``
    (None: he may not, ``reason`` says why);
    ``bring_in``: the stud bring-in he may post instead (0: none). RULES.md §1.7–1.8, §4.1."""

    player: str
    to_call: int
    min_to: int | None
    max_to: int | None
    reason: str
    verb: str
    bring_in: int
    fixed: bool = False  # fixed limit: a range is two amounts (replay.typed.bet_range)


@dataclass(frozen=True)
class Step:
    """The hand after the event of stream seq ``seq`` (1 = ``hand_started``; a corrected
    hand may skip numbers; ``inserted``: a correction inserted it after ``seq``).

    ``action``: PHH notation (``p3 cbr 6``) or the event type; ``words``: what happened in a
    sentence; ``phase`` as :mod:`engine.state` names it; ``street`` (−1 before the first deal)
    and its name; ``status`` (open, complete, incomplete, voided); ``boards``: one per run;
    ``pot_total``: every chip put in so far plus chips carried in, less the chips the
    table's recorded payouts have paid out (``pay Ann 12``, ``returned Bob 8``: in his
    stack, out of the pot, RULES.md §1.2, §1.4), so the stacks and ``pot_total`` add up to
    the chips on the table; in a hand in play, the uncalled chips returned once the betting
    is over (``returned``, RULES.md §1.4) are in their player's stack and out of the pot
    before a ``returned`` payout records them, as ``state`` counts them
    (:func:`replay.paid_out.back_unrecorded`); ``paid``: those payouts per player;
    ``current_bet``: the street's highest total during a betting round (None outside one);
    ``pots`` (while the betting goes on as the table names them,
    :func:`engine.pots.standing_pots`; then the layers of what each player has put in) and
    ``returned`` (uncalled chips given back, once the betting is over) as
    :func:`engine.settle.settle` derives them;
    ``to_act`` (as ``state`` names him: :func:`replay.first_to_act.who_acts`, and
    ``to_act_unsure`` when the cards shown cannot) and, in a betting round, ``legal``;
    ``awarded``: where the hand is complete
    and the table recorded no payout, the rules' award, in the stacks and out of
    ``pot_total`` as ``paid`` is; ``notes``: what the rules accepted so far
    that a reader should know (a raise below the minimum that covers every opponent,
    RULES.md §1.7). ``named``: the action with players by name, as ``show`` prints it
    (:func:`named_action`).
    """

    seq: int
    type: str
    action: str
    words: str
    phase: str
    street: int
    street_name: str
    status: str
    boards: tuple[tuple[str, ...], ...]
    seats: tuple[SeatState, ...]
    pot_total: int
    current_bet: int | None
    pots: tuple[PotState, ...]
    returned: dict[str, int]
    to_act: str | None
    legal: Legal | None
    notes: tuple[str, ...] = ()
    #: stud with an upcard unknown, before the round's first action, when the cards shown
    #: leave more than one player who may open: what is known, as ``state`` says it
    #: (:func:`replay.first_to_act.who_acts`: ``"first to act: Dee or Eve (the best board;
    #: unknown: Dee's)"``), ``to_act`` then only the one the engine would take; else ""
    to_act_unsure: str = ""
    #: ``no showdown`` when the hand is past its betting with all but one player folded, as
    #: ``state`` names that phase (:attr:`engine.state.HandState.phase_said`, RULES.md §1.6);
    #: else "" (:attr:`phase` as it is: a row posting a blind stays ``forced``)
    phase_said: str = ""
    inserted: bool = False
    #: of two or more rows a correction inserted after ``seq``, which one (1, 2, …; ``show
    #: --at SEQ+K`` stops after it); 0 for the only one, and for a row not inserted
    nth: int = 0
    named: str = ""
    paid: dict[str, int] = field(default_factory=dict)
    #: a hand complete with no payout recorded: what the rules award each player (his pot
    #: shares, less the rake the hand records, and his uncalled bet returned; RULES.md
    #: §1.2-1.5, §2), in his stack and out of the pot as ``paid`` would be, so the stacks and
    #: ``pot_total`` still add up to the chips on the table; the rules' award, not the table's
    #: payouts (empty when the table recorded any, or the rules cannot award the pots: a
    #: showdown of unknown cards)
    awarded: dict[str, int] = field(default_factory=dict)
    #: a hand complete with no payout recorded whose showdown cannot be read (cards not all
    #: shown, ``result.verifiable`` false): no pot is awarded, by the table or the rules, and
    #: the stacks count only the uncalled chips returned
    unawarded: bool = False
    #: a draw waiting for the dealer (RULES.md §4.2): whose replacement cards he deals next
    #: and how many, as ``state`` names it (``"Flo 1 replacement card"``), ``to_act`` then
    #: None even when a player is still to discard after them; else ""
    dealer_next: str = ""

    @property
    def label(self) -> str:
        """The step's number as shown: its stream seq, ``5+`` for the one event a correction
        inserted after seq 5, ``5+1``, ``5+2`` for two (as ``show --at`` names them)."""
        if not self.inserted:
            return str(self.seq)
        return f"{self.seq}+{self.nth}" if self.nth else f"{self.seq}+"

    def explanation(self) -> tuple[str, ...]:
        """Every pot in words, then the uncalled chips returned (a voided hand's: every
        contribution): the lines ``show`` prints.
        A pot not yet awarded reads ``Main pot: AMOUNT (ELIGIBLE, ...)`` (``Side pot N: …``),
        as ``state`` names it (:func:`engine.awards.pot_name`, RULES.md §1.2)."""
        lines = []
        for pot in self.pots:
            unpaid = f"{pot_name(pot.index)}: {pot.amount} ({', '.join(pot.eligible)})"
            lines.extend(pot.lines or (unpaid,))
        if self.returned:
            back = ", ".join(f"{p} {c}" for p, c in self.returned.items())
            said = ("voided: every contribution returned" if self.status == "voided"
                    else "uncalled returned")  # a void's, as `replay` says it (RULES.md §7.1)
            lines.append(f"{said}: {back}")
        lines.extend(f"note: {note}" for note in self.notes)
        return tuple(lines)

    def to_json(self) -> dict[str, Any]:
        """The step as JSON types (the fields by name; tuples as lists)."""
        legal = self.legal
        return {
            "seq": self.seq, "label": self.label, "type": self.type, "action": self.action,
            "words": self.words,
            "phase": self.phase, "street": self.street, "street_name": self.street_name,
            "status": self.status, "boards": [list(b) for b in self.boards],
            "seats": [_seat_json(s) for s in self.seats], "pot_total": self.pot_total,
            "current_bet": self.current_bet, "pots": [_pot_json(p) for p in self.pots],
            "returned": dict(self.returned), "to_act": self.to_act,
            "to_act_unsure": self.to_act_unsure,
            "legal": None if legal is None else {
                "player": legal.player, "to_call": legal.to_call, "min_to": legal.min_to,
                "max_to": legal.max_to, "reason": legal.reason, "verb": legal.verb,
                "bring_in": legal.bring_in, "fixed": legal.fixed},
            "notes": list(self.notes), "paid": dict(self.paid),
            "awarded": dict(self.awarded), "unawarded": self.unawarded,
            "dealer_next": self.dealer_next,
        }


def _seat_json(s: SeatState) -> dict[str, Any]:
    return {"player": s.player, "label": s.label, "stack": s.stack, "bet": s.bet,
            "put_in": s.put_in, "folded": s.folded, "mucked": s.mucked, "all_in": s.all_in,
            "cards": list(s.cards), "up": list(s.up), "declared": s.declared}


def _pot_json(p: PotState) -> dict[str, Any]:
    return {"index": p.index, "name": p.name, "amount": p.amount, "eligible": list(p.eligible),
            "awards": dict(p.awards), "lines": list(p.lines), "left": p.left}


@dataclass(frozen=True)
class HandSteps:
    """A hand's steps: ``hand``, ``game`` (variant code) and its name, ``button`` (None in
    stud), ``starting`` stacks in seat order, ``corrected`` (corrections or a void applied),
    ``decimals`` (how the hand writes amounts, :class:`ledger.model.events.Unit`),
    ``board_cards`` (board cards a run of the game deals: 0 in stud and draw games) and
    ``steps`` (numbered by stream seq, :class:`Step`), and ``broken``: why the steps stop
    early (an event the rules reject, ``hand_steps(lenient=True)``; None: they do not).
    ``paid_otherwise``: once the hand is complete, the line saying how the table's recorded
    payouts differ from the rules' awards (:func:`replay.fold.replay_folded`; a rake or an
    uncalled bet left out in its words, :mod:`replay.rake`), or a note of the rake kept by a
    hand paid its pots less it (as the rules give); None when they do not differ."""

    hand: str
    game: str
    game_name: str
    button: str | None
    starting: tuple[tuple[str, int], ...]
    corrected: bool
    decimals: int
    board_cards: int
    steps: tuple[Step, ...]
    broken: str | None = None
    paid_otherwise: str | None = None
    #: ``show --at``'s note on where it stopped (:func:`replay.show_at.check_at`), or None.
    at_note: str | None = None

    @property
    def last(self) -> Step:
        return self.steps[-1]

    def unit_note(self) -> str | None:
        """For a hand kept in a unit with decimals (FORMATS.md §1: a file in dollars and
        cents), the line saying that stacks and pots are counted in its smallest unit while
        its actions are written in its notation; None for a hand in whole chips."""
        from replay.typed import smallest_unit_note

        return smallest_unit_note(self.decimals)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand, "game": self.game, "game_name": self.game_name,
            "button": self.button, "starting": [list(s) for s in self.starting],
            "corrected": self.corrected, "board_cards": self.board_cards,
            "steps": [s.to_json() for s in self.steps],
            "explanation": list(self.last.explanation()),
        }


def hand_steps(events: Sequence[Any], *, upto: int | None = None, original: bool = False,
               lenient: bool = False, inserted: int | None = None) -> HandSteps:
    """The steps of a stored hand stream (``hand_started`` first; corrections and voids
    applied, or with ``original`` the events as first recorded), each numbered by its seq in
    the hand stream (:class:`replay.amendments.Numbered`: a corrected hand may skip numbers),
    stopping after the events up to stream seq ``upto`` (all when None) and, of the events a
    correction inserted after seq ``upto``, the first ``inserted`` (None: all). With
    ``lenient`` an
    event the rules reject ends the steps there and :attr:`HandSteps.broken` says why.

    Raises:
        engine.errors.IllegalAction: an event the rules reject (its stream seq), unless
            ``lenient``.
    """
    numbered, corrected = numbered_events(events, original=original)
    started = numbered[0].event
    state = HandState.start(started)
    steps = [_step(state, 1, started, "hand_started", started_words(state))]
    broken = None
    taken = 0  # the rows inserted after seq upto taken so far
    many = Counter(n.seq for n in numbered if n.inserted)  # rows inserted after each seq
    nth: Counter[int] = Counter()
    for k, n in enumerate(numbered[1:], 2):
        if upto is not None and n.seq > upto:
            break
        if upto is not None and n.seq == upto and n.inserted:
            taken += 1
            if inserted is not None and taken > inserted:
                break
        e = n.event
        try:
            action = to_action(state, e) or e.type
            named = named_action(state.players, e, action, started.unit.decimals)
            before = Before(state, e)
            state.apply(e)
        except IllegalAction as exc:
            exc.seq = k if exc.seq is None else exc.seq
            renumber(exc, numbered)
            if not lenient:
                raise
            broken = f"event {exc.seq} ({_what(e)}): {exc.reason}"
            break
        if n.inserted:
            nth[n.seq] += 1
        steps.append(_step(state, n.seq, e, action, before.words(state), inserted=n.inserted,
                           nth=nth[n.seq] if n.inserted and many[n.seq] > 1 else 0,
                           named=named))
    paid_otherwise = None
    if broken is None and state.status == "complete":
        paid_otherwise = _paid_otherwise(state, started, corrected)
    return HandSteps(
        hand=started.hand, game=started.game,
        game_name=shown_name(state.game, started.options.declare), button=started.button,
        starting=tuple((s.player, s.stack) for s in started.seats), corrected=corrected,
        decimals=started.unit.decimals, board_cards=state.game.board_count,
        steps=tuple(steps), broken=broken, paid_otherwise=paid_otherwise,
    )


def _paid_otherwise(state: HandState, started: Any, corrected: bool) -> str | None:
    """``paid differently from the rules: Ann was paid 0, the rules give 300 (-300); ...``
    (each difference once, without its ``hand X:``); of a hand paid its pots less the rake it
    records, as the rules give, a note of the rake kept (``note: the table paid 215 less than
    the pots and returns: the site kept 215 as rake (as the file records)``); or None."""
    replayed = replay_folded(state, started, corrected=corrected)
    prefix = f"hand {started.hand}: "
    if replayed.rake_kept:
        return "note: " + "; ".join(d.sentence().removeprefix(prefix)
                                    for d in replayed.rake_kept)
    said = dict.fromkeys(d.sentence().removeprefix(prefix) for d in replayed.differences)
    return f"paid differently from the rules: {'; '.join(said)}" if said else None


def _what(event: Any) -> str:
    """``fold by Ann``: an event's type and player."""
    who = getattr(event, "player", None)
    return f"{event.type} by {who}" if who else event.type


def load_steps(ledger: Any, hand: str, *, at: str | None = None) -> HandSteps:
    """:func:`hand_steps` of the hand ``hand`` as stored in ``ledger``, up to ``at`` (``show
    --at``, :func:`replay.show_at.parse_at`: ``23``, or ``23+`` with the rows a correction
    inserted after seq 23; None: all), with ``at_note`` saying what a stop at a correction's
    own seq, or before rows inserted after it, means (:func:`replay.show_at.check_at`).

    Raises:
        NotFound: no such hand; MalformedInput: ``at`` not a seq, past the hand stream's last
        seq (a correction's own seq included), or naming inserted rows the hand does not have;
        engine.errors.IllegalAction: an event the rules reject; ChainBroken: a row of the
        hand was changed outside handledger (:func:`ledger.store.shown_rows.check_shown`).
    """
    from dataclasses import replace

    from ledger.model.errors import no_hand
    from ledger.store.shown_rows import check_shown, not_shown
    from replay.show_at import check_at, parse_at

    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    check_shown(ledger.path, rows, not_shown(hand))
    events = [r.event for r in rows]
    if at is None:
        return hand_steps(events)
    stop = parse_at(at, hand)
    if stop.seq <= len(events):
        numbered, _ = numbered_events(events)
        after = sum(1 for n in numbered if n.seq == stop.seq and n.inserted)
    else:
        after = 0
    note = check_at(stop, events, after, hand)
    steps = hand_steps(events, upto=stop.seq, inserted=stop.inserted)
    return replace(steps, at_note=note)


def named_action(players: Sequence[str], event: Any, action: str, decimals: int) -> str:
    """``action`` (:func:`engine.notation.to_action`'s PHH text of ``event``, else its type)
    with players by name, as ``act`` takes it: a seat label ``pN`` (FORMATS.md §1) becomes the
    Nth of ``players`` (``Cy cbr 6``); a recorded payout is ``pay Bob 400`` or ``returned
    Bob 8``, a recorded rake ``rake 10``; a forced bet PHH has no notation for, ``Ann posts
    small blind 1``. Amounts in the hand's unit (``decimals``,
    :func:`engine.notation.format_amount`)."""
    t = event.type
    if t == "recorded_payout":
        verb = "returned" if event.returned else "pay"
        return f"{verb} {event.player} {format_amount(event.amount, decimals)}"
    if t == "recorded_rake":
        return f"rake {format_amount(event.amount, decimals)}"
    if t == "forced_bet" and action == t:
        kind = event.kind.replace("_", " ")
        return f"{event.player} posts {kind} {format_amount(event.amount, decimals)}"
    names = {f"p{i}": p for i, p in enumerate(players, 1)}
    return " ".join(names.get(word, word) for word in action.split(" "))


def _step(state: HandState, seq: int, event: Any, action: str, words: str, *,
          inserted: bool = False, nth: int = 0, named: str = "") -> Step:
    result = settle(state)
    cards = state.cards
    payouts = state.payouts
    paid = paid_to_each(state.players, payouts)  # out of the pot, in a stack
    if state.status == "voided":  # every chip goes back, no payout stands (README: net)
        paid = {p: state.contributed[p] for p in state.players}
        payouts = []
    awarded = result.pots
    if state.status == "complete" or state.rake is not None:  # split once the rake is taken
        from replay.raked_pots import rules_pots

        awarded = rules_pots(state, result, state.started) or awarded
    by_rules = _by_rules(state, result, awarded)
    paid_out = any(paid.values()) or bool(by_rules)  # the bets are in the winners' stacks
    in_pot = state.pot_total() - sum(paid.values()) - sum(by_rules.values())
    back = back_unrecorded(state, result.returned, payouts, in_pot)  # as `state` has them
    in_pot -= sum(back.values())
    seats = tuple(
        SeatState(
            player=p, label=f"p{i}",
            stack=state.stacks[p] + paid[p] + by_rules.get(p, 0) + back.get(p, 0),
            bet=0 if paid_out else state.street_bets[p],
            put_in=state.contributed[p], folded=p in state.folded, mucked=p in state.mucked,
            all_in=p in state.all_in, cards=tuple(cards.hole[p]), up=tuple(cards.up[p]),
            declared=state.declarations.get(p),
        )
        for i, p in enumerate(state.players, 1)
    )
    left = pots_left([pot.amount for pot in result.pots], payouts)
    if by_rules:  # what the rules award is out of each pot (a rake it records stays in)
        left = [pot.amount - sum(won.awards.values())
                for pot, won in zip(result.pots, awarded, strict=True)]
    pots = tuple(  # each pot whole and what is left of it; its award as the rules give it
        PotState(pot.index, pot_name(pot.index), pot.amount, tuple(pot.eligible),
                 dict(won.awards), tuple(won.lines), chips)
        for pot, won, chips in zip(result.pots, awarded, left, strict=True)
    )
    betting = state.phase == "bet"
    to_act, unsure = who_acts(state)  # as `state` names him (RULES.md §4.1)
    dealer_next = _replacements_next(state)
    if dealer_next:  # the replacements owed are dealt before the next discard, as `state` says
        to_act = None
    return Step(
        seq=seq, type=event.type, action=action, words=words, phase=state.phase,
        phase_said=state.phase_said if state.phase == "showdown" else "",
        street=state.street, street_name=shown_street_name(state),
        status=state.status, boards=tuple(tuple(b) for b in cards.boards), seats=seats,
        pot_total=in_pot,
        current_bet=state.rnd.current if betting else None,
        pots=pots, returned=dict(result.returned), to_act=to_act, to_act_unsure=unsure,
        legal=_legal(state, to_act) if betting and to_act else None,
        notes=tuple(state.notes), inserted=inserted, nth=nth, named=named or action,
        paid={p: c for p, c in paid.items() if c} if payouts else {},
        awarded=by_rules,
        unawarded=cannot_award(state, result),
        dealer_next=dealer_next,
    )


def _replacements_next(state: HandState) -> str:
    """In a draw where a player who discarded is still owed his replacement cards, the
    player whose replacement cards the dealer deals next and how many (``"Flo 1 replacement
    card"``), as ``state`` names the next deal (the first still owed, RULES.md §4.2), whether
    or not a player is still to discard after him; "" otherwise (a player to discard is
    ``to_act``)."""
    if state.phase != "draw":
        return ""
    for p, n in state.cards.owed.items():
        return f"{p} {n} replacement card{'' if n == 1 else 's'}"
    return ""


def _by_rules(state: HandState, result: Any, awarded: Sequence[Any]) -> dict[str, int]:
    """Of a hand complete with no payout recorded, what the rules award each player, in seat
    order, none of 0: his shares of ``awarded`` (the pots, less the rake the hand records,
    :func:`replay.raked_pots.rules_pots`) and his uncalled bet returned (RULES.md
    §1.2-1.5, §2); empty when the table recorded a payout, the hand is not complete, or the
    rules cannot award its pots (a showdown of unknown cards, ``result.verifiable``)."""
    if state.status != "complete" or state.payouts or not result.verifiable:
        return {}
    from replay.raked_pots import due_of

    return {p: c for p, c in due_of(result, awarded).items() if c}


def _legal(state: HandState, player: str) -> Legal:
    lim = state.limits(player)
    bring_in = state.started.stakes.bring_in
    stud_open = state.game.stud and state.street == 0 and state.rnd.current == 0
    return Legal(
        player=player, to_call=lim.to_call, min_to=lim.min_to, max_to=lim.max_to,
        reason=lim.reason, verb=bet_word(state),
        bring_in=bring_in if stud_open else 0, fixed=state.fixed,
    )
