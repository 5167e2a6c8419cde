"""The books (sessions folded with replayed hands), the audit checks in one registry
(``checks.REGISTRY``) run batch or streamed, settle-up, SQL views.

Imports ledger.model and ledger.store; never the engine or the application.
"""
