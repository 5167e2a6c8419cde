"""An import with worker processes (``--jobs 2``) keeps the books the one-process import
(``--jobs 1``) keeps: a hand in a session's chips of other money is converted (or refused)
alike, ``--session`` refuses a session the ledger has not opened alike, and a blank line is
no hand either way (docs/BOOKS.md "Chips of different values", Formats: JSON lines).

The files are small nights written here: a session (or none) opened with a chip, two
players' buy-ins, heads-up hands in a unit of their own where Bob posts the small blind and
folds to Ann's big blind (Ann wins one of the hand's chips a hand), and the cash-outs."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import replay.ingest.parallel as par
from cli.main import run as run_main

_SPLIT = {"low_method": "A-5", "low_qualifier": "8_or_better",
          "odd_chip_between_halves": "high", "odd_chip_tie_order": "left_of_button"}
#: A hand's unit as JSON lines write it.
PLAIN = {"currency": None, "decimals": 0, "minor_per_chip": 1}
QUARTER = {"currency": "USD", "decimals": 0, "minor_per_chip": 25}  # a 0.25 USD chip
NICKEL = {"currency": "USD", "decimals": 0, "minor_per_chip": 5}  # a 0.05 USD chip
CENT = {"currency": "USD", "decimals": 2, "minor_per_chip": 1}
DOLLAR = {"currency": "USD", "decimals": 0, "minor_per_chip": 1}  # whole dollars
EURO_DIME = {"currency": "EUR", "decimals": 0, "minor_per_chip": 10}


def _line(kind: str, stream: str, seq: int, event: dict[str, Any]) -> str:
    return json.dumps({kind: stream, "seq": seq, "event": {"schema_version": 1, **event}},
                      separators=(",", ":"), sort_keys=False)


def night(*, chip: tuple[int, str | None] | None, unit: dict[str, Any], hands: int,
          stack: int = 40, buy_in: int | None = None, cash_out: bool = True,
          tournament: bool = False, blank: str = "") -> str:
    """A night of session ``co`` as JSON lines: its opening with a chip of ``chip`` (minor
    units, currency; None: no session rows, the hands still name ``co``), Ann's and Bob's
    buy-ins of ``buy_in`` chips (default ``stack``), ``hands`` hands in ``unit`` starting
    both at ``stack`` (Ann gains one chip a hand), then (``cash_out``) their cash-outs of
    what the buy-ins come to after them, counted in the session's chips as ``buy_in`` counts
    ``stack``; ``blank`` ends the file (a blank line: ``"\\n"``)."""
    buy_in = stack if buy_in is None else buy_in
    out = []
    if chip is not None:
        value, currency = chip
        out.append(_line("session", "co", 1, {
            "chip_value_minor": value, "currency": currency, "date": "2025-01-07",
            "decimals": 2 if currency else 0, "session": "co", "source": {},
            "type": "session_opened"}))
        out += [_line("session", "co", 2 + i, {"chips": buy_in, "kind": "buy_in",
                                               "player": p, "type": "buy_in"})
                for i, p in enumerate(("Ann", "Bob"))]
    for n in range(hands):
        hand = f"co-{n + 1}"
        events = [
            {"button": "Bob", "game": "NT", "hand": hand,
             "options": {"declare": None, "reopen_rule": None, "split": _SPLIT},
             "seats": [{"player": "Bob", "seat": None, "stack": stack - n},
                       {"player": "Ann", "seat": None, "stack": stack + n}],
             "session": "co", "source": {"tournament": "t1"} if tournament else {},
             "stakes": {"antes": [], "betting": "no_limit", "big_bet": 0,
                        "blinds_or_straddles": [1, 2], "bring_in": 0, "min_bet": 2,
                        "small_bet": 0},
             "type": "hand_started", "unit": unit},
            {"amount": 1, "kind": "small_blind", "player": "Bob", "type": "forced_bet"},
            {"amount": 2, "kind": "big_blind", "player": "Ann", "type": "forced_bet"},
            {"cards": ["Qd", "Qs"], "face_up": [], "player": "Bob", "run": 1,
             "type": "cards_dealt"},
            {"cards": ["3d", "Ks"], "face_up": [], "player": "Ann", "run": 1,
             "type": "cards_dealt"},
            {"player": "Bob", "type": "fold"},
            {"amount": 2, "player": "Ann", "pot": 0, "returned": False, "run": None,
             "type": "recorded_payout"},
            {"amount": 1, "player": "Ann", "pot": None, "returned": True, "run": None,
             "type": "recorded_payout"},
            {"status": "complete", "type": "hand_ended"}]
        out += [_line("hand", hand, seq, e) for seq, e in enumerate(events, 1)]
    if chip is not None and cash_out:
        won = hands * buy_in // stack  # Ann's chips of the hands, in the session's chips
        out += [_line("session", "co", 4 + i, {"chips": buy_in + sign * won, "player": p,
                                               "type": "cash_out"})
                for i, (p, sign) in enumerate((("Ann", 1), ("Bob", -1)))]
    return "\n".join(out) + "\n" + blank


def cli(db: Path, *args: str) -> tuple[int, str, str]:
    """``handledger --db DB ARGS`` as the console script runs it (in this process):
    ``(status, stdout, stderr)``."""
    with CliRunner().isolation() as (out, err, _):
        try:
            code = run_main(["--db", str(db), *args])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue().decode(), err.getvalue().decode()


def both_ways(folder: Path, path: Path, *extra: str) -> dict[str, list[tuple[int, str, str]]]:
    """The import of ``path`` (with ``extra`` arguments) into a new ledger with ``--jobs 1``
    and with ``--jobs 2``, then ``balances --json`` and ``audit --json`` of each ledger: the
    three outcomes per way, by its jobs."""
    out = {}
    for jobs in ("1", "2"):
        db = folder / f"jobs{jobs}.duckdb"
        out[jobs] = [cli(db, "import", str(path), "--jobs", jobs, *extra),
                     cli(db, "balances", "--json"), cli(db, "audit", "--json")]
        # a ledger never made is named in the read's refusal: the same either way
        out[jobs] = [(c, o, e.replace(str(db), "DB")) for c, o, e in out[jobs]]
    return out


@pytest.fixture
def tried(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each ``import_parallel`` call returned (None: the file went to one process)."""
    results: list[object] = []
    real = par.import_parallel
    monkeypatch.setattr(par, "import_parallel",
                        lambda *a, **k: results.append(real(*a, **k)) or results[-1])
    return results


def _net(balances: str) -> dict[str, int]:
    return {p["player"]: p["net"] for p in json.loads(balances)["players"]}


def test_quarter_chips_in_a_session_of_nickels_are_converted_with_workers(
        tmp_path: Path, tried: list[object]) -> None:
    """Six hands in 0.25 USD chips, session co of 0.05 USD chips: each chip Ann wins is 5 of
    the session's, +30 chips (1.50 USD) both ways, not +6 (0.30 USD) as the workers stored
    it; their buy-ins of 200 chips each are the hands' 40, and the audit is clean."""
    path = tmp_path / "co.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=QUARTER, hands=6, buy_in=200))
    ways = both_ways(tmp_path, path)
    assert ways["2"] == ways["1"]
    assert tried == [None]  # the workers handed the file back
    (code, said, err), (_, balances, _), (audited, findings, _) = ways["2"]
    assert (code, err) == (0, "") and said.startswith("imported 6 hand(s) (59 events)")
    assert _net(balances) == {"Ann": 30, "Bob": -30}
    assert (audited, json.loads(findings)) == (0, {"discrepancies": []})
    assert _net(cli(tmp_path / "jobs2.duckdb", "balances", "--money", "--json")[1]) == {
        "Ann": 150, "Bob": -150}  # cents


def test_hands_in_the_session_chip_stay_with_the_workers(tmp_path: Path,
                                                        tried: list[object]) -> None:
    """Hands in 0.05 USD chips, the session's own: nothing to convert, the workers keep the
    file, and the books are the one process's (Ann +4 chips, 0.20 USD)."""
    path = tmp_path / "co.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=NICKEL, hands=4))
    ways = both_ways(tmp_path, path)
    assert ways["2"] == ways["1"]
    assert len(tried) == 1 and tried[0] is not None  # the workers stored it
    assert _net(ways["2"][1][1]) == {"Ann": 4, "Bob": -4}
    assert json.loads(ways["2"][2][1]) == {"discrepancies": []}


def test_a_hand_in_another_currency_is_refused_with_workers_too(tmp_path: Path,
                                                               tried: list[object]) -> None:
    """EUR hands in a USD session: each refused, in one line for the file, both ways; the
    file, which carries the session's book, is refused whole (chips nobody played)."""
    path = tmp_path / "co.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=EURO_DIME, hands=3))
    ways = both_ways(tmp_path, path)
    assert ways["2"] == ways["1"] and tried == [None]
    code, said, err = ways["2"][0]
    assert code == 2 and said.endswith("; 3 rejected\n")
    assert err == (
        f"error: {path}: the hand is in EUR, session co in USD: a session has one currency "
        "(all 3 hands of the file, from co-1 to co-3: nothing of them was imported); nothing "
        "of the file was written: it carries the book of session co, which goes in with all "
        "its hands or not at all (correct the file and import it again)\n")


def test_session_option_refuses_an_unopened_session_with_workers_too(
        tmp_path: Path, tried: list[object]) -> None:
    """``--session co`` into a new ledger, the file bringing hands only: one process refuses
    it (no session co), and so does the import with workers, which stored the hands."""
    path = tmp_path / "hands.jsonl"
    path.write_text(night(chip=None, unit=PLAIN, hands=3))
    ways = both_ways(tmp_path, path, "--session", "co")
    assert ways["2"] == ways["1"] and tried == [None]
    assert ways["2"][0] == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                               "the ledger; 1 rejected; 3 other hand(s) not written, their "
                               "file refused\n",
                            f"error: {path}: no session 'co' (open it with `handledger "
                            "session open co`)\n")


def test_session_option_naming_the_session_the_file_opens_imports_it(
        tmp_path: Path, tried: list[object]) -> None:
    """``--session co`` with a file whose first row opens co itself, into a new ledger: the
    option only confirms the session the file makes, and the file goes in as without it (4
    hands of 9 events and 5 session rows, Ann +4), by one process either way (the option
    keeps the workers out), and a second time adds nothing. It was refused (``no session
    'co'``). ``--session zz``, which neither the ledger nor the file opens, is refused as
    before."""
    path = tmp_path / "co.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=NICKEL, hands=4))
    ways = both_ways(tmp_path, path, "--session", "co")
    assert ways["2"] == ways["1"] and tried == [None]
    (code, said, err), (_, balances, _), (audited, findings, _) = ways["2"]
    assert (code, said, err) == (0, "imported 4 hand(s) (41 events) from 1 file(s); 0 already "
                                    "in the ledger; 0 rejected\n", "")
    assert _net(balances) == {"Ann": 4, "Bob": -4}
    assert (audited, json.loads(findings)) == (0, {"discrepancies": []})
    assert cli(tmp_path / "jobs1.duckdb", "session", "list")[1] == (
        "co  2025-01-07  4 hand(s)  2 buy-in(s)  open\n")
    assert cli(tmp_path / "jobs1.duckdb", "import", str(path), "--session", "co") == (
        0, "imported 0 hand(s) (0 events) from 1 file(s); 4 already in the ledger; 0 "
           "rejected\n", "")
    assert cli(tmp_path / "zz.duckdb", "import", str(path), "--session", "zz") == (
        2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
           "rejected; 4 other hand(s) not written, their file refused\n",
        f"error: {path}: no session 'zz' (open it with `handledger session open zz`)\n")
    assert not (tmp_path / "zz.duckdb").exists()


def test_a_trailing_blank_line_is_no_hand(tmp_path: Path) -> None:
    """A file of session lines only, then a blank line: its book is written (5 events), no
    hand refused, exit 0; a night of hands and a blank line: nothing rejected."""
    path = tmp_path / "book.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=NICKEL, hands=0, blank="\n"))
    assert path.read_text().endswith("}\n\n")
    ways = both_ways(tmp_path, path)
    assert ways["2"] == ways["1"]
    assert ways["1"][0] == (0, "imported 0 hand(s) (5 events) from 1 file(s); 0 already in "
                               "the ledger; 0 rejected\n", "")
    path.write_text(night(chip=(5, "USD"), unit=NICKEL, hands=2, blank=" \n\n"))
    code, said, err = cli(tmp_path / "hands.duckdb", "import", str(path))
    assert (code, said, err) == (0, "imported 2 hand(s) (23 events) from 1 file(s); 0 already "
                                    "in the ledger; 0 rejected\n", "")


_CHIPS = st.sampled_from([None, (1, None), (1, "USD"), (5, "USD"), (25, "USD"), (100, "USD"),
                          (10, "EUR")])
_UNITS = st.sampled_from([PLAIN, QUARTER, NICKEL, CENT, DOLLAR, EURO_DIME])


@settings(max_examples=12, deadline=None)
@given(chip=_CHIPS, unit=_UNITS, hands=st.integers(1, 4), tournament=st.booleans(),
       cash_out=st.booleans(), blank=st.sampled_from(["", "\n", "\n \n"]))
def test_workers_keep_the_books_of_one_process(chip: tuple[int, str | None] | None,
                                               unit: dict[str, Any], hands: int,
                                               tournament: bool, cash_out: bool,
                                               blank: str) -> None:
    """Any small night — a session of any chip or none, hands in any unit, a tournament's or
    not, cashed out or not, blank lines at the end — imports with workers to the import
    line, balances and audit of the one-process import."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.jsonl"
        path.write_text(night(chip=chip, unit=unit, hands=hands, tournament=tournament,
                              cash_out=cash_out, blank=blank))
        ways = both_ways(Path(folder), path)
        assert ways["2"] == ways["1"]


def test_session_option_naming_another_session_than_the_file_opens_is_refused(
        tmp_path: Path, tried: list[object]) -> None:
    """``--session other`` (opened in the ledger, in the file's chips) with a file that opens
    co: its hands would go to other and its book to co, so the import is refused in one line
    naming both, with ``--jobs 1`` and with workers, nothing written (other holds no hand nor
    buy-in, and no session co is made)."""
    path = tmp_path / "co.jsonl"
    path.write_text(night(chip=(5, "USD"), unit=NICKEL, hands=4))
    for jobs in ("1", "2"):
        db = tmp_path / f"other{jobs}.duckdb"
        assert cli(db, "session", "open", "other", "--date", "2025-01-07", "--chip-value",
                   "0.05", "--currency", "USD")[0] == 0
        assert cli(db, "import", str(path), "--jobs", jobs, "--session", "other") == (
            2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the ledger; 1 "
               "rejected; 4 other hand(s) not written, their file refused\n",
            f"error: {path}:1: the file opens session co, not other: --session only confirms "
            "the session the file opens (its hands would go to other, its book to co); import "
            "it without --session, or with --session co: nothing imported\n")
        assert cli(db, "session", "list")[1] == (
            "other  2025-01-07  0 hand(s)  0 buy-in(s)  open\n")
    assert tried == [None]  # the workers' import left it to one process
