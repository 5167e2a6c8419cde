"""The partitions of a distributed replay merged into the ledger's books and audit: what
:func:`replay.projections.rebuild` gets from one pass over the whole ledger.

Each session is folded whole in one partition (:mod:`replay.partition`), so its book is taken
as it is; the books are ordered by their first ledger position, which is the order of first
appearance the streaming audit gives them. The hands of no session are spread over the
partitions, each partition keeping a share of the book of no session: the shares are summed
per player (hands, net, biggest win and loss), and what follows the chips (the stack, whether
it is known, his last hand) comes from the share holding his last hand, the book's unit from
the share holding the first hand (as :func:`ledger.audit.books.SeriesFold` leaves them).
Findings are put in the audit's order (session, hand, check: ``StreamAudit.finish_keyed``)
with the sessions' places in the whole ledger; the series checks run once over the merged
books.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ledger.audit.books import PlayerBook, Series, SessionBook, SessionRow, platform_nicknames
from ledger.audit.checks import SESSION_WIDE, STORED, Finding, Scope
from ledger.audit.tables import AuditReport
from replay.partition import PartResult

_SUMMED = ("buy_in", "buy_ins", "rebuys", "top_ups", "cash_out", "hands", "net", "rules_net",
           "paid_minor", "received_minor")
_FOLLOWED = ("stack", "known", "seated", "previous", "bought")


@dataclass
class Merged:
    """The merged series (books in ledger order, no hands), every finding in the audit's
    order, the audit report (:class:`ledger.audit.tables.AuditReport`), the counts of the
    hands replayed, paid differently from the rules and not verifiable, and each correction
    appended after later events took the hand's chips
    (:class:`replay.late_corrections.LateCorrection`, in ledger order: the notes of
    ``audit``)."""

    series: Series
    findings: list[Finding]
    report: AuditReport
    counts: dict[str, int]
    late: list[Any] = field(default_factory=list)


def merge_parts(parts: Sequence[PartResult], aliases: Mapping[str, str],
                named: Sequence[SessionRow]) -> Merged:
    """Merge the partitions' results (any order). ``aliases``: the series' alias map;
    ``named``: every ``player_alias`` and ``session_opened`` row in ledger order (for the
    platform nicknames, :func:`ledger.audit.books.platform_nicknames`, in the sessions whose
    book says their players are platform ids: ``SessionBook.platform``, which a partition
    folds whole)."""
    books: dict[str | None, SessionBook] = {}
    seated: dict[str | None, set[str]] = {}
    for part in parts:
        for name, book in part.books.items():
            if name is not None:
                books[name] = book
        for name, names in part.seated.items():
            seated.setdefault(name, set()).update(names)
    loose = merge_loose([p for p in parts if None in p.books])
    if loose is not None:
        books[None] = loose
    ordered = dict(sorted(books.items(), key=lambda item: item[1].first))
    platform = {name for name, book in ordered.items() if book.platform}
    series = Series(ordered, [], dict(aliases),
                    nicknames=platform_nicknames(named, seated, aliases, platform,
                                                 {n: b.players.keys() for n, b in ordered.items()}))
    place = {name: i for i, name in enumerate(ordered)}
    keyed = [(place[d.session], ord_, rank, d) for p in parts for _, ord_, rank, d in p.findings]
    for check in STORED:
        if check.scope is Scope.SERIES:
            keyed.extend((place.get(d.session, len(place)), SESSION_WIDE, check.rank, d)
                         for d in check.run(series))
    keyed.sort(key=lambda item: item[:3])
    findings = [d for *_, d in keyed]
    counts = {k: sum(p.counts.get(k, 0) for p in parts) for k in ("hands", "bad", "unverifiable")}
    incomplete = sorted(c for p in parts for c in p.incomplete)
    units, session_units = finding_units(findings, ordered, parts)
    report = AuditReport(findings, {name: b.hand_count for name, b in ordered.items()},
                         [(hand, session) for _, hand, session in incomplete], units,
                         session_units)
    late = [c for _, c in sorted((item for p in parts for item in p.late),
                                 key=lambda item: item[0])]
    return Merged(series, findings, report, counts, late)


Chip = tuple[int, int, str | None]


def finding_units(findings: Sequence[Finding], books: Mapping[str | None, SessionBook],
                  parts: Sequence[PartResult]) -> tuple[dict[str, Chip], dict[str, Chip]]:
    """What the chips of each finding count, as :func:`ledger.audit.tables.read_audit` gives
    them to the audit's text (README "Chips of different values"): ``(units, session_units)``,
    ``hand -> (minor units a chip is worth, decimals, currency)`` for a finding's hand whose
    chips are worth money (its session's chip, or a hand of no session its own, as its
    partition kept it: :attr:`PartResult.units`), and ``session -> …`` the same for a
    session that a finding naming no hand is of. Plain chips are in neither."""
    own: dict[str, Chip] = {}
    for part in parts:
        own.update(part.units)

    def chip(session: str | None) -> Chip | None:
        book = books.get(session) if session is not None else None
        if book is None:
            return None
        unit = (book.chip_value_minor or 1, book.decimals or 0, book.currency)
        return unit if unit[2] is not None or unit[1] > 0 or unit[0] > 1 else None

    units: dict[str, Chip] = {}
    sessions: dict[str, Chip] = {}
    for d in findings:
        if d.hand is not None:
            unit = chip(d.session) if d.session is not None else own.get(d.hand)
            if unit is not None:
                units[d.hand] = unit
        elif d.session is not None and (unit := chip(d.session)) is not None:
            sessions[d.session] = unit
    return units, sessions


def merge_loose(parts: Sequence[PartResult]) -> SessionBook | None:
    """The book of no session from the partitions' shares of it (module doc); None when no
    partition has a hand of no session."""
    shares = [(p.books[None], p.last_seen, p.last_loose) for p in parts]
    if not shares:
        return None
    book = _merged(shares)
    units: dict[tuple[int, str | None, int], list[tuple[SessionBook, dict[str, int], int]]] = {}
    for p in parts:  # a share of one chip unit is its own book of that unit
        for sub in p.books[None].books_by_unit():
            units.setdefault(sub.unit, []).append((sub, p.last_by_unit.get(sub.unit, {}), 0))
    if len(units) > 1:  # chips of different values: a book per unit, as the fold keeps them
        book.by_unit = dict(sorted(((unit, _merged(of)) for unit, of in units.items()),
                                   key=lambda item: item[1].first))
    return book


def _merged(shares: Sequence[tuple[SessionBook, Mapping[str, int], int]]) -> SessionBook:
    """One book of no session (or of one chip unit of it) from the partitions' shares: each
    with the ledger position of each player's last hand in it."""
    if len(shares) == 1:
        return shares[0][0]
    first = min((b for b, _, _ in shares), key=lambda b: b.first)
    book = SessionBook(None, first.first, chip_value_minor=first.chip_value_minor,
                       currency=first.currency, decimals=first.decimals,
                       hand_count=sum(b.hand_count for b, _, _ in shares),
                       rake=sum(b.rake for b, _, _ in shares))
    entries = sorted(((pb.first, i, j, pb, seen.get(pb.player, 0))
                      for i, (b, seen, _) in enumerate(shares)
                      for j, pb in enumerate(b.players.values())), key=lambda e: e[:3])
    latest: dict[str, int] = {}
    for *_, pb, seen in entries:
        have = book.players.get(pb.player)
        if have is None:
            book.players[pb.player] = have = PlayerBook(**{f.name: getattr(pb, f.name)
                                                          for f in fields(PlayerBook)})
        else:
            _add(have, pb)
        if seen >= latest.get(pb.player, -1):
            latest[pb.player] = seen
            for name in _FOLLOWED:
                setattr(have, name, getattr(pb, name))
    return book


def _add(into: PlayerBook, share: PlayerBook) -> None:
    for name in _SUMMED:
        setattr(into, name, getattr(into, name) + getattr(share, name))
    into.first = min(into.first, share.first)
    into.biggest_win = max(into.biggest_win, share.biggest_win)
    into.biggest_loss = min(into.biggest_loss, share.biggest_loss)

