"""One unit per session: a hand imported into a session is counted in the session's chips.

A session says what one of its chips is worth (``chip_value_minor`` minor units of its
currency). A hand read from a file that names a currency has chips of its own worth (HandHQ
writes dollars with cents: a chip is a cent; a site in whole dollars: a chip is a dollar). On
import into a session every amount of the hand is converted to the session's chips, exactly,
or the hand is refused naming the amount that does not convert: never rounded; the hand then
holds the unit of the session's chip (:func:`chip_unit`: a cent is USD with 2 decimals), so it
reads as the same money where no session says what a chip is worth. A hand that
names no currency counts in the session's chips as it is (a home game's chips). A tournament's
hand (its chips are the tournament's, not money) goes into no session that counts money.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import lcm
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError
from ledger.model.money import currency_code, format_money, minor_units
from ledger.model.shell import shell_arg


@dataclass(frozen=True)
class SessionUnit:
    """A session's chip: ``chip_value_minor`` minor units of ``currency`` (None: plain
    chips), written with ``decimals`` places."""

    chip_value_minor: int
    currency: str | None
    decimals: int


def chip_minor(unit: ev.Unit) -> int | None:
    """Minor units of its currency one chip of a hand is worth: its ``minor_per_chip`` when
    set, else what the written decimals say against the currency's ISO 4217 minor units (USD
    written with 2 decimals: 1; with none: 100; KWD with 2: 10).
    None when the hand names no currency, or its chip is finer than a minor unit."""
    if unit.currency is None:
        return None
    if unit.minor_per_chip != 1:
        return unit.minor_per_chip
    # a code ISO 4217 does not list (a file may name anything) is taken as 2 decimals
    iso = minor_units(_code(unit.currency))
    exponent = (2 if iso is None else iso) - unit.decimals
    return 10 ** exponent if exponent >= 0 else None


def to_session(events: Sequence[Any], unit: SessionUnit | None, session: str) -> list[Any]:
    """``events`` of one hand in the chips of ``session`` (``unit`` None: a session that says
    nothing of money, whose hands keep their chips). The hand's chip (minor units of its
    currency's ISO 4217 decimals, :func:`chip_minor`) and the session's (minor units of its
    own ``decimals``, which ``--decimals`` may make others: a chip of 0.010 USD written with 3
    is a cent) are compared in the finer of those decimals; the hand then holds the unit of
    the session's chip (:func:`session_unit`).

    Raises:
        LedgerError: the hand's currency is not the session's, the hand is a tournament's
            (its ``source`` names a ``tournament``: PokerStars) and the session counts money,
            the session's chip is no whole number of the currency's minor unit (0.005 USD: no
            hand's unit can say it, docs/BOOKS.md "Chips of different values"), or an amount does
            not convert exactly (naming the hand, the amount and how to fix it).
    """
    started = events[0]
    mine = started.unit
    hand = started.hand
    tournament = started.source.get("tournament") is not None
    if kept_as_is(mine, unit, tournament=tournament):
        return list(events)
    if unit is not None and unit.currency is not None and tournament:
        raise LedgerError(f"the hand is in tournament chips, session {session} in "
                          f"{unit.currency}: tournament chips are not the session's money "
                          "(import the file without --session)", hand=hand)
    if mine.currency is None or unit is None:  # kept as is above (for the types)
        return list(events)
    if unit.currency is None:
        raise LedgerError(f"the hand is in {mine.currency} but session {session} counts "
                          f"{session_chips(unit)}: say what its chip is worth first "
                          f"(`handledger session set {shell_arg(session)} --chip-value "
                          f"{_value(unit)} --currency {shell_arg(mine.currency)}`)", hand=hand)
    if _code(unit.currency) != _code(mine.currency):
        raise LedgerError(f"the hand is in {mine.currency}, session {session} in "
                          f"{unit.currency}: a session has one currency", hand=hand)
    worth = chip_minor(mine)
    if worth is None:
        raise LedgerError(f"its amounts are finer than a minor unit of {mine.currency}",
                          hand=hand)
    # both chips in minor units of the finer of the currency's ISO 4217 decimals and the
    # session's (`--decimals 3`: a chip of 0.010 USD is 10 of them, a cent of the hand 10)
    iso = iso_decimals(unit.currency)
    places = max(iso, unit.decimals)
    mine_at = worth * 10 ** (places - iso)
    chip_at = unit.chip_value_minor * 10 ** (places - unit.decimals)
    new_unit = session_unit(unit)
    if new_unit is None:
        from ledger.model.money import format_money

        raise LedgerError(
            f"session {session}'s chip of "
            f"{format_money(unit.chip_value_minor, unit.decimals, unit.currency)} is no whole "
            f"number of {format_money(1, iso, unit.currency)} (the currency's smallest unit, "
            "ISO 4217), which a hand in money cannot say its chips are worth, so it would "
            "read as other money outside the session: nothing of the hand is imported "
            "(import it into a session whose chip is whole minor units of its currency, or "
            "without --session)", hand=hand)
    return _rake_in_money(rescaled(events, mine_at, chip_at, new_unit, session))


def session_chips(unit: SessionUnit) -> str:
    """What a session of no currency counts, as ``balances`` heads its table: ``plain chips``,
    or ``chips of 0.01 (no currency)`` when a chip value was set without one."""
    from ledger.audit.money_units import chips_of

    words = chips_of((unit.chip_value_minor, unit.decimals, None))
    return words if words == "plain chips" else f"{words} (no currency)"


def _value(unit: SessionUnit) -> str:
    """The ``--chip-value`` a session of no currency is set with: its chip's value when it
    has one, else ``…`` (the host says it)."""
    if (unit.chip_value_minor, unit.decimals) == (1, 0):
        return "…"
    return format_money(unit.chip_value_minor, unit.decimals, None)


def kept_as_is(mine: ev.Unit, unit: SessionUnit | None, *, tournament: bool = False) -> bool:
    """Whether :func:`to_session` gives a hand of unit ``mine`` back unchanged in a session of
    chip ``unit`` (None: a session that says nothing of money), neither converted nor
    refused: the hand names no currency, the session no chip, or the hand's chip is the
    session's, in its unit (:func:`session_unit`). ``tournament``: the hand's ``source``
    names a tournament (never kept as is in a session that counts money)."""
    if unit is not None and unit.currency is not None and tournament:
        return False
    if mine.currency is None or unit is None:
        return True
    if unit.currency is None or _code(unit.currency) != _code(mine.currency):
        return False
    worth = chip_minor(mine)
    if worth is None or mine.minor_per_chip != worth:
        return False
    iso = iso_decimals(unit.currency)
    places = max(iso, unit.decimals)
    return worth * 10 ** (places - iso) == unit.chip_value_minor * 10 ** (places - unit.decimals)


def iso_decimals(currency: str) -> int:
    """The decimals of ``currency``'s minor unit, as ISO 4217 gives them (USD 2, JPY 0, KWD
    3; a code the list does not have is taken as 2, as :func:`chip_minor` takes it)."""
    iso = minor_units(_code(currency))
    return 2 if iso is None else iso


def chip_unit(chip: int, currency: str) -> ev.Unit:
    """The ``unit`` of a hand counted in chips worth ``chip`` minor units of ``currency``
    (ISO 4217 minor units), one :meth:`ledger.model.events.Unit.money` reads as that: a chip
    of one minor unit is written with the currency's decimals, as a site's money is (a cent:
    ``Unit(currency="USD", decimals=2)``; a yen: ``decimals`` 0; a fils: 3), a larger chip is
    ``minor_per_chip`` of them (a 0.05 USD chip: ``Unit(currency="USD", minor_per_chip=5)``).
    A code ISO 4217 does not list is taken as 2 decimals (as :func:`chip_minor`)."""
    if chip != 1:
        return ev.Unit(currency=currency, minor_per_chip=chip)
    iso = minor_units(_code(currency))
    return ev.Unit(currency=currency, decimals=2 if iso is None else iso)


def session_unit(unit: SessionUnit) -> ev.Unit | None:
    """The :func:`chip_unit` of a session's chip ``unit``, its minor units of ``decimals``
    places made the currency's ISO 4217 minor units (a session of USD written with 3
    decimals, a chip of 0.010: a cent); None for plain chips, or a chip finer than the
    currency's minor unit, which no hand's unit can say."""
    if unit.currency is None:
        return None
    iso = minor_units(_code(unit.currency))
    iso = 2 if iso is None else iso
    worth, finer = unit.chip_value_minor, 10 ** max(0, unit.decimals - iso)
    if worth % finer:
        return None
    return chip_unit(worth // finer * 10 ** max(0, iso - unit.decimals), unit.currency)


def earlier_conversion(unit: ev.Unit, chip: ev.Unit | None) -> bool:
    """Whether ``unit``, stored on a hand of a session whose chip is ``chip`` (its
    :func:`session_unit`; None: no chip of money), is
    the one :func:`to_session` wrote before it gave a chip of one minor unit its currency's
    decimals: ``minor_per_chip`` 1 and ``decimals`` 0, which reads as a whole dollar where
    the session's chip is a cent (a yen's chip, ``decimals`` 0 either way, was always right).
    Such a hand's chips are the session's: no hand of whole dollars is held in a session of
    cents (an import converts it, ``session open`` and ``session set`` refuse the value)."""
    return (chip is not None and chip.currency is not None and chip.minor_per_chip == 1
            and chip.decimals > 0 and unit.currency is not None
            and _code(unit.currency) == _code(chip.currency)
            and unit.minor_per_chip == 1 and unit.decimals == 0)


def as_chip_says(started: Any, chip: ev.Unit | None) -> Any:
    """``started``, a stored ``hand_started`` of a session whose chip is ``chip``, with the
    unit of that chip when its own is an :func:`earlier_conversion` (its file's rake and the
    ``_rake`` rule's cap, whole chips, then written as money of its decimals, as a hand
    converted now holds them); otherwise ``started`` itself."""
    if chip is None or not earlier_conversion(started.unit, chip):
        return started
    return _rake_in_money([started.model_copy(update={"unit": chip})])[0]


def _rake_in_money(events: list[Any]) -> list[Any]:
    """``events`` of one hand whose ``hand_started`` has chips of a unit written with
    decimals (a cent: 2) but its file's ``rake`` and ``_rake`` rule's ``cap`` in whole chips
    (:func:`_source`), those written as money of those decimals (``rake`` 10 chips: ``"0.10"``,
    FORMATS.md §1, as :func:`replay.rake.filed_rake` reads them); as they are otherwise."""
    from decimal import Decimal

    started = events[0]
    decimals = started.unit.decimals
    source = dict(started.source)
    rule = source.get("_rake")
    if not decimals or not (isinstance(source.get("rake"), int) or (
            isinstance(rule, dict) and isinstance(rule.get("cap"), int))):
        return events
    if isinstance(source.get("rake"), int):
        source["rake"] = str(Decimal(source["rake"]).scaleb(-decimals))
    if isinstance(rule, dict) and isinstance(rule.get("cap"), int):
        source["_rake"] = {**rule, "cap": str(Decimal(rule["cap"]).scaleb(-decimals))}
    return [started.model_copy(update={"source": source}), *events[1:]]


def rescaled(events: Sequence[Any], worth: int, chip: int, unit: ev.Unit, session: str
             ) -> list[Any]:
    """``events`` of one hand with every amount in chips worth ``worth`` minor units made
    chips of ``session`` worth ``chip`` minor units (``amount × worth / chip``), exactly, and
    its ``hand_started`` given ``unit``. The hand's smallest chip in play (RULES.md §2.1:
    ``options.split.smallest_chip``, its own chip unless it was converted before) stays what
    it is worth: the least amount that is a whole number of it and of the new chip (a hand
    in chips of 0.25 USD into chips of 0.05: 5 of them; a hand in cents into chips of 0.05:
    1), so its split pots are divided as the table divided them.

    A hand whose smallest chip in play and the new chip are neither a whole number of the
    other is refused: larger and no whole number of it (0.25 USD into chips of 0.10), no
    number of the new chips is worth it; smaller and not dividing it (0.04 USD into chips of
    0.10), no number of its chips is one of the new; either way the least that is whole
    chips of both (0.50, 0.20) would divide its pots in a chip the table never used
    (RULES.md §2.1), so the hand is never given that chip silently.

    Raises:
        NotWholeChips: an amount that is not a whole number of the session's chips (never
            rounded), naming the hand and the amount.
        ChipNotDivided: the hand's smallest chip in play and the session's chip are neither a
            whole number of the other, naming both chips (in ``unit``'s currency).
    """
    _chip_divides(events[0], worth, chip, unit, session)
    scale = _Scale(worth, chip, events[0].hand, session)
    out = [e.model_copy(update=_amounts(e, scale)) for e in events]
    out[0] = out[0].model_copy(update={"unit": unit})
    return [ev.parse_event(e.model_dump(mode="json")) for e in out]  # validated again


def _chip_divides(started: Any, worth: int, chip: int, unit: ev.Unit, session: str) -> None:
    """Refuse ``started``'s hand when its smallest chip in play, in minor units, and ``chip``
    are neither a whole number of the other (:func:`rescaled`).

    Raises:
        ChipNotDivided: naming the hand, both chips, the chip their least common multiple
            would be and what to do.
    """
    smallest = started.options.split.smallest_chip * worth
    if smallest % chip == 0 or chip % smallest == 0:
        return
    currency = unit.currency or ""
    iso = minor_units(_code(currency)) if currency else None
    places = 2 if iso is None else iso

    def money(minor: int) -> str:
        return format_money(minor, places, currency)

    into = f"session {session}" if session else "the session"
    if smallest > chip:
        said = f"larger than {into}'s chip of {money(chip)} and not a whole number of them"
        fix = f"whose chip divides {money(smallest)}"
    else:  # no number of its chips is one of the session's (they meet only at their lcm)
        said = (f"smaller than {into}'s chip of {money(chip)} and no whole number of it is "
                f"one (the least amount that is whole chips of both is "
                f"{money(lcm(smallest, chip))}, a chip the table never used)")
        fix = f"whose chip is a whole number of {money(smallest)} or divides it"
    raise ChipNotDivided(
        f"its smallest chip in play is {money(smallest)}, {said}: the session's chips cannot "
        f"divide its pots as the table did (RULES.md §2.1); import it into a session {fix}, or "
        "with no session; nothing of the hand is imported", hand=started.hand)


def _code(currency: str) -> str:
    return currency_code(currency)


class ChipNotDivided(LedgerError):
    """A hand whose smallest chip in play and its session's chip are neither a whole number
    of the other (:func:`rescaled`): the same words for every such hand of a file."""


class NotWholeChips(LedgerError):
    """A hand's amount that is not a whole number of its session's chips (``chip``: minor
    units a chip is worth; ``minor``: the amount in minor units; ``rake``: the amount is the
    file's rake, refused at its line)."""

    def __init__(self, message: str, *, chip: int, minor: int, hand: str,
                 rake: bool = False) -> None:
        super().__init__(message, hand=hand)
        self.chip, self.minor, self.rake = chip, minor, rake


class _Scale:
    def __init__(self, worth: int, chip: int, hand: str, session: str) -> None:
        self.worth, self.chip, self.hand, self.session = worth, chip, hand, session

    def chip_in_play(self, smallest: int) -> int:
        """The smallest chip in play ``smallest`` (of the old chips) in the new chips: the
        least whole number of them that is a whole number of it (RULES.md §2.1)."""
        return lcm(smallest * self.worth, self.chip) // self.chip

    def __call__(self, amount: int) -> int:
        minor = amount * self.worth
        if minor % self.chip:
            raise NotWholeChips(
                f"{amount} of its chips ({minor} minor units) is not a whole "
                f"number of the session {self.session}'s chips of {self.chip}: nothing of the "
                "hand is imported (never rounded)", chip=self.chip, minor=minor,
                hand=self.hand)
        return minor // self.chip


def _amounts(e: Any, scale: _Scale) -> dict[str, Any]:
    """The fields of ``e`` that hold chips, scaled."""
    t = e.type
    if t == "hand_started":
        st = e.stakes
        split = e.options.split
        return {"source": _source(e.source, e.unit.decimals, scale),
                "options": e.options.model_copy(update={"split": split.model_copy(update={
                    "smallest_chip": scale.chip_in_play(split.smallest_chip)})}),
                "seats": [s.model_copy(update={"stack": scale(s.stack)}) for s in e.seats],
                "stakes": st.model_copy(update={
                    "antes": [scale(a) for a in st.antes],
                    "blinds_or_straddles": [scale(b) for b in st.blinds_or_straddles],
                    **{k: scale(getattr(st, k))
                       for k in ("bring_in", "min_bet", "small_bet", "big_bet")}})}
    if t in ("forced_bet", "recorded_payout", "recorded_rake", "carry_over"):
        return {"amount": scale(e.amount)}
    if t == "bet_raise" or (t == "all_in" and e.to is not None):
        return {"to": scale(e.to)}
    if t == "correction":
        return {"changes": [c.model_copy(update={"event": None if c.event is None else (
            ev.parse_event(c.event).model_copy(update=_amounts(ev.parse_event(c.event), scale))
            .model_dump(mode="json"))}) for c in e.changes]}
    return {}


def _source(source: dict[str, Any], decimals: int, scale: _Scale) -> dict[str, Any]:
    """``source`` with the amounts :mod:`replay.rake` reads in the session's chips: the
    file's ``rake`` and its ``_rake`` rule's ``cap`` (the file's money, ``decimals`` places,
    FORMATS.md §1), a site text's ``site_rake`` and a PokerNow log's ``over_call`` (the
    file's chips), each then whole chips of the session; a rake that is not whole chips of
    the file is kept as written (:func:`replay.rake.filed_rake` reads none there)."""
    out = dict(source)
    if isinstance(out.get("site_rake"), int):
        out["site_rake"] = scale(out["site_rake"])
    if "rake" in out:
        try:
            out["rake"] = _money(out["rake"], decimals, scale)
        except NotWholeChips as exc:  # said as the rake, in the file's money
            from ledger.formats.phh.base import format_amount

            raise NotWholeChips(
                f"its rake of {format_amount(exc.minor // scale.worth, decimals)} ({exc.minor} "
                f"minor units) is not a whole number of the session {scale.session}'s chips of "
                f"{exc.chip}: the table takes its rake in those chips; nothing of the hand is "
                "imported (never rounded)", chip=exc.chip, minor=exc.minor, hand=scale.hand,
                rake=True) from None
    over = out.get("over_call")  # a PokerNow call above a short big blind: chips per player
    if isinstance(over, dict):
        out["over_call"] = {p: scale(c) if isinstance(c, int) else c for p, c in over.items()}
    rule = out.get("_rake")
    if isinstance(rule, dict) and "cap" in rule:
        out["_rake"] = {**rule, "cap": _money(rule["cap"], decimals, scale)}
    return out


def _money(value: Any, decimals: int, scale: _Scale) -> Any:
    """``value``, money written with ``decimals`` places, in the session's chips; as it is
    when it is not a whole number of the file's chips at or above 0."""
    from decimal import Decimal, InvalidOperation

    try:
        amount = Decimal(str(value)).scaleb(decimals)
    except InvalidOperation:
        return value
    if amount != amount.to_integral_value() or amount < 0:
        return value
    return scale(int(amount))


def in_money(events: Sequence[Any]) -> list[Any]:
    """``events`` of one hand whose chips are a session's (``unit.minor_per_chip`` other than
    1: a 0.05 USD chip is 5) as minor units of its currency, written with the currency's
    decimals (ISO 4217; 2 for a code it does not list): the hand as money, as a file names it
    (FORMATS.md §1: PHH writes the money, not the session's chips, and importing it into the
    session gives its chips back, :func:`to_session`). Any other hand is returned as it is.
    The file's ``rake`` and its ``_rake`` rule's ``cap`` become money of those decimals.

    Raises:
        LedgerError: as :func:`to_session` (none for a hand a session holds).
    """
    started = events[0]
    mine = started.unit
    if mine.currency is None or mine.minor_per_chip == 1:
        return list(events)
    iso = minor_units(_code(mine.currency))
    decimals = 2 if iso is None else iso
    return to_session(events, SessionUnit(1, mine.currency, decimals), started.session or "")
