"""An imported amendment or retraction of a session's book entry held to the rules of
``entry amend`` and ``entry retract``.

A JSON-lines file's ``entry_corrected`` row is the host's correction of a buy-in, cash-out or
payment, which a command would have written (docs/COMMANDS.md "sessions and the books"), so it is
checked as that command checks it, by the same code
(:func:`replay.sessions.amending.entry_to_correct`,
:func:`replay.sessions.amending.check_correction`), at its place: against the session's books
before it (its stream's rows before its seq) and the hands stored before it; a buy-in lowered
or retracted also against the hands after it in the file that seat its player, as the command
would see them once the file is in (:func:`replay.sessions.seated_chips.seated_with_bought`,
a retraction as an amendment to 0 chips; ``_seats_still_bought`` there). Its replacement
must be the entry with another amount (:func:`replay.sessions.amending.check_amends`). A
closed session's rule is :mod:`replay.ingest.closed`'s; a payment's amount is bound as the
file's payments are, by its form alone. One such row refuses its file whole, naming file,
line and session. A row that goes in amending a buy-in or cash-out off the hands' stacks is
warned of as ``entry amend`` warns of it (:func:`amendment_warnings`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ledger.model import events as ev
from ledger.model.errors import LedgerError


class Refusal(NamedTuple):
    """An imported ``entry_corrected`` row the commands' rules refuse: its ledger
    ``position`` (the caller names its file line), ``session`` and the refusal's text."""

    position: int
    session: str
    message: str


def first_refused_amendment(ledger: Any, since: int) -> Refusal | None:
    """The first ``entry_corrected`` row stored after ledger position ``since`` (an import's
    rows, inside its transaction) that ``entry amend`` or ``entry retract`` would have
    refused at its place (module doc), or None. Only such rows and their sessions' books are
    read."""
    from replay.rake_taken import rake_by_hand
    from replay.sessions.amending import check_amends, check_correction, entry_to_correct
    from replay.sessions.state import Place, session_state
    from replay.sessions.statements import statement_to_retract

    rows = ledger.query(
        "SELECT session, position, seq, payload FROM events WHERE position > $1 AND type ="
        " 'entry_corrected' AND hand_id IS NULL AND stream = 'session:' || session"
        " ORDER BY position", [since])
    raked: dict[str, list[tuple[int, int]]] = {}
    for session, position, seq, payload in rows:
        fix = ev.parse_stored("entry_corrected", payload)
        doing = "amend" if fix.replacement is not None else "retract"
        words = f"its entry_corrected at seq {seq} {doing}s entry {fix.seq}"
        state = session_state(ledger, session, before=seq)
        try:
            if statement_to_retract(ledger, session, fix.seq, amending=fix.replacement
                                    is not None, closed=True, closed_session=state.closed,
                                    before=seq) is not None:
                continue  # a ledger statement retracted: no book entry to bound
            entry = entry_to_correct(state, session, fix.seq,
                                     amending=fix.replacement is not None, closed=True)
            replacement = None
            if fix.replacement is not None:
                replacement = _parsed(fix.replacement)
                check_amends(entry, replacement)
        except LedgerError as exc:
            return Refusal(position, session, _refused(f"{words}: {exc.message}", doing))
        if session not in raked:
            raked[session] = rake_by_hand(ledger, session)
        rake = sum(r for at, r in raked[session] if at < position)
        try:
            check_correction(ledger, session, state, fix.seq, replacement,
                             place=Place(words, position, rake))
        except LedgerError as exc:
            return Refusal(position, session, _refused(exc.message, doing))
    return None


class Warned(NamedTuple):
    """An imported ``entry_corrected`` row that ``entry amend`` would have warned of: its
    ledger ``position`` (the caller names its file line), ``session`` and the warning's text
    after ``warning: ``."""

    position: int
    session: str
    message: str


def amendment_warnings(ledger: Any, since: int) -> list[Warned]:
    """A warning per ``entry_corrected`` row stored after ledger position ``since`` (an
    import's rows, none refused: :func:`first_refused_amendment`) that amends a buy-in or
    cash-out so that the books no longer follow the hands' stacks, in ``entry amend``'s own
    words (:func:`replay.sessions.amending.amended_warning`; RULES.md §1.1), read with the
    whole file in, as the audit will read it; in ledger order. A row whose entry a later row
    of the file amends or retracts again says nothing: the books hold the later one. The row
    stands: a valid correction, the host's statement."""
    from replay.sessions.amending import amended_warning

    rows = ledger.query(
        "SELECT session, position, payload FROM events WHERE position > $1 AND type ="
        " 'entry_corrected' AND hand_id IS NULL AND stream = 'session:' || session"
        " ORDER BY position", [since])
    fixes = [(session, position, ev.parse_stored("entry_corrected", payload))
             for session, position, payload in rows]
    last = {(session, fix.seq): position for session, position, fix in fixes}
    warned = []
    for session, position, fix in fixes:
        if fix.replacement is None or last[session, fix.seq] != position:
            continue
        said = amended_warning(ledger, session, fix.seq, ev.parse_event(fix.replacement))
        if said is not None:
            warned.append(Warned(position, session, said.removeprefix("warning: ")))
    return warned


def _parsed(replacement: dict[str, Any]) -> Any:
    """The event a file's ``replacement`` holds.

    Raises:
        LedgerError: it is no event (a missing or wrong field), naming the model's finding.
    """
    try:
        return ev.parse_event(replacement)
    except LedgerError as exc:
        raise LedgerError(f"its replacement is no entry: {exc.message}") from None


def _refused(message: str, doing: str) -> str:
    from replay.ingest.wording import of_the_file

    return of_the_file(message, f"a file's correction of a book entry is held to `entry "
                                f"{doing}`'s rules")
