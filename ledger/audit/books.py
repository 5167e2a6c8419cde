"""Sessions and the series: session events and replayed hands folded, in ledger order, into books.

A session is the stream ``session:<name>`` (``session_opened``, ``buy_in``, ``cash_out``,
``payment``, ``seat_change``, ``session_closed``, ``player_alias``, ``platform_ledger``) plus
the hands whose ``HandStarted.session`` names it. Table stakes (RULES.md §1.1): chips come and
go only between hands, so the ledger position of a buy-in or cash-out says which hands it falls
between.
:func:`build_series` folds both in that order and keeps, per player of a session, what the
audit (:mod:`ledger.audit.checks`) compares:

* the chips the books follow at the table (``stack``): buy-ins add, a hand sets it to the stack
  the hand leaves him with — what the table actually paid (the recorded payouts; the engine's
  awards when none were recorded), a cash-out empties it. A player who sits out keeps it.
* for every hand he plays, the stack he should start with (:class:`StartCheck`) and for every
  cash-out the stack he should count (:class:`CashOutCheck`). After a hand whose payouts are
  unknown (showdown not verifiable, nothing recorded) the next value is not checked.
* his net in chips — the one meaning of net: the sum over his hands of what the table paid
  him minus what he put in (``HandReplay.paid_net``; the rules' net when a hand's payouts are
  unknown; nothing for a voided hand) — what standings, balances, the settlement and the chart
  use, so they agree with the cash-outs; ``rules_net`` beside it is what the rules would have
  paid; the ``payout`` check says where the two differ, and a correction moves the net by
  exactly the difference. In money ``net × chip_value_minor``.
* the session's latest platform ledger statement (PokerNow's ledger CSV), each player's
  buy-ins, buy-outs and net paired with the books as they stand at its place
  (:class:`Statement`).

Players are known by one name across the series: ``player_alias`` events map another name or a
platform id to him (:func:`resolve_aliases`) everywhere here. Hands outside any opened session
(no ``session_opened``) count in the nets but are not followed chip by chip; once the session
is opened, its hands stored before the opening are followed from each player's first hand
there (taken as it starts: RULES.md §1.1, no buy-in counts before the opening). A hand of no
session counts chips of its own unit (``HandFacts.unit``): once those differ, the book of no
session keeps a book per unit beside it (:attr:`SessionBook.by_unit`), since chips of
different values never add up (docs/BOOKS.md "Chips of different values"). Money is always an int
in minor units of the session's currency (``decimals`` places).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ledger.audit.rake_count import counted_rake
from ledger.model.money import format_money
from ledger.model.names import aliases_in_force, resolved_aliases
from ledger.model.platform import from_platform

#: A player's name mapping (alias → player), see :func:`resolve_aliases`.
Names = Callable[[str], str]


@dataclass(frozen=True)
class PayoutFinding:
    """A replay discrepancy of a hand (:class:`replay.compare.Discrepancy`), in chips;
    ``player`` ``"*"`` is the whole table (an infeasible total)."""

    player: str
    recorded: int
    recomputed: int
    kind: str
    message: str


@dataclass(frozen=True)
class HandFacts:
    """What the books need of one replayed hand (chips). ``paid``: chips the table pushed to
    each player (``HandReplay.paid``), ``None`` when unknown; ``net``: the books' net
    (``HandReplay.paid_net``: paid − put in, the rules' when unknown); ``rules_net``: the rules'
    net (None: the same as ``net``); ``pot_out``: awards + returned + the chips the rules
    carry, ``None`` when the showdown is not verifiable; ``carried``: the chips the hand passes
    to the session's next hand (``HandReplay.carried_on``: recorded, or left unpaid for it;
    RULES.md §7.1); ``ord``: the hand's place in the ledger (1-based);
    ``platform``: the hand was read from a PokerNow log, its players platform ids
    (:func:`ledger.model.platform.marks_platform_session`)."""

    hand: str
    session: str | None
    ord: int
    position: int
    game: str
    status: str
    starting: Mapping[str, int]
    contributions: Mapping[str, int]
    paid: Mapping[str, int] | None
    net: Mapping[str, int]
    pot_out: int | None
    rules_net: Mapping[str, int] | None = None
    carried: int = 0
    carried_in: int = 0
    payouts: tuple[PayoutFinding, ...] = ()
    unit: tuple[int, str | None, int] = (1, None, 0)  # (minor per chip, currency, decimals)
    error: str | None = None  # why the hand's stream does not replay (then nothing is known)
    platform: bool = False
    #: Where the site's own summary disagrees with the hand's lines (a site text's hand,
    #: FORMATS.md): ``(player or None, what the lines give, what the summary says, words)``.
    site_summary: tuple[tuple[str | None, int, int, str], ...] = ()
    #: The RULES.md sections of the rule by which the hand carries ``carried``, by its
    #: options (:func:`ledger.model.carry_rules.carry_sections`: ``"RULES.md §2.2, §5"`` for
    #: an odd chip); "" when not known (either rule's sections are cited then).
    carry_rule: str = ""

    def __init__(self, hand: str, session: str | None, ord: int, position: int, game: str,
                 status: str, starting: Mapping[str, int], contributions: Mapping[str, int],
                 paid: Mapping[str, int] | None, net: Mapping[str, int], pot_out: int | None,
                 rules_net: Mapping[str, int] | None = None, carried: int = 0,
                 carried_in: int = 0, payouts: tuple[PayoutFinding, ...] = (),
                 unit: tuple[int, str | None, int] = (1, None, 0), error: str | None = None,
                 platform: bool = False,
                 site_summary: tuple[tuple[str | None, int, int, str], ...] = (),
                 carry_rule: str = "") -> None:
        # the fields above, written as the generated __init__ would (one made per replayed
        # hand: the frozen dataclass's own sets each through object.__setattr__, twice the
        # time); a new field goes here too
        self.__dict__.update(
            hand=hand, session=session, ord=ord, position=position, game=game, status=status,
            starting=starting, contributions=contributions, paid=paid, net=net,
            pot_out=pot_out, rules_net=rules_net, carried=carried, carried_in=carried_in,
            payouts=payouts, unit=unit, error=error, platform=platform,
            site_summary=site_summary, carry_rule=carry_rule)

    def renumbered(self, ords: int, positions: int) -> HandFacts:
        """These facts with ``ord`` moved up by ``ords`` and ``position`` by ``positions``:
        ``dataclasses.replace`` without its generic walk of the fields (measured: 2.7 against
        20 us, once a hand of a parallel import)."""
        moved = object.__new__(HandFacts)
        moved.__dict__.update(self.__dict__, ord=self.ord + ords,
                              position=self.position + positions)
        return moved

    @property
    def pot_in(self) -> int:
        """Chips that went into the middle: contributions plus carried-in dead money."""
        return sum(self.contributions.values()) + self.carried_in

    @property
    def leak(self) -> int | None:
        """Chips the table paid beyond what the pots and returns hold (0 when right)."""
        if self.paid is None:
            return None
        return sum(self.paid.values()) - (self.pot_in - self.carried)

    def renamed(self, names: Names) -> HandFacts:
        """The same facts with every player under his series name (merged if two seats map to
        the same player, which a sane alias never does)."""

        def per(d: Mapping[str, int] | None) -> dict[str, int] | None:
            if d is None:
                return None
            out: dict[str, int] = {}
            for p, v in d.items():
                out[names(p)] = out.get(names(p), 0) + v
            return out

        return replace(self, starting=per(self.starting), contributions=per(self.contributions),
                       paid=per(self.paid), net=per(self.net), rules_net=per(self.rules_net),
                       payouts=tuple(replace(f, player=names(f.player) if f.player != "*"
                                             else "*") for f in self.payouts),
                       site_summary=tuple((None if p is None else names(p), lines, said, words)
                                          for p, lines, said, words in self.site_summary))


def hand_facts(replay: Any, *, ord: int, position: int, unit: Any = None,
               nets: tuple[Any, Any, Any] | None = None, platform: bool = False,
               site_summary: tuple[tuple[str | None, int, int, str], ...] = (),
               carry_rule: str = "") -> HandFacts:
    """The :class:`HandFacts` of a :class:`replay.hand_replay.HandReplay` (duck-typed so that the
    ledger package does not import the replayer). ``unit``: the hand's ``Unit``. ``nets``:
    the replay's ``(paid, net, paid_net)`` when the caller has them already (new dicts, which
    the facts then keep); computed otherwise. ``platform``: :attr:`HandFacts.platform`;
    ``site_summary``: :attr:`HandFacts.site_summary`; ``carry_rule``:
    :attr:`HandFacts.carry_rule`, kept only when the hand carries chips."""
    paid, net, paid_net = nets or (replay.paid, dict(replay.net), dict(replay.paid_net))
    r = replay.result
    carried = replay.carried_on if (r.carried or r.carried_out) else 0
    pot_out = None
    if r.verifiable:
        pot_out = sum(r.awards.values()) + sum(r.returned.values()) + r.carried
    discrepancies = replay.discrepancies
    return HandFacts(
        hand=replay.hand, session=replay.session, ord=ord, position=position, game=replay.game,
        status=r.status, starting=dict(r.starting), contributions=dict(r.contributions),
        paid=paid, net=paid_net, pot_out=pot_out, rules_net=net, carried=carried,
        carried_in=r.carried_in,
        payouts=tuple(PayoutFinding(d.player, d.recorded, d.recomputed, d.kind, d.sentence())
                      for d in discrepancies) if discrepancies else (),
        unit=unit.money() if unit else (1, None, 0),
        platform=platform, site_summary=site_summary, carry_rule=carry_rule if carried else "")


@dataclass(frozen=True)
class SessionRow:
    """One stored session event: its ledger position, session name and typed event;
    ``seq`` its place in the session's stream, the entry number the CLI names (None: not
    known to the caller)."""

    position: int
    session: str
    event: Any
    seq: int | None = None


@dataclass(frozen=True)
class Revision:
    """A correction or void of a hand appended at ledger ``position`` (its ``seq`` in the
    hand's stream, ``by`` and ``reason`` as recorded) and ``before``, the hand's facts as it
    stood just before it (every earlier correction applied, this one not). What a later event
    of the session that took the hand's chips (the next hand's start of a player, a cash-out)
    found when it was recorded before this row: such an event stands as recorded, and the
    difference is money owed (docs/CORRECTIONS.md "A correction after the chips moved on").
    ``voids``: the row is a ``hand_voided`` (else a correction: a void's own correction, the
    rows it drops, comes just before it)."""

    position: int
    seq: int
    by: str
    reason: str
    before: HandFacts
    voids: bool = False

    def renamed(self, names: Names) -> Revision:
        """The same revision, its players under their series names."""
        return replace(self, before=self.before.renamed(names))


#: ``{hand: its revisions in ledger order}``: the corrections and voids of each hand appended
#: after a later event of its session took its chips (:func:`replay.late_corrections.revisions`).
Revisions = Mapping[str, tuple[Revision, ...]]


class StartCheck(NamedTuple):
    """A player's starting stack in a hand against the books: ``expected`` is his stack after
    his previous hand (``previous``, None: none yet) plus ``bought`` chips bought since;
    ``None`` when unknown (his previous hand's payouts are unknown). ``cashed``: his latest
    cash-out since that hand as ``(chips, entry number)`` (the entry None when not known),
    None when none. A named tuple: one is made for every player of every hand of an opened
    session."""

    hand: str
    ord: int
    player: str
    expected: int | None
    actual: int
    previous: str | None
    bought: int
    cashed: tuple[int, int | None] | None = None
    #: the stack his previous hand left him, as that hand stood when this hand was recorded,
    #: plus ``bought``, when a correction or void of it (``revision``) came after (else None)
    stood: int | None = None
    revision: Revision | None = None

    @property
    def as_stood(self) -> bool:
        """Whether the start follows the previous hand as it stood then, not as corrected
        since: it stands as played, the difference owed in money."""
        return self.stood is not None and self.stood == self.actual != self.expected


@dataclass(frozen=True)
class CashOutCheck:
    """A cash-out against the stack the books say he has (``None``: unknown); ``seated``
    False when he had no chips at the table (no buy-in since his last cash-out); ``stood``
    and ``revision`` as :class:`StartCheck`'s."""

    player: str
    position: int
    expected: int | None
    actual: int
    seated: bool
    stood: int | None = None
    revision: Revision | None = None

    @property
    def as_stood(self) -> bool:
        """As :attr:`StartCheck.as_stood`."""
        return self.stood is not None and self.stood == self.actual != self.expected


@dataclass(frozen=True)
class StatementLine:
    """One player of a platform's ledger statement against the books: ``stated`` and ``books``
    are ``(buy-ins, buy-outs, net)`` in chips, buy-outs being cash-outs plus the chips still at
    the table (the statement's ``buy_out + stack + nit_escrow``) and the books' net the rules'
    net of his hands. ``stated`` is None when the statement has no row for him; the books'
    buy-outs are None when unknown (after a hand whose payouts are unknown)."""

    player: str
    nickname: str | None
    stated: tuple[int, int, int] | None
    books: tuple[int, int | None, int]


@dataclass(frozen=True)
class Statement:
    """The latest ``platform_ledger`` event of a session, compared with the books as they
    stand at its place in the ledger (a statement covers the game up to its export)."""

    platform: str
    file: str | None
    lines: tuple[StatementLine, ...]


@dataclass
class PlayerBook:
    """One player in one session. Chips unless named ``_minor`` (money, minor units)."""

    player: str
    first: int
    buy_in: int = 0
    buy_ins: int = 0
    rebuys: int = 0
    top_ups: int = 0
    cash_out: int = 0
    hands: int = 0
    net: int = 0
    rules_net: int = 0
    biggest_win: int = 0
    biggest_loss: int = 0
    paid_minor: int = 0
    received_minor: int = 0
    stack: int = 0
    known: bool = True
    seated: bool = False
    previous: str | None = None
    bought: int = 0
    #: His latest cash-out since his latest hand, ``(chips, entry number)``; None: none.
    cashed: tuple[int, int | None] | None = None
    #: After a hand corrected or voided once later events took its chips: per revision, the
    #: stack that hand left him as it stood before it, less what he had bought before it
    #: (None: not known). Cleared by his next hand or cash-out.
    stood: tuple[tuple[Revision, int | None], ...] = ()

    @property
    def on_table(self) -> int:
        """Chips he still has at the table (0 once cashed out)."""
        return self.stack if self.seated else 0


@dataclass
class SessionBook:
    """One session (``name`` None: hands that belong to no session). ``opened`` is the
    ``session_opened`` event; only an opened session is followed chip by chip. ``hand_count``
    counts its hands even when a streaming audit has dropped ``hands`` (:class:`SeriesFold`)."""

    name: str | None
    first: int
    opened: Any = None
    closed: bool = False
    chip_value_minor: int = 1
    currency: str | None = None
    decimals: int = 0
    players: dict[str, PlayerBook] = field(default_factory=dict)
    hands: list[HandFacts] = field(default_factory=list)
    starts: list[StartCheck] = field(default_factory=list)
    #: The starts of its hands stored before its opening that do not follow the player's
    #: previous hand of the session (a player's first hand there is taken as it starts: no
    #: buy-in counts before the opening); moved into :attr:`starts` when the opening comes,
    #: dropped with the book if it never does (a session named by its hands alone is not
    #: followed).
    unopened: list[StartCheck] = field(default_factory=list)
    cash_outs: list[CashOutCheck] = field(default_factory=list)
    payments: list[tuple[str | None, str | None, int]] = field(default_factory=list)
    statement: Statement | None = None
    hand_count: int = 0
    changed: bool = False
    #: The rake the table took from the session's pots, chips: the replay's ``rake``
    #: differences (replay/rake.py), which left the players' nets; owed to the house.
    rake: int = 0
    #: Payments to and from the house (a payment's payer or payee None), minor units.
    house_received_minor: int = 0
    house_paid_minor: int = 0
    #: The book of no session only, once its hands count chips of more than one unit (each
    #: hand of no session counts its own, ``HandFacts.unit``: README "Chips of different
    #: values"): a book per unit ``(minor per chip, currency, decimals)``, in order of its
    #: first hand, holding its hands' players, counts and rake (not the hands themselves).
    #: Empty while they share one unit: this book is then that unit's.
    by_unit: dict[tuple[int, str | None, int], SessionBook] = field(default_factory=dict)
    #: Its players are platform ids: a PokerNow log opened it or one of its hands was read
    #: from one (:func:`ledger.model.platform.marks_platform_session`).
    platform: bool = False
    #: ``{player: name}``: the latest name a ``player_alias`` of this session gave him (the
    #: series name of a PokerNow id, the name he played under), a name that had sat at no
    #: table before: how a platform statement that has no row for him names him.
    played_as: dict[str, str] = field(default_factory=dict)

    @property
    def unit(self) -> tuple[int, str | None, int]:
        """``(minor per chip, currency, decimals)``, as :attr:`HandFacts.unit`."""
        return self.chip_value_minor, self.currency, self.decimals

    def books_by_unit(self) -> list[SessionBook]:
        """A book per chip unit: :attr:`by_unit`'s, or this book alone."""
        return list(self.by_unit.values()) or [self]

    @property
    def followed(self) -> bool:
        """Whether the session's chips are followed (it was opened)."""
        return self.opened is not None

    def player(self, name: str, position: int) -> PlayerBook:
        if name not in self.players:
            self.players[name] = PlayerBook(name, position)
        return self.players[name]

    def money(self, chips: int) -> int:
        """``chips`` in minor units of the session's currency."""
        return chips * self.chip_value_minor

    def format(self, minor: int) -> str:
        """``minor`` units as text with the currency's decimals (``-1250`` → ``-12.50 USD``)."""
        return format_money(minor, self.decimals, self.currency)


@dataclass
class Series:
    """Every session in order of first appearance (key None: hands of no session), all hands
    in ledger order, the alias map, findings supplied from outside (``ledger_mismatch``) and
    the platform nicknames of players known by a platform id (:func:`platform_nicknames`)."""

    sessions: dict[str | None, SessionBook]
    hands: list[HandFacts]
    aliases: dict[str, str]
    external: list[Any] = field(default_factory=list)
    nicknames: dict[str, str] = field(default_factory=dict)

    def name(self, player: str) -> str:
        return self.aliases.get(player, player)


#: The session events that make or end an alias (:func:`resolve_aliases` reads them all).
ALIAS_TYPES = ("player_alias", "player_unaliased")


def resolve_aliases(events: Iterable[Any]) -> dict[str, str]:
    """``{alias: player}`` from ``player_alias`` and ``player_unaliased`` events in ledger
    order, chains followed (``a → b`` and ``b → c`` give ``a → c``). The latest statement
    wins: when an alias would close a cycle, the older link into the new alias is dropped
    (PokerNow says id → name, then ``player alias NAME ID`` makes NAME the player); a
    ``player_unaliased`` ends the latest statement of its ``alias`` still in force
    (:func:`ledger.model.names.aliases_in_force`), so the statement before it, if any, holds
    again (docs/LIVE.md "player unalias"), the alias events staying in the ledger. Events of other
    types are skipped.

    >>> from ledger.model.events import PlayerAlias as A, PlayerUnaliased as U
    >>> resolve_aliases([A(player="u1", alias="ann"), A(player="Ann", alias="u1")])
    {'ann': 'Ann', 'u1': 'Ann'}
    >>> resolve_aliases([A(player="u1", alias="Ann"), A(player="Ann", alias="u1")])
    {'u1': 'Ann'}
    >>> resolve_aliases([A(player="Ann", alias="Anna"), U(alias="Anna", reason="r", by="h")])
    {}
    >>> resolve_aliases([A(player="u1", alias="A8"), A(player="Ann", alias="A8"),
    ...                  U(alias="A8", reason="r", by="h")])
    {'A8': 'u1'}
    """
    return resolved_aliases([(getattr(e, "player", None) if e.type == "player_alias" else None,
                              e.alias) for e in events if e.type in ALIAS_TYPES])


def build_series(rows: Iterable[SessionRow], hands: Iterable[HandFacts], *,
                 aliases: Mapping[str, str] | None = None,
                 revised: Revisions | None = None) -> Series:
    """Fold session rows and hands into a :class:`Series`, every book kept whole (hands,
    start and cash-out checks): the batch form of :class:`SeriesFold`. ``aliases``: the
    series' alias map (:func:`resolve_aliases` of every alias row of the ledger), for
    ``rows`` of some sessions only, since an alias may be recorded in another session's
    stream; None: resolved from ``rows``. ``revised``: as :class:`SeriesFold`'s."""
    fold = SeriesFold(sorted(rows, key=lambda r: r.position), aliases=aliases,
                      revised=revised)
    for h in sorted(hands, key=lambda h: h.position):
        fold.add(h)
    return fold.finish()


class SeriesFold:
    """Session rows and hand facts folded into session books in ledger order, one hand at a
    time (:meth:`add`), so that a million hands never sit in memory together.

    ``rows``: every session row of the ledger (few, read first; aliases are resolved from
    them up front). ``ends``: the last ledger position of each session's rows and hands; a
    book is complete once the fold has passed its end, and ``on_close(book)`` is then called
    once (at :meth:`finish` for books without an end, the book of no session among them).
    The callback may drop the book's hands and checks to free memory; without ``ends``
    nothing closes before :meth:`finish` and every book is kept whole. ``aliases``: the
    series' alias map (resolved from every alias row of the ledger); then ``rows`` may be an
    iterator in ledger order, read as the hands come (a million hands have hundreds of
    thousands of buy-ins). Without it, ``rows`` are all read and sorted first. ``revised``:
    the hands corrected or voided after a later event of their session took their chips
    (:data:`Revisions`), whose later starts and cash-outs may follow them as they stood then
    (:attr:`StartCheck.stood`); None or empty: none.
    """

    def __init__(self, rows: Iterable[SessionRow], *, ends: Mapping[str | None, int] | None = None,
                 on_close: Callable[[SessionBook], None] | None = None,
                 aliases: Mapping[str, str] | None = None,
                 revised: Revisions | None = None) -> None:
        if aliases is None:  # every row is needed up front: they must be a list
            rows = sorted(rows, key=lambda r: r.position)
            aliases = resolve_aliases(r.event for r in rows if r.event.type in ALIAS_TYPES)
        self._rows = iter(rows)
        self._row: SessionRow | None = next(self._rows, None)  # the next row to fold
        self._named: list[SessionRow] = []  # aliases and openings, for the nicknames
        self._ends = dict(ends or {})
        self._on_close = on_close
        self._closing: list[tuple[int, int, str | None]] = []  # heap of (end, order, name)
        self.aliases = dict(aliases)
        self.revised = revised or {}
        self.books: dict[str | None, SessionBook] = {}
        self.hands: list[HandFacts] = []
        self.seated: dict[str | None, set[str]] = {}  # names at the table, before aliases
        self._closed: set[str | None] = set()

    def names(self, player: str) -> str:
        """The series name of ``player`` (aliases followed)."""
        return self.aliases.get(player, player)

    def add(self, hand: HandFacts, *, keep: bool = True) -> HandFacts:
        """Fold one hand (after every session row before it); returns it under series names.
        ``keep`` False: the series does not keep it in :attr:`Series.hands`. A voided hand of
        no session goes in no book (no session's, not the book of no session)."""
        self._rows_before(hand.position)
        if hand.session is None and hand.status == "voided":
            # It moved no chips (README: net) and no session holds it: no book counts it, so
            # it makes no book of no session, no unit of one, no player of one.
            if self.aliases:
                hand = hand.renamed(self.names)
            if keep:
                self.hands.append(hand)
            self._close_through(hand.position)
            return hand
        seated = self.seated.get(hand.session)
        if seated is None:
            seated = self.seated[hand.session] = set()
        seated.update(hand.starting)
        if self.aliases:
            hand = hand.renamed(self.names)
        book = self._book(hand.session, hand.position)
        if hand.platform:
            book.platform = True
        if hand.session is None and book.hand_count:
            _by_unit(book, hand)
        revisions = self.revised.get(hand.hand, ()) if self.revised else ()
        if revisions and self.aliases:
            revisions = tuple(r.renamed(self.names) for r in revisions)
        _hand(book, hand, revisions)
        if keep:
            self.hands.append(hand)
        self._close_through(hand.position)
        return hand

    def finish(self) -> Series:
        """Fold the remaining session rows, close every open book and return the series."""
        self._rows_before(None)
        for name, book in self.books.items():
            if name not in self._closed:
                self._close(book)
        nicknames = platform_nicknames(self._named, self.seated, self.aliases,
                                       {n for n, b in self.books.items() if b.platform},
                                       {n: b.players.keys() for n, b in self.books.items()})
        return Series(self.books, self.hands, self.aliases, nicknames=nicknames)

    def _book(self, name: str | None, position: int) -> SessionBook:
        book = self.books.get(name)
        if book is None:
            book = self.books[name] = SessionBook(name, position)
            end = self._ends.get(name)
            if end is not None and self._on_close is not None:
                heapq.heappush(self._closing, (end, len(self.books), name))
        return book

    def _rows_before(self, position: int | None) -> None:
        while self._row is not None and (position is None or self._row.position < position):
            r, self._row = self._row, next(self._rows, None)
            book = self._book(r.session, r.position)
            if r.event.type in ("player_alias", "player_unaliased", "session_opened"):
                self._named.append(r)
            if r.event.type == "player_alias" and not any(
                    r.event.alias in names for names in self.seated.values()):
                book.played_as[self.names(r.event.player)] = r.event.alias
            _session_event(book, r.event, r.position, self.names, r.seq)
            self._close_through(r.position)

    def _close_through(self, position: int) -> None:
        while self._closing and self._closing[0][0] <= position:
            _, _, name = heapq.heappop(self._closing)
            self._close(self.books[name])

    def _close(self, book: SessionBook) -> None:
        self._closed.add(book.name)
        if self._on_close is not None:
            self._on_close(book)


def platform_nicknames(rows: Iterable[SessionRow], seated: Mapping[str | None, set[str]],
                       aliases: Mapping[str, str], platform: Collection[str | None],
                       booked: Mapping[str | None, Collection[str]]) -> dict[str, str]:
    """``{player: nickname}`` for players known by a platform id: the latest name a PokerNow
    import gave the id (``player_alias`` in a session of ``platform``, those whose players
    are platform ids: :mod:`ledger.model.platform`), when the id sat at that session's
    tables or has its books there (a buy-in, a cash-out: he played no hand), is still its
    own series name (no ``player alias`` made it someone else) and the name never sat at any
    table (so it is a nickname, not a player). A ``player_unaliased`` of the name (README
    "player unalias") ends the latest row of it still in force, whoever it named
    (:func:`ledger.model.names.aliases_in_force`): the id is known by the name he had before
    it, or by his id alone, as :func:`ledger.store.streams.platform_names` shows him.
    ``rows``: the session rows in ledger order (only ``player_alias`` and
    ``player_unaliased`` ones are read); ``seated``: per session, the names at its tables
    before aliases; ``booked``: per session, the series names of its books' players."""
    from ledger.store.streams import shown_names

    anywhere = set().union(*seated.values())
    named = [r for r in rows if r.event.type in ALIAS_TYPES]
    force = aliases_in_force([(r.event.player if r.event.type == "player_alias" else None,
                               r.event.alias) for r in named])
    # the ids the reads name (a host's row giving his name another, `player alias Dave
    # Player7` after `player alias Dave ID`, names no id: Player7 is no id of nickname Dave)
    ids = shown_names([(r.event.player, r.event.alias) for r, f in zip(named, force, strict=True)
                       if f and r.session in platform])
    kept: list[tuple[str, str]] = []  # (player, nickname) in ledger order
    for r, in_force in zip(named, force, strict=True):
        e = r.event
        if (in_force and r.session in platform and e.player in ids and e.alias not in anywhere
                and aliases.get(e.player, e.player) == e.player
                and (e.player in seated.get(r.session, ())
                     or e.player in booked.get(r.session, ()))):
            kept.append((e.player, e.alias))
    return dict(kept)


def _stood(pb: PlayerBook, position: int) -> tuple[int | None, Revision | None]:
    """The stack ``pb`` has at ``position`` by his previous hand as it stood there (the first
    of its revisions appended after ``position``: the hand before it), with what he bought
    since; ``(None, None)`` when no revision of it came after (the books' own chain)."""
    for revision, base in pb.stood:
        if revision.position > position:
            return (None if base is None else base + pb.bought), revision
    return None, None


def _session_event(book: SessionBook, e: Any, position: int, names: Names,
                   seq: int | None = None) -> None:
    t = e.type
    if t == "session_opened" and from_platform(e):
        book.platform = True
    if t == "session_opened" and book.opened is None:
        book.opened = e
        book.starts[:0], book.unopened = book.unopened, []  # its hands before it: followed
        book.chip_value_minor, book.currency, book.decimals = (
            e.chip_value_minor, e.currency, e.decimals)
    elif t == "session_closed":
        book.closed = True
    elif t == "buy_in":
        pb = book.player(names(e.player), position)
        pb.buy_in += e.chips
        pb.buy_ins += e.kind == "buy_in"
        pb.rebuys += e.kind == "rebuy"
        pb.top_ups += e.kind == "top_up"
        pb.stack += e.chips
        pb.bought += e.chips
        pb.seated = True
    elif t == "cash_out":
        pb = book.player(names(e.player), position)
        expected = (pb.stack if pb.seated else 0) if pb.known else None
        stood, revision = _stood(pb, position) if pb.stood and pb.seated else (None, None)
        book.cash_outs.append(CashOutCheck(pb.player, position, expected, e.chips, pb.seated,
                                           stood, revision))
        pb.cash_out += e.chips
        pb.stack, pb.known, pb.seated, pb.bought, pb.stood = 0, True, False, 0, ()
        pb.cashed = (e.chips, seq)
    elif t == "payment" and not e.bank:  # one with the bank is in no book: settle nets
        _payment(book, e, position, names)  # it off its bank line (replay/bank.py)
    elif t == "platform_ledger":
        book.statement = _statement(book, e, position, names)
    elif t == "session_changed":
        book.chip_value_minor, book.currency, book.decimals = (
            e.chip_value_minor, e.currency, e.decimals)
        book.changed = True


def _payment(book: SessionBook, e: Any, position: int, names: Names) -> None:
    """Count payment ``e`` in ``book``: a side None is the house, who keeps the rake."""
    payer = None if e.payer is None else names(e.payer)
    payee = None if e.payee is None else names(e.payee)
    if payer is None:
        book.house_paid_minor += e.amount_minor
    else:
        book.player(payer, position).paid_minor += e.amount_minor
    if payee is None:
        book.house_received_minor += e.amount_minor
    else:
        book.player(payee, position).received_minor += e.amount_minor
    book.payments.append((payer, payee, e.amount_minor))


def _statement(book: SessionBook, e: Any, position: int, names: Names) -> Statement:
    """Pair each row of a platform's statement with the player's books as they stand now;
    players the statement leaves out are listed when the books have any chips for them, under
    the name they played under (:attr:`SessionBook.played_as`)."""
    stated: dict[str, list[int]] = {}
    nicknames: dict[str, str | None] = {}
    for r in e.rows:
        total = stated.setdefault(names(r.player), [0, 0, 0])
        for i, v in enumerate((r.buy_in, r.buy_out + r.stack + r.nit_escrow, r.net)):
            total[i] += v
        nicknames[names(r.player)] = r.nickname
    lines = []
    for p in dict.fromkeys([*stated, *book.players]):
        pb = book.players.get(p) or PlayerBook(p, position)
        books = (pb.buy_in, pb.cash_out + pb.on_table if pb.known else None, pb.net)
        if p in stated or any(books):
            row = tuple(stated[p]) if p in stated else None
            lines.append(StatementLine(p, nicknames.get(p, book.played_as.get(p)), row,
                                       books))  # type: ignore[arg-type]
    return Statement(e.platform, e.file, tuple(lines))


def _by_unit(book: SessionBook, h: HandFacts) -> None:
    """Fold ``h``, a hand of no session after the first, into the book of its own chip unit
    in ``book.by_unit`` (before ``book`` folds it): made on the first hand of another unit
    than the first hand's, the first unit's book then a copy of ``book`` so far."""
    units = book.by_unit
    if not units:
        if h.unit == book.unit:
            return
        units[book.unit] = SessionBook(
            None, book.first, chip_value_minor=book.chip_value_minor, currency=book.currency,
            decimals=book.decimals, players={p: replace(pb) for p, pb in book.players.items()},
            hand_count=book.hand_count, rake=book.rake)
    sub = units.get(h.unit)
    if sub is None:
        sub = units[h.unit] = SessionBook(None, h.position)
    _hand(sub, h)
    sub.hands.clear()  # kept once, in ``book``


def _as_stood(revisions: tuple[Revision, ...], player: str, before: int | None,
              bought: int) -> tuple[tuple[Revision, int | None], ...]:
    """:attr:`PlayerBook.stood` of ``player`` after a hand of ``revisions``: per revision,
    the stack the hand left him as it stood before it (``before``: his stack before the
    hand, what a voided hand leaves him), less ``bought`` (what he had bought before it and
    since his previous hand, which the books count on top)."""
    out: list[tuple[Revision, int | None]] = []
    for r in revisions:
        b = r.before
        if b.status == "voided":
            after = before
        elif b.paid is None or player not in b.starting:
            after = None
        else:
            after = b.starting[player] + b.paid.get(player, 0) - b.contributions.get(player, 0)
        out.append((r, None if after is None else after - bought))
    return tuple(out)


def _voided(players: dict[str, PlayerBook], h: HandFacts,
            revisions: tuple[Revision, ...]) -> None:
    """Fold the voided hand ``h``: it counts for nothing, its stacks too (README: net); its
    players are in the book, and those of a hand voided after later events took its chips
    as it stood (``revisions``) keep that too (:attr:`PlayerBook.stood`)."""
    for p in h.starting:
        pb = players.get(p)
        if pb is None:
            pb = players[p] = PlayerBook(p, h.position)
        if revisions:
            before = (pb.stack if pb.seated else 0) if pb.known else None
            pb.stood = _as_stood(revisions, p, before, pb.bought)


def _check_start(starts: list[StartCheck] | None, ahead: list[StartCheck] | None,
                 h: HandFacts, pb: PlayerBook, start: int) -> None:
    """Check ``pb``'s starting stack ``start`` in hand ``h`` into ``starts`` (an opened
    session's book: every start), or, his previous hand of the session known, into ``ahead``
    (one not opened yet: a start that does not follow it, :attr:`SessionBook.unopened`)."""
    if starts is not None:
        expected = (pb.stack if pb.seated else 0) if pb.known else None
        starts.append(_start(h, pb, expected, start))
    elif ahead is not None and pb.previous is not None and pb.known and pb.seated and (
            pb.stack != start):  # a hand stored before the session's opening
        ahead.append(_start(h, pb, pb.stack, start))


def _start(h: HandFacts, pb: PlayerBook, expected: int | None, start: int) -> StartCheck:
    """The check of ``pb``'s starting stack ``start`` in hand ``h`` against ``expected``
    (chips; None: not known), with his previous hand as it stood when ``h`` was stored."""
    if pb.stood:
        return StartCheck(h.hand, h.ord, pb.player, expected, start, pb.previous, pb.bought,
                          pb.cashed, *_stood(pb, h.position))
    return StartCheck(h.hand, h.ord, pb.player, expected, start, pb.previous, pb.bought,
                      pb.cashed)


def _hand(book: SessionBook, h: HandFacts, revisions: tuple[Revision, ...] = ()) -> None:
    if not book.hand_count and book.opened is None and not book.changed:
        book.chip_value_minor, book.currency, book.decimals = h.unit
    book.hands.append(h)
    book.hand_count += 1
    players, position = book.players, h.position
    if h.status == "voided":  # counts for nothing, its stacks too (README: net)
        _voided(players, h, revisions)
        return
    starts = book.starts if book.followed else None
    ahead = book.unopened if starts is None and book.name is not None else None
    paid, put_in, hand = h.paid, h.contributions, h.hand
    if h.payouts:  # most hands: none
        book.rake += counted_rake(h.payouts)
    # What the table did (the payouts; the rules when nothing was recorded): the balances
    # follow the chips, the audit says where the rules differ, a correction moves both.
    nets = h.net if paid is None else {p: paid.get(p, 0) - put_in.get(p, 0) for p in h.starting}
    rules = h.rules_net if h.rules_net is not None else h.net
    for p, start in h.starting.items():
        pb = players.get(p)
        if pb is None:
            pb = players[p] = PlayerBook(p, position)
        _check_start(starts, ahead, h, pb, start)
        if revisions:  # rare: a hand corrected after later events took its chips
            pb.stood = _as_stood(revisions, p, (pb.stack if pb.seated else 0) if pb.known
                                 else None, 0)
        elif pb.stood:
            pb.stood = ()
        net = nets.get(p, 0)
        if paid is None:
            pb.stack, pb.known = start, False
        else:
            pb.stack, pb.known = start + net, True
        pb.seated, pb.previous, pb.bought, pb.cashed = True, hand, 0, None
        pb.hands += 1
        pb.net += net
        pb.rules_net += rules.get(p, 0)
        if net > pb.biggest_win:
            pb.biggest_win = net
        if net < pb.biggest_loss:
            pb.biggest_loss = net
