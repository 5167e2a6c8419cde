"""Recording a hand live at the table: ``hand start``, then one ``act`` at a time, ``state``.

Seats are stored in PHH order (p1 = the first seat left of the button, the button last;
FORMATS.md §1), so a hand recorded live and the same hand imported from PHH give the same
events. Every action is checked by the engine against the hand as it stands (corrections
applied) before it is appended; an illegal one is refused with what is legal now, and nothing
is written.

:mod:`replay.live.spec` checks what ``hand start`` is given and makes its first events;
:mod:`replay.live.start` starts it in the ledger, with :mod:`replay.live.continuity`'s
warnings; :mod:`replay.live.acting` records an action; :mod:`replay.live.state` tells the hand
as it stands. The names most callers use are given here too.
"""

from replay.live.acting import act
from replay.live.spec import LiveHand, build_started
from replay.live.state import now

__all__ = ["LiveHand", "act", "build_started", "now"]
