"""The ledger's event types: frozen pydantic models in one discriminated union.

Every event has a stable ``type`` string and a ``schema_version``. Chips are integers in the
smallest unit of the game (a hand's ``unit`` says what one chip is worth in money), at most
:data:`MAX_CHIPS` (:mod:`ledger.model.bounds`). Players are
named by the name they have at the table in that hand; seat order is the order of
``HandStarted.seats`` (PHH's ``p1 … pN``: in button games p1 sits left of the button and pN is
the button; in stud games it is plain seat order).

Hand events (one stream per hand, ``seq`` 1, 2, … inside it):
``hand_started``, ``forced_bet``, ``cards_dealt``, ``discard``, ``check``, ``call``,
``bet_raise``, ``fold``, ``all_in``, ``declaration``, ``reveal``, ``muck``, ``run_count``,
``recorded_payout``, ``recorded_rake``, ``carry_over``, ``hand_ended``, ``correction``,
``hand_voided``.

Session events (one stream per session): ``session_opened``, ``buy_in``, ``cash_out``,
``payment``, ``session_closed``, ``player_alias``, ``player_unaliased`` (an alias ended),
``seat_change``, ``platform_ledger``, ``entry_corrected`` (a book entry retracted or amended),
``session_changed`` (its chip value).

Raises nothing itself; pydantic's ``ValidationError`` is translated into
:class:`ledger.model.errors.MalformedEvent` by :func:`parse_event`.
"""

# No ``from __future__ import annotations`` here: pydantic would then evaluate every field's
# annotation from its text when each model class is made (about a sixth of this module's
# import, which every live action pays); a forward reference is quoted instead.
import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from ledger.model.bounds import MAX_CHIPS
from ledger.model.money import currency_code, minor_units  # here: money() runs per hand

SCHEMA_VERSION = 1

#: Event versions this code reads (an unknown, newer version is refused, never guessed at).
Version = Annotated[int, Field(ge=1, le=SCHEMA_VERSION, strict=True)]

#: A signed amount (a blind written negative, a net result) bounded the same way both sides.
SignedChips = Annotated[int, Field(ge=-MAX_CHIPS, le=MAX_CHIPS, strict=True)]

#: How deep the free-form parts of an event (a hand's ``source``, a correction's events) may
#: nest JSON arrays and objects: far more than any reader writes (about 5), far less than
#: what would exhaust a JSON parser's recursion.
MAX_DEPTH = 32


def _shallow(value: Any) -> Any:
    """``value`` (parsed JSON) when it nests at most :data:`MAX_DEPTH` levels deep.

    Raises:
        ValueError: it nests deeper.
    """
    if isinstance(value, _CONTAINERS):
        _within(value, 1)
    return value


#: ``dict | list`` made once: written in the loop, each ``isinstance`` would build the union.
_CONTAINERS = (dict, list)


def _within(item: dict[str, Any] | list[Any], depth: int) -> None:
    """Raise ValueError when a container inside ``item`` (itself ``depth`` levels deep) lies
    deeper than :data:`MAX_DEPTH`; a flat object (the usual ``source``) costs one loop."""
    for v in item.values() if isinstance(item, dict) else item:
        if isinstance(v, _CONTAINERS):
            if depth >= MAX_DEPTH:
                raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
            _within(v, depth + 1)


#: A free-form JSON object of an event, nested at most :data:`MAX_DEPTH` levels deep.
Nested = Annotated[dict[str, Any], AfterValidator(_shallow)]

CARD_RE = re.compile(r"^(?:[2-9TJQKA][cdhs]|\?\?)$")
#: One card of an event, checked by pydantic itself (no Python call per card): the same
#: pattern as :data:`CARD_RE`, whose ``$`` also lets one trailing newline through.
#: :func:`parse_event` words a mismatch as before ("'Xx' is not a card", at the list).
Card = Annotated[str, Field(pattern=r"^(?:[2-9TJQKA][cdhs]|\?\?)\n?$")]
_DECLARE_DIRECTIONS = ("high", "low", "swing")


def split_cards(text: str) -> list[str]:
    """Split a PHH card string (``"AsKd"``, ``"????"``) into two-character cards.

    >>> split_cards("AsKd??")
    ['As', 'Kd', '??']

    Raises:
        ValueError: odd length or a token that is not a card (rank ``2-9TJQKA``, suit ``cdhs``)
            or ``??`` (an unknown card).
    """
    if len(text) % 2:
        raise ValueError(f"card string {text!r} has an odd length")
    cards = [text[i : i + 2] for i in range(0, len(text), 2)]
    for card in cards:
        if not CARD_RE.match(card):
            raise ValueError(f"{card!r} is not a card")
    return cards


class _Model(BaseModel):
    # defer_build: a model's validator is built when it first validates, not at import (a
    # process that meets a few event types, a live action, builds only theirs)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# --------------------------------------------------------------------------------------------
# Rule options (RULES.md §5), recorded in every hand so an old hand never depends on today's
# defaults.


class LowMethod(StrEnum):
    """How low hands rank (RULES.md §2.5)."""

    A5 = "A-5"
    DEUCE_SEVEN = "2-7"
    A6 = "A-6"
    STANDARD = "standard_ranks"


def _one_chip(value: int) -> bool:
    return value == 1


class SplitOptions(_Model):
    """Cards-speak split options (RULES.md §2, §5; FORMATS.md ``_split``)."""

    odd_chip_between_halves: Literal["high", "low_if_low_quartered"] = "high"
    odd_chip_tie_order: Literal["left_of_button", "card_by_suit", "carry_to_next_hand"] = Field(
        "left_of_button",
        description="Who gets an odd chip between tied hands (RULES.md §5). Left out of a "
        "hand_started, a stud game's is card_by_suit and every other game's "
        "left_of_button.")
    low_method: LowMethod = LowMethod.A5
    low_qualifier: Literal["8_or_better", "none"] = "8_or_better"
    smallest_chip: int = Field(
        1, ge=1, le=MAX_CHIPS, strict=True, exclude_if=_one_chip,
        description="The smallest chip in play, in the hand's chips (RULES.md §2.1): a pot is "
        "divided in whole multiples of it, each odd chip this many chips. Not 1 only in a "
        "hand converted to a smaller chip than its own (a hand in chips of 0.25 USD imported "
        "into a session of 0.05 USD chips: 5); left out of the event's JSON when 1.")


#: The :class:`SplitOptions` keys only a cards-speak high-low pot reads (RULES.md §2.3 –
#: §2.5): a high or lowball game has no low half, and a declare hand takes its own from
#: :class:`DeclareOptions` (RULES.md §3, §5).
LOW_HALF_KEYS = ("odd_chip_between_halves", "low_method", "low_qualifier")


def unread_low_half(keys: Iterable[str], *, game: str, hilo: bool, declare: str | None
                    ) -> str | None:
    """Why the first of ``keys``, split options a hand gives, is one no pot of the hand
    reads (``"low_qualifier splits a cards-speak high-low pot (RULES.md §2), and NT has no
    low half: leave it out"``), or None when it reads them all: the one rule of which split
    options a game takes, for ``hand start`` and a PHH import alike (RULES.md §2, §3, §5;
    FORMATS.md ``_split``). ``game``: the game's code; ``hilo``: the game splits high and low
    as the cards speak (:attr:`engine.games.Game.hilo`); ``declare``: where a declare hand
    gives its options (``"--declare-options"``, ``"_declare"``), None in a cards-speak hand.
    """
    unread = [key for key in keys if key in LOW_HALF_KEYS]
    if not unread or (hilo and declare is None):
        return None
    why = (f"a declare hand splits by the declarations, under its own low options: give it "
           f"in {declare}" if declare is not None else f"{game} has no low half: leave it out")
    return f"{unread[0]} splits a cards-speak high-low pot (RULES.md §2), and {why}"


def qualifier_unsaid(keys: Iterable[str], *, game: str, hilo: bool, declare: str,
                     eight: str) -> str | None:
    """Why a declare hand of ``game`` may not play the low its code names, or None: a game
    whose code names the 8-or-better qualifier (``hilo``: :attr:`engine.games.Game.hilo`,
    ``F7S/8``) dealt as a declare hand whose options (``keys``, given in ``declare``:
    ``"--declare-options"``, ``"_declare"``) do not give ``low_qualifier`` takes the declare
    default, none (RULES.md §3.11, §5; FORMATS.md ``_declare``), for ``hand start``'s note and
    a PHH import's warning alike; ``eight`` says how to give 8-or-better there."""
    if not hilo or "low_qualifier" in keys:
        return None
    return (f"{game} names the 8-or-better qualifier, but {declare} gives no low_qualifier, "
            "so this declare hand's low needs no qualifying low (low_qualifier = none, the "
            f"declare default: RULES.md §3.11, §5); {eight} for an 8-or-better low")


class DeclareOptions(_Model):
    """High-low declaration options (RULES.md §3, §5; FORMATS.md ``_declare``)."""

    method: Literal["simultaneous", "in_turn"] = "simultaneous"
    bet_after_declare: bool = False
    swing_ties: Literal["not_allowed", "allowed", "keep_clean_half"] = "not_allowed"
    failed_swing_share_goes_to: Literal[
        "next_best_in_that_direction", "player_who_beat_swing"
    ] = "next_best_in_that_direction"
    no_eligible_winner: Literal["cards_speak", "carry_over"] = "cards_speak"
    swing_failure_scope: Literal["per_pot", "whole_hand"] = "per_pot"
    low_method: LowMethod = LowMethod.A5
    low_qualifier: Literal["8_or_better", "none"] = "none"
    odd_chip_between_halves: Literal["high", "low_if_low_quartered"] = "high"


class RuleOptions(_Model):
    """All options in force for one hand.

    ``reopen_rule`` (RULES.md §1.7): ``full_bet`` for no-limit and pot-limit, ``half_bet`` for
    fixed-limit when not given. ``declare`` is ``None`` for a cards-speak hand.
    """

    reopen_rule: Literal["full_bet", "half_bet"] | None = None
    # the defaults are made without validating (``model_construct``: the same frozen, equal
    # instance ``SplitOptions()`` gives): calling a model here would build its validator at
    # import, and ``defer_build`` leaves that to the first event that needs it
    split: SplitOptions = SplitOptions.model_construct()
    declare: DeclareOptions | None = None


class Unit(_Model):
    """What the hand's amounts mean.

    ``decimals``: the source wrote amounts with this many decimal places; a written amount
    ``x`` is ``x × 10**decimals`` chips (HandHQ dollars with cents: 2, so 1 chip = 1 cent; a
    home game counting chips: 0). Amounts typed in action notation (``cbr 1.50``) use it too.
    ``minor_per_chip``: what one chip is worth in minor units of ``currency`` (a 0.25 USD chip:
    25, with ``decimals`` 0 — the session's ``decimals`` say how the currency is written). A
    chip of one minor unit is ``minor_per_chip`` 1 with the currency's decimals (a cent: 2, as
    a hand converted into a session of 0.01 USD chips stores it,
    :func:`replay.ingest.units.chip_unit`); with ``decimals`` 0 it is a whole dollar.
    """

    currency: str | None = None
    minor_per_chip: int = Field(1, ge=1, le=MAX_CHIPS, strict=True)
    decimals: int = Field(0, ge=0, le=6, strict=True)

    def money(self) -> tuple[int, "str | None", int]:
        """``(minor units a chip is worth, currency, decimals of those minor units)``: what the
        hand's chips are worth where no opened session says (README "Chips of different
        values"), in the minor unit ISO 4217 gives the currency
        (:func:`ledger.model.money.minor_units`), so that hands of one currency add up in
        money whatever their files wrote: a chip worth ``minor_per_chip`` other than 1 (a
        session's chip, as a PHH ``_chip`` table or an export gives it) is that many minor
        units (a 0.25 USD chip is ``(25, "USD", 2)``, never 25 USD); otherwise a chip is one
        written unit, ``10 ** -decimals`` of the currency (HandHQ's cents ``(1, "USD", 2)``,
        a PHH hand in whole dollars ``(100, "USD", 2)``, in dimes ``(10, "USD", 2)``). Plain
        chips are ``(minor_per_chip, None, decimals)`` (``(1, None, 0)``). The currency is
        its ISO 4217 code as a file or a ledger stored it (``$``: USD, ``usd``: USD,
        :func:`ledger.model.money.currency_code`). A unit ISO 4217 cannot say, which an
        import refuses now (:func:`ledger.model.money.unit_problem`) but a ledger may hold
        from before (a code the list lacks, written amounts finer than the minor unit), is
        ``(minor_per_chip, code, decimals)``, its written unit, or for a larger chip of a code
        the list lacks ``(minor_per_chip, code, 2)``."""
        if self.currency is None:
            return self.minor_per_chip, None, self.decimals
        code = currency_code(self.currency)
        iso = minor_units(code)
        if self.minor_per_chip != 1:
            return self.minor_per_chip, code, 2 if iso is None else iso
        if iso is None or self.decimals > iso:
            return 1, code, self.decimals
        return 10 ** (iso - self.decimals), code, iso


class Seat(_Model):
    """One player at the table: name (unique in the hand), starting stack in chips."""

    player: str = Field(min_length=1)
    stack: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    seat: int | None = Field(None, ge=1, strict=True)


class Stakes(_Model):
    """Forced-bet and bet-size structure, in chips.

    ``betting`` is ``no_limit``, ``pot_limit`` or ``fixed_limit``. ``min_bet`` applies to big-bet
    games, ``small_bet``/``big_bet`` to fixed limit. Antes and blinds themselves are recorded as
    ``forced_bet`` events; ``antes``/``blinds_or_straddles``/``bring_in`` here are the posted
    structure, per seat in seat order.
    """

    betting: Literal["no_limit", "pot_limit", "fixed_limit"]
    antes: list[SignedChips] = []
    blinds_or_straddles: list[SignedChips] = []
    bring_in: int = Field(0, ge=0, le=MAX_CHIPS, strict=True)
    min_bet: int = Field(0, ge=0, le=MAX_CHIPS, strict=True)
    small_bet: int = Field(0, ge=0, le=MAX_CHIPS, strict=True)
    big_bet: int = Field(0, ge=0, le=MAX_CHIPS, strict=True)


# --------------------------------------------------------------------------------------------
# Hand events


#: The ``source`` key of a hand that ``hand again`` recorded: the id of the voided hand whose
#: events it holds (docs/LIVE.md "Sessions"). A hand recorded live has no other ``source`` key.
AGAIN_OF = "again_of"


def recorded_live(source: Mapping[str, Any]) -> bool:
    """Whether a ``hand_started``'s ``source`` is a hand recorded live (``hand start``: empty;
    ``hand again``: :data:`AGAIN_OF` alone), not one read from a file."""
    return not source.keys() - {AGAIN_OF}


class HandStarted(_Model):
    """A hand begins: game (PHH-style variant code), stakes, seats, button and rule options."""

    type: Literal["hand_started"] = "hand_started"
    schema_version: Version = SCHEMA_VERSION
    hand: str = Field(min_length=1)
    game: str = Field(min_length=1)
    stakes: Stakes
    seats: list[Seat] = Field(min_length=2)
    button: str | None = None
    options: RuleOptions = RuleOptions.model_construct()  # RuleOptions(), not validated
    unit: Unit = Unit.model_construct()  # Unit(), not validated (as RuleOptions.split)
    session: str | None = None
    source: Nested = {}

    @field_validator("seats")
    @classmethod
    def _unique_players(cls, seats: list[Seat]) -> list[Seat]:
        if len({s.player for s in seats}) != len(seats):
            names = [s.player for s in seats]
            raise ValueError(f"player names are not unique: {names}")
        return seats


ForcedKind = Literal[
    "ante", "small_blind", "big_blind", "straddle", "bring_in", "dead_blind", "posted_blind"
]


class ForcedBet(_Model):
    """A forced bet. ``dead_blind`` and ``ante`` are dead money (RULES.md §4.3); the others are
    live. ``posted_blind`` is a live blind posted out of position (it does not move the first
    player to act). ``amount`` in chips; less than the full amount only when it is all-in."""

    type: Literal["forced_bet"] = "forced_bet"
    schema_version: Version = SCHEMA_VERSION
    player: str
    kind: ForcedKind
    amount: int = Field(ge=0, le=MAX_CHIPS, strict=True)


class CardsDealt(_Model):
    """Cards dealt: to a player (``player`` set, hole cards) or to the board (``player`` None).

    ``cards`` are two-character cards or ``??`` for unknown. ``face_up`` has one flag per card
    (all False for hole cards in flop games). ``run`` numbers the board in run-it-twice (1-based).
    """

    type: Literal["cards_dealt"] = "cards_dealt"
    schema_version: Version = SCHEMA_VERSION
    player: str | None = None
    cards: list[Card] = Field(min_length=1)
    face_up: list[bool] = []
    run: int = Field(1, ge=1, strict=True)


class Discard(_Model):
    """A draw-game discard; no cards means standing pat. Unknown discards are ``??``."""

    type: Literal["discard"] = "discard"
    schema_version: Version = SCHEMA_VERSION
    player: str
    cards: list[Card] = []


class Check(_Model):
    type: Literal["check"] = "check"
    schema_version: Version = SCHEMA_VERSION
    player: str


class Call(_Model):
    """A call of the current bet (the engine works out the amount; not all-in)."""

    type: Literal["call"] = "call"
    schema_version: Version = SCHEMA_VERSION
    player: str


class BetRaise(_Model):
    """A bet, raise or completion TO ``to`` chips: the player's total bet on this street."""

    type: Literal["bet_raise"] = "bet_raise"
    schema_version: Version = SCHEMA_VERSION
    player: str
    to: int = Field(gt=0, le=MAX_CHIPS, strict=True)


class Fold(_Model):
    type: Literal["fold"] = "fold"
    schema_version: Version = SCHEMA_VERSION
    player: str


class AllIn(_Model):
    """The player puts in his whole remaining stack; the engine decides whether that is a bet,
    a raise (full or short) or a call for less. ``to`` is informative (his street total)."""

    type: Literal["all_in"] = "all_in"
    schema_version: Version = SCHEMA_VERSION
    player: str
    to: SignedChips | None = None


class Declaration(_Model):
    """A high-low declaration (RULES.md §3): the meaning, never a chip count."""

    type: Literal["declaration"] = "declaration"
    schema_version: Version = SCHEMA_VERSION
    player: str
    direction: Literal["high", "low", "swing"]


class Reveal(_Model):
    """A player shows cards at showdown (``cards`` empty: shows his known cards)."""

    type: Literal["reveal"] = "reveal"
    schema_version: Version = SCHEMA_VERSION
    player: str
    cards: list[Card] = []


class Muck(_Model):
    type: Literal["muck"] = "muck"
    schema_version: Version = SCHEMA_VERSION
    player: str


class RunCount(_Model):
    """The players agree to run the board ``runs`` times (RULES.md §4.5)."""

    type: Literal["run_count"] = "run_count"
    schema_version: Version = SCHEMA_VERSION
    runs: int = Field(ge=1, le=4, strict=True)


class RecordedPayout(_Model):
    """What the table actually pushed to a player, in chips. ``returned`` marks an uncalled bet
    given back; ``pot`` (0 = main pot) and ``run`` say which pot/run when the source says so."""

    type: Literal["recorded_payout"] = "recorded_payout"
    schema_version: Version = SCHEMA_VERSION
    player: str
    amount: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    returned: bool = False
    pot: int | None = Field(None, ge=0, strict=True)
    run: int | None = Field(None, ge=1, strict=True)


class RecordedRake(_Model):
    """What the table took from the hand's pot for itself, in chips: a home game's rake (the
    food, the house's cut), recorded live with ``act HAND "rake AMOUNT"``. The event form of
    PHH's ``rake`` field (FORMATS.md §1), which an imported hand keeps in its
    ``HandStarted.source``; a hand records one rake at most, the whole of what was taken.
    The players are paid the pot less it (``recorded_payout``); the audit names it as a
    ``rake`` finding, as it names an imported hand's."""

    type: Literal["recorded_rake"] = "recorded_rake"
    schema_version: Version = SCHEMA_VERSION
    amount: int = Field(ge=1, le=MAX_CHIPS, strict=True)


class CarryOver(_Model):
    """Chips carried between hands (RULES.md §2.2, §3.8, §7.1): ``direction`` ``out`` on the hand
    that leaves the pot unawarded, ``in`` on the session's next hand, which adds them as dead
    money."""

    type: Literal["carry_over"] = "carry_over"
    schema_version: Version = SCHEMA_VERSION
    amount: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    direction: Literal["out", "in"]
    other_hand: str | None = None


class HandEnded(_Model):
    type: Literal["hand_ended"] = "hand_ended"
    schema_version: Version = SCHEMA_VERSION
    status: Literal["complete", "incomplete"] = "complete"


class Change(_Model):
    """One change of a correction: replace/insert-after/delete at a sequence number of the hand."""

    op: Literal["replace", "insert_after", "delete"]
    seq: int = Field(ge=1, strict=True)
    event: Nested | None = None


def _absent(value: Any) -> bool:
    return value is None


class EventSignature(_Model):
    """An Ed25519 signature of the correction or void that carries it: ``signer`` the key's
    name as its owner calls it, ``key`` its fingerprint (12 hex digits), ``value`` the 64-byte
    signature in unpadded base64url; ``binds`` ``"hand"``: it covers the hand's rows before
    the event too (what every signature made now covers); left out (None) of a signature of
    the older form, which binds the event only, so such an event's JSON is as it was stored.
    What is signed: ``ledger.store.signing``."""

    signer: str = Field(pattern=r"^\S{1,40}$")
    key: str = Field(pattern=r"^[0-9a-f]{12}$")
    value: str = Field(pattern=r"^[A-Za-z0-9_-]{86}$")
    binds: Literal["hand"] | None = Field(default=None, exclude_if=_absent)


def _unsigned(value: EventSignature | None) -> bool:
    return value is None


#: An optional signature, left out of the event's JSON when there is none, so that an
#: unsigned event's canonical JSON (what the chain hashes and a re-import's key digests) is
#: the same as before signatures existed.
Signature = Annotated[EventSignature | None, Field(default=None, exclude_if=_unsigned)]


class Correction(_Model):
    """A correction of a hand; the original events stay. ``positions`` names the ledger rows
    (global positions) of the original events it changes; ``signature`` optionally signs it."""

    type: Literal["correction"] = "correction"
    schema_version: Version = SCHEMA_VERSION
    changes: list[Change] = Field(min_length=1)
    positions: list[int] = []
    reason: str = Field(min_length=1)
    by: str = Field(min_length=1)
    signature: Signature = None


class HandVoided(_Model):
    """A misdeal or restarted hand: every contribution goes back; ``signature`` optionally
    signs it."""

    type: Literal["hand_voided"] = "hand_voided"
    schema_version: Version = SCHEMA_VERSION
    reason: str = Field(min_length=1)
    by: str = Field(min_length=1)
    signature: Signature = None


# --------------------------------------------------------------------------------------------
# Session events


class SessionOpened(_Model):
    """A session opens. ``chip_value_minor`` minor units of ``currency`` per chip (0.25 USD → 25,
    decimals 2)."""

    type: Literal["session_opened"] = "session_opened"
    schema_version: Version = SCHEMA_VERSION
    session: str = Field(min_length=1)
    date: str | None = None
    chip_value_minor: int = Field(1, ge=1, le=MAX_CHIPS, strict=True)
    currency: str | None = None
    decimals: int = Field(0, ge=0, le=6, strict=True)
    source: Nested = {}


class BuyIn(_Model):
    """A buy-in, rebuy or top-up of ``chips`` (table stakes: only between hands, RULES.md
    §1.1). ``before``: the hand of its session it was made before, recorded later (a rebuy
    forgotten at the table): the books count it just before that hand starts, not at its own
    place in the ledger; None (an entry without it, every older ledger's): at its place."""

    type: Literal["buy_in"] = "buy_in"
    schema_version: Version = SCHEMA_VERSION
    player: str
    chips: int = Field(gt=0, le=MAX_CHIPS, strict=True)
    kind: Literal["buy_in", "rebuy", "top_up"] = "buy_in"
    before: str | None = Field(
        None, min_length=1, exclude_if=_absent,
        description="The hand of the session this buy-in was made before, recorded after it "
        "(`buyin --before HAND`): the books count it just before that hand starts. Left out "
        "of the event's JSON when absent: the buy-in counts at its own place.")


class CashOut(_Model):
    """The chips counted when a player leaves (or the session ends)."""

    type: Literal["cash_out"] = "cash_out"
    schema_version: Version = SCHEMA_VERSION
    player: str
    chips: int = Field(ge=0, le=MAX_CHIPS, strict=True)


def _not_set(value: bool) -> bool:
    return not value


class Payment(_Model):
    """Money paid between players to settle up (or a bounty), in minor units. ``payer`` or
    ``payee`` None is the house: whoever keeps the rake the table took from the pots, owed it
    when the session settles up (``handledger pay SESSION PLAYER rake AMOUNT``; README
    "settle"); never both. With ``bank`` that side is the bank instead: whoever holds the
    buy-ins, paid the chips a correction after the chips moved on left in no player's net
    (``handledger pay SESSION PLAYER bank AMOUNT``; docs/CORRECTIONS.md "A correction after
    the chips moved on")."""

    type: Literal["payment"] = "payment"
    schema_version: Version = SCHEMA_VERSION
    payer: str | None
    payee: str | None
    amount_minor: int = Field(gt=0, le=MAX_CHIPS, strict=True)
    reason: str | None = None
    more_than_owed: bool = Field(
        False, strict=True, exclude_if=_not_set,
        description="Recorded beyond what its payer still owed (or the house was owed) as "
        "settle reckoned it then: `pay --more-than-owed`, which an import of the file takes "
        "as the flag (README \"JSON lines\"). Left out of the event's JSON when false.")
    bank: bool = Field(
        False, strict=True, exclude_if=_not_set,
        description="The side that is null is the bank, whoever holds the buy-ins, not the "
        "house: chips a correction after the chips moved on left in no player's net "
        "(`pay SESSION PLAYER bank AMOUNT`; docs/CORRECTIONS.md). Left out of the event's "
        "JSON when false.")

    @model_validator(mode="after")
    def _someone_pays_someone(self) -> "Payment":
        if self.payer is None and self.payee is None:
            raise ValueError("a payment names a player on one side at least (None on one "
                             "side is the house)")
        if self.bank and None not in (self.payer, self.payee):
            raise ValueError("a payment with the bank has the bank, null, on one side")
        return self


class SeatChange(_Model):
    """A player joins, quits, stands up or sits back (no chips move)."""

    type: Literal["seat_change"] = "seat_change"
    schema_version: Version = SCHEMA_VERSION
    player: str
    change: Literal["join", "quit", "stand_up", "sit_back"]
    stack: int | None = Field(None, ge=0, le=MAX_CHIPS, strict=True)


class SessionClosed(_Model):
    type: Literal["session_closed"] = "session_closed"
    schema_version: Version = SCHEMA_VERSION


class PlayerAlias(_Model):
    """``alias`` (another name or a platform id) is the player ``player`` across the series."""

    type: Literal["player_alias"] = "player_alias"
    schema_version: Version = SCHEMA_VERSION
    player: str = Field(min_length=1)
    alias: str = Field(min_length=1)


class PlayerUnaliased(_Model):
    """``alias`` is no longer another name of a player: the ``player_alias`` that made it one
    (the latest, chains followed) ends here, from this event's place in the ledger on; the
    alias event stays in the ledger. ``alias`` is again the player of that name (or, when it
    was itself named by another alias, that one's player). ``reason`` why, ``by`` who undoes
    it (docs/LIVE.md "player unalias"; FORMATS.md §2)."""

    type: Literal["player_unaliased"] = "player_unaliased"
    schema_version: Version = SCHEMA_VERSION
    alias: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    by: str = Field(min_length=1)


class EntryCorrected(_Model):
    """A book entry of the session — a ``buy_in``, ``cash_out`` or ``payment``, named by its
    ``seq`` in the session's stream — retracted (``replacement`` None) or amended
    (``replacement``: the entry as it should have been, of the same type). The original stays in
    the ledger; the books read the entry as corrected, at the original's place among the hands
    (table stakes, RULES.md §1.1). A later correction of the same entry wins. A
    ``platform_ledger`` statement at ``seq`` is retracted the same way (``replacement``
    None; never amended): the audit compares no statement in its place."""

    type: Literal["entry_corrected"] = "entry_corrected"
    schema_version: Version = SCHEMA_VERSION
    seq: int = Field(ge=1, strict=True)
    replacement: Nested | None = None
    reason: str = Field(min_length=1)
    by: str = Field(min_length=1)


class SessionChanged(_Model):
    """What one chip of the session is worth, set after it was opened (a session an import
    opened, say a PokerNow game): ``chip_value_minor`` minor units of ``currency``, written with
    ``decimals`` places. The latest wins, for the whole session."""

    type: Literal["session_changed"] = "session_changed"
    schema_version: Version = SCHEMA_VERSION
    chip_value_minor: int = Field(ge=1, le=MAX_CHIPS, strict=True)
    currency: str | None = None
    decimals: int = Field(0, ge=0, le=6, strict=True)


class PlatformLedgerRow(_Model):
    """One player's totals in a platform's ledger statement, in the session's chips (cents in a
    cents game): ``player`` the platform id, ``nickname`` his latest name there. ``net`` is
    ``buy_out + stack + nit_escrow − buy_in``; ``stack`` the chips still at the table."""

    player: str = Field(min_length=1)
    nickname: str | None = None
    buy_in: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    buy_out: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    stack: int = Field(ge=0, le=MAX_CHIPS, strict=True)
    nit_escrow: SignedChips = 0
    net: SignedChips

    @model_validator(mode="after")
    def _net_adds_up(self) -> "PlatformLedgerRow":
        if self.net != self.buy_out + self.stack + self.nit_escrow - self.buy_in:
            raise ValueError(f"{self.player}: net {self.net} is not buy_out + stack + "
                             "nit_escrow − buy_in")
        return self


class PlatformLedger(_Model):
    """The platform's own ledger statement of the game (PokerNow's ledger CSV), one row per
    player, kept as it was given; the audit compares it with the replayed session
    (``ledger_mismatch``). ``file``: the statement's file name."""

    type: Literal["platform_ledger"] = "platform_ledger"
    schema_version: Version = SCHEMA_VERSION
    platform: str = Field("pokernow", min_length=1)
    rows: list[PlatformLedgerRow] = Field(min_length=1)
    file: str | None = None


HandEvent = (
    HandStarted
    | ForcedBet
    | CardsDealt
    | Discard
    | Check
    | Call
    | BetRaise
    | Fold
    | AllIn
    | Declaration
    | Reveal
    | Muck
    | RunCount
    | RecordedPayout
    | RecordedRake
    | CarryOver
    | HandEnded
    | Correction
    | HandVoided
)
SessionEvent = (
    SessionOpened
    | BuyIn
    | CashOut
    | Payment
    | SeatChange
    | SessionClosed
    | PlayerAlias
    | PlayerUnaliased
    | PlatformLedger
    | EntryCorrected
    | SessionChanged
)
AnyEvent = Annotated[HandEvent | SessionEvent, Field(discriminator="type")]
EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyEvent, config=ConfigDict(defer_build=True))
#: The model of each event type.
EVENT_MODELS: dict[str, Any] = {
    m.model_fields["type"].default: m
    for m in HandEvent.__args__ + SessionEvent.__args__  # type: ignore[attr-defined]
}

#: Event types a player takes at the table (what ``act`` and the PHH action list produce).
ACTION_TYPES = frozenset(
    {"check", "call", "bet_raise", "fold", "all_in", "declaration", "reveal", "muck", "discard"}
)
EVENT_TYPES: tuple[str, ...] = tuple(EVENT_MODELS)


def parse_event(data: dict[str, Any] | str | bytes) -> Any:
    """Validate one event from a dict or JSON text and return the typed model.

    Raises:
        ledger.model.errors.MalformedEvent: the data is not a valid event of a known type.
    """
    from ledger.model.errors import MalformedEvent

    try:
        if isinstance(data, dict):
            return EVENT_ADAPTER.validate_python(data)
        return EVENT_ADAPTER.validate_json(data)
    except ValidationError as exc:
        first = _first_error(exc.errors())
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise MalformedEvent(f"invalid event ({where}: {first.get('msg')})") from exc


def parse_stored(type_: str, payload: str) -> Any:
    """:func:`parse_event` of a stored ``payload`` whose row says it is a ``type_`` event:
    validated by that type's model alone (so that only the models met are built), else (a
    payload of another type, or invalid) by :func:`parse_event` itself, which gives the same
    event or error it always gives.

    Raises:
        ledger.model.errors.MalformedEvent: as :func:`parse_event`.
    """
    model = EVENT_MODELS.get(type_)
    if model is not None:
        try:
            return model.model_validate_json(payload)
        except ValidationError:
            pass
    return parse_event(payload)


def _first_error(errors: list[Any]) -> Any:
    """The error to report: pydantic's first, a bad :data:`Card` worded as it always was (at
    the list, and only when every item of that list is a string)."""
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    if first.get("type") != "string_pattern_mismatch" or loc[-2:-1] != ("cards",):
        return first
    items = [e for e in errors if tuple(e.get("loc", ()))[:-1] == loc[:-1]]
    wrong = [e for e in items if e.get("type") != "string_pattern_mismatch"]
    if wrong:  # an item that is no string fails first, before any card is looked at
        return wrong[0]
    return {**first, "loc": loc[:-1], "msg": f"Value error, {first['input']!r} is not a card"}


def event_json(event: Any) -> str:
    """Canonical JSON of an event (sorted keys, no spaces): what the store hashes."""
    import json

    return json.dumps(event.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every event (``handledger schema``)."""
    return EVENT_ADAPTER.json_schema()
