"""The chip count that follows one PokerNow hand while it is imported (FORMATS.md §2).

It checks what the log says rather than computing anything the engine decides: every amount of
the log is the player's running total on the street, so ``calls 50`` after a small blind of 10 adds
40. Each method returns the problems found as sentences (empty when the line adds up); the importer
turns them into :class:`ledger.model.errors.MalformedInput` values. All amounts are integer chips.
"""

from __future__ import annotations

#: Forced bets that count toward the poster's street total (antes and dead blinds do not).
LIVE_KINDS = frozenset({"small_blind", "big_blind", "straddle", "posted_blind"})


class Chips:
    """Chips of one hand: behind each player, this street's running totals, put in, paid out."""

    def __init__(self, stacks: dict[str, int]) -> None:
        self.behind = dict(stacks)
        self.street = dict.fromkeys(stacks, 0)
        self.put_in = dict.fromkeys(stacks, 0)
        self.returned = 0
        self.collected = 0
        self.folded: set[str] = set()

    def _take(self, player: str, amount: int, all_in: bool) -> list[str]:
        problems = []
        if amount > self.behind[player]:
            problems.append(f"puts in {amount} with {self.behind[player]} behind")
        self.behind[player] -= amount
        self.put_in[player] += amount
        if all_in and self.behind[player] != 0:
            problems.append(f"is all in but keeps {self.behind[player]} behind")
        return problems

    def forced(self, player: str, kind: str, amount: int, all_in: bool) -> list[str]:
        if kind in LIVE_KINDS:
            self.street[player] += amount
        return self._take(player, amount, all_in)

    def act(self, player: str, verb: str, to: int | None, all_in: bool) -> list[str]:
        """Apply ``folds``/``checks``/``calls``/``bets``/``raises to`` (``to``: street total)."""
        bet = max(self.street.values())
        problems = [f"acts after folding ({verb})"] if player in self.folded else []
        if verb == "folds":
            self.folded.add(player)
            return problems
        if verb == "checks":
            facing = self.street[player] < bet
            return problems + ([f"checks facing a bet of {bet}"] if facing else [])
        assert to is not None
        if to < self.street[player]:
            return problems + [f"{verb} {to}, below his {self.street[player]} on this street"]
        if verb == "calls" and (to > bet or (to < bet and not all_in)):
            problems.append(f"calls {to} but the bet is {bet}")
        if verb != "calls" and to <= bet and not all_in:
            problems.append(f"{verb} {to}, not above the bet of {bet}")
        delta, self.street[player] = to - self.street[player], to
        return problems + self._take(player, delta, all_in)

    def new_street(self) -> None:
        self.street = dict.fromkeys(self.street, 0)

    def returned_to(self, player: str, amount: int) -> list[str]:
        self.behind[player] += amount
        self.returned += amount
        return [f"gets {amount} back but put in {self.put_in[player]}"] if (
            amount > self.put_in[player]) else []

    def collect(self, player: str, amount: int) -> None:
        self.behind[player] += amount
        self.collected += amount

    def balance(self) -> list[str]:
        total = sum(self.put_in.values())
        if total - self.returned != self.collected:
            return [f"chips put in {total} − returned {self.returned} = "
                    f"{total - self.returned}, but {self.collected} collected"]
        return []
