"""``session open`` of a session that already holds hands (a file named it before it was
opened) is held to the hands' unit, as ``session set`` is (README "sessions and the books": a
session has one unit): a hand in money takes only its currency at its chip's worth, or the
opening would revalue it silently; and ``settle``'s advice to open such a session names that
worth. Hand s03-017 of the series: Carol wins 11 chips of 0.25 USD (2.75 USD) in its export,
1100 cents less 825 put in (2.75 USD) in its cents copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA

CAROL = "Carol                  2.75         0.00         0.00      1        1"


@pytest.fixture
def s03_017(user, tmp_path: Path) -> str:  # noqa: ANN001
    """Hand s03-017 as PHH in money (0.25 USD chips, ``_chip``), without id or session."""
    assert user("import", str(DATA / "series" / "s03.jsonl"))[0] == 0
    out = tmp_path / "s.phh"
    assert user("export", "--format", "phh", "s03-017", "-o", str(out))[0] == 0
    return "".join(line for line in out.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not line.startswith(("_hand_id", "_session")))


def _ledger(user, tmp_path: Path, text: str, session: str) -> str:  # noqa: ANN001
    db = str(tmp_path / f"{session}.duckdb")
    (tmp_path / f"{session}.phh").write_text(f"{text}_session = '{session}'\n",
                                             encoding="utf-8")
    assert user("--db", db, "import", str(tmp_path / f"{session}.phh"))[0] == 0
    return db


def _carol(user, db: str, session: str) -> str:  # noqa: ANN001
    code, out, _ = user("--db", db, "balances", "--session", session, "--money")
    assert code == 0
    return next(line[:len(CAROL)] for line in out.splitlines() if line.startswith("Carol"))


def test_a_session_of_cents_opens_only_at_a_cent(user, s03_017: str, tmp_path: Path  # noqa: ANN001
                                                 ) -> None:
    cents = s03_017.replace("_chip = { minor_per_chip = 25 }\n", "")  # amounts as cents
    db = _ledger(user, tmp_path, cents, "x")
    hand = user("--db", db, "sql", "SELECT DISTINCT hand_id FROM events WHERE session = 'x'",
                "--csv")[1].splitlines()[1]
    assert _carol(user, db, "x") == CAROL
    said = (f"error: session x holds hand {hand}, whose amounts came in USD at 1 chip = 0.01 "
            "USD: --chip-value {given}would make {made}; nothing written (open it with "
            "--chip-value 0.01 --currency USD, or import the hands into a new session at the "
            "value wanted)\n")
    # each cent a 0.25 USD chip would make Carol's 2.75 USD 68.75 USD
    assert user("--db", db, "session", "open", "x", "--chip-value", "0.25", "--currency",
                "USD") == (2, "", said.format(given="0.25 --currency USD ",
                                              made="each of its chips worth 0.25 USD"))
    # settle's old advice, `session open x`, would make them plain chips
    assert user("--db", db, "session", "open", "x") == (
        2, "", said.format(given="1 ", made="its chips plain chips of no currency"))
    assert user("--db", db, "session", "open", "x", "--chip-value", "0.01") == (
        2, "", said.format(given="0.01 ", made="its chips plain chips of no currency"))
    assert _carol(user, db, "x") == CAROL  # nothing written
    assert user("--db", db, "session", "open", "x", "--chip-value", "0.01", "--currency",
                "USD")[:2] == (0, f"session x opened {_today()}: 1 chip = 0.01 USD\n")
    assert _carol(user, db, "x").startswith("Carol                  2.75")


def test_a_session_of_euros_is_not_opened_in_dollars(user, s03_017: str, tmp_path: Path  # noqa: ANN001
                                                     ) -> None:
    euros = s03_017.replace("_chip = { minor_per_chip = 25 }\n", "").replace(
        "currency = 'USD'", "currency = 'EUR'")
    db = _ledger(user, tmp_path, euros, "y")
    code, _, err = user("--db", db, "session", "open", "y", "--chip-value", "0.01",
                        "--currency", "USD")
    assert code == 2 and err.count("\n") == 1
    assert "whose amounts came in EUR at 1 chip = 0.01 EUR: --chip-value 0.01 --currency USD " \
           "would make each of its chips worth 0.01 USD; nothing written" in err
    assert user("--db", db, "session", "open", "y", "--chip-value", "0.01", "--currency",
                "EUR")[0] == 0


def test_a_session_of_quarter_chips_opens_at_a_quarter(user, s03_017: str,  # noqa: ANN001
                                                       tmp_path: Path) -> None:
    db = _ledger(user, tmp_path, s03_017, "q")
    assert _carol(user, db, "q") == CAROL
    code, _, err = user("--db", db, "session", "open", "q", "--chip-value", "0.01",
                        "--currency", "USD")
    assert code == 2 and err.startswith("error: session q holds hand phh-")  # id of content
    assert err.split(", ", 1)[1] == ("whose amounts came in USD at 1 chip = 0.25 USD: "
                                     "--chip-value 0.01 --currency USD would "
                                     "make each of its chips worth 0.01 USD; nothing written "
                                     "(open it with --chip-value 0.25 --currency USD, or "
                                     "import the hands into a new session at the value "
                                     "wanted)\n")
    assert user("--db", db, "session", "open", "q", "--chip-value", "0.25", "--currency",
                "USD")[0] == 0
    assert _carol(user, db, "q") == CAROL


def test_settle_advises_opening_at_the_hands_chip(user, s03_017: str, tmp_path: Path  # noqa: ANN001
                                                  ) -> None:
    # a rake of one 0.25 USD chip taken from Heidi's 8.50: the house is owed 0.25 USD
    raked = s03_017.replace("winnings = [8.50,", "winnings = [8.25,") + "rake = 0.25\n"
    db = _ledger(user, tmp_path, raked, "w")
    code, out, _ = user("--db", db, "settle")
    advice = "`handledger session open w --chip-value 0.25 --currency USD`"
    assert code == 0 and out.splitlines()[-1] == (
        "the house: whoever keeps the rake the table took, 0.25 USD (1 chip in session w); "
        f"`handledger pay w PLAYER rake AMOUNT` records a payment to it once the session is "
        f"opened ({advice}: it was never opened, its hands read from a file)")
    before = user("--db", db, "settle")[1].splitlines()[:-2]
    assert user("--db", db, *advice.strip("`").split()[1:])[0] == 0  # taken, worth kept
    assert user("--db", db, "settle")[1].splitlines()[:-2] == before
    assert "Carol                  2.75" in user("--db", db, "balances", "--money")[1]


def _today() -> str:
    from datetime import date

    return date.today().isoformat()
