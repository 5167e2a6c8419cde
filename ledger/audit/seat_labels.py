"""Seat labels are not players: a PHH file without ``players`` names its seats ``p1 … pN``,
left of the button first (FORMATS.md §1), so the ``p3`` of one hand of no session is whoever
sat third from the button there, not the ``p3`` of another hand, site or file. The books list
no such label as a player (``balances``, ``standings``, ``report``, ``settle``): their rows
stay in the derived tables, and count where the nets must sum to zero (``balances``' nets sum,
``standings``' ``(sum)``, where their seats' nets added up are a row ``(seat labels)`` of
their own), but they are never added up as one player nor ranked; one line says so
(:func:`seat_label_note`).

The label is known by its name alone: a seat a file's ``players`` names ``p1`` (``players =
['p2', 'p1', 'Cy']``) is a label too in a hand of no session, as the note says.

A person is never named so outside a file's labels: ``hand start --seats``, ``buyin`` and
``player alias`` refuse a seat's ``pN`` (README, "Bad input"). In a session a buy-in may take
such a name once a hand imported into it seats it, and its books make him a player there: only
hands of no session have seat labels.
"""

from __future__ import annotations

from typing import Any

#: SQL: a row of ``player_session_results`` (or ``results``) whose player is a seat label.
SEAT_LABEL = "(session IS NULL AND regexp_full_match(player, 'p[1-9][0-9]*'))"


def seat_label_of(table: str) -> str:
    """:data:`SEAT_LABEL` of the rows of the table named ``table`` in a query (``r``)."""
    return (f"({table}.session IS NULL AND regexp_full_match({table}.player, "
            "'p[1-9][0-9]*'))")


def seat_label_hands(con: Any, session: str | None) -> int:
    """The hands of no session that seat players by seat label, read when ``session`` is None
    (the whole series: a session's books have none)."""
    if session is not None:
        return 0
    row = con.execute(f"SELECT count(DISTINCT hand_id) FROM results WHERE {SEAT_LABEL}"
                      ).fetchone()
    return int(row[0]) if row else 0


def seat_label_note(hands: int, summed: str = "nets") -> list[str]:
    """The one line saying that ``hands`` hands of no session seat players by seat label, who
    are left out of the players listed, and where their chips are counted (none when ``hands``
    is 0): ``summed`` ``"nets"``, in the players' nets sum (``balances``: its `the players'
    nets sum to` line, :func:`ledger.audit.player_balances.unbalanced`), ``"row"``, on the
    row ``(seat labels)`` and in ``(sum)`` (``standings``)."""
    if not hands:
        return []
    where = ("their nets are the row (seat labels), counted in (sum)" if summed == "row" else
             "their nets count in the players' nets sum")
    return [f"note: {hands} hand(s) of no session seat a name of the form p1 … pN: outside a "
            "session such a name is a seat label, whether the file names no player or its "
            "players list gives the name (FORMATS.md §1): a label is not a player, so those "
            f"seats are not listed above; {where}"]
