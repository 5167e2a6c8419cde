"""Player and session names, and hand ids, as a command takes them: kept exactly as typed,
never repaired.

A name is the key the books group by (a player's net, a session's stream), so ``"Ann "`` and
``"Ann"`` would be two players that print alike. A name with leading or trailing whitespace,
an empty name, or one holding a control character (a newline, a tab, …) is refused rather
than stripped. A new name a command gives (:func:`check_new_name`) is refused too when it
starts with ``-``, is not in composed form (NFC), or prints like one the ledger holds
(:func:`check_not_look_alike`: ``'Café'`` with é as one code point or two, ``'Ａnn'``
full-width beside ``'Ann'``): the refusal spells both (:func:`spelled`), nothing is merged.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ledger.model.errors import MalformedInput


def check_name(name: str, what: str = "player") -> str:
    """``name`` unchanged when it is a name a command may write; ``what`` says whose
    (``"player"``, ``"session"``) in the refusal.

    Raises:
        MalformedInput: an empty name (or only whitespace), leading or trailing whitespace,
            or a control character (Unicode category C: newline, tab, NUL, …).
    """
    return _one_printable_line(name, f"{what} name", "a name")


#: The longest player or session name a command or an import takes, in characters (Unicode
#: code points). A name is printed whole in every table (``balances``, ``standings``,
#: ``settle``, ``state``) and line: PokerStars takes names of at most 15 characters, the longest
#: name of the PHH dataset's hands here is 19 (``'Mikita Badziakouski'``) and a PokerNow log's
#: 14. 64 leaves room for any full name (``'María José García-Hernández López'`` is 33) and a
#: site's anonymised ids (about 22): a table a little wider is better than a real hand refused.
MAX_NAME_LENGTH = 64


def check_name_length(name: str, what: str = "player", where: str | None = None) -> str:
    """``name`` unchanged when it has at most :data:`MAX_NAME_LENGTH` characters; ``what``
    says whose (``"player"``, ``"session"``), ``where`` (``"buyin s"``, ``"--seats"``), when
    given, starts the refusal. Checked for a new name a command gives (:func:`check_new_name`)
    and a name an import stores, never where a name of the ledger is looked up, so that a
    longer name stored before is still named.

    Raises:
        MalformedInput: a longer name, its first characters shown and its length said.
    """
    if len(name) > MAX_NAME_LENGTH:
        raise MalformedInput(
            ("" if where is None else f"{where}: ") +
            f"{what} name {name[:MAX_NAME_LENGTH]!r}… is {len(name):,} characters long: a "
            f"name is at most {MAX_NAME_LENGTH} characters, so that every table prints it "
            "whole (a PokerStars name is at most 15); give a shorter name")
    return name


def check_new_name(name: str, what: str = "player") -> str:
    """``name`` unchanged when a command may give it as a new name (``buyin``, ``hand start
    --seats``, ``session open``, ``player alias NAME``): what :func:`check_name` takes and
    not starting with ``-``, which a command line reads as an option (``act s3 "-Cy cc"``,
    ``session close -weird``). A name already in the ledger (an imported hand's) is looked up
    with :func:`check_name` only, so that it can still be named (``player alias Cy -- -Cy``).

    Raises:
        MalformedInput: what :func:`check_name` refuses, a first ``-``, or more than
            :data:`MAX_NAME_LENGTH` characters (:func:`check_name_length`).
    """
    check_name(name, what)
    check_name_length(name, what)
    if name.startswith("-"):
        raise MalformedInput(f"{what} name {name!r} starts with '-': a command would read it "
                             "as an option; give another name")
    composed = unicodedata.normalize("NFC", name)
    if composed != name:
        raise MalformedInput(f"{what} name {spelled(name)} is not written in composed form "
                             f"(Unicode NFC): it prints as {spelled(composed)} but is another "
                             "string, so the two would be two names that print alike; "
                             f"write {composed!r}")
    return name


def folded(name: str) -> str:
    """The form two names that print alike share: Unicode compatibility composition and case
    folding (NFKC, casefold, NFKC again: ``'Café'`` however its é is written, ``'Ａnn'``
    full-width and ``'ann'`` all fold as ``'café'``, ``'ann'``)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def print_alike(name: str, other: str) -> bool:
    """Whether two different names print alike: one Unicode compatibility composition (NFKC:
    ``'Café'`` with its é as one code point and as e + U+0301, ``'Ａnn'`` full-width and
    ``'Ann'``). Names that differ in case (``'Hero'``, ``'HERO'``) read apart."""
    return name != other and (unicodedata.normalize("NFKC", name)
                              == unicodedata.normalize("NFKC", other))


def spelled(name: str) -> str:
    """``name`` quoted, followed, when it is not plain ASCII, by its characters with every
    other one as its code point, so that two names that print alike read apart:
    ``'Café' (C a f U+00E9)`` and ``'Café' (C a f e U+0301)``."""
    if name.isascii():
        return repr(name)
    chars = " ".join(c if c.isascii() and c.isprintable() and not c.isspace()
                     else f"U+{ord(c):04X}" for c in name)
    return f"{name!r} ({chars})"


def look_alikes(name: str, names: Iterable[str]) -> list[str]:
    """The ``names`` other than ``name`` that fold (:func:`folded`) as it does, sorted: names
    that print alike or differ only in case, which the books would count as other players."""
    key = folded(name)
    return sorted(n for n in names if n != name and folded(n) == key)


def check_not_look_alike(name: str, names: Iterable[str], what: str, where: str) -> None:
    """Refuse a new ``name`` (a ``what``, ``"player"`` or ``"session"``) that prints like, or
    differs only in case from, one of ``names`` (``where`` says whose: ``"a player of the
    ledger"``): never merged silently, and never a second player who prints alike.

    Raises:
        MalformedInput: the first look-alike, both spelled out (:func:`spelled`), with the
            did-you-mean of :func:`likely_meant`.
    """
    same = look_alikes(name, names)
    if same:
        raise MalformedInput(
            f"{what} name {spelled(name)} is new but {' and '.join(map(spelled, same))} is "
            f"{where}: did you mean {same[0]}? (names are kept as typed: two names that "
            "differ only in case or in how their letters are encoded would print alike)")


def check_seated_apart(players: Sequence[str]) -> None:
    """Refuse a hand that seats two names that print alike or differ only in case
    (:func:`look_alikes`), as ``hand start --seats`` refuses them: they would be two players
    of the books whom no one could tell apart.

    Raises:
        MalformedInput: ``'José' (J o s U+00E9) and 'José' (J o s e U+0301) are both seated:
            …``, the two names spelled out (:func:`spelled`) when not only their case
            differs.
    """
    for k, name in enumerate(players):
        same = look_alikes(name, players[:k])
        if same:
            raise MalformedInput(
                f"{both_seated(same[0], name)}; nothing of the hand written")


def both_seated(first: str, second: str) -> str:
    """What is said of two look-alike names seated in one hand (:func:`look_alikes`), in
    this order: ``'ann' and 'Ann' are both seated: two players whose names differ only in
    case would print alike``, each name spelled out (:func:`spelled`) when more than its
    case differs."""
    case = first.casefold() == second.casefold()
    show = repr if case else spelled
    return (f"{show(first)} and {show(second)} are both seated: two players whose names "
            f"differ only in case{'' if case else ' or in how their letters are encoded'}"
            " would print alike")


def check_hand_id(hand: str) -> str:
    """``hand`` unchanged when it is a hand id a command may write (``hand start --hand``, a
    hand of an imported file): every command names a hand by it (``act HAND``, ``show HAND``)
    and every line about the hand prints it, so it is one line of printable text that can be
    typed back as given.

    Raises:
        MalformedInput: what :func:`check_name` refuses, or a first ``-``, which a command
            line reads as an option (``act -h4 end`` is ``act --help``).
    """
    _one_printable_line(hand, "hand id", "an id")
    if hand.startswith("-"):
        raise MalformedInput(f"hand id {hand!r} starts with '-': a command would read it as "
                             "an option (`handledger act HAND ...`); give another id")
    return hand


def _one_printable_line(text: str, label: str, one: str) -> str:
    """``text`` unchanged unless it is empty (or only whitespace), has leading or trailing
    whitespace or holds a control character; the refusal calls it ``label`` (``"player
    name"``, ``"hand id"``) and one such text ``one`` (``"a name"``, ``"an id"``)."""
    if not text.strip():
        raise MalformedInput(f"a {label} cannot be empty" + (
            f" (only whitespace: {text!r})" if text else ""))
    if text != text.strip():
        raise MalformedInput(f"{label} {text!r} has leading or trailing whitespace: "
                             f"{one.split()[1]}s are kept as typed, never repaired "
                             f"(write {text.strip()!r})")
    if text.isascii() and text.isprintable():  # no ASCII character of category C (below
        return text  # U+0020, U+007F) in it; 2 us a seat of an import's hand, measured
    bad = next((c for c in text if unicodedata.category(c).startswith("C")), None)
    if bad is not None:
        kind = _NOT_PRINTED.get(unicodedata.category(bad), "a control character")
        raise MalformedInput(f"{label} {text!r} holds {kind} (U+{ord(bad):04X}): {one} is "
                             "one line of printable text")
    return text


#: What a character of Unicode category C other than a control character (Cc) is called in a
#: refusal: none prints as itself (a zero-width joiner, U+200D, is category Cf, and a name
#: with it prints like one without).
_NOT_PRINTED = {"Cf": "an invisible format character", "Co": "a private-use character",
                "Cn": "an unassigned code point", "Cs": "a lone surrogate"}


#: Words the live action notation reads before any player name (engine/notation.py,
#: replay/action_text.py ``parse_action``, ``handledger table``), with why.
NOTATION_WORDS = {
    "d": "'d' starts a dealer action ('d dh Ann AsKs', 'd db 2c7h9s')",
    "pay": "'pay PLAYER AMOUNT' records a payout",
    "returned": "'returned PLAYER AMOUNT' records uncalled chips given back",
    "rake": "'rake AMOUNT' records what the table took from the pot",
    "end": "'end' ends the hand",
    "state": "`handledger table` reads the line 'state' as its own command",
    "quit": "`handledger table` reads the line 'quit' as its own command",
}


#: Names that read as the house, whoever keeps the rake (``pay SESSION PLAYER rake AMOUNT``,
#: ``settle``'s "pays the house"), as :func:`folded` gives them: a new player cannot take one.
HOUSE_NAMES = frozenset({"rake", "house", "the house"})


def reads_as_the_house(name: str) -> bool:
    """Whether ``name``, case folded (:func:`folded`), is one of :data:`HOUSE_NAMES`
    (``'Rake'``, ``'HOUSE'``, ``'The House'``)."""
    return folded(name) in HOUSE_NAMES


def check_not_the_house(name: str) -> str:
    """``name`` unchanged unless it reads as the house (:func:`reads_as_the_house`): a new
    player name (``buyin``, ``hand start --seats``, ``player alias NAME``) never does, so
    that ``settle`` never says "José pays house" beside "José pays the house". An imported
    hand's names are kept as the file writes them.

    Raises:
        MalformedInput: naming the name and why.
    """
    if reads_as_the_house(name):
        raise MalformedInput(f"player name {name!r} cannot be used: {_AS_THE_HOUSE}; choose "
                             "another name")
    return name


_AS_THE_HOUSE = ("it reads as the house, who keeps the rake ('rake' names it in `handledger "
                 "pay`, and settle says 'the house')")


def check_seat_name(name: str) -> str:
    """``name`` unchanged when the live action notation can name him: ``act HAND "NAME cbr
    10"`` must read as his action (docs/LIVE.md "A night at the table"). Checked where a player is
    first given at the table or in the books (``hand start --seats``, ``buyin``), never on
    import: a PHH file's players are ``p1 … pN`` by default (FORMATS.md §1), and an imported
    name is kept as the file wrote it.

    Raises:
        MalformedInput: what :func:`check_new_name` refuses (a first ``-``), or a name the
            notation reads as something else (``d``, ``pay``,
            ``returned``, ``rake``, ``end``, ``state``, ``quit``; ``p1``, ``p2`` … which name seats;
            one that reads as the house, :func:`reads_as_the_house`: ``Rake``, ``house``;
            one holding whitespace, where an action splits; one starting with ``{``, a JSON
            event; one starting with ``#``, a comment; one holding ``,`` or ``:``, which
            ``--seats`` reads), saying why.
    """
    check_new_name(name)
    why = NOTATION_WORDS.get(name)
    if why is None and reads_as_the_house(name):
        why = _AS_THE_HOUSE
    if why is None and _is_seat(name):
        why = f"'{name}' names seat {name[1:]} in an action ('{name} cc')"
    if why is None and any(c.isspace() for c in name):
        why = "an action splits at whitespace, so only its first word would be read"
    if why is None and name.startswith("{"):
        why = "an action starting with '{' is read as a JSON event"
    if why is None and name.startswith("#"):
        why = ("' #' starts a comment in an action ('Bob cc # slow') and `handledger table` "
               "skips a line starting with '#', so 'd dh NAME CARDS' and 'NAME cc' would lose "
               "the name")
    if why is None and ("," in name or ":" in name):
        why = ("`hand start --seats` separates players with ',' and a name from its stack with "
               "':' ('Ann:200,Bob:150'), so such a name could never be seated")
    if why is not None:
        raise MalformedInput(f"player name {name!r} cannot be used at the table: {why}; "
                             "choose another name (a name of a hand file is taken by a "
                             "buy-in once the file is imported into the session)")
    return name


def _is_seat(name: str) -> bool:
    """``p1``, ``p2`` … as the notation names seats (engine/notation.py)."""
    digits = name[1:]
    return name[:1] == "p" and digits.isascii() and digits.isdigit() and digits[0] != "0"


def likely_meant(name: str, names: Sequence[str], n: int = 2) -> list[str]:
    """The ``names`` a mistyped ``name`` likely meant, in their order: the same name in
    another case or another encoding of its letters (:func:`folded`), else up to ``n`` close
    spellings (``difflib``); ``[]`` when none."""
    import difflib  # here: a refusal's hint, and every command loads this module

    key = folded(name)
    same = [other for other in names if folded(other) == key]
    return same or difflib.get_close_matches(name, names, n=n)


def unknown_player(token: str, names: Sequence[str]) -> str:
    """The refusal of ``token``, no player of ``names``, with the ones it likely meant
    (:func:`likely_meant`): ``unknown player 'Bbo': did you mean Bob?``. When one of them
    prints like ``token`` (the same letters encoded otherwise, not case alone: ``Zoë`` typed
    as ``e`` and a combining diaeresis, the player's as one code point), both are spelled out
    (:func:`spelled`) in ``buyin``'s words, so that they read apart: ``unknown player 'Zoë'
    (Z o e U+0308): did you mean 'Zoë' (Z o U+00EB)? (names are kept as typed; two players
    whose names differ only in case or in how their letters are encoded would print
    alike)``. A pasted line (over 100 characters) gets no guess."""
    from ledger.model.errors import quoted

    close = likely_meant(token, names) if len(token) <= 100 else []
    alike = [n for n in close if folded(n) == folded(token)
             and n.casefold() != token.casefold()]
    if alike:
        return (f"unknown player {spelled(token)}: did you mean "
                f"{' or '.join(map(spelled, alike))}? (names are kept as typed; two players "
                "whose names differ only in case or in how their letters are encoded would "
                "print alike)")
    return f"unknown player {quoted(token)}" + (
        f": did you mean {' or '.join(close)}?" if close else "")


def shown_labels(names: Mapping[str, str]) -> dict[str, str]:
    """How the reads name players known by a platform id (``names``: id → the latest name he
    played under, :func:`ledger.store.streams.platform_names`): ``{id: label}``, the label his
    name, or ``"name (id)"`` when two ids share that name; an id that is his own name is left
    out (nothing to rename)."""
    counts = Counter(names.values())
    return {pid: name if counts[name] == 1 else f"{name} ({pid})"
            for pid, name in names.items() if pid != name}


def aliases_in_force(rows: Sequence[tuple[str | None, str]]) -> list[bool]:
    """Which alias rows are in force: ``rows`` are ``(player, alias)`` of ``player_alias``
    events and ``(None, alias)`` of ``player_unaliased`` ones, in ledger order. A
    ``player_unaliased`` ends the latest ``player_alias`` row of its alias before it still in
    force, so that taking back an alias recorded by mistake leaves the names as they were
    before it (an earlier statement of the alias, a PokerNow import's id → name among them,
    holds again: docs/LIVE.md "player unalias"). Every reader of the alias rows (the books' alias
    map, the platform names the views show) goes by this one answer. Returns one bool per
    row: True for a ``player_alias`` row in force, False for an ended one and for every
    ``player_unaliased`` row.

    >>> aliases_in_force([("id1", "A8"), ("Ann", "A8"), (None, "A8")])
    [True, False, False]
    >>> aliases_in_force([("Ann", "Anna"), (None, "Anna"), (None, "Anna")])
    [False, False, False]
    """
    force = [player is not None for player, _ in rows]
    for k, (player, alias) in enumerate(rows):
        if player is None:
            ended = [j for j in range(k) if force[j] and rows[j][1] == alias]
            if ended:
                force[ended[-1]] = False
    return force


def resolved_aliases(rows: Sequence[tuple[str | None, str]]) -> dict[str, str]:
    """``{alias: player}`` of alias rows in ledger order (``rows`` as
    :func:`aliases_in_force` takes them: ``(player, alias)`` of a ``player_alias`` row,
    ``(None, alias)`` of a ``player_unaliased`` one), chains followed (``a → b`` and ``b →
    c`` give ``a → c``). The latest statement wins: when an alias would close a cycle, the
    older link into the new alias is dropped. The one answer to whom a name stands for: the
    books group by it (:func:`ledger.audit.books.resolve_aliases`) and the hand views name
    a platform id by it (:func:`ledger.store.streams.platform_names`).

    >>> resolved_aliases([("id1", "A8"), ("Dave", "id1"), ("Dave", "P7"), ("P7", "Dave")])
    {'A8': 'P7', 'id1': 'P7', 'Dave': 'P7'}
    """
    force = aliases_in_force(rows)
    link: dict[str, str] = {}
    for (player, alias), kept in zip(rows, force, strict=True):
        if not kept or player is None or player == alias:
            continue
        link[alias] = player
        seen, node = {alias}, player
        while node in link:
            if link[node] in seen:
                del link[node]  # the older link into the cycle
                break
            seen.add(node)
            node = link[node]
    return followed(link)


def followed(link: Mapping[str, str]) -> dict[str, str]:
    """``{name: the name it finally stands for}``: each link of ``link`` followed to its end
    (``a → b`` and ``b → c`` give ``a → c``), a cycle left after as many steps as there are
    links (never endless).

    >>> followed({"a": "b", "b": "c", "x": "y"})
    {'a': 'c', 'b': 'c', 'x': 'y'}
    """
    out = {}
    for start in link:
        node, hops = start, 0
        while node in link and hops <= len(link):
            node, hops = link[node], hops + 1
        out[start] = node
    return out
