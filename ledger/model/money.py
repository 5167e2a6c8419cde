"""Money at the edges: chips are integers; money is an integer of minor units of a currency.

A session says what one chip is worth (``chip_value_minor`` minor units) and how its currency
is written (``decimals`` places). These helpers turn money text into minor units and back;
nothing else in handledger does arithmetic on money that is not an integer. Which codes are
currencies and how many decimals each has is ISO 4217's list as the ``iso4217`` package ships
it (:func:`minor_units`), loaded the first time a currency is looked up.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation

from ledger.model.bounds import MAX_CHIPS
from ledger.model.errors import MalformedInput


@functools.cache
def _iso4217() -> dict[str, tuple[str, int | None]]:
    """ISO 4217 code -> (name, minor units; None where the list gives none: metals, funds,
    test codes), from the ``iso4217`` package (parsing its table costs ~0.2 s, once)."""
    from iso4217 import Currency

    return {c.code: (c.currency_name, c.exponent) for c in Currency}


def minor_units(currency: str) -> int | None:
    """The decimals of an ISO 4217 currency code: its minor units (``"USD"`` → 2, ``"JPY"`` →
    0, ``"KWD"`` → 3, ``"CLF"`` → 4); None for a code ISO 4217 does not list, or lists without
    minor units (``"XAU"``, gold).

    >>> minor_units("USD"), minor_units("JPY"), minor_units("BHD"), minor_units("XYZ")
    (2, 0, 3, None)
    """
    known = _iso4217().get(currency)
    return None if known is None else known[1]


#: The currency symbols a hand file may write for an ISO 4217 code (HandHQ's PHH:
#: ``currency_symbol = '$'``; FORMATS.md §1 names ``currency`` only, README: a PHH hand in
#: dollars and cents counts cents of USD, and there are no custom codes).
CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}


def currency_code(currency: str) -> str:
    """The ISO 4217 code a file's currency stands for: a symbol's code, else the text
    stripped and upper-cased (``"$"`` → ``"USD"``, ``"usd"`` → ``"USD"``).

    >>> currency_code("$"), currency_code(" usd"), currency_code("€")
    ('USD', 'USD', 'EUR')
    """
    text = currency.strip()
    return CURRENCY_SYMBOLS.get(text, text.upper())


def format_money(minor: int, decimals: int, currency: str | None) -> str:
    """``1250, 2, "USD"`` → ``"12.50 USD"``; without a currency just the number.

    >>> format_money(-1250, 2, "USD"), format_money(7, 0, None)
    ('-12.50 USD', '7')
    """
    text = str(Decimal(minor).scaleb(-decimals)) if decimals else str(minor)
    return f"{text} {currency}" if currency else text


#: Money as a person types it: ASCII digits, then a point and its decimals if any.
_MONEY_TEXT = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def plain_money(text: str) -> bool:
    """Whether ``text`` is money written plainly: ASCII digits with at most one decimal point
    between digits (no sign, exponent, currency, space, separator or other script's digits),
    as a payment and a chip value are typed.

    >>> plain_money("12.50"), plain_money("1e-2"), plain_money(".25"), plain_money("\uff15")
    (True, False, False, False)
    """
    return _MONEY_TEXT.fullmatch(text) is not None


def parse_money(text: str, decimals: int, *, what: str = "amount") -> int:
    """``"12.50"`` with 2 decimals → 1250 minor units.

    >>> parse_money("12.50", 2), parse_money("3", 0)
    (1250, 3)

    Raises:
        MalformedInput: not a number, not positive, more decimal places than ``decimals``, or
            more than ``MAX_CHIPS`` minor units (the event model's bound).
    """
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise MalformedInput(f"{what} {text!r} is not a number") from None
    minor = value.scaleb(decimals) if value.is_finite() else value
    if not value.is_finite() or minor != minor.to_integral_value() or minor <= 0:
        raise MalformedInput(f"{what} {text!r} is not a positive amount with at most "
                             f"{decimals} decimal place(s)")
    if minor > MAX_CHIPS:
        raise MalformedInput(f"{what} {text!r} is too large (at most "
                             f"{format_money(MAX_CHIPS, decimals, None)})")
    return int(minor)


def check_currency(currency: str | None) -> None:
    """A session's currency is its ISO 4217 code, three capital letters (``"USD"``), so that
    one currency has one spelling: ``usd`` and ``USD`` would be two currencies to every
    comparison (a hand's unit against its session's, standings in money). The code must be one
    ISO 4217 lists with minor units (README: handledger knows no custom codes): its decimals
    are the session's (:func:`currency_decimals`). None: plain chips.

    Raises:
        MalformedInput: one line naming ``--currency``: ``--currency 'usd': a currency is its
            ISO 4217 code, three capital letters like USD or EUR: did you mean USD?``;
            ``--currency 'XYZ': not an ISO 4217 currency code: did you mean XPF?``;
            ``--currency 'XAU': ISO 4217 gives Gold no minor unit ...``.
    """
    if currency is None:
        return
    shaped = len(currency) == 3 and currency.isascii() and currency.isalpha()
    if shaped and currency.isupper():
        known = _iso4217().get(currency)
        if known is None:
            import difflib  # here: an error's hint, and every command loads this module

            money = [code for code, (_, units) in _iso4217().items() if units is not None]
            close = difflib.get_close_matches(currency, money, n=3)
            hint = f": did you mean {' or '.join(close)}?" if close else ""
            raise MalformedInput(f"--currency {currency!r}: not an ISO 4217 currency code"
                                 f"{hint}")
        if known[1] is None:
            raise MalformedInput(f"--currency {currency!r}: ISO 4217 gives {known[0]} no minor "
                                 "unit (a metal, fund or test code), not money a session "
                                 "counts")
        return
    hint = f": did you mean {currency.upper()}?" if shaped and minor_units(
        currency.upper()) is not None else ""
    raise MalformedInput(f"--currency {currency!r}: a currency is its ISO 4217 code, three "
                         f"capital letters like USD or EUR{hint}")


def unit_problem(currency: str | None, decimals: int, minor_per_chip: int = 1) -> str | None:
    """Why a hand file's unit (its ``currency``, written with ``decimals`` places, a chip of
    ``minor_per_chip`` minor units) is no money of an ISO 4217 currency, or None when it is
    (or names no currency: plain chips). The currency may be written as its code in any case
    or as a symbol (:func:`currency_code`: ``usd``, ``$``); it must be a code the list gives
    minor units (README: there are no custom codes), and a chip of one written unit may be no
    finer than that minor unit (USD written with at most 2 decimals, JPY with none), since
    money counts in it (:meth:`ledger.model.events.Unit.money`).

    >>> unit_problem("usd", 2), unit_problem("JPY", 1)[:40]
    (None, 'amounts written with 1 decimal place(s)')
    """
    if currency is None:
        return None
    code = currency_code(currency)
    known = _iso4217().get(code)
    if known is None:
        import difflib  # here: an error's hint (as check_currency)

        money = [c for c, (_, units) in _iso4217().items() if units is not None]
        close = difflib.get_close_matches(code, money, n=3)
        hint = f": did you mean {' or '.join(close)}?" if close else ""
        return f"currency {currency!r} is not an ISO 4217 currency code{hint}"
    if known[1] is None:
        return (f"currency {currency!r}: ISO 4217 gives {known[0]} no minor unit (a metal, "
                "fund or test code), not money")
    if minor_per_chip == 1 and decimals > known[1]:
        return (f"amounts written with {decimals} decimal place(s) are finer than {code}'s "
                f"minor unit ({known[1]} decimal place(s), ISO 4217): no whole amount of "
                "its money")
    return None


def currency_decimals(currency: str | None, chip_value: str) -> int:
    """The minor-unit decimals of a session: a currency's ISO 4217 minor units
    (:func:`minor_units`: USD 2, JPY 0, KWD 3; 2 for a code it does not know, which
    :func:`check_currency` refuses first); without a currency, those written in
    ``chip_value`` (``"0.25"`` → 2)."""
    if currency:
        units = minor_units(currency.upper())
        return 2 if units is None else units
    try:
        exponent = Decimal(chip_value).as_tuple().exponent
    except InvalidOperation:
        return 0
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


def beyond_bound(number: Decimal, decimals: int) -> bool:
    """Whether the amount ``number`` (in the written unit, ``decimals`` places a chip) is
    surely more chips than :data:`~ledger.model.bounds.MAX_CHIPS`, told from its exponent
    alone, so that an absurd amount (``1e999999999``, thousands of digits) is refused before
    any arithmetic on it.

    >>> beyond_bound(Decimal("1e999999999"), 0), beyond_bound(Decimal("150.25"), 2)
    (True, False)
    """
    return number.is_finite() and number.adjusted() + decimals >= len(str(MAX_CHIPS))


def shown_amount(text: str, limit: int = 24) -> str:
    """``text`` as an error quotes an amount: cut to ``limit`` characters, with its length
    when cut (an amount pasted with thousands of digits)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def within_bound(amount: int, what: str, unit: str = "chips") -> int:
    """``amount`` when it is at most :data:`~ledger.model.bounds.MAX_CHIPS`, the largest
    amount a ledger holds (chips, or minor units of money).

    >>> within_bound(150, "CHIPS")
    150

    Raises:
        MalformedInput: ``CHIPS: 9007199254740992 is beyond the largest amount a ledger holds
            (9007199254740991 chips)``.
    """
    if amount > MAX_CHIPS:
        raise MalformedInput(f"{what}: {amount} is beyond the largest amount a ledger holds "
                             f"({MAX_CHIPS} {unit})")
    return amount
