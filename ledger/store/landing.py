"""Whether a write has landed, for the SIGINT handler that turns Ctrl-C into "Aborted".

A command interrupted (SIGINT) before its transaction commits writes nothing and says
"Aborted"; one interrupted once the commit is under way must not: its events are in the
ledger. :meth:`ledger.store.store.Ledger.transaction` marks the write as landing *before* it
commits (:func:`committing`), so no signal can fall between the commit and the mark; the
CLI's handler asks :func:`hold` whether to hold the interrupt rather than raise it. A held
interrupt is raised by :func:`resume` where the command would begin new work: the next
transaction, an import's next file, the next line read by ``table``. Otherwise the command
ends as it would have. :func:`unheld` lets work after the write be cut short (saving the
derived tables). Outside the CLI the policy is off (:func:`configure`): nothing is held.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_on = False
_landed = False  # a commit is under way or done, and no new work began since
_held = False  # an interrupt came meanwhile


def configure(on: bool = False) -> None:
    """Turn holding on for this process (the CLI's SIGINT handler asks :func:`hold`), or off
    again (``configure()``), forgetting what landed or was held."""
    global _on, _landed, _held
    _on, _landed, _held = on, False, False


def hold() -> bool:
    """Whether an interrupt that comes now is held (recorded, not raised): holding is on
    and a commit is under way or has landed, with no new work begun since."""
    global _held
    if _on and _landed:
        _held = True
        return True
    return False


def lost() -> None:
    """An interrupt Python could not raise where it came (in a callback of compiled code, a
    finaliser: "Exception ignored"): held as :func:`hold` holds one, so :func:`resume` raises
    it where new work begins, and after a landed write the command ends as it would have."""
    global _held
    _held = True


def resume() -> None:
    """Before new work (a transaction, a file, a line of input): what landed is behind, so
    an interrupt from here is raised as usual, and one held since the commit is raised now.

    Raises:
        KeyboardInterrupt: an interrupt was held.
    """
    global _landed, _held
    _landed = False
    if _held:
        _held = False
        raise KeyboardInterrupt


@contextmanager
def committing() -> Iterator[None]:
    """Around a commit: from before it starts an interrupt is held, and after it lands it
    stays held (until :func:`resume`).

    Raises:
        KeyboardInterrupt: the commit failed (nothing written) and an interrupt was held:
            the command is aborted as Ctrl-C asked (``from`` the commit's error).
    """
    global _landed, _held
    _landed = True
    try:
        yield
    except BaseException as exc:
        _landed = False
        if _held:
            _held = False
            raise KeyboardInterrupt from exc
        raise


@contextmanager
def unheld() -> Iterator[None]:
    """A stretch after a landed write that Ctrl-C may cut short (the derived tables saved
    after it): an interrupt held before it is raised at its start, one during it is raised
    as usual; after it, what landed holds interrupts again as before.

    Raises:
        KeyboardInterrupt: an interrupt was held, or came during the block.
    """
    global _landed
    was = _landed
    try:
        resume()
        yield
    finally:
        _landed = was
