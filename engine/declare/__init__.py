"""High-low declaration (RULES.md §3): order of declaring, judging swings, splitting pots.

Part of the engine: imports engine and ledger.model only.
"""
