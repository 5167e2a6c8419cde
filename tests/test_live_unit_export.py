"""A hand played live in a session whose chip is money stores plain chips (the session says
what they are worth), and its JSON-lines export alone (``export --format jsonl HAND``) writes
the session's chip as the hand's unit, as its PHH export writes ``_chip`` (README, "Chips of
different values"; replay/ingest/export.py): a fresh ledger counts the same money, a session
of another chip converts it, and the file is already in the ledger it came from. A signature
that binds the hand's rows holds in either unit (ledger/store/signing.py, same_hand_units).

The hand: Ann (button, small blind 1) raises to 6, Bob folds his big blind of 2: Ann +2
chips, Bob -2; in chips of 0.25 USD that is +0.50 and -0.50 USD."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.once import built_once
from tests.test_live_table import one_shot

SEATS = ("--game", "NT", "--stakes", "1/2", "--seats", "Ann:200,Bob:150", "--button", "Ann")
PLAY = ("d dh Ann AsKs", "d dh Bob QhQd", "Ann cbr 6", "Bob f", "end")
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"
QUARTER = {"currency": "USD", "decimals": 0, "minor_per_chip": 25}


def _played(user, session: str, chip: str | None, actions=PLAY) -> None:  # noqa: ANN001
    money = ("--chip-value", chip, "--currency", "USD") if chip else ()
    assert user("session", "open", session, *money)[0] == 0
    assert user("buyin", session, "Ann", "200")[0] == user("buyin", session, "Bob", "150")[0] == 0
    assert user("hand", "start", "--hand", "L1", "--session", session, *SEATS)[0] == 0
    for action in actions:
        assert user("act", "L1", action)[0] == 0, action


def _played_copy(factory: pytest.TempPathFactory, db: str, session: str, chip: str | None
                 ) -> None:
    """The ledger ``db`` made a copy of one where :func:`_played` ran (``session``, ``chip``,
    the whole hand), built once a test session."""
    def build(folder: Path) -> Path:
        path = folder / "l.duckdb"
        _played(lambda *args: one_shot(path, *args), session, chip)
        return path

    copy_ledger(built_once(factory, f"live {session} {chip}", build), Path(db))


def _money(user, db: str, *args: str) -> tuple[dict[str, int], int, str | None]:  # noqa: ANN001
    """``({player: net in minor units}, decimals, currency)`` of ``balances --money``."""
    code, out, err = user("--db", db, "balances", "--money", "--json", *args)
    assert code == 0, err
    books = json.loads(out)
    return ({p["player"]: p["net"] for p in books["players"]}, books["decimals"],
            books["currency"])


def _unit(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])["event"]["unit"]


def _import(user, db: str, path: Path, *args: str) -> str:  # noqa: ANN001
    code, out, err = user("--db", db, "import", *args, str(path))
    assert (code, err) == (0, ""), out
    return out


@pytest.mark.parametrize(("chip", "unit", "nets"), [
    ("0.25", QUARTER, ({"Ann": 50, "Bob": -50}, 2, "USD")),
    # a chip of a cent: cents of USD, the currency's own decimals
    ("0.01", {"currency": "USD", "decimals": 2, "minor_per_chip": 1},
     ({"Ann": 2, "Bob": -2}, 2, "USD")),
])
def test_a_live_hand_exported_alone_says_what_its_chips_are_worth(
        user, db: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,  # noqa: ANN001
        chip: str, unit: dict, nets: tuple) -> None:
    _played_copy(tmp_path_factory, db, "s", chip)
    assert _money(user, db) == nets
    out = tmp_path / "L1.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(out)) == (
        0, f"wrote {out}\n", "")
    assert _unit(out) == unit
    fresh = str(tmp_path / "fresh.duckdb")  # no session s there: the hand's unit says it
    _import(user, fresh, out)
    assert _money(user, fresh) == nets
    assert _import(user, db, out) == KNOWN  # the ledger's own hand
    # the ledger itself is as it was: the hand is stored in plain chips, its session's
    code, stored, _ = user("sql", "SELECT payload->>'$.unit' AS u FROM events WHERE seq = 1"
                           " AND hand_id = 'L1'", "--json")
    assert json.loads(json.loads(stored)[0]["u"]) == {
        "currency": None, "decimals": 0, "minor_per_chip": 1}


def test_a_session_of_another_chip_converts_it(
        user, db: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory  # noqa: ANN001
        ) -> None:
    _played_copy(tmp_path_factory, db, "s", "0.25")
    out = tmp_path / "L1.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(out))[0] == 0
    other = str(tmp_path / "nickels.duckdb")
    assert user("--db", other, "session", "open", "t", "--chip-value", "0.05",
                "--currency", "USD")[0] == 0
    _import(user, other, out, "--session", "t")
    # five nickels a quarter: Ann's stack of 200 is 1000, her raise to 6 is to 30
    code, rows, _ = user("--db", other, "sql", "--csv", "SELECT payload->>'$.seats[1].stack' AS"
                         " ann, (SELECT payload->>'$.to' FROM events WHERE type = 'bet_raise')"
                         " AS raised FROM events WHERE seq = 1 AND hand_id = 'L1'")
    assert rows == "ann,raised\n1000,30\n"
    assert _money(user, other) == ({"Ann": 50, "Bob": -50}, 2, "USD")


def test_a_whole_export_carries_the_session_and_writes_the_hand_as_stored(
        user, db: str, tmp_path: Path,  # noqa: ANN001
        tmp_path_factory: pytest.TempPathFactory) -> None:
    _played_copy(tmp_path_factory, db, "s", "0.25")
    out = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(out))[0] == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["event"]["unit"] for line in lines if line.get("hand") == "L1"
            and line["seq"] == 1] == [{"currency": None, "decimals": 0, "minor_per_chip": 1}]
    assert any(line.get("session") == "s" and line["event"]["type"] == "session_opened"
               for line in lines)
    fresh = str(tmp_path / "fresh.duckdb")
    _import(user, fresh, out)
    assert _money(user, fresh) == ({"Ann": 50, "Bob": -50}, 2, "USD")


def test_a_plain_chip_session_exports_plain_chips(
        user, db: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory  # noqa: ANN001
        ) -> None:
    _played_copy(tmp_path_factory, db, "p", None)
    out = tmp_path / "L1.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(out))[0] == 0
    assert _unit(out) == {"currency": None, "decimals": 0, "minor_per_chip": 1}
    fresh = str(tmp_path / "fresh.duckdb")
    _import(user, fresh, out)
    # plain chips there too: the chips as they are, and no money to show
    code, text, _ = user("--db", fresh, "balances", "--json")
    assert code == 0
    assert {p["player"]: p["net"] for p in json.loads(text)["players"]} == {"Ann": 2, "Bob": -2}
    code, text, err = user("--db", fresh, "balances", "--money")
    assert (code, text) == (2, "")
    assert err.startswith("error: session p counts plain chips, with no money value")


def test_a_hand_in_play_goes_on_elsewhere_and_comes_back(user, db: str, tmp_path: Path  # noqa: ANN001
                                                         ) -> None:
    _played(user, "s", "0.25", PLAY[:1])
    early = tmp_path / "early.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(early))[0] == 0
    assert _unit(early) == QUARTER
    other = str(tmp_path / "other.duckdb")
    _import(user, other, early)
    for action in PLAY[1:]:
        assert user("--db", other, "act", "L1", action)[0] == 0, action
    late = tmp_path / "late.jsonl"
    assert user("--db", other, "export", "--format", "jsonl", "L1", "-o", str(late))[0] == 0
    assert _import(user, db, late) == (
        "imported 1 hand(s) (4 events) from 1 file(s); 0 already in the ledger; 0 rejected\n")
    assert _money(user, db) == _money(user, other) == ({"Ann": 50, "Bob": -50}, 2, "USD")
    assert _import(user, db, early) == KNOWN  # the earlier copy, after the later one
    assert user("verify")[0] == 0


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ledger.store.keys import KeyStore

    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    KeyStore(tmp_path / "keys").new("floor")


GOOD = "signature ok: signed by floor; binds the hand as it stood (seqs 1-8)"


def test_a_signature_holds_in_the_session_chip_and_back(
        user, db: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,  # noqa: ANN001
        keys: None) -> None:
    _played_copy(tmp_path_factory, db, "s", "0.25")
    assert user("correct", "L1", "--replace", "4", "d dh Ann AsKh", "--reason", "a heart",
                "--by", "floor", "--sign", "floor")[0] == 0  # signed over plain chips
    out = tmp_path / "L1.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(out)) == (
        0, f"wrote {out}\n", "")
    assert _unit(out) == QUARTER
    fresh = str(tmp_path / "fresh.duckdb")
    _import(user, fresh, out, "--keys", str(tmp_path / "keys"))  # every signature verifies
    assert GOOD in user("--db", fresh, "history", "L1")[1]
    assert _money(user, fresh) == ({"Ann": 50, "Bob": -50}, 2, "USD")
    assert _import(user, db, out) == KNOWN
    # signed where the hand is in chips of 0.25 USD, and brought back
    assert user("--db", fresh, "correct", "L1", "--replace", "5", "d dh Bob QhQs", "--reason",
                "a spade", "--by", "floor", "--sign", "floor")[0] == 0
    back = tmp_path / "back.jsonl"
    assert user("--db", fresh, "export", "--format", "jsonl", "L1", "-o", str(back))[0] == 0
    assert "1 stored hand(s) amended" in _import(user, db, back, "--keys",
                                                 str(tmp_path / "keys"))
    said = user("history", "L1")[1]
    assert said.count("signature ok: signed by floor") == 2 and "FAILS" not in said, said
    # verify, audit and the hand's page check it as history does (they said FAILS: altered)
    code, said, _ = user("verify")
    assert code == 0 and "signatures: 2 signed correction(s) and void(s) verify\n" in said
    assert user("audit", "--keys", str(tmp_path / "keys")) == (
        0, "audit clean: 1 hand(s) in 1 session(s); every chip adds up"
           " in the books as stored (the hash chain not checked: `handledger verify`)\n", "")
    page = tmp_path / "L1.html"
    assert user("view", "L1", "-o", str(page))[0] == 0
    assert page.read_text().count('<p class="signature" data-status="good">') == 2
    # the whole ledger, the hand as stored beside its session, into another fresh ledger
    whole = tmp_path / "all.jsonl"
    assert user("export", "--format", "jsonl", "-o", str(whole))[0] == 0
    again = str(tmp_path / "again.duckdb")
    _import(user, again, whole, "--keys", str(tmp_path / "keys"))
    said = user("--db", again, "history", "L1")[1]
    assert said.count("signature ok: signed by floor") == 2 and "FAILS" not in said, said
    # into a session of another chip it would be converted under the signature: refused
    nickels = str(tmp_path / "nickels.duckdb")
    assert user("--db", nickels, "session", "open", "t", "--chip-value", "0.05",
                "--currency", "USD")[0] == 0
    code, _, err = user("--db", nickels, "import", "--session", "t", str(out))
    assert code == 2 and "a signed amendment cannot be converted" in err, err


def test_a_signature_made_over_a_chip_of_money_does_not_hold_for_another(
        user, db: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,  # noqa: ANN001
        keys: None) -> None:
    _played_copy(tmp_path_factory, db, "s", "0.25")
    assert user("correct", "L1", "--replace", "4", "d dh Ann AsKh", "--reason", "a heart",
                "--by", "floor", "--sign", "floor")[0] == 0
    out = tmp_path / "L1.jsonl"
    assert user("export", "--format", "jsonl", "L1", "-o", str(out))[0] == 0
    fresh = str(tmp_path / "fresh.duckdb")
    _import(user, fresh, out)
    assert user("--db", fresh, "correct", "L1", "--replace", "5", "d dh Bob QhQs", "--reason",
                "a spade", "--by", "floor", "--sign", "floor")[0] == 0
    back = tmp_path / "back.jsonl"
    assert user("--db", fresh, "export", "--format", "jsonl", "L1", "-o", str(back))[0] == 0
    # the quarter made a dollar: the second signature (over 0.25 USD chips) fails
    edited = tmp_path / "edited.jsonl"
    edited.write_text(back.read_text(encoding="utf-8").replace(
        '"minor_per_chip":25', '"minor_per_chip":100', 1), encoding="utf-8")
    code, _, err = user("--db", str(tmp_path / "x.duckdb"), "import", str(edited))
    assert code == 2 and "its correction at seq 10 (by floor) fails its signature" in err, err
