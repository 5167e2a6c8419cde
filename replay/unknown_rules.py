"""The rules' result of a showdown that cannot be checked (unknown hole cards), in words.

When a needed hand's cards are unknown, the engine awards none of the pots that need them
(``PotAward.verifiable`` False): who wins them is not known, so neither is the rules' net of
a player eligible for one. :attr:`replay.hand_replay.HandReplay.net` then stands in with the net as
the table paid it, which is the books' number, never the rules'. What can be said is what
``replay`` says (README, "Unknown hole cards"; :mod:`replay.compare`): which splits of those
pots would be legal (each whole to one eligible player or evenly to those who tie, odd chips
one each, RULES.md §2.1; a high half and a low half each so in a hi-lo game, §2.3) and
whether the recorded payouts are one of them. ``whatif`` and ``correct`` say it so
(:mod:`replay.whatif`, :mod:`replay.corrections`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.awards import divide
from replay.fold import HandReplay


@dataclass(frozen=True)
class OpenPot:
    """A pot the rules cannot award: ``index`` 0 the main pot, 1… a side pot; ``amount`` in
    chips; ``eligible`` the players who may win it."""

    index: int
    amount: int
    eligible: tuple[str, ...]

    @property
    def name(self) -> str:
        """``"main pot"``, ``"side pot 1"`` (as ``show`` names it)."""
        return "main pot" if self.index == 0 else f"side pot {self.index}"


@dataclass(frozen=True)
class UnknownResult:
    """The rules' result of a complete hand whose showdown cannot be checked.

    ``players``: those whose rules' net is not known (eligible for an :class:`OpenPot`);
    ``pots``: the pots the rules cannot award; ``hilo``: they split high and low;
    ``legal``: the recorded payouts are a legal split of the pots (True), are not (False),
    or it is not decided (None: no payouts recorded, a rake taken from them, or a search
    cut off); ``why``: ``replay``'s words for a payout that is not (or is not checked as) a
    legal split, empty otherwise; ``chip``: the smallest chip in play, each odd chip
    (RULES.md §2.1)."""

    players: tuple[str, ...]
    pots: tuple[OpenPot, ...]
    hilo: bool
    legal: bool | None
    why: tuple[str, ...] = ()
    chip: int = 1

    def pot_words(self) -> list[str]:
        """A line per pot naming the legal ways to pay it: ``"main pot 330 (Ann, Bob, Cy):
        330 to one, 165 each to two who tie, 110 each to three (RULES.md §2.1)"``."""
        return [f"{pot.name} {pot.amount} ({', '.join(pot.eligible)}): "
                + even_split_words(pot.amount, len(pot.eligible), self.chip)
                + ("; or a high half of {} and a low half of {}, each so (RULES.md §2.3)"
                   .format(*divide(pot.amount, 2, self.chip)) if self.hilo else
                   " (RULES.md §2.1)")
                for pot in self.pots]

    def not_known(self, when: str = "") -> str:
        """``by the rules: not known for Ann, Bob (showdown not verifiable: hole cards
        unknown)`` (``when``: ``"before"``, ``"after"``, after "by the rules"):
        :data:`replay.compare.NOT_VERIFIABLE`, ``replay``'s note, naming whose result is not
        known."""
        from replay.compare import NOT_VERIFIABLE

        return (f"by the rules{' ' + when if when else ''}: not known for "
                f"{', '.join(self.players)} ({NOT_VERIFIABLE})")

    def verdict(self, payouts: str = "the payouts", *, why: bool = True) -> str:
        """Whether ``payouts`` (their name: ``"the corrected payouts"``) are a legal split,
        with ``replay``'s words when they are not (``why``; left out where they are said
        anyway)."""
        said = ": " + "; ".join(self.why) if why and self.why else ""
        if self.legal:
            return f"{payouts} are a legal split of the pots"
        if self.legal is False:
            return f"{payouts} are not a legal split of the pots{said}"
        if self.why:
            return f"{payouts} are not checked as a split of the pots{said}"
        return f"whether {payouts} are a legal split of the pots is not known"

    def as_json(self) -> dict[str, Any]:
        """``{"players", "pots": [{"pot", "amount", "eligible"}], "hilo", "legal_split",
        "why"}``."""
        return {"players": list(self.players),
                "pots": [{"pot": p.name, "amount": p.amount, "eligible": list(p.eligible)}
                         for p in self.pots],
                "hilo": self.hilo, "legal_split": self.legal, "why": list(self.why)}


_COUNT = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def even_split_words(amount: int, eligible: int, chip: int = 1) -> str:
    """The even splits of ``amount`` chips among 1..``eligible`` tied winners (RULES.md §2.1:
    odd chips one each, ``chip`` chips each, the smallest chip in play): ``"330 to one, 165
    each to two who tie, 110 each to three"``."""
    def count(n: int) -> str:
        return _COUNT[n - 1] if n <= len(_COUNT) else str(n)

    words = [f"{amount} to one"]
    for m in range(2, eligible + 1):
        base = amount // (m * chip) * chip  # as engine.awards.divide cuts it
        odd = -(-(amount - base * m) // chip)
        each = "odd chip" if chip == 1 else f"odd chip of {chip}"
        extra = (f" (the {each} to one of them)" if odd == 1 else
                 f" (an {each} each to {count(odd)} of them)" if odd else "")
        words.append(f"{base} each to {count(m)}{' who tie' if m == 2 else ''}{extra}")
    return ", ".join(words)


def unknown_result(replay: HandReplay) -> UnknownResult | None:
    """What the rules say of ``replay``'s hand when its showdown cannot be checked; None when
    the rules' result is known (a checked showdown, a hand voided, cut short or still in
    play)."""
    from replay.compare import is_hilo, legal_split

    result = replay.result
    if result.status != "complete" or result.verifiable:
        return None
    pots = tuple(OpenPot(p.index, p.amount, tuple(p.eligible))
                 for p in result.pots if not p.verifiable)
    players = tuple(p for p in result.players if any(p in pot.eligible for pot in pots))
    infeasible = tuple(d.sentence() for d in replay.discrepancies if d.kind == "infeasible")
    raked = tuple(d.sentence() for d in replay.discrepancies if d.kind == "rake")
    legal: bool | None
    if infeasible:
        legal = False
    elif raked or replay.recorded is None:
        legal = None
    else:
        legal = legal_split(result, replay.recorded)
    return UnknownResult(players, pots, is_hilo(result), legal, infeasible or raked,
                         result.smallest_chip)


def same_rules(before: HandReplay, after: HandReplay) -> bool:
    """Whether the rules' result of the two hands is the same, known or not: the same pots
    (amounts, eligible players, awards), the same chips put in and returned and the same
    pots less the rake the hand records (:attr:`replay.hand_replay.HandReplay.due`; a raked
    hand's rules result is the pots less the rake, docs/LIVE.md "A home game's rake"): a correction
    of the payouts only, the rake left as it was."""
    b, a = before.result, after.result
    return (b.status == a.status and b.pots == a.pots and b.contributions == a.contributions
            and b.returned == a.returned and b.carried == a.carried and before.due == after.due)


def rules_nets(before: HandReplay, after: HandReplay
               ) -> tuple[dict[str, int | None], dict[str, int | None], dict[str, int | None]]:
    """``(before, after, diff)``: each player's rules' net in chips, None where it is not
    known (:func:`unknown_result`); the diff is known where both are, and is 0 for every
    player when the rules' result is the same (:func:`same_rules`), known or not."""
    was, now = _known(before), _known(after)
    same = same_rules(before, after)
    diff: dict[str, int | None] = {}
    for p in {**was, **now}:
        b, a = was.get(p, 0), now.get(p, 0)
        diff[p] = 0 if same else None if a is None or b is None else a - b
    return was, now, diff


def _known(replay: HandReplay) -> dict[str, int | None]:
    """``replay``'s rules' net per player, None where it is not known."""
    unknown = unknown_result(replay)
    gone = set(unknown.players) if unknown is not None else set()
    return {p: None if p in gone else n for p, n in replay.net.items()}
