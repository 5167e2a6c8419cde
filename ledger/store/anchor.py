"""``verify --against``: does the ledger still extend the heads its checkpoints wrote down?

A ledger extends a checkpoint ``(position, hash)`` when its row at that position has that hash
(or, for a hash prefix, a hash that starts with it): the chain makes that row's hash depend on
every row before it, so nothing up to the checkpoint changed. It does not when:

* the ledger ends before the checkpoint's position (an older copy put back, or cut short);
* the row's hash differs: a row at or before the position was rewritten (even with every later
  hash and the recorded head recomputed), or it is another ledger.

The first position where the ledger parts from its checkpoints is the first where any of them
disagrees with it: each it does not extend parts from it at or before its own position (the
ledger's end + 1 for a rollback, the row where the chain breaks), narrowed to one row by the
marks of its record and of the records it took its marks after (:mod:`ledger.store.checkpoint`)
where they cover the rows; a checkpoint the ledger extends bounds nothing of another (the two
may have been taken on two copies that forked). A signed checkpoint is checked against the key
directory (:mod:`ledger.store.keys`): a bad signature fails it (it was altered: position, hash,
time, signer or signature), and so does a good one whose named signer is not the name of the
key that verifies it (a checkpoint signed before the signature covered the name, ``v1``,
verifies so, held to that); a key the directory does not know is said, and fails only when it
claims the name of a known key. A chat line's signature covers the whole hash, of which the
line gives 24 digits: when the ledger's row does not start with them, it is checked over the
whole hash of a record of the same head in the ledger's checkpoints file, or over the ledger's
own row (README, "Anchoring it"). :func:`own_checkpoints` checks the ledger's checkpoints file
for the pages and ``run``.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, replace
from os.path import commonprefix
from pathlib import Path
from typing import Any, Literal

from ledger.model.errors import MalformedInput
from ledger.model.shell import shell_arg
from ledger.store.checkpoint import (
    MARK_BYTES,
    Checkpoint,
    Damaged,
    default_file,
    hash_prefixes,
    last_row,
    parse_line,
    read,
    row_at,
)
from ledger.store.keys import KeyStore

Signature = Literal["none", "good", "bad", "unknown", "unchecked"]


@dataclass(frozen=True)
class Verdict:
    """One checkpoint checked. ``extended``: the ledger extends its head; ``parts``: when not,
    the highest position the parting can be at (the checkpoint's, or the ledger's end + 1);
    ``signature``: ``none`` (unsigned), ``good``, ``bad``, ``unknown`` (a key not in the
    directory) or ``unchecked`` (a chat line's hash prefix whose whole hash is at hand
    nowhere, neither the ledger's row nor a record of the ledger's checkpoints file:
    :func:`_prefix_signature`; the note says what was and was not checked); ``signer``: the
    local key name when good; ``note``: one line on what was found."""

    where: str
    checkpoint: Checkpoint
    extended: bool
    parts: int | None
    signature: Signature
    signer: str | None
    note: str

    @property
    def ok(self) -> bool:
        return self.extended and self.signature in ("none", "good", "unknown")


@dataclass(frozen=True)
class AnchorReport:
    """Every checkpoint's verdict, in the order given, and where the ledger parts from them:
    ``parts`` = (first, last) positions it can be at (equal when known to the row), None when
    it extends every checkpoint; ``row``: ``stream seq N`` of the row at ``first`` when exact
    and stored; ``end``: the ledger's last position (rows after the last checkpoint's are
    vouched for by none)."""

    verdicts: list[Verdict]
    parts: tuple[int, int] | None
    row: str | None
    end: int = 0

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.verdicts)

    @property
    def beyond(self) -> int | None:
        """The highest position of a checkpoint the ledger does not extend because it ends
        before it (its head ``end`` is before the checkpoint: rolled back to an older copy,
        or cut short); None when no checkpoint is beyond its head."""
        return max((v.checkpoint.position for v in self.verdicts
                    if not v.extended and v.checkpoint.position > self.end), default=None)

    @property
    def unvouched(self) -> tuple[int, int] | None:
        """(first, last) positions of the rows after the latest checkpoint, which none of them
        vouches for (a row appended since, rightly or not); None when there are none."""
        latest = max((v.checkpoint.position for v in self.verdicts), default=self.end)
        return (latest + 1, self.end) if self.end > latest else None


def compare(
    ledger: Any, checkpoints: Sequence[tuple[str, Checkpoint]], keys: KeyStore | None,
    chain: Any = None,
) -> AnchorReport:
    """Check ``ledger`` (a :class:`ledger.store.store.Ledger`) against ``checkpoints`` (where,
    checkpoint), as :func:`ledger.store.checkpoint.load` gives them. ``chain``: the ledger's
    :class:`ledger.store.chain.VerifyReport` when the caller walked it (``verify``): a
    checkpoint holds only when the rows it covers still hash to its head, so one at or after
    the position where the chain breaks (a row edited in place, its stored hash left as it
    was) is not extended, and the ledger parts from it there (:func:`broken_rows`).

    Raises:
        LedgerError: the ledger or the key directory cannot be read.
    """
    end = last_row(ledger)[0]
    broken = broken_rows(chain)
    verdicts = [_unhashed(_check(ledger, end, where, point, keys), broken)
                for where, point in checkpoints]
    failed = [v for v in verdicts if v.parts is not None]
    if not failed:
        return AnchorReport(verdicts, None, None, end)
    cut = broken[0] if broken is not None else None
    pool = _pool(ledger, [v.checkpoint for v in verdicts])
    caps = [min(v.parts or 1, cut or v.parts or 1) for v in failed]
    lines = [_lineage(v.checkpoint, pool) for v in failed]
    starts = [lineage[0][0] for lineage in lines if lineage]
    stored = b""
    if starts:  # the rows' marks from the earliest lineage's first row, fetched once
        stored = bytes.fromhex(hash_prefixes(ledger, min(starts) - 1, max(caps),
                                             2 * MARK_BYTES))
    spans = [_parting(lineage, cap, stored, min(starts, default=1))
             for lineage, cap in zip(lines, caps, strict=True)]
    first, last = min(a for a, _ in spans), min(b for _, b in spans)
    shorter = {id(v): a for v, (a, b) in zip(failed, spans, strict=True)
               if a == b <= end and v.checkpoint.position > end}
    verdicts = [v if id(v) not in shorter else replace(v, note=v.note.replace(
        ": an older copy put back, or cut short", f", and parts from it at row {shorter[id(v)]} "
        "(by its marks): rewritten there, or another ledger", 1)) for v in verdicts]
    row = row_at(ledger, first) if first == last else None
    return AnchorReport(verdicts, (first, last), row and f"{row[1]} seq {row[2]}", end)


def broken_rows(chain: Any) -> tuple[int, str] | None:
    """``(position, what)`` of the first row that no longer hashes into the chain, by the
    walk's report ``chain`` (:class:`ledger.store.chain.VerifyReport`: ``edited: row 27
    (session:fri seq 3): its content does not hash to its stored hash``), or None: no report,
    the chain intact, or only the recorded head in ``meta`` wrong (its rows intact)."""
    if chain is None or chain.ok or chain.first_bad is None or chain.problem == "head":
        return None
    return chain.first_bad, f"{chain.problem}: {chain.message}"


def _unhashed(v: Verdict, broken: tuple[int, str] | None) -> Verdict:
    """``v``, not extended when the chain breaks at or before its position: its row's hash is
    still the checkpoint's, but the rows it covers no longer hash to it."""
    if broken is None or not v.extended or broken[0] > v.checkpoint.position:
        return v
    note = (f"its rows no longer hash to its head: the chain breaks at position {broken[0]} "
            f"({broken[1]})")
    if v.signature == "bad":
        note += "; " + v.note.removeprefix("the ledger extends its head, but ")
    elif "; " in v.note:
        note += v.note[v.note.index("; "):]
    return Verdict(v.where, v.checkpoint, False, broken[0], v.signature, v.signer, note)


def _check(ledger: Any, end: int, where: str, point: Checkpoint,
           keys: KeyStore | None) -> Verdict:
    found = row_at(ledger, point.position) if point.position <= end else None
    stored = found and found[0]
    full: str | None = point.hash if len(point.hash) == 64 else None
    if stored is None:
        extended, parts = False, min(point.position, end + 1)
        note = (f"the ledger ends at position {end}, before {point.position}: an older copy "
                "put back, or cut short")  # fmt: skip
    elif stored.startswith(point.hash):
        extended, parts, full = True, None, stored
        note = "extended"
    else:
        extended, parts = False, point.position
        shown = _apart(stored, point.hash)
        note = (f"row {point.position} hashes {stored[:shown]}…, not {point.hash[:shown]}…: "
                "rewritten at or before it, or another ledger")  # fmt: skip
    if full is None and point.signature is not None and keys is not None:
        signature, signer, said = _prefix_signature(ledger, point, stored, keys)
    else:
        signature, signer, said = _signature(point, full, keys)
    if extended and signature == "bad":
        note = "the ledger extends its head, but " + said
    elif said:
        note += f"; {said}"
    return Verdict(where, point, extended, parts, signature, signer, note)


def _apart(a: str, b: str) -> int:
    """How many leading hex digits show two different hashes apart: 16, or four past the
    first digit where they differ when that lies further in."""
    return max(16, len(commonprefix([a, b])) + 4)


def _signature(
    point: Checkpoint, full: str | None, keys: KeyStore | None
) -> tuple[Signature, str | None, str]:
    if point.signature is None or point.key is None:
        return "none", None, ""
    claimed = point.signer or "?"
    if full is None:
        return "unchecked", None, f"signature of {claimed!r} not checked (no whole hash)"
    if keys is None:
        return "unknown", None, f"signed as {claimed!r}: no key directory to check it"
    checked = keys.check(point.key, claimed, point.message(full), point.signature)
    older = ""
    if checked.status == "bad":  # perhaps signed before the signer's name was covered
        old = keys.check(point.key, claimed, point.message(full, older=True), point.signature)
        if old.status == "good":
            checked, older = old, " (a signature of the older form: the name is not covered)"
    if checked.status == "good" and (checked.signer or "").casefold() != claimed.casefold():
        return "bad", None, (
            f"signed as {claimed!r} with the key named {checked.signer!r} here: a checkpoint "
            "names its signer by its key's name (the name altered, or the key held here under "
            "another name: `handledger key list`)")
    return checked.status, checked.signer, checked.note + older


def _prefix_signature(ledger: Any, point: Checkpoint, stored: str | None, keys: KeyStore
                      ) -> tuple[Signature, str | None, str]:
    """The signature of a checkpoint that gives only a prefix of its hash (a chat line, whose
    24 hex digits the ledger's row at its position does not start with): it covers the whole
    hash, so it is checked over each whole hash at hand that can be the one signed: a record
    of the same position in the ledger's own checkpoints file whose hash starts with the
    prefix (good: the checkpoint is as signed, and the ledger no longer holds that head), then
    the hash ``stored`` at that position (good: the line's hash digits were altered after the
    signing, ``bad``). With none that verifies, ``bad`` when a record matched (the line or the
    record altered), else ``unchecked``, saying what was checked and what could not be, and
    why."""
    claimed = point.signer or "?"
    own = default_file(ledger.path)
    recorded = [(r.hash, f"the whole hash {own.name} records for position {r.position}")
                for r in _records_of(ledger, point) if own is not None]
    for whole, where in recorded:
        status, signer, note = _signature(point, whole, keys)
        if status == "good":
            return status, signer, f"{note}, over {where}: the checkpoint is as signed"
    if stored is not None:
        status, signer, note = _signature(point, stored, keys)
        if status == "good":
            return "bad", None, (
                f"{note}, but over the ledger's own row {point.position} hash "
                f"{stored[:16]}…, not the line's {point.hash[:16]}…: the line's hash digits "
                "were altered after it was signed")
    held = next((k.name for k in keys.list() if k.fingerprint == point.key), None)
    key = (f"key {point.key}, {held!r} here" if held is not None else
           f"key {point.key}, which the key directory does not hold")
    if recorded and held is not None:
        return "bad", None, (
            f"signed as {claimed!r} ({key}): the signature does not verify over {recorded[0][1]}"
            ": the line or that record altered")
    ledger_side = (f"the ledger's row {point.position} hashes otherwise" if stored is not None
                   else f"the ledger has no row {point.position}")
    record_side = (f"no record of position {point.position} in {own.name} gives the rest"
                   if own is not None else "no record gives the rest")
    return "unchecked", None, (
        f"signature of {claimed!r} ({key}) not checked: it covers the head's whole hash, and "
        f"the line gives its first {len(point.hash)} hex digits only: {ledger_side} and "
        f"{record_side}; checked: the position and those digits, against the ledger; not "
        "checked: who signed, nor whether the line was altered")


def _records_of(ledger: Any, point: Checkpoint) -> list[Checkpoint]:
    """The records of the ledger's own checkpoints file at ``point``'s position whose whole
    hash starts with its hash, latest first; none when there is no such file or it cannot be
    read (damaged lines are passed over)."""
    path = default_file(ledger.path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace") if path else ""
    except OSError:
        return []
    found = []
    for line in text.splitlines():
        try:
            record = parse_line(line)
        except MalformedInput:
            continue
        if record is not None and record.position == point.position and len(
                record.hash) == 64 and record.hash.startswith(point.hash):
            found.append(record)
    return found[::-1]


def _pool(ledger: Any, given: Sequence[Checkpoint]) -> list[Checkpoint]:
    """The checkpoints whose marks may locate a parting: those given that carry marks, then
    the records of the ledger's own checkpoints file (:func:`default_file`; none when it is
    missing or unreadable, damaged lines passed over)."""
    pool = [point for point in given if point.marks and point.marks_from]
    path = default_file(ledger.path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace") if path else ""
    except OSError:
        return pool
    for line in text.splitlines():
        try:
            point = parse_line(line)
        except MalformedInput:
            continue
        if point is not None and point.marks and point.marks_from:
            pool.append(point)
    return pool


def _lineage(point: Checkpoint, pool: Sequence[Checkpoint]) -> list[tuple[int, bytes]]:
    """The marks of every row from some position up to ``point``'s, as ``(from, marks)``
    segments in position order: its own marks (or, for a point without any, a pasted line or
    ``POS:HASH``, those of the latest record of ``pool`` at its position whose hash starts
    with its hash), then those of the record it took its marks after (at the position just
    before its ``marks_from``), and so on back to position 1. A link that two records of
    different hashes could make stops it (which one it was taken after is not known: a
    ledger forked); empty when no marks are at hand."""
    if not point.marks:
        point = next((r for r in reversed(pool) if r.position == point.position
                      and r.hash.startswith(point.hash)), point)
    out: list[tuple[int, bytes]] = []
    while point.marks and point.marks_from:
        out.append((point.marks_from, base64.b64decode(point.marks)))
        before = point.marks_from - 1
        links = [r for r in pool if r.position == before] if before > 0 else []
        if not links or len({r.hash for r in links}) > 1:
            break
        point = links[-1]
    return out[::-1]


def _parting(lineage: list[tuple[int, bytes]], cap: int, stored: bytes, base: int
             ) -> tuple[int, int]:
    """(first, last) positions where the ledger parts from one checkpoint it does not
    extend: ``cap`` the highest it can be (the checkpoint's position, the ledger's end + 1,
    or the row where the chain breaks), narrowed by the marks of its ``lineage``
    (:func:`_lineage`) against ``stored``, the ledger's rows' marks from position ``base``: a
    row whose hash matches its mark leaves every row up to it as it was (the chain), so the
    parting is after it; the first row that differs from its mark is where it is."""
    if not lineage:
        return (1, cap)
    start = lineage[0][0]
    marks = b"".join(part for _, part in lineage)
    mine = stored[(start - base) * MARK_BYTES : (cap - base) * MARK_BYTES]  # start .. cap - 1
    differs = _first_difference(mine, marks[: len(mine)])
    at = cap if differs is None else start + differs
    return (at, at) if at > start or start == 1 else (1, at)


def _first_difference(mine: bytes, theirs: bytes) -> int | None:
    """The index of the first ``MARK_BYTES`` mark where the two differ; None when equal."""
    step, start = MARK_BYTES << 14, 0
    while start < len(mine) and mine[start : start + step] == theirs[start : start + step]:
        start += step
    for i in range(start, min(start + step, len(mine)), MARK_BYTES):
        if mine[i : i + MARK_BYTES] != theirs[i : i + MARK_BYTES]:
            return i // MARK_BYTES
    return None


@dataclass(frozen=True)
class OwnCheckpoints:
    """The ledger's own checkpoints file (:func:`ledger.store.checkpoint.default_file`)
    checked as ``verify --against FILE`` checks it (:func:`compare`): ``file`` its path,
    ``report`` the verdicts of its intact checkpoints (None when none could be read:
    ``problem`` says why), ``damaged`` its damaged lines (``(FILE:LINE, Damaged)``): one
    before a later checkpoint fails it (the file altered), a last one is not checked (a
    write cut short)."""

    file: str
    report: AnchorReport | None
    problem: str | None = None
    damaged: tuple[tuple[str, Damaged], ...] = ()

    @property
    def altered(self) -> list[Damaged]:
        """The damaged lines with a checkpoint after them (the file altered)."""
        return [line for _, line in self.damaged if not line.last]

    @property
    def ok(self) -> bool:
        return self.report is not None and self.report.ok and not self.altered

    @property
    def fails(self) -> bool:
        """Read and found wanting: a checkpoint the ledger does not extend, a failing
        signature or the file altered (a file that holds no checkpoint fails nothing)."""
        return self.report is not None and not self.ok

    def line(self) -> str:
        """One line: how many checkpoints, whether the ledger extends them all, and each
        signed one's signer and whether its signature verifies (or, failing, each that
        fails with why); then each damaged line."""
        name = Path(self.file).name
        if self.report is None:
            return f"checkpoints {name}: not checked: {self.problem}"
        verdicts = self.report.verdicts
        head = f"checkpoints {name}: {len(verdicts)}" + (" intact" if self.damaged else "")
        failing = [v for v in verdicts if not v.ok]
        if failing:
            said = f"{len(failing)} FAIL: " + "; ".join(
                f"{v.checkpoint.position} (line {v.where.rsplit(':', 1)[-1]}): {v.note}"
                for v in failing)
        else:
            signed = [v for v in verdicts if v.signature != "none"]
            said = "the ledger extends every one"
            if signed:
                good = [v for v in signed if v.signature == "good"]
                said += (f"; {len(signed)} signed, {len(good)} verify against the key "
                         "directory" + ("" if len(good) == len(signed) else
                                        f", {len(signed) - len(good)} by a key it does not hold")
                         + " (" + ", ".join(_signed_by(v) for v in signed) + ")")
        for _, line in self.damaged:
            said += (f"; line {line.line} {'FAILS' if not line.last else 'not checked'}: "
                     f"{line.said()}")
        if self.report.parts is not None or self.altered:
            said += (f" (`handledger verify --against {shell_arg(self.file)}` says where the "
                     "ledger parts)")
        mismatched = sorted({v.checkpoint.signer for v in failing
                             if v.signature == "bad" and v.checkpoint.signer})
        for name in mismatched:  # the key held here as the signer's name is another
            said += (f" (the key directory holds another key as {name!r}: `handledger key "
                     f"list` shows its fingerprint, `handledger key show {shell_arg(name)}` its "
                     "public "
                     "key)")
        return f"{head}, {said}"


def _signed_by(v: Verdict) -> str:
    """``3696 by ann`` (a good signature, the local key's name) or ``3696 as 'ann', key
    unknown``."""
    if v.signature == "good":
        return f"{v.checkpoint.position} by {v.signer}"
    return f"{v.checkpoint.position} as {v.checkpoint.signer!r}, key unknown"


def own_checkpoints(ledger: Any, keys: KeyStore | None, chain: Any = None
                    ) -> OwnCheckpoints | None:
    """The ledger's own checkpoints file checked against ``ledger`` and ``keys``
    (:class:`OwnCheckpoints`); None when it has none (no file, an in-memory ledger).
    ``chain``: the walk's report, as :func:`compare` takes it. Only reads: a file that holds
    no checkpoint is said (``problem``) and a damaged line of one that does is named
    (``damaged``), neither raised.

    Raises:
        LedgerError: the ledger or the key directory cannot be read.
    """
    path = default_file(ledger.path)
    if path is None or not path.is_file():
        return None
    try:
        found = read(str(path))
    except MalformedInput as e:
        return OwnCheckpoints(str(path), None, str(e))
    return OwnCheckpoints(str(path), compare(ledger, found.points, keys, chain),
                          damaged=tuple(found.damaged))
