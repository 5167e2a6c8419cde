"""A PokerStars hand's lines → PHH action strings and recorded payouts.

What each line becomes (players as ``pN``, amounts as money with the hand's decimals):

* ``*** HOLE CARDS ***`` / ``*** DEALING HANDS ***``: ``d dh pN`` for every player dealt in,
  the cards of his ``Dealt to`` line, else the cards he shows or mucks in the summary (flop
  games: they are the cards he was dealt), else ``????``; stud streets the same, street by
  street: the up cards of the ``Dealt to`` lines, the down cards known only where the player's
  seven cards are shown at the end (else ``??``); the face-down seventh card of the others is
  ``??``;
* ``*** FLOP *** [..]``, ``*** TURN *** [..] [x]``, ``*** RIVER *** [..] [x]``: ``d db`` with the
  new cards; run it twice (``*** FIRST TURN ***`` … ``*** SECOND RIVER ***``): ``d rc 2`` (the
  players agree to run it twice, RULES.md §4.5), then the boards street by street, run 1 first
  (:func:`engine.notation.to_event` sends each to the first run that still needs cards);
* ``folds`` ``f``; ``checks`` / ``calls X`` ``cc`` (a check facing a bet is refused: the
  same ``cc`` would store it as a call nobody made); ``bets X`` ``cbr X``; ``raises X to Y`` /
  ``completes it to Y`` ``cbr Y``; ``brings in for X`` ``pb``;
* ``discards 2 cards [7h Th]`` ``sd 7hTh``; another player's ``discards 2 cards`` ``sd ????``;
  ``stands pat`` ``sd``; once everyone has drawn, each his replacements in the same order: the
  cards of the ``Dealt to`` line after his discard (``d dh pN 4hTd``), else ``d dh pN ????``;
* ``shows [..]`` ``sm`` with the cards (a partial show padded with ``??``); ``mucks hand``
  ``sm``; each once (run it twice writes them per run);
* ``collected X from pot`` / ``main pot`` / ``side pot-N``: a :class:`RecordedPayout` (pot 0, or
  N; ``run`` 1 or 2 under ``*** FIRST/SECOND SHOW DOWN ***``); ``Uncalled bet (X) returned to
  P``: a :class:`RecordedPayout` with ``returned=True``.

The same pass counts the chips the lines put in (``put_in``: every post, bet, call and raise,
less the uncalled bets returned) and what each player collected, for
:func:`ledger.formats.pokerstars.summary.summary_differences`.

Raises:
    MalformedInput: a line out of place (a post after the deal, a ``Dealt to`` line that
        belongs to no street, an up card missing, the wrong number of cards), a raise
        whose increment is not its total less the bet it faces (``raises $0.25 to $0.30``
        facing $0.10: by $0.20), or a call that is not the bet it faces less what the player
        put in on the street (``calls $0.25`` facing $0.40 with $0.05 in: $0.35), nor, short
        of that, his whole stack left (all-in; RULES.md: a call matches the bet or is
        all-in), or a check facing a bet (``checks facing a bet of 0.40``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.games import Game
from ledger.formats.phh.base import PhhAction, format_amount
from ledger.formats.pokerstars.lines import Rec
from ledger.model.errors import MalformedInput
from ledger.model.events import ForcedBet, RecordedPayout

_RUN_WORDS = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
_FLOP_STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}
_STUD_STREETS = {"3rd STREET": 0, "4th STREET": 1, "5th STREET": 2, "6th STREET": 3,
                 "7th STREET": 4, "RIVER": 4}
_PASSIVE = frozenset({"info", "sitout", "noshow"})
_DRAWING = _PASSIVE | {"discard", "pat"}


class Builder:
    """One hand's pass over its lines from the first deal on (see the module doc).

    ``order``: players in PHH order; ``known``: player → every card he is shown to hold at
    the end (used for the deal in flop and stud games); ``runs``: how many times the summary
    says the board was run; ``line_text``: a file line's text (the action a refusal quotes);
    ``stacks``: player → starting stack in chips (an all-in call is checked against what is
    left of it; without them a short call is not checked).
    """

    def __init__(self, game: Game, order: Sequence[str], recs: Sequence[Rec],
                 known: Mapping[str, list[str]], decimals: int, runs: int,
                 line_text: Callable[[int], str] | None = None,
                 stacks: Mapping[str, int] | None = None) -> None:
        self.game = game
        self.line_text = line_text
        self.order = list(order)
        self.label = {name: f"p{i + 1}" for i, name in enumerate(order)}
        self.recs = recs
        self.known = known
        self.decimals = decimals
        self.runs = max(runs, 2)
        self.live = set(order)
        self.held = dict.fromkeys(order, 0)
        self.used: set[int] = set()
        self.actions: list[PhhAction] = []
        self.payouts: list[RecordedPayout] = []
        self.collected: dict[str, int] = {}
        self.street_bets = dict.fromkeys(order, 0)
        self.stacks = dict(stacks) if stacks is not None else None
        self.spent = dict.fromkeys(order, 0)  # each player's chips in, less returned
        self.put_in = 0
        self.bring_in = 0
        self.run: int | None = None
        self.boards: list[tuple[int, int, int, tuple[str, ...]]] = []
        self.drawn: list[tuple[int, str]] = []
        self.split = False
        self.betting = False
        self.done: set[tuple[str, str]] = set()
        self.handlers: dict[str, Callable[[int, Rec], None]] = {
            "street": self._street, "fold": self._fold, "check": self._check,
            "call": self._call, "bet": self._to, "raise": self._to, "complete": self._to,
            "bring_in": self._bring_in, "discard": self._discard, "pat": self._pat,
            "show": self._show, "muck": self._muck, "collected": self._collected,
            "uncalled": self._uncalled, "post": self._late, "dealt": self._late,
            "summary": self._late,
        }

    # ------------------------------------------------------------------ the pass

    def forced(self, bets: Sequence[ForcedBet]) -> None:
        """Count the forced bets into the chips put in (live blinds are street bets)."""
        for bet in bets:
            self.put_in += bet.amount
            self.spent[bet.player] = self.spent.get(bet.player, 0) + bet.amount
            if bet.kind not in ("ante", "dead_blind"):
                self.street_bets[bet.player] += bet.amount

    def run_from(self, start: int) -> None:
        """Turn ``recs[start:]`` into actions and payouts."""
        for i in range(start, len(self.recs)):
            if i in self.used:
                continue
            rec = self.recs[i]
            if self.boards and rec.kind != "street":
                self._flush_boards()
            if self.drawn and rec.kind not in _DRAWING:
                self._flush_draws()
            if rec.kind in _PASSIVE:
                continue
            if rec.player is not None and rec.player not in self.label:
                raise MalformedInput(f"{rec.player} plays but was not dealt in", line=rec.line)
            self.handlers[rec.kind](i, rec)
        self._flush_boards()
        self._flush_draws()

    def _emit(self, line: int, text: str) -> None:
        self.actions.append(PhhAction(line=line, text=text))

    def _money(self, chips: int) -> str:
        return format_amount(chips, self.decimals)

    # ------------------------------------------------------------------ streets and cards

    def _street(self, i: int, rec: Rec) -> None:
        word, _, base = rec.what.partition(" ")
        run = _RUN_WORDS.get(word)
        what = base if run else rec.what
        if what in ("HOLE CARDS", "DEALING HANDS"):  # the blinds stay this street's bets
            self._deal(i, rec, 0)
            return
        self.street_bets = dict.fromkeys(self.order, 0)
        self.betting = False
        if self.game.stud and what in _STUD_STREETS:
            self._deal(i, rec, _STUD_STREETS[what])
        elif not self.game.stud and what in _FLOP_STREETS and self.game.board_count:
            self._board(rec, _FLOP_STREETS[what], run)
        elif what == "SHOW DOWN":
            self._flush_boards()
            self.run = run
        elif not (self.game.is_draw and what.endswith("DRAW")):
            raise MalformedInput(f"unexpected *** {rec.what} ***", line=rec.line)

    def _dealt_after(self, i: int, player: str | None = None) -> dict[str, Rec]:
        """The ``Dealt to`` lines right after ``recs[i]`` (informational lines skipped),
        marked used; only ``player``'s when given."""
        found: dict[str, Rec] = {}
        for j in range(i + 1, len(self.recs)):
            rec = self.recs[j]
            if rec.kind == "dealt" and (player is None or rec.player == player):
                found[rec.player] = rec  # type: ignore[index]
                self.used.add(j)
                if player is not None:
                    break
            elif rec.kind not in _PASSIVE:
                break
        return found

    def _deal(self, i: int, marker: Rec, street: int) -> None:
        flags = self.game.streets[street].hole_up
        ups = sum(flags)
        dealt = self._dealt_after(i)
        for name in self.order:
            if name not in self.live:
                continue
            rec = dealt.get(name)
            line = rec.line if rec else marker.line
            shown = list(rec.cards[-1]) if rec else []
            if len(shown) == len(flags):
                cards = shown
            elif len(shown) == ups:
                cards = self._down_cards(name, len(flags) - ups) + shown
            else:
                raise MalformedInput(f"{name} is dealt {len(shown)} card(s) here, not "
                                     f"{len(flags)}", line=line)
            self.held[name] += len(cards)
            self._emit(line, f"d dh {self.label[name]} {''.join(cards)}")

    def _down_cards(self, name: str, count: int) -> list[str]:
        known = self.known.get(name)
        if self.game.is_draw or known is None or len(known) != self.game.hole_count:
            return ["??"] * count
        start = self.held[name]
        return known[start : start + count]

    def _board(self, rec: Rec, street: int, run: int | None) -> None:
        if not rec.cards:
            raise MalformedInput(f"*** {rec.what} *** shows no cards", line=rec.line)
        if run is None:
            self._flush_boards()
            self._emit(rec.line, f"d db {''.join(rec.cards[-1])}")
            return
        if not self.split:
            self._emit(rec.line, f"d rc {self.runs}")
            self.split = True
        self.boards.append((street, run, rec.line, rec.cards[-1]))

    def _flush_boards(self) -> None:
        for _, _, line, cards in sorted(self.boards):
            self._emit(line, f"d db {''.join(cards)}")
        self.boards = []

    def _late(self, i: int, rec: Rec) -> None:
        what = {"post": "a forced bet posted after the cards are dealt",
                "dealt": "a 'Dealt to' line that belongs to no street"}.get(rec.kind, "")
        raise MalformedInput(what or f"a {rec.kind} line out of place", line=rec.line)

    # ------------------------------------------------------------------ betting

    def _fold(self, i: int, rec: Rec) -> None:
        self.betting = True
        self.live.discard(rec.player)  # type: ignore[arg-type]
        self._emit(rec.line, f"{self.label[rec.player]} f")  # type: ignore[index]

    def _check(self, i: int, rec: Rec) -> None:
        """A check, which PHH writes as ``cc`` as it writes a call: refused here when the
        player faces a bet (more in on the street than his own), which a check cannot
        answer (he calls, raises or folds), worded as the PokerNow reader words it."""
        self.betting = True
        player = rec.player
        assert player is not None
        faced = max(self.street_bets.values(), default=0)
        if faced > self.street_bets[player]:
            raise MalformedInput(
                f"checks facing a bet of {self._money(faced)}", line=rec.line,
                action=self.line_text(rec.line) if self.line_text else None)
        self._emit(rec.line, f"{self.label[player]} cc")

    def _call(self, i: int, rec: Rec) -> None:
        self.betting = True
        player = rec.player
        assert player is not None
        faced = max(self.street_bets.values(), default=0)
        owed = faced - self.street_bets[player]
        left = None if self.stacks is None else self.stacks[player] - self.spent[player]
        if rec.a != owed and not (rec.a < owed and rec.a == left):
            all_in = "" if left is None or left >= owed else (
                f", or {player}'s whole stack left, {self._money(left)}, all-in")
            raise MalformedInput(
                f"{player} calls {self._money(rec.a)}, but the bet {player} faces is "
                f"{self._money(faced)} and {player} has {self._money(self.street_bets[player])} in "
                f"on this street: a call is {self._money(owed)}{all_in}", line=rec.line,
                action=self.line_text(rec.line) if self.line_text else None)
        self.spent[player] += rec.a
        self.put_in += rec.a
        self.street_bets[rec.player] += rec.a  # type: ignore[index]
        self._emit(rec.line, f"{self.label[rec.player]} cc")  # type: ignore[index]

    def _to(self, i: int, rec: Rec) -> None:
        self.betting = True
        to = rec.a if rec.kind == "bet" else rec.b
        player = rec.player
        faced = max(self.street_bets.values(), default=0)
        if rec.kind == "raise" and rec.a != to - faced:
            raise MalformedInput(
                f"{player} raises {self._money(rec.a)} to {self._money(to)}, but the bet "
                f"{player} faces is {self._money(faced)}: a raise to {self._money(to)} is by "
                f"{self._money(to - faced)}", line=rec.line,
                action=self.line_text(rec.line) if self.line_text else None)
        self.put_in += to - self.street_bets[player]  # type: ignore[index]
        self.spent[player] += to - self.street_bets[player]  # type: ignore[index]
        self.street_bets[player] = to  # type: ignore[index]
        self._emit(rec.line, f"{self.label[player]} cbr {self._money(to)}")  # type: ignore[index]

    def _bring_in(self, i: int, rec: Rec) -> None:
        self.betting = True
        self.bring_in = self.bring_in or rec.a
        self.put_in += rec.a
        self.spent[rec.player] += rec.a  # type: ignore[index]
        self.street_bets[rec.player] += rec.a  # type: ignore[index]
        self._emit(rec.line, f"{self.label[rec.player]} pb")  # type: ignore[index]

    # ------------------------------------------------------------------ draws

    def _new_draw(self) -> None:
        if self.betting:  # a draw without its own *** DRAW *** line (five-card draw)
            self.street_bets = dict.fromkeys(self.order, 0)
            self.betting = False

    def _discard(self, i: int, rec: Rec) -> None:
        self._new_draw()
        player = rec.player
        assert player is not None
        thrown = list(rec.cards[0]) if rec.cards else ["??"] * rec.a
        if len(thrown) != rec.a:
            raise MalformedInput(f"{player} discards {rec.a} card(s) but shows {len(thrown)}",
                                 line=rec.line)
        label = self.label[player]
        self._emit(rec.line, f"{label} sd {''.join(thrown)}")
        dealt = self._dealt_after(i, player).get(player)
        new = list(dealt.cards[-1]) if dealt else ["??"] * rec.a
        if len(new) != rec.a:
            raise MalformedInput(f"{player} discards {rec.a} card(s) but is dealt {len(new)}",
                                 line=dealt.line if dealt else rec.line)
        self.drawn.append((dealt.line if dealt else rec.line, f"d dh {label} {''.join(new)}"))

    def _flush_draws(self) -> None:
        """The replacements of a draw, dealt once everyone has discarded (as pokerkit, the
        PHH reference, deals them: the site writes only the hero's)."""
        for line, text in self.drawn:
            self._emit(line, text)
        self.drawn = []

    def _pat(self, i: int, rec: Rec) -> None:
        self._new_draw()
        self._emit(rec.line, f"{self.label[rec.player]} sd")  # type: ignore[index]

    # ------------------------------------------------------------------ showdown and money

    def _show(self, i: int, rec: Rec) -> None:
        player = rec.player
        assert player is not None
        if (player, "shown") in self.done:
            return
        self.done.add((player, "shown"))
        cards = list(rec.cards[0]) if rec.cards else []
        cards += ["??"] * (self.held[player] - len(cards))
        self._emit(rec.line, f"{self.label[player]} sm {''.join(cards)}")

    def _muck(self, i: int, rec: Rec) -> None:
        player = rec.player
        assert player is not None
        if (player, "shown") in self.done or (player, "mucked") in self.done:
            return
        self.done.add((player, "mucked"))
        self._emit(rec.line, f"{self.label[player]} sm")

    def _collected(self, i: int, rec: Rec) -> None:
        player = rec.player
        assert player is not None
        self.payouts.append(RecordedPayout(player=player, amount=rec.a, pot=rec.b, run=self.run))
        self.collected[player] = self.collected.get(player, 0) + rec.a

    def _uncalled(self, i: int, rec: Rec) -> None:
        assert rec.player is not None
        self.payouts.append(RecordedPayout(player=rec.player, amount=rec.a, returned=True))
        self.put_in -= rec.a
        self.spent[rec.player] = self.spent.get(rec.player, 0) - rec.a
