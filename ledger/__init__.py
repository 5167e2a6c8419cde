"""The ledger's lower rooms: ``model`` (events, errors, money), ``store`` (DuckDB, hash chain),
``formats`` (file formats), ``audit`` (the books). See each subpackage for what it may import.
"""
