"""Where an import's time goes by phase, in one process as the ``import`` command runs it
(bench/PROFILE.md): ``python bench/import_phases.py FILE LEDGER [JOBS]``.

Prints, for importing FILE into a new ledger LEDGER (``replay.ingest.pipeline.import_into``,
then ``replay.projections.save_tables`` as the command's save does), the wall and CPU
seconds of the imports (start-up), the import and the save, the CPU of the worker processes
(the forkserver stopped at the end, so that its children's time is counted), and peak RSS.
Run it from a tree (``cd /tmp/base && python /path/to/import_phases.py …``) to time that
tree's code.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str]) -> None:
    t0, c0 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    import engine.evaluate  # noqa: F401  (what the command loads before it imports)
    import replay.fold  # noqa: F401
    import replay.replaying  # noqa: F401
    import replay.tables  # noqa: F401
    from ledger.store.store import Ledger
    from replay.ingest.pipeline import import_into
    from replay.projections import save_tables

    db = argv[1]
    for f in (db, f"{db}.wal"):
        if os.path.exists(f):
            os.unlink(f)
    t1, c1 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    ledger = Ledger(db)
    jobs = int(argv[2]) if len(argv) > 2 else None
    report = import_into(lambda: ledger, [Path(argv[0])], strict=False, session=None,
                         pn_ledger=None, jobs=jobs)
    t2, c2 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    how = save_tables(ledger)
    t3, c3 = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    ledger.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    from multiprocessing import forkserver

    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()
    children = _cpu(resource.RUSAGE_CHILDREN)
    print(f"{report.summary()} | tables: {how}")
    print(f"start-up {t1 - t0:.2f} s wall {c1 - c0:.2f} CPU | import {t2 - t1:.2f} wall "
          f"{c2 - c1:.2f} CPU | save {t3 - t2:.2f} wall {c3 - c2:.2f} CPU | workers "
          f"{children:.2f} CPU | total {c3 - c0 + children:.2f} CPU | peak RSS {rss:.0f} MB"
          f" | load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
