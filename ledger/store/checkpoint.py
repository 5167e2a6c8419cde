"""Checkpoints: the ledger's head written down outside the ledger file.

The chain (:mod:`ledger.store.chain`) has no secret: whoever can write the file can rewrite a
row, recompute every later hash and the recorded head, or put an older copy of the file back,
and ``verify`` still passes. A checkpoint held elsewhere (pasted in the group chat, kept in a
file beside the ledger, signed) anchors it: a ledger that no longer extends a checkpoint's head
fails ``verify --against`` (:mod:`ledger.store.anchor`).

A checkpoint is the head ``position`` and its row ``hash``, the ledger's name (its file name
without the suffix), the UTC time ``at`` (``YYYY-MM-DDTHH:MM:SSZ``) and optionally an Ed25519
signature (:mod:`ledger.store.keys`) over :meth:`Checkpoint.message`, which covers the
signer's name too (a checkpoint signed before it did, ``v1``, still verifies: the anchor then
holds the name to the key's). It is written two ways:

* the **chat line**, one short line to paste, with the first 24 hex digits of the hash
  (96 bits: no rewrite of the ledger can be made to match them)::

      handledger checkpoint friday 4059:9f2c0a1b3c4d5e6f7a8b9c0d 2026-11-27T23:41:05Z
      … 2026-11-27T23:41:05Z signed ann 1a2b3c4d5e6f:<86 base64url characters>

* the **record**, one JSON line appended to the checkpoints file (``<ledger file>.checkpoints``
  unless told otherwise) with the whole hash, and ``marks``: the first 4 bytes of the hash of
  every row from ``marks_from`` (just after the last checkpoint of the file that the ledger
  still extended when it was taken; 1 for the first) to ``position``, base64. Marks only locate
  the first row where a ledger parts from its checkpoints; the whole hash decides, and the
  signature does not cover the marks.

A checkpoints file may hold records, chat lines (also inside a longer line, as pasted from a
chat export), and ``POS:HASH`` lines; every other line (blank, a ``#`` comment, the chat
around a pasted line) is passed over, and a file with no checkpoint at all is refused.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ledger.model.errors import ChainBroken, LedgerError, MalformedInput
from ledger.store.chain import GENESIS
from ledger.store.intact import require_intact
from ledger.store.outputs import not_the_ledger
from ledger.store.rolledback import default_file  # ``<ledger file>.checkpoints``

if TYPE_CHECKING:  # a signing take is handed its key store: reading checkpoints loads no
    from ledger.store.keys import KeyStore  # cryptography

CHAT_PREFIX = "handledger checkpoint "
#: Hex digits of the hash in the chat line; a ``POS:HASH`` needs at least ``MIN_PREFIX``.
CHAT_DIGITS, MIN_PREFIX = 24, 16
MARK_BYTES = 4
MAX_FILE_BYTES = 256 * 1024 * 1024  # a checkpoints file read for ``verify --against``
_SIGNED_AS = b"handledger checkpoint v1\n"  # the older form: the signer's name not covered
_SIGNED_V2 = b"handledger checkpoint v2\n"
_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
_POS_HASH = re.compile(rf"([1-9][0-9]{{0,17}}):([0-9a-f]{{{MIN_PREFIX},64}})")
_CHAT = re.compile(
    rf"handledger checkpoint (?P<ledger>\S.{{0,199}}?) (?P<position>[1-9][0-9]{{0,17}}):"
    rf"(?P<hash>[0-9a-f]{{{MIN_PREFIX},64}}) (?P<at>{_TIME})"
    r"(?: signed (?P<signer>\S{1,40}) (?P<key>[0-9a-f]{12}):(?P<signature>[A-Za-z0-9_-]{86}))?"
)
#: A chat line's ``POS:HASH``: a line with the prefix and one is a checkpoint, whole or damaged.
_HEAD = re.compile(rf"\s[1-9][0-9]{{0,17}}:[0-9a-f]{{{MIN_PREFIX},}}")
#: Where a checkpoint read from a chat line given as the argument itself comes from.
PASTED = "(the line given)"
_FIELDS = {"ledger", "position", "hash", "at", "signer", "key", "signature", "marks_from",
           "marks"}  # fmt: skip


@dataclass(frozen=True)
class Checkpoint:
    """One anchored head. ``hash`` is 64 hex digits, or a prefix of ``MIN_PREFIX`` or more
    (from a chat line or a ``POS:HASH``); ``key`` is the signing key's fingerprint; ``marks``
    (base64, ``MARK_BYTES`` per row from ``marks_from`` to ``position``) locate a parting."""

    ledger: str
    position: int
    hash: str
    at: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None
    marks_from: int | None = None
    marks: str | None = None

    def message(self, full_hash: str | None = None, *, older: bool = False) -> bytes:
        """The bytes a signature covers: a fixed prefix and the canonical JSON of ledger,
        position, the whole hash (``full_hash`` when this one is a prefix of it), time and
        the signer's name; ``older``: as a signature of the older form covers them, without
        the signer's name (``v1``: checkpoints signed before the name was covered still
        verify: :mod:`ledger.store.anchor`)."""
        body = {"at": self.at, "hash": full_hash or self.hash, "ledger": self.ledger,
                "position": self.position}  # fmt: skip
        if older:
            return _SIGNED_AS + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
        body["signer"] = self.signer
        return _SIGNED_V2 + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()

    def line(self) -> str:
        """The chat line (see the module docstring)."""
        text = f"{CHAT_PREFIX}{self.ledger} {self.position}:{self.hash[:CHAT_DIGITS]} {self.at}"
        if self.signature:
            text += f" signed {self.signer} {self.key}:{self.signature}"
        return text

    def record(self) -> dict[str, Any]:
        """The JSON record (no None fields)."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Damaged:
    """A line of a checkpoints file that holds a damaged checkpoint: ``line`` (from 1),
    ``why`` (as :func:`ledger.store.checkpoint.parse_line` words it), ``last``: no checkpoint
    follows it (a write cut short) rather than one in the middle (the file altered)."""

    line: int
    why: str
    last: bool

    def said(self) -> str:
        if self.last:
            return f"{self.why}, the file's last line: a write cut short (disk full, killed)"
        return f"{self.why}, with checkpoints after it: the file altered after it was written"



def parse_lines(lines: Iterable[bytes]) -> tuple[list[tuple[int, Checkpoint]],
                                                  list[tuple[int, str]]]:
    """A checkpoints file's raw ``lines`` read one by one (:func:`parse_line`): ``(line
    number from 1, checkpoint)`` of each that holds one (a line that holds none, the chat
    around it, is passed over) and ``(line number, why)`` of each damaged one (not UTF-8
    text, or a checkpoint that does not parse)."""
    points: list[tuple[int, Checkpoint]] = []
    damaged: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, 1):
        try:
            point = parse_line(raw.decode("utf-8"))
        except UnicodeDecodeError:
            damaged.append((number, "not UTF-8 text"))
            continue
        except MalformedInput as e:
            damaged.append((number, e.message))
            continue
        if point is not None:
            points.append((number, point))
    return points, damaged


def last_row(ledger: Any) -> tuple[int, str]:
    """(position, hash) of the stored row with the highest position, ``(0, GENESIS)`` when
    there is none: what is stored, whatever ``meta`` says. Not ``ORDER BY position DESC
    LIMIT 1``: in a file whose last rows were deleted and others appended in their place
    (by hand), DuckDB's top-N, reopened, returns the last row before the deletion."""
    rows = ledger.query("SELECT position, hash FROM events"
                        " WHERE position = (SELECT max(position) FROM events)")
    return (rows[0][0], rows[0][1]) if rows else (0, GENESIS)


def row_at(ledger: Any, position: int) -> tuple[str, str, int] | None:
    """(hash, stream, seq) of the stored row at ``position``; None when there is none."""
    rows = ledger.query("SELECT hash, stream, seq FROM events WHERE position = $1", [position])
    return rows[0] if rows else None


#: What ``verify --against`` calls the rows of each event type it counts after the latest
#: checkpoint, singular and plural; a hand's actions are its events, any other type by its name.
_KINDS = {"correction": ("correction", "corrections"), "hand_voided": ("void", "voids"),
          "buy_in": ("entry", "entries"), "cash_out": ("entry", "entries"),
          "payment": ("entry", "entries"),
          "entry_corrected": ("entry correction", "entry corrections"),
          "session_opened": ("session opening", "session openings"),
          "session_closed": ("session close", "session closes"),
          "session_changed": ("session change", "session changes"),
          "player_alias": ("player alias", "player aliases"),
          "player_unaliased": ("alias ended", "aliases ended")}


def row_kinds(ledger: Any, first: int, last: int) -> str:
    """The stored rows at positions ``first`` to ``last`` counted by kind, in words: ``12 hand
    events, 3 corrections, 1 void, 2 entries`` (a hand's own rows, then its corrections and
    voids, book entries — buy-ins, cash-outs, payments — and the rest, each kind in the order
    its first row was written)."""
    rows = ledger.query(
        "SELECT type, hand_id IS NOT NULL, count(*), min(position) FROM events"
        " WHERE position BETWEEN $1 AND $2 GROUP BY 1, 2 ORDER BY 4", [first, last])
    counts: dict[tuple[str, str], int] = {}
    for kind, of_hand, count, _ in rows:
        words = _KINDS.get(kind) or (("hand event", "hand events") if of_hand else (kind, kind))
        counts[words] = counts.get(words, 0) + int(count)
    order = [("hand event", "hand events"), ("correction", "corrections"), ("void", "voids"),
             ("entry", "entries")]
    ranked = sorted(counts, key=lambda w: order.index(w) if w in order else len(order))
    return ", ".join(f"{counts[w]} {w[0] if counts[w] == 1 else w[1]}" for w in ranked)


def hash_prefixes(ledger: Any, after: int, upto: int, digits: int) -> str:
    """The first ``digits`` hex digits of the hash of every stored row with ``after <
    position <= upto``, run together in position order (one aggregate: about 1 s for a
    million rows)."""
    return ledger.query(
        "SELECT coalesce(string_agg(left(hash, $3), '' ORDER BY position), '') FROM events"
        " WHERE position > $1 AND position <= $2", [after, upto, digits])[0][0]


def ledger_name(ledger_path: str) -> str:
    """The ledger's name in a checkpoint: its file name without the suffix, blanks as ``_``."""
    name = "memory" if ledger_path == ":memory:" else Path(ledger_path).stem
    return re.sub(r"\s", "_", name)[:200] or "ledger"


def take(
    ledger: Any,
    *,
    out: str | os.PathLike[str] | None = None,
    sign: str | None = None,
    keys: KeyStore | None = None,
    now: datetime | None = None,
    checked: bool = False,
    upto: int | None = None,
) -> Checkpoint:
    """Checkpoint ``ledger`` (a :class:`ledger.store.store.Ledger`) at its head and append the
    record to ``out`` (default :func:`default_file`; an in-memory ledger's is not written
    unless ``out`` is given). ``sign``: sign with that key of ``keys``. A checkpoint vouches
    for every row up to the head, so the file is checked first as ``verify`` checks it, its
    blocks and its chain (:func:`ledger.store.intact.require_intact`; ``checked``: the caller
    has just done so). ``upto``: the head as it was at that stored position instead (the
    checkpoint a ``session close`` stopped before writing:
    :func:`ledger.store.sidecar.unanchored_closes`), its row's
    hash, the rows after it vouched for by none.

    Raises:
        ChainBroken: the chain breaks (naming the first bad position), or the recorded head
            is not the last stored row; nothing is written.
        LedgerCorrupt: a block of the file fails its checksum (naming it); nothing written.
        LedgerError: an empty ledger, a missing or unreadable key, or the file cannot be
            written; the checkpoints file holds a checkpoint the ledger does not extend, a
            damaged line, or a last line without its newline (a write cut short), naming
            the file and line (:meth:`ledger.store.sidecar.FileState.refusal`); ``out`` is
            the ledger file or its write-ahead log (:func:`ledger.store.outputs.not_the_ledger`):
            nothing written.
        LedgerReadOnly: the ledger file has no write permission bit (its owner locked it)
            and the record would go to its own checkpoints file (not ``-o`` elsewhere), in
            the words of every write refused so (:func:`ledger.store.store.not_write_protected`):
            nothing written, no file made.
    """
    not_the_ledger(out, ledger.path, None if out is None else f"-o {os.fspath(out)}",
                   appended=True)
    target = Path(out) if out is not None else default_file(ledger.path)
    own = default_file(ledger.path)
    if target is not None and own is not None and target.resolve() == own.resolve():
        from ledger.store.store import not_write_protected

        not_write_protected(ledger.path)  # a locked ledger: nothing made beside it
    if not checked:
        require_intact(ledger, "no checkpoint taken (it would vouch for rows that are not "
                               "those written)")
    head, last = ledger.head(), last_row(ledger)
    if head is None or head != last:
        raise ChainBroken(f"ledger {ledger.path}: the recorded head {head and head[0]} is not "
                          f"the last row {last[0]}: run `handledger verify`")
    if last[0] == 0:
        raise LedgerError(f"ledger {ledger.path} is empty: there is no head to checkpoint")
    position, digest = last
    if upto is not None and upto != position:
        row = row_at(ledger, upto) if 0 < upto < position else None
        if row is None:
            raise LedgerError(f"ledger {ledger.path} has no row {upto} below its head "
                              f"{position} to checkpoint")
        position, digest = upto, row[0]
    start = 1
    if target is not None:
        from ledger.store.sidecar import file_state  # it reads records as this module does

        state = file_state(ledger, target)
        refused = state.refusal("no checkpoint appended")
        if refused is not None:
            raise refused
        start += max((p for p in state.extended if p <= position), default=0)
    raw = bytes.fromhex(hash_prefixes(ledger, start - 1, position, 2 * MARK_BYTES))
    moment = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    point = Checkpoint(ledger_name(ledger.path), position, digest, moment,
                       marks_from=start, marks=base64.b64encode(raw).decode("ascii"))
    if sign is not None:
        if keys is None:
            raise LedgerError("signing a checkpoint needs a key directory")
        point = replace(point, signer=keys.held_name(sign))  # the name as held, any case
        fingerprint, signature = keys.sign(sign, point.message())
        point = replace(point, key=fingerprint, signature=signature)
    if target is not None:
        _append(target, json.dumps(point.record(), sort_keys=True, separators=(",", ":")))
    return point


def _append(path: Path, line: str) -> None:
    """Append ``line`` to ``path`` and sync it to disk when it is a file (a character device
    or pipe, ``/dev/null`` or ``/dev/stdout``, takes the line unsynced: it cannot be)."""
    try:
        with path.open("a", encoding="utf-8") as file:
            file.write(line + "\n")
            file.flush()
            if stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                os.fsync(file.fileno())
    except OSError as e:
        raise LedgerError(f"cannot write the checkpoints file {path}: {e.strerror or e}") from e


# ------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Loaded:
    """What :func:`read` found: the checkpoints (where, checkpoint) and the damaged lines
    (file and line as ``FILE:LINE``, :class:`Damaged`)."""

    points: list[tuple[str, Checkpoint]]
    damaged: list[tuple[str, Damaged]]


def load(spec: str) -> list[tuple[str, Checkpoint]]:
    """The checkpoints named by ``spec`` (:func:`read`), a damaged line refused.

    Raises:
        MalformedInput: as :func:`read`, and a damaged checkpoint line or record.
    """
    found = read(spec)
    if found.damaged:
        where, first = found.damaged[0]
        raise MalformedInput(first.why, file=spec, line=first.line)
    return found.points


def read(spec: str) -> Loaded:
    """The checkpoints named by ``spec``: a ``POS:HASH``, a whole chat line or a checkpoints
    file's JSON record (pasted as the argument) when no file has that name, else a
    checkpoints file, whose lines that hold no
    checkpoint (the chat around pasted lines) are passed over; each with where it came from
    (``FILE:LINE``, ``POS:HASH`` or :data:`PASTED`). A damaged line of a file that holds
    checkpoints besides is given apart (:class:`Loaded`): the rest are still checked.

    Raises:
        MalformedInput: a damaged checkpoint argument (a record that does not parse), a file
            without any checkpoint (its
            first damaged line named, when it has one), too large (``MAX_FILE_BYTES``) or
            unreadable.
    """
    match = _POS_HASH.fullmatch(spec.strip())
    if match is not None and not _is_file(spec):
        return Loaded([(spec, Checkpoint("", int(match.group(1)), match.group(2)))], [])
    if CHAT_PREFIX in spec and not _is_file(spec):  # a chat line pasted as the argument
        point = parse_line(spec)
        if point is not None:
            return Loaded([(PASTED, point)], [])
    if spec.lstrip().startswith("{") and not _is_file(spec):  # a checkpoints file's record
        return Loaded([(PASTED, _from_record(spec.strip()))], [])
    path = Path(spec)
    if re.fullmatch(r"[0-9]+:.*", spec.strip()) and not path.exists():
        raise MalformedInput(f"{spec!r} is not POS:HASH (a position above 0, ':' and at least "
                             f"{MIN_PREFIX} lowercase hex digits of its hash) and no file has "
                             "that name", file=spec)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise MalformedInput(f"cannot read checkpoints {spec!r} (a file or POS:HASH): "
                             f"{e.strerror or e}", file=spec) from None
    if len(data) > MAX_FILE_BYTES:
        raise MalformedInput(f"larger than {MAX_FILE_BYTES >> 20} MiB", file=spec)
    points, damaged = parse_lines(data.removeprefix(b"\xef\xbb\xbf").splitlines())
    found = [(f"{spec}:{number}", point) for number, point in points]
    if not found:
        if damaged:
            raise MalformedInput(damaged[0][1], file=spec, line=damaged[0][0])
        raise MalformedInput("holds no checkpoint (a JSON record, a chat line or POS:HASH)",
                             file=spec)
    last = int(found[-1][0].rsplit(":", 1)[1])
    return Loaded(found, [(f"{spec}:{number}", Damaged(number, why, number > last))
                          for number, why in damaged])


def _is_file(spec: str) -> bool:
    """Whether a file (or anything) has the name ``spec``; a name the system cannot hold
    (too long) is none."""
    try:
        return Path(spec).exists()
    except (OSError, ValueError):
        return False


def parse_line(line: str) -> Checkpoint | None:
    """The checkpoint of one line; None for a blank line, a ``#`` comment or a line that holds
    none.

    Raises:
        MalformedInput: a JSON record or chat line that is damaged.
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith("{"):
        return _from_record(text)
    match = _POS_HASH.fullmatch(text)
    if match is not None:
        return Checkpoint("", int(match.group(1)), match.group(2))
    start = text.find(CHAT_PREFIX)
    if start < 0 or not _HEAD.search(text, start):  # words about checkpoints, not one
        return None
    match = _CHAT.fullmatch(text[start:].rstrip())
    if match is None:
        raise MalformedInput(f"a damaged checkpoint line: {text[start : start + 80]!r}")
    return Checkpoint(**{**match.groupdict(), "position": int(match.group("position"))})


def _from_record(text: str) -> Checkpoint:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise MalformedInput("a damaged checkpoint record (not JSON)") from None
    if not isinstance(data, dict) or not _FIELDS.issuperset(data):
        raise MalformedInput("a checkpoint record with unknown fields")
    point = Checkpoint(**data) if {"ledger", "position", "hash"} <= set(data) else None
    if point is None or not _valid(point):
        raise MalformedInput("a damaged checkpoint record")
    return point


def _valid(point: Checkpoint) -> bool:
    def text(value: Any, pattern: str) -> bool:
        return value is None or (isinstance(value, str) and bool(re.fullmatch(pattern, value)))

    ok = (
        isinstance(point.ledger, str) and len(point.ledger) <= 200
        and type(point.position) is int and 0 < point.position < 2**63
        and text(point.hash, rf"[0-9a-f]{{{MIN_PREFIX},64}}") and point.hash is not None
        and text(point.at, _TIME) and text(point.signer, r"\S{1,40}")
        and text(point.key, r"[0-9a-f]{12}") and text(point.signature, r"[A-Za-z0-9_-]{86}")
        and (point.signature is None) == (point.key is None)
        and text(point.marks, r"[A-Za-z0-9+/=]*")
        and (point.marks is None or (type(point.marks_from) is int and point.marks_from > 0))
    )  # fmt: skip
    if ok and point.marks:
        try:
            size = len(base64.b64decode(point.marks, validate=True))
        except (binascii.Error, ValueError):
            return False
        ok = size == MARK_BYTES * (point.position - point.marks_from + 1)  # type: ignore[operator]
    return ok
