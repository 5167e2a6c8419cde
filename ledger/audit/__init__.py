"""The books: sessions folded with replayed hands, the named audit checks, settle-up, SQL views.

Imports ledger.model and ledger.store; never the engine or the application.
"""
