"""Players as people know them: a PokerNow player is stored by his platform id and shown by
the name he played under (``Phzd Juwvifsvh``, with the id when two ids share that name)."""

from __future__ import annotations

import re
from collections import Counter


class Names:
    """Renames platform ids in rendered text (``names``: id → latest name). Picklable, so a
    renderer wrapped in it can run in a worker process."""

    def __init__(self, names: dict[str, str]) -> None:
        counts = Counter(names.values())
        self.labels = {pid: name if counts[name] == 1 else f"{name} ({pid})"
                       for pid, name in names.items() if pid != name}
        self._re = re.compile("(?<![A-Za-z0-9_-])(" + "|".join(
            map(re.escape, sorted(self.labels, key=len, reverse=True))) + ")(?![A-Za-z0-9_-])"
            ) if self.labels else None

    def __call__(self, text: str) -> str:
        if self._re is None:
            return text
        return self._re.sub(lambda m: self.labels[m.group(0)], text)
