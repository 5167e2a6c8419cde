"""The bank: whoever holds a session's buy-ins, with whom ``settle`` settles the chips a
correction after the chips moved on left in no player's net (a changed start: the later
starts and cash-outs took chips the books no longer give; docs/CORRECTIONS.md "A correction
after the chips moved on"), and the payments recorded with it (``pay SESSION PLAYER bank
AMOUNT``, a :class:`ledger.model.events.Payment` with ``bank``), which it nets off. Reads
only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg

#: How ``pay`` names the bank on one side of a payment (the event's payer or payee None,
#: ``bank`` set), as ``rake`` names the house.
BANK_WORD = "bank"

#: The sessions holding a payment with the bank (retracted or not: the books say which
#: stand), their names from the stream (``session:NAME``).
_WITH_BANK = """
SELECT DISTINCT substr(stream, 9) FROM events
WHERE type = 'payment' AND stream LIKE 'session:%' AND payload->>'bank' = 'true'
  AND ($1 IS NULL OR stream = 'session:' || $1)
ORDER BY 1
"""

#: ``(session, player, amount)``: minor units of the session's money, positive what the player
#: pays the bank (or paid it), negative what the bank pays him (or paid him).
BankLine = tuple[str, str, int]


class BankBooks(NamedTuple):
    """What ``settle`` says with the bank (:func:`bank_books`): ``standing`` the lines still
    to pay, the chips in no player's net less the payments recorded with the bank; ``paid``
    per player what those payments come to (net: he paid it, less what it paid him)."""

    standing: list[BankLine]
    paid: list[BankLine]


def owed_to_bank(late: Iterable[Any], units: Mapping[str, int],
                 players: Mapping[str, str]) -> dict[tuple[str, str], int]:
    """``{(session, player): minor units}`` the chips each late correction
    (:class:`replay.late_corrections.LateCorrection`) left in no player's net (its
    ``unheld``) are worth, positive what the player pays the bank; ``units``: minor units a
    chip of each session is worth; ``players``: the alias map
    (:func:`replay.sessions.state.series_names`), each player under the name he settles by."""
    owed: dict[tuple[str, str], int] = {}
    for c in late:
        for p, n in c.unheld:
            key = (c.session, players.get(p, p))
            owed[key] = owed.get(key, 0) - n * units[c.session]
    return owed


def with_bank(ledger: Any, session: str | None) -> list[str]:
    """The sessions (of ``session`` only, unless None) that hold a payment with the bank,
    retracted or not (one query of the payments' rows: about 80 ms of a 3.5-million-row
    ledger holding 4,278 payments, the payload read)."""
    return [name for (name,) in ledger.connection.execute(_WITH_BANK, [session]).fetchall()]


def paid_to_bank(ledger: Any, sessions: Iterable[str],
                 players: Mapping[str, str]) -> dict[tuple[str, str], int]:
    """``{(session, player): minor units}`` the payments with the bank in force in
    ``sessions`` (:func:`with_bank`) come to, corrections applied: positive what the player
    paid the bank, less what it paid him; ``players`` as for :func:`owed_to_bank`."""
    from replay.sessions.state import session_state

    paid: dict[tuple[str, str], int] = {}
    for name in sessions:
        for by, to, minor in session_state(ledger, name, players=players).bank_payments:
            who, sign = (by, 1) if by is not None else (to, -1)
            key = (name, players.get(who, who))
            paid[key] = paid.get(key, 0) + sign * minor
    return paid


def bank_books(ledger: Any, late: Iterable[Any], units: Mapping[str, int],
               session: str | None = None) -> BankBooks:
    """The lines ``settle`` gives with the bank in ``session`` (None: every session): the
    chips ``late`` left in no player's net (:func:`owed_to_bank`) less the payments recorded
    with the bank (:func:`paid_to_bank`), each nonzero line in order of the corrections, then
    of the sessions paid; and what those payments come to per player."""
    from replay.sessions.state import series_names

    late = list(late)
    paying = with_bank(ledger, session)
    if not late and not paying:  # every ledger before such a correction: no names read
        return BankBooks([], [])
    players = series_names(ledger)
    owed = owed_to_bank(late, units, players)
    paid = paid_to_bank(ledger, paying, players)
    keys = list(dict.fromkeys([*owed, *paid]))
    standing = [(s, p, n) for s, p in keys if (n := owed.get((s, p), 0) - paid.get((s, p), 0))]
    return BankBooks(standing, [(s, p, n) for (s, p), n in paid.items() if n])


def beyond_bank(ledger: Any, session: str, state: Any, by: str | None, to: str | None,
                minor: int, where: str, *, replacing: int = 0) -> LedgerError | None:
    """Why a payment of ``minor`` units from ``by`` to ``to`` with the bank (None the bank's
    side) in ``session`` is more than is owed, the refusal ``pay`` gives without
    ``--more-than-owed``, or None when it is not: a player pays the bank at most what
    ``settle``'s bank line has him pay, the bank pays a player at most what it has it pay
    him (:func:`bank_books`). ``state``: the session's books
    (:class:`replay.sessions.state.SessionState`); ``replacing``: the amount of the payment
    an amendment replaces."""
    from replay.late_corrections import late_corrections
    from replay.sessions.state import alias_group, series_names

    players = series_names(ledger)
    player = by if by is not None else to
    assert player is not None  # a payment names a player on one side at least
    me = players.get(player, player)
    late = late_corrections(ledger, session)
    line = owed_to_bank(late, {session: state.chip_value_minor}, players).get((session, me), 0)
    group = alias_group(ledger, player)
    paid = sum(m for b, _, m in state.bank_payments if b in group)
    received = sum(m for _, t, m in state.bank_payments if t in group)
    paid, received = (paid - replacing, received) if by is not None else (
        paid, received - replacing)
    owes = line - paid + received  # what he still pays the bank (negative: it pays him)
    can = max(0, owes if by is not None else -owes)
    if minor <= can:
        return None
    money = state.money
    debt = (f"{player} still owes the bank" if by is not None else
            f"the bank still owes {player}")
    chips = (f"for the chips in no player's net {player} pays the bank {money(line)}"
             if line > 0 else
             f"for the chips in no player's net the bank pays {player} {money(-line)}"
             if line else f"no chips of {player}'s are in no player's net")
    return LedgerError(
        f"{where}: {money(minor)} is more than {debt} in {session} ({money(can)}: {chips}; "
        f"{player} paid the bank {money(paid)} and was paid {money(received)} by it); nothing "
        f"written (`handledger settle --session {shell_arg(session)}` says who pays whom); "
        "--more-than-owed records it anyway")
