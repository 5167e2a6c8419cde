"""The rules (RULES.md): the hand state machine, betting, dealing, pots, evaluation, awards,
declare.

Imports ledger.model only (and pokerkit inside its evaluation seam, engine/evaluate.py, and
the generator of that seam's snapshot of pokerkit's rankings, engine/rank_tables.py).

Its modules are compiled by mypyc when installed on a machine with a C compiler; ``COMPILED``
says whether the compiled ones run (engine/_compiled.py: an edited source, or
``HANDLEDGER_PURE=1``, runs the Python sources).
"""

from pathlib import Path as _Path

from engine._compiled import choose as _choose

#: True when the engine's modules run compiled (engine/_compiled.py).
COMPILED: bool = _choose(__name__, _Path(__file__).parent)
