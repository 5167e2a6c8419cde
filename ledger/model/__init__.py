"""The event model at the bottom of every layer: events, errors, units.

Imports pydantic and the standard library only; every other package may import it.
"""
