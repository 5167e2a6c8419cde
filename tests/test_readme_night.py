"""README's "A night at the table": its examples, run in order on one fresh ledger as a host
would type them, each go in as printed (a hand is ended before its players sit in the next
one, RULES.md §1.1). ``handledger serve`` and ``serve --stop`` start and stop a server, which
the in-process runner needs no more than a second terminal does; every other command runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands() -> list[tuple[list[str], str | None]]:
    """The section's ``sh`` blocks as ``(argv after handledger, standard input)`` in order: a
    line continued by ``\\`` joined, ``;`` separating commands, a ``<<'END'`` here-document
    the standard input of its command, ``# …`` comments left out."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## A night at the table\n", 1)[1].split("\n## ", 1)[0]
    out: list[tuple[list[str], str | None]] = []
    for block in re.findall(r"```sh\n(.*?)```", section, flags=re.S):
        lines = block.replace("\\\n", " ").splitlines()
        i = 0
        while i < len(lines):
            line, i = lines[i], i + 1
            stdin = None
            if "<<'END'" in line:
                line = line.replace("<<'END'", "")
                end = lines.index("END", i)
                stdin, i = "".join(f"{x}\n" for x in lines[i:end]), end + 1
            lexer = shlex.shlex(line, posix=True, punctuation_chars=";&")
            lexer.whitespace_split = True
            argv: list[str] = []
            for token in [*lexer, ";"]:
                if token in (";", "&"):
                    if argv:
                        assert argv[0] == "handledger", argv
                        out.append((argv[1:], stdin))
                    argv = []
                else:
                    argv.append(token)
    return out


def test_the_night_runs_as_printed(run) -> None:  # noqa: ANN001
    """The fixed-limit hand L1 left Ann, Bob and Cy seated in play, so the ``table`` example's
    ``hand start --hand t1 … --seats "Ann:200,Bob:150,Cy:300"`` was refused; now every command
    exits 0, and the hands the examples leave end with the lines ``act`` prints."""
    said: dict[str, str] = {}
    commands = _commands()
    assert len(commands) >= 40
    for argv, stdin in commands:
        if argv[0] == "serve":
            continue
        result = run(*argv, input=stdin)
        assert result.exit_code == 0, (argv, result.output)
        said[" ".join(argv)] = result.output
    assert said["settle --session friday"] == (
        "Bob pays Ann 37.50 USD\n1 transfer(s) settle 3 player(s)\n")
    assert said["audit --session friday"] == (
        "audit clean: 1 hand(s) in 1 session(s); every chip adds up in the books as stored (the "
        "hash chain not checked: `handledger verify`); 1 closed session still owes money "
        "(friday): `handledger audit --unsettled` names who, `handledger settle` who pays whom\n")
    assert said["act L1 Bob f"] == "8 fold; phase no showdown, next: pay PLAYER AMOUNT, end\n"
    assert said["act L1 end"] == "9 hand_ended; hand complete\n"
    assert said["act S1 end"] == "11 hand_ended; hand complete\n"
    assert said["hand start --hand t1 --game NT --stakes 1/2 --seats Ann:200,Bob:150,Cy:300 "
                "--button Ann"] == "t1\n"
    assert said["act t1 Bob cbr 6"] == "11 bet_raise; Cy to act: to call 6, raise to 12..298\n"
    assert said["act t1 end"] == "13 hand_ended; hand complete\n"
