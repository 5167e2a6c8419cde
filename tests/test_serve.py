"""``handledger serve``: commands handed to a running server (real processes: the server, the
``handledger`` console script as client) give the output, exit status and files that the same
command gives in its own process; what the server must not serve it leaves to the client."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ledger.store.holders import holder_words
from tests.conftest import DATA, ROOT

HANDLEDGER = str(Path(sys.executable).with_name("handledger"))
SEATS = "Ann:200,Bob:150,Cy:300"


def _as_at_a_terminal() -> None:
    """In a child before it runs: Ctrl-C and Ctrl-\\ (SIGINT, SIGQUIT) back to their default
    action, as a shell gives a command it runs in the foreground. A suite started in the
    background by a shell without job control (``sh -c '…' &``) has both ignored, and an
    ignored signal stays ignored across exec: handledger then rightly ignores it too, which
    is not what these tests are about."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Server:
    """A ``handledger serve`` process and the environment of its clients."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.env = {**env, "HANDLEDGER_SERVE_DIR": str(folder)}
        self.env.pop("HANDLEDGER_NO_SERVE", None)
        self.proc = subprocess.Popen([HANDLEDGER, "serve"], env=self.env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, preexec_fn=_as_at_a_terminal)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        assert first.startswith("loaded "), first + self.proc.stderr.read()
        assert self.proc.stdout.readline().startswith(f"serving handledger commands at {folder}")

    def run(self, *args: str, served: bool = True, cwd: Path | None = None,
            input: str | None = None, env: dict[str, str] | None = None,  # noqa: A002
            ) -> tuple[int, str, str]:
        """A ``handledger`` command as a client (``served`` False: in its own process)."""
        env = {**self.env, **(env or {})}
        if not served:
            env["HANDLEDGER_NO_SERVE"] = "1"
        done = subprocess.run([HANDLEDGER, *args], env=env, cwd=cwd, input=input, text=True,
                              capture_output=True, timeout=120)
        return done.returncode, done.stdout, done.stderr

    def table(self, db: str, hand: str, first: str) -> tuple[subprocess.Popen, str]:
        """A three-handed hand ``hand`` started on ``db``, then a served ``table`` of it (a
        client process with open pipes) given the line ``first``: the client and its first
        line of output."""
        assert self.run("--db", db, "hand", "start", "--hand", hand, "--game", "NT", "--stakes",
                        "1/2", "--seats", SEATS, "--button", "Cy")[0] == 0
        # Its own process group in this session, as a shell job: a group whose parent is
        # outside the session (a suite started in the background) is orphaned, and the
        # system drops a Ctrl-Z (SIGTSTP) sent to one.
        client = subprocess.Popen([HANDLEDGER, "--db", db, "table", hand], env=self.env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, process_group=0,
                                  preexec_fn=_as_at_a_terminal)
        assert client.stdin is not None and client.stdout is not None
        client.stdin.write(first + "\n")
        client.stdin.flush()
        return client, client.stdout.readline()

    def log(self) -> str:
        """The server's log lines so far (its stdout), once it stopped."""
        assert self.proc.stdout is not None
        return self.proc.stdout.read()

    def stop(self) -> str:
        """Stop the server (``serve --stop``) and return the rest of its log."""
        code, out, err = self.run("serve", "--stop")
        assert code == 0 and out.startswith("stopped the handledger server at"), err
        self.proc.wait(timeout=30)
        return self.log()


@pytest.fixture
def server() -> Iterator[Server]:
    # A short folder: a Unix socket's path holds about 100 bytes, pytest's tmp_path can be longer.
    base = Path(tempfile.mkdtemp(prefix="hl-serve-"))
    srv = Server(base / "sv", dict(os.environ))
    yield srv
    if srv.proc.poll() is None:
        srv.proc.terminate()
        srv.proc.wait(timeout=30)
    shutil.rmtree(base, ignore_errors=True)


def _night(run, db: str) -> list[tuple[int, str, str]]:  # noqa: ANN001
    """A short evening: a hand recorded live with a refused action in it, a read, a
    refused read of a missing ledger; every command's (status, stdout, stderr)."""
    steps = [
        ("hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2", "--seats", SEATS,
         "--button", "Cy"),
        ("act", "h1", "d dh Ann AsKs"), ("act", "h1", "d dh Bob QhQd"),
        ("act", "h1", "d dh Cy 7c2d"),
        ("act", "h1", "Ann cc"),  # out of turn: Cy acts first three-handed
        ("act", "h1", "Cy f"), ("act", "h1", "Ann cbr 6"), ("act", "h1", "Bob f"),
        ("state", "h1"), ("act", "h1", "pay Ann 8"), ("act", "h1", "end"),
        ("replay", "--json"), ("balances",),
    ]
    return [run("--db", db, *step) for step in steps]


def _own(*args: str) -> tuple[int, str, str]:
    """``handledger ARGS`` as its console script runs it unserved (:func:`cli.main.run`), in
    this process: (status, stdout, stderr)."""
    from click.testing import CliRunner

    from cli.main import run as run_main

    with CliRunner().isolation() as (out, err, _):
        try:
            code = run_main(list(args))
        except SystemExit as exc:  # a command's sys.exit, as the process ends with it
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()


def test_served_commands_run_as_their_own_process_does(server: Server, tmp_path: Path) -> None:
    """The same evening, served and in its own processes, on twin ledgers: equal output and
    statuses (one line and exit 2 for the refusal), and the server ran every command."""
    served = _night(server.run, str(tmp_path / "served.duckdb"))
    # Alone: each command as the console script runs it unserved (cli.main.run), in this
    # process: its output, status and one error line are the process's own.
    alone = _night(_own, str(tmp_path / "alone.duckdb"))
    assert [s[0] for s in served] == [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    assert served == alone
    assert served[4][2] == alone[4][2] and len(served[4][2].splitlines()) == 1
    assert "Ann" in served[4][2] and served[8][1].startswith("hand h1: NT")
    log = server.stop().splitlines()
    assert [line.rsplit(" in ", 1)[0] for line in log[:-1]] == [
        "hand: exit 0", *["act: exit 0"] * 3, "act: exit 2", *["act: exit 0"] * 3,
        "state: exit 0", "act: exit 0", "act: exit 0", "replay: exit 0", "balances: exit 0"]
    assert log[-1] == "stopped by `handledger serve --stop`"


def test_served_command_has_the_clients_folder_environment_and_input(
        server: Server, tmp_path: Path) -> None:
    """A relative ``--db`` is the client's folder, ``$HANDLEDGER_DB`` the client's, standard
    input the client's (``table`` reads it), and a read of a missing ledger creates nothing."""
    code, out, err = server.run("--db", "rel.duckdb", "hand", "start", "--hand", "h2", "--game",
                                "NT", "--stakes", "1/2", "--seats", SEATS, "--button", "Cy",
                                cwd=tmp_path)
    assert (code, out) == (0, "h2\n") and (tmp_path / "rel.duckdb").exists()
    code, out, _ = server.run("table", "h2", input="d dh Ann ????\nstate\n",
                              env={"HANDLEDGER_DB": str(tmp_path / "rel.duckdb")})
    assert code == 0 and out.startswith("4 cards_dealt; phase deal, next: d dh Bob")
    assert "stacks: Ann 199 bet 1, Bob 148 bet 2, Cy 300" in out
    code, _, err = server.run("--db", "missing.duckdb", "state", "h2", cwd=tmp_path)
    assert code == 2 and err.startswith("error: no ledger at missing.duckdb")
    assert not (tmp_path / "missing.duckdb").exists()
    log = server.stop()
    assert [line.rsplit(" in ", 1)[0] for line in log.splitlines()[:3]] == \
        ["hand: exit 0", "table: exit 0", "state: exit 2"]


def test_ctrl_c_of_the_client_aborts_the_served_command(server: Server, tmp_path: Path) -> None:
    """SIGINT to the client while ``table`` waits for its next line reaches the command:
    "Aborted", exit 130, as in its own process."""
    db = str(tmp_path / "c.duckdb")
    assert server.run("--db", db, "hand", "start", "--hand", "h3", "--game", "NT", "--stakes",
                      "1/2", "--seats", SEATS, "--button", "Cy")[0] == 0
    # As a terminal delivers it: the client restores Python's handler for Ctrl-C, which a
    # test runner's worker may have left ignored.
    client = subprocess.Popen(
        [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, "
         "signal.default_int_handler); from cli.entry import main; main()",
         "--db", db, "table", "h3"],
        env=server.env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    assert client.stdin is not None and client.stdout is not None
    client.stdin.write("state\n")
    client.stdin.flush()
    assert client.stdout.readline() == "hand h3: NT, phase deal, status open\n"  # it runs
    client.send_signal(signal.SIGINT)
    assert client.wait(timeout=60) == 130  # its input still open: the interrupt ended it
    client.stdin.close()
    assert client.stderr is not None and client.stderr.read().split() == ["Aborted"]
    code, out, _ = server.run("--db", db, "state", "h3")
    assert code == 0 and "phase deal" in out
    assert "table: exit 130" in server.stop()


def test_a_client_of_another_install_runs_the_command_itself(
        server: Server, tmp_path: Path) -> None:
    """A client whose project files are another copy (another install) is refused by the
    server and runs the command in its own process, with the same result; a server whose
    code changed since it started refuses, says so and stops."""
    copy = tmp_path / "copy"
    for package in ("cli", "engine", "ledger", "replay"):
        shutil.copytree(ROOT / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    other = {"PYTHONPATH": str(copy)}
    code, out, _ = server.run("--db", str(tmp_path / "o.duckdb"), "import",
                              str(DATA / "hands"), env=other)
    assert code == 0 and "imported" in out
    assert server.stop() == "stopped by `handledger serve --stop`\n"  # it served nothing

    stale = Server(server.folder, {**server.env, **other})
    try:
        assert stale.run("--db", str(tmp_path / "o.duckdb"), "verify", env=other)[0] == 0
        os.utime(copy / "engine" / "pots.py")  # as an upgrade or an edit would
        code, out, _ = stale.run("--db", str(tmp_path / "o.duckdb"), "verify", env=other)
        assert code == 0 and out.startswith("ok: 160 events, hash chain intact")
        stale.proc.wait(timeout=30)
        lines = stale.log().splitlines()
        assert lines[0].startswith("verify: exit 0")
        assert lines[1:] == ["stopped: handledger's code or libraries changed since the "
                             "server started; start it again to serve the new code"]
    finally:
        if stale.proc.poll() is None:
            stale.proc.terminate()


def test_serve_refuses_a_folder_others_may_enter_and_a_second_server(
        server: Server, tmp_path: Path) -> None:
    """One line and exit 2: a second server on the same socket; a folder other users may
    enter (the client does not use it either); ``--stop`` with no server."""
    code, _, err = server.run("serve")
    assert code == 2 and err == (f"error: a handledger server already answers at "
                                 f"{server.folder}/serve.sock (`handledger serve --stop` "
                                 f"stops it)\n")
    server.stop()
    code, _, err = server.run("serve", "--stop")
    assert code == 2
    assert err == f"error: no handledger server answers at {server.folder}/serve.sock\n"
    open_folder = Path(tempfile.mkdtemp(prefix="hl-open-"))
    try:
        open_folder.chmod(0o755)
        env = {"HANDLEDGER_SERVE_DIR": str(open_folder)}
        code, _, err = server.run("serve", env=env)
        assert code == 2 and err == (f"error: {open_folder} is not a private folder of this "
                                     f"user (mode 0700): not serving there\n")
        assert stat.S_IMODE(open_folder.stat().st_mode) == 0o755
        assert list(open_folder.iterdir()) == []
    finally:
        shutil.rmtree(open_folder)


def test_serve_stops_when_idle(tmp_path: Path) -> None:
    """``--idle 0.2``: the server stops by itself 0.2 s after its last command (none here)
    and removes its socket."""
    base = Path(tempfile.mkdtemp(prefix="hl-idle-"))
    try:
        env = {**os.environ, "HANDLEDGER_SERVE_DIR": str(base / "sv")}
        done = subprocess.run([HANDLEDGER, "serve", "--idle", "0.2"], env=env, text=True,
                              capture_output=True, timeout=120)
        assert done.returncode == 0
        assert done.stdout.splitlines()[-1] == "stopped after 0.2 s without a command"
        assert not (base / "sv" / "serve.sock").exists()
    finally:
        shutil.rmtree(base)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGQUIT])
def test_a_served_command_killed_by_a_signal_kills_its_client_alike(
        server: Server, tmp_path: Path, signum: signal.Signals) -> None:
    """SIGTERM (a kill) or SIGQUIT (Ctrl-\\) to the client while ``table`` waits: passed on,
    the command dies of it, and so does the client (status -15, -3), as a command in its own
    process would."""
    db = str(tmp_path / "k.duckdb")
    client, line = server.table(db, "h4", "state")
    assert line == "hand h4: NT, phase deal, status open\n"
    assert client.stdin is not None and client.stdout is not None
    client.send_signal(signum)
    assert client.wait(timeout=60) == -signum
    client.stdin.close()
    assert f"table: killed by {signum.name}" in server.stop()


def test_a_served_command_dies_with_its_client(server: Server, tmp_path: Path) -> None:
    """SIGKILL to the client (nothing to pass on) while ``table`` waits: the command's
    process is killed too, as it would have been in its own process, and records none of the
    input that comes after; the ledger keeps what was recorded before and verifies."""
    db = str(tmp_path / "q.duckdb")
    client, line = server.table(db, "h5", "d dh Ann ????")
    assert line.startswith("4 cards_dealt; phase deal, next: d dh Bob")
    assert client.stdin is not None and client.stdout is not None
    assert server.proc.stdout is not None
    assert server.proc.stdout.readline().startswith("hand: exit 0")
    client.kill()
    assert client.wait(timeout=60) == -signal.SIGKILL
    # Before, the command read on: this waited for ever (the test's input is still open).
    assert select.select([server.proc.stdout], [], [], 60)[0]
    assert server.proc.stdout.readline().startswith("table: killed by SIGKILL")
    with contextlib.suppress(BrokenPipeError):
        client.stdin.write("d dh Bob ????\n")
        client.stdin.close()
    code, out, _ = server.run("--db", db, "state", "h5")
    assert code == 0 and "next: d dh Bob" in out
    code, out, _ = server.run("--db", db, "verify")
    assert code == 0 and out.startswith("ok: 4 events, hash chain intact")
    server.stop()


#: A client whose Ctrl-C comes as ``cli.served`` loads the socket and JSON modules, before it
#: can pass a signal on: the import of ``json`` sends it (as a terminal would, to Python's handler).
_CTRL_C_AT_IMPORT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "json":
            os.kill(os.getpid(), signal.SIGINT)
sys.meta_path.insert(0, CtrlC())
sys.argv = ["handledger", "--version"]
from cli.entry import main
main()
"""


def test_ctrl_c_before_the_client_passes_signals_on_is_aborted(tmp_path: Path) -> None:
    """Ctrl-C while the client loads its modules: "Aborted" and exit 130, nothing run, as
    while the command's own modules load (cli.entry), not a traceback."""
    done = subprocess.run([sys.executable, "-c", _CTRL_C_AT_IMPORT], cwd=ROOT, text=True,
                          capture_output=True, timeout=120,
                          env={**os.environ, "HANDLEDGER_SERVE_DIR": str(tmp_path / "none")})
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "Aborted\n")


def _state_and_parent(pid: int) -> tuple[str, int]:
    """A process's state letter (``T`` stopped) and parent pid, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _stops(pid: int) -> bool:
    """Whether the process ``pid`` is stopped (``T``) within 30 s: a signal sent by another
    process takes effect when the system next schedules ``pid``, which under load is later."""
    deadline = time.monotonic() + 30
    while _state_and_parent(pid)[0] != "T":
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _grandchildren(pid: int) -> list[int]:
    """The processes whose parent's parent is ``pid`` (a server's commands)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parents[int(entry.name)] = _state_and_parent(int(entry.name))[1]
    return [p for p, parent in parents.items() if parents.get(parent) == pid]


def test_ctrl_z_of_the_client_stops_the_served_command(server: Server, tmp_path: Path) -> None:
    """SIGTSTP (Ctrl-Z) to the client while ``table`` waits: the command's process is stopped
    too, as the terminal would stop the command's own process, instead of reading input
    meanwhile; SIGCONT (``fg``) to the client lets both go on."""
    db = str(tmp_path / "z.duckdb")
    client, line = server.table(db, "h6", "d dh Ann ????")
    assert line.startswith("4 cards_dealt; phase deal, next: d dh Bob")
    assert client.stdin is not None and client.stdout is not None
    [command] = _grandchildren(server.proc.pid)
    client.send_signal(signal.SIGTSTP)
    assert _stops(client.pid)
    assert _stops(command)  # before, "S": reading on
    client.stdin.write("d dh Bob ????\n")
    client.stdin.flush()
    code, out, _ = server.run("--db", db, "state", "h6")
    assert code == 0 and "next: d dh Bob" in out
    client.send_signal(signal.SIGCONT)
    assert client.stdout.readline().startswith("5 cards_dealt; phase deal, next: d dh Cy")
    client.stdin.close()
    assert client.wait(timeout=60) == 0
    assert "table: exit 0" in server.stop()


def test_a_served_command_is_named_by_its_own_command_line(
        server: Server, tmp_path: Path) -> None:
    """The command's process, forked from the server, gives the system the client's command
    line as its own: a process waiting for the ledger it holds names that command, not
    ``handledger serve``."""
    db = str(server.folder.parent / "n.duckdb")  # /tmp/hl-serve-XXXXXXXX: the line is not cut
    client, line = server.table(db, "h7", "d dh Ann ????")
    assert line.startswith("4 cards_dealt; phase deal, next: d dh Bob")
    assert client.stdin is not None
    [command] = _grandchildren(server.proc.pid)
    raw = Path(f"/proc/{command}/cmdline").read_bytes().rstrip(b"\0")
    # One text, the program without its folder, longer than the server's own line
    # (this Python, its handledger, "serve") would have room for.
    assert raw == f"handledger --db {db} table h7".encode()
    lock = (f"IO Error: Could not set lock on file \"{db}\": Conflicting lock is held in "
            f"{sys.executable} (PID {command})")
    # Before: "another process (pid N: handledger serve)".
    assert holder_words(lock) == f"another process (pid {command}: handledger --db {db} table h7)"
    client.stdin.close()
    assert client.wait(timeout=60) == 0
    server.stop()


#: A client that hears the command's pid and leaves without its ``go`` (as one whose wait
#: timed out just as the pid came, and that runs the command itself).
_LEAVING_CLIENT = """
import json, socket, sys
from cli import served
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(served.socket_path())
data = json.dumps(served.request(sys.argv, False)).encode()
socket.send_fds(sock, [len(data).to_bytes(4, "big") + data], [0, 1, 2])
print(sorted(json.loads(sock.makefile("rb").readline())))
"""


def test_a_command_whose_client_left_before_go_is_not_run(
        server: Server, tmp_path: Path) -> None:
    """The server starts a command only once its client, told the pid, says go: a client
    that left instead (and runs the command itself) never has it run twice."""
    db = tmp_path / "g.duckdb"
    done = subprocess.run([sys.executable, "-c", _LEAVING_CLIENT, "--db", str(db), "init"],
                          env=server.env, cwd=ROOT, text=True, capture_output=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "['pid']\n", "")
    # The handler's line and the server's last come in either order (two processes).
    assert sorted(server.stop().splitlines()) == ["init: not started, its client left",
                                                  "stopped by `handledger serve --stop`"]
    assert not db.exists()


def test_a_socket_path_too_long_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    """A serving folder whose socket path a Unix socket cannot hold: one line, exit 2, and
    no folder made."""
    folder = tmp_path / ("x" * 120)
    env = {**os.environ, "HANDLEDGER_SERVE_DIR": str(folder)}
    done = subprocess.run([HANDLEDGER, "serve"], env=env, text=True, capture_output=True,
                          timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"error: {folder}/serve.sock is too long for a Unix socket (at most "
                           f"103 bytes): set HANDLEDGER_SERVE_DIR to a shorter folder\n")
    assert not folder.exists()
