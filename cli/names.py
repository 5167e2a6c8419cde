"""Players as people know them: a PokerNow player is stored by his platform id and shown by
the name he played under (``Phzd Juwvifsvh``, with the id when two ids share that name)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from ledger.model.errors import LedgerError
from ledger.model.names import shown_labels


class Names:
    """Renames platform ids in rendered text (``names``: id → latest name). Picklable, so a
    renderer wrapped in it can run in a worker process."""

    def __init__(self, names: dict[str, str]) -> None:
        self.labels = shown_labels(names)
        self._re = re.compile("(?<![A-Za-z0-9_-])(" + "|".join(
            map(re.escape, sorted(self.labels, key=len, reverse=True))) + ")(?![A-Za-z0-9_-])"
            ) if self.labels else None

    def __call__(self, text: str) -> str:
        if self._re is None:
            return text
        return self._re.sub(lambda m: self.labels[m.group(0)], text)


@contextmanager
def refusals_named(names: Callable[[], Names]) -> Iterator[None]:
    """Within the block, a refusal (a :class:`LedgerError`) names the platform players as the
    reads do (``out of turn: Hznmh#9009 is to act``, not his id): ``names`` is called only
    when one is raised, and one that cannot be read leaves the refusal as it was."""
    try:
        yield
    except LedgerError as exc:
        with suppress(LedgerError):
            exc.message = names()(exc.message)
        raise
