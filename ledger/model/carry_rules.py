"""Which rule carries chips from a hand to the session's next hand, by the RULES.md sections
that say it: the odd chip left in the pot as an extra ante for the next deal (§2.2, home
alternatives; the option ``odd_chip_tie_order = carry_to_next_hand``, §5) and a declare pot
that nobody is eligible to win (§3.8, ``no_eligible_winner = carry_over``, whose carrying into
the session's next hand is the project's decision §7.1). §7.1 is the declare rule's alone: an
odd chip carried cites §2.2 and §5 only."""

from __future__ import annotations

from typing import Any

#: The sections of chips carried between hands by either rule, where the hand is not known
#: (a session's carried chips, a ``carry_over`` read alone).
EITHER = "RULES.md §2.2, §3.8, §7.1"


def carry_sections(options: Any) -> str:
    """The RULES.md sections of the rule that carries chips to the session's next hand in a
    hand of ``options`` (its ``hand_started``'s :class:`ledger.model.events.RuleOptions`):
    ``"RULES.md §2.2, §5"`` for the odd chip left in the pot for the next deal
    (``odd_chip_tie_order = carry_to_next_hand``), ``"RULES.md §3.8, §7.1"`` for a declare pot
    with no eligible winner (``no_eligible_winner = carry_over``), ``"RULES.md §2.2, §3.8, §5,
    §7.1"`` for both, and ``"RULES.md §7.1"`` for neither (chips carried into a voided hand,
    passed on)."""
    odd = options.split.odd_chip_tie_order == "carry_to_next_hand"
    declare = options.declare is not None and options.declare.no_eligible_winner == "carry_over"
    if odd and not declare:
        return "RULES.md §2.2, §5"
    sections = ["§2.2", "§3.8", "§5"] if odd else ["§3.8"] if declare else []
    return "RULES.md " + ", ".join([*sections, "§7.1"])


def carried_rule(result: Any, started: Any) -> str:
    """:func:`carry_sections` of a hand whose engine ``result`` carries chips to the
    session's next hand (``carried`` or ``carried_out``), by the options of its first event
    ``started`` (a ``hand_started``); "" when it carries none or does not start so."""
    if not (result.carried or result.carried_out) or started.type != "hand_started":
        return ""
    return carry_sections(started.options)
