"""``handledger serve``: keep Python and handledger loaded so that every later ``handledger``
command of this user starts at once (the work is done by :mod:`cli.server`; the client side is
:mod:`cli.served`)."""

from __future__ import annotations

import os

import click

from ledger.model.errors import MalformedInput, NotFound


@click.command()
@click.option("--stop", is_flag=True, help="Stop the server that runs, and exit.")
@click.option("--idle", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Stop after this many seconds without a command "
              "(default: run until stopped).")
def serve(stop: bool, idle: float | None) -> None:
    """Keep handledger loaded: later commands skip loading Python's libraries (under half the time).

    Runs in the foreground until Ctrl-C, `handledger serve --stop` or --idle. Every
    handledger command of this user (in any shell, on any ledger) is then run by a process
    this server forks for it, with the command's own arguments, folder, environment and
    terminal: output, exit status and Ctrl-C are as before. Commands run on their own as
    before when no server runs, when $HANDLEDGER_NO_SERVE is set, or when handledger's code
    changed since the server started (it then stops). The socket is serve.sock in
    $HANDLEDGER_SERVE_DIR, $XDG_RUNTIME_DIR/handledger or /tmp/handledger-UID, a folder only
    this user may enter.
    """
    from cli import served, server

    path = os.path.join(served.serve_dir(), served.SOCKET_NAME)
    if stop:
        if not server.stop(path):
            raise NotFound(f"no handledger server answers at {path}")
        click.echo(f"stopped the handledger server at {path}")
        return
    stamp = server.code_stamp()
    try:
        sock = server.listen(path)
    except server.ServeError as exc:
        raise MalformedInput(str(exc)) from None
    try:
        click.echo(f"loaded {server.preload()} modules")
    except BaseException:  # Ctrl-C while loading: no socket left behind
        sock.close()
        os.unlink(path)
        raise
    server.serve(sock, path, idle, click.echo, stamp)


COMMANDS = [serve]
