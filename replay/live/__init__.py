"""Recording a hand live at the table: ``hand start``, then one ``act`` at a time, ``state``.

Seats are stored in PHH order (p1 = the first seat left of the button, the button last;
FORMATS.md §1), so a hand recorded live and the same hand imported from PHH give the same
events. Every action is checked by the engine against the hand as it stands (corrections
applied) before it is appended; an illegal one is refused with what is legal now, and nothing
is written.

:mod:`replay.live.spec` checks what ``hand start`` is given and makes its first events;
:mod:`replay.live.start` starts it in the ledger, with :mod:`replay.live.continuity`'s
warnings; :mod:`replay.live.acting` records an action; :mod:`replay.live.state` tells the hand
as it stands. The names most callers use are given here too, each module imported when
its name is first asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from replay.live.acting import act
    from replay.live.spec import LiveHand, build_started
    from replay.live.state import now

#: The module of each name given here, imported when the name is first asked for: a one-shot
#: ``state`` loads :mod:`replay.live.state` alone, not what ``act`` and ``hand start`` check
#: an action or a start with.
_MODULES = {"act": "replay.live.acting", "LiveHand": "replay.live.spec",
            "build_started": "replay.live.spec", "now": "replay.live.state"}

__all__ = ["LiveHand", "act", "build_started", "now"]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
