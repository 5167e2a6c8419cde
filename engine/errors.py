"""Errors the engine raises: one type, :class:`IllegalAction`, with the facts of the refusal."""

from __future__ import annotations

from ledger.model.errors import LedgerError


class IllegalAction(LedgerError):
    """An event the rules do not allow at this point of the hand.

    ``seq`` is the event's sequence number in the hand (1-based) when known; ``reason`` the
    rule it breaks, e.g. ``"out of turn: p3 is to act"`` or ``"raise to 30 is below the
    minimum 40"``.
    """

    def __init__(
        self,
        reason: str,
        *,
        hand: str | None = None,
        seq: int | None = None,
        action: str | None = None,
    ) -> None:
        super().__init__(reason, hand=hand, action=action)
        self.reason = reason
        self.seq = seq
