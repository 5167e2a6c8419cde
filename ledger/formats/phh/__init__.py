"""PHH, the poker hand history format (FORMATS.md §1) with this project's extensions.

Imports ledger.model and engine.games; never the store.
"""
