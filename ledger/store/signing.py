"""Signed corrections and voids: who stands behind an amendment, and of which hand.

A :class:`ledger.model.events.Correction` or :class:`~ledger.model.events.HandVoided` may carry
an :class:`~ledger.model.events.EventSignature`: an Ed25519 signature (:mod:`ledger.store.keys`).
The rule source is README (Formats, "JSON lines"; What is in the ledger; FORMATS.md has no
section on signatures). Every signature made now (``binds`` ``"hand"``) is of the bytes::

    "handledger event v2\\n" + hand id + "\\n" + N + " " + digest + "\\n"
        + the event's canonical JSON without its signature

where N is the number of the hand's rows before the event (its seqs 1 … N) and ``digest``
(:func:`hand_digest`) the SHA-256, in hex, of those rows as they stood when it was signed:
each row's ``seq``, a space, its event's canonical JSON and a newline, in seq order. So the
signer is bound to the hand he saw as well as to what he changed in it: a file whose other
rows were edited after the signing (a bet, a card, a payout, an earlier correction) no longer
verifies. The digest covers what a hand's rows are in every ledger that holds them, the events
as a JSON-lines export writes them, and nothing of where or how one ledger got them: not the
chain's hashes, positions or timestamps; not the ``session`` of the ``hand_started``, which
``import --session`` sets in the ledger that imports the hand; and of its ``source`` only the
rake the file gives (:data:`SIGNED_SOURCE`), not its provenance (the path a file was imported
from, its line: two ledgers that imported the same file from two places hold the same hand, and
a later export's amendments are appended there, docs/FORMATS-IMPORT.md "JSON lines"). A correction's
``positions`` are its payload, kept as recorded wherever it is imported, so they are covered.
A conversion into a session of another chip value rewrites the hand's amounts and unit, which
the digest covers: a hand with such a signature is never converted (the import refuses it, as
it refuses a signed correction holding amounts; README, "JSON lines"). A hand of plain chips in
a session counts the session's chip, which the digest does not cover, and its export alone
writes that chip as its unit (a hand played live in a session of 0.25 USD chips): the hand
signed in either unit verifies in the other (:func:`same_hand_units`), its amounts the same.

A signature of the older form (no ``binds``: made before signatures bound the hand) is of::

    "handledger event v1\\n" + hand id + "\\n" + the event's canonical JSON without its signature

It binds the hand id and the event only, and still verifies as it did: the ledger never
rewrites a stored event, and ``history`` says which form each signature is (:func:`binding`).

Either way a signature cannot be moved to another hand or event, and the correction's
``positions`` tie it to the rows it changes. An unsigned event's JSON has no ``signature`` key
at all (the field is left out when None), so every event stored before signatures existed
hashes, exports and re-imports byte for byte as before. The signature is part of the stored
payload and so of the hash chain; it travels with ``export --format jsonl``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ledger.model.errors import MalformedEvent
from ledger.model.events import Correction, EventSignature, HandVoided, Unit
from ledger.store.chain import canonical_json
from ledger.store.keys import Checked, KeyStore

_EVENT_ONLY = b"handledger event v1\n"  # the older form: the hand id and the event
_WITH_HAND = b"handledger event v2\n"  # the hand's rows before the event too
SIGNABLE = (Correction, HandVoided)
_CALLED = {"correction": "correction", "hand_voided": "void"}  # an amendment, in words


#: The keys of a ``hand_started``'s ``source`` a signature covers: the rake its file gives
#: (README: a stored hand's copy with another rake is another hand). The rest of ``source``
#: is provenance (the file's path as it was imported, its line, a site's ids), which two
#: ledgers holding the same hand may differ in.
SIGNED_SOURCE = ("rake", "site_rake", "_rake")


def hand_digest(before: Sequence[Any]) -> str:
    """The SHA-256 (64 hex digits) of a hand's rows ``before`` an amendment (its events of
    seqs 1 … N, in order) as a signature covers them: ``"<seq> <canonical JSON>\\n"`` each,
    the ``hand_started`` without its ``session`` and with only the :data:`SIGNED_SOURCE`
    keys of its ``source`` (module doc)."""
    digest = hashlib.sha256()
    for seq, event in enumerate(before, 1):
        if event.type == "hand_started":
            source = {k: event.source[k] for k in SIGNED_SOURCE if k in event.source}
            event = event.model_copy(update={"session": None, "source": source})
        digest.update(f"{seq} {canonical_json(event)}\n".encode())
    return digest.hexdigest()


def message(hand: str, event: Correction | HandVoided,
            before: Sequence[Any] | None = None) -> bytes:
    """The bytes a signature of ``event`` in ``hand`` covers: given ``before`` (the hand's
    rows before the event, as events in seq order), the form that binds the hand; None, the
    older form that binds the event only (see the module docstring)."""
    unsigned = canonical_json(event.model_copy(update={"signature": None})).encode()
    if before is None:
        return _EVENT_ONLY + hand.encode() + b"\n" + unsigned
    return (_WITH_HAND + hand.encode() + b"\n" + f"{len(before)} {hand_digest(before)}\n".encode()
            + unsigned)


def sign(hand: str, event: Any, keys: KeyStore, name: str, before: Sequence[Any]) -> Any:
    """``event`` signed with the private key ``name`` of ``keys``, the signature binding the
    hand as ``before`` gives it (its rows before the event, as events in seq order).

    Raises:
        MalformedEvent: not a correction or void.
        NotFound, LedgerError: no such private key, or it cannot be used (:meth:`KeyStore.sign`).
    """
    if not isinstance(event, SIGNABLE):
        raise MalformedEvent(f"only corrections and voids are signed, not {event.type}",
                             hand=hand)
    name = keys.held_name(name)  # the name the key is held under, whatever case was given
    key, value = keys.sign(name, message(hand, event, before))
    return event.model_copy(update={"signature": EventSignature(
        signer=name, key=key, value=value, binds="hand")})


def same_hand_units(started: Any, chip: Unit | None = None) -> list[Unit]:
    """The other units in which a signature that binds the hand whose first row is
    ``started`` may have seen it, the same hand (docs/BOOKS.md, "Chips of different values"): a
    hand of plain chips in a session counts that session's chip, which no signature binds
    (nor the session: module doc), and its export alone writes that chip as its unit (a
    0.25 USD chip: ``Unit(currency="USD", minor_per_chip=25)``). So a hand whose unit names
    a currency may have been signed as plain chips (``Unit()``), in the ledger it was played
    in; and one of plain chips, given ``chip`` (its session's chip there), in that chip, in
    a ledger that imported its export. Empty when ``started`` is no ``hand_started``."""
    if getattr(started, "type", None) != "hand_started":
        return []
    if started.unit.currency is not None:
        return [Unit()]
    return [] if chip is None or chip.currency is None else [chip]


def binds_hand(event: Any) -> bool:
    """Whether the signature of ``event`` binds the hand's rows before it (the form every
    signature made now has), not the event only; False when unsigned."""
    signature = getattr(event, "signature", None)
    return signature is not None and signature.binds == "hand"


def binding(event: Any, rows_before: int) -> str:
    """What the signature of ``event`` covers, in words for ``history``: the hand as it stood
    (``rows_before`` rows) and the event, or, a signature of the older form, the event only."""
    called = _CALLED[event.type]
    if binds_hand(event):
        return f"binds the hand as it stood (seqs 1-{rows_before}) and this {called}"
    return f"binds this {called} only, not the rest of the hand (a signature of the older form)"


def check(hand: str, event: Any, keys: KeyStore, before: Sequence[Any],
          chip: Unit | None = None) -> Checked | None:
    """The signature of ``event`` in ``hand`` checked against ``keys`` (None when unsigned),
    with the message of its form: one that binds the hand is checked against ``before``, the
    hand's rows before the event as events in seq order (as stored, or as the file gives
    them), and fails when any of them differs from what was signed; one of the older form
    against the event alone (module doc). A hand's chip of money in its session's name
    (:func:`same_hand_units`: ``chip``, the session's chip for a hand of plain chips) is the
    same hand to a signature that binds it.

    Raises:
        LedgerError: a damaged public key file in the directory.
    """
    signature = getattr(event, "signature", None)
    if signature is None:
        return None
    bound = binds_hand(event)
    checked = keys.check(signature.key, signature.signer,
                         message(hand, event, before if bound else None), signature.value)
    if bound and checked.status == "bad" and before:
        for unit in same_hand_units(before[0], chip):
            again = [before[0].model_copy(update={"unit": unit}), *before[1:]]
            other = keys.check(signature.key, signature.signer, message(hand, event, again),
                               signature.value)
            if other.status == "good":
                return other
    if bound and checked.status == "bad" and checked.note.endswith(": altered"):
        checked = replace(checked, note=(
            f"{checked.note} (it covers the hand's {len(before)} row(s) before it and the "
            f"{_CALLED[event.type]}: one of them is not as signed)"))
    return checked
