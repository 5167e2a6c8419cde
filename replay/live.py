"""Recording a hand live at the table: ``hand start``, then one ``act`` at a time, ``state``.

Seats are stored in PHH order (p1 = the first seat left of the button, the button last;
FORMATS.md §1), so a hand recorded live and the same hand imported from PHH give the same
events. Every action is checked by the engine against the hand as it stands (corrections
applied) before it is appended; an illegal one is refused with what is legal now, and nothing
is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.money import within_bound
from ledger.model.names import (
    check_hand_id,
    check_not_look_alike,
    check_seat_name,
    folded,
    likely_meant,
    spelled,
)
from replay import carry
from replay.board_rules import whole_street
from replay.fold import fold_stream
from replay.payout_rules import (
    above_zero,
    not_carried,
    not_folded,
    over_the_pot,
    paid_to_somebody,
    rake_not_carried,
    rake_within_the_pots,
    within_reach,
    within_uncalled_bet,
)
from replay.typed import as_typed, reason_as_typed


@dataclass(frozen=True)
class LiveHand:
    """What ``hand start`` needs beyond the seats: the game code (PHH style, engine/games.py),
    blinds and straddles ``stakes`` (``"1/2"``, ``"1/2/4"``), an ante per player, or one ante
    for the whole table posted by the big blind (``bb_ante``) or the button (``button_ante``:
    dead money, RULES.md §4.3), bet sizes (chips) and the high-low declaration options
    (``"method=in_turn,…"``)."""

    game: str
    seats: str
    stakes: str | None = None
    antes: int = 0
    bb_ante: int = 0
    button_ante: int = 0
    min_bet: int | None = None
    small_bet: int = 0
    big_bet: int = 0
    bring_in: int = 0
    button: str | None = None
    declare: str | None = None

    def amounts(self) -> tuple[tuple[str, int | None], ...]:
        """Each amount option as ``(option, chips)``, the three kinds of ante first."""
        return (("--antes", self.antes), ("--bb-ante", self.bb_ante),
                ("--button-ante", self.button_ante), ("--min-bet", self.min_bet),
                ("--small-bet", self.small_bet), ("--big-bet", self.big_bet),
                ("--bring-in", self.bring_in))


def parse_seats(text: str) -> list[tuple[str, int]]:
    """``"Ann:200,Bob:150"`` → ``[("Ann", 200), ("Bob", 150)]``.

    Raises:
        MalformedInput: an item that is not NAME:STACK, a stack that is not a whole number of
            chips above 0 (at most ``MAX_CHIPS``), a name holding a control character or one
            the action notation reads as something else
            (:func:`ledger.model.names.check_seat_name`), a player seated twice, or fewer
            than two players.
    """
    seats: list[tuple[str, int]] = []
    for item in text.split(","):
        name, sep, stack = item.strip().rpartition(":")
        if not sep or not name.strip() or not stack.strip().lstrip("-").isdigit():
            raise MalformedInput(f"--seats: {item.strip()!r} is not NAME:STACK")
        if int(stack) <= 0:  # table stakes: he plays only the chips he has (RULES.md §1.1)
            raise MalformedInput(f"--seats: {name.strip()}'s stack {int(stack)} is not a "
                                 "number of chips above 0 (a player with no chips is not dealt "
                                 "in: buy in first)")
        within_bound(int(stack), f"--seats: {name.strip()}'s stack")
        check_seat_name(name.strip())  # spaces round a NAME:STACK item are the list's
        if any(n == name.strip() for n, _ in seats):
            raise MalformedInput(f"--seats: {name.strip()} is seated twice")
        seats.append((name.strip(), int(stack)))
    if len(seats) < 2:
        raise MalformedInput("--seats needs at least two players")
    return seats


def key_values(text: str, option: str) -> dict[str, str]:
    """A command line's ``"KEY=VALUE,KEY=VALUE"`` list (``option`` names it in a refusal) →
    ``{key: value}`` in the order given, spaces round each key and value dropped, empty
    items skipped. A key given twice is refused, never settled by the last one: which one
    was meant?

    Raises:
        MalformedInput: ``"--declare-options: 'x' is not KEY=VALUE"``, ``"--declare-options:
            swing_ties is given twice (allowed, then not_allowed): give each key once"``.
    """
    values: dict[str, str] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep:
            raise MalformedInput(f"{option}: {item!r} is not KEY=VALUE")
        if key in values:
            raise MalformedInput(f"{option}: {key} is given twice ({values[key]}, then "
                                 f"{value}): give each key once")
        values[key] = value
    return values


def parse_declare(text: str | None) -> ev.DeclareOptions | None:
    """``"method=in_turn,swing_ties=allowed"`` → the declaration options (RULES.md §5).

    Raises:
        MalformedInput: an item that is not KEY=VALUE, a key given twice
            (:func:`key_values`), or an unknown key or value.
    """
    if text is None:
        return None
    values: dict[str, object] = {
        key: {"true": True, "false": False}.get(value, value)
        for key, value in key_values(text, "--declare-options").items()}
    try:
        return ev.DeclareOptions(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise MalformedInput(f"--declare-options: {where}: {first.get('msg')}") from None


def build_started(spec: LiveHand, *, hand: str, session: str | None
                  ) -> tuple[ev.HandStarted, list[ev.ForcedBet]]:
    """The ``hand_started`` event and the forced bets of a live hand.

    Raises:
        MalformedInput: bad seats, stakes or options (``no_eligible_winner=carry_over`` in a
            hand of no session: no next hand takes the pot); IllegalAction: stakes the game
            rejects.
    """
    from engine.games import game
    from ledger.formats.phh.base import forced_bets

    try:
        g = game(spec.game)
    except ValueError as exc:
        raise MalformedInput(str(exc)) from None
    pairs = parse_seats(spec.seats)
    names = [n for n, _ in pairs]
    for option, amount in spec.amounts():
        if amount is not None:
            within_bound(amount, option)
    button = spec.button
    if g.stud:
        if button is not None:
            raise MalformedInput(f"--button {button!r}: {g.code} is a stud game, which has no "
                                 "button (the up cards decide the bring-in and who acts first, "
                                 "RULES.md §2): give the seats in table order, --seats")
    else:
        if button is None:
            raise MalformedInput(f"--button is required for {g.code} (it has a button): name "
                                 f"one of the seated players, {', '.join(names)}")
        if button not in names:
            raise MalformedInput(f"--button {button!r} is not seated: name one of "
                                 f"{', '.join(names)}")
        b = names.index(button)
        pairs = pairs[b + 1 :] + pairs[: b + 1]
    blinds = _blinds(spec.stakes, g.stud, len(pairs), g.code)
    min_bet = spec.min_bet
    if min_bet is None:
        positive = [b for b in blinds if b > 0]
        min_bet = positive[min(1, len(positive) - 1)] if positive else 0
    _check_structure(g, spec, min_bet)
    # the game's own odd-chip order (RULES.md §2.2, §5): stud has no button, so by suit
    split = ev.SplitOptions(odd_chip_tie_order=g.tie_order)
    options = ev.RuleOptions(reopen_rule=g.default_reopen_rule, split=split,
                             declare=parse_declare(spec.declare))
    _carry_needs_session(options, session)
    try:
        started = ev.HandStarted(
            hand=hand, game=g.code,
            stakes=ev.Stakes(
                betting=g.betting, antes=_antes(spec, g.stud, blinds, len(pairs)),
                blinds_or_straddles=blinds,
                bring_in=spec.bring_in, min_bet=min_bet if g.betting != "fixed_limit" else 0,
                small_bet=spec.small_bet, big_bet=spec.big_bet,
            ),
            seats=[ev.Seat(player=p, stack=s) for p, s in pairs],
            button=button, options=options, session=session,
        )
    except ValidationError as exc:  # below the checks above: a value no event holds
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise MalformedInput(f"hand {hand}: {where}: {first.get('msg')}") from None
    except ValueError as exc:
        raise MalformedInput(str(exc).splitlines()[0]) from None
    forced = forced_bets(started.stakes, started.seats)
    state = HandState.start(started)
    for f in forced:
        state.apply(f)
    return started, forced


def _carry_needs_session(options: ev.RuleOptions, session: str | None) -> None:
    """Refuse ``no_eligible_winner=carry_over`` in a hand of no session: the pot nobody is
    left to win goes into the session's next hand (RULES.md §3.8, §7.1), and it has none.

    Raises:
        MalformedInput: naming the option and what to give instead.
    """
    declare = options.declare
    if session is None and declare is not None and declare.no_eligible_winner == "carry_over":
        raise MalformedInput(
            "--declare-options no_eligible_winner=carry_over carries a pot nobody is left to "
            "win into the session's next hand (RULES.md §3.8, §7.1), and a hand of no session "
            "has none: give --session S, or no_eligible_winner=cards_speak (the default)")


def _check_structure(g: Any, spec: LiveHand, min_bet: int) -> None:
    """Refuse amounts the game ``g`` cannot have: a negative one, a bet size or bring-in of a
    structure it does not use (they would be silently ignored), a big-bet game without a
    minimum bet, a fixed-limit game without both bet sizes, a big bet below the small bet, a
    bring-in above the small bet (it is less than a full bet, RULES.md §4.1).

    Raises:
        MalformedInput: naming the option and the amount.
    """
    for option, amount in spec.amounts():
        if amount is not None and amount < 0:
            raise MalformedInput(f"{option} {amount}: an amount is a number of chips, 0 or more")
    fixed = g.betting == "fixed_limit"
    if not g.stud and spec.bring_in:
        raise MalformedInput(f"--bring-in {spec.bring_in}: {g.code} is not a stud game (it "
                             "posts blinds: --stakes)")
    if not fixed and (spec.small_bet or spec.big_bet):
        raise MalformedInput(f"--small-bet/--big-bet: {g.code} is not fixed limit (a big-bet "
                             "game takes --min-bet)")
    if fixed and spec.min_bet is not None:
        raise MalformedInput(f"--min-bet {spec.min_bet}: {g.code} is fixed limit (it takes "
                             "--small-bet and --big-bet)")
    if not fixed and min_bet < 1:
        raise MalformedInput(f"{g.code} needs a minimum bet: give --stakes (the big blind sets "
                             "it) or --min-bet")
    if fixed and not (spec.small_bet and spec.big_bet):
        raise MalformedInput(f"{g.code} is fixed limit: give --small-bet and --big-bet (the "
                             "bets of the early and the late streets)")
    if fixed and spec.big_bet < spec.small_bet:
        raise MalformedInput(f"--big-bet {spec.big_bet} is below --small-bet {spec.small_bet}")
    if g.stud and fixed and spec.small_bet and spec.bring_in > spec.small_bet:
        raise MalformedInput(f"--bring-in {spec.bring_in} is more than the small bet "
                             f"{spec.small_bet} (the bring-in is less than a full bet, RULES.md "
                             "§4.1)")


def _antes(spec: LiveHand, stud: bool, blinds: list[int], players: int) -> list[int]:
    """PHH's positional ``antes`` list (FORMATS.md §1: entry 1 is the big blind's, the last
    the button's, heads-up entry 0) for one ante a player, or one table ante posted by the big
    blind or the button (RULES.md §4.3: an ante only one player posts is dead money for the
    table).

    Raises:
        MalformedInput: more than one kind of ante, a table ante in stud (no blinds, no
            button), a big-blind ante without a big blind.
    """
    given = [(option, amount) for option, amount in spec.amounts()[:3] if amount]
    if len(given) > 1:
        raise MalformedInput(f"{given[0][0]} and {given[1][0]}: give one kind of ante (each "
                             "player's, or one for the table by the big blind or the button)")
    if not given or given[0][0] == "--antes":
        return [spec.antes] * players
    option, amount = given[0]
    if stud:
        raise MalformedInput(f"{option} {amount}: a stud game has no blinds and no button; "
                             "its antes are each player's: --antes")
    out = [0] * players
    if option == "--bb-ante":
        if len([b for b in blinds if b > 0]) < 2:
            raise MalformedInput(f"--bb-ante {amount}: the hand has no big blind (--stakes "
                                 "\"SB/BB\")")
        out[1] = amount
    else:
        out[0 if players == 2 else players - 1] = amount
    return out


def _blinds(stakes: str | None, stud: bool, players: int, code: str) -> list[int]:
    """PHH's positional ``blinds_or_straddles`` of ``--stakes`` (``"1/2/4"``) for ``players``
    seats in game ``code``.

    Raises:
        MalformedInput: not numbers split by ``/``, blinds in a stud game, more blinds than
            players, a blind of 0 or less or below the one before it, or one blind alone: a
            flop or draw game posts a small and a big blind (RULES.md §4.2). A hand file may
            record a single blind (a button blind, FORMATS.md §1): only the typed command
            is refused.
    """
    if not stakes:
        return []
    try:
        blinds = [int(x) for x in stakes.split("/")]
    except ValueError:
        raise MalformedInput(f"--stakes {stakes!r} is not like 1/2 or 1/2/4") from None
    if stud:
        raise MalformedInput("stud games post a --bring-in, not blinds")
    for blind in blinds:
        within_bound(blind, "--stakes")
    if len(blinds) > players:
        raise MalformedInput("more blinds than players")
    if any(b <= 0 for b in blinds) or blinds != sorted(blinds):
        raise MalformedInput(f"--stakes {stakes!r}: blinds are positive and go up in seat "
                             "order (small blind, big blind, straddles), like 1/2 or 1/2/4")
    if len(blinds) == 1:
        raise MalformedInput(
            f"--stakes {stakes!r} is one blind, no big blind: {code} posts a small and a big "
            "blind (RULES.md §4.2): give both, like --stakes 1/2 (small/big, a straddle third: "
            "1/2/4), or no --stakes for a game of antes alone (--antes, --min-bet)")
    return blinds + [0] * (players - len(blinds))


def _session_id(hand: str) -> LedgerError:
    return LedgerError(f"hand {hand!r}: an id starting 'session:' names a session's book, not "
                       "a hand: give another --hand, or none for a generated id")


def check_new_ledger_start(spec: LiveHand, *, hand: str | None, session: str | None) -> None:
    """What :func:`start_hand` would refuse on a ledger with no rows, checked without one:
    ``hand start`` runs it before it makes a ledger file, so that a refusal leaves none.

    Raises:
        NotFound: ``session`` is given (a new ledger has no session, :func:`open_state`'s
            refusal); LedgerError: a ``hand`` id starting ``session:`` or not one a command
            may write (:func:`ledger.model.names.check_hand_id`); MalformedInput,
            IllegalAction: see :func:`build_started`.
    """
    from replay.sessions import no_session

    if session is not None:
        raise no_session(session, [])
    if hand is not None and check_hand_id(hand).startswith("session:"):
        raise _session_id(hand)
    build_started(spec, hand=hand or "live-1", session=session)


def start_hand(ledger: Any, spec: LiveHand, *, hand: str | None, session: str | None,
               note: Callable[[str], None] = lambda line: None) -> str:
    """Append a new hand's ``hand_started`` and forced bets (with chips carried from the
    session's last hand, RULES.md §7.1); return its id (generated when ``hand`` is None).
    A seat of a session's hand for a player not in its books is refused
    (:func:`check_bought_in`). ``note`` gets one warning line per seated player whose first
    hand there starts above his buy-ins, or who is in its books with no buy-in (a payment, a
    seat in an earlier hand), or whose stack does not follow his latest hand there
    (:func:`_stacks_not_followed`): the hand is still started, buy-ins being book entries, and
    the audit's stack continuity names the difference. In a session of PokerNow ids, a seat
    (and the button) may name the player as the reads show him: he is seated by his id
    (:func:`replay.seat_names.seated_by_id`).

    Raises:
        MalformedInput, IllegalAction: see :func:`build_started`; MalformedInput: without a
            session, a new player whose name prints like one of the ledger's
            (:func:`_check_new_seats`); LedgerError: the hand id is taken, or a seat's player
            is not in the session's books.
    """
    from ledger.store.streams import alias_pairs, first_rows, seated_in
    from replay.seat_names import seated_by_id
    from replay.sessions import open_state

    state = open_state(ledger, session) if session is not None else None
    if hand is None:
        prefix = session or "live"
        count = len(ledger.streams(kind="hand", session=session)) if session else 0
        hand = f"{prefix}-{count + 1}-{uuid.uuid4().hex[:6]}"
    elif check_hand_id(hand).startswith("session:"):
        raise _session_id(hand)
    elif first_rows(ledger, [hand]):
        raise LedgerError(f"hand {hand!r} is already in the ledger: give another --hand, or "
                          "none for a generated id")
    started, forced = build_started(seated_by_id(ledger, session, spec), hand=hand,
                                    session=session)
    batches = carry.link([Batch(hand, [started, *forced], hand, session, None)],
                         carry.previous_in(ledger))
    played = seated_in(ledger, session) if session is not None else set()
    aliases = alias_pairs(ledger) if session is not None else []
    if state is not None and session is not None:
        check_bought_in(ledger, session, state, [s.player for s in started.seats], played)
    else:
        _check_new_seats(ledger, [s.player for s in started.seats])
    ledger.append_many(batches)
    if state is not None:
        shown = _labeller(ledger)
        for seat in started.seats:
            bought = bought_in(state, seat.player, aliases)
            if _cashed_out(state, seat.player, aliases):
                note(f"warning: {shown(seat.player)} cashed out of session {session} and has "
                     f"not bought in since (record it: `handledger buyin {session} "
                     f"{seat.player} CHIPS`)")
            elif bought is None:
                note(f"warning: {shown(seat.player)} has no buy-in in session {session} "
                     f"(record it: `handledger buyin {session} {seat.player} CHIPS`)")
            elif seat.player not in played and seat.stack > bought:
                note(f"warning: {shown(seat.player)} starts hand {hand} with {seat.stack} but "
                     f"his buy-ins in session {session} come to {bought}")
        for line in _stacks_not_followed(ledger, session, started, played, aliases, shown):
            note(line)
    return hand


def _labeller(ledger: Any) -> Callable[[str], str]:
    """``label(player)``: the name the reads show for a stored player (a PokerNow id's label,
    :func:`ledger.model.names.shown_labels`; anyone else as stored), the names read from
    ``ledger`` once, when a warning first names someone (``hand start`` is the hot path)."""
    labels: dict[str, str] | None = None

    def label(player: str) -> str:
        nonlocal labels
        if labels is None:
            from ledger.model.names import shown_labels

            labels = shown_labels(_platform_names(ledger))
        return labels.get(player, player)

    return label


#: How many of a session's latest hands :func:`_stacks_not_followed` looks back through.
_LOOK_BACK = 200


def _stacks_not_followed(ledger: Any, session: str, started: Any, played: set[str],
                         aliases: list[tuple[str, str]], shown: Callable[[str], str] = str
                         ) -> list[str]:
    """Warning lines for seats of ``started`` that do not follow the books: a player who
    played an earlier hand of ``session`` starts with other than the stack left him by the
    latest hand started there that seats him (starting − put in + what the table paid him)
    plus the chips he bought since, as corrected (after a cash-out since, only those bought
    after it; :func:`_bought_since`): a rebuy not recorded, a stack miscounted. Or he is
    seated while that hand is still in play. The audit's stack continuity names the same
    difference once the hand is recorded; this says it while the host can still fix it.
    ``aliases``: ``(player, alias)`` pairs, an entry under either name being his; ``shown``
    names a player as the reads do (a command to type keeps his stored name)."""
    from replay.fold import replay_events

    want = {s.player: s.stack for s in started.seats if s.player in played}
    lines: list[str] = []
    book: list[tuple[int, Any]] | None = None  # the session's entries, read once if needed
    # Latest started first, as the audit's stack continuity orders a session's hands (by the
    # position of their hand_started, ledger/audit/books.py): a correction or a void appended
    # to an older hand later does not make it his latest hand.
    recent = ledger.query(
        "SELECT hand_id, min(position) FROM events WHERE session = $1 AND hand_id IS NOT NULL"
        " AND hand_id <> $2 GROUP BY hand_id ORDER BY min(position) DESC LIMIT $3",
        [session, started.hand, _LOOK_BACK])
    for hand_id, first in recent:
        if not want:
            break
        try:
            replay = replay_events([r.event for r in ledger.read(hand_id)])
        except LedgerError:
            continue
        result = replay.result
        if result.status == "voided":  # its stacks count for nothing: the hand before it
            continue
        for player in [p for p in want if p in result.starting]:
            stack = want.pop(player)
            if result.status == "open":
                lines.append(f"warning: {shown(player)} is seated in hand {hand_id} of session "
                             f"{session}, still in play (end it: `handledger act {hand_id} "
                             "end`, or void it)")
                continue
            paid = replay.paid
            if paid is None:
                continue
            if book is None:
                book = _book_entries(ledger, session)
            names = {player} | {a if n == player else n for n, a in aliases if player in (n, a)}
            since = _bought_since(book, names, first)
            if since is None:  # cashed out since, nothing bought: start_hand warns of it
                continue
            bought, cashed = since
            left = result.starting[player] - result.contributions.get(player, 0) + paid.get(
                player, 0)
            expected = bought if cashed else left + bought
            if stack != expected:
                lines.append(_stack_warning(session, started.hand, player, stack, hand_id,
                                            left, since, shown))
    return lines


def _stack_warning(session: str, hand: str, player: str, stack: int, previous: str,
                   left: int, since: tuple[int, bool], shown: Callable[[str], str] = str
                   ) -> str:
    """The warning of :func:`_stacks_not_followed` for ``player`` starting ``hand`` with
    ``stack`` chips: ``left`` after his ``previous`` hand, ``since`` as
    :func:`_bought_since` gives it; ``shown(player)`` names him (the command to type keeps
    his stored name)."""
    bought, cashed = since
    expected = bought if cashed else left + bought
    if cashed:
        basis = (f"{expected} by the books (he cashed out after hand {previous} and bought "
                 f"{bought} since)")
    elif bought:
        basis = f"{expected} by the books ({left} after hand {previous} and {bought} bought since)"
    else:
        basis = f"{left} after hand {previous} with nothing bought since"
    cause = (f"a rebuy not recorded? (`handledger buyin {session} {player} CHIPS`)"
             if stack > expected else "a stack counted short?")
    return (f"warning: {shown(player)} starts hand {hand} with {stack} chips, {basis}: "
            f"{cause}; the audit's stack continuity will name it")


def _book_entries(ledger: Any, session: str) -> list[tuple[int, Any]]:
    """``session``'s buy-ins and cash-outs as the books read them, ``(ledger position,
    event)`` in ledger order: a retracted entry left out, an amended one as amended last, at
    its own position (as the audit's stack continuity reads them)."""
    rows = ledger.read(f"session:{session}")
    fixes = {r.event.seq: r.event.replacement for r in rows if r.type == "entry_corrected"}
    out = []
    for r in rows:
        if r.type not in ("buy_in", "cash_out"):
            continue
        e = r.event
        if r.seq in fixes:
            if fixes[r.seq] is None:
                continue
            e = ev.parse_event(fixes[r.seq])
        out.append((r.position, e))
    return out


def _bought_since(book: list[tuple[int, Any]], names: set[str], position: int
                  ) -> tuple[int, bool] | None:
    """The chips a player (any of ``names``) bought after ledger ``position`` (where his
    previous hand started: the audit counts an entry made during a hand as bought after it),
    and whether he cashed out since, the chips then those bought after his last cash-out
    (it takes his stack off the table, RULES.md §1.1); None when he cashed out since and
    bought nothing after. ``book``: :func:`_book_entries`."""
    bought, cashed = 0, False
    for pos, e in book:
        if pos <= position or e.player not in names:
            continue
        if e.type == "cash_out":
            bought, cashed = 0, True
        else:
            bought += e.chips
    if cashed and not bought:
        return None
    return bought, cashed


def bought_in(state: Any, player: str, aliases: list[tuple[str, str]]) -> int | None:
    """A player's chips bought in at the session's table (``state.chips_in``), under his name
    or one alias of it (``(player, alias)`` pairs); None when he has none there."""
    if player in state.chips_in:
        return int(state.chips_in[player])
    for name, alias in aliases:
        other = alias if name == player else name if alias == player else None
        if other is not None and other in state.chips_in:
            return int(state.chips_in[other])
    return None


def _cashed_out(state: Any, player: str, aliases: list[tuple[str, str]]) -> bool:
    """Has ``player`` (or an alias of him) cashed out of the session with no buy-in since
    (``state.cashed`` and not ``state.seated``: RULES.md §1.1, a player's chips leave the
    table with his cash-out)?"""
    names = {player} | {a if n == player else n for n, a in aliases if player in (n, a)}
    return bool(names & set(state.cashed)) and not names & state.seated


def _check_new_seats(ledger: Any, players: list[str]) -> None:
    """Refuse a seat of a hand of no session (no books to check it against) for a player new
    to the ledger whose name prints like one it holds, or differs from it only in case
    (:func:`ledger.model.names.check_not_look_alike`): he would be a second player.

    Raises:
        MalformedInput: the first such player, both names spelled out.
    """
    from ledger.store.streams import player_names

    known = player_names(ledger)
    for player in players:
        if player not in known:
            check_not_look_alike(player, known, "player", "a player of the ledger")


def check_bought_in(ledger: Any, session: str, state: Any, players: list[str],
                    played: set[str]) -> None:
    """Refuse a seat of a session's hand for a player who is not in its books (no buy-in,
    cash-out or payment there, under his name or an alias: ``player alias``, and no seat in
    one of its hands): the usual cause is a name mistyped, and a hand once started can only
    be voided, its id spent.

    Raises:
        LedgerError: the first such player, with the closest names of the session's books.
    """
    from replay.sessions import in_books

    bought = set(state.chips_in)
    known = in_books(ledger, session, state)
    for player in players:
        if player in known:
            continue
        names = sorted(bought | played)
        close = likely_meant(player, names)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        same = any(folded(n) == folded(player) for n in close)
        record = ("seat him as the books name him" if same else "record it first with "
                  f"`handledger buyin {session} {player} CHIPS`")
        if same and any(n.casefold() != player.casefold() for n in close):  # print alike
            record += f" ({spelled(player)} is not {' nor '.join(map(spelled, close))})"
        raise LedgerError(
            f"{player} has no buy-in in session {session} (its players: "
            f"{', '.join(names) or 'nobody yet'}): {hint}{record}; nothing was written")


def current(ledger: Any, hand: str) -> tuple[HandState, int]:
    """The hand's state as it stands (corrections applied) and its stream's last seq. Its
    rows are read where a hand recorded live has them, at the ledger's tail
    (:meth:`ledger.store.store.Ledger.read_recent`: the whole stream, wherever it lies).

    Raises:
        NotFound: no such hand; IllegalAction: its events do not replay.
    """
    state, rows = _current_rows(ledger, hand)
    return state, len(rows)


def _current_rows(ledger: Any, hand: str) -> tuple[HandState, list[Any]]:
    """:func:`current`'s state, with the stream's rows."""
    rows = ledger.read_recent(hand)
    if not rows or rows[0].hand_id is None:
        raise NotFound(f"no hand {hand!r} in the ledger", hand=hand)
    return fold_stream([r.event for r in rows])[0], rows


@dataclass(frozen=True)
class Now:
    """A hand as it stands: its state, its pots and returns so far (``engine.settle``), and
    whose turn it is with what is legal, in words (for a hand that is over, ``"hand
    complete"`` or ``"hand voided: every contribution returned"``); ``ended``: how it ended
    (:class:`replay.over.Ended`; None while it is open)."""

    state: HandState
    result: Any
    legal: str
    ended: Any = None  # replay.over.Ended


#: What a hand that is over says in place of whose turn it is, by its status.
_OVER = {"voided": "hand voided: every contribution returned",
         "incomplete": "hand incomplete: the log stops before its end, every contribution "
                       "returned"}


def now(ledger: Any, hand: str) -> Now:
    """:class:`Now` of ``hand``.

    Raises:
        NotFound: no such hand; IllegalAction: its events do not replay.
    """
    from engine.settle import settle

    state, _ = current(ledger, hand)
    result = settle(state)
    if state.status == "open":
        return Now(state, result, legal_now(state))
    from replay.over import ended

    return Now(state, result, _OVER.get(state.status, f"hand {state.status}"),
               ended(state, result))


def legal_now(state: HandState, player: str | None = None) -> str:
    """``"Bob to act: to call 10, raise to 20..150"`` (stud's third street: ``"bring in 1
    (pb), complete to 2..2"``, then ``"to call 1, complete to 2..2"``; a bring-in player
    with no more than the bring-in posts what he has, all-in: ``"bring in 2 (pb), all-in: all he
    has, short of the bring-in 3"``, RULES.md §1.1, §4.1); when nobody is to
    bet, the phase and what it waits for (:func:`replay.nextstep.next_step`: ``"phase deal,
    next: d db CARDS (3 cards)"``). Amounts as the hand's actions take them
    (:func:`replay.typed.as_typed`: ``"to call 2.00, raise to 4.00..200.00"`` in a hand kept
    in cents)."""
    if state.phase != "bet":
        from replay.nextstep import next_step

        return next_step(state)
    who = player or state.to_act
    if who is None:
        return f"phase {state.phase}"

    def a(chips: int) -> str:
        return as_typed(state, chips)

    lim = state.limits(who)
    text = f"{who} to act: " + (f"to call {a(lim.to_call)}" if lim.to_call else "check")
    stakes = state.started.stakes
    bring_in = stakes.bring_in
    third_street = state.game.stud and state.street == 0 and bring_in
    verb = "raise" if state.rnd.current else "bet"
    if third_street and state.rnd.current == 0:
        stack = state.stacks[who]
        if stack <= bring_in:  # he posts what he has, all-in: no completing (RULES.md §1.1)
            short = f": all he has, short of the bring-in {a(bring_in)}" if stack < bring_in \
                else ""
            return f"{who} to act: bring in {a(stack)} (pb), all-in{short}"
        text = f"{who} to act: bring in {a(bring_in)} (pb)"
    if third_street and state.rnd.current < stakes.small_bet:
        verb = "complete"  # to a full small bet, over the bring-in or in its place (§4.1)
    if lim.min_to is not None:
        text += f", {verb} to {a(lim.min_to)}..{a(lim.max_to)}"
    elif lim.reason:
        text += f" (no raise: {lim.reason})"
    return text


def _live_rules(state: HandState, event: Any) -> None:
    """What a hand recorded live may not take, though a history read from a file may: nothing
    after its end (that is a correction), a payout, a rake or a show before the betting is
    over, a payout of no chips, a payout to a player who folded, chips returned beyond the
    player's uncalled bet, a payout beyond what its
    player can win (the pots he is eligible for and his uncalled bet), a payout or a rake
    beyond the chips in the pot, payouts (and a rake, if any) that take another player's
    uncalled bet for the pots or chips the pot carries to the session's next hand
    (:mod:`replay.payout_rules`, :func:`_rake_rules`), a board
    deal of part of a street (:func:`replay.board_rules.whole_street`); and, checked once
    applied, an end that leaves a pot paid to nobody
    (:func:`replay.payout_rules.paid_to_somebody`).

    Raises:
        IllegalAction: naming the rule and what to do instead.
    """
    if state.status != "open":
        raise IllegalAction(f"the hand is {state.status}: a change now is a correction "
                            "(`handledger correct` or `handledger undo`)")
    if event.type == "recorded_payout" and state.phase != "showdown":
        raise IllegalAction(f"a payout comes at the showdown, after the betting "
                            f"(phase {state.phase} now)")
    if event.type == "recorded_rake" and state.phase != "showdown":
        raise IllegalAction(f"the rake is taken from the pot at the showdown, after the "
                            f"betting (phase {state.phase} now)")
    if event.type == "reveal" and state.phase == "draw":
        raise IllegalAction("cards are shown after the draw: its discards change the hand")
    if event.type == "reveal" and not _betting_over(state):
        raise IllegalAction(f"cards are shown once the betting is over (phase {state.phase} "
                            "now)")
    if event.type == "recorded_payout":
        above_zero(event)
        not_folded(state, event)
        over_the_pot(state, event)
        result = _settled(state)
        within_uncalled_bet(state, event, result)
        within_reach(state, event, result)
        rake_within_the_pots(state, state.rake or 0, result, event)
        not_carried(state, event, result)
    if event.type == "recorded_rake":
        _rake_rules(state, event)
    if event.type == "cards_dealt" and event.player is None:
        whole_street(state, event)


def _betting_over(state: HandState) -> bool:
    """Whether a player may show now: at the showdown, or while the rest of the cards are
    dealt with at most one player able to bet (the others all-in). Never during a betting
    round, a draw (the cards shown would change), or a deal between betting rounds."""
    return state.phase == "showdown" or (state.phase == "deal" and len(state.can_bet()) < 2)


def _settled(state: HandState) -> Any:
    """The rules' :class:`engine.settle.HandResult` of ``state`` (loaded here: only a payout,
    a rake or an end settles a live hand)."""
    from engine.settle import settle

    return settle(state)


def _rake_rules(state: HandState, event: ev.RecordedRake) -> None:
    """Refuse a rake (``rake AMOUNT``, FORMATS.md §1: PHH's ``rake``) that is not the one
    rake of the hand, that takes it with the payouts recorded so far above the chips in
    the pot, or that takes more than the pots hold beside what the payouts took from them:
    an uncalled bet is returned, never raked (RULES.md §1.2-1.4,
    :func:`replay.payout_rules.rake_within_the_pots`). One rake a hand, never summed: a line
    given twice is a mistake caught, and a rake to put right is taken back with ``undo`` and
    recorded again.

    Raises:
        IllegalAction: ``"the hand already records a rake of 10 …"``, ``"a rake of 400 is
            more than the pot's 300 chips"`` (amounts as ``act`` takes them,
            :func:`replay.typed.as_typed`: ``"… the pot's 3.00"`` in a hand in cents).
    """
    def a(chips: int) -> str:
        return as_typed(state, chips)

    if state.rake is not None:
        raise IllegalAction(f"the hand already records a rake of {a(state.rake)}: a hand "
                            "records one rake, the whole of what the table took (`handledger "
                            "undo` takes it back to record another)")
    pot = state.pot_total()
    paid = sum(p.amount for p in state.payouts)
    if event.amount + paid > pot:
        chips = "" if state.started.unit.decimals else " chips"
        if paid:
            raise IllegalAction(f"a rake of {a(event.amount)} is more than the "
                                f"{a(pot - paid)}{chips} of the pot's {a(pot)} not yet paid "
                                f"({a(paid)} paid)")
        raise IllegalAction(f"a rake of {a(event.amount)} is more than the pot's "
                            f"{a(pot)}{chips}")
    result = _settled(state)
    rake_within_the_pots(state, event.amount, result)
    rake_not_carried(state, event.amount, result)


def _closed_session(ledger: Any, hand: str, state: HandState, start: int, action: str
                    ) -> None:
    """Refuse an action in ``hand``, still in play, when its session has been closed since it
    started at ``start`` (its first row's position; a session closed with a hand in play,
    README "sessions and the books"): its books were settled up at the close, so ``--closed``
    must say it is meant, as for ``void``. One query over the rows past the hand's start (a
    live hand's session was open when it started, so a closing comes after it).

    Raises:
        IllegalAction: naming the session, the entry that closed it and the hand.
    """
    session = state.started.session
    if session is None:
        return
    # one query over the rows past the hand's start, in place (the hot path of `act`)
    closing = ledger.query(
        "SELECT seq FROM events WHERE position > $1 AND session = $2 AND type ="
        " 'session_closed' ORDER BY position LIMIT 1", [start, session])
    if closing:
        raise IllegalAction(
            f"session {session} is closed (entry {closing[0][0]}) and hand {hand} is still in "
            "play: an action now moves its players' nets in books settled up; nothing "
            "written; --closed records it anyway (then end the hand, or void it with --closed)",
            hand=hand, action=action)


@dataclass(frozen=True)
class Acted:
    """An action appended: its seq, the event, and the hand's state after it; ``names``, the
    ledger's platform players as the reads name them (id → name,
    :func:`ledger.store.streams.platform_names`), read once for the action."""

    seq: int
    event: Any
    state: HandState
    names: dict[str, str] = field(default_factory=dict)


def act(ledger: Any, hand: str, action: str, *, closed: bool = False) -> Acted:
    """Check ``action`` (PHH notation, ``pay PLAYER AMOUNT``, ``returned PLAYER AMOUNT``,
    ``rake AMOUNT`` or ``end``; :func:`replay.whatif.parse_action`, a player known by a
    platform id named as the reads show him too) against the hand as it stands, then append
    it, with the stream's last seq as the expected one (a concurrent
    append is refused).
    ``closed``: go in though the hand's session is closed (:func:`_closed_session`).

    Raises:
        IllegalAction: not legal now (naming what is legal), or the hand is in play in a
            closed session without ``closed``; nothing is written. Its amounts are written
            as the hand's actions take them (:func:`replay.typed.reason_as_typed`: ``"raise
            to 3.00 is below the minimum 4.00"`` in a hand kept in cents).
    """
    from replay.whatif import parse_action

    state, rows = _current_rows(ledger, hand)
    last = len(rows)
    if not closed and state.status == "open":
        _closed_session(ledger, hand, state, rows[0].position, action)
    names = _platform_names(ledger)
    try:
        event = parse_action(state, action, names)
        _live_rules(state, event)
        state.apply(event)
        if event.type == "hand_ended":
            paid_to_somebody(state, [r.event for r in rows])
    except IllegalAction as exc:  # the engine's chips as the host types them, then what now
        now = f"; now: {legal_now(state)}" if state.status == "open" else ""
        said = reason_as_typed(exc, state.started.unit.decimals)
        raise IllegalAction(f"{said}{now}", hand=hand, action=action) from None
    ledger.append(hand, [event], hand_id=hand, expected_seq=last)
    return Acted(last + 1, event, state, names)


def _platform_names(ledger: Any) -> dict[str, str]:
    """:func:`ledger.store.streams.platform_names` (imported here: ``act`` is the hot path)."""
    from ledger.store.streams import platform_names

    return platform_names(ledger)
