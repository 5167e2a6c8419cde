"""Exports: JSON-lines events (re-import identically), PHH, and parquet/csv tables."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from ledger.formats.phh.base import SOURCE_KEY
from ledger.model.carry_rules import EITHER, carry_sections
from ledger.model.errors import LedgerError, MalformedInput
from ledger.store.signing import binds_hand
from ledger.store.streams import hand_streams, load_hand

_COPY = 1 << 20  # characters a read when the spooled export is copied out


def export(path: str, fmt: str, hands: Sequence[str], out: Path | None,
           note: Callable[[str], None], write: Callable[[str], None] | None = None,
           *, broken_ok: bool = False) -> list[Path]:
    """``fmt`` ``jsonl`` or ``phh``: the hands (all, or ``hands``) of the ledger at ``path``
    as text, written to ``out`` (returns ``[out]``) or, when ``out`` is None, given to
    ``write`` a piece at a time (returns ``[]``), once the whole text is made
    (:func:`export_chunks`; memory stays flat, the text is spooled to a temporary file).
    JSON lines keep a hand still being played as far as it was played, marked by the file's
    closing line (:mod:`ledger.formats.jsonl.lines`), and ``note`` names those hands.
    ``parquet`` or ``csv``: the events and every derived table and view, caught up first, as
    files in the directory ``out``; returns the files written, each once, and ``note`` names
    the hands still in play (their chips put in, nothing paid yet). The ledger is only read,
    and never written over: ``out`` (or a table's file in it) that is the ledger file or its
    write-ahead log is refused first (:func:`ledger.store.outputs.not_the_ledger`).

    The hash chain is proven first, as ``verify`` proves it (:func:`proven`): a copy of rows
    edited in place would verify clean in the ledger that imports it, so a broken chain is
    refused, nothing written, unless ``broken_ok`` (a copy for forensics), when ``note``
    gets a ``warning:`` line saying so.

    Raises:
        ChainBroken: the chain breaks (naming where and what, as ``verify`` does), unless
            ``broken_ok``; LedgerCorrupt: a block of the events fails its checksum: nothing
            written.
        LedgerError: ``parquet``/``csv`` without a directory, or text with neither ``out`` nor
            ``write``; ``out`` is the ledger (``-o l.duckdb is the ledger itself: nothing
            written``), or cannot be written (``cannot write /proc/version: no file can be
            made in /proc``; written whole or not at all,
            :func:`ledger.store.outputs.write_whole`); NotFound: no ledger, or a named hand
            it does not hold; as :func:`export_chunks` (nothing written).
    """
    from ledger.store.outputs import not_the_ledger, write_whole
    from ledger.store.store import Ledger

    if fmt in ("parquet", "csv"):
        if out is None:
            raise LedgerError(f"--format {fmt} needs a directory: DIR or -o DIR")
        not_the_ledger(out, path)
        from replay.books import fresh_books

        with Ledger(path, read_only=True, sound=False) as ledger:
            proven(ledger, broken_ok, note)

        with fresh_books(path, note=note) as ledger:
            written = export_tables(ledger, out, fmt)
            playing = in_play(ledger)
        if playing:  # said once the files are written, as for JSON lines
            note(f"note: {len(playing)} hand(s) still in play, exported as played so far "
                 "(their chips in the pot counted as put in, nothing as paid until each "
                 f"ends): {', '.join(playing)}")
        return written
    if out is None and write is None:
        raise LedgerError(f"--format {fmt} needs a file to write to, or standard output")
    not_the_ledger(out, path, f"-o {out}")
    said: list[str] = []  # the notes, given once the export is written (not before a refusal)
    # The text is spooled to a temporary file as it is made, a hand or a row at a time, and
    # copied out once whole: memory stays flat however large the ledger (a 100,000-hand
    # export held about 2.7 GB as one string, bench/PROFILE.md), and a refusal met on the way
    # (a hand PHH cannot hold, a payload that does not parse) still writes nothing.
    with tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as spool:
        with Ledger(path, read_only=True, sound=False) as ledger:
            proven(ledger, broken_ok, note)
            for chunk in export_chunks(ledger, fmt, hands, said.append):
                spool.write(chunk)
        spool.seek(0)
        if out is not None:
            def fill(f: BinaryIO) -> None:
                while chunk := spool.read(_COPY):
                    f.write(chunk.encode("utf-8"))

            try:  # whole or not at all: a write failing part-way leaves no half a file
                write_whole(out, fill)
            except OSError as e:  # a write refused without the file's name (EIO in /proc)
                raise LedgerError(f"cannot write {out}: {e.strerror or e}") from None
        elif write is not None:
            while chunk := spool.read(_COPY):
                write(chunk)
    for line in said:
        note(line)
    return [] if out is None else [out]


class Proof(NamedTuple):
    """What a command that copies a ledger's rows out says of a broken chain (:func:`proven`):
    ``refused``, what is not done and why (``nothing exported (…)``); ``retry``, how to do it
    anyway (``export with --broken-ok for a copy as it is``); ``anyway``, what the
    ``warning:`` line says when it is done anyway."""

    refused: str
    retry: str
    anyway: str


#: What ``export`` says (docs/FORMATS-IMPORT.md "export").
EXPORT = Proof(
    refused="nothing exported (a ledger importing the copy would not know its rows were "
            "changed)",
    retry="export with --broken-ok for a copy as it is",
    anyway="exported anyway (--broken-ok): the copy holds the rows as they are, and a ledger "
           "importing it would not know they were changed")


def proven(ledger: Any, broken_ok: bool, note: Callable[[str], None],
           say: Proof = EXPORT) -> None:
    """Prove the hash chain of ``ledger`` (a :class:`ledger.store.store.Ledger` opened
    read-only, its blocks not checked first: ``sound`` False)
    before an export (or a report, ``say`` naming what it does) copies its rows out:
    :meth:`ledger.store.store.Ledger.verify`, the
    check ``verify`` makes (the queries' proof, the walk only when it breaks), which reads
    every column of every row, so a damaged block of the events is met too. A damaged block
    that holds no events (a derived table's) is not looked for: the export reads the events
    alone, and is how they are saved from such a file (docs/LEDGER.md "A damaged file").
    ``broken_ok``: a broken chain is a ``warning:`` line given to ``note`` instead of a
    refusal.

    Raises:
        ChainBroken: the chain breaks (``ledger x.duckdb: broken at position 365: edited: row
            365 (dispute-1 seq 23): …: nothing exported …``), unless ``broken_ok``;
        LedgerCorrupt: a block of the events fails its checksum.
    """
    from ledger.model.errors import ChainBroken, LedgerCorrupt

    nothing = say.refused.split(" (")[0]  # "nothing exported"
    try:
        report = ledger.verify()
    except LedgerCorrupt as e:
        raise LedgerCorrupt(f"{e}: {nothing}; run `handledger verify`") from e
    if report.ok:
        return
    broken = (f"ledger {ledger.path}: broken: {report.message}" if report.problem == "head"
              else f"ledger {ledger.path}: broken at position {report.first_bad}: "
                   f"{report.problem}: {report.message}")
    if not broken_ok:
        refused = nothing if report.problem == "head" else say.refused
        raise ChainBroken(f"{broken}: {refused}; run `handledger verify`, or {say.retry}")
    note(f"warning: {broken}: {say.anyway}")


def export_chunks(ledger: Any, fmt: str, hands: Sequence[str],
                  note: Callable[[str], None] | None = None) -> Iterator[str]:
    """All hands (or ``hands``) as JSON lines or PHH text, in pieces (a row's line, a hand's
    text) made as the ledger is read in position order: joined, the file. JSON lines: a hand
    still being played ends the file with the closing line naming it (see :func:`export`).
    ``note`` gets one line naming such hands (PHH: that an import ends them ``incomplete`` in
    another ledger), and a whole PHH export one naming the sessions whose books it leaves
    out (:func:`session_books`). A hand named twice is written once (a file holds each hand once: an
    import refuses a repeat).

    Raises:
        NotFound: a named hand the ledger does not hold; MalformedEvent: a stored payload
            that does not parse; MalformedInput: a hand PHH cannot hold (:func:`_phh_texts`).
    """
    hands = list(dict.fromkeys(hands))
    if fmt == "jsonl":
        from ledger.formats.jsonl import carried_key, closing_line, iter_jsonl

        rows: Iterable[tuple[str, int, Any, str | None]]
        if not hands:
            # a session stream's rows are written under the session's name (ledger.formats.jsonl),
            # a hand's first row and a session row with the source key another format gave it
            rows = ((r.stream if r.hand_id is not None else r.session or r.stream, r.seq,
                     r.event, carried_key(r.source_key) if r.hand_id is None or r.seq == 1
                     else None) for r in ledger.stored())
            signed = _signed_streams(ledger)
        else:
            keys = first_keys(ledger, hands)
            rows = [(hand, i, e, keys.get(hand) if i == 1 else None)
                    for hand, _, events in hand_streams(ledger, hands)
                    for i, e in enumerate(events, 1)]
            signed = {stream for stream, _, e, _ in rows if binds_hand(e)}
        count = 0
        for line in iter_jsonl(_as_sessions_say(ledger, rows, signed, note,
                                                     alone=bool(hands))):
            count += 1
            yield line
        playing = in_play(ledger, hands)
        if not playing:
            return
        if note is not None:
            named = ", ".join(f"{hand} (to seq {seq})" for hand, seq in playing.items())
            note(f"note: {len(playing)} hand(s) still in play, exported as played so far and "
                 f"named in the file's last line (importing it lets `act` go on): {named}")
        yield closing_line(playing, count)
        return
    playing = in_play(ledger, hands) if note is not None else {}
    if playing:
        note(f"note: {len(playing)} hand(s) still in play, written as played so far: PHH "
             "cannot say a hand goes on, so importing it ends them incomplete (every chip "
             "back) in a ledger that does not hold them in play (this one adds nothing); "
             f"--format jsonl keeps them in play: {', '.join(playing)}")
    left_out: list[str] = []
    yield from _phhs(_phh_texts(ledger, hands, left_out))
    if left_out and note is not None:  # a void counts for nothing: the books are the same
        note(f"note: {len(left_out)} voided hand(s) left out: PHH cannot say a hand was "
             f"voided (--format jsonl can): {', '.join(left_out)}")
    books = [] if hands or note is None else session_books(ledger)
    if books:
        note(f"note: {len(books)} session book(s) left out: PHH cannot carry a session's "
             "opening, buy-ins, cash-outs, payments or player names (an alias, an alias "
             "ended), so a ledger importing the file holds their hands alone (--format jsonl "
             f"can): {', '.join(books)}")


def first_keys(ledger: Any, hands: Sequence[str]) -> dict[str, str]:
    """The source key each of ``hands`` carries in its JSON-lines export
    (:func:`ledger.formats.jsonl.carried_key` of its first row's key), by hand id; a hand with
    none is not in it."""
    from ledger.formats.jsonl import carried_key

    rows = ledger.query("SELECT hand_id, source_key FROM events WHERE seq = 1 AND hand_id IN "
                        "(SELECT UNNEST(?))", [list(hands)])
    return {hand: key for hand, stored in rows if (key := carried_key(stored)) is not None}


def session_books(ledger: Any) -> list[str]:
    """The sessions of ``ledger`` with a book, in ledger order: a row of their own (an
    opening, a buy-in, a cash-out, a payment, a player's name, a closing), which a whole PHH
    export leaves out (FORMATS.md §1 has no place for them; JSON lines carry them)."""
    rows = ledger.query("SELECT session FROM events WHERE hand_id IS NULL AND session IS NOT "
                        "NULL GROUP BY session ORDER BY min(position)")
    return [session for (session,) in rows]


def _phhs(texts: Iterable[str]) -> Iterator[str]:
    """The pieces of one file of the PHH ``texts``: a lone hand's text as it is, several as a
    ``.phhs`` file (:func:`ledger.formats.phh.write.write_phhs`'s text, made a hand at a
    time; the first is held until a second shows there are several)."""
    first: str | None = None
    k = 0
    for k, text in enumerate(texts, 1):
        if k == 1:
            first = text
            continue
        if k == 2:
            yield f"[1]\n{first}"
        yield f"\n[{k}]\n{text}"
    if first is not None and k == 1:
        yield first


def _signed_streams(ledger: Any) -> set[str]:
    """The streams, as JSON lines name them, that hold an event whose signature binds the
    hand's rows (:func:`ledger.store.signing.binds_hand`): looked for among the ledger's
    corrections and voids, the events that carry a signature."""
    from ledger.model.events import parse_stored

    rows = ledger.query("SELECT stream, hand_id, session, type, payload FROM events"
                        " WHERE type IN ('correction', 'hand_voided') ORDER BY position")
    return {stream if hand_id is not None else session or stream
            for stream, hand_id, session, type_, payload in rows
            if binds_hand(parse_stored(type_, payload))}


def _phh_texts(ledger: Any, hands: Sequence[str], left_out: list[str]) -> Iterator[str]:
    """Each hand (all, or ``hands``) as PHH text in ledger order, a hand that names no
    currency in its session's chip (:func:`session_chip`); the voided hands PHH cannot hold
    are left out of a whole export and added to ``left_out``.

    Raises:
        MalformedInput: a hand PHH cannot hold, named or not voided.
    """
    chips: dict[str | None, Any] = {None: None}  # each session's chip, looked up once
    keys = site_keys(ledger, hands)
    for hand, _, events in hand_streams(ledger, hands):
        session = events[0].session if events and events[0].type == "hand_started" else None
        if session not in chips:
            chips[session] = session_chip(ledger, session)
        try:
            yield phh_text(_as_session_says(events, chips[session]), chips[session],
                           source_key=keys.get(hand))
        except MalformedInput:
            if hands or not _voided(events):  # named, or its chips count: refused, saying why
                raise
            left_out.append(hand)


def _as_session_says(events: list[Any], chip: Any) -> list[Any]:
    """A hand's ``events`` with its ``hand_started`` in its session's chip ``chip``
    (:func:`session_chip`) when an earlier conversion stored it in a unit that reads as
    whole dollars (:func:`replay.ingest.units.as_chip_says`); ``events`` otherwise."""
    from replay.ingest.units import as_chip_says

    if not events or events[0].type != "hand_started":
        return events
    started = as_chip_says(events[0], chip)
    return events if started is events[0] else [started, *events[1:]]


def _as_sessions_say(ledger: Any, rows: Iterable[tuple[str, int, Any, str | None]],
                     signed: set[str], note: Callable[[str], None] | None, *,
                     alone: bool = False) -> Iterator[tuple[str, int, Any, str | None]]:
    """The JSON-lines ``rows`` ``(stream, seq, event, source key carried)`` with each hand's
    ``hand_started`` as its session's chip says it (:func:`_as_session_says`: a cent, never a
    whole dollar), so a ledger that imports the file counts the same money; given on as they
    come. ``alone``:
    the rows are hands named without their sessions' rows (``export --format jsonl HAND``),
    so a hand that names no currency in a session whose chip is money (played live with
    ``hand start --session``: its chips are the session's) is written with that chip as its
    unit (a 0.25 USD chip: ``{"currency": "USD", "minor_per_chip": 25}``), as its PHH export
    writes ``_chip`` (docs/BOOKS.md, "Chips of different values"); a whole export carries the
    session's rows, which say it, and writes the hand as stored. A signature that binds such
    a hand's rows holds in either unit (:func:`ledger.store.signing.same_hand_units`). A hand
    of ``signed`` (streams with a signature that binds its rows,
    :func:`ledger.store.signing.binds_hand`: their unit and rake too) that an earlier
    conversion stored in whole dollars is written as stored, its signature good, and
    ``note`` names it and what its chips read as elsewhere (its PHH export is written in the
    session's money), once the rows are through."""
    from replay.ingest.units import earlier_conversion

    chips: dict[str, Any] = {}
    kept = []
    for stream, seq, e, key in rows:
        if e.type == "hand_started" and e.session is not None:
            if e.session not in chips:
                chips[e.session] = session_chip(ledger, e.session)
            chip = chips[e.session]
            if alone and chip is not None and e.unit.currency is None:
                e = e.model_copy(update={"unit": chip})
            elif stream in signed:
                if earlier_conversion(e.unit, chip):
                    kept.append(f"{e.hand} ({e.session}: chips of {_worth(chip)})")
            else:
                e = _as_session_says([e], chip)[0]
        yield stream, seq, e, key
    if kept and note is not None:
        note(f"note: {len(kept)} hand(s) written with the unit stored, whole "
             "chips of their currency, though their sessions' chips are worth less: a "
             "signature binds each hand's rows, unit too, so a ledger without the session "
             "counts them as written (--format phh writes them in the session's money): "
             + ", ".join(kept))


def _worth(chip: Any) -> str:
    """What one chip of the :class:`~ledger.model.events.Unit` ``chip`` is worth, in words
    (``0.25 USD``, ``0.01 USD``)."""
    from ledger.model.money import format_money

    per_chip, currency, decimals = chip.money()
    return format_money(per_chip, decimals, currency)


def in_play(ledger: Any, hands: Sequence[str] = ()) -> dict[str, int]:
    """The hands of the ledger (or of ``hands``) still being played, in ledger order: hand
    id -> seq of its last stored row. A hand is in play when its stream, corrections
    applied, has not ended (no ``hand_ended`` in force, not voided; RULES.md §1): only the
    hands with no ``hand_ended`` row or with a correction are folded to see.

    Raises:
        MalformedEvent: a stored payload that does not parse.
    """
    from replay.fold import fold_stream

    rows = ledger.query(
        "SELECT hand_id, max(seq) FROM events WHERE hand_id IS NOT NULL"
        " AND (len($1) = 0 OR list_contains($1, hand_id)) GROUP BY hand_id"
        " HAVING NOT bool_or(type = 'hand_ended') OR bool_or(type = 'correction')"
        " ORDER BY min(position)", [list(hands)])
    out = {}
    for hand, last in rows:
        events, _ = load_hand(ledger, hand)
        if fold_stream(events)[0].status == "open":
            out[hand] = int(last)
    return out


def _voided(events: Sequence[Any]) -> bool:
    """Whether the hand stream ``events`` reads as voided, corrections applied."""
    from replay.fold import fold_stream

    return fold_stream(events)[0].status == "voided"


def session_chip(ledger: Any, session: str) -> Any:
    """The :class:`~ledger.model.events.Unit` a hand of ``session`` that names no currency
    (played live with ``hand start``, a PokerNow log of whole amounts) counts in: the
    session's chip when it has a currency (its latest ``session_opened`` or ``session set``),
    None otherwise (plain chips). A 0.25 USD chip is ``Unit(currency="USD",
    minor_per_chip=25)``, exported in money with ``_chip`` (:func:`phh_parts`); a chip of one
    minor unit, a cent, is ``Unit(currency="USD", decimals=2)``, exported as cents of USD.
    None too for a chip finer than the currency's ISO 4217 minor unit (``--decimals`` beyond
    it), which PHH's money cannot hold: the hand is written in chips as before."""
    from replay.ingest.units import SessionUnit, session_unit
    from replay.sessions import session_state

    state = session_state(ledger, session)
    if not state.opened:
        return None
    return session_unit(SessionUnit(state.chip_value_minor, state.currency, state.decimals))


def session_chips(ledger: Any) -> Callable[[str], Any]:
    """``chip_of(session)``: :func:`session_chip` of ``ledger``, each session read once: what
    :func:`ledger.audit.signatures.signed_amendments` checks a signature of a hand of plain
    chips in (one made where its export was imported, in that chip), as ``history`` does."""
    import functools

    return functools.cache(functools.partial(session_chip, ledger))


def phh_parts(events: Sequence[Any], chip: Any = None) -> tuple:
    """``(started, forced, actions, payouts)`` of a hand for the PHH writer; corrections are
    applied first (the export is the hand as the ledger now reads it). A rake recorded at
    the table (``recorded_rake``) is PHH's ``rake`` field (FORMATS.md §1), written from
    ``started.source`` as an imported hand's is; importing the text again keeps it there.
    A hand in a session's chips of money is written in that money (a 0.05 USD chip: 57
    chips are ``2.85``, :func:`replay.ingest.units.in_money`) with what its chip is worth,
    our ``_chip = { minor_per_chip = 5 }`` (FORMATS.md §1: a user extension): importing it,
    into that session or any ledger, gives its chips back (:func:`replay.build.phh_fold`),
    so a split's odd chip is that chip again, never a cent; a hand converted into the session
    from a larger chip of its own (0.25 USD) also writes it, ``_split``'s ``smallest_chip =
    0.25`` (RULES.md §2.1), so its odd chip stays 0.25 USD. ``chip``: the session's chip
    (:func:`session_chip`) for a hand whose ``unit`` names no currency (one played live in a
    session of 0.25 USD chips stores plain chips): it is written in that money the same way."""
    from engine.notation import to_action
    from engine.state import HandState
    from replay.fold import effective_events
    from replay.ingest.units import in_money

    effective = effective_events(events)[0]
    if chip is not None and effective[0].unit.currency is None:  # the session's chips
        effective = [effective[0].model_copy(update={"unit": chip}), *effective[1:]]
    chip = effective[0].unit
    in_chips = effective  # what a refusal names: chips, as the hand counts them
    effective = in_money(effective)  # a session's chips: as money
    started = effective[0]
    source = _rake_numbers(started.source)
    if chip.currency is not None and chip.minor_per_chip != 1:  # what a chip is worth
        source["_chip"] = {"minor_per_chip": chip.minor_per_chip}
        started = _chip_in_play(started, chip.minor_per_chip)
    started = started.model_copy(update={"source": source})
    state = HandState.start(started)
    forced, actions, payouts = [], [], []
    for e, counted in zip(effective[1:], in_chips[1:], strict=True):
        if e.type == "forced_bet" and e.kind != "bring_in":
            forced.append(e)
        elif e.type == "recorded_payout":
            payouts.append(e)
        elif e.type == "recorded_rake":  # in the file's money, as PHH writes amounts
            decimals = started.unit.decimals
            rake = Decimal(e.amount).scaleb(-decimals) if decimals else e.amount
            started = started.model_copy(update={"source": {**started.source, "rake": rake}})
        else:
            text = to_action(state, e)
            if text is not None:
                actions.append(text)
            elif e.type not in ("hand_ended",):
                raise MalformedInput(f"cannot be written as PHH: {_unwritable(counted, started)}",
                                     hand=started.hand)
        state.apply(e)
    _no_pot_left_to_carry(events, in_chips[0])
    return started, forced, actions, payouts


def _no_pot_left_to_carry(events: Sequence[Any], started: Any) -> None:
    """Refuse a hand (its stream ``events``; ``started``: its ``hand_started`` in chips) that
    leaves chips to the session's next hand with no ``carry_over`` recording them yet (the
    next hand has not started: :func:`replay.carry.unclaimed`): PHH holds no pot carried
    between hands (RULES.md §2.2, §3.8, §7.1), and without it the file would pay those chips to
    nobody.

    Raises:
        MalformedInput: naming the chips.
    """
    from replay.carry import may_pass_on, unclaimed

    if not may_pass_on(events):
        return
    chips = unclaimed(events)
    if chips:
        from engine.notation import format_amount

        raise MalformedInput(
            f"cannot be written as PHH: it carries {format_amount(chips, started.unit.decimals)} "
            "chips to the session's next hand, not started yet "
            f"({carry_sections(started.options)}), and PHH holds no pot carried between hands",
            hand=started.hand)


def _chip_in_play(started: Any, worth: int) -> Any:
    """``started`` (as money) without a smallest chip in play that is its ``_chip`` of
    ``worth`` minor units, which ``_chip`` says already: only a hand converted to a smaller
    chip than its own writes ``_split``'s ``smallest_chip`` (RULES.md §2.1), so the PHH of a
    hand counted in its own chips reads as it always did."""
    split = started.options.split
    if split.smallest_chip != worth:
        return started
    options = started.options.model_copy(update={
        "split": split.model_copy(update={"smallest_chip": 1})})
    return started.model_copy(update={"options": options})


def _rake_numbers(source: dict[str, Any]) -> dict[str, Any]:
    """``source`` with the file's ``rake`` and its ``_rake`` rule's ``cap`` as numbers again:
    a decimal one (``rake = 1.00``) is stored as JSON text (``"1.00"``), and PHH's ``rake``
    is a number (FORMATS.md §1). Text that is not a plain decimal stays as it is."""
    out = dict(source)
    if isinstance(out.get("rake"), str):
        out["rake"] = _decimal(out["rake"])
    rule = out.get("_rake")
    if isinstance(rule, dict) and isinstance(rule.get("cap"), str):
        out["_rake"] = {**rule, "cap": _decimal(rule["cap"])}
    return out


def _decimal(text: str) -> Decimal | str:
    """``text`` as a Decimal when it is digits with at most one decimal point, else ``text``."""
    digits = text.replace(".", "", 1)
    return Decimal(text) if digits.isascii() and digits.isdigit() else text


def _unwritable(e: Any, started: Any) -> str:
    """Why the event ``e`` of the hand ``started`` (its ``hand_started``) has no place in a PHH
    hand (FORMATS.md §1), in words: chips it carries out cite its rule that carries them
    (:func:`ledger.model.carry_rules.carry_sections`), chips carried in either rule's."""
    if e.type == "carry_over":
        where = f" hand {e.other_hand}" if e.other_hand else " another hand"
        moved = (f"it carries {e.amount} chips out to{where}" if e.direction == "out"
                 else f"it takes {e.amount} chips carried in from{where}")
        sections = carry_sections(started.options) if e.direction == "out" else EITHER
        return f"{moved} ({sections}), and PHH holds no pot carried between hands"
    if e.type == "hand_voided":
        return "it is voided, and PHH cannot say a hand was voided (--format jsonl can)"
    return f"its {e.type.replace('_', ' ')} event has no PHH action"


def phh_text(events: Sequence[Any], chip: Any = None, *, source_key: str | None = None) -> str:
    """The hand as PHH (FORMATS.md §1), corrections applied, with its ledger id and session in
    our ``_hand_id`` / ``_session`` keys: importing the text again adds nothing. ``chip``: as
    for :func:`phh_parts`. ``source_key``: the key the hand's site file gave it
    (:func:`site_keys`), written as our ``_source_key`` (unless its start keeps one already,
    read from an earlier such export), by which a ledger holding the hand under another id
    knows it (:mod:`replay.ingest.carried_source`)."""
    from ledger.formats.phh.read import write_phh

    started, forced, actions, payouts = phh_parts(events, chip)
    keep = {"_hand_id": started.hand} | ({"_session": started.session} if started.session
                                          else {})
    if source_key is not None and SOURCE_KEY not in started.source:
        keep[SOURCE_KEY] = source_key
    return write_phh(started, forced, actions, payouts, extra=keep)


def site_keys(ledger: Any, hands: Sequence[str] = ()) -> dict[str, str]:
    """``{hand id: source key}`` of the hands (all, or ``hands``) whose key a site's file gave
    them (``pokernow:…``, ``pokerstars:…``): what JSON lines carry
    (:func:`ledger.formats.jsonl.carried_key`) but a PHH hand's key, the digest of its own
    text, which a PHH export's text does not keep. One query."""
    named = " AND hand_id IN (SELECT UNNEST(?))" if hands else ""
    rows = ledger.query(
        "SELECT hand_id, source_key FROM events WHERE seq = 1 AND hand_id IS NOT NULL"
        " AND contains(source_key, ':') AND NOT starts_with(source_key, 'jsonl:')" + named,
        [list(hands)] if hands else [])
    return dict(rows)


def export_tables(ledger: Any, out: Path, fmt: str) -> list[Path]:
    """Write the events table and every derived table/view as ``<name>.<fmt>`` into ``out``
    (made if missing; its parent folder must exist).

    Raises:
        LedgerError: ``out`` is a file, ``out``'s parent folder does not exist, or ``out``
            cannot be made; a file to write is the ledger (a hard link to it), nothing
            written; an amount beyond a 64-bit integer
            (:mod:`replay.ingest.export_columns`: chips and money are written as integers),
            nothing written.
    """
    from ledger.store.outputs import none_is_the_ledger

    con = ledger.connection
    # this database's own (a ledger read with its tables caught up in memory also lists the
    # file's, attached beside them under the same names: each table once, as it reads now)
    names = sorted(r[0] for r in con.execute(
        "SELECT DISTINCT table_name FROM information_schema.tables WHERE table_schema = "
        "'main' AND table_catalog = current_database()").fetchall() if r[0] != "meta")
    paths = [out / f"{name}.{fmt}" for name in names]
    none_is_the_ledger(paths, ledger.path, f"export {out}")
    if out.exists() and not out.is_dir():
        raise LedgerError(f"cannot write the tables into {out}: it is a file, not a folder; "
                          f"--format {fmt} writes a file per table into a folder: name a "
                          "folder (made when it does not exist)")
    from replay.ingest.export_columns import select_list

    chosen = [select_list(con, name, fmt) for name in names]  # a refusal writes nothing
    try:
        out.mkdir(exist_ok=True)
    except FileNotFoundError as exc:
        if out.parent.is_dir():  # /proc: there, but no folder is made in it
            raise LedgerError(f"cannot make folder {out}: {out.parent} takes no new folder "
                              f"(the system says: {exc.strerror})") from None
        raise LedgerError(f"no folder {out.parent} to write {out.name} into (a folder is made "
                          "only inside one that exists)") from None
    except OSError as exc:
        raise LedgerError(f"cannot make folder {out}: {exc.strerror}") from None
    written = []
    for name, path, columns in zip(names, paths, chosen, strict=True):
        option = "(FORMAT PARQUET)" if fmt == "parquet" else "(FORMAT CSV, HEADER)"
        con.execute(f"COPY (SELECT {columns} FROM \"{name}\") TO '{path.as_posix()}' "
                    f"{option}")
        written.append(path)
    return written
