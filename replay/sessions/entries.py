"""Buy-ins and cash-outs (``buyin``, ``cashout``): chips come on or off the table only between
hands (table stakes, RULES.md §1.1), and the table never pays out more chips than came in, less
the rake its pots paid (:func:`within_table`, :func:`cash_outs_covered`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.names import (
    check_name,
    check_name_length,
    check_seat_name,
    likely_meant,
    look_alikes,
    spelled,
)
from ledger.model.shell import shell_arg
from ledger.store.proven import prove_before_writing
from ledger.store.streams import hands_seating, seated_in
from replay.sessions.amounts import bounded, chips_written
from replay.sessions.state import (
    Place,
    SessionState,
    alias_group,
    append_entry,
    closed_flag_on_open,
    in_books,
    open_state,
    series_names,
)


def buy_in(ledger: Any, session: str, player: str, chips: str, kind: str | None,
           note: Callable[[str], None] | None = None, *, before: str | None = None,
           closed: bool = False) -> tuple[ev.BuyIn, int]:
    """``player`` buys ``chips`` (as typed: whole chips, :func:`chips_written`) in
    ``session`` (kind: ``buy_in`` for his first, ``rebuy`` after, unless given). Returns the
    event and its seq. ``before``: a hand of the session it was made before, recorded now (a
    rebuy forgotten at the table): the books count it just before that hand starts
    (:mod:`ledger.audit.placing`), and, so placed, it is not refused while he sits in a hand
    still in play; ``closed``: such a buy-in goes in though the session is closed (its books
    were settled up at the close), ``note`` then told what it changes
    (:func:`closed_buy_in_note`). ``note`` gets a ``warning:`` line
    when ``player`` is new to the session's books and close to a name in them
    (:func:`close_to_books`): the buy-in is recorded (a new player may join), the name
    likely meant offered as ``cashout`` and ``hand start`` offer it.

    Raises:
        ChainBroken, LedgerCorrupt: with ``closed``, the ledger file fails the proof made
            before it is read (:func:`ledger.store.proven.prove_before_writing`).
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`; for a
            player not yet in the session's books, one the action notation reads as
            something else, :func:`ledger.model.names.check_seat_name`, or the name of one
            in its books in another case), an amount that is
            not a whole number of chips above 0;
        NotFound, LedgerError: see :func:`open_state`; LedgerError: he is seated in a hand of
            the session that is still open (:func:`_no_buy_in_in_play`, naming ``--before``
            for one made before it; not with ``before``),
            a rebuy or top-up is given for a player with no buy-in there yet, ``before``
            names no hand of the session (:func:`hand_of_session`), the session is closed
            and ``before`` given without ``closed``, or ``closed`` given and the session
            is open (:func:`replay.sessions.state.closed_flag_on_open`).
    """
    check_name(player)
    if closed and before is None:
        raise MalformedInput(f"buyin {session} {player} --closed: --closed goes with --before "
                             "HAND (a buy-in made before a hand of the closed session); "
                             "nothing written")
    if closed:  # a deliberate write to closed books
        prove_before_writing(ledger)
    names = series_names(ledger)  # an alias is his player's name here, as in the audit
    state = open_state(ledger, session, players=names, allow_closed=True)
    if closed:
        closed_flag_on_open(state, session, f"buyin {session} {player} --before {before} "
                            "--closed")
    if state.closed and before is None:
        raise LedgerError(
            f"session {session!r} is closed: it takes no more hands or buy-ins (one made before "
            f"a hand of it and not recorded then: `handledger buyin {shell_arg(session)} "
            f"{shell_arg(player)} "
            f"{shell_arg(chips)} --before HAND --closed`; payments still go in; a cash-out or a "
            "correction of its entries with --closed)")
    if before is not None:
        hand_of_session(ledger, session, before, f"buyin {session} {player} --before {before}")
    if state.closed and not closed:
        raise LedgerError(
            f"session {session} is closed (entry {state.closed_seq}; its books were settled up "
            f"at the close): a buy-in of {player} before hand {before} changes them; nothing "
            "written; --closed records it anyway")
    seated = seated_in(ledger, session)
    books = in_books(ledger, session, state, seated=seated, names=names)
    if player not in books:  # his name first given here
        check_name_length(player, where=f"buyin {session}")  # before a line prints it
        new_player(ledger, session, state, player, f"buyin {session} {player}",
                   seated=seated, names=names)
    chips = chips_written(chips, f"buyin {session} {player}", state, least=1)
    if before is None:  # one made before a hand is placed there, between his hands
        _no_buy_in_in_play(ledger, session, state, player, chips, kind, names)
    event = ev.BuyIn(player=player, chips=chips,
                     kind=buy_in_kind(session, state, names.get(player, player), chips, kind,
                                      f"buyin {session} {player} --kind {kind}"),
                     before=before)
    twice = (entered_twice(ledger, session, state, player, chips, names)
             if note is not None and player in books and before is None else None)
    seq = append_entry(ledger, session, event, state)
    if note is not None and state.closed:
        note(closed_buy_in_note(session, state, names.get(player, player), event))
    if note is not None and player not in books:
        line = close_to_books(session, player, books, seq)
        if line:
            note(line)
    if note is not None and twice is not None:
        note(f"warning: {player} {twice}: a buy-in entered twice is taken back with "
             f"`handledger entry retract {shell_arg(session)} {shell_arg(seq)} --reason … --by …` "
             "(recorded as "
             f"a {event.kind.replace('_', '-')})")
    return event, seq


def closed_buy_in_note(session: str, state: SessionState, player: str, event: ev.BuyIn
                       ) -> str:
    """The ``note:`` line of ``event``, a buy-in of ``player`` (his series name) made before a
    hand of ``session``, a closed session whose books ``state`` folded before it: what it
    changes there. No player's net (a net is what his hands paid him less what he put in:
    settle, balances and standings go by the hands), his buy-ins there, which the audit's
    stack continuity and session balance read."""
    was = state.chips_in.get(player, 0)
    return (f"note: session {session} is closed: this {event.kind.replace('_', '-')} moves no "
            f"player's net (nets go by the hands): {player}'s buy-ins "
            f"there come to {was + event.chips} chips (were {was}) before hand {event.before}")


def hand_of_session(ledger: Any, session: str, hand: str, where: str) -> None:
    """Refuse ``hand`` as the hand a buy-in of ``session`` was made before (``where``: the
    command as typed) unless it is a hand of that session: its ``hand_started`` names it.

    Raises:
        NotFound: no such hand in the ledger; LedgerError: a hand of another session, or
            of none.
    """
    from ledger.model.errors import NotFound

    found = ledger.query("SELECT session FROM events WHERE hand_id = $1 AND type ="
                         " 'hand_started' LIMIT 1", [hand])
    if not found:
        raise NotFound(f"{where}: no hand {hand!r} in the ledger (--before names a hand of "
                       f"session {session}); nothing written")
    (other,) = found[0]
    if other != session:
        of = f"of session {other}" if other is not None else "of no session"
        raise LedgerError(f"{where}: hand {hand} is {of}, not of session {session}: a buy-in "
                          "counts before a hand of its own session; nothing written")


def entered_twice(ledger: Any, session: str, state: SessionState, player: str, chips: int,
                  names: dict[str, str]) -> str | None:
    """What is said of a buy-in of ``chips`` by ``player`` in ``session`` when his last
    buy-in there in force (under any of his names, ``names``: :func:`series_names`; as
    amended last; last where the books count it, :mod:`ledger.audit.placing`: one recorded
    with ``--before HAND`` just before that hand) is of the same chips and no hand of the
    session has seated him since that place: the
    same command entered twice (repeated, or typed at two terminals) looks so. A rebuy is
    legitimate, so it is recorded all the same, with this said (``bought in 200 chips in fri
    already (entry 2) and has played no hand since``); None otherwise."""
    from ledger.audit.placing import hand_starts, named_hand, place

    group = alias_group(ledger, player, names)
    mine = {seq: state.amended.get(seq, e) for seq, e in state.entries.items()
            if isinstance(e, ev.BuyIn) and e.player in group and seq not in state.retracted}
    if not mine:
        return None
    stream = f"session:{session}"
    at = dict(ledger.query("SELECT seq, position FROM events WHERE stream = $1 AND"
                           " list_contains($2, seq)", [stream, sorted(mine)]))
    starts = hand_starts(ledger.connection, [(session, h) for e in mine.values()
                                             if (h := named_hand(e)) is not None])
    # his last buy-in where the books count it (``--before HAND``: just before that hand)
    spot, last = max((place(at[seq], session, e, starts), seq) for seq, e in mine.items())
    if mine[last].chips != chips:
        return None
    played = ledger.query(
        "SELECT 1 FROM events WHERE type = 'hand_started' AND session = $1 AND position > $2"
        " AND len(list_intersect(CAST(json_extract_string(payload, '$.seats[*].player') AS"
        " VARCHAR[]), $3)) > 0 LIMIT 1", [session, spot, sorted(group)])
    if played:
        return None
    return (f"bought in {chips} chips in {session} already (entry {last}) and has played no "
            "hand since")


def close_to_books(session: str, player: str, books: set[str], seq: int) -> str | None:
    """The ``warning:`` line of a buy-in (entry ``seq``) that first names ``player`` in
    ``session``'s books (``books``: :func:`in_books` before it) when his name is close to one
    of theirs (:func:`ledger.model.names.likely_meant`, as ``cashout`` and ``hand start``
    offer it) and a typo away from it (:func:`_one_typo`: ``Anne`` beside ``Ann``, not
    ``Dan``, a player of his own): a name mistyped makes a second player, whose buy-in
    settle bills apart. None when no name is close. A name not all ASCII is spelled with
    its code points, as is each of the books' (:func:`ledger.model.names.spelled`: ``'Аnn'
    (U+0410 n n)``), so that a letter of another script that looks like another name's
    reads apart."""
    names = sorted(books)
    close = [n for n in likely_meant(player, names) if _one_typo(player, n)]
    if not close:
        return None
    def show(name: str) -> str:
        return name if name.isascii() else spelled(name)

    return (f"warning: {show(player)} is new to the books of session {session} (its "
            f"players: {', '.join(map(show, names))}): did you mean {' or '.join(close)}? "
            "(recorded as a new player's buy-in; a name mistyped is ended with `handledger "
            f"entry retract {shell_arg(session)} {shell_arg(seq)} --reason … --by …`)")


def _one_typo(typed: str, name: str) -> bool:
    """Whether ``typed`` is ``name`` but for one typo, case folded: a letter added, left out
    or changed, or two letters swapped (or the same name in another case)."""
    a, b = typed.casefold(), name.casefold()
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) <= 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def new_player(ledger: Any, session: str, state: SessionState, player: str, where: str, *,
               seated: set[str] | None = None, names: dict[str, str] | None = None) -> None:
    """Refuse ``player``, first named in ``session``'s books by a buy-in (``where``: the
    command as typed up to the amount, or a file's row), whose name prints like a player's
    of its books or, not being one of the ledger's players, like one of theirs (another
    case, another encoding of its letters), or that the action notation reads as something
    else (:func:`ledger.model.names.check_seat_name`). ``seated``: the players of the
    session's hands, read already (:func:`replay.sessions.state.in_books`); ``names``: the
    series' aliases, read already (:func:`replay.sessions.state.series_names`).

    Raises:
        MalformedInput: naming ``where``, both names and the one likely meant.
    """
    books = in_books(ledger, session, state, seated=seated, names=names)
    same = look_alikes(player, books)
    said = f"{session}'s books"
    if not same:  # a player of the series, back in a new session under another case
        bought = ledger.query(  # buy-ins in force: a retraction is final
            "SELECT DISTINCT b.payload->>'player' FROM events b WHERE b.type = 'buy_in'"
            " AND NOT EXISTS (SELECT 1 FROM events c WHERE c.type = 'entry_corrected'"
            " AND c.stream = b.stream AND CAST(c.payload->>'seq' AS BIGINT) = b.seq"
            " AND c.payload->>'replacement' IS NULL)")
        bought_names = {n for (n,) in bought}
        same = [] if player in bought_names else [
            n for n in look_alikes(player, bought_names)
            if n not in alias_group(ledger, player, names)]
        said = "the ledger's books"
    if same:
        case = all(n.casefold() == player.casefold() for n in same)
        show = str if case else spelled
        raise MalformedInput(
            f"{where}: {show(player)} is not in {said} and "
            f"{' and '.join(map(show, same))} is: did you mean {same[0]}? (names are kept "
            "as typed; two players whose names differ only in case"
            f"{'' if case else ' or in how their letters are encoded'} would print alike)")
    check_seat_name(player)


def buy_in_kind(session: str, state: SessionState, player: str, chips: int,
                kind: str | None, where: str, *, fix: str = "leave out --kind") -> str:
    """The kind of ``player``'s buy-in of ``chips`` in ``session`` (``kind`` as given, else
    ``buy_in`` for his first and ``rebuy`` after), within the ledger's bound with his
    buy-ins before it (:func:`bounded`). ``where``: the command as typed with ``--kind``, or
    a file's row; ``fix``: what the refusal says to do.

    Raises:
        LedgerError: a rebuy or top-up of a player with no buy-in there yet;
            MalformedInput: his buy-ins together beyond the bound.
    """
    if kind in ("rebuy", "top_up") and player not in state.bought:
        raise LedgerError(f"{where}: {player} has no buy-in in {session} yet, and a "
                          f"{kind.replace('_', '-')} follows one ({fix})")
    total = state.chips_in.get(player, 0) + chips
    if player in state.bought:
        bounded(state, f"{player}'s buy-ins in {session} together", total)
    return kind or ("rebuy" if player in state.bought else "buy_in")


def _no_buy_in_in_play(ledger: Any, session: str, state: SessionState, player: str,
                       chips: int, kind: str | None, names: dict[str, str]) -> None:
    """Refuse a buy-in of ``chips`` (``kind`` as given) by ``player`` while he is seated in a
    hand of ``session`` still in play (:func:`_in_play`; RULES.md §1.1: chips are added only
    between a showdown and the next deal), naming both ways to record it: one made before
    that hand, which its starting stack counts, with ``--before HAND``; one made during it,
    once it ends or is voided. When the hand starts him with more chips than the books give
    him (:func:`replay.sessions.stack_follow.start_against_books`), the refusal says so
    first: that start counts a buy-in made before it.

    Raises:
        LedgerError: ``Ann is seated in hand 2 of session fri, which is still open: no buy-in
            now (…, RULES.md §1.1); hand 2 starts Ann with 149 chips, 50 more than the books
            give (99 after hand 1 with nothing bought since): a rebuy made before hand 2, which
            that stack counts, is recorded with `handledger buyin fri Ann 50 --before 2`; one
            made during it, once the hand ends (`handledger act 2 end`) or is voided``.
    """
    from replay.sessions.stack_follow import start_against_books

    hand = _in_play(ledger, session, player, names)
    if hand is None:
        return
    word = (kind.replace("_", "-") if kind is not None
            else "rebuy" if names.get(player, player) in state.bought else "buy-in")
    typed = f" --kind {shell_arg(kind)}" if kind is not None else ""
    command = (f"`handledger buyin {shell_arg(session)} {shell_arg(player)} {chips}{typed} "
               f"--before {shell_arg(hand)}`")
    ends = (f"once the hand ends (`handledger act {shell_arg(hand)} end`) or is voided")
    said = (f"{player} is seated in hand {hand} of session {session}, which is still open: no "
            "buy-in now (chips are added only between a showdown and the next deal, RULES.md "
            "§1.1); ")
    start = start_against_books(ledger, session, hand, alias_group(ledger, player, names))
    if start is not None and start.stack > start.expected:
        raise LedgerError(
            f"{said}hand {hand} starts {start.player} with {start.stack} chips, "
            f"{start.stack - start.expected} more than the books give ({start.basis()}): a "
            f"{word} made before hand {hand}, which that stack counts, is recorded with "
            f"{command}; one made during it, {ends}")
    raise LedgerError(f"{said}a {word} made before hand {hand} (its starting stack counts it): "
                      f"{command}; one made during it: record it {ends}")


def _in_play(ledger: Any, session: str, player: str, names: dict[str, str]) -> str | None:
    """The first hand of ``session`` still in play (a voided one taken back is in play again)
    that seats ``player`` under this name or any other of his (``names``:
    :func:`series_names`); None when none does."""
    from replay.amendments import split_stream

    group = alias_group(ledger, player, names)
    hands = [hand for hand, voided, ended in hands_seating(ledger, session, group)
             if not ended and (not voided or not split_stream(
                 [r.event for r in ledger.read(hand)])[2])]
    return hands[0] if hands else None


def _between_hands(ledger: Any, session: str, player: str, entry: str, rule: str,
                   names: dict[str, str]) -> None:
    """Refuse a book ``entry`` (buy-in, cash-out) of ``player`` while he is seated, under
    this name or any other of his (``names``: :func:`series_names`), in a hand of
    ``session`` that is still open: table stakes (RULES.md §1.1), as ``rule`` words it.

    Raises:
        LedgerError: naming the player, the hand and how to end it.
    """
    hand = _in_play(ledger, session, player, names)
    if hand is not None:
        raise LedgerError(f"{player} is seated in hand {hand} of session {session}, which "
                          f"is still open: no {entry} now ({rule}, RULES.md §1.1); record it "
                          f"once the hand ends (`handledger act {shell_arg(hand)} end`) or is "
                          "voided")


def cash_out(ledger: Any, session: str, player: str, chips: str, *, closed: bool = False,
             note: Callable[[str], None] | None = None) -> tuple[ev.CashOut, int]:
    """``player`` leaves ``session`` with ``chips`` counted (as typed: whole chips, 0 or
    more, :func:`chips_written`). Returns the event and its seq. ``closed``: go in though the
    session is closed, as an ``entry amend`` of its cash-outs does (its books were settled
    up at the close: docs/COMMANDS.md "sessions and the books"). ``note`` gets a ``warning:`` line
    when the chips are other than the session's hands leave him (the audit's session
    balance: :func:`replay.sessions.cash_out_books.cash_out_warning`); it is recorded.

    Raises:
        ChainBroken, LedgerCorrupt: with ``closed``, the ledger file fails the proof made
            before it is read (:func:`ledger.store.proven.prove_before_writing`).
        MalformedInput: a bad player name (:func:`ledger.model.names.check_name`), an amount
            that is not a whole number of chips;
        NotFound: no such session; LedgerError: the session is closed (unless ``closed``)
            or open with ``closed`` (:func:`replay.sessions.state.closed_flag_on_open`),
            he has no chips at the table (no buy-in, or cashed out already since his last
            buy-in), is seated in a hand of the session that is still open
            (:func:`_between_hands`), or the chips are more than the table holds
            (:func:`within_table`).
    """
    check_name(player)
    if closed:  # a deliberate write to closed books, not the live table's
        prove_before_writing(ledger)
    names = series_names(ledger)  # an alias is his player's name here, as in the audit
    state = open_state(ledger, session, allow_closed=True, players=names)
    if closed:
        closed_flag_on_open(state, session, f"cashout {session} {player} {chips} --closed")
    chips = chips_written(chips, f"cashout {session} {player}", state)
    if state.closed and not closed:
        raise LedgerError(
            f"session {session} is closed (entry {state.closed_seq}; its books were settled up "
            f"at the close): a cash-out of {player} changes them; nothing written; --closed "
            "records it anyway")
    def hands_left() -> dict[str, int]:  # asked for a refusal only: the session folded
        from replay.sessions.cash_out_books import chips_left_by_hands

        return chips_left_by_hands(ledger, session)

    away = not_at_table(session, state, names.get(player, player), chips, hands_left)
    if away is not None:
        raise away
    _between_hands(ledger, session, player, "cash-out", "chips are not taken off the table "
                   "during play", names)
    within_table(ledger, session, state, chips, f"cashout {session} {player} {chips}")
    event = ev.CashOut(player=player, chips=chips)
    seq = append_entry(ledger, session, event, state)
    if note is not None:
        from replay.sessions.cash_out_books import cash_out_warning

        if (warning := cash_out_warning(ledger, session, seq, player)) is not None:
            note(warning)
    return event, seq


def not_at_table(session: str, state: SessionState, player: str, chips: int,
                 hands_left: Callable[[], Mapping[str, int]] | None = None
                 ) -> LedgerError | None:
    """Why ``player`` cannot cash out ``chips`` in ``session`` whose books ``state`` folds:
    he has no chips at the table there (he cashed out since his last buy-in, or has no
    buy-in), as ``cashout`` refuses it; None when he has. ``hands_left()``: the chips the
    session's hands leave each player at the table
    (:func:`replay.sessions.cash_out_books.chips_left_by_hands`), asked only for a refusal
    naming who has chips there (None: the buy-ins alone say it)."""
    if player in state.seated:
        return None
    if player in state.cashed:
        seq = state.cashed_at.get(player)
        return LedgerError(
            f"{player} already cashed out {state.cashed[player]} chips in {session}"
            + (f" (entry {seq}, no buy-in since); a wrong count is amended: `handledger entry "
               f"amend {shell_arg(session)} {shell_arg(seq)} CHIPS --reason … --by "
               "…`" if seq is not None else
               f" (no buy-in since); a wrong count is amended: `handledger entry amend "
               f"{shell_arg(session)} SEQ CHIPS --reason … --by …` (`handledger history --session "
               f"{shell_arg(session)}` lists the entries)"))
    return LedgerError(_no_buy_in(session, player, chips, state, hands_left))


def within_table(ledger: Any, session: str, state: SessionState, chips: int, where: str,
                 *, replacing: int | None = None, place: Place | None = None) -> None:
    """Refuse a cash-out of ``chips`` beyond the chips still on the table: the session's
    buy-ins less its cash-outs so far (but ``replacing``, the chips of the cash-out an
    amendment replaces, counted back onto the table) and less the rake its hands' pots paid
    the table (:func:`replay.rake_taken.rake_taken`). Hands move chips between players and
    the rake takes some away; none makes chips (table stakes, RULES.md §1.1). Not checked
    while the buy-ins do not account for every chip (a hand seating a player who has none:
    his chips came from outside these books). ``where`` is the command as typed, with the amount
    (``"cashout fri Ann 199"``, ``"entry amend fri 4 (cash-out of Ann): 199 chips"``), which
    the refusal names; ``place``: a file's correction (its rake of the hands before it).

    Raises:
        LedgerError: one line naming ``where``, the chips left on the table, the buy-ins,
            cash-outs and rake, and what to record instead: for a new cash-out, each stored
            one that took more than the hands left its player, by its entry number
            (:func:`replay.sessions.cash_out_books.over_cashed`), to amend.
    """
    bought, out, rake = _table_sums(ledger, session, state, out_back=replacing or 0,
                                    raked=chips > 0,  # a cash-out of nothing takes no rake
                                    place=place)
    left = bought - out - rake
    if chips <= left:
        return
    if chips_from_outside(ledger, session, state.bought):
        return
    raked = f", {rake} taken as rake" if rake else ""
    if replacing is None:
        said, others, fix = "", "", "a cash-out counted wrong"
    else:
        said, others, fix = (" besides this cash-out", " by the other entries",
                             "another cash-out counted wrong")
    over = []
    if place is None and replacing is None:  # `cashout`: the cash-outs the hands do not cover
        from replay.sessions.cash_out_books import over_cashed

        over = over_cashed(ledger, session)
    if over:
        seq, chips_left = (over[0].seq, over[0].left) if len(over) == 1 else ("SEQ", "CHIPS")
        fix = (f"{'a cash-out takes' if len(over) == 1 else 'cash-outs take'} more than the "
               f"hands left: {'; '.join(o.words() for o in over)}; amend "
               f"{'it' if len(over) == 1 else 'each'} first (`handledger entry amend "
               f"{shell_arg(session)} "
               f"{shell_arg(seq)} {shell_arg(chips_left)} --reason … --by …`), or record a buy-in "
               "missing from the "
               "books")
    else:
        fix = (f"a buy-in missing from the books is recorded first, {fix} is amended "
               f"(`handledger entry amend {shell_arg(session)} SEQ CHIPS --reason … --by …`; "
               f"`handledger history --session {shell_arg(session)}` lists the entries)")
    raise LedgerError(
        f"{where}: the table holds {left} chips not cashed out yet{said} ({bought} bought in, "
        f"{out} cashed out{others}{raked}), and no hand makes chips; {fix}")


def cash_outs_covered(ledger: Any, session: str, state: SessionState, fewer: int, where: str,
                      *, place: Place | None = None) -> None:
    """Refuse a buy-in retracted or lowered by ``fewer`` chips that would leave the session's
    cash-outs and the rake its hands' pots paid the table (:func:`replay.rake_taken.
    rake_taken`) above its buy-ins: the table would have paid out chips that never came in
    (no hand makes chips, table stakes, RULES.md §1.1; the bound of :func:`within_table`,
    seen from the buy-ins). Not checked while a hand seats a player who has no buy-in (his
    chips came from outside these books, as for ``cashout``). ``where`` is the command as
    typed, with the amount (``"entry retract fri 2 (buy-in of Ann, 100 chips)"``);
    ``place``: a file's correction (its rake of the hands before it).

    Raises:
        LedgerError: one line naming ``where``, the buy-ins it would leave, the cash-outs and
            the rake, and what to record instead.
    """
    bought, out, rake = _table_sums(ledger, session, state, in_back=fewer, place=place)
    if out + rake <= bought or chips_from_outside(ledger, session, state.bought):
        return
    raked = f" and {rake} taken as rake ({out + rake} in all)" if rake else ""
    raise LedgerError(
        f"{where}: the buy-ins would come to {bought} chips, less than the {out} cashed out"
        f"{raked}, and no hand makes chips; nothing written (a cash-out counted wrong is "
        f"amended first: `handledger entry amend {shell_arg(session)} SEQ CHIPS --reason … --by "
        "…`; "
        f"`handledger history --session {shell_arg(session)}` lists the entries)")


def _table_sums(ledger: Any, session: str, state: SessionState, *, in_back: int = 0,
                out_back: int = 0, raked: bool = True, place: Place | None = None
                ) -> tuple[int, int, int]:
    """``(bought, cashed out, raked)``: the chips of ``session``'s buy-ins (less ``in_back``,
    a buy-in retracted or lowered), of its cash-outs (less ``out_back``, the cash-out an
    amendment replaces) and of the rake its hands' pots paid the table
    (:func:`replay.rake_taken.rake_taken`; a file row's ``place``: of the hands before it),
    whose sum the table never pays out beyond the buy-ins (RULES.md §1.1); the rake is not
    read (0) unless ``raked``."""
    from replay.rake_taken import rake_taken

    rake = 0 if not raked else rake_taken(ledger, session) if place is None else place.rake
    return sum(state.chips_in.values()) - in_back, state.chips_out - out_back, rake


def chips_from_outside(ledger: Any, session: str, bought: set[str]) -> bool:
    """Whether a hand of ``session`` seats a player who has no buy-in there (``bought``:
    the players who have), under his name or an alias: his chips came from outside these
    books, so the buy-ins bound nothing."""
    return any(not alias_group(ledger, p) & bought for p in seated_in(ledger, session) - bought)


def _no_buy_in(session: str, player: str, chips: int, state: SessionState,
               hands_left: Callable[[], Mapping[str, int]] | None = None) -> str:
    """The refusal of a cash-out of ``player``, who has no buy-in in ``session``: the name he
    was likely meant to be (a player of its books by another case or a typo) with the
    cash-out to type, else who has chips at the table (bought in and not cashed out, then
    those the session's hands leave chips without a buy-in: ``hands_left``, as
    :func:`not_at_table`) and how an unrecorded buy-in goes in."""
    names = sorted(state.chips_in)
    close = likely_meant(player, names, n=3)
    said = f"{player} has no buy-in in {session}"
    if len(close) == 1 and close[0] in state.seated:
        return (f"{said}: did you mean {close[0]}? (`handledger cashout {shell_arg(session)} "
                f"{shell_arg(close[0])} "
                f"{shell_arg(chips)}`)")
    if len(close) == 1:
        return (f"{said}: did you mean {close[0]}? ({close[0]} cashed out "
                f"{state.cashed.get(close[0], 0)} chips already)")
    if close:
        return f"{said}: did you mean {' or '.join(close)}?"
    at_table = ", ".join(sorted(state.seated))
    unbought = sorted(p for p in (hands_left() if hands_left is not None else {})
                      if p not in state.seated and p not in state.chips_in)
    if unbought:  # chips from outside the books: the hands seated them with no buy-in
        at_table += (", and " if at_table else "") + (
            f"{len(unbought)} player(s) its hands seated without a buy-in "
            f"({', '.join(unbought)})")
    at_table = at_table or "nobody"
    return (f"{said}: nothing to cash out (chips at the table: {at_table}; a buy-in not yet "
            f"recorded goes first: `handledger buyin {shell_arg(session)} {shell_arg(player)} "
            "CHIPS`)")
