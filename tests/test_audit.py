"""ledger.audit.checks: each check on books built by hand, the generated series (clean and planted)
through the real importer and replayer, and settling up (ledger.audit.settle)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.audit.books import PayoutFinding, Series, build_series, hand_facts
from ledger.audit.checks import (
    CHECKS,
    KINDS,
    Finding,
    audit,
    chip_conservation,
    payout,
    session_balance,
    settlement,
    stack_continuity,
)
from ledger.audit.settle import EXACT_LIMIT, fewest_transfers, greedy_transfers
from ledger.model import events as ev
from tests.test_sessions import OPEN, hand, rows


def three_handed(*, c_start: int = 100, cash: tuple[int, int, int] = (120, 80, 100),
                 close: bool = True, pays: tuple[tuple[str, str, int], ...] = ()) -> list:
    """A buys 100, B 100, C 100; h1 A wins 20 from B; h2 (C sits out) nothing moves;
    h3 C starts with ``c_start``; cash-outs ``cash``; payments ``pays`` (minor units)."""
    items = [(1, OPEN), *[(i, ev.BuyIn(player=p, chips=100)) for i, p in enumerate("ABC", 2)]]
    items += [(20 + i, ev.CashOut(player=p, chips=c))
              for i, (p, c) in enumerate(zip("ABC", cash, strict=True))]
    if close:
        items.append((30, ev.SessionClosed()))
    items += [(31 + i, ev.Payment(payer=a, payee=b, amount_minor=n))
              for i, (a, b, n) in enumerate(pays)]
    hands = [hand("h1", 10, {"A": 100, "B": 100, "C": 100}, {"A": 20, "B": -20, "C": 0}),
             hand("h2", 11, {"A": 120, "B": 80}, {"A": 0, "B": 0}),
             hand("h3", 12, {"A": 120, "B": 80, "C": c_start}, {"A": 0, "B": 0, "C": 0})]
    return [rows(*items), hands]


def test_clean_books_audit_clean() -> None:
    series = build_series(*three_handed(pays=(("B", "A", 500),)))
    assert audit(series) == []


def test_stack_continuity_names_hand_player_and_both_numbers() -> None:
    (d,) = stack_continuity(build_series(*three_handed(c_start=110, cash=(120, 80, 110))))
    assert (d.kind, d.session, d.hand, d.player, d.expected, d.actual, d.diff) == (
        "stack_continuity", "s", "h3", "C", 100, 110, 10)
    assert d.message == ("hand h3: C starts with 110 but C left hand h1 with 100 and bought "
                         "nothing: expected 100 (+10)")


def test_first_hand_without_a_buy_in() -> None:
    session = rows((1, OPEN), (2, ev.BuyIn(player="A", chips=50)))
    hands = [hand("h1", 3, {"A": 50, "Z": 30}, {"A": 0, "Z": 0})]
    (d,) = stack_continuity(build_series(session, hands))
    assert (d.player, d.expected, d.actual) == ("Z", 0, 30) and "no buy-in" in d.message


def test_cash_out_off_by_one_is_one_finding_and_explains_the_total() -> None:
    series = build_series(*three_handed(cash=(120, 79, 100)))
    found = audit(series)
    assert [(d.kind, d.player, d.expected, d.actual) for d in found] == [
        ("session_balance", "B", 80, 79)]


def test_chips_left_on_the_table_and_a_cash_out_without_chips() -> None:
    session, hands = three_handed()
    session = [r for r in session if not (r.event.type == "cash_out" and r.event.player == "C")]
    session.append(rows((25, ev.CashOut(player="Q", chips=5)))[0])
    found = session_balance(build_series(sorted(session, key=lambda r: r.position), hands))
    assert [(d.player, d.expected, d.actual) for d in found] == [("Q", 0, 5), ("C", 100, 0)]
    assert "no chips at the table" in found[0].message
    assert "never cashed out the 100 chips" in found[1].message


def test_total_balance_catches_what_an_unknown_hand_hides() -> None:
    session, hands = three_handed(cash=(130, 80, 100))
    hands[2] = replace(hands[2], paid=None)  # h3's payouts unknown: A's 130 is not checked
    found = audit(build_series(session, hands))
    assert [(d.kind, d.player, d.expected, d.actual) for d in found] == [
        ("session_balance", None, 300, 310)]
    assert "cash-outs total 310 (+10)" in found[0].message


def test_payout_findings_come_from_the_replay() -> None:
    session, hands = three_handed()
    hands[0] = replace(hands[0], payouts=(
        PayoutFinding("A", 10, 30, "payout", "hand h1: A was paid 10, the rules give 30 (-20)"),
        PayoutFinding("*", 10, 30, "infeasible", "hand h1: the table paid 10 in all")))
    found = payout(build_series(session, hands))
    assert [(d.hand, d.player, d.expected, d.actual) for d in found] == [
        ("h1", "A", 30, 10), ("h1", None, 30, 10)]


def test_chip_conservation_per_hand_and_carried_chips() -> None:
    session, hands = three_handed()
    hands[0] = replace(hands[0], pot_out=hands[0].pot_in + 3)
    hands[1] = replace(hands[1], carried=12)
    found = chip_conservation(build_series(session, hands))
    assert [(d.hand, d.expected, d.actual) for d in found] == [("h1", 20, 23), ("h3", 12, 0)]
    texts = [d.message for d in found]
    assert "20 chips went in" in texts[0] and "(+3)" in texts[0]
    assert "hand h3 brings in 0 carried chips but hand h2 carried 12" in texts[1]


def test_carried_chips_still_pending_when_the_session_closes() -> None:
    session, hands = three_handed()
    hands[2] = replace(hands[2], carried=7)
    (d,) = chip_conservation(build_series(session, hands))
    assert (d.hand, d.expected, d.actual) == ("h3", 7, 0)


def test_settlement_names_the_player_who_still_owes() -> None:
    # nets: A +20, B -20 chips = +500 / -500 cents; B paid A only 400
    found = settlement(build_series(*three_handed(pays=(("B", "A", 400),))))
    (d,) = found
    assert (d.kind, d.player, d.expected, d.actual) == ("settlement", "B", -500, -400)
    assert d.message.endswith("(+1.00 USD): B must still pay A 1.00 USD")
    assert settlement(build_series(*three_handed(pays=(("B", "A", 500),)))) == []
    assert settlement(build_series(*three_handed(close=False, pays=(("B", "A", 1),)))) == []


def test_audit_orders_filters_and_has_every_kind() -> None:
    assert [c.__name__ for c in CHECKS] == list(KINDS)
    series = build_series(*three_handed(c_start=110, cash=(120, 81, 110)))
    found = audit(series)
    assert [d.kind for d in found] == ["stack_continuity", "session_balance"]
    assert audit(series, session="other") == []
    assert set(found[0].as_json()) == {"kind", "session", "hand", "player", "expected",
                                       "actual", "message"}
    series.external.append(Finding("ledger_mismatch", "s", None, "A", 1, 2, "x"))
    assert audit(series)[-1].kind == "ledger_mismatch"


# ------------------------------------------------------------------ the generated series


@dataclass
class _Loaded:
    series: Series
    ledger: Any


def batch_series(ledger: Any) -> Series:
    """The books of ``ledger`` the simple way: every hand replayed and kept, then folded."""
    from ledger.audit.load import session_rows
    from ledger.store.streams import hand_streams
    from replay.fold import replay_events

    facts, positions = [], {}
    for row in ledger.stored():
        positions.setdefault(row.hand_id, row.position)
    for ord_, (hid, session, events) in enumerate(hand_streams(ledger), 1):
        replayed = replay_events(events, session=session)
        facts.append(hand_facts(replayed, ord=ord_, position=positions[hid],
                                unit=events[0].unit))
    return build_series(session_rows(ledger), facts)


def _load(tmp: Path, *, plant: bool):  # noqa: ANN202
    from ledger.store.store import Ledger
    from replay.demo.series import generate_series, write_series
    from replay.ingest.pipeline import import_paths

    series = generate_series(sessions=4, hands=40, seed=11, plant_errors=plant)
    paths = write_series(series, tmp)
    ledger = Ledger.memory()
    report = import_paths(ledger, paths, strict=True, session=None, pn_ledger=None)
    assert not report.errors and report.imported == 160
    return series, _Loaded(batch_series(ledger), ledger)


def test_generated_series_is_clean_and_sums_to_zero(tmp_path: Path) -> None:
    _, loaded = _load(tmp_path, plant=False)
    assert audit(loaded.series) == []
    for book in loaded.series.sessions.values():
        assert sum(p.net for p in book.players.values()) == 0
        assert sum(p.buy_in for p in book.players.values()) == sum(
            p.cash_out for p in book.players.values())
    games = {h.game for h in loaded.series.hands}
    assert {"NT", "PO", "FT", "F7S", "FO/8", "F2L3D"} <= games


def test_planted_series_lists_exactly_the_planted_errors_once(tmp_path: Path) -> None:
    generated, loaded = _load(tmp_path, plant=True)
    assert sorted(p.kind for p in generated.planted) == sorted(
        ("payout", "stack_continuity", "session_balance", "settlement"))
    found = audit(loaded.series)
    want = {(p.kind, p.session, p.hand, player) for p in generated.planted
            for player in p.players}
    got = [(d.kind, d.session, d.hand, d.player) for d in found]
    assert sorted(got) == sorted(want) and len(got) == len(set(got)) == 5
    misdeal = next(p for p in generated.planted if p.kind == "payout")
    from ledger.store.streams import load_hand
    from replay.fold import replay_events

    events, session = load_hand(loaded.ledger, misdeal.hand)
    replayed = replay_events(events, session=session)
    assert len(replayed.result.pots) >= 2  # it was a side pot
    diffs = {d.kind: d.diff for d in found if d.kind != "payout"}
    # 20 chips taken off a stack without a cash-out (replay/demo/series.py)
    assert diffs == {"stack_continuity": -20, "session_balance": -7, "settlement": 100}


# ------------------------------------------------------------------ settling up

balances = st.lists(st.integers(-500, 500), min_size=0, max_size=12).map(
    lambda xs: {f"p{i}": x for i, x in enumerate([*xs, -sum(xs)])})


@settings(max_examples=150, deadline=None)
@given(balances)
def test_transfers_reproduce_every_net_and_are_fewest(nets: dict[str, int]) -> None:
    transfers = fewest_transfers(nets)
    got = dict.fromkeys(nets, 0)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        got[payer] -= amount
        got[payee] += amount
    assert got == nets
    assert sum(got.values()) == 0
    nonzero = sum(1 for n in nets.values() if n)
    assert len(transfers) <= max(0, nonzero - 1)
    assert len(transfers) <= len(greedy_transfers(nets))


def test_zero_sum_groups_save_transfers_where_greedy_does_not() -> None:
    # b and d cancel (one transfer), the other four take three: 4 in all; greedy (largest
    # debtor to largest creditor) starts c -> a and needs 5
    nets = {"a": 15, "b": 6, "c": -8, "d": -6, "e": -4, "f": -3}
    assert ("d", "b", 6) in fewest_transfers(nets)
    assert (len(fewest_transfers(nets)), len(greedy_transfers(nets))) == (4, 5)
    assert EXACT_LIMIT >= 12


def test_unbalanced_nets_cannot_be_settled() -> None:
    with pytest.raises(ValueError, match="sum to"):
        fewest_transfers({"a": 1})


#: Ann and Bob buy in 10 chips of 1.00 USD, Ann folds her small blind 1 to Bob's big blind
#: (Bob paid 3), cash-outs 9 and 11, closed: Ann owes Bob 1.00 USD, no payment recorded.
OWED_NIGHT = (("session", "open", "s", "--chip-value", "1", "--currency", "USD"),
              ("buyin", "s", "Ann", "10"), ("buyin", "s", "Bob", "10"),
              ("hand", "start", "--session", "s", "--hand", "h", "--game", "NT", "--stakes",
               "1/2", "--seats", "Ann:10,Bob:10", "--button", "Ann"),
              ("act", "h", "d dh Bob ????"), ("act", "h", "d dh Ann ????"),
              ("act", "h", "Ann f"), ("act", "h", "pay Bob 3"), ("act", "h", "end"),
              ("cashout", "s", "Ann", "9"), ("cashout", "s", "Bob", "11"),
              ("session", "close", "s"))


def test_unsettled_names_a_closed_session_nobody_paid_only_when_asked(run) -> None:  # noqa: ANN001
    """docs/COMMANDS.md, audit's options: Ann and Bob buy in 10 chips of 1.00 USD, Ann folds
    her small blind 1 to Bob's big blind (Bob paid 3), cash-outs 9 and 11, closed: Ann owes
    Bob 1.00 USD. No payment recorded: ``audit`` is clean, exit 0; ``--unsettled`` names it,
    exit 1. After a payment of 0.50 the rest is a ``settlement`` finding of a plain audit."""
    for argv in OWED_NIGHT:
        assert run(*argv).exit_code == 0, argv
    clean = run("audit")
    assert (clean.exit_code, clean.output.split(";")[0]) == (
        0, "audit clean: 1 hand(s) in 1 session(s)")
    asked = run("audit", "--unsettled")
    assert (asked.exit_code, asked.output.splitlines()) == (1, [
        "unsettled: session s: payments come to 0.00 USD for Ann but Ann's net calls for "
        "-1.00 USD (+1.00 USD): Ann must still pay Bob 1.00 USD [session s, player Ann; "
        "expected -100, actual 0]",
        "audit: 1 discrepancy (unsettled 1); 1 hand(s) in 1 session(s) checked"])
    assert run("pay", "s", "Ann", "Bob", "0.50").exit_code == 0
    rest = run("audit")
    assert (rest.exit_code, rest.output.splitlines()[-1]) == (
        1, "audit: 1 discrepancy (settlement 1); 1 hand(s) in 1 session(s) checked")
    assert "Ann must still pay Bob 0.50 USD" in rest.output
