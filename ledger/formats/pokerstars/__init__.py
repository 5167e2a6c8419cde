"""PokerStars hand-history text files (and the look-alikes that write the same text).

Public surface: :func:`identify` (is this file one, from its first bytes), :func:`read_pokerstars`
(the file → :class:`ledger.formats.phh.base.PhhFile`), :func:`summary_differences` /
:func:`adds_up` (do a hand's actions add up to the site's own totals).

Imports ledger.model, ledger.formats.phh.base and engine.games; never the store.
"""

from ledger.formats.pokerstars.read import read_pokerstars, read_pokerstars_text
from ledger.formats.pokerstars.summary import adds_up, summary_differences
from ledger.formats.pokerstars.text import identify

__all__ = ["adds_up", "identify", "read_pokerstars", "read_pokerstars_text",
           "summary_differences"]
