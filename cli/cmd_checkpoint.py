"""Checkpoint and key commands: ``checkpoint``, ``key new|list|show|add``; and what
``verify --against`` prints (:func:`check_against`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from ledger.model.shell import shell_arg

KEYS_ENV = "HANDLEDGER_KEYS"


def key_directory() -> str:
    """``$HANDLEDGER_KEYS``, else ``keys`` in the user's config directory for handledger."""
    return os.environ.get(KEYS_ENV) or str(Path(click.get_app_dir("handledger")) / "keys")


def given_key_directory(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A ``--keys DIR`` given on the command line that is no directory (missing, or a file) is
    a usage error, before any file is read: a key directory looked in would hold no key and
    say so as of a directory. ``key new`` and ``key add`` make a missing one; the default
    (``$HANDLEDGER_KEYS`` or the config dir) may be missing: no keys yet."""
    if value is None or ctx.get_parameter_source(param.name or "") is not (
            click.core.ParameterSource.COMMANDLINE):
        return value
    path = Path(value)
    makes = ctx.command.name in ("new", "add") and ctx.parent is not None and (
        ctx.parent.command.name == "key")
    if path.is_dir() or makes and not path.exists():
        return value
    why = ("not a directory" if path.exists() else
           f"no such directory (`handledger key new NAME --keys {shell_arg(value)}` makes one)")
    raise click.BadParameter(f"{value}: {why}", ctx, param)


def keys_option(command: Any) -> Any:
    """The ``--keys DIR`` option (the key directory) of a command (:func:`given_key_directory`
    checks a given one)."""
    return click.option("--keys", "keys_dir", default=key_directory, metavar="DIR",
                        show_default=f"${KEYS_ENV} or the user's config dir",
                        callback=given_key_directory, help="The key directory.")(command)


def _store(keys_dir: str) -> Any:
    from ledger.store.keys import KeyStore

    return KeyStore(keys_dir)


@click.command()
@click.option("-o", "--out", default=None, type=click.Path(dir_okay=False),
              help="Append to this checkpoints file (default: <ledger file>.checkpoints).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON record.")
@click.option("--sign", default=None, metavar="NAME", help="Sign with the key NAME.")
@keys_option
@click.pass_obj
def checkpoint(obj: Any, out: str | None, as_json: bool, sign: str | None,
               keys_dir: str) -> None:
    """Write down the ledger's head (position, hash, time) as one line to paste in the group
    chat, and append it to the checkpoints file; `verify --against` checks it later."""
    from ledger.store.checkpoint import take

    point = take(obj.ledger(read_only=True, sound=False), out=out, sign=sign, keys=_store(keys_dir))
    click.echo(json.dumps(point.record(), sort_keys=True) if as_json else point.line())


def check_against(ledger: Any, checkpoints: list[Any], keys_dir: str, chain: Any = None,
                  damaged: list[Any] | None = None) -> bool:
    """Print the verdict of every checkpoint of ``checkpoints`` (what
    :func:`ledger.store.checkpoint.load` read of a file, a pasted line or ``POS:HASH``) and
    where the ledger parts from them (the first position where any of them disagrees with
    it, located by the records' marks, their own or those of the ledger's checkpoints file:
    :func:`ledger.store.anchor.compare`);
    return whether it extends them all (signatures good). ``chain``: the walk's report, by
    which a checkpoint whose rows no longer hash to its head fails
    (:func:`ledger.store.anchor.compare`). ``damaged``: ``(FILE:LINE, Damaged)`` of the
    file's damaged lines (:func:`ledger.store.checkpoint.read`), each named: one before a
    checkpoint fails (the file altered), a last one is not checked (a write cut short)."""
    from ledger.store.anchor import compare
    from ledger.store.checkpoint import row_kinds

    report = compare(ledger, checkpoints, _store(keys_dir), chain)
    for v in report.verdicts:
        c = v.checkpoint
        name = f" {c.ledger}" if c.ledger else ""
        at = f" at {c.at}" if c.at else ""
        verdict = "ok" if v.ok else "FAILS"
        # a POS:HASH given on the command line is where it came from: named once, short
        where = "" if v.where.strip().lower() == f"{c.position}:{c.hash}".lower() else (
            f"{v.where} ")
        click.echo(f"checkpoint {where}{name.lstrip() + ' ' if name else ''}"
                   f"{c.position}:{c.hash[:16]}…{at}: {verdict}: {v.note}")
    damaged = damaged or []
    for where, line in damaged:
        click.echo(f"checkpoint {where}: {'not checked' if line.last else 'FAILS'}: "
                   f"{line.said()}")
    altered = any(not line.last for _, line in damaged)
    if report.parts is not None:
        first, last = report.parts
        bounds = ("no record given or beside the ledger marks the rows between: a pasted "
                  "line or POS:HASH only bounds it; the records `checkpoint` appends name "
                  "the row")
        if last > report.end:  # no row there: the ledger ends before a checkpoint
            after = (f"after its head (position {report.end}): checkpoint {report.beyond} is "
                     f"beyond it, rows {report.end + 1}-{report.beyond} missing (an older "
                     "copy put back, or cut short)")
            where = after if first > report.end else (
                f"between positions {first} and {report.end}, or {after} ({bounds})")
        elif first == last:
            where = f"at position {first}" + (f" ({report.row})" if report.row else "")
        else:
            where = f"between positions {first} and {last} ({bounds})"
        click.echo(f"the ledger parts from its checkpoints {where}")
    elif report.ok:
        after = report.unvouched
        beyond = "" if after is None else (
            f"; {after[1] - after[0] + 1} row(s) after the latest ({after[0]}-{after[1]}), "
            f"which none vouches for: {row_kinds(ledger, *after)}")
        if altered:  # a damaged line before a later checkpoint: the file is not as written
            bad = sum(not line.last for _, line in damaged)
            click.echo(f"the ledger extends the {len(report.verdicts)} intact checkpoint(s)"
                       f"{beyond}, but the file was altered after it was written: {bad} "
                       "damaged line(s) before a later checkpoint")
        else:
            unread = f"; {len(damaged)} damaged line(s) not checked" if damaged else ""
            click.echo(f"the ledger extends all {len(report.verdicts)} checkpoint(s){beyond}"
                       f"{unread}")
    return report.ok and not altered


@click.group()
def key() -> None:
    """Ed25519 keys that sign checkpoints (and corrections and voids)."""


@key.command(name="new")
@click.argument("name")
@keys_option
@click.pass_obj
def key_new(obj: Any, name: str, keys_dir: str) -> None:
    """Make the key pair NAME; prints the public key to share. Neither the key directory nor
    a key file is the ledger (--db), its .wal or its .checkpoints."""
    info = _store(keys_dir).new(name, ledger=obj.db)
    click.echo(f"key {info.name} {info.fingerprint}: {info.public}")


@key.command(name="list")
@keys_option
def key_list(keys_dir: str) -> None:
    """The keys of the key directory: name, fingerprint, private or public only."""
    store = _store(keys_dir)
    keys, aliases = store.list(), store.aliases()
    for info in keys:
        kind = "private" if info.private else "public"
        also = ", ".join(repr(n) for n in aliases.get(info.name, []))
        flag = (f"  (the same key is held as {also}: a key has one name here, the name its "
                "signatures give; remove the copy's .pub file)") if also else ""
        click.echo(f"{info.name}  {info.fingerprint}  {kind}  {info.public}{flag}")
    if not keys:
        click.echo(f"no keys in {keys_dir}")


@key.command(name="show")
@click.argument("name")
@keys_option
def key_show(name: str, keys_dir: str) -> None:
    """Print the public key NAME (one line, to share)."""
    click.echo(_store(keys_dir).info(name).public)


@key.command(name="add")
@click.argument("name")
@click.argument("public")
@keys_option
@click.pass_obj
def key_add(obj: Any, name: str, public: str, keys_dir: str) -> None:
    """Keep someone's public key PUBLIC (ed25519:...) as NAME, to check their signatures.
    Neither the key directory nor the key file is the ledger (--db), its .wal or its
    .checkpoints."""
    info = _store(keys_dir).add(name, public, ledger=obj.db)
    click.echo(f"key {info.name} {info.fingerprint}: public")


COMMANDS = [checkpoint, key]
