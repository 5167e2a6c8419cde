"""Where the time goes, from py-spy samples (``bench/PROFILE.md`` has the commands).

``python bench/spy.py ours DB N``: run :func:`bench.run.ours` (what ``replay`` computes) N
times on the ledger DB, to be sampled by ``py-spy record -f raw -o OUT -- python …``.

``python bench/spy.py summary replay|import OUT [FRAME]``: the samples of OUT (py-spy's raw
format: one stack a line, frames ``function (file:line)`` joined by ``;``, then a count) by
category, in per cent; FRAME keeps only the stacks through a frame holding that text (e.g.
``"ours ("``). A stack under an import is start-up; otherwise its innermost frame that matches
a category names it (an evaluation inside settling is evaluation). Compiled code (tomli,
pydantic-core, DuckDB) has no frames of its own: it counts for its Python caller.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

REPLAY = [
    ("evaluation (engine/evaluate.py, pokerkit)", ("engine/evaluate.py", "pokerkit/")),
    ("settle: pots, awards, explanations (engine)",
     ("engine/settle.py", "engine/pots.py", "engine/awards.py", "engine/explain",
      "engine/declare")),
    ("state machine (engine/)", ("engine/",)),
    ("parse payloads (pydantic, ledger/store/streams.parse_events)", ("parse_events",)),
    ("derived tables (replay/tables.py)", ("replay/tables.py",)),
    ("streaming audit (ledger/audit)", ("ledger/audit/",)),
    ("render JSON (cli)", ("json/", "cli/")),
    ("compare with what was paid (replay/compare.py)", ("replay/compare.py",)),
    ("fold glue (replay/fold.py)", ("replay/fold.py",)),
    ("read the ledger (DuckDB)", ("raw_hand_streams", "duckdb", "ledger/store")),
    ("projections (replay/projections.py)", ("replay/projections.py",)),
]
IMPORT = [
    ("reading: TOML (tomli, compiled: its time shows in _read_plain)", ("_read_plain (",)),
    ("reading: layout scan", ("formats/phh/scan.py",)),
    ("reading: fields, ids, source keys (formats/phh)", ("formats/phh/",)),
    ("engine check (replay/build.py events_from_phh)", ("events_from_phh",)),
    ("append: serialise events (chain.prepare_batch)", ("prepare_batch",)),
    ("append: hash chain (chain.link_rows)", ("link_rows",)),
    ("append: DuckDB insert, commit (ledger/store)", ("ledger/store/",)),
    ("pipeline (replay/ingest)", ("replay/ingest/",)),
]


def category(frames: list[str], rules: list[tuple[str, tuple[str, ...]]]) -> str:
    """The category of one sampled stack (outermost frame first)."""
    if any("_find_and_load" in f for f in frames):
        return "start-up: imports"
    for frame in reversed(frames):
        for name, marks in rules:
            if any(mark in frame for mark in marks):
                return name
    return "other: " + (frames[-1][:60] if frames else "")


def summary(path: Path, rules: list[tuple[str, tuple[str, ...]]], through: str | None = None
            ) -> tuple[int, list[tuple[str, float]]]:
    """(samples, [(category, per cent)], largest first) of a py-spy raw file."""
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if through and not any(through in f for f in frames):
            continue
        total += int(n)
        counts[category(frames, rules)] += int(n)
    return total, [(k, round(100 * v / total, 1)) for k, v in counts.most_common()]


def main(argv: list[str]) -> None:
    if argv[0] == "ours":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import pokerkit  # noqa: F401  (imported first, as bench/run.py does)

        from bench.run import ours

        for _ in range(int(argv[2])):
            ours(Path(argv[1]))
        return
    rules = REPLAY if argv[1] == "replay" else IMPORT
    total, rows = summary(Path(argv[2]), rules, argv[3] if len(argv) > 3 else None)
    for name, share in rows[:14]:
        print(f"{share:5.1f} %  {name}")
    print(f"{total} samples")


if __name__ == "__main__":
    main(sys.argv[1:])
