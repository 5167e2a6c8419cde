"""A PokerNow log whose hands the ledger holds in a session it never opened.

An export of hands alone (a PHH file, or a JSON-lines export of single hands) carries no
session book, so a ledger that imported one first holds the hands in a session it never
opened. The log imported after them opens that session itself and its rows go after the held
hands, counted there: a buy-in cannot count before a session's opening (RULES.md §1.1;
:mod:`replay.ingest.pnbefore`). That keeps the table's order only when everything of the log
is held, and its book lies before its first hand or after its last (a whole PHH export of a
log whose players all sat down before its first hand). Else a hand or a line of the book the
log has before a held hand would be stored after it, its buy-ins counted after the hands they
paid for: the log is refused whole (:func:`refuse_book_after_held`).
"""

from __future__ import annotations

from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.errors import MalformedInput
from ledger.model.shell import shell_arg
from replay.ingest.carried_source import hands_carrying
from replay.ingest.keyed import hands_keyed
from replay.ingest.pnbefore import opened_before


def refuse_book_after_held(ledger: Any, read: FileRead) -> None:
    """Refuse the PokerNow log ``read`` (items in log order) when the ledger holds one of its
    hands (by its key, or as a PHH hand carrying that key as ``_source_key``) in a session it
    never opened, and the log has before that hand a hand the ledger does not hold or a line
    of its book after its first hand, or has a hand the ledger does not hold and a book
    before its first hand (stored after the held hands, counted before the others).
    Two queries at most; none when the ledger holds none of the log's hands.

    Raises:
        MalformedInput: naming the file, the first such line, the held hand and its session,
            and what to do (import the log into a new ledger); nothing is written.
    """
    hands = [i for i in read.items if isinstance(i, HandEvents)]
    held = _held_unopened(ledger, [h.source_key for h in hands])
    if not held:
        return
    opening: tuple[int, str] | None = None  # the first line of the book before any hand
    earlier: tuple[int, str] | None = None  # the first line stored after a held hand
    dealt, first_held, unheld = False, None, False
    for item in read.items:
        if isinstance(item, SessionEntry):
            if not dealt and opening is None and item.line:  # not the made opening
                opening = (item.line, item.event.type)
            elif dealt and earlier is None:
                earlier = (item.line, item.event.type)
            continue
        if not isinstance(item, HandEvents):
            continue
        dealt = True
        if item.source_key not in held:
            unheld = True
            earlier = earlier or (item.line, f"hand {item.hand_id}")
        elif earlier is not None:
            _refuse(read, earlier, held[item.source_key])
        else:
            first_held = first_held or held[item.source_key]
    if unheld and opening is not None and first_held is not None:
        _refuse(read, opening, first_held)  # its joins and buy-ins between its hands


def _refuse(read: FileRead, earlier: tuple[int, str], where: tuple[str, str]) -> None:
    line, what = earlier
    hand, session = where
    raise MalformedInput(
        f"its {what} comes before hand {hand}, which the ledger holds already in session "
        f"{session}, a session it never opened (the hand came without its book: a PHH file or "
        "a JSON-lines export of single hands carries none): the log would open the session "
        f"after the held hands and store its {what} after them, out of the table's order "
        "(buy-ins counted after the hands they paid for); nothing of the file was written "
        "(the log carries those hands too: import it into a new ledger, "
        f"`handledger --db NEW.duckdb import {shell_arg(read.file)}`)",
        file=read.file, line=line)


def _held_unopened(ledger: Any, keys: list[str]) -> dict[str, tuple[str, str]]:
    """``{key: (stored hand id, session)}`` of the hands of ``keys`` the ledger holds, under
    that key or carrying it, in a session it holds no opening of."""
    if not keys:
        return {}
    found = hands_keyed(ledger, keys)
    for key, where in hands_carrying(ledger, [k for k in keys if k not in found]).items():
        found.setdefault(key, where)
    if not found:
        return {}
    never = opened_before(ledger, [hand for hand, _ in found.values()])[1]
    return {k: (h, s) for k, (h, s) in found.items() if s is not None and s in never}
