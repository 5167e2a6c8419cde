"""``player alias``: recording that another name or a platform id is a player, refused when
the two are plainly two players (they sat in one hand together, or both have entries in one
session's books: an alias would merge their nets, RULES.md §1.1); ``player unalias``: ending
one, an appended event (the alias stays in the history).
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev
from ledger.model.errors import LedgerError, MalformedInput, NotFound
from ledger.model.names import (
    aliases_in_force,
    check_name,
    check_name_length,
    check_new_name,
    check_not_look_alike,
    check_not_the_house,
    likely_meant,
)
from ledger.model.shell import shell_arg
from ledger.store.own_names import platform_ids_named, platform_own_name
from ledger.store.proven import prove_before_writing
from ledger.store.streams import (
    alias_pairs,
    latest_session,
    player_names,
    shared_hand,
    shared_session,
)
from replay.sessions.payments import PLATFORM_LABEL
from replay.sessions.state import (
    alias_group,
    append_entry,
    entry_said,
    open_state,
    series_names,
)


def add_alias(ledger: Any, name: str, other: str, session: str | None, *,
              new: bool = False) -> tuple[str, bool, bool, str]:
    """Record that ``other`` (another name or a platform id) is the player ``name``, in
    ``session``'s stream (default: the latest session). A PokerNow player's name (the one
    his import logged for his id, from any session) or his label ``Name (id)`` stands for his
    id, as ``pay`` takes him (:func:`platform_other`): the alias names the id, so his hands
    and entries count as ``name``'s. Returns the session, whether ``name`` is a player name
    the ledger held already (False: ``other`` is renamed to a new name), whether ``other`` is
    (False: a name no hand, entry or alias gave yet, perhaps a typo), each of which the
    caller says, and the alias recorded (``other``, or the id it stands for). ``new``
    (``--new``): ``name`` is a new player's name, not a typo of one the ledger holds, however
    close its spelling (docs/LIVE.md "Player aliases").

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        MalformedInput: a bad name (:func:`ledger.model.names.check_name`; a new ``name``,
            :func:`ledger.model.names.check_new_name`), or ``other`` is ``name`` (or his
            PokerNow name); NotFound: no session; LedgerError: ``other`` the PokerNow name of
            two or more ids (naming them; :func:`platform_other`), ``name`` is no player
            name of the ledger and close to one that is (a typo:
            :func:`ledger.model.names.likely_meant`, ``other`` and his aliases aside; the
            names ``other`` could be an alias of offered, and ``--new``), unless ``new``,
            the two sat in one hand together or both have book entries in one session (two
            players: an alias would merge their nets, RULES.md §1.1); MalformedInput:
            ``new`` and ``name`` is a player of the ledger already.
    """
    check_name(name)
    if name == other:
        raise MalformedInput("an alias must differ from the name")
    prove_before_writing(ledger)
    typed, other = other, platform_other(ledger, name, other)
    check_name(other)
    if name == other:
        raise MalformedInput(f"{typed} is the name PokerNow logged for {name} already; "
                             "nothing recorded").keeping_names()
    # the refusals name a PokerNow name by the id it stands for too: ``IpusyM (f-mUxYkHrq)``
    said = typed if typed == other or typed.endswith(f" ({other})") else f"{typed} ({other})"
    mine = alias_group(ledger, name)
    theirs = alias_group(ledger, other) - mine
    known = name in (names := player_names(ledger))
    if not known:  # a new name: one a command line can give back, printing like no other
        check_not_look_alike(name, names - theirs - {other}, "player",
                             "a player of the ledger")
        check_name_length(name, where="player alias")  # before a line prints it
        check_new_name(name)
        check_not_the_house(name)
    if new and known:
        raise MalformedInput(f"--new: {name} is a player of the ledger already, no new name "
                             "(leave out --new); nothing recorded")
    if not known and not new and (close := likely_meant(name, pool := sorted(
            names - theirs - {other}))):
        raise _typo(ledger, name, typed, other, close, pool)
    if (two := _two_players(ledger, name, said, mine, theirs)) is not None:
        raise two
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the alias in: open one first")
    state = open_state(ledger, session, allow_closed=True)
    append_entry(ledger, session, ev.PlayerAlias(player=name, alias=other), state)
    return session, known, other in names, other


def _apart(ledger: Any, mine: set[str], theirs: set[str]) -> tuple[str, str] | None:
    """What shows the player of the names ``mine`` and the one of ``theirs`` are two
    (RULES.md §1.1): ``("hand", H)``, they sat in hand H together, or ``("session", S)``,
    both have book entries in session S; None when nothing does."""
    if (hand := shared_hand(ledger, sorted(mine), sorted(theirs))) is not None:
        return "hand", hand
    if (both := shared_session(ledger, sorted(mine), sorted(theirs))) is not None:
        return "session", both
    return None


def _apart_said(apart: tuple[str, str]) -> str:
    """:func:`_apart`'s finding in words: ``sat in hand H together`` or ``both have book
    entries in session S``."""
    kind, where = apart
    return (f"sat in hand {where} together" if kind == "hand"
            else f"both have book entries in session {where}")


def _two_players(ledger: Any, name: str, said: str, mine: set[str], theirs: set[str]
                 ) -> LedgerError | None:
    """The refusal of ``player alias`` of ``said`` (his names ``theirs``) to ``name`` (his
    names ``mine``) when they are two players (:func:`_apart`); None when nothing says so."""
    apart = _apart(ledger, mine, theirs)
    if apart is None:
        return None
    refused = (f"{name} and {said} {_apart_said(apart)}: they are two players, not one (no "
               "alias recorded)")
    if apart[0] == "hand":
        return LedgerError(refused)
    both = shell_arg(apart[1])
    return LedgerError(
        f"{refused}; if they are one, retract {said}'s entries there and record them again "
        f"as {name}'s (`handledger entry retract {both} SEQ --reason … --by …`; `handledger "
        f"history --session {both}` lists them)")


def _typo(ledger: Any, name: str, typed: str, other: str, close: list[str],
          pool: list[str]) -> LedgerError:
    """The refusal of ``player alias NAME OTHER`` whose new ``name`` is spelled close to the
    players ``close`` (a typo? :func:`ledger.model.names.likely_meant` of ``pool``, the
    names it may mean): it offers only names of ``pool`` as close that ``other`` (as
    ``typed``) could be an alias of, at most two, each checked as ``player alias`` checks
    it (:func:`_apart`), else says why the first of ``close`` cannot be meant; and ``--new``
    for a name that is new."""
    theirs = alias_group(ledger, other)
    fits, why = [], None
    for meant in likely_meant(name, pool, n=len(close) + 8):
        mine = alias_group(ledger, meant)
        if (apart := _apart(ledger, mine, theirs - mine)) is None:
            fits.append(meant)
        elif why is None:
            why = f"{meant} and {typed} {_apart_said(apart)}"
        if len(fits) == len(close):
            break
    new = (f"if {name} is a new player's name, `handledger player alias {shell_arg(name)} "
           f"{shell_arg(typed)} --new` records it; nothing recorded")
    if fits:
        return LedgerError(
            f"{name} is no player in the ledger: did you mean {' or '.join(fits)}? "
            f"(`handledger player alias {shell_arg(fits[0])} {shell_arg(typed)}`); {new}")
    return LedgerError(f"{name} is no player in the ledger; it is spelled close to "
                       f"{' and '.join(close)}, but {why} (two players, so not meant); {new}")


def platform_other(ledger: Any, name: str, other: str) -> str:
    """The player ``player alias NAME OTHER`` makes ``name``'s: ``other``'s platform id when
    ``other`` is the name a PokerNow import logged for it, that statement still in force
    (:func:`ledger.store.own_names.platform_own_name`), or his label ``Name (id)`` as the
    reads print it; else ``other`` as typed. An alias of the name alone would leave his id,
    which his hands and entries are stored under, a player apart.

    Raises:
        LedgerError: ``other`` is the PokerNow name of two or more ids (README "PokerNow":
            players of one name), naming them; nothing recorded.
    """
    label = PLATFORM_LABEL.fullmatch(other)
    if label is not None and label["id"] in platform_ids_named(ledger, label["name"]):
        return label["id"]
    ids = platform_ids_named(ledger, other)
    if len(ids) > 1:
        raise LedgerError(
            f"{other} is the PokerNow name of {len(ids)} players ({', '.join(ids)}): name the "
            f"one meant by his id (`handledger player alias {shell_arg(name)} "
            f"{shell_arg(ids[0])}`); nothing "
            "recorded").keeping_names()
    return platform_own_name(ledger, other) or other


def end_alias(ledger: Any, alias: str, session: str | None, *, reason: str, by: str
              ) -> tuple[str, str, str]:
    """End the alias ``alias`` (a name ``player alias`` or a PokerNow import made another
    player's) from here on: a ``player_unaliased`` in ``session``'s stream (default: the
    latest session), the ``player_alias`` rows staying in the ledger. Every reader of the
    alias map (:func:`replay.sessions.state.series_names`,
    :func:`ledger.audit.books.resolve_aliases`) then takes ``alias`` as a player of his own
    name again, or the player a statement of it before the one ended made him (README
    "player unalias"). ``alias`` is taken as ``player alias`` takes its OTHER: a PokerNow
    player's label ``Name (id)``, or the name his log gave an id a host made an alias
    (``player alias Bob Qapurjsa9``, recorded for BfS83Cedu3), stands for his id
    (:func:`unalias_target`). Returns the session, the player the ended statement named
    (``player alias NAME ALIAS``'s NAME; a PokerNow import's id) and the alias ended.

    Raises:
        ChainBroken, LedgerCorrupt: the ledger fails the proof made before writing; nothing
            written. MalformedInput: a bad name (:func:`ledger.model.names.check_name`);
            LedgerError: ``alias`` is no alias now (a player's own name, one never aliased or
            one unaliased already), the name PokerNow logged for two or more ids a host made
            aliases (naming them), or the name PokerNow logged for a player's id
            (:func:`ledger.store.own_names.platform_own_name`) while book entries in force
            are written under the name (:func:`check_no_entries_under`); NotFound: no
            session.
    """
    check_name(alias)
    prove_before_writing(ledger)
    names = series_names(ledger)
    typed, alias = alias, unalias_target(ledger, alias, names)
    player = names.get(alias)
    if player is None:
        aliases = sorted(a for a, p in names.items() if p == alias)
        said = (f" (its aliases: {', '.join(aliases)}; `handledger player unalias "
                f"{shell_arg(aliases[0])} --reason … --by …` ends one)" if aliases else "")
        raise LedgerError(f"{typed} is no alias of another player{said}; nothing recorded")
    pairs = alias_pairs(ledger)
    force = aliases_in_force(pairs)
    if (pid := platform_own_name(ledger, alias)) is not None:
        check_no_entries_under(ledger, alias, pid)
    if session is None:
        session = latest_session(ledger)
        if session is None:
            raise NotFound("no session to record the end of the alias in: open one first")
    state = open_state(ledger, session, allow_closed=True)
    said = [p for (p, a), on in zip(pairs, force, strict=True) if on and a == alias]
    append_entry(ledger, session, ev.PlayerUnaliased(alias=alias, reason=reason, by=by), state)
    return session, said[-1] if said else player, alias


def unalias_target(ledger: Any, alias: str, names: dict[str, str]) -> str:
    """The alias ``player unalias ALIAS`` ends, ``alias`` read as ``player alias`` reads its
    OTHER (:func:`platform_other`): a PokerNow player's label ``Name (id)`` stands for his
    id; so does the name PokerNow logged for an id that ``names`` (the alias map in force)
    makes another player's, a host's alias, which ``player alias NAME LOGGED-NAME`` recorded
    for the id (ending the logged name would leave that alias in force). Else ``alias``.

    Raises:
        LedgerError: ``alias`` is the PokerNow name of two or more ids a host made aliases,
            naming them (as ``player alias`` refuses a name two PokerNow players share).
    """
    label = PLATFORM_LABEL.fullmatch(alias)
    if label is not None and label["id"] in platform_ids_named(ledger, label["name"]):
        return label["id"]
    ids = [pid for pid in platform_ids_named(ledger, alias) if pid in names]
    if len(ids) > 1:
        raise LedgerError(
            f"{alias} is the PokerNow name of {len(ids)} players a host made aliases "
            f"({', '.join(ids)}): name the one meant by his id (`handledger player unalias "
            f"{shell_arg(ids[0])} --reason … --by …`); nothing recorded").keeping_names()
    return ids[0] if ids else alias


def check_no_entries_under(ledger: Any, name: str, pid: str) -> None:
    """Refuse to end ``name``, the name PokerNow logged for the id ``pid``, while a book
    entry in force (a buy-in, cash-out or payment, not retracted) is written under it:
    ``cashout`` and ``pay`` store his name as typed, and ending it would make those entries
    a player apart from his hands (a cash-out of chips nobody holds at the table).

    Raises:
        LedgerError: naming the first such entry (session and seq) and how a wrong one is
            corrected instead; nothing recorded.
    """
    sessions = [s for (s,) in ledger.query(
        "SELECT DISTINCT session FROM events WHERE hand_id IS NULL"
        " AND type IN ('buy_in', 'cash_out', 'payment') AND $1 IN (payload->>'player',"
        " payload->>'payer', payload->>'payee') ORDER BY session", [name])]
    for session in sessions:
        state = open_state(ledger, session, allow_closed=True)
        for seq, entry in sorted(state.entries.items()):
            if seq not in state.retracted and name in (
                    getattr(entry, k, None) for k in ("player", "payer", "payee")):
                raise LedgerError(
                    f"{name} is the name PokerNow logged for {pid}, not an alias a host made: "
                    f"entry {seq} ({entry_said(entry)}) of session {session} is written under "
                    "it, and ending it would split that entry from his hands; nothing recorded (a "
                    "wrong entry is amended or retracted: `handledger entry retract "
                    f"{shell_arg(session)} {shell_arg(seq)} --reason … --by …`)").keeping_names()
