"""Errors the engine raises: one type, :class:`IllegalAction`, with the facts of the refusal."""

from __future__ import annotations

from collections.abc import Callable

from ledger.model.errors import LedgerError


class IllegalAction(LedgerError):
    """An event the rules do not allow at this point of the hand.

    ``seq`` is the event's sequence number in the hand (1-based) when known; ``reason`` the
    rule it breaks, e.g. ``"out of turn: p3 is to act"`` or ``"raise to 30 is below the
    minimum 40"``, its amounts in chips.

    A refusal that names amounts may keep them apart (:meth:`with_amounts`): ``template``, a
    :meth:`str.format` pattern, and ``values``, what fills it, an ``int`` being chips and a
    ``str`` text (a player's name); :meth:`reason_in` then writes the chips another way (a
    hand kept in cents, as its actions are typed: ``400`` → ``4.00``), where the refusal
    reaches the host. ``template`` is None for a refusal without amounts.
    """

    def __init__(
        self,
        reason: str,
        *,
        hand: str | None = None,
        seq: int | None = None,
        action: str | None = None,
    ) -> None:
        super().__init__(reason, hand=hand, action=action)
        self.reason = reason
        self.seq = seq
        self.template: str | None = None
        self.values: dict[str, int | str] = {}

    @classmethod
    def with_amounts(cls, template: str, *, hand: str | None = None, seq: int | None = None,
                     **values: int | str) -> IllegalAction:
        """The refusal ``template.format(**values)`` (its amounts in chips), keeping
        ``template`` and ``values`` for :meth:`reason_in`: ``with_amounts("raise to {to} is
        below the minimum {least}", to=300, least=400)``."""
        error = cls(template.format(**values), hand=hand, seq=seq)
        error.template, error.values = template, dict(values)
        return error

    def reason_in(self, amount: Callable[[int], str]) -> str:
        """``reason`` with each of its amounts written by ``amount`` (chips → text); the
        ``reason`` as it stands when it keeps no amounts apart."""
        if self.template is None:
            return self.reason
        return self.template.format(**{k: amount(v) if isinstance(v, int) else v
                                       for k, v in self.values.items()})


class NotAnAction(IllegalAction):
    """Text that is no action of the notation (FORMATS.md §1): no action word after the
    player, or a word given what it does not take (``Fa pb 3``). The reason says what the
    word takes; a live refusal adds the actions the hand takes now
    (:func:`replay.live.state.words_now`)."""
