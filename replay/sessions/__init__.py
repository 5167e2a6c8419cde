"""The session commands: opening and closing sessions, buy-ins, cash-outs, payments, aliases,
and correcting a book entry.

Session events go to the stream ``session:<name>`` in the order they are given; where a buy-in
or cash-out falls between hands is its place in the ledger (table stakes, RULES.md §1.1).
Chips are integers; money (a chip value, a payment) is written as a decimal in the session's
currency and kept as integer minor units (:mod:`ledger.model.money`). Every write checks its
preconditions first and appends one event, or nothing; a refusal says how to do it right. A
wrong entry is never rewritten: it is retracted or amended by an ``entry_corrected`` event.

:mod:`replay.sessions.state` reads a session's books; :mod:`~replay.sessions.amounts` reads the
amounts typed; :mod:`~replay.sessions.opening` opens, values and closes a session;
:mod:`~replay.sessions.entries` records buy-ins and cash-outs, :mod:`~replay.sessions.payments`
payments, :mod:`~replay.sessions.amending` a book entry's correction and
:mod:`~replay.sessions.aliases` an alias. The reads most callers use are given here too.
"""

from replay.sessions.state import check_new_session_name, open_state, session_names, session_state

__all__ = ["check_new_session_name", "open_state", "session_names", "session_state"]
