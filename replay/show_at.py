"""Where ``show --at`` stops: a seq of the hand stream (``23``), or the rows a correction
inserted after one (``23+``: all of them; ``23+2``: through the second), as ``show`` labels
them; and the note that says what a stop means when it is not plainly an event of play (a
correction's own seq, a seq with rows inserted after it left out).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ledger.model.errors import MalformedInput

_AT = re.compile(r"([0-9]+)(\+([0-9]*))?")


@dataclass(frozen=True)
class At:
    """A stop: after stream seq ``seq`` and ``inserted`` of the rows a correction inserted
    after it (0: none of them; None: all)."""

    seq: int
    inserted: int | None = 0

    def text(self) -> str:
        """As typed and as ``show`` labels the row: ``23``, ``23+``, ``23+2``."""
        if self.inserted == 0:
            return str(self.seq)
        return f"{self.seq}+" if self.inserted is None else f"{self.seq}+{self.inserted}"


def parse_at(text: str, hand: str) -> At:
    """``23`` / ``23+`` / ``23+2`` as an :class:`At`.

    Raises:
        MalformedInput: any other text, seq 0, or ``23+0``.
    """
    m = _AT.fullmatch(text.strip())
    if m is None or int(m.group(1)) < 1 or m.group(3) not in (None, "") and int(
            m.group(3)) < 1:
        raise MalformedInput(f"--at {text}: not a seq of the hand: a number from 1 (its "
                             "start), or N+ for the rows a correction inserted after seq N "
                             "(N+2: through the second of them), as `show` labels them",
                             hand=hand)
    seq = int(m.group(1))
    if m.group(2) is None:
        return At(seq)
    return At(seq, int(m.group(3)) if m.group(3) else None)


def check_at(at: At, events: Sequence[Any], inserted_after: int, hand: str) -> str | None:
    """``at`` against the hand stream ``events`` (its rows in seq order; ``inserted_after``:
    the rows in force a correction inserted after ``at.seq``): the note ``show`` prints
    under the hand's head, or None.

    A correction's own seq is no event of play: every correction in force is shown applied
    at every step, so stopping there stops after the events before it (note). A plain seq
    stops before the rows inserted after it (noted when there are some: ``N+`` shows them).

    Raises:
        MalformedInput: a seq past the stream's last, or ``N+`` / ``N+K`` asking for rows
            no correction in force inserted after seq N.
    """
    if at.seq > len(events):
        raise MalformedInput(f"--at {at.text()}: the hand's last event is seq {len(events)}",
                             hand=hand)
    if at.inserted != 0 and (inserted_after == 0 or (at.inserted or 0) > inserted_after):
        have = (f"only {inserted_after} row(s)" if inserted_after else "no row")
        raise MalformedInput(f"--at {at.text()}: {have} in force inserted after seq {at.seq}"
                             f" (`show {hand}` labels each {at.seq}+)", hand=hand)
    row = events[at.seq - 1]
    if row.type == "correction":
        return (f"note: seq {at.seq} is a correction (by {row.by}: {row.reason}), not an "
                "event of play: every --at shows the hand as corrected, so --at "
                f"{at.seq} stops after the events before it; `history {hand}` shows what it "
                "changed")
    if at.inserted == 0 and inserted_after:
        return (f"note: --at {at.seq} stops before the {inserted_after} row(s) a correction "
                f"inserted after seq {at.seq}: --at {at.seq}+ shows them")
    return None
