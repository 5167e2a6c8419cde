"""An imported hand's players held apart from the names the ledger holds (docs/BOOKS.md
"Names"): a seated name that is not a player of the ledger but prints like one
(:func:`ledger.model.names.print_alike`: ``José`` with its é as one code point beside
``Jose`` + U+0301, ``Ａnn`` beside ``Ann``) refuses its hand, never a second player who prints
alike, never merged. A name that differs from one of the ledger's in case alone (a site's
``Hero`` beside the books' ``HERO``, one file's ``P1`` beside another's ``p1``) reads apart
and is kept as the file writes it (the audit names a player with hands and no buy-in;
``player alias`` joins the two), where ``buyin`` and ``hand start``, typed by the host, refuse
it as a likely typo. The names of the hands and
book rows kept before it in the import count as the ledger's (a file's second hand seating
the other spelling is refused the same way). Two such names seated in one hand are refused
by :func:`replay.ingest.faults.hand_faults`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError
from ledger.model.names import check_not_look_alike, folded, print_alike


class NamesApart:
    """The player names of a ledger, folded, as an import goes on (see the module doc)."""

    def __init__(self, ledger: Any, file: str | None) -> None:
        from ledger.store.streams import player_names

        self._file = file
        self._known: set[str] = set()
        self._folds: dict[str, set[str]] = {}
        self._add(player_names(ledger))

    def _add(self, names: Iterable[str]) -> None:
        for name in names:
            if name and name not in self._known:
                self._known.add(name)
                self._folds.setdefault(folded(name), set()).add(name)

    def keep(self, batches: Sequence[Batch]) -> tuple[list[Batch], list[LedgerError]]:
        """``batches`` without the hands seating a look-alike of a name held, and their
        refusals (``file:line, hand H: player 'José' (J o s e U+0301) is new but 'José'
        (J o s U+00E9) is a player of the ledger: did you mean José? …``)."""
        kept: list[Batch] = []
        errors: list[LedgerError] = []
        for b in batches:
            names = _names(b)
            try:  # a book row's names are held by its command's checks (book_rules)
                for name in names if b.is_hand else ():
                    if name not in self._known:
                        check_not_look_alike(name, [n for n in self._folds.get(folded(name), ())
                                                    if print_alike(name, n)],
                                             "player", "a player of the ledger")
            except LedgerError as exc:
                errors.append(exc.located(file=self._file, line=b.line, hand=b.hand_id))
                continue
            self._add(names)
            kept.append(b)
        return kept, errors


def _names(batch: Batch) -> list[str]:
    """The player names a batch writes: a hand's seats, a book row's players."""
    if not batch.events:
        return []
    if batch.is_hand:
        return [s.player for s in batch.events[0].seats]
    return [n for e in batch.events for n in (getattr(e, "player", None),
            getattr(e, "payer", None), getattr(e, "payee", None), getattr(e, "alias", None))
            if isinstance(n, str)]


def any_look_alike(ledger: Any, stored: int) -> bool:
    """Whether a hand appended after position ``stored`` (worker processes' parts,
    :mod:`replay.ingest.parallel`) seats a name that folds like another name the ledger now
    holds and prints like (:func:`ledger.model.names.print_alike`): the one-process import then
    refuses that hand (:class:`NamesApart`)."""
    from ledger.store.streams import PLAYER_NAMES_SQL, player_names

    new = {r[0] for r in ledger.query(PLAYER_NAMES_SQL.format(rows="position > $1"), [stored])
           if r[0] is not None}
    if not new:
        return False
    folds: dict[str, set[str]] = {}
    for name in player_names(ledger) | new:
        folds.setdefault(folded(name), set()).add(name)
    return any(print_alike(name, other) for name in new for other in folds[folded(name)])
