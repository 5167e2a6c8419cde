"""A ``handledger`` command handed to a running ``handledger serve`` (:mod:`cli.server`), which
has Python's libraries loaded already and runs the command in a process forked for it: a
command takes less than half the time it takes in a process of its own (docs/SPEED.md).

This module is the client side and the protocol both sides share. It imports only the
standard library, since it runs before anything else in every ``handledger`` process
(:mod:`cli.entry`), and it hands over nothing but what the command would have had itself:
its arguments, working directory, environment, umask and the three standard streams (the file
descriptors themselves, passed over the Unix socket), so the command runs exactly as it would
in its own process: same output, exit status, Ctrl-C.

The socket is ``serve.sock`` in the first of ``$HANDLEDGER_SERVE_DIR``,
``$XDG_RUNTIME_DIR/handledger`` and ``$TMPDIR/handledger-UID`` (``/tmp`` without
``$TMPDIR``): a folder the user owns that nobody else may enter (mode 0700). Any other folder
is not used, and nothing is handed over.

The command runs in its own process as it always did whenever no server answers, the server
runs other code (another install, or the project's files changed since it started), another
Python, other interpreter flags or another locale encoding, a standard stream is closed,
``$HANDLEDGER_NO_SERVE`` is set, or the system cannot pass file descriptors. It is never run
twice: once the server has said it started the command, its exit status is the client's.

Protocol (one connection a command): the client sends a 4-byte big-endian length, then that
many bytes of JSON (:func:`request`), with descriptors 0, 1 and 2 attached to the first
message. The server answers with lines of JSON: ``{"refused": REASON}`` (nothing was run), or
``{"pid": PID}`` once the command's process exists; the client answers ``go`` (:data:`GO`),
and only then does the command start (a client that timed out or went away before it never
sent it: nothing runs there, the client runs the command itself). The server then sends
``{"status": N}`` when the command ended: N the exit status, or minus the number of the
signal that killed it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import stat
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by forward() once a server's socket is there to hand over to
    import socket

#: The socket's file name inside the serving folder.
SOCKET_NAME = "serve.sock"
#: The project's packages: what the server compares with the files it loaded.
PACKAGES = ("cli", "engine", "ledger", "replay")
#: What the client sends once it heard the command's pid: the command starts on it, never
#: without it, so a client that gave up waiting (and runs the command itself) never has it
#: run twice.
GO = b"go\n"
#: Signals a client passes on to the command's process (Ctrl-C, a kill, a closed terminal,
#: Ctrl-\): the terminal sends them to the client's process group, which the command's
#: process is not in.
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def serve_dir() -> str:
    """The folder of the server's socket (module doc): a path, which may not exist yet."""
    env = os.environ
    if env.get("HANDLEDGER_SERVE_DIR"):
        return env["HANDLEDGER_SERVE_DIR"]
    if env.get("XDG_RUNTIME_DIR"):
        return os.path.join(env["XDG_RUNTIME_DIR"], "handledger")
    return os.path.join(env.get("TMPDIR") or "/tmp", f"handledger-{os.getuid()}")


def private(folder: str) -> bool:
    """Whether ``folder`` is a real folder (not a link) of this user that no other user may
    read, write or enter (mode 0700 or narrower)."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
            and not st.st_mode & 0o077)


def socket_path() -> str | None:
    """The server's socket, or None when its folder is not :func:`private`."""
    folder = serve_dir()
    return os.path.join(folder, SOCKET_NAME) if private(folder) else None


def code_root() -> str:
    """The folder holding the project's packages this process runs (the server refuses a
    client of another install)."""
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def interpreter() -> list[object]:
    """What must be equal in the client and the server for a command to run alike: the
    Python (its executable and version), the flags that change how code runs, the encodings
    of files and names the locale gave it, and where modules are found."""
    import locale

    f = sys.flags
    return [os.path.realpath(sys.executable), sys.version, f.utf8_mode, f.dev_mode, f.optimize,
            f.isolated, f.ignore_environment, list(sys.warnoptions),
            sys.getfilesystemencoding(), locale.getpreferredencoding(False),
            sys.path[1:]]  # the first is the script's folder; then $PYTHONPATH, the libraries


def stream(s: io.TextIOWrapper) -> dict[str, object]:
    """How Python set up the standard stream ``s`` (a text file) at start-up, for the server
    to set up the command's alike (``-u`` leaves the binary layer unbuffered)."""
    return {"encoding": s.encoding, "errors": s.errors, "line_buffering": s.line_buffering,
            "write_through": s.write_through,
            "unbuffered": type(getattr(s, "buffer", None)).__name__ == "FileIO"}


def command_name(argv: list[str]) -> str:
    """The command of the command line ``argv`` (its first word after the global options)."""
    words = iter(argv[1:])
    for word in words:
        if word in ("--db", "--wait"):
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


def request(argv: list[str], sigint_ignored: bool) -> dict[str, object]:
    """The JSON the client sends: the command line, where and how it runs (``sigint_ignored``:
    Ctrl-C is ignored, as in a background job)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
            "sigint_ignored": sigint_ignored,
            "root": code_root(), "interpreter": interpreter(),
            "streams": [stream(s) for s in (sys.stdin, sys.stdout, sys.stderr)]}


def send(sock: socket.socket, message: dict[str, object]) -> None:
    """One line of JSON to the client."""
    sock.sendall(json.dumps(message).encode() + b"\n")


def _streams_open() -> bool:
    """Whether standard input, output and error are Python's text files on open descriptors
    0, 1 and 2."""
    if not all(isinstance(s, io.TextIOWrapper) for s in (sys.stdin, sys.stdout, sys.stderr)):
        return False
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return False
    return True


def _suspender(pid: list[int]) -> Callable[[int, object], None]:
    """The client's handler of Ctrl-Z (SIGTSTP) for the command whose pid ``pid`` will hold:
    the command's process is in no terminal's job, so it is stopped (SIGSTOP) with this one,
    as the terminal would have stopped the command's own process, and both go on together
    (``fg``, ``bg``)."""

    def suspend(signum: int, frame: object) -> None:
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid[0], signal.SIGSTOP)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stopped here until continued
        signal.signal(signal.SIGTSTP, suspend)
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid[0], signal.SIGCONT)

    return suspend


def _server_for(argv: list[str]) -> str | None:
    """The socket of a server to hand the command line ``argv`` to, None when it is not
    handed over (``$HANDLEDGER_NO_SERVE``, ``serve`` itself, no socket in a private folder,
    a standard stream closed)."""
    if os.environ.get("HANDLEDGER_NO_SERVE") or command_name(argv) == "serve":
        return None
    path = socket_path()
    if path is None or not os.path.exists(path) or not _streams_open():
        return None
    return path


def forward(argv: list[str]) -> int | None:
    """Run the command line ``argv`` (``sys.argv``) in the running server, if one answers and
    takes it (module doc): its exit status (signal death: this process dies of the same
    signal), or None when nothing was run and the command should run here."""
    path = _server_for(argv)
    if path is None:
        return None
    import socket  # here: a command with no server to hand it to (most) never loads it

    if not hasattr(socket, "send_fds"):
        return None
    # Signals are held from here until the command's pid is known, then passed on to it; one
    # that came while the server had not started anything is "Aborted" with nothing run.
    held: list[int] = []
    pid: list[int] = []

    def pass_on(signum: int, frame: object) -> None:
        if not pid:
            held.append(signum)
            return
        try:
            os.kill(pid[0], signum)
        except OSError:
            pass

    previous = {signum: signal.getsignal(signum) for signum in (*FORWARDED, signal.SIGTSTP)}
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, _suspender(pid) if signum == signal.SIGTSTP else pass_on)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(5)
        sock.connect(path)
        data = json.dumps(request(argv, previous[signal.SIGINT] is signal.SIG_IGN)).encode()
        socket.send_fds(sock, [len(data).to_bytes(4, "big") + data], [0, 1, 2])
        replies = sock.makefile("rb")
        first = replies.readline()
        answer = json.loads(first) if first else {}
        if "pid" in answer:  # from here the command is the server's: it starts on this word
            sock.sendall(GO)
    except (OSError, ValueError):
        answer = {}
    if "pid" not in answer:  # refused, too slow, or the server stopped: nothing was started
        sock.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            sys.stderr.write("Aborted\n")
            return 130
        return None
    pid.append(answer["pid"])
    for signum in held:
        pass_on(signum, None)
    return _wait(sock, replies)


def _wait(sock: socket.socket, replies: io.BufferedReader) -> int:
    """The exit status of the command's process (signals are passed on to it meanwhile)."""
    sock.settimeout(None)
    try:
        last = replies.readline()
    except OSError:
        last = b""
    if not last:
        sys.stderr.write("error: the handledger server's process for this command ended "
                         "without its exit status; look at the ledger before running it again\n")
        return 1
    status = int(json.loads(last)["status"])
    if status < 0:  # killed by a signal: die of it too, as the command's own process would
        sys.stdout.flush()
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    return status
