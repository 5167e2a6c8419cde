"""Every read in money over sessions of different money units names each session's unit as
``session list --json`` gives it (``currency``, ``decimals``) and what to do (README, "Chips of
different values do not add up"); ``settle``, which settles each session apart, settles each
in its own unit then, a block each (docs/LIVE.md "settle"). A PokerNow log of whole chips makes a
session of plain chips (no currency, 0 decimals), one in cents a session of chips of 0.01 of
no currency (2 decimals): both read "plain chips, no currency" before, though what differs is
the decimals. Naming each session's chip's worth in one currency (``session set``) settles
them together."""

from __future__ import annotations

import json

from tests.conftest import SHARED

CT1 = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
RIT = SHARED / "pokernow" / "pokernowpy_run-it-twice.csv"
PLAIN = "charlestudor_Input_Log_001"
CENTS = "pokernowpy_run-it-twice"


def test_settle_names_each_sessions_currency_and_decimals_and_what_to_do(user) -> None:  # noqa: ANN001
    """charlestudor's first log (TA +3, Anvjfbmj2 +1, Qapurjsa9 -4 chips: stacks 103, 101,
    96 from buy-ins of 100) and the run-it-twice excerpt (cents); ``session list --json``
    gives (decimals, currency) (0, null) and (2, null). Once the first is worth 0.01 USD a
    chip, the other is the one of no currency; once both are, settle pays each player his net
    in cents: Qapurjsa9 4 to TA 3 and Anvjfbmj2 1, and the excerpt's players what its hands
    left them (their nets sum to 0; sappxxu +8.55)."""
    assert user("import", str(CT1), str(RIT))[0] == 0
    code, out, _ = user("session", "list", "--json")
    assert code == 0 and [(s["session"], s["decimals"], s["currency"])
                          for s in json.loads(out)["sessions"]] == [(PLAIN, 0, None),
                                                                    (CENTS, 2, None)]
    units = (f"the sessions use different currencies or decimals ({PLAIN}: plain chips, no "
             f"currency; {CENTS}: no currency, 2 decimals)")
    worth = ("or give each session of no currency its chip's worth in one currency "
             "(`handledger session set S --chip-value V --currency C`)")
    # settle settles each session apart, so each in its own unit: a block each, as
    # `settle --session` gives it (the excerpt's nets: sappxxu +8.55, yfg +1.29, Ntunn -0.53,
    # OjtkunxseAbye -0.83, Mdeyxwb -2.63, ihgq0hrmf -5.85)
    excerpt = [f"session {CENTS}:", "Ntunn pays sappxxu 0.07", "Ntunn pays yfg 0.46",
               "ihgq0hrmf pays sappxxu 5.85", "Mdeyxwb pays sappxxu 2.63",
               "OjtkunxseAbye pays yfg 0.83", "5 transfer(s) settle 6 player(s)"]
    code, out, _ = user("settle")
    assert (code, out.splitlines()) == (0, [
        f"session {PLAIN}:", "Qapurjsa9 pays TA 3 chips", "Qapurjsa9 pays Anvjfbmj2 1 chip",
        "2 transfer(s) settle 3 player(s)", *excerpt])
    assert user("settle", "--session", CENTS)[1].splitlines() == excerpt[1:]
    assert user("balances", "--money")[2] == (
        f"error: {units}: read one session with --session, {worth}\n")
    assert user("standings", "--money")[2] == (
        f"error: {units}: show the standings in chips (without --money), or one session's "
        f"money with `handledger balances --session S --money`, {worth}\n")

    assert user("session", "set", PLAIN, "--chip-value", "0.01", "--currency", "USD")[0] == 0
    code, out, _ = user("settle")
    assert (code, out.splitlines()) == (0, [
        f"session {PLAIN}:", "Qapurjsa9 pays TA 0.03 USD", "Qapurjsa9 pays Anvjfbmj2 0.01 USD",
        "2 transfer(s) settle 3 player(s)", *excerpt])
    code, out, _ = user("settle", "--json")
    assert [(b["session"], b["decimals"], b["currency"], [t["amount"] for t in b["transfers"]])
            for b in json.loads(out)["sessions"]] == [
        (PLAIN, 2, "USD", [3, 1]), (CENTS, 2, None, [7, 46, 585, 263, 83])]
    assert json.loads(out)["hands_of_no_session_unsettled"] == 0

    assert user("session", "set", CENTS, "--chip-value", "0.01", "--currency", "USD")[0] == 0
    code, out, _ = user("settle", "--json")
    assert code == 0
    nets: dict[str, int] = {}
    for t in json.loads(out)["transfers"]:
        nets[t["from_name"]] = nets.get(t["from_name"], 0) - t["amount"]
        nets[t["to_name"]] = nets.get(t["to_name"], 0) + t["amount"]
    assert {p: nets.pop(p) for p in ("TA", "Anvjfbmj2", "Qapurjsa9")} == {
        "TA": 3, "Anvjfbmj2": 1, "Qapurjsa9": -4}
    assert len(nets) == 6 and sum(nets.values()) == 0
    # sappxxu: 7.06 at hand #30, 15.61 after #31 (he won #30's 15.61 pot), folded #48 unposted
    assert nets["sappxxu"] == 1561 - 706


def test_settle_of_plain_chips_says_chips(user) -> None:  # noqa: ANN001
    """charlestudor's first log makes a session of plain chips (no chip value set): settle
    says each transfer is chips (Qapurjsa9 -4: 3 to TA, 1 to Anvjfbmj2); once a chip is worth
    2 of no currency, the transfers are that money (6 and 2), no longer chips."""
    assert user("import", str(CT1))[0] == 0
    assert user("settle") == (0, "Qapurjsa9 pays TA 3 chips\nQapurjsa9 pays Anvjfbmj2 1 chip\n"
                                 "2 transfer(s) settle 3 player(s)\n", "")
    assert user("session", "set", PLAIN, "--chip-value", "2")[0] == 0
    assert user("settle") == (0, "Qapurjsa9 pays TA 6\nQapurjsa9 pays Anvjfbmj2 2\n"
                                 "2 transfer(s) settle 3 player(s)\n", "")


def test_settle_of_every_session_pairs_players_of_one_session_each_pay_records(user) -> None:  # noqa: ANN001
    """The four PokerNow logs hold 20 players with a nonzero net (beyond the exact limit of
    14): settle without --session settled them greedily across sessions, offering
    ``OjtkunxseAbye pays A8 0.83 USD`` (A8 never played the run-it-twice excerpt), which
    ``pay`` refuses. Each session is settled among its own players and each line names its
    session: Qapurjsa9 -4 cents to TA's id (A8) +3 and Anvjfbmj2 +1 in the first log; three
    players 50 cents each to A8 in the second; the excerpt's nets as its own settle gives
    them (Ntunn -53 to sappxxu 7 and yfg 46 …); seven 10.00 USD losers to Aab Ovwsi. Every
    line is a ``pay`` that records, and then settle says settled."""
    pokernow = SHARED / "pokernow"
    assert user("import", str(pokernow))[0] == 0
    sessions = [PLAIN, "charlestudor_Input_Log_002", CENTS, "valakuzhyk_07_21_2022_log1"]
    for name in sessions:
        assert user("session", "set", name, "--chip-value", "0.01", "--currency", "USD")[0] == 0
    loser = ["Hznmh#9009", "Phzd Juwvifsvh", "sjfid753", "Erhradnpmi3", "Efvoziamtgktl",
             "IpusyM", "gaxdqwmwksve"]
    assert user("settle")[:2] == (0, "\n".join([
        f"Qapurjsa9 pays A8 0.03 USD in session {PLAIN}",
        f"Qapurjsa9 pays Anvjfbmj2 0.01 USD in session {PLAIN}",
        "\"uhuhqb\"\"''' pays A8 0.50 USD in session charlestudor_Input_Log_002",
        "@ovvkpfngo@@@ pays A8 0.50 USD in session charlestudor_Input_Log_002",
        "ksv @ ycx pays A8 0.50 USD in session charlestudor_Input_Log_002",
        f"Ntunn pays sappxxu 0.07 USD in session {CENTS}",
        f"Ntunn pays yfg 0.46 USD in session {CENTS}",
        f"ihgq0hrmf pays sappxxu 5.85 USD in session {CENTS}",
        f"Mdeyxwb pays sappxxu 2.63 USD in session {CENTS}",
        f"OjtkunxseAbye pays yfg 0.83 USD in session {CENTS}",
        *[f"{p} pays Aab Ovwsi 10.00 USD in session valakuzhyk_07_21_2022_log1"
          for p in loser],
        "17 transfer(s) settle 20 player(s)", ""]))
    code, out, _ = user("settle", "--json")
    transfers = json.loads(out)["transfers"]
    assert code == 0 and [t["session"] for t in transfers] == [PLAIN] * 2 + [
        "charlestudor_Input_Log_002"] * 3 + [CENTS] * 5 + ["valakuzhyk_07_21_2022_log1"] * 7
    for t in transfers:
        amount = f"{t['amount'] // 100}.{t['amount'] % 100:02d}"
        code, _, err = user("pay", t["session"], t["from_name"], t["to_name"], amount)
        assert (code, err) == (0, "")
    assert user("settle")[:2] == (0, "settled: nobody owes anybody (81.38 USD paid already)\n")


def test_settle_of_one_session_among_several_names_no_session(user) -> None:  # noqa: ANN001
    """``settle --session`` names the session already: its lines stay ``A pays B`` (the
    excerpt alone, beside the first log)."""
    assert user("import", str(CT1), str(RIT))[0] == 0
    for name in (PLAIN, CENTS):
        assert user("session", "set", name, "--chip-value", "0.01", "--currency", "USD")[0] == 0
    assert user("settle", "--session", CENTS)[1].splitlines()[:2] == [
        "Ntunn pays sappxxu 0.07 USD", "Ntunn pays yfg 0.46 USD"]


def test_settle_of_sessions_beside_hands_of_no_session_in_another_unit(user) -> None:  # noqa: ANN001
    """Session fri of 0.25 USD chips: Ann (button, small blind) folds to Bob's big blind, Bob
    +1 chip (0.25 USD); wrong-push.phh imported without --session counts plain chips. The
    units differ, so settle settles fri in its money and says the hand of no session is not
    settled, where it refused the whole ledger before."""
    from tests.conftest import DATA

    for args in (("session", "open", "fri", "--chip-value", "0.25", "--currency", "USD"),
                 ("buyin", "fri", "Ann", "100"), ("buyin", "fri", "Bob", "100"),
                 ("hand", "start", "--session", "fri", "--hand", "f1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"),
                 ("act", "f1", "d dh Ann ????"), ("act", "f1", "d dh Bob ????"),
                 ("act", "f1", "Ann f"), ("act", "f1", "end"),
                 ("import", str(DATA / "dispute" / "wrong-push.phh"))):
        assert user(*args)[0] == 0, args
    assert user("settle") == (0, (
        "session fri:\nAnn pays Bob 0.25 USD\n1 transfer(s) settle 2 player(s)\n"
        "hands of no session (1 hand(s)): not settled: no `pay` records them, and no session's "
        "books hold them (`handledger balances` without --money gives their table)\n"), "")
    code, out, _ = user("settle", "--json")
    assert (code, json.loads(out)) == (0, {"sessions": [{
        "session": "fri", "transfers": [{"session": "fri", "from": "Ann", "from_name": "Ann",
                                         "to": "Bob", "to_name": "Bob", "amount": 25}],
        "decimals": 2, "currency": "USD", "paid_already": 0, "payments_recorded": 0}],
        "hands_of_no_session_unsettled": 1})


def test_settle_of_hands_of_no_session_alone_in_two_currencies(user) -> None:  # noqa: ANN001
    """Two PokerStars hands imported without --session, one in EUR, one in USD: no session
    to settle, so settle says both hands of no session are not settled (exit 0, README
    "settle"), where it gave balances' refusal naming --money, which settle has not."""
    text = SHARED / "text"
    assert user("import",
                str(text / "Stars-cash-NLHE-6max-EUR-1.00-2.00-201212.RunItTwice.txt"),
                str(text / "Stars-cash-NLHE-FR-USD-0.05-0.10-201004.allinWithAmtReturned.txt"),
                )[0] == 0
    assert user("settle") == (0, (
        "hands of no session (2 hand(s)): not settled: no `pay` records them, and no "
        "session's books hold them (`handledger balances` without --money gives their "
        "table)\n"), "")
    code, out, err = user("settle", "--json")
    assert (code, json.loads(out), err) == (
        0, {"sessions": [], "hands_of_no_session_unsettled": 2}, "")
