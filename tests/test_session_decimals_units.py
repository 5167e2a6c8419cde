"""A session whose ``--decimals`` are not its currency's ISO 4217 minor units (README: "those
are the session's decimals unless --decimals says otherwise") converts a hand in money into
its chips by what each is worth (replay/ingest/units.py, to_session): a chip of 0.010 USD
written with 3 decimals is a cent, a chip of 1 USD written with none is a dollar. A chip that
is no whole number of the currency's minor unit (0.005 USD) cannot be said by a hand's unit,
so a hand in money is refused there.

The hand (tests/test_converted_units.py, DOLLARS): in whole dollars, Ann wins 11 of a pot of
12, the table keeps 1: Ann +5 USD, Bob -6 USD."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_converted_units import DOLLARS, KNOWN, _money, phh

#: ``--chip-value``, ``--decimals``, the unit stored, Ann's stack of 100 USD in chips, the
#: nets of ``balances --money`` in the session's minor units and decimals.
CASES = [
    ("0.010", "3", {"currency": "USD", "decimals": 2, "minor_per_chip": 1}, 10000,
     ({"Ann": 5000, "Cy": 0, "Bob": -6000}, 3, "USD")),
    ("1", "0", {"currency": "USD", "decimals": 0, "minor_per_chip": 100}, 100,
     ({"Ann": 5, "Cy": 0, "Bob": -6}, 0, "USD")),
]


@pytest.mark.parametrize(("chip", "decimals", "unit", "stack", "nets"), CASES)
def test_a_hand_in_money_converts_by_what_the_session_chip_is_worth(
        user, db: str, tmp_path: Path, chip: str, decimals: str, unit: dict, stack: int,  # noqa: ANN001
        nets: tuple) -> None:
    assert user("session", "open", "m", "--chip-value", chip, "--currency", "USD",
                "--decimals", decimals)[0] == 0
    path = tmp_path / "r1.phh"
    path.write_text(phh(DOLLARS), encoding="utf-8")
    assert user("import", "--session", "m", str(path))[0] == 0
    code, out, _ = user("sql", "--json", "SELECT payload->>'$.unit' AS unit, "
                        "payload->>'$.seats[0].stack' AS ann FROM events WHERE seq = 1 AND "
                        "hand_id = 'r1'")
    row = json.loads(out)[0]
    assert (json.loads(row["unit"]), int(row["ann"])) == (unit, stack)
    assert _money(user, db) == nets
    assert user("import", "--session", "m", str(path))[1] == KNOWN
    # alone in a fresh ledger, its unit says the same money (in cents of USD there)
    out_file = tmp_path / "r1.jsonl"
    assert user("export", "--format", "jsonl", "r1", "-o", str(out_file))[0] == 0
    fresh = str(tmp_path / "fresh.duckdb")
    assert user("--db", fresh, "import", str(out_file))[0] == 0
    assert _money(user, fresh) == ({"Ann": 500, "Cy": 0, "Bob": -600}, 2, "USD")


def test_a_chip_finer_than_a_cent_takes_no_hand_in_money(user, db: str, tmp_path: Path  # noqa: ANN001
                                                         ) -> None:
    assert user("session", "open", "h", "--chip-value", "0.005", "--currency", "USD",
                "--decimals", "3")[0] == 0
    path = tmp_path / "r1.phh"
    path.write_text(phh(DOLLARS), encoding="utf-8")
    code, out, err = user("import", "--session", "h", str(path))
    assert (code, out) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
           "1 rejected\n")
    assert err == (
        f"error: {path}:1, hand r1: session h's chip of 0.005 USD is no whole number of 0.01 "
        "USD (the currency's smallest unit, ISO 4217), which a hand in money cannot say its "
        "chips are worth, so it would read as other money outside the session: nothing of "
        "the hand is imported (import it into a session whose chip is whole minor units of "
        "its currency, or without --session)\n")
    assert user("sql", "--csv", "SELECT count(*) AS n FROM events WHERE hand_id IS NOT NULL"
                )[1] == "n\n0\n"
