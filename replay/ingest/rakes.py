"""An imported hand's rake: compared with that of the stored hand of its id, and checked
against what the table paid.

A hand holds its rake in one of two forms (FORMATS.md §1, :mod:`replay.rake`): a field of
its file, kept in ``hand_started.source`` (PHH's ``rake``, a site text's ``site_rake``, our
``_rake`` rule), or a ``recorded_rake`` event (``act HAND "rake N"`` at the table). Our PHH
export writes the event as the field, so the same hand comes back in the other form:
:func:`rake_difference` takes them as the same rake when they are the same chips, and names
a rake that differs either way (the import then refuses the hand as any other difference).

:func:`rake_finding` checks a hand read from a file: the table pays the pots less the rake
the hand records (some sites leave the uncalled bet out of the payouts as well,
:mod:`replay.rake`). A rake above the pot is impossible and refuses the hand, and so does one
the books could not count (docs/LIVE.md, "A home game's rake"): a file's rake that is no whole
number of the hand's chips, and a rake with no payouts that did not take the whole pot (who
was paid what it leaves cannot be read; a live ``end`` refuses the same). One that is not
what the payouts leave out is stored with a warning (the audit then reports the payout:
beside a rake the rules' awards of the pots less it are checked, the rake still counted,
as a live one, :func:`replay.rake.recorded_rake`; where those awards cannot be made, an
unknown showdown, the rake is counted nowhere).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.pots import uncalled
from ledger.model.errors import IllegalHand, LedgerError, StoredFinding
from replay.rake import filed_rake, short_return_words, unreturned, whole_pot

#: What the rake of a hand is held as in its rows: the table's event.
_EVENT = "recorded_rake"
_ROW = f'"type":"{_EVENT}"'


def rake_row(payload: str) -> bool:
    """Whether the stored JSON ``payload`` of a hand's event (one after its start: canonical
    JSON, :func:`ledger.model.events.event_json`) is a ``recorded_rake`` event. A string
    value holding those characters is written with its quotes escaped, so never matches."""
    return _ROW in payload


def rake_difference(mine: Sequence[Any], theirs: Sequence[Any]) -> str | None:
    """How the rake of the stream ``mine`` (read from a file) differs from that of
    ``theirs`` (the ledger's), as a difference the import names (``its rake is 11 here, 10
    in the ledger``; ``its rake rule is {...} here, none in the ledger``); None when the
    same. A ``recorded_rake`` event and a file's rake of the same chips are the same rake
    (FORMATS.md §1), and so are a rake of 0 and none; a file's rake that is no whole number
    of chips is compared as written.
    Each stream begins with its ``hand_started``; of its other events only the
    ``recorded_rake`` ones are read."""
    here, there = _terms(mine), _terms(theirs)
    for key, words in (("rake", "rake"), ("rule", "rake rule")):
        if here[key] != there[key]:
            return (f"its {words} is {_text(here[key])} here, {_text(there[key])} in the "
                    "ledger")
    return None


def rake_terms(events: Sequence[Any]) -> tuple[Any, Any]:
    """``(rake, rule)`` of the stream ``events`` (``hand_started`` first) as
    :func:`rake_difference` compares them: the rake in chips (a ``recorded_rake`` event or a
    file's field; the file's text when no whole number of chips), None when it records none
    (or 0); the file's ``_rake`` rule as JSON, None when it gives none."""
    terms = _terms(events)
    return terms["rake"], terms["rule"]


def _terms(events: Sequence[Any]) -> dict[str, Any]:
    """``{"rake": chips (or the file's text when not whole chips) or None, "rule": the
    ``_rake`` rule as JSON or None}``: what :mod:`replay.rake` reads of the hand."""
    started = events[0]
    source = started.model_dump(mode="json", include={"source"})["source"] or {}
    recorded = [e.amount for e in events if e.type == _EVENT]
    if recorded:
        rake: Any = sum(recorded)
    elif source.get("site_rake") is not None or "rake" in source:
        rake = filed_rake(started)
        if rake is None:
            rake = source.get("site_rake", source.get("rake"))
    else:
        rake = None
    return {"rake": rake or None, "rule": source.get("_rake")}  # a rake of 0 is none


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def rake_finding(events: Sequence[Any], state: Any, *, file: str | None = None,
                 line: int | None = None, rake_line: int | None = None
                 ) -> LedgerError | None:
    """What is wrong with the rake of a hand read from a file (``events``; ``state``: the
    engine's state after them, RULES.md §1.2-1.4): None when it records no rake (a
    ``recorded_rake`` event or its file's, :func:`replay.rake.filed_rake`), when the hand
    is not complete, or when its payouts are the pot less the rake, with the uncalled bet
    returned or left out (left out only when no payout marks it returned:
    :func:`replay.rake.unreturned`; or it records none and the rake took the whole pot: it paid
    nobody, :func:`replay.rake.took_the_pot`). The pot: every chip put in and carried in,
    less the uncalled bet and what is carried out (RULES.md §7.1,
    :func:`replay.rake.whole_pot`). Chips, written as the file writes them (``0.20`` in a
    hand kept in cents). ``line``: the hand's line in its file;
    ``rake_line``: its rake's (a PHH ``rake`` key), where a rake above the pot is refused.

    Returns:
        :class:`IllegalHand` (the hand refused): the rake is more than the pot; it records
            no payouts and a rake that is not the whole pot (``its rake of 8 leaves 494 of
            the pot of 502, but it records no payouts …``), or is the whole pot of a hand
            that returns an uncalled bet, which no payout pays back (``its rake of 4 takes
            the whole pot of 4, but it records no payouts: Ann's uncalled bet of 4 is
            returned, never raked …``); its file's rake is no whole
            number of its chips (a JSON-lines file's; PHH's is refused where it is read);
        :class:`StoredFinding` (stored, a warning): the payouts are short of the pot (and
            the uncalled bet) by something other than the rake, naming the rake, what was
            paid, the pot, and how far it is from what they leave once the rake is taken
            (``… paid 492 of the pot of 502: 2 less than the 494 due once the rake is
            taken``, ``2 more than …``; with an uncalled bet, what was due first: ``… of the
            4.80 due once it is taken (the pot 4.90 and the uncalled bet 0.10, less the
            rake), the table paid 4.70: 0.10 short``, ``0.10 over``); of a rake of 0, as
            of a hand with none (:func:`replay.ingest.paid.unraked_finding`).
    """
    started = events[0]
    where: dict[str, Any] = {"file": file, "line": line, "hand": started.hand}
    rake = state.rake if state.rake is not None else filed_rake(started)
    if rake is None:
        return _unread(started, where)
    if state.status != "complete":
        return None
    from ledger.formats.phh.base import format_amount

    def a(chips: int) -> str:  # as the file writes amounts: 0.20 in a hand kept in cents
        return format_amount(chips, started.unit.decimals)

    back = sum(uncalled(state.contributed).values())
    pot = whole_pot(state)
    if rake > pot:
        return IllegalHand(f"its rake of {a(rake)} is more than the pot of {a(pot)}: the table "
                           "takes its rake from the pot",
                           **{**where, "line": rake_line if rake_line is not None else line})
    if not state.payouts:
        if rake == 0 or (rake == pot and not back):  # none, or the rake took the pot
            return None
        if rake == pot:  # the pot, but an uncalled bet is returned to somebody
            bets = ", ".join(f"{p}'s uncalled bet of {a(c)}"
                             for p, c in uncalled(state.contributed).items() if c)
            return IllegalHand(f"its rake of {a(rake)} takes the whole pot of {a(pot)}, but it "
                               f"records no payouts: {bets} is returned, never raked "
                               "(RULES.md §1.2-1.4), and the file pays it back to nobody; a "
                               "raked hand records what each player collected (PHH's winnings "
                               "or finishing_stacks), the uncalled bet with it", **where)
        return IllegalHand(f"its rake of {a(rake)} leaves {a(pot - rake)} of the pot of "
                           f"{a(pot)}, but it records no payouts (PHH's winnings or "
                           "finishing_stacks) saying who was paid them: a raked hand records "
                           "what each player collected (a rake of the whole pot, nothing)",
                           **where)
    if rake == 0:  # no rake: what was paid against the pot, in those words
        from replay.ingest.paid import unraked_finding

        return unraked_finding(events, state, file=file, line=line)
    paid = sum(p.amount for p in state.payouts)
    short = pot + back - paid
    if short == rake or (back and short - unreturned(state) == rake):
        return None
    due = pot + back - rake
    if back:  # what is due first, then what was paid: never "paid 30 of the pot of 12"
        said = (f"of the {a(due)} due once it is taken (the pot {a(pot)} and the uncalled bet "
                f"{a(back)}, less the rake), the table paid {a(paid)}: "
                + (f"{a(due - paid)} short" if paid < due else f"{a(paid - due)} over"))
    else:
        said = (f"the table paid {a(paid)} of the pot of {a(pot)}: "
                + (f"{a(due - paid)} less" if paid < due else f"{a(paid - due)} more")
                + f" than the {a(due)} due once the rake is taken")
    return StoredFinding(f"the hand records a rake of {a(rake)}, but {said}"
                         f"{short_return_words(state, started.unit.decimals)}", **where)


def _unread(started: Any, where: dict[str, Any]) -> LedgerError | None:
    """A file's rake (``rake`` or ``site_rake`` of ``started.source``) that
    :func:`replay.rake.filed_rake` cannot read as whole chips at or above 0 (text, a fraction
    of the hand's chip: a JSON-lines file's; a PHH file's is refused where it is read,
    :func:`ledger.formats.phh.fields.check_rake`), refused rather than counted nowhere; None
    when the hand records no rake, or one read."""
    source = started.source or {}
    for key in ("site_rake", "rake"):
        if source.get(key) is not None:
            return IllegalHand(f"its {key} {_text(source[key])} is not a whole number of its "
                               f"chips of {_chip(started.unit.decimals)} at or above 0: the "
                               "table takes its rake from the pot in those chips", **where)
    return None


def _chip(decimals: int) -> str:
    from ledger.formats.phh.base import format_amount

    return format_amount(1, decimals)
