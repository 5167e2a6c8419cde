"""The append-only, hash-chained DuckDB event store.

Imports ledger.model and duckdb; never the engine, the formats, the audit or the application.
"""
