"""A generated demo series of sessions, dealt through the engine.

Part of the application: imports any layer below; never cli.
"""
