"""The append-only, hash-chained DuckDB event store.

Also the checkpoints that anchor the chain outside the file (checkpoint, anchor) and the
Ed25519 keys that sign them and corrections (keys, signing). Imports ledger.model, duckdb and
cryptography; never the engine, the formats, the audit or the application.
"""
