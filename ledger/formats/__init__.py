"""Hand-history file formats read and written: JSON lines, PHH, PokerNow.

Imports ledger.model and engine.games (variant codes); never the store.
"""
