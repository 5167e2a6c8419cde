"""Standard input read so that Ctrl-C is never lost while ``table`` waits for a line.

Python runs a signal's handler between two steps of Python code. A SIGINT that arrives after
the last step before a blocking ``read`` of standard input and before the read begins is
marked for the handler, but the read, begun after it, is not interrupted: the process waits
for the next line with Ctrl-C unanswered (on a busy machine, about one time in twenty when it
came just as the previous line's output was written). Waiting in ``select`` on the input and
on a pipe Python writes a byte to when a signal arrives (:func:`signal.set_wakeup_fd`) closes
that gap: the wait ends at once, and the handler runs before the next read
(:class:`WokenInput`).
"""

from __future__ import annotations

import os
import select
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_CHUNK = 1 << 16


class WokenInput:
    """``readline(limit)`` over the file descriptor ``fd``, as a buffered binary stream's:
    the next line through its newline, at most ``limit`` bytes of it, ``b""`` at the end.
    Before each read it waits until ``fd`` can be read or a signal arrived (``wake``: the read
    end of the signal wake-up pipe), so a signal's handler runs before the process blocks."""

    def __init__(self, fd: int, wake: int) -> None:
        self.fd, self.wake = fd, wake
        self.buffer = b""
        self.ended = False

    def readline(self, limit: int = -1) -> bytes:
        while True:
            cut = len(self.buffer) if limit < 0 else limit
            end = self.buffer.find(b"\n", 0, cut)
            if end >= 0:
                return self._take(end + 1)
            if self.ended or (limit >= 0 and len(self.buffer) >= limit):
                return self._take(cut)
            self._wait()
            chunk = os.read(self.fd, _CHUNK)
            self.ended = not chunk
            self.buffer += chunk

    def _take(self, size: int) -> bytes:
        line, self.buffer = self.buffer[:size], self.buffer[size:]
        return line

    def _wait(self) -> None:
        while True:
            ready, _, _ = select.select([self.fd, self.wake], [], [])
            if self.wake in ready:
                try:  # the signal's handler has run (an interrupt raised on the way here)
                    while os.read(self.wake, 512):
                        pass
                except BlockingIOError:
                    pass
            if self.fd in ready:
                return


@contextmanager
def woken(stream: Any) -> Iterator[Any]:
    """``stream`` (binary standard input, nothing read from it yet: ``table`` is its only
    reader) read through :class:`WokenInput` for the block, the signal wake-up pipe set and
    put back after it; ``stream`` itself where that cannot be (no file descriptor, as a test's
    in-memory input; not the main thread, where no signal handler runs)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        yield stream
        return
    if threading.current_thread() is not threading.main_thread():
        yield stream
        return
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    os.set_blocking(write_end, False)
    try:
        old = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # another thread, or a descriptor Python refuses: read as before
        os.close(read_end)
        os.close(write_end)
        yield stream
        return
    try:
        yield WokenInput(fd, read_end)
    finally:
        signal.set_wakeup_fd(old)
        os.close(read_end)
        os.close(write_end)
