"""Read a PokerStars hand-history file into PHH hands (:class:`PhhFile`).

Each hand becomes a :class:`PhhHand` that :func:`replay.build.events_from_phh` checks with the
engine exactly as a PHH hand: ``started`` (a :class:`HandStarted`), ``forced`` (antes and
blinds), ``actions`` (PHH action strings with their file lines) and ``payouts`` (what the site
says it paid: every ``collected`` line, and each uncalled bet returned with
``returned=True``). The pieces: :mod:`.text` (decoding, cutting the file into hands),
:mod:`.header`, :mod:`.lines`, :mod:`.table` (who is dealt in, forced bets), :mod:`.build`
(actions), :mod:`.summary`.

``HandStarted``: ``hand`` is ``PokerStars-<the site's hand number>`` (``PokerStars-35824118297``:
the number is unique at the site, so a re-import finds the hand already there, and it is the id
our PHH reader gives the same hand exported as PHH, ``venue`` + ``-`` + ``hand``); ``game`` the
engine's code; ``seats`` the players dealt in with their stacks and seat numbers
(``Seat.seat``); ``unit`` the currency in minor units (``Unit(currency="USD", decimals=2)``) or
chips; ``options`` the game's defaults (cards speak; the odd chip left of the button, by suit
in stud). ``source`` holds the site's facts, under PHH's own field names where PHH has one
(FORMATS.md §1): ``venue`` (``'PokerStars'``), ``hand`` (the number, int), ``table``,
``seat_count`` (the table's size), ``time_zone`` (as the header names it), ``level`` (a
tournament's, int); and ours: ``button_seat``, ``game`` (as written), ``time_utc`` (ISO 8601,
None when the zone is not known), ``time_local`` (as written), ``tournament`` and ``buy_in``;
the summary's ``site_total_pot``, ``site_rake``, ``site_main_pot`` / ``site_side_pots`` and
``site_paid`` (player → chips); the lines' ``put_in`` and ``collected``
(:func:`ledger.formats.pokerstars.summary.summary_differences` compares the two); ``encoding``;
and ``file``, ``line``, ``source_key`` as for PHH. ``source_key`` is ``pokerstars:`` + the
sha256 of the hand's text without blank lines. (``rake`` is not used as a key: pokerkit reads
a PHH ``rake`` as its rake function.)

A hand cut short (the file stops before its ``*** SUMMARY ***``, or inside it: no ``Total pot``
line, no ``Seat N:`` line for a seat dealt in, or a last ``Seat N:`` line that no line break
ends and that is not whole: :func:`ledger.formats.pokerstars.summary.check_last_seat_line`) is
refused as such (``… (is the file cut?)``), the hands before it read. A hand the reader
cannot read is one :class:`MalformedInput` naming the file, the line and the hand
(``PokerStars-<number>``); the other hands are still read. A file with no ``PokerStars …
#N:`` line is one error. A hand number repeated with the very same text is read again (the
import writes it once and counts the copy as repeated in the file); with other text the
repeat is an error.
"""

from __future__ import annotations

import hashlib
import os

from pydantic import ValidationError

from engine.games import Game, UnknownGame, game
from ledger.formats.files import CUT_SAID, cut_words, file_name, line_error, long_line, read_capped
from ledger.formats.phh.base import PhhFile, PhhHand, format_amount
from ledger.formats.pokerstars.build import Builder
from ledger.formats.pokerstars.header import Header, parse_header
from ledger.formats.pokerstars.lines import Rec, classify
from ledger.formats.pokerstars.summary import (
    Summary,
    check_last_seat_line,
    check_whole,
    parse_summary,
    summary_facts,
)
from ledger.formats.pokerstars.table import (
    check_blinds,
    dealt_in,
    first_deal,
    forced_bets,
    seat_models,
    stakes,
)
from ledger.formats.pokerstars.text import HandText, decode, split_hands
from ledger.model.errors import MalformedInput, RepeatedHand
from ledger.model.events import HandStarted, RuleOptions, SplitOptions, Unit

VENUE = "PokerStars"
#: Kinds a line may have before the cards are dealt.
_BEFORE_DEAL = frozenset({"post", "sitout", "info"})


def hand_id(number: str) -> str:
    """The ledger's id of the site's hand ``number``: ``'PokerStars-35824118297'`` (what the
    PHH reader calls the same hand exported as PHH: ``venue`` + ``-`` + ``hand``)."""
    return f"{VENUE}-{number}"


def roman(level: str) -> int | None:
    """A tournament level as a number: ``'VI'`` → 6, ``'12'`` → 12 (None if neither).

    >>> roman("XIV"), roman("7")
    (14, 7)
    """
    if level.isdigit():
        return int(level)
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    if not level or any(c not in values for c in level):
        return None
    total = 0
    for here, after in zip(level, [*level[1:], "I"], strict=True):
        total += -values[here] if values[here] < values[after] else values[here]
    return total


def read_pokerstars(path: str | os.PathLike[str]) -> PhhFile:
    """Read every hand of a PokerStars hand-history file (see the module doc).

    Never raises for bad content: bad hands are errors of the returned :class:`PhhFile`.

    A file that is not a regular file, or over the caps of :mod:`ledger.formats.reading`,
    is one error and no hands.

    Raises:
        OSError: the file cannot be read.
    """
    file = file_name(path)
    try:
        text, encoding = decode(read_capped(path), name=file)
        too_long = long_line(text)
        if too_long is not None:
            raise line_error(file, too_long)
    except MalformedInput as exc:
        return PhhFile(file, [], [exc])
    return read_pokerstars_text(text, file=file, encoding=encoding)


def read_pokerstars_text(text: str, *, file: str = "<text>", encoding: str = "utf-8") -> PhhFile:
    """Read PokerStars hand histories from a string (see :func:`read_pokerstars`)."""
    hands, stray = split_hands(text)
    if not hands:
        line = stray[0] if stray else 1
        error = MalformedInput("not a PokerStars hand history (no 'PokerStars … #N:' line)",
                               file=file, line=line)
        return PhhFile(file, [], [error])
    out: list[PhhHand] = []
    errors: list[MalformedInput] = []
    seen: dict[str, str] = {}
    for index, hand in enumerate(hands):
        where = {"file": file, "hand": hand_id(hand.number)}
        body = hand.body()
        if hand.number in seen and seen[hand.number] != body:
            errors.append(RepeatedHand(
                f"PokerStars hand #{hand.number} appears twice with different text",
                line=hand.line, **where))
            continue
        # an identical copy (a history pasted twice) is read again: the same hand, which the
        # import writes once and counts as repeated in the file
        seen[hand.number] = body
        try:
            out.append(read_hand(hand, index, file=file, encoding=encoding))
        except MalformedInput as exc:
            errors.append(_cut_said(hand, exc.located(line=hand.line, **where)))
        except ValidationError as exc:  # a value the event models refuse (beyond MAX_CHIPS)
            first = exc.errors()[0]
            place = ".".join(str(p) for p in first.get("loc", ()))
            errors.append(MalformedInput(f"invalid value ({place}: {first.get('msg')})",
                                         line=hand.line, **where))
    return PhhFile(file, out, errors)


def _cut_said(hand: HandText, exc: MalformedInput) -> MalformedInput:
    """``exc``, the refusal of ``hand``, saying that the file ends in the middle of the hand
    (:func:`ledger.formats.files.cut_words`) when the hand is the file's last, no line break
    ends its last line and it has no ``*** SUMMARY ***``: the site writes every hand whole,
    so such a hand was cut, wherever in it (the header, a seat line, an action) the refusal
    falls (docs/IMPORTING.md, "A file cut short"). A hand with its summary is left to
    :func:`ledger.formats.pokerstars.summary.check_last_seat_line`."""
    if not hand.open_end or "*** SUMMARY ***" in hand.lines or CUT_SAID in exc.message:
        return exc
    exc.message = (exc.message.removesuffix(" (is the file cut?)")
                   + cut_words(hand.line + len(hand.lines) - 1, exc.hand))
    return exc


def read_hand(hand: HandText, index: int, *, file: str, encoding: str = "utf-8") -> PhhHand:
    """One hand (see the module doc).

    Raises:
        MalformedInput: anything this reader does not understand, naming the line.
        pydantic.ValidationError: an amount beyond what an event may hold
            (:data:`ledger.model.events.MAX_CHIPS`).
    """
    header = parse_header(hand)
    try:
        the_game = game(header.code)
    except UnknownGame as exc:  # pragma: no cover - every header name maps to a code
        raise MalformedInput(str(exc), line=hand.line) from None
    names = frozenset(s.name for s in header.seats)
    recs, summary_lines = _body(hand, header, names)
    if hand.open_end and summary_lines:  # the file ends inside this line, or just after it
        check_last_seat_line(summary_lines[-1][1], summary_lines[-1][0],
                             {s.seat: s.name for s in header.seats})
    deal = first_deal(recs)
    for rec in recs[:deal]:
        if rec.kind not in _BEFORE_DEAL:
            raise MalformedInput(f"a {rec.kind} line before the cards are dealt", line=rec.line)
    seats = dealt_in(header, recs, deal, the_game)
    order = [s.name for s in seats]
    forced = forced_bets(header, recs, deal, order)

    def line_text(line: int) -> str:  # the action a refusal quotes
        return hand.lines[line - hand.line]

    check_blinds(header, the_game, recs, deal, line_text)
    summary = parse_summary(summary_lines, {s.seat: s.name for s in seats}, header.decimals)
    check_whole(summary, {s.seat: s.name for s in seats}, hand.line + len(hand.lines) - 1)
    known = _known_cards(recs, summary)
    _check_shows_off_board(recs)
    builder = Builder(the_game, order, recs, known, header.decimals, summary.runs,
                      line_text, stacks={s.name: s.stack for s in seats})
    builder.forced(forced)
    builder.run_from(deal)
    bring_in = builder.bring_in or header.lo // 2
    fixed = the_game.betting == "fixed_limit"
    if the_game.stud and fixed and builder.bring_in and bring_in >= header.lo:
        first = next(r for r in recs if r.kind == "bring_in")  # the header's half is below
        raise MalformedInput(
            f"the bring-in {format_amount(bring_in, header.decimals)} is not below the small "
            f"bet {format_amount(header.lo, header.decimals)}: the bring-in is less than a "
            "full bet, which completing it makes (RULES.md §4.1)",
            line=first.line, action=line_text(first.line))
    started = HandStarted(
        hand=hand_id(header.number),
        game=the_game.code,
        stakes=stakes(header, the_game, forced, order, bring_in),
        seats=seat_models(seats),
        button=None if the_game.stud else order[-1],
        options=_options(the_game),
        unit=Unit(currency=header.currency, decimals=header.decimals),
        source=_source(header, summary, builder, hand, file, encoding),
    )
    return PhhHand(
        file=file, section=None, line=hand.line, index=index, started=started, forced=forced,
        actions=builder.actions, payouts=builder.payouts, finishing_stacks=None, expected=None,
        source_key=started.source["source_key"], text=(hand.line, hand.lines),
    )


def _body(hand: HandText, header: Header, names: frozenset[str]
          ) -> tuple[list[Rec], list[tuple[int, str]]]:
    """The body's records up to ``*** SUMMARY ***`` and the summary's ``(line, text)``."""
    recs: list[Rec] = []
    for k in range(header.end, len(hand.lines)):
        text = hand.lines[k]
        if not text:
            continue
        rec = classify(text, hand.line + k, names, header.decimals)
        if rec.kind == "summary":
            rest = [(hand.line + j, hand.lines[j]) for j in range(k + 1, len(hand.lines))]
            return recs, rest
        recs.append(rec)
    raise MalformedInput("the hand has no *** SUMMARY *** (is the file cut?)",
                         line=hand.line + len(hand.lines) - 1)


def _known_cards(recs: list[Rec], summary: Summary) -> dict[str, list[str]]:
    """Every card each player is shown to hold at the end: his ``shows`` line, else the
    summary's ``showed`` / ``mucked`` cards."""
    known = {p: list(c) for p, c in summary.mucked.items()}
    known.update({p: list(c) for p, c in summary.shown.items()})
    for rec in recs:
        if rec.kind == "show" and rec.cards and rec.player is not None:
            known[rec.player] = list(rec.cards[0])
    return known


def _check_shows_off_board(recs: list[Rec]) -> None:
    """Refuse a ``shows`` line naming a card the board deals (a flop game's street lines):
    the deal takes a player's cards from his show (:mod:`ledger.formats.pokerstars.build`),
    so the engine would meet the card twice at the street; the line to fix is the show.

    Raises:
        MalformedInput: at the show's line, naming the player, the card and the street's
            line.
    """
    board: dict[str, tuple[str, int]] = {}
    for rec in recs:
        if rec.kind == "street" and rec.cards:
            for card in rec.cards[-1]:
                board.setdefault(card, (rec.what.lower() or "board", rec.line))
    if not board:
        return
    for rec in recs:
        if rec.kind == "show" and rec.cards and rec.player is not None:
            for card in rec.cards[0]:
                if card in board:
                    street, line = board[card]
                    raise MalformedInput(
                        f"{rec.player} shows {' '.join(rec.cards[0])}, but {card} is a board "
                        f"card (the {street} at line {line} deals it): a card is dealt once",
                        line=rec.line)


def _options(the_game: Game) -> RuleOptions:
    return RuleOptions(reopen_rule=the_game.default_reopen_rule,
                       split=SplitOptions(odd_chip_tie_order=the_game.tie_order))


def _source(header: Header, summary: Summary, builder: Builder, hand: HandText, file: str,
            encoding: str) -> dict[str, object]:
    digest = hashlib.sha256(hand.body().encode()).hexdigest()
    source: dict[str, object] = {
        "file": file, "line": hand.line, "source_key": f"pokerstars:{digest}",
        "venue": VENUE, "hand": int(header.number), "table": header.table,
        "seat_count": header.max_seats, "button_seat": header.button_seat,
        "game": header.game, "time_utc": header.time_utc, "time_local": header.time_local,
        "time_zone": header.zone,
    }
    if header.tournament is not None:
        source.update(tournament=header.tournament, buy_in=header.buy_in,
                      level=roman(header.level) if header.level else None)
    source.update(summary_facts(summary))
    source.update(put_in=builder.put_in, collected=dict(builder.collected), encoding=encoding)
    return source
