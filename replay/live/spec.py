"""What ``hand start`` is given, checked and made into the hand's first events: the game, the
seats (stored in PHH order, p1 the first seat left of the button, the button last; FORMATS.md
§1, so that a hand recorded live and the same hand imported from PHH give the same events),
the stakes, antes, bet sizes and rule options (declaration, split, reopening: RULES.md §5;
:class:`LiveHand`), to the ``hand_started`` event and the forced bets
(:func:`build_started`), without a ledger.

Raises:
    MalformedInput: an option the game cannot take, naming it; IllegalAction: stakes the
        game rejects.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_args

from pydantic import ValidationError

from engine.state import HandState
from ledger.model import events as ev
from ledger.model.errors import MalformedInput
from ledger.model.money import within_bound
from ledger.model.names import check_name_length, check_seat_name


@dataclass(frozen=True)
class LiveHand:
    """What ``hand start`` needs beyond the seats: the game code (PHH style, engine/games.py),
    blinds and straddles ``stakes`` (``"1/2"``, ``"1/2/4"``), an ante per player, or one ante
    for the whole table posted by the big blind (``bb_ante``) or the button (``button_ante``:
    dead money, RULES.md §4.3), bet sizes (chips), the high-low declaration options
    (``"method=in_turn,…"``), the cards-speak split options (``"odd_chip_tie_order=
    card_by_suit,…"``) and the reopen rule (``"full_bet"`` | ``"half_bet"``), as a PHH hand's
    ``_declare``, ``_split`` and ``_reopen_rule`` give them (FORMATS.md §1, RULES.md §5)."""

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
    split: str | None = None
    reopen: str | None = None

    def amounts(self) -> tuple[tuple[str, int | None], ...]:
        """Each amount option as ``(option, chips)``, the three kinds of ante first."""
        return (("--antes", self.antes), ("--bb-ante", self.bb_ante),
                ("--button-ante", self.button_ante), ("--min-bet", self.min_bet),
                ("--small-bet", self.small_bet), ("--big-bet", self.big_bet),
                ("--bring-in", self.bring_in))


def parse_seats(text: str) -> list[tuple[str, int]]:
    """``"Ann:200,Bob:150"`` → ``[("Ann", 200), ("Bob", 150)]``.

    A name is taken as typed (README: a name with leading or trailing whitespace is
    refused, never stripped), so the items are split by a comma alone.

    Raises:
        MalformedInput: an item that is not NAME:STACK, a name with leading or trailing
            whitespace (``"Ann :200"``, ``"Ann:200, Bob:150"``), a stack that is not a whole
            number of chips above 0 (at most ``MAX_CHIPS``), a name holding a control
            character or one the action notation reads as something else
            (:func:`ledger.model.names.check_seat_name`), a player seated twice, or fewer
            than two players.
    """
    seats: list[tuple[str, int]] = []
    for item in text.split(","):
        name, sep, stack = item.rpartition(":")
        if not sep or not name.strip() or not stack.strip().lstrip("-").isdigit():
            raise MalformedInput(f"--seats: {item.strip()!r} is not NAME:STACK")
        check_name_length(name, where="--seats")  # before a line prints it
        if name != name.strip():  # a name is taken as typed, never stripped (README)
            raise MalformedInput(
                f"--seats: player name {name!r} has leading or trailing whitespace: names are "
                f"kept as typed, never stripped (write {name.strip()!r}; the items are "
                "NAME:STACK split by a comma alone, \"Ann:200,Bob:150\")")
        if int(stack) <= 0:  # table stakes: he plays only the chips he has (RULES.md §1.1)
            raise MalformedInput(f"--seats: {name}'s stack {int(stack)} is not a "
                                 "number of chips above 0 (a player with no chips is not dealt "
                                 "in: buy in first)")
        within_bound(int(stack), f"--seats: {name}'s stack")
        check_seat_name(name)
        if any(n == name for n, _ in seats):
            raise MalformedInput(f"--seats: {name} is seated twice")
        seats.append((name, int(stack)))
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
    """``"method=in_turn,swing_ties=allowed"`` → the declaration options (RULES.md §3, §5);
    the keys not given take their defaults (``"method=simultaneous"`` alone: all of them).

    Raises:
        MalformedInput: an empty list (``--declare-options ""``: no declare hand is started
            on no option), an item that is not KEY=VALUE, a key given twice
            (:func:`key_values`), a key that is no option, naming the keys, or a value the
            key does not take, naming those it takes (:func:`option_list`).
    """
    if text is None:
        return None
    values = option_list(text, "--declare-options", DECLARE_VALUES, noun="a declare option",
                         aside='; "method=simultaneous" alone for the defaults',
                         without="for a cards-speak hand")
    return _options(ev.DeclareOptions, values, "--declare-options")


def qualifier_unsaid_live(spec: LiveHand) -> str | None:
    """Why the declare hand ``spec`` starts (checked already: :func:`build_started`) plays
    no low qualifier though its game's code names 8-or-better, or None
    (:func:`ledger.model.events.qualifier_unsaid`; RULES.md §3.11, §5)."""
    if spec.declare is None:
        return None
    from engine.games import game

    return ev.qualifier_unsaid(key_values(spec.declare, "--declare-options"), game=spec.game,
                               hilo=game(spec.game).hilo, declare="--declare-options",
                               eight="give low_qualifier=8_or_better in --declare-options")


def parse_split(text: str | None, tie_order: str, *, game: str, hilo: bool,
                declare: bool) -> ev.SplitOptions:
    """``"odd_chip_tie_order=card_by_suit,odd_chip_between_halves=low_if_low_quartered"`` →
    the cards-speak split options (RULES.md §2, §5; FORMATS.md ``_split``), as a PHH hand's
    ``_split`` gives them: the keys not given take their defaults, ``odd_chip_tie_order`` the
    game's ``tie_order`` (stud: ``card_by_suit``). ``smallest_chip`` is no key: a hand typed
    live is counted in its own chips, one the smallest (RULES.md §2.1); only a hand converted
    to a smaller chip records another. ``game``, ``hilo``: the game's code and whether it
    splits high and low as the cards speak; ``declare``: the hand is a declare hand. A key
    of the low half (:data:`ledger.model.events.LOW_HALF_KEYS`) that no pot of the hand
    would read is refused (:func:`ledger.model.events.unread_low_half`, the rule a PHH
    import follows too).

    Raises:
        MalformedInput: as :func:`parse_declare` (an empty list, an item that is not
            KEY=VALUE, a key given twice, a key that is no option, naming the keys, a value
            the key does not take, naming those it takes); a key of the low half in a hand
            of no cards-speak low, saying why.
    """
    if text is None:
        return ev.SplitOptions(odd_chip_tie_order=tie_order)  # type: ignore[arg-type]
    values = option_list(text, "--split-options", SPLIT_VALUES, noun="a split option",
                         aside="", without="for the game's defaults (RULES.md §5)")
    unread = ev.unread_low_half(values, game=game, hilo=hilo,
                                declare="--declare-options" if declare else None)
    if unread is not None:
        raise MalformedInput(f"--split-options: {unread}")
    return _options(ev.SplitOptions, {"odd_chip_tie_order": tie_order} | values,
                    "--split-options")


def parse_reopen(text: str | None, default: str) -> str:
    """``"full_bet"`` or ``"half_bet"``: whether a short all-in reopens the betting
    (RULES.md §1.7, §5; FORMATS.md ``_reopen_rule``); None → the game's ``default``
    (``full_bet`` big-bet, ``half_bet`` fixed limit).

    Raises:
        MalformedInput: ``"--reopen-rule takes full_bet or half_bet, not 'x'"``.
    """
    if text is None:
        return default
    value = text.strip()
    one_of("--reopen-rule", value, REOPEN_VALUES)
    return value


def option_list(text: str, option: str, keys: dict[str, tuple[str, ...]], *, noun: str,
                aside: str, without: str) -> dict[str, object]:
    """A ``"KEY=VALUE,…"`` list of rule options (``option`` names it in a refusal) →
    ``{key: value}``, each key one of ``keys`` and each value one its key takes (``true`` /
    ``false`` made a bool). ``noun`` names one option in a refusal (``"a declare option"``),
    ``aside`` follows the keys and ``without`` says what leaving the list out gives, in the
    refusal of an empty list.

    Raises:
        MalformedInput: an empty list, naming the keys; an item that is not KEY=VALUE, a key
            given twice (:func:`key_values`); a key not in ``keys``, naming them (RULES.md
            §5); a value its key does not take, naming those it takes (:func:`one_of`).
    """
    given = key_values(text, option)
    names = ", ".join(keys)
    if not given:
        raise MalformedInput(f"{option} {text!r} gives no option: give KEY=VALUE items "
                             f"({names}{aside}), or leave it out {without}")
    values: dict[str, object] = {}
    for key, value in given.items():
        if key not in keys:
            raise MalformedInput(f"{option}: {key!r} is not {noun}: the keys are {names} "
                                 "(RULES.md §5)")
        one_of(f"{option}: {key}", value, keys[key])
        values[key] = {"true": True, "false": False}.get(value, value) \
            if keys[key] == _BOOL else value
    return values


def one_of(what: str, value: str, takes: tuple[str, ...]) -> None:
    """Refuse ``value`` unless it is one of ``takes`` (``what`` names the option).

    Raises:
        MalformedInput: ``"--declare-options: method takes simultaneous or in_turn, not
            'bogus'"``.
    """
    if value not in takes:
        raise MalformedInput(f"{what} takes {', '.join(takes[:-1])} or {takes[-1]}, "
                             f"not {value!r}")


def _options(model: Any, values: dict[str, object], option: str) -> Any:
    """``model(**values)``; every key and value is checked before, so a validation error is
    not expected, and one is said in a line naming ``option``.

    Raises:
        MalformedInput: ``"--split-options: low_method: …"``.
    """
    try:
        return model(**values)
    except ValidationError as exc:  # every key and value checked before: not expected
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise MalformedInput(f"{option}: {where}: {first.get('msg')}") from None


_BOOL = ("true", "false")


def _values_of(annotation: Any) -> tuple[str, ...]:
    """The values a rule option of type ``annotation`` takes, as typed: a ``Literal``'s,
    an enum's, ``true``/``false`` of a bool."""
    if annotation is bool:
        return _BOOL
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return tuple(m.value for m in annotation)
    return tuple(str(v) for v in get_args(annotation))


#: Each ``--declare-options`` key (:class:`ledger.model.events.DeclareOptions`, RULES.md §5)
#: and the values it takes, in the model's order.
DECLARE_VALUES: dict[str, tuple[str, ...]] = {
    name: _values_of(field.annotation)
    for name, field in ev.DeclareOptions.model_fields.items()}

#: Each ``--split-options`` key (:class:`ledger.model.events.SplitOptions` but
#: ``smallest_chip``, a conversion's; RULES.md §2, §5) and the values it takes.
SPLIT_VALUES: dict[str, tuple[str, ...]] = {
    name: _values_of(field.annotation)
    for name, field in ev.SplitOptions.model_fields.items() if name != "smallest_chip"}

#: The ``--reopen-rule`` values (``RuleOptions.reopen_rule``, RULES.md §1.7).
REOPEN_VALUES: tuple[str, ...] = _values_of(
    get_args(ev.RuleOptions.model_fields["reopen_rule"].annotation)[0])


def build_started(spec: LiveHand, *, hand: str, session: str | None
                  ) -> tuple[ev.HandStarted, list[ev.ForcedBet]]:
    """The ``hand_started`` event and the forced bets of a live hand.

    Raises:
        MalformedInput: bad seats, stakes or options (``no_eligible_winner=carry_over`` or
            ``odd_chip_tie_order=carry_to_next_hand`` in a hand of no session: no next hand
            takes the chips; a ``--min-bet`` below the largest blind or straddle);
            IllegalAction: stakes the game rejects.
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
    min_bet = _min_bet(spec.min_bet, blinds)
    _check_structure(g, spec, min_bet, blinds)
    # the game's own odd-chip order (RULES.md §2.2, §5): stud has no button, so by suit
    split = parse_split(spec.split, g.tie_order, game=g.code, hilo=g.hilo,
                        declare=spec.declare is not None)
    options = ev.RuleOptions(reopen_rule=parse_reopen(spec.reopen, g.default_reopen_rule),
                             split=split, declare=parse_declare(spec.declare))
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


def _min_bet(given: int | None, blinds: list[int]) -> int:
    """The minimum bet of a big-bet hand: ``given`` (``--min-bet``), else the big blind, the
    second of ``blinds`` (0 with none; the engine bets by a straddle above it, RULES.md §4.4).

    Raises:
        MalformedInput: ``given`` below the largest blind or straddle (RULES.md §4.4), which
            the engine would bet by in its place.
    """
    largest = max(blinds, default=0)
    if given is None:
        positive = [b for b in blinds if b > 0]
        return positive[min(1, len(positive) - 1)] if positive else 0
    if given < largest:
        what = "big blind" if len([b for b in blinds if b]) == 2 else "straddle"
        raise MalformedInput(f"--min-bet {given} is below the {what} {largest}: the minimum "
                             "bet is never below the largest blind or straddle (RULES.md "
                             f"§4.4); leave --min-bet out for {largest}")
    return given


def _carry_needs_session(options: ev.RuleOptions, session: str | None) -> None:
    """Refuse ``no_eligible_winner=carry_over`` or ``odd_chip_tie_order=carry_to_next_hand``
    in a hand of no session: the pot nobody is left to win, or the odd chip, goes into the
    session's next hand (RULES.md §2.2, §3.8, §7.1), and it has none.

    Raises:
        MalformedInput: naming the option and what to give instead.
    """
    if session is not None:
        return
    declare = options.declare
    if declare is not None and declare.no_eligible_winner == "carry_over":
        raise MalformedInput(
            "--declare-options no_eligible_winner=carry_over carries a pot nobody is left to "
            "win into the session's next hand (RULES.md §3.8, §7.1), and a hand of no session "
            "has none: give --session S, or no_eligible_winner=cards_speak (the default)")
    if options.split.odd_chip_tie_order == "carry_to_next_hand":
        raise MalformedInput(
            "--split-options odd_chip_tie_order=carry_to_next_hand leaves an odd chip among "
            "tied hands for the session's next hand (RULES.md §2.2, §7.1), and a hand of no "
            "session has none: give --session S, or odd_chip_tie_order=left_of_button or "
            "card_by_suit")


def _check_structure(g: Any, spec: LiveHand, min_bet: int, blinds: list[int]) -> None:
    """Refuse amounts the game ``g`` cannot have: a negative one, a bet size or bring-in of a
    structure it does not use (they would be silently ignored), a flop or draw game with
    neither ``blinds`` nor an ante (no forced bet: it posts blinds, RULES.md §4.2, or antes
    alone, §4.3), a big-bet game without a minimum bet, a fixed-limit game without both bet
    sizes, a stud game without a bring-in, a big bet below the small bet, a bring-in not below
    the small bet (no-limit and pot-limit stud: the minimum bet; it is less than a full bet,
    which completing it makes: RULES.md §4.1).

    Raises:
        MalformedInput: naming the option and the amount.
    """
    for option, amount in spec.amounts():
        if amount is not None and amount < 0:
            raise MalformedInput(f"{option} {amount}: an amount is a number of chips, 0 or more")
    if not g.stud and not any(blinds) and not any(a for _, a in spec.amounts()[:3]):
        raise MalformedInput(
            f"{g.code} with no --stakes and no ante posts no forced bet: a flop or draw game "
            "posts a small and a big blind (RULES.md §4.2): give them, like --stakes 1/2 "
            "(small/big), or for a game of antes alone an ante (--antes N) and --min-bet")
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
        raise MalformedInput(
            f"{g.code} needs a minimum bet: give --min-bet N (the full bet that completes the "
            "bring-in, RULES.md §4.1)" if g.stud else
            f"{g.code} needs a minimum bet: give --stakes (the big blind sets it) or --min-bet")
    if fixed and not (spec.small_bet and spec.big_bet):
        raise MalformedInput(f"{g.code} is fixed limit: give --small-bet and --big-bet (the "
                             "bets of the early and the late streets)")
    if fixed and spec.big_bet < spec.small_bet:
        raise MalformedInput(f"--big-bet {spec.big_bet} is below --small-bet {spec.small_bet}")
    if g.stud and not spec.bring_in:
        card = "highest" if g.low_bring_in else "lowest"
        raise MalformedInput(f"{g.code} is stud: give --bring-in N, 1 chip or more (on third "
                             f"street the {card} upcard brings it in with a forced bet, "
                             "RULES.md §4.1)")
    if g.stud and fixed and spec.small_bet and spec.bring_in >= spec.small_bet:
        raise MalformedInput(f"--bring-in {spec.bring_in} is not below the small bet "
                             f"{spec.small_bet}: the bring-in is less than a full bet, which "
                             "completing it makes (RULES.md §4.1); give a smaller --bring-in")
    if g.stud and not fixed and spec.bring_in >= min_bet >= 1:
        raise MalformedInput(f"--bring-in {spec.bring_in} is not below the minimum bet "
                             f"{min_bet}: the bring-in is less than a full bet, which "
                             "completing it makes (RULES.md §4.1); give a smaller --bring-in")


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
        raise MalformedInput(f"--stakes {stakes!r} gives {len(blinds)} blinds and straddles "
                             f"for {players} players: at most one each (small blind, big "
                             "blind, then straddles)")
    if any(b <= 0 for b in blinds) or blinds != sorted(blinds):
        raise MalformedInput(f"--stakes {stakes!r}: blinds are positive and go up in seat "
                             "order (small blind, big blind, straddles), like 1/2 or 1/2/4")
    if len(blinds) == 1:
        raise MalformedInput(
            f"--stakes {stakes!r} is one blind, no big blind: {code} posts a small and a big "
            "blind (RULES.md §4.2): give both, like --stakes 1/2 (small/big, a straddle third: "
            "1/2/4), or no --stakes for a game of antes alone (--antes, --min-bet)")
    return blinds + [0] * (players - len(blinds))
