"""``handledger serve``: one process that loads Python's libraries and the project's modules
once, then runs every ``handledger`` command handed to it (:mod:`cli.served`, which also gives
the protocol) in a process forked for that command alone, with the client's arguments, working
directory, environment, umask and standard streams. Each command opens, writes and closes the
ledger as its own process would: DuckDB's lock between processes, the waiting and the all or
nothing of a write are unchanged, and the server itself never opens a ledger (a process
forked with DuckDB's threads running would inherit them broken).

It prints a line a command (its name, exit status and time; not its arguments). Two forks a
command: a handler process for the connection (its own session, so that a Ctrl-C
at the server's terminal reaches no command and a command reading a terminal is never stopped
as a background job), and the command's process, which runs nothing before the client, told
its pid, answered ``go``: a client that did not (it gave up waiting) runs the command itself;
one that did waits for its exit status. A client that dies meanwhile takes the command's
process with it (SIGKILL), as it would have died in its own process.

A request is refused (the client runs the command itself) when it comes from another install,
another Python or another locale (:func:`cli.served.interpreter`); when a file of the project's
packages or the folder of installed libraries changed since the server started, the request is
refused and the server stops, saying so: it would run old code.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import pkgutil
import select
import signal
import socket
import sys
import sysconfig
import time
from collections.abc import Callable
from typing import Any

from cli import served

#: The longest socket path every Unix takes (Linux 107 bytes, the BSDs and macOS 103).
_MAX_SOCKET_PATH = 103
#: The largest request read (bytes): a command line and its environment are far smaller.
_MAX_REQUEST = 16 << 20
#: Project modules not loaded ahead: optional extras and what only a few commands need.
_NOT_AHEAD = ("replay.distributed",)


class ServeError(Exception):
    """The server cannot start (another one runs, the folder is not private)."""


def preload() -> int:
    """Import every module of the project's packages (the optional ones that fail to import
    aside), build the validators pydantic would build on first use, then freeze what they made
    out of the garbage collector's passes (forked commands then share those pages); returns
    the number of modules loaded."""
    root = served.code_root()
    for package in served.PACKAGES:
        importlib.import_module(package)
        for info in pkgutil.walk_packages([os.path.join(root, package)], package + "."):
            if info.name.startswith(_NOT_AHEAD):
                continue
            with contextlib.suppress(ImportError):
                importlib.import_module(info.name)
    _complete_models()
    # setproctitle finds the process's command line from its environment, which a command
    # replaces with its client's: found now, once, for every command (_name_process)
    from setproctitle import getproctitle

    getproctitle()
    gc.collect()
    gc.freeze()
    return len(sys.modules)


def _complete_models() -> None:
    """Build now the validators pydantic leaves to a model's first use (a model naming a type
    defined after it): each command would otherwise build them again, 20 ms of a ``state``."""
    from pydantic import BaseModel

    todo = [BaseModel]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls is not BaseModel and not cls.__pydantic_complete__:
            cls.model_rebuild(raise_errors=False)


def code_stamp() -> tuple[tuple[str, int], ...]:
    """The modification times (ns) of the project's Python files, templates and the folder
    of installed libraries: the server stops when they change (module doc)."""
    root = served.code_root()
    stamps = []
    for package in served.PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(root, package)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if not name.endswith((".pyc", ".pyo")):
                    path = os.path.join(folder, name)
                    stamps.append((path, os.stat(path).st_mtime_ns))
    lib = sysconfig.get_paths()["purelib"]
    stamps.append((lib, os.stat(lib).st_mtime_ns))
    return tuple(sorted(stamps))


def listen(path: str) -> socket.socket:
    """The listening socket at ``path``, its folder made private (mode 0700) if missing.

    Raises:
        ServeError: the path is too long for a Unix socket, the folder is not private, or a
            server answers there already.
    """
    if len(os.fsencode(path)) > _MAX_SOCKET_PATH:
        raise ServeError(f"{path} is too long for a Unix socket (at most {_MAX_SOCKET_PATH} "
                         f"bytes): set HANDLEDGER_SERVE_DIR to a shorter folder")
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot make {folder}: {exc.strerror}") from None
    if not served.private(folder):
        raise ServeError(f"{folder} is not a private folder of this user (mode 0700): "
                         f"not serving there")
    if os.path.exists(path):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(path)
        except OSError:
            os.unlink(path)  # left by a server that was killed
        else:
            raise ServeError(f"a handledger server already answers at {path} "
                             f"(`handledger serve --stop` stops it)")
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)
    except OSError as exc:  # a path longer than the system takes (about 100 bytes), say
        sock.close()
        raise ServeError(f"cannot listen at {path}: {exc.strerror or exc}") from None
    sock.listen(16)
    return sock


def stop(path: str) -> bool:
    """Ask the server at ``path`` to stop; whether one answered."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(5)
        sock.connect(path)
        data = json.dumps({"stop": True}).encode()
        sock.sendall(len(data).to_bytes(4, "big") + data)
        return sock.makefile("rb").readline() != b""
    except OSError:
        return False
    finally:
        sock.close()


def serve(sock: socket.socket, path: str, idle: float | None, say: Callable[[str], None],
          stamp: tuple[tuple[str, int], ...]) -> None:
    """Answer on ``sock``, listening at ``path`` (:func:`listen`; the commands that came
    meanwhile wait in its queue), until told to stop (``serve --stop``, SIGINT, SIGTERM), until
    ``idle`` seconds pass without a command (None: never), or until the code differs from
    ``stamp`` (:func:`code_stamp`, taken before the modules were loaded); then remove the
    socket."""
    own = [served.code_root(), served.interpreter()]
    stopping: list[str] = []

    def on_signal(signum: int, frame: object) -> None:
        stopping.append(signal.Signals(signum).name)
        sock.close()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # handler processes reaped by the system
    sock.settimeout(idle)
    say(f"serving handledger commands at {path} (Ctrl-C or `handledger serve --stop` stops)")
    why = "stopped"
    while not stopping:
        try:
            conn, _ = sock.accept()
        except TimeoutError:
            why = f"stopped after {idle:g} s without a command"
            break
        except OSError:
            break  # closed by a signal
        try:
            message, fds = _receive(conn)
        except (OSError, ValueError):
            conn.close()
            continue
        if message.get("stop"):
            served.send(conn, {"stopped": True})
            conn.close()
            why = "stopped by `handledger serve --stop`"
            break
        refusal = _refusal(message, fds, own)
        if refusal is None and code_stamp() != stamp:
            refusal = "handledger's code or libraries changed since the server started"
            why = f"stopped: {refusal}; start it again to serve the new code"
            stopping.append("code")
        if refusal is not None:
            with contextlib.suppress(OSError):
                served.send(conn, {"refused": refusal})
            _close(conn, fds)
            continue
        if os.fork() == 0:  # the handler process
            sock.close()
            _handle(conn, fds, message)  # never returns
        _close(conn, fds)
    with contextlib.suppress(OSError):
        sock.close()
    with contextlib.suppress(OSError):
        os.unlink(path)
    say(why if not stopping or stopping[0] == "code" else f"stopped ({stopping[0]})")


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """A client's request and the descriptors attached to it (closed again when the request
    cannot be read).

    Raises:
        OSError, ValueError: the request is cut short, too slow or not JSON.
    """
    conn.settimeout(5)
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    try:
        if len(data) < 4:
            raise ValueError("short request")
        size = int.from_bytes(data[:4], "big")
        if size > _MAX_REQUEST:
            raise ValueError("request too large")
        body = bytearray(data[4:])
        while len(body) < size:
            chunk = conn.recv(min(1 << 16, size - len(body)))
            if not chunk:
                raise ValueError("cut request")
            body += chunk
        message = json.loads(body)
        if not isinstance(message, dict):
            raise ValueError("not a request")
    except (OSError, ValueError):
        _close(None, fds)
        raise
    conn.settimeout(None)
    return message, fds


def _refusal(message: dict[str, Any], fds: list[int], own: list[Any]) -> str | None:
    if len(fds) != 3 or not isinstance(message.get("argv"), list):
        return "not a command"
    if message.get("root") != own[0]:
        return f"another install of handledger (the server runs {own[0]})"
    if message.get("interpreter") != own[1]:
        return "another Python, its flags or its locale"
    return None


def _close(conn: socket.socket | None, fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    if conn is not None:
        conn.close()


def _handle(conn: socket.socket, fds: list[int], message: dict[str, Any]) -> None:
    """The handler process: fork the command's process, tell the client its pid, let it run,
    then send its exit status (module doc). Ends with ``os._exit``."""
    try:
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        go_read, go_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(go_write)
            conn.close()
            _command(fds, message, go_read)  # never returns
        os.close(go_read)
        for fd in fds:
            os.close(fd)
        served.send(conn, {"pid": pid})
        if not _client_says_go(conn):  # it gave up waiting: it runs the command itself
            os.close(go_write)
            os.waitpid(pid, 0)
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.write(f"{served.command_name(message['argv']) or 'handledger'}: "
                                 f"not started, its client left\n")
                sys.stdout.flush()
            return
        start = time.monotonic()
        os.write(go_write, b"1")
        os.close(go_write)
        _kill_when_client_leaves(conn, pid)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(OSError):
            served.send(conn, {"status": code})
        said = f"exit {code}" if code >= 0 else f"killed by {signal.Signals(-code).name}"
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.write(f"{served.command_name(message['argv']) or 'handledger'}: {said} in "
                             f"{time.monotonic() - start:.2f} s\n")
            sys.stdout.flush()
    finally:
        os._exit(0)


def _client_says_go(conn: socket.socket) -> bool:
    """Whether the client, told the command's pid, answered :data:`cli.served.GO`."""
    data = b""
    with contextlib.suppress(OSError):
        while len(data) < len(served.GO):
            chunk = conn.recv(len(served.GO) - len(data))
            if not chunk:
                break
            data += chunk
    return data == served.GO


def _kill_when_client_leaves(conn: socket.socket, pid: int) -> None:
    """Return when the command's process ``pid`` has ended; if its client goes away first
    (killed: its end of the connection closes), kill the command (SIGKILL) as the client's
    death would have killed it in its own process, rather than let it read, write and record
    on for nobody. Without pidfds (not Linux) the command is just waited for."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return
    try:
        while True:
            ready, _, _ = select.select([conn, pidfd], [], [])
            if pidfd in ready:
                return
            with contextlib.suppress(OSError):
                if conn.recv(64):  # the client sends nothing more: ignore what it did
                    continue
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            return
    finally:
        os.close(pidfd)


def _command(fds: list[int], message: dict[str, Any], go: int) -> None:
    """The command's process: the client's streams, Ctrl-C as the client had it (ignored in
    a background job), then, once the handler says go (the client knows the pid, so a Ctrl-C
    it passes on is "Aborted" even before the command starts), the client's folder,
    environment and umask, and the command line run as :mod:`cli.entry` runs it."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _streams(message["streams"])
        signal.signal(signal.SIGINT, signal.SIG_IGN if message.get("sigint_ignored")
                      else signal.default_int_handler)
        try:
            if os.read(go, 1) != b"1":  # the handler died before the client heard the pid
                os._exit(1)
        except KeyboardInterrupt:
            sys.stderr.write("Aborted\n")
            _exit(130)
        os.close(go)
        os.chdir(message["cwd"])
        os.umask(message["umask"])
        os.environ.clear()
        os.environ.update(message["env"])
        time.tzset()
        sys.argv = list(message["argv"])
        _name_process(sys.argv)
        from cli.context import own_process
        from cli.main import hold_interrupts, leave, run

        own_process()  # this fork ends with the command (leave, _exit)
        hold_interrupts()
        try:
            code = run(sys.argv[1:])
        except KeyboardInterrupt:
            sys.stderr.write("Aborted\n")
            code = 130
        leave(code)
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # noqa: BLE001 - the one-shot process would print it the same way
        import traceback

        traceback.print_exc()
    _exit(code)


def _name_process(argv: list[str]) -> None:
    """Give the system the client's command line ``argv`` as this process's command
    (``/proc/PID/cmdline``, ``ps``), the program without its folder: a process waiting for a
    ledger this command holds then names it (``pid N: handledger import big.jsonl``,
    :mod:`ledger.store.holders`), not the server it was forked from (``handledger serve``).
    setproctitle (set up by :func:`preload`) writes it where the system reads it, one text,
    as long as it is."""
    from setproctitle import setproctitle

    setproctitle(" ".join([os.path.basename(argv[0]) if argv else "handledger", *argv[1:]]))


def _exit(code: int) -> None:
    """End the command's process as the interpreter's exit would, without unwinding into the
    server's loop: output flushed, exit functions run (worker pools, temporary files)."""
    import atexit
    import threading

    with contextlib.suppress(Exception):
        threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads joined
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for out in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            out.flush()
    os._exit(code)


def _streams(shapes: list[dict[str, Any]]) -> None:
    """Standard input, output and error as Python would have made them on descriptors 0-2
    (:func:`cli.served.stream`)."""
    made = []
    for fd, shape in enumerate(shapes):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        if shape["unbuffered"]:
            binary: Any = raw
        elif fd == 0:
            binary = io.BufferedReader(raw)
        else:
            binary = io.BufferedWriter(raw)
        made.append(io.TextIOWrapper(binary, encoding=shape["encoding"], errors=shape["errors"],
                                     line_buffering=shape["line_buffering"],
                                     write_through=shape["write_through"]))
    sys.stdin, sys.stdout, sys.stderr = made
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = made
