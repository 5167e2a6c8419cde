"""What an import did (:class:`ImportReport`): files, hands and events counted, the errors,
the warnings and the notes, one line each, as the CLI prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.model.shell import shell_arg


@dataclass
class ImportReport:
    """What an import did: files read, hands appended, hands already known, events written,
    cut-off hands completed, the errors, the warnings and the notes (one line each). An error
    is a refusal: what it names (a hand, a line, a file) was not written. A warning is a
    :class:`ledger.model.errors.StoredFinding` of a hand that was stored (or was already), as
    ``<file>:<line>: hand <id>: <finding> (stored; the audit reports it)`` (FORMATS.md §2).
    ``rejected`` counts the hands not written, each once however many lines it has (a hand
    stored with a warning is not one); ``counted``: the error lines of those files' hands and
    lines. Every other error line (a file or statement refused whole) is one rejection.
    ``unwritten``: the other hands of the files refused whole (``--strict`` and a bad hand,
    a session row or a statement that refuses its file): not written with their file, so
    that imported, known, rejected and unwritten hands add up to the hands read.
    ``amended``: the stored hands, over, that got the amendments another ledger made to them
    (:func:`replay.ingest.completing.continuation`), not counted as imported.
    ``outside``: the hands already in the ledger that stay outside ``session``, the session
    the import puts its hands in (stored under none or another: a hand's session is never
    rewritten). ``skipped``: the files of the directories imported that no importer reads,
    each named in a note (a folder's Parquet files: one note between them,
    ``skip_notes`` the notes; :mod:`replay.ingest.survey`), not counted in ``files``.
    ``written``: each file whose write committed, in order, as ``(file, hands, events)``:
    what an import cut short had written (:meth:`written_lines`). ``cut``: the hands a
    PokerNow log begins inside, not written, each one warning naming its lines
    (:func:`ledger.formats.pokernow.importer.cut_warning`), among ``warnings`` (last).
    ``shared``: the PokerNow logs written into a session that held another PokerNow game,
    each one warning (:func:`replay.ingest.pnshared.shared_session_warning`), among
    ``warnings`` (first), no warning about a hand stored.
    ``repeated``: the identical copies of a hand met again in the file that holds it (a
    history pasted twice), written once: counted apart from ``known``, so that the counts
    add up to the hands read. ``entry_warnings``: the ``entry_corrected`` rows that amend a
    buy-in or cash-out off the hands' stacks, each one warning as ``entry amend`` says it
    (:func:`replay.ingest.entry_amends.amendment_warnings`), among ``warnings``, no warning
    about a hand stored. ``voided``: the hands already in the ledger that are voided
    there (an import never brings one back: README, ``session void``)."""

    files: int = 0
    imported: int = 0
    known: int = 0
    events: int = 0
    completed: int = 0
    amended: int = 0
    errors: list[str] = field(default_factory=list)
    rejected: int = 0
    counted: int = 0
    notes: list[str] = field(default_factory=list)
    outside: int = 0
    warnings: list[str] = field(default_factory=list)
    session: str | None = None
    skipped: int = 0
    #: the note lines that name the ``skipped`` files (one for a folder's Parquet files)
    skip_notes: int = 0
    written: list[tuple[str, int, int]] = field(default_factory=list)
    cut: int = 0
    shared: int = 0
    entry_warnings: int = 0
    unwritten: int = 0
    repeated: int = 0
    voided: int = 0

    def add(self, part: ImportReport) -> None:
        """Add the counts and errors of ``part`` (one file's report) to this report."""
        self.files += part.files
        self.imported += part.imported
        self.known += part.known
        self.events += part.events
        self.completed += part.completed
        self.amended += part.amended
        self.errors.extend(part.errors)
        self.rejected += part.rejected
        self.counted += part.counted
        self.notes.extend(part.notes)
        self.outside += part.outside
        self.warnings.extend(part.warnings)
        self.cut += part.cut
        self.shared += part.shared
        self.entry_warnings += part.entry_warnings
        self.unwritten += part.unwritten
        self.repeated += part.repeated
        self.voided += part.voided

    def summary(self) -> str:
        rejected = self.rejected + len(self.errors) - self.counted
        said = []
        if self.outside:
            who = ("they stay" if self.outside == self.known else
                   f"{self.outside} of them stay{'s' if self.outside == 1 else ''}")
            said.append(f"{who} outside session {self.session}" if self.session is not None
                        else f"{who} in the session they were stored in, not this file's")
        if self.voided:
            # true whether the file's copy is voided too or not: which it is, is not read
            said.append(f"{self.voided} of them voided here: an import never brings a "
                        "voided hand back")
            if self.outside and self.session is not None:  # taken back from another session
                said.append("a hand stays in the session it was stored in: to have them in "
                            f"session {self.session}, import the file into a new ledger "
                            "(`handledger --db NEW.duckdb import --session "
                            f"{shell_arg(self.session)} FILE`)")
        stay = f" ({'; '.join(said)})" if said else ""
        text = (
            f"imported {self.imported} hand(s) ({self.events} events) from {self.files} "
            f"file(s); {self.known} already in the ledger{stay}; "
            + (f"{self.repeated} repeated in the file; " if self.repeated else "")
            + f"{rejected} rejected"
        )
        if self.unwritten:
            text += f"; {self.unwritten} other hand(s) not written, their file refused"
        if self.completed:
            text += (f"; {self.completed} cut-off hand(s) completed from this longer export "
                     "(a correction each)")
        if self.amended:
            text += (f"; {self.amended} stored hand(s) amended from this later export (its "
                     "corrections and voids appended as made: `history` names them)")
        if (hands := len(self.warnings) - self.cut - self.shared - self.entry_warnings) > 0:
            text += f"; {hands} warning(s) about hands stored"
        if self.entry_warnings:
            text += (f"; {self.entry_warnings} book entr"
                     f"{'y' if self.entry_warnings == 1 else 'ies'} amended off the hands' "
                     "stacks (a warning each)")
        if self.cut:
            text += (f"; {self.cut} hand(s) cut at the log's start not written (a warning "
                     "names the lines)")
        if self.skipped:
            each = ("each in a note" if self.skip_notes == self.skipped
                    else f"in {self.skip_notes} note{'s' * (self.skip_notes > 1)}")
            text += f"; {self.skipped} other file(s) skipped ({each})"
        return text


    def written_lines(self) -> list[str]:
        """What an import interrupted (Ctrl-C) had written, as ``note:`` lines for the
        user before "Aborted": the files whose write committed, each whole, and the hands and
        events of each; no other file has anything written (the one being read is rolled
        back, README: an import stops before its next file). ``[]`` when nothing was."""
        if not self.written:
            return []
        hands = sum(h for _, h, _ in self.written)
        events = sum(e for _, _, e in self.written)
        return [f"note: interrupted: {len(self.written)} file(s) had been written, each "
                f"whole, {hands} hand(s) ({events} events); nothing of any other (importing "
                "again adds only what is missing)",
                *(f"note: written: {name}: {h} hand(s) ({e} events)"
                  for name, h, e in self.written)]
