"""The PHH importer (FORMATS.md §1): ``.phh`` and ``.phhs`` files, hands as PHH action text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ledger.formats.phh.base import PhhHand
from ledger.formats.phh.read import iter_phh, read_phh
from ledger.formats.reading import FileRead, hands_in_session
from ledger.model.errors import DefaultTaken, MalformedInput

#: A TOML line that sets the hand's variant: what every PHH hand has.
_VARIANT = re.compile(rb"^[ \t]*variant[ \t]*=[ \t]*['\"]", re.MULTILINE)


class PhhImporter:
    """PHH files: a ``.phh`` / ``.phhs`` suffix, or a ``variant = '…'`` line near the top."""

    name = "phh"
    describes = "PHH (.phh, .phhs)"

    def knows(self, head: bytes) -> bool:
        return bool(_VARIANT.search(head))

    def identify(self, path: Path, head: bytes) -> bool:
        return path.suffix.lower() in (".phh", ".phhs") or self.knows(head)

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """Every good hand of the file (``PhhHand``, its actions left as text for the engine)
        and one error per bad hand, and a :class:`DefaultTaken` per hand the import warns of
        as stored (``PhhHand.notice``); with ``session`` each hand starts in that session."""
        parsed = read_phh(path)
        hands = hands_in_session(parsed.hands, session)
        return FileRead(parsed.file, hands, [*parsed.errors, *filter(None, map(_notice, hands))])

    def iter_read(self, path: Path, *, session: str | None) -> Iterator[PhhHand | MalformedInput]:
        """:meth:`read` one item at a time, in file order but for the errors (one per bad
        hand; :meth:`read` lists them by line): a file of any size is never held whole.

        Raises:
            OSError: the file cannot be read; pydantic.ValidationError: as :meth:`read`.
        """
        for item in iter_phh(path):
            if session is not None and isinstance(item, PhhHand):
                item = replace(item, started=item.started.model_copy(update={"session": session}))
            yield item
            if isinstance(item, PhhHand) and (notice := _notice(item)) is not None:
                yield notice


def _notice(hand: PhhHand) -> DefaultTaken | None:
    """The warning the import gives of ``hand`` as stored (``PhhHand.notice``), or None."""
    if hand.notice is None:
        return None
    return DefaultTaken(hand.notice, file=hand.file, line=hand.notice_line,
                        hand=hand.started.hand)


IMPORTER = PhhImporter()
