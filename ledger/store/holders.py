"""Which process holds a ledger file, in words, for the refusal of a busy ledger.

DuckDB's lock error names the holder's pid and executable (``Conflicting lock is held in
/usr/bin/python3.12 (PID 4321)``); the holder need not be handledger (a ``duckdb`` shell, a
notebook's connection), so the command line the system gives for that pid
(``/proc/PID/cmdline``, Linux) says what it is.
"""

from __future__ import annotations

import os
import re

#: Characters of the holder's command line a message quotes; a longer one is cut.
SHOWN = 60


def holder_words(lock_error: str) -> str:
    """``another process (pid N: COMMAND)`` for DuckDB's lock error text: COMMAND from
    :func:`command_line`, else DuckDB's executable name; ``another process`` when DuckDB
    names no pid."""
    pid = re.search(r"\(PID (\d+)\)", lock_error)
    if pid is None:
        return "another process"
    exe = re.search(r"held in (.+?) \(PID", lock_error)
    return process_words(int(pid.group(1)), os.path.basename(exe.group(1)) if exe else "")


def process_words(pid: int, program: str = "") -> str:
    """``another process (pid N: COMMAND)``: COMMAND from :func:`command_line`, else
    ``program`` (none when empty)."""
    command = command_line(pid) or program
    return f"another process (pid {pid}{f': {command}' if command else ''})"


def command_line(pid: int) -> str | None:
    """The command line of process ``pid`` on one line, as a person would type it: the
    program's name without its folder (a Python script run by its interpreter, as the
    ``handledger`` console script is, by the script's name; a process that gave itself a
    name of one text, as a command ``handledger serve`` runs does, by that text), blanks run
    together, cut to
    :data:`SHOWN` characters (``...``); None when the system does not say (no such process,
    no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    args = [a.decode("utf-8", "replace") for a in raw.split(b"\0")]
    while args and not args[-1]:
        args.pop()
    if not args:  # a kernel thread, or a process that has just exited
        return None
    if len(args) == 1 and " " in args[0]:  # one text the process gave itself as its name
        args = args[0].split()  # (`handledger serve` and its commands: cli/server.py)
    program = os.path.basename(args[0])
    if program.startswith("python") and len(args) > 1 and not args[1].startswith("-"):
        args = [os.path.basename(args[1]), *args[2:]]
    else:
        args = [program, *args[1:]]
    text = " ".join(" ".join(args).split())
    return text if len(text) <= SHOWN else f"{text[:SHOWN - 3]}..."
