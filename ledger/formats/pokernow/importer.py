"""The PokerNow importer (FORMATS.md §2): a game log is one session, its hands and its items.

Session items between two hands (buy-ins, joins, stand-ups, payments, aliases) go to the
session stream ``session:<name>`` in log order. Source keys make a re-import, or a longer export
of the same game, add only what is new: a hand's key is PokerNow's hand id (or its start); a
session item's key is the game (a digest of its oldest row, which every export of the game
begins with, even one taken before the first hand was dealt), the item's place (the hands
before it, its index after them) and its content, so the items a shorter export already wrote
are known when the longer one comes, and two games imported into one ``--session`` never
mistake each other's items for their own (``session_opened``: once per session). Its
``legacy_key`` is the key earlier versions gave it (the game known by its first hand), so a
ledger they wrote takes the same items again as known.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ledger.formats.files import file_name
from ledger.formats.pokernow.log import PnGame, PnHand, read_pokernow_log
from ledger.formats.reading import FileRead, HandEvents, SessionEntry, first_line, with_session
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import SessionOpened, event_json


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_key(game: PnGame) -> str:
    """The digest that names ``game`` (one table's log) in its session entries' source keys:
    of its oldest row, the same in every export of the game (FORMATS.md §2: the log grows at
    its top, newest first)."""
    return _digest(game.first_row or "")


class PokerNowImporter:
    """PokerNow game logs: a CSV whose header is ``entry,at,order`` (a ledger statement, whose
    header differs, goes with its log: ``import LOG --ledger STATEMENT``)."""

    name = "pokernow"
    describes = "PokerNow game logs (.csv)"

    def identify(self, path: Path, head: bytes) -> bool:
        return self.knows(head)

    def knows(self, head: bytes) -> bool:
        names = {n.strip().strip(b'"').lower() for n in first_line(head).split(b",")}
        return {b"entry", b"at", b"order"} <= names

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """The log's session items and hands in log order, in ``session`` (default: the
        session named after the file). A file holding several tables' logs gives each table
        its own session, one after the other (``PnGame.more``). ``extra["decimals"]``: the
        decimals of the log's amounts as read (2: cents, once an amount has a decimal point;
        FORMATS.md §2), before any conversion into a session's chips."""
        game = read_pokernow_log(path, session=session)
        first = next((i.source_key for i in game.items if isinstance(i, PnHand)), None)
        out = FileRead(str(path), session=game.session, first_hand_key=first,
                       game_key=game_key(game), extra={"decimals": game.unit.decimals})
        for table in (game, *game.more):
            _read_game(table, out)
            if table.cut:
                out.extra.setdefault("cut", []).append(cut_warning(table, file_name(path)))
        return out


def cut_warning(game: PnGame, file: str) -> str:
    """The one warning line of the hand ``game``'s log begins inside (``PnGame.cut``: an
    export cut at the game's oldest rows, FORMATS.md §2), naming ``file`` and its lines; the
    CLI puts ``warning:`` before it."""
    lines = game.cut
    which = "a hand" if game.cut_number is None else f"hand #{game.cut_number}"
    said = (f"line {lines[0]}" if len(lines) == 1
            else f"its {len(lines)} lines ({lines[0]} to {lines[-1]})")
    return (f"{file}:{lines[0]}: the log begins inside {which}, whose starting line it "
            f"lacks (an export cut at the game's oldest rows): {said} not read, the hand not "
            "written")


def _read_game(game: PnGame, out: FileRead) -> None:
    """Append one table's items and errors to ``out``: a hand that an error other than a
    :class:`ledger.model.errors.StoredFinding` names is refused, nothing of it kept, nor a
    name first seen in its rows (a line of it could not be read or does not add up,
    FORMATS.md §2); a hand with only findings
    is kept as logged. A session item is at the line of the row that gave it (a quit at its
    own line, not at the hand before it). The items after a refused hand
    (:func:`_until_refused`) are not in ``out.items``: ``out.extra["after_refused"]`` holds
    ``(error, items)`` for them, so that the import counts them known when the ledger holds
    every one already."""
    name = game.session
    out.errors.extend(game.errors)
    refused = {e.hand for e in game.errors
               if e.hand is not None and not isinstance(e, StoredFinding)}
    first = next((i.source_key for i in game.items if isinstance(i, PnHand)), None)
    scope = f"pokernow:{name}:{game_key(game)}"  # this game, in this session
    legacy = f"pokernow:{name}:{_digest(first or '')}"  # as earlier versions wrote it
    items, cut = _until_refused(game)
    kept = len(items)
    if cut is not None:
        out.errors.append(cut)
    hands = since = line = 0  # hands so far, session items since the last hand
    sink = out.items
    for index, item in enumerate(game.items):
        if index == kept:  # what follows a refused hand goes with the error
            sink = []
            out.extra.setdefault("after_refused", []).append((cut, sink))
        if not isinstance(item, PnHand):
            if isinstance(item, SessionOpened):  # once per session
                sink.append(SessionEntry(name, item, line, f"pokernow:{name}:opened"))
            elif game.of_hand.get(index) not in refused:  # a refused hand's names: not kept
                place = f"item:{hands}:{since}:{_digest(event_json(item))}"
                sink.append(SessionEntry(name, item, game.lines.get(index, line),
                                         f"{scope}:{place}", legacy_key=f"{legacy}:{place}",
                                         of_hand=game.of_hand.get(index)))
            since += 1
            continue
        hands, since, line = hands + 1, 0, item.line  # a refused hand keeps its place
        if item.hand_id in refused:
            continue
        events = with_session(item.events, name)
        sink.append(HandEvents(item.hand_id, events, [item.line] * len(events), item.line,
                               item.source_key, name))


def _until_refused(game: PnGame) -> tuple[list[PnHand | Any], MalformedInput | None]:
    """The items of ``game`` up to its first refused hand, and the one error for what follows
    it (None when nothing does). The stacks of a PokerNow game carry from hand to hand
    (FORMATS.md §2), so the hands and session lines after a refused hand are refused too:
    written now, they would come before the refused hand once its fixed log is imported, and
    the books would not follow the game. The error's ``hands`` are the hand ids refused with it
    (each a rejected hand of the import report)."""
    if not game.refused:
        return list(game.items), None
    index, number, line = game.refused[0]
    before = game.items[index - 1] if index else None
    refused = (before.hand_id if isinstance(before, PnHand) and before.line == line
               else f"#{number}")
    after = game.items[index:]
    if not after:
        return list(game.items), None
    hands = [(i.number, i.hand_id, i.line) for i in after if isinstance(i, PnHand)]
    lines = any(not isinstance(i, PnHand) for i in after)
    return list(game.items[:index]), followers_refused(refused, number, line, hands, lines)


def followers_refused(hand: str, number: int, line: int, hands: list[tuple[int, str, int]],
                      lines: bool) -> MalformedInput:
    """The one error for the hands and session lines that follow a refused hand in its
    game's log (FORMATS.md §2: the stacks carry from hand to hand, so they are not written
    either), located at the first hand it refuses (its id and starting line), or, when only
    session lines follow, at the refused hand (``hand``: its id, or ``#number`` when it was
    never built; ``line``: its starting line). ``hands``: ``(number, id, starting line)`` of
    each hand after it, in log order, refused with it (the error's ``hands``: each a
    rejected hand of the import report); ``lines``: whether session lines follow it too."""
    if hands:
        span = (f"hand #{hands[0][0]} follows" if len(hands) == 1 else
                f"hands #{hands[0][0]} to #{hands[-1][0]} ({len(hands)} hands) follow")
        what = (f"{span} the refused hand #{number} in the log and "
                f"{'is' if len(hands) == 1 else 'are'} not written"
                f"{', nor the session lines after it' if lines else ''}")
    else:
        what = f"the session lines after the refused hand #{number} in the log are not written"
    if hands:  # the line is about the hands it refuses: it names the first of them
        hand, line = hands[0][1], hands[0][2]
    error = MalformedInput(f"{what} (the stacks carry from hand to hand): fix the log and "
                           "import it again", line=line, hand=hand)
    error.hands = [h for _, h, _ in hands]  # type: ignore[attr-defined]
    return error


IMPORTER = PokerNowImporter()
