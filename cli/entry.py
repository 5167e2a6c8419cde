"""The ``handledger`` console script's entry point, importing nothing itself: Ctrl-C while
the command's modules load (click, pydantic, DuckDB: a few hundred milliseconds) is
"Aborted" and exit 130 like Ctrl-C anywhere later, never a traceback of the import.

Loading those modules makes many objects and frees almost none, so the cyclic garbage
collector is paused meanwhile and what they made is frozen out of later collections
(``gc.freeze``). A command that asked for it (:func:`cli.context.exit_at_once`: the live
commands) ends the process as soon as its output is flushed, without the interpreter's
teardown, which would free every module and object one by one; an action (``hand start``,
``act``, ``state``) leaves the collector paused to that end (:func:`cli.context.one_action`).
Once a command's write has committed, Ctrl-C no longer aborts it
(:func:`cli.main.hold_interrupts`), and once the command is done it is ignored
(:func:`cli.main.leave`): no "Aborted" for a write that landed, and no death by SIGINT in the
interpreter's teardown.

pydantic looks for plugins (the entry points of every installed distribution) as it builds its
first validator, about 10 ms of every live action; handledger uses none, so the search is
skipped (``PYDANTIC_DISABLE_PLUGINS=__all__``) unless the variable is set already (empty:
every plugin is loaded, as pydantic's own default). Its plugin loader imports
``importlib.metadata`` even when every plugin is off, which brings in ``email``, ``socket`` and
``zipfile``: another 10-15 ms of CPU (more on a busy machine, where the files are read) for a
search that answers "none". With every plugin off, the loader is given as a module whose
``get_plugins`` answers that at once (:func:`_no_plugin_search`), which is what pydantic's
own loader returns in that case.

A Ctrl-C that lands where Python cannot raise it (in a callback of compiled code, such as
pydantic-core compiling a field's pattern, or a finaliser) would be printed as "Exception
ignored … KeyboardInterrupt" and lost, the command going on to write: it is held instead
(:func:`_lost_interrupt`) and raised where new work begins, as an interrupt during a commit is.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

_interrupted = False  # an interrupt Python could not raise came while the modules loaded


def _lost_interrupt(unraisable: Any) -> None:
    """``sys.unraisablehook``: an interrupt Python could not raise where it came is held
    (:func:`ledger.store.landing.lost`; before that module is loaded, raised once the
    command's modules are); anything else is reported as Python reports it."""
    global _interrupted
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    _interrupted = True
    landing = sys.modules.get("ledger.store.landing")
    if landing is not None:
        landing.lost()


def _never_fail_to_show() -> None:
    """Standard output and error show what their encoding cannot (a name ``Zoë🃏``, the
    program's own ``—``, ``…`` and box-drawing characters on a ``latin-1`` or ``ascii``
    terminal, ``PYTHONIOENCODING``) as ``?`` rather than fail: a command whose write has
    committed must never end in a traceback and exit 1 for its echo. A stream that already
    has its own error handler (standard error's ``backslashreplace``, the C locale's
    ``surrogateescape``) is kept; a UTF-8 terminal's output is byte for byte the same (only a
    lone surrogate, which no encoding shows, is written ``?``). The JSON outputs stay valid JSON
    (their non-ASCII is ``\\uXXXX`` escaped, or a ``?`` inside a string). An ``ascii``
    stream is one click takes for a misconfigured locale: what it echoes goes out as UTF-8."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _no_plugin_search() -> None:
    """pydantic's plugin loader (``pydantic.plugin._loader``) replaced, before pydantic is
    imported, by a module whose ``get_plugins()`` returns ``()``: the loader's own answer when
    ``PYDANTIC_DISABLE_PLUGINS`` is ``__all__``, ``1`` or ``true``, without its import of
    ``importlib.metadata`` (module doc). Any other value of the variable (plugins wanted) and
    a loader already imported are left as they are."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") not in ("__all__", "1", "true"):
        return
    if "pydantic.plugin._loader" in sys.modules:
        return
    import types

    loader = types.ModuleType("pydantic.plugin._loader", "pydantic's plugin loader, off")
    loader.get_plugins = tuple  # type: ignore[attr-defined]  # called with no argument: ()
    sys.modules["pydantic.plugin._loader"] = loader


def main() -> None:
    """Hand the command to a running ``handledger serve`` (:mod:`cli.served`), or load
    :mod:`cli.main` and run it here (:func:`cli.main.main` gives the exit statuses)."""
    if sys.stdout is None:  # started with descriptor 1 closed (`>&-`): nowhere to answer
        if sys.stderr is not None:
            sys.stderr.write("error: standard output is closed: nothing was done\n")
        sys.exit(2)
    _never_fail_to_show()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    _no_plugin_search()
    sys.unraisablehook = _lost_interrupt
    try:  # Ctrl-C before forward() passes it on (importing the socket module, say)
        from cli.served import forward

        served = forward(sys.argv)
    except KeyboardInterrupt:
        sys.stderr.write("Aborted\n")
        sys.exit(130)
    if served is not None:
        sys.exit(served)
    gc.disable()
    try:
        from cli.context import own_process
        from cli.main import hold_interrupts, leave, run

        own_process()  # the process ends with the command (leave)
        hold_interrupts()
        if _interrupted:
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        sys.stderr.write("Aborted\n")
        sys.exit(130)
    finally:
        gc.freeze()
        gc.enable()
    try:
        leave(run())
    except KeyboardInterrupt:  # as the command returned, before leave() ignored Ctrl-C
        sys.stderr.write("Aborted\n")
        leave(130)
