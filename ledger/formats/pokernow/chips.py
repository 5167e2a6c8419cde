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

    def __init__(self, stacks: dict[str, int], level: int = 0) -> None:
        """``level``: the hand's big blind (``Stakes.min_bet``: the table's level), the bet
        the others call when the big blind is posted all in below it (RULES.md §4.2)."""
        self.level = level
        self.behind = dict(stacks)
        self.street = dict.fromkeys(stacks, 0)
        self.put_in = dict.fromkeys(stacks, 0)
        self.returned = 0
        self.collected = 0
        self.folded: set[str] = set()
        self.excess: dict[str, tuple[int, str]] = {}  # a call above the bet, not yet returned
        self.short_bb: int | None = None  # a big blind posted all in below the level

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
        if kind in ("big_blind", "posted_blind") and all_in:
            self.short_bb = self.street[player]
        return self._take(player, amount, all_in)

    def act(self, player: str, verb: str, to: int | None, all_in: bool
            ) -> tuple[str, int | None, list[str]]:
        """Apply ``folds``/``checks``/``calls``/``bets``/``raises to`` (``to``: street total).

        Returns ``(what the action is, the street total it goes to, problems)``. PokerNow words
        some actions as others (FORMATS.md §2); they are read as what they do:

        * ``calls N`` with nothing more to put in (the big blind's option) is ``checks``;
        * ``bets N``/``raises to N`` where N is the bet itself (matching an all-in) is ``calls``;
        * a big blind posted all in below the level leaves the bet to call at the level
          (RULES.md §4.2: bet sizes stay, the others call the full big blind, as PokerNow has
          them do); the part of a call the short big blind cannot match comes back as the
          uncalled bet (RULES.md §1.4). With no level known (``level`` not above the short
          blind), ``calls N`` above the bet while it is still that short blind calls the bet;
          the excess must come back as the uncalled bet (:meth:`returned_to`), else
          :meth:`unsettled` reports it. Any other call that does not match the bet is a
          problem, and the rest of the hand is read as after a call of the bet.
        """
        bet = max(self.street.values())
        if self.short_bb is not None and self.level > bet:
            bet = self.level  # the full big blind (RULES.md §4.2)
        own = self.street[player]
        problems = [f"acts after folding ({verb})"] if player in self.folded else []
        if verb == "folds":
            self.folded.add(player)
            return verb, None, problems
        if verb == "checks" or to == own == bet:
            facing = own < bet
            return "checks", None, problems + ([f"checks facing a bet of {bet}"] if facing else [])
        assert to is not None
        if to < own:
            return verb, to, problems + [f"{verb} {to}, below {player}'s {own} on this street"]
        if verb != "calls" and to == bet:
            verb = "calls"
        over = 0
        if verb == "calls" and to > bet > own and bet == self.short_bb:
            over, to = to - bet, bet
            self.excess[player] = (over, f"calls {to + over} but the bet is {bet}")
        elif verb == "calls" and (to > bet or (to < bet and not all_in)):
            problems.append(f"calls {to} but the bet is {bet}")
            to, all_in = bet, False  # the rest read as after a call of the bet: said once
        if verb != "calls" and to < bet and not all_in:
            problems.append(f"{verb} {to}, not above the bet of {bet}")
        delta, self.street[player] = to - own, to
        return verb, to, problems + self._take(player, delta, all_in and not over)

    def new_street(self) -> None:
        self.street = dict.fromkeys(self.street, 0)
        self.short_bb = None

    def returned_to(self, player: str, amount: int) -> tuple[int, list[str]]:
        """An uncalled bet given back. Returns ``(chips really returned, problems)``: the part
        that settles the excess of the player's call above the bet (:meth:`act`) was never put
        in, so it is not returned either."""
        over, message = self.excess.pop(player, (0, ""))
        settled = min(over, amount)
        if over > settled:
            self.excess[player] = (over - settled, message)
        amount -= settled
        self.behind[player] += amount
        self.returned += amount
        return amount, [f"gets {amount} back but put in {self.put_in[player]}"] if (
            amount > self.put_in[player]) else []

    def unsettled(self) -> dict[str, str]:
        """Each player whose call above the bet did not come back: the problem, in words."""
        return {p: f"{message}; {over} of it never comes back as an uncalled bet"
                for p, (over, message) in self.excess.items()}

    def collect(self, player: str, amount: int) -> None:
        self.behind[player] += amount
        self.collected += amount

    def balance(self) -> list[str]:
        total = sum(self.put_in.values())
        if total - self.returned != self.collected:
            return [f"chips put in {total} − returned {self.returned} = "
                    f"{total - self.returned}, but {self.collected} collected"]
        return []
