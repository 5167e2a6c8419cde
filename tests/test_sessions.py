"""ledger.audit.books: folding session events and hands, in ledger order, into books.

Hands are given as HandFacts built by hand (chips in the comments); one test builds them from
a real replay of a generated hand.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from ledger.audit.books import (
    HandFacts,
    SessionRow,
    build_series,
    format_money,
    hand_facts,
    resolve_aliases,
)
from ledger.model import events as ev


def hand(name: str, pos: int, starting: dict[str, int], net: dict[str, int], *,
         session: str = "s", paid: dict[str, int] | None | bool = True,
         carried: int = 0, carried_in: int = 0) -> HandFacts:
    """A hand where each player put in ``max(0, -net)`` and winners were paid what they won
    plus what they put in (contributions = losses + the winners' own calls, kept simple)."""
    contributions = {p: max(0, -n) for p, n in net.items()}
    pay = {p: max(0, n) for p, n in net.items()}
    return HandFacts(hand=name, session=session, ord=pos, position=pos, game="NT",
                     status="complete", starting=starting, contributions=contributions,
                     paid=pay if paid is True else (None if paid is None else paid), net=net,
                     pot_out=sum(contributions.values()) + carried_in, carried=carried,
                     carried_in=carried_in)


def rows(*items: tuple[int, Any], session: str = "s") -> list[SessionRow]:
    return [SessionRow(pos, session, e) for pos, e in items]


OPEN = ev.SessionOpened(session="s", chip_value_minor=25, currency="USD", decimals=2)


def test_buy_ins_hands_and_cash_outs_are_followed_in_ledger_order() -> None:
    session = rows(
        (1, OPEN), (2, ev.BuyIn(player="A", chips=100)), (3, ev.BuyIn(player="B", chips=50)),
        (5, ev.BuyIn(player="B", chips=40, kind="rebuy")),
        (7, ev.CashOut(player="A", chips=150)), (8, ev.CashOut(player="B", chips=40)),
        (9, ev.SessionClosed()),
    )
    hands = [hand("h1", 4, {"A": 100, "B": 50}, {"A": 50, "B": -50}),
             hand("h2", 6, {"A": 150, "B": 40}, {"A": 0, "B": 0})]
    series = build_series(session, hands)
    book = series.sessions["s"]
    assert book.followed and book.closed and book.chip_value_minor == 25
    b = book.players["B"]
    assert (b.buy_in, b.buy_ins, b.rebuys, b.net, b.hands, b.cash_out) == (90, 1, 1, -50, 2, 40)
    assert [(s.hand, s.player, s.expected, s.actual) for s in book.starts] == [
        ("h1", "A", 100, 100), ("h1", "B", 50, 50), ("h2", "A", 150, 150), ("h2", "B", 40, 40)]
    assert book.starts[3].bought == 40 and book.starts[3].previous == "h1"
    assert [(c.player, c.expected, c.actual) for c in book.cash_outs] == [("A", 150, 150),
                                                                          ("B", 40, 40)]
    assert book.players["A"].on_table == 0


def test_a_player_who_sits_out_keeps_his_stack() -> None:
    session = rows((1, OPEN), *[(i, ev.BuyIn(player=p, chips=100)) for i, p in
                                enumerate("ABC", 2)])
    hands = [hand("h1", 10, {"A": 100, "B": 100, "C": 100}, {"A": 20, "B": -20, "C": 0}),
             hand("h2", 11, {"A": 120, "B": 80}, {"A": -5, "B": 5}),
             hand("h3", 12, {"A": 115, "B": 85, "C": 100}, {"A": 0, "B": 0, "C": 0})]
    book = build_series(session, hands).sessions["s"]
    assert all(s.expected == s.actual for s in book.starts)
    last_c = [s for s in book.starts if s.player == "C"][-1]
    assert (last_c.hand, last_c.previous, last_c.expected) == ("h3", "h1", 100)


def test_unknown_payouts_leave_the_next_stack_unchecked() -> None:
    session = rows((1, OPEN), (2, ev.BuyIn(player="A", chips=100)),
                   (3, ev.BuyIn(player="B", chips=100)))
    hands = [hand("h1", 4, {"A": 100, "B": 100}, {"A": -10, "B": -10}, paid=None),
             hand("h2", 5, {"A": 120, "B": 80}, {"A": 0, "B": 0})]
    book = build_series(session, hands).sessions["s"]
    assert [s.expected for s in book.starts] == [100, 100, None, None]


def test_hands_without_an_opened_session_count_but_are_not_followed() -> None:
    hands = [hand("h1", 1, {"A": 10, "B": 10}, {"A": 2, "B": -2}, session="loose")]
    series = build_series([], hands)
    book = series.sessions["loose"]
    assert not book.followed and book.starts == [] and book.players["A"].net == 2


def test_aliases_put_every_name_under_the_player() -> None:
    session = rows((1, OPEN), (2, ev.BuyIn(player="Ann", chips=100)),
                   (3, ev.BuyIn(player="u7", chips=100)),
                   (9, ev.PlayerAlias(player="Bob", alias="u7")))
    hands = [hand("h1", 4, {"Ann": 100, "u7": 100}, {"Ann": 5, "u7": -5})]
    series = build_series(session, hands)
    book = series.sessions["s"]
    assert set(book.players) == {"Ann", "Bob"}
    assert book.players["Bob"].net == -5 and book.players["Bob"].buy_in == 100
    assert series.hands[0].starting == {"Ann": 100, "Bob": 100}
    assert series.name("u7") == "Bob"


def test_resolve_aliases_chains_cycles_and_self() -> None:
    A = ev.PlayerAlias
    assert resolve_aliases([A(player="b", alias="a"), A(player="c", alias="b")]) == {
        "a": "c", "b": "c"}
    assert resolve_aliases([A(player="x", alias="x")]) == {}
    # PokerNow says id "u1" is called "Ann"; the host then says "u1" is Ann: Ann is the player
    assert resolve_aliases([A(player="u1", alias="Ann"), A(player="Ann", alias="u1")]) == {
        "u1": "Ann"}
    three = [A(player="b", alias="a"), A(player="c", alias="b"), A(player="a", alias="c")]
    out = resolve_aliases(three)
    assert len(set(out.values())) == 1 and set(out) | set(out.values()) == {"a", "b", "c"}


def test_hand_facts_from_a_replayed_generated_hand() -> None:
    from replay.demo.hand import play_hand, seat_order, stakes_for
    from replay.fold import replay_events

    order = seat_order(["A", "B", "C", "D"], "B")
    started = ev.HandStarted(hand="g1", game="FO/8", stakes=stakes_for("FO/8", 4), button="B",
                             seats=[ev.Seat(player=p, stack=60) for p in order], session="s")
    played = play_hand(random.Random(4), started)
    replayed = replay_events(played.events)
    facts = hand_facts(replayed, ord=1, position=7, unit=started.unit)
    assert facts.paid == played.paid and facts.net == replayed.net
    assert facts.pot_out == facts.pot_in and facts.leak == 0
    assert sum(facts.net.values()) == 0 and facts.payouts == ()


def test_hand_facts_without_payouts_or_verifiable_showdown() -> None:
    result = SimpleNamespace(players=("A", "B"), starting={"A": 10, "B": 10},
                             contributions={"A": 4, "B": 4}, returned={}, awards={"A": 0, "B": 0},
                             carried=0, carried_in=0, carried_out=0, status="complete",
                             verifiable=False, net={"A": -4, "B": -4})
    from replay.fold import HandReplay

    replayed = HandReplay(hand="x", session=None, game="NT", result=result,  # type: ignore[arg-type]
                          recorded=None, discrepancies=(), notes=())
    facts = hand_facts(replayed, ord=1, position=1)
    assert facts.paid is None and facts.pot_out is None and facts.leak is None


def test_format_money() -> None:
    assert format_money(2550, 2, "USD") == "25.50 USD"
    assert format_money(-5, 2, None) == "-0.05"
    assert format_money(300, 0, "JPY") == "300 JPY"
