"""PokerStars hand-history text files (and the look-alikes that write the same text).

Public surface: :data:`IMPORTER` (the import's :class:`~ledger.formats.reading.Importer`),
:func:`identify` (is this a PokerStars hand history, from the first bytes of the file),
:func:`read_pokerstars` (the file → :class:`ledger.formats.phh.base.PhhFile`, whose hands
:func:`replay.build.events_from_phh` turns into engine-checked events as it does PHH hands),
:func:`summary_differences` / :func:`adds_up` (do a hand's actions add up to the site's own
totals). What a hand becomes, its id, its units and the site facts it keeps:
:mod:`ledger.formats.pokerstars.read`; line by line: :mod:`ledger.formats.pokerstars.build`.

Games: hold'em, Omaha, Omaha hi-lo, five-card Omaha (no-limit, pot-limit, fixed-limit), seven-card
stud, stud hi-lo, razz, five-card draw, 2-7 single and triple draw, badugi; cash games and
tournaments.

**Our reader, not pokerkit's.** pokerkit 0.7.7 has a PokerStars parser
(``pokerkit.notation.PokerStarsParser``). Measured on every hand of ``../shared/data/text``
(184 hands, 10 files; tests/test_pokerstars_crosscheck.py), its actions replayed strictly:

* it reads only ``Hold'em No Limit``: the 43 hands of the other games (Omaha, Omaha hi-lo, stud,
  razz, five-card draw, badugi) give no history;
* it never reads ``posts the ante``: of the 61 sit-and-go hands, 43 end on other stacks than the
  site's (exactly our stacks with the antes taken out), 3 replay only through its silent
  repairs and 2 not at all; 13 (before the antes start) are right;
* it does not read ``*** FIRST RIVER ***`` / ``*** SECOND RIVER ***``: the run-it-twice hand
  fails;
* its payouts (``winnings``) come from the summary's ``Seat N: name collected (X)`` lines only:
  a showdown winner (``won``) or a player named with his position (``(big blind) collected``)
  is paid nothing; they agree with the site in 42 of the 135 hands it reads;
* it keeps no rake, total pot, uncalled bet, posted or dead blind kind, sitting-out player,
  shown-and-mucked cards or summary, and converts no time zone.

It reads 92 of the 184 hands to the right final stacks (the 79 no-limit hold'em cash hands
that are not run twice, and 13 tournament hands without antes). Even for those it would give
only the action list (the payouts, rake, seats and times still need this reader), and a hand
it repaired cannot be told from one it read right without reading it a second way. So this
package reads every hand itself (:data:`IMPORTER`, for the import), and pokerkit's parser is
the independent cross-check in the tests: on the 92 hands it reads, the same final stacks as
our replay.

Imports ledger.model, ledger.formats (phh.base, reading) and engine.games; never the store.
"""

from ledger.formats.pokerstars.importer import IMPORTER
from ledger.formats.pokerstars.read import read_pokerstars, read_pokerstars_text
from ledger.formats.pokerstars.summary import adds_up, summary_differences, summary_findings
from ledger.formats.pokerstars.text import identify

__all__ = ["IMPORTER", "adds_up", "identify", "read_pokerstars", "read_pokerstars_text",
           "summary_differences", "summary_findings"]
