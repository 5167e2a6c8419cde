"""Everything a page about one hand shows: its steps, its end, its history, its money.

:func:`load_view` reads one hand's stored rows (and its session's ``session_opened`` event)
and :func:`hand_view` assembles a :class:`HandView`:

* ``corrected``: the hand as the ledger counts it (corrections and a void applied,
  :func:`replay.amendments.effective_events`) as a :class:`Version`: its steps
  (:func:`replay.steps.hand_steps`), every pot explained (the sentences ``show`` prints), what
  the table paid (the recorded payouts) beside the rules' result (awards + returned chips) per
  player, with each player's net and final stack as paid (the books' values), and each
  discrepancy (:func:`replay.fold.replay_events`, RULES.md §1.4–1.6, §2);
* ``original``: the same for the events as first recorded (None when the hand was never
  corrected or voided), so a view can switch between the two; an original the rules refuse
  (what a correction repaired) is its steps up to the refused event, status
  ``unreplayable``, with the refusal as its explanation;
* ``history``: every correction and void with its reason, author and time and what it changed,
  and a signed one's signature checked against the key directory by the code ``audit --keys``
  and ``verify`` use (:func:`ledger.audit.signatures.signed_amendments`; README, "Anchoring
  it"): who signed it and whether it verifies.

Money: a hand whose session was opened with a chip value (or given one later, ``session_changed``:
:func:`session_money`) shows amounts in that currency (``chip_value_minor``, ``currency``,
``decimals``); otherwise a hand whose ``Unit`` names a
currency uses it; otherwise amounts are chips only. Chips are ints; ``to_json()`` gives plain
JSON types for embedding in a page.

Raises:
    ledger.model.errors.NotFound: no such hand.
    engine.errors.IllegalAction: a stored event the rules reject.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ledger.audit.books import format_money
from ledger.audit.signatures import SignedAmendment, signed_amendments, signed_taken_back
from ledger.model import events as ev
from ledger.model.errors import NotFound, no_hand
from ledger.store import signing
from ledger.store.chain import SESSION_PREFIX
from replay.amendment_kinds import kinds_by_seq
from replay.amendments import in_force_before
from replay.fold import replay_events
from replay.ingest.export import Proof, proven
from replay.started_changes import replaced_start
from replay.steps import HandSteps, hand_steps
from replay.typed import stream_decimals
from replay.unknown_rules import unknown_result

__all__ = ["Money", "PayoutLine", "Version", "Change", "Amendment", "HandView", "hand_view",
           "load_view", "session_money", "event_text"]

_CHANGES = ("correction", "hand_voided")


@dataclass(frozen=True)
class Money:
    """What a chip is worth: ``minor_per_chip`` minor units of ``currency``, written with
    ``decimals`` places (FORMATS.md; the session's ``session_opened`` or the hand's Unit)."""

    minor_per_chip: int
    currency: str
    decimals: int

    def text(self, chips: int) -> str:
        """``150`` chips at 25 minor units, 2 decimals, USD → ``"37.50 USD"``."""
        return format_money(chips * self.minor_per_chip, self.decimals, self.currency)


@dataclass(frozen=True)
class PayoutLine:
    """One player's end of the hand, in chips: ``start`` stack, ``put_in`` (antes, blinds and
    bets), ``returned`` (uncalled, RULES.md §1.4), ``won`` (awards), ``rules`` = won +
    returned (what the rules push to him; None when the showdown is not verifiable; ``won``
    of the pots less the rake the hand records, docs/LIVE.md "A home game's rake"), ``paid``
    (what the table pushed; None when it recorded nothing), ``diff`` = paid − rules (None
    without both), ``net`` and ``final`` stack as the table paid them, the books' values
    (:attr:`replay.hand_replay.HandReplay.paid_net`: paid − put in, final = start + net; the rules'
    net where the payouts are unknown; docs/BOOKS.md, "Net has one meaning everywhere"), so a rake
    or a wrong payout shows in them, the rules' side in ``won``, ``rules`` and ``diff``; of a
    hand still in play (status ``open``), ``net`` and ``final`` are as the table stands now
    (paid so far − put in, the seat's stack at the last step), which the books count once
    it ends;
    ``discrepancy``: a discrepancy names him (RULES.md §1.4–1.6; a feasibility check when not
    verifiable)."""

    player: str
    start: int
    put_in: int
    returned: int
    won: int
    rules: int | None
    paid: int | None
    diff: int | None
    net: int
    final: int
    discrepancy: bool


@dataclass(frozen=True)
class Version:
    """One reading of the hand: ``kind`` ``corrected`` or ``original``; its ``steps``; every
    pot ``explanation``; ``payouts`` per player in seat order; ``recorded`` (the table recorded
    payouts); ``verifiable`` (the showdown could be computed); ``discrepancies`` as sentences
    with the player each names (None for the hand as a whole): how it was paid differently
    from the rules (:attr:`replay.hand_replay.HandReplay.differences`, so never the rake
    alone of a hand paid its pots less the rake it records); ``notes``, that rake kept first
    (:attr:`~replay.hand_replay.HandReplay.rake_kept`, as ``replay`` and ``show`` note it);
    ``status``; ``unknown``: of a complete hand whose showdown cannot be checked, what the
    rules say of it in ``whatif``'s words (:meth:`replay.unknown_rules.UnknownResult.not_known`
    and ``verdict``: ``by the rules: not known for Cy (showdown not verifiable: hole cards
    unknown); the payouts are a legal split of the pots``), else None."""

    kind: str
    steps: HandSteps
    explanation: tuple[str, ...]
    payouts: tuple[PayoutLine, ...]
    recorded: bool
    verifiable: bool
    discrepancies: tuple[tuple[str | None, str], ...]
    notes: tuple[str, ...]
    status: str
    unknown: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "steps": [s.to_json() for s in self.steps.steps],
            "corrected": self.steps.corrected, "explanation": list(self.explanation),
            "payouts": [asdict(p) for p in self.payouts], "recorded": self.recorded,
            "verifiable": self.verifiable,
            "discrepancies": [{"player": p, "message": m} for p, m in self.discrepancies],
            "notes": list(self.notes), "status": self.status,
        }


@dataclass(frozen=True)
class Change:
    """One change of a correction: ``op`` (replace, insert_after, delete) at original ``seq``;
    ``was``: the event in force there before the correction, in words (naming the earlier
    correction that set or deleted it), ``now``: the new event (None for delete);
    ``differs``: for a ``hand_started`` replaced by another, whose words are the same, what
    it changed (``seat Ann's stack 100 → 110``, :mod:`replay.started_changes`)."""

    op: str
    seq: int
    was: str | None
    now: str | None
    differs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Amendment:
    """A correction or void as stored: its ``seq`` in the hand stream, ledger ``position``,
    ``recorded_at`` (ISO 8601, UTC), ``type``, ``kind`` (what the host did: ``"correction"``,
    ``"undo"`` or ``"void"``, a void's own correction a ``"void"`` too, as the report's
    session page and index tell them: :func:`replay.amendment_kinds.kinds_by_seq`), ``by``,
    ``reason`` and its ``changes``;
    ``signer``: the name a signed one was signed as (None: unsigned), ``signature`` its
    check against the key directory (:class:`ledger.audit.signatures.SignedAmendment`:
    ``status`` good, bad or unknown, and its ``note``; None: unsigned, or not checked),
    ``covers``: what its signature binds, in words (:func:`ledger.store.signing.binding`);
    ``unsigned``: the signed corrections and voids an unsigned one takes back (an ``undo``
    without ``--sign``), as ``history`` names them (``the correction at seq 18 (signed by
    floor)``)."""

    seq: int
    position: int
    recorded_at: str
    type: str
    kind: str
    by: str
    reason: str
    changes: tuple[Change, ...]
    signer: str | None = None
    signature: SignedAmendment | None = None
    covers: str | None = None
    unsigned: tuple[str, ...] = ()


@dataclass(frozen=True)
class HandView:
    """A hand for a page: ``hand``, ``session``, ``game`` and its name, ``stakes`` in words,
    ``button``, ``starting`` stacks in seat order, ``money`` (None: chips only), the
    ``corrected`` and ``original`` versions (see the module doc) and the ``history``;
    ``late``: the words of each of its corrections appended after later hands or cash-outs
    of its session took its chips, with the chips it leaves owed
    (:meth:`replay.late_corrections.LateCorrection.words`, as ``audit`` notes it)."""

    hand: str
    session: str | None
    date: str | None
    game: str
    game_name: str
    stakes: str
    button: str | None
    starting: tuple[tuple[str, int], ...]
    money: Money | None
    decimals: int
    corrected: Version
    original: Version | None
    history: tuple[Amendment, ...]
    late: tuple[str, ...] = ()

    def unit_note(self) -> str | None:
        """For a hand kept in a unit with decimals (FORMATS.md §1: a file in dollars and
        cents), the line ``show`` prints: its stacks, bets, pots and payouts are counted in
        chips of its smallest unit while its events write actions as its notation does
        (``posts the small blind of 0.50``); None for a hand in whole chips."""
        from replay.typed import smallest_unit_note

        return smallest_unit_note(self.decimals, "stacks, bets, pots and payouts")

    def signature_line(self) -> str | None:
        """One line on the hand's signed corrections and voids as checked
        (:func:`ledger.audit.signatures.summary_line`); None when none was checked."""
        from ledger.audit.signatures import summary_line

        return summary_line([a.signature for a in self.history if a.signature is not None])

    def failing_signatures(self) -> list[Amendment]:
        """The corrections and voids whose signature fails, in seq order."""
        return [a for a in self.history
                if a.signature is not None and a.signature.status == "bad"]

    def chip_text(self) -> str | None:
        """What one chip is in the hand's notation (``"0.01"`` for a hand kept in cents);
        None for a hand in whole chips."""
        from engine.notation import format_amount

        return format_amount(1, self.decimals) if self.decimals else None

    def to_json(self) -> dict[str, Any]:
        """The whole view as JSON types (chips as ints; money as its three fields)."""
        return {
            "hand": self.hand, "session": self.session, "date": self.date, "game": self.game,
            "game_name": self.game_name, "stakes": self.stakes, "button": self.button,
            "starting": [list(s) for s in self.starting],
            "money": asdict(self.money) if self.money else None, "decimals": self.decimals,
            "board_cards": self.corrected.steps.board_cards,
            "versions": {"corrected": self.corrected.to_json(),
                         **({"original": self.original.to_json()} if self.original else {})},
            "history": [asdict(a) for a in self.history], "late": list(self.late),
        }


#: What ``view`` says of a broken chain (:func:`replay.ingest.export.proven`), as ``report``
#: says it of its pages (:data:`replay.report.REPORT`).
VIEW = Proof(
    refused="no page written (it would show rows changed outside handledger as the books)",
    retry="view with --broken-ok for a page of the rows as they are",
    anyway="written anyway (--broken-ok): the page shows the rows as they are")


def load_view(ledger: Any, hand: str, keys: Any = None, *, broken_ok: bool = False,
              note: Callable[[str], None] | None = None) -> HandView:
    """The :class:`HandView` of ``hand`` in ``ledger`` (read only), its signed corrections
    and voids checked against ``keys`` (a :class:`ledger.store.keys.KeyStore`; None: not
    checked). Its hash chain is proven first, as ``report`` proves it before its pages
    (:func:`replay.ingest.export.proven`): a page vouches for the rows it shows as the books
    (docs/LEDGER.md "Tampering"). ``broken_ok``: a broken chain is a ``warning:`` line given
    to ``note`` instead.

    Raises:
        ChainBroken: the chain breaks, named as ``verify`` names it (``ledger x.duckdb: broken
            at position 689: …: no page written (…); run `handledger verify`, or view with
            --broken-ok …``), unless ``broken_ok``; LedgerCorrupt: a block of the events
            fails its checksum.
        NotFound: the ledger holds no such hand.
        IllegalAction: a stored event the rules reject.
        LedgerError: a damaged public key file in the key directory.
    """
    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    proven(ledger, broken_ok, note or (lambda _line: None), VIEW)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    session = rows[0].session or rows[0].event.session
    checked = None
    if keys is not None:
        from replay.ingest.export import session_chips

        checked = signed_amendments(ledger, keys, [hand], chip_of=session_chips(ledger))
    late: tuple[str, ...] = ()
    if session and any(r.type in ("correction", "hand_voided") for r in rows):
        from replay.late_corrections import late_corrections

        late = tuple(c.words() for c in late_corrections(ledger, session) if c.hand == hand)
    return hand_view(rows, opened=_opened(ledger, session) if session else None,
                     signatures=checked, late=late)


def _opened(ledger: Any, session: str) -> ev.SessionOpened | None:
    try:
        rows = ledger.read(SESSION_PREFIX + session)
    except NotFound:
        return None
    return session_money([r.event for r in rows if r.type in _MONEY])


_MONEY = ("session_opened", "session_changed")


def session_money(events: Sequence[Any]) -> ev.SessionOpened | None:
    """A session's ``session_opened`` event (its first) as its ``session_changed`` events
    leave it: the chip value, currency and decimals of the latest (the latest wins, for the
    whole session: :class:`ledger.model.events.SessionChanged`). ``events``: the session's
    events in ledger order (others are ignored). None: never opened."""
    opened = next((e for e in events if e.type == "session_opened"), None)
    if opened is None:
        return None
    for e in events:
        if e.type == "session_changed":
            opened = opened.model_copy(update={"chip_value_minor": e.chip_value_minor,
                                               "currency": e.currency, "decimals": e.decimals})
    return opened


def hand_view(rows: Sequence[Any], *, opened: ev.SessionOpened | None = None,
              signatures: Sequence[SignedAmendment] | None = None,
              late: Sequence[str] = ()) -> HandView:
    """Assemble the view of one hand from its stored rows (``ledger.store.store.StoredEvent``,
    by seq), its session's ``session_opened`` event (None: none), its signed amendments
    as :func:`ledger.audit.signatures.signed_amendments` checked them (None: not checked)
    and the words of its corrections appended after the chips moved on (:attr:`HandView.late`).

    Raises:
        IllegalAction: a stored event the rules reject.
    """
    events = [r.event for r in rows]
    started: ev.HandStarted = events[0]
    session = rows[0].session or started.session
    corrected = _version("corrected", events, session)
    amended = any(e.type in _CHANGES for e in events)
    original = _version("original", events, session) if amended else None
    return HandView(
        hand=started.hand, session=session, date=opened.date if opened else None,
        game=started.game, game_name=corrected.steps.game_name, stakes=_stakes(started),
        button=started.button, starting=tuple((s.player, s.stack) for s in started.seats),
        money=_money(started, opened), decimals=started.unit.decimals, corrected=corrected,
        original=original, history=_history(rows, events, signatures), late=tuple(late),
    )


def _version(kind: str, events: list[Any], session: str | None) -> Version:
    """The ``kind`` reading of a stored stream. An original that the rules refuse (the
    correction repaired it) is shown up to the refused event, status ``unreplayable``, its
    explanation the refusal; a corrected stream the rules refuse raises."""
    original = kind == "original"
    steps = hand_steps(events, original=original, lenient=original)
    if steps.broken is not None:
        return Version(
            kind=kind, steps=steps, explanation=(steps.broken,),
            payouts=(), recorded=False, verifiable=False, discrepancies=(),
            notes=(f"the hand as first recorded does not replay: {steps.broken}",),
            status="unreplayable",
        )
    r = replay_events(events, session=session, original=original)
    res = r.result
    # the rake, once the rules' side is the pots less it, is no player's difference: a
    # payout wrong beside it is a finding of its own (docs/LIVE.md, "A home game's rake"); a hand
    # paid its pots less the rake has none, the rake kept a note (as `replay` and `show`)
    wrong = {d.player for d in r.differences if d.kind != "rake" or r.due is None}
    net = r.paid_net  # the books' net: what the table paid minus what he put in
    if res.status == "open":  # in play: as the table stands now, the seats' stacks
        net = {s.player: s.stack - res.starting[s.player] for s in steps.last.seats}
    won = r.won  # of the pots less the rake the hand records (docs/LIVE.md, "A home game's rake")
    lines = []
    for p in res.players:
        rules = won[p] + res.returned.get(p, 0) if res.verifiable else None
        paid = None if r.recorded is None else r.recorded.get(p, 0)
        lines.append(PayoutLine(
            player=p, start=res.starting[p], put_in=res.contributions[p],
            returned=res.returned.get(p, 0), won=won[p], rules=rules, paid=paid,
            diff=None if paid is None or rules is None else paid - rules, net=net[p],
            final=res.starting[p] + net[p],
            discrepancy=p in wrong,
        ))
    return Version(
        kind=kind, steps=steps, explanation=steps.last.explanation(), payouts=tuple(lines),
        recorded=r.recorded is not None, verifiable=res.verifiable,
        discrepancies=tuple((d.named, d.sentence()) for d in r.differences),
        notes=(*(d.sentence() for d in r.rake_kept), *r.notes), status=res.status,
        unknown=None if (u := unknown_result(r)) is None else f"{u.not_known()}; {u.verdict()}",
    )


def _history(rows: Sequence[Any], events: list[Any],
             signatures: Sequence[SignedAmendment] | None = None) -> tuple[Amendment, ...]:
    by_seq = {r.seq: e for r, e in zip(rows, events, strict=True)}
    checked = {a.seq: a for a in signatures or ()}
    kinds = kinds_by_seq(rows)
    decimals = stream_decimals(events)
    out = []
    for index, (r, e) in enumerate(zip(rows, events, strict=True)):
        if e.type not in _CHANGES:
            continue
        changes = ()
        if e.type == "correction":
            before = in_force_before(events, r.seq)  # a correction of a correction: its value
            changes = tuple(
                Change(c.op, c.seq, _was(c.seq, by_seq, before),
                       event_text(ev.parse_event(c.event)) if c.event is not None else None,
                       _differs(c, before, decimals))
                for c in e.changes
            )
        signer = e.signature.signer if e.signature is not None else None
        taken = () if signer is not None else tuple(
            f"the {'void' if t['type'] == 'hand_voided' else 'correction'} at seq {t['seq']} "
            f"(signed by {t['signer']})" for t in signed_taken_back(e, rows))
        out.append(Amendment(r.seq, r.position, r.recorded_at.isoformat(), e.type,
                             kinds[r.seq], e.by, e.reason, changes, signer, checked.get(r.seq),
                             signing.binding(e, index) if signer is not None else None, taken))
    return tuple(out)


def _differs(change: ev.Change, before: dict[int, tuple[Any, int | None]], decimals: int
             ) -> tuple[str, ...]:
    """What a change replacing a ``hand_started`` by another changed, in words
    (:func:`replay.started_changes.started_changes`); ``()`` for any other change."""
    return tuple(replaced_start(change, before.get(change.seq, (None, None))[0], decimals)
                 or ())


def _was(seq: int, by_seq: dict[int, Any], before: dict[int, tuple[Any, int | None]]
         ) -> str | None:
    """What a change at ``seq`` replaced, deleted or came after, in words: the event in force
    there before its correction (``before``: :func:`replay.amendments.in_force_before`), ``deleted
    by correction N`` when an earlier one deleted it, or the correction or void it takes
    back."""
    if seq in before:
        event, setter = before[seq]
        if event is None:
            return f"deleted by correction {setter}"
        return event_text(event) + (f" (set by correction {setter})" if setter else "")
    return event_text(by_seq[seq]) if seq in by_seq else None


def _money(started: ev.HandStarted, opened: ev.SessionOpened | None) -> Money | None:
    if opened is not None and opened.currency:
        return Money(opened.chip_value_minor, opened.currency, opened.decimals)
    unit = started.unit
    if unit.currency:
        return Money(*unit.money())
    return None


def _stakes(started: ev.HandStarted) -> str:
    st = started.stakes
    parts = []
    blinds = [b for b in st.blinds_or_straddles if b > 0]
    if blinds:
        parts.append("blinds " + "/".join(map(str, blinds)))
    antes = sorted({a for a in st.antes if a > 0})
    if antes:
        parts.append("ante " + "/".join(map(str, antes)))
    if st.bring_in:
        parts.append(f"bring-in {st.bring_in}")
    if st.small_bet or st.big_bet:
        parts.append(f"bets {st.small_bet}/{st.big_bet}")
    label = {"no_limit": "no limit", "pot_limit": "pot limit", "fixed_limit": "fixed limit"}
    return ", ".join([label[st.betting], *parts])


def event_text(event: Any) -> str:
    """An event in the words ``handledger correct`` accepts where it can (``pay Bob 400``,
    ``Ann cbr 20``, ``d db 7h``), else its type and fields (``hand_started dispute-1``)."""
    t = event.type
    p = getattr(event, "player", None)
    if t == "recorded_payout":
        return f"{'returned' if event.returned else 'pay'} {p} {event.amount}"
    if t == "recorded_rake":
        return f"rake {event.amount}"
    if t == "hand_ended":
        return "end" if event.status == "complete" else "end (incomplete)"
    if t == "cards_dealt":
        cards = "".join(event.cards)
        return f"d dh {p} {cards}" if p else f"d db {cards}"
    simple = {"check": "cc", "call": "cc", "fold": "f", "muck": "sm"}
    if t in simple:
        return f"{p} {simple[t]}"
    if t in ("bet_raise", "all_in"):
        return f"{p} cbr {event.to}" if event.to is not None else f"{p} all-in"
    if t == "reveal":
        return f"{p} sm {''.join(event.cards) or '-'}"
    if t == "declaration":
        return f"{p} dcl {event.direction}"
    if t == "discard":
        return f"{p} sd {''.join(event.cards)}".rstrip()
    if t == "forced_bet":
        return f"{p} posts {event.kind.replace('_', ' ')} {event.amount}"
    if t == "hand_started":
        return f"hand_started {event.hand}"
    return t
