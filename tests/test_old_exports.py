"""JSON-lines exports written by earlier versions of handledger, read by a fresh ledger as the
ledger they came from counted them (replay/ingest/old_units.py; README "Chips of different
values").

* A hand converted into a session of a chip of one cent was stored, and exported, with the
  unit ``{"currency": "USD", "minor_per_chip": 1, "decimals": 0}`` (whole dollars) though its
  amounts are the session's cents. A whole export holds the session's opening (a chip of
  0.01 USD) beside it: a fresh ledger converted its amounts as dollars into cents, a hundred
  times what the table played; it now takes them as the session's cents. Into a ledger that
  holds the hand in cents (the same hand exported now) it, and the hand's lines alone, were
  refused as another hand ("starts otherwise"); they are that hand. The hand's lines alone
  into a fresh ledger say nothing of its session's chip: whole dollars, said in a note.
* A hand played live in a session of 0.25 USD chips was exported alone in plain chips (unit
  currency null); exports now write the session's chip. The old export into a ledger holding
  the new one was refused as another hand; it is that hand. The new export into a ledger that
  took the old one (plain chips, no session there to say their worth) is refused in one line
  saying what to do: open the session with that chip, and the file is already in the ledger.

The files are literal: a heads-up hand where Bob (button, small blind) folds to Ann's big
blind and the table pays Ann the pot of 3 blinds.
"""

from __future__ import annotations

import json
from pathlib import Path

OLD_CENT = {"currency": "USD", "decimals": 0, "minor_per_chip": 1}
NEW_CENT = {"currency": "USD", "decimals": 2, "minor_per_chip": 1}
PLAIN = {"currency": None, "decimals": 0, "minor_per_chip": 1}
QUARTER = {"currency": "USD", "decimals": 0, "minor_per_chip": 25}


def hand(hand_id: str, session: str, unit: dict, small: int, source: dict | None = None
         ) -> str:
    """The hand's eight lines as an export writes them: blinds ``small`` and twice it, stacks
    100 big blinds."""
    big, v = 2 * small, {"schema_version": 1}
    split = {"low_method": "A-5", "low_qualifier": "8_or_better",
             "odd_chip_between_halves": "high", "odd_chip_tie_order": "left_of_button"}
    rows = [
        {"button": "Bob", "game": "NT", "hand": hand_id, **v, "session": session,
         "options": {"declare": None, "reopen_rule": "full_bet", "split": split},
         "seats": [{"player": p, "seat": None, "stack": 100 * big} for p in ("Ann", "Bob")],
         "source": source or {}, "type": "hand_started", "unit": unit,
         "stakes": {"antes": [0, 0], "betting": "no_limit", "big_bet": 0, "bring_in": 0,
                    "blinds_or_straddles": [small, big], "min_bet": big, "small_bet": 0}},
        {"amount": big, "kind": "big_blind", "player": "Ann", **v, "type": "forced_bet"},
        {"amount": small, "kind": "small_blind", "player": "Bob", **v, "type": "forced_bet"},
        *({"cards": ["??", "??"], "face_up": [], "player": p, "run": 1, **v,
           "type": "cards_dealt"} for p in ("Ann", "Bob")),
        {"player": "Bob", **v, "type": "fold"},
        {"amount": big + small, "player": "Ann", "pot": None, "returned": False, "run": None,
         **v, "type": "recorded_payout"},
        {**v, "status": "complete", "type": "hand_ended"}]
    return "".join(f'{{"hand":"{hand_id}","seq":{n},"event":'
                   f'{json.dumps(row, sort_keys=True, separators=(",", ":"))}}}\n'
                   for n, row in enumerate(rows, 1))


#: session c of 0.01 USD chips, opened as an export writes it
CENTS_OPENED = ('{"session":"c","seq":1,"event":{"chip_value_minor":1,"currency":"USD","date":'
                '"2026-12-01","decimals":2,"schema_version":1,"session":"c","source":{},'
                '"type":"session_opened"}}\n')
#: hand c1 was imported from a file (its source names it), blinds 5 and 10 cents
SOURCE = {"file": "c1.phh", "line": 1}
KNOWN = "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the ledger; 0 rejected\n"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _money(user, db: str) -> tuple[dict[str, int], int, str | None]:  # noqa: ANN001
    code, out, err = user("--db", db, "balances", "--money", "--json")
    assert code == 0, err
    books = json.loads(out)
    return ({p["player"]: p["net"] for p in books["players"]}, books["decimals"],
            books["currency"])


def test_an_old_whole_export_of_a_cent_conversion_counts_cents(user, tmp_path: Path  # noqa: ANN001
                                                               ) -> None:
    """Ann wins Bob's small blind, 5 cents: +0.05 USD, Bob -0.05 (a fresh ledger had +5.00
    and -5.00: 5 dollars made 500 cents). The hand stays as the file holds it (its books read
    its chips as the session's, as its old ledger did)."""
    old = _write(tmp_path / "old.jsonl", CENTS_OPENED + hand("c1", "c", OLD_CENT, 5, SOURCE))
    fresh = str(tmp_path / "f.duckdb")
    assert user("--db", fresh, "import", str(old)) == (
        0, "imported 1 hand(s) (9 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        "")
    assert _money(user, fresh) == ({"Ann": 5, "Bob": -5}, 2, "USD")
    code, out, _ = user("--db", fresh, "sql", "SELECT payload->'$.stakes.blinds_or_straddles'"
                        " AS b FROM events WHERE hand_id = 'c1' AND seq = 1", "--json")
    assert (code, json.loads(out)) == (0, [{"b": [5, 10]}])  # a JSON column nested


def test_an_old_export_of_a_hands_lines_alone_is_whole_dollars_said_in_a_note(
        user, tmp_path: Path) -> None:  # noqa: ANN001
    """c1's lines alone, written before, into a fresh ledger: nothing says session c's chip,
    so its unit's whole dollars count (Ann +5 USD) and a note says so and what to import
    instead; again, nothing more is said (the hand is in the ledger)."""
    alone = _write(tmp_path / "c1.jsonl", hand("c1", "c", OLD_CENT, 5, SOURCE))
    fresh = str(tmp_path / "f.duckdb")
    assert user("--db", fresh, "import", str(alone)) == (
        0, "imported 1 hand(s) (8 events) from 1 file(s); 0 already in the ledger; 0 rejected\n",
        f"note: {alone}:1, hand c1: counts whole USD in session c, which is not opened here, "
        "as its unit says; a hand an earlier version converted into a session of cents has "
        "such a unit in an export written before exports gave it that session's chip, or in "
        "one whose signature binds it as stored, and if this is one its chips are cents: "
        "import its ledger's whole export instead (the session's rows say what a chip is "
        "worth)\n")
    # 5 dollars, not cents: 500 in the ISO 4217 minor unit money is counted in
    assert _money(user, fresh) == ({"Ann": 500, "Bob": -500}, 2, "USD")
    assert user("--db", fresh, "import", str(alone)) == (0, KNOWN, "")


def test_an_old_export_is_the_hand_a_ledger_holds_in_cents(user, tmp_path: Path  # noqa: ANN001
                                                           ) -> None:
    """A ledger holding c1 as exported now (a cent: 2 decimals): the old whole export and its
    hand's lines alone add nothing (each was refused, "stakes.blinds_or_straddles [500,1000]
    here, [5,10] in the ledger")."""
    now = _write(tmp_path / "now.jsonl", CENTS_OPENED + hand("c1", "c", NEW_CENT, 5, SOURCE))
    db = str(tmp_path / "n.duckdb")
    assert user("--db", db, "import", str(now))[0] == 0
    whole = _write(tmp_path / "old.jsonl", CENTS_OPENED + hand("c1", "c", OLD_CENT, 5, SOURCE))
    alone = _write(tmp_path / "c1.jsonl", hand("c1", "c", OLD_CENT, 5, SOURCE))
    for path in (whole, alone):
        assert user("--db", db, "import", str(path)) == (0, KNOWN, ""), path
    assert _money(user, db) == ({"Ann": 5, "Bob": -5}, 2, "USD")


def test_an_old_export_of_a_live_hand_is_the_hand_exported_now(user, tmp_path: Path  # noqa: ANN001
                                                               ) -> None:
    """h2, played live in session s of 0.25 USD chips (blinds 1 and 2 chips): exported alone
    now with the session's chip, before in plain chips. A ledger holding the new export takes
    the old as known (it was refused: "unit.currency null here, "USD" in the ledger"); one
    holding the old refuses the new in one line saying what to do, and once it has opened s
    with that chip, the new is known and Ann's 1 chip won is 0.25 USD."""
    new = _write(tmp_path / "new.jsonl", hand("h2", "s", QUARTER, 1))
    old = _write(tmp_path / "old.jsonl", hand("h2", "s", PLAIN, 1))
    first = str(tmp_path / "new.duckdb")
    assert user("--db", first, "import", str(new))[0] == 0
    assert user("--db", first, "import", str(old)) == (0, KNOWN, "")
    assert _money(user, first) == ({"Ann": 25, "Bob": -25}, 2, "USD")
    second = str(tmp_path / "old.duckdb")
    assert user("--db", second, "import", str(old))[0] == 0
    assert user("--db", second, "import", str(new)) == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; "
        "1 rejected\n",
        f"error: {new}:1, hand h2: a different hand h2 is already in the ledger: its event 1, "
        'hand_started, has unit.currency "USD" here, null in the ledger; the ledger holds it '
        "in plain chips, as an export written before exports gave a hand played live its "
        "session's chip wrote it, and this file says a chip of session s is 0.25 USD: "
        "`handledger session open s --chip-value 0.25 --currency USD` says so here, and the "
        "file is then already in the ledger\n")
    assert user("--db", second, "session", "open", "s", "--chip-value", "0.25",
                "--currency", "USD")[0] == 0
    assert user("--db", second, "import", str(new)) == (0, KNOWN, "")
    assert _money(user, second) == ({"Ann": 25, "Bob": -25}, 2, "USD")
