"""The ``handledger`` command (click): each command parses its arguments, calls one function of
the layers below and renders the result (text, JSON, a chart). Nothing below imports it.
"""
