"""PokerNow's ledger statement (``import LOG --ledger STATEMENT``, FORMATS.md §2) kept.

:func:`import_statement` stores PokerNow's ledger CSV as one ``platform_ledger`` event at the end
of the game's session stream; ``audit`` compares it with the replayed session. The game log
itself is read by :mod:`ledger.formats.pokernow.importer`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ledger.formats.reading import FileRead, read_head
from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, MalformedInput, StoredFinding
from ledger.model.events import event_json
from ledger.model.shell import shell_arg


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_statement(statement: Path, files: Sequence[Path]) -> Path:
    """The one PokerNow log among ``files`` (directories searched) that the ledger CSV
    ``statement`` goes with, checked before anything is imported (FORMATS.md §2: a statement
    is one game's).

    Raises:
        MalformedInput: none or several PokerNow logs among ``files``, naming the statement
            and how many were given; LedgerError: the statement cannot be read, or its nets
            do not sum to zero (FORMATS.md §2), as :func:`import_statement` would say it,
            naming its file and line.
    """
    from ledger.formats.pokernow.log import read_pokernow_ledger
    from replay.ingest.pipeline import expand
    from replay.ingest.registry import find_importer
    from replay.ingest.survey import statement_said

    given = expand(files, empty_ok=True)[0]
    logs = [f for f in given if getattr(find_importer(f), "name", None) == "pokernow"]
    if len(logs) != 1:
        said = [f"{f} is a PokerNow ledger statement, not a game log" for f in given
                if statement_said(read_head(f))]
        raise MalformedInput(f"--ledger {statement}: give exactly one PokerNow log with it "
                             f"({len(logs)} given{': ' if said else ''}{'; '.join(said)}); "
                             "nothing was imported")
    try:
        if not read_pokernow_ledger(statement):
            raise MalformedInput("the ledger has no player rows", file=statement.name)
    except LedgerError as exc:
        exc.message += "; nothing was imported"
        raise exc.located(file=str(statement)) from None
    return logs[0]


def statement_default(log: Path, session: str | None) -> str:
    """The session a ledger statement given with the PokerNow log ``log`` goes to when the
    ledger does not hold its game: ``session`` (``import --session``), else the log's own
    (:func:`ledger.formats.pokernow.log.default_session`)."""
    from ledger.formats.pokernow.log import default_session

    return session or default_session(log)


def read_log(log: Path, session: str | None) -> FileRead | None:
    """The PokerNow log ``log`` read as its import reads it first (``session``: ``import
    --session``), once for the whole ``import LOG --ledger STATEMENT``: the statement's session
    is found from it (:func:`statement_session`) and the import of the log takes it
    (:func:`replay.ingest.file_reading.read_file`); None when it cannot be read (its import then
    says why)."""
    from ledger.formats.pokernow.importer import PokerNowImporter

    try:
        return PokerNowImporter().read(log, session=session)
    except (LedgerError, OSError):
        return None


def statement_session(ledger: Any, statement: Path, log: Path, session: str | None,
                      read: FileRead | None = None) -> str:
    """The session a ledger statement ``statement`` given with the PokerNow log ``log`` goes
    to: the session the ledger holds the log's game in, found as the import of the log finds
    it (:func:`replay.ingest.file_reading.game_session`: its first hand, else an entry of the
    game, whatever the file is named now), else ``session`` (``import --session``), else the
    log's own name (:func:`ledger.formats.pokernow.log.default_session`): the session the
    import of the log makes (FORMATS.md §2: a statement is one game's). ``read``: the log as
    :func:`read_log` read it (None: read here, or not readable).

    Raises:
        MalformedInput: ``session`` is given and the ledger holds the log's game in another
            session (the log's import refuses it too: its buy-ins would count twice), naming
            the statement, both sessions and what to do; nothing is imported.
    """
    from replay.ingest.file_reading import game_session

    read = read or read_log(log, session)
    if read is None:  # the log's own import says what is wrong with it
        return statement_default(log, session)
    stored = game_session(ledger, read)
    if stored is None:
        return statement_default(log, session)
    if session is not None and stored != session:
        raise MalformedInput(
            f"--ledger {statement}: its log's game is in the ledger in session {stored}, not "
            f"{session}: import the statement with its log without --session (or with "
            f"--session {stored}); nothing was imported")
    return stored


def refuse_strangers(ledger: Any, statement: Path, session: str, read: FileRead) -> None:
    """Refuse PokerNow's ledger CSV ``statement`` when it has rows for players its log
    (``read``, as :func:`read_log` read it) never names (no seat in a hand, no join, buy-in,
    quit or name change) and the ledger's ``session`` (the game's, :func:`statement_session`)
    does not hold either (an earlier export of the game seating them): plainly another
    game's statement (FORMATS.md §2: a statement is one game's), checked before anything is
    written.

    Raises:
        MalformedInput: naming the statement, each such player with his id and his row's
            line, the log and the session; nothing is imported.
    """
    from ledger.formats.pokernow.log import read_pokernow_ledger
    from ledger.formats.reading import HandEvents, SessionEntry
    from replay.ingest.pnsplit import held_players

    named: set[str] = set()
    for item in read.items:
        if isinstance(item, HandEvents):
            named.update(seat.player for seat in item.events[0].seats)
        elif isinstance(item, SessionEntry):
            named.update(p for p in (getattr(item.event, k, None) for k in (
                "player", "payer", "payee", "alias")) if p)  # alias: an id the game changed
    try:
        rows = read_pokernow_ledger(statement)
    except LedgerError:
        return  # its import says what is wrong with it
    strangers = [r for r in rows if r.player_id not in named]
    if strangers and ledger.streams(kind="session", session=session):
        held = held_players(ledger, session)
        strangers = [r for r in strangers if r.player_id not in held]
    if not strangers:
        return
    who = ", ".join(f"{r.nickname} ({r.player_id}, line {r.line})" for r in strangers)
    raise MalformedInput(
        f"--ledger {statement}: it has rows for {len(strangers)} player(s) its log "
        f"{read.file} never seats, nor session {session} holds: {who}: the statement of "
        "another game? nothing was imported (import a statement with its own game's log)")


def statement_event(ledger: Any, statement: Path, session: str, log: Path,
                    decimals: int | None = None) -> Any:
    """PokerNow's ledger CSV ``statement`` as the ``platform_ledger`` event it is stored as in
    ``session`` (amounts in its chips, :func:`_in_session`; ``log``: its game's log,
    ``decimals`` the log's, None: read for them).

    Raises:
        LedgerError: the statement cannot be read, has no player rows, its nets do not sum to
            zero (FORMATS.md §2), or a figure is no whole number of the session's chips,
            located at the statement's file.
    """
    from ledger.formats.pokernow.log import read_pokernow_ledger
    from ledger.model.events import parse_event

    try:
        rows = read_pokernow_ledger(statement)
        if not rows:
            raise MalformedInput("the ledger has no player rows", file=statement.name)
        count = _in_session(ledger, session, log, statement, decimals)
        return parse_event({"type": "platform_ledger", "platform": "pokernow",
                            "file": statement.name, "rows": [
                                {"player": r.player_id, "nickname": r.nickname,
                                 **{f: count(getattr(r, f), f, r.player_id) for f in _FIGURES}}
                                for r in rows]})
    except LedgerError as exc:
        raise exc.located(file=str(statement)) from None


def refuse_other_statement(ledger: Any, statement: Path, session: str, log: Path,
                           decimals: int | None = None,
                           written: str = "nothing was imported") -> None:
    """Refuse PokerNow's ledger CSV ``statement`` when ``session`` holds a statement already
    (the one in force, its latest ``platform_ledger`` not retracted:
    :func:`replay.sessions.statements.statement_rows`) and this one's rows differ from it: a
    platform's statement of a game is its record of the game, stored once and compared with
    the books by the audit (FORMATS.md §2); another one in its place would make the audit's
    findings come and go with whichever file was given last. The same statement again is no
    refusal (it adds nothing), under any file name, its rows in any order. ``log``,
    ``decimals``: as :func:`statement_event`. ``written``: what the refusal says of the
    import.

    Raises:
        LedgerError: naming the statement, the session, the statement in force and each
            player whose row differs (``TA (gE4aE_Yhc3) stack 86 → 103, net -14 → 3``).
    """
    from replay.sessions.statements import statement_rows

    stated = statement_rows(ledger, session)
    if not stated:
        return
    event = statement_event(ledger, statement, session, log, decimals)
    seq, before = stated[-1]
    if not _changes(before, event):
        return
    raise LedgerError(
        f"--ledger {statement}: session {session} has a ledger statement in force already "
        f"({before.file or 'stored earlier'}), and this one differs from it: "
        f"{'; '.join(_changes(before, event))}; a platform's statement of a game is stored "
        f"once, never replaced (`handledger audit --session {shell_arg(session)}` compares it "
        "with the "
        "books; a wrong buy-in or cash-out there: `handledger entry amend` or `entry "
        f"retract`; a wrong statement: `handledger entry retract {shell_arg(session)} "
        f"{shell_arg(seq)} --reason … "
        f"--by …`, then import the right one); {written}")


def import_statement(ledger: Any, statement: Path, files: Sequence[Path], session: str | None,
                     report: Any, *, closed: bool = False, into: str | None = None,
                     decimals: int | None = None) -> None:
    """Append PokerNow's ledger CSV ``statement`` as a ``platform_ledger`` event to the session
    of the one PokerNow log among ``files`` (:func:`statement_session`: the session holding
    its game, whatever the log's file is named now; ``into``: that session, found before the
    log was imported, and ``decimals`` the log's, from its one read, :func:`read_log`: None,
    the log is read here for them); amounts as the CSV gives them, the game's chips (cents in
    a cents game). A session holds one statement: the one in force given again adds nothing,
    and another is refused (:func:`refuse_other_statement`; the import checks that before
    anything is written); a statement retracted (``entry retract``) is in force no more, and
    another, or the same again, is stored after it. Problems go to ``report.errors`` (an
    :class:`replay.ingest.report.ImportReport`), among them, unless ``closed``, a session
    closed by now (:func:`replay.ingest.closed.refuse_statement`: a file of the import may
    have closed it)."""
    from replay.ingest.registry import find_importer

    logs = [f for f in files if getattr(find_importer(f), "name", None) == "pokernow"]
    if len(logs) != 1:
        report.errors.append(f"--ledger {statement}: give exactly one PokerNow log with it "
                             f"({len(logs)} given)")
        return
    try:
        name = into if into is not None else statement_session(ledger, statement, logs[0],
                                                               session)
        event = statement_event(ledger, statement, name, logs[0], decimals)
    except LedgerError as exc:
        report.errors.append(str(exc))
        return
    if not ledger.streams(kind="session", session=name):
        report.errors.append(f"--ledger {statement}: no session {name!r} in the ledger "
                             f"(its log {logs[0]} was not imported)")
        return
    try:
        if not closed:
            from replay.ingest.closed import refuse_statement

            refuse_statement(ledger, statement, name, "the statement was not stored")
        refuse_other_statement(ledger, statement, name, logs[0], decimals,
                               "the statement was not stored")
    except LedgerError as exc:
        report.errors.append(str(exc))
        return
    from replay.sessions.statements import statement_rows

    if statement_rows(ledger, name):
        return  # the statement in force already: nothing to add
    key = f"pokernow-ledger:{name}:{_digest(event_json(event))}"
    if ledger.known_sources([key]):  # a statement retracted, given again: a new key
        key += f":{len(list(ledger.read(f'session:{name}')))}"
    (written,) = ledger.append_many([Batch(f"session:{name}", [event], None, name, key)])
    report.events += len(written)


#: The figures of a statement's row, in the game's chips.
_FIGURES = ("buy_in", "buy_out", "stack", "nit_escrow", "net")


def _in_session(ledger: Any, session: str, log: Path, statement: Path,
                decimals: int | None = None) -> Any:
    """``count(amount, figure, player)``: a statement's figure in the chips of ``session``,
    as its log's amounts are counted there (:func:`replay.ingest.pnunits.counting`: the cents
    of a cents log made chips of a session that counts money, exactly); ``decimals``: the
    log's (None: the log is read for them).

    Raises:
        MalformedInput: the log cannot be counted in the session's chips, or (when called) a
            figure that is not a whole number of them, naming the statement and the player.
    """
    from ledger.formats.pokernow.log import read_pokernow_log
    from replay.ingest.pnunits import AS_IS, counting

    if decimals is None:
        decimals = read_pokernow_log(log, session=session).unit.decimals
    plan = counting(ledger, session, decimals, str(log))
    plan = AS_IS if plan is None or plan.unit is None else plan

    def count(amount: int, figure: str, player: str) -> int:
        chips = plan(abs(amount))
        if chips is None:
            raise MalformedInput(
                f"{player}'s {figure.replace('_', '-')} of {amount} cents is not a whole "
                f"number of the session {session}'s chips of {plan.chip} minor units: nothing "
                "of the statement was stored (never rounded)", file=str(statement))
        return chips if amount >= 0 else -chips

    return count


def _changes(before: Any, after: Any) -> list[str]:
    """One text per player whose figures differ between the statement ``before`` (in force)
    and ``after``: ``TA (gE4aE_Yhc3) stack 86 → 103, net -14 → 3``; a player in one only:
    ``… has no row in the statement in force`` / ``… has no row in this one``. None: the
    same statement, whatever its file's name and its rows' order."""
    def figures(statement: Any) -> dict[str, tuple[str, dict[str, int]]]:
        out: dict[str, tuple[str, dict[str, int]]] = {}
        for r in statement.rows:
            name, sums = out.get(r.player, (r.nickname or r.player, {}))
            for field in ("buy_in", "buy_out", "stack", "net"):
                sums[field] = sums.get(field, 0) + getattr(r, field)
            out[r.player] = (name, sums)
        return out

    old, new = figures(before), figures(after)
    lines = []
    for player in sorted(old.keys() | new.keys()):
        name = (new.get(player) or old[player])[0]
        was, now = old.get(player, (name, None))[1], new.get(player, (name, None))[1]
        if was == now:
            continue
        who = name if name == player else f"{name} ({player})"
        if was is None or now is None:
            change = "has no row in the statement in force" if was is None else \
                "has no row in this one"
        else:
            change = ", ".join(f"{f.replace('_', '-')} {was[f]} → {now[f]}" for f in was
                               if was[f] != now[f])
        lines.append(f"{who} {change}")
    return lines


def held_after_refused(ledger: Any, read: Any) -> int:
    """Drop from ``read.errors`` (a PokerNow log's :class:`ledger.formats.reading.FileRead`)
    the error for the hands and session lines after a refused hand
    (``read.extra["after_refused"]``, :mod:`ledger.formats.pokernow.importer`) when the ledger
    holds every one of them already (by source key, or an earlier version's key): nothing is
    refused that the import would have written, and their findings (of the stacks the refused
    hand left) are not said. Returns how many hands that makes known."""
    from ledger.formats.reading import HandEvents

    known = 0
    for error, items in read.extra.get("after_refused", ()):
        keys = [k for i in items for k in (i.source_key, getattr(i, "legacy_key", None)) if k]
        held = ledger.known_sources(keys)
        if all(i.source_key in held or getattr(i, "legacy_key", None) in held for i in items):
            hands = {i.hand_id for i in items if isinstance(i, HandEvents)}
            read.errors = [e for e in read.errors if e is not error and not (
                isinstance(e, StoredFinding) and e.hand in hands)]  # as stored, not as read
            known += len(hands)
    return known


def refuse_closed_game(ledger: Any, read: Any, *, closed: bool = False) -> None:
    """Refuse a PokerNow log (``read``, its :class:`ledger.formats.reading.FileRead`) whole
    when it would add to a session the ledger has closed a hand or a buy-in (RULES.md §1.1:
    a closed session takes no more, whatever the flags), or, unless ``closed``, a cash-out (a
    player's quit: :func:`replay.ingest.closed.refuse_settled_rows`, as ``cashout`` asks
    ``--closed``): rows whose source key the ledger does not hold. Its hands alone were
    refused, one by one, while the joins and buy-ins before them were appended after the
    closing. A log the ledger holds whole (imported before the closing) adds nothing and is
    not refused; its new aliases, seat changes and payments go in (README, "A closed session
    takes no more hands").

    Raises:
        LedgerError: naming the file, the first new row's line (and its hand, a hand's), the
            session and how many hands and session lines the log would add to it, or the
            players it would cash out; nothing of the file is written.
    """
    from ledger.formats.reading import HandEvents, SessionEntry
    from replay.ingest.closed import refuse_settled_rows
    from replay.ingest.file_reading import NOT_AFTER_CLOSE
    from replay.sessions import session_state

    games = {i.session for i in read.items if isinstance(i, (HandEvents, SessionEntry))}
    shut = {s for s in games if s is not None and session_state(ledger, s).closed}
    if not shut:
        return
    mine = [i for i in read.items if getattr(i, "session", None) in shut]
    held = ledger.known_sources([k for i in mine for k in (
        i.source_key, getattr(i, "legacy_key", None)) if k])
    new = [i for i in mine if i.source_key not in held
           and getattr(i, "legacy_key", None) not in held]
    if not new:
        return
    hands = sum(isinstance(i, HandEvents) for i in new)
    if hands or any(i.event.type in NOT_AFTER_CLOSE for i in new):
        raise LedgerError(
            f"session {new[0].session!r} is closed: it takes no more hands or buy-ins, and this "
            f"log would add {hands} hand(s) and {len(new) - hands} session line(s) to it; "
            "nothing of the file was written", file=read.file, line=new[0].line or None,
            hand=new[0].hand_id if isinstance(new[0], HandEvents) else None)
    if not closed:
        names = {i.event.player: i.event.alias for i in read.items
                 if isinstance(i, SessionEntry) and i.event.type == "player_alias"}
        refuse_settled_rows(ledger, new[0].session, new, names, file=read.file)


def refuse_followers(ledger: Any, read: Any, batches: list[Batch], errors: list[LedgerError]
                     ) -> tuple[list[Batch], list[LedgerError]]:
    """``batches`` (of a PokerNow log read as ``read``) without the hands and session lines
    that follow, in its game's log, a hand refused once read: by the engine's check
    (:func:`replay.ingest.hand_checks.check_items`: a card dealt twice, a bet below the
    minimum), by its session's chips or state (:func:`replay.ingest.session_units.
    in_session_units`), …; and ``errors`` with one more error for them
    (:func:`ledger.formats.pokernow.importer.followers_refused`), as the reader refuses the
    followers of a hand a line of it refuses (FORMATS.md §2: the stacks carry from hand to
    hand, so written now they would come before the refused hand once its log is fixed and
    imported, and the books would never follow the game). Nothing is refused when none of
    them would be written (each refused already) or when the ledger holds every one of them
    already (by source key, or an earlier version's key): they are known then, as
    :func:`held_after_refused` takes them. A name first seen in a refused hand's rows
    (``SessionEntry.of_hand``) is not written either: nothing of that hand is."""
    from ledger.formats.pokernow.importer import followers_refused
    from ledger.formats.reading import HandEvents, SessionEntry

    kept = {b.hand_id for b in batches if b.is_hand}
    first: dict[str | None, int] = {}  # a game's session -> the item of its first refused hand
    for index, item in enumerate(read.items):
        if isinstance(item, HandEvents) and item.hand_id not in kept:
            first.setdefault(item.session, index)
    names = {i.source_key for i in read.items if isinstance(i, SessionEntry)
             and i.of_hand is not None and i.of_hand not in kept}  # a refused hand's names
    batches = [b for b in batches if b.is_hand or b.source_key not in names]
    errors = list(errors)
    for session, index in first.items():
        after = [i for i in read.items[index + 1:] if isinstance(i, (HandEvents, SessionEntry))
                 and i.session == session]
        hands = {i.hand_id for i in after if isinstance(i, HandEvents)}
        keys = {i.source_key for i in after if isinstance(i, SessionEntry)}

        def follows(b: Batch, hands: set[str] = hands, keys: set[str] = keys) -> bool:
            return b.hand_id in hands if b.is_hand else b.source_key in keys

        if not any(follows(b) for b in batches):
            continue
        held = ledger.known_sources([k for i in after for k in (
            i.source_key, getattr(i, "legacy_key", None)) if k])
        if all(i.source_key in held or getattr(i, "legacy_key", None) in held for i in after):
            continue
        refused = read.items[index]
        errors.append(followers_refused(
            refused.hand_id, refused.events[0].source.get("number") or 0, refused.line,
            [(i.events[0].source.get("number") or 0, i.hand_id, i.line) for i in after
             if isinstance(i, HandEvents)],
            any(isinstance(i, SessionEntry) for i in after)).located(file=read.file))
        batches = [b for b in batches if not follows(b)]
    return batches, errors
