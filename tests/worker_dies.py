"""Work handed to a replay's worker process that kills that process (as ``kill -9`` or the
system out of memory would), for tests/test_replay_worker_died.py; run in the test's own
process it does the real work."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

from replay import ranges, replaying

_RANGE = ranges.replay_range  # the real work, taken before a test puts these in its place
_CHUNK = replaying.replay_chunk


def _in_worker() -> bool:
    return multiprocessing.parent_process() is not None


def replay_range(*args: Any) -> Any:
    if _in_worker():
        os._exit(9)
    return _RANGE(*args)


def replay_chunk(*args: Any) -> Any:
    if _in_worker():
        os._exit(9)
    return _CHUNK(*args)
