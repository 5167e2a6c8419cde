"""Session events of a PokerNow log: money and seats between hands, and player aliases.

:class:`SessionTracker` walks the hands and session rows in log order, appends the items of a
:class:`ledger.formats.pokernow.log.PnGame` and follows every player's chips at the table (from the
hands' results and the session lines) so that a rebuy knows what it adds and a stack that does not
continue from the previous hand is reported. The mapping of each line is described in
:mod:`ledger.formats.pokernow.log`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.formats.pokernow.model import BuildContext, HandBlock, PnHand, Row, amounts_said
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import BuyIn, CashOut, Payment, PlayerAlias, SeatChange, SessionOpened
from ledger.model.names import check_name, check_name_length

SessionItem = SessionOpened | BuyIn | CashOut | Payment | SeatChange | PlayerAlias


class SessionTracker:
    """Builds the item list; ``stacks`` holds each seated player's chips as far as known;
    ``lines``: the file line of each session item (by its index in ``items``) that a row of
    the log gave (a join, a quit, an alias), so that a refusal of it names its own line;
    ``of_hand``: the hand whose rows gave an item (its hand id, ``#number`` when it was not
    built), by the item's index."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx
        self.items: list[PnHand | SessionItem] = []
        self.lines: dict[int, int] = {}
        self.of_hand: dict[int, str] = {}
        self.players: dict[str, str] = {}
        self.names: dict[str, set[str]] = {}
        self.stacks: dict[str, int] = {}
        #: Across hands missing from the export: each player's chips before them and the last
        #: hand number before them (no session line of him since).
        self.before_gap: dict[str, tuple[int, int]] = {}
        self.last_number: int | None = None

    def error(self, row: Row, message: str, hand: int | None = None) -> None:
        """A problem of a session line (naming the session), or a hand's start that does not
        follow the previous hand (a :class:`StoredFinding`: the hand is stored as logged)."""
        kind = MalformedInput if hand is None else StoredFinding
        self.ctx.errors.append(kind(
            message, file=self.ctx.file, line=row.line, action=row.entry,
            hand=None if hand is None else f"#{hand}",
            session=self.ctx.session if hand is None else None))

    def alias(self, refs: Iterable[tuple[str, str]], row: Row, hand: int | None = None
              ) -> None:
        """Remember names; a PlayerAlias item for each name an id has not had before. A name
        a command would refuse (:func:`ledger.model.names.check_name`: a control character,
        whitespace at an end) is an error of ``row`` (in hand ``#hand`` when it is one of its
        rows): the player's book lines cannot be stored, so the file is refused whole."""
        for pid, name in refs:
            self.players[pid] = name
            known = self.names.setdefault(pid, set())
            if name not in known:
                known.add(name)
                if not name:
                    continue
                try:
                    check_name(name)
                    check_name_length(name)
                except MalformedInput as exc:
                    where = "" if hand is None else f" (hand #{hand})"
                    self.error(row, f"{exc.message}{where}")
                    continue
                self.items.append(PlayerAlias(player=pid, alias=name))
                self.lines[len(self.items) - 1] = row.line

    def shown(self, player: str) -> str:
        """``player`` (a PokerNow id) as a line of the import names him: ``name (id)`` with
        the name the log last gave him so far (the id alone when it gave none)."""
        name = self.players.get(player)
        return f"{name} ({player})" if name and name != player else player

    def hand(self, block: HandBlock, built: tuple[PnHand, dict[str, int] | None] | None,
             *, refused: bool = False) -> None:
        """Append a built hand (aliases first) and carry its result into the stacks.
        ``refused``: a line of the hand refuses it (it will not be imported), and with it the
        hands and session lines after it (FORMATS.md §2: the stacks carry from hand to hand),
        so the stacks of its players are unknown from there on: a session line after it
        (a quit with what the hand left him) is not checked against stacks it never left."""
        number = None if built is None else built[0].number
        start = len(self.items)
        for row in [block.start, *block.body, *block.after]:
            self.alias(row.parsed.refs, row, number)
        of = f"#{block.start.parsed.number or 0}" if built is None else built[0].hand_id
        self.of_hand.update(dict.fromkeys(range(start, len(self.items)), of))
        if built is None:
            return
        hand, after = built
        if refused:
            after = None
        seats = hand.events[0].seats
        if self.last_number is not None and hand.number not in (self.last_number,
                                                                 self.last_number + 1):
            # hands are missing from the export: the stacks are unknown from here on (a join
            # is no top-up), but one that differs from the last known is still a finding
            self.before_gap.update((p, (c, self.last_number)) for p, c in self.stacks.items())
            self.stacks.clear()
        self.last_number = hand.number
        stacks_row = next(r for r in block.body if r.parsed.kind == "stacks")
        for seat in seats:
            known = self.stacks.get(seat.player)
            had, after_hand = self.before_gap.pop(seat.player, (None, 0))
            if known is None and had is not None and had != seat.stack:
                self.error(stacks_row, f"{self.shown(seat.player)} starts with {seat.stack} but "
                           f"had {had} after hand #{after_hand} and the session lines (hands "
                           f"#{after_hand + 1}-#{hand.number - 1} are not in the log)"
                           f"{amounts_said(self.ctx.unit.decimals)}", hand.number)
            if known is not None and known != seat.stack:
                self.error(stacks_row, f"{self.shown(seat.player)} starts with {seat.stack} but "
                           f"had {known} after the previous hand and the session lines"
                           f"{amounts_said(self.ctx.unit.decimals)}", hand.number)
        self.items.append(hand)
        for seat in seats:
            if after is None:
                self.stacks.pop(seat.player, None)
            else:
                self.stacks[seat.player] = after[seat.player]

    def session_row(self, row: Row) -> None:
        """Append the items of one session line, each at the row's line (``lines``)."""
        start = len(self.items)
        self._session_row(row)
        self.lines.update(dict.fromkeys(range(start, len(self.items)), row.line))

    def _session_row(self, row: Row) -> None:
        line = row.parsed
        self.alias(line.refs, row)
        for pid, _ in line.refs:
            self.before_gap.pop(pid, None)
        if line.kind == "ignore":
            return
        player = line.player or ""
        if line.kind == "id_change":
            self.items.extend(self.id_change(line.former or "", player))
            return
        try:
            amount = self.ctx.chips(line.amount or "")
            amount2 = self.ctx.chips(line.amount2) if line.amount2 is not None else 0
        except ValueError as exc:
            self.error(row, str(exc))
            return
        if line.kind in ("quit", "stand_up", "sit_back"):
            self.items.extend(self.leave(row, player, amount))
        elif line.kind == "updated":
            self.items.extend(self.update(row, player, amount, amount2))
        elif line.kind == "rebought":
            self.items.extend(self.rebuy(row, player, amount))
        elif line.kind == "bounty":
            self.items.extend(self.bounty(row, player, amount))
        else:
            self.items.extend(self.join(row, player, amount))

    def join(self, row: Row, player: str, stack: int) -> list[SessionItem]:
        """An approval or a join: a buy-in of ``stack``, unless the player is still at the table
        (an approval's join, or a join after sitting back) with that stack, or with nothing
        (he busted): then only what he adds."""
        had = self.stacks.get(player)
        self.stacks[player] = stack
        if had is None or had == 0:
            items: list[SessionItem] = [SeatChange(player=player, change="join", stack=stack)]
            return items + ([BuyIn(player=player, chips=stack, kind="buy_in")] if stack else [])
        if had != stack:
            self.error(row, f"joins with {stack} but has {had} at the table")
        return []

    def leave(self, row: Row, player: str, stack: int) -> list[SessionItem]:
        """Quitting cashes out; standing up and sitting back move no chips (the stack stays at
        the table)."""
        kind = row.parsed.kind
        known = self.stacks.pop(player, None) if kind == "quit" else self.stacks.get(player)
        if known is not None and known != stack:
            self.error(row, f"{'sits back' if kind == 'sit_back' else 'leaves'} with {stack} "
                       f"but has {known}")
        change = {"quit": "quit", "stand_up": "stand_up", "sit_back": "sit_back"}[kind]
        items: list[SessionItem] = [SeatChange(player=player, change=change, stack=stack)]  # type: ignore[arg-type]
        if kind != "quit":
            self.stacks[player] = stack
            return items
        return [*items, CashOut(player=player, chips=stack)]

    def id_change(self, former: str, new: str) -> list[SessionItem]:
        """``changed the ID from OLD to NEW``: OLD is NEW from here on (a ``PlayerAlias``); his
        chips at the table go with him."""
        if former in self.stacks:
            self.stacks[new] = self.stacks.pop(former)
        return [PlayerAlias(player=new, alias=former)]

    def update(self, row: Row, player: str, old: int, new: int) -> list[SessionItem]:
        known = self.stacks.get(player)
        if known is not None and known != old:
            self.error(row, f"stack updated from {old} but the player has {known}")
        self.stacks[player] = new
        if new > old:
            return [BuyIn(player=player, chips=new - old, kind="top_up")]
        return [CashOut(player=player, chips=old - new)] if new < old else []

    def rebuy(self, row: Row, player: str, new: int) -> list[SessionItem]:
        had = self.stacks.get(player, 0)
        self.stacks[player] = new
        if new <= had:
            self.error(row, f"rebuys to {new} but already has {had}")
            return []
        return [BuyIn(player=player, chips=new - had, kind="rebuy")]

    def bounty(self, row: Row, payer: str, amount: int) -> list[SessionItem]:
        payee = row.parsed.payee or ""
        for player, sign in ((payer, -1), (payee, 1)):
            if player in self.stacks:
                self.stacks[player] += sign * amount
        if amount == 0:
            return []
        return [Payment(payer=payer, payee=payee,
                        amount_minor=amount * self.ctx.unit.minor_per_chip,
                        reason=f"{row.parsed.what} bounty")]
