"""Whether the seats of a hand started live follow the session's books: no hand still in
play may seat one of its players (under his name or an alias; :func:`not_in_play` refuses
it), and the stack the latest hand there left him plus what he bought since (the audit's
stack continuity, said while the host can still fix it), which
:func:`replay.live.start.start_hand` turns into warning lines; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg
from replay.sessions.stack_follow import LOOK_BACK, book_entries, bought_since


def stacks_not_followed(ledger: Any, session: str, started: Any, played: set[str],
                         names: Mapping[str, str], shown: Callable[[str], str] = str
                         ) -> list[str]:
    """Warning lines for seats of ``started`` that do not follow the books: a player who
    played an earlier hand of ``session`` starting with other than the stack left him by
    the latest hand started there that seats him (starting − put in + what the table paid
    him) plus the chips he bought since, as corrected (after a cash-out since, only those
    bought after it; :func:`bought_since`): a rebuy not recorded, a stack miscounted (not
    said while that hand is still in play: :func:`not_in_play` refuses the seat then). The
    audit's stack continuity names the same difference once the hand is recorded; this says
    it while the host can still fix it. A player is known under his name or any alias of it
    (``names``: the series' alias map, :func:`replay.sessions.state.series_names`), as the
    audit knows him; ``played``: the names seated in the session's hands; ``shown`` names a
    player as the reads do (a command to type keeps his stored name)."""
    from replay.fold import replay_events
    from replay.sessions.state import alias_group

    groups = {s.player: alias_group(ledger, s.player, names) for s in started.seats}
    lines: list[str] = []
    want = {s.player: s.stack for s in started.seats if groups[s.player] & played}
    book: list[tuple[int, Any]] | None = None  # the session's entries, read once if needed
    # Latest started first, as the audit's stack continuity orders a session's hands (by the
    # position of their hand_started, ledger/audit/books.py): a correction or a void appended
    # to an older hand later does not make it his latest hand.
    recent = ledger.query(
        "SELECT hand_id, min(position) FROM events WHERE session = $1 AND hand_id IS NOT NULL"
        " AND hand_id <> $2 GROUP BY hand_id ORDER BY min(position) DESC LIMIT $3",
        [session, started.hand, LOOK_BACK])
    for hand_id, first in recent:
        if not want:
            break
        try:
            replay = replay_events([r.event for r in ledger.read(hand_id)])
        except LedgerError:
            continue
        result = replay.result
        if result.status == "voided":  # its stacks count for nothing: the hand before it
            continue
        for player in [p for p in want if groups[p] & result.starting.keys()]:
            stack = want.pop(player)
            paid = replay.paid
            if result.status == "open" or paid is None:  # in play: refused by not_in_play
                continue
            if book is None:
                book = book_entries(ledger, session)
            since = bought_since(book, groups[player], first)
            if since is None:  # cashed out since, nothing bought: start_hand warns of it
                continue
            bought, cashed = since
            there = next(n for n in result.starting if n in groups[player])
            left = result.starting[there] - result.contributions.get(there, 0) + paid.get(
                there, 0)
            expected = bought if cashed else left + bought
            if stack != expected:
                lines.append(_stack_warning(session, started.hand, player, stack, hand_id,
                                            left, since, shown))
    return lines


def in_play(ledger: Any, session: str | None, hand: str, groups: Mapping[str, set[str]]
            ) -> list[tuple[str, list[str]]]:
    """Each hand of ``session`` (None: of no session, where a name is one player too) other
    than ``hand`` still in play (started, not ended nor voided, as its replay says) that seats
    a player of ``groups`` (his name → every name he goes by,
    :func:`replay.sessions.state.alias_group`), in ledger order, with those players in the
    order of ``groups``: ``[(hand id, [player, ...]), ...]``. A player's chips are in one
    hand at a time (table stakes, RULES.md §1.1). Only the rows that tell (a hand's start,
    end, corrections and void) are read."""
    from replay.fold import replay_events

    everyone = sorted(set().union(*groups.values())) if groups else []
    # the hands not ended (or amended) first, from the type column alone; then the seats
    # of those only (reading every hand's seats costs seconds in a ledger of 1M hands)
    maybe = [h for (h,) in ledger.query(
        "SELECT hand_id FROM events WHERE " + ("session = $1" if session is not None else
                                               "session IS NULL AND $1 IS NULL")
        + " AND hand_id IS NOT NULL AND hand_id <> $2 AND type IN ('hand_started',"
        " 'hand_ended', 'correction', 'hand_voided') GROUP BY hand_id HAVING NOT"
        " bool_or(type = 'hand_ended') OR bool_or(type IN ('correction', 'hand_voided'))",
        [session, hand])]
    rows = ledger.query(
        "SELECT hand_id FROM events WHERE type = 'hand_started' AND list_contains($1, hand_id)"
        " AND len(list_intersect(CAST(json_extract_string(payload, '$.seats[*].player') AS"
        " VARCHAR[]), $2)) > 0 ORDER BY position", [maybe, everyone]) if maybe else []
    found = []
    for (hand_id,) in rows:
        try:
            result = replay_events([r.event for r in ledger.read(hand_id)]).result
        except LedgerError:
            continue
        if result.status != "open":
            continue
        found.append((hand_id, [p for p, group in groups.items()
                                if group & result.starting.keys()]))
    return found


def _ending(ledger: Any, hand: str) -> str:
    """What ends ``hand``, in play, as :func:`not_in_play` names it beside other hands:
    ``handledger act h1 end`` when it can end now (:func:`replay.live.acting.can_end`), else
    ``pay its pots, then `handledger act h1 end``` or ``play it out and end it``."""
    from replay.live.acting import can_end

    ending = can_end(ledger, hand)
    if ending == "now":
        return f"`handledger act {shell_arg(hand)} end`"
    if ending == "paid":
        return f"pay its pots, then `handledger act {shell_arg(hand)} end`"
    return "play it out and end it"


def not_in_play(ledger: Any, session: str | None, started: Any, names: Mapping[str, str],
                shown: Callable[[str], str] = str) -> None:
    """Refuse ``started`` (a ``hand_started`` not yet written) when it seats a player, under
    his name or an alias (``names``: :func:`replay.sessions.state.series_names`), who is
    seated in another hand of ``session`` (None: of no session, a name being one player
    there too) still in play (:func:`in_play`): a player can risk
    only the chips on the table when the deal starts, and his are in that hand's pot until
    it ends (table stakes, RULES.md §1.1); two hands on the same chips would both be billed
    by settle. The hand is named with what ends it: ``act HAND end`` when it can
    end now (:func:`replay.live.acting.can_end`), else its pots paid first or its play to
    the end, or its void; several such hands are each named so (:func:`_ending`), and one
    ``void`` of them all.
    ``shown`` names a player as the reads do.

    Raises:
        LedgerError: naming the players, the hand and the command that ends it.
    """
    from engine.awards import and_list
    from replay.live.acting import can_end
    from replay.sessions.state import alias_group

    groups = {s.player: alias_group(ledger, s.player, names) for s in started.seats}
    playing = in_play(ledger, session, started.hand, groups)
    if not playing:
        return
    other, players = playing[0]
    who = and_list([shown(p) for p in players])
    verb = "are" if len(players) > 1 else "is"
    more = "".join(f"; {and_list([shown(p) for p in there])} in hand {h}"
                   for h, there in playing[1:])
    void = f"`handledger void {' '.join(shell_arg(h) for h, _ in playing)} --reason … --by …`"
    if len(playing) > 1:  # each hand in play named with what ends it, one void for all
        ends = "; ".join(f"{h}: {_ending(ledger, h)}" for h, _ in playing)
        fix = f"end them first ({ends}) or void them ({void})"
    elif (ending := can_end(ledger, other)) == "now":
        fix = f"end it first (`handledger act {shell_arg(other)} end`) or void it ({void})"
    elif ending == "paid":
        fix = (f"pay its pots and end it first (`handledger act {shell_arg(other)} end` once they "
               "are "
               f"paid), or void it ({void})")
    else:
        fix = f"play it out and end it first, or void it ({void})"
    of = f"of session {session}" if session is not None else "of no session"
    raise LedgerError(
        f"hand {started.hand}: {who} {verb} seated in hand {other} {of}, "
        f"still in play{more}: a player's chips are in one hand at a time (RULES.md §1.1): "
        f"{fix}; nothing written")


def _stack_warning(session: str, hand: str, player: str, stack: int, previous: str,
                   left: int, since: tuple[int, bool], shown: Callable[[str], str] = str
                   ) -> str:
    """The warning of :func:`stacks_not_followed` for ``player`` starting ``hand`` with
    ``stack`` chips: ``left`` after his ``previous`` hand, ``since`` as
    :func:`bought_since` gives it; ``shown(player)`` names him (the command to type keeps
    his stored name)."""
    bought, cashed = since
    expected = bought if cashed else left + bought
    if cashed:
        basis = (f"{expected} by the books ({shown(player)} cashed out after hand {previous} "
                 "and bought "
                 f"{bought} since)")
    elif bought:
        basis = f"{expected} by the books ({left} after hand {previous} and {bought} bought since)"
    else:
        basis = f"{left} after hand {previous} with nothing bought since"
    cause = (f"a rebuy not recorded? (`handledger buyin {shell_arg(session)} {shell_arg(player)} "
             "CHIPS --before "
             f"{shell_arg(hand)}`: the books count it before this hand)"
             if stack > expected else "a stack counted short?")
    return (f"warning: {shown(player)} starts hand {hand} with {stack} chips, {basis}: "
            f"{cause}; the audit's stack continuity will name it")
