"""``table``'s standard input read through the signal wake-up pipe (cli/stdin_lines.py): lines
as a buffered stream gives them (its limit, the last line without a newline, the end), and a
Ctrl-C while it waits for a line is raised at once."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from cli.stdin_lines import woken
from ledger.formats.files import StreamLines


def _pipe_with(data: bytes) -> int:
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    return read_end


def test_lines_are_read_as_a_buffered_stream_gives_them() -> None:
    fd = _pipe_with(b"d dh Ann AsKs\r\nAnn f\n" + b"x" * 10 + b"\nlast")
    with open(fd, "rb") as stdin, woken(stdin) as source:
        assert source is not stdin
        assert source.readline(1000) == b"d dh Ann AsKs\r\n"
        assert source.readline(1000) == b"Ann f\n"
        assert source.readline(4) == b"xxxx"  # at most the limit, the rest left
        assert source.readline(1000) == b"xxxxxx\n"
        assert source.readline(1000) == b"last"  # no newline at the end
        assert source.readline(1000) == b""
        assert source.readline(1000) == b""


def test_the_table_reader_takes_the_lines_and_refuses_a_long_one() -> None:
    fd = _pipe_with(b"\xef\xbb\xbfAnn f\n" + b"y" * 30 + b"\nBob cc\n")
    with open(fd, "rb") as stdin, woken(stdin) as source:
        lines = StreamLines(source, limit=16)
        assert lines.next() == b"Ann f\n"  # the byte-order mark dropped
        with pytest.raises(Exception, match="a line longer than 16 bytes"):
            lines.next()
        assert (lines.next(), lines.number) == (b"Bob cc\n", 3)
        assert lines.next() == b""


def test_ctrl_c_while_waiting_for_a_line_is_raised_at_once() -> None:
    read_end, write_end = os.pipe()  # nothing written: the reader waits
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with open(read_end, "rb") as stdin, woken(stdin) as source:
            timer.start()
            with pytest.raises(KeyboardInterrupt):
                source.readline(1000)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
        os.close(write_end)
    assert signal.set_wakeup_fd(-1) == -1  # the wake-up pipe put back as it was (none)


def test_an_in_memory_input_is_read_as_it_is() -> None:
    import io

    stream = io.BytesIO(b"Ann f\n")
    with woken(stream) as source:
        assert source is stream
