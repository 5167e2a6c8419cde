"""Signed corrections and voids: who stands behind an amendment of a hand.

A :class:`ledger.model.events.Correction` or :class:`~ledger.model.events.HandVoided` may carry
an :class:`~ledger.model.events.EventSignature`: an Ed25519 signature (:mod:`ledger.store.keys`)
of the bytes::

    "handledger event v1\\n" + hand id + "\\n" + the event's canonical JSON without its signature

so a signature cannot be moved to another hand or event, and the correction's ``positions``
tie it to the rows it changes. An unsigned event's JSON has no ``signature`` key at all (the
field is left out when None), so every event stored before signatures existed hashes, exports
and re-imports byte for byte as before. The signature is part of the stored payload and so of
the hash chain; it travels with ``export --format jsonl``.
"""

from __future__ import annotations

from typing import Any

from ledger.model.errors import MalformedEvent
from ledger.model.events import Correction, EventSignature, HandVoided
from ledger.store.chain import canonical_json
from ledger.store.keys import Checked, KeyStore

_SIGNED_AS = b"handledger event v1\n"
SIGNABLE = (Correction, HandVoided)


def message(hand: str, event: Correction | HandVoided) -> bytes:
    """The bytes a signature of ``event`` in ``hand`` covers (see the module docstring)."""
    unsigned = event.model_copy(update={"signature": None})
    return _SIGNED_AS + hand.encode() + b"\n" + canonical_json(unsigned).encode()


def sign(hand: str, event: Any, keys: KeyStore, name: str) -> Any:
    """``event`` signed with the private key ``name`` of ``keys``.

    Raises:
        MalformedEvent: not a correction or void.
        NotFound, LedgerError: no such private key, or it cannot be used (:meth:`KeyStore.sign`).
    """
    if not isinstance(event, SIGNABLE):
        raise MalformedEvent(f"only corrections and voids are signed, not {event.type}",
                             hand=hand)
    key, value = keys.sign(name, message(hand, event))
    return event.model_copy(
        update={"signature": EventSignature(signer=name, key=key, value=value)})


def check(hand: str, event: Any, keys: KeyStore) -> Checked | None:
    """The signature of ``event`` in ``hand`` checked against ``keys``; None when unsigned.

    Raises:
        LedgerError: a damaged public key file in the directory.
    """
    signature = getattr(event, "signature", None)
    if signature is None:
        return None
    return keys.check(signature.key, signature.signer, message(hand, event), signature.value)
