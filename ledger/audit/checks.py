"""The audit: small named checks over the series books, in one registry, returning findings.

Every check is a small function of one **scope** — a hand (:class:`HandFacts`), a session
(:class:`SessionBook`) or the whole series (:class:`Series`) — that returns a list of
:class:`Finding` and never raises for bad books. Each is registered once, in :data:`REGISTRY`
(as beancount's ``ops/validation.py``), with its **name** (the ``kind`` of its findings) and
its **rank** (their order within one session and hand). :func:`audit` (the batch audit),
:class:`ledger.audit.stream.StreamAudit` (hand checks as each hand comes, session checks once
a session is complete, series checks at the end) and the list of kinds in docs/SQL.md (a test
compares it with the registry) all read that one list: adding a check is one function plus
one :class:`Check` entry. Amounts are chips, except ``settlement`` (money, minor units of the
session's currency). Chips move only between hands and within a session (RULES.md §1.1, table
stakes), so a session's books can be checked on their own.

The kinds (:data:`KINDS`, in rank order):

* ``unreplayable`` — a hand whose stored events the rules refuse (a read never stops at it).
* ``in_progress`` — a hand still open (recorded live and not yet ended): named, its chips
  are not checked until it ends.
* ``payout`` — a recorded payout ≠ the recomputed award, or chips recorded as returned
  beyond a player's uncalled bet (the replay's discrepancies; a hand in progress has none
  until it ends, :func:`replay.fold.replay_folded`).
* ``rake`` / ``uncalled`` — the rake (a site's, or a home game's recorded live:
  ``recorded_rake``) of a hand whose payouts are wrong beside it (a hand paid its pots less
  the rake was paid as the rules give: no finding), or payouts short by the uncalled bet a
  site leaves out of what it says a player collected (``replay.rake``).
* ``site_summary`` — a site text's own summary disagrees with the hand's lines (its total
  pot, its pots, a player's amount; FORMATS.md): the books follow the lines, and the finding
  says the site's record does not add up.
* ``chip_conservation`` — per ended hand, contributions + carried-in ≠ awards + returned +
  carried, or paid to nobody (no payout recorded, a showdown of unknown cards), or chips
  carried out beside payouts that exceed the pot, or carried out or in by a hand of no
  session (RULES.md §7.1); per session, carried chips that the session's next hand does not
  bring in.
* ``stack_continuity`` — a starting stack ≠ the stack after his previous hand plus the
  buy-ins between (the first hand starts from the buy-in; sitting out keeps the stack),
  nor the stack his previous hand left him as it stood when this hand was recorded, before
  a correction or void of it appended since (the chips at the table are facts: such a start
  stands as played, the difference is owed in money).
* ``session_balance`` — a cash-out ≠ the stack the hands leave him with (nor, as for a
  start, the stack his last hand left him as it stood then); chips still on
  the table when the session is closed; and in total, buy-ins ≠ cash-outs where no finding
  above explains the difference (e.g. behind a hand whose payouts are unknown).
* ``settlement`` — once a session is closed and payments are recorded: payments ≠ what
  the nets call for (``net × chip value``; the house, whoever keeps the rake, is owed the
  rake the table took); one finding per player (or the house) who still owes.
* ``unsettled`` — a closed session with money owed and no payment recorded; shown only with
  ``audit --unsettled``.
* ``ledger_mismatch`` — a platform's ledger statement (PokerNow's ledger CSV, FORMATS.md
  "PokerNow ledger CSV"; the ``platform_ledger`` event) ≠ the replayed session: per player
  buy-ins, buy-outs, net; plus findings supplied from outside (``Series.external``).

Each finding is reported once: the books follow the chips actually on the table, so a wrong
payout or an unrecorded top-up does not make every later hand look wrong too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ledger.audit.books import HandFacts, PlayerBook, Series, SessionBook, StartCheck
from ledger.audit.rake_count import rake_alone
from ledger.audit.settle import HOUSE, fewest_transfers
from ledger.model.carry_rules import EITHER
from ledger.model.shell import shell_arg

#: The hand key of a finding about a whole session: it sorts after the session's hands.
SESSION_WIDE = 1 << 62


@dataclass(frozen=True)
class Finding:
    """One audit finding, of any check. ``kind`` the check's name; ``hand``/``player`` None
    when it is about the whole session or table; ``expected`` what the books call for,
    ``actual`` what was recorded (chips, or minor units for ``settlement``); ``message`` one
    sentence with both numbers and the signed difference."""

    kind: str
    session: str | None
    hand: str | None
    player: str | None
    expected: int
    actual: int
    message: str

    @property
    def diff(self) -> int:
        """``actual − expected`` (positive: more than the books call for)."""
        return self.actual - self.expected

    def as_json(self) -> dict[str, Any]:
        """The stable JSON shape: kind, session, hand, player, expected, actual, message."""
        return {"kind": self.kind, "session": self.session, "hand": self.hand,
                "player": self.player, "expected": self.expected, "actual": self.actual,
                "message": self.message}


class Scope(StrEnum):
    """What a check's function takes: one hand's facts, one session's book, the series."""

    HAND = "hand"
    SESSION = "session"
    SERIES = "series"


@dataclass(frozen=True)
class Check:
    """One registered check. ``name``: the ``kind`` of its findings (several entries may
    share one, a part per scope); ``scope``: what ``run`` takes — :class:`HandFacts`
    (``HAND``, run on each hand as it is folded), :class:`SessionBook` (``SESSION``, run
    once the session is complete, its hands still in ``book.hands``) or :class:`Series`
    (``SERIES``, run last; it reads the books and ``Series.external``, never
    ``Series.hands``, which the streaming audit does not keep, and its findings name no
    hand); ``rank``: unique, the order
    of findings of one session and hand (lower first); ``doc``: one line for docs/SQL.md;
    ``on_request``: run only when asked (``audit --unsettled``), never by the stored audit."""

    name: str
    scope: Scope
    rank: int
    run: Callable[[Any], list[Finding]]
    doc: str
    on_request: bool = False

    def over(self, series: Series) -> list[Finding]:
        """The check run on every hand, every book, or the series itself (its scope)."""
        if self.scope is Scope.HAND:
            return [f for h in series.hands for f in self.run(h)]
        if self.scope is Scope.SESSION:
            return [f for book in series.sessions.values() for f in self.run(book)]
        return self.run(series)


# ------------------------------------------------------------------ per hand


def hand_replays(h: HandFacts) -> list[Finding]:
    """A hand whose stored events the rules refuse: named, so that it is repaired (a
    correction or a void), while every other hand is still audited."""
    if h.error is None:
        return []
    return [Finding("unreplayable", h.session, h.hand, None, 0, 0,
                    f"hand {h.hand} cannot be replayed: {h.error}; repair it with "
                    f"`handledger correct {shell_arg(h.hand)} …` or `handledger void "
                    f"{shell_arg(h.hand)} …`")]


def hand_in_progress(h: HandFacts) -> list[Finding]:
    """A hand still open (RULES.md §1: its pots are settled when it ends): named as in
    progress, never as a conservation finding."""
    if h.error is not None or h.status != "open":
        return []
    return [Finding("in_progress", h.session, h.hand, None, 0, 0,
                    f"hand {h.hand} is in progress (not ended): {h.pot_in} chips in the pot so "
                    f"far, checked once it ends (`handledger act {shell_arg(h.hand)} end`) or is "
                    "voided")]


#: The replay's kinds of a payout difference that a site's conventions explain
#: (``replay.rake``): each is its own check; every other difference is a ``payout``.
SITE_KINDS = ("rake", "uncalled")


def _payouts(h: HandFacts, kind: str) -> list[Finding]:
    if not h.payouts:  # most hands: none
        return []
    return [Finding(kind, h.session, h.hand, None if f.player == "*" else f.player,
                    f.recomputed, f.recorded, f.message) for f in h.payouts
            if (f.kind if f.kind in SITE_KINDS else "payout") == kind]


def hand_payout(h: HandFacts) -> list[Finding]:
    """Recorded payouts of one hand that differ from the engine's awards (from the replay,
    per player; ``player`` None for an unverifiable hand whose table total is wrong), except
    those a site's rake or uncalled-bet convention explains."""
    return _payouts(h, "payout")


def hand_rake(h: HandFacts) -> list[Finding]:
    """The rake (recorded in the hand's file or live, or within the hand's rule:
    ``replay.rake``) of a hand whose payouts are wrong beside it, named with the rules'
    awards of the pots less it. None for a hand paid the rules' result less its rake, its
    one finding the rake kept (:func:`ledger.audit.rake_count.rake_alone`): the rules'
    result of a raked hand is its pots less the rake (docs/LIVE.md "A home game's rake"), so it
    was paid as they give; the books count its rake all the same (``balances``' rake line)."""
    if not h.payouts or rake_alone(h.payouts):
        return []
    return _payouts(h, "rake")


def hand_uncalled(h: HandFacts) -> list[Finding]:
    """Payouts short by exactly the uncalled bet, which some sites leave out."""
    return _payouts(h, "uncalled")


def hand_site_summary(h: HandFacts) -> list[Finding]:
    """A site text's summary that disagrees with the hand's own lines (FORMATS.md): its
    total pot against the chips the actions put in, collected + rake against the total pot,
    its main and side pots, each player's amount against what his lines collected. The
    books follow the lines; the finding says the site's own record does not add up
    (``expected`` what the lines give, ``actual`` what the summary says)."""
    return [Finding("site_summary", h.session, h.hand, player, lines, said,
                    f"hand {h.hand}: the site's summary disagrees with its own lines: {words}")
            for player, lines, said, words in h.site_summary]


def hand_conservation(h: HandFacts) -> list[Finding]:
    """Contributions + carried-in = awards + returned + carried, for a verifiable hand that
    ended (an open hand is :func:`hand_in_progress`); and a hand that ended paying nobody: no
    payout recorded and a showdown the rules cannot award (unknown cards), so its pot is
    lost to the books (``actual`` 0)."""
    if h.status != "open" and h.paid is None and h.pot_in:
        return [Finding(
            "chip_conservation", h.session, h.hand, None, h.pot_in, 0,
            f"hand {h.hand}: its {h.pot_in} chips are paid to nobody: no payout is recorded "
            "and the rules cannot award them (unknown cards); record who won (`handledger "
            f"correct {shell_arg(h.hand)} --insert-after SEQ 'pay PLAYER AMOUNT' --reason … --by "
            "…`, SEQ "
            "before its end) "
            f"({-h.pot_in:+d})")]
    if h.status == "open":
        return []
    if h.carried or h.carried_in:
        found = _carried_beyond(h)
        if found:
            return found
    if h.pot_out is None or h.pot_out == h.pot_in:
        return []
    return [Finding(
        "chip_conservation", h.session, h.hand, None, h.pot_in, h.pot_out,
        f"hand {h.hand}: {h.pot_in} chips went in (carried-in included) but awards, "
        f"returns and carried chips come to {h.pot_out} ({h.pot_out - h.pot_in:+d})")]


def _carried_beyond(h: HandFacts) -> list[Finding]:
    """A hand that ended carrying chips between hands where no chips can go (RULES.md §2.2, §3.8,
    §7.1): carried out or in by a hand of no session (no next hand can bring them in, no hand
    carried them), or carried out beside payouts that together exceed the chips that went
    in (a pot paid out and carried as well)."""
    if h.session is None:
        if h.carried:
            return [Finding(
                "chip_conservation", None, h.hand, None, h.carried, 0,
                f"hand {h.hand} carries {h.carried} chips to the session's next hand but "
                f"belongs to no session: no hand can bring them in ({-h.carried:+d})")]
        return [Finding(
            "chip_conservation", None, h.hand, None, 0, h.carried_in,
            f"hand {h.hand} brings in {h.carried_in} carried chips but belongs to no "
            f"session: no hand carried them ({h.carried_in:+d})")]
    leak = h.leak
    paid = sum(h.paid.values()) if h.paid else 0
    if not h.carried or not paid or leak is None or leak <= 0:
        return []  # (a carry other than the rules' alone is a payout finding: ``carry``)
    return [Finding(
        "chip_conservation", h.session, h.hand, None, h.pot_in, paid + h.carried,
        f"hand {h.hand}: the table paid {paid} and carried {h.carried} to the next hand, "
        f"{leak} more than the {h.pot_in} chips that went in ({leak:+d})")]


# ------------------------------------------------------------------ per session


def carried_chips(book: SessionBook) -> list[Finding]:
    """Chips carried out of a hand come into the session's next hand, and none are left when
    the session closes."""
    out: list[Finding] = []
    if book.name is None:
        return out
    pending, source, rule = 0, None, ""
    for h in book.hands:
        if h.carried_in != pending:
            where = f"hand {source} carried {pending} chips" if source else "no hand " \
                "carried chips"
            out.append(Finding(
                "chip_conservation", book.name, h.hand, None, pending, h.carried_in,
                f"hand {h.hand} brings in {h.carried_in} carried chips but {where} into it "
                f"({h.carried_in - pending:+d})"))
        pending, source, rule = h.carried, h.hand, h.carry_rule
    if book.closed and pending:
        out.append(Finding(
            "chip_conservation", book.name, source, None, pending, 0,
            f"hand {source} carried {pending} chips to the session's next hand "
            f"({rule or EITHER}), but the session closed with no hand that took them: "
            f"carried chips owed by nobody (`handledger settle --session {shell_arg(book.name)}` "
            "names "
            "the ways) "
            f"({-pending:+d})"))
    return out


def starting_stacks(book: SessionBook) -> list[Finding]:
    """A player's starting stack ≠ his stack after his previous hand plus the buy-ins between
    (his first hand: his buy-ins). Checked in opened sessions only, their hands stored before
    the opening too, from each player's second hand there on (his first is taken as it starts:
    no buy-in counts before the opening, RULES.md §1.1). A first hand with no
    buy-in before it, of a player whose buy-ins are all recorded after it, says so: the books
    take chips in the order recorded (RULES.md §1.1), and a buy-in recorded after a hand never
    funds it. A start that follows the previous hand as it stood when the later hand was
    recorded, before a correction or void of it appended since, stands as played: no finding
    (the difference is owed in money, :func:`replay.late_corrections.late_corrections`)."""
    out = []
    for s in book.starts:
        if s.expected is None or s.expected == s.actual or s.as_stood:
            continue
        if s.cashed is not None:
            basis = _since_cash_out(book.name, s)
        elif s.previous is None:
            later = book.players[s.player].buy_in if s.player in book.players else 0
            basis = (f"{s.player}'s buy-ins come to {s.bought}" if s.bought
                     else f"{s.player} has no buy-in" if not later
                     else f"{s.player} has no buy-in before it ({later} bought in the session "
                     "is recorded after it, and a buy-in counts only for the hands after it "
                     "unless recorded as made before one, `handledger buyin … --before HAND`, "
                     "RULES.md §1.1)")
        else:
            basis = f"{s.player} left hand {s.previous} with {s.expected - s.bought}"
            basis += f" and bought {s.bought} since" if s.bought else " and bought nothing"
        out.append(Finding(
            "stack_continuity", book.name, s.hand, s.player, s.expected, s.actual,
            f"hand {s.hand}: {s.player} starts with {s.actual} but {basis}: expected "
            f"{s.expected} ({s.actual - s.expected:+d})"))
    return out


def _since_cash_out(session: str | None, s: StartCheck) -> str:
    """Why a player seated again after his cash-out starts off the books: his cash-out (its
    entry, the hand before it) and what he bought since; with nothing
    bought, the two ways out (RULES.md §1.1: a cash-out takes his chips off the table)."""
    chips, entry = s.cashed or (0, None)
    which = f" (entry {entry})" if entry is not None else ""
    after = f" after hand {s.previous}" if s.previous is not None else ""
    basis = f"{s.player} cashed out {chips}{which}{after} and bought "
    if s.bought:
        return basis + f"{s.bought} since"
    way = (f"`handledger entry retract {shell_arg(session)} {shell_arg(entry)} --reason … --by …` "
           "if the cash-out "
           "was wrong, or " if entry is not None else "")
    return (basis + f"nothing since ({way}record a buy-in: `handledger buyin {shell_arg(session)} "
            f"{shell_arg(s.player)} CHIPS`)")


def balance(book: SessionBook) -> list[Finding]:
    """Cash-outs against the stacks the hands leave; chips left on the table of a closed
    session; and, for a closed session, buy-ins against cash-outs in total (reported only for
    a difference that the per-player and per-hand findings do not already explain)."""
    if not book.followed:
        return []
    out = _cash_outs(book) + _left_on_table(book)
    if book.closed:
        stood = sum(c.actual - c.expected for c in book.cash_outs
                    if c.as_stood and c.expected is not None)
        out.extend(_total(book, sum(d.diff for d in out) + stood))
    return out


def _cash_outs(book: SessionBook) -> list[Finding]:
    """A cash-out that is not the stack the hands leave; one that counts the stack his last
    hand left him as it stood when the cash-out was recorded, before a correction or void of
    that hand appended since, stands as recorded (the difference is owed in money)."""
    out = []
    for c in book.cash_outs:
        if c.expected is None or c.expected == c.actual or c.as_stood:
            continue
        have = (f"the hands leave {c.player} {c.expected}" if c.seated
                else f"{c.player} has no chips at the table (no buy-in since the last "
                "cash-out)")
        out.append(Finding(
            "session_balance", book.name, None, c.player, c.expected, c.actual,
            f"session {book.name}: {c.player} cashed out {c.actual} chips but {have} "
            f"({c.actual - c.expected:+d})"))
    return out


def _left_on_table(book: SessionBook) -> list[Finding]:
    if not book.closed:
        return []
    return [Finding(
        "session_balance", book.name, None, p.player, p.stack, 0,
        f"session {book.name} is closed but {p.player} never cashed out the {p.stack} chips "
        f"the hands leave {p.player} ({-p.stack:+d})")
        for p in book.players.values() if p.seated and p.stack]


def _total(book: SessionBook, cash_out_diffs: int) -> list[Finding]:
    """Σ cash-outs = Σ buy-ins + what the hands moved (known) + the gaps already found."""
    buy_in = sum(p.buy_in for p in book.players.values())
    cash_out = sum(p.cash_out for p in book.players.values())
    moved = sum(leak + h.carried_in - h.carried for h in book.hands
                if (leak := h.leak) is not None)  # a property: worked out once a hand
    gaps = sum(s.actual - s.expected for s in book.starts if s.expected is not None)
    expected = buy_in + moved + gaps + cash_out_diffs
    if cash_out == expected:
        return []
    return [Finding(
        "session_balance", book.name, None, None, expected, cash_out,
        f"session {book.name}: buy-ins total {buy_in} and the other findings account for "
        f"{expected - buy_in:+d}, but cash-outs total {cash_out} ({cash_out - expected:+d})")]


def payments_due(book: SessionBook) -> list[Finding]:
    """For a closed session with payments: each player's payments received − paid (money)
    must equal his net × chip value. The differences are settled on paper
    (:func:`ledger.audit.settle.fewest_transfers`) and each player who must still pay is
    named once, with whom he owes; so is each player a loss beyond the buy-ins was lost to,
    with what no payment settles until the books are put right (RULES.md §1.1)."""
    if not (book.closed and book.payments):
        return []
    return _still_owed(book, "settlement")


def unsettled(book: SessionBook) -> list[Finding]:
    """A closed session with money still owed and no payment recorded at all: each player who
    must pay, with whom he owes. Reported only when asked (``audit --unsettled``): many groups
    settle up outside the ledger."""
    if not book.closed or book.payments:
        return []
    return _still_owed(book, "unsettled")


def _still_owed(book: SessionBook, kind: str) -> list[Finding]:
    """Each party still to pay: the players, and the house (whoever keeps the rake, key
    :data:`HOUSE`: owed the rake the table took, ``book.rake`` in money; a finding about it
    has player None)."""
    due = {p.player: book.money(p.net) for p in book.players.values()}
    got = {p.player: p.received_minor - p.paid_minor for p in book.players.values()}
    if book.rake or book.house_received_minor or book.house_paid_minor:
        due[HOUSE] = book.money(book.rake)
        got[HOUSE] = book.house_received_minor - book.house_paid_minor
    owed = {p: due[p] - got[p] for p in due if due[p] != got[p]}
    if not owed:
        return []
    beyond = _lost_beyond_buy_ins(book)
    unpaid: dict[str, int] = {}  # a payee's share of the losses beyond the buy-ins
    if sum(owed.values()):
        debts: dict[str, list[tuple[str, int]]] = {p: [] for p in owed}
    else:
        # a loss beyond the buy-ins is no debt (RULES.md §1.1; `pay` refuses it): what the
        # players can pay is settled, the rest left to a party nobody pays for
        can = {p: o + beyond.get(p, 0) for p, o in owed.items()}
        can[_NOBODY] = -sum(can.values())
        debts = {p: [] for p in beyond if p in owed and owed[p] < 0}
        for payer, payee, amount in sorted(fewest_transfers(can),  # the house last, as settle
                                           key=lambda t: (t[0] == HOUSE, t[0], t[1] == HOUSE)):
            if payer != _NOBODY:
                debts.setdefault(payer, []).append((payee, amount))
            else:
                unpaid[payee] = unpaid.get(payee, 0) + amount
    out = []
    for player, to in debts.items():
        who = _party(player)
        text = "; ".join(f"{who} must still pay {_party(q)} {book.format(a)}" for q, a in to)
        if player in beyond:
            text = _beyond_words(book, book.players[player], text)
        out.append(_owed_finding(kind, book, player, due[player], got[player], text))
    for player, rest in unpaid.items():  # those the losses beyond the buy-ins were lost to
        who = _party(player)
        to = [f"{_party(q)} must still pay {who} {book.format(a)}"
              for q, paid in debts.items() for p, a in paid if p == player]
        text = "; ".join([*to, _unpaid_words(book, beyond, rest)])
        out.append(_owed_finding(kind, book, player, due[player], got[player], text))
    return out


def _owed_finding(kind: str, book: SessionBook, player: str, due: int, got: int,
                  text: str) -> Finding:
    """The finding of :func:`_still_owed` for ``player`` (or the house): the payments ``got``
    against the ``due`` his net (the rake) calls for, minor units, then ``text`` (what is
    still to pay, if anything)."""
    calls = "the rake calls" if player == HOUSE else f"{player}'s net calls"
    return Finding(
        kind, book.name, None, None if player == HOUSE else player, due, got,
        f"session {book.name}: payments come to {book.format(got)} for {_party(player)} but "
        f"{calls} for {book.format(due)} ({_signed(book, got - due)})"
        + (f": {text}" if text else ""))


def _unpaid_words(book: SessionBook, beyond: dict[str, int], rest: int) -> str:
    """What a finding of :func:`_still_owed` says of ``rest`` (minor units) owed to a player
    out of the losses ``beyond`` the buy-ins (:func:`_lost_beyond_buy_ins`), which no
    payment settles, in the words of the loser's finding (:func:`_beyond_words`)."""
    losers = [book.players[p] for p in beyond]
    lost = "; ".join(f"{p.player} lost {book.format(book.money(-p.net))}, more than the "
                     f"buy-ins ({book.format(book.money(p.buy_in))})" for p in losers)
    names = [p.player for p in losers]
    seated = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
    return (f"{book.format(rest)} of it no payment settles: {lost}: a hand seats {seated} "
            "with chips never bought, and nobody pays more than the chips put on the table "
            "(RULES.md §1.1; `pay` refuses it); the rest is settled once the books are put "
            "right (a buy-in not recorded: `handledger buyin … --before HAND`, or `entry "
            "amend` of the buy-in; a stack typed wrong: `handledger correct`)")


#: The party of :func:`_still_owed`'s transfers that pays the losses beyond the buy-ins,
#: which nobody owes (no player is named so: a name is never empty nor holds a NUL).
_NOBODY = "\0"


def _lost_beyond_buy_ins(book: SessionBook) -> dict[str, int]:
    """``{player: minor units}``: what each player of ``book`` lost beyond his buy-ins, in
    money (a hand seated him with chips he never bought), which no payment settles (RULES.md
    §1.1; ``pay`` bounds a player's payments by his buy-ins:
    :func:`replay.sessions.payments.within_buy_ins`; ``settle`` refuses the session:
    :func:`ledger.audit.settlement.lost_beyond_buy_ins`). Empty for a session whose chips
    come from outside its books (no buy-in, or a hand seating a player who has none), as
    those bounds leave it."""
    players = book.players.values()
    if not any(p.buy_in for p in players) or any(p.hands and not p.buy_in for p in players):
        return {}
    return {p.player: book.money(-p.net - p.buy_in) for p in players if -p.net > p.buy_in}


def _beyond_words(book: SessionBook, p: PlayerBook, text: str) -> str:
    """What a finding of :func:`_still_owed` says of ``p``, who lost beyond his buy-ins: the
    loss, the most he can owe (his buy-ins and what he was paid, as ``pay`` bounds him) and
    ``text``, the transfers he can still make; or that he paid it all."""
    most = book.money(p.buy_in) + p.received_minor
    who = p.player
    paid_them = (f" and the {book.format(p.received_minor)} paid to {who}" if p.received_minor
                 else "")
    then = f": {text}" if text else ", paid already"
    return (f"{who} lost {book.format(book.money(-p.net))}, more than the buy-ins "
            f"({book.format(book.money(p.buy_in))}): a hand seats {who} with chips never "
            "bought, and nobody pays more than the chips put on the table (RULES.md §1.1; "
            f"`pay` refuses it), so {who} can owe at most {book.format(most)} (the buy-ins"
            f"{paid_them}){then}; the rest is settled once the books are put right (a buy-in "
            "not recorded: `handledger buyin … --before HAND`, or `entry amend` of the buy-in; "
            "a stack typed wrong: `handledger correct`)")


def _party(name: str) -> str:
    """A player's name, or ``the house`` for :data:`HOUSE`."""
    return "the house" if name == HOUSE else name


def _signed(book: SessionBook, minor: int) -> str:
    return ("+" if minor > 0 else "") + book.format(minor)


_FIGURES = ("buy-ins", "buy-outs", "net")


def platform_statement(book: SessionBook) -> list[Finding]:
    """The session's latest platform ledger statement (PokerNow's ledger CSV) against the
    books at its place in the ledger, per player: buy-ins, buy-outs (cash-outs + chips still
    at the table) and net (the rules'). One finding per player whose figures differ;
    ``expected``/``actual`` are the books' and the statement's net when the nets differ, else
    the first figure that differs."""
    out = []
    s = book.statement
    for line in s.lines if s else ():
        stated = line.stated or (0, 0, 0)
        diffs = [(name, b, a) for name, b, a in zip(_FIGURES, line.books, stated, strict=True)
                 if b is not None and a != b]
        if not diffs:
            continue
        _, expected, actual = next((d for d in diffs if d[0] == "net"), diffs[0])
        who = f"{line.nickname} ({line.player})" if line.nickname not in (
            None, line.player) else line.player
        source = f"the {s.platform} ledger" + (f" {s.file}" if s.file else "")
        books = ", ".join(f"{name} {b}" for name, b, _ in diffs)
        signed = ", ".join(f"{name} {a - b:+d}" for name, b, a in diffs)
        said = (f"has no row for {who}, whom the replayed session gives {books}"
                if line.stated is None else "says " + ", ".join(
                    f"{name} {a}" for name, _, a in diffs)
                + f" for {who} but the replayed session gives {books}")
        out.append(Finding(
            "ledger_mismatch", book.name, None, line.player, expected, actual,
            f"session {book.name}: {source} {said} ({signed})"))
    return out


# ------------------------------------------------------------------ per series


def supplied(series: Series) -> list[Finding]:
    """The findings supplied from outside the books (``Series.external``), as given."""
    return [d for d in series.external if isinstance(d, Finding)]


# ------------------------------------------------------------------ the registry


def ranked_checks(checks: Iterable[Check]) -> tuple[Check, ...]:
    """The checks in rank order, each rank and each (name, scope) once.

    Raises:
        ValueError: two checks share a rank or a name and scope.
    """
    out = tuple(sorted(checks, key=lambda c: c.rank))
    for seen in ({c.rank for c in out}, {(c.name, c.scope) for c in out}):
        if len(seen) != len(out):
            raise ValueError("audit checks must differ in rank and in (name, scope)")
    return out


#: Every audit check, in rank order: the one list the batch audit, the streaming audit and
#: docs/SQL.md read.
REGISTRY: tuple[Check, ...] = ranked_checks([
    Check("unreplayable", Scope.HAND, -2, hand_replays,
          "a hand whose stored events the rules refuse (repair it with a correction or a "
          "void); its chips are unknown to the books"),
    Check("in_progress", Scope.HAND, -1, hand_in_progress,
          "a hand still open (recorded live, not yet ended): its chips are checked once it "
          "ends"),
    Check("payout", Scope.HAND, 0, hand_payout,
          "a recorded payout differs from the engine's award (the replay's discrepancies)"),
    Check("rake", Scope.HAND, 10, hand_rake,
          "the rake (the one the file records or the table recorded live, or within the "
          "hand's rake rule) of a hand paid wrong beside it, with the rules' awards of the "
          "pots less it; a hand paid just the pots less its rake is no finding"),
    Check("uncalled", Scope.HAND, 11, hand_uncalled,
          "a player was paid exactly the player's uncalled bet less (beside the rake, if "
          "any): the site leaves it out of what it says the player collected"),
    Check("site_summary", Scope.HAND, 12, hand_site_summary,
          "a site text's summary disagrees with the hand's own lines (its total pot, pots, "
          "rake or a player's amount); the books follow the lines"),
    Check("chip_conservation", Scope.HAND, 1, hand_conservation,
          "contributions + carried-in differ from awards + returned + carried; chips carried "
          "beside payouts beyond the pot, or by a hand of no session"),
    Check("chip_conservation", Scope.SESSION, 2, carried_chips,
          "chips carried out of a hand that the session's next hand does not bring in"),
    Check("stack_continuity", Scope.SESSION, 3, starting_stacks,
          "a starting stack differs from the stack after the player's previous hand plus the "
          "buy-ins between, as corrected and as it stood when the hand was dealt"),
    Check("session_balance", Scope.SESSION, 4, balance,
          "a cash-out differs from the stack the hands leave, as corrected and as they stood "
          "when it was counted; chips left on a closed table; buy-ins against cash-outs in "
          "total where no other finding explains it"),
    Check("settlement", Scope.SESSION, 5, payments_due,
          "a closed session's payments differ from what the nets call for (money, minor "
          "units; the house, who keeps the rake, is owed the rake: `player` NULL)"),
    Check("unsettled", Scope.SESSION, 9, unsettled,
          "a closed session with money still owed and no payment recorded (only with "
          "`audit --unsettled`)", on_request=True),
    Check("ledger_mismatch", Scope.SERIES, 6, supplied,
          "a finding handed to the audit from outside the books (`Series.external`; the "
          "ledger's own audit has none)"),
    Check("ledger_mismatch", Scope.SESSION, 7, platform_statement,
          "a platform's ledger statement differs from the replayed session (expected = the "
          "replay, actual = the platform)"),
])

#: The checks the stored audit runs (the derived table ``audit_discrepancies``): all but those
#: run only on request.
STORED: tuple[Check, ...] = tuple(c for c in REGISTRY if not c.on_request)

#: The registered names, in rank order: the ``kind`` values of every finding.
KINDS: tuple[str, ...] = tuple(dict.fromkeys(c.name for c in REGISTRY))


def kind(name: str) -> Callable[[Series], list[Finding]]:
    """The check ``name`` over a whole series: each of its registered parts over every hand,
    book or the series (:meth:`Check.over`), in rank order.

    Raises:
        KeyError: no check of that name is registered.
    """
    parts = [c for c in REGISTRY if c.name == name]
    if not parts:
        raise KeyError(f"no audit check named {name!r}")

    def run(series: Series) -> list[Finding]:
        return [f for c in parts for f in c.over(series)]

    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"Every ``{name}`` finding of a series: " + "; ".join(c.doc for c in parts)
    return run


#: Each kind over a whole series, in rank order (``__name__`` the kind).
CHECKS: list[Callable[[Series], list[Finding]]] = [kind(name) for name in KINDS]
#: The same by name (a convenience: a new check needs none).
payout = kind("payout")
chip_conservation = kind("chip_conservation")
stack_continuity = kind("stack_continuity")
session_balance = kind("session_balance")
settlement = kind("settlement")
ledger_mismatch = kind("ledger_mismatch")


def audit(series: Series, *, session: str | None = None,
          checks: Sequence[Check] | None = None) -> list[Finding]:
    """Run ``checks`` (registry entries) over ``series`` and return every finding (only
    ``session``'s when given), ordered by session (ledger order), hand (ledger order;
    session-wide findings last) and check rank. ``checks`` default: :data:`STORED`."""
    checks = STORED if checks is None else checks
    order = {name: i for i, name in enumerate(series.sessions)}
    ords = {h.hand: h.ord for h in series.hands}
    found = []
    for check in checks:
        for d in check.over(series):
            if session is None or d.session == session:
                found.append((order.get(d.session, len(order)),
                              ords.get(d.hand or "", SESSION_WIDE), check.rank, d))
    found.sort(key=lambda item: item[:3])
    return [d for *_, d in found]
