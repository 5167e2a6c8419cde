"""``settle`` (and every read in money) over sessions of different money units names each
session's unit as ``session list --json`` gives it (``currency``, ``decimals``) and what to do
(README, "Chips of different values do not add up"). A PokerNow log of whole chips makes a
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
    assert user("settle") == (2, "", f"error: {units}: read one session with --session, "
                                     f"{worth}\n")
    assert user("balances", "--money")[2] == (
        f"error: {units}: read one session with --session, {worth}\n")
    assert user("standings", "--money")[2] == (
        f"error: {units}: show the standings in chips (without --money), or one session's "
        f"money with `handledger balances --session S --money`, {worth}\n")

    assert user("session", "set", PLAIN, "--chip-value", "0.01", "--currency", "USD")[0] == 0
    assert user("settle") == (
        2, "", f"error: the sessions use different currencies or decimals ({PLAIN}: USD, 2 "
        f"decimals; {CENTS}: no currency, 2 decimals): read one session with --session, or "
        "give each session of no currency its chip's worth in USD (`handledger session set S "
        "--chip-value V --currency USD`)\n")

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
