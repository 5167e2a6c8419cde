"""One PokerNow hand (its log rows) → the ledger's hand events (FORMATS.md §2).

:func:`build_hand` turns a :class:`HandBlock` (the rows from ``-- starting hand #N --`` to its
ending, plus shows logged after the ending) into a :class:`PnHand`. Amounts are converted to integer
chips (cents in a cents game) by the caller's converter. Every problem is appended to the context's
``errors`` as a :class:`ledger.model.errors.MalformedInput` naming file, CSV line, hand (``"#N"``)
and the entry; a hand without a readable seat list or game cannot be built and is dropped (with an
error).

While building, a small chip count follows the hand (stacks behind, this street's running totals,
chips put in, returned and collected) to check what the log says: a call must match the bet, an
all-in must empty the stack, a check must not face a bet, and on a complete hand
``put in − returned == collected`` (the conservation FORMATS.md §2 verified on real logs).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from engine.games import game
from ledger.formats.pokernow import seating
from ledger.formats.pokernow.chips import Chips
from ledger.formats.pokernow.lines import game_code
from ledger.formats.pokernow.model import BuildContext, HandBlock, PnHand, Row
from ledger.formats.pokernow.seating import POST_KINDS
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import (
    AllIn,
    BetRaise,
    Call,
    CardsDealt,
    Check,
    Fold,
    ForcedBet,
    HandEnded,
    HandStarted,
    HandVoided,
    RecordedPayout,
    Reveal,
    RunCount,
    Seat,
)


class _Builder:
    """Builds one hand's events; see :func:`build_hand`."""

    def __init__(self, block: HandBlock, ctx: BuildContext) -> None:
        self.block, self.ctx = block, ctx
        self.label = f"#{block.start.parsed.number}"
        self.events: list[Any] = []
        self.seat_ids: list[str] = []
        self.runs = 1
        self.rit_emitted = False
        self.dealt = False
        self.source: dict[str, Any] = {}
        self.code = ""
        self.chips = Chips({})
        self.folded: set[str | None] = set()
        self.shown: dict[str, list[str]] = {}  # cards each player has shown so far
        self.over_calls: dict[str, Row] = {}  # the row of a call above the bet
        self.over_called: dict[str, int] = {}  # the excess of such a call, settled by a return

    def error(self, row: Row, message: str, kind: type[MalformedInput] = MalformedInput
              ) -> None:
        self.ctx.errors.append(kind(
            message, file=self.ctx.file, line=row.line, hand=self.label, action=row.entry))

    def amount(self, row: Row, text: str | None) -> int | None:
        try:
            return self.ctx.chips(text or "")
        except ValueError as exc:
            self.error(row, str(exc))
            return None

    def quiet(self, text: str | None) -> int:
        """Amount in chips, 0 when unreadable (the line that carries it reports the error)."""
        try:
            return self.ctx.chips(text or "0")
        except ValueError:
            return 0

    # -- setup ---------------------------------------------------------------------------------

    def seats(self) -> list[tuple[int, str, int]] | None:
        rows = [r for r in self.block.body if r.parsed.kind == "stacks"]
        if not rows:
            self.error(self.block.start, "the hand has no 'Player stacks' line")
            return None
        for extra in rows[1:]:
            self.error(extra, "a second 'Player stacks' line in one hand (ignored)")
        seats = []
        for number, pid, text in rows[0].parsed.seats:
            stack = self.amount(rows[0], text)
            if stack is None:
                return None
            seats.append((number, pid, stack))
        ids = [pid for _, pid, _ in seats]
        if len(set(ids)) != len(ids) or len({n for n, _, _ in seats}) != len(seats) or len(ids) < 2:
            self.error(rows[0], "the seat list repeats a player or seat, or has fewer than 2")
            return None
        return sorted(seats)

    def rotation(self, ids: list[str]) -> tuple[str | None, list[str]]:
        """(button for HandStarted, seat order starting left of the button, button last)."""
        button, order, facts, problem = seating.rotation(self.block, ids)
        self.source.update(facts)
        if problem:
            self.error(self.block.start, problem)
        return button, order

    # -- body ----------------------------------------------------------------------------------

    def known(self, row: Row, player: str | None) -> bool:
        if player in self.chips.behind:
            return True
        self.error(row, f"{player!r} is not seated in this hand: its Player stacks line does "
                        "not list that ID")
        return False

    def deal(self) -> None:
        if self.dealt:
            return
        self.dealt = True
        count = game(self.code).hole_count
        mine = self.source.get("your_hand")
        if mine and len(mine) != count:
            row = next(r for r in self.block.body if r.parsed.kind == "your_hand")
            self.error(row, f"{len(mine)} hole cards in a {self.code} hand (dealt unknown)")
        for pid in self.seat_ids:
            hole = ["??"] * count
            if self.ctx.is_exporter(pid) and mine and len(mine) == count:
                hole = list(mine)
            self.events.append(CardsDealt(player=pid, cards=hole, face_up=[False] * count))

    def check(self, row: Row, problems: list[str]) -> None:
        for problem in problems:
            self.error(row, problem)

    def on_post(self, row: Row) -> None:
        line = row.parsed
        kind = POST_KINDS[line.what or ""] if line.kind == "post" else "ante"
        amount = self.amount(row, line.amount)
        if amount is None or not self.known(row, line.player):
            return
        assert line.player is not None
        self.check(row, self.chips.forced(line.player, kind, amount, line.all_in))
        self.events.append(ForcedBet(player=line.player, kind=kind, amount=amount))  # type: ignore[arg-type]

    def on_act(self, row: Row) -> None:
        line, verb = row.parsed, row.parsed.what or ""
        to = self.amount(row, line.amount) if line.amount is not None else None
        if (line.amount is not None and to is None) or not self.known(row, line.player):
            return
        player = line.player or ""
        before = self.chips.excess.get(player)
        kind, to, problems = self.chips.act(player, verb, to, line.all_in)
        self.check(row, problems)
        over = self.chips.excess.get(player) != before  # a call above the bet: of the bet
        if over:
            self.over_calls[player] = row
        if kind == "folds":
            self.events.append(Fold(player=player))
        elif kind == "checks":
            self.events.append(Check(player=player))
        elif line.all_in and not over:
            self.events.append(AllIn(player=player, to=to))
        elif kind == "calls":
            self.events.append(Call(player=player))
        elif to:
            self.events.append(BetRaise(player=player, to=to))
        else:
            self.error(row, f"{verb} 0")

    def run_count(self) -> None:
        if not self.rit_emitted:
            self.rit_emitted = True
            self.events.append(RunCount(runs=2))

    def on_board(self, row: Row) -> None:
        line = row.parsed
        if line.run == 2:
            self.run_count()
        else:
            self.chips.new_street()
        self.events.append(CardsDealt(player=None, cards=list(line.cards),
                                      face_up=[True] * len(line.cards), run=line.run))

    def on_payout(self, row: Row) -> None:
        line = row.parsed
        amount = self.amount(row, line.amount)
        if amount is None or not self.known(row, line.player):
            return
        player = line.player or ""
        if line.kind == "uncalled":
            returned, problems = self.chips.returned_to(player, amount)
            self.check(row, problems)
            if returned < amount:  # the excess of a call above the bet, never put in
                self.over_called[player] = amount - returned
            if returned:
                self.events.append(RecordedPayout(player=player, amount=returned, returned=True))
            return
        self.chips.collect(player, amount)
        run = line.run if self.runs == 2 else None
        self.events.append(RecordedPayout(player=player, amount=amount, run=run))

    def on_show(self, row: Row) -> None:
        """A show, of all the player's cards or of some (the others stay ``??``; the exporter's
        own cards, known from ``Your hand is``, are filled in)."""
        line = row.parsed
        if not self.known(row, line.player) or line.player in self.folded:
            return
        player, count = line.player or "", game(self.code).hole_count
        shown = self.shown.setdefault(player, [])
        shown.extend(c for c in line.cards if c not in shown)
        if len(shown) > count:
            self.error(row, f"shows {len(shown)} cards in a {self.code} hand")
            return
        mine = (self.source.get("your_hand") or []) if self.ctx.is_exporter(player) else []
        cards = shown + [c for c in mine if c not in shown]
        self.events.append(Reveal(player=player, cards=(cards + ["??"] * count)[:count]))

    def on_row(self, row: Row) -> None:
        kind = row.parsed.kind
        if kind in ("post", "bomb"):
            self.on_post(row)
        elif kind == "rit":
            self.deal()
            self.run_count()
        elif kind in ("act", "board", "uncalled", "collected", "show"):
            self.deal()
            handler = {"act": self.on_act, "board": self.on_board, "show": self.on_show}
            handler.get(kind, self.on_payout)(row)
        # stacks, your_hand and dead_sb were read up front; ignored lines only carry names

    # -- whole hand ----------------------------------------------------------------------------

    def follow_id_changes(self, seated: set[str]) -> None:
        """After ``changed the ID from OLD to NEW`` in the middle of a hand, its lines name the
        player NEW; in this hand he keeps the seat he has as OLD (the session's ``PlayerAlias``
        makes them one player, :mod:`ledger.formats.pokernow.session`)."""
        seat_of: dict[str, str] = {}

        def renamed(row: Row) -> Row:
            line = row.parsed
            if line.kind == "id_change" and line.player not in seated:
                former = seat_of.get(line.former or "", line.former or "")
                if former in seated:
                    seat_of[line.player or ""] = former
            elif seat_of and (line.player in seat_of or line.payee in seat_of):
                line = replace(line, player=seat_of.get(line.player or "", line.player),
                               payee=seat_of.get(line.payee or "", line.payee))
                row = replace(row, parsed=line)
            return row

        self.block.body = [renamed(r) for r in self.block.body]
        self.block.after = [renamed(r) for r in self.block.after]

    def scan(self) -> None:
        """Facts HandStarted.source records before the events are built."""
        body, every = self.block.body, self.block.body + self.block.after
        mine = [r.parsed.cards for r in body if r.parsed.kind == "your_hand"]
        self.source["your_hand"] = list(mine[0]) if mine else None
        self.runs = 2 if any(r.parsed.kind == "rit" or r.parsed.run == 2 for r in every) else 1
        if any(r.parsed.kind == "dead_sb" for r in body):
            self.source["dead_small_blind"] = True
        if any(r.parsed.double_board for r in every):
            self.source["double_board"] = True
        self.folded = {r.parsed.player for r in body
                       if r.parsed.kind == "act" and r.parsed.what == "folds"}
        shown: dict[str, list[str]] = {}
        for row in every:
            if row.parsed.kind == "show" and row.parsed.player in self.folded:
                shown.setdefault(row.parsed.player, []).extend(row.parsed.cards)
        if shown:  # a folded hand shown for information is no showdown Reveal
            self.source["shown_after_fold"] = shown

    def build(self) -> tuple[PnHand, dict[str, int] | None] | None:
        block, start = self.block, self.block.start
        try:
            self.code = game_code(start.parsed.game or "")
        except ValueError as exc:
            self.error(start, str(exc))
            return None
        seats = self.seats()
        if seats is None:
            return None
        stacks = {pid: stack for _, pid, stack in seats}
        self.follow_id_changes(set(stacks))
        button, self.seat_ids = self.rotation([pid for _, pid, _ in seats])
        stakes = seating.stakes(self.block, self.code, self.seat_ids, self.quiet)
        self.chips = Chips(stacks, stakes.min_bet)
        self.scan()
        hand_id, key = self.identity(seats)
        number_of = {pid: n for n, pid, _ in seats}
        self.events.append(HandStarted(
            hand=hand_id, game=self.code, stakes=stakes,
            seats=[Seat(player=p, stack=stacks[p], seat=number_of[p]) for p in self.seat_ids],
            button=button, unit=self.ctx.unit, session=self.ctx.session,
            source=self.source,
        ))
        for row in block.body:
            self.on_row(row)
        self.deal()
        for row in block.after:
            self.on_show(row)
        end_stacks = self.finish()
        hand = PnHand(number=start.parsed.number or 0, pn_id=start.parsed.pn_id, line=start.line,
                      hand_id=hand_id, events=self.events, status=block.status, source_key=key)
        return hand, end_stacks

    def identity(self, seats: list[tuple[int, str, int]]) -> tuple[str, str]:
        start = self.block.start
        number, pn_id = start.parsed.number, start.parsed.pn_id
        stacks_row = next(r for r in self.block.body if r.parsed.kind == "stacks")
        digest = hashlib.sha256(f"{start.entry}\n{stacks_row.entry}".encode()).hexdigest()[:16]
        key = f"pokernow:{pn_id}" if pn_id else f"pokernow:{start.at}:{number}:{digest}"
        hand_id = f"pn-{self.ctx.game_key}-{pn_id or f'{number}-{start.order}'}"
        rows = [start, *self.block.body, *self.block.after, *filter(None, [self.block.end])]
        text = hashlib.sha256("\n".join(r.entry for r in rows).encode()).hexdigest()[:16]
        self.source.update(format="pokernow", file=self.ctx.file, line=start.line, number=number,
                           pn_id=pn_id, at=start.at, order=start.order, source_key=key,
                           game_name=start.parsed.game, exporter=self.ctx.exporter,
                           text_digest=text)
        return hand_id, key

    def finish(self) -> dict[str, int] | None:
        block = self.block
        if self.over_called:  # the log's uncalled bet that only undoes a call above the bet
            start = self.events[0]
            self.events[0] = start.model_copy(
                update={"source": {**start.source, "over_call": dict(self.over_called)}})
        if block.status == "voided":
            self.events.append(HandVoided(reason="restarted", by="pokernow"))
            return {seat.player: seat.stack for seat in self.events[0].seats}
        self.events.append(HandEnded(status=block.status))
        if block.status == "incomplete":
            return None
        for player, problem in self.chips.unsettled().items():
            self.error(self.over_calls[player], problem)
        for problem in self.chips.balance():  # the payouts as the site paid them: stored
            self.error(block.end or block.start, problem, StoredFinding)
        return dict(self.chips.behind)


def build_hand(block: HandBlock, ctx: BuildContext) -> tuple[PnHand, dict[str, int] | None] | None:
    """Build one hand's events from its rows.

    Returns:
        ``(hand, stacks after the hand)`` — the stacks are ``None`` for an incomplete hand and
        the starting stacks for a voided one — or ``None`` when the hand has no readable seat
        list or an unknown game (an error says why).
    """
    return _Builder(block, ctx).build()
