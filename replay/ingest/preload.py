"""What every worker process of a parallel import uses, loaded once in the process they are
forked from (:func:`replay.ingest.parallel.warm_up`), so that no worker loads it again: the
readers, the engine, the derived tables' replay, and the evaluator's high ranking, which it
reads at its first showdown (pokerkit's answers, a snapshot: engine/ranks/high.json) and the
forked workers then share.
"""

from __future__ import annotations

from engine.evaluate import best_high
from engine.games import game
from replay.ingest import derived, parts  # noqa: F401  (loaded for the workers)

best_high(game("NT"), ["As", "Ks"], ["Qs", "Js", "Ts"])  # reads the high ranking
