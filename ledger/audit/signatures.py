"""Every signed correction and void of a ledger checked against a key directory: what
``verify`` fails on and ``audit`` finds (kind ``signature``) when a signature does not verify.

The hash chain proves the rows are those written, unless someone wrote them again and made the
chain anew; a signature proves who stands behind an amendment, and the hand's rows before it
(:mod:`ledger.store.signing`). A signed amendment whose signature fails (``bad``: the
amendment or the rows it binds are not as signed, or it names a signer whose key here is
another) is still applied by the books: the ledger never rewrites or drops a stored event
(README "What is in the ledger"), so the failure is said, never repaired. A signature by a key
the directory does not hold (``unknown``) cannot be checked here: named, no failure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.audit.checks import Finding
from ledger.model.errors import LedgerBusy, LedgerCorrupt, LedgerError
from ledger.store import signing
from ledger.store.duck import duckdb
from ledger.store.keys import KeyStore

_CALLED = {"correction": "correction", "hand_voided": "void"}
#: What the books make of a failing signed amendment, as the audit and the pages say it.
APPLIED = ("the books replayed from the events apply it as stored (tables saved before its "
           "row was edited in place show it as it was: `handledger verify`)")

#: The stored rows of a signed amendment (an unsigned event's JSON has no ``signature`` key),
#: in ledger order: hand, seq, position, type, the name it was signed as and the session.
_SIGNED_SQL = ("SELECT hand_id, seq, position, type, payload->>'$.signature.signer', session"
               " FROM events"
               " WHERE type IN ('correction', 'hand_voided') AND contains(payload,"
               " '\"signature\":')")


@dataclass(frozen=True)
class SignedAmendment:
    """One signed correction or void checked: ``hand``, its ``seq`` and ``position``,
    ``kind`` "correction" or "void", ``signer`` the name it was signed as, ``session`` the
    hand's (None: no session), ``status`` good/bad/unknown and ``note`` as
    :meth:`ledger.store.keys.KeyStore.check` gives them. ``with_void``: the correction a
    void of an ended hand comes with (it takes back the hand's end, written and signed
    with the void: one thing the user signed, :func:`signed_count`)."""

    hand: str
    seq: int
    position: int
    kind: str
    signer: str
    session: str | None
    status: str
    note: str
    with_void: bool = False

    def line(self) -> str:
        """One line for people: ``hand f1 seq 18 (a correction signed as floor): …``."""
        return (f"hand {self.hand} seq {self.seq} (a {self.kind} signed as {self.signer!r}, "
                f"position {self.position}): {self.note}")

    def finding(self) -> Finding:
        """The audit's ``signature`` finding of a failing one (expected and actual 0: no
        chips are counted). The books replayed from the events apply the amendment as
        stored; tables saved before its row was edited in place (no new hash: reads trust
        saved tables whose digest matches, docs/LEDGER.md "What is in the ledger") still show it as
        it was, which ``verify`` finds (the row's hash) and ``replay`` rebuilds."""
        return Finding("signature", self.session, self.hand, None, 0, 0,
                       f"the {self.kind} at seq {self.seq} signed as {self.signer!r}: "
                       f"{self.note}; {APPLIED}")


def signed_amendments(ledger: Any, keys: KeyStore, hands: Sequence[str] | None = None,
                      chip_of: Callable[[str], Any] | None = None) -> list[SignedAmendment]:
    """Every signed correction and void of ``ledger`` (an ``undo`` is a correction: README,
    "Anchoring it"), in ledger order, each checked against ``keys`` and the hand's rows
    before it, as ``history`` checks them; those of a hand whose stored rows cannot be read
    (a payload no reader takes) fail, saying so. ``hands``: only those of these hands (a
    hand's page), the same check. ``chip_of``: a session's chip of money (a
    :class:`ledger.model.events.Unit`, None: plain chips), in which a signature made where a
    hand of plain chips of that session was exported and imported binds it
    (:func:`ledger.store.signing.same_hand_units`; None: no such chip is tried).

    Raises:
        LedgerError: the ledger cannot be read (a damaged block: LedgerCorrupt), a damaged
            public key file in the directory.
    """
    query, params = _SIGNED_SQL, []
    if hands is not None:
        query += " AND hand_id IN (SELECT unnest($1::VARCHAR[]))"
        params = [list(hands)]
    try:
        # capped: the scan reads the type and payload columns of every row group holding a
        # correction or a void, which DuckDB would keep cached (measured on the 1M-hand
        # series: 881 MB of its blocks, the peak of a first `audit`; 243 MB capped)
        with ledger.memory_capped():
            signed = ledger.connection.execute(query + " ORDER BY position", params).fetchall()
    except duckdb.Error as e:
        raise ledger.translate(e) from e
    hands = list(dict.fromkeys(hand for hand, *_ in signed))
    out = []
    for hand in hands:
        try:
            rows = ledger.read(hand)
            events = [r.event for r in rows]
        except (LedgerCorrupt, LedgerBusy):
            raise
        except LedgerError as e:  # a stored row no reader takes: no signature over it holds
            out += [SignedAmendment(h, seq, position, _CALLED[kind], signer or "?", session,
                                    "bad", f"the hand's rows cannot be read: {e}")
                    for h, seq, position, kind, signer, session in signed if h == hand]
            continue
        session = rows[0].session if rows else None
        chip = _chip(events, chip_of)
        for index, row in enumerate(rows):
            checked = signing.check(hand, row.event, keys, events[:index], chip) \
                if row.type in _CALLED else None
            if checked is not None:
                after = rows[index + 1] if index + 1 < len(rows) else None
                out.append(SignedAmendment(
                    hand, row.seq, row.position, _CALLED[row.type],
                    row.event.signature.signer, session, checked.status, checked.note,
                    with_void=row.type == "correction" and after is not None
                    and after.type == "hand_voided" and after.recorded_at == row.recorded_at))
    out.sort(key=lambda a: a.position)
    return out


def signed_taken_back(event: Any, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The signed corrections and voids the correction ``event`` deletes (takes back: an
    ``undo``) among the hand's stored ``rows`` (seq order), each as ``{"seq", "type",
    "signer"}``; empty for a void or any other correction."""
    if event.type != "correction":
        return []
    out = []
    for c in event.changes:
        row = rows[c.seq - 1] if c.op == "delete" and 1 <= c.seq <= len(rows) else None
        if row is not None and isinstance(row.event, signing.SIGNABLE) \
                and row.event.signature is not None:
            out.append({"seq": row.seq, "type": row.type,
                        "signer": row.event.signature.signer})
    return out


@dataclass(frozen=True)
class UnsignedUndo:
    """An unsigned correction (an ``undo`` without ``--sign``) of ``hand`` at ``seq`` that
    takes back signed corrections or voids: ``taken``, each ``{"seq", "type", "signer"}``
    (:func:`signed_taken_back`). Its taking back is not signed by anyone; ``history`` says so
    under it, ``verify`` on its signatures line (docs/LEDGER.md "Anchoring it")."""

    hand: str
    seq: int
    taken: tuple[dict[str, Any], ...]

    def line(self) -> str:
        """``hand dispute-1 seq 26 takes back the correction at seq 25 (signed by floor)
        with no signature of its own``."""
        what = ", ".join(
            f"the {'void' if t['type'] == 'hand_voided' else 'correction'} at seq "
            f"{t['seq']} (signed by {t['signer']})" for t in self.taken)
        return f"hand {self.hand} seq {self.seq} takes back {what} with no signature of its own"


def unsigned_undos(ledger: Any, amendments: Sequence[SignedAmendment]) -> list[UnsignedUndo]:
    """The unsigned corrections that take back one of ``amendments``
    (:func:`signed_amendments`), in ledger order: a hand's rows are read only when it holds
    a signed amendment.

    Raises:
        LedgerError: the ledger cannot be read (LedgerCorrupt, LedgerBusy).
    """
    out = []
    for hand in dict.fromkeys(a.hand for a in amendments):
        try:
            rows = ledger.read(hand)
        except (LedgerCorrupt, LedgerBusy):
            raise
        except LedgerError:  # its signed rows already fail, saying so (signed_amendments)
            continue
        for row in rows:
            if row.type == "correction" and row.event.signature is None and (
                    taken := signed_taken_back(row.event, rows)):
                out.append((row.position, UnsignedUndo(hand, row.seq, tuple(taken))))
    return [u for _, u in sorted(out, key=lambda p: p[0])]


def _chip(events: Sequence[Any], chip_of: Callable[[str], Any] | None) -> Any:
    """The chip of money of the session of a hand of plain chips whose rows are ``events``
    (``chip_of`` its session); None for any other hand."""
    started = events[0] if events else None
    if chip_of is None or getattr(started, "type", None) != "hand_started" or (
            started.session is None or started.unit.currency is not None):
        return None
    return chip_of(started.session)


def signature_findings(ledger: Any, keys: KeyStore, session: str | None = None,
                       chip_of: Callable[[str], Any] | None = None) -> list[Finding]:
    """The audit's ``signature`` findings: one per signed amendment whose signature fails
    (only ``session``'s hands when given), in ledger order; ``chip_of`` as
    :func:`signed_amendments`.

    Raises:
        LedgerError: as :func:`signed_amendments`.
    """
    return [a.finding() for a in signed_amendments(ledger, keys, chip_of=chip_of)
            if a.status == "bad" and session in (None, a.session)]


def signed_count(amendments: Sequence[SignedAmendment]) -> dict[str, int]:
    """What the user signed among ``amendments`` (:func:`signed_amendments`), counted as he
    signed it: a void of an ended hand and the correction it comes with (``with_void``: both
    rows signed, both checked) are one void. ``{"good", "bad", "unknown"}``, each thing by
    its worst row (bad before unknown before good); their sum is how many he signed."""
    counts = {"good": 0, "bad": 0, "unknown": 0}
    worst = {"good": 0, "unknown": 1, "bad": 2}
    joined: str | None = None  # the status of a void's correction, held for its void
    for a in amendments:
        status = a.status if joined is None else max(joined, a.status, key=worst.__getitem__)
        if a.with_void:
            joined = status
            continue
        joined = None
        counts[status] += 1
    if joined is not None:  # a void's correction whose void was not among them
        counts[joined] += 1
    return counts


def summary_line(amendments: Sequence[SignedAmendment]) -> str | None:
    """One line on ``amendments`` (:func:`signed_amendments`) for a page or ``run``:
    ``3 signed correction(s) and void(s) (an undo is a correction), all verify against the
    key directory``, or how
    many fail and how many could not be checked (a key the directory lacks), naming each
    (``FAIL: hand f1 seq 18 (…)``); None when there are none."""
    if not amendments:
        return None
    bad = [a for a in amendments if a.status == "bad"]
    unknown = [a for a in amendments if a.status == "unknown"]
    counts = signed_count(amendments)
    head = (f"{sum(counts.values())} signed correction(s) and void(s) (an undo is a "
            "correction)")
    if not bad and not unknown:
        return f"{head}, all verify against the key directory"
    good = counts["good"]
    parts = [f"{good} verify"] if good else []
    if bad:
        parts.append(f"{counts['bad']} FAIL: " + ", ".join(
            f"hand {a.hand} seq {a.seq} (a {a.kind} signed as {a.signer!r})" for a in bad))
    if unknown:
        parts.append(f"{counts['unknown']} not checked (a key the directory does not hold): "
                     + ", ".join(f"hand {a.hand} seq {a.seq} (signed as {a.signer!r})"
                                 for a in unknown))
    return f"{head}: " + "; ".join(parts)
