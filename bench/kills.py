"""The ``kill -9`` campaign: a command killed at a random moment leaves whole hands and whole
book entries, ``verify`` passes, and running it again gives what a clean run gives.

The script (:func:`night`) is the scripted bad night of ``data/badnight/badnight.sh`` (a
session opened, buy-ins, hands recorded live action by action, a correction, a void, an undo,
cash-outs, an amended entry, the session closed, payments, an export imported back), then
imports (a folder of JSON-lines files, one transaction each; a real PokerNow log; the real
PokerStars files; a 20 MB JSON-lines file read by two worker processes) and rebuilds of the
derived tables (``replay``, ``replay --jobs 2``, ``audit``). A clean run records the ledger
after every command (a copy of the file, and its events: stream, seq, type, payload) and what
``audit --json`` says then.

Each trial takes the ledger as it was before command ``k`` (random, weighted by the square
root of its clean duration: the long ones more often), starts the command as a
real process and sends it ``SIGKILL`` after a random part of its clean duration, then checks:

* no worker process outlived it;
* ``handledger verify`` passes;
* the events are the clean run's after command ``k`` cut somewhere at or after where they
  were before it, every hand stream whole (as before the command or as after it): only whole
  hands and book entries;
* running the command again (an import, a rebuild, or a write that did not land) completes,
  and the events then equal the clean run's after ``k``, event for event (stream, seq, type,
  payload; positions and times are not compared), and ``audit --json`` says what it said;
* for some trials (``--to-end``) the rest of the script too, ending equal to the clean run.

Run (docs/CHECKS.md reports the counts)::

    .venv/bin/python bench/kills.py --trials 120 --seed 1
    .venv/bin/python bench/kills.py --trials 60 --seed 2 --signal int   # Ctrl-C instead

With ``--signal int`` each command gets SIGINT instead and must also end "Aborted", exit 130
and nothing more on stderr, or finish as it would have (exit 0 or 1), never a traceback.

It prints the counts as JSON and exits 1 when a trial failed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
EXE = str(Path(sys.executable).with_name("handledger"))


def _sigint_as_a_terminal() -> None:
    """In the child before it runs: SIGINT back to its default, as a terminal delivers it (a
    campaign started in the background inherits it ignored, which Python would keep)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
#: Commands that may run twice and add nothing the second time (the rest, writes of one
#: event, are run again only when the first run did not land).
IDEMPOTENT = ("import", "replay", "audit", "verify", "settle", "history", "export", "balances")


# ------------------------------------------------------------------------------- the script


def badnight() -> list[list[str]]:
    """The commands of ``data/badnight/badnight.sh`` that are not refused, as argument lists."""
    out = []
    for line in (ROOT / "data" / "badnight" / "badnight.sh").read_text().splitlines():
        if not line.startswith("handledger ") or "# refused" in line:
            continue
        out.append(shlex.split(line, comments=True)[1:])
    return out


def inputs(work: Path, *, big_events: int) -> dict[str, Path]:
    """The files the imports of the script read, made in ``work``."""
    from bench import helpers as H
    from ledger.formats.jsonl import write_jsonl

    hands = work / "hands"
    hands.mkdir()
    pool = list(H.random_hands(96, seed=7, prefix="k"))
    for f in range(8):
        rows = [(e[0].hand, s, event) for e in pool[f * 12:(f + 1) * 12]
                for s, event in enumerate(e, 1)]
        (hands / f"k{f:02d}.jsonl").write_text(write_jsonl(rows), encoding="utf-8")
    out = {"hands": hands, "pokernow": SHARED / "pokernow" / "charlestudor_Input_Log_002.csv",
           "text": SHARED / "text"}
    if big_events:
        big = work / "big.jsonl"
        H.series_jsonl(big, H.series_logs(max(150, big_events // 60), seed=3), big_events)
        out["big"] = big
    return out


def night(work: Path, *, big_events: int = 150_000, short: bool = False) -> list[list[str]]:
    """The whole script (see the module doc); ``short``: the night up to its first
    correction, a folder import and the rebuilds (for the test suite)."""
    files = inputs(work, big_events=0 if short else big_events)
    script = badnight()
    if short:  # up to the first correction
        script = script[:next(i for i, a in enumerate(script) if a[0] == "correct") + 1]
    script += [["import", str(files["hands"])]]
    if not short:
        script += [["import", str(files["pokernow"])], ["import", str(files["text"])],
                   ["import", "--jobs", "2", str(files["big"])], ["replay", "--jobs", "2"]]
    script += [["replay"], ["audit", "--json"]]
    return script


# ------------------------------------------------------------------------------- running


def handledger(db: Path, args: list[str], cwd: Path, timeout: float = 600, *,
               here: bool = False) -> subprocess.CompletedProcess:
    """Run the command on ``db`` as a new process, or in this one when ``here``
    (:func:`cli.main.run`, as the console script runs it: the same output and exit status,
    without the start-up of a process) for a command whose own process is not under test."""
    if here:
        return _in_this_process(db, args, cwd)
    return subprocess.run([EXE, "--db", str(db), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def _in_this_process(db: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    from click.testing import CliRunner

    from cli.main import run

    before = os.getcwd()
    os.chdir(cwd)
    try:
        with CliRunner().isolation() as (out, err, _):
            try:
                code = run(["--db", str(db), *args])
            except SystemExit as exc:  # a command's sys.exit, as the process ends with it
                code = exc.code
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(args, code or 0, out.getvalue().decode(),
                                       err.getvalue().decode())


def events(db: Path) -> list[tuple[str, int, str, str]]:
    """(stream, seq, type, payload) of every row in position order."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT stream, seq, type, CAST(payload AS VARCHAR) FROM events"
                           " ORDER BY position").fetchall()
    finally:
        con.close()


def audit_json(db: Path, cwd: Path, *, here: bool = False) -> str:
    done = handledger(db, ["audit", "--json"], cwd, here=here)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def copy_ledger(source: Path, target: Path) -> None:
    for suffix in ("", ".wal", ".checkpoints"):
        mine = Path(f"{target}{suffix}")
        if mine.exists():
            mine.unlink()
        theirs = Path(f"{source}{suffix}")
        if theirs.exists():
            shutil.copyfile(theirs, mine)


@dataclass
class Clean:
    """The clean run: the ledger file before each command, the events and the audit after
    it, and how long it took."""

    script: list[list[str]]
    dbs: list[Path] = field(default_factory=list)
    after: list[list[tuple[str, int, str, str]]] = field(default_factory=list)
    audits: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    startup: float = 0.0  # what a command takes before it opens the ledger (about)
    #: Only the commands of ``audits`` are trials: the others, and the checks after a trial
    #: (``verify``, ``audit --json``), run in the campaign's own process.
    here: bool = False


def clean_run(script: list[list[str]], work: Path, audits: set[int] | None = None) -> Clean:
    """Run the script once, keeping a copy of the ledger before every command (and what
    ``audit --json`` says after those of ``audits``; None: after every command). With
    ``audits``, only their commands run as processes (their durations time the kills); the
    others, which no trial kills, and the audits run in this process."""
    clean = Clean(script, here=audits is not None)
    db = work / "clean.duckdb"
    handledger(db, ["init"], work, here=clean.here)
    for k, args in enumerate(script):
        keep = work / "before" / f"{k:03d}.duckdb"
        keep.parent.mkdir(exist_ok=True)
        copy_ledger(db, keep)
        clean.dbs.append(keep)
        start = time.perf_counter()
        done = handledger(db, args, work, here=clean.here and k not in audits)
        clean.seconds.append(time.perf_counter() - start)
        assert done.returncode in (0, 1), (args, done.stderr)
        clean.after.append(events(db))
        clean.audits.append(audit_json(db, work, here=clean.here)
                            if audits is None or k in audits else "")
    started = time.perf_counter()
    handledger(work / "none.duckdb", ["--version"], work)
    clean.startup = 0.9 * (time.perf_counter() - started)
    return clean


def descendants(pid: int) -> set[int]:
    """The pids of the processes under ``pid`` (from /proc: Linux)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


# ------------------------------------------------------------------------------- trials


def whole(stored: list[tuple[str, int, str, str]], before: list[tuple[str, int, str, str]],
          after: list[tuple[str, int, str, str]]) -> list[str]:
    """What is wrong with ``stored`` as the ledger after a command that killed between
    ``before`` and ``after`` (empty: nothing)."""
    problems = []
    if stored != after[: len(stored)]:
        first = next((i for i, (a, b) in enumerate(zip(stored, after, strict=False)) if a != b),
                     min(len(stored), len(after)))
        problems.append(f"not the clean run's events (they part at row {first + 1})")
    if stored[: len(before)] != before:
        problems.append("rows that were there before the command changed or went")
    counts = Counter(s for s, *_ in stored)
    was, will = Counter(s for s, *_ in before), Counter(s for s, *_ in after)
    for stream, n in counts.items():
        if not stream.startswith("session:") and n not in (was[stream], will[stream]):
            problems.append(f"hand {stream} has {n} events: neither {was[stream]} (before) nor "
                            f"{will[stream]} (after)")
    return problems


def trial(clean: Clean, k: int, rng: random.Random, work: Path, *, to_end: bool,
          sig: int = signal.SIGKILL) -> tuple[str, list[str]]:
    """Kill command ``k`` at a random moment (see the module doc): (outcome, problems).
    ``sig`` SIGINT (Ctrl-C) instead: the command must also end "Aborted" with exit 130 and
    nothing more, or finish as it would have (exit 0 or 1), never with a traceback."""
    args = clean.script[k]
    db = work / "trial.duckdb"
    copy_ledger(clean.dbs[k], db)
    before = clean.after[k - 1] if k else []
    start = min(clean.startup, clean.seconds[k])  # before it, nothing is open: kill later
    delay = start + (clean.seconds[k] - start) * rng.uniform(0.0, 1.05)
    proc = subprocess.Popen([EXE, "--db", str(db), *args], cwd=work,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_sigint_as_a_terminal)
    time.sleep(delay)
    helpers = descendants(proc.pid)
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=600)
    problems = [] if sig == signal.SIGKILL else interrupted(proc.returncode, err)
    deadline = time.monotonic() + 20
    while helpers & descendants(1) and time.monotonic() < deadline:
        time.sleep(0.1)
    if helpers & descendants(1):
        problems.append("worker processes outlived the killed command")
    verified = handledger(db, ["verify"], work, here=clean.here)
    if verified.returncode != 0 or not verified.stdout.startswith("ok: "):
        problems.append(f"verify: {verified.stdout.strip()} {verified.stderr.strip()}")
    stored = events(db)
    problems += whole(stored, before, clean.after[k])
    outcome = ("finished" if not killed else "nothing written" if stored == before
               else "all written" if stored == clean.after[k] else "part written")
    if killed and sig != signal.SIGKILL:
        outcome = f"exit {proc.returncode}, {outcome}"
    landed = stored == clean.after[k]
    if args[0] in IDEMPOTENT or not landed:
        again = handledger(db, args, work)
        if again.returncode not in (0, 1):
            problems.append(f"the re-run failed: {again.stderr.strip()[:300]}")
    if events(db) != clean.after[k]:
        problems.append("after the re-run: not the clean run's events")
    if audit_json(db, work, here=clean.here) != clean.audits[k]:
        problems.append("after the re-run: audit --json differs from the clean run's")
    if to_end and not problems:
        problems += the_rest(clean, k, db, work)
    return outcome, problems


def interrupted(code: int, err: str) -> list[str]:
    """What is wrong with how a command given SIGINT ended (exit ``code``, stderr ``err``).
    Ended by the signal itself (``-SIGINT``, silent) is a SIGINT met before Python set up its
    handler, when nothing is open yet: a terminal's Ctrl-C does the same."""
    if code == -signal.SIGINT and not err.strip():
        return []
    if "Traceback" in err or code not in (0, 1, 2, 130):
        return [f"exit {code} after SIGINT: {err.strip()[-300:]}"]
    if code == 130 and err.strip().splitlines()[-1:] != ["Aborted"]:
        return [f"interrupted without 'Aborted': {err.strip()[-300:]}"]
    return []


def the_rest(clean: Clean, k: int, db: Path, work: Path) -> list[str]:
    """Run the script after command ``k`` on ``db``: what differs from the clean run."""
    for later in clean.script[k + 1:]:
        done = handledger(db, later, work)
        if done.returncode not in (0, 1):
            return [f"{later[0]} after the re-run: {done.stderr.strip()[:300]}"]
    if events(db) != clean.after[-1]:
        return ["the rest of the script ended apart from the clean run"]
    return []


@dataclass
class Night:
    """The script and its clean run, shared by campaigns over the same night
    (:func:`prepare`); ``audited``: the commands after which the clean run kept what
    ``audit --json`` said (None: after every one)."""

    script: list[list[str]]
    clean: Clean
    audited: set[int] | None
    work: Path


def first_of(script: list[list[str]], name: str) -> int:
    """The index of the first command of ``script`` starting with ``name`` (``act``,
    ``import``, ``session open`` …).

    Raises:
        StopIteration: no command starts so.
    """
    return next(k for k, a in enumerate(script) if " ".join(a).startswith(name))


def prepare(work: Path, *, short: bool = False, big_events: int = 150_000,
            targets: list[str] | None = None) -> Night:
    """The script (:func:`night`) and its clean run in ``work``; ``targets``: the audits kept
    only after the first command of each of these names (enough for trials of them)."""
    script = night(work, short=short, big_events=big_events)
    audited = None if targets is None else {first_of(script, name) for name in targets}
    clean = clean_run(script, work, audited)
    print(f"clean run: {len(script)} commands, {sum(clean.seconds):.0f} s", file=sys.stderr,
          flush=True)
    return Night(script, clean, audited, work)


def campaign(trials: int, seed: int, work: Path, *, short: bool = False, to_end: float = 0.1,
             targets: list[str] | None = None, sig: int = signal.SIGKILL,
             big_events: int = 150_000, prepared: Night | None = None
             ) -> tuple[Counter[str], list[str]]:
    """The clean run, then ``trials`` trials: counts and failures. The command killed is a
    random one, the long ones more often (the square root of the clean run's seconds);
    ``targets``: the first command of each of these
    names (``act``, ``import``, ``session open`` …), in turn. ``prepared``: a night already
    run cleanly (:func:`prepare`), whose audits cover ``targets``; its ``work`` is used.

    Raises:
        ValueError: ``prepared`` kept no audit after a target's command.
    """
    rng = random.Random(seed)
    done = prepared or prepare(work, short=short, big_events=big_events, targets=targets)
    script, clean, work = done.script, done.clean, done.work
    chosen = None if targets is None else [first_of(script, name) for name in targets]
    if chosen is not None and done.audited is not None and not set(chosen) <= done.audited:
        raise ValueError(f"the clean run kept no audit after commands "
                         f"{sorted(set(chosen) - done.audited)}")
    weights = [max(s, 0.3) ** 0.5 for s in clean.seconds]
    counts: Counter[str] = Counter()
    failures: list[str] = []
    for t in range(trials):
        k = chosen[t % len(chosen)] if chosen else rng.choices(range(len(script)), weights)[0]
        outcome, problems = trial(clean, k, rng, work, to_end=rng.random() < to_end, sig=sig)
        kind = script[k][0] if script[k][0] not in ("session", "hand", "entry") else \
            " ".join(script[k][:2])
        counts["trials"] += 1
        counts["killed"] += outcome != "finished"
        counts[f"outcome:{outcome}"] += 1
        counts[f"command:{kind}"] += 1
        if problems:
            failures.append(f"trial {t}, command {k} {script[k][:3]}: {'; '.join(problems)}")
        print(f"trial {t}: command {k} {script[k][0]}: {outcome}"
              f"{'; FAILED: ' + '; '.join(problems) if problems else ''}", file=sys.stderr,
              flush=True)
    counts["script_commands"] = len(script)
    return counts, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--to-end", type=float, default=0.1,
                        help="the share of trials that also run the rest of the script")
    parser.add_argument("--big-events", type=int, default=150_000,
                        help="events of the JSON-lines file imported with workers")
    parser.add_argument("--signal", choices=["kill", "int"], default="kill",
                        help="SIGKILL (kill -9, the default) or SIGINT (Ctrl-C)")
    options = parser.parse_args(argv)
    sig = signal.SIGINT if options.signal == "int" else signal.SIGKILL
    with tempfile.TemporaryDirectory() as tmp:
        counts, failures = campaign(options.trials, options.seed, Path(tmp),
                                    to_end=options.to_end, sig=sig,
                                    big_events=options.big_events)
    print(json.dumps(dict(sorted(counts.items())), indent=1))
    for line in failures:
        print("FAILED", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
