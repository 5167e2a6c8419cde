"""PHH ``finishing_stacks`` beside ``winnings`` (FORMATS.md §1): the winnings are what the
table paid, the finishing stacks say again where that left each player; stacks that say
otherwise are named in a warning at import, both stacks, never silently ignored."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import DATA
from tests.test_live_table import one_shot

#: Ona 1000, Pia 180, Quin 1000; each puts in 460, 180 and 460; Quin wins the main pot of
#: 540 and the side pot of 560: 1100. Stacks after: Ona 540, Pia 0, Quin 1000 - 460 + 1100.
PLO = (DATA / "hands" / "plo-three-way.phh").read_text(encoding="utf-8")


def _import(tmp_path: Path, stacks: str, *more: str) -> tuple[int, str, str]:
    path = tmp_path / "f.phh"
    path.write_text(PLO + f"finishing_stacks = {stacks}\n", encoding="utf-8")
    return one_shot(tmp_path / "f.duckdb", "import", *more, str(path))


def test_finishing_stacks_the_actions_do_not_leave_are_a_warning(tmp_path: Path) -> None:
    code, out, err = _import(tmp_path, "[0, 0, 2280]")
    assert (code, out) == (0, "imported 1 hand(s) (26 events) from 1 file(s); 0 already in the "
                              "ledger; 0 rejected; 1 warning(s) about hands stored\n")
    (line,) = err.splitlines()
    hand = line.split()[3].rstrip(":")
    assert line == (
        f"warning: {tmp_path / 'f.phh'}:1: hand {hand}: its finishing_stacks [0, 0, 2280] are "
        "not the stacks its actions and winnings leave, [540, 0, 1640] (Ona -540, Quin +640): "
        "the winnings are what the table paid (FORMATS.md §1), so the finishing stacks are "
        "wrong, or the winnings are (stored as its winnings pay it)")
    # stored as the winnings pay it: Quin +640, Ona -460, Pia -180
    code, out, _ = one_shot(tmp_path / "f.duckdb", "balances", "--json")
    assert code == 0 and '"net": 640' in out and '"net": -460' in out
    # --strict refuses no hand for it: a warning, as a payout that does not add up
    assert _import(tmp_path, "[0, 0, 2280]", "--strict")[0] == 0


def test_finishing_stacks_the_actions_leave_say_nothing(tmp_path: Path) -> None:
    assert _import(tmp_path, "[540, 0, 1640]") == (
        0, "imported 1 hand(s) (26 events) from 1 file(s); 0 already in the ledger; "
           "0 rejected\n", "")


def test_finishing_stacks_with_a_short_payout_are_said_in_its_one_line(tmp_path: Path) -> None:
    """Winnings of 1000, 100 short of the pots, and finishing stacks of the full 1100: one
    line says both, the payout the audit reports and the stacks."""
    path = tmp_path / "f.phh"
    path.write_text(PLO.replace("winnings = [0, 0, 1100]", "winnings = [0, 0, 1000]")
                    + "finishing_stacks = [540, 0, 1640]\n", encoding="utf-8")
    code, _, err = one_shot(tmp_path / "f.duckdb", "import", str(path))
    (line,) = err.splitlines()
    assert code == 0 and line.endswith(
        ": the table paid 1000 of the pot of 1100: short by 100, and the hand records no rake; "
        "and its finishing_stacks [540, 0, 1640] are not the stacks its actions and winnings "
        "leave, [540, 0, 1540] (Quin +100): the winnings are what the table paid (FORMATS.md "
        "§1), so the finishing stacks are wrong, or the winnings are (stored; the audit reports "
        "it)")
