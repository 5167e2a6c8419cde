"""The bad-input campaign: no traceback on any input, and nothing but whole hands written.

Three parts, each a count of tries and of failures (a failure is any broken property, listed):

* **files** (:func:`import_campaign`): mutated PHH, JSON-lines, PokerNow and PokerStars files
  (:mod:`bench.mutations`) each imported into one ledger per format, as the ``handledger``
  command runs (:func:`cli.main.run` in this process, every ``--every``-th file and every
  file that is not a plain file name in a real ``handledger import`` process). Each import
  must exit 0 or 2 with stderr lines that are all ``error: …`` lines (at least one on exit 2),
  or ``warning: FILE:LINE: hand H: … (stored; the audit reports it)`` lines of a hand H the
  ledger holds after the import, and no traceback; what it wrote must be whole hands (a new
  hand stream from
  ``hand_started`` to ``hand_ended`` or ``hand_voided``; a stored hand only completed by a
  correction) and session entries, after a head that did not move; the chain verifies.
* **arguments** (:func:`argument_campaign`): every command with odd arguments (amounts beyond
  2**53 - 1, not numbers, negative; names with bytes that are not UTF-8, empty, very long;
  actions nested 1,000 deep …) on a ledger with a session and a live hand: exit 0, 1 or 2,
  the same stderr rule (and ``player alias``'s warnings of a new name), and the chain still
  verifies.
* **ledgers** (:func:`ledger_campaign`): a small ledger file damaged (bytes flipped, zeroed,
  cut) and read by ``verify``, ``show``, ``balances``, ``sql`` and ``import`` in real processes:
  exit 0, 1 or 2, one line, never a traceback or a crash.

Run (documented in bench/RESULTS.md; docs/CHECKS.md reports the counts)::

    .venv/bin/python bench/fuzz.py --files 10000 --args 3000 --ledgers 200 --seed 1

It prints the counts as JSON and exits 1 when anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import mutations as M  # noqa: E402

EXE = str(Path(sys.executable).with_name("handledger"))
#: What a line on stderr may be (anything else, a traceback above all, is a failure).
OK_PREFIXES = ("error: ", "note: ", "waiting for the ledger ", "warning: ")
#: A warning line: a finding about a hand the import stored (FORMATS.md §2); group 1 the hand.
WARNING = re.compile(r"warning: .+?:\d+: hand (\S+): .+ \(stored; the audit reports it\)")
#: The warning of ``player alias NAME OTHER`` that NAME is a new name (OTHER renamed).
RENAMED = re.compile(r"warning: .+ is no player in the ledger yet: .+ is named .+ everywhere "
                     r"now \(balances, standings, the audit\)")
#: The warning of ``player alias NAME OTHER`` that OTHER is a name the ledger holds nowhere.
NEW_OTHER = re.compile(r"warning: .+ is no name in the ledger yet: a hand, book entry or import "
                       r"naming .+ counts as .+'s from now on \(a typo is ended with "
                       r"`handledger player unalias .+ --reason … --by …`\)")


# ------------------------------------------------------------------------------- running


def run_here(args: list[str]) -> tuple[int, str, str, BaseException | None]:
    """``handledger ARGS`` in this process, as the command runs it: (exit status, stdout,
    stderr, the exception that escaped, if any)."""
    from click.testing import CliRunner

    from cli.main import run

    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            code = run(args)
            escaped = None
        except SystemExit as exc:
            code, escaped = (exc.code if isinstance(exc.code, int) else 1), None
        except BaseException as exc:  # the property under test: nothing escapes  # noqa: BLE001
            code, escaped = -1, exc
        return code, out.getvalue().decode("utf-8", "replace"), \
            err.getvalue().decode("utf-8", "replace"), escaped


def run_process(args: list[str], timeout: float = 120) -> tuple[int, str, str, None]:
    """``handledger ARGS`` as a real process (stdout and stderr as text)."""
    proc = subprocess.run([EXE, *args], capture_output=True, timeout=timeout)
    return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"), None)


def output_problems(code: int, out: str, err: str, escaped: BaseException | None,
                    codes: tuple[int, ...]) -> list[str]:
    """What is wrong with one command's outcome (empty: nothing)."""
    problems = []
    if escaped is not None:
        problems.append(f"exception {type(escaped).__name__}: {escaped}")
    if code not in codes:
        problems.append(f"exit {code}")
    if "Traceback" in out + err:
        problems.append("traceback: " + err.strip().splitlines()[-1][:200] if err.strip()
                        else "traceback")
    lines = err.strip().splitlines()
    odd = [line for line in lines if not line.startswith(OK_PREFIXES)
           or (line.startswith("warning: ") and not WARNING.fullmatch(line)
               and not RENAMED.fullmatch(line) and not NEW_OTHER.fullmatch(line))]
    if odd:
        problems.append(f"stderr line {odd[0][:200]!r}")
    if code == 2 and not any(line.startswith("error: ") for line in lines):
        problems.append("exit 2 without an error line")
    return problems


def warned_hands(err: str) -> list[str]:
    """The hands that the ``warning:`` lines of ``err`` say were stored."""
    return [m.group(1) for m in map(WARNING.fullmatch, err.splitlines()) if m]


# ------------------------------------------------------------------------------- the ledger


class Watch:
    """What a ledger held before a command, to check what the command added."""

    def __init__(self, db: Path, *, whole_hands: bool = True) -> None:
        self.db = db
        self.whole_hands = whole_hands  # False: commands that record a hand action by action
        self.count, self.head, self.seqs = 0, None, {}

    def read(self, after: int) -> tuple[str | None, list[tuple[Any, ...]]]:
        """The hash of the row at position ``after`` (None at 0, "gone" when it is not
        there) and the rows after it, in one read-only connection."""
        import duckdb

        if not self.db.exists():
            return (None if not after else "gone"), []
        con = duckdb.connect(str(self.db), read_only=True)
        try:
            row = con.execute("SELECT hash FROM events WHERE position = ?", [after]).fetchone()
            rows = con.execute("SELECT position, stream, hand_id, seq, type, hash FROM events"
                               " WHERE position > ? ORDER BY position", [after]).fetchall()
        finally:
            con.close()
        return (None if not after else row[0] if row else "gone"), rows

    def check(self) -> list[str]:
        """The problems with the rows added since the last check (then remember them)."""
        problems = []
        head, new = self.read(self.count)
        if head != self.head:
            problems.append(f"the row at the old head {self.count} changed")
        if new and new[0][0] != self.count + 1:
            problems.append(f"rows before the old head {self.count} changed")
        streams: dict[str, list[tuple[Any, ...]]] = {}
        for row in new:
            streams.setdefault(row[1], []).append(row)
        for stream, rows in streams.items():
            types = [r[4] for r in rows]
            if rows[0][2] is None or not self.whole_hands:  # a session stream: each row an entry
                continue
            if stream in self.seqs:
                if types[0] != "correction":
                    problems.append(f"stored hand {stream} got {types} appended")
            elif types[0] != "hand_started" or types[-1] not in ("hand_ended", "hand_voided"):
                problems.append(f"hand {stream} written in part: {types[:3]}…{types[-2:]}")
        for row in new:
            self.seqs[row[1]] = row[3]
        if new:
            self.count, self.head = new[-1][0], new[-1][5]
        return problems

    def verify(self) -> list[str]:
        from ledger.store.store import Ledger

        if not self.db.exists():
            return []
        with Ledger(self.db, read_only=True) as ledger:
            report = ledger.verify()
        return [] if report.ok else [f"verify: {report.problem} at {report.first_bad}"]


# ------------------------------------------------------------------------------- files


def mutated(n: int, seed: int, out: Path, formats: tuple[str, ...] = M.FORMATS,
            kinds: tuple[str, ...] | None = None) -> Iterator[M.Mutated]:
    """``n`` mutated files, one at a time (each removed when the next is made)."""
    rng = random.Random(seed)
    seeds = M.Seeds()
    kinds = kinds or tuple(M.MUTATORS)
    for i in range(n):
        fmt = formats[i % len(formats)]
        base, suffix = seeds.valid(rng, fmt, f"z{seed}-{i}")
        kind = rng.choice(kinds)
        path = out / f"f{i:05d}{suffix}"
        path.write_bytes(M.mutate(rng, base, fmt, kind))
        item = M.file_kind(rng, M.Mutated(path, fmt, kind))
        yield item
        if item.path.is_symlink() or item.path.exists():
            item.path.unlink()


def import_campaign(n: int, seed: int, out: Path, *, every: int = 20,
                    formats: tuple[str, ...] = M.FORMATS, kinds: tuple[str, ...] | None = None,
                    verify_every: int = 250) -> tuple[Counter[str], list[str]]:
    """Import ``n`` mutated files (see the module doc); the counts (tried, by format, kind
    and outcome: accepted, rejected, partly: some hands in, some refused) and the failures."""
    counts: Counter[str] = Counter()
    failures: list[str] = []
    watches = {fmt: Watch(out / f"{fmt}.duckdb") for fmt in formats}
    for i, item in enumerate(mutated(n, seed, out, formats, kinds)):
        watch = watches[item.fmt]
        args = ["--db", str(watch.db), "import", str(item.path)]
        real = i % every == 0 or item.kind in ("name", "dev_zero", "pipe")
        code, stdout, stderr, escaped = (run_process if real else run_here)(args)
        problems = output_problems(code, stdout, stderr, escaped, (0, 2)) + watch.check()
        problems += [f"a warning of hand {hand}, which the ledger does not hold"
                     for hand in warned_hands(stderr) if hand not in watch.seqs]
        if (i + 1) % verify_every == 0:
            problems += [p for w in watches.values() for p in w.verify()]
        outcome = "failed" if problems else "accepted" if code == 0 else (
            "partly" if "imported 0 hand" not in stdout else "rejected")
        if problems:
            failures.append(f"{item.fmt}/{item.kind} {item.path.name} "
                            f"({'process' if real else 'in-process'}): {'; '.join(problems)}")
            keep = out / "failed"
            keep.mkdir(exist_ok=True)
            if item.path.is_file() and not item.path.is_symlink():
                shutil.copy(item.path, keep / f"{i:05d}-{item.kind}{item.path.suffix}")
        counts["tried"] += 1
        counts["processes"] += real
        counts[outcome] += 1
        if counts["tried"] % 500 == 0:
            print(f"files: {counts['tried']} tried, {len(failures)} failed", file=sys.stderr,
                  flush=True)
        counts[f"{item.fmt}:{outcome}"] += 1
        counts[f"kind:{item.kind}:{outcome}"] += 1
    for w in watches.values():
        failures += w.verify()
    return counts, failures


# ------------------------------------------------------------------------------- arguments


_AMOUNTS = ["1", "0", "-1", "5", "150", "9007199254740991", "9007199254740992",
            "18014398509481982", "1e30", "1e21", "1e23", "NaN", "inf", "1.5", "0.001",
            "99999999999999999999999", "0x10", "", " 5 ", "٣", "1_000", "-0"]
_NAMES = ["fri", "Ann", "Bob", "Cy", "B\udcffb", "\udcff", "", " ", "x" * 400, "a:b",
          "session:fri", "🂡", "p1", "-", "Ann Bob", "h1", "nosuch", "\u00e9"]
_GAMES = ["NT", "FT", "F7S", "PO", "FO/8", "XX", "", "NT" * 50]
_SQL = ["SELECT 1", "SELECT * FROM range(100000)", "DELETE FROM events", "SELECT 1; SELECT 2",
        "SELECT * FROM read_csv('/etc/hostname')", "SELECT (", "", "SELECT '\udcff'",
        "SELECT " + "(" * 1000 + "1" + ")" * 1000, "SELECT repeat('x', 10000000)",
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT * FROM r"]


def _action(rng: random.Random) -> str:
    who = rng.choice(["Ann", "Bob", "Cy", "p1", "p2", "Zed", "B\udcffb"])
    roll = rng.random()
    if roll < 0.15:
        return "{" + '"a":' * rng.choice([1, 40, 1000]) + "1" + "}" * rng.choice([0, 1, 40])
    if roll < 0.25:
        return "[" * rng.choice([10, 1000])
    if roll < 0.35:
        return json.dumps({"type": rng.choice(["check", "bet_raise", "recorded_payout"]),
                           "player": who, "to": rng.choice([1, 2**53, -5]),
                           "amount": rng.choice([1, 2**60])})
    verb = rng.choice(["cbr", "cc", "f", "sm", "pay", "returned", "end", "dcl", "d dh",
                       "d db", "cbr", "cbr"])
    if verb in ("pay", "returned"):
        return f"{verb} {who} {rng.choice(_AMOUNTS)}"
    if verb == "end":
        return "end"
    if verb.startswith("d "):
        return f"{verb} {who} {rng.choice(['AsKd', 'Xx', '??', '7c2d8h', ''])}"
    return f"{who} {verb} {rng.choice(_AMOUNTS) if verb == 'cbr' else ''}".strip()


def random_command(rng: random.Random, hands: list[str]) -> list[str]:
    """One command line of odd arguments."""
    a, n, h = (lambda: rng.choice(_AMOUNTS)), (lambda: rng.choice(_NAMES)), (
        lambda: rng.choice(hands + ["nosuch", "B\udcffb"]))
    seq = lambda: rng.choice(["1", "2", "3", "0", "-1", "99999999999", "x"])  # noqa: E731
    s = lambda: rng.choice(["fri", "fri", "nosuch", "B\udcffb", ""])  # noqa: E731
    seats = lambda: rng.choice([  # noqa: E731
        "Ann:200,Bob:150", f"Ann:{a()},Bob:{a()}", "Ann:1e30,Bob:5", "Ann:5", "Ann:5,Ann:5",
        f"{n()}:100,{n()}:100", ":", ""])
    choices = [
        ["buyin", s(), n(), a()], ["buyin", s(), n(), a(), "--kind", "rebuy"],
        ["cashout", s(), n(), a()], ["pay", s(), n(), n(), a()],
        ["pay", s(), n(), n(), a(), "--again"],
        ["session", "open", n(), "--chip-value", a()], ["session", "open", n(), "--date", n()],
        ["session", "set", s(), "--chip-value", a(), "--currency",
         rng.choice(["USD", "JPY", n()])],
        ["session", "close", s()], ["session", "list"], ["player", "alias", n(), n()],
        ["hand", "start", "--game", rng.choice(_GAMES), "--stakes", rng.choice(
            ["1/2", f"1/{a()}", "2/1", "", "1/2/4/8/16/32/64/128/256/512/1024"]),
         "--seats", seats(), "--button", n(), "--hand", n()],
        ["hand", "start", "--game", "NT", "--stakes", "1/2", "--seats", seats(), "--button",
         "Bob", "--antes", rng.choice(["0", "1", "9007199254740992", "-3"]),
         "--min-bet", rng.choice(["2", "99999999999999999999"])],
        ["act", h(), _action(rng)], ["act", h(), _action(rng)], ["act", h(), _action(rng)],
        ["state", h()], ["show", h()], ["show", h(), "--at", seq()], ["history", h()],
        ["whatif", h(), "--replace", seq(), _action(rng)],
        ["whatif", h(), "--insert-after", seq(), _action(rng)], ["whatif", h(), "--delete", seq()],
        ["correct", h(), "--replace", seq(), _action(rng), "--reason", n(), "--by", n()],
        ["void", h(), "--reason", n(), "--by", n()], ["undo", h(), "--by", n()],
        ["entry", "amend", s(), seq(), a(), "--reason", n(), "--by", n()],
        ["entry", "retract", s(), seq(), "--reason", n(), "--by", n()],
        ["history", "--session", s()], ["sql", rng.choice(_SQL)],
        ["sql", "--max-rows", rng.choice(["1", "0", "-1", "x"]), rng.choice(_SQL)],
        ["sql", "--timeout", rng.choice(["0.2", "0", "-1", "nan"]), rng.choice(_SQL)],
        ["export", "--format", rng.choice(["jsonl", "phh", "xml"]), h()],
        ["verify", "--against", rng.choice(["1:abc", "0:" + "0" * 64, "/dev/zero", "x" * 300,
                                            "99999999999999999999:ab"])],
        ["balances", "--session", s()], ["balances", "--money"], ["settle", "--session", s()],
        ["audit", "--session", s()], ["standings", "--money"], ["checkpoint", "--json"],
        ["key", "show", n()], ["replay", "--hand", h()],
    ]
    return rng.choice(choices)


def argument_campaign(n: int, seed: int, out: Path, *, every: int = 25
                      ) -> tuple[Counter[str], list[str]]:
    """``n`` commands of odd arguments (see the module doc); counts and failures."""
    rng = random.Random(seed)
    db = out / "args.duckdb"
    keys = out / "keys"
    setup = [["session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"],
             ["buyin", "fri", "Ann", "200"], ["buyin", "fri", "Bob", "150"],
             ["buyin", "fri", "Cy", "300"],
             ["hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT", "--stakes",
              "1/2", "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy"],
             ["act", "h1", "d dh Ann AsKs"], ["act", "h1", "d dh Bob QhQd"],
             ["act", "h1", "d dh Cy 7c2d"]]
    for args in setup:
        code, _, err, _ = run_here(["--db", str(db), *args])
        assert code == 0, (args, err)
    hands = ["h1"]
    counts: Counter[str] = Counter()
    failures: list[str] = []
    watch = Watch(db, whole_hands=False)
    watch.check()
    os.environ["HANDLEDGER_KEYS"] = str(keys)
    for i in range(n):
        args = random_command(rng, hands)
        real = i % every == 0
        full = ["--db", str(db), *args]
        try:
            code, stdout, stderr, escaped = (run_process if real else run_here)(full)
        except subprocess.TimeoutExpired:
            code, stdout, stderr, escaped = -9, "", "timed out", None
        problems = output_problems(code, stdout, stderr, escaped, (0, 1, 2)) + watch.check()
        if args[:2] == ["hand", "start"] and code == 0:
            hands.append(stdout.strip().splitlines()[-1])
        if problems:
            shown = [a.encode("utf-8", "backslashreplace").decode()[:80] for a in args]
            failures.append(f"{shown} ({'process' if real else 'in-process'}): "
                            f"{'; '.join(problems)}")
        counts["tried"] += 1
        counts["processes"] += real
        counts[f"exit:{code}"] += 1
        if counts["tried"] % 500 == 0:
            print(f"arguments: {counts['tried']} tried, {len(failures)} failed", file=sys.stderr,
                  flush=True)
        counts[f"command:{args[0]}"] += 1
    failures += watch.verify()
    return counts, failures


# ------------------------------------------------------------------------------- ledgers


def ledger_campaign(n: int, seed: int, out: Path) -> tuple[Counter[str], list[str]]:
    """``n`` damaged copies of a small ledger, each read by five commands in real processes
    (see the module doc); counts and failures."""
    rng = random.Random(seed)
    good = out / "good.duckdb"
    series = M.SERIES / "s01.jsonl"
    code, _, err, _ = run_process(["--db", str(good), "import", str(series)])
    assert code == 0, err
    data = good.read_bytes()
    counts: Counter[str] = Counter()
    failures: list[str] = []
    commands = [["verify"], ["show", "s01-001"], ["balances"],
                ["sql", "SELECT count(*) FROM events"], ["import", str(series)]]
    for i in range(n):
        damaged = bytearray(data)
        how = rng.choice(["flip", "zero", "cut", "flip", "block"])
        if how == "flip":
            for _ in range(rng.randint(1, 50)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        elif how == "zero":
            start = rng.randrange(len(damaged))
            damaged[start:start + rng.randint(1, 8192)] = bytes(min(8192, len(damaged) - start))
        elif how == "cut":
            del damaged[rng.randrange(len(damaged)):]
        else:  # a whole 256 kB block of garbage
            start = rng.randrange(0, len(damaged), 262144)
            damaged[start:start + 262144] = os.urandom(min(262144, len(damaged) - start))
        db = out / f"d{i}.duckdb"
        db.write_bytes(bytes(damaged))
        for args in commands:
            try:
                code, stdout, stderr, _ = run_process(["--db", str(db), *args], timeout=120)
            except subprocess.TimeoutExpired:
                code, stdout, stderr = -9, "", "timed out"
            problems = output_problems(code, stdout, stderr, None, (0, 1, 2))
            if problems:
                failures.append(f"{how} copy {i}, {args[0]}: {'; '.join(problems)}")
            counts["tried"] += 1
            counts[f"{args[0]}:exit:{code}"] += 1
        for leftover in out.glob(f"d{i}.duckdb*"):
            leftover.unlink()
    return counts, failures


# ------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000, help="mutated files to import")
    parser.add_argument("--args", type=int, default=500, help="commands of odd arguments")
    parser.add_argument("--ledgers", type=int, default=20, help="damaged ledger files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=20,
                        help="every N-th file or command in a real process (default 20)")
    options = parser.parse_args(argv)
    report: dict[str, Any] = {"seed": options.seed}
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for name, part, count in (("files", import_campaign, options.files),
                                  ("arguments", argument_campaign, options.args),
                                  ("ledgers", ledger_campaign, options.ledgers)):
            if not count:
                continue
            where = out / name
            where.mkdir()
            extra = {"every": options.every} if name != "ledgers" else {}
            counts, failed = part(count, options.seed, where, **extra)  # type: ignore[operator]
            report[name] = dict(sorted(counts.items()))
            report[f"{name}_failed"] = len(failed)
            failures += failed
    print(json.dumps(report, indent=1))
    for line in failures:
        print("FAILED", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
