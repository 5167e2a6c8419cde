"""PokerNow's game logs and ledger statements (FORMATS.md §2).

Imports ledger.model and engine.games; never the store.
"""
