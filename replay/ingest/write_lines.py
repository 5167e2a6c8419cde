"""What a file's write says: the one error line of a file refused whole (``--strict``, a game's
export that disagrees with the ledger, a file that carries a session's book with a hand
refused), and the warning line of a hand stored as logged
(:class:`ledger.model.errors.StoredFinding`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.model.errors import FileNotText, LedgerError, StoredFinding


def refusals(errors: Sequence[LedgerError]) -> list[LedgerError]:
    """``errors`` but the :class:`StoredFinding` values (facts of hands stored as logged)."""
    return [e for e in errors if not isinstance(e, StoredFinding)]


def _more(errors: Sequence[LedgerError]) -> str:
    """`` (and N more error(s) in the file)`` after the first of ``errors``' refusals (its
    warnings, :class:`StoredFinding`, are no errors: README "Bad input"), else ``""``; of the
    findings alone when it has no refusal."""
    counted = refusals(errors) or errors
    return f" (and {len(counted) - 1} more error(s) in the file)" if len(counted) > 1 else ""


def warning_line(finding: StoredFinding) -> str:
    """The one line of a finding about a stored hand (the CLI puts ``warning:`` before it):
    ``<file>:<line>: hand <id>: <finding> (stored; the audit reports it)``, the file as its
    path was given (FORMATS.md §2); ``(stored as its winnings pay it)`` for finishing stacks
    the audit does not see (:class:`ledger.model.errors.StacksNotLeft`)."""
    where = f"{finding.file}:{finding.line}" if finding.line is not None else f"{finding.file}"
    return f"{where}: hand {finding.hand}: {finding.message} ({finding.stored})"


def of_stored(finding: StoredFinding, hand: str) -> StoredFinding:
    """``finding`` of an id-less PHH copy known by its deal, naming the stored ``hand`` it is
    (the ledger holds no hand of the copy's id: :mod:`replay.ingest.samedeal`)."""
    finding.hand = hand
    return finding


def game_line(errors: Sequence[LedgerError], clash: LedgerError) -> str:
    """The one error line of a game's export refused whole (:class:`FileWriter`, ``game``):
    the first stored hand it disagrees with (file, line, hand), how many more errors the file
    has (its warnings not counted), and that nothing of it was written."""
    more = _more(errors)
    return (f"{clash}{more}; nothing of this file was written (the hands after it would not "
            "follow the ledger's)")


def strict_line(errors: Sequence[LedgerError]) -> str:
    """The one error line of a file ``--strict`` refuses: its first refusal (file, line, hand,
    action; a :class:`StoredFinding` only when it has none), how many more errors it has (its
    warnings not counted), and that nothing of it was written."""
    first = (refusals(errors) or errors)[0]
    if isinstance(first, FileNotText):  # refused whole as it was read, --strict or not
        return str(first)
    return f"{first}{_more(errors)}; --strict: nothing of this file was written"


def book_line(errors: Sequence[LedgerError], sessions: Sequence[str]) -> str:
    """The one error line of a file that carries the book of ``sessions`` (its opening,
    buy-ins, cash-outs, closing, payments: JSON-lines session rows) refused whole because a
    hand or line of it was refused: its first refusal (file, line, hand, action), how many
    more errors it has, and that nothing of it was written (docs/IMPORTING.md "Bad input": a book
    without one of its hands is chips nobody played, and a closed session would never take
    the hand back)."""
    more = _more(errors)
    books = (f"the book of session {sessions[0]}, which goes in with all its hands"
             if len(sessions) == 1 else
             f"the books of sessions {', '.join(sessions)}, which go in with all their hands")
    return (f"{(refusals(errors) or errors)[0]}{more}; nothing of the file was written: it "
            f"carries {books} or not at all (correct the file and import it again)")
