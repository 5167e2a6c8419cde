"""The PHH importer (FORMATS.md §1): ``.phh`` and ``.phhs`` files, hands as PHH action text."""

from __future__ import annotations

import re
from pathlib import Path

from ledger.formats.phh.read import read_phh
from ledger.formats.reading import FileRead, hands_in_session

#: A TOML line that sets the hand's variant: what every PHH hand has.
_VARIANT = re.compile(rb"^[ \t]*variant[ \t]*=[ \t]*['\"]", re.MULTILINE)


class PhhImporter:
    """PHH files: a ``.phh`` / ``.phhs`` suffix, or a ``variant = '…'`` line near the top."""

    name = "phh"
    describes = "PHH (.phh, .phhs)"

    def identify(self, path: Path, head: bytes) -> bool:
        return path.suffix.lower() in (".phh", ".phhs") or bool(_VARIANT.search(head))

    def read(self, path: Path, *, session: str | None) -> FileRead:
        """Every good hand of the file (``PhhHand``, its actions left as text for the engine)
        and one error per bad hand; with ``session`` each hand starts in that session."""
        parsed = read_phh(path)
        return FileRead(parsed.file, hands_in_session(parsed.hands, session),
                        list(parsed.errors))


IMPORTER = PhhImporter()
