"""A hand converted into a session's chips stores a unit that says what its chips are worth
(docs/BOOKS.md, "Chips of different values"; replay/ingest/units.py): a chip of one minor unit with
its currency's ISO 4217 decimals (a cent: USD, 2 decimals; a fils: KWD, 3), a larger chip as
``minor_per_chip`` (0.05 USD: 5; 100 JPY: 100), its file's rake as money of that unit. So a
hand exported alone (JSON lines or PHH) and imported into a fresh ledger, which has no
session to say what a chip is worth, counts the same money as the ledger it came from.

A ledger whose hands were converted before (a cent's chips stored as whole dollars: USD,
``decimals`` 0) keeps them as stored: its exports write them in the session's chip, and the
file imported again, or those exports, are already in it. A signature that binds such a
hand's rows binds its unit too: its JSON-lines export writes it as stored and says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.model import events as ev

#: A hand in whole dollars (no decimals written): Ann raises to 6, Bob calls, Ann's aces win
#: the pot of 12, the table keeps a rake of 1 and pays her 11 (nets +5 and -6 dollars).
DOLLARS = {"currency": "USD", "sb": "1", "bb": "2", "stacks": "100, 50, 200", "to": "6",
           "won": "11", "rake": "1"}
#: The same hand in Kuwaiti dinars written with 2 decimals (a chip of 10 fils).
DINARS = {"currency": "KWD", "sb": "0.10", "bb": "0.20", "stacks": "10.00, 5.00, 20.00",
          "to": "0.60", "won": "1.10", "rake": "0.10"}
#: The same hand in yen.
YEN = {"currency": "JPY", "sb": "100", "bb": "200", "stacks": "10000, 5000, 20000",
       "to": "600", "won": "1100", "rake": "100"}


def phh(money: dict[str, str], hand: str = "r1", extra: str = "") -> str:
    return (
        "variant = 'NT'\nantes = [0, 0, 0]\n"
        f"blinds_or_straddles = [{money['sb']}, {money['bb']}, 0]\nmin_bet = {money['bb']}\n"
        f"starting_stacks = [{money['stacks']}]\nplayers = ['Ann', 'Bob', 'Cy']\n"
        f"currency = '{money['currency']}'\n_hand_id = '{hand}'\n{extra}"
        "actions = ['d dh p1 AsKs', 'd dh p2 QhQd', 'd dh p3 7c2d', 'p3 f', "
        f"'p1 cbr {money['to']}', 'p2 cc', 'd db 2s3s9d', 'p1 cc', 'p2 cc', 'd db Tc', "
        "'p1 cc', 'p2 cc', 'd db Ah', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm QhQd']\n"
        f"winnings = [{money['won']}, 0, 0]\nrake = {money['rake']}\n")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _money(user, db: str) -> tuple[dict[str, int], int, str | None]:  # noqa: ANN001
    """``({player: net in minor units}, decimals, currency)`` of ``balances --money``."""
    code, out, err = user("--db", db, "balances", "--money", "--json")
    assert code == 0, err
    books = json.loads(out)
    return ({p["player"]: p["net"] for p in books["players"]}, books["decimals"],
            books["currency"])


def _started(user, db: str) -> tuple[dict, object]:  # noqa: ANN001
    """The stored ``unit`` of hand r1 and its file's ``rake`` as stored."""
    code, out, _ = user("--db", db, "sql", "SELECT payload->'$.unit', payload->'$.source.rake'"
                        " FROM events WHERE hand_id = 'r1' AND seq = 1", "--json")
    assert code == 0
    row = json.loads(out)[0]
    unit, rake = row.values()  # JSON columns, nested
    return unit, rake


def _fresh(user, tmp_path: Path, name: str, path: Path) -> str:  # noqa: ANN001
    fresh = str(tmp_path / f"{name}.duckdb")
    code, out, err = user("--db", fresh, "import", str(path))
    assert (code, err) == (0, ""), out
    return fresh


KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"


@pytest.mark.parametrize(("money", "chip", "unit", "rake", "nets"), [
    # a cent: whole dollars are 100 chips each; the rake of 1 dollar is 100 chips, "1.00"
    (DOLLARS, "0.01", {"currency": "USD", "decimals": 2, "minor_per_chip": 1}, "1.00",
     ({"Ann": 500, "Cy": 0, "Bob": -600}, 2, "USD")),
    # a nickel: 20 chips a dollar, the rake 20 chips
    (DOLLARS, "0.05", {"currency": "USD", "decimals": 0, "minor_per_chip": 5}, 20,
     ({"Ann": 500, "Cy": 0, "Bob": -600}, 2, "USD")),
    # a fils (KWD has 3 decimals): the file's 0.10 is 100 chips, its rake "0.100"
    (DINARS, "0.001", {"currency": "KWD", "decimals": 3, "minor_per_chip": 1}, "0.100",
     ({"Ann": 500, "Cy": 0, "Bob": -600}, 3, "KWD")),
    # 100 yen (JPY has no decimals): 600 yen are 6 chips, the rake 1 chip
    (YEN, "100", {"currency": "JPY", "decimals": 0, "minor_per_chip": 100}, 1,
     ({"Ann": 500, "Cy": 0, "Bob": -600}, 0, "JPY")),
])
def test_a_converted_hand_exported_alone_counts_the_same_money_in_a_fresh_ledger(
        user, db: str, tmp_path: Path, money: dict[str, str], chip: str, unit: dict,  # noqa: ANN001
        rake: object, nets: tuple) -> None:
    assert user("session", "open", "s", "--chip-value", chip, "--currency",
                money["currency"])[0] == 0
    path = _write(tmp_path / "r1.phh", phh(money))
    assert user("import", "--session", "s", str(path))[0] == 0
    assert _started(user, db) == (unit, rake)
    assert _money(user, db) == nets
    assert user("import", "--session", "s", str(path))[1] == KNOWN
    for fmt in ("jsonl", "phh"):
        out = tmp_path / f"r1.{fmt}"
        assert user("export", "--format", fmt, "r1", "-o", str(out)) == (0, f"wrote {out}\n", "")
        fresh = _fresh(user, tmp_path, fmt, out)
        assert _money(user, fresh) == nets, fmt  # no session there: the hand's unit says it
        assert user("import", str(out))[1] == KNOWN, fmt


def test_a_hand_of_plain_chips_stays_plain_chips(user, db: str, tmp_path: Path  # noqa: ANN001
                                                 ) -> None:
    assert user("session", "open", "p")[0] == 0
    path = _write(tmp_path / "r1.phh", phh(DOLLARS).replace("currency = 'USD'\n", ""))
    assert user("import", "--session", "p", str(path))[0] == 0
    assert _started(user, db) == ({"currency": None, "decimals": 0, "minor_per_chip": 1}, 1)
    out = tmp_path / "r1.jsonl"
    assert user("export", "--format", "jsonl", "r1", "-o", str(out))[0] == 0
    fresh = _fresh(user, tmp_path, "plain", out)
    # plain chips in both ledgers: the chips as they are, and no money to show
    for ledger in (fresh, db):
        code, text, _ = user("--db", ledger, "balances", "--json")
        assert code == 0
        assert {p["player"]: p["net"] for p in json.loads(text)["players"]} == {
            "Ann": 5, "Cy": 0, "Bob": -6}
        code, text, err = user("--db", ledger, "balances", "--money", "--json")
        assert (code, text, err.startswith("error: session p counts plain chips, with no "
                                           "money value (no currency): ")) == (2, "", True)


@pytest.fixture
def converted_before(user, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
                     ) -> Path:
    """The ledger ``db`` with hand r1 in whole dollars imported into session s of 0.01 USD
    chips as :func:`replay.ingest.units.to_session` converted it before: its unit
    ``minor_per_chip`` 1 and ``decimals`` 0 (whole dollars) and its file's rake in whole
    chips (100). Returns the file imported."""
    from replay.ingest import units

    assert user("session", "open", "s", "--chip-value", "0.01", "--currency", "USD")[0] == 0
    path = _write(tmp_path / "r1.phh", phh(DOLLARS))
    with monkeypatch.context() as before:
        before.setattr(units, "chip_unit", lambda chip, currency: ev.Unit(
            currency=currency, minor_per_chip=chip))
        before.setattr(units, "_rake_in_money", lambda events: events)
        assert user("import", "--session", "s", str(path))[0] == 0
    assert _started(user, db) == ({"currency": "USD", "decimals": 0, "minor_per_chip": 1}, 100)
    return path


CENTS = ({"Ann": 500, "Cy": 0, "Bob": -600}, 2, "USD")


def test_a_hand_converted_before_is_already_in_its_ledger_and_exported_in_cents(
        user, db: str, tmp_path: Path, converted_before: Path) -> None:  # noqa: ANN001
    assert _money(user, db) == CENTS  # the session says a chip is a cent
    assert user("import", "--session", "s", str(converted_before))[1] == KNOWN
    # the same hand from another file (another source key): compared, and the same hand
    other = _write(tmp_path / "other.phh", phh(DOLLARS, extra="venue = 'the den'\n"))
    assert user("import", "--session", "s", str(other))[1] == KNOWN
    whole = tmp_path / "all.jsonl"
    for fmt, out, hands in (("jsonl", tmp_path / "r1.jsonl", ["r1"]),
                            ("phh", tmp_path / "r1.phh", ["r1"]), ("jsonl", whole, [])):
        assert user("export", "--format", fmt, *hands, "-o", str(out)) == (
            0, f"wrote {out}\n", "")
        fresh = _fresh(user, tmp_path, out.stem + out.suffix[1:], out)
        assert _money(user, fresh) == CENTS, out
        assert user("import", str(out))[1] == KNOWN, out
    text = (tmp_path / "r1.phh").read_text(encoding="utf-8")
    assert "winnings = [11.00, 0.00, 0.00]\ncurrency = 'USD'\nrake = 1.00\n" in text
    written = (tmp_path / "r1.jsonl").read_text(encoding="utf-8")
    line = written.splitlines()[0]
    assert '"unit":{"currency":"USD","decimals":2,"minor_per_chip":1}' in line
    assert '"rake":"1.00"' in line
    # an export written before, its unit as stored: the ledger's own hand, not dollars
    before = _write(tmp_path / "before.jsonl", written.replace(
        '"decimals":2,', '"decimals":0,', 1).replace('"rake":"1.00"', '"rake":100', 1))
    assert user("import", str(before))[1] == KNOWN
    # the ledger itself is as it was: its stored hand is not rewritten
    assert _started(user, db) == ({"currency": "USD", "decimals": 0, "minor_per_chip": 1}, 100)


def test_a_correction_made_elsewhere_goes_on_a_hand_converted_before(
        user, db: str, tmp_path: Path, converted_before: Path) -> None:  # noqa: ANN001
    out = tmp_path / "r1.jsonl"
    assert user("export", "--format", "jsonl", "r1", "-o", str(out))[0] == 0
    other = _fresh(user, tmp_path, "other", out)
    assert user("--db", other, "correct", "r1", "--replace", "6", "d dh Cy 7c2h",
                "--reason", "Cy's deuce was a heart", "--by", "floor")[0] == 0
    again = tmp_path / "again.jsonl"
    assert user("--db", other, "export", "--format", "jsonl", "r1", "-o", str(again))[0] == 0
    assert user("import", str(again)) == (
        0, "imported 0 hand(s) (1 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected; 1 stored hand(s) amended from this later export (its corrections and "
           "voids appended as made: `history` names them)\n", "")
    code, out, _ = user("sql", "SELECT seq, type FROM events WHERE hand_id = 'r1' AND seq > 21",
                        "--csv")
    assert out == "seq,type\n22,hand_ended\n23,correction\n"


def test_a_signed_hand_converted_before_is_exported_as_stored(
        user, db: str, tmp_path: Path, converted_before: Path,  # noqa: ANN001
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.store.keys import KeyStore

    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    KeyStore(tmp_path / "keys").new("floor")
    assert user("correct", "r1", "--replace", "6", "d dh Cy 7c2h", "--reason", "a heart",
                "--by", "floor", "--sign", "floor")[0] == 0
    out = tmp_path / "r1.jsonl"
    code, said, err = user("export", "--format", "jsonl", "r1", "-o", str(out))
    assert (code, said) == (0, f"wrote {out}\n")
    assert err == (
        "note: 1 hand(s) written with the unit stored, whole chips of their currency, though "
        "their sessions' chips are worth less: a signature binds each hand's rows, unit too, "
        "so a ledger without the session counts them as written (--format phh writes them in "
        "the session's money): r1 (s: chips of 0.01 USD)\n")
    line = out.read_text(encoding="utf-8").splitlines()[0]
    assert '"unit":{"currency":"USD","decimals":0,"minor_per_chip":1}' in line
    assert user("import", str(out))[1] == KNOWN
    fresh = str(tmp_path / "fresh.duckdb")  # no session there: whole dollars, said in a note
    code, _, err = user("--db", fresh, "import", str(out))
    assert (code, err) == (0, (
        f"note: {out}:1, hand r1: counts whole USD in session s, which is not opened here, as "
        "its unit says; a hand an earlier version converted into a session of cents has such "
        "a unit in an export written before exports gave it that session's chip, or in one "
        "whose signature binds it as stored, and if this is one its chips are cents: import "
        "its ledger's whole export instead (the session's rows say what a chip is worth)\n"))
    assert "signature ok: signed by floor" in user("--db", fresh, "history", "r1")[1]
    # PHH holds no signature: its export is the session's money
    phh_out = tmp_path / "r1.phh"
    assert user("export", "--format", "phh", "r1", "-o", str(phh_out))[0] == 0
    assert _money(user, _fresh(user, tmp_path, "phh", phh_out)) == CENTS
