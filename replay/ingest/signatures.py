"""The signatures of a file's signed corrections and voids, checked before anything of the
file is written (docs/FORMATS-IMPORT.md, "JSON lines"; what is signed: :mod:`ledger.store.signing`).

A JSON-lines export carries each signed correction, void or undo with its signature, in a new
hand's stream or among the amendments of a hand the ledger holds. Each one is checked against
the key directory as ``history`` checks it (:meth:`ledger.store.keys.KeyStore.check`), against
the hand's rows before it as the file gives them (a signature binds them:
:func:`ledger.store.signing.check`): one that does not verify there (the event, its signature
or a row of its hand before it altered, or another key under the signer's name) refuses the
whole file, naming file, line, hand and the event. A key the
directory does not hold is a note, as ``history`` says ``unknown key``, unless the import was
given keys to hold it (``import --keys DIR``): then it refuses the file too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ledger.formats.reading import FileRead, HandEvents
from ledger.model.errors import BadSignature
from ledger.store import signing
from ledger.store.keys import KeyStore


def signed_amendments(read: FileRead) -> Iterator[tuple[HandEvents, int, Any]]:
    """``(hand, index, event)`` of every signed correction or void among the hands of
    ``read``, in file order (``index``: the event's place in ``hand.events``; a JSON-lines
    hand's event ``index`` is its row of seq ``index + 1``, at line ``hand.lines[index]``)."""
    for item in read.items:
        if isinstance(item, HandEvents):
            for index, event in enumerate(item.events):
                if isinstance(event, signing.SIGNABLE) and event.signature is not None:
                    yield item, index, event


@dataclass(frozen=True)
class Signatures:
    """How an import checks signatures: against ``keys``; ``required``: the import was given
    these keys (``--keys DIR``), so a key they do not hold refuses the file."""

    keys: KeyStore
    required: bool = False

    def check(self, read: FileRead) -> list[str]:
        """Check every signed amendment of ``read`` (module doc) and return the note lines of
        those signed by a key the directory does not hold, one per key (``<file>:<line>, hand
        <id>: its correction at seq 10 is signed by an unknown key …``).

        Raises:
            BadSignature: the first signature that fails, or, ``required``, the first by a key
                not held, naming file, line, hand and the event (its type, seq and ``by``);
                nothing of the file is to be written.
            LedgerError: a damaged public key file in the directory.
        """
        first: dict[str, str] = {}  # an unknown key -> the note of its first amendment
        more: dict[str, int] = {}  # an unknown key -> its amendments after the first
        chips = _session_chips(read)
        for hand, index, event in signed_amendments(read):
            started = hand.events[0]
            chip = chips.get(started.session) if started.type == "hand_started" else None
            checked = signing.check(hand.hand_id, event, self.keys, hand.events[:index], chip)
            if checked is None or checked.status == "good":
                continue
            what = f"its {event.type} at seq {index + 1} (by {event.by})"
            line = hand.lines[index]
            if checked.status == "bad":
                raise BadSignature(f"{what} fails its signature: {checked.note}; nothing of "
                                   "the file was written", file=read.file, line=line,
                                   hand=hand.hand_id)
            key, signer = event.signature.key, event.signature.signer
            if self.required:
                raise BadSignature(
                    f"{what} is signed by a key {key} (as {signer!r}) that {self.keys.directory}"
                    " does not hold: `handledger key add` it there to check it (--keys: every "
                    "signature must verify); nothing of the file was written",
                    file=read.file, line=line, hand=hand.hand_id)
            if key in first:
                more[key] = more.get(key, 0) + 1
                continue
            first[key] = (f"{read.file}:{line}, hand {hand.hand_id}: {what} is signed by an "
                          f"unknown key {key} (as {signer!r}): not checked (`handledger key "
                          "add` it to check; `import --keys DIR` refuses a key DIR does not "
                          "hold)")
        return [f"{note} (and {more[key]} more signed with that key)" if key in more else note
                for key, note in first.items()]


def _session_chips(read: FileRead) -> dict[str | None, Any]:
    """``{session: its chip as a hand's unit}`` of the sessions whose opening or chip value
    the file itself gives (a whole export: :func:`replay.ingest.units.session_unit`), the
    last one of each; a hand of plain chips there counts that chip, which a signature made
    where the hand's export alone was imported binds (:func:`ledger.store.signing.
    same_hand_units`)."""
    from ledger.formats.reading import SessionEntry
    from replay.ingest.units import SessionUnit, session_unit

    chips: dict[str | None, Any] = {}
    for item in read.items:
        if isinstance(item, SessionEntry) and item.event.type in (
                "session_opened", "session_changed"):
            e = item.event
            chips[item.session] = session_unit(SessionUnit(e.chip_value_minor, e.currency,
                                                           e.decimals))
    return chips
