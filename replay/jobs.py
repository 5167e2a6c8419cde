"""The main job on a folder (``handledger run``): import every hand file and session in it,
replay every hand (which audits), then the audit and the balances, and the signatures: every
signed correction, void and undo and the ledger's own checkpoints file checked against the
key directory by the code ``audit --keys`` and ``verify --against`` use (README, "Anchoring
it")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ledger.audit import player_balances
from ledger.audit.signatures import SignedAmendment, signed_amendments
from ledger.audit.tables import AuditReport, read_audit
from ledger.store.anchor import OwnCheckpoints, own_checkpoints
from ledger.store.proven import prove_before_writing
from ledger.store.streams import platform_names
from replay.ingest.export import session_chips
from replay.ingest.pipeline import import_paths
from replay.ingest.report import ImportReport
from replay.ingest.signatures import Signatures
from replay.progress import Progress, silent
from replay.projections import rebuild
from replay.replaying import Render


@dataclass(frozen=True)
class RunReport:
    """What the job did: the import, the replay's counts, the audit and the balances, the
    ``names`` of the players known by a PokerNow id (id → name, as the reads show them:
    :func:`ledger.store.streams.platform_names`), the ``signatures`` of the ledger's signed
    corrections and voids checked and its own ``checkpoints`` file checked (None: it has
    none; both only when the job was given a key directory)."""

    imported: ImportReport
    counts: dict[str, int]
    audit: AuditReport
    balances: player_balances.Balances
    names: dict[str, str]
    signatures: list[SignedAmendment] = field(default_factory=list)
    checkpoints: OwnCheckpoints | None = None

    @property
    def findings(self) -> list[Any]:
        """The audit's findings as ``audit --keys`` counts them: those of the derived tables,
        then a ``signature`` finding per signed correction or void whose signature fails
        (:meth:`ledger.audit.signatures.SignedAmendment.finding`; the derived tables do not
        keep them: they depend on the key directory)."""
        return self.audit.findings + [a.finding() for a in self.signatures
                                      if a.status == "bad"]


def run_folder(ledger: Any, directory: Path, *,
               render: Callable[[dict[str, str]], Render | None],
               echo: Callable[[str], None], warn: Callable[[str], None],
               problems: bool = True, progress: Progress = silent,
               signatures: Signatures | None = None,
               imported: ImportReport | None = None) -> RunReport:
    """Import ``directory`` (JSON-lines files of 16 MB or more with worker processes; each
    rejection, warning and note (a file skipped: :mod:`replay.ingest.survey`; a signature
    not checked) to ``warn``, the summary to ``echo``; ``signatures``: how signed
    corrections and voids are checked, :mod:`replay.ingest.signatures`), replay every hand
    rendering those with a discrepancy or a note (``problems``; every hand when False) to
    ``echo`` with ``render(names)`` (``names``: the ledger's PokerNow players once the folder
    is in, id → name), then read the audit and the balances the replay has just built, and
    check every signed correction and void and the ledger's checkpoints file against
    ``signatures``' key directory (:func:`ledger.audit.signatures.signed_amendments`,
    :func:`ledger.store.anchor.own_checkpoints`). ``imported``: the import's report to count
    into (:func:`import_paths`'s ``report``). A ledger that already holds rows is checked as
    ``verify`` checks it before anything is imported; an empty one after the import, before
    the replay (docs/LEDGER.md "Tampering").

    Raises:
        ChainBroken, LedgerCorrupt: the file's chain breaks or a block fails its checksum
            (:func:`ledger.store.proven.prove_before_writing`): nothing imported when the rows were
            there before the job, and the books are not saved from it.
        LedgerError: a hand the rules reject among those stored, a database failure, or a
            damaged public key file in the key directory.
    """
    held = ledger.head()
    checked = held is None or held[0] > 0  # rows written before this job: checked first
    prove_before_writing(ledger, "the books are not saved from it")  # the import's, too
    imported = import_paths(ledger, [directory], strict=False, session=None,
                            pn_ledger=None, jobs=None, progress=progress,
                            signatures=signatures, report=imported)
    for line in imported.errors:
        warn(f"error: {line}")
    for line in imported.warnings:  # hands stored, their findings left to the audit
        warn(f"warning: {line}")
    for line in imported.notes:  # a file skipped, a signature not checked
        warn(f"note: {line}")
    echo(imported.summary())
    names = platform_names(ledger)
    counts = rebuild(ledger, render=render(names), problems=problems, echo=echo,
                     progress=progress, label="replaying", intact=not checked).counts
    con = ledger.connection
    keys = signatures.keys if signatures is not None else None
    return RunReport(imported, counts, read_audit(con), player_balances.balances(con, None, False),
                     names, [] if keys is None else signed_amendments(
                         ledger, keys, chip_of=session_chips(ledger)),
                     own_checkpoints(ledger, keys) if keys is not None else None)
