"""A replayed hand (:class:`HandReplay`): the engine's result of its pots and awards beside
what the table recorded paying, the discrepancies between them, and each player's net as the
rules and as the books count it (docs/BOOKS.md, "Net has one meaning everywhere").

:func:`replay.fold.replay_events` makes one; :meth:`HandReplay.as_json` is its stable JSON
shape (``replay --json``). Chips are integers throughout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ledger.audit.rake_count import rake_alone

if TYPE_CHECKING:  # loaded where a hand is settled: a live action only folds its hand
    from engine.awards import PotAward
    from engine.settle import HandResult
    from replay.compare import Discrepancy

#: The notes that make no problem of a hand: that it was corrected, that its payouts were not
#: recorded (:data:`replay.compare.NO_PAYOUTS`, spelt here so that a live action need not load
#: the comparison).
_NO_PROBLEM = frozenset({"corrected", "no recorded payouts"})


@dataclass(frozen=True)
class HandReplay:
    """A replayed hand: the engine's result, the recorded payouts per player (chips, ``None``
    when the source recorded none), the discrepancies (values, never exceptions) and notes
    such as "showdown not verifiable"; ``rake``: the rake recorded at the table (chips, a
    ``recorded_rake``), None when none was. A hand that records a rake records its payouts:
    with none, ``recorded`` is ``{}``, nobody paid (the rake took the whole pot), never
    unknown; so too a file's rake of the whole pot with no payouts (an import refuses any
    other rake without them). ``decimals``: those of the hand's unit (2: a file in dollars and
    cents, whose chips are cents; FORMATS.md §1); ``unit``: that unit whole, ``(minor units a
    chip is worth, currency, decimals)``, what a chip of a hand of no session is worth.
    ``due``: the rules' awards and returns once the rake the hand records (at the table or in
    its file) is taken, ``{player: chips}`` (:func:`replay.rake.rules_due`), None when it
    records none or they cannot be so awarded: the rules' result is then the whole pots'.
    ``raked``: its pots less that rake as the rules award them
    (:func:`replay.raked_pots.rules_pots`), None when ``due`` is."""

    hand: str
    session: str | None
    game: str
    result: HandResult
    recorded: dict[str, int] | None
    discrepancies: tuple[Discrepancy, ...]
    notes: tuple[str, ...]
    corrected: bool = False
    rake: int | None = None
    decimals: int = 0
    unit: tuple[int, str | None, int] = (1, None, 0)
    due: dict[str, int] | None = None
    raked: tuple[PotAward, ...] | None = None

    def __init__(self, hand: str, session: str | None, game: str, result: HandResult,
                 recorded: dict[str, int] | None, discrepancies: tuple[Discrepancy, ...],
                 notes: tuple[str, ...], corrected: bool = False, rake: int | None = None,
                 decimals: int = 0, unit: tuple[int, str | None, int] = (1, None, 0),
                 due: dict[str, int] | None = None,
                 raked: tuple[PotAward, ...] | None = None) -> None:
        # the fields above, written as the generated __init__ would (one made per replayed
        # hand: the frozen dataclass's own sets each through object.__setattr__, twice the
        # time); a new field goes here too
        self.__dict__.update(hand=hand, session=session, game=game, result=result,
                             recorded=recorded, discrepancies=discrepancies, notes=notes,
                             corrected=corrected, rake=rake, decimals=decimals, unit=unit,
                             due=due, raked=raked)

    @property
    def differences(self) -> tuple[Discrepancy, ...]:
        """The discrepancies that make the hand paid differently from the rules: all of
        them, but none when the only one is the rake the table kept (its payouts are the
        rules' result less the rake: docs/LIVE.md "A home game's rake";
        :func:`ledger.audit.rake_count.rake_alone`, as the audit's ``rake`` check reads it).
        ``replay``'s count and exit status, ``run``'s problems and its DISCREPANCY lines
        read these."""
        found = self.discrepancies
        return () if found and rake_alone(found) else found

    @property
    def paid_otherwise(self) -> tuple[str, ...]:
        """The payouts that differ from what the rules award (the ``payout`` discrepancies,
        RULES.md §2), or, where the showdown is not verifiable (a hole card unknown), that no
        legal split of the pots pays (the ``infeasible`` one,
        :func:`replay.compare.legal_split`), each in a sentence as ``state`` and ``replay``
        name them (``hand w1: Ann was paid 0, the rules give 6 (-6)``): what ``act … end``,
        ``correct`` and ``undo`` warn of, the hand recorded still (the table's payout, or the
        host's correction, is history: docs/BOOKS.md "Net has one meaning everywhere"). None for
        the rake the hand records (what the table kept, not a payout the rules contradict)
        nor while it is in play (no discrepancy until it ends)."""
        return tuple(d.sentence() for d in self.discrepancies
                     if d.kind in ("payout", "infeasible"))

    @property
    def rake_kept(self) -> tuple[Discrepancy, ...]:
        """The hand's ``rake`` finding when it is its only one (:attr:`differences` is then
        empty): what the table kept, said in a note, never as a discrepancy."""
        found = self.discrepancies
        return found if found and rake_alone(found) else ()

    @property
    def problem(self) -> bool:
        """Whether ``replay --problems`` and ``run`` print the hand: it was paid differently
        from the rules (:attr:`differences`) or has a note (a showdown not verifiable, a
        log cut short, …) other than that it was corrected (a corrected hand is shown as
        corrected, a problem only when it is still paid differently, or for another note) or
        that its payouts were not recorded (``end`` at once, a file without winnings: the
        rules' awards count, nothing is disputed; a showdown not verifiable still is one). A
        voided hand is none: every chip went back, as the host meant (its notes say so, and
        what it carried passes on), so nothing of it is paid differently or unverified."""
        if self.result.status == "voided":
            return bool(self.differences)
        return bool(self.differences) or any(n not in _NO_PROBLEM for n in self.notes)

    @property
    def net(self) -> dict[str, int]:
        """Each player's chips won (+) or lost (−) in the hand. From the engine when the
        showdown is verifiable; from the recorded payouts when it is not (their feasibility
        is reported as discrepancies); an unverifiable hand with no payouts nets only its
        returned chips. A hand still in progress (``open``) has nobody paid yet: each player's
        net is minus what he put in so far (docs/BOOKS.md, "Net has one meaning everywhere"), the
        rules' result of its pots counts once it ends. A hand that records a rake: the rules'
        result once it is taken (:attr:`due`)."""
        r = self.result
        if r.status == "open":
            return {p: -r.contributions[p] for p in r.players}
        if self.due is not None:
            due, put_in = self.due, r.contributions
            return {p: due[p] - put_in[p] for p in r.players}
        if r.verifiable or self.recorded is None:
            return dict(r.net)
        return {p: self.recorded.get(p, 0) - r.contributions[p] for p in r.players}

    @property
    def won(self) -> dict[str, int]:
        """Each player's chips won from the pots by the rules (no returned uncalled bet): the
        awards of the pots less the rake the hand records (:attr:`raked`), else of the whole
        pots (docs/LIVE.md, "A home game's rake")."""
        if self.due is None:
            return dict(self.result.awards)
        back = self.result.returned
        return {p: c - back.get(p, 0) for p, c in self.due.items()}

    @property
    def explanation(self) -> tuple[str, ...]:
        """Every pot in sentences, main pot first: of the pots less the rake the hand records
        (:attr:`raked`: ``Main pot 18, 17 after the rake of 1 (Ann, Bob): …``), else the
        engine's of the whole pots."""
        if self.raked is None:
            return tuple(self.result.lines)
        return tuple(line for pot in self.raked for line in pot.lines)

    @property
    def carried_on(self) -> int:
        """Chips this hand passes to the session's next hand (RULES.md §2.2, §3.8, §7.1): those its
        ``carry_over`` (out) records, else those it leaves for the next hand to claim
        (:func:`replay.compare.carried_on`: what the rules carry, less any the table paid
        out; a voided or incomplete hand's, the chips carried into it)."""
        r = self.result
        if r.carried_out:
            return r.carried_out
        if not r.carried:
            return 0
        from replay.compare import carried_on

        return carried_on(r, self.recorded, self.rake)

    @property
    def final_stacks(self) -> dict[str, int]:
        """Each player's stack after the hand by the rules (starting + :attr:`net`)."""
        return {p: self.result.starting[p] + n for p, n in self.net.items()}

    @property
    def paid(self) -> dict[str, int] | None:
        """The chips the table pushed to each player (pots and uncalled bets): the recorded
        payouts; the engine's awards and returns when none were recorded and the showdown is
        verifiable; every contribution back for a voided or incomplete hand (recorded payouts
        of a voided hand count for nothing); nothing yet for a hand still in progress, though
        the betting is over or payouts are recorded (they count once it ends). None when
        unknown (an unverifiable showdown with no payouts recorded)."""
        r = self.result
        status, recorded = r.status, self.recorded
        if status == "open":
            return dict.fromkeys(r.players, 0)
        if status not in ("voided", "incomplete") and recorded is not None:
            return {p: recorded.get(p, 0) for p in r.players}
        if r.verifiable or status in ("voided", "incomplete"):
            awards, returned = r.awards, r.returned
            return {p: awards[p] + returned.get(p, 0) for p in r.players}
        return None

    @property
    def paid_net(self) -> dict[str, int]:
        """**The books' net** of each player in this hand: what the table paid him minus what
        he put in (:attr:`paid`), the rules' :attr:`net` when the payouts are unknown. It is
        what balances, standings, settle-up and the chart add up; where it differs from the
        rules' net the audit reports a ``payout`` finding, and a correction moves it."""
        return self._paid_net(self.paid)

    def books(self) -> tuple[dict[str, int] | None, dict[str, int], dict[str, int]]:
        """``(paid, net, paid_net)``: :attr:`paid`, :attr:`net` and :attr:`paid_net` (each a
        new dict), ``paid`` worked out once for the two."""
        paid = self.paid
        return paid, self.net, self._paid_net(paid)

    def _paid_net(self, paid: dict[str, int] | None) -> dict[str, int]:
        if paid is None:
            return self.net
        put_in = self.result.contributions
        return {p: paid[p] - put_in[p] for p in self.result.players}

    def as_json(self) -> dict[str, Any]:
        """The stable JSON shape of the hand (``replay --json``; docs/COMMANDS.md, "replay --json"):
        hand, session, game, status, verifiable, pots (amount, eligible, awards, carried,
        explanation), returned, carried, net, final_stacks, recorded, discrepancies (player,
        recorded, recomputed, diff, kind, message), declarations, notes. Chips throughout, and
        what a chip is worth as the hand records it (:attr:`unit`; ``replay`` gives a hand of
        an opened session its session's: :mod:`replay.session_chips`): ``chip_value_minor``
        (minor units of ``currency`` a chip is worth), ``currency`` (None: plain chips) and
        ``decimals`` (those of the minor unit), as the ``hands`` table names them (HandHQ
        dollars and cents: 1, ``"USD"``, 2, so an amount of 10000 is 100.00 USD)."""
        res = self.result
        minor, currency, decimals = self.unit
        return {
            "hand": self.hand,
            "session": self.session,
            "game": self.game,
            "chip_value_minor": minor,
            "currency": currency,
            "decimals": decimals,
            "status": res.status,
            "verifiable": res.verifiable,
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible), "awards": dict(p.awards),
                 "carried": p.carried, "explanation": list(p.lines)}
                for p in res.pots
            ],
            "returned": dict(res.returned),
            "carried": res.carried,
            "net": self.net,
            "final_stacks": self.final_stacks,
            "recorded": self.recorded,
            "discrepancies": [
                {"player": d.named, "recorded": d.recorded, "recomputed": d.recomputed,
                 "diff": d.diff, "kind": d.kind, "message": d.sentence()}
                for d in self.discrepancies
            ],
            "declarations": dict(res.declarations),
            "notes": list(self.notes),
        }


def replay_json(replay: HandReplay) -> dict[str, Any]:
    """:meth:`HandReplay.as_json` as a function (a renderer for :mod:`replay.replaying`)."""
    return replay.as_json()
