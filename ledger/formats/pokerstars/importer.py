"""The PokerStars importer: site hand-history text, recognised by its content, hands as PHH
action text (:mod:`ledger.formats.pokerstars.read`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ledger.formats.pokerstars.read import read_pokerstars
from ledger.formats.pokerstars.text import identify
from ledger.formats.reading import FileRead


class PokerStarsImporter:
    """PokerStars hand histories: a file whose first line is ``PokerStars … #N:`` (after a
    byte-order mark or blank lines), whatever its name."""

    name = "pokerstars"
    describes = "PokerStars hand histories (text)"

    def identify(self, path: Path, head: bytes) -> bool:
        return identify(head)

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """Every hand of the file (``PhhHand``, its actions left as text for the engine) and
        one error per hand that cannot be read; with ``session`` each hand starts in that
        session."""
        parsed = read_pokerstars(path)
        hands = parsed.hands
        if session is not None:
            hands = [dataclasses.replace(h, started=h.started.model_copy(
                update={"session": session})) for h in hands]
        return FileRead(parsed.file, list(hands), list(parsed.errors))


IMPORTER = PokerStarsImporter()
