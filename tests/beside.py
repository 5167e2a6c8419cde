"""A hand started beside another of its session still in play, as a ledger written before
``hand start`` refused that holds it (or an import stores it: a file's hands come as its table
played them, docs/COMMANDS.md "sessions and the books"): :func:`started_beside` appends the hand
``hand start`` would, without the refusal (:func:`replay.live.continuity.not_in_play`), so
that what reads such a ledger (``void``, ``undo``, an import going on with it) is tested."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from ledger.store.store import Ledger
from replay.live.spec import LiveHand
from replay.live.start import start_hand


def started_beside(db: Path | str, hand: str, *, seats: str, button: str,
                   session: str = "sat", declare: str | None = None) -> None:
    """Append hold'em hand ``hand`` of ``session`` (blinds 1/2, ``seats`` as ``--seats``)
    as ``hand start`` did before it refused a seat beside a hand in play."""
    spec = LiveHand(game="NT", seats=seats, stakes="1/2", button=button, declare=declare)
    with Ledger(str(db)) as ledger, mock.patch("replay.live.start.not_in_play"):
        assert start_hand(ledger, spec, hand=hand, session=session) == hand
