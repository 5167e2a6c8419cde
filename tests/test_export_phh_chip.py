"""``export --format phh`` of hands counted in a session's chips of money writes them as money
with what a chip is worth, our ``_chip = { minor_per_chip = N }`` (FORMATS.md §1, a user
extension), and the PHH reader counts them in those chips again: a fresh ledger gets the same
hands, results and odd chips (a 0.25 USD chip's odd chip, never a cent); a session of another
chip value converts them exactly or refuses them, as any hand in money."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import DATA

S03 = DATA / "series" / "s03.jsonl"


@pytest.fixture
def exported(user, tmp_path: Path) -> Path:  # noqa: ANN001
    assert user("import", str(S03))[0] == 0
    out = tmp_path / "s03.phhs"
    assert user("export", "--format", "phh", "-o", str(out)) == (0, f"wrote {out}\n", (
        "note: 1 session book(s) left out: PHH cannot carry a session's opening, buy-ins, "
        "cash-outs, payments or player names (an alias, an alias ended), so a ledger "
        "importing the file holds their "
        "hands alone (--format jsonl can): s03\n"))
    return out


def _hand(user, db: str, hand: str, status: int = 0) -> dict:  # noqa: ANN001
    code, out, _ = user("--db", db, "replay", "--hand", hand, "--json")
    assert code == status
    return json.loads(out)


def test_a_series_exported_as_phh_keeps_its_chip_in_a_fresh_ledger(user, db: str,  # noqa: ANN001
                                                                   exported: Path,
                                                                   tmp_path: Path) -> None:
    text = exported.read_text(encoding="utf-8")
    table = text[text.index("_hand_id = 's03-016'"):text.index("_hand_id = 's03-017'")]
    # money as PHH writes it (34 chips of 0.25 USD: 8.50), and what a chip is worth
    assert "winnings = [8.50, 1.75, 0.00, 0.00, 7.00]\ncurrency = 'USD'\n" \
           "_chip = { minor_per_chip = 25 }\n" in table
    assert text.count("_chip = { minor_per_chip = 25 }") == 30
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(exported)) == (
        0, "imported 30 hand(s) (1192 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    code, out, _ = user("--db", fresh, "audit")
    assert (code, out) == (0, "audit clean: 30 hand(s) in 1 session(s); every chip adds up"
                              " in the books as stored (the hash chain not checked: "
                              "`handledger verify`)\n")
    # the split's odd chip is a 0.25 USD chip, as in the ledger it came from (not 862 / 688)
    here, there = _hand(user, fresh, "s03-017"), _hand(user, db, "s03-017")
    assert here["recorded"] == there["recorded"] == {"Heidi": 34, "Carol": 28, "Alice": 7}
    assert here["net"] == there["net"] == {"Heidi": 10, "Alice": -17, "Grace": -2, "Bob": -2,
                                           "Carol": 11}
    assert here["discrepancies"] == [] and here["pots"] == there["pots"]
    code, out, _ = user("--db", fresh, "sql",
                        "SELECT DISTINCT payload->>'$.unit' FROM events WHERE seq = 1", "--csv")
    assert out.splitlines()[1:] == ['"{""currency"":""USD"",""decimals"":0,""minor_per_chip"":25}"']
    # and in the ledger it came from it is the same hand
    assert user("import", str(exported)) == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 30 already in the ledger; "
           "0 rejected\n", "")


def test_into_a_session_of_another_chip_value_converted_exactly_or_refused(
        user, exported: Path, tmp_path: Path) -> None:  # noqa: ANN001
    nickel = str(tmp_path / "nickel.duckdb")
    assert user("--db", nickel, "session", "open", "s03", "--chip-value", "0.05",
                "--currency", "USD")[0] == 0
    assert user("--db", nickel, "import", str(exported))[0] == 0
    # five nickels a chip of 0.25 USD, and the split's odd chip is still that chip: five
    # nickels, as the table paid it (RULES.md §2.1), not five odd nickels spread
    hand = _hand(user, nickel, "s03-017")
    assert hand["recorded"] == {"Heidi": 170, "Carol": 140, "Alice": 35}
    assert hand["net"] == {"Heidi": 50, "Alice": -85, "Grace": -10, "Bob": -10, "Carol": 55}
    assert hand["discrepancies"] == []
    code, out, _ = user("--db", nickel, "audit")  # PHH holds no buy-ins: the stacks only
    assert (code, out.splitlines()[-1]) == (1, "audit: 8 discrepancies (stack_continuity 8); "
                                               "30 hand(s) in 1 session(s) checked")
    dime = str(tmp_path / "dime.duckdb")
    assert user("--db", dime, "session", "open", "s03", "--chip-value", "0.10",
                "--currency", "USD")[0] == 0
    code, out, err = user("--db", dime, "import", str(exported))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 30 rejected\n")
    # a chip of 0.25 USD is no whole number of dimes: refused, not re-ruled in chips of 0.50
    assert err == (f"error: {exported}: its smallest chip in play is 0.25 USD, larger than "
                   "session s03's chip of 0.10 USD and not a whole number of them: the "
                   "session's chips cannot divide its pots as the table did (RULES.md §2.1); "
                   "import it into a session whose chip divides 0.25 USD, or with no session; "
                   "nothing of the hand is imported (all 30 hands of the file, from s03-001 to "
                   "s03-030: nothing of them was imported)\n")


@pytest.mark.parametrize(("chip", "said"), [
    ("{ minor_per_chip = 30 }", "_chip says a chip is 30 minor units of USD, but 99.50 (9950 "
                                "minor units) is not a whole number of such chips: nothing of "
                                "the hand is imported (never rounded)"),
    ("{ minor_per_chip = 0 }", "_chip must be { minor_per_chip = N }, N a whole number of "
                               "minor units from 1 to 9007199254740991, not {'minor_per_chip': "
                               "0}"),
    ("25", "_chip must be { minor_per_chip = N }"),
])
def test_a_chip_the_amounts_are_not_whole_of_is_refused(user, exported: Path,  # noqa: ANN001
                                                        tmp_path: Path, chip: str, said: str,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.chdir(tmp_path)
    text = exported.read_text(encoding="utf-8")
    one = text[text.index("[17]\n") + 5:text.index("[18]\n")]
    bad = Path("bad.phh")
    bad.write_text(one.replace("_chip = { minor_per_chip = 25 }", f"_chip = {chip}"),
                   encoding="utf-8")
    code, out, err = user("--db", str(tmp_path / "new.duckdb"), "import", str(bad))
    assert code == 2 and "1 rejected" in out
    assert err.startswith("error: bad.phh:") and "hand s03-017: " in err and said in err
    assert not (tmp_path / "new.duckdb").exists()


def test_a_chip_needs_a_currency(user, exported: Path, tmp_path: Path,  # noqa: ANN001
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = exported.read_text(encoding="utf-8")
    one = text[text.index("[17]\n") + 5:text.index("[18]\n")].replace("currency = 'USD'\n", "")
    bad = Path("bad.phh")
    bad.write_text(one, encoding="utf-8")
    code, _, err = user("--db", str(tmp_path / "new.duckdb"), "import", str(bad))
    line = one.splitlines().index("_chip = { minor_per_chip = 25 }") + 1
    assert (code, err) == (2, f"error: bad.phh:{line}, hand s03-017: _chip says what a chip is "
                              "worth in minor units of the hand's currency, but the hand names "
                              "no currency\n")


#: Hand s03-017 in money: chips of 0.25 USD won and lost (README "Chips of different
#: values"): Carol +11 chips, Heidi +10, Alice -17, Bob and Grace -2 each.
S03_017_MONEY = ("player                  net       buy-in     cash-out  hands sessions   (USD)\n"
                 "Carol                  2.75         0.00         0.00      1        {n}\n"
                 "Heidi                  2.50         0.00         0.00      1        {n}\n"
                 "Bob                   -0.50         0.00         0.00      1        {n}\n"
                 "Grace                 -0.50         0.00         0.00      1        {n}\n"
                 "Alice                 -4.25         0.00         0.00      1        {n}\n")


def test_a_chip_of_a_hand_of_no_opened_session_is_worth_its_money(
        user, exported: Path, tmp_path: Path) -> None:  # noqa: ANN001
    text = exported.read_text(encoding="utf-8")
    one = text[text.index("[17]\n") + 5:text.index("[18]\n")]
    alone = tmp_path / "alone.phh"  # no _session: a hand of no session
    alone.write_text("".join(line for line in one.splitlines(keepends=True)
                             if not line.startswith("_session")), encoding="utf-8")
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(alone))[0] == 0
    # 11 chips of 0.25 USD are 2.75 USD, never 275 USD (the chip's 25 minor units at 0 places)
    assert user("--db", fresh, "balances", "--money") == (0, S03_017_MONEY.format(n=0), "")
    assert user("--db", fresh, "settle")[1] == (
        "Alice pays Carol 2.75 USD\nAlice pays Heidi 1.50 USD\nBob pays Heidi 0.50 USD\n"
        "Grace pays Heidi 0.50 USD\n4 transfer(s) settle 5 player(s)\n")
    # the series' session never opened in the fresh ledger: its book is in 0.25 USD chips
    series = str(tmp_path / "series.duckdb")
    assert user("--db", series, "import", str(exported))[0] == 0
    code, out, _ = user("--db", series, "balances", "--money")
    assert (code, out.splitlines()[1:3]) == (0, [
        "Heidi                 42.00         0.00         0.00     29        1",  # 168 chips
        "Carol                 -4.00         0.00         0.00     27        1"])  # -16 chips
    code, out, _ = user("--db", series, "sql", "SELECT chip_value_minor, currency, decimals "
                        "FROM session_book", "--csv")
    assert out == "chip_value_minor,currency,decimals\n25,USD,2\n"


def test_a_json_lines_hand_of_no_opened_session_is_worth_its_money(
        user, db: str, tmp_path: Path) -> None:  # noqa: ANN001
    assert user("import", str(S03))[0] == 0
    one = tmp_path / "one.jsonl"
    assert user("export", "--format", "jsonl", "s03-017", "-o", str(one))[0] == 0
    assert "session_opened" not in one.read_text(encoding="utf-8")
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(one))[0] == 0
    assert user("--db", fresh, "balances", "--money") == (0, S03_017_MONEY.format(n=1), "")


#: README's night at the table: Ann's 150 chips won from Bob (300 paid), Cy folds.
NIGHT = ("d dh Ann AsKs", "d dh Bob QhQd", "d dh Cy 7c2d", "Cy f", "Ann cbr 8", "Bob cbr 150",
         "Ann cc", "d db 2c7h9s", "d db Kd", "d db 3c", "Ann sm AsKs", "Bob sm QhQd",
         "pay Ann 300", "end")


def _played(user, chip: str) -> None:  # noqa: ANN001
    assert user("session", "open", "q", "--chip-value", chip, "--currency", "USD")[0] == 0
    for player, chips in (("Ann", "200"), ("Bob", "150"), ("Cy", "300")):
        assert user("buyin", "q", player, chips)[0] == 0
    assert user("hand", "start", "--session", "q", "--hand", "f1", "--game", "NT", "--stakes",
                "1/2", "--seats", "Ann:200,Bob:150,Cy:300", "--button", "Cy")[0] == 0
    for action in NIGHT:
        assert user("act", "f1", action)[0] == 0


def test_a_hand_played_live_is_exported_in_its_sessions_money(user, tmp_path: Path  # noqa: ANN001
                                                              ) -> None:
    _played(user, "0.25")
    out = tmp_path / "f1.phh"
    assert user("export", "--format", "phh", "f1", "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    # 300 chips of 0.25 USD are 75.00 USD, the stacks 200/150/300 chips 50/37.50/75 USD
    assert "starting_stacks = [50.00, 37.50, 75.00]\n" in text
    assert "winnings = [75.00, 0.00, 0.00]\ncurrency = 'USD'\n" \
           "_chip = { minor_per_chip = 25 }\n" in text
    assert "'p2 cbr 37.50'," in text
    # the export is the hand the ledger holds
    assert user("import", str(out))[1] == (
        "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n")
    # into a session of 0.05 USD chips: Ann's 37.50 USD stays 37.50 USD (750 chips), not 7.50
    nickel = str(tmp_path / "nickel.duckdb")
    assert user("--db", nickel, "session", "open", "z", "--chip-value", "0.05", "--currency",
                "USD")[0] == 0
    assert user("--db", nickel, "import", "--session", "z", str(out))[0] == 0
    code, shown, _ = user("--db", nickel, "balances", "--session", "z", "--money")
    assert (code, shown.splitlines()[1:4:2]) == (0, [
        "Ann                   37.50         0.00         0.00      1        1",
        "Bob                  -37.50         0.00         0.00      1        1"])
    assert user("--db", nickel, "replay", "--hand", "f1", "--json")[1].count('"Ann": 750') == 1


def test_a_hand_played_live_in_cents_is_exported_as_cents(user, tmp_path: Path  # noqa: ANN001
                                                          ) -> None:
    _played(user, "0.01")
    out = tmp_path / "f1.phh"
    assert user("export", "--format", "phh", "f1", "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert "starting_stacks = [2.00, 1.50, 3.00]\n" in text  # a chip a cent
    assert "winnings = [3.00, 0.00, 0.00]\ncurrency = 'USD'\n" in text
    assert "_chip" not in text.replace("odd_chip", "")
    assert "1 already in the ledger" in user("import", str(out))[1]
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(out))[0] == 0
    assert user("--db", fresh, "balances", "--money")[1].splitlines()[1] == (
        "Ann                    1.50         0.00         0.00      1        1")


def test_pokernow_hands_of_a_session_of_money_are_exported_in_it(user, tmp_path: Path  # noqa: ANN001
                                                                  ) -> None:
    from tests.conftest import SHARED

    assert user("session", "open", "pq", "--chip-value", "0.25", "--currency", "USD")[0] == 0
    log = SHARED / "pokernow" / "charlestudor_Input_Log_001.csv"
    assert user("import", "--session", "pq", str(log))[0] == 0
    out = tmp_path / "pn.phhs"
    assert user("export", "--format", "phh", "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("currency = 'USD'\n") == text.count("_chip = { minor_per_chip = 25 }") == 4
    assert "4 already in the ledger" in user("import", str(out))[1]
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(out))[0] == 0
    # TA (gE4aE_Yhc3) won 3 chips of 0.25 USD in session pq: 0.75 USD in both ledgers
    assert user("balances", "--money", "--session", "pq")[1].splitlines()[1].startswith(
        "TA (gE4aE_Yhc3)                0.75")
    assert user("--db", fresh, "balances", "--money")[1].splitlines()[1].startswith(
        "gE4aE_Yhc3             0.75")
