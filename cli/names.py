"""Players as people know them: a PokerNow player is stored by his platform id and shown by
the name he played under (``Phzd Juwvifsvh``, with the id when two ids share that name).

The JSON of every read follows one rule (README, "PokerNow"): a field that holds one player
(``player``; ``from`` and ``to`` of a transfer) keeps the stored player, his id, stable across
renames and the key of the SQL tables, with the name the text shows beside it (``name``;
``from_name``, ``to_name``; :func:`with_name`); every other place a player is named, a key of
a map (a hand's nets, stacks, awards), a list of players or a message, names him as the text
does (:func:`renamed`). Events (``export``, ``history``, what-if's ``changes``) stay as
stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any

from ledger.model.errors import AsTyped, LedgerError
from ledger.model.names import shown_labels

#: Text that ends naming a player before his id in brackets, ``TA (``: a word that is no
#: amount (``pot 300 (gE4aE_Yhc3)`` names the pot's player by his id alone).
_NAMED = re.compile(r"(?:^|\s)[^\s\d(][^\s(]* \($")


class Names:
    """Renames platform ids in rendered text (``names``: id → latest name). Picklable, so a
    renderer wrapped in it can run in a worker process."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = dict(names)
        self.labels = shown_labels(names)
        self._re = re.compile("(?<![A-Za-z0-9_-])(" + "|".join(
            map(re.escape, sorted(self.labels, key=len, reverse=True))) + ")(?![A-Za-z0-9_-])"
            ) if self.labels else None

    def __call__(self, text: str) -> str:
        """``text`` with each platform id renamed to his label; an id a line gives as ``name
        (id)`` already (a PokerNow ledger statement's row, ``audit``, an import's warning
        naming him as the log does, by an older name too: ``TA (gE4aE_Yhc3)``) is left so."""
        if self._re is None:
            return text

        def label(m: re.Match[str]) -> str:
            pid = m.group(0)
            if text.startswith(")", m.end()) and _NAMED.search(text, 0, m.start()):
                return pid  # ``TA (gE4aE_Yhc3)``: named already, by any name he played under
            return self.labels[pid]

        return self._re.sub(label, text)

    def label(self, player: str | None) -> str | None:
        """The name the text shows for the stored ``player`` (a platform id's label, else
        ``player`` itself; None, the house, stays None)."""
        return None if player is None else self.labels.get(player, player)


#: The names of a ledger without platform players: every player shown as stored.
PLAIN = Names({})


def renamed(value: object, names: Callable[[str], str]) -> object:
    """``value`` (JSON data: dicts, lists, strings, numbers) with ``names`` applied to every
    dict key and string, the structure and the numbers as they are."""
    if isinstance(value, str):
        return names(value)
    if isinstance(value, dict):
        return {renamed(k, names): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return value


def with_name(entry: Mapping[str, Any], names: Names, text: tuple[str, ...] = ()
              ) -> dict[str, Any]:
    """``entry`` (one JSON record) with ``name``, the name the text shows for its ``player``
    (:meth:`Names.label`), right after that field, the stored player kept; the strings of its
    ``text`` fields (a ``message``) renamed as the text prints them; every other field as it
    is."""
    out: dict[str, Any] = {}
    for key, value in entry.items():
        out[key] = renamed(value, names) if key in text else value
        if key == "player":
            out["name"] = names.label(value)
    return out


def named_players(body: dict[str, Any], names: Names) -> dict[str, Any]:
    """``body`` (``balances --json`` or ``standings --json``) with ``name`` beside each row's
    ``player`` (:func:`with_name`) and its hands in progress naming their players as the text
    does."""
    out = {**body, "players": [with_name(p, names) for p in body["players"]]}
    if "in_progress" in out:
        out["in_progress"] = renamed(out["in_progress"], names)
    return out


@contextmanager
def books_named(names: Callable[[], Names]) -> Iterator[Callable[[str], None]]:
    """A command writing the session books (``buyin``, ``cashout``, ``pay``, ``entry``):
    within the block its refusal names the platform players as the reads do
    (:func:`refusals_named`); yields the note to give the books, whose lines are said on
    stderr, so named, once the block is over (the ledger it writes is closed then)."""
    from cli import render

    said: list[str] = []
    try:
        with refusals_named(names):
            yield said.append
    finally:
        if said:
            named: Callable[[str], str] = str
            with suppress(LedgerError):
                named = names()
            for line in said:  # a line naming the ids on purpose keeps them
                render.note(line if isinstance(line, AsTyped) else named(line))


@contextmanager
def refusals_named(names: Callable[[], Names]) -> Iterator[None]:
    """Within the block, a refusal (a :class:`LedgerError`) names the platform players as the
    reads do (``out of turn: Hznmh#9009 is to act``, not his id): ``names`` is called only
    when one is raised, and one that cannot be read leaves the refusal as it was."""
    try:
        yield
    except LedgerError as exc:
        if not exc.as_typed:  # one naming the ids and names typed keeps them
            with suppress(LedgerError):
                exc.message = names()(exc.message)
        raise
