"""Importing files into the ledger and exporting them: readers, checks, the append.

Part of the application: imports any layer below; never cli.
"""
