"""Starting a hand live (``hand start``): its id, its first events appended with the chips
carried from the session's last hand (RULES.md §7.1), a seat refused for a player not in the
session's books or seated in another of its hands still in play (in no session: seated in
another hand of no session still in play, or new with a name that prints like a player's of
the ledger), and
a warning for a seat whose stack does not follow the books (:mod:`replay.live.continuity`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.names import (
    both_seated,
    check_hand_id,
    check_not_look_alike,
    folded,
    likely_meant,
    look_alikes,
    spelled,
)
from ledger.model.shell import shell_arg
from replay import carry
from replay.live.continuity import not_in_play, stacks_not_followed
from replay.live.sessionless import sessionless_warnings
from replay.live.spec import LiveHand, build_started, qualifier_unsaid_live


def _session_id(hand: str) -> LedgerError:
    return LedgerError(f"hand {hand!r}: an id starting 'session:' names a session's book, not "
                       "a hand: give another --hand, or none for a generated id")


def check_new_ledger_start(spec: LiveHand, *, hand: str | None, session: str | None) -> None:
    """What :func:`start_hand` would refuse on a ledger with no rows, checked without one:
    ``hand start`` runs it before it makes a ledger file, so that a refusal leaves none.

    Raises:
        NotFound: ``session`` is given (a new ledger has no session, :func:`open_state`'s
            refusal); LedgerError: a ``hand`` id starting ``session:`` or not one a command
            may write (:func:`ledger.model.names.check_hand_id`); MalformedInput,
            IllegalAction: see :func:`build_started`.
    """
    from replay.sessions.state import no_session

    if session is not None:
        raise no_session(session, [])
    if hand is not None and check_hand_id(hand).startswith("session:"):
        raise _session_id(hand)
    build_started(spec, hand=hand or "live-1", session=session)


def start_hand(ledger: Any, spec: LiveHand, *, hand: str | None, session: str | None,
               note: Callable[[str], None] = lambda line: None) -> str:
    """Append a new hand's ``hand_started`` and forced bets (with chips carried from the
    session's last hand, RULES.md §7.1); return its id (generated when ``hand`` is None).
    A seat of a session's hand for a player not in its books is refused
    (:func:`check_bought_in`), and so is one of a player seated in another hand of the
    session still in play (:func:`replay.live.continuity.not_in_play`: his chips are in its
    pot, RULES.md §1.1); without a session, one of a player seated in another hand of no
    session still in play, by the same rule and words (a name there is one player).
    ``note`` gets one warning line per seated player whose first hand there starts above
    his buy-ins, or who is in its books with no buy-in (a payment, a seat in an earlier
    hand), or whose stack does not follow his latest hand there
    (:func:`stacks_not_followed`): the hand is still started, buy-ins being book entries, and
    the audit's stack continuity names the difference. Without a session, ``note`` gets one
    warning line when an open session seats every player of the hand in its books, naming it
    and how to record the hand there (:func:`replay.live.sessionless.sessionless_warnings`).
    In a session of PokerNow ids, a seat (and the button) may name the player as the reads
    show him: he is seated by his id (:func:`replay.seat_names.seated_by_id`). A declare hand
    of a game whose code names the 8-or-better qualifier, its ``--declare-options`` giving no
    ``low_qualifier``, gets a ``note:`` line saying its low needs none
    (:func:`qualifier_unsaid_live`).

    Raises:
        ChainBroken: the chain's tail fails the check its append makes
            (:meth:`ledger.store.store.Ledger.check_tail`), made before the hands in play
            are read; nothing written.
        MalformedInput, IllegalAction: see :func:`build_started`; MalformedInput: without a
            session, a new player whose name prints like one of the ledger's
            (:func:`_check_new_seats`); LedgerError: the hand id is taken, or a seat's player
            is not in the session's books or is seated in a hand of it (without a session:
            of no session) still in play.
    """
    from ledger.store.streams import first_rows, seated_in
    from replay.seat_names import seated_by_id
    from replay.sessions import open_state
    from replay.sessions.state import series_names

    # an alias is his player's name in the books, as in the audit
    names = series_names(ledger) if session is not None else {}
    state = open_state(ledger, session, players=names) if session is not None else None
    if hand is None:
        prefix = session or "live"
        count = len(ledger.streams(kind="hand", session=session)) if session else 0
        hand = f"{prefix}-{count + 1}-{uuid.uuid4().hex[:6]}"
    elif check_hand_id(hand).startswith("session:"):
        raise _session_id(hand)
    elif first_rows(ledger, [hand]):
        raise LedgerError(f"hand {hand!r} is already in the ledger: give another --hand, or "
                          "none for a generated id")
    started, forced = build_started(seated_by_id(ledger, session, spec), hand=hand,
                                    session=session)
    batches = carry.link([Batch(hand, [started, *forced], hand, session, None)],
                         carry.previous_in(ledger))
    seated = seated_in(ledger, session) if session is not None else set()
    played = played_in(ledger, session, seated) if session is not None else set()
    if state is not None and session is not None:
        check_bought_in(ledger, session, state, [s.player for s in started.seats], seated,
                        names)
        ledger.check_tail()  # its append's check first: an edited tail named, not the hands
        not_in_play(ledger, session, started, names, labeller(ledger))
    else:
        _check_new_seats(ledger, [s.player for s in started.seats])
        ledger.check_tail()
        not_in_play(ledger, None, started, {}, labeller(ledger))  # a name is one player
    ledger.append_many(batches)
    lines = (book_warnings(ledger, state, session, hand, started, played, names)
             if state is not None and session is not None
             else sessionless_warnings(ledger, hand, [s.player for s in started.seats]))
    for line in lines:
        note(line)
    if (unsaid := qualifier_unsaid_live(spec)) is not None:
        note(f"note: {unsaid}")
    return hand


def book_warnings(ledger: Any, state: Any, session: str, hand: str, started: Any,
                   played: set[str], names: dict[str, str]) -> list[str]:
    """The ``warning:`` lines of :func:`start_hand` in a session: a seated player with no
    buy-in there, cashed out and not bought in since, starting his first hand there above or
    below his buy-ins (docs/LIVE.md "A new player's buy-in and first stack"), or whose stack
    does not follow the books (:func:`stacks_not_followed`)."""
    from replay.sessions.state import alias_group

    shown = labeller(ledger)
    out = []
    for seat in started.seats:
        me = names.get(seat.player, seat.player)
        bought = state.chips_in.get(me)
        if me in state.cashed and me not in state.seated:
            at = state.cashed_at[me]
            out.append(f"warning: {shown(seat.player)} cashed out {state.cashed[me]} chips in "
                       f"session {session} (entry {at}) and has not bought in since (`handledger "
                       f"entry retract {shell_arg(session)} {shell_arg(at)} --reason … --by …` if "
                       "the cash-out was "
                       f"wrong, or record a buy-in: `handledger buyin {shell_arg(session)} "
                       f"{shell_arg(seat.player)} "
                       f"CHIPS --before {shell_arg(hand)}`)")
        elif bought is None:
            out.append(f"warning: {shown(seat.player)} has no buy-in in session {session} "
                       f"(record it: `handledger buyin {shell_arg(session)} "
                       f"{shell_arg(seat.player)} CHIPS --before "
                       f"{shell_arg(hand)}`)")
        elif not alias_group(ledger, seat.player, names) & played and seat.stack != bought:
            out.append(f"warning: {shown(seat.player)} starts hand {hand} with {seat.stack} "
                       f"but {shown(seat.player)}'s buy-ins in session {session} come to "
                       f"{bought}" + ("" if seat.stack > bought else
                                      ": a stack counted short?; the audit's stack continuity "
                                      "will name it"))
    return [*out, *stacks_not_followed(ledger, session, started, played, names, shown)]


def played_in(ledger: Any, session: str, seated: set[str]) -> set[str]:
    """The players seated in a hand of ``session`` that is not voided (a voided hand counts
    for nothing: its player has not played there); ``seated``: those seated in any of its
    hands (:func:`ledger.store.streams.seated_in`), read already. Only the hands with a
    ``hand_voided`` row that seat a player seated in no other hand are folded (an undo may
    have taken the void back): a session of many voided hands costs no fold of each."""
    from ledger.store.streams import hands_seating, seated_in, voided_rows_in
    from replay.ingest.known_hands import voided_of

    marked = set(voided_rows_in(ledger, session))
    if not marked:
        return seated
    sure = seated_in(ledger, session, besides=marked)
    if not seated - sure:
        return seated
    theirs = [h for h, voided, _ in hands_seating(ledger, session, seated - sure) if voided]
    back = set(theirs) - voided_of(ledger, theirs)  # their void undone: they count
    return seated_in(ledger, session, besides=marked - back) if back else sure


def labeller(ledger: Any) -> Callable[[str], str]:
    """``label(player)``: the name the reads show for a stored player (a PokerNow id's label,
    :func:`ledger.model.names.shown_labels`; anyone else as stored), the names read from
    ``ledger`` once, when a warning first names someone (``hand start`` is the hot path)."""
    labels: dict[str, str] | None = None

    def label(player: str) -> str:
        nonlocal labels
        if labels is None:
            from ledger.model.names import shown_labels
            from ledger.store.streams import platform_names

            labels = shown_labels(platform_names(ledger))
        return labels.get(player, player)

    return label


def _check_new_seats(ledger: Any, players: list[str]) -> None:
    """Refuse a seat of a hand of no session (no books to check it against) for a player new
    to the ledger whose name prints like one it holds, or differs from it only in case
    (:func:`ledger.model.names.check_not_look_alike`): he would be a second player; so too
    two seats of the hand named so (:func:`_seated_alike`). A session's hand seats its
    books' players, which ``buyin`` keeps apart.

    Raises:
        MalformedInput: the first such player, both names spelled out.
    """
    from ledger.store.streams import player_names

    known = player_names(ledger)
    for player in players:
        if player not in known:
            check_not_look_alike(player, known, "player", "a player of the ledger")
    for k, player in enumerate(players):
        _seated_alike(player, players[:k])


def _seated_alike(name: str, seated: list[str]) -> None:
    """Refuse ``name`` beside a player of ``seated`` whose name differs from it only in case
    or in how its letters are encoded (:func:`ledger.model.names.look_alikes`), as ``buyin``
    refuses one: the two would print alike.

    Raises:
        MalformedInput: ``--seats: 'ann' and 'Ann' are both seated: …``.
    """
    same = look_alikes(name, seated)
    if same:
        raise MalformedInput(
            f"--seats: {both_seated(name, same[0])}; give each player a name of his own")


def check_bought_in(ledger: Any, session: str, state: Any, players: list[str],
                    played: set[str], names: dict[str, str] | None = None) -> None:
    """Refuse a seat of a session's hand for a player who is not in its books (no buy-in,
    cash-out or payment there, under his name or an alias: ``player alias``, and no seat in
    one of its hands, ``played``): the usual cause is a name mistyped, and a hand once
    started can only be voided, its id spent. ``names``: the series' aliases, read already
    (:func:`replay.sessions.state.series_names`).

    Raises:
        LedgerError: every such player in one line, in the hand's seat order, each with the closest
            names of the session's books (``Ann and Cy have no buy-in in session S (its
            players: Bob): record them first with `handledger buyin S Ann CHIPS` and
            `handledger buyin S Cy CHIPS`; nothing was written``).
    """
    from replay.sessions.state import in_books

    bought = set(state.chips_in)
    known = in_books(ledger, session, state, seated=played, names=names)
    missing = list(dict.fromkeys(p for p in players if p not in known))
    if not missing:
        return
    names = sorted(bought | played)
    advice = {player: _seat_advice(session, player, names) for player in missing}
    if len(missing) == 1:
        said = f"{missing[0]} has no buy-in"
        what = advice[missing[0]][0]
    elif all(plain for _, plain in advice.values()):  # no name like theirs: one command each
        said = f"{_joined(missing)} have no buy-in"
        what = "record them first with " + _joined(
            [f"`handledger buyin {shell_arg(session)} {shell_arg(p)} CHIPS`" for p in missing])
    else:
        said = f"{_joined(missing)} have no buy-in"
        what = "; ".join(f"{p}: {advice[p][0]}" for p in missing)
    raise LedgerError(f"{said} in session {session} (its players: "
                      f"{', '.join(names) or 'nobody yet'}): {what}; nothing was written")


def _seat_advice(session: str, player: str, names: list[str]) -> tuple[str, bool]:
    """What a seat of ``player``, not in the books of ``session`` (``names``: its players),
    needs: the closest names and the buy-in to record, or the name the books give; and
    whether no name is close (the buy-in alone)."""
    close = likely_meant(player, names)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    same = any(folded(n) == folded(player) for n in close)
    record = ("seat the player by the name the books give" if same
              else f"record it first with `handledger buyin {shell_arg(session)} "
                   f"{shell_arg(player)} CHIPS`")
    if same and any(n.casefold() != player.casefold() for n in close):  # print alike
        record += f" ({spelled(player)} is not {' nor '.join(map(spelled, close))})"
    return hint + record, not close


def _joined(words: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
