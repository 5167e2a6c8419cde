"""The PokerStars importer: site hand-history text, recognised by its content, hands as PHH
action text (:mod:`ledger.formats.pokerstars.read`)."""

from __future__ import annotations

from pathlib import Path

from ledger.formats.pokerstars.read import read_pokerstars
from ledger.formats.pokerstars.text import identify
from ledger.formats.reading import FileRead, hands_in_session


class PokerStarsImporter:
    """PokerStars hand histories: a file whose first line is ``PokerStars … #N:`` (after a
    byte-order mark or blank lines), whatever its name."""

    name = "pokerstars"
    describes = "PokerStars hand histories (text)"

    def knows(self, head: bytes) -> bool:
        return identify(head)

    def identify(self, path: Path, head: bytes) -> bool:
        return identify(head)

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """Every hand of the file (``PhhHand``, its actions left as text for the engine) and
        one error per hand that cannot be read; with ``session`` each hand starts in that
        session."""
        parsed = read_pokerstars(path)
        return FileRead(parsed.file, hands_in_session(parsed.hands, session),
                        list(parsed.errors))


IMPORTER = PokerStarsImporter()
