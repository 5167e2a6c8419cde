"""A void or correction exported from one ledger into another that holds the same PokerNow
game under another session name (so the hand under another id, ``pn-<session>-…``, with the
same source key): appended to the stored hand and counted amended, as with the same id; a
closed session needs ``--closed``; a PHH export of the corrected hand is refused in one line,
and a voided hand has no PHH export."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.copies import copy_ledger
from tests.test_later_export import nets
from tests.test_live_table import one_shot as cli

LOG = Path("/work/shared/data/pokernow/charlestudor_Input_Log_001.csv")
X4 = "pn-charlestudor_Input_Log_001-4-164210359269400"  # hand 4 imported without --session
W4 = "pn-w1-4-164210359269400"  # the same hand imported into session w1
TA, AN, QA = "gE4aE_Yhc3", "ydk9sgEWl2", "BfS83Cedu3"
#: the four hands, hand-checked: 1 TA -1 AN +1; 2 TA +3 AN -1 QA -2; 3 QA -2 TA +2;
#: 4 (TA's small blind 1 folded to AN's big blind 2) TA -1 AN +1
NETS = {TA: 3, AN: 1, QA: -4}
AMENDED = ("imported 0 hand(s) ({n} events) from 1 file(s); 0 already in the ledger; 0 "
           "rejected; 1 stored hand(s) amended from this later export (its corrections and "
           "voids appended as made: `history` names them)\n")
#: hand 4 corrected: TA raised to 4 instead of folding, AN folded: TA +2, AN -2
RAISED = ("--replace", "8", "TA cbr 4", "--insert-after", "8", "Anvjfbmj2 f", "--replace", "9",
          "returned TA 2", "--replace", "10", "pay TA 4", "--reason", "TA raised", "--by", "Ann")


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """x.duckdb: the log imported as it comes (session charlestudor_Input_Log_001); w.duckdb:
    the same log imported into session w1. Built once, copied by each test."""
    folder = tmp_path_factory.mktemp("both")
    assert cli(folder / "x.duckdb", "import", str(LOG))[0] == 0
    assert cli(folder / "w.duckdb", "session", "open", "w1")[0] == 0
    assert cli(folder / "w.duckdb", "import", "--session", "w1", str(LOG))[0] == 0
    return folder


def copies(tmp_path: Path, both: Path) -> tuple[Path, Path]:
    return (copy_ledger(both / "x.duckdb", tmp_path / "x.duckdb"),
            copy_ledger(both / "w.duckdb", tmp_path / "w.duckdb"))


def amended(db: Path, hand: str, out: Path, *command: str) -> Path:
    """``command`` run on ``db``, then ``hand`` exported as JSON lines to ``out``."""
    code, said, err = cli(db, *command)
    assert code == 0, (said, err)
    assert cli(db, "export", hand, "-o", str(out))[0] == 0
    return out


def last_history(db: Path, hand: str) -> list[str]:
    code, out, _ = cli(db, "history", hand)
    assert code == 0
    """The last two lines of ``history`` of ``hand``, without seq, position and time."""
    return [line.split(maxsplit=3)[3] if line.lstrip()[:1].isdigit() else line.strip()
            for line in out.splitlines()][-2:]


def test_a_void_goes_to_the_hand_under_its_other_id(tmp_path: Path, both: Path) -> None:
    x, w = copies(tmp_path, both)
    v = amended(x, X4, tmp_path / "v.jsonl", "void", X4, "--reason", "misdeal", "--by", "Ann")
    assert nets(w) == NETS
    assert cli(w, "import", str(v)) == (0, AMENDED.format(n=2), "")
    assert nets(w) == nets(x) == {TA: 4, AN: 0, QA: -4}  # hand 4 gives back TA 1, AN 2
    assert last_history(w, W4) == ["delete seq 11 (seq 11 was: hand_ended)",
                                   "hand_voided by Ann: misdeal"]
    assert cli(w, "audit")[0] == 0
    again = cli(w, "import", str(v))  # the void is held now: nothing more
    assert again == (0, "imported 0 hand(s) (0 events) from 1 file(s); 1 already in the "
                        "ledger (1 of them voided here: an import never brings a voided hand "
                        "back); 0 rejected\n", "")
    assert nets(w) == {TA: 4, AN: 0, QA: -4}


def test_a_correction_goes_to_the_hand_under_its_other_id(tmp_path: Path, both: Path) -> None:
    x, w = copies(tmp_path, both)
    c = amended(x, X4, tmp_path / "c.jsonl", "correct", X4, *RAISED)
    assert cli(w, "import", str(c)) == (0, AMENDED.format(n=1), "")
    assert nets(w) == nets(x) == {TA: 6, AN: -2, QA: -4}  # hand 4: TA -1 → +2, AN +1 → -2
    code, out, _ = cli(w, "history", W4)
    assert code == 0
    assert "correction by Ann: TA raised" in out
    assert ("replace seq 10 recorded_payout gE4aE_Yhc3 4 (seq 10 was: recorded_payout "
            "ydk9sgEWl2 2)") in out


def test_the_other_way_into_a_closed_session(tmp_path: Path, both: Path) -> None:
    x, w = copies(tmp_path, both)
    v = amended(w, W4, tmp_path / "v.jsonl", "void", W4, "--reason", "misdeal", "--by", "Ann")
    assert cli(x, "session", "close", "charlestudor_Input_Log_001")[0] == 0
    code, out, err = cli(x, "import", str(v))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (
        f"error: {v}:1, hand {W4}: this is hand {X4} of the ledger under another id; session "
        "'charlestudor_Input_Log_001' is closed (entry 11) "
        "and this file would append to the hand the corrections and voids another ledger "
        "made to it: its books were settled up at the close; nothing of the file was "
        "written; --closed records it anyway\n")
    assert nets(x) == NETS
    assert cli(x, "import", "--closed", str(v)) == (0, AMENDED.format(n=2), "")
    assert nets(x) == {TA: 4, AN: 0, QA: -4}
    assert last_history(x, X4)[-1] == "hand_voided by Ann: misdeal"


def test_phh_of_the_corrected_hand_is_refused_and_a_void_has_none(tmp_path: Path,
                                                                   both: Path) -> None:
    x, w = copies(tmp_path, both)
    assert cli(x, "correct", X4, *RAISED)[0] == 0
    phh = tmp_path / "c.phh"
    assert cli(x, "export", X4, "--format", "phh", "-o", str(phh))[0] == 0
    code, out, err = cli(w, "import", str(phh))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (
        f"error: {phh}:1, hand {X4}: this hand carries the _source_key that hand {W4} of the "
        "ledger was imported under (the key its site's file gave it), and differs from it: "
        'its event 8 is bet_raise {"player":"gE4aE_Yhc3","to":4} here, fold '
        '{"player":"gE4aE_Yhc3"} in the ledger; a change to a stored hand is a correction '
        f"(`handledger correct {W4} ...`), not another hand\n")
    assert nets(w) == NETS
    assert cli(w, "void", W4, "--reason", "misdeal", "--by", "Ann")[0] == 0
    code, _, err = cli(w, "export", W4, "--format", "phh", "-o", str(tmp_path / "v.phh"))
    assert (code, err) == (2, f"error: hand {W4}: cannot be written as PHH: it is voided, and "
                              "PHH cannot say a hand was voided (--format jsonl can)\n")


def test_a_signed_void_is_refused_under_another_id(tmp_path: Path, both: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANDLEDGER_KEYS", str(tmp_path / "keys"))
    x, w = copies(tmp_path, both)
    assert cli(x, "key", "new", "Ann")[0] == 0
    v = amended(x, X4, tmp_path / "v.jsonl", "void", X4, "--reason", "misdeal", "--by", "Ann",
                "--sign", "Ann")
    code, out, err = cli(w, "import", str(v))
    assert (code, out) == (2, "imported 0 hand(s) (0 events) from 1 file(s); 0 already in the "
                              "ledger; 1 rejected\n")
    assert err == (
        f"error: {v}:12, hand {X4}: this hand is hand {W4} of the ledger under another id (the "
        "same source key: its site's file imported under another session name), and its "
        "amendments are signed: a signature binds the hand's id and rows, so appended to "
        f"{W4} it would not verify; nothing of this hand was written (amend it here: "
        f"`handledger void {W4} ... --sign NAME`, or `correct`)\n")
    assert nets(w) == NETS
    code, out, _ = cli(w, "history", W4)
    assert (code, out.splitlines()[-1]) == (0, "no corrections or voids")
