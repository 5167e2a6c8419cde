"""Amounts of the session commands as typed: whole chips for a buy-in or cash-out
(:func:`chips_written`), money in the session's currency for a payment (:func:`money_written`)
and for a chip's value (:func:`chip_value_written`), each within the ledger's bound. Chips are
integers; money is kept as integer minor units (:mod:`ledger.model.money`).
"""

from __future__ import annotations

from ledger.model import events as ev
from ledger.model.errors import MalformedInput
from ledger.model.money import (
    currency_decimals,
    format_money,
    parse_money,
    plain_money,
    shown_amount,
    within_bound,
)
from replay.sessions.state import SessionState


def chip_value_written(text: str, currency: str | None, decimals: int | None
                       ) -> tuple[int, int]:
    """``(minor units a chip is worth, decimals)`` of ``--chip-value`` as typed: money as a
    payment is written (:func:`ledger.model.money.plain_money`: ASCII digits, one optional
    decimal point), above 0, with at most ``decimals`` places (None: the currency's ISO 4217
    minor units, :func:`ledger.model.money.currency_decimals`; without a currency, those
    written) and within the ledger's bound.

    >>> chip_value_written("0.25", "USD", None), chip_value_written("0.050", None, None)
    ((25, 2), (50, 3))

    Raises:
        MalformedInput: one line naming ``--chip-value`` and the value.
    """
    if not plain_money(text):
        raise MalformedInput(f"--chip-value {shown_amount(text)!r} is not an amount of money "
                             "(a chip's value is written in ASCII digits with at most one "
                             "decimal point, e.g. 0.25)")
    if decimals is None:
        decimals = currency_decimals(currency, text)
    return parse_money(text, decimals, what="--chip-value"), decimals


def chips_written(text: str, where: str, state: SessionState, *, least: int = 0) -> int:
    """The whole number of chips ``text`` says, as a book entry takes it: ASCII digits only
    (no sign, point, exponent, currency, space or other script's digits), at least ``least``
    and within the ledger's bound (:func:`bounded`). ``where`` is the command as typed up to
    the amount (``"buyin fri Ann"``), which every refusal names.

    >>> chips_written("200", "buyin s Ann", SessionState())
    200

    Raises:
        MalformedInput: one line naming ``where`` and the amount, saying amounts are whole
            chips and, for money of the session's unit, how many chips it is worth (chips
            are integers, README "money at the edges").
    """
    if not (text.isascii() and text.isdigit()):
        raise MalformedInput(f"{where}: {shown_amount(text)!r} is not a number of chips "
                             f"(amounts are whole chips, in ASCII digits{_worth(text, state)})")
    if len(text) > 2 * len(str(ev.MAX_CHIPS)):  # told before any arithmetic on it
        raise MalformedInput(f"{where}: {shown_amount(text)} is beyond the largest amount a "
                             f"ledger holds ({ev.MAX_CHIPS} chips)")
    chips = int(text)
    if chips < least:
        raise MalformedInput(f"{where}: {chips} chips is no buy-in (at least {least} chip)")
    bounded(state, where, chips)
    return chips


def _worth(text: str, state: SessionState) -> str:
    """``; 1 chip of the session is 0.25 USD, so 50.00 USD is 200 chips`` for money text
    ``"50.00"`` (its second half only when the chips come out whole), or nothing when a chip
    is worth one unit of no currency."""
    if state.chip_value_minor == 1 and not state.decimals and not state.currency:
        return ""
    said = f"; 1 chip is {state.money(state.chip_value_minor)}"
    if plain_money(text) and len(text) <= 2 * len(str(ev.MAX_CHIPS)):
        whole, _, cents = text.partition(".")
        if len(cents) <= state.decimals:
            minor = int(whole + cents.ljust(state.decimals, "0"))
            if minor and minor % state.chip_value_minor == 0:
                said += (f", so {state.money(minor)} is {minor // state.chip_value_minor} "
                         "chips")
    return said


def money_written(text: str, where: str, state: SessionState) -> int:
    """The minor units of money ``text`` says, as a payment takes it: ASCII digits, then a
    point and at most the session's decimals (no sign, exponent, currency or space), above 0
    and within the ledger's bound (:func:`ledger.model.money.parse_money`).

    Raises:
        MalformedInput: one line naming ``where`` (the command as typed up to the amount)
            and the amount, saying how the session's money is written.
    """
    if not plain_money(text) or len(text.partition(".")[2]) > state.decimals:
        places = (f"at most {state.decimals} decimal place{'s' if state.decimals > 1 else ''}"
                  if state.decimals else "no decimal places")
        example = format_money(1250 * 10 ** state.decimals // 100 or 12, state.decimals, None)
        raise MalformedInput(
            f"{where}: {shown_amount(text)!r} is not an amount of money (a payment is money"
            f"{f' in {state.currency}' if state.currency else ''}, written in ASCII digits "
            f"with {places}, e.g. {example}; 1 chip is {state.money(state.chip_value_minor)})")
    if not text.strip("0."):
        raise MalformedInput(f"{where}: {text} is no payment (an amount above 0)")
    return parse_money(text, state.decimals)


def bounded(state: SessionState, what: str, chips: int) -> None:
    """Refuse ``chips`` (of a book entry of the session ``state`` describes) beyond the
    largest amount a ledger holds, in chips or in money (chips × the chip's value).

    Raises:
        MalformedInput: naming ``what`` and the bound.
    """
    within_bound(chips, what)
    if chips * state.chip_value_minor > ev.MAX_CHIPS:
        raise MalformedInput(
            f"{what}: {chips} chips are worth {state.money(chips * state.chip_value_minor)}, "
            "beyond the largest amount a ledger holds "
            f"({state.money(ev.MAX_CHIPS)})")
