"""The rules (RULES.md): the hand state machine, betting, dealing, pots, evaluation, awards,
declare.

Imports ledger.model only (and pokerkit inside its evaluation seam, engine/evaluate.py).
"""
