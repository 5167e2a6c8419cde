"""PokerStars text files: is reading time linear in the file's size?

    python bench/pokerstars_scaling.py [--sizes 1000 10000] [--runs 3] [--json]

Builds one text file per size (in a temporary folder, removed afterwards) by repeating the 184
real hands of ``../shared/data/text`` in order, each copy with a new hand number (so every
hand is a new hand to the ledger), written as UTF-8. For each file it times, as medians of
``--runs`` runs, with the garbage collector paused as ``handledger import`` pauses it for each
file (:mod:`ledger.model.gcpause`): ``read`` — :func:`ledger.formats.pokerstars.read_pokerstars`
(decoding, cutting into hands, every line read, the PHH hands built); ``read_check`` — the
same plus :func:`replay.build.events_from_phh` on every hand (the engine's check an import
makes before it writes anything). Each is timed in wall time and in this process's CPU time
(on a shared machine the wall time follows the load: the load average is printed). It prints
hands per second and ``per_hand_ratio``: the CPU time per hand of each size over that of the
smallest (about 1.0 everywhere when the time is linear in the size).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import helpers as H  # noqa: E402
from ledger.formats.pokerstars import read_pokerstars  # noqa: E402
from ledger.formats.pokerstars.text import decode, split_hands  # noqa: E402
from ledger.model.gcpause import gc_paused  # noqa: E402
from replay.build import events_from_phh  # noqa: E402

TEXT = Path(__file__).resolve().parents[2] / "shared" / "data" / "text"
_NUMBER = re.compile(r"#\d+:")


def real_hands() -> list[list[str]]:
    """The lines of every real hand, file by file, in file order."""
    out = []
    for path in sorted(TEXT.glob("*.txt")):
        text, _ = decode(path.read_bytes())
        out.extend(list(hand.lines) for hand in split_hands(text)[0])
    return out


def write_file(path: Path, hands: list[list[str]], total: int) -> None:
    """``total`` hands: the real ones over and over, hand numbers 90000000001, 90000000002, …"""
    with path.open("w", encoding="utf-8") as out:
        for i in range(total):
            lines = list(hands[i % len(hands)])
            lines[0] = _NUMBER.sub(f"#{90_000_000_001 + i}:", lines[0], count=1)
            out.write("\n".join(lines) + "\n\n\n")


def measure(sizes: list[int], runs: int) -> dict[str, object]:
    hands = real_hands()
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = Path(tmp) / f"stars-{size}.txt"
            write_file(path, hands, size)
            parsed = read_pokerstars(path)
            assert len(parsed.hands) == size and not parsed.errors, parsed.errors[:1]

            def read(path: Path = path) -> None:
                with gc_paused():
                    read_pokerstars(path)

            def read_check(path: Path = path) -> None:
                with gc_paused():
                    for hand in read_pokerstars(path).hands:
                        events_from_phh(hand)

            row: dict[str, float] = {"hands": size, "bytes": path.stat().st_size}
            for key, fn in (("read", read), ("read_check", read_check)):
                wall, cpu = H.median_wall_cpu(fn, runs)
                row.update({f"{key}_s": round(wall, 3), f"{key}_cpu_s": round(cpu, 3),
                            f"{key}_hands_per_s": round(size / wall),
                            f"{key}_cpu_hands_per_s": round(size / cpu)})
            rows.append(row)
    base = rows[0]
    for row in rows:
        for key in ("read", "read_check"):
            per_hand = row[f"{key}_cpu_s"] / row["hands"]
            row[f"{key}_per_hand_ratio"] = round(per_hand / (base[f"{key}_cpu_s"]
                                                             / base["hands"]), 2)
    return {"real_hands": len(hands), "runs": runs, "load_average": os.getloadavg()[0],
            "sizes": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(sorted(args.sizes), args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average {result['load_average']:.1f} (wall times suffer from it, CPU times "
          "much less)")
    for row in result["sizes"]:  # type: ignore[union-attr]
        print(f"{row['hands']:>7,} hands ({row['bytes'] / 1e6:.1f} MB): "
              f"read {row['read_cpu_hands_per_s']:,} hands/s CPU ({row['read_hands_per_s']:,} "
              f"wall), per hand ×{row['read_per_hand_ratio']}; read + engine check "
              f"{row['read_check_cpu_hands_per_s']:,} hands/s CPU "
              f"({row['read_check_hands_per_s']:,} wall), per hand "
              f"×{row['read_check_per_hand_ratio']}")


if __name__ == "__main__":
    main()
