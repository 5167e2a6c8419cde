"""A whole-ledger JSON-lines export of a hand corrected after its session's payments imports
back to the same events and books (README "JSON lines"): each book row is judged at its place
in the file, the hand as it stood there (its correction later in the file not yet applied),
and the rows are stored in the file's order, so the new ledger exports the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_live_table import one_shot

PLAY = ["d dh Ann AsAh", "d dh Bob KsKh", "Ann cc", "Bob cc", "d db 2c3d4h", "Bob cc", "Ann cc",
        "d db 9s", "Bob cc", "Ann cc", "d db Jd", "Bob cc", "Ann cc", "Ann sm AsAh",
        "Bob sm KsKh", "pay Bob 4", "end"]


def _paid_then_corrected(db: Path) -> None:
    """Session fri (1 chip = 1.00 USD): h1 paid to Bob (4 chips) though Ann's aces win, the
    cash-outs as paid (98, 102), closed, Ann pays Bob 2.00 USD, then h1 corrected with
    --closed: the pot is Ann's (seq 19 replaced)."""
    for args in (["session", "open", "fri", "--chip-value", "1", "--currency", "USD"],
                 ["buyin", "fri", "Ann", "100"], ["buyin", "fri", "Bob", "100"],
                 ["hand", "start", "--session", "fri", "--hand", "h1", "--game", "NT",
                  "--stakes", "1/2", "--seats", "Ann:100,Bob:100", "--button", "Ann"],
                 *(["act", "h1", line] for line in PLAY),
                 ["cashout", "fri", "Ann", "98"], ["cashout", "fri", "Bob", "102"],
                 ["session", "close", "fri"], ["pay", "fri", "Ann", "Bob", "2"],
                 ["correct", "h1", "--replace", "19", "pay Ann 4", "--reason", "aces win",
                  "--by", "host", "--closed"]):
        code, out, err = one_shot(db, *args)
        assert code == 0, (args, out, err)


@pytest.fixture(scope="module")
def paid(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """The ledger :func:`_paid_then_corrected` builds, once for the module (a test copies it
    before it uses it), and the bytes of its whole JSON-lines export."""
    first = tmp_path_factory.mktemp("paid") / "a.duckdb"
    _paid_then_corrected(first)
    exported = first.with_name("all.jsonl")
    assert one_shot(first, "export", "--format", "jsonl", "-o", str(exported))[0] == 0
    return first, exported.read_bytes()


@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"]])
def test_export_of_a_hand_corrected_after_a_payment_imports_back(
        tmp_path: Path, paid: tuple[Path, bytes], jobs: list[str]) -> None:
    """It was refused: "all.jsonl:27, session fri: its payment at seq 7 (Ann pays Bob 2.00
    USD): 2.00 USD is more than Ann still owes in fri (0.00 USD: Ann won 2.00 USD, …)" (exit
    2), the payment judged by the hand as corrected at line 28. Now it goes in, the
    correction stored after the payment as in the first ledger: the same 28 lines back, and
    the same balances (Ann +2 chips, Bob -2) and settle (Bob pays Ann 4.00 USD, 2.00 paid)."""
    first = copy_ledger(paid[0], tmp_path / "a.duckdb")
    second = tmp_path / "b.duckdb"
    exported, again = tmp_path / "all.jsonl", tmp_path / "again.jsonl"
    exported.write_bytes(paid[1])
    lines = exported.read_text().splitlines()
    assert len(lines) == 28
    assert lines[26].startswith('{"session":"fri","seq":7,"event":{"amount_minor":200,')
    assert lines[27].startswith('{"hand":"h1","seq":21,"event":{"by":"host",')
    assert one_shot(second, "import", *jobs, str(exported)) == (
        0, "imported 1 hand(s) (28 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")
    assert one_shot(second, "export", "--format", "jsonl", "-o", str(again))[0] == 0
    assert again.read_bytes() == exported.read_bytes()
    for read in (["balances"], ["settle"]):
        code, out, _ = one_shot(second, *read)
        assert (code, out) == one_shot(first, *read)[:2]
        if read == ["settle"]:
            assert out == ("Bob pays Ann 4.00 USD\n1 transfer(s) settle 2 player(s) (2.00 USD "
                           "paid already)\n")
        else:
            assert out.splitlines()[1:] == [
                "Ann                       2          100           98      1        1",
                "Bob                      -2          100          102      1        1",
                # the cash-outs counted h1 as it stood: they stand, the 4 chips owed
                "note: session fri: hand h1 corrected after the cash-outs (seq 21, by host: aces "
                "win): Ann +4, Bob -4 chips owed in settle, not moved at the table (net and "
                "cash-out − buy-in differ by it)"]


def test_a_payment_beyond_the_hand_as_it_stood_is_still_refused(
        tmp_path: Path, paid: tuple[Path, bytes]) -> None:
    """The same file with Ann's payment raised to 3.00 USD (she owed 2.00 at its place,
    though the hand corrected after it has her owe nothing): refused at its line, by the
    books as they stood there."""
    second = tmp_path / "b.duckdb"
    exported = tmp_path / "all.jsonl"
    text = paid[1].decode().replace('"amount_minor":200,', '"amount_minor":300,')
    exported.write_text(text)
    code, out, err = one_shot(second, "import", str(exported))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in "
                              "the ledger; 1 rejected; 1 other hand(s) not written, their file "
                              "refused\n")
    assert err.startswith(f"error: {exported}:27, session fri: its payment at seq 7 (Ann "
                          "pays Bob 3.00 USD): 3.00 USD is more than Ann still owes in fri "
                          "(2.00 USD: Ann lost 2.00 USD, paid 0.00 USD, received 0.00 USD)")


def test_two_hands_played_at_once_keep_their_interleaved_rows(tmp_path: Path) -> None:
    """h1 (Ann, Bob) and h2 (Cy, Dee) dealt and ended turn about, a payment, then h2 voided:
    the file interleaves their rows; imported, each row is stored at its line (it stored h1's
    rows 4-7 after all of h2's), so the export gives the file back, byte for byte."""
    first, second = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    start = ["hand", "start", "--session", "s", "--game", "NT", "--stakes", "1/2"]
    steps = [["session", "open", "s", "--chip-value", "1", "--currency", "USD"],
             *(["buyin", "s", p, "100"] for p in ("Ann", "Bob", "Cy", "Dee")),
             [*start, "--hand", "h1", "--seats", "Ann:100,Bob:100", "--button", "Ann"],
             [*start, "--hand", "h2", "--seats", "Cy:100,Dee:100", "--button", "Cy"]]
    for one, two in (("d dh Ann ????", "d dh Cy ????"), ("d dh Bob ????", "d dh Dee ????"),
                     ("Ann f", "Cy f"), ("end", "end")):
        steps += [["act", "h1", one], ["act", "h2", two]]
    steps += [["pay", "s", "Ann", "Bob", "1"], ["void", "h2", "--reason", "x", "--by", "host"]]
    for args in steps:
        assert one_shot(first, *args)[0] == 0, args
    exported, again = tmp_path / "all.jsonl", tmp_path / "again.jsonl"
    assert one_shot(first, "export", "--format", "jsonl", "-o", str(exported))[0] == 0
    assert [line[:20] for line in exported.read_text().splitlines()[10:16]] == [
        '{"hand":"h2","seq":3', '{"hand":"h1","seq":4', '{"hand":"h2","seq":4',
        '{"hand":"h1","seq":5', '{"hand":"h2","seq":5', '{"hand":"h1","seq":6']
    assert one_shot(second, "import", str(exported))[:2] == (
        0, "imported 2 hand(s) (22 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n")
    assert one_shot(second, "export", "--format", "jsonl", "-o", str(again))[0] == 0
    assert again.read_bytes() == exported.read_bytes()
    assert one_shot(second, "verify")[0] == 0
