"""The tamper matrix: a ledger file changed behind handledger's back, each kind many times at
random places, and what ``verify``, ``verify --against`` its checkpoints, ``audit`` and
``settle`` say about it in real processes.

The ledger: ``data/hands``, ``data/series`` and ``data/declare`` imported, audited (its derived
tables in the file), checkpointed after each import (``<ledger>.checkpoints``, the last
checkpoint signed with an Ed25519 key). Each trial takes a fresh copy and changes it as a
forger with the file, DuckDB and the public row hash would (:data:`KINDS`):

* the chain broken (``edit``, ``delete``, ``insert``, ``reorder`` a row, ``head`` moved,
  ``bytes`` of the file garbled): plain ``verify`` exits 1 naming the first bad position
  (garbled bytes: exit 1 in one line naming the damaged block, or exit 0 with the same head
  when they changed no byte);
* the chain made again (``rewrite`` a payload, ``cut`` a hand out, ``swap`` two hands, each
  with every later hash and the recorded head redone): plain ``verify`` exits 1 (the derived
  tables were built from the rows before), ``verify --against`` the checkpoints exits 1 naming
  the first position where the ledger parts from them, and a pasted ``POS:HASH`` of the last
  one exits 1; a ``rollback`` to an older copy, a different ledger (``other``): their
  tables are their rows', but plain ``verify`` fails on the ledger's checkpoints file beside
  it (a checkpoint it does not extend), and ``--against`` fails as above;
* a ``forged`` payment appended with a right hash: it extends every checkpoint, so both pass
  (a checkpoint anchors what came before it), and ``verify --against`` names the rows after
  the latest checkpoint, which none vouches for;
* ``derived`` tables edited (findings deleted, nets moved, results, pots or hands emptied):
  ``audit --json`` and ``settle --session s01 --json`` say what they said before, and
  ``verify`` exits 1;
* the same edits ``resealed`` (the tables' digest computed again), or a view redefined: the
  reads trust them, ``verify`` replays the events and exits 1;
* a ``signed`` checkpoint altered (its position and hash, its hash, time, ledger
  name or signature): plain ``verify`` (the file beside the ledger) and ``verify
  --against`` exit 1.

Every command must print no traceback. Run (bench/RESULTS.md; docs/CHECKS.md reports the
counts)::

    .venv/bin/python bench/tamper.py --rounds 20 --seed 1

It prints the counts as JSON and exits 1 when a trial broke its kind's rule.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb  # noqa: E402

from ledger.store.chain import row_hash  # noqa: E402
from ledger.store.store import COLUMNS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXE = str(Path(sys.executable).with_name("handledger"))
SERIES = ROOT / "data" / "series"
NAMES = [c.strip() for c in COLUMNS.split(",")]
Row = tuple[Any, ...]


@dataclass
class Expect:
    """What the commands must say of one tampered copy: ``verify``'s exit status (None: 0 or
    1) and the position its first line names (``broken at position P``); ``against``: the exit
    status of ``verify --against`` the checkpoints and the position it names; ``books``:
    ``audit`` and ``settle`` say what they said before."""

    verify: int | None = 1
    broken_at: int | None = None
    against: int | None = None
    parts_at: int | None = None
    after_head: int | None = None  #: a rollback: the ledger's head, before the checkpoint
    books: bool = False


@dataclass
class Template:
    """The pristine ledger, its checkpoints, older copies of it (rows, path) and another
    ledger; ``audit`` and ``settle`` as they were."""

    db: Path
    older: list[tuple[int, Path]]
    other: Path
    keys: Path
    audit: str
    settle: str
    head: str


# ------------------------------------------------------------------------------- the file


def handledger(db: Path, *args: str, keys: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "HANDLEDGER_NO_WAIT": "1"}
    if keys is not None:
        env["HANDLEDGER_KEYS"] = str(keys)
    return subprocess.run([EXE, "--db", str(db), *args], capture_output=True, text=True,
                          timeout=600, env=env)


def stored(db: Path) -> list[Row]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(f"SELECT {COLUMNS} FROM events ORDER BY position").fetchall()


def relinked(rows: list[Row], prev_hash: str) -> list[Row]:
    """``rows`` with ``prev_hash`` and ``hash`` recomputed, the first linked to ``prev_hash``."""
    out = []
    for row in rows:
        digest = row_hash(prev_hash, **dict(zip(NAMES[:10], row[:10], strict=True)))
        out.append((*row[:10], prev_hash, digest))
        prev_hash = digest
    return out


def write_rows(db: Path, rows: list[Row], start: int, *, relink: bool, head: bool) -> None:
    """Replace every row from ``start`` on with ``rows`` (relinked to the row before
    ``start`` when ``relink``) and record the last as the head (``head``)."""
    with duckdb.connect(str(db)) as con:
        before = con.execute("SELECT hash FROM events WHERE position = ?", [start - 1]
                             ).fetchone()
        out = relinked(rows, before[0] if before else "0" * 64) if relink else rows
        con.execute("DELETE FROM events WHERE position >= ?", [start])
        appender = con.appender("events")
        appender.append_rows(out)
        appender.flush()
        if head and out:
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_position'",
                        [str(out[-1][0])])
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", [out[-1][11]])


def renumbered(rows: list[Row], first: int) -> list[Row]:
    return [(first + i, *r[1:]) for i, r in enumerate(rows)]


def hand_blocks(rows: list[Row]) -> list[tuple[int, int]]:
    """(first, last) positions of each hand whose rows stand together."""
    spans: dict[str, list[int]] = {}
    for r in rows:
        if not r[1].startswith("session:"):
            spans.setdefault(r[1], []).append(r[0])
    return [(p[0], p[-1]) for p in spans.values() if p[-1] - p[0] + 1 == len(p)]


# ------------------------------------------------------------------------------- the kinds


def edit(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    p = rng.randint(1, len(rows))
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE events SET payload = replace(CAST(payload AS VARCHAR), '{', '{ ')"
                    " WHERE position = ?", [p])
    return Expect(broken_at=p)


def delete(rng: random.Random, db: Path, t: Template) -> Expect:
    p = rng.randint(1, len(stored(db)) - 1)
    with duckdb.connect(str(db)) as con:
        con.execute("DELETE FROM events WHERE position = ?", [p])
    return Expect(broken_at=p)


def insert(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    p, copied = rng.randint(2, len(rows)), rng.randint(1, len(rows))
    copy = list(rows[copied - 1])
    copy[0], copy[4] = p, 10_000 + copy[4]  # a seq its stream does not have
    write_rows(db, [tuple(copy), *renumbered(rows[p - 1:], p + 1)], p, relink=False,
               head=False)
    return Expect(broken_at=p)


def reorder(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    p = rng.randint(1, len(rows) - 1)
    a, b = rows[p - 1], rows[p]
    write_rows(db, [(p, *b[1:]), (p + 1, *a[1:]), *rows[p + 1:]], p, relink=False, head=False)
    return Expect(broken_at=p)


def head(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    other = rows[rng.randrange(len(rows) - 1)]
    with duckdb.connect(str(db)) as con:
        if rng.random() < 0.5:
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'", [other[11]])
        else:
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_position'",
                        [str(other[0])])
    return Expect()


def garble(rng: random.Random, db: Path, t: Template) -> Expect:
    data = bytearray(db.read_bytes())
    for _ in range(rng.randint(1, 64)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    db.write_bytes(bytes(data))
    return Expect(verify=None)


def rewrite(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    p = rng.randint(1, len(rows))
    row = list(rows[p - 1])
    row[7] = row[7].replace("{", "{ ", 1)
    write_rows(db, [tuple(row), *rows[p:]], p, relink=True, head=True)
    return Expect(verify=1, against=1, parts_at=p)


def cut(rng: random.Random, db: Path, t: Template) -> Expect:
    """One of the last ten hands deleted, every later row moved up and relinked."""
    rows = stored(db)
    first, last = rng.choice(hand_blocks(rows)[-10:])
    kept = renumbered(rows[last:], first)
    write_rows(db, kept, first, relink=True, head=True)
    if not kept:  # the hand was the last rows: the head moves back to the row before
        with duckdb.connect(str(db)) as con:
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_position'",
                        [str(first - 1)])
            con.execute("UPDATE meta SET value = ? WHERE key = 'head_hash'",
                        [rows[first - 2][11]])
        return Expect(verify=1, against=1, after_head=first - 1)  # no row left at first
    return Expect(verify=1, against=1, parts_at=first)


def swap(rng: random.Random, db: Path, t: Template) -> Expect:
    rows = stored(db)
    blocks = hand_blocks(rows)
    i = rng.randrange(len(blocks) - 1)
    j = rng.randrange(i + 1, len(blocks))
    (a1, a2), (b1, b2) = blocks[i], blocks[j]
    order = rows[b1 - 1:b2] + rows[a2:b1 - 1] + rows[a1 - 1:a2] + rows[b2:]
    write_rows(db, renumbered(order, a1), a1, relink=True, head=True)
    return Expect(verify=1, against=1, parts_at=a1)


def rollback(rng: random.Random, db: Path, t: Template) -> Expect:
    rows, older = rng.choice(t.older)
    shutil.copy(older, db)
    return Expect(verify=1, against=1, after_head=rows)


def other(rng: random.Random, db: Path, t: Template) -> Expect:
    shutil.copy(t.other, db)
    return Expect(verify=1, against=1, parts_at=1)


def forged(rng: random.Random, db: Path, t: Template) -> Expect:
    """A payment appended with a right hash: it extends the checkpoints (both pass)."""
    rows = stored(db)
    last = rows[-1]
    with duckdb.connect(str(db), read_only=True) as con:
        session, seq = con.execute("SELECT session, max(seq) FROM events WHERE stream LIKE "
                                   "'session:%' GROUP BY session ORDER BY random() LIMIT 1"
                                   ).fetchone()
    payload = json.dumps({"amount_minor": rng.randint(1, 10_000), "payee": "Alice",
                          "payer": "Bob", "reason": None, "schema_version": 1,
                          "type": "payment"},
                         separators=(",", ":"), sort_keys=True)
    row = (last[0] + 1, f"session:{session}", None, session, seq + 1, "payment", 1, payload,
           last[8], None, last[11], "")
    write_rows(db, [row], last[0] + 1, relink=True, head=True)
    return Expect(verify=0, against=0)


DERIVED = [
    ["DELETE FROM audit_discrepancies"],
    ["UPDATE session_players SET net = net + 500, cash_out = cash_out + 500 WHERE player = "
     "(SELECT min(player) FROM session_players)"],
    ["UPDATE session_players SET net = net + 500 WHERE player = (SELECT min(player) FROM "
     "session_players)", "UPDATE session_players SET net = net - 500 WHERE player = "
     "(SELECT max(player) FROM session_players)"],
    ["DELETE FROM results WHERE hand_id IN (SELECT hand_id FROM hands LIMIT 5)"],
    ["UPDATE results SET net = net + 7, awarded = awarded + 7"],
    ["DELETE FROM pots"],
    ["UPDATE hands SET status = 'ok'"],
    ["DELETE FROM session_book"],
]


def derived(rng: random.Random, db: Path, t: Template) -> Expect:
    """Derived tables edited: their digest no longer matches, so the reads compute them again
    from the events (the books unchanged) and ``verify`` names the first row that differs."""
    with duckdb.connect(str(db)) as con:
        for statement in rng.choice(DERIVED):
            con.execute(statement)
    return Expect(verify=1, books=True)


def resealed(rng: random.Random, db: Path, t: Template) -> Expect:
    """Derived tables edited and their digest computed again (anyone with the file can), or a
    view the reads query redefined (no digest covers the views): the reads trust them, so
    ``audit`` or ``settle`` may say otherwise; ``verify`` replays the events and fails."""
    from ledger.audit.tables import tables_digest

    with duckdb.connect(str(db)) as con:
        if rng.random() < 0.2:
            (sql,), = con.execute("SELECT sql FROM duckdb_views() WHERE view_name ="
                                  " 'player_session_results'").fetchall()
            con.execute(sql.replace("CREATE VIEW", "CREATE OR REPLACE VIEW")
                        .replace("p.net,", "-p.net AS net,", 1))
        else:
            for statement in rng.choice(DERIVED):
                con.execute(statement)
            con.execute("UPDATE derived_state SET value = ? WHERE key = 'digest'",
                        [tables_digest(con)])
    return Expect(verify=1)


def signed(rng: random.Random, db: Path, t: Template) -> Expect:
    path = Path(f"{db}.checkpoints")
    *kept, last = path.read_text().splitlines()
    record = json.loads(last)
    rows = stored(db)
    field = rng.choice(["position", "hash", "at", "ledger", "signature"])
    if field == "position":  # a real earlier head, signed as if it were this one
        earlier = rows[rng.randrange(len(rows) - 1)]
        record["position"], record["hash"] = earlier[0], earlier[11]
        record.pop("marks", None)
        record.pop("marks_from", None)
    elif field == "at":
        record["at"] = "2026-01-01T00:00:00Z"
    elif field == "ledger":
        record["ledger"] = "saturday"
    elif field == "hash":  # an earlier head's hash under this position
        record["hash"] = rows[rng.randrange(len(rows) - 1)][11]
    else:
        s = record["signature"]
        k = rng.randrange(len(s) - 2)  # not the last characters: their low bits are padding
        record["signature"] = s[:k] + ("B" if s[k] == "A" else "A") + s[k + 1:]
    path.write_text("\n".join([*kept, json.dumps(record)]) + "\n")
    return Expect(verify=1, against=1)


KINDS: dict[str, Callable[[random.Random, Path, Template], Expect]] = {
    "edit": edit, "delete": delete, "insert": insert, "reorder": reorder, "head": head,
    "bytes": garble, "rewrite": rewrite, "cut": cut, "swap": swap, "rollback": rollback,
    "other": other, "forged": forged, "derived": derived, "resealed": resealed,
    "signed": signed,
}


# ------------------------------------------------------------------------------- trials


def template(work: Path, series: Path = SERIES) -> Template:
    """The ledger of the module doc, its older copies and another ledger, in ``work``;
    ``series``: the series imported (the folder, or one of its files: a smaller ledger)."""
    keys = work / "keys"
    db = work / "friday.duckdb"
    older = []
    for folder in ("hands", "series", "declare"):
        done = handledger(db, "import", str(series if folder == "series" else
                                            ROOT / "data" / folder))
        assert done.returncode == 0, done.stderr
        if folder == "declare":
            assert handledger(db, "key", "new", "host", keys=keys).returncode == 0
        assert handledger(db, "checkpoint", *(["--sign", "host"] if folder == "declare" else []),
                          keys=keys).returncode == 0
        if folder != "declare":
            copy = work / f"older-{folder}.duckdb"
            shutil.copy(db, copy)
            older.append((len(stored(copy)), copy))
    audit = handledger(db, "audit", "--json")
    assert audit.returncode in (0, 1), audit.stderr
    settle = handledger(db, "settle", "--session", "s01", "--json")
    assert settle.returncode == 0, settle.stderr
    verified = handledger(db, "verify")
    assert verified.returncode == 0, verified.stderr
    other_db = work / "other.duckdb"
    assert handledger(other_db, "import", str(series)).returncode == 0
    return Template(db, older, other_db, keys, audit.stdout, settle.stdout,
                    verified.stdout.splitlines()[0])


class Checker:
    """The commands run on one tampered copy, the counts they add to and the rules they
    broke (``problems``, in words)."""

    def __init__(self, kind: str, db: Path, t: Template, counts: Counter[str]) -> None:
        self.kind, self.db, self.t, self.counts = kind, db, t, counts
        self.problems: list[str] = []

    def ran(self, *args: str) -> subprocess.CompletedProcess:
        done = handledger(self.db, *args, keys=self.t.keys)
        if "Traceback" in done.stderr or "Traceback" in done.stdout:
            self.problems.append(f"{args[0]}: a traceback: {done.stderr.strip()[-300:]}")
            self.counts["tracebacks"] += 1
        if done.returncode not in (0, 1, 2):
            self.problems.append(f"{args[0]}: exit {done.returncode}")
        return done

    def verify(self, expect: Expect) -> None:
        done = self.ran("verify")
        self.counts[f"{self.kind}:verify:exit:{done.returncode}"] += 1
        lines = (done.stdout + done.stderr).strip().splitlines()
        if expect.verify is None:  # garbled bytes: caught in one line, or they hit no data
            if done.returncode == 0 and lines[:1] != [self.t.head]:
                self.problems.append(f"verify passed with another head: {lines[:1]}")
            if done.returncode != 0 and len(lines) != 1:
                self.problems.append(f"verify said {len(lines)} lines")
        elif done.returncode != expect.verify:
            self.problems.append(f"verify exit {done.returncode}, not {expect.verify}: "
                                 f"{lines[:1]}")
        if expect.broken_at is not None:
            named = bool(lines) and lines[0].startswith(
                f"broken at position {expect.broken_at}:")
            self.counts[f"{self.kind}:named"] += named
            if not named:
                self.problems.append(f"verify did not name position {expect.broken_at}: "
                                     f"{lines[:1]}")

    def against(self, expect: Expect) -> None:
        done = self.ran("verify", "--against", f"{self.db}.checkpoints")
        self.counts[f"{self.kind}:against:exit:{done.returncode}"] += 1
        if done.returncode != expect.against:
            self.problems.append(f"verify --against exit {done.returncode}, not "
                                 f"{expect.against}: {done.stdout.strip()[-300:]}")
        if expect.parts_at is not None or expect.after_head is not None:
            last = done.stdout.strip().splitlines()[-1:]
            said = ("the ledger parts from its checkpoints "
                    + (f"at position {expect.parts_at}" if expect.after_head is None else
                       f"after its head (position {expect.after_head})"))
            named = bool(last) and (last[0] == said or last[0].startswith(said + " (")
                                    or last[0].startswith(said + ": "))
            self.counts[f"{self.kind}:named"] += named
            if not named:
                self.problems.append(f"--against did not say: {said}: {last}")
        if self.kind == "forged":  # it extends them, and the rows after them are named
            last = done.stdout.strip().splitlines()[-1:]
            named = bool(last) and "which none vouches for: " in last[0]  # and their kinds
            self.counts[f"{self.kind}:named"] += named
            if not named:
                self.problems.append(f"--against did not name the rows after: {last}")
        if expect.against == 1 and self.kind != "signed":  # the head pasted from the chat
            record = json.loads(Path(f"{self.t.db}.checkpoints").read_text().splitlines()[-1])
            pasted = self.ran("verify", "--against", f"{record['position']}:{record['hash']}")
            self.counts[f"{self.kind}:pasted:exit:{pasted.returncode}"] += 1
            if pasted.returncode != 1:
                self.problems.append(f"a pasted head: exit {pasted.returncode}")

    def books(self) -> None:
        audit = self.ran("audit", "--json")
        settle = self.ran("settle", "--session", "s01", "--json")
        same = audit.stdout == self.t.audit and settle.stdout == self.t.settle
        self.counts[f"{self.kind}:books_unchanged"] += same
        if not same:
            self.problems.append("audit or settle changed")


def check(kind: str, expect: Expect, db: Path, t: Template, counts: Counter[str]) -> list[str]:
    """Run the commands on the tampered copy ``db``; the broken rules, in words."""
    checker = Checker(kind, db, t, counts)
    checker.verify(expect)
    if expect.against is not None:
        checker.against(expect)
    if expect.books:
        checker.books()
    return checker.problems


def campaign(rounds: int, seed: int, work: Path, kinds: list[str], series: Path = SERIES
             ) -> tuple[Counter[str], list[str]]:
    """``rounds`` rounds of a trial of each of ``kinds`` on copies of :func:`template`'s
    ledger (``series`` imported): the counts and the broken rules, in words."""
    rng = random.Random(seed)
    t = template(work, series)
    counts: Counter[str] = Counter()
    failures: list[str] = []
    trial = work / "trial"
    for r in range(rounds):
        for kind in kinds:
            shutil.rmtree(trial, ignore_errors=True)
            trial.mkdir()
            db = trial / t.db.name
            shutil.copy(t.db, db)
            shutil.copy(f"{t.db}.checkpoints", f"{db}.checkpoints")
            expect = KINDS[kind](rng, db, t)
            problems = check(kind, expect, db, t, counts)
            counts["trials"] += 1
            counts[f"{kind}:trials"] += 1
            if problems:
                failures.append(f"round {r}, {kind}: {'; '.join(problems)}")
        print(f"round {r}: {counts['trials']} trials, {len(failures)} failed", file=sys.stderr,
              flush=True)
    counts.setdefault("tracebacks", 0)
    return counts, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="trials of each kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        counts, failures = campaign(options.rounds, options.seed, Path(tmp),
                                    options.kinds.split(","))
    print(json.dumps({"seed": options.seed, **dict(sorted(counts.items()))}, indent=1))
    for line in failures:
        print("FAILED", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
