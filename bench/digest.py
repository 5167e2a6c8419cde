"""What the derived tables' digest costs a read: ``python bench/digest.py LEDGER [--runs N]``.

Every read compares the digest of the derived tables (row count and sum of row hashes per
table: :func:`ledger.audit.tables.tables_digest`) with the one saved beside them, so that a
table edited outside handledger is never trusted (:func:`ledger.audit.catchup.moved`). This
times, on a ledger whose tables are saved (run ``handledger replay`` on it first), the digest
alone, the whole freshness check, and ``handledger audit`` as a separate process (its wall time
with the check), each the median of ``--runs``; the tables' row counts are printed beside them.
It opens the ledger read-only and prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb  # noqa: E402

from bench import helpers as H  # noqa: E402
from ledger.audit.catchup import moved  # noqa: E402
from ledger.audit.tables import DERIVED, tables_digest  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ledger")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    con = duckdb.connect(args.ledger, read_only=True)
    plan = moved(con)
    if not plan.fresh:
        sys.exit(f"the derived tables of {args.ledger} are not saved as of its head "
                 f"({plan.full or 'sessions moved'}): run `handledger replay` on it first")
    present = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    rows = {name: con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            for name in DERIVED if name in present}
    digest_s, digest_cpu_s = H.median_wall_cpu(lambda: tables_digest(con), args.runs)
    check_s, check_cpu_s = H.median_wall_cpu(lambda: moved(con), args.runs)
    hands = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    con.close()
    command = [str(Path(sys.executable).parent / "handledger"), "--db", args.ledger, "audit"]
    audit_s, _ = H.median_wall_cpu(
        lambda: subprocess.run(command, stdout=subprocess.DEVNULL, check=False), args.runs)
    print(json.dumps({
        "hands": hands, "rows": rows, "digest_s": round(digest_s, 3),
        "digest_cpu_s": round(digest_cpu_s, 3), "fresh_check_s": round(check_s, 3),
        "fresh_check_cpu_s": round(check_cpu_s, 3), "audit_warm_s": round(audit_s, 3),
        "load": os.getloadavg()[0],
    }, indent=1))


if __name__ == "__main__":
    main()
