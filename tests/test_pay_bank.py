"""Payments with the bank (docs/CORRECTIONS.md "A correction after the chips moved on"): a start
corrected after the next hand was dealt leaves chips in no player's net, which ``settle`` asks
for with the bank; ``pay SESSION Ann bank AMOUNT`` (or ``bank Ann``) records a payment of them,
which settle nets off its bank line, and ``session list`` calls the session settled only once
no bank line stands.

One night, 1 chip = 0.25 USD; Ann and Bob buy in 100 each, blinds 1/2 (``_night`` of
tests/test_settle_unheld.py).
"""

from __future__ import annotations

import json

from tests.test_settle_unheld import START_100, _night

NOTE = ("note: hand 1 corrected after hand 2 was dealt (seq 9, by Host: Ann had 100): Ann "
        "{} (with the bank) chips owed in settle\n")
OWES = ("Ann pays the bank {}: chips Ann had at the table beyond the books, in no player's "
        "net\n")
OWED = ("the bank pays Ann {}: chips the books give Ann beyond those Ann had at the table, in "
        "no player's net\n")


def _owing(user, ann: int) -> None:  # noqa: ANN001
    """Hand 1 recorded Ann with ``ann`` (her buy-ins: 100); Ann folds her small blind (Bob
    +1), hand 2 is dealt on it (Ann ``ann`` - 1, Bob 101) and Bob folds his (Ann +1); then
    hand 1 is corrected to Ann 100: the nets stay 0, and hand 2 stands as played; the session
    closes. ``ann`` 120: Ann had 20 chips beyond the books, 5.00 USD she pays the bank (the
    table's 220 chips are beyond the 200 bought, so no cash-out is recorded: the audit names
    both players never cashed out); 80: the books give her 20 beyond those she had, 5.00 USD
    the bank pays her, and Ann cashes out the 80 chips hand 2 left her, Bob 100."""
    _night(user, f"Ann:{ann},Bob:100", ("d dh Ann ????", "d dh Bob ????", "Ann f",
                                        "pay Bob 3", "end"),
           f"Ann:{ann - 1},Bob:101", ("d dh Bob ????", "d dh Ann ????", "Bob f", "pay Ann 3",
                                      "end"), ("1", "2"))
    assert user("correct", "1", "--replace", "1", START_100, "--reason", "Ann had 100",
                "--by", "Host")[0] == 0
    if ann < 100:
        assert user("cashout", "n1", "Ann", str(ann)) == (
            0, f"n1: Ann cashed out {ann} chips (entry 4)\n", "")
        assert user("cashout", "n1", "Bob", "100")[0] == 0
    assert user("session", "close", "n1")[0] == 0


#: settle's note of the 120 case's cash-outs, before the correction's.
UNCASHED = ("note: session n1: cash-outs differ from the chips its hands leave (Ann -120, Bob "
            "-100 chips); settle goes by the hands: `handledger audit --session n1` names each "
            "(a cash-out counted wrong: `handledger entry amend`; a hand not recorded: record "
            "it)\n")
#: What ``session list`` adds of the 120 case's audit: neither player cashed out.
OFF = ", but its audit has 2 finding(s) (session_balance 2: `handledger audit --session n1`)"


def _listed(user) -> tuple[str, dict]:  # noqa: ANN001
    """``session list``'s line of n1 and its ``--json`` object."""
    code, out, err = user("session", "list")
    assert (code, err) == (0, "")
    code, body, err = user("session", "list", "--json")
    assert (code, err) == (0, "")
    (line,) = out.splitlines()
    (session,) = json.loads(body)["sessions"]
    return line, session


def test_a_bank_debt_paid_in_part_then_in_full(user) -> None:  # noqa: ANN001
    _owing(user, 120)
    line, session = _listed(user)
    assert line == ("n1  2026-11-27  2 hand(s)  2 buy-in(s)  closed, not settled (with the "
                    "bank: Ann pays the bank 5.00 USD)" + OFF)
    assert (session["settled"], session["owed_minor"], session["bank"]) == (
        False, 0, [{"player": "Ann", "amount": 500}])
    # 20 chips × 0.25 USD = 5.00 USD; 2.00 of it paid leaves 3.00
    assert user("pay", "n1", "Ann", "bank", "2.00") == (
        0, "n1: Ann paid the bank 2.00 USD (entry 5)\n", "")
    assert user("settle", "--session", "n1") == (0, OWES.format("3.00 USD") + (
        "no transfer between the players; 1 with the bank; 2.00 USD paid to the bank\n"),
        UNCASHED + NOTE.format(-20))
    body = json.loads(user("settle", "--session", "n1", "--json")[1])
    assert (body["transfers"], body["bank"], body["bank_paid"]) == (
        [], [{"session": "n1", "player": "Ann", "player_name": "Ann", "amount": 300}],
        [{"session": "n1", "player": "Ann", "player_name": "Ann", "amount": 200}])
    assert body["corrected_late"][0]["unheld_minor"] == {"Ann": -500}
    assert _listed(user)[1]["bank"] == [{"player": "Ann", "amount": 300}]
    assert user("pay", "n1", "Ann", "bank", "3.00") == (
        0, "n1: Ann paid the bank 3.00 USD (entry 6)\n", "")
    assert user("settle", "--session", "n1") == (
        0, "settled: nobody owes anybody; 5.00 USD paid to the bank\n", UNCASHED + NOTE.format(-20))
    body = json.loads(user("settle", "--session", "n1", "--json")[1])
    assert "bank" not in body
    assert body["bank_paid"] == [{"session": "n1", "player": "Ann", "player_name": "Ann",
                                  "amount": 500}]
    line, session = _listed(user)
    assert line == "n1  2026-11-27  2 hand(s)  2 buy-in(s)  closed, settled" + OFF
    assert (session["settled"], "bank" in session) == (True, False)
    # the bank's line is in no player's books: the players' payments and the house's stay 0,
    # and the audit finds no settlement owing (only the cash-outs never recorded)
    assert (body["paid_already"], body["payments_recorded"]) == (0, 0)
    code, out, _ = user("audit", "--session", "n1")
    assert (code, out.splitlines()[-1]) == (
        1, "audit: 2 discrepancies (session_balance 2); 2 hand(s) in 1 session(s) checked")


def test_paying_the_bank_more_than_its_line_is_refused(user) -> None:  # noqa: ANN001
    _owing(user, 120)
    code, out, err = user("pay", "n1", "Ann", "bank", "5.01")
    assert (code, out) == (2, "")
    assert err == (
        "error: pay n1 Ann bank: 5.01 USD is more than Ann still owes the bank in n1 (5.00 "
        "USD: for the chips in no player's net Ann pays the bank 5.00 USD; Ann paid the bank "
        "0.00 USD and was paid 0.00 USD by it); nothing written (`handledger settle --session "
        "n1` says who pays whom); --more-than-owed records it anyway\n")
    code, _, err = user("pay", "n1", "bank", "Bob", "1.00")  # Bob has no line: owed nothing
    assert (code, err) == (2, (
        "error: pay n1 bank Bob: 1.00 USD is more than the bank still owes Bob in n1 (0.00 "
        "USD: no chips of Bob's are in no player's net; Bob paid the bank 0.00 USD and was "
        "paid 0.00 USD by it); nothing written (`handledger settle --session n1` says who "
        "pays whom); --more-than-owed records it anyway\n"))
    assert user("settle", "--session", "n1")[1] == OWES.format("5.00 USD") + (
        "no transfer between the players; 1 with the bank\n")
    assert user("pay", "n1", "Ann", "bank", "2.00")[0] == 0
    code, _, err = user("pay", "n1", "Ann", "bank", "2.00")
    assert (code, err) == (2, "error: Ann paying the bank 2.00 USD is recorded in n1 already; "
                              "a second payment of the same amount takes --again\n")
    assert user("pay", "n1", "Ann", "bank", "2.00", "--again")[0] == 0
    code, _, err = user("pay", "n1", "Ann", "bank", "1.01")  # 1.00 left of 5.00
    assert (code, err.splitlines()[0][:80]) == (
        2, "error: pay n1 Ann bank: 1.01 USD is more than Ann still owes the bank in n1 (1.0")
    # --more-than-owed records it: the bank then pays the 0.01 back
    assert user("pay", "n1", "Ann", "bank", "1.01", "--more-than-owed")[0] == 0
    assert user("settle", "--session", "n1")[1] == (
        OWED.format("0.01 USD") + "no transfer between the players; 1 with the bank; 5.01 "
        "USD paid to the bank\n")
    code, _, err = user("pay", "n1", "rake", "bank", "1.00")
    assert (code, err) == (2, (
        "error: pay n1 rake bank: a payment names a player on one side at least (the house "
        "and the bank settle nothing between them); nothing written\n"))


def test_the_bank_pays_a_player_and_a_retraction_brings_the_line_back(user) -> None:  # noqa: ANN001
    _owing(user, 80)
    line, session = _listed(user)
    assert line == ("n1  2026-11-27  2 hand(s)  2 buy-in(s)  closed, not settled (with the "
                    "bank: the bank pays Ann 5.00 USD)")
    assert session["bank"] == [{"player": "Ann", "amount": -500}]
    assert user("settle", "--session", "n1") == (0, OWED.format("5.00 USD") + (
        "no transfer between the players; 1 with the bank\n"), NOTE.format("+20"))
    code, _, err = user("pay", "n1", "Ann", "bank", "1.00")  # the bank owes her: she owes 0
    assert (code, err.split(" (")[0]) == (
        2, "error: pay n1 Ann bank: 1.00 USD is more than Ann still owes the bank in n1")
    assert user("pay", "n1", "bank", "Ann", "5.00") == (
        0, "n1: the bank paid Ann 5.00 USD (entry 7)\n", "")
    assert user("settle", "--session", "n1") == (
        0, "settled: nobody owes anybody; 5.00 USD paid by the bank\n", NOTE.format("+20"))
    body = json.loads(user("settle", "--session", "n1", "--json")[1])
    assert ("bank" in body, body["bank_paid"]) == (False, [
        {"session": "n1", "player": "Ann", "player_name": "Ann", "amount": -500}])
    assert _listed(user)[0] == "n1  2026-11-27  2 hand(s)  2 buy-in(s)  closed, settled"
    history = json.loads(user("history", "--session", "n1", "--json")[1])["events"]
    assert history[-1]["event"] == {"payer": None, "payee": "Ann", "amount_minor": 500,
                                    "bank": True, "reason": None}
    assert user("entry", "retract", "n1", "7", "--reason", "paid twice", "--by", "Host") == (
        0, "n1: entry 7 (payment of the bank to Ann) retracted\n", "")
    assert user("settle", "--session", "n1") == (0, OWED.format("5.00 USD") + (
        "no transfer between the players; 1 with the bank\n"), NOTE.format("+20"))
    line, session = _listed(user)
    assert line == ("n1  2026-11-27  2 hand(s)  2 buy-in(s)  closed, not settled (with the "
                    "bank: the bank pays Ann 5.00 USD)")
    assert (session["settled"], session["bank"]) == (False, [{"player": "Ann", "amount": -500}])


def test_an_amended_bank_payment_is_bounded_by_its_line(user) -> None:  # noqa: ANN001
    _owing(user, 120)
    assert user("pay", "n1", "Ann", "bank", "4.00")[0] == 0
    code, _, err = user("entry", "amend", "n1", "5", "5.50", "--reason", "r", "--by", "Host")
    assert (code, err) == (2, (
        "error: entry amend n1 5 (payment of Ann to the bank): 5.50 USD is more than Ann "
        "still owes the bank in n1 (5.00 USD: for the chips in no player's net Ann pays the "
        "bank 5.00 USD; Ann paid the bank 0.00 USD and was paid 0.00 USD by it); nothing "
        "written (`handledger settle --session n1` says who pays whom); --more-than-owed "
        "records it anyway\n"))
    assert user("entry", "amend", "n1", "5", "5.00", "--reason", "counted again",
                "--by", "Host") == (
        0, "n1: entry 5 (payment of Ann to the bank) amended: 4.00 USD → 5.00 USD\n", "")
    assert user("settle", "--session", "n1")[1] == (
        "settled: nobody owes anybody; 5.00 USD paid to the bank\n")


def test_a_player_named_bank_leaves_the_word_to_him(user) -> None:  # noqa: ANN001
    assert user("session", "open", "n2", "--chip-value", "0.25", "--currency", "USD")[0] == 0
    for player in ("Ann", "Bank"):
        assert user("buyin", "n2", player, "100")[0] == 0
    code, _, err = user("pay", "n2", "Ann", "bank", "1.00")
    assert (code, err) == (2, "error: pay n2 Ann bank: session n2 has a player named Bank, so "
                              "'bank' cannot name the bank here; nothing written\n")


def test_the_report_names_the_bank_in_the_payments(user, tmp_path) -> None:  # noqa: ANN001
    _owing(user, 80)
    assert user("pay", "n1", "bank", "Ann", "5.00")[0] == 0
    assert user("report", str(tmp_path / "site"))[0] == 0
    page = next((tmp_path / "site").rglob("n1.html")).read_text(encoding="utf-8")
    payments = page[page.index('id="payments"'):page.index("</section>",
                                                          page.index('id="payments"'))]
    assert ('<tr><td>24</td><th scope="row"><span class="name">the bank</span></th><td '
            'class="text"><span class="name">Ann</span></td><td>5.00 USD</td>') in payments


def test_an_export_imports_with_its_payment_with_the_bank(user, tmp_path) -> None:  # noqa: ANN001
    from tests.console_run import handledger

    _owing(user, 80)
    assert user("pay", "n1", "bank", "Ann", "3.00")[0] == 0
    assert user("export", "--format", "jsonl", "-o", str(tmp_path / "n1.jsonl"))[0] == 0
    other = str(tmp_path / "other.duckdb")
    assert handledger(other, "import", str(tmp_path / "n1.jsonl"))[0] == 0
    said = (0, OWED.format("2.00 USD") + "no transfer between the players; 1 with the bank; "
            "3.00 USD paid by the bank\n", NOTE.format("+20"))
    assert handledger(other, "settle", "--session", "n1") == said
    assert user("settle", "--session", "n1") == said
