"""Correcting a book entry (``entry retract``, ``entry amend``): a buy-in, cash-out or payment
is never rewritten; an ``entry_corrected`` event retracts or amends it, checked against the
same bounds as the entry itself. A ledger statement is retracted the same way, never amended
(:mod:`replay.sessions.statements`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, NotFound
from ledger.model.shell import shell_arg
from ledger.store.proven import prove_before_writing
from ledger.store.streams import hands_seating
from replay.bank import beyond_bank
from replay.sessions.alias_hints import alias_row, aliased_entry
from replay.sessions.amounts import bounded, chips_written, money_written
from replay.sessions.cash_out_books import amended_cash_out_warning
from replay.sessions.entries import cash_outs_covered, within_table
from replay.sessions.payments import paid_by, within_buy_ins, within_house, within_owed
from replay.sessions.seated_chips import (
    amended_between_hands,
    amended_start_warning,
    entry_place,
    seated_with_bought,
)
from replay.sessions.state import (
    Place,
    SessionState,
    alias_group,
    append_entry,
    closed_flag_on_open,
    entry_said,
    open_state,
)
from replay.sessions.statements import statement_to_retract


def correct_entry(ledger: Any, session: str, seq: int, value: str | None, *, reason: str,
                  by: str, closed: bool = False, beyond: bool = False,
                  note: Callable[[str], None] | None = None) -> tuple[Any, Any, str]:
    """Retract (``value`` None) or amend (``value``: chips for a buy-in or cash-out, money for
    a payment) the book entry at ``seq`` of ``session``'s stream. Returns the entry as it
    stood (as amended last), the replacement (None: retracted) and the line that says what
    was done (:func:`corrected_line`). ``closed``: a buy-in or cash-out of a closed
    session goes in (its books were settled up at the close; a payment, the settling up
    itself, needs no flag, as ``pay``). ``beyond``: an amended payment goes in though it is
    more than the payer owes (as ``pay --more-than-owed``). ``note`` gets a ``note:`` line
    when the entry names an alias of another player: the alias may be the mistake
    (:func:`replay.sessions.alias_hints.aliased_entry`), and a ``warning:`` line when a
    buy-in amended leaves the first hand after it that seats its player starting him with
    other than the books give him (:func:`replay.sessions.seated_chips.amended_start_warning`)
    or a cash-out amended takes other than the hands leave him
    (:func:`replay.sessions.cash_out_books.amended_cash_out_warning`); the amendment goes in,
    the host's statement.

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        NotFound: no such session or entry (``seq`` an alias: how to end it,
            :func:`replay.sessions.alias_hints.alias_row`); MalformedInput: a bad value
            (:func:`chips_written`, :func:`money_written`); LedgerError: as
            :func:`entry_to_correct` and :func:`check_correction`.
    """
    prove_before_writing(ledger)
    entry, replacement, fix, state = correction_checked(
        ledger, session, seq, value, reason=reason, by=by, closed=closed, beyond=beyond)
    append_entry(ledger, session, fix, state)
    if note is not None and (said := aliased_entry(ledger, seq, entry,
                                                   retracted=replacement is None)):
        note(said)
    if note is not None and replacement is not None and (
            warning := amended_warning(ledger, session, seq, replacement)):
        note(warning)
    was = state.amended.get(seq, entry)
    return was, replacement, corrected_line(session, seq, was, replacement, state)


def corrected_line(session: str, seq: int, was: Any, now: Any, state: SessionState) -> str:
    """What ``entry retract`` or ``entry amend`` says of the entry at ``seq`` of ``session``
    (``was``: as it stood, ``now``: its replacement, None when retracted; ``state``: the
    session's books, for its money), the entry named as every line names it
    (:func:`replay.sessions.state.entry_said`): ``fri: entry 4 (buy-in of Bob) retracted``;
    amended, with its amount before and after, in chips for a buy-in or cash-out and in the
    session's money for a payment: ``fri: entry 5 (cash-out of Cy) amended: 300 → 350
    chips``, ``fri: entry 7 (payment of Ann to Bob) amended: 12.50 USD → 15.00 USD``."""
    if now is None:
        return f"{session}: entry {seq} ({entry_said(was)}) retracted"
    if was.type == "payment":
        amounts = f"{state.money(was.amount_minor)} → {state.money(now.amount_minor)}"
    else:
        amounts = f"{was.chips} → {now.chips} chips"
    return f"{session}: entry {seq} ({entry_said(was)}) amended: {amounts}"


def amended_warning(ledger: Any, session: str, seq: int, replacement: Any) -> str | None:
    """The ``warning:`` line of the entry at ``seq`` of ``session``, just stored amended to
    ``replacement``: a buy-in that leaves the first hand after it that seats its player
    starting him with other than the books give him
    (:func:`replay.sessions.seated_chips.amended_start_warning`), a cash-out that takes
    other than the hands leave him
    (:func:`replay.sessions.cash_out_books.amended_cash_out_warning`); None otherwise (a
    payment: no hand's stack counts it). ``entry amend`` says it, and an import of a file's
    ``entry_corrected`` row (:func:`replay.ingest.entry_amends.amendment_warnings`)."""
    if replacement.type == "buy_in":
        return amended_start_warning(ledger, session, seq, replacement)
    if replacement.type == "cash_out":
        return amended_cash_out_warning(ledger, session, seq, replacement.player)
    return None


def correction_checked(ledger: Any, session: str, seq: int, value: str | None, *,
                       reason: str, by: str, closed: bool = False, beyond: bool = False
                       ) -> tuple[Any, Any, ev.EntryCorrected, SessionState]:
    """The retraction or amendment :func:`correct_entry` appends, every check made, nothing
    written and nothing proven (the caller proves the ledger first): ``(entry, replacement,
    correction, state)``, ``state`` the session's books it is checked against, which
    :func:`replay.sessions.state.append_entry` appends it after. Reads the ledger as it
    stands: a session voided in one write (:mod:`replay.voiding`) checks each retraction
    after those appended before it.

    Raises:
        NotFound, MalformedInput, LedgerError: as :func:`correct_entry`.
    """
    state = open_state(ledger, session, allow_closed=True)
    if closed:
        closed_flag_on_open(state, session, f"entry {'retract' if value is None else 'amend'} "
                            f"{session} {seq}{'' if value is None else ' ' + value} --closed")
    statement = statement_to_retract(ledger, session, seq, amending=value is not None,
                                     closed=closed, closed_session=state.closed)
    if statement is not None:  # a ledger statement: retracted whole, never amended
        return statement, None, ev.EntryCorrected(seq=seq, reason=reason, by=by), state
    try:
        entry = entry_to_correct(state, session, seq, amending=value is not None,
                                 closed=closed)
    except NotFound as exc:
        if (hint := alias_row(ledger, session, seq)) is None:
            raise
        raise NotFound(f"{exc.message}; {hint}") from None
    replacement = None
    if value is not None:
        where = f"entry amend {session} {seq} ({entry_said(entry)})"
        if entry.type == "payment":
            replacement = amended(entry, money_written(value, where, state))
        else:
            replacement = amended(entry, chips_written(value, where, state,
                                                       least=int(entry.type == "buy_in")))
    check_correction(ledger, session, state, seq, replacement, text=value, beyond=beyond)
    fix = ev.EntryCorrected(seq=seq, reason=reason, by=by, replacement=None if replacement
                            is None else replacement.model_dump(mode="json"))
    return entry, replacement, fix, state


def entry_to_correct(state: SessionState, session: str, seq: int, *, amending: bool,
                     closed: bool) -> Any:
    """The book entry at ``seq`` of ``session`` (whose stream ``state`` folds) as recorded,
    that an ``entry retract`` (``amending`` False) or ``entry amend`` may correct: a buy-in,
    cash-out or payment there, not retracted, and of a closed session a payment unless
    ``closed`` (docs/CORRECTIONS.md "A closed session's one rule").

    Raises:
        NotFound: no such entry at ``seq`` (naming the session's entries); LedgerError: a
            buy-in or cash-out of a closed session without ``closed``, or an entry retracted
            already (neither retracted again nor amended back).
    """
    entry = state.entries.get(seq)
    if entry is None:
        listed = ", ".join(f"{s} {entry_said(e)}" + (" (retracted)" if s in state.retracted
                                                       else "")
                           for s, e in sorted(state.entries.items()))
        raise NotFound(f"session {session} has no buy-in, cash-out or payment at seq {seq}"
                       + (f" (its entries: {listed})" if listed else ""))
    if state.closed and not closed and entry.type != "payment":
        doing = "amending" if amending else "retracting"
        raise LedgerError(
            f"session {session} is closed (its books were settled up at the close): "
            f"{doing} its entry {seq} ({entry_said(entry)}) "
            "changes them; nothing written; --closed records it anyway")
    if seq in state.retracted:
        raise LedgerError(
            f"entry {seq} ({entry_said(entry)}) of session {session} is retracted already: "
            + ("an amendment would bring it back; record the entry again instead (`handledger "
               f"history --session {shell_arg(session)}` lists the entries)" if amending
               else "nothing to retract"))
    return entry


def amended(entry: Any, amount: int) -> Any:
    """The book ``entry`` (a buy-in, cash-out or payment) as an amendment makes it: the same
    entry (type, player, kind, payer, payee, reason) with ``amount`` chips, or minor units
    for a payment. An amendment changes nothing else (``EntryCorrected``)."""
    field = "amount_minor" if entry.type == "payment" else "chips"
    return ev.parse_event({**entry.model_dump(mode="json"), field: amount})


def check_amends(entry: Any, replacement: Any) -> None:
    """Refuse ``replacement``, a file's amendment of the book ``entry``, when it is not
    :func:`amended` of it (another type, player, kind, payer, payee or reason): the
    correction ``entry amend`` writes changes the amount alone, and a wrong player or kind is
    retracted and the right entry recorded (docs/COMMANDS.md "sessions and the books").

    Raises:
        LedgerError: naming the first field that differs, as the entry and the replacement
            have it.
    """
    field = "amount_minor" if entry.type == "payment" else "chips"
    mine, theirs = entry.model_dump(mode="json"), replacement.model_dump(mode="json")
    if replacement.type == entry.type and replacement == amended(entry, theirs[field]):
        return
    key = next(k for k in ("type", *mine, *theirs) if k != field
               and mine.get(k) != theirs.get(k))
    raise LedgerError(
        f"its replacement's {key} is {theirs.get(key)!r}, the entry's {mine.get(key)!r}: an "
        "amendment changes the amount alone, as `entry amend` does (a wrong player or kind "
        "is retracted and the right entry recorded)")


def check_correction(ledger: Any, session: str, state: SessionState, seq: int,
                     replacement: Any | None, *, text: str | None = None,
                     beyond: bool = False, place: Place | None = None) -> None:
    """Refuse the retraction (``replacement`` None) or amendment of the book entry at ``seq``
    (found by :func:`entry_to_correct`) that ``entry retract`` or ``entry amend`` refuses,
    ``state`` being the session's books before it: a cash-out amended to more chips than the
    table holds besides it (:func:`within_table`, as ``cashout``), a buy-in retracted or
    amended to fewer chips that would leave the cash-outs and the rake above the buy-ins
    (:func:`cash_outs_covered`), the retraction of all a player bought while a hand seats him
    (:func:`_seats_still_bought`) or of part of it as a buy-in amended to 0 chips is bound
    (:func:`replay.sessions.seated_chips.seated_with_bought`), a buy-in amended below the
    stack a hand after it seats its player with, or (a command's) while he sits in a hand in
    play (:mod:`replay.sessions.seated_chips`), a payment beyond what is owed without
    ``beyond``, and an amendment to the value the entry has already ("changes nothing").
    ``text``: the value as typed (a payment's refusal names it). ``place``: where in the
    ledger the correction stands when it is a file's row
    (:class:`replay.sessions.state.Place`; its words, the rake and hands before it), whose
    payments are bound as the file's other payments, by nothing but their form.

    Raises:
        MalformedInput: a payment larger than the payer's buy-ins (:func:`within_buy_ins`);
            LedgerError: as above, naming the command as typed or ``place``'s words.
    """
    entry = state.entries[seq]
    if replacement is None:
        if entry.type == "buy_in":
            was = state.amended.get(seq, entry).chips
            where = (f"entry retract {session} {seq} (buy-in of {entry.player}, {was} chips)"
                     if place is None else f"{place.words} (buy-in of {entry.player}, {was} "
                     "chips)")
            cash_outs_covered(ledger, session, state, was, where, place=place)
            _seats_still_bought(ledger, session, state, seq, was, where, place=place)
            seated_with_bought(ledger, session, state, seq, 0, where, place=place,
                               retracting=True)
        return
    where = (f"entry amend {session} {seq} ({entry_said(entry)})" if place is None
             else place.words)
    if entry.type == "payment":
        if place is None:
            _payment_bounds(ledger, session, state, seq, replacement.amount_minor, where,
                            text or str(replacement.amount_minor), beyond=beyond)
    else:
        who = where if place is None else f"{where} ({entry_said(entry)})"
        _amended_chips(ledger, session, state, seq, replacement.chips, who, place=place)
    now = state.amended.get(seq, entry)
    if replacement == now:
        said = (state.money(now.amount_minor) if now.type == "payment"
                else f"{now.chips} chips")
        raise LedgerError(("" if place is None else f"{place.words}: ") + "changes nothing: "
                          f"entry {seq} ({entry_said(entry)}) of session {session} is {said} "
                          "already"
                          + ("; nothing written" if place is None else ""))


def _payment_bounds(ledger: Any, session: str, state: SessionState, seq: int, minor: int,
                    where: str, text: str, *, beyond: bool) -> None:
    """Refuse the payment at ``seq`` amended to ``minor`` units as ``entry amend`` does
    (:func:`correct_entry`): beyond the payer's buy-ins, or without ``beyond`` beyond what
    he still owes or what the house is owed or was paid (a payment with the bank: beyond
    what settle's bank line asks, :func:`replay.bank.beyond_bank`)."""
    entry = state.entries[seq]
    now_minor = state.amended.get(seq, entry).amount_minor
    if entry.bank:  # with the bank: bounded by settle's bank line alone
        owed = beyond_bank(ledger, session, state, entry.payer, entry.payee, minor, where,
                           replacing=now_minor)
        if owed is not None and not beyond:
            raise owed
        return
    if entry.payer is not None:
        within_buy_ins(ledger, session, state, entry.payer, minor, where, text)
        if not beyond and not within_owed(ledger, session, state, entry.payer, minor,
                                          where, replacing=now_minor):
            within_buy_ins(ledger, session, state, entry.payer, minor, where, text,
                           before=paid_by(ledger, state, entry.payer, now_minor))
    if not beyond and None in (entry.payer, entry.payee):
        within_house(ledger, session, state, minor, where, paying=entry.payer is None,
                     replacing=now_minor)


def _seats_still_bought(ledger: Any, session: str, state: SessionState, seq: int,
                        chips: int, where: str, *, place: Place | None = None) -> None:
    """Refuse the retraction of the buy-in at ``seq`` of ``session`` (``chips``) when a hand
    there seats its player (under any of his names), is not voided, is recorded after it and
    comes before every other buy-in of his there (:func:`hands_left_unbought`): it would
    start with chips nobody bought, which ``hand start`` refuses and the audit's stack
    continuity names (docs/LIVE.md "A night at the table"); a hand recorded before it the buy-in
    never counted for. ``where``: ``"entry retract fri 3 (buy-in of Dee, 100 chips)"``.

    Raises:
        LedgerError: naming the hands that seat him.
    """
    seating = hands_left_unbought(ledger, session, state, seq, place=place)
    if not seating:
        return
    player = state.entries[seq].player
    others = _other_buy_ins(ledger, state, seq)
    listed = ", ".join(seating[:5]) + (f" and {len(seating) - 5} more" if len(seating) > 5
                                       else "")
    many = len(seating) > 1
    hands, seat = f"hand{'s' if many else ''} {listed}", f"seat{'' if many else 's'} {player}"
    said = f" before {hands}, which {seat}" if others else f", and {hands} {seat}"
    raise LedgerError(
        f"{where}: it is all {player} bought in session {session}{said}: "
        f"{'they' if many else 'it'} would start {player} with chips nobody bought; nothing "
        "written (a wrong amount is "
        f"amended: `handledger entry amend {shell_arg(session)} {shell_arg(seq)} CHIPS --reason … "
        "--by …`; a hand "
        "seated by mistake is voided first)")


def hands_left_unbought(ledger: Any, session: str, state: SessionState, seq: int, *,
                        place: Place | None = None, counting: str | None = None
                        ) -> list[str]:
    """The hands of ``session`` (ids, ledger order) that the buy-in at ``seq`` there, not
    counted (retracted), would leave starting its player with chips nobody bought (RULES.md
    §1.1): those that seat him (under any of his names), are not voided (``counting``: a hand
    counted though voided, whose void an ``undo`` would take back), are recorded after it (a
    buy-in counts for the hands after it only, as the audit's stack continuity reads the
    books) and come before every other buy-in of his there in force in ``state`` (a rebuy
    recorded after a hand bought nothing it played with; one recorded as made before a
    hand, ``buyin --before HAND``, counts at its place, :mod:`ledger.audit.placing`).
    ``place``: a file's row (:class:`replay.sessions.state.Place`), stored with the rest of
    its file: the hands stored before it count, and those after it in the file up to his
    next buy-in there.
    """
    from replay.fold import fold_stream

    player = state.entries[seq].player
    names = {player} | alias_group(ledger, player)
    others = _other_buy_ins(ledger, state, seq)
    seating = []
    found = hands_seating(ledger, session, names)
    if found:  # a buy-in counts for the hands recorded after it only
        at = entry_place(ledger, session, seq)
        after = {h for (h,) in ledger.query(
            "SELECT hand_id FROM events WHERE list_contains($1, hand_id) GROUP BY hand_id"
            " HAVING min(position) > $2", [[h for h, *_ in found], at])}
        found = [f for f in found if f[0] in after]
    if others and found:  # a hand counts the buy-ins before it only, each at its place
        first = min(entry_place(ledger, session, s) for s in others)  # (`--before HAND`)
        before = {h for (h,) in ledger.query(
            "SELECT hand_id FROM events WHERE list_contains($1, hand_id) GROUP BY hand_id"
            " HAVING min(position) < $2", [[h for h, *_ in found], first])}
        found = [f for f in found if f[0] in before]
    if place is not None and found:
        (again,), = ledger.query(
            "SELECT min(position) FROM events WHERE stream = $1 AND type = 'buy_in' AND"
            " position > $2 AND list_contains($3, payload->>'player')",
            [f"session:{session}", place.position, sorted(names)])
        earlier = {h for (h,) in ledger.query(
            "SELECT hand_id FROM events WHERE list_contains($1, hand_id) GROUP BY hand_id"
            " HAVING $2 IS NULL OR min(position) < $2", [[h for h, *_ in found], again])}
        found = [f for f in found if f[0] in earlier]
    for hand, voided, _ in found:
        if voided and hand != counting:
            try:
                if fold_stream([r.event for r in ledger.read(hand)])[0].status == "voided":
                    continue
            except LedgerError as exc:  # a hand that does not replay still seats him
                ledger.aborted_by(exc)  # (a database error inside a write is no such hand)
        seating.append(hand)
    return seating


def _other_buy_ins(ledger: Any, state: SessionState, seq: int) -> list[int]:
    """The seqs of the buy-ins in force in ``state`` besides the one at ``seq`` of its player
    (under any of his names)."""
    player = state.entries[seq].player
    names = {player} | alias_group(ledger, player)
    return [s for s, e in state.entries.items() if s != seq and s not in state.retracted
            and e.type == "buy_in" and e.player in names]


def _amended_chips(ledger: Any, session: str, state: SessionState, seq: int, chips: int,
                   where: str, *, place: Place | None = None) -> None:
    """Refuse the buy-in or cash-out at ``seq`` amended to ``chips``, for
    :func:`check_correction`: a cash-out raised stays within what the table holds
    (:func:`within_table`), a buy-in lowered leaves the cash-outs and the rake covered
    (:func:`cash_outs_covered`) and the first hand that seats its player after it with no
    chips nobody bought (:func:`replay.sessions.seated_chips.seated_with_bought`), a buy-in
    of a player in a hand in play is not amended by the command (``place`` None:
    :func:`replay.sessions.seated_chips.amended_between_hands`) unless it was made before a
    hand (``buyin --before HAND``, which ``buyin`` takes then too), and either stays within the
    ledger's bound (:func:`replay.sessions.amounts.bounded`). ``where``: ``"entry amend fri 4
    (buy-in of Ann)"``.

    Raises:
        MalformedInput: beyond the bound; LedgerError: either bound of the table.
    """
    entry = state.entries[seq]
    bounded(state, where, chips)
    was = state.amended.get(seq, entry).chips
    if entry.type == "cash_out" and chips > was:  # more chips off the table
        within_table(ledger, session, state, chips, f"{where}: {chips} chips", replacing=was,
                     place=place)
    if entry.type == "buy_in" and chips < was:  # fewer chips came in
        cash_outs_covered(ledger, session, state, was - chips, f"{where}: {chips} chips",
                          place=place)
        seated_with_bought(ledger, session, state, seq, chips, where, place=place)
    made_before = getattr(state.amended.get(seq, entry), "before", None)
    if entry.type == "buy_in" and place is None and made_before is None:
        # not under a hand in play, as `buyin`; one made before a hand (`buyin --before`,
        # taken while a hand is in play) is amended as it was recorded
        amended_between_hands(ledger, session, entry.player, chips, where)
