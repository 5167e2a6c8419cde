"""The records a PokerNow import passes around: rows, hand blocks, the build context, PnHand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ledger.formats.pokernow.lines import Line
from ledger.model.errors import MalformedInput
from ledger.model.events import HandEvent, Unit

Status = Literal["complete", "incomplete", "voided"]


@dataclass(frozen=True)
class PnHand:
    """One imported hand.

    ``line``: CSV line (1-based, the header is line 1) of its ``starting hand`` row. ``hand_id``:
    ``pn-<game>-<PokerNow hand id>``, or ``pn-<game>-<number>-<order>`` in older logs without ids.
    ``source_key``: ``pokernow:<hand id>`` or ``pokernow:<at>:<number>:<digest of the start and
    seat lines>``; it does not depend on the file name or on how much of the game was exported.
    ``events``: HandStarted … HandEnded (or HandVoided for a restarted hand), in order.
    """

    number: int
    pn_id: str | None
    line: int
    hand_id: str
    events: list[HandEvent]
    status: Status
    source_key: str


@dataclass(frozen=True)
class Row:
    """One deduplicated CSV row: physical CSV line, ``at``, ``order`` text, entry and its parse."""

    line: int
    at: str
    order: str
    entry: str
    parsed: Line


@dataclass
class HandBlock:
    """The rows of one hand attempt, grouped by the reader."""

    start: Row
    body: list[Row] = field(default_factory=list)
    after: list[Row] = field(default_factory=list)
    end: Row | None = None
    status: Status = "complete"
    level_bb: str | None = None  # the table's big blind when the hand started (the last blind
    # change or big blind posted in full before it)


@dataclass
class BuildContext:
    """What every hand of one log shares. ``chips`` converts an amount text to integer chips
    (raises ``ValueError``); ``exporter`` is the player whose ``Your hand is`` cards are known
    (by his last id); ``renamed``: ``{former id: last id}`` of ``changed the ID`` lines."""

    file: str
    game_key: str
    session: str
    unit: Unit
    chips: Callable[[str], int]
    exporter: str | None
    errors: list[MalformedInput]
    renamed: dict[str, str] = field(default_factory=dict)

    def is_exporter(self, player: str) -> bool:
        """Whether ``player`` (any id he had) exported the log."""
        return self.exporter is not None and self.renamed.get(player, player) == self.exporter


def amounts_said(decimals: int) -> str:
    """What a line of the import that quotes a log's amounts adds to name their unit, as the
    audit names it: ``"; amounts in chips of 0.01"`` for a cents log (``decimals`` 2: the
    log's 1.57 is 157 chips, FORMATS.md §2), ``""`` for a log of whole chips."""
    return f"; amounts in chips of 0.{'0' * (decimals - 1)}1" if decimals else ""
