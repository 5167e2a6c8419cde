"""Correcting a book entry (``entry retract``, ``entry amend``): a buy-in, cash-out or payment
is never rewritten; an ``entry_corrected`` event retracts or amends it, checked against the
same bounds as the entry itself.
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, NotFound
from ledger.store.streams import hands_seating
from replay.sessions.amounts import chips_written, money_written
from replay.sessions.entries import cash_outs_covered, within_table
from replay.sessions.payments import paid_by, within_buy_ins, within_house, within_owed
from replay.sessions.state import SessionState, alias_group, append_entry, open_state


def correct_entry(ledger: Any, session: str, seq: int, value: str | None, *, reason: str,
                  by: str, closed: bool = False, beyond: bool = False) -> tuple[Any, Any]:
    """Retract (``value`` None) or amend (``value``: chips for a buy-in or cash-out, money for
    a payment) the book entry at ``seq`` of ``session``'s stream. Returns the entry as it
    stood and the replacement (None: retracted). ``closed``: a buy-in or cash-out of a closed
    session goes in (its books were settled up at the close; a payment, the settling up
    itself, needs no flag, as ``pay``). ``beyond``: an amended payment goes in though it is
    more than the payer owes (as ``pay --more-than-owed``).

    Raises:
        NotFound: no such session or entry; MalformedInput: a bad value
            (:func:`chips_written`, :func:`money_written`); LedgerError: the
            entry is retracted already (neither retracted again nor amended back), an
            amendment to the value it has already ("changes nothing"), a buy-in or cash-out
            of a closed session without ``closed``, a cash-out amended to more chips than
            the table holds besides it (:func:`within_table`, as ``cashout``), a buy-in
            retracted or amended to fewer chips that would leave the cash-outs and the rake
            above the buy-ins (:func:`cash_outs_covered`), the retraction of all a player
            bought while a hand seats him (:func:`_seats_still_bought`), or a payment beyond
            what is owed without ``beyond``.
    """
    state = open_state(ledger, session, allow_closed=True)
    entry = state.entries.get(seq)
    if entry is None:
        listed = ", ".join(f"{s} {e.type}" for s, e in sorted(state.entries.items()))
        raise NotFound(f"session {session} has no buy-in, cash-out or payment at seq {seq}"
                       + (f" (its entries: {listed})" if listed else ""))
    if state.closed and not closed and entry.type != "payment":
        doing = "retracting" if value is None else "amending"
        raise LedgerError(
            f"session {session} is closed (its books were settled up at the close): "
            f"{doing} its entry {seq} ({entry.type.replace('_', '-')} of {entry.player}) "
            "changes them; nothing written; --closed records it anyway")
    if seq in state.retracted:
        raise LedgerError(
            f"entry {seq} ({entry.type}) of session {session} is retracted already: "
            + ("nothing to retract" if value is None else "an amendment would bring it back; "
               "record the entry again instead (`handledger history --session "
               f"{session}` lists the entries)"))
    replacement = None
    if value is None and entry.type == "buy_in":
        was = state.amended.get(seq, entry).chips
        where = f"entry retract {session} {seq} (buy-in of {entry.player}, {was} chips)"
        cash_outs_covered(ledger, session, state, was, where)
        _seats_still_bought(ledger, session, state, seq, was, where)
    if value is not None:
        where = f"entry amend {session} {seq} ({entry.type.replace('_', '-')})"
        if entry.type == "payment":
            minor = money_written(value, where, state)
            now_minor = state.amended.get(seq, entry).amount_minor
            if entry.payer is not None:
                within_buy_ins(ledger, session, state, entry.payer, minor, where, value)
                if not beyond and not within_owed(ledger, session, state, entry.payer, minor,
                                                   where, replacing=now_minor):
                    within_buy_ins(ledger, session, state, entry.payer, minor, where, value,
                                    before=paid_by(ledger, state, entry.payer, now_minor))
            if not beyond and None in (entry.payer, entry.payee):
                within_house(ledger, session, state, minor, where,
                              paying=entry.payer is None, replacing=now_minor)
            replacement = entry.model_copy(update={"amount_minor": minor})
        else:
            replacement = _amended_chips(ledger, session, state, seq, value,
                                         f"{where[:-1]} of {entry.player})")
        now = state.amended.get(seq, entry)
        if replacement == now:
            said = (state.money(now.amount_minor) if now.type == "payment"
                    else f"{now.chips} chips")
            raise LedgerError(f"changes nothing: entry {seq} ({entry.type.replace('_', '-')}) "
                              f"of session {session} is {said} already; nothing written")
    fix = ev.EntryCorrected(seq=seq, reason=reason, by=by, replacement=None if replacement
                            is None else replacement.model_dump(mode="json"))
    append_entry(ledger, session, fix, state)
    return entry, replacement


def _seats_still_bought(ledger: Any, session: str, state: SessionState, seq: int,
                        chips: int, where: str) -> None:
    """Refuse the retraction of the buy-in at ``seq`` of ``session`` (``chips``) when it is
    all its player bought there under his names while a hand there seats him and is not
    voided: it would start with chips nobody bought, which ``hand start`` refuses and the
    audit's stack continuity names (README "A night at the table"). ``where``: ``"entry
    retract fri 3 (buy-in of Dee, 100 chips)"``.

    Raises:
        LedgerError: naming the hands that seat him.
    """
    from replay.fold import fold_stream

    player = state.entries[seq].player
    names = {player} | alias_group(ledger, player)
    if sum(state.chips_in.get(n, 0) for n in names) > chips:
        return  # another buy-in of his is left
    seating = []
    for hand, voided, _ in hands_seating(ledger, session, names):
        if voided:
            try:
                if fold_stream([r.event for r in ledger.read(hand)])[0].status == "voided":
                    continue
            except LedgerError:
                pass  # a hand that does not replay still seats him
        seating.append(hand)
    if not seating:
        return
    listed = ", ".join(seating[:5]) + (f" and {len(seating) - 5} more" if len(seating) > 5
                                       else "")
    many = len(seating) > 1
    raise LedgerError(
        f"{where}: it is all {player} bought in session {session}, and hand"
        f"{'s' if many else ''} {listed} seat{'' if many else 's'} him: "
        f"{'they' if many else 'it'} would start him with chips nobody bought; nothing "
        "written (a wrong amount is "
        f"amended: `handledger entry amend {session} {seq} CHIPS --reason … --by …`; a hand "
        "seated by mistake is voided first)")


def _amended_chips(ledger: Any, session: str, state: SessionState, seq: int, value: str,
                   where: str) -> Any:
    """The buy-in or cash-out at ``seq`` amended to ``value`` chips (as typed), for
    :func:`correct_entry`: a cash-out raised stays within what the table holds
    (:func:`within_table`), a buy-in lowered leaves the cash-outs and the rake covered
    (:func:`cash_outs_covered`). ``where``: ``"entry amend fri 4 (buy-in of Ann)"``.

    Raises:
        MalformedInput: a bad amount (:func:`chips_written`); LedgerError: either bound.
    """
    entry = state.entries[seq]
    chips = chips_written(value, where, state, least=int(entry.type == "buy_in"))
    was = state.amended.get(seq, entry).chips
    if entry.type == "cash_out" and chips > was:  # more chips off the table
        within_table(ledger, session, state, chips, f"{where}: {chips} chips", replacing=was)
    if entry.type == "buy_in" and chips < was:  # fewer chips came in
        cash_outs_covered(ledger, session, state, was - chips, f"{where}: {chips} chips")
    return ev.parse_event({**entry.model_dump(mode="json"), "chips": chips})
