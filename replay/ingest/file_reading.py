"""A file read by its importer, and its session rows checked before any hand is: the session a
game's file goes to and the unit it counts in, the JSON-lines closing line, the book entry
lines and the names they give, and the entries the ledger stores already left out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ledger.formats.reading import FileRead, Importer, SessionEntry
from ledger.model.errors import (
    LedgerError,
    MalformedInput,
)
from ledger.model.events import event_json
from ledger.model.names import check_name
from ledger.store.streams import (
    session_of_entries,
    session_of_source,
    stored_rows,
)
from replay.ingest.carried_source import carried_session


def read_file(ledger: Any, path: Path, importer: Importer, *, session: str | None,
              closed: bool = False, read: FileRead | None = None,
              held: tuple[FileRead, str | None] | None = None) -> FileRead:
    """``importer``'s read of ``path``. A file that makes its own session (a PokerNow game,
    FORMATS.md §2) that the ledger already holds under another session name, by its first
    hand or a session entry of it (:func:`game_session`: another export of the game, under
    any file name, maybe taken before the first hand was dealt) is read again into that
    session; given
    ``session`` (``import --session``), it is refused instead: its session book (opening,
    joins, buy-ins, cash-outs) would be written a second time, into ``session``; and so is a
    JSON-lines file whose session book is keyed by a PokerNow game the ledger holds in
    another session (another ledger's export of the game:
    :func:`replay.ingest.pnbooks.refuse_game_elsewhere`). A PokerNow
    log into a session the ledger has opened brings no opening of its own and is counted in
    that session's chips (:func:`replay.ingest.pnunits.into_sessions`). ``closed``: session
    rows may change the books of a session the ledger has closed, a cash-out or an amendment
    (:func:`_without_stored_entries`, :func:`replay.ingest.pokernow.refuse_closed_game`).
    ``read``: ``importer.read(path, session=session)`` made already (not made again).
    ``held``: :func:`game_held`'s answer for it, asked already (not asked again). A
    PokerNow game the ledger does not hold gets in ``extra["shared"]`` the warning that its
    session holds another PokerNow game already, or None
    (:func:`replay.ingest.pnshared.shared_session_warning`, given the answer of
    :func:`game_session` asked here, not asked again).

    Raises:
        OSError: the file cannot be read; MalformedInput: the game is in the ledger under
            another session than ``session`` (naming the file and that session; of a
            JSON-lines book, its line and the file's session too), a session
            entry names a session or player a command would refuse, or (JSON lines,
            PokerNow) a line of a session's book cannot be read or does not follow the table
            (a join with chips the player does not have), or the game is in the ledger
            counted in another unit (:func:`check_game_unit`), or a PokerNow log cannot be
            counted in the chips of the opened session it goes into
            (:func:`replay.ingest.pnunits.counting`, or a line of its book): the whole file
            is refused, before anything of it is written; LedgerError: a PokerNow hand the
            ledger holds reads with another name or id for a seated player
            (:func:`replay.ingest.pnnames.check_same_names`), or the game's first hand is
            stored but its session lines are keyed as another game's
            (:func:`replay.ingest.pnnames.check_same_game`).
    """
    read = read if read is not None else importer.read(path, session=session)
    read, stored = held if held is not None else game_held(ledger, path, importer, read, session)
    if importer.name == "jsonl":
        check_closing_line(read)  # a file cut short or pasted together: refused whole
    if importer.name in ("jsonl", "pokernow"):  # files that carry a session's book
        check_entry_lines(read, path)  # first: its refusal names the line
    if importer.name == "pokernow":
        from replay.ingest.pnnames import check_same_game, check_same_names

        check_same_names(ledger, read)  # a stored hand under other names: the file refused
        if read.session is not None:
            check_same_game(ledger, read, read.session)  # its oldest row edited: refused
    check_entry_names(read)
    if importer.name == "jsonl":  # a PokerNow game's book from another ledger
        from replay.ingest.pnbooks import refuse_game_elsewhere

        refuse_game_elsewhere(ledger, read)  # held here under another name: refused
    if importer.name == "pokernow":  # into a session the ledger holds: counted in its chips
        from replay.ingest.pnunits import into_sessions
        from replay.ingest.pokernow import refuse_closed_game

        read = into_sessions(ledger, read)
        refuse_closed_game(ledger, read, closed=closed)  # no hand into a closed session
        from replay.ingest.pnsplit import unbought_stacks

        unbought_stacks(ledger, read)  # a cut export's first stacks: warnings
        from replay.ingest.pnbefore import buy_ins_before_held

        read = buy_ins_before_held(ledger, read, stored)  # its hands came by PHH first
    if importer.name == "jsonl":  # an old export's hands in their session's chips
        from replay.ingest.old_units import note_openings
        from replay.ingest.pnbefore import book_before_held

        note_openings(read)
        read = book_before_held(ledger, read)  # its hands came by PHH first
    return _without_stored_entries(ledger, read, closed=closed)


def game_held(ledger: Any, path: Path, importer: Importer, read: FileRead,
               session: str | None) -> tuple[FileRead, str | None]:
    """``read`` (read again into the session the ledger holds its game in, when another: its
    hands then carry the ids the ledger gives them) and that session (:func:`game_session`;
    None: a new game), the first step of :func:`read_file` (FORMATS.md §2).

    Raises:
        MalformedInput: nothing written: a PokerNow log whose held hands its book would be
            stored after (:func:`replay.ingest.pnunopened.refuse_book_after_held`), the game
            held under another session than ``session``, in another unit, or cut
            (:func:`replay.ingest.pnsplit.refuse_split_game`).
    """
    if importer.name == "pokernow":  # its hands stored first without their book
        from replay.ingest.pnunopened import refuse_book_after_held

        refuse_book_after_held(ledger, read)
    stored = None
    if read.session is not None:
        stored = game_session(ledger, read)
        if stored is not None and stored != read.session:
            if session is not None:
                raise _elsewhere(ledger, read, stored, session)
            read = importer.read(path, session=stored)
        if stored is not None:
            check_game_unit(ledger, read, stored)
        elif importer.name == "pokernow":  # some of its hands stored by a cut export
            from replay.ingest.pnshared import shared_session_warning
            from replay.ingest.pnsplit import refuse_split_game

            refuse_split_game(ledger, read)
            # a new game: said if its session holds another PokerNow game
            read.extra["shared"] = shared_session_warning(ledger, read,
                                                          named=session is not None)
    return read, stored


def _elsewhere(ledger: Any, read: FileRead, stored: str, session: str) -> MalformedInput:
    """The refusal of ``read``, a PokerNow game the ledger holds in session ``stored``,
    imported with ``--session session``. Its stored hands all voided (``session void``), it
    says so and what can be done: a voided hand is never brought back and a hand's session is
    never rewritten, so the game goes into ``session`` in a new ledger only (CORRECTIONS.md,
    "Taking back many hands, or a whole session"). Its hands there came by a PHH export
    (no book of the game stored: :func:`game_session`), it says that its book goes into that
    session with them. Else: its buy-ins would count twice."""
    from ledger.formats.reading import HandEvents
    from ledger.model.shell import shell_arg
    from replay.ingest.keyed import hands_keyed
    from replay.ingest.known_hands import voided_of

    keys = [i.source_key for i in read.items if isinstance(i, HandEvents)]
    hands = [h for h, _ in hands_keyed(ledger, keys).values()]
    if hands and len(voided_of(ledger, hands)) == len(hands):
        return MalformedInput(
            f"this PokerNow game is in the ledger already, in session {stored}, its "
            f"{len(hands)} hand(s) voided there: a voided hand stays voided (an import never "
            "brings one back) and stays in its session, so this ledger cannot take the game "
            f"into session {session}; to have it there, import it into a new ledger "
            f"(`handledger --db NEW.duckdb import --session {shell_arg(session)} "
            f"{shell_arg(read.file)}`); nothing of the file was written", file=read.file)
    if not hands and (read.game_key is None or session_of_entries(
            ledger, "pokernow:", f":{read.game_key}:item:") is None):
        return MalformedInput(  # its hands came by a PHH export (game_session): no book
            f"this PokerNow game's hands are in the ledger already, in session {stored}, "
            "without its book (they came from a PHH file, which carries none): its buy-ins go "
            f"in with its hands, not into session {session} (they would count chips played in "
            f"session {stored}); import it into session {stored} (`--session "
            f"{shell_arg(stored)}`, or no --session); nothing of the file was written",
            file=read.file)
    return MalformedInput(
        f"this PokerNow game is in the ledger already, in session {stored}: it is not imported "
        f"into session {session} too (its buy-ins would count twice); nothing of the file was "
        "written", file=read.file)


def game_session(ledger: Any, read: FileRead) -> str | None:
    """The session the ledger holds the game of ``read`` (a file that makes its own session)
    in: that of its first hand, or, that hand not stored (an export taken before its seats
    were logged), of a session entry of the game (``read.game_key`` in its source key:
    :mod:`ledger.formats.pokernow.importer`), or else of the stored hand that carries its first
    hand's key as ``_source_key`` (a PHH export of the game, imported first:
    :func:`replay.ingest.carried_source.carried_session`); None: the game is not in the
    ledger."""
    stored = None
    if read.first_hand_key is not None:
        stored = session_of_source(ledger, read.first_hand_key)
    if stored is None and read.game_key is not None:
        stored = session_of_entries(ledger, "pokernow:", f":{read.game_key}:item:")
    if stored is None:  # its hands came by another ledger's PHH export, without its book
        stored = carried_session(ledger, read.first_hand_key)
    return stored


def check_game_unit(ledger: Any, read: FileRead, session: str) -> None:
    """Refuse another export of a game the ledger holds in ``session`` when it counts in
    another unit than the stored one (FORMATS.md §2: a log is read in cents once any amount
    has a decimal point, so an export taken before the first such amount counts whole chips):
    its hands and buy-ins would be the stored ones counted again, a hundred times larger or
    smaller. The stored unit is that of the game's first hand, else that of the session's
    opening by the game.

    Raises:
        MalformedInput: naming the file, the session and both units; nothing is written.
    """
    from replay.ingest.pnunits import stored_log_decimals

    mine = next((i.event.decimals for i in read.items if isinstance(i, SessionEntry)
                 and i.session == read.session and i.event.type == "session_opened"), None)
    theirs = stored_log_decimals(ledger, read.first_hand_key, f"pokernow:{session}:opened")
    if mine is None or theirs is None or mine == theirs:
        return

    def unit(decimals: int) -> str:
        return "whole chips" if decimals == 0 else "cents (an amount has a decimal point)"

    raise MalformedInput(
        f"this log counts {unit(mine)}, but the ledger holds an export of the same game, in "
        f"session {session}, that counts {unit(theirs)}: its amounts would not be the stored "
        "ones; nothing of the file was written", file=read.file)


def check_closing_line(read: FileRead) -> None:
    """Refuse the whole JSON-lines file when its closing line does not have its shape, does
    not count the lines before it or names a hand in play at another last seq than the file
    has (lines are missing, added or edited, so none of its rows is taken: README, a file
    cut short is refused), or a line of it is not UTF-8 (a row of no stream that can be
    told, so no stream is known whole):
    :attr:`ledger.formats.jsonl.lines.JsonlFile.refused`.

    Raises:
        MalformedInput: the first such error, naming file and line, saying that nothing of
            the file was written.
    """
    refused = read.extra.get("refused")
    if refused is not None:
        refused.message += "; nothing of the file was written"
        raise refused


def check_entry_lines(read: FileRead, path: Path) -> None:
    """Refuse the whole file ``path`` when a line of a session's book (an entry of no hand: a
    buy-in, a cash-out, the session's opening…) cannot be read: importing the session's hands
    without it would leave a session whose chips nobody bought, which the audit cannot
    follow (RULES.md §1.1). Hands stay refused one by one. When the file ends in the middle
    of that line, the refusal says so as a hand's does (:func:`ledger.formats.files.cut_note`:
    a file cut short) in place of the advice to correct the line.

    Raises:
        LedgerError: the first such line's error, naming file, line and session, saying that
            nothing of the file was written.
    """
    from ledger.formats.files import cut_note

    for exc in read.errors:
        if exc.session is not None and exc.hand is None:
            cut = "" if "cut off" in exc.message else cut_note(path, exc.line,
                                                                message=exc.message)
            exc.message += ("; a line of the session's book is refused, so nothing of the "
                            "file was written" + (cut or " (correct the line and import the "
                                                  "file again)"))
            raise exc


#: The name fields of the session events a file may hold.
_NAME_FIELDS = ("player", "payer", "payee", "alias")


def check_entry_names(read: FileRead) -> None:
    """Refuse the whole file when a session entry names a session or player a command would
    refuse (:func:`ledger.model.names.check_name`), naming file, line and session."""
    for item in read.items:
        if not isinstance(item, SessionEntry):
            continue
        try:
            check_name(item.session, "session")
            for f in _NAME_FIELDS:
                if isinstance(value := getattr(item.event, f, None), str):
                    check_name(value)
        except LedgerError as exc:
            raise exc.located(file=read.file, line=item.line, session=item.session) from None


def _without_stored_entries(ledger: Any, read: FileRead, *, closed: bool = False) -> FileRead:
    """``read`` without the session entries the ledger holds already at the same place (the
    same event at the same seq of the session's stream): a file that is our own export, of
    entries a command wrote with no source key, adds nothing.

    Raises:
        LedgerError: a session stream of the file that does not extend the ledger's stream of
            that name (another event at a seq the ledger holds), or a row after the session's
            ``session_closed`` (the ledger's or the file's own) that a closed session takes
            no more of, or, unless ``closed``, one after the ledger's closing that changes
            its books, a cash-out or an amendment
            (:func:`replay.ingest.closed.refuse_settled_change`), naming file,
            line and session; nothing of the file is written.
    """
    numbered = [i for i in read.items if isinstance(i, SessionEntry) and i.seq is not None]
    if not numbered:
        return read
    stored = stored_rows(ledger, sorted({f"session:{i.session}" for i in numbered}))
    _check_extends(read.file, numbered, stored, closed=closed)
    if not stored:
        return read
    keep = [i for i in read.items if not (
        isinstance(i, SessionEntry) and i.seq is not None
        and stored.get((f"session:{i.session}", i.seq)) == event_json(i.event))]
    return dataclasses.replace(read, items=keep)


#: Session events a closed session takes no more of (RULES.md §1.1: no hands or buy-ins; a
#: buy-in made before one of its hands, ``before``, goes in as a cash-out does).
NOT_AFTER_CLOSE = ("session_opened", "session_closed", "buy_in")


def _check_extends(file: str, numbered: list[SessionEntry],
                   stored: dict[tuple[str, int], str], *, closed: bool = False) -> None:
    """Refuse (see :func:`_without_stored_entries`) a numbered session entry that differs from
    the ledger's row at its seq, or that a closed stream (closed in the ledger or on an
    earlier line of the file) does not take, or, unless ``closed``, that changes the books
    after the ledger's closing (a cash-out, an amendment; after the file's own closing alone
    it goes in: another ledger recorded it so)."""
    import json

    from replay.ingest.closed import refuse_settled_change

    types = {key: json.loads(payload).get("type") for key, payload in stored.items()}
    shut: dict[str, int] = {}  # each stream's closing in the ledger: its seq
    for (stream, seq), kind in sorted(types.items()):
        if kind == "session_closed":
            shut.setdefault(stream, seq)
    types.update({(f"session:{i.session}", i.seq): i.event.type for i in numbered})
    ended = dict.fromkeys(shut, True)  # closed, in the ledger or on an earlier line
    for item in numbered:
        stream = f"session:{item.session}"
        held = stored.get((stream, item.seq))  # type: ignore[arg-type]
        if held is not None:
            if held != event_json(item.event):
                raise LedgerError(
                    f"its {item.event.type} at seq {item.seq} is not the ledger's entry "
                    f"{item.seq}: "
                    f"this is another session named {item.session}; nothing of the file was "
                    "written (import it into another ledger, or rename the session in the file)",
                    file=file, line=item.line, session=item.session)
            continue
        if stream in shut and not closed:
            target = getattr(item.event, "seq", None)
            refuse_settled_change(item, types.get((stream, target)), shut[stream], file=file)
        if ended.get(stream) and item.event.type in NOT_AFTER_CLOSE and not (
                item.event.type == "buy_in" and item.event.before is not None):
            raise LedgerError(
                f"its {item.event.type} at seq {item.seq} comes after the session was closed: "
                f"a closed session takes no more; nothing of the file was written",
                file=file, line=item.line, session=item.session)
        if item.event.type == "session_closed":
            ended[stream] = True
