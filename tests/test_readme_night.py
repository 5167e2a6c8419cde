"""docs/LIVE.md's "A night at the table" (moved there from the README): its examples, run in
order on one fresh ledger as a host would type them, each go in as printed (a hand is ended
before its players sit in the next one, RULES.md §1.1). ``handledger serve`` and ``serve
--stop`` start and stop a server, which the in-process runner needs no more than a second
terminal does; every other command runs."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

LIVE = Path(__file__).resolve().parents[1] / "docs" / "LIVE.md"


def _commands() -> list[tuple[list[str], str | None]]:
    """The section's ``sh`` blocks as ``(argv after handledger, standard input)`` in order: a
    line continued by ``\\`` joined, ``;`` separating commands, a ``<<'END'`` here-document
    the standard input of its command, ``# …`` comments left out."""
    text = LIVE.read_text(encoding="utf-8")
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


README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _block_commands(block: str) -> list[list[str]]:
    """One ``sh`` block's commands (argv after ``handledger``): a line continued by ``\\``
    joined, a quoted argument kept whole across lines, ``;`` or a line's end separating
    commands, a ``# …`` comment at a line's end left out."""
    block = re.sub(r"[ \t]+#[^\n']*$", "", block.replace("\\\n", " "), flags=re.M)
    lexer = shlex.shlex(block, posix=True, punctuation_chars=";\n")
    lexer.whitespace, lexer.whitespace_split, lexer.commenters = " \t", True, ""
    out: list[list[str]] = []
    argv: list[str] = []
    for token in [*lexer, ";"]:
        if token.strip(";\n") == "":
            if argv:
                assert argv[0] == "handledger", argv
                out.append(argv[1:])
            argv = []
        else:
            argv.append(token)
    return out


def _evening() -> list[tuple[list[list[str]], str | None]]:
    """"Your first evening"'s ``sh`` blocks, each with the ``text`` block printed right after
    it (None where there is none)."""
    section = _readme_section("Your first evening")
    return [(_block_commands(sh), text or None) for sh, text in re.findall(
        r"```sh\n(.*?)```\n(?:\n```text\n(.*?)```)?", section, flags=re.S)]


def test_the_first_evening_runs_and_prints_as_printed(run) -> None:  # noqa: ANN001
    """Ann 200, Bob 150 and Cy 300 at 0.25 USD a chip; hand 1 (button Cy): Bob all-in for 150
    loses to Ann, 300 to Ann, so Ann 350, Bob 0, Cy 300; Bob rebuys 150; hand 2 (button Ann:
    Bob the small blind 1, Cy the big blind 2) folded to Cy, who takes 3: Ann 350, Bob 149, Cy
    301. Nets in chips: Ann +150 (37.50 USD), Bob -151 (-37.75), Cy +1 (0.25): Bob pays Ann
    37.50 and Cy 0.25. Every block's output ends with the text printed under it, the
    checkpoint line's position the ledger's (its hash and time are the run's own)."""
    blocks = _evening()
    assert len(blocks) >= 6
    said: dict[str, str] = {}
    for commands, printed in blocks:
        output = ""
        for argv in commands:
            result = run(*argv)
            assert result.exit_code == 0, (argv, result.output)
            output += result.output
            said[" ".join(argv)] = result.output
        if printed is None:
            continue
        want = printed.splitlines()
        got = output.splitlines()[-len(want):]
        if want[-1].startswith("handledger checkpoint"):
            assert re.fullmatch(r"handledger checkpoint \S+ 36:[0-9a-f]{24} \S+Z", got[-1]), got
            want, got = want[:-1], got[:-1]
        assert got == want
    assert said["act 1 d dh Cy ????"] == "6 cards_dealt; Cy to act: to call 2, raise to 4..300\n"
    assert said["act 1 Bob cbr 150"] == (
        "9 all_in; Ann to act: to call 144 (no raise: every other player is all-in)\n")
    assert said["buyin friday Bob 150 --kind rebuy"] == "friday: Bob rebuy 150 chips (entry 5)\n"
    assert run("session", "list").output == (
        "friday  2026-11-27  2 hand(s)  4 buy-in(s)  closed, settled\n")


def test_the_checkpoints_file_holds_records_that_verify_against_reads(run, db: str) -> None:  # noqa: ANN001
    """The close of the evening appends to ``LEDGER.checkpoints`` not its checkpoint line but
    one JSON record, with the whole hash, as the README says; ``verify --against FILE``
    reads it, and so does the record pasted as the argument (it was refused: neither a file
    nor POS:HASH); a damaged record pasted is one line, exit 2."""
    for commands, _ in _evening():
        for argv in commands:
            assert run(*argv).exit_code == 0, argv
            if argv[:2] == ["session", "close"]:
                break
        else:
            continue
        break
    path = Path(db + ".checkpoints")
    (line,) = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert sorted(record) == ["at", "hash", "ledger", "marks", "marks_from", "position"]
    assert (record["ledger"], record["position"], record["marks_from"]) == ("t", 36, 1)
    assert re.fullmatch(r"[0-9a-f]{64}", record["hash"])
    result = run("verify", "--against", str(path))
    assert result.exit_code == 0
    assert result.output.splitlines()[-2:] == [
        f"checkpoint {path}:1 t 36:{record['hash'][:16]}… at {record['at']}: ok: extended",
        "the ledger extends all 1 checkpoint(s)"]
    pasted = run("verify", "--against", line)
    assert (pasted.exit_code, pasted.output.splitlines()[-2:]) == (0, [
        f"checkpoint (the line given) t 36:{record['hash'][:16]}… at {record['at']}: ok: "
        "extended", "the ledger extends all 1 checkpoint(s)"])
    damaged = run("verify", "--against", json.dumps({**record, "position": "x"}))
    assert (damaged.exit_code, damaged.output) == (
        2, "error: a damaged checkpoint record\n")
    prose = " ".join(_readme_section("Your first evening").split())
    assert ("The line itself is not kept in a file. The close appends a record of the same "
            "checkpoint to `handledger.duckdb.checkpoints`, beside the ledger: one JSON object "
            "a line, with the whole hash") in prose
    assert ("`handledger verify --against handledger.duckdb.checkpoints` checks every record "
            "in it") in prose
    assert "so does one record of it pasted as `--against`'s argument" in prose


def test_a_stack_typed_wrong_is_corrected_as_printed(run) -> None:  # noqa: ANN001
    """Hand 2 started with ``Bob:15`` (150 by the books: 0 after hand 1 and 150 bought):
    the README's ``correct 2 --replace 1`` puts 150 back as the hand's next event, seq 4
    (the hand_started and two blinds before it), and moves nobody's net."""
    commands = [argv for block, _ in _evening()[:4] for argv in block]
    at = next(i for i, argv in enumerate(commands) if argv[:2] == ["hand", "start"]
              and argv[argv.index("--hand") + 1] == "2")
    for argv in commands[:at]:
        assert run(*argv).exit_code == 0, argv
    typed = [a.replace("Bob:150", "Bob:15") for a in commands[at]]
    assert typed != commands[at] and run(*typed).exit_code == 0
    section = _readme_section("A stack typed wrong")
    sh, printed = re.findall(r"```sh\n(.*?)```\n\n```text\n(.*?)```", section, flags=re.S)[0]
    (argv,) = _block_commands(sh)
    result = run(*argv)
    assert result.exit_code == 0, result.output
    assert result.output == printed == (
        "corrected hand 2 (seq 4); start: seat Bob's stack 15 → 150; change in net: none; by the "
        "rules: unchanged\n")
    assert "seat Bob's stack 15 → 150 (seq 1 was: hand_started 2)" in run("history", "2").output


def test_the_install_note_names_what_the_browser_script_installs() -> None:
    """The browser script installs its packages with apt-get as root: the README's Install
    note names each package the script installs, and says apt-get and root."""
    script = (README.parent / "scripts" / "install-browser.sh").read_text(encoding="utf-8")
    (packages,) = re.findall(r'^PACKAGES="(.*)"$', script, flags=re.M)
    note = " ".join(_readme_section("Install").split())
    assert packages.split() == ["chromium", "chromium-driver", "fonts-dejavu-core"]
    for name in packages.split():
        assert f"`{name}`" in note, name
    assert "Run as root, it installs the missing ones with `apt-get`" in note


def test_a_command_in_another_folder_says_what_the_readme_prints(tmp_path: Path) -> None:
    """README, "Where the ledger lives": run where no ``handledger.duckdb`` is, a read (and a
    write to a ledger that must be there, ``act``) prints the quoted line, exits 2 and makes no
    file; ``hand start`` makes a new ledger there."""
    import os
    import subprocess
    import sys

    section = _readme_section("Where the ledger lives")
    (printed,) = re.findall(r"```text\n(.*?)```", section, flags=re.S)
    env = {k: v for k, v in os.environ.items() if k != "HANDLEDGER_DB"}
    exe = str(Path(sys.executable).with_name("handledger"))
    for argv in (["balances"], ["act", "2", "Ann f"]):
        done = subprocess.run([exe, *argv], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", printed)
        assert list(tmp_path.iterdir()) == []
    done = subprocess.run([exe, "hand", "start", "--hand", "z", "--game", "NT", "--stakes", "1/2",
                           "--seats", "Ann:10,Bob:10", "--button", "Ann"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and (tmp_path / "handledger.duckdb").is_file()
