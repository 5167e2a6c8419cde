"""ledger.audit.checks.REGISTRY: the one list of audit checks that the batch audit, the streaming
audit, the derived table ``audit_discrepancies`` and docs/SQL.md all read; and the streaming
audit over many tiny sessions equal to the batch audit."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ledger.audit.books import HandFacts, PayoutFinding, Series, SessionRow, build_series
from ledger.audit.checks import (
    CHECKS,
    KINDS,
    REGISTRY,
    STORED,
    Check,
    Finding,
    Scope,
    audit,
    kind,
    ranked_checks,
)
from ledger.audit.stream import StreamAudit
from ledger.audit.tables import read_audit, refresh
from ledger.model import events as ev
from ledger.store.store import Ledger
from replay.tables import create_tables
from tests.test_sessions import OPEN, hand, rows

ROOT = Path(__file__).resolve().parents[1]


def every_kind() -> tuple[list[SessionRow], list[HandFacts]]:
    """Two sessions with a finding for every registered check but the supplied one. In s: h1
    paid 10 where the rules give 30 and its pot is 3 chips over; h2's site summary says A
    won 8 where its lines collected 7, and h2 carries 12 chips that h3
    does not bring in; C starts h3 with 110 of his 100; B cashes out 79 of his 80; the
    platform says A's net is 25 (the books: 20); B paid A 4.00 USD of the 5.00 his net calls
    for; h4 is still being played. In t (closed, no payment at all): D won 10 chips of E; h9
    does not replay."""
    session = rows(
        (1, OPEN), *[(i, ev.BuyIn(player=p, chips=100)) for i, p in enumerate("ABC", 2)],
        (20, ev.CashOut(player="A", chips=120)), (21, ev.CashOut(player="B", chips=79)),
        (22, ev.CashOut(player="C", chips=110)),
        (23, ev.PlatformLedger(rows=[
            ev.PlatformLedgerRow(player="A", buy_in=100, buy_out=125, stack=0, net=25)])),
        (30, ev.SessionClosed()), (31, ev.Payment(payer="B", payee="A", amount_minor=400)))
    h1 = hand("h1", 10, {"A": 100, "B": 100, "C": 100}, {"A": 20, "B": -20, "C": 0})
    h1 = replace(h1, pot_out=h1.pot_in + 3, payouts=(
        PayoutFinding("A", 10, 30, "payout", "hand h1: A was paid 10, the rules give 30 (-20)"),))
    other = rows((40, ev.SessionOpened(session="t", chip_value_minor=25, currency="USD",
                                       decimals=2)),
                 *[(i, ev.BuyIn(player=p, chips=100)) for i, p in ((41, "D"), (42, "E"))],
                 (45, ev.CashOut(player="D", chips=110)), (46, ev.CashOut(player="E", chips=90)),
                 (47, ev.SessionClosed()), session="t")
    broken = replace(hand("h9", 44, {"D": 110, "E": 90}, {"D": 0, "E": 0}, session="t",
                          paid=None), error="event 3: 'hand_started' is not a hand action")
    h2 = replace(hand("h2", 11, {"A": 120, "B": 80}, {"A": 0, "B": 0}, carried=12), payouts=(
        PayoutFinding("A", 7, 10, "rake", "hand h2: the site kept 3 as rake"),
        PayoutFinding("B", 0, 4, "uncalled", "hand h2: B's uncalled bet of 4 left out")),
        site_summary=(("A", 7, 8, "A: the summary says 8, the lines collected 7"),))
    hands = [h1, h2,
             hand("h3", 12, {"A": 120, "B": 80, "C": 110}, {"A": 0, "B": 0, "C": 0}),
             replace(hand("h4", 13, {"A": 120, "B": 80, "C": 110}, {"A": 0, "B": 0, "C": 0}),
                     status="open"),
             hand("h8", 43, {"D": 100, "E": 100}, {"D": 10, "E": -10}, session="t"), broken]
    return session + other, hands


SUPPLIED = Finding("ledger_mismatch", "s", None, "A", 1, 2, "supplied from outside")


def _every_kind_series() -> Series:
    series = build_series(*every_kind())
    series.external.append(SUPPLIED)
    return series


def test_the_registry_is_in_rank_order_and_names_every_kind_once() -> None:
    assert [c.rank for c in REGISTRY] == sorted({c.rank for c in REGISTRY})
    assert KINDS == ("unreplayable", "in_progress", "payout", "chip_conservation",
                     "stack_continuity", "session_balance", "settlement", "ledger_mismatch",
                     "unsettled", "rake", "uncalled", "site_summary")
    assert [c.__name__ for c in CHECKS] == list(KINDS)
    assert {(c.name, c.scope) for c in REGISTRY} == {
        ("unreplayable", Scope.HAND), ("in_progress", Scope.HAND),
        ("unsettled", Scope.SESSION),
        ("rake", Scope.HAND), ("uncalled", Scope.HAND), ("site_summary", Scope.HAND),
        ("payout", Scope.HAND), ("chip_conservation", Scope.HAND),
        ("chip_conservation", Scope.SESSION), ("stack_continuity", Scope.SESSION),
        ("session_balance", Scope.SESSION), ("settlement", Scope.SESSION),
        ("ledger_mismatch", Scope.SERIES), ("ledger_mismatch", Scope.SESSION)}
    first = REGISTRY[0]
    with pytest.raises(ValueError, match="rank"):
        ranked_checks([first, replace(first, name="other", scope=Scope.SESSION)])
    with pytest.raises(ValueError, match="name, scope"):
        ranked_checks([first, replace(first, rank=99)])
    with pytest.raises(KeyError, match="no audit check"):
        kind("nothing")


def test_every_check_finds_its_own_kind_only() -> None:
    series = _every_kind_series()
    for check in REGISTRY:
        found = check.over(series)
        assert found, f"{check.name} ({check.scope}) finds nothing in every_kind()"
        assert {d.kind for d in found} == {check.name}
    found = audit(series)  # by hand (h1, h3, then session-wide), then by rank
    assert [(d.kind, d.hand, d.player, d.expected, d.actual) for d in found] == [
        ("payout", "h1", "A", 30, 10), ("chip_conservation", "h1", None, 20, 23),
        ("rake", "h2", "A", 10, 7), ("uncalled", "h2", "B", 4, 0),
        ("site_summary", "h2", "A", 7, 8),
        ("chip_conservation", "h3", None, 12, 0), ("stack_continuity", "h3", "C", 100, 110),
        ("in_progress", "h4", None, 0, 0),
        ("session_balance", None, "B", 80, 79),
        # h2's rake (3 chips, 0.75 USD) is owed to the house, but these nets do not hold it
        # (they sum to 0): the payments cannot settle, so every party still owed is named
        ("settlement", None, "A", 500, 400), ("settlement", None, "B", -500, -400),
        ("settlement", None, None, 75, 0),
        ("ledger_mismatch", None, "A", 1, 2),  # supplied: ranked before the statement's
        ("ledger_mismatch", None, "A", 20, 25),  # the statement says net 25
        ("ledger_mismatch", None, "B", -20, 0), ("ledger_mismatch", None, "C", 100, 0),
        ("unreplayable", "h9", None, 0, 0)]  # session t, after s; unsettled only on request
    assert [(d.kind, d.player) for d in audit(series, checks=REGISTRY)][-1] == ("unsettled", "E")


def test_the_streaming_audit_runs_every_check_by_its_scope() -> None:
    session, hands = every_kind()
    stream = StreamAudit(session, {"s": 31, "t": 47})
    for h in hands:
        stream.add(h)
    _, got = stream.finish()
    want = audit(build_series(session, hands))
    assert got == want
    assert {d.kind for d in got} == set(KINDS) - {"unsettled"}  # on request only


def test_audit_discrepancies_holds_exactly_the_registered_kinds_in_order() -> None:
    series = _every_kind_series()
    found = audit(series)
    ledger = Ledger.memory()
    create_tables(ledger.connection)  # the replay's tables, which the views read
    refresh(ledger, series, found, 0)
    con = ledger.connection
    kinds = {k for (k,) in con.execute("SELECT DISTINCT kind FROM audit_discrepancies").fetchall()}
    assert kinds == {c.name for c in STORED} == set(KINDS) - {"unsettled"}
    assert read_audit(con).findings == found


def test_a_new_check_is_one_function_and_one_entry() -> None:
    """A check added through the registry's entries alone is run by both audits, by scope,
    and its findings take their place by rank."""

    def hands_of(book: Any) -> list[Finding]:
        return [Finding("long_session", book.name, None, None, 2, len(book.hands),
                        f"session {book.name} has {len(book.hands)} hands")
                ] if book.name and len(book.hands) > 2 else []

    def a_wins(h: HandFacts) -> list[Finding]:
        won = h.net.get("A", 0)
        return [Finding("a_wins", h.session, h.hand, "A", 0, won, f"A won {won}")] if won else []

    checks = (*STORED, Check("long_session", Scope.SESSION, 8, hands_of, "many hands"),
              Check("a_wins", Scope.HAND, -1, a_wins, "A won chips"))
    session, hands = every_kind()
    stream = StreamAudit(session, {"s": 31}, checks=checks)
    for h in hands:
        stream.add(h)
    _, got = stream.finish()
    want = audit(build_series(session, hands), checks=checks)
    assert got == want
    assert [d.kind for d in want][:2] == ["a_wins", "payout"]  # rank -1, first of hand h1
    assert [d for d in want if d.session == "s"][-1].kind == "long_session"  # rank 8: last


# ------------------------------------------------------------------ docs/SQL.md


_BLOCK = re.compile(r"<!-- audit kinds: .*? -->\n(.*?)<!-- end of audit kinds -->", re.S)


def kinds_markdown() -> str:
    """The table of checks in docs/SQL.md, as the registry gives it."""
    lines = ["| `kind` | checked per | what it finds |", "|---|---|---|"]
    lines += [f"| `{c.name}` | {c.scope} | {c.doc} |" for c in REGISTRY]
    return "\n".join(lines) + "\n"


def test_docs_list_the_registered_checks() -> None:
    text = (ROOT / "docs" / "SQL.md").read_text(encoding="utf-8")
    (block,) = _BLOCK.findall(text)
    assert block == kinds_markdown(), "docs/SQL.md: replace the kinds table by\n" + (
        kinds_markdown())
    for name in KINDS:
        assert f"`{name}`" in block


# ------------------------------------------------------------------ many tiny sessions


def _night(name: str, rng: random.Random) -> list[tuple[str, Any]]:
    """One session's items in its own order, with random errors of every session kind."""
    opened = rng.random() < 0.9
    items: list[tuple[str, Any]] = []
    if opened:
        items.append(("row", ev.SessionOpened(session=name, chip_value_minor=25,
                                              currency="USD", decimals=2)))
    stacks = {p: 100 for p in "AB"}
    items += [("row", ev.BuyIn(player=p, chips=100)) for p in stacks]
    carried = 0
    for k in range(rng.randint(0, 3)):
        won = rng.randint(0, 20)
        starting = dict(stacks)
        if rng.random() < 0.05:
            starting["A"] += 10
        stacks["A"] += won
        stacks["B"] -= won
        bring, carried = carried if rng.random() < 0.9 else 0, 5 * (rng.random() < 0.05)
        items.append(("hand", (f"{name}-h{k}", starting, {"A": won, "B": -won}, bring, carried,
                               rng.random() < 0.03)))
    items += [("row", ev.CashOut(player=p, chips=c + (rng.random() < 0.05)))
              for p, c in stacks.items()]
    if rng.random() < 0.05:
        a = stacks["A"] - 100
        items.append(("row", ev.PlatformLedger(rows=[ev.PlatformLedgerRow(
            player="A", buy_in=100, buy_out=100 + a + 1, stack=0, net=a + 1)])))
    if rng.random() < 0.8:
        items.append(("row", ev.SessionClosed()))
        due = 25 * (stacks["A"] - 100)  # A's net in minor units
        if due and rng.random() < 0.3:
            items.append(("row", ev.Payment(payer="B", payee="A",
                                            amount_minor=due - (rng.random() < 0.2))))
    return items


def many_sessions(n: int, seed: int) -> tuple[list[SessionRow], list[HandFacts],
                                              dict[str | None, int]]:
    """``n`` sessions dealt out in ledger order, up to four open at once (books appear
    several between two hands), with hands of no session among them: (rows, hands, ends)."""
    rng = random.Random(seed)
    waiting = deque(f"s{i}" for i in range(n))
    live: dict[str | None, deque] = {}  # the sessions under way: their items still to come
    rows_: list[SessionRow] = []
    hands: list[HandFacts] = []
    position = 0
    while waiting or live:
        while waiting and len(live) < rng.randint(1, 4):
            name = waiting.popleft()
            live[name] = deque(_night(name, rng))
        if rng.random() < 0.01:
            live.setdefault(None, deque()).append(
                ("hand", (f"x{position}", {"A": 50, "B": 50}, {"A": 5, "B": -5}, 0, 0, False)))
        name = rng.choice(list(live))
        what, item = live[name].popleft()
        if not live[name]:
            del live[name]
        position += 1
        if what == "row":
            rows_.append(SessionRow(position, name, item))  # type: ignore[arg-type]
            continue
        hid, starting, net, bring, carry, wrong = item
        h = hand(hid, position, starting, net, session=name,  # type: ignore[arg-type]
                 carried=carry, carried_in=bring)
        if wrong:
            kind = ("payout", "payout", "rake", "uncalled")[position % 4]
            found = (PayoutFinding("A", 0, 1, kind, f"hand {hid}: A short"),)
            if kind == "rake":  # a rake is a finding only beside payouts wrong beside it
                found += (PayoutFinding("A", 1, 0, "payout", f"hand {hid}: A over"),)
            h = replace(h, payouts=found)
        if position % 1013 == 0:  # a site's summary that disagrees with its lines
            h = replace(h, site_summary=((None, 100, 101, "the total pot is 101"),))
        if position % 997 == 0:  # now and then a stream that does not replay
            h = replace(h, paid=None, pot_out=None, error="event 5: out of turn")
        elif position % 1009 == 0:  # and a hand still being played
            h = replace(h, status="open")
        hands.append(h)
    ends: dict[str | None, int] = {}
    for r in rows_:
        ends[r.session] = r.position
    for h in hands:
        ends[h.session] = max(ends.get(h.session, 0), h.position)
    return rows_, hands, ends


class Visits(dict):
    """A dict that counts the keys it hands out when iterated over, either way."""

    visits = 0

    def __iter__(self) -> Iterator[Any]:
        for key in super().__iter__():
            self.visits += 1
            yield key

    def __reversed__(self) -> Iterator[Any]:
        for key in super().__reversed__():
            self.visits += 1
            yield key


def test_the_streaming_audit_numbers_each_session_once() -> None:
    """The audit was quadratic in the number of sessions (10k / 30k / 100k sessions: 4.4 /
    40.8 / 572 s): the streaming audit renumbered every book for each new session, about
    n**2 / 2 visits of the books. Each book is visited once now, whatever the number."""
    for n in (300, 3_000):
        rows_, hands, ends = many_sessions(n, seed=9)
        stream = StreamAudit(rows_, ends)
        stream._fold.books = books = Visits()
        for h in hands:
            stream.add(h)
        visits, count = books.visits, len(books)
        assert count == n + 1  # and the book of no session
        assert visits <= count, f"{visits} visits of {count} books"


def test_twenty_thousand_tiny_sessions_audit_the_same_streamed() -> None:
    rows_, hands, ends = many_sessions(20_000, seed=8)
    stream = StreamAudit(rows_, ends)
    for h in hands:
        stream.add(h)
    series, got = stream.finish()
    batch = build_series(rows_, hands)
    want = audit(batch)
    assert got == want
    assert list(series.sessions) == list(batch.sessions)
    assert len(batch.sessions) == 20_001  # and the book of no session
    assert {d.kind for d in want} == {c.name for c in STORED}
    assert len({d.session for d in want}) > 2_000  # findings spread over the whole ledger
    place = {name: i for i, name in enumerate(batch.sessions)}
    assert [place[d.session] for d in got] == sorted(place[d.session] for d in got)
