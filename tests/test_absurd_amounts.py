"""Absurd amounts (thousands of digits, ``1e999999999``) are refused with the one line of any
amount beyond the largest a ledger holds, before any arithmetic on them, in the live
notation, in a live session and in a PHH file; an error quotes a megabyte action cut short;
a ``table`` started with standard input closed says so in one line."""

from __future__ import annotations

import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.notation import parse_amount
from ledger.formats.phh.base import scale_amount
from ledger.model.errors import MalformedInput
from ledger.model.money import beyond_bound
from tests.test_live_table import HANDLEDGER, SEATS, events, one_shot, table

DIGITS = ["9" * 5000, "1" * 4400, "10000000000000000"]
HUGE = ["1e999999999", "0.1e17", *DIGITS]
BEYOND = "is beyond the largest amount a ledger holds (9007199254740991 chips)"


@pytest.mark.parametrize("text", HUGE)
def test_the_notation_refuses_an_absurd_amount_in_one_short_line(text: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_amount(text, 0)
    assert BEYOND in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize("text", DIGITS)
def test_a_phh_amount_beyond_the_bound_is_malformed(text: str) -> None:
    with pytest.raises(MalformedInput, match="beyond the largest amount"):
        scale_amount(text, 0)


def test_the_bound_is_told_from_the_exponent_at_every_scale() -> None:
    assert parse_amount("9007199254740991", 0) == 9_007_199_254_740_991
    assert parse_amount("90071992547409.91", 2) == 9_007_199_254_740_991
    assert not beyond_bound(Decimal("999999999999999"), 0)
    assert beyond_bound(Decimal("10000000000000000"), 0)
    assert beyond_bound(Decimal("100000000000000"), 2)


def _live(tmp_path: Path) -> Path:
    db = tmp_path / "live.duckdb"
    assert one_shot(db, "hand", "start", "--hand", "h1", "--game", "NT", "--stakes", "1/2",
                    "--seats", SEATS, "--button", "Cy")[0] == 0
    assert one_shot(db, "act", "h1", "d dh Ann AsKs")[0] == 0
    return db


def test_act_and_table_refuse_a_thousand_digit_bet_and_the_session_goes_on(
        tmp_path: Path) -> None:
    db = _live(tmp_path)
    before = events(db)
    code, out, err = one_shot(db, "act", "h1", "Ann cbr 1e999999999")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and BEYOND in err
    done = table(db, "h1", [f"Ann cbr {'9' * 4400}", "d dh Bob QhQd"], "--keep-going")
    assert done.returncode == 2
    assert done.stdout.startswith("5 cards_dealt")  # the next line went through
    [line] = done.stderr.splitlines()
    assert BEYOND in line and "(4408 characters)" in line and len(line) < 400
    assert len(events(db)) == len(before) + 1


def test_a_phh_file_with_a_five_thousand_digit_bet_is_refused_in_one_line(
        tmp_path: Path) -> None:
    hand = tmp_path / "huge.phh"
    hand.write_text('variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n'
                    "min_bet = 2\nstarting_stacks = [200, 150, 300]\n"
                    'actions = ["d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 7c2d", "p3 f",\n'
                    f'  "p1 cbr {"9" * 5000}"]\n')
    db = tmp_path / "phh.duckdb"
    code, out, err = one_shot(db, "import", str(hand))
    assert code == 2
    [line] = err.splitlines()
    assert line.startswith(f"error: {hand}") and "beyond the largest amount" in line
    assert len(line) < 600


def test_table_with_standard_input_closed_is_one_line(tmp_path: Path) -> None:
    db = _live(tmp_path)
    done = subprocess.run(f'"{HANDLEDGER}" --db "{db}" table h1 <&-', shell=True,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("error: table: standard input is closed; give the actions on it, "
                           "a line each\n")
